/*
 * mcp_tools.c: the tool table, the inner REST request of a call, and the
 * tool results (mcp_tools.h).
 *
 * One line per tool: its name, the route it stands for (method and path
 * pattern, {game} and {id} filled from the arguments) and its arguments,
 * each with its JSON type and the REST field or query argument it becomes.
 * The game argument's values, the init options (cap, depth) and the rules
 * resources are read off the game table, and the ruleset argument's off
 * the match rulesets' table, so no line names a game or a ruleset: where
 * a description speaks of them, a placeholder ({command_games},
 * {rulesets}, {default_rules}) is filled from the tables when the list is
 * written.
 *
 * Arguments are checked here for their JSON types only; their ranges and
 * every rule of the game are the route's to judge, with the REST API's
 * messages, so that the two interfaces cannot disagree.
 */
#include "mcp_tools.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "game.h"
#include "handle.h"
#include "match_rules.h"
#include "mcp_app.h"
#include "mcp_codes.h"
#include "quote.h"

/* The text block of a result, at most (the board, the legal list, the
 * puzzle and the token fit many times over). */
#define MCP_TEXT_MAX 8192

enum arg_type {
	ARG_GAME,     /* a game's name, from the table; fills {game} */
	ARG_ID,       /* a run's or match's id, decimal text; fills {id} */
	ARG_STRING,
	ARG_INTEGER,
	ARG_BOOLEAN,
	ARG_ACTION,   /* an action object, or a short string (mcp_action_from_text) */
	ARG_AGENT,    /* {token, answer}: the agent check's body fields */
	ARG_ITEMS,    /* true, false, or {chance?, weights?}: a match's item settings, sent as
	               * the body's items, or item_chance and item_weights */
	ARG_RULES,    /* a match ruleset's name, from its table */
	ARG_HANDLE    /* a run's handle (handle.h): the server reads its newest token */
};

enum arg_to { TO_PATH, TO_BODY, TO_QUERY };

struct arg {
	const char   *name;     /* the tool's argument */
	enum arg_type type;
	enum arg_to   to;
	const char   *field;    /* the REST body field or query argument */
	bool          required;
	const char   *help;
};

/* What the result shows: a run (the game answers, reshaped as one run
 * result), the route's JSON as it is, or that JSON as structuredContent
 * with a match drawn as text (the match routes' answers). */
enum result_kind { RESULT_RUN, RESULT_AS_IS, RESULT_MATCH };

#define TOOL_ARGS_MAX 7

struct tool {
	const char      *name;
	const char      *title;
	const char      *description;
	bool             post;
	const char      *path;      /* {game}, {id} filled from the arguments; {me}: the Bearer
	                               key's account name, which the server fills */
	enum result_kind result;
	bool             options;   /* takes every init option of the table */
	struct arg       args[TOOL_ARGS_MAX];
};

#define GAME_ARG { "game", ARG_GAME, TO_PATH, NULL, true, "the game (one of the table's names)" }
#define TOKEN_ARG { "stateToken", ARG_STRING, TO_BODY, "stateToken", false, \
	"the newest stateToken of the run (structuredContent.stateToken); or send handle instead" }
#define HANDLE_ARG { "handle", ARG_HANDLE, TO_BODY, NULL, false, \
	"the run's handle, as every result of the run writes it (runId-xxxxxxxx): the server " \
	"continues the run from its newest state; send it or stateToken" }
#define AGENT_ARG { "agentCheck", ARG_AGENT, TO_BODY, NULL, false, \
	"the answer to the puzzle of the last result's agentCheck, where the game's check is on: " \
	"{\"token\": its token, \"answer\": the number}" }
#define MATCH_ARG { "matchId", ARG_ID, TO_PATH, NULL, true, "the match's id (decimal text)" }

static const struct tool tools[] = {
	{ "list_games", "List the games", "The games this server plays: name, rules version, the "
	    "figures its boards show, whether a playing run's future is hidden, whether it has a seed.",
	    false, "/api/games", RESULT_AS_IS, false, { { 0 } } },
	{ "get_rules", "Read a game's rules", "The rules of one game as JSON: its actions, board, "
	    "scoring and howToPlay text (the same text as the resource arcaded://rules/<game>).",
	    false, "/api/games/{game}/rules", RESULT_AS_IS, false, { GAME_ARG } },
	{ "start_run", "Start a run", "Starts a run of a game and answers its first state, legal "
	    "actions and stateToken. A seed picks the deal (the same seed deals the same game); the "
	    "other options are the game's (see get_rules).",
	    true, "/api/games/{game}/init", RESULT_RUN, true, { GAME_ARG,
	    { "seed", ARG_INTEGER, TO_BODY, "seed", false, "the deal, 0 to 2^53 - 1 (random when absent; "
	    "a game without a seed refuses one)" } } },
	{ "act", "Play one action", "Plays an action on the run named by its handle (or a stateToken) "
	    "and answers the new state. The action is the game's JSON object, or a short string: for "
	    "{command_games}, a command as the game's rules write it; for the other games, a legal "
	    "action as the result's text block writes it: its integer fields joined by 'x' (\"4x0\"), "
	    "its type alone (\"next\") or its id.",
	    true, "/api/games/{game}/action", RESULT_RUN, false, { GAME_ARG, HANDLE_ARG, TOKEN_ARG,
	    { "action", ARG_ACTION, TO_BODY, NULL, true, "the action: the game's object or a short string" },
	    AGENT_ARG } },
	{ "get_state", "Read a run's state", "The run as it stands, named by its handle (or its "
	    "newest stateToken).",
	    true, "/api/games/{game}/state", RESULT_RUN, false, { GAME_ARG, HANDLE_ARG, TOKEN_ARG,
	    AGENT_ARG } },
	{ "finish_run", "Finish a run", "Finishes a run that is over with a rating and a review, and "
	    "answers its final summary and its signed result certificate.",
	    true, "/api/games/{game}/finish", RESULT_RUN, false, { GAME_ARG, HANDLE_ARG, TOKEN_ARG,
	    { "rating", ARG_INTEGER, TO_BODY, "rating", true, "your rating of the game, 1 to 10" },
	    { "review", ARG_STRING, TO_BODY, "review", true, "your review of the game, 1 to 2000 "
	    "characters" }, AGENT_ARG } },
	{ "get_run", "Read a stored run", "One run as stored: summary, review, certificate and replay "
	    "(withheld while a game that hides its future is playing).",
	    false, "/api/games/{game}/runs/{id}", RESULT_AS_IS, false, { GAME_ARG,
	    { "runId", ARG_ID, TO_PATH, NULL, true, "the run's id (decimal text)" } } },
	{ "leaderboard", "Read a leaderboard", "A game's ended runs, best first, one page at a time.",
	    false, "/api/games/{game}/leaderboard", RESULT_AS_IS, false, { GAME_ARG,
	    { "seed", ARG_INTEGER, TO_QUERY, "seed", false, "only the runs of this seed" },
	    { "limit", ARG_INTEGER, TO_QUERY, "limit", false, "entries per page, 1 to 100" },
	    { "after", ARG_STRING, TO_QUERY, "after", false, "the 'next' cursor of the page before" } } },
	{ "quick_match", "Join the quick-match queue", "Joins the rated quick-match queue of the default "
	    "ruleset ({default_rules}) with the caller (the Bearer agent key's account): the queue's "
	    "lobby with exactly these settings, or a new one with you in seat 0. The seat that fills it "
	    "starts the match. It answers at once; then call wait_match with afterTurn 0, which waits "
	    "up to 25 seconds a call, until the match plays, and play it with match_move.",
	    true, "/api/matches/quick", RESULT_MATCH, false, {
	    { "players", ARG_INTEGER, TO_BODY, "players", true, "seats, 2 to 8" },
	    { "turnSeconds", ARG_INTEGER, TO_BODY, "turn_seconds", false, "seconds a turn lasts, 1 to 3600 "
	      "(10 when absent)" },
	    { "items", ARG_ITEMS, TO_BODY, NULL, false, "the item settings, as create_match takes them "
	      "(none when absent)" } } },
	{ "create_match", "Create a versus match", "Opens a versus match in its lobby with the caller "
	    "(the Bearer agent key's account) in seat 0, of the ruleset rules names (one of {rulesets}; "
	    "{default_rules} when absent). A created match is never rated: rated matches come from "
	    "the quick-match queue (quick_match). Over MCP every ruleset plays by turns; "
	    "ActionBlocks' real time (60 steps a second) is for bots on the REST routes.",
	    true, "/api/matches", RESULT_MATCH, false, {
	    { "players", ARG_INTEGER, TO_BODY, "players", true, "seats, 2 to 8" },
	    { "rules", ARG_RULES, TO_BODY, "rules", false, "the match's ruleset ({default_rules} when "
	      "absent)" },
	    { "turnSeconds", ARG_INTEGER, TO_BODY, "turn_seconds", false, "seconds a turn lasts, 1 to 3600" },
	    { "seed", ARG_INTEGER, TO_BODY, "seed", false, "the deal, 0 to 2^53 - 1 (random when absent)" },
	    { "items", ARG_ITEMS, TO_BODY, NULL, false, "the item settings: true (10 % a mino, the six "
	      "items equally likely), false (none, the default), or {chance, weights}: chance 0 to 100 "
	      "(0 none), weights six shares 0 to 100 for add_line, clear_line, nuke, swap, blind, "
	      "transform (one above 0)" } } },
	{ "join_match", "Join a versus match", "Takes the next seat of a match in its lobby; the last "
	    "seat starts it. Over MCP a match plays by turns (ActionBlocks' real time is for bots on "
	    "the REST routes).", true, "/api/matches/{id}/join", RESULT_MATCH, false, { MATCH_ARG } },
	{ "match_move", "Move in a versus match", "One move for the turn open now: turn is the match's "
	    "turn + 1, command the move: " MCP_MATCH_MOVES ".",
	    true, "/api/matches/{id}/move", RESULT_MATCH, false, { MATCH_ARG,
	    { "turn", ARG_INTEGER, TO_BODY, "turn", true, "the turn the move is for" },
	    { "command", ARG_STRING, TO_BODY, "command", true, "the move, in the words of the match's ruleset" } } },
	{ "wait_match", "Wait for a versus turn", "Answers the match once the turn after afterTurn has "
	    "resolved, the match has ended or started, or after 25 seconds as it stands. Over MCP a "
	    "match plays by turns: ActionBlocks' real time (60 steps a second) is for bots on the REST "
	    "routes.",
	    false, "/api/matches/{id}/wait", RESULT_MATCH, false, { MATCH_ARG,
	    { "afterTurn", ARG_INTEGER, TO_QUERY, "after", true, "the last turn seen" } } },
	{ "create_account", "Create an account", "Creates an account and answers its first agent key, "
	    "shown only this once. Matches, and runs that count for an account, need the key in the "
	    "MCP connection's Authorization: Bearer header (the host's configuration), never in an "
	    "argument.",
	    true, "/api/v1/accounts", RESULT_AS_IS, false, {
	    { "name", ARG_STRING, TO_BODY, "name", true, "the account's name: 3 to 32 letters, digits, "
	      "'_' or '-'" } } },
	{ "my_runs", "List my runs", "Your account's runs of one game, newest first (the Bearer agent "
	    "key's account): ids, seeds, scores and figures, status, one page at a time.",
	    false, "/api/v1/accounts/{me}/runs", RESULT_AS_IS, false, {
	    { "game", ARG_GAME, TO_QUERY, "game", true, "the game (one of the table's names)" },
	    { "limit", ARG_INTEGER, TO_QUERY, "limit", false, "entries per page, 1 to 100" },
	    { "before", ARG_STRING, TO_QUERY, "before", false, "the 'next' cursor of the page before" } } },
};
#define NTOOLS (sizeof tools / sizeof tools[0])

