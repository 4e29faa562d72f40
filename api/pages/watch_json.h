/*
 * watch_json.h: the answers of the routes that watch games (docs/web.md):
 * the games on the table, a playing run's head as its player sees it, a
 * run's steps and a match's turns, page by page. The server walks the
 * stored moves (replay_walk, match_walk) and hands each position here;
 * nothing here shows a stateToken or an agent check.
 *
 * Each answer is one function that writes its text with the answer
 * writer (jw.h): what the jansson trees these replaced dumped
 * (JSON_COMPACT), byte for byte. A whole answer comes back malloc'd,
 * NUL-terminated, its length in *len, NULL when it could not be written.
 * A page's items (a step, a turn) are written by the walk one by one into
 * a writer of its own, as the elements of one array (a match's turn by
 * match_walk_write, match.h); the page then takes that array's text as it
 * is.
 */
#ifndef API_WATCH_JSON_H
#define API_WATCH_JSON_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "jw.h"

/* GET /api/games: every game on the table, {games: [{name, rules,
 * boardFields, hidesFuture, seedless, marks}]}. */
char *watch_games_text(size_t *len);

/* A run as a watch answer names it. */
struct watch_run {
	const char *run_id;
	const char *status;      /* the game's status word */
	bool        over;
	const char *end_reason;  /* "" for none */
	int64_t     score;
	int64_t     moves;       /* stored moves, as read */
};

/* GET .../live: the run and the view of its head st, the game's answer as
 * its player sees it without the token or the agent check. NULL when the
 * view cannot be made. */
char *watch_live_text(const struct game *g, const struct watch_run *r, const void *st, size_t *len);

/* One step into w, as an array's element: step (0: the start) after move
 * (NULL for the start), on state st; prev is the state before the move,
 * for the game's marks. False when it could not be written. */
bool watch_step_write(struct jw *w, const struct game *g, size_t step, const json_t *move,
    const void *prev, const void *st);

/* A page of steps from `from`: items, the text of the array of its count
 * steps (nitems bytes), with the `next` page. */
char *watch_steps_text(const struct game *g, const struct watch_run *r, int64_t from,
    const char *items, size_t nitems, int64_t count, size_t *len);

/* A page of turns from `from` (items and count as for the steps); nturns
 * is the turns resolved, as read. */
char *watch_turns_text(const char *match_id, const char *status, int64_t nturns, int64_t from,
    const char *items, size_t nitems, int64_t count, size_t *len);

#endif
