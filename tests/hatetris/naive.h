/*
 * naive.h: a second, deliberately plain HATETRIS for the tests, written from
 * the rule text (docs/rules/hatetris.md) without the engine's shortcuts:
 * a board of int cells[20][10] holding piece letters, shapes typed in again
 * from the rotation diagrams, a drop that lowers the piece one row at a time
 * from above the board, clears that shift rows one by one, the rating found
 * by counting empty rows from the top, and the seen boards kept as a plain
 * list of whole boards (the empty start board, the board after every
 * placement, the current one) compared cell by cell. Every placement of
 * every piece is examined for rule 1, nothing is asked lazily, no line or
 * cell count is used to skip a comparison. It shares nothing with the
 * engine; pieces are named by their letters.
 *
 * Depth 2 is written exactly as the rules page words it: a piece's rating
 * is the best, over its placements, of the rating of the piece the depth-1
 * supplier would hand out on the board that placement leaves, that supplier
 * seeing the run's boards plus that board; a piece with no placement rates
 * -2, a placement whose next piece fits nowhere is worth -1.
 */
#ifndef HATETRIS_NAIVE_H
#define HATETRIS_NAIVE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NV_ROWS 20
#define NV_COLS 10

/* The supply order of the rules, and every piece's four rotations as drawn
 * there, top row first. */
static const char nv_order[] = "SZOILJT";

struct nv_diagram {
	char letter;
	const char *rot[4][4];
};

static const struct nv_diagram nv_diagrams[7] = {
	{ 'I', { { "####" }, { "#", "#", "#", "#" }, { "####" }, { "#", "#", "#", "#" } } },
	{ 'O', { { "##", "##" }, { "##", "##" }, { "##", "##" }, { "##", "##" } } },
	{ 'T', { { ".#.", "###" }, { "#.", "##", "#." }, { "###", ".#." }, { ".#", "##", ".#" } } },
	{ 'S', { { ".##", "##." }, { "#.", "##", ".#" }, { ".##", "##." }, { "#.", "##", ".#" } } },
	{ 'Z', { { "##.", ".##" }, { ".#", "##", "#." }, { "##.", ".##" }, { ".#", "##", "#." } } },
	{ 'J', { { "#..", "###" }, { "##", "#.", "#." }, { "###", "..#" }, { ".#", ".#", "##" } } },
	{ 'L', { { "..#", "###" }, { "#.", "#.", "##" }, { "###", "#.." }, { "##", ".#", ".#" } } },
};

struct nv_shape {
	int n, dx[4], dy[4]; /* dy counts up from the shape's bottom row */
	int width;
};

struct nv_board {
	int cells[NV_ROWS][NV_COLS]; /* [row][column], row 0 at the bottom; 0 or a letter */
};

/* The seen boards, as a plain list (with a checksum per board only to make
 * the comparisons quick; equality is always decided cell by cell). */
struct nv_seen {
	struct nv_board *boards;
	uint64_t *sums;
	size_t n, cap;
};

struct nv_choice {
	char piece;       /* the letter supplied */
	int rating[7];    /* per letter, in nv_order's order */
	int repeats[7];   /* per letter, in nv_order's order: a placement leads to a seen board */
	int fallback;     /* every piece repeats */
};

static int __attribute__((unused))
nv_index(char letter)
{
	const char *p = strchr(nv_order, letter);

	return p != NULL && letter != '\0' ? (int)(p - nv_order) : -1;
}

static void __attribute__((unused))
nv_shape(char letter, int rot, struct nv_shape *s)
{
	const struct nv_diagram *d = NULL;
	int i, h, k, c;

	for (i = 0; i < 7; i++)
		if (nv_diagrams[i].letter == letter)
			d = &nv_diagrams[i];
	for (h = 0; h < 4 && d->rot[rot][h] != NULL; h++)
		;
	s->n = 0;
	s->width = (int)strlen(d->rot[rot][0]);
	for (k = 0; k < h; k++)
		for (c = 0; d->rot[rot][k][c] != '\0'; c++)
			if (d->rot[rot][k][c] == '#') {
				s->dx[s->n] = c;
				s->dy[s->n] = h - 1 - k;
				s->n++;
			}
}

static void __attribute__((unused))
nv_clear(struct nv_board *b)
{
	memset(b, 0, sizeof *b);
}

static int
nv_free(const struct nv_board *b, int row, int col)
{
	if (col < 0 || col >= NV_COLS || row < 0)
		return 0;
	if (row >= NV_ROWS)
		return 1; /* above the board */
	return b->cells[row][col] == 0;
}

