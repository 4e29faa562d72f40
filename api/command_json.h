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

#include "stackfall_cmd.h"
#include "tetromino.h"

/* The bit of a command kind in an `allowed` set. */
#define COMMAND_KIND(k) (1u << (k))

/* Reads a structured action {"type": T, ...} whose type is one of the
 * kinds in allowed: place and preview take "rotation" and "column", the
 * others no field. A malformed one becomes an INVALID command with the
 * reason (a refusal, not a 400). */
void command_action_from_json(const json_t *v, unsigned allowed, struct stackfall_cmd *out);

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

#endif
