/*
 * test_deal.c: the dealer against the ladder table and the naive model.
 *
 * For many (seed, k, rung) it deals a court and checks, with code of its
 * own (naive.h): size, idol count, boulder count and the jackal rule match
 * the ladder row; the court has a capture; the naive solver clears it; the
 * naive solver finds at least the row's decoys; dealing again (with a solver
 * memo dirtied by other work) gives the same court byte for byte. Then the
 * fallback courts the dealer keeps for its last resort get the same checks.
 *
 * usage: test_deal [DEALS_PER_RUNG [MAX_RUNG]] (defaults 75 and 40); the
 * 'slow' suite runs it with many more.
 */
#include <stdio.h>
#include <stdlib.h>

#include "duskcourt.h"
#include "naive.h"
#include "tap.h"

static struct duskcourt_solver solver_a, solver_b;
static struct naive nv;

/* At least `enough` decoys, counted by the naive model (stops early). */
static bool
naive_has_decoys(const uint8_t *b, int size, bool jackal, int enough, int *found)
{
	uint8_t c[36];
	int moves[36 * 8], n, i;

	*found = 0;
	if (enough == 0)
		return true;
	n = naive_moves(b, size, jackal, moves);
	for (i = 0; i < n && *found < enough; i++) {
		memcpy(c, b, 36);
		c[moves[i] % 64] = c[moves[i] / 64];
		c[moves[i] / 64] = 0;
		*found += !naive_clearable(&nv, c, size, jackal);
	}
	return *found >= enough;
}

static void
show(const struct duskcourt_court *c)
{
	char line[8];
	int r, col;

	for (r = c->size - 1; r >= 0; r--) {
		for (col = 0; col < c->size; col++)
			line[col] = duskcourt_cell_char(c->cells[r * c->size + col]);
		line[c->size] = '\0';
		diag("  %s", line);
	}
}

/* Every check of one court against its row; the name of the first failed
 * check, or NULL. */
static const char *
check_court(const struct duskcourt_court *c, unsigned rung)
{
	struct naive_row row = naive_ladder(rung);
	int i, idols = 0, boulders = 0, kings = 0, moves[36 * 8], found;

	if (c->rung != rung)
		return "rung field";
	if (c->size != row.size)
		return "size";
	if (c->king_survives != row.jackal)
		return "kingSurvives";
	if (c->zero[0] != 0 || c->zero[1] != 0)
		return "zero bytes";
	for (i = 0; i < 36; i++) {
		if (i >= row.size * row.size) {
			if (c->cells[i] != 0)
				return "cell past the court";
			continue;
		}
		if (c->cells[i] > 7)
			return "cell value";
		idols += naive_idol(c->cells[i]);
		boulders += c->cells[i] == 1;
		kings += c->cells[i] == 2;
	}
	if (idols != row.idols)
		return "idol count";
	if (boulders != row.boulders)
		return "boulder count";
	if (row.jackal && kings != 1)
		return "exactly one K on a jackal court";
	if (naive_moves(c->cells, c->size, c->king_survives, moves) == 0)
		return "has a capture";
	if (!naive_clearable(&nv, c->cells, c->size, c->king_survives))
		return "clearable (naive solver)";
	if (!naive_has_decoys(c->cells, c->size, c->king_survives, row.decoys, &found))
		return "decoys (naive count)";
	return NULL;
}

static uint64_t
mix(uint64_t x)
{
	x ^= x >> 31;
	x *= UINT64_C(0x7fb5d329728ea185);
	x ^= x >> 27;
	x *= UINT64_C(0x81dadef4bc2dd44d);
	return x ^ (x >> 33);
}

