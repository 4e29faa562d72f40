/*
 * wells_json.h: the wells game's JSON and its game descriptor
 * (docs/rules/wells.md): a small well against the perfect supplier, which
 * plays from a solved value table (engine/wells/wells.h).
 *
 * The tables are the game's shared read-only data (game.h): one block per
 * well size the game serves, built by the daemon at its first use and read
 * by every thread after; a run's width and height pick its block. The
 * run's seed is its well, 100 W + H, so that the leaderboard's `seed`
 * filter is a board per well.
 *
 * An action is one landing of the current piece by its id "r<R>x<X>y<Y>":
 * orientation R, leftmost cell in column X, topmost cell in row Y counted
 * from the top of the buffer; the answer lists every landing with its id.
 */
#ifndef API_WELLS_JSON_H
#define API_WELLS_JSON_H

#include <jansson.h>
#include <stdbool.h>

#include "game.h"
#include "wells.h"

/* Wells on the game table (game.h). */
extern const struct game game_wells;

/* Reads a landing id; false with the reason. */
bool wells_action_from_json(const json_t *v, unsigned *rot, unsigned *x, unsigned *y,
    char reason[ENGINE_REASON_MAX]);

#endif
