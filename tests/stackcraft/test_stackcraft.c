/*
 * test_stackcraft.c: the rules one by one, on hand-made boards.
 *
 * Expected values come from the rule text: orientation counts (I, S, Z: 2;
 * O: 1; T, J, L: 4), colours 1..7 = I..L, points 0/100/300/500/800, the
 * legal count on an empty board (the sum over orientations of
 * 10 - width + 1), landing rows worked out by hand on the boards drawn
 * below, and the orientation pictures, which naive.h derives by turning the
 * spawn pictures. The documented choice when the cap and a top-out fall on
 * the same move (top_out) is tested as such.
 */
#include <stdlib.h>

#include "naive.h"
#include "stackcraft.h"
#include "tap.h"

enum { I, O, T, S, Z, J, L };

/* Fills cell (x, y) of a board with colour v (y downward). */
static void
set(struct tetromino_board *b, unsigned x, unsigned y, unsigned v)
{
	tetromino_board_set(b, STACKCRAFT_ROWS - 1 - y, x, v);
}

/* Rows y0..y1 filled in colour 2 except the columns in the mask `holes`. */
static void
fill_rows(struct tetromino_board *b, unsigned y0, unsigned y1, unsigned holes)
{
	unsigned x, y;

	for (y = y0; y <= y1; y++)
		for (x = 0; x < STACKCRAFT_COLS; x++)
			if (!(holes >> x & 1u))
				set(b, x, y, 2);
}

static const struct stackcraft_action *
find(const struct stackcraft_action *a, size_t n, const char *id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(a[i].id, id) == 0)
			return &a[i];
	return NULL;
}

static void
test_orientations(void)
{
	static const unsigned want[7] = { 2, 1, 4, 2, 2, 4, 4 };
	unsigned p, r, k, c, y, i, j, ok_cells, ok_cols, ok_sf;

	nv_setup();
	for (p = 0; p < 7; p++) {
		is_int(stackcraft_orientations(p), want[p], "%c has %u orientations", nv_letters[p],
		    want[p]);
		is_int(nv_pieces[p].n, want[p], "turning %c's picture gives %u unique ones",
		    nv_letters[p], want[p]);
		ok_cells = ok_cols = ok_sf = 1;
		for (r = 0; r < stackcraft_orientations(p); r++) {
			const struct stackcraft_shape *s = stackcraft_shape(p, r);
			const struct nv_pic *pic = &nv_pieces[p].o[r];
			const struct tetromino_shape *sf = tetromino_shape(p, r);

			/* the cells, in reading order, are the turned picture's */
			k = 0;
			if (s->width != pic->w || s->height != pic->h)
				ok_cells = 0;
			for (i = 0; i < (unsigned)pic->h; i++)
				for (j = 0; j < (unsigned)pic->w; j++)
					if (pic->g[i][j] == '#') {
						if (k >= 4 || s->cells[k][0] != j || s->cells[k][1] != i)
							ok_cells = 0;
						k++;
					}
			ok_cells &= k == 4;
			/* top and bottom per column, and one run of cells per column */
			for (c = 0; c < s->width; c++) {
				unsigned lo = 9, hi = 0, n = 0;

				for (k = 0; k < 4; k++)
					if (s->cells[k][0] == c) {
						lo = s->cells[k][1] < lo ? s->cells[k][1] : lo;
						hi = s->cells[k][1] > hi ? s->cells[k][1] : hi;
						n++;
					}
				if (n == 0 || s->top[c] != lo || s->bottom[c] != hi || hi - lo + 1 != n ||
				    s->top[c] > 2)
					ok_cols = 0;
			}
			/* the same picture as Stackfall's rotation r (rows bottom first) */
			if (sf->width != s->width || sf->height != s->height)
				ok_sf = 0;
			for (y = 0; y < s->height && ok_sf; y++) {
				unsigned mask = 0;

				for (k = 0; k < 4; k++)
					if (s->cells[k][1] == y)
						mask |= 1u << s->cells[k][0];
				if (sf->rows[s->height - 1 - y] != mask)
					ok_sf = 0;
			}
		}
		ok(ok_cells, "%c: the table's cells are the clockwise turns of the spawn picture",
		    nv_letters[p]);
		ok(ok_cols, "%c: per column top and bottom are right and each column is one run",
		    nv_letters[p]);
		ok(ok_sf, "%c: orientation r is Stackfall's rotation r", nv_letters[p]);
		ok(stackcraft_shape(p, want[p]) == NULL, "%c has no orientation %u", nv_letters[p],
		    want[p]);
	}
	ok(stackcraft_shape(7, 0) == NULL && stackcraft_orientations(7) == 0, "no piece 7");
}

