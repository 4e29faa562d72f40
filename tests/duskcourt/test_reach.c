/*
 * test_reach.c: the reach of every idol, worked out by hand on small
 * pictures (open and blocked lines, boulders, the camel's jump, the
 * beetle's direction and the top row, board edges and row wrap-around on
 * every size, the jackal rule), then the engine's reach against the naive
 * model's on thousands of random boards.
 *
 * Pictures are drawn top rank first; index = row * size + col, row 0 at the
 * bottom.
 */
#include <stdio.h>
#include <stdlib.h>

#include "duskcourt.h"
#include "naive.h"
#include "tap.h"

/* The squares the idol on `from` can take, as "a b c" in index order. */
static const char *
targets(const char *pic, int size, bool jackal, int from)
{
	static char out[200];
	uint8_t b[36];
	size_t len = 0;
	int to;

	naive_picture(b, size, pic);
	out[0] = '\0';
	for (to = 0; to < size * size; to++)
		if (duskcourt_can_take(b, size, jackal, from, to))
			len += (size_t)snprintf(out + len, sizeof out - len, "%s%d", len ? " " : "", to);
	return out;
}

/* The same picture with the idol on `sq` replaced. */
static const char *
with(const char *pic, int size, int sq, char kind)
{
	static char out[40];
	int r = sq / size, c = sq % size;

	snprintf(out, sizeof out, "%s", pic);
	out[(size - 1 - r) * size + c] = kind;
	return out;
}

static void
lines_and_boulders(void)
{
	/* Q on 14 (row 2, col 2). Up: 20, 26 empty, N on 32. Down: boulder on 8
	 * shields the P on 2. Right: N on 16 shields the P on 17. Left: empty to
	 * the edge. Up-right: B on 35 at the end of an open diagonal. Up-left:
	 * R on 19 shields the P on 24. Down-right: boulder on 9 shields the R on 4.
	 * Down-left: K on 0 past an empty 7. */
	const char *pic =
	    "..N..B"
	    "P....."
	    ".R...."
	    "..Q.NP"
	    "..##.."
	    "K.P.R.";

	is_str(targets(pic, 6, false, 14), "0 16 19 32 35",
	    "scorpion: first idol on each of 8 lines, boulders and idols block");
	is_str(targets(with(pic, 6, 14, 'R'), 6, false, 14), "16 32",
	    "cobra: the straight lines only");
	is_str(targets(with(pic, 6, 14, 'B'), 6, false, 14), "0 19 35",
	    "vulture: the diagonals only");
	is_str(targets(with(pic, 6, 8, '.'), 6, false, 14), "0 2 16 19 32 35",
	    "scorpion: without the boulder on 8 the line down opens to 2");
	is_str(targets(with(pic, 6, 16, '.'), 6, false, 14), "0 17 19 32 35",
	    "scorpion: without the idol on 16 the line right runs to 17");
	is_str(targets(with(pic, 6, 9, '.'), 6, false, 14), "0 4 16 19 32 35",
	    "scorpion: without the boulder on 9 the diagonal runs to 4");
	is_str(targets(with(pic, 6, 8, '.'), 6, false, 8), "",
	    "an empty square takes nothing");
	is_str(targets(pic, 6, false, 8), "", "a boulder takes nothing");
	{
		uint8_t b[36];

		naive_picture(b, 6, pic);
		ok(!duskcourt_can_take(b, 6, false, 14, 8), "nothing takes a boulder");
		ok(!duskcourt_can_take(b, 6, false, 14, 13), "nothing takes an empty square");
		ok(!duskcourt_can_take(b, 6, false, 14, 14), "the scorpion cannot take itself");
		ok(!duskcourt_can_take(b, 6, false, 14, -1) && !duskcourt_can_take(b, 6, false, 14, 36)
		    && !duskcourt_can_take(b, 6, false, -1, 0) && !duskcourt_can_take(b, 6, false, 36, 0),
		    "indexes outside 0..35 take and are taken by nothing");
	}
}