/* A line a tool's text block ends with on success, or NULL. */
static const char *
tool_after(const struct tool *t)
{
	if (strcmp(t->name, "create_account") == 0)
		return "The agent key above is shown only this once. Put it in your MCP host's "
		    "configuration for this server as the header Authorization: Bearer <the key>, then "
		    "reconnect: the calls after that act for the account.";
	return NULL;
}

/* ---- schemas ---- */

static json_t *
game_enum(void)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < GAME__COUNT; i++)
		json_array_append_new(a, json_string(game_table[i]->name));
	return a;
}

static json_t *
rules_enum(void)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < MATCH_RULES__COUNT; i++)
		json_array_append_new(a, json_string(match_rules_table[i]->name));
	return a;
}

static bool has_field(const char *const *fields, const char *name);

/* Whether game g's action route takes commands. */
static bool
takes_commands(const struct game *g)
{
	return has_field(g->action_fields, "command");
}

/* tmpl with its placeholders filled from the tables, into out (cut to
 * cap): {command_games} the games whose action route takes commands,
 * {rulesets} the match rulesets, {default_rules} the default one. */
static const char *
expand(const char *tmpl, char *out, size_t cap)
{
	size_t n = 0, i;
	const char *p;

	out[0] = '\0';
	for (p = tmpl; *p != '\0' && n + 1 < cap; ) {
		if (strncmp(p, "{command_games}", 15) == 0) {
			size_t k = 0;

			for (i = 0; i < GAME__COUNT; i++)
				if (takes_commands(game_table[i]) && n < cap)
					n += (size_t)snprintf(out + n, cap - n, "%s%s", k++ ? ", " : "",
					    game_table[i]->name);
			p += 15;
		} else if (strncmp(p, "{rulesets}", 10) == 0) {
			for (i = 0; i < MATCH_RULES__COUNT && n < cap; i++)
				n += (size_t)snprintf(out + n, cap - n, "%s%s", i ? ", " : "",
				    match_rules_table[i]->name);
			p += 10;
		} else if (strncmp(p, "{default_rules}", 15) == 0) {
			n += (size_t)snprintf(out + n, cap - n, "%s", match_rules_default()->name);
			p += 15;
		} else {
			out[n++] = *p++;
			out[n] = '\0';
		}
	}
	return out;
}

static json_t *
arg_schema(const struct arg *a)
{
	char help[512];
	json_t *s = NULL;

	switch (a->type) {
	case ARG_GAME:
		s = json_pack("{s:s, s:o}", "type", "string", "enum", game_enum());
		break;
	case ARG_ID:
		s = json_pack("{s:s, s:s}", "type", "string", "pattern", "^[0-9]{1,19}$");
		break;
	case ARG_STRING:
		s = json_pack("{s:s}", "type", "string");
		break;
	case ARG_INTEGER:
		s = json_pack("{s:s}", "type", "integer");
		break;
	case ARG_BOOLEAN:
		s = json_pack("{s:s}", "type", "boolean");
		break;
	case ARG_ACTION:
		s = json_pack("{s:[s,s]}", "type", "string", "object");
		break;
	case ARG_AGENT:
		s = json_pack("{s:s, s:{s:{s:s}, s:{s:[s,s]}}, s:[s,s], s:b}", "type", "object",
		    "properties", "token", "type", "string", "answer", "type", "integer", "string",
		    "required", "token", "answer", "additionalProperties", 0);
		break;
	case ARG_ITEMS:
		s = json_pack("{s:[s,s], s:{s:{s:s, s:i, s:i}, s:{s:s, s:i, s:i, s:{s:s, s:i, s:i}}}, "
		    "s:b}", "type", "boolean", "object", "properties",
		    "chance", "type", "integer", "minimum", 0, "maximum", 100,
		    "weights", "type", "array", "minItems", 6, "maxItems", 6, "items", "type", "integer",
		    "minimum", 0, "maximum", 100, "additionalProperties", 0);
		break;
	case ARG_RULES:
		s = json_pack("{s:s, s:o}", "type", "string", "enum", rules_enum());
		break;
	case ARG_HANDLE:
		s = json_pack("{s:s, s:i}", "type", "string", "maxLength", MCP_HANDLE_ARG_MAX);
		break;
	}
	if (s != NULL)
		json_object_set_new(s, "description", json_string(expand(a->help, help, sizeof help)));
	return s;
}

/* The init options of every game on the table, one property each: an
 * option several games share (cap) takes the widest bounds and names the
 * games that take it. */
static void
option_schemas(json_t *props)
{
	size_t i, j, k, l;

	for (i = 0; i < GAME__COUNT; i++)
		for (j = 0; j < game_table[i]->noptions; j++) {
			const struct game_option *o = &game_table[i]->options[j];
			int64_t lo = o->min, hi = o->max;
			char help[320];
			size_t n;

			if (json_object_get(props, o->name) != NULL)
				continue;
			n = (size_t)snprintf(help, sizeof help, "%s (%s", o->help, game_table[i]->name);
			for (k = i + 1; k < GAME__COUNT; k++)
				for (l = 0; l < game_table[k]->noptions; l++) {
					const struct game_option *p = &game_table[k]->options[l];

					if (strcmp(p->name, o->name) != 0)
						continue;
					lo = p->min < lo ? p->min : lo;
					hi = p->max > hi ? p->max : hi;
					if (n < sizeof help)
						n += (size_t)snprintf(help + n, sizeof help - n, ", %s", game_table[k]->name);
				}
			if (n < sizeof help)
				snprintf(help + n, sizeof help - n, ")");
			json_object_set_new(props, o->name, json_pack("{s:s, s:I, s:I, s:s}", "type", "integer",
			    "minimum", (json_int_t)lo, "maximum", (json_int_t)hi, "description", help));
		}
}

static json_t *
input_schema(const struct tool *t)
{
	json_t *props = json_object(), *req = json_array();
	size_t i;

	for (i = 0; i < TOOL_ARGS_MAX && t->args[i].name != NULL; i++) {
		json_object_set_new(props, t->args[i].name, arg_schema(&t->args[i]));
		if (t->args[i].required)
			json_array_append_new(req, json_string(t->args[i].name));
	}
	if (t->options)
		option_schemas(props);
	return json_pack("{s:s, s:o, s:o, s:b}", "type", "object", "properties", props, "required", req,
	    "additionalProperties", 0);
}

/* A run result's shape: what every game answer maps to. Loose on purpose
 * (a refusal carries only part of it), closed in its types. */
static json_t *
run_output_schema(void)
{
	return json_pack("{s:s, s:{s:{s:s}, s:{s:s}, s:{s:s}, s:{s:s}, s:{s:s}, s:{s:s}, s:{s:s},"
	    " s:{s:s}, s:{s:s}, s:{s:s}, s:{s:s}, s:{s:s}, s:{s:s, s:{s:{s:s}, s:{s:s}, s:{s:s}}}}, s:[s]}",
	    "type", "object", "properties",
	    "game", "type", "string",
	    "runId", "type", "string",
	    "stateToken", "type", "string",
	    "handle", "type", "string",
	    "status", "type", "string",
	    "boardText", "type", "string",
	    "state", "type", "object",
	    "legalActions", "type", "array",
	    "agentCheck", "type", "object",
	    "results", "type", "array",
	    "final", "type", "object",
	    "certificate", "type", "string",
	    "error", "type", "object", "properties", "code", "type", "string", "message", "type",
	    "string", "status", "type", "integer",
	    "required", "game");
}

json_t *
mcp_tools_list(void)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < NTOOLS; i++) {
		const struct tool *t = &tools[i];
		bool readonly = !t->post;
		char description[1024];
		json_t *o;

		o = json_pack("{s:s, s:s, s:s, s:o, s:o, s:{s:b, s:b}}", "name", t->name,
		    "title", t->title, "description", expand(t->description, description, sizeof description),
		    "inputSchema", input_schema(t),
		    "outputSchema", t->result == RESULT_RUN ? run_output_schema() :
		    json_pack("{s:s}", "type", "object"),
		    "annotations", "readOnlyHint", readonly, "openWorldHint", 0);
		/* The play tools' results are drawn by the inline board, for
		 * hosts that render MCP Apps: the nested key SEP-1865 names, and
		 * the flat one its earlier hosts read (the reference SDK's
		 * registerAppTool writes both). Other hosts ignore _meta. */
		if (t->result != RESULT_AS_IS)
			json_object_set_new(o, "_meta", json_pack("{s:{s:s}, s:s}", "ui", "resourceUri",
			    MCP_APP_URI, "ui/resourceUri", MCP_APP_URI));
		json_array_append_new(a, o);
	}
	return json_pack("{s:o}", "tools", a);
}

/* ---- planning a call ---- */

static const struct tool *
tool_named(const char *name)
{
	size_t i;

	for (i = 0; i < NTOOLS; i++)
		if (strcmp(tools[i].name, name) == 0)
			return &tools[i];
	return NULL;
}

static const struct arg *
arg_named(const struct tool *t, const char *name)
{
	size_t i;

	for (i = 0; i < TOOL_ARGS_MAX && t->args[i].name != NULL; i++)
		if (strcmp(t->args[i].name, name) == 0)
			return &t->args[i];
	return NULL;
}

/* For a string, integer or boolean argument: NULL when v has its type, or
 * what it must be ("a string", ...) for the refusal. */
static const char *
plain_type_missed(enum arg_type type, const json_t *v)
{
	switch (type) {
	case ARG_STRING: return json_is_string(v) ? NULL : "a string";
	case ARG_INTEGER: return json_is_integer(v) ? NULL : "an integer";
	default: return json_is_boolean(v) ? NULL : "a boolean";
	}
}

/* Whether some game on the table takes an init option called name. */
static bool
is_option(const char *name)
{
	size_t i, j;

	for (i = 0; i < GAME__COUNT; i++)
		for (j = 0; j < game_table[i]->noptions; j++)
			if (strcmp(game_table[i]->options[j].name, name) == 0)
				return true;
	return false;
}

static bool
has_field(const char *const *fields, const char *name)
{
	for (; fields != NULL && *fields != NULL; fields++)
		if (strcmp(*fields, name) == 0)
			return true;
	return false;
}

static bool
is_id(const char *s)
{
	size_t n = strspn(s, "0123456789");

	return n >= 1 && n <= 19 && s[n] == '\0';
}

/* Writes pattern with {game} and {id} filled in. */
static bool
fill_path(const char *pattern, const char *game, const char *id, char *out, size_t cap)
{
	size_t n = 0;
	const char *p;

	for (p = pattern; *p != '\0'; ) {
		const char *with = NULL;
		size_t len;

		if (strncmp(p, "{game}", 6) == 0) {
			with = game;
			p += 6;
		} else if (strncmp(p, "{id}", 4) == 0) {
			with = id;
			p += 4;
		}
		if (with == NULL) {
			if (n + 1 >= cap)
				return false;
			out[n++] = *p++;
			continue;
		}
		len = strlen(with);
		if (n + len >= cap)
			return false;
		memcpy(out + n, with, len);
		n += len;
	}
	out[n] = '\0';
	return true;
}

/* A refusal of the call itself (a protocol error: no tool, a malformed
 * request), and one of its arguments (a tool error the model reads and
 * corrects). */
#define PROTOCOL(...) do { snprintf(msg, cap, __VA_ARGS__); *code = MCP_INVALID_PARAMS; \
	goto refused; } while (0)
#define REFUSE(...) do { snprintf(msg, cap, __VA_ARGS__); *code = 0; goto refused; } while (0)

/* "game, handle (or stateToken), action, agentCheck (optional)": the
 * arguments of t as a refusal lists them. */
