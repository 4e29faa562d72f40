/*
 * tetromino.c: shapes, the drop, line clears and the evaluation figures on a
 * board of 10-bit rows.
 *
 * The shape table is the diagrams of docs/rules/stackfall.md turned into row
 * masks, bottom row first, with each column's lowest and highest filled
 * offset precomputed: the landing row of a drop is max over the piece's
 * columns of (column height - lowest offset), which is exactly "falls from
 * above until a cell meets the highest filled cell or the floor". Figures of
 * a placement that clears nothing are derived from the board's heights by
 * updating only the piece's columns; a clearing placement (rare) rebuilds its
 * rows.
 */
#include "tetromino.h"

#include "engine.h"

#include <string.h>

static const struct tetromino_shape shapes[TETROMINO_NPIECES][TETROMINO_NROTATIONS] = {
	{ /* I */
		{ 4, 1, { 0xf, 0x0, 0x0, 0x0 }, { 0, 0, 0, 0 }, { 0, 0, 0, 0 } },
		{ 1, 4, { 0x1, 0x1, 0x1, 0x1 }, { 0, 0, 0, 0 }, { 3, 0, 0, 0 } },
		{ 4, 1, { 0xf, 0x0, 0x0, 0x0 }, { 0, 0, 0, 0 }, { 0, 0, 0, 0 } },
		{ 1, 4, { 0x1, 0x1, 0x1, 0x1 }, { 0, 0, 0, 0 }, { 3, 0, 0, 0 } },
	},
	{ /* O */
		{ 2, 2, { 0x3, 0x3, 0x0, 0x0 }, { 0, 0, 0, 0 }, { 1, 1, 0, 0 } },
		{ 2, 2, { 0x3, 0x3, 0x0, 0x0 }, { 0, 0, 0, 0 }, { 1, 1, 0, 0 } },
		{ 2, 2, { 0x3, 0x3, 0x0, 0x0 }, { 0, 0, 0, 0 }, { 1, 1, 0, 0 } },
		{ 2, 2, { 0x3, 0x3, 0x0, 0x0 }, { 0, 0, 0, 0 }, { 1, 1, 0, 0 } },
	},
	{ /* T */
		{ 3, 2, { 0x7, 0x2, 0x0, 0x0 }, { 0, 0, 0, 0 }, { 0, 1, 0, 0 } },
		{ 2, 3, { 0x1, 0x3, 0x1, 0x0 }, { 0, 1, 0, 0 }, { 2, 1, 0, 0 } },
		{ 3, 2, { 0x2, 0x7, 0x0, 0x0 }, { 1, 0, 1, 0 }, { 1, 1, 1, 0 } },
		{ 2, 3, { 0x2, 0x3, 0x2, 0x0 }, { 1, 0, 0, 0 }, { 1, 2, 0, 0 } },
	},
	{ /* S */
		{ 3, 2, { 0x3, 0x6, 0x0, 0x0 }, { 0, 0, 1, 0 }, { 0, 1, 1, 0 } },
		{ 2, 3, { 0x2, 0x3, 0x1, 0x0 }, { 1, 0, 0, 0 }, { 2, 1, 0, 0 } },
		{ 3, 2, { 0x3, 0x6, 0x0, 0x0 }, { 0, 0, 1, 0 }, { 0, 1, 1, 0 } },
		{ 2, 3, { 0x2, 0x3, 0x1, 0x0 }, { 1, 0, 0, 0 }, { 2, 1, 0, 0 } },
	},
	{ /* Z */
		{ 3, 2, { 0x6, 0x3, 0x0, 0x0 }, { 1, 0, 0, 0 }, { 1, 1, 0, 0 } },
		{ 2, 3, { 0x1, 0x3, 0x2, 0x0 }, { 0, 1, 0, 0 }, { 1, 2, 0, 0 } },
		{ 3, 2, { 0x6, 0x3, 0x0, 0x0 }, { 1, 0, 0, 0 }, { 1, 1, 0, 0 } },
		{ 2, 3, { 0x1, 0x3, 0x2, 0x0 }, { 0, 1, 0, 0 }, { 1, 2, 0, 0 } },
	},
	{ /* J */
		{ 3, 2, { 0x7, 0x1, 0x0, 0x0 }, { 0, 0, 0, 0 }, { 1, 0, 0, 0 } },
		{ 2, 3, { 0x1, 0x1, 0x3, 0x0 }, { 0, 2, 0, 0 }, { 2, 2, 0, 0 } },
		{ 3, 2, { 0x4, 0x7, 0x0, 0x0 }, { 1, 1, 0, 0 }, { 1, 1, 1, 0 } },
		{ 2, 3, { 0x3, 0x2, 0x2, 0x0 }, { 0, 0, 0, 0 }, { 0, 2, 0, 0 } },
	},
	{ /* L */
		{ 3, 2, { 0x7, 0x4, 0x0, 0x0 }, { 0, 0, 0, 0 }, { 0, 0, 1, 0 } },
		{ 2, 3, { 0x3, 0x1, 0x1, 0x0 }, { 0, 0, 0, 0 }, { 2, 0, 0, 0 } },
		{ 3, 2, { 0x1, 0x7, 0x0, 0x0 }, { 0, 1, 1, 0 }, { 1, 1, 1, 0 } },
		{ 2, 3, { 0x2, 0x2, 0x3, 0x0 }, { 2, 0, 0, 0 }, { 2, 2, 0, 0 } },
	},
};