static void
camel(void)
{
	/* N on 14, every touching square a boulder, an idol on each of the eight
	 * jump squares: it jumps over everything. */
	const char *pic =
	    "......"
	    ".P.P.."
	    "P###P."
	    ".#N#.."
	    "P###P."
	    ".P.P..";

	is_str(targets(pic, 6, false, 14), "1 3 6 10 18 22 25 27",
	    "camel: all eight jumps, over boulders");
	is_str(targets(with(pic, 6, 14, 'Q'), 6, false, 14), "",
	    "a scorpion in the same spot is walled in by the boulders");
	/* Corners and edges: only the jumps that land on the court. */
	is_str(targets("PPPPPPPPPPPPNPPP", 4, false, 0), "6 9", "camel in the corner of a 4x4 court");
	is_str(targets("PPPPPPPPPPPPPPPPPPPPPPPPN", 5, false, 4), "7 13",
	    "camel in the bottom-right corner of a 5x5 court");
	is_str(targets("PPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPNPPPP", 6, false, 1), "9 12 14",
	    "camel on the bottom edge of a 6x6 court");
}

static void
beetle_and_jackal(void)
{
	/* P on 12 of a 5x5 court, idols all round it. */
	const char *pic =
	    "PPPPP"
	    "PPPPP"
	    "PPPPP"
	    "PPPPP"
	    "PPPPP";

	is_str(targets(pic, 5, false, 12), "16 18",
	    "beetle: the two squares diagonally forward, nothing else");
	is_str(targets(pic, 5, false, 22), "", "beetle on the top row: no takes at all");
	is_str(targets(pic, 5, false, 5), "11", "beetle on the left edge: one diagonal");
	is_str(targets(pic, 5, false, 9), "13", "beetle on the right edge: one diagonal");
	is_str(targets(with(pic, 5, 16, '.'), 5, false, 12), "18",
	    "beetle: an empty forward diagonal is no take");
	{
		uint8_t b[36];

		naive_picture(b, 5, pic);
		ok(duskcourt_can_take(b, 5, false, 6, 12) && !duskcourt_can_take(b, 5, false, 18, 12),
		    "beetles are taken like any idol, but take only upward");
	}
	is_str(targets(with(pic, 5, 12, 'K'), 5, false, 12), "6 7 8 11 13 16 17 18",
	    "jackal: the eight touching squares");
	is_str(targets("PPPKPPPPPPPPPPPP", 4, false, 15), "10 11 14", "jackal in the top-right corner");
	is_str(targets("PPPPPPPPPPPPPPPPPPPPKPPPP", 5, false, 0), "1 5 6",
	    "jackal in the bottom-left corner");
}

static void
jackal_rule(void)
{
	/* R on 0, K on 3, N on 6 (touching the K), P on 12, 4x4. */
	const char *pic =
	    "P..."
	    "...."
	    "..N."
	    "R..K";
	uint8_t b[36];
	struct duskcourt_capture caps[16];

	naive_picture(b, 4, pic);
	ok(!duskcourt_can_take(b, 4, true, 0, 3),
	    "where the jackal must stand last, the cobra cannot take it");
	ok(duskcourt_can_take(b, 4, false, 0, 3), "where it need not, the cobra takes the jackal");
	ok(duskcourt_can_take(b, 4, true, 3, 6), "the jackal itself takes normally");
	ok(duskcourt_can_take(b, 4, true, 0, 12), "the cobra still takes the beetle up its file");
	is_int(duskcourt_captures(b, 4, true, caps, 16), 3,
	    "three legal captures on the jackal court (0>12, 3>6, 6>0)");
	ok(caps[0].from == 0 && caps[0].to == 12 && caps[1].from == 3 && caps[1].to == 6
	    && caps[2].from == 6 && caps[2].to == 0, "listed by from, then to");
	is_int(duskcourt_captures(b, 4, false, caps, 16), 4, "four without the rule (0>3 as well)");
	is_int(duskcourt_captures(b, 4, false, caps, 2), 4,
	    "the count is returned in full even when the buffer is smaller");
}