static void
test_parse(void)
{
	static const char *const bad[] = { "", "r", "r1", "r1x", "r1x44", "r10x4", "R1x4", "r1X4",
		"x1r4", " r1x4", "r1x4 ", "r1 x4", "r-1x4", "r+1x4", "rax4", "r1xa", "r1x4\n",
		"r\xd9x4", "r1y4", "1x4", "rr1x4" };
	unsigned r = 99, x = 99, i;
	char id[STACKCRAFT_ID_SIZE];

	ok(stackcraft_parse_id("r1x4", 4, &r, &x) && r == 1 && x == 4, "r1x4 reads as 1, 4");
	ok(stackcraft_parse_id("r0x0", 4, &r, &x) && r == 0 && x == 0, "r0x0 reads");
	ok(stackcraft_parse_id("r9x9", 4, &r, &x) && r == 9 && x == 9,
	    "r9x9 reads (the range is the step's to check)");
	ok(stackcraft_parse_id("r2x3junk", 4, &r, &x) && r == 2 && x == 3,
	    "only len bytes are read");
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char shown[32];
		size_t k, j = 0;

		/* the name must stay on one printable line for TAP */
		for (k = 0; bad[i][k] != '\0' && j + 5 < sizeof shown; k++)
			j += (size_t)snprintf(shown + j, sizeof shown - j,
			    bad[i][k] >= 0x20 && bad[i][k] < 0x7f ? "%c" : "\\x%02x",
			    (unsigned char)bad[i][k]);
		shown[j] = '\0';
		r = x = 77;
		ok(!stackcraft_parse_id(bad[i], strlen(bad[i]), &r, &x) && r == 77 && x == 77,
		    "\"%s\" is refused, outputs untouched", shown);
	}
	ok(!stackcraft_parse_id("r1x4", 3, &r, &x), "a short length is refused");
	ok(!stackcraft_parse_id("r1x\0" "4", 5, &r, &x), "an embedded NUL is refused");
	ok(!stackcraft_parse_id(NULL, 0, &r, &x), "NULL is refused");
	stackcraft_action_id(3, 7, id);
	is_str(id, "r3x7", "ids are written r{rotation}x{x}");
}