/* O looks the same four ways; I, S and Z repeat every two steps. */
static const uint8_t canonical[TETROMINO_NPIECES][TETROMINO_NROTATIONS] = {
	{ 0, 1, 0, 1 }, { 0, 0, 0, 0 }, { 0, 1, 2, 3 }, { 0, 1, 0, 1 },
	{ 0, 1, 0, 1 }, { 0, 1, 2, 3 }, { 0, 1, 2, 3 },
};

static const char letters[TETROMINO_NPIECES + 1] = "IOTSZJL";

char
tetromino_letter(unsigned piece)
{
	return piece < TETROMINO_NPIECES ? letters[piece] : '?';
}

int
tetromino_from_letter(int c)
{
	int p;

	if (c >= 'a' && c <= 'z')
		c -= 'a' - 'A';
	for (p = 0; p < TETROMINO_NPIECES; p++)
		if (letters[p] == c)
			return p;
	return -1;
}

const struct tetromino_shape *
tetromino_shape(unsigned piece, unsigned rotation)
{
	if (piece >= TETROMINO_NPIECES || rotation >= TETROMINO_NROTATIONS)
		return NULL;
	return &shapes[piece][rotation];
}

unsigned
tetromino_max_column(unsigned piece, unsigned rotation)
{
	return TETROMINO_COLS - shapes[piece][rotation].width;
}

unsigned
tetromino_canonical_rotation(unsigned piece, unsigned rotation)
{
	return canonical[piece][rotation];
}

void
tetromino_board_init(struct tetromino_board *b)
{
	memset(b, 0, sizeof *b);
}

unsigned
tetromino_board_get(const struct tetromino_board *b, unsigned row, unsigned col)
{
	return b->cells[row] >> (3 * col) & 7u;
}

void
tetromino_board_set(struct tetromino_board *b, unsigned row, unsigned col, unsigned value)
{
	b->cells[row] = (b->cells[row] & ~(7u << (3 * col))) | (uint32_t)(value & 7u) << (3 * col);
	if (value & 7u)
		b->rows[row] = (uint16_t)(b->rows[row] | 1u << col);
	else
		b->rows[row] = (uint16_t)(b->rows[row] & ~(1u << col));
}

bool
tetromino_board_is_empty(const struct tetromino_board *b)
{
	unsigned r, any = 0;

	for (r = 0; r < TETROMINO_ROWS; r++)
		any |= b->rows[r];
	return any == 0;
}

static unsigned
popcount(unsigned x)
{
	unsigned n = 0;

	for (; x != 0; x &= x - 1)
		n++;
	return n;
}

unsigned
tetromino_board_count(const struct tetromino_board *b)
{
	unsigned r, n = 0;

	for (r = 0; r < TETROMINO_ROWS; r++)
		n += popcount(b->rows[r]);
	return n;
}

