/*
 * duskcourt_court.h: a Duskcourt court and its idols: the squares, the
 * ladder of court sizes, and the reach of the six idols that decides which
 * captures are legal.
 *
 * The lowest part of the Duskcourt engine: the solver, the dealer, the run
 * and the serialisation are built on it (duskcourt.h includes them all),
 * and it calls none of them. Courts are plain fixed-size structs with no
 * hidden padding, comparable with memcmp.
 */
#ifndef DUSKCOURT_COURT_H
#define DUSKCOURT_COURT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine.h"

#define DUSKCOURT_SIZE_MIN 4
#define DUSKCOURT_SIZE_MAX 6
#define DUSKCOURT_CELLS 36 /* squares of the largest court */
#define DUSKCOURT_SEED_MAX ((uint64_t)ENGINE_ID_MAX)
#define DUSKCOURT_IDOLS_MAX 12 /* most idols the ladder ever deals */

/* A square's content. Values are part of the serialised form: never renumber. */
enum duskcourt_cell {
	DUSKCOURT_EMPTY = 0,
	DUSKCOURT_BOULDER = 1,
	DUSKCOURT_K = 2, /* jackal: the eight touching squares */
	DUSKCOURT_Q = 3, /* scorpion: runs along straight lines and diagonals */
	DUSKCOURT_R = 4, /* cobra: runs along straight lines */
	DUSKCOURT_B = 5, /* vulture: runs along diagonals */
	DUSKCOURT_N = 6, /* camel: jumps (2,1), over anything */
	DUSKCOURT_P = 7, /* beetle: the two squares diagonally forward (row + 1) */
	DUSKCOURT_CELL_KINDS = 8
};

/* One capture of a solution: square indexes. */
struct duskcourt_capture {
	uint8_t from;
	uint8_t to;
};

/* One row of the ladder table (docs/rules/duskcourt.md). */
struct duskcourt_rung {
	int size;          /* 4..6 */
	int idols;         /* idols dealt, 3..12 */
	int decoys;        /* at least this many decoys, 0..3 */
	bool king_survives; /* the jackal must stand last */
	int boulders;      /* 0..4 */
};

/* A court: the board of one position (as dealt, or any later position). */
struct duskcourt_court {
	uint32_t rung;      /* the rung it was dealt for; 0 when unknown */
	uint8_t size;       /* 4..6 */
	bool king_survives; /* exactly one K, never taken, must make the last take */
	uint8_t zero[2];    /* always 0: keeps the struct free of padding */
	uint8_t cells[DUSKCOURT_CELLS]; /* enum duskcourt_cell; index row*size+col;
	                                   squares from size*size on are EMPTY */
};

/* The ladder row of a rung (>= 1). False (and *out untouched) for rung 0. */
bool duskcourt_ladder(uint32_t rung, struct duskcourt_rung *out);

/* 'K' 'Q' 'R' 'B' 'N' 'P' '#' for a cell, '.' for empty, '?' for junk. */
char duskcourt_cell_char(int cell);
/* The inverse of duskcourt_cell_char ('.' gives EMPTY); -1 for any other. */
int duskcourt_cell_from_char(char c);
/* The idol's name in the rules ("jackal", "scorpion", ...); "square" else. */
const char *duskcourt_idol_name(int cell);

/* Whether the idol on from may take the idol on to on this board: the reach
 * of docs/rules/duskcourt.md, boulders and line blocking included, and never
 * onto the K when king_survives. False for anything that is not such a take
 * (empty squares, boulders, from == to, indexes off the court). */
bool duskcourt_can_take(const uint8_t *cells, int size, bool king_survives, int from, int to);

/* Every legal capture of the position, sorted by from then to, written to
 * out (capacity cap; out may be NULL when cap is 0). Returns how many there
 * are, which may exceed cap (then only cap were written). */
size_t duskcourt_captures(const uint8_t *cells, int size, bool king_survives,
    struct duskcourt_capture *out, size_t cap);

/* Idols (not boulders) on the board's size*size squares. */
int duskcourt_count_idols(const uint8_t *cells, int size);

/* Where the reach of the idol on from fails towards to: -1 when the
 * geometry itself is wrong (from is not an idol, or to is not on its lines
 * or in its step), the first square in between that blocks its line, or
 * DUSKCOURT_CELLS when it reaches. from and to must be on the court. The
 * run words its refusals with it. */
int duskcourt_reach(const uint8_t *cells, int size, int from, int to);

#endif
