/*
 * watch_json.h: the answers of the routes that watch games (docs/web.md):
 * the games on the table, a playing run's head as its player sees it, a
 * run's steps and a match's turns, page by page. The server walks the
 * stored moves (replay_walk, match_walk) and hands each position here;
 * nothing here shows a stateToken or an agent check.
 */
#ifndef API_WATCH_JSON_H
#define API_WATCH_JSON_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "match.h"

/* GET /api/games: every game on the table, {games: [{name, rules,
 * boardFields, hidesFuture, seedless, marks}]}. */
json_t *watch_games_json(void);

/* The game's answer for st as its player sees it, without the token or
 * the agent check; NULL when it cannot be made. */
json_t *watch_view_json(const struct game *g, const void *st);

/* A run as a watch answer names it. */
struct watch_run {
	const char *run_id;
	const char *status;      /* the game's status word */
	bool        over;
	const char *end_reason;  /* "" for none */
	int64_t     score;
	int64_t     moves;       /* stored moves, as read */
};

/* GET .../live: the run and its head's view (taken). */
json_t *watch_live_json(const struct game *g, const struct watch_run *r, json_t *view);

/* One step: step (0: the start) after move (NULL for the start), on state
 * st; prev is the state before the move, for the game's marks. */
json_t *watch_step_json(const struct game *g, size_t step, const json_t *move, const void *prev,
    const void *st);

/* A page of steps (items, borrowed) from `from`, with the `next` page. */
json_t *watch_steps_json(const struct game *g, const struct watch_run *r, int64_t from,
    json_t *items);

/* One turn of a match: the match after w's last turn as a spectator saw
 * it then (no `moved`, no ratings; its boardText too), with the turn's
 * moves (borrowed; NULL for turn 0). names[i] is seat i's account. */
json_t *watch_turn_json(const struct match_walk *w, uint32_t turn_cap, const char *const *names,
    const json_t *moves);

/* A page of turns (items, borrowed) from `from`; nturns is the turns
 * resolved, as read. */
json_t *watch_turns_json(const char *match_id, const char *status, int64_t nturns, int64_t from,
    json_t *items);

#endif
