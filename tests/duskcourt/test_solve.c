/*
 * test_solve.c: the engine's solver against the naive model.
 *
 * On random positions (sizes 4..6, up to 10 idols, boulders, jackal courts
 * with one K) and on dealt courts up to 12 idols: the verdict must match the
 * naive exhaustive search; a returned way through must be legal move by
 * move (naive reach) and leave one idol (the K on a jackal court); the
 * exact decoy count must match the naive count, and the early-stopping
 * count must settle the same threshold questions. Node budgets must give
 * UNKNOWN or the right verdict, never a wrong one.
 *
 * usage: test_solve [POSITIONS] (default 3000).
 */
#include <stdio.h>
#include <stdlib.h>

#include "duskcourt.h"
#include "naive.h"
#include "tap.h"

static struct duskcourt_solver sv;
static struct naive nv;
static uint64_t rng = 88172645463325252u;

static unsigned
roll(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)((rng >> 11) % n);
}

static void
random_court(struct duskcourt_court *c)
{
	int n, idols, boulders, i, sq;

	memset(c, 0, sizeof *c);
	c->size = (uint8_t)(4 + roll(3));
	n = c->size * c->size;
	idols = 2 + (int)roll(c->size == 4 ? 7 : 9);
	boulders = (int)roll(5);
	c->king_survives = roll(3) == 0;
	for (i = 0; i < boulders; i++) {
		sq = (int)roll((unsigned)n);
		c->cells[sq] = DUSKCOURT_BOULDER;
	}
	for (i = 0; i < idols; i++) {
		sq = (int)roll((unsigned)n);
		if (c->cells[sq] != DUSKCOURT_EMPTY)
			continue;
		/* Clustered kinds so that many positions have takes at all. */
		c->cells[sq] = (uint8_t)(DUSKCOURT_Q + roll(5));
		if (!c->king_survives && roll(6) == 0)
			c->cells[sq] = DUSKCOURT_K;
	}
	if (c->king_survives) {
		do
			sq = (int)roll((unsigned)n);
		while (c->cells[sq] == DUSKCOURT_BOULDER);
		c->cells[sq] = DUSKCOURT_K;
	}
}

/* Checks one court; returns a description of the first problem, or NULL. */
static const char *
check(const struct duskcourt_court *c, bool decoys_too)
{
	struct duskcourt_capture path[DUSKCOURT_PATH_MAX];
	size_t npath = 0, i;
	enum duskcourt_verdict v = duskcourt_solve(&sv, c, 0, path, &npath);
	bool want = naive_clearable(&nv, c->cells, c->size, c->king_survives);
	int nd, want_nd, enough;
	bool clearable_seen;

	if (v != (want ? DUSKCOURT_CLEARABLE : DUSKCOURT_UNCLEARABLE))
		return "verdict";
	if (v == DUSKCOURT_CLEARABLE) {
		uint8_t b[36];

		memcpy(b, c->cells, 36);
		for (i = 0; i < npath; i++) {
			if (!naive_can_take(b, c->size, c->king_survives, path[i].from, path[i].to))
				return "illegal move in the way through";
			b[path[i].to] = b[path[i].from];
			b[path[i].from] = 0;
		}
		if (naive_idols(b, c->size) != 1)
			return "the way through does not clear";
		if (c->king_survives) {
			for (i = 0; i < 36 && b[i] != DUSKCOURT_K; i++)
				;
			if (i == 36)
				return "the jackal is not the one standing";
		}
	}
	if (!decoys_too)
		return NULL;
	want_nd = naive_decoys(&nv, c->cells, c->size, c->king_survives);
	if (!duskcourt_decoys(&sv, c, 0, 0, &nd, &clearable_seen) || nd != want_nd)
		return "exact decoy count";
	if (clearable_seen && !want)
		return "saw a way through a dead court";
	for (enough = 1; enough <= 4; enough++) {
		if (!duskcourt_decoys(&sv, c, enough, 0, &nd, NULL))
			return "early-stopping count did not settle";
		if ((nd >= enough) != (want_nd >= enough))
			return "early-stopping count settled wrongly";
	}
	/* A tiny budget may give up, but never lie. */
	v = duskcourt_solve(&sv, c, 3, NULL, NULL);
	if (v != DUSKCOURT_UNKNOWN && v != (want ? DUSKCOURT_CLEARABLE : DUSKCOURT_UNCLEARABLE))
		return "budgeted verdict";
	if (duskcourt_decoys(&sv, c, 0, 5, &nd, NULL) && nd != want_nd)
		return "budgeted decoy count";
	return NULL;
}

