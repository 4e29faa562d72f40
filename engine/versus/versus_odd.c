/*
 * versus_odd.c: the odd shapes of the Transformation item, their drop and
 * clears on a tetromino board, their items and their draw.
 *
 * The shape table is the diagrams of docs/rules/versus.md ("Odd shapes")
 * as bit rows, bottom row first; each rotation is the one before it turned
 * 90 degrees clockwise and moved back to offset (0, 0). The drop mirrors
 * tetromino.c's: a shape stops on the highest filled cell of any of its
 * columns, so it never passes under an overhang. A 3-bit cell code is
 * written with every filled bit, keeping rows[] and cells[] in agreement as
 * tetromino.h requires. Nothing here is on a hot path (an odd piece is
 * placed once a turn at most), so the landing reads the heights afresh.
 */
#include "versus_odd.h"

#include <string.h>

#include "versus_stream.h"

static const struct versus_odd_shape shapes[VERSUS_ODD_KINDS][TETROMINO_NROTATIONS] = {
	{ /* Dot */
		{ 1, 1, { 0x1, 0x0, 0x0 } },
		{ 1, 1, { 0x1, 0x0, 0x0 } },
		{ 1, 1, { 0x1, 0x0, 0x0 } },
		{ 1, 1, { 0x1, 0x0, 0x0 } },
	},
	{ /* small L: X. / XX, then XX / X., XX / .X, .X / XX (top row first) */
		{ 2, 2, { 0x3, 0x1, 0x0 } },
		{ 2, 2, { 0x1, 0x3, 0x0 } },
		{ 2, 2, { 0x2, 0x3, 0x0 } },
		{ 2, 2, { 0x3, 0x2, 0x0 } },
	},
	{ /* U: opening up, right, down, left */
		{ 3, 2, { 0x7, 0x5, 0x0 } },
		{ 2, 3, { 0x3, 0x1, 0x3 } },
		{ 3, 2, { 0x5, 0x7, 0x0 } },
		{ 2, 3, { 0x3, 0x2, 0x3 } },
	},
	{ /* Plus */
		{ 3, 3, { 0x2, 0x7, 0x2 } },
		{ 3, 3, { 0x2, 0x7, 0x2 } },
		{ 3, 3, { 0x2, 0x7, 0x2 } },
		{ 3, 3, { 0x2, 0x7, 0x2 } },
	},
	{ /* W: X.. / XX. / .XX at rotation 0 (top row first) */
		{ 3, 3, { 0x6, 0x3, 0x1 } },
		{ 3, 3, { 0x1, 0x3, 0x6 } },
		{ 3, 3, { 0x4, 0x6, 0x3 } },
		{ 3, 3, { 0x3, 0x6, 0x4 } },
	},
};

static const char *const names[VERSUS_ODD_KINDS] = {
	"dot", "small_l", "u", "plus", "w",
};

static const uint8_t ncells[VERSUS_ODD_KINDS] = { 1, 3, 5, 5, 5 };

const char *
versus_odd_name(unsigned odd)
{
	return odd < VERSUS_ODD_KINDS ? names[odd] : NULL;
}

char
versus_odd_letter(unsigned odd)
{
	return odd < VERSUS_ODD_KINDS ? VERSUS_ODD_LETTERS[odd] : '?';
}

const struct versus_odd_shape *
versus_odd_shape(unsigned odd, unsigned rotation)
{
	if (odd >= VERSUS_ODD_KINDS || rotation >= TETROMINO_NROTATIONS)
		return NULL;
	return &shapes[odd][rotation];
}

unsigned
versus_odd_cells(unsigned odd)
{
	return odd < VERSUS_ODD_KINDS ? ncells[odd] : 0;
}

unsigned
versus_odd_max_column(unsigned odd, unsigned rotation)
{
	return TETROMINO_COLS - shapes[odd][rotation].width;
}

unsigned
versus_odd_canonical_rotation(unsigned odd, unsigned rotation)
{
	return odd == VERSUS_ODD_DOT || odd == VERSUS_ODD_PLUS ? 0 : rotation;
}

