/*
 * replay.h: replays, the evidence of a run: {"schema": 1, "rules", "seed",
 * "actions", "final"}. Actions are the canonical action objects the server
 * stores for each move (Stackfall: place/hold/resign, and abandon when an
 * account started a new game; Duskcourt: capture/reset/next/endRun);
 * "final" is the game's summary (Stackfall: score, lines, pieces, status;
 * Duskcourt: score, rung, lives, phase).
 *
 * Verifying re-simulates every action from the seed with the engine. A
 * replay of a partial game is valid; a consistent replay is reproducible
 * evidence of a game, not of who played it (that is what a result
 * certificate adds, by naming the replay's hash).
 */
#ifndef API_REPLAY_H
#define API_REPLAY_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "duskcourt.h"
#include "game.h"

#define REPLAY_SCHEMA 1

/* A replay object; actions and final are stolen. NULL on failure. */
json_t *replay_new(const char *rules, int64_t seed, json_t *actions, json_t *final);

struct replay_check {
	enum game game;
	size_t    step;       /* 1-based action at fault; 0 when the fault is not an action's */
	size_t    nactions;
	char      reason[256];
	json_t   *final;      /* the re-simulated final summary (caller decrefs), or NULL */
};

/* Re-simulates replay (borrowed). Returns 0 when it verifies; -1 with
 * out->step and out->reason otherwise. expect is the game the caller
 * expects (GAME__COUNT: any). sv is the Duskcourt dealer's memory (may be
 * NULL for Stackfall replays). out->final is set whenever the actions
 * re-simulated, even when the final summary does not match. */
int replay_verify(const json_t *replay, enum game expect, struct duskcourt_solver *sv,
    struct replay_check *out);

#endif