/* Heights from the top down: the first row that shows a column sets it. */
static void
heights_of(const uint16_t *rows, uint8_t h[TETROMINO_COLS])
{
	unsigned seen = 0, fresh, c;
	int r;

	memset(h, 0, TETROMINO_COLS);
	for (r = TETROMINO_ROWS - 1; r >= 0 && seen != TETROMINO_FULL_ROW; r--) {
		fresh = rows[r] & ~seen;
		if (fresh == 0)
			continue;
		for (c = 0; c < TETROMINO_COLS; c++)
			if (fresh >> c & 1u)
				h[c] = (uint8_t)(r + 1);
		seen |= fresh;
	}
}

void
tetromino_board_heights(const struct tetromino_board *b, uint8_t h[TETROMINO_COLS])
{
	heights_of(b->rows, h);
}

static int
absdiff(int a, int b)
{
	return a > b ? a - b : b - a;
}

/* Holes, max height and bumpiness of rows[0..20). Every filled cell lies at
 * or below its column's height, so holes = sum of heights - filled cells. */
static void
figures_of(const uint16_t *rows, struct tetromino_figures *f)
{
	uint8_t h[TETROMINO_COLS];
	int c, r, sum = 0, filled = 0, max = 0, bump = 0;

	heights_of(rows, h);
	for (c = 0; c < TETROMINO_COLS; c++) {
		sum += h[c];
		if (h[c] > max)
			max = h[c];
		if (c + 1 < TETROMINO_COLS)
			bump += absdiff(h[c], h[c + 1]);
	}
	for (r = 0; r < max; r++)
		filled += (int)popcount(rows[r]);
	f->holes = (uint8_t)(sum - filled);
	f->max_height = (uint8_t)max;
	f->bumpiness = (uint8_t)bump;
}

void
tetromino_board_figures(const struct tetromino_board *b, struct tetromino_figures *f)
{
	f->lines = 0;
	figures_of(b->rows, f);
}

static int
landing_on(const uint8_t h[TETROMINO_COLS], const struct tetromino_shape *s, unsigned col)
{
	int y = 0, v;
	unsigned c;

	/* Some column has bottom offset 0, so the maximum is never below 0. */
	for (c = 0; c < s->width; c++) {
		v = h[col + c] - s->bottom[c];
		if (v > y)
			y = v;
	}
	return y;
}

int
tetromino_landing(const struct tetromino_board *b, unsigned piece, unsigned rotation,
    unsigned col)
{
	uint8_t h[TETROMINO_COLS];

	heights_of(b->rows, h);
	return landing_on(h, &shapes[piece][rotation], col);
}

bool
tetromino_fits(const struct tetromino_board *b, unsigned piece, unsigned rotation,
    unsigned col)
{
	if (piece >= TETROMINO_NPIECES || rotation >= TETROMINO_NROTATIONS ||
	    col > tetromino_max_column(piece, rotation))
		return false;
	return tetromino_landing(b, piece, rotation, col) + shapes[piece][rotation].height <=
	    TETROMINO_ROWS;
}

bool
tetromino_can_place(const struct tetromino_board *b, unsigned piece)
{
	uint8_t h[TETROMINO_COLS];
	const struct tetromino_shape *s;
	unsigned rot, col;

	heights_of(b->rows, h);
	for (rot = 0; rot < TETROMINO_NROTATIONS; rot++) {
		if (canonical[piece][rot] != rot)
			continue;
		s = &shapes[piece][rot];
		for (col = 0; col + s->width <= TETROMINO_COLS; col++)
			if (landing_on(h, s, col) + s->height <= TETROMINO_ROWS)
				return true;
	}
	return false;
}

unsigned
tetromino_clear_lines(struct tetromino_board *b)
{
	unsigned r, w = 0;

	for (r = 0; r < TETROMINO_ROWS; r++) {
		if (b->rows[r] == TETROMINO_FULL_ROW)
			continue;
		b->rows[w] = b->rows[r];
		b->cells[w] = b->cells[r];
		w++;
	}
	r = TETROMINO_ROWS - w;
	for (; w < TETROMINO_ROWS; w++) {
		b->rows[w] = 0;
		b->cells[w] = 0;
	}
	return r;
}

