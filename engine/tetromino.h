/*
 * tetromino.h: the seven pieces and a 10 x 20 board of bit rows.
 *
 * Shapes are the diagrams of the Stackfall rules: rotation 0 is the spawn
 * orientation, each step turns 90 degrees clockwise, and a rotation is placed
 * by its leftmost cell's column. Rows count from the bottom: rows[0] is row 1.
 * The board keeps two views of the same cells: a 10-bit occupancy mask per row
 * (bit c = column c) for the drop, clears and figures, and 3 bits per cell
 * holding the piece that filled it (0 empty, piece + 1) for board_text. The
 * two always agree; every function here keeps them so.
 *
 * A drop comes from above the board: the piece stops on the highest filled
 * cell of any of its columns (or the floor), so it can never pass under an
 * overhang. A placement is valid when the column is inside the rotation's
 * range and all four cells end in rows 1-20.
 *
 * Workload: tetromino_options() is the hot path (bots evaluate every
 * placement every turn); it uses precomputed per-rotation tables and column
 * heights and only rebuilds the board when a placement clears lines.
 */
#ifndef TETROMINO_H
#define TETROMINO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine.h"

enum tetromino_piece {
	TETROMINO_I,
	TETROMINO_O,
	TETROMINO_T,
	TETROMINO_S,
	TETROMINO_Z,
	TETROMINO_J,
	TETROMINO_L,
};

#define TETROMINO_NPIECES 7
#define TETROMINO_NROTATIONS 4
#define TETROMINO_COLS 10
#define TETROMINO_ROWS 20
#define TETROMINO_FULL_ROW 0x3ffu
/* 20 lines of 10 characters, 19 new lines, the NUL. */
#define TETROMINO_TEXT_SIZE 220
/* Most distinct placements of one piece (T, J, L on an empty board). */
#define TETROMINO_OPTIONS_MAX 34

/* One rotation of one piece. Offsets are relative to the leftmost column and
 * the bottom row of the shape. */
struct tetromino_shape {
	uint8_t width;     /* columns, 1..4 */
	uint8_t height;    /* rows, 1..4 */
	uint16_t rows[4];  /* bottom row first; bit c = column offset c */
	uint8_t bottom[4]; /* per column offset < width: lowest row offset filled */
	uint8_t top[4];    /* per column offset < width: highest row offset filled */
};

struct tetromino_board {
	uint16_t rows[TETROMINO_ROWS];  /* occupancy, bits 0-9; never TETROMINO_FULL_ROW
	                                   between calls */
	uint32_t cells[TETROMINO_ROWS]; /* 3 bits per cell, column c at bits 3c..3c+2:
	                                   0 empty, piece + 1 filled */
};

/* The figures a bot ranks placements by, measured after the placement and
 * its clears. A column's height is the row of its highest filled cell (0 when
 * empty); a hole is an empty cell below its column's height. */
struct tetromino_figures {
	uint8_t lines;      /* rows cleared by the placement, 0..4 */
	uint8_t holes;      /* 0..190 */
	uint8_t max_height; /* 0..20 */
	uint8_t bumpiness;  /* sum of |h[c] - h[c+1]| over c = 0..8, 0..180 */
};

struct tetromino_option {
	uint8_t rotation; /* 0..3, the lowest among rotations of the same shape */
	uint8_t column;   /* leftmost cell's column */
	struct tetromino_figures figures;
};

/* 'I', 'O', 'T', 'S', 'Z', 'J', 'L'; '?' for anything else. */
char tetromino_letter(unsigned piece);

/* The piece for a letter (either case), or -1. */
int tetromino_from_letter(int c);

/* The shape of piece (0..6) at rotation (0..3); NULL when out of range. */
const struct tetromino_shape *tetromino_shape(unsigned piece, unsigned rotation);

/* Legal leftmost columns of a rotation are 0 .. tetromino_max_column(). */
unsigned tetromino_max_column(unsigned piece, unsigned rotation);

/* The lowest rotation with the same cells as this one (O: always 0; I, S, Z:
 * rotation % 2; T, J, L: itself). Placements of equal shapes at the same
 * column fill the same cells, so options lists only canonical rotations. */
unsigned tetromino_canonical_rotation(unsigned piece, unsigned rotation);

void tetromino_board_init(struct tetromino_board *b);