static void
test_empty_board(void)
{
	static const unsigned counts[7] = { 17, 9, 34, 17, 17, 34, 34 };
	struct stackcraft_action a[STACKCRAFT_LEGAL_MAX];
	struct tetromino_board b;
	const struct stackcraft_action *i0, *t0, *l1;
	unsigned p;
	size_t n, k, ordered;

	tetromino_board_init(&b);
	for (p = 0; p < 7; p++) {
		n = stackcraft_legal_on(&b, p, a, STACKCRAFT_LEGAL_MAX);
		is_int(n, counts[p], "%c has %u placements on an empty board", nv_letters[p],
		    counts[p]);
		ordered = 1;
		for (k = 1; k < n; k++)
			if (a[k].rotation < a[k - 1].rotation ||
			    (a[k].rotation == a[k - 1].rotation && a[k].x != a[k - 1].x + 1))
				ordered = 0;
		ok(ordered && a[0].rotation == 0 && a[0].x == 0, "%c: by rotation, then x",
		    nv_letters[p]);
	}
	n = stackcraft_legal_on(&b, I, a, STACKCRAFT_LEGAL_MAX);
	i0 = find(a, n, "r0x0");
	ok(i0 != NULL && i0->y == 19 && i0->cells[0][0] == 0 && i0->cells[0][1] == 19 &&
	    i0->cells[3][0] == 3 && i0->cells[3][1] == 19, "I r0x0 lands at y 19 on (0..3, 19)");
	i0 = find(a, n, "r1x9");
	ok(i0 != NULL && i0->y == 16 && i0->cells[0][1] == 16 && i0->cells[3][1] == 19 &&
	    i0->cells[2][0] == 9, "I r1x9 lands at y 16 on (9, 16..19)");
	ok(find(a, n, "r0x7") == NULL && find(a, n, "r2x0") == NULL,
	    "no I r0x7 (too wide) and no I r2x0 (one repeat dropped)");
	n = stackcraft_legal_on(&b, T, a, STACKCRAFT_LEGAL_MAX);
	t0 = find(a, n, "r0x3");
	ok(t0 != NULL && t0->y == 18 && t0->cells[0][0] == 4 && t0->cells[0][1] == 18 &&
	    t0->cells[1][0] == 3 && t0->cells[1][1] == 19 && t0->cells[3][0] == 5,
	    "T r0x3 lands at y 18: (4, 18), (3, 19), (4, 19), (5, 19)");
	n = stackcraft_legal_on(&b, L, a, STACKCRAFT_LEGAL_MAX);
	l1 = find(a, n, "r1x8");
	ok(l1 != NULL && l1->y == 17 && l1->cells[3][0] == 9 && l1->cells[3][1] == 19,
	    "L r1x8 (#. #. ##) lands at y 17 with its foot at (9, 19)");
	is_int(stackcraft_legal_on(&b, 7, a, STACKCRAFT_LEGAL_MAX), 0, "no piece 7, no placements");
	is_int(stackcraft_legal_on(&b, T, NULL, 0), 34, "counting without a buffer");
	is_int(stackcraft_legal_on(&b, T, a, 3), 34, "a short buffer still gets the count");
}