static void
arg_list(const struct tool *t, char *out, size_t cap)
{
	size_t i, n = 0;

	out[0] = '\0';
	for (i = 0; i < TOOL_ARGS_MAX && t->args[i].name != NULL && n < cap; i++) {
		const struct arg *a = &t->args[i];

		if (strcmp(a->name, "stateToken") == 0)
			continue;
		n += (size_t)snprintf(out + n, cap - n, "%s'%s'%s", n > 0 ? ", " : "", a->name,
		    a->type == ARG_HANDLE ? " (or 'stateToken')" : a->required ? "" : " (optional)");
	}
	if (t->options && n < cap)
		snprintf(out + n, cap - n, ", and the game's options");
}

/* The argument of t that an unknown key most likely meant: one the
 * arguments did not send, the required first. */
static const char *
meant(const struct tool *t, const json_t *args)
{
	size_t i, pass;

	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < TOOL_ARGS_MAX && t->args[i].name != NULL; i++)
			if (t->args[i].required == (pass == 0) && json_object_get(args, t->args[i].name) == NULL &&
			    strcmp(t->args[i].name, "stateToken") != 0)
				return t->args[i].name;
	return NULL;
}

/*
 * A run tool's call refused for its arguments, made the state route's
 * call for the run it names (by a handle or a stateToken, with the agent
 * check's answer when one came well formed), so that the refusal shows
 * the run as it stands: c->refused says why, and the result is isError
 * whatever the route answers. False when the call names no run.
 */
static bool
refused_with_run(const struct tool *t, const json_t *args, struct mcp_call *c, const char *why)
{
	const json_t *h = json_object_get(args, "handle"), *tok = json_object_get(args, "stateToken");
	const json_t *ac = json_object_get(args, "agentCheck");
	const json_t *act = json_object_get(ac, "token"), *ans = json_object_get(ac, "answer");
	const json_t *g = json_object_get(args, "game");

	/* The refusal may have come before the game was read. */
	if (c->game == NULL && json_is_string(g))
		c->game = game_by_name(json_string_value(g), json_string_length(g));
	if (t->result != RESULT_RUN || c->game == NULL || arg_named(t, "handle") == NULL)
		return false;
	if (!json_is_string(tok) && !(json_is_string(h) && json_string_length(h) <= MCP_HANDLE_ARG_MAX))
		return false;
	mcp_call_cleanup(c);
	if ((c->body = json_object()) == NULL)
		return false;
	c->handle[0] = '\0';
	if (json_is_string(tok))
		json_object_set(c->body, "stateToken", (json_t *)tok);
	else
		snprintf(c->handle, sizeof c->handle, "%s", json_string_value(h));
	if (json_is_string(act) && (json_is_integer(ans) || json_is_string(ans))) {
		json_object_set(c->body, "agent_check", (json_t *)act);
		json_object_set(c->body, "agent_answer", (json_t *)ans);
	}
	c->post = true;
	snprintf(c->refused, sizeof c->refused, "%s", why);
	return fill_path("/api/games/{game}/state", c->game->name, "", c->path, sizeof c->path);
}