/* Cell at row (0 = bottom) and column: 0 when empty, else piece + 1. */
unsigned tetromino_board_get(const struct tetromino_board *b, unsigned row, unsigned col);

/* Sets a cell (value 0 empties it, piece + 1 fills it). A low-level helper for
 * tests and decoding: it does not clear rows that become full. */
void tetromino_board_set(struct tetromino_board *b, unsigned row, unsigned col, unsigned value);

bool tetromino_board_is_empty(const struct tetromino_board *b);

/* Number of filled cells. */
unsigned tetromino_board_count(const struct tetromino_board *b);

/* Column heights (0..20) into h[0..9]. */
void tetromino_board_heights(const struct tetromino_board *b, uint8_t h[TETROMINO_COLS]);

/* Holes, max_height and bumpiness of the board as it is (lines = 0). */
void tetromino_board_figures(const struct tetromino_board *b, struct tetromino_figures *f);

/* Row index (0-based) where the bottom of the shape lands when dropped at
 * column col. The placement fits when landing + height <= TETROMINO_ROWS.
 * piece, rotation and col must be in range. */
int tetromino_landing(const struct tetromino_board *b, unsigned piece, unsigned rotation,
    unsigned col);

/* True when rotation and col are in range and the dropped piece ends inside
 * the 20 rows. */
bool tetromino_fits(const struct tetromino_board *b, unsigned piece, unsigned rotation,
    unsigned col);

/* True when some rotation and column of piece fits. */
bool tetromino_can_place(const struct tetromino_board *b, unsigned piece);

/* Whether piece can be placed at rotation and column on b (both in range,
 * and the landed piece below the top); if not, the reason into reason
 * (capacity cap; may be NULL), as the games that place by rotation and
 * column word it. */
bool tetromino_placement_ok(const struct tetromino_board *b, unsigned piece, unsigned rotation,
    unsigned column, char *reason, size_t cap);

/* What a placement would do, without doing it. */
struct tetromino_preview {
	struct tetromino_figures figures;       /* lines, holes, max_height, bumpiness */
	char board_text[TETROMINO_TEXT_SIZE];   /* the board after placement and clears */
};

/* The preview of piece at rotation and column on b (a placement that
 * tetromino_placement_ok accepts) into pv (may be NULL), and its sentence
 * ("preview of T rotation 1 at column 4: 2 lines") into m. Returns the
 * lines it would clear. */
unsigned tetromino_preview(const struct tetromino_board *b, unsigned piece, unsigned rotation,
    unsigned column, struct tetromino_preview *pv, struct engine_msg *m);

/* Appends "{verb} {letter} rotation {r} at column {c}" to a move's sentence. */
void tetromino_say_placement(struct engine_msg *m, const char *verb, unsigned piece,
    unsigned rotation, unsigned column);

/* Drops the piece, writes its letters and clears full rows. Returns the
 * number of rows cleared (0..4), or -1 when it does not fit (b unchanged). */
int tetromino_place(struct tetromino_board *b, unsigned piece, unsigned rotation, unsigned col);

/* Removes every full row at once; the rows above move down with their
 * letters. Returns how many were removed. */
unsigned tetromino_clear_lines(struct tetromino_board *b);

/* Every distinct valid placement of piece, canonical rotations ascending,
 * then columns ascending, each with its figures. Writes at most cap entries
 * into out (out may be NULL when cap is 0) and returns how many there are,
 * at most TETROMINO_OPTIONS_MAX. */
size_t tetromino_options(const struct tetromino_board *b, unsigned piece,
    struct tetromino_option *out, size_t cap);

/* tetromino_options, and its sentence ("34 placements for T") into m. */
size_t tetromino_say_options(const struct tetromino_board *b, unsigned piece,
    struct tetromino_option *out, size_t cap, struct engine_msg *m);

/* 20 lines of 10 characters joined by '\n', top row first, '.' for empty and
 * the piece letter otherwise, NUL-terminated. */
void tetromino_board_text(const struct tetromino_board *b, char out[TETROMINO_TEXT_SIZE]);

/* The inverse: reads exactly that format (letters I O T S Z J L or '.').
 * Returns false and leaves b unchanged on anything else, full rows included. */
bool tetromino_board_from_text(struct tetromino_board *b, const char *text);

#endif