int
versus_odd_landing(const struct tetromino_board *b, unsigned odd, unsigned rotation,
    unsigned col)
{
	const struct versus_odd_shape *s = &shapes[odd][rotation];
	uint8_t h[TETROMINO_COLS];
	int y = 0;
	unsigned x, r;

	tetromino_board_heights(b, h);
	for (x = 0; x < s->width; x++) {
		for (r = 0; r < s->height && !(s->rows[r] >> x & 1u); r++)
			;
		if ((int)h[col + x] - (int)r > y)
			y = (int)h[col + x] - (int)r;
	}
	return y;
}

bool
versus_odd_placement_ok(const struct tetromino_board *b, unsigned odd, unsigned rotation,
    unsigned column, char *reason, size_t cap)
{
	char letter = versus_odd_letter(odd);
	unsigned maxcol;
	int top;

	if (odd >= VERSUS_ODD_KINDS)
		return engine_refuse(reason, cap, "no such odd shape %u", odd);
	if (rotation >= TETROMINO_NROTATIONS)
		return engine_refuse(reason, cap, "rotation %u is out of range: rotations 0-3",
		    rotation);
	maxcol = versus_odd_max_column(odd, rotation);
	if (column > maxcol)
		return engine_refuse(reason, cap,
		    "column %u is out of range for %c rotation %u: columns 0-%u", column, letter,
		    rotation, maxcol);
	top = versus_odd_landing(b, odd, rotation, column) + shapes[odd][rotation].height;
	if (top > TETROMINO_ROWS)
		return engine_refuse(reason, cap,
		    "%c rotation %u at column %u does not fit: it would reach row %d, above row 20",
		    letter, rotation, column, top);
	return true;
}

int
versus_odd_place(struct tetromino_board *b, unsigned odd, unsigned rotation, unsigned col,
    unsigned code)
{
	const struct versus_odd_shape *s;
	unsigned r, x;
	int y;

	if (code > 7 || !versus_odd_placement_ok(b, odd, rotation, col, NULL, 0))
		return -1;
	s = &shapes[odd][rotation];
	y = versus_odd_landing(b, odd, rotation, col);
	for (r = 0; r < s->height; r++) {
		unsigned row = (unsigned)y + r;
		b->rows[row] = (uint16_t)(b->rows[row] | s->rows[r] << col);
		for (x = 0; x < s->width; x++)
			if (s->rows[r] >> x & 1u)
				b->cells[row] |= (uint32_t)code << (3 * (col + x));
	}
	return (int)tetromino_clear_lines(b);
}

size_t
versus_odd_options(const struct tetromino_board *b, unsigned odd,
    struct tetromino_option *out, size_t cap)
{
	struct tetromino_board after;
	unsigned rot, col;
	size_t n = 0;
	int lines;

	if (odd >= VERSUS_ODD_KINDS)
		return 0;
	for (rot = 0; rot < TETROMINO_NROTATIONS; rot++) {
		if (versus_odd_canonical_rotation(odd, rot) != rot)
			continue;
		for (col = 0; col <= versus_odd_max_column(odd, rot); col++) {
			after = *b;
			lines = versus_odd_place(&after, odd, rot, col, 0);
			if (lines < 0)
				continue;
			if (n < cap) {
				out[n].rotation = (uint8_t)rot;
				out[n].column = (uint8_t)col;
				tetromino_board_figures(&after, &out[n].figures);
				out[n].figures.lines = (uint8_t)lines;
			}
			n++;
		}
	}
	return n;
}

uint16_t
versus_odd_items(uint16_t items, unsigned odd)
{
	unsigned k, code, n = 0, room = versus_odd_cells(odd);
	uint16_t out = 0;

	for (k = 0; k < 4 && n < room; k++) {
		code = (unsigned)items >> (4 * k) & 15u;
		if (code != 0)
			out = (uint16_t)(out | code << (4 * n++));
	}
	return out;
}

unsigned
versus_odd_roll(uint64_t seed, unsigned player, uint32_t index)
{
	return versus_stream_below("versus-v1", seed, "odd", player, true, index, VERSUS_ODD_KINDS);
}