static void
edges_every_size(void)
{
	int size;

	for (size = 4; size <= 6; size++) {
		uint8_t b[36] = { 0 };
		int n = size * size, last = size - 1;
		char want[40];

		/* Scorpion in the corner, idols in the other three corners. */
		b[0] = DUSKCOURT_Q;
		b[last] = DUSKCOURT_P;
		b[last * size] = DUSKCOURT_N;
		b[n - 1] = DUSKCOURT_B;
		snprintf(want, sizeof want, "%d %d %d", last, last * size, n - 1);
		{
			char got[40];
			size_t len = 0;
			int to;

			got[0] = '\0';
			for (to = 0; to < n; to++)
				if (duskcourt_can_take(b, size, false, 0, to))
					len += (size_t)snprintf(got + len, sizeof got - len, "%s%d",
					    len ? " " : "", to);
			is_str(got, want, "%dx%d: the corner scorpion runs to the three far corners",
			    size, size);
		}
		/* Row ends are not neighbours, whatever the indexes say. */
		memset(b, 0, sizeof b);
		b[last] = DUSKCOURT_K;
		b[size] = DUSKCOURT_R;
		ok(!duskcourt_can_take(b, size, false, last, size)
		    && !duskcourt_can_take(b, size, false, size, last),
		    "%dx%d: the jackal on %d and the cobra on %d do not touch", size, size, last, size);
		b[last] = DUSKCOURT_R;
		b[last + 1] = DUSKCOURT_R;
		memset(b + size, 0, 1);
		ok(!duskcourt_can_take(b, size, false, last, last + 1),
		    "%dx%d: a cobra does not run off the row's end onto the next row", size, size);
		memset(b, 0, sizeof b);
		b[last] = DUSKCOURT_B;
		b[2 * size] = DUSKCOURT_P;
		ok(!duskcourt_can_take(b, size, false, last, 2 * size),
		    "%dx%d: a vulture's diagonal does not wrap around the edge", size, size);
		memset(b, 0, sizeof b);
		/* last + size + 2 would be "one up, two right" if rows ran on. */
		b[last] = DUSKCOURT_N;
		b[last + size + 2] = DUSKCOURT_P;
		ok(!duskcourt_can_take(b, size, false, last, last + size + 2),
		    "%dx%d: a camel does not jump across the edge", size, size);
		memset(b, 0, sizeof b);
		b[n - size] = DUSKCOURT_P;
		b[n - 1] = DUSKCOURT_P;
		ok(duskcourt_captures(b, size, false, NULL, 0) == 0,
		    "%dx%d: beetles on the top row have no takes", size, size);
		ok(!duskcourt_can_take(b, size, false, 0, n) && !duskcourt_can_take(b, size, false, n, 0),
		    "%dx%d: square %d is off the court", size, size, n);
	}
}

/* The engine's reach and legal list against the naive model's. */
static void
differential(int boards)
{
	uint64_t s = 12345;
	int i, mismatched = 0, order_bad = 0;

	for (i = 0; i < boards; i++) {
		uint8_t b[36] = { 0 };
		int size = 4 + i % 3, n = size * size, sq, f, t, density;
		bool jackal = (i / 3) % 2;
		int moves[36 * 8], nm;
		struct duskcourt_capture caps[36 * 8];
		size_t nc, j;

		s = s * 6364136223846793005u + 1442695040888963407u;
		density = 2 + (int)((s >> 40) % 7);
		for (sq = 0; sq < n; sq++) {
			s = s * 6364136223846793005u + 1442695040888963407u;
			if ((s >> 33) % 10 < (unsigned)density)
				b[sq] = (uint8_t)(1 + (s >> 50) % 7);
		}
		for (f = -1; f <= 36; f++)
			for (t = -1; t <= 36; t++)
				if (duskcourt_can_take(b, size, jackal, f, t)
				    != naive_can_take(b, size, jackal, f, t)) {
					if (mismatched++ == 0)
						diag("board %d: %d -> %d disagrees", i, f, t);
				}
		nm = naive_moves(b, size, jackal, moves);
		nc = duskcourt_captures(b, size, jackal, caps, sizeof caps / sizeof caps[0]);
		if ((size_t)nm != nc)
			order_bad++;
		else
			for (j = 0; j < nc; j++)
				if (caps[j].from * 64 + caps[j].to != moves[j]) {
					order_bad++;
					break;
				}
	}
	is_int(mismatched, 0, "reach agrees with the naive model on %d random boards", boards);
	is_int(order_bad, 0, "the legal captures and their order agree on %d random boards", boards);
}

int
main(void)
{
	lines_and_boulders();
	camel();
	beetle_and_jackal();
	jackal_rule();
	edges_every_size();
	differential(6000);
	return tap_done();
}