static void
show(const struct duskcourt_court *c)
{
	char line[8];
	int r, col;

	diag("size %d, jackal %d:", c->size, c->king_survives);
	for (r = c->size - 1; r >= 0; r--) {
		for (col = 0; col < c->size; col++)
			line[col] = duskcourt_cell_char(c->cells[r * c->size + col]);
		line[c->size] = '\0';
		diag("  %s", line);
	}
}

int
main(int argc, char **argv)
{
	int positions = argc > 1 ? atoi(argv[1]) : 3000, i, bad = 0, clearable = 0, dead = 0;
	struct duskcourt_court c;
	const char *why;
	unsigned rung;

	duskcourt_solver_init(&sv);
	naive_open(&nv);
	for (i = 0; i < positions; i++) {
		random_court(&c);
		why = check(&c, true);
		if (why != NULL) {
			if (bad++ == 0) {
				diag("position %d: %s", i, why);
				show(&c);
			}
		}
		if (naive_clearable(&nv, c.cells, c.size, c.king_survives))
			clearable++;
		else
			dead++;
	}
	is_int(bad, 0, "%d random positions: verdicts, ways through and decoy counts agree "
	    "with the naive model", positions);
	ok(clearable > positions / 10 && dead > positions / 10,
	    "the sample holds both kinds (%d clearable, %d dead)", clearable, dead);

	/* Dealt courts, every 12-idol row included; decoys counted exactly. */
	for (rung = 1; rung <= 22; rung++) {
		int r_bad = 0, j;

		for (j = 0; j < 4; j++) {
			duskcourt_deal(&c, 1000u * rung + (unsigned)j, (uint32_t)j, rung, &sv);
			why = check(&c, true);
			if (why != NULL && r_bad++ == 0) {
				diag("rung %u court %d: %s", rung, j, why);
				show(&c);
			}
		}
		is_int(r_bad, 0, "rung %u: 4 dealt courts agree with the naive model", rung);
	}

	/* Edge cases. */
	memset(&c, 0, sizeof c);
	c.size = 6;
	for (i = 0; i < 17; i++)
		c.cells[i * 2] = DUSKCOURT_Q;
	is_int(duskcourt_solve(&sv, &c, 0, NULL, NULL), DUSKCOURT_UNKNOWN,
	    "17 idols are more than the solver takes: UNKNOWN");
	memset(&c, 0, sizeof c);
	c.size = 5;
	c.cells[7] = DUSKCOURT_N;
	{
		size_t n = 99;

		is_int(duskcourt_solve(&sv, &c, 0, NULL, &n), DUSKCOURT_CLEARABLE,
		    "a lone idol is already cleared");
		is_int(n, 0, "with an empty way through");
	}
	c.cells[7] = DUSKCOURT_EMPTY;
	is_int(duskcourt_solve(&sv, &c, 0, NULL, NULL), DUSKCOURT_UNCLEARABLE,
	    "an empty court cannot be cleared");
	c.size = 7;
	is_int(duskcourt_solve(&sv, &c, 0, NULL, NULL), DUSKCOURT_UNKNOWN, "size 7 is refused");

	naive_close(&nv);
	return tap_done();
}