int
main(int argc, char **argv)
{
	int per_rung = argc > 1 ? atoi(argv[1]) : 75;
	unsigned max_rung = argc > 2 ? (unsigned)atoi(argv[2]) : 40, rung;
	struct duskcourt_court c, again, junk;
	int i;

	naive_open(&nv);
	duskcourt_solver_init(&solver_a);
	duskcourt_solver_init(&solver_b);

	for (rung = 1; rung <= max_rung; rung++) {
		int bad = 0, unstable = 0, refused = 0;
		const char *first = NULL;

		for (i = 0; i < per_rung; i++) {
			/* Seeds over the whole range, the extremes included. */
			uint64_t seed = i == 0 ? 0 : i == 1 ? DUSKCOURT_SEED_MAX
			    : mix(rung * 100003u + (unsigned)i) & DUSKCOURT_SEED_MAX;
			uint32_t k = (uint32_t)(mix(seed ^ rung) % 1000);
			const char *why;

			if (!duskcourt_deal(&c, seed, k, rung, &solver_a)) {
				refused++;
				continue;
			}
			/* Another court first, so solver_b's memo is not fresh. */
			duskcourt_deal(&junk, seed + 1, k + 1, rung, &solver_b);
			if (!duskcourt_deal(&again, seed, k, rung, &solver_b)
			    || memcmp(&c, &again, sizeof c) != 0)
				unstable++;
			why = check_court(&c, rung);
			if (why != NULL) {
				if (first == NULL) {
					first = why;
					diag("seed %llu k %u rung %u fails: %s",
					    (unsigned long long)seed, (unsigned)k, rung, why);
					show(&c);
				}
				bad++;
			}
		}
		is_int(refused, 0, "rung %u: the dealer deals every one of %d courts", rung, per_rung);
		is_int(bad, 0, "rung %u: %d courts match the ladder row, have a capture, "
		    "clear (naive solver) and hold the row's decoys (naive count)", rung, per_rung);
		is_int(unstable, 0, "rung %u: dealing the same (seed, k, rung) again gives the same court",
		    rung);
	}

	/* The last-resort courts, both ways round, for every distinct row. */
	for (rung = 1; rung <= 24; rung++) {
		const char *why0, *why1;

		ok(duskcourt_deal_fallback(&c, rung, false), "rung %u has a fallback court", rung);
		why0 = check_court(&c, rung);
		ok(duskcourt_deal_fallback(&c, rung, true), "rung %u has a mirrored fallback court", rung);
		why1 = check_court(&c, rung);
		ok(why0 == NULL && why1 == NULL, "rung %u: the fallback courts meet the row (%s)", rung,
		    why0 ? why0 : why1 ? why1 : "all checks");
	}

	/* Refusals: rung 0 and seeds past 2^53 - 1. */
	memset(&again, 0xAB, sizeof again);
	junk = again;
	ok(!duskcourt_deal(&again, 1, 0, 0, &solver_a), "rung 0 is refused");
	ok(!duskcourt_deal(&again, DUSKCOURT_SEED_MAX + 1, 0, 1, &solver_a), "seed 2^53 is refused");
	ok(memcmp(&again, &junk, sizeof again) == 0, "a refused deal writes nothing");

	/* The court the CLI shows for `arcaded deal 7 1 0`. */
	ok(duskcourt_deal(&c, 7, 0, 1, &solver_a), "seed 7, rung 1, court 0 deals");
	is_int(c.size, 4, "it is 4x4");
	is_int(naive_idols(c.cells, c.size), 3, "it holds 3 idols");
	{
		struct duskcourt_capture path[DUSKCOURT_PATH_MAX];
		size_t n = 0, j;
		uint8_t b[36];
		bool legal = true;

		is_int(duskcourt_solve(&solver_a, &c, 0, path, &n), DUSKCOURT_CLEARABLE,
		    "the solver clears it");
		memcpy(b, c.cells, 36);
		for (j = 0; j < n; j++) {
			legal = legal && naive_can_take(b, c.size, c.king_survives, path[j].from, path[j].to);
			b[path[j].to] = b[path[j].from];
			b[path[j].from] = 0;
		}
		ok(n == 2 && legal && naive_idols(b, c.size) == 1,
		    "its solution is two legal captures that leave one idol");
	}

	naive_close(&nv);
	return tap_done();
}
