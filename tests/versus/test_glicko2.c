/*
 * test_glicko2.c: Glicko-2 against the worked example of Glickman's paper
 * ("Example of the Glicko-2 system": a player rated 1500, RD 200,
 * volatility 0.06 beats 1400/30, loses to 1550/100 and to 1700/300 with
 * tau 0.5 and ends at 1464.06, RD 151.52, volatility 0.05999), then the
 * properties the rules imply (a period without games only widens the RD,
 * equal players' win and loss mirror each other, a draw between equals
 * moves nobody) and the match reduction (places to pairwise games, shared
 * places as draws, order of players irrelevant).
 */
#include <math.h>
#include <string.h>

#include "glicko2.h"
#include "tap.h"

static int
near(double got, double want, double tol, const char *what)
{
	if (!ok(fabs(got - want) <= tol, "%s: %.6f (want %.6f +- %g)", what, got, want, tol))
		return 0;
	return 1;
}

static void
test_paper_example(void)
{
	const struct glicko2_rating me = { 1500, 200, 0.06 };
	const struct glicko2_game games[] = {
		{ { 1400, 30, 0.06 }, 1 },
		{ { 1550, 100, 0.06 }, 0 },
		{ { 1700, 300, 0.06 }, 0 },
	};
	struct glicko2_rating out;

	ok(glicko2_update(&me, games, 3, 0.5, &out), "the paper's example rates");
	/* The paper rounds its intermediate values to 4 decimals on the
	 * Glicko-2 scale (mu' = -0.2069, phi' = 0.8722) and converts those, so
	 * its 1464.06 carries up to 0.0087 of rounding (the unrounded value is
	 * 1464.05...); its volatility 0.05999 is given to 5 decimals. */
	near((out.rating - 1500) / 173.7178, -0.2069, 0.00005, "mu' on the Glicko-2 scale");
	near(out.rd / 173.7178, 0.8722, 0.00005, "phi' on the Glicko-2 scale");
	near(out.rating, 1464.06, 0.01, "rating");
	near(out.rd, 151.52, 0.01, "RD");
	near(out.volatility, 0.05999, 0.00001, "volatility");
}

static void
test_properties(void)
{
	const struct glicko2_rating a = { 1500, 200, 0.06 }, fresh = { GLICKO2_RATING_DEFAULT,
		GLICKO2_RD_DEFAULT, GLICKO2_VOLATILITY_DEFAULT };
	struct glicko2_game g;
	struct glicko2_rating w, l, d, idle, same;

	ok(glicko2_update(&a, NULL, 0, 0.5, &idle), "a period without games");
	/* step 6 of the paper: phi* = sqrt(phi^2 + sigma^2), rating and
	 * volatility unchanged */
	near(idle.rd, 173.7178 * sqrt(pow(200 / 173.7178, 2) + 0.06 * 0.06), 1e-9,
	    "only the RD widens");
	ok(idle.rating == 1500 && idle.volatility == 0.06, "rating and volatility stay");

	g.opponent = a;
	g.score = 1;
	glicko2_update(&a, &g, 1, 0.5, &w);
	g.score = 0;
	glicko2_update(&a, &g, 1, 0.5, &l);
	g.score = 0.5;
	glicko2_update(&a, &g, 1, 0.5, &d);
	ok(w.rating > 1500 && l.rating < 1500, "a win raises, a loss lowers");
	near(w.rating - 1500, 1500 - l.rating, 1e-9, "between equals they mirror each other");
	near(d.rating, 1500, 1e-9, "a draw between equals moves nobody");
	ok(d.rd < 200 && w.rd < 200, "a game narrows the RD");

	g.opponent = fresh;
	g.score = 1;
	same = a;
	ok(glicko2_update(&same, &g, 1, 0.5, &same) && same.rating > 1500, "out may be player");

	g.score = 1.5;
	ok(!glicko2_update(&a, &g, 1, 0.5, &w), "a score above 1 is refused");
	g.score = NAN;
	ok(!glicko2_update(&a, &g, 1, 0.5, &w), "a NaN score is refused");
	g.score = 1;
	g.opponent.rd = 0;
	ok(!glicko2_update(&a, &g, 1, 0.5, &w), "an RD of 0 is refused");
	g.opponent = fresh;
	ok(!glicko2_update(&a, &g, 1, 0, &w), "tau 0 is refused");
	same.volatility = -1;
	ok(!glicko2_update(&same, &g, 1, 0.5, &w), "a negative volatility is refused");
	same.volatility = 0.06;
	same.rating = INFINITY;
	ok(!glicko2_update(&same, &g, 1, 0.5, &w), "an infinite rating is refused");

	/* Lopsided inputs still converge to finite numbers. */
	same.rating = 3000;
	same.rd = 30;
	same.volatility = 0.2;
	g.opponent.rating = 0;
	g.score = 0;
	ok(glicko2_update(&same, &g, 1, 1.2, &w) && isfinite(w.rating) && isfinite(w.rd) &&
	    isfinite(w.volatility) && w.rating < 3000, "an upset 3000 vs 0 stays finite");
}

