/*
 * stackfall_json.h: Stackfall's requests and responses.
 *
 * A request's commands (text, or one structured action) run as a batch:
 * in order, stopping at the first that fails. stackfall_batch_run does that
 * on the engine (through tetromino_game.h, which HATETRIS shares) and
 * records what each command did in plain structs, so a batch can run
 * wherever it must (on an HTTP thread, or inside the store's writer for
 * the seed-shaped routes) and be turned into JSON afterwards.
 */
#ifndef API_STACKFALL_JSON_H
#define API_STACKFALL_JSON_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "game.h"
#include "stackfall.h"
#include "stackfall_cmd.h"
#include "tetromino_game.h"

/* Stackfall on the game table (game.h). */
extern const struct game game_stackfall;

/* Runs a batch of commands on g (tetromino_batch_run). */
void stackfall_batch_run(struct stackfall *g, const struct stackfall_cmd *cmds, size_t n,
    struct tetromino_batch *out);

/* The response's game fields: status, end_reason, score, lines, level,
 * pieces, current, next, hold, can_hold, combo, back_to_back, board_text. */
json_t *stackfall_fields_json(const struct stackfall *g);

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
