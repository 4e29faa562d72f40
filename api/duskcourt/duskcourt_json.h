/*
 * duskcourt_json.h: Duskcourt's JSON: the `state` object and the legal
 * actions of docs/rules/duskcourt.md, the seed's action grammar, and the
 * game's descriptor.
 */
#ifndef API_DUSKCOURT_JSON_H
#define API_DUSKCOURT_JSON_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "duskcourt.h"
#include "game.h"

/* Duskcourt on the game table (game.h). */
extern const struct game game_duskcourt;

/* The state object, every field of docs/rules/duskcourt.md's state table, in its order. */
json_t *duskcourt_state_json(const struct duskcourt_state *s);

/* The legalActions array. */
json_t *duskcourt_legal_json(const struct duskcourt_state *s);

/* A court's cells (size*size) as the board array: null, "#" or a letter. */
json_t *duskcourt_cells_json(const uint8_t *cells, int size);

/* Reads an action object against the seed's grammar: "type" one of
 * capture/reset/next/endRun; a capture has exactly "from" and "to",
 * integers in 0..35; the others nothing else. False with a reason (for a
 * 422 refusal) when it does not match. */
bool duskcourt_action_from_json(const json_t *v, struct duskcourt_action *out, char *reason,
    size_t cap);

/* The canonical JSON of an action: {"type": ..., "from", "to"}. */
json_t *duskcourt_action_json(const struct duskcourt_action *a);

/* The canonical JSON of a move as stored (keys sorted, no spaces), cut
 * to cap as snprintf cuts: a capture's without printf. Held to snprintf
 * by the test api-movetext. */
void dc_move_text(const struct duskcourt_action *a, char *out, size_t cap);

/* A replay's final summary: {score, rung, lives, phase}. */
json_t *duskcourt_final_json(const struct duskcourt_state *s);

/* The ladder table and the action grammar for GET .../rules. */
json_t *duskcourt_rules_json(void);

/* Court k of a seed at a rung, dealt and solved with sv (the caller's
 * solver workspace), as `arcaded deal` prints it: {seed, rung, k, size,
 * board, kingSurvives, boulders, solution}. NULL with a reason in why
 * (static text) when the court cannot be dealt or has no way through
 * (either is a bug: every dealt court is clearable), or out of memory. */
json_t *duskcourt_deal_json(uint64_t seed, uint32_t rung, uint32_t k, struct duskcourt_solver *sv,
    const char **why);

#endif
