/*
 * test_marks.c: tetromino_json_marks (api/tetromino/tetromino_json.c), what the run
 * pages highlight, against a naive model written here from the shape
 * diagrams of docs/rules/stackfall.md: a cells[20][10] board, a piece
 * dropped one row at a time from above the board until it would touch a
 * filled cell or the floor, full rows removed. Random boards are built by
 * placing random legal pieces on both the engine's board and the model's
 * (so they hold the same cells); at every step every legal placement of a
 * random piece is marked by both and compared: the cells landed on, the
 * rows filled, the cells kept after the clears and where they end up.
 * Wells of 1 to 4 rows under a standing I make every kind of clear come up.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "tetromino_json.h"

#define R 20
#define C 10

/* Top row first, rows split by '/', from the rules page's table. */
static const char *const diagrams[7][4] = {
	{ "####", "#/#/#/#", "####", "#/#/#/#" },
	{ "##/##", "##/##", "##/##", "##/##" },
	{ ".#./###", "#./##/#.", "###/.#.", ".#/##/.#" },
	{ ".##/##.", "#./##/.#", ".##/##.", "#./##/.#" },
	{ "##./.##", ".#/##/#.", "##./.##", ".#/##/#." },
	{ "#../###", "##/#./#.", "###/..#", ".#/.#/##" },
	{ "..#/###", "#./#./##", "###/#..", "##/.#/.#" },
};

struct shape {
	int n, w, dx[4], dy[4]; /* dy from the bottom row */
};

static void
shape_of(int piece, int rot, struct shape *s)
{
	const char *d = diagrams[piece][rot];
	int rows = 1, y = 0, x = 0;
	const char *p;

	for (p = d; *p; p++)
		rows += *p == '/';
	memset(s, 0, sizeof *s);
	for (p = d; *p; p++) {
		if (*p == '/') {
			y++;
			x = 0;
			continue;
		}
		if (*p == '#') {
			s->dx[s->n] = x;
			s->dy[s->n] = rows - 1 - y;
			s->n++;
		}
		x++;
		if (x > s->w)
			s->w = x;
	}
}

struct naive {
	char cells[R][C]; /* row 0 at the bottom; 0 empty */
	int landed[4][2], nlanded, cleared[4], ncleared, kept[4][2], nkept;
};

static int
fits(const struct naive *b, const struct shape *s, int col, int row)
{
	int i;

	for (i = 0; i < s->n; i++) {
		int r = row + s->dy[i], c = col + s->dx[i];

		if (r < 0 || (r < R && b->cells[r][c]))
			return 0;
	}
	return 1;
}

/* Drops from above; 0 when it cannot end inside the rows. */
static int
naive_place(struct naive *b, int piece, int rot, int col)
{
	struct shape s;
	int row = R, i, r, n = 0, below[R];

	shape_of(piece, rot, &s);
	if (col < 0 || col + s.w > C)
		return 0;
	while (fits(b, &s, col, row - 1))
		row--;
	for (i = 0; i < s.n; i++)
		if (row + s.dy[i] >= R)
			return 0;
	b->nlanded = b->ncleared = b->nkept = 0;
	for (i = 0; i < s.n; i++) {
		b->cells[row + s.dy[i]][col + s.dx[i]] = (char)('A' + piece);
		b->landed[b->nlanded][0] = row + s.dy[i] + 1;
		b->landed[b->nlanded++][1] = col + s.dx[i];
	}
	for (r = 0; r < R; r++) {
		int c, full = 1;

		below[r] = n;
		for (c = 0; c < C; c++)
			full &= b->cells[r][c] != 0;
		if (full)
			b->cleared[b->ncleared++] = r + 1, n++;
	}
	for (i = 0; i < b->nlanded; i++) {
		int lr = b->landed[i][0] - 1, gone = 0, k;

		for (k = 0; k < b->ncleared; k++)
			gone |= b->cleared[k] == lr + 1;
		if (!gone) {
			b->kept[b->nkept][0] = lr - below[lr] + 1;
			b->kept[b->nkept++][1] = b->landed[i][1];
		}
	}
	/* Remove the full rows. */
	for (r = 0, n = 0; r < R; r++) {
		int k, gone = 0;

		for (k = 0; k < b->ncleared; k++)
			gone |= b->cleared[k] == r + 1;
		if (!gone)
			memmove(b->cells[n++], b->cells[r], C);
	}
	for (; n < R; n++)
		memset(b->cells[n], 0, C);
	return 1;
}

static int
cmp_cell(const void *a, const void *b)
{
	const int *x = a, *y = b;

	return x[0] != y[0] ? x[0] - y[0] : x[1] - y[1];
}

/* A [[row, col], ...] array of json as sorted pairs; -1 on a bad shape. */
static int
pairs(const json_t *a, int out[4][2])
{
	size_t i, n = json_array_size(a);

	if (!json_is_array(a) || n > 4)
		return -1;
	for (i = 0; i < n; i++) {
		out[i][0] = (int)json_integer_value(json_array_get(json_array_get(a, i), 0));
		out[i][1] = (int)json_integer_value(json_array_get(json_array_get(a, i), 1));
	}
	qsort(out, n, sizeof out[0], cmp_cell);
	return (int)n;
}