bool
mcp_tools_plan(const json_t *params, struct mcp_call *c, int *code, char *msg, size_t cap)
{
	const char *name = json_string_value(json_object_get(params, "name")), *key;
	const json_t *args = json_object_get(params, "arguments"), *v;
	const struct tool *t;
	const char *game = NULL, *id = NULL;
	size_t i;

	memset(c, 0, sizeof *c);
	*code = MCP_INVALID_PARAMS;
	t = NULL;
	if (name == NULL)
		PROTOCOL("tools/call needs params.name, a string");
	if ((t = tool_named(name)) == NULL)
		PROTOCOL("Unknown tool: %.80s", name);
	if (args != NULL && !json_is_object(args))
		PROTOCOL("%s: 'arguments' must be an object", t->name);
	c->tool = (int)(t - tools);
	c->name = t->name;
	c->post = t->post;
	if (t->post)
		c->body = json_object();
	else
		c->query = json_object();
	json_object_foreach((json_t *)args, key, v)
		if (arg_named(t, key) == NULL && !(t->options && is_option(key))) {
			const char *m = meant(t, args);

			REFUSE("%s: unknown argument '%.60s'%s%s%s", t->name, key, m != NULL ?
			    " (did you mean '" : "", m != NULL ? m : "", m != NULL ? "'?)" : "");
		}
	for (i = 0; i < TOOL_ARGS_MAX && t->args[i].name != NULL; i++)
		if (t->args[i].required && json_object_get(args, t->args[i].name) == NULL)
			REFUSE("%s: missing argument '%s'", t->name, t->args[i].name);
	json_object_foreach((json_t *)args, key, v) {
		const struct arg *a = arg_named(t, key);
		json_t *into = t->post ? c->body : c->query;

		if (a == NULL && t->options && is_option(key)) {
			if (!json_is_integer(v))
				REFUSE("%s: argument '%s' must be an integer", t->name, key);
			json_object_set(c->body, key, (json_t *)v);
			continue;
		}
		if (a == NULL)
			REFUSE("%s: unknown argument '%.60s'", t->name, key);
		switch (a->type) {
		case ARG_GAME:
			if (!json_is_string(v) || (c->game = game_by_name(json_string_value(v),
			    json_string_length(v))) == NULL) {
				char names[GAME_NAMES_MAX];

				REFUSE("%s: argument 'game' must be one of %s", t->name, game_names(names,
				    sizeof names));
			}
			if (a->to == TO_QUERY)
				json_object_set_new(into, a->field, json_string(c->game->name));
			else
				game = c->game->name;
			break;
		case ARG_ID:
			if (!json_is_string(v) || !is_id(json_string_value(v)))
				REFUSE("%s: argument '%s' must be an id in decimal text", t->name, key);
			id = json_string_value(v);
			break;
		case ARG_STRING:
		case ARG_INTEGER:
		case ARG_BOOLEAN: {
			const char *want = plain_type_missed(a->type, v);

			if (want != NULL)
				REFUSE("%s: argument '%s' must be %s", t->name, key, want);
			if (a->type == ARG_INTEGER && a->to == TO_QUERY) {
				char text[GAME_ID_TEXT_MAX];

				snprintf(text, sizeof text, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
				json_object_set_new(into, a->field, json_string(text));
			} else
				json_object_set(into, a->field, (json_t *)v);
			break;
		}
		case ARG_HANDLE:
			if (!json_is_string(v) || json_string_length(v) > MCP_HANDLE_ARG_MAX)
				REFUSE("%s: argument 'handle' must be the run's handle, a string of at most %d "
				    "characters (runId-xxxxxxxx, as the run's results write it)", t->name,
				    MCP_HANDLE_ARG_MAX);
			snprintf(c->handle, sizeof c->handle, "%s", json_string_value(v));
			break;
		case ARG_ACTION:
			if (!json_is_string(v) && !json_is_object(v))
				REFUSE("%s: argument 'action' must be a string or an object", t->name);
			break; /* once the game is known, below */
		case ARG_AGENT: {
			const json_t *tok = json_object_get(v, "token"), *ans = json_object_get(v, "answer");

			if (!json_is_object(v) || !json_is_string(tok) || ans == NULL ||
			    (!json_is_integer(ans) && !json_is_real(ans) && !json_is_string(ans)) ||
			    json_object_size(v) != 2)
				REFUSE("%s: argument 'agentCheck' must be {\"token\": string, \"answer\": number}",
				    t->name);
			/* The body's own agent-check fields (docs/api.md): the route
			 * judges the answer as it judges any. */
			json_object_set(c->body, "agent_check", (json_t *)tok);
			json_object_set(c->body, "agent_answer", (json_t *)ans);
			break;
		}
		case ARG_RULES:
			if (!json_is_string(v) || match_rules_by_name(json_string_value(v)) == NULL) {
				char names[256];

				REFUSE("%s: argument '%s' must be one of %s", t->name, key, match_rules_names(names,
				    sizeof names));
			}
			json_object_set(c->body, a->field, (json_t *)v);
			break;
		case ARG_ITEMS: {
			const json_t *chance = json_object_get(v, "chance"), *w = json_object_get(v, "weights");

			if (json_is_boolean(v)) {
				json_object_set(c->body, "items", (json_t *)v);
				break;
			}
			if (!json_is_object(v) || json_object_size(v) != (size_t)(chance != NULL) +
			    (w != NULL) || json_object_size(v) == 0)
				REFUSE("%s: argument 'items' must be true, false or {\"chance\", \"weights\"}",
				    t->name);
			/* The route judges the values and names its fields
			 * (item_chance, item_weights) when they are wrong. */
			json_object_set(c->body, "items", json_true());
			if (chance != NULL)
				json_object_set(c->body, "item_chance", (json_t *)chance);
			if (w != NULL)
				json_object_set(c->body, "item_weights", (json_t *)w);
			break;
		}
		}
	}
	if (arg_named(t, "handle") != NULL && c->handle[0] == '\0' &&
	    !json_is_string(json_object_get(args, "stateToken")))
		REFUSE("%s: name the run: send 'handle', as the run's results write it (runId-xxxxxxxx), "
		    "or its newest 'stateToken'", t->name);
	if ((v = json_object_get(args, "action")) != NULL) {
		if (json_is_object(v))
			json_object_set(c->body, "action", (json_t *)v);
		else if (!mcp_action_from_text(c->game, json_string_value(v), c->body))
			PROTOCOL("out of memory");
	}
	if (!fill_path(t->path, game != NULL ? game : "", id != NULL ? id : "", c->path, sizeof c->path))
		PROTOCOL("%s: the path does not fit", t->name);
	return true;
refused:
	/* Argument names and values quoted with byte caps: the message as
	 * valid text, whatever the client sent. */
	text_repair(msg, cap);
	if (*code == 0 && t != NULL) {
		char list[256];
		size_t n = strlen(msg);

		arg_list(t, list, sizeof list);
		snprintf(msg + n, n < cap ? cap - n : 0, ". %s takes %s", t->name, list);
		if (refused_with_run(t, args, c, msg))
			return true;
	}
	mcp_call_cleanup(c);
	return false;
}

void
mcp_call_cleanup(struct mcp_call *c)
{
	json_decref(c->body);
	json_decref(c->query);
	c->body = c->query = NULL;
}

/* ---- actions as text ---- */

/* Up to max whole numbers joined by 'x' ("4x0"); their count, 0 if not. */
static size_t
numbers(const char *s, json_int_t *out, size_t max)
{
	size_t n = 0;

	while (n < max) {
		json_int_t v = 0;
		size_t d = 0;

		while (s[d] >= '0' && s[d] <= '9' && d < 9) {
			v = v * 10 + (s[d] - '0');
			d++;
		}
		if (d == 0)
			return 0;
		out[n++] = v;
		s += d;
		if (*s == '\0')
			return n;
		if (*s++ != 'x')
			return 0;
	}
	return 0;
}

/* The fields of an action shape of the rules besides its type, all
 * described as integers ("integer 0-35"); -1 when one is not. */
static int
integer_fields(const json_t *shape)
{
	const char *key;
	const json_t *v;
	int n = 0;

	json_object_foreach((json_t *)shape, key, v) {
		if (strcmp(key, "type") == 0)
			continue;
		if (!json_is_string(v) || strncmp(json_string_value(v), "integer", 7) != 0)
			return -1;
		n++;
	}
	return n;
}

bool
mcp_action_from_text(const struct game *g, const char *text, json_t *body)
{
	json_t *rules, *actions, *shape, *match = NULL, *action = NULL;
	json_int_t nums[8];
	size_t i, n;
	int nmatch = 0;

	if (g == NULL)
		return json_object_set_new(body, "action", json_string(text)) == 0;
	if (has_field(g->action_fields, "command"))
		return json_object_set_new(body, "command", json_string(text)) == 0;
	/* The shapes the game's rules list (its "actions"), read from the
	 * descriptor rather than known here. */
	rules = g->rules_json != NULL ? g->rules_json() : NULL;
	actions = json_object_get(rules, "actions");
	n = numbers(text, nums, sizeof nums / sizeof nums[0]);
	json_array_foreach(actions, i, shape) {
		const char *type = json_string_value(json_object_get(shape, "type"));

		if (type == NULL)
			continue;
		if (json_object_size(shape) == 1 && strcmp(type, text) == 0) {
			match = shape;
			nmatch = 1;
			break;
		}
		if (n > 0 && integer_fields(shape) == (int)n) {
			match = shape;
			nmatch++;
		}
	}
	if (nmatch == 1) {
		const char *key;
		json_t *v;
		size_t k = 0;

		action = json_object();
		json_object_foreach(match, key, v) {
			if (strcmp(key, "type") == 0)
				json_object_set(action, key, v);
			else
				json_object_set_new(action, key, json_integer(nums[k++]));
		}
	}
	json_decref(rules);
	/* Anything else is the game's own string (a Stackcraft id): the route
	 * judges it. */
	if (action == NULL)
		action = json_string(text);
	return json_object_set_new(body, "action", action) == 0;
}

void
mcp_action_text(const json_t *action, char *out, size_t cap)
{
	const char *key, *type;
	const json_t *v;
	size_t n = 0;
	bool ints = true;
	char *dump;

	if (cap == 0)
		return;
	out[0] = '\0';
	if (json_is_string(action)) {
		snprintf(out, cap, "%s", json_string_value(action));
		return;
	}
	if (json_is_string(json_object_get(action, "id"))) {
		snprintf(out, cap, "%s", json_string_value(json_object_get(action, "id")));
		return;
	}
	type = json_string_value(json_object_get(action, "type"));
	json_object_foreach((json_t *)action, key, v)
		if (strcmp(key, "type") != 0 && !json_is_integer(v))
			ints = false;
	if (type != NULL && json_object_size(action) == 1) {
		snprintf(out, cap, "%s", type);
		return;
	}
	if (type != NULL && ints) {
		json_object_foreach((json_t *)action, key, v) {
			if (strcmp(key, "type") == 0)
				continue;
			n += (size_t)snprintf(out + n, n < cap ? cap - n : 0, "%s%" JSON_INTEGER_FORMAT,
			    n > 0 ? "x" : "", json_integer_value(v));
		}
		return;
	}
	dump = json_dumps(action, JSON_COMPACT);
	snprintf(out, cap, "%s", dump != NULL ? dump : "?");
	free(dump);
}

/* ---- results ---- */

/* The keys of a game answer that are not the run's state. */
static const char *const envelope_keys[] = {
	"game", "runId", "stateToken", "state", "legalActions", "boardText", "results", "agent_check",
	"error", "final", "certificate", "review", "verifyWith", "ratelimit", "detail", "line", "column",
	NULL
};

static void
copy(json_t *to, const char *to_key, const json_t *from, const char *from_key)
{
	json_t *v = json_object_get(from, from_key);

	if (v != NULL && !json_is_null(v))
		json_object_set(to, to_key, v);
}

/* A game answer (or its refusal) as one run result: the fields the games
 * share under one set of names; the flat games' fields become state. */
static json_t *
run_result(const struct mcp_call *c, int status, const json_t *body)
{
	json_t *o = json_pack("{s:s}", "game", c->game != NULL ? c->game->name : "");
	json_t *state = json_object_get(body, "state"), *final = json_object_get(body, "final");
	const char *st = NULL, *key;
	json_t *v, *flat = NULL;

	copy(o, "runId", body, "runId");
	if (c->keys != NULL && c->game != NULL && json_is_string(json_object_get(body, "runId"))) {
		char h[HANDLE_TEXT_MAX + 1];

		handle_make(c->keys, c->game->name, strtoll(json_string_value(json_object_get(body, "runId")),
		    NULL, 10), h);
		json_object_set_new(o, "handle", json_string(h));
	} else if (c->handle[0] != '\0') {
		/* A refusal that shows no run (a wrong puzzle answer): the
		 * handle the call named, which the server has read. */
		json_object_set_new(o, "handle", json_string(c->handle));
	}
	copy(o, "stateToken", body, "stateToken");
	if (!json_is_object(state)) {
		flat = json_object();
		json_object_foreach((json_t *)body, key, v)
			if (!has_field(envelope_keys, key))
				json_object_set(flat, key, v);
		if (json_object_size(flat) > 0)
			state = flat;
		else
			state = NULL;
	}
	if (state != NULL) {
		json_object_set(o, "state", state);
		st = json_string_value(json_object_get(state, "status"));
		if (st == NULL)
			st = json_string_value(json_object_get(state, "phase"));
		if (json_is_string(json_object_get(state, "board_text")))
			json_object_set(o, "boardText", json_object_get(state, "board_text"));
	}
	if (st == NULL && json_is_object(final)) {
		st = json_string_value(json_object_get(final, "status"));
		if (st == NULL)
			st = json_string_value(json_object_get(final, "phase"));
	}
	if (status >= 400)
		json_object_set_new(o, "status", json_string("refused"));
	else if (json_is_object(final))
		json_object_set_new(o, "status", json_string("finished"));
	else if (st != NULL)
		json_object_set_new(o, "status", json_string(st));
	copy(o, "boardText", body, "boardText");
	copy(o, "legalActions", body, "legalActions");
	copy(o, "agentCheck", body, "agent_check");
	copy(o, "results", body, "results");
	copy(o, "final", body, "final");
	copy(o, "certificate", body, "certificate");
	copy(o, "review", body, "review");
	copy(o, "verifyWith", body, "verifyWith");
	if (status >= 400) {
		json_t *e = json_deep_copy(json_object_get(body, "error"));

		if (!json_is_object(e)) {
			json_decref(e);
			e = json_object();
		}
		json_object_set_new(e, "status", json_integer(status));
		copy(e, "ratelimit", body, "ratelimit");
		copy(e, "detail", body, "detail");
		json_object_set_new(o, "error", e);
	}
	json_decref(flat);
	return o;
}

/* Appends printf text to the growing text block. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static void
say(char *buf, size_t *n, const char *fmt, ...)
{
	va_list ap;
	size_t cap = MCP_TEXT_MAX;

	if (*n >= cap)
		return;
	va_start(ap, fmt);
	*n += (size_t)vsnprintf(buf + *n, cap - *n, fmt, ap);
	va_end(ap);
	if (*n >= cap)
		*n = cap;
}

/* say(buf, n, "%s", s) for s of len bytes, without the format's cost. */
static void
say_raw(char *buf, size_t *n, const char *s, size_t len)
{
	size_t cap = MCP_TEXT_MAX, k;

	if (*n >= cap)
		return;
	k = len < cap - 1 - *n ? len : cap - 1 - *n;
	memcpy(buf + *n, s, k);
	buf[*n + k] = '\0';
	*n += len;
	if (*n >= cap)
		*n = cap;
}

/* What the text block of a run result shows, read off the result (a tree,
 * or the written text: both ways give the same view). A string absent or
 * not a string is NULL. */
struct run_view {
	bool        error;       /* refused: err_status, err_code, err_message */
	int64_t     err_status;
	const char *err_code, *err_message;
	const char *game, *run_id, *status, *board_text;
	bool        legal;       /* a legal list (nlegal actions, legal_text gives each) */
	size_t      nlegal;
	void      (*legal_text)(const void *ctx, size_t i, char *out, size_t cap);
	const void *legal_ctx;
	char        facts[512];  /* the game's figures in one line (game_ext facts), or "" */
	const json_t *results;   /* the commands' results (an array), or NULL */
	const char *final;       /* the final summary, compact JSON, when an object */
	const char *certificate;
	bool        check;       /* an agent check: puzzle and token */
	const char *puzzle, *check_token;
	const char *state_token;
	const char *handle;      /* the run's handle; NULL: none made (then the token is shown) */
};

/* say(buf, n, "%s", s): s's bytes, without the format's cost. */
static void
say_str(char *buf, size_t *n, const char *s)
{
	say_raw(buf, n, s, strlen(s));
}

/* One value of a fact, from its compact JSON text (p, n bytes), as the
 * text block writes it: a string without its quotes, an array's items
 * one after another ("none" when empty), null as "none", anything else as
 * written. */
static void
fact_value(const char *p, size_t n, char *out, size_t cap)
{
	size_t i, k = 0;

	if (cap == 0)
		return;
	if (n == 4 && memcmp(p, "null", 4) == 0)
		p = "none", n = 4;
	else if (n == 2 && memcmp(p, "[]", 2) == 0)
		p = "none", n = 4;
	for (i = 0; i < n && k + 1 < cap; i++) {
		char c = p[i];

		if (c == '"' || c == '[' || c == ']' || c == '\\')
			continue;
		out[k++] = c == ',' ? ' ' : c;
	}
	out[k] = '\0';
}

/* The compact JSON text of a state member, for the facts: get(ctx, key)
 * gives its bytes in *p and *n, false when the state has none. */
typedef bool (*fact_get_fn)(const void *ctx, const char *key, const char **p, size_t *n);

static void append_cut(char *out, size_t cap, size_t *len, const char *s, size_t n);

/* The facts line of game g (its game_ext facts) into out: "piece T, next
 * L O Z, score 0"; "" when the game lists none or the state has none.
 * Put together without printf: it is in every run result. */
static void
facts_line(const struct game *g, fact_get_fn get, const void *ctx, char *out, size_t cap)
{
	const struct game_fact *f = g != NULL ? game_ext(g)->facts : NULL;
	size_t len = 0;

	out[0] = '\0';
	for (; f != NULL && f->key != NULL && len + 1 < cap; f++) {
		const char *p, *text, *label;
		char val[160];
		size_t n;

		if (!get(ctx, f->key, &p, &n))
			continue;
		if ((n == 4 && memcmp(p, "true", 4) == 0) || (n == 5 && memcmp(p, "false", 5) == 0)) {
			bool on = n == 4;

			if (f->if_true != NULL || f->if_false != NULL) {
				if ((text = on ? f->if_true : f->if_false) == NULL)
					continue;
				if (len > 0)
					append_cut(out, cap, &len, ", ", 2);
				append_cut(out, cap, &len, text, strlen(text));
				continue;
			}
			memcpy(val, on ? "yes" : "no", on ? 4 : 3);
		} else
			fact_value(p, n, val, sizeof val);
		label = f->label != NULL ? f->label : f->key;
		if (len > 0)
			append_cut(out, cap, &len, ", ", 2);
		append_cut(out, cap, &len, label, strlen(label));
		append_cut(out, cap, &len, " ", 1);
		append_cut(out, cap, &len, val, strlen(val));
	}
}

/* The words of an option's figure, in the order they are written; the
 * option's own coordinates and board are left to its command. */
static const char *const option_figures[][2] = {
	{ "lines", "lines" }, { "holes", "holes" }, { "max_height", "height" },
	{ "bumpiness", "bumpiness" }, { "top", "top" },
};

/* The commands' results (an array of command results: command, ok,
 * message, and options for an options command), a line each; an
 * options command's then as a table: a header naming the figures the
 * first option has, and a line an option, the command that plays it
 * and its figures in that order. */
static void
results_text(const json_t *results, char *buf, size_t *n)
{
	const json_t *r, *o;
	size_t i, j, k;

	json_array_foreach(results, i, r) {
		const char *cmd = json_string_value(json_object_get(r, "command"));
		const char *msg = json_string_value(json_object_get(r, "message"));
		const json_t *opts = json_object_get(r, "options");
		bool has[sizeof option_figures / sizeof option_figures[0]];

		say(buf, n, "%s %s: %s\n", cmd != NULL ? cmd : "?",
		    json_is_false(json_object_get(r, "ok")) ? "refused" : "ok", msg != NULL ? msg : "");
		if (json_array_size(opts) == 0)
			continue;
		say(buf, n, "option:");
		for (k = 0; k < sizeof has / sizeof has[0]; k++)
			if ((has[k] = json_is_integer(json_object_get(json_array_get(opts, 0),
			    option_figures[k][0]))))
				say(buf, n, " %s", option_figures[k][1]);
		say(buf, n, "\n");
		json_array_foreach(opts, j, o) {
			const json_t *c = json_object_get(o, "command"), *lock = json_object_get(o, "lock");

			if (json_is_string(c))
				say(buf, n, "%s:", json_string_value(c));
			else if (json_is_integer(lock))
				say(buf, n, "place %" JSON_INTEGER_FORMAT ":", json_integer_value(lock));
			else
				say(buf, n, "option %zu:", j);
			for (k = 0; k < sizeof has / sizeof has[0]; k++)
				if (has[k])
					say(buf, n, " %" JSON_INTEGER_FORMAT,
					    json_integer_value(json_object_get(o, option_figures[k][0])));
			if (json_is_true(json_object_get(o, "over")))
				say(buf, n, " (ends the run)");
			say(buf, n, "\n");
		}
	}
}

/* A grid drawing (every line of one width, no space in it: a well) with
 * each run of two or more empty rows ('.' only) said in one line, and a
 * ruler of its columns under it; any other drawing as it is. */
static void
say_board(char *buf, size_t *n, const char *board)
{
	size_t width = strcspn(board, "\n"), run = 0, i;
	const char *p, *line;
	bool grid = width > 0 && width <= 40;

	for (p = board; grid && *p != '\0'; ) {
		size_t w = strcspn(p, "\n");

		if (w != width || memchr(p, ' ', w) != NULL)
			grid = false;
		p += w;
		if (*p == '\n')
			p++;
	}
	if (!grid) {
		say_str(buf, n, board);
		say_raw(buf, n, "\n", 1);
		return;
	}
	for (p = board, line = board; ; ) {
		if (*p != '\0' && strspn(p, ".") >= width) {
			line = p; /* the last empty row of the run */
			run++;
			p += width + (p[width] == '\n');
			continue;
		}
		if (run == 1) {
			say_raw(buf, n, line, width);
			say_raw(buf, n, "\n", 1);
		} else if (run > 1)
			say(buf, n, "(%zu empty rows)\n", run);
		run = 0;
		if (*p == '\0')
			break;
		say_raw(buf, n, p, width);
		say_raw(buf, n, "\n", 1);
		p += width + (p[width] == '\n');
	}
	for (i = 0; i < width; i++)
		say_raw(buf, n, &"0123456789"[i % 10], 1);
	say_raw(buf, n, "\n", 1);
}

/* The call to make next, with the run's handle: act while the run
 * plays, finish_run once it is over, nothing once it is finished. */
static void
next_line(const struct run_view *v, char *buf, size_t *n)
{
	const char *st = v->status != NULL ? v->status : "";

	if (strcmp(st, "finished") == 0)
		return;
	/* In parts, without printf: every run result has it. */
	if (strcmp(st, "over") == 0 || strcmp(st, "done") == 0)
		say_str(buf, n, "next: finish_run with {\"game\": \"");
	else
		say_str(buf, n, "next: act with {\"game\": \"");
	say_str(buf, n, v->game);
	say_str(buf, n, "\", \"handle\": \"");
	say_str(buf, n, v->handle);
	if (strcmp(st, "over") == 0 || strcmp(st, "done") == 0)
		say_str(buf, n, "\", \"rating\": <1-10>, \"review\": <your review>}\n");
	else
		say_str(buf, n, "\", \"action\": <your move>}\n");
}

/* The text block of a run result: what a reader needs to play on. The
 * lines every result has are put together from their parts (say_raw
 * cuts as one say of the whole line would). */
static char *
run_text(const struct run_view *v)
{
	char *buf = malloc(MCP_TEXT_MAX + 1), act[128];
	size_t n = 0, i;

	if (buf == NULL)
		return NULL;
	buf[0] = '\0';
	if (v->error)
		say(buf, &n, "refused: %" PRId64 " %s: %s\n", v->err_status,
		    v->err_code != NULL ? v->err_code : "error", v->err_message != NULL ? v->err_message : "");
	if (v->game[0] != '\0' || v->run_id != NULL) {
		say_str(buf, &n, v->game);
		say_raw(buf, &n, " run ", 5);
		say_str(buf, &n, v->run_id != NULL ? v->run_id : "-");
		say_raw(buf, &n, ": ", 2);
		say_str(buf, &n, v->status != NULL ? v->status : "-");
		say_raw(buf, &n, "\n", 1);
	}
	if (v->facts[0] != '\0') {
		say_str(buf, &n, v->facts);
		say_raw(buf, &n, "\n", 1);
	}
	if (v->board_text != NULL)
		say_board(buf, &n, v->board_text);
	if (v->results != NULL)
		results_text(v->results, buf, &n);
	if (v->legal) {
		say_raw(buf, &n, "legal actions:", 14);
		for (i = 0; i < v->nlegal; i++) {
			v->legal_text(v->legal_ctx, i, act, sizeof act);
			say_raw(buf, &n, " ", 1);
			say_raw(buf, &n, act, strlen(act));
		}
		if (v->nlegal == 0)
			say_raw(buf, &n, " none", 5);
		say_raw(buf, &n, "\n", 1);
	}
	if (v->final != NULL)
		say(buf, &n, "final: %s\n", v->final);
	if (v->certificate != NULL)
		say(buf, &n, "certificate: %s\n", v->certificate);
	if (v->check)
		say(buf, &n, "agent check: %s -- answer with agentCheck {\"token\": \"%s\", \"answer\": "
		    "<the number>}\n", v->puzzle != NULL ? v->puzzle : "",
		    v->check_token != NULL ? v->check_token : "");
	if (v->error && v->err_code != NULL && strcmp(v->err_code, "invalid_state_token") == 0)
		say_str(buf, &n, "the stateToken does not open: name the run by its handle instead, as "
		    "its results write it (runId-xxxxxxxx)\n");
	if (v->handle != NULL)
		next_line(v, buf, &n);
	else if (v->state_token != NULL) {
		say_raw(buf, &n, "stateToken: ", 12);
		say_str(buf, &n, v->state_token);
		say_raw(buf, &n, "\n", 1);
	}
	return buf;
}

static void
tree_legal_text(const void *ctx, size_t i, char *out, size_t cap)
{
	mcp_action_text(json_array_get(ctx, i), out, cap);
}

/* A fact's text read off a state tree. */
struct tree_facts {
	const json_t *state;
	char         *dump;  /* the last value's text, freed on the next */
};

static bool
tree_fact(const void *ctx, const char *key, const char **p, size_t *n)
{
	struct tree_facts *t = (struct tree_facts *)ctx;
	const json_t *v = json_object_get(t->state, key);

	free(t->dump);
	t->dump = NULL;
	if (v == NULL || (t->dump = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY)) == NULL)
		return false;
	*p = t->dump;
	*n = strlen(t->dump);
	return true;
}

