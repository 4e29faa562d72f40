/*
 * stackcraft_json.h: Stackcraft's JSON: the state and legal actions a bot
 * observes, the action it sends, the final summary, the rules document,
 * the replay (export, and import by re-simulation), and the game's
 * descriptor for the server.
 *
 * Ownership follows jansson: every function returning json_t * returns a
 * new reference (NULL only when jansson cannot allocate), a function whose
 * parameter is marked "stolen" takes that reference even when it fails, and
 * every other json_t * parameter is borrowed.
 *
 * What a bot may see is only stackcraft_state_json and
 * stackcraft_legal_json: the board, the current piece, one next piece and
 * the counters, never the seed or later pieces. A replay names the seed, so
 * it is evidence for reconstruction, not an observation.
 */
#ifndef API_STACKCRAFT_JSON_H
#define API_STACKCRAFT_JSON_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "game.h"
#include "stackcraft.h"

/* Stackcraft on the game table (game.h). */
extern const struct game game_stackcraft;

/* {"board": 20 arrays of 10 colour ids (row y = 0, the top, first),
 *  "current": "T", "next": "O", "score", "lines", "pieces",
 *  "status": "playing" | "over", "end_reason": null | "top_out" | "capped",
 *  "cap": null | integer} */
json_t *stackcraft_state_json(const struct stackcraft *g);

/* [{"id": "r0x0", "rotation": 0, "x": 0, "y": 19, "cells": [[x, y] x 4]},
 *  ...] in the engine's order (rotation, then x); [] when the run is over. */
json_t *stackcraft_legal_json(const struct stackcraft *g);

/* Reads an action: a JSON string holding an id ("r1x4"). Returns false with
 * a reason (NUL-terminated, ENGINE_REASON_MAX bytes) for anything else; the
 * id's digits are range-checked by stackcraft_step, not here. */
bool stackcraft_action_from_json(const json_t *v, unsigned *rotation, unsigned *x,
    char reason[ENGINE_REASON_MAX]);

/* The final summary: {"score", "lines", "pieces", "status", "end_reason"}. */
json_t *stackcraft_final_json(const struct stackcraft *g);

/* The rules as data, for GET .../rules: board and coordinates, colours,
 * every orientation's cells, the id grammar, legal order, scoring, the end
 * and the cap, what an observation holds, the replay format. */
json_t *stackcraft_rules_json(void);

/* The replay of a run: {"schema": 1, "rules": "stackcraft-v1", "seed",
 * "actions": [ids], "final": stackcraft_final_json, "cap": null | integer},
 * built by replay_new (replay.h) as the server builds every replay.
 * actions (stolen) is the array of the ids applied since init, in order;
 * seed and cap come from g, the final summary from g as it stands. NULL
 * when actions is NULL. Export and import round-trip: importing the result
 * re-simulates to g. */
json_t *stackcraft_replay_export(const struct stackcraft *g, json_t *actions);

#endif