int
tetromino_place(struct tetromino_board *b, unsigned piece, unsigned rotation, unsigned col)
{
	const struct tetromino_shape *s;
	unsigned k, c;
	int y;

	if (!tetromino_fits(b, piece, rotation, col))
		return -1;
	s = &shapes[piece][rotation];
	y = tetromino_landing(b, piece, rotation, col);
	for (k = 0; k < s->height; k++) {
		b->rows[y + (int)k] = (uint16_t)(b->rows[y + (int)k] | s->rows[k] << col);
		for (c = 0; c < s->width; c++)
			if (s->rows[k] >> c & 1u)
				b->cells[y + (int)k] |= (uint32_t)(piece + 1) << (3 * (col + c));
	}
	return (int)tetromino_clear_lines(b);
}

/* Figures of a placement that clears rows: rebuild the rows without them. */
static void
clearing_figures(const uint16_t *rows, const struct tetromino_shape *s, unsigned col, int y,
    struct tetromino_figures *f)
{
	uint16_t after[TETROMINO_ROWS];
	unsigned r, w = 0, row;

	for (r = 0; r < TETROMINO_ROWS; r++) {
		row = rows[r];
		if ((int)r >= y && (int)r < y + s->height)
			row |= (unsigned)s->rows[(int)r - y] << col;
		if (row != TETROMINO_FULL_ROW)
			after[w++] = (uint16_t)row;
	}
	for (; w < TETROMINO_ROWS; w++)
		after[w] = 0;
	figures_of(after, f);
}

size_t
tetromino_options(const struct tetromino_board *b, unsigned piece,
    struct tetromino_option *out, size_t cap)
{
	const struct tetromino_shape *s;
	struct tetromino_figures f;
	uint8_t h[TETROMINO_COLS], nh[TETROMINO_COLS];
	int c, r, y, sum = 0, filled = 0, max0 = 0, bump0 = 0, holes0, lo, hi, i;
	unsigned rot, col, k, full;
	size_t n = 0;

	heights_of(b->rows, h);
	for (c = 0; c < TETROMINO_COLS; c++) {
		sum += h[c];
		if (h[c] > max0)
			max0 = h[c];
		if (c + 1 < TETROMINO_COLS)
			bump0 += absdiff(h[c], h[c + 1]);
	}
	for (r = 0; r < max0; r++)
		filled += (int)popcount(b->rows[r]);
	holes0 = sum - filled;

	for (rot = 0; rot < TETROMINO_NROTATIONS; rot++) {
		if (canonical[piece][rot] != rot)
			continue;
		s = &shapes[piece][rot];
		for (col = 0; col + s->width <= TETROMINO_COLS; col++) {
			y = landing_on(h, s, col);
			if (y + s->height > TETROMINO_ROWS)
				continue;
			full = 0;
			for (k = 0; k < s->height; k++)
				full += (b->rows[y + (int)k] | (unsigned)s->rows[k] << col) ==
				    TETROMINO_FULL_ROW;
			if (full == 0) {
				/* Only the piece's columns change: each rises to the
				 * piece's top there and gains the gap under the piece
				 * as holes; bumpiness changes on the pairs touching
				 * them. */
				memcpy(nh, h, sizeof nh);
				f.holes = (uint8_t)holes0;
				for (k = 0; k < s->width; k++) {
					f.holes = (uint8_t)(f.holes + y + s->bottom[k] - h[col + k]);
					nh[col + k] = (uint8_t)(y + s->top[k] + 1);
				}
				lo = col > 0 ? (int)col - 1 : 0;
				hi = (int)(col + s->width) < TETROMINO_COLS ? (int)(col + s->width) - 1
				    : TETROMINO_COLS - 2;
				c = bump0;
				for (i = lo; i <= hi; i++)
					c += absdiff(nh[i], nh[i + 1]) - absdiff(h[i], h[i + 1]);
				f.bumpiness = (uint8_t)c;
				f.max_height = (uint8_t)(y + s->height > max0 ? y + s->height : max0);
				f.lines = 0;
			} else {
				clearing_figures(b->rows, s, col, y, &f);
				f.lines = (uint8_t)full;
			}
			if (n < cap) {
				out[n].rotation = (uint8_t)rot;
				out[n].column = (uint8_t)col;
				out[n].figures = f;
			}
			n++;
		}
	}
	return n;
}