/* run_text of the result tree r, of game g. */
static char *
run_text_of(const struct game *g, const json_t *r)
{
	struct tree_facts tf = { json_object_get(r, "state"), NULL };
	const json_t *e = json_object_get(r, "error"), *legal = json_object_get(r, "legalActions");
	const json_t *ac = json_object_get(r, "agentCheck"), *final = json_object_get(r, "final");
	struct run_view v;
	char *dump = NULL, *text;

	memset(&v, 0, sizeof v);
	if (e != NULL) {
		v.error = true;
		v.err_status = json_integer_value(json_object_get(e, "status"));
		v.err_code = json_string_value(json_object_get(e, "code"));
		v.err_message = json_string_value(json_object_get(e, "message"));
	}
	v.game = json_string_value(json_object_get(r, "game")) != NULL ? json_string_value(json_object_get(r, "game")) : "";
	v.run_id = json_string_value(json_object_get(r, "runId"));
	v.status = json_string_value(json_object_get(r, "status"));
	v.board_text = json_string_value(json_object_get(r, "boardText"));
	if (json_is_array(legal)) {
		v.legal = true;
		v.nlegal = json_array_size(legal);
		v.legal_text = tree_legal_text;
		v.legal_ctx = legal;
	}
	if (json_is_object(final))
		v.final = (dump = json_dumps(final, JSON_COMPACT)) != NULL ? dump : "?";
	v.certificate = json_string_value(json_object_get(r, "certificate"));
	if (json_is_object(ac)) {
		v.check = true;
		v.puzzle = json_string_value(json_object_get(ac, "puzzle"));
		v.check_token = json_string_value(json_object_get(ac, "token"));
	}
	v.state_token = json_string_value(json_object_get(r, "stateToken"));
	v.handle = json_string_value(json_object_get(r, "handle"));
	facts_line(g, tree_fact, &tf, v.facts, sizeof v.facts);
	free(tf.dump);
	if (json_is_array(json_object_get(r, "results")))
		v.results = json_object_get(r, "results");
	text = run_text(&v);
	free(dump);
	return text;
}

/* ---- a match as text ---- */

/* The words of a seat's or a turn's member where its key is not plain. */
static const char *const match_words[][2] = {
	{ "current", "piece" }, { "pending", "pending garbage" }, { "lines_sent", "sent" },
	{ "lines_received", "received" }, { "end_reason", "ended by" },
};

/* Members the seat line leaves out: drawn below, or said before. */
static const char *const seat_drawn[] = {
	"seat", "account", "board_text", "board", "buffer", "item_board", "moved", "items_text",
	"rating_before", "rating_after", NULL
};

/* Whether v holds nothing but nulls (an item per cell of a piece, where
 * no cell carries one). */
static bool
all_null(const json_t *v)
{
	const json_t *x;
	size_t i;

	if (!json_is_array(v))
		return json_is_null(v);
	json_array_foreach(v, i, x)
		if (!all_null(x))
			return false;
	return true;
}

static const char *
match_word(const char *key)
{
	size_t i;

	for (i = 0; i < sizeof match_words / sizeof match_words[0]; i++)
		if (strcmp(match_words[i][0], key) == 0)
			return match_words[i][1];
	return key;
}

/* A member's value in a line: a scalar as written, an array's items
 * one after another, an object's members "key value" in parentheses. */
static void
say_value(char *buf, size_t *n, const json_t *v)
{
	const char *key;
	const json_t *x;
	size_t i;

	switch (json_typeof(v)) {
	case JSON_STRING:
		say(buf, n, "%s", json_string_value(v));
		break;
	case JSON_INTEGER:
		say(buf, n, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
		break;
	case JSON_TRUE:
		say(buf, n, "yes");
		break;
	case JSON_FALSE:
		say(buf, n, "no");
		break;
	case JSON_NULL:
		say(buf, n, "none");
		break;
	case JSON_ARRAY:
		if (json_array_size(v) == 0)
			say(buf, n, "none");
		json_array_foreach(v, i, x) {
			say(buf, n, "%s", i > 0 ? " " : "");
			say_value(buf, n, x);
		}
		break;
	case JSON_OBJECT:
		say(buf, n, "(");
		i = 0;
		json_object_foreach((json_t *)v, key, x) {
			say(buf, n, "%s%s ", i++ > 0 ? ", " : "", key);
			say_value(buf, n, x);
		}
		say(buf, n, ")");
		break;
	default: {
		char *d = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);

		say(buf, n, "%s", d != NULL ? d : "?");
		free(d);
	}
	}
}

/* One seat: "seat 0 frank (you): alive yes, piece Z, hold none, next O J
 * T, score 0, ..."; a member null is left out but the hold's. */
