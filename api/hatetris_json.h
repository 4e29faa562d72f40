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

/* HATETRIS on the game table (game.h). */
extern const struct game game_hatetris;

struct hatetris_result {
	struct stackfall_cmd    cmd;     /* the command (span into the request text) */
	enum hatetris_outcome   outcome;
	char                    message[ENGINE_REASON_MAX];
	size_t                  noptions;
	struct tetromino_option options[HATETRIS_OPTIONS_MAX];
	struct tetromino_preview preview;
};

struct hatetris_batch {
	size_t nrun;     /* results written: the commands that ran, the failing one included */
	size_t nmoves;   /* placements made */
	bool   failed;   /* the last result failed */
	struct hatetris_result results[STACKFALL_CMD_MAX];
	size_t  moves[STACKFALL_CMD_MAX];  /* indexes into results of the placements, in order */
	uint8_t keys[STACKFALL_CMD_MAX][HATETRIS_KEY_BYTES]; /* the board each placement left */
};

/* Runs cmds[0..n) (n <= STACKFALL_CMD_MAX) on g. seen and ctx answer for
 * the boards of the run before the batch (hatetris.h's oracle; NULL: none
 * but the empty board); the batch's own placements are added to them. */
void hatetris_batch_run(struct hatetris *g, const struct stackfall_cmd *cmds, size_t n,
    hatetris_seen_fn seen, void *ctx, struct hatetris_batch *out);

/* The response's game fields: status, end_reason, lines, pieces, current,
 * depth, cap, board_text. */
json_t *hatetris_fields_json(const struct hatetris *g);

/* The results array; text is the request's command text (NULL for a
 * structured action, whose command is shown in canonical form). */
json_t *hatetris_results_json(const struct hatetris_batch *b, const char *text);

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
