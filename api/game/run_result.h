/*
 * run_result.h: what a finished run is said to be, for every game on the
 * table: the claims its result certificate signs (the game's own claims
 * joined with the run, game, rules, seed, account, moves and the hash of
 * its replay), and the final summary a finish answer shows. The daemon
 * gives the facts it stored; everything formatted here is protocol.
 */
#ifndef API_RUN_RESULT_H
#define API_RUN_RESULT_H

#include <jansson.h>
#include <stdint.h>

#include "game.h"
#include "keys.h"

/* A stored run as the store holds it. */
struct run_result {
	const struct game *game;
	const void *state;     /* the run's final state (the game's engine struct) */
	int64_t     id;
	int64_t     seed;
	const char *account;   /* the account's name, "" when anonymous */
	int64_t     moves;     /* stored moves */
};

/* Signs the result certificate of r, whose stored moves are actions (a
 * JSON array, stolen), at now (Unix seconds). The certificate text
 * (caller frees), or NULL on failure. */
char *run_result_certificate(const struct keyring *kr, const struct run_result *r,
    json_t *actions, int64_t now);

/* The final summary a finish answer carries: the game's final summary
 * with its claims beside it, the seed and the moves. NULL when out of
 * memory. */
json_t *run_result_final(const struct run_result *r);

/* A game route's answer: game, runId and stateToken, then the game's own
 * part for st (game->answer, with the request's scratch or NULL). NULL
 * when it cannot be made. */
json_t *run_answer_json(const struct game *g, const char *run_id, const char *token, const void *st,
    const void *scratch);

/* A finish answer: the final summary (taken), the review, the certificate
 * and where to check it; with the game's fields for st too when st is not
 * NULL (the seed's routes). NULL when it cannot be made. */
json_t *run_finish_json(const struct game *g, const char *run_id, json_t *final, int rating,
    const char *review, const char *certificate, const void *st);

#endif