static void
test_landing(void)
{
	struct stackcraft_action a[STACKCRAFT_LEGAL_MAX];
	struct tetromino_board b;
	const struct stackcraft_action *m;
	size_t n;

	/* A single block at (0, 10): a vertical I in column 0 stops above it. */
	tetromino_board_init(&b);
	set(&b, 0, 10, 3);
	n = stackcraft_legal_on(&b, I, a, STACKCRAFT_LEGAL_MAX);
	m = find(a, n, "r1x0");
	ok(m != NULL && m->y == 6, "I r1x0 stops on a block at y 10: origin y 6");
	m = find(a, n, "r0x0");
	ok(m != NULL && m->y == 9, "I r0x0 rests on it: y 9");
	m = find(a, n, "r0x1");
	ok(m != NULL && m->y == 19, "I r0x1 passes beside it: y 19");

	/* No sliding under an overhang: S r0 at x 0 over a roof at (1, 15).
	 * .##    rows 15.. : column 1 is roofed at y 15, columns 0 and 2 are
	 * ##.    empty to the floor; the S's column 1 meets the roof first. */
	tetromino_board_init(&b);
	set(&b, 1, 15, 3);
	n = stackcraft_legal_on(&b, S, a, STACKCRAFT_LEGAL_MAX);
	m = find(a, n, "r0x0");
	ok(m != NULL && m->y == 13, "S r0x0 stops on a roof at (1, 15): y 13, not under it");

	/* Unavailable even with room below: the spawn cell (0, 0) is filled. */
	tetromino_board_init(&b);
	set(&b, 0, 0, 1);
	n = stackcraft_legal_on(&b, I, a, STACKCRAFT_LEGAL_MAX);
	ok(find(a, n, "r0x0") == NULL && find(a, n, "r1x0") == NULL,
	    "a filled (0, 0) makes I r0x0 and r1x0 unavailable");
	m = find(a, n, "r0x1");
	ok(m != NULL && m->y == 19, "I r0x1 is free at y 0 and falls to y 19");
	is_int(n, 15, "I has 17 - 2 placements there");

	/* Starting below a filled top cell: (1, 0) and (1, 1) filled, the rest
	 * empty. L r1 (#. #. ##) at x 0 has its column-1 cell at y 2, free, so
	 * it is available and falls to the floor; a drop from above (Stackfall)
	 * would stop on the block. J r3 (.# .# ##) at x 0 likewise. */
	tetromino_board_init(&b);
	set(&b, 1, 0, 6);
	set(&b, 1, 1, 6);
	n = stackcraft_legal_on(&b, L, a, STACKCRAFT_LEGAL_MAX);
	m = find(a, n, "r1x0");
	ok(m != NULL && m->y == 17 && m->cells[3][0] == 1 && m->cells[3][1] == 19,
	    "L r1x0 starts under the filled (1, 1) and lands at y 17");
	ok(!tetromino_fits(&b, L, 1, 0), "a drop from above could not place it");
	n = stackcraft_legal_on(&b, J, a, STACKCRAFT_LEGAL_MAX);
	ok(find(a, n, "r3x0") == NULL, "J r3x0 covers (1, 0): unavailable");
	m = find(a, n, "r3x1");
	ok(m != NULL && m->y == 17 && !tetromino_fits(&b, J, 3, 1),
	    "J r3x1 starts with its column-1 cell under the block, lands at y 17; no drop from "
	    "above could");
	m = find(a, n, "r1x0");
	ok(m == NULL, "J r1x0 (## #. #.) covers (1, 0): unavailable");
	ok(stackcraft_has_legal(&b, O), "has_legal agrees there is room");
}

static void
test_board_and_colours(void)
{
	struct stackcraft g;
	struct stackcraft_action a[STACKCRAFT_LEGAL_MAX];
	uint8_t out[STACKCRAFT_ROWS][STACKCRAFT_COLS];
	unsigned p, k, x, y, filled, right;

	/* Each piece placed at r0x0 on an empty board shows colour piece + 1
	 * in exactly its four cells, at (x, y) = out[y][x]. */
	for (p = 0; p < 7; p++) {
		stackcraft_init(&g, 0, 0);
		g.current = (uint8_t)p;
		stackcraft_legal(&g, a, STACKCRAFT_LEGAL_MAX);
		stackcraft_step(&g, 0, 0, NULL);
		stackcraft_board(&g, out);
		filled = 0;
		for (y = 0; y < STACKCRAFT_ROWS; y++)
			for (x = 0; x < STACKCRAFT_COLS; x++)
				filled += out[y][x] != 0;
		right = filled == 4;
		for (k = 0; k < 4; k++)
			right &= out[a[0].cells[k][1]][a[0].cells[k][0]] == p + 1 &&
			    stackcraft_board_get(&g.board, a[0].cells[k][0], a[0].cells[k][1]) == p + 1;
		ok(right, "%c is colour %u, in the cells its legal action listed", nv_letters[p], p + 1);
	}
}

/* Runs a prepared game through one step and checks the rows cleared, the
 * points and the counters. */
