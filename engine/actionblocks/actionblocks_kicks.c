/*
 * actionblocks_kicks.c: the SRS wall-kick tables, as data.
 *
 * Source: the Tetris Guideline's Super Rotation System, as published on the
 * Tetris Wiki's "Super Rotation System" page (the "Wall Kicks" tables for
 * J, L, S, T, Z and for I), with y upwards; the same values are written out
 * in the actionblocks-v1 spec, which makes them binding for the game. A
 * rotation from state a to state b tries the five offsets of row a->b in
 * order and takes the first that fits; the O piece (and the Dot) have the
 * single test (0, 0); the other odd shapes use the J L S T Z table (design
 * notes). Nothing here changes at run time.
 */
#include "actionblocks_kicks.h"

#include "actionblocks_piece.h"

/* [from][to] for the eight quarter turns; the two other pairs (a->a, a->a+2)
 * never happen and stay zero. Each test is (dx, dy), y up. */
static const int8_t jlstz[4][4][AB_KICK_TESTS][2] = {
	[0][1] = { { 0, 0 }, { -1, 0 }, { -1, +1 }, { 0, -2 }, { -1, -2 } },
	[1][0] = { { 0, 0 }, { +1, 0 }, { +1, -1 }, { 0, +2 }, { +1, +2 } },
	[1][2] = { { 0, 0 }, { +1, 0 }, { +1, -1 }, { 0, +2 }, { +1, +2 } },
	[2][1] = { { 0, 0 }, { -1, 0 }, { -1, +1 }, { 0, -2 }, { -1, -2 } },
	[2][3] = { { 0, 0 }, { +1, 0 }, { +1, +1 }, { 0, -2 }, { +1, -2 } },
	[3][2] = { { 0, 0 }, { -1, 0 }, { -1, -1 }, { 0, +2 }, { -1, +2 } },
	[3][0] = { { 0, 0 }, { -1, 0 }, { -1, -1 }, { 0, +2 }, { -1, +2 } },
	[0][3] = { { 0, 0 }, { +1, 0 }, { +1, +1 }, { 0, -2 }, { +1, -2 } },
};

static const int8_t ipiece[4][4][AB_KICK_TESTS][2] = {
	[0][1] = { { 0, 0 }, { -2, 0 }, { +1, 0 }, { -2, -1 }, { +1, +2 } },
	[1][0] = { { 0, 0 }, { +2, 0 }, { -1, 0 }, { +2, +1 }, { -1, -2 } },
	[1][2] = { { 0, 0 }, { -1, 0 }, { +2, 0 }, { -1, +2 }, { +2, -1 } },
	[2][1] = { { 0, 0 }, { +1, 0 }, { -2, 0 }, { +1, -2 }, { -2, +1 } },
	[2][3] = { { 0, 0 }, { +2, 0 }, { -1, 0 }, { +2, +1 }, { -1, -2 } },
	[3][2] = { { 0, 0 }, { -2, 0 }, { +1, 0 }, { -2, -1 }, { +1, +2 } },
	[3][0] = { { 0, 0 }, { +1, 0 }, { -2, 0 }, { +1, -2 }, { -2, +1 } },
	[0][3] = { { 0, 0 }, { -1, 0 }, { +2, 0 }, { -1, +2 }, { +2, -1 } },
};

static const int8_t single[1][2] = { { 0, 0 } };

unsigned
ab_kicks(unsigned piece, unsigned shape, unsigned from, unsigned to, const int8_t (**tests)[2])
{
	from &= 3;
	to &= 3;
	if (shape == AB_SHAPE_PIECE && piece == AB_PIECE_I) {
		*tests = ipiece[from][to];
		return AB_KICK_TESTS;
	}
	if ((shape == AB_SHAPE_PIECE && piece == AB_PIECE_O) || shape == AB_ODD_DOT + 1) {
		*tests = single;
		return 1;
	}
	*tests = jlstz[from][to];
	return AB_KICK_TESTS;
}
