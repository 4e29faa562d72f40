/*
 * test_whowins_naive.c: the search against a naive solver written here from
 * the rules alone (docs/rules/whowins.md): the pieces typed again from the
 * rules' pictures, a well of plain cells, landings found by a recursive
 * flood over (orientation, column, row) with every move checked cell by
 * cell, and who wins by plain recursion with no table, no ordering and no
 * symmetry. It is slow, so it runs on small wells: every empty well up to a
 * few rows, and random part-filled wells, both movement rules.
 *
 * usage: test_whowins_naive RANDOM_WELLS SEED
 */
#include <stdlib.h>

#include "tap.h"
#include "whowins.h"

#include "naive_model.h"

/* 1: the player wins the current well. */
static int
player_wins(struct naive *n)
{
	int p, k;

	for (p = 0; p < 7; p++) {
		int lands[512][3], nl, won = 0;

		find_landings(n, p);
		nl = n->nland;
		memcpy(lands, n->land, sizeof lands[0] * (size_t)nl);
		for (k = 0; k < nl && !won; k++) {
			put(n, p, lands[k][0], lands[k][1], lands[k][2], 1);
			won = any_full(n) || player_wins(n);
			put(n, p, lands[k][0], lands[k][1], lands[k][2], 0);
		}
		if (!won)
			return 0;
	}
	return 1;
}

static uint64_t rng = 88172645463325252u;

static unsigned
next(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

static void
compare(struct whowins *s, void *mem, size_t bytes, int w, int h, int drop, const uint16_t *rows,
    const char *what)
{
	struct naive n;
	char why[160];
	enum whowins_result got;
	int want, y, x;

	memset(&n, 0, sizeof n);
	n.w = w;
	n.h = h;
	n.drop = drop;
	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++)
			n.cell[4 + y][x] = rows ? (char)(rows[y] >> x & 1) : 0;
	want = any_full(&n) || player_wins(&n);
	if (!ok(whowins_init(s, (unsigned)w, (unsigned)h, drop ? WHOWINS_DROP : WHOWINS_FULL, mem, bytes,
	    why, sizeof why), "init %d x %d", w, h))
		return;
	got = whowins_solve(s, rows);
	ok(got == (want ? WHOWINS_PLAYER : WHOWINS_SUPPLIER), "%s %d x %d %s: %s as the naive solver says",
	    what, w, h, drop ? "drop" : "full", want ? "player" : "supplier");
}

int
main(int argc, char **argv)
{
	static const int empty[][2] = { { 4, 0 }, { 4, 1 }, { 4, 2 }, { 4, 3 }, { 4, 4 }, { 4, 5 },
		{ 4, 6 }, { 5, 2 }, { 5, 3 }, { 5, 4 }, { 6, 2 }, { 6, 3 }, { 6, 4 }, { 7, 2 }, { 7, 3 },
		{ 8, 2 }, { 8, 3 } };
	int nrandom = argc > 1 ? atoi(argv[1]) : 200, i, drop, k;
	size_t bytes = (size_t)16 << 20;
	void *mem = malloc(bytes);
	struct whowins *s = malloc(sizeof *s);
	int players = 0;

	if (argc > 2)
		rng = strtoull(argv[2], NULL, 10) | 1;
	if (!ok(mem && s, "memory"))
		return tap_done();
	for (k = 0; k < (int)(sizeof empty / sizeof empty[0]); k++)
		for (drop = 0; drop < 2; drop++)
			compare(s, mem, bytes, empty[k][0], empty[k][1], drop, NULL, "empty");
	/* Random wells from random play: pieces landed at random (the naive
	 * model's landings, none completing a row) until only a few empty
	 * rows' worth of cells is left, so that the naive recursion stays small. */
	for (i = 0; i < nrandom; i++) {
		struct naive n;
		int w = 4 + (int)next(3), h = 2 + (int)next(5), y, x, placed = 0, tries;
		uint16_t rows[WHOWINS_H_MAX] = { 0 };

		memset(&n, 0, sizeof n);
		n.w = w;
		n.h = h;
		n.drop = drop = (int)next(2);
		for (tries = 0; tries < 60 && 4 * placed + w * (w == 6 ? 2 : 3) < w * h; tries++) {
			int p = (int)next(7), l;

			find_landings(&n, p);
			if (n.nland == 0)
				continue;
			l = (int)next((unsigned)n.nland);
			put(&n, p, n.land[l][0], n.land[l][1], n.land[l][2], 1);
			if (any_full(&n)) {
				put(&n, p, n.land[l][0], n.land[l][1], n.land[l][2], 0);
				continue;
			}
			placed++;
		}
		for (y = 0; y < h; y++)
			for (x = 0; x < w; x++)
				if (n.cell[4 + y][x])
					rows[y] |= (uint16_t)(1u << x);
		compare(s, mem, bytes, w, h, drop, rows, "random");
		players += s->result == WHOWINS_PLAYER;
	}
	diag("%d of %d random wells were player wins", players, nrandom);
	ok(nrandom == 0 || (players > 0 && players < nrandom), "the random wells hold wins for both sides");
	free(mem);
	free(s);
	return tap_done();
}
