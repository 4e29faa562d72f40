/*
 * runs.h: what every game request shares on its way to the store.
 *
 * A game handler does the CPU work on its HTTP thread -- reads the body,
 * opens the stateToken, runs the engine on the token's state, makes a fresh
 * agent-check puzzle -- and fills a struct run_job. One store job then
 * decides, in the order api.md fixes, what the request amounts to: the
 * agent check (spending the puzzle), the token, the run's head (newest,
 * retry or stale), and only then the engine's verdict; it writes the moves
 * when there are any. The handler's continuation answers from the verdict.
 */
#ifndef SERVER_RUNS_H
#define SERVER_RUNS_H

#include <stdbool.h>
#include <stdint.h>

#include "agent_check.h"
#include "store.h"
#include "token.h"

struct keyring;

enum run_kind {
	RUN_ACTION, /* apply moves */
	RUN_STATE,  /* read the run as it stands */
	RUN_FINISH  /* review, certificate */
};

enum run_verdict {
	RUN_CHECK_FAILED,     /* 428: wrong, missing, expired or spent answer */
	RUN_TOKEN_BAD,        /* 400: the stateToken does not open */
	RUN_NOT_FOUND,        /* 404: the token's run is not stored */
	RUN_NO_RUN,           /* 409: the account has no run (seed routes) */
	RUN_STALE,            /* 409: an older token, not a retry */
	RUN_REFUSED,          /* 422: the engine refused; nothing stored */
	RUN_UNCHANGED,        /* 200: nothing to store (options, preview) */
	RUN_APPLIED,          /* 200: moves stored, head advanced */
	RUN_RETRY,            /* 200: the newest step's request again; nothing stored */
	RUN_CURRENT,          /* 200: state of the run */
	RUN_NOT_OVER,         /* 409: finish before the end */
	RUN_ALREADY_FINISHED, /* 409: a second finish */
	RUN_FINISHED,         /* 200: review and certificate stored */
	RUN_ERROR             /* 500 */
};

struct run_job;

/* For the seed routes, which carry no token: runs the request's engine
 * work on the stored head, inside the job. Fills the job's moves, refused
 * flag and state. Must be cheap: the writer waits for it. */
typedef void (*run_apply_fn)(struct run_job *j, const struct store_run_head *head);

/* Builds the finished run's certificate (inside the job): claims from the
 * head's state, the replay from the stored actions. Returns a malloc'd
 * token or NULL. */
typedef char *(*run_certify_fn)(struct run_job *j, struct store_conn *c,
    const struct store_run_head *head);

struct run_job {
	/* Set by the handler. */
	enum run_kind   kind;
	enum game       game;
	bool            check_on;
	struct agent_answer answer;
	struct agent_fresh  fresh;    /* made when check_on; stored by the job */
	bool            has_token;    /* token routes; the seed routes go by account */
	enum token_err  tok_err;      /* TOKEN_OK, or why the token did not open */
	struct state_token tok;       /* the opened token (when TOKEN_OK) */
	int64_t         account_id;   /* seed routes: whose latest run */
	bool            refused;      /* the engine refused the first command */
	struct store_run_advance adv; /* nmoves 0: nothing to store */
	run_apply_fn    apply;
	run_certify_fn  certify;
	int             rating;       /* finish */
	const char     *review;       /* finish, borrowed from the request body */
	const struct keyring *keys;
	void           *game_ctx;     /* the handler's own state */

	/* Set by the job. */
	enum store_check_verdict check;
	enum run_verdict verdict;
	struct store_run_head head;   /* the run's row as the job found it */
	char           *certificate;  /* finish: malloc'd */
};

/* The store job (store_fn) over a struct run_job. */
int runs_job(struct store_conn *c, void *arg);

/* BLAKE2b-128 of a request's canonical text: what a retry must repeat. */
void runs_fingerprint(uint8_t out[STORE_FP_BYTES], const char *canonical, size_t len);

/* Seals a stateToken for the run at step with the engine state given.
 * NULL when out of memory. */
char *runs_seal(const struct keyring *kr, enum game g, int64_t run, int64_t step,
    const uint8_t *state, size_t nstate);

/* The run id as the string clients see. */
void runs_id_text(int64_t id, char out[24]);

/* The certificate of a finished run, for a run_certify_fn: the replay is
 * built from the stored actions and final (stolen), and its hash joins
 * claims (stolen) with the run, game, rules, seed, account and moves.
 * Returns a malloc'd token or NULL. */
char *runs_certify(const struct run_job *j, struct store_conn *c, const struct store_run_head *head,
    const char *rules, json_t *final, json_t *claims);

/* Frees what the job allocated. */
void runs_job_cleanup(struct run_job *j);

#endif
