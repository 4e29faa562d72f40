/*
 * actionblocks_piece.h: the shapes of actionblocks-v1's pieces in their
 * boxes and where they spawn (actionblocks_piece.c).
 */
#ifndef ACTIONBLOCKS_PIECE_H
#define ACTIONBLOCKS_PIECE_H

#include "actionblocks_match.h"
#include "tetromino.h"
#include "versus_odd.h"

#define AB_PIECE_I TETROMINO_I
#define AB_PIECE_O TETROMINO_O
#define AB_PIECE_T TETROMINO_T
#define AB_ODD_DOT VERSUS_ODD_DOT

/* The minos of a slot (piece, shape) at rotation rot: how many, and each
 * one's column dx and row dy (dy counted downwards from the box's top row),
 * in the spawn state's mino order (bottom row first, left to right), which
 * the minos keep as the piece turns. */
unsigned ab_shape_cells(unsigned piece, unsigned shape, unsigned rot, int8_t dx[AB_CELLS_MAX],
    int8_t dy[AB_CELLS_MAX]);

/* The spawn box's left column: 3, or 4 for the O and 1- and 2-wide boxes. */
int ab_spawn_x(unsigned piece, unsigned shape);

#endif
