/*
 * hatetris_json.h: HATETRIS's requests and responses, and its game
 * descriptor (docs/rules/hatetris.md).
 *
 * Commands are Stackfall's grammar (stackfall_cmd.h) with the commands
 * HATETRIS has: place, its short form, options and preview; hold and
 * resign parse and are refused. A request's commands run as a batch, in
 * order, stopping at the first that fails, as Stackfall's do.
 *
 * The run's seen boards are the game's facts (game.h): every placement
 * records the key of the board it leaves (hatetris_board_key), and the
 * supplier asks about earlier ones through the environment. A batch adds
 * the boards of its own earlier placements to what it asks, since those
 * are not stored yet.
 */
#ifndef API_HATETRIS_JSON_H
#define API_HATETRIS_JSON_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "game.h"
#include "hatetris.h"
#include "stackfall_cmd.h"
#include "tetromino_game.h"

/* HATETRIS on the game table (game.h). */
extern const struct game game_hatetris;

/* A batch's results and the board each of its placements left. */
struct hatetris_batch {
	struct tetromino_batch batch;
	uint8_t keys[STACKFALL_CMD_MAX][HATETRIS_KEY_BYTES];
};

/* Runs a batch of commands on g (tetromino_batch_run), the supplier asking
 * seen (with ctx; NULL: no stored boards) after the batch's own. */
void hatetris_batch_run(struct hatetris *g, const struct stackfall_cmd *cmds, size_t n,
    hatetris_seen_fn seen, void *ctx, struct hatetris_batch *out);

/* The response's game fields: status, end_reason, lines, pieces, current,
 * depth, cap, board_text. */
json_t *hatetris_fields_json(const struct hatetris *g);

/* Reads a structured action: {"type": "place", "rotation", "column"},
 * {"type": "preview", "rotation", "column"} or {"type": "options"}. A
 * malformed one becomes an INVALID command with the reason (a refusal, not
 * a 400). */
void hatetris_action_from_json(const json_t *v, struct stackfall_cmd *out);

/* A replay's final summary: {lines, pieces, status, end_reason}. */
json_t *hatetris_final_json(const struct hatetris *g);

/* The rules and commands for GET .../rules. */
json_t *hatetris_rules_json(void);

#endif