size_t
tetromino_say_options(const struct tetromino_board *b, unsigned piece,
    struct tetromino_option *out, size_t cap, struct engine_msg *m)
{
	size_t n = tetromino_options(b, piece, out, cap);

	engine_msg_uint(m, n);
	engine_msg_str(m, n == 1 ? " placement for " : " placements for ");
	engine_msg_char(m, tetromino_letter(piece));
	return n;
}

void
tetromino_board_text(const struct tetromino_board *b, char out[TETROMINO_TEXT_SIZE])
{
	unsigned r, c, v;
	char *p = out;

	for (r = TETROMINO_ROWS; r-- > 0;) {
		for (c = 0; c < TETROMINO_COLS; c++) {
			v = tetromino_board_get(b, r, c);
			*p++ = v == 0 ? '.' : letters[v - 1];
		}
		if (r > 0)
			*p++ = '\n';
	}
	*p = '\0';
}

bool
tetromino_board_from_text(struct tetromino_board *b, const char *text)
{
	struct tetromino_board nb;
	unsigned r, c;
	int p;
	char ch;

	tetromino_board_init(&nb);
	for (r = TETROMINO_ROWS; r-- > 0;) {
		for (c = 0; c < TETROMINO_COLS; c++) {
			ch = *text++;
			if (ch == '.')
				continue;
			if (ch < 'A' || ch > 'Z' || (p = tetromino_from_letter(ch)) < 0)
				return false;
			tetromino_board_set(&nb, r, c, (unsigned)p + 1);
		}
		if (nb.rows[r] == TETROMINO_FULL_ROW)
			return false;
		if (*text++ != (r > 0 ? '\n' : '\0'))
			return false;
	}
	*b = nb;
	return true;
}

bool
tetromino_placement_ok(const struct tetromino_board *b, unsigned piece, unsigned rotation,
    unsigned column, char *reason, size_t cap)
{
	char letter = tetromino_letter(piece);
	unsigned maxcol;
	int top;

	if (rotation >= TETROMINO_NROTATIONS)
		return engine_refuse(reason, cap, "rotation %u is out of range: rotations 0-3",
		    rotation);
	maxcol = tetromino_max_column(piece, rotation);
	if (column > maxcol)
		return engine_refuse(reason, cap,
		    "column %u is out of range for %c rotation %u: columns 0-%u", column, letter,
		    rotation, maxcol);
	top = tetromino_landing(b, piece, rotation, column) + tetromino_shape(piece, rotation)->height;
	if (top > TETROMINO_ROWS)
		return engine_refuse(reason, cap,
		    "%c rotation %u at column %u does not fit: it would reach row %d, above row 20",
		    letter, rotation, column, top);
	return true;
}

void
tetromino_say_placement(struct engine_msg *m, const char *verb, unsigned piece, unsigned rotation,
    unsigned column)
{
	engine_msg_str(m, verb);
	engine_msg_char(m, ' ');
	engine_msg_char(m, tetromino_letter(piece));
	engine_msg_str(m, " rotation ");
	engine_msg_uint(m, rotation);
	engine_msg_str(m, " at column ");
	engine_msg_uint(m, column);
}

unsigned
tetromino_preview(const struct tetromino_board *b, unsigned piece, unsigned rotation,
    unsigned column, struct tetromino_preview *pv, struct engine_msg *m)
{
	struct tetromino_board after = *b;
	unsigned n = (unsigned)tetromino_place(&after, piece, rotation, column);

	if (pv != NULL) {
		tetromino_board_figures(&after, &pv->figures);
		pv->figures.lines = (uint8_t)n;
		tetromino_board_text(&after, pv->board_text);
	}
	tetromino_say_placement(m, "preview of", piece, rotation, column);
	engine_msg_str(m, ": ");
	engine_msg_uint(m, n);
	engine_msg_str(m, n == 1 ? " line" : " lines");
	return n;
}