static void
test_clears(void)
{
	static const unsigned points[5] = { 0, 100, 300, 500, 800 };
	struct stackcraft g;
	struct stackcraft_report rep;
	uint8_t out[STACKCRAFT_ROWS][STACKCRAFT_COLS];
	unsigned k, y, right;

	for (k = 0; k <= 4; k++) {
		/* k bottom rows full but for column 9, row 19 - k and up empty;
		 * with k = 0 the vertical I just stands in column 9. */
		stackcraft_init(&g, 5, 0);
		if (k > 0)
			fill_rows(&g.board, 20 - k, 19, 1u << 9);
		g.current = I;
		stackcraft_step(&g, 1, 9, &rep);
		is_int(rep.outcome, STACKCRAFT_OK, "clear %u: I r1x9 is legal", k);
		is_int(rep.lines, k, "clear %u: %u rows go", k, k);
		is_int(rep.points, points[k], "clear %u: %u points", k, points[k]);
		ok(g.score == points[k] && g.lines == k && g.pieces == 1,
		    "clear %u: score, lines, pieces add up", k);
		stackcraft_board(&g, out);
		/* the I stood on y 16..19; its 4 - k cells left moved down k rows */
		right = out[15 + k][9] == 0 && tetromino_board_count(&g.board) == 4 - k;
		for (y = 16 + k; y < 20; y++)
			right &= out[y][9] == 1;
		ok(right, "clear %u: %u cells of the I remain, moved down to y %u..19", k, 4 - k,
		    16 + k);
	}

	/* Rows removed at once, not one by one: rows 19 and 17 become full,
	 * row 18 does not (it also lacks column 8). The rows above keep their
	 * order: row 18's cells end at y 19, the I's top cell at y 18. */
	stackcraft_init(&g, 5, 0);
	fill_rows(&g.board, 19, 19, 1u << 9);
	fill_rows(&g.board, 18, 18, 1u << 9 | 1u << 8);
	fill_rows(&g.board, 17, 17, 1u << 9);
	g.current = I;
	stackcraft_step(&g, 1, 9, &rep);
	stackcraft_board(&g, out);
	ok(rep.lines == 2 && rep.points == 300, "two rows apart clear together: 300");
	ok(out[19][0] == 2 && out[19][8] == 0 && out[19][9] == 1 && out[18][9] == 1 &&
	    out[18][0] == 0 && out[17][9] == 0, "the rows between and above come down in order");
}

static void
test_refusals(void)
{
	struct stackcraft g, before;
	struct stackcraft_report rep;
	struct stackcraft_action a[STACKCRAFT_LEGAL_MAX];
	static const char *const ids[] = { "", "r1", "R0x0", "r0x0 ", "r0x10", "r01x0", "hello" };
	size_t i, n;

	stackcraft_init(&g, 11, 0);
	g.current = O;
	memcpy(&before, &g, sizeof g);
	for (i = 0; i < sizeof ids / sizeof ids[0]; i++) {
		memset(&rep, 0, sizeof rep);
		ok(stackcraft_step_id(&g, ids[i], strlen(ids[i]), &rep) == STACKCRAFT_REFUSED &&
		    rep.message[0] != '\0' && memcmp(&g, &before, sizeof g) == 0,
		    "\"%s\" is refused with a reason, the state byte-identical", ids[i]);
	}
	ok(stackcraft_step(&g, 1, 0, &rep) == STACKCRAFT_REFUSED && memcmp(&g, &before, sizeof g) == 0,
	    "O r1x0: rotation out of range (%s)", rep.message);
	ok(stackcraft_step(&g, 0, 9, &rep) == STACKCRAFT_REFUSED && memcmp(&g, &before, sizeof g) == 0,
	    "O r0x9: x out of range (%s)", rep.message);
	ok(stackcraft_step(&g, 9, 9, &rep) == STACKCRAFT_REFUSED && memcmp(&g, &before, sizeof g) == 0,
	    "O r9x9: refused (%s)", rep.message);
	set(&g.board, 4, 0, 3);
	set(&g.board, 4, 1, 3);
	for (i = 2; i < 20; i++)
		set(&g.board, 4, (unsigned)i, 3);
	memcpy(&before, &g, sizeof g);
	ok(stackcraft_step(&g, 0, 3, &rep) == STACKCRAFT_REFUSED && memcmp(&g, &before, sizeof g) == 0,
	    "O r0x3 over a full column: unavailable (%s)", rep.message);
	n = stackcraft_legal(&g, a, STACKCRAFT_LEGAL_MAX);
	ok(find(a, n, "r0x3") == NULL && find(a, n, "r0x4") == NULL && n == 7,
	    "and not in the legal list, which has the 7 others");
	ok(stackcraft_step(&g, 0, 0, NULL) == STACKCRAFT_OK, "a legal step without a report");

	/* After the end. */
	stackcraft_init(&g, 11, 1);
	stackcraft_step(&g, 0, 0, &rep);
	ok(g.status == STACKCRAFT_OVER, "cap 1: over after one piece");
	memcpy(&before, &g, sizeof g);
	ok(stackcraft_step(&g, 0, 0, &rep) == STACKCRAFT_GAME_OVER && rep.message[0] != '\0' &&
	    memcmp(&g, &before, sizeof g) == 0, "a move after the end is refused (%s)",
	    rep.message);
	ok(stackcraft_step_id(&g, "junk", 4, &rep) == STACKCRAFT_GAME_OVER &&
	    memcmp(&g, &before, sizeof g) == 0, "any id after the end is refused as over");
	is_int(stackcraft_legal(&g, a, STACKCRAFT_LEGAL_MAX), 0, "no legal moves after the end");
}

