/*
 * mcp_tools.h: the MCP tools and resources of arcaded, as pure functions on
 * jansson (docs/mcp.md).
 *
 * A tool is a route of the HTTP API under another name: calling one
 * amounts to one inner REST request (method, path, JSON body or query
 * arguments) that the daemon runs through that route's own handler, so a
 * run started here is an ordinary run. mcp_tools_plan turns a tools/call's
 * arguments into that request; mcp_tools_result turns the route's status
 * and JSON answer into the tool's result. Every game argument takes its
 * values from the game table (game.h), so a ruleset added there is served
 * here with no code of its own.
 */
#ifndef API_MCP_TOOLS_H
#define API_MCP_TOOLS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

struct game;

#define MCP_PATH_MAX 160
#define MCP_RULES_URI "arcaded://rules/"

/* The moves of a match, as match_move and the play_match prompt tell
 * them: the one text about the match rulesets that is not read off their
 * table, since a ruleset's descriptor (match_rules.h) carries no help of
 * its moves. */
#define MCP_MATCH_MOVES "in versus-v1, 'place R C' (the current piece turned to rotation R, 0-3, " \
	"and dropped with its leftmost cell in column C), 'hold; place R C' (hold first, then place) " \
	"or 'resign'; in actionblocks-v1, 'keys LETTERS', the keys of the current piece up to its " \
	"lock (L, R: a column left, right; X, Z: rotate clockwise, counter-clockwise; S: soft drop; " \
	"D: hard drop and lock; C: hold), or 'resign'. Over MCP ActionBlocks plays by turns only: " \
	"its real time (60 steps a second) is for bots on the REST routes"

#define MCP_REFUSAL_MAX 1024  /* a refusal's reason, NUL included */
#define MCP_HANDLE_ARG_MAX 64  /* a handle argument's characters, at most (a handle has 25) */

struct keyring;

/* The inner REST request of one tools/call. */
struct mcp_call {
	int                tool;     /* index in the tool table */
	const char        *name;     /* the tool's name (static storage) */
	const struct game *game;     /* the game argument, NULL for tools without one */
	bool               post;     /* POST with body, else GET with query */
	char               path[MCP_PATH_MAX];
	json_t            *body;     /* POST: the JSON body (owned) */
	json_t            *query;    /* GET: the query arguments, an object of strings (owned) */
	char               handle[MCP_HANDLE_ARG_MAX + 1]; /* the handle argument, "" when absent:
	                                 the server reads it (handle.h) into the body's stateToken */
	const struct keyring *keys;  /* for the results: the handle of a run they show; NULL: none */
	char               refused[MCP_REFUSAL_MAX]; /* "": a call as asked; else why its arguments
	                                 were refused: the call reads the run they name instead,
	                                 and its result is isError with this reason */
};

/* {"tools": [...]}: every tool with its inputSchema and outputSchema. */
json_t *mcp_tools_list(void);

/* Reads a tools/call's params ({name, arguments}) into c. False with a
 * JSON-RPC code and msg: -32602 for a call the protocol refuses (no name,
 * an unknown tool, arguments that are no object); 0 for arguments the
 * tool refuses (one missing, unknown or of the wrong type), a tool error
 * whose msg says what the tool takes, c->tool and c->game kept for its
 * result. A run tool's call refused for its arguments but naming its run
 * is planned (true) as the state route's call, with c->refused set: its
 * result shows the run beside the reason. Ranges and the game's own rules
 * are left to the route, which refuses them as the REST API does. */
bool mcp_tools_plan(const json_t *params, struct mcp_call *c, int *code, char *msg, size_t cap);
void mcp_call_cleanup(struct mcp_call *c);

/* The tools/call result for the route's answer: status and its JSON body
 * (stolen; NULL: the route built none). A 2xx is a result; a refusal of
 * the game (4xx) a result with isError true that still carries what the
 * REST body carries. Either holds structuredContent and one text block.
 * NULL when out of memory. */
json_t *mcp_tools_result(const struct mcp_call *c, int status, json_t *body);

/* The same result for a run answer that is written text (body, len
 * bytes, compact and canonical as the answer writer writes it), without a
 * tree: the whole JSON-RPC response to message id (borrowed; modern: the
 * era that adds resultType) written into w, its structuredContent the
 * answer's spans in run_result's shape, its text block made from them.
 * False when the tool's result is not a run's or the answer is not one
 * this way takes (the caller then reads it as a tree); w failed when it
 * could not be written (a 500, as a NULL result is). Not for a 5xx. */
struct jw;
bool mcp_tools_result_write(struct jw *w, const struct mcp_call *c, const json_t *id, bool modern,
    int status, const char *body, size_t len);

/* A string action (a short form) as the body fields of game g's action
 * route, set into body: "place 1 4" as a command for the games that take
 * commands; "4x0" or "next" as the action object of the game's rules
 * (the shape whose integer fields, in order, are the numbers, or whose
 * only field is the type); anything else as the action string itself
 * ("r1x4"). */
bool mcp_action_from_text(const struct game *g, const char *text, json_t *body);

/* A compact text for one legal action, the inverse of the above: an id, a
 * type, or the integers of an action object joined by 'x'. */
void mcp_action_text(const json_t *action, char *out, size_t cap);

/* resources/list, resources/templates/list and resources/read
 * (arcaded://rules/<game>: the game's howToPlay). read: NULL with a code
 * and msg for an unknown or missing uri. */
json_t *mcp_resources_list(void);
json_t *mcp_resource_templates_list(void);
json_t *mcp_resources_read(const json_t *params, int *code, char *msg, size_t cap);

#endif
