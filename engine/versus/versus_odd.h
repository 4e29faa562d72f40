/*
 * versus_odd.h: the five odd shapes of versus's Transformation item
 * (docs/rules/versus.md, "Odd shapes"): Dot (1 cell), small L (3), U (5),
 * Plus (5) and W (5), with rotations and column ranges defined as
 * Stackfall's pieces are (tetromino.h): rotation 0 is the spawn
 * orientation, each step turns 90 degrees clockwise, a rotation is placed
 * by its leftmost cell's column with `place R C`, R 0..3 for every shape,
 * and the piece drops from above onto the highest filled cell of its
 * columns.
 *
 * This module holds the shapes, their drop onto a struct tetromino_board,
 * the mapping of a tetromino's mino items onto an odd shape and the draw of
 * an odd shape from a player's own seeded stream. It is pure (no
 * allocation, no state) and does not yet take part in versus_resolve():
 * the overlay on queue and hold is a later step (versus.h says which).
 */
#ifndef VERSUS_ODD_H
#define VERSUS_ODD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine.h"
#include "tetromino.h"

enum versus_odd {
	VERSUS_ODD_DOT,     /* 1 cell */
	VERSUS_ODD_SMALL_L, /* 3 cells, an L of two by two */
	VERSUS_ODD_U,       /* 5 cells */
	VERSUS_ODD_PLUS,    /* 5 cells */
	VERSUS_ODD_W,       /* 5 cells, a staircase */
};

#define VERSUS_ODD_KINDS 5
#define VERSUS_ODD_CELLS_MAX 5
#define VERSUS_ODD_TURNS 8         /* each Transformation adds these */
#define VERSUS_ODD_LETTERS "DCUXW" /* enum order; none is a tetromino letter */

/* One rotation of an odd shape, offsets from its leftmost column and bottom
 * row. */
struct versus_odd_shape {
	uint8_t width;    /* columns, 1..3 */
	uint8_t height;   /* rows, 1..3 */
	uint16_t rows[3]; /* bottom row first; bit c = column offset c */
};

/* "dot", "small_l", "u", "plus", "w"; NULL out of range. */
const char *versus_odd_name(unsigned odd);

/* VERSUS_ODD_LETTERS[odd], '?' out of range. */
char versus_odd_letter(unsigned odd);

/* The shape of odd (0..4) at rotation (0..3); NULL out of range. */
const struct versus_odd_shape *versus_odd_shape(unsigned odd, unsigned rotation);

/* Cells of the shape: 1, 3, 5, 5, 5; 0 out of range. */
unsigned versus_odd_cells(unsigned odd);

/* Legal leftmost columns of a rotation are 0 .. versus_odd_max_column()
 * (TETROMINO_COLS - width). odd and rotation must be in range. */
unsigned versus_odd_max_column(unsigned odd, unsigned rotation);

/* The lowest rotation with the same cells (Dot, Plus: 0; the others:
 * itself, their four rotations being distinct). */
unsigned versus_odd_canonical_rotation(unsigned odd, unsigned rotation);

/* Row index (0-based) where the shape's bottom lands when dropped at col;
 * everything must be in range. It fits when landing + height <= 20. */
int versus_odd_landing(const struct tetromino_board *b, unsigned odd, unsigned rotation,
    unsigned col);

/* Whether odd at rotation and column can be placed on b; if not, why into
 * reason (capacity cap; may be NULL), worded as tetromino_placement_ok(). */
bool versus_odd_placement_ok(const struct tetromino_board *b, unsigned odd, unsigned rotation,
    unsigned column, char *reason, size_t cap);

/* Drops the shape, fills its cells with code (0..7: the 3-bit letter code
 * a cell of b keeps; 0 makes grey cells as versus.h defines them) and
 * clears full rows. Returns the rows cleared (0..3), or -1 when the
 * placement is refused (b unchanged). */
int versus_odd_place(struct tetromino_board *b, unsigned odd, unsigned rotation, unsigned col,
    unsigned code);

/* Every distinct valid placement of odd (canonical rotations ascending,
 * then columns) into out, at most cap of them; returns how many there are
 * (at most 4 * 9). Figures as tetromino_options() measures them. */
#define VERSUS_ODD_OPTIONS_MAX 36
size_t versus_odd_options(const struct tetromino_board *b, unsigned odd,
    struct tetromino_option *out, size_t cap);

/* A tetromino's items (4 codes of 4 bits, VERSUS_MINO_ITEMS order) moved
 * onto odd: the non-empty codes, in mino order, go to the odd shape's
 * minos 0, 1, ... (counted as a tetromino's: bottom row first, left to
 * right, in the rotation placed); a code with no mino left (Dot: all but
 * the first; small L: a fourth) stays with the original piece only. */
uint16_t versus_odd_items(uint16_t items, unsigned odd);

/* The odd shape a transformed stream piece index (0, 1, ...) of player
 * takes in the match on seed: int(random() * 5) of Python's
 * random.Random("versus-v1:{seed}:odd:{player}:{index}"), a stream of its
 * own, so the pieces, holes and item rolls stay as they are. */
unsigned versus_odd_roll(uint64_t seed, unsigned player, uint32_t index);

#endif
