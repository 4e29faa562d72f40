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
#include "match_view.h"

/* The replay of r (whose m and totals must be set) played through turns
 * (every turn's moves, a JSON array, stolen). NULL on failure. */
json_t *match_result_replay(const struct match_record *r, json_t *turns);

/* Signs the result certificate of the finished match r, whose turns
 * (stolen) are every turn's moves, the last one included, at now (Unix
 * seconds). The certificate text (caller frees), or NULL on failure. */
char *match_result_certificate(const struct keyring *kr, const struct match_record *r,
    json_t *turns, int64_t now);

/* A player's rating (Glicko-2: rating, deviation, volatility). */
struct match_rating {
	double rating, rd, volatility;
};

/* The rating of a player who has played no rated match. */
struct match_rating match_rating_new(void);

/* The ratings after a rated match of n players (before[i] and places[i],
 * 1 for the first, ties sharing a place) into after; false when they do
 * not update (a player count or a rating out of range). */
bool match_ratings_after(const struct match_rating *before, const uint8_t *places, size_t n,
    struct match_rating *after);

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

/* GET /api/matches/{id}/replay: {match_id, replay, certificate (null:
 * none yet), verify_with}; the replay (borrowed) is data, a tree: what
 * the certificate hashes. */
void match_replay_answer_write(struct jw *w, int64_t id, const json_t *replay,
    const char *certificate);

/* POST /api/matches/replays/verify: a replay that re-simulated to its
 * final (borrowed) with its hash, and the claims of a certificate that
 * holds (borrowed; NULL: none was sent). */
void match_verified_write(struct jw *w, size_t nturns, const json_t *final, const char *hash,
    const json_t *claims);

/* What a refused match verification adds to the error envelope, as one
 * object whose members follow "error": the turn at fault (0: the replay's
 * form or its certificate), the reason, and the simulated final when
 * there is one (borrowed; NULL: none). */
void match_verify_refusal_write(struct jw *w, size_t turn, const char *reason,
    const json_t *final);

/* One row of the ratings table. */
struct match_rating_row {
	const char *account;
	double      rating, rd, volatility;
	int64_t     matches;
};

/* GET /api/matches/ratings: {rules, ratings: rows[0..n) best first, each
 * ranked above + its place on the page, next}; next is the cursor of the
 * page after (NULL: null, the last page). */
void match_ratings_write(struct jw *w, const struct match_rating_row *rows, int n, int64_t above,
    const char *next);

#endif