static void
test_match(void)
{
	const struct glicko2_rating before[4] = {
		{ 1500, 350, 0.06 }, { 1620, 120, 0.05 }, { 1410, 80, 0.07 }, { 1500, 200, 0.06 },
	};
	const uint8_t places[4] = { 2, 1, 4, 2 };
	struct glicko2_rating after[4], want, perm_after[4], perm_before[4], copy[4];
	struct glicko2_game games[3];
	uint8_t perm_places[4], bad[4];
	static const int perm[4] = { 2, 0, 3, 1 };
	int i, j, k, good = 1;

	ok(glicko2_match(before, places, 4, 0.5, after), "a 4-player match with a shared 2nd");
	for (i = 0; i < 4; i++) {
		for (j = 0, k = 0; j < 4; j++) {
			if (j == i)
				continue;
			games[k].opponent = before[j];
			/* written out: a better place wins, the same place draws */
			games[k].score = places[i] < places[j] ? 1 : places[i] > places[j] ? 0 : 0.5;
			k++;
		}
		glicko2_update(&before[i], games, 3, 0.5, &want);
		good &= want.rating == after[i].rating && want.rd == after[i].rd &&
		    want.volatility == after[i].volatility;
	}
	ok(good, "each player is rated on n - 1 games against the others' old ratings");
	ok(after[1].rating > before[1].rating && after[2].rating < before[2].rating,
	    "the winner gains, the last loses");

	for (i = 0; i < 4; i++) {
		perm_before[i] = before[perm[i]];
		perm_places[i] = places[perm[i]];
	}
	glicko2_match(perm_before, perm_places, 4, 0.5, perm_after);
	good = 1;
	for (i = 0; i < 4; i++)
		good &= memcmp(&perm_after[i], &after[perm[i]], sizeof after[0]) == 0;
	ok(good, "the order of the players does not matter");

	memcpy(copy, before, sizeof copy);
	ok(glicko2_match(copy, places, 4, 0.5, copy) && memcmp(copy, after, sizeof copy) == 0,
	    "after may be before");

	memcpy(bad, places, sizeof bad);
	bad[0] = 0;
	ok(!glicko2_match(before, bad, 4, 0.5, copy), "place 0 is refused");
	bad[0] = 5;
	ok(!glicko2_match(before, bad, 4, 0.5, copy), "a place above n is refused");
	ok(!glicko2_match(before, places, 1, 0.5, copy), "one player is no match");
	ok(!glicko2_match(before, places, GLICKO2_MATCH_MAX + 1, 0.5, copy),
	    "more than GLICKO2_MATCH_MAX players are refused");
}

int
main(void)
{
	test_paper_example();
	test_properties();
	test_match();
	return tap_done();
}
