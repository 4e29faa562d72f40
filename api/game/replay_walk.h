/*
 * replay_walk.h: verifying a replay of any game, move by move. The walk
 * finds the replay's game by its "rules" in the table of games and plays
 * its moves with the game's replay functions (replay.h has the checks they
 * share), so it sits above the games' adapters, beside the table.
 */
#ifndef API_REPLAY_WALK_H
#define API_REPLAY_WALK_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "game.h"
#include "replay.h"

/* Re-simulates replay (borrowed): finds its game by "rules" (expect, when
 * not NULL, must be that game) and runs the game's verifier. Returns 0 when
 * it verifies; -1 with out->step and out->reason otherwise. out->final is
 * set whenever the actions re-simulated, even when the summary differs. */
int replay_verify(const json_t *replay, const struct game *expect, const struct game_env *env,
    struct replay_check *out);

/*
 * Walking a replay move by move, for whoever needs each step's state (the
 * run pages draw them). replay_verify is a walk to the end.
 */
struct replay_walk {
	const struct game *game;
	struct replay_ctx  rc;
	game_state         st;       /* the state after `step` moves */
	size_t             step;
	const json_t      *actions;  /* borrowed from the replay */
	const json_t      *final;    /* likewise */
	bool               started;  /* replay_end is owed */
};

/* Checks the replay's form and starts it (step 0). 0, or -1 with out's
 * reason; replay_walk_end is due either way. */
int replay_walk_start(struct replay_walk *w, const json_t *replay, const struct game *expect,
    const struct game_env *env, struct replay_check *out);

/* Plays the next move: 1 when it did, 0 at the end, -1 with out's step and
 * reason when the move is refused. */
int replay_walk_next(struct replay_walk *w, struct replay_check *out);

void replay_walk_end(struct replay_walk *w);

#endif
