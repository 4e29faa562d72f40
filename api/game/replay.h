/*
 * replay.h: replays, the evidence of a run:
 *     {"schema": 1, "rules", "seed", "actions", "final", ...options}
 * Actions are the canonical moves the server stores for the run, in order;
 * "final" is the game's final summary (struct game's final()); options are
 * whatever else the game needs to replay (a cap, say), from its
 * replay_options(). The object's canonical text (sorted keys) is what a
 * result certificate hashes.
 *
 * Verifying re-simulates every action from the seed on the engine and
 * compares the summary reached with the one claimed. A replay of a partial
 * game is valid; a consistent replay is reproducible evidence of a game,
 * not of who played it (that is what a certificate adds, by naming the
 * replay's hash). This file holds the loop and the checks every game
 * shares; each game supplies its start and its moves (game.h).
 */
#ifndef API_REPLAY_H
#define API_REPLAY_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game.h"

#define REPLAY_SCHEMA 1

/* A replay object of game g; actions, final and options (may be NULL) are
 * stolen. NULL on failure. */
json_t *replay_new(const struct game *g, int64_t seed, json_t *actions, json_t *final,
    json_t *options);

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

/*
 * For the games' replay functions.
 */

/* Records a failure (step 0: not an action's) and returns -1. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
int replay_fail(struct replay_check *out, size_t step, const char *fmt, ...);

/* Checks the fields every replay has: exactly schema, rules, seed, actions,
 * final and the game's extra keys (NULL-terminated, may be NULL); a seed in
 * 0..ENGINE_ID_MAX; actions an array; final an object with exactly
 * final_keys. Fills *seed, *actions and *final; -1 with the reason. */
int replay_read(const json_t *replay, const char *const *extra_keys, const char *const *final_keys,
    int64_t *seed, const json_t **actions, const json_t **final, struct replay_check *out);

/* Compares out->final (the re-simulated summary) with claimed: 0 when
 * equal, else -1 naming the first field that differs. */
int replay_compare_final(struct replay_check *out, const json_t *claimed);

#endif
