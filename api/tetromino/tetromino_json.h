/*
 * tetromino_json.h: JSON about a tetromino board that every game played on
 * one can share (Stackfall, Stackcraft, any ruleset built on tetromino.h).
 *
 * Ownership follows jansson: the returned object is a new reference, NULL
 * when there is nothing to say or jansson cannot allocate.
 */
#ifndef API_TETROMINO_JSON_H
#define API_TETROMINO_JSON_H

#include <jansson.h>

#include "tetromino.h"

/* The marks of a placement of piece at rotation and column on the board
 * before it (borrowed), for a page that highlights it:
 *     {"piece": "T", "rotation": 1, "column": 4,
 *      "landed": [[row, col] x 4],  the cells the piece came to rest on,
 *      "cleared": [row, ...],       the rows it filled, ascending,
 *      "kept": [[row, col], ...]}   the landed cells left after the clears,
 *                                   where they are on the board after
 * with rows numbered 1-20 from the bottom and columns 0-9, as in the rules.
 * "landed" and "cleared" are on the board before the clears. NULL when the
 * placement does not fit (it was never a stored move). */
json_t *tetromino_json_marks(const struct tetromino_board *before, unsigned piece,
    unsigned rotation, unsigned column);

/* A cell of the board: row 0 is the bottom. */
struct tetromino_cell {
	uint8_t row, col;
};

/* The same for a ruleset that finds where a piece lands itself (Stackcraft,
 * HATETRIS): at holds the four cells it came to rest on, in the order
 * the answer lists them; rotation and column are only echoed. NULL when a
 * cell is off the board or already filled. */
json_t *tetromino_json_marks_cells(const struct tetromino_board *before, unsigned piece,
    unsigned rotation, unsigned column, const struct tetromino_cell at[4]);

#endif