static void
test_cap_and_end(void)
{
	struct stackcraft g;
	struct stackcraft_report rep;
	struct stackcraft_action a[STACKCRAFT_LEGAL_MAX];
	unsigned k;

	ok(!stackcraft_init(&g, STACKCRAFT_SEED_MAX + 1, 0), "seed 2^53 is refused");
	ok(!stackcraft_init(&g, 0, STACKCRAFT_CAP_MAX + 1), "cap 2^53 is refused");
	ok(stackcraft_init(&g, STACKCRAFT_SEED_MAX, STACKCRAFT_CAP_MAX), "the largest seed and cap");

	stackcraft_init(&g, 3, 3);
	for (k = 0; k < 3; k++) {
		ok(g.status == STACKCRAFT_PLAYING, "cap 3: playing before piece %u", k + 1);
		stackcraft_legal(&g, a, STACKCRAFT_LEGAL_MAX);
		stackcraft_step(&g, a[0].rotation, a[0].x, &rep);
	}
	ok(g.status == STACKCRAFT_OVER && g.end_reason == STACKCRAFT_END_CAPPED && g.pieces == 3,
	    "cap 3: over as capped after 3 pieces");
	is_str(stackcraft_end_name(g.end_reason), "capped", "its name is capped");
	ok(strstr(rep.message, "game over (capped)") != NULL, "the last report says so: %s",
	    rep.message);

	/* The cap and a top-out on the same move. Rows 2..19 have one hole
	 * each, never under another, so nothing passes them; rows 0 and 1 are
	 * filled in columns 2..8. The current O fits only at r0x0 and fills
	 * columns 0-1 of rows 0-1 (no row full: column 9 stays empty); then
	 * an O has no free 2 x 2 at the top: a top-out. */
	for (k = 1; k <= 2; k++) {
		unsigned y;

		stackcraft_init(&g, 3, k);
		for (y = 2; y < 20; y++)
			fill_rows(&g.board, y, y, 1u << (y % 10));
		fill_rows(&g.board, 0, 1, 1u << 0 | 1u << 1 | 1u << 9);
		g.current = O;
		g.next = O;
		is_int(stackcraft_legal(&g, a, STACKCRAFT_LEGAL_MAX), 1, "cap %u: O has one placement",
		    k);
		ok(strcmp(a[0].id, "r0x0") == 0 && a[0].y == 0, "cap %u: it is r0x0 at y 0", k);
		stackcraft_step(&g, 0, 0, &rep);
		ok(g.status == STACKCRAFT_OVER && g.end_reason == STACKCRAFT_END_TOP_OUT,
		    k == 1 ? "cap 1 reached while topping out: top_out wins" :
		    "cap 2 not reached: top_out");
	}
	is_str(stackcraft_end_name(STACKCRAFT_END_TOP_OUT), "top_out", "top_out's name");
	ok(stackcraft_end_name(STACKCRAFT_END_NONE) == NULL && stackcraft_end_name(9) == NULL,
	    "no name for none");
	is_str(stackcraft_status_name(STACKCRAFT_PLAYING), "playing", "playing");
	is_str(stackcraft_status_name(STACKCRAFT_OVER), "over", "over");
}

