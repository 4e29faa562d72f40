/*
 * actionblocks_piece.c: the shapes of actionblocks-v1's pieces in their
 * boxes, and where they spawn.
 *
 * The seven tetrominoes' spawn states are the spec's boxes (I in a 4 x 4
 * box on its second row, O in 2 x 2, J L S T Z in the top two rows of
 * 3 x 3); the five odd shapes of a Transformation take versus_odd.h's
 * rotation 0 as their spawn state in a box of their own size (Dot 1 x 1,
 * small L 2 x 2, U 3 wide by 2 tall, Plus and W 3 x 3). A state k + 1 is
 * state k's box turned a quarter clockwise: a cell at column c, row r
 * (rows counted down from the box's top) of a w x h box goes to column
 * h - 1 - r, row c of the h x w box, whose top-left cell stays where the
 * old one was. For square boxes that is the spec's rule; versus_odd.h's
 * rotations 1-3 come out the same (its table was drawn the same way), and
 * the U's box becomes 2 wide by 3 tall in states 1 and 3.
 *
 * Minos are numbered in the spawn state, bottom row first, left to right,
 * and keep their numbers as the piece turns: items ride on their mino.
 * Everything is computed on each call from a handful of constants (a few
 * dozen operations); callers are per key, not per cell of a search.
 */
#include "actionblocks_piece.h"

/* Spawn states, top row first, in boxes of AB box size. */
static const char *const spawn_rows[TETROMINO_NPIECES][4] = {
	[TETROMINO_I] = { "....", "####", "....", "...." },
	[TETROMINO_O] = { "##", "##" },
	[TETROMINO_T] = { ".#.", "###", "..." },
	[TETROMINO_S] = { ".##", "##.", "..." },
	[TETROMINO_Z] = { "##.", ".##", "..." },
	[TETROMINO_J] = { "#..", "###", "..." },
	[TETROMINO_L] = { "..#", "###", "..." },
};

static const uint8_t box_size[TETROMINO_NPIECES] = { 4, 2, 3, 3, 3, 3, 3 };

/* Stores cell (c, r) of a w x h box as cell n of dx, dy after rot quarter
 * turns clockwise (each turn: column h - 1 - r, row c, the box w and h
 * swapped). One cell at a time, with n bounded here: written as a loop
 * over all the cells, gcc -O3 vectorised it into stores it then took for
 * overflows of the five-cell arrays. */
static void
put_turned(int8_t dx[AB_CELLS_MAX], int8_t dy[AB_CELLS_MAX], int *n, int c, int r, int w, int h,
    unsigned rot)
{
	int t;

	for (rot &= 3; rot > 0; rot--) {
		t = c;
		c = h - 1 - r;
		r = t;
		t = w;
		w = h;
		h = t;
	}
	if (*n < AB_CELLS_MAX) {
		dx[*n] = (int8_t)c;
		dy[*n] = (int8_t)r;
		(*n)++;
	}
}

unsigned
ab_shape_cells(unsigned piece, unsigned shape, unsigned rot, int8_t dx[AB_CELLS_MAX],
    int8_t dy[AB_CELLS_MAX])
{
	int w, h, r, c, k, n = 0;

	if (shape == AB_SHAPE_PIECE) {
		if (piece >= TETROMINO_NPIECES)
			return 0;
		w = h = box_size[piece];
		/* Bottom row first, left to right. */
		for (r = h - 1; r >= 0; r--)
			for (c = 0; c < w; c++)
				if (spawn_rows[piece][r][c] == '#')
					put_turned(dx, dy, &n, c, r, w, h, rot);
	} else {
		const struct versus_odd_shape *s = versus_odd_shape(shape - 1, 0);

		if (s == NULL)
			return 0;
		w = s->width;
		h = s->height;
		/* rows[] is bottom row first already. */
		for (k = 0; k < h; k++)
			for (c = 0; c < w; c++)
				if (s->rows[k] >> c & 1u)
					put_turned(dx, dy, &n, c, h - 1 - k, w, h, rot);
	}
	return (unsigned)n;
}

int
ab_spawn_x(unsigned piece, unsigned shape)
{
	unsigned w;

	if (shape == AB_SHAPE_PIECE)
		return piece == TETROMINO_O ? 4 : 3;
	w = versus_odd_shape(shape - 1, 0)->width;
	return w >= 3 ? 3 : 4;
}
