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
 * replay's hash). This file holds the checks every game shares, and the
 * match verifier (match.h) writes its refusals with them too; each game
 * supplies its start and its moves (game.h), and replay_walk.h the loop,
 * which finds a replay's game in the table of games.
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

/*
 * For the games' replay functions.
 */

/* Records a failure (step 0: not an action's) and returns -1. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
int replay_fail(struct replay_check *out, size_t step, const char *fmt, ...);

/* Whether o is an object with exactly the keys base and extra (both
 * NULL-terminated, either may be NULL), each present. */
bool replay_exact_keys(const json_t *o, const char *const *base, const char *const *extra);

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