/* Drops the piece from above the board one row at a time; returns 1 and
 * the bottom row where it stops when it ends inside the 20 rows. */
static int
nv_drop(const struct nv_board *b, char letter, int rot, int col, int *y)
{
	struct nv_shape s;
	int k, can;

	if (rot < 0 || rot > 3 || col < 0)
		return 0;
	nv_shape(letter, rot, &s);
	if (col + s.width > NV_COLS)
		return 0;
	*y = NV_ROWS;
	for (;;) {
		can = 1;
		for (k = 0; k < 4; k++)
			if (!nv_free(b, *y - 1 + s.dy[k], col + s.dx[k]))
				can = 0;
		if (!can)
			break;
		(*y)--;
	}
	for (k = 0; k < 4; k++)
		if (*y + s.dy[k] >= NV_ROWS)
			return 0;
	return 1;
}

static int
nv_clear_rows(struct nv_board *b)
{
	int row = 0, n = 0, c, full, r;

	while (row < NV_ROWS) {
		full = 1;
		for (c = 0; c < NV_COLS; c++)
			if (b->cells[row][c] == 0)
				full = 0;
		if (!full) {
			row++;
			continue;
		}
		for (r = row; r < NV_ROWS - 1; r++)
			memcpy(b->cells[r], b->cells[r + 1], sizeof b->cells[r]);
		memset(b->cells[NV_ROWS - 1], 0, sizeof b->cells[NV_ROWS - 1]);
		n++;
	}
	return n;
}

/* The board after a placement and its clears in *out; returns the lines
 * cleared, or -1 when the placement is not legal. */
static int
nv_place(const struct nv_board *b, char letter, int rot, int col, struct nv_board *out)
{
	struct nv_shape s;
	int y, k;

	if (!nv_drop(b, letter, rot, col, &y))
		return -1;
	nv_shape(letter, rot, &s);
	*out = *b;
	for (k = 0; k < 4; k++)
		out->cells[y + s.dy[k]][col + s.dx[k]] = letter;
	return nv_clear_rows(out);
}

/* Empty rows above the highest filled cell. */
static int
nv_rating(const struct nv_board *b)
{
	int r, c, empty = 0;

	for (r = NV_ROWS - 1; r >= 0; r--) {
		for (c = 0; c < NV_COLS; c++)
			if (b->cells[r][c] != 0)
				return empty;
		empty++;
	}
	return empty;
}

static int __attribute__((unused))
nv_fits_somewhere(const struct nv_board *b, char letter)
{
	int r, c, y;

	for (r = 0; r < 4; r++)
		for (c = 0; c < NV_COLS; c++)
			if (nv_drop(b, letter, r, c, &y))
				return 1;
	return 0;
}

static uint64_t
nv_sum(const struct nv_board *b)
{
	uint64_t h = 1469598103934665603u;
	int r, c;

	for (r = 0; r < NV_ROWS; r++)
		for (c = 0; c < NV_COLS; c++) {
			h ^= (uint64_t)(b->cells[r][c] != 0);
			h *= 1099511628211u;
		}
	return h;
}

static int
nv_same(const struct nv_board *a, const struct nv_board *b)
{
	int r, c;

	for (r = 0; r < NV_ROWS; r++)
		for (c = 0; c < NV_COLS; c++)
			if ((a->cells[r][c] != 0) != (b->cells[r][c] != 0))
				return 0;
	return 1;
}

static void __attribute__((unused))
nv_seen_add(struct nv_seen *s, const struct nv_board *b)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		s->boards = realloc(s->boards, s->cap * sizeof *s->boards);
		s->sums = realloc(s->sums, s->cap * sizeof *s->sums);
		if (s->boards == NULL || s->sums == NULL)
			abort();
	}
	s->boards[s->n] = *b;
	s->sums[s->n] = nv_sum(b);
	s->n++;
}

static void __attribute__((unused))
nv_seen_free(struct nv_seen *s)
{
	free(s->boards);
	free(s->sums);
	memset(s, 0, sizeof *s);
}

static int
nv_is_seen(const struct nv_seen *s, const struct nv_board *b)
{
	uint64_t sum = nv_sum(b);
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->sums[i] == sum && nv_same(&s->boards[i], b))
			return 1;
	return 0;
}

