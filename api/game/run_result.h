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

/* A finish answer written into w: the game, the run, the final summary
 * (borrowed), the review, the certificate and where to check it; then
 * the game's part for st when st is not NULL (the seed's routes), and
 * agent_check when check (borrowed) is not NULL. False when it cannot be
 * written (final, review or certificate NULL among the rest). */
bool run_finish_write(struct jw *w, const struct game *g, const char *run_id, const json_t *final,
    int rating, const char *review, const char *certificate, const void *st, const json_t *check);

#endif