static void
seat_text(const json_t *seat, const json_t *you, char *buf, size_t *n)
{
	const json_t *num = json_object_get(seat, "seat"), *v;
	const char *acc = json_string_value(json_object_get(seat, "account")), *key;
	size_t k = 0;

	say(buf, n, "seat %" JSON_INTEGER_FORMAT "%s%s%s:", json_integer_value(num), acc != NULL ? " " : "",
	    acc != NULL ? acc : "", json_is_integer(you) && json_equal(you, num) ? " (you)" : "");
	json_object_foreach((json_t *)seat, key, v) {
		if (has_field(seat_drawn, key) || (json_is_null(v) && strcmp(key, "hold") != 0) ||
		    (json_is_array(v) && json_array_size(v) > 0 && all_null(v)))
			continue;
		say(buf, n, "%s %s ", k++ > 0 ? "," : "", match_word(key));
		say_value(buf, n, v);
	}
	say(buf, n, "\n");
}

/* A seat's board: its drawing, or its rows. */
static void
seat_board(const json_t *seat, char *buf, size_t *n)
{
	const json_t *rows = json_object_get(seat, "board"), *r;
	size_t i;

	if (json_is_string(json_object_get(seat, "board_text"))) {
		say(buf, n, "%s\n", json_string_value(json_object_get(seat, "board_text")));
		return;
	}
	json_array_foreach(rows, i, r)
		if (json_is_string(r))
			say(buf, n, "%s\n", json_string_value(r));
}

/* What each seat did in a turn: the members that say something (not
 * null, no, 0 or empty). */
static void
turn_text(const json_t *turn, char *buf, size_t *n)
{
	const json_t *p, *v;
	const char *key;
	size_t i, k;

	say(buf, n, "last turn %" JSON_INTEGER_FORMAT ":\n", json_integer_value(json_object_get(turn, "turn")));
	json_array_foreach(json_object_get(turn, "players"), i, p) {
		say(buf, n, "  seat %" JSON_INTEGER_FORMAT ":", json_integer_value(json_object_get(p, "seat")));
		k = 0;
		json_object_foreach((json_t *)p, key, v) {
			if (strcmp(key, "seat") == 0 || json_is_null(v) || json_is_false(v) ||
			    (json_is_integer(v) && json_integer_value(v) == 0 && strcmp(key, "rotation") != 0 &&
			    strcmp(key, "column") != 0) ||
			    (json_is_array(v) && json_array_size(v) == 0))
				continue;
			say(buf, n, "%s %s ", k++ > 0 ? "," : "", match_word(key));
			say_value(buf, n, v);
		}
		say(buf, n, "\n");
	}
}

/* The text block of a match answer (a match's view, a join, a move, a
 * wait): the match in one line, every seat's figures, the boards side by
 * side, what the last turn did, and what to send next. */
static char *
match_text(const char *tool, int status, const json_t *b)
{
	char *buf = malloc(MCP_TEXT_MAX + 1);
	const json_t *st = json_object_get(b, "state"), *view = b, *you, *seats, *seat, *v;
	const char *id = json_string_value(json_object_get(b, "match_id"));
	json_int_t turn;
	size_t n = 0, i;

	if (buf == NULL)
		return NULL;
	buf[0] = '\0';
	if (status >= 400) {
		const json_t *e = json_object_get(b, "error");

		say(buf, &n, "refused: %d %s: %s\n", status, json_string_value(json_object_get(e, "code")) != NULL ?
		    json_string_value(json_object_get(e, "code")) : "error",
		    json_string_value(json_object_get(e, "message")) != NULL ?
		    json_string_value(json_object_get(e, "message")) : "");
	}
	if (json_is_string(json_object_get(b, "move")))
		/* A move's answer: the move, then the match as the mover sees it. */
		say(buf, &n, "move for turn %" JSON_INTEGER_FORMAT ": %s (%s)\n",
		    json_integer_value(json_object_get(b, "turn")), json_string_value(json_object_get(b, "move")),
		    json_is_true(json_object_get(b, "resolved")) ? "the turn has resolved" :
		    "waiting for the other seats");
	if (json_is_object(st))
		view = st;
	else if (json_is_object(json_object_get(b, "match")))
		view = json_object_get(b, "match"); /* a refusal shows the match as it stands */
	if (!json_is_string(json_object_get(view, "status")) && status >= 400) {
		/* A refusal with no match in it: the rest is its own JSON. */
		char *d = json_dumps(b, JSON_COMPACT);

		say(buf, &n, "%s\n", d != NULL ? d : "");
		free(d);
		return buf;
	}
	turn = json_integer_value(json_object_get(view, "turn"));
	you = json_object_get(view, "you");
	if (id == NULL)
		id = json_string_value(json_object_get(view, "match_id"));
	say(buf, &n, "%s%smatch %s: %s", json_string_value(json_object_get(view, "rules")) != NULL ?
	    json_string_value(json_object_get(view, "rules")) : "",
	    json_string_value(json_object_get(view, "rules")) != NULL ? " " : "", id != NULL ? id : "-",
	    json_string_value(json_object_get(view, "status")) != NULL ?
	    json_string_value(json_object_get(view, "status")) : "-");
	if (json_is_integer(json_object_get(view, "players")))
		say(buf, &n, ", %" JSON_INTEGER_FORMAT " of %" JSON_INTEGER_FORMAT " seats taken",
		    json_integer_value(json_object_get(view, "joined")),
		    json_integer_value(json_object_get(view, "players")));
	say(buf, &n, ", turn %" JSON_INTEGER_FORMAT, turn);
	if (json_is_integer(v = json_object_get(view, "deadline_in_ms")))
		say(buf, &n, ", next turn due in %" JSON_INTEGER_FORMAT " s", (json_integer_value(v) + 999) / 1000);
	if (json_is_integer(you))
		say(buf, &n, ", you are seat %" JSON_INTEGER_FORMAT, json_integer_value(you));
	say(buf, &n, "\n");
	if ((v = json_object_get(view, "end")) != NULL && !json_is_null(v)) {
		say(buf, &n, "end: ");
		say_value(buf, &n, v);
		say(buf, &n, "\n");
	}
	seats = json_object_get(view, "seats");
	json_array_foreach(seats, i, seat)
		seat_text(seat, you, buf, &n);
	if (json_is_object(seat = json_object_get(view, "seat"))) {
		seat_text(seat, json_object_get(seat, "seat"), buf, &n);
		seat_board(seat, buf, &n);
	} else if (json_is_string(v = json_object_get(view, "boardText")))
		say(buf, &n, "%s\n", json_string_value(v));
	else
		json_array_foreach(seats, i, seat) {
			if (json_object_get(seat, "board_text") == NULL && json_object_get(seat, "board") == NULL)
				continue;
			say(buf, &n, "seat %" JSON_INTEGER_FORMAT "'s board:\n",
			    json_integer_value(json_object_get(seat, "seat")));
			seat_board(seat, buf, &n);
		}
	if (json_is_object(v = json_object_get(view, "last_turn")))
		turn_text(v, buf, &n);
	if (id == NULL || (status >= 400 && view == b))
		return buf;
	if (strcmp(json_string_value(json_object_get(view, "status")) != NULL ?
	    json_string_value(json_object_get(view, "status")) : "", "playing") != 0) {
		if (strcmp(json_string_value(json_object_get(view, "status")) != NULL ?
		    json_string_value(json_object_get(view, "status")) : "", "lobby") == 0)
			say(buf, &n, "next: wait_match {\"matchId\": \"%s\", \"afterTurn\": 0} until it plays\n", id);
		return buf;
	}
	if (strcmp(tool, "match_move") == 0 && status < 400 && !json_is_true(json_object_get(b, "resolved")))
		say(buf, &n, "next: wait_match {\"matchId\": \"%s\", \"afterTurn\": %" JSON_INTEGER_FORMAT "}\n",
		    id, json_integer_value(json_object_get(b, "turn")) - 1);
	else
		say(buf, &n, "next: match_move {\"matchId\": \"%s\", \"turn\": %" JSON_INTEGER_FORMAT
		    ", \"command\": <your move>}\n", id, turn + 1);
	return buf;
}

json_t *
mcp_tools_result(const struct mcp_call *c, int status, json_t *body)
{
	const struct tool *t = &tools[c->tool];
	json_t *sc, *out;
	char *text;

	if (body == NULL)
		return NULL;
	if (c->refused[0] != '\0' && json_is_object(body)) {
		/* The call's arguments were refused, and the route read the run
		 * they named: the reason, beside the run as it stands. */
		const char *also = json_string_value(json_object_get(json_object_get(body, "error"), "message"));
		char why[MCP_REFUSAL_MAX + 256];

		snprintf(why, sizeof why, "%s%s%s", c->refused, also != NULL ? "; and: " : "",
		    also != NULL ? also : "");
		json_object_set_new(body, "error", json_pack("{s:s, s:s}", "code", "invalid_arguments",
		    "message", why));
		status = 400;
	}
	if (t->result == RESULT_RUN) {
		sc = run_result(c, status, body);
		text = sc != NULL ? run_text_of(c->game, sc) : NULL;
	} else {
		sc = json_is_object(body) ? json_incref(body) : json_pack("{s:O}", "items", body);
		if (sc != NULL && status >= 400) {
			json_t *e = json_object_get(sc, "error");

			if (json_is_object(e))
				json_object_set_new(e, "status", json_integer(status));
		}
		/* The answer as JSON text too, for clients that read only text;
		 * a match drawn. */
		if (sc != NULL && t->result == RESULT_MATCH)
			text = match_text(t->name, status, sc);
		else
			text = sc != NULL ? json_dumps(sc, JSON_COMPACT) : NULL;
		if (text != NULL && tool_after(t) != NULL && status < 400) {
			size_t len = strlen(text) + strlen(tool_after(t)) + 2;
			char *more = malloc(len);

			if (more != NULL)
				snprintf(more, len, "%s\n%s", text, tool_after(t));
			free(text);
			text = more;
		}
	}
	json_decref(body);
	if (sc == NULL || text == NULL) {
		json_decref(sc);
		free(text);
		return NULL;
	}
	out = json_pack("{s:[{s:s, s:s}], s:o, s:b}", "content", "type", "text", "text", text,
	    "structuredContent", sc, "isError", status >= 400);
	free(text);
	return out;
}

/* ---- results from written text ----
 *
 * The run answers are written (jw.h), and mcp_tools_result_write makes a
 * tool's result of that text as it stands, without a tree: the spans of
 * its members are copied into the result in run_result's order and
 * shape, and the text block is made from the same spans. The answer text
 * is compact and canonical (as json_dumps writes it: test_answers), so a
 * value's span is the bytes json_dumps would give its copy.
 */

struct span {
	const char *p;
	size_t      n;
};

struct member {
	struct span key;  /* between the quotes, as written */
	struct span val;
};

#define MEMBERS_MAX 64

/* Past the string at p (its opening quote), or NULL. */
static const char *
skip_string(const char *p, const char *end)
{
	const char *q, *b;

	for (p++; p < end; p = q + 1) {
		/* Most strings are short: a few bytes by hand, then memchr. */
		for (q = p; q < end && q - p < 16 && *q != '"'; q++)
			;
		if (q >= end)
			return NULL;
		if (*q != '"' && (q = memchr(q, '"', (size_t)(end - q))) == NULL)
			return NULL;
		/* A quote after an odd run of backslashes is escaped. */
		for (b = q; b > p && b[-1] == '\\'; b--)
			;
		if (((q - b) & 1) == 0)
			return q + 1;
	}
	return NULL;
}

/* The bytes where a value's nesting may change. */
static const unsigned char structural[256] = {
	['"'] = 1, ['{'] = 1, ['['] = 1, ['}'] = 1, [']'] = 1,
};