static void
test_stream(void)
{
	/* spec fixture: seed 0's first 21 pieces are TOJIZLSTZLJSOILIJTZSO */
	static const char want[] = "TOJIZLSTZLJSOILIJTZSO";
	struct stackcraft g;
	struct stackcraft_action a[STACKCRAFT_LEGAL_MAX];
	char seen[32];
	size_t n, i, best;
	unsigned k;

	stackcraft_init(&g, 0, 0);
	for (k = 0; k < 21 && g.status == STACKCRAFT_PLAYING; k++) {
		seen[k] = tetromino_letter(g.current);
		ok(g.next == bag_piece(0, k + 1), "preview %u is stream piece %u", k, k + 1);
		/* the lowest landing keeps the stack flat enough for 21 pieces */
		n = stackcraft_legal(&g, a, STACKCRAFT_LEGAL_MAX);
		for (best = 0, i = 1; i < n; i++)
			if (a[i].y + stackcraft_shape(g.current, a[i].rotation)->height >
			    a[best].y + stackcraft_shape(g.current, a[best].rotation)->height)
				best = i;
		stackcraft_step(&g, a[best].rotation, a[best].x, NULL);
	}
	seen[k] = '\0';
	is_str(seen, want, "seed 0 deals the fixture's first 21 pieces");
}

static void
test_place_helper(void)
{
	struct stackcraft_action a[STACKCRAFT_LEGAL_MAX], bad;
	struct stackcraft g, h;
	struct tetromino_board after;
	size_t n, i;
	int same = 1;

	stackcraft_init(&g, 9, 0);
	for (i = 0; i < 8; i++)
		stackcraft_step(&g, 0, (unsigned)(2 * i % 8), NULL);
	n = stackcraft_legal(&g, a, STACKCRAFT_LEGAL_MAX);
	for (i = 0; i < n; i++) {
		h = g;
		stackcraft_step(&h, a[i].rotation, a[i].x, NULL);
		if (stackcraft_place(&g.board, g.current, &a[i], &after) < 0 ||
		    memcmp(&after, &h.board, sizeof after) != 0)
			same = 0;
	}
	ok(same && n > 0, "place gives the step's board for all %zu legal actions", n);
	after = g.board;
	ok(stackcraft_place(&after, g.current, &a[0], &after) >= 0 &&
	    memcmp(&after, &g.board, sizeof after) != 0, "place works in place");
	bad = a[0];
	bad.y = (uint8_t)(21 - stackcraft_shape(g.current, a[0].rotation)->height);
	ok(stackcraft_place(&g.board, g.current, &bad, &after) < 0,
	    "place refuses a shape that leaves the board");
	bad = a[0];
	bad.rotation = 5;
	ok(stackcraft_place(&g.board, g.current, &bad, &after) < 0, "or an orientation out of range");
	bad = a[0];
	bad.y = (uint8_t)(a[0].y + 1);
	ok(stackcraft_place(&g.board, g.current, &bad, &after) < 0,
	    "or cells that are filled (one row below a landing)");
}

int
main(void)
{
	test_orientations();
	test_parse();
	test_empty_board();
	test_landing();
	test_board_and_colours();
	test_clears();
	test_refusals();
	test_cap_and_end();
	test_stream();
	test_place_helper();
	return tap_done();
}
