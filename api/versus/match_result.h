/*
 * match_result.h: what a finished versus match is said to be: its replay
 * (match.h's form, rebuilt from the stored turns) and the claims its
 * result certificate signs: the match, rules, seed, players (the seats'
 * accounts in seat order), places, scores, turns, end, rated, and the hash
 * of the replay. The daemon gives the facts it stored; everything
 * formatted here is protocol.
 */
#ifndef API_MATCH_RESULT_H
#define API_MATCH_RESULT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "keys.h"
#include "match_answers.h" /* the answers every ruleset shares, ratings */
#include "match_view.h"

/* The replay of r (whose m and totals must be set) played through turns
 * (every turn's moves, a JSON array, stolen). NULL on failure. */
json_t *match_result_replay(const struct match_record *r, json_t *turns);

/* Signs the result certificate of the finished match r, whose turns
 * (stolen) are every turn's moves, the last one included, at now (Unix
 * seconds). The certificate text (caller frees), or NULL on failure. */
char *match_result_certificate(const struct keyring *kr, const struct match_record *r,
    json_t *turns, int64_t now);

/* ---- the answers of the match routes that carry results ----
 * Each answer is written once, through the answer writer (jw.h); a
 * failure is the writer's (sticky). */

struct jw;

/* POST /api/matches/{id}/move: {match_id, turn, move, resolved, state}
 * with the move taken (canonical text) in turn, whether it resolved the
 * turn and the mover's state (match_view_mover_write(r, viewer, now_ms));
 * with full (?view=full) "match", the whole match as its mover sees it
 * (match_view_write); and when use_target is not 0, "use", what the
 * move's `use T` did: {target, used: null, reason} while the turn waits
 * for others (uses act after the turn's placements), else {target, used}
 * with reason "empty inventory" when used is false. */
void match_move_answer_write(struct jw *w, int64_t id, uint32_t turn, const char *move,
    bool resolved, const struct match_record *r, int viewer, int64_t now_ms, bool full,
    uint32_t use_target, bool use_empty);

#endif