/* Rule 1 and the depth-1 rating of one piece. */
static void
nv_examine1(const struct nv_board *b, const struct nv_seen *seen, char letter, int *rating,
    int *repeats)
{
	struct nv_board after;
	int r, c, v;

	*rating = -1;
	*repeats = 0;
	for (r = 0; r < 4; r++)
		for (c = 0; c < NV_COLS; c++) {
			if (nv_place(b, letter, r, c, &after) < 0)
				continue;
			v = nv_rating(&after);
			if (v > *rating)
				*rating = v;
			if (seen != NULL && nv_is_seen(seen, &after))
				*repeats = 1;
		}
}

/* Rules 1-3 given every piece's rating and repeat flag. With use_rule 0,
 * rule 1 is left out (for tests that show what it changes). */
static char
nv_decide(const int rating[7], const int repeats[7], int use_rule, int *fallback)
{
	int i, best = -1, any_fresh = 0;

	for (i = 0; i < 7; i++)
		if (!repeats[i])
			any_fresh = 1;
	*fallback = use_rule && !any_fresh;
	for (i = 0; i < 7; i++) {
		if (use_rule && any_fresh && repeats[i])
			continue;
		if (best < 0 || rating[i] < rating[best])
			best = i;
	}
	return nv_order[best];
}

/* The depth-1 supplier on board b, seeing the boards in seen. */
static char __attribute__((unused))
nv_choose1(const struct nv_board *b, const struct nv_seen *seen, int use_rule,
    struct nv_choice *out)
{
	int i;

	for (i = 0; i < 7; i++)
		nv_examine1(b, seen, nv_order[i], &out->rating[i], &out->repeats[i]);
	out->piece = nv_decide(out->rating, out->repeats, use_rule, &out->fallback);
	return out->piece;
}

/* The depth-2 supplier. seen must have room to grow by one (it is extended
 * by each hypothetical board and shrunk back). */
static char __attribute__((unused))
nv_choose2(const struct nv_board *b, struct nv_seen *seen, int use_rule, struct nv_choice *out)
{
	struct nv_board after;
	struct nv_choice next;
	int i, r, c, v, rep;

	for (i = 0; i < 7; i++) {
		out->rating[i] = -2;
		nv_examine1(b, seen, nv_order[i], &v, &rep);
		out->repeats[i] = rep;
		for (r = 0; r < 4; r++)
			for (c = 0; c < NV_COLS; c++) {
				if (nv_place(b, nv_order[i], r, c, &after) < 0)
					continue;
				nv_seen_add(seen, &after); /* the board the next piece would face */
				nv_choose1(&after, seen, use_rule, &next);
				seen->n--;
				v = next.rating[nv_index(next.piece)];
				if (v > out->rating[i])
					out->rating[i] = v;
			}
	}
	out->piece = nv_decide(out->rating, out->repeats, use_rule, &out->fallback);
	return out->piece;
}

/* A naive run: the board, the seen list (empty board first), counters. */
struct nv_game {
	struct nv_board board;
	struct nv_seen seen;
	int depth;
	long lines, pieces, cap;
	char current;
	struct nv_choice last; /* the supplier's reasons for current */
	const char *end; /* NULL while playing, else "top_out" or "capped" */
};

static void __attribute__((unused))
nv_game_init(struct nv_game *g, int depth, long cap)
{
	memset(g, 0, sizeof *g);
	nv_clear(&g->board);
	nv_seen_add(&g->seen, &g->board);
	g->depth = depth;
	g->cap = cap;
	g->current = depth == 2 ? nv_choose2(&g->board, &g->seen, 1, &g->last)
	    : nv_choose1(&g->board, &g->seen, 1, &g->last);
}

/* Returns the lines cleared, or -1 when refused (the game unchanged). */
static int __attribute__((unused))
nv_game_place(struct nv_game *g, int rot, int col)
{
	struct nv_board after;
	int n;

	if (g->end != NULL)
		return -1;
	n = nv_place(&g->board, g->current, rot, col, &after);
	if (n < 0)
		return -1;
	g->board = after;
	g->lines += n;
	g->pieces++;
	nv_seen_add(&g->seen, &g->board);
	g->current = g->depth == 2 ? nv_choose2(&g->board, &g->seen, 1, &g->last)
	    : nv_choose1(&g->board, &g->seen, 1, &g->last);
	if (g->cap > 0 && g->pieces >= g->cap)
		g->end = "capped";
	else if (!nv_fits_somewhere(&g->board, g->current))
		g->end = "top_out";
	return n;
}

static void __attribute__((unused))
nv_game_free(struct nv_game *g)
{
	nv_seen_free(&g->seen);
}

#endif
