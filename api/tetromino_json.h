/*
 * tetromino_json.h: JSON about a tetromino board that every game played on
 * one can share (Stackfall today; any ruleset built on tetromino.h).
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

#endif