static int
same(const json_t *m, struct naive *nv, int piece)
{
	int got[4][2], n, i;
	const json_t *cl = json_object_get(m, "cleared");
	char letter[2] = { tetromino_letter((unsigned)piece), 0 };

	if (m == NULL || strcmp(json_string_value(json_object_get(m, "piece")), letter) != 0)
		return 0;
	qsort(nv->landed, (size_t)nv->nlanded, sizeof nv->landed[0], cmp_cell);
	qsort(nv->kept, (size_t)nv->nkept, sizeof nv->kept[0], cmp_cell);
	n = pairs(json_object_get(m, "landed"), got);
	if (n != nv->nlanded || memcmp(got, nv->landed, sizeof got[0] * (size_t)n) != 0)
		return 0;
	n = pairs(json_object_get(m, "kept"), got);
	if (n != nv->nkept || memcmp(got, nv->kept, sizeof got[0] * (size_t)n) != 0)
		return 0;
	if ((int)json_array_size(cl) != nv->ncleared)
		return 0;
	for (i = 0; i < nv->ncleared; i++)
		if (json_integer_value(json_array_get(cl, (size_t)i)) != nv->cleared[i])
			return 0;
	return 1;
}

int
main(void)
{
	struct tetromino_board b;
	struct naive nv;
	unsigned seed = 20261130, compared = 0, clears[5] = { 0 }, mismatches = 0, refusals = 0;
	int placed;

	srand(seed);
	tetromino_board_init(&b);
	memset(&nv, 0, sizeof nv);
	for (placed = 0; placed < 1500; placed++) {
		int piece = rand() % 7, rot, col, chosen = -1, nchoice = 0;
		int choices[40][2];

		for (rot = 0; rot < 4; rot++) {
			for (col = 0; col < C; col++) {
				struct naive copy = nv;
				json_t *m = tetromino_json_marks(&b, (unsigned)piece, (unsigned)rot, (unsigned)col);
				int legal = naive_place(&copy, piece, rot, col);

				if (!legal) {
					refusals += m == NULL;
					if (m != NULL)
						mismatches++;
					json_decref(m);
					continue;
				}
				compared++;
				if (!same(m, &copy, piece)) {
					if (mismatches++ < 3)
						diag("piece %d rotation %d column %d differs", piece, rot, col);
				} else
					clears[copy.ncleared]++;
				json_decref(m);
				choices[nchoice][0] = rot;
				choices[nchoice++][1] = col;
			}
		}
		if (nchoice == 0) {
			/* Topped out: start again on an empty board. */
			tetromino_board_init(&b);
			memset(&nv, 0, sizeof nv);
			continue;
		}
		/* Prefer low placements a third of the time, so that rows fill. */
		chosen = rand() % nchoice;
		if (rand() % 3 == 0) {
			int k, best = R + 1;

			for (k = 0; k < nchoice; k++) {
				struct naive copy = nv;
				int top = 0, i;

				naive_place(&copy, piece, choices[k][0], choices[k][1]);
				for (i = 0; i < copy.nlanded; i++)
					top = copy.landed[i][0] > top ? copy.landed[i][0] : top;
				if (top - 4 * copy.ncleared < best)
					best = top - 4 * copy.ncleared, chosen = k;
			}
		}
		tetromino_place(&b, (unsigned)piece, (unsigned)choices[chosen][0], (unsigned)choices[chosen][1]);
		naive_place(&nv, piece, choices[chosen][0], choices[chosen][1]);
	}
	/* Wells: n full rows but for column c, and a ragged row above, take a
	 * standing I: n rows clear (1 to 4), the rest of the I stays. */
	for (placed = 0; placed < 400; placed++) {
		int n = 1 + placed % 4, c = rand() % C, r, col;
		json_t *m;

		tetromino_board_init(&b);
		memset(&nv, 0, sizeof nv);
		for (r = 0; r <= n && r < R; r++) {
			for (col = 0; col < C; col++) {
				int fill = col != c && (r < n || rand() % 2);

				if (r == n && col == (c + 1) % C)
					fill = 0; /* the ragged row is never full */
				if (fill) {
					tetromino_board_set(&b, (unsigned)r, (unsigned)col, 1 + (unsigned)(rand() % 7));
					nv.cells[r][col] = 'x';
				}
			}
		}
		m = tetromino_json_marks(&b, TETROMINO_I, 1, (unsigned)c);
		naive_place(&nv, TETROMINO_I, 1, c);
		compared++;
		if (!same(m, &nv, TETROMINO_I)) {
			if (mismatches++ < 3)
				diag("a well of %d rows at column %d differs", n, c);
		} else
			clears[nv.ncleared]++;
		json_decref(m);
	}
	ok(mismatches == 0, "the marks of %u placements on random boards equal the naive model's "
	    "(landed, cleared, kept)", compared);
	ok(refusals > 0, "placements that do not fit have no marks (%u tried)", refusals);
	ok(clears[1] && clears[2] && clears[3] && clears[4], "every kind of clear came up "
	    "(singles %u, doubles %u, triples %u, tetrises %u)", clears[1], clears[2], clears[3], clears[4]);
	ok(tetromino_json_marks(&b, 7, 0, 0) == NULL && tetromino_json_marks(&b, 0, 4, 0) == NULL &&
	    tetromino_json_marks(&b, 0, 0, 7) == NULL, "an unknown piece, rotation or column has no marks");
	return tap_done();
}
