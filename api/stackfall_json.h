/*
 * stackfall_json.h: Stackfall's requests and responses.
 *
 * A request's commands (text, or one structured action) run as a batch:
 * in order, stopping at the first that fails. stackfall_batch_run does that
 * on the engine and records what each command did in plain structs, so a
 * batch can run wherever it must (on an HTTP thread, or inside the store's
 * writer for the seed-shaped routes) and be turned into JSON afterwards.
 */
#ifndef API_STACKFALL_JSON_H
#define API_STACKFALL_JSON_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "game.h"
#include "stackfall.h"
#include "stackfall_cmd.h"

/* Stackfall on the game table (game.h). */
extern const struct game game_stackfall;

struct stackfall_result {
	struct stackfall_cmd     cmd;     /* the command (span into the request text) */
	enum stackfall_outcome   outcome;
	char                     message[ENGINE_REASON_MAX];
	size_t                   noptions;
	struct tetromino_option  options[STACKFALL_OPTIONS_MAX];
	struct tetromino_preview preview;
};

struct stackfall_batch {
	size_t nrun;     /* results written: the commands that ran, the failing one included */
	size_t nmoves;   /* commands that changed the game (place, hold, resign) */
	bool   failed;   /* the last result failed */
	struct stackfall_result results[STACKFALL_CMD_MAX];
	size_t moves[STACKFALL_CMD_MAX]; /* indexes into results of the moves, in order */
};

/* Runs cmds[0..n) on g (n <= STACKFALL_CMD_MAX). */
void stackfall_batch_run(struct stackfall *g, const struct stackfall_cmd *cmds, size_t n,
    struct stackfall_batch *out);

/* The response's game fields: status, end_reason, score, lines, level,
 * pieces, current, next, hold, can_hold, combo, back_to_back, board_text. */
json_t *stackfall_fields_json(const struct stackfall *g);

/* The results array; text is the request's command text (NULL for a
 * structured action, whose command is shown in canonical form). */
json_t *stackfall_results_json(const struct stackfall_batch *b, const char *text);

/* Reads a structured action: {"type": "place", "rotation", "column"},
 * {"type": "preview", "rotation", "column"}, {"type": "hold"},
 * {"type": "resign"} or {"type": "options"}. A malformed one becomes an
 * INVALID command with the reason (a refusal, not a 400). */
void stackfall_action_from_json(const json_t *v, struct stackfall_cmd *out);

/* A replay's final summary: {score, lines, pieces, status}. */
json_t *stackfall_final_json(const struct stackfall *g);

/* The rules and commands for GET .../rules. */
json_t *stackfall_rules_json(void);

/* The pieces' rotations as drawings, {"I": [{"rotation", "shape",
 * "columns"}, ...], ...}: Stackfall's, and every game on its board. */
json_t *stackfall_shapes_json(void);

#endif