/* Past the value at p, or NULL when it does not end before end. */
static const char *
skip_value(const char *p, const char *end)
{
	int depth = 0;

	if (p >= end)
		return NULL;
	if (!structural[(unsigned char)*p]) {
		while (p < end && *p != ',' && *p != '}' && *p != ']')
			p++;
		return p;
	}
	do {
		while (p < end && !structural[(unsigned char)*p])
			p++;
		if (p >= end)
			return NULL;
		if (*p == '"') {
			if ((p = skip_string(p, end)) == NULL)
				return NULL;
			if (depth == 0)
				return p;
			continue;
		}
		if (*p == '{' || *p == '[')
			depth++;
		else if (depth-- == 0)
			return NULL;
		p++;
	} while (depth > 0);
	return p;
}

static bool key_is(const struct member *m, const char *key);
static const char *array_at(const char *p, const char *end, struct span *out, size_t cap, long *n);

/* What object_at reads on its way through the answer's top object, so
 * that run_result_write does not read it twice: the members of the first
 * "state" when an object, the items of the first "legalActions" when an
 * array (ns, nl: their counts, -1 when not read or not readable). */
struct nested {
	struct member *sm;
	int            ns;
	bool           state_seen;
	struct span   *items;
	size_t         icap;
	long           nl;
	bool           legal_seen;
};

/* The members of the object at p, at most cap of them, into m and *n;
 * the byte after it, or NULL when it is not an object of at most cap
 * members that ends by end. */
static const char *
object_at(const char *p, const char *end, struct member *m, int cap, int *n, struct nested *nest)
{
	const char *k, *v, *q;

	*n = 0;
	if (end - p < 2 || *p++ != '{')
		return NULL;
	if (*p == '}')
		return p + 1;
	for (;;) {
		k = p;
		if (*n >= cap || *p != '"' || (p = skip_string(p, end)) == NULL || p >= end || *p != ':')
			return NULL;
		m[*n].key = (struct span){ k + 1, (size_t)(p - k) - 2 };
		v = ++p;
		q = NULL;
		if (nest != NULL && !nest->state_seen && key_is(&m[*n], "state")) {
			nest->state_seen = true;
			if (p < end && *p == '{' &&
			    (q = object_at(p, end, nest->sm, MEMBERS_MAX, &nest->ns, NULL)) == NULL)
				nest->ns = -1;
		} else if (nest != NULL && !nest->legal_seen && key_is(&m[*n], "legalActions")) {
			nest->legal_seen = true;
			if (p < end && *p == '[' &&
			    (q = array_at(p, end, nest->items, nest->icap, &nest->nl)) == NULL)
				nest->nl = -1;
		}
		if ((p = q != NULL ? q : skip_value(p, end)) == NULL || p >= end)
			return NULL;
		m[(*n)++].val = (struct span){ v, (size_t)(p - v) };
		if (*p == '}')
			return p + 1;
		if (*p++ != ',')
			return NULL;
	}
}

/* The members of the object o, at most cap of them; their count, or -1
 * when o is not an object of at most cap members. */
static int
members(struct span o, struct member *m, int cap)
{
	int n;

	return object_at(o.p, o.p + o.n, m, cap, &n, NULL) == o.p + o.n ? n : -1;
}

static bool
key_is(const struct member *m, const char *key)
{
	return m->key.n == strlen(key) && memcmp(m->key.p, key, m->key.n) == 0;
}

/* The member key of m[0..n), or NULL. */
static const struct member *
find(const struct member *m, int n, const char *key)
{
	int i;

	for (i = 0; i < n; i++)
		if (key_is(&m[i], key))
			return &m[i];
	return NULL;
}

static bool
span_is_string(const struct member *m)
{
	return m != NULL && m->val.n >= 2 && m->val.p[0] == '"';
}

static bool
span_is_object(const struct member *m)
{
	return m != NULL && m->val.n >= 2 && m->val.p[0] == '{';
}

/* Present and not null: what copy() copies. */
static bool
span_given(const struct member *m)
{
	return m != NULL && !(m->val.n == 4 && memcmp(m->val.p, "null", 4) == 0);
}

/* An integer as jw writes one: at most 20 bytes, as an int64's are. */
static bool
span_is_integer(struct span v)
{
	size_t i = v.n > 0 && v.p[0] == '-' ? 1 : 0;

	if (i >= v.n || v.n > 20)
		return false;
	for (; i < v.n; i++)
		if (v.p[i] < '0' || v.p[i] > '9')
			return false;
	return true;
}

static unsigned
hex4(const char *p)
{
	unsigned v = 0, i;

	for (i = 0; i < 4; i++) {
		char c = p[i];

		v = v * 16 + (unsigned)(c >= 'a' ? c - 'a' + 10 : c >= 'A' ? c - 'A' + 10 : c - '0');
	}
	return v;
}

/* The string at v (a string's span) unescaped into *arena, NUL-terminated
 * (a NUL inside ends it, as the tree's C string does); *arena moves past
 * it. The arena holds the answer's length: no string is longer unescaped. */
static const char *
unescape(struct span v, char **arena)
{
	char *out = *arena, *o = out;
	const char *p = v.p + 1, *end = v.p + v.n - 1;

	while (p < end) {
		const char *bs = memchr(p, '\\', (size_t)(end - p));
		size_t run = (size_t)((bs != NULL ? bs : end) - p);
		unsigned c;

		/* The plain run up to the next escape, at once. */
		memcpy(o, p, run);
		o += run;
		p += run;
		if (p >= end)
			break;
		switch (*++p) {
		case 'b': *o++ = '\b'; break;
		case 'f': *o++ = '\f'; break;
		case 'n': *o++ = '\n'; break;
		case 'r': *o++ = '\r'; break;
		case 't': *o++ = '\t'; break;
		case 'u':
			c = hex4(p + 1);
			p += 4;
			if (c >= 0xd800 && c < 0xdc00 && p + 6 < end && p[1] == '\\' && p[2] == 'u') {
				unsigned lo = hex4(p + 3);

				if (lo >= 0xdc00 && lo < 0xe000) {
					c = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
					p += 6;
				}
			}
			if (c < 0x80) {
				*o++ = (char)c;
			} else if (c < 0x800) {
				*o++ = (char)(0xc0 | c >> 6);
				*o++ = (char)(0x80 | (c & 0x3f));
			} else if (c < 0x10000) {
				*o++ = (char)(0xe0 | c >> 12);
				*o++ = (char)(0x80 | ((c >> 6) & 0x3f));
				*o++ = (char)(0x80 | (c & 0x3f));
			} else {
				*o++ = (char)(0xf0 | c >> 18);
				*o++ = (char)(0x80 | ((c >> 12) & 0x3f));
				*o++ = (char)(0x80 | ((c >> 6) & 0x3f));
				*o++ = (char)(0x80 | (c & 0x3f));
			}
			break;
		default: *o++ = *p; break; /* " \ / */
		}
		p++;
	}
	*o++ = '\0';
	*arena = o;
	return out;
}

/* A string member's value unescaped, or NULL when m is not a string. */
static const char *
string_of(const struct member *m, char **arena)
{
	return span_is_string(m) ? unescape(m->val, arena) : NULL;
}

/* s (n bytes) at out + *len as snprintf(out + *len, cap - *len, "%.*s")
 * would put it, one call after another: *len counts what was asked. */
static void
append_cut(char *out, size_t cap, size_t *len, const char *s, size_t n)
{
	if (*len + 1 < cap) {
		size_t k = n < cap - 1 - *len ? n : cap - 1 - *len;

		memcpy(out + *len, s, k);
		out[*len + k] = '\0';
	}
	*len += n;
}

/* The legal list of a written answer, for run_view's legal_text. */
struct span_list {
	struct span *items;
	char        *arena;  /* room for one item's strings */
};

/* mcp_action_text of an action's span. */
static void
span_legal_text(const void *ctx, size_t i, char *out, size_t cap)
{
	const struct span_list *l = ctx;
	struct span a = l->items[i];
	struct member m[MEMBERS_MAX];
	const struct member *id, *type;
	char *arena = l->arena;
	const char *tname;
	int n, k;
	size_t len = 0;
	bool ints = true;

	if (cap == 0)
		return;
	out[0] = '\0';
	if (a.n > 0 && a.p[0] == '"') {
		snprintf(out, cap, "%s", unescape(a, &arena));
		return;
	}
	if (a.n > 0 && a.p[0] == '[') {
		snprintf(out, cap, "%.*s", (int)a.n, a.p);
		return;
	}
	if (a.n == 0 || a.p[0] != '{') {
		snprintf(out, cap, "?");
		return;
	}
	if ((n = members(a, m, MEMBERS_MAX)) < 0) {
		snprintf(out, cap, "%.*s", (int)a.n, a.p);
		return;
	}
	if (span_is_string(id = find(m, n, "id"))) {
		snprintf(out, cap, "%s", unescape(id->val, &arena));
		return;
	}
	type = find(m, n, "type");
	tname = string_of(type, &arena);
	for (k = 0; k < n; k++)
		if (!key_is(&m[k], "type") && !span_is_integer(m[k].val))
			ints = false;
	if (tname != NULL && n == 1) {
		snprintf(out, cap, "%s", tname);
		return;
	}
	if (tname != NULL && ints) {
		/* Each number after an x, as snprintf would cut them (an int64
		 * is at most 20 bytes: span_is_integer). */
		for (k = 0; k < n; k++) {
			char part[24];

			if (key_is(&m[k], "type"))
				continue;
			part[0] = 'x';
			memcpy(part + 1, m[k].val.p, m[k].val.n);
			if (len > 0)
				append_cut(out, cap, &len, part, m[k].val.n + 1);
			else
				append_cut(out, cap, &len, part + 1, m[k].val.n);
		}
		return;
	}
	snprintf(out, cap, "%.*s", (int)a.n, a.p);
}

/* The items of the array at p, at most cap, into out and *n; the byte
 * after it, or NULL. */
static const char *
array_at(const char *p, const char *end, struct span *out, size_t cap, long *n)
{
	const char *v;
	size_t k = 0;

	*n = 0;
	if (end - p < 2 || *p++ != '[')
		return NULL;
	if (*p == ']')
		return p + 1;
	for (;;) {
		v = p;
		if (k >= cap || (p = skip_value(p, end)) == NULL || p >= end)
			return NULL;
		out[k++] = (struct span){ v, (size_t)(p - v) };
		*n = (long)k;
		if (*p == ']')
			return p + 1;
		if (*p++ != ',')
			return NULL;
	}
}

/* key with m's value, as written. */
static void
put(struct jw *w, const char *key, const struct member *m)
{
	jw_key(w, key);
	jw_raw(w, m->val.p, m->val.n);
}

/* m, key and value, as written. */
static void
put_member(struct jw *w, const struct member *m)
{
	jw_raw(w, m->key.p - 1, (size_t)(m->val.p + m->val.n - (m->key.p - 1)));
}

/* The string member of m[0..n) called key, else the one called alt;
 * NULL when neither is a string. */
static const struct member *
status_of(const struct member *m, int n, const char *key, const char *alt)
{
	const struct member *s = find(m, n, key);

	if (!span_is_string(s))
		s = find(m, n, alt);
	return span_is_string(s) ? s : NULL;
}

/* A fact's text read off a state's members, as written. */
struct span_facts {
	const struct member *m;
	int                  n;
};

static bool
span_fact(const void *ctx, const char *key, const char **p, size_t *n)
{
	const struct span_facts *sf = ctx;
	const struct member *m = find(sf->m, sf->n, key);

	if (m == NULL)
		return false;
	*p = m->val.p;
	*n = m->val.n;
	return true;
}

/* A written answer (body, len bytes) as one run result (run_result's
 * tree, member for member) into w, with its view v for the text block
 * (v->game set by the caller: the result's game).
 * False when the answer is not one this way takes. */
