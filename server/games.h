/*
 * games.h: request pieces both games share: the seed of an init, the
 * stateToken field, the finish fields, the game-agnostic verdicts of a
 * run job and the optional account.
 */
#ifndef SERVER_GAMES_H
#define SERVER_GAMES_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "auth.h"
#include "http.h"
#include "runs.h"

#define GAMES_SEED_MAX (((int64_t)1 << 53) - 1)

/* The seed of an init: ?seed= (GET) or {"seed": N} (POST), 0..2^53-1;
 * when absent a random one (*chosen false). Queues a 400 and returns false
 * for a bad seed or an unknown body field. */
bool games_read_seed(struct request *req, int64_t *seed, bool *chosen);

/* The stateToken of a state request: ?stateToken= (GET) or the body
 * field (POST). Queues a 400 and returns NULL when missing or not a string,
 * or when the body has fields other than allowed (NULL-terminated). */
const char *games_read_token(struct request *req, const char *const *allowed);

/* rating (1-10) and review (1-2000 characters of UTF-8). Queues a 400 and
 * returns false when wrong. */
bool games_read_review(struct request *req, int *rating, const char **review);

/* Opens a stateToken of game g into j (tok_err says how it went) and
 * marks j as a token request. */
void games_open_token(struct request *req, struct run_job *j, enum game g, const char *text);

/* Answers the verdicts every game treats alike (428, 400, 404, 409 for
 * no run / not over / finished, 500). Returns true when it answered. extra
 * (stolen) is merged into the error envelope. */
bool games_reply_common(struct request *req, struct run_job *j, json_t *extra);

/* An error that carries the game's answer body (stolen) beside the
 * envelope: a refusal with the unchanged state, or a stale token with the
 * run as it stands (message NULL: the stale-token message). The body's
 * "game" field goes; a NULL body (a failed build) answers 500. */
void games_reply_with_body(struct request *req, enum api_error e, const char *message, json_t *body);

/* The agent check of game g: on? When on, reads the answer and makes the
 * fresh puzzle. */
void games_prepare_check(struct request *req, struct run_job *j, enum game g);

#endif
