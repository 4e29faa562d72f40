/*
 * match_answers.h: the answers of the match routes that every ruleset
 * shares (a replay and its certificate, a verification and its refusal,
 * the ratings page), and the ratings' arithmetic (Glicko-2) the end of a
 * rated match runs. Nothing here knows a ruleset: a replay, a final and
 * claims come in as data (trees, borrowed), written in place.
 *
 * Each answer is written once, through the answer writer (jw.h); a
 * failure is the writer's (sticky).
 */
#ifndef API_MATCH_ANSWERS_H
#define API_MATCH_ANSWERS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct jw;

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

/* A real as json_real() dumps it, through the writer: jansson's own
 * formatting (rare: ratings). A NaN or an infinity, which json_real
 * refuses, fails the writer. */
void match_real_write(struct jw *w, double v);

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
 * ranked above + its place on the page, next}; rules the ruleset the
 * ratings are of, next the cursor of the page after (NULL: null, the last
 * page). */
void match_ratings_write(struct jw *w, const char *rules, const struct match_rating_row *rows,
    int n, int64_t above, const char *next);

#endif