static bool
run_result_write(struct jw *w, const struct game *g, const struct keyring *keys, int status,
    const char *body, size_t len, struct run_view *v, struct span_list *list, char **arena)
{
	struct member top[MEMBERS_MAX], sm[MEMBERS_MAX], fm[MEMBERS_MAX], em[MEMBERS_MAX];
	const struct member *state, *legal, *ac, *final, *err, *bt, *stm = NULL, *bt_state = NULL, *m;
	struct nested nest = { .sm = sm, .ns = -1, .nl = -1 };
	int n, ns = 0, ne = 0, nf, i;
	bool flat = false;
	char key[64];

	/* The state's members and the legal list's items are read on the
	 * way through the top object. */
	if ((list->items = malloc((len / 2 + 1) * sizeof *list->items)) == NULL)
		return false;
	nest.items = list->items;
	nest.icap = len / 2 + 1;
	if (object_at(body, body + len, top, MEMBERS_MAX, &n, &nest) != body + len)
		return false;
	state = find(top, n, "state");
	legal = find(top, n, "legalActions");
	ac = find(top, n, "agent_check");
	final = find(top, n, "final");
	err = find(top, n, "error");
	bt = find(top, n, "boardText");
	/* An error the tree would merge into otherwise is left to it. */
	if (status >= 400 && span_is_object(err) && ((ne = members(err->val, em, MEMBERS_MAX)) < 0 ||
	    find(em, ne, "status") != NULL || find(em, ne, "ratelimit") != NULL ||
	    find(em, ne, "detail") != NULL))
		return false;
	if (span_is_object(state)) {
		if ((ns = nest.ns) < 0)
			return false;
	} else {
		for (i = 0; i < n; i++)
			if (top[i].key.n >= sizeof key)
				return false;
	}
	if (span_given(legal) && legal->val.p[0] == '[') {
		if (nest.nl < 0)
			return false;
		v->legal = true;
		v->nlegal = (size_t)nest.nl;
		v->legal_text = span_legal_text;
		v->legal_ctx = list;
	}

	jw_object(w);
	jw_kstring(w, "game", v->game);
	if (span_given(m = find(top, n, "runId"))) {
		put(w, "runId", m);
		v->run_id = string_of(m, arena);
		if (keys != NULL && g != NULL && v->run_id != NULL) {
			char *h = *arena;

			handle_make(keys, g->name, strtoll(v->run_id, NULL, 10), h);
			*arena += strlen(h) + 1;
			jw_kstring(w, "handle", h);
			v->handle = h;
		}
	}
	if (span_given(m = find(top, n, "stateToken"))) {
		put(w, "stateToken", m);
		v->state_token = string_of(m, arena);
	}
	if (span_is_object(state)) {
		struct span_facts sf = { sm, ns };

		facts_line(g, span_fact, &sf, v->facts, sizeof v->facts);
		put(w, "state", state);
		stm = status_of(sm, ns, "status", "phase");
		if (span_is_string(m = find(sm, ns, "board_text")))
			bt_state = m;
	} else {
		/* A flat answer's own fields are its state. */
		for (i = 0; i < n; i++) {
			memcpy(key, top[i].key.p, top[i].key.n);
			key[top[i].key.n] = '\0';
			if (has_field(envelope_keys, key))
				continue;
			if (!flat) {
				jw_key(w, "state");
				jw_object(w);
				flat = true;
			}
			put_member(w, &top[i]);
		}
		if (flat) {
			struct span_facts sf = { top, n };

			facts_line(g, span_fact, &sf, v->facts, sizeof v->facts);
			jw_object_end(w);
			stm = status_of(top, n, "status", "phase");
			if (span_is_string(m = find(top, n, "board_text")))
				bt_state = m;
		}
	}
	/* The body's boardText takes the place the state's had. */
	if (bt_state != NULL) {
		put(w, "boardText", span_given(bt) ? bt : bt_state);
		v->board_text = string_of(span_given(bt) ? bt : bt_state, arena);
	}
	if (stm == NULL && span_is_object(final) && (nf = members(final->val, fm, MEMBERS_MAX)) >= 0)
		stm = status_of(fm, nf, "status", "phase");
	if (status >= 400 || span_is_object(final)) {
		v->status = status >= 400 ? "refused" : "finished";
		jw_kstring(w, "status", v->status);
	} else if (stm != NULL) {
		put(w, "status", stm);
		v->status = string_of(stm, arena);
	}
	if (bt_state == NULL && span_given(bt)) {
		put(w, "boardText", bt);
		v->board_text = string_of(bt, arena);
	}
	if (span_given(legal))
		put(w, "legalActions", legal);
	if (span_given(ac)) {
		struct member am[MEMBERS_MAX];
		int na;

		put(w, "agentCheck", ac);
		if (span_is_object(ac) && (na = members(ac->val, am, MEMBERS_MAX)) >= 0) {
			v->check = true;
			v->puzzle = string_of(find(am, na, "puzzle"), arena);
			v->check_token = string_of(find(am, na, "token"), arena);
		} else if (span_is_object(ac))
			return false;
	}
	if (span_given(m = find(top, n, "results"))) {
		put(w, "results", m);
		/* Few answers have results, and they are short but for an
		 * options command's: read as a tree for the text. */
		if (m->val.p[0] == '[')
			v->results = json_loadb(m->val.p, m->val.n, 0, NULL);
	}
	if (span_given(final)) {
		put(w, "final", final);
		if (span_is_object(final)) {
			/* Its compact text, as json_dumps gives it. */
			char *f = *arena;

			memcpy(f, final->val.p, final->val.n);
			f[final->val.n] = '\0';
			*arena += final->val.n + 1;
			v->final = f;
		}
	}
	if (span_given(m = find(top, n, "certificate"))) {
		put(w, "certificate", m);
		v->certificate = string_of(m, arena);
	}
	if (span_given(m = find(top, n, "review")))
		put(w, "review", m);
	if (span_given(m = find(top, n, "verifyWith")))
		put(w, "verifyWith", m);
	if (status >= 400) {
		v->error = true;
		v->err_status = status;
		jw_key(w, "error");
		jw_object(w);
		for (i = 0; i < ne; i++)
			put_member(w, &em[i]);
		jw_kint(w, "status", status);
		if (span_given(m = find(top, n, "ratelimit")))
			put(w, "ratelimit", m);
		if (span_given(m = find(top, n, "detail")))
			put(w, "detail", m);
		jw_object_end(w);
		v->err_code = string_of(find(em, ne, "code"), arena);
		v->err_message = string_of(find(em, ne, "message"), arena);
	}
	jw_object_end(w);
	return true;
}

bool
mcp_tools_result_write(struct jw *w, const struct mcp_call *c, const json_t *id, bool modern,
    int status, const char *body, size_t len)
{
	struct span_list list = { NULL, NULL };
	struct run_view v;
	struct jw sc;
	char *arena, *a, *text = NULL, *sctext = NULL;
	size_t sclen = 0;
	bool ok = false;

	if (tools[c->tool].result != RESULT_RUN || c->refused[0] != '\0' ||
	    (arena = malloc(3 * len + 3 + 2 * HANDLE_TEXT_MAX)) == NULL)
		return false;
	a = arena;
	list.arena = arena + 2 * len + 2 + 2 * HANDLE_TEXT_MAX;
	memset(&v, 0, sizeof v);
	v.game = c->game != NULL ? c->game->name : "";
	/* structuredContent first, into its own writer: the text block that
	 * comes before it in the result is made from what it found. */
	jw_init(&sc, len + 512, 2 * len + 65536);
	if (!run_result_write(&sc, c->game, c->keys, status, body, len, &v, &list, &a)) {
		jw_cleanup(&sc);
		goto done;
	}
	ok = true;
	sctext = jw_take(&sc, &sclen);
	text = run_text(&v);
	if (sctext == NULL || text == NULL) {
		w->failed = true;
		goto done;
	}
	jw_object(w);
	jw_kstring(w, "jsonrpc", "2.0");
	jw_key(w, "id");
	if (json_is_integer(id))
		jw_int(w, json_integer_value(id));
	else if (id != NULL)
		jw_json(w, id);
	else
		jw_null(w);
	jw_key(w, "result");
	jw_object(w);
	jw_key(w, "content");
	jw_array(w);
	jw_object(w);
	jw_kstring(w, "type", "text");
	jw_kstring(w, "text", text);
	jw_object_end(w);
	jw_array_end(w);
	jw_key(w, "structuredContent");
	jw_raw(w, sctext, sclen);
	jw_kbool(w, "isError", status >= 400);
	if (modern) {
		jw_kstring(w, "resultType", "complete");
	}
	jw_object_end(w);
	jw_object_end(w);
done:
	json_decref((json_t *)v.results);
	free(text);
	free(sctext);
	free(list.items);
	free(arena);
	return ok;
}

/* ---- resources ---- */

/* What the host needs to frame the inline board: no domain to connect to
 * or load from (the document carries everything and its own policy allows
 * no connection), and a border, as it is a board beside the text. */
static json_t *
app_meta(void)
{
	return json_pack("{s:{s:{s:[], s:[]}, s:b}}", "ui", "csp", "connectDomains", "resourceDomains",
	    "prefersBorder", 1);
}

json_t *
mcp_resources_list(void)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < GAME__COUNT; i++) {
		const struct game *g = game_table[i];
		char uri[64], title[80];

		snprintf(uri, sizeof uri, MCP_RULES_URI "%s", g->name);
		snprintf(title, sizeof title, "%s: how to play", g->title);
		json_array_append_new(a, json_pack("{s:s, s:s, s:s, s:s, s:s}", "uri", uri, "name", g->name,
		    "title", title, "description", "the rules in one text, as get_rules' howToPlay",
		    "mimeType", "text/plain"));
	}
	json_array_append_new(a, json_pack("{s:s, s:s, s:s, s:s, s:s, s:o}", "uri", MCP_APP_URI, "name",
	    "board", "title", "The inline board", "description", "an MCP App (SEP-1865): draws a play "
	    "tool's result, a run's board and figures or a match's seats side by side; the play tools "
	    "name it in _meta.ui.resourceUri", "mimeType", MCP_APP_MIME, "_meta", app_meta()));
	return json_pack("{s:o}", "resources", a);
}

json_t *
mcp_resource_templates_list(void)
{
	return json_pack("{s:[{s:s, s:s, s:s, s:s}]}", "resourceTemplates", "uriTemplate",
	    MCP_RULES_URI "{game}", "name", "rules", "description", "a game's rules in one text",
	    "mimeType", "text/plain");
}

json_t *
mcp_resources_read(const json_t *params, int *code, char *msg, size_t cap)
{
	const char *uri = json_string_value(json_object_get(params, "uri"));
	const size_t pre = sizeof MCP_RULES_URI - 1;
	const struct game *g = NULL;

	*code = -32602;
	if (uri == NULL) {
		snprintf(msg, cap, "resources/read needs params.uri, a string");
		return NULL;
	}
	if (strcmp(uri, MCP_APP_URI) == 0) {
		*code = 0;
		return json_pack("{s:[{s:s, s:s, s:s%, s:o}]}", "contents", "uri", uri, "mimeType", MCP_APP_MIME,
		    "text", mcp_app_html, mcp_app_html_len, "_meta", app_meta());
	}
	if (strncmp(uri, MCP_RULES_URI, pre) == 0)
		g = game_by_name(uri + pre, strlen(uri + pre));
	if (g == NULL) {
		snprintf(msg, cap, "Resource not found: %.100s", uri);
		return NULL;
	}
	*code = 0;
	return json_pack("{s:[{s:s, s:s, s:s}]}", "contents", "uri", uri, "mimeType", "text/plain",
	    "text", g->how_to_play);
}
