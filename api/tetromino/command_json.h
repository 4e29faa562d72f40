/*
 * command_json.h: the JSON side of Stackfall's command grammar
 * (stackfall_cmd.h), shared by every game that speaks it (Stackfall,
 * HATETRIS): a structured action read into a command, and one entry of a
 * response's results array.
 *
 * Ownership follows jansson: returned objects are new references.
 */
#ifndef API_COMMAND_JSON_H
#define API_COMMAND_JSON_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "game.h"
#include "jw.h"
#include "stackfall_cmd.h"
#include "tetromino.h"

/* The bit of a command kind in an `allowed` set. */
#define COMMAND_KIND(k) (1u << (k))

/* Reads a structured action {"type": T, ...} whose type is one of the
 * kinds in allowed: place and preview take "rotation" and "column", the
 * others no field. A malformed one becomes an INVALID command with the
 * reason (a refusal, not a 400). */
void command_action_from_json(const json_t *v, unsigned allowed, struct stackfall_cmd *out);

/* One request's commands: {"command": text} or {"action": {...}}. */
struct command_request {
	const char              *text;  /* the command text (borrowed from the body), or NULL */
	enum stackfall_cmd_parse parse;
	struct stackfall_cmd     cmds[STACKFALL_CMD_MAX];
	size_t                   ncmds;
};

/* Reads body's "command" or "action" (exactly one of them; an action's
 * type among allowed) into rq. False with a message for a broken request
 * (a 400); a command that does not parse is not one (command_refused). */
bool command_read_request(const json_t *body, unsigned allowed, struct command_request *rq,
    char *msg, size_t cap);

/* When rq's text did not parse (no command, or too many), fills t's
 * refusal, with example as the command to try, and returns true. */
bool command_refused(const struct command_request *rq, const char *example, struct game_turn *t);

/* The canonical JSON of a stored move (keys sorted, no spaces):
 * {"column":C,"rotation":R,"type":"place"} or {"type":"hold"}, ... */
void command_move_text(const struct stackfall_cmd *c, char *out, size_t cap);

/* What one command did, as the results array shows it. */
struct command_result {
	const struct stackfall_cmd     *cmd;
	const char                     *text;     /* the request's command text; NULL for a
	                                             structured action (shown in canonical form) */
	bool                            ok;
	const char                     *message;
	const struct tetromino_option  *options;  /* an options command's answer */
	size_t                          noptions;
	const struct tetromino_figures *figures;  /* a preview's answer: its figures */
	const char                     *board_text; /* ... and the board after it */
};

/* {"command", "ok", "message"[, "options" | "preview"]}. */
json_t *command_result_json(const struct command_result *r);

/* The same object written into w (jw.h), byte for byte what jansson dumps
 * of command_result_json's. */
void command_result_write(struct jw *w, const struct command_result *r);

#endif
