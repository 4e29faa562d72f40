/*
 * replay.h: replays, the evidence of a run: {"schema": 1, "rules", "seed",
 * "actions", "final"}. Actions are the canonical action objects the server
 * stores for each move (Stackfall: place/hold/resign, and abandon when an
 * account started a new game; Duskcourt: capture/reset/next/endRun);
 * "final" is the game's summary (Stackfall: score, lines, pieces, status;
 * Duskcourt: score, rung, lives, phase).
 */
#ifndef API_REPLAY_H
#define API_REPLAY_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>


#define REPLAY_SCHEMA 1

/* A replay object; actions and final are stolen. NULL on failure. */
json_t *replay_new(const char *rules, int64_t seed, json_t *actions, json_t *final);

#endif
