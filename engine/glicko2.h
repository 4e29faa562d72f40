/*
 * glicko2.h: Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2
 * system", 2013): one rating period at a time, and the reduction of a
 * placed match of several players to pairwise games.
 *
 * A rating is (rating, RD, volatility) on the familiar scale (a new player
 * is 1500, 350, 0.06). An update takes the rating before the period and
 * every game of the period against opponents' ratings before it, and gives
 * the rating after: the paper's steps 1-8, with the new volatility found by
 * the Illinois variant of regula falsi to within GLICKO2_EPSILON. A period
 * without games only widens the RD (step 6). Nothing here allocates, keeps
 * state or reads a clock; libm's exp, log and sqrt are the only calls.
 *
 * A match of n players with places 1..n (equal places allowed) counts, for
 * each player, as one period of n - 1 games against every other player:
 * a win against each player placed worse, a loss against each placed
 * better, a draw (0.5) against each sharing the place. All n updates use
 * the ratings from before the match, so the order of players does not
 * matter.
 */
#ifndef GLICKO2_H
#define GLICKO2_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GLICKO2_SCALE 173.7178          /* rating points per Glicko-2 unit */
#define GLICKO2_RATING_DEFAULT 1500.0
#define GLICKO2_RD_DEFAULT 350.0
#define GLICKO2_VOLATILITY_DEFAULT 0.06
#define GLICKO2_TAU_DEFAULT 0.5         /* the system constant; 0.3..1.2 is sensible */
#define GLICKO2_EPSILON 0.000001        /* convergence of the volatility iteration */
#define GLICKO2_MATCH_MAX 8             /* players in one glicko2_match() */

struct glicko2_rating {
	double rating;     /* about 0..3000; 1500 for a new player */
	double rd;         /* rating deviation, > 0; 350 for a new player */
	double volatility; /* > 0; 0.06 for a new player */
};

struct glicko2_game {
	struct glicko2_rating opponent; /* the opponent's rating before the period */
	double score;                   /* 1 win, 0.5 draw, 0 loss */
};

/* Rates player after games[0..ngames) (games may be NULL when ngames is 0)
 * with system constant tau, into *out (which may be player). Returns false,
 * out unchanged, when a rating has a non-finite field, an RD or volatility
 * that is not positive, a score outside 0..1, or tau is not positive. */
bool glicko2_update(const struct glicko2_rating *player, const struct glicko2_game *games,
    size_t ngames, double tau, struct glicko2_rating *out);

/* Rates the n players (2..GLICKO2_MATCH_MAX) of one match from their
 * ratings before it and their places (1 = best; equal places share) by the
 * pairwise reduction of the file header, into after[0..n) (which may be
 * before). Returns false, after unchanged, for a bad n, a place of 0 or
 * above n, or any rating glicko2_update() refuses. */
bool glicko2_match(const struct glicko2_rating *before, const uint8_t *places, size_t n,
    double tau, struct glicko2_rating *after);

#endif
