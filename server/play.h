/*
 * play.h: the one pipeline every game request goes through, for every game
 * on the table (game.h).
 *
 * A handler does the CPU work on its HTTP thread: reads the body, opens the
 * stateToken, plays the request on the token's state with the game's
 * descriptor, makes a fresh agent-check puzzle. It fills a struct play,
 * and one store job (play_job) then decides, in the order docs/api.md
 * fixes, what the request amounts to: the agent check (spending the
 * puzzle), the token's run, the run's head (newest, retry or stale), and
 * only then the game's verdict; it writes the moves when there are any,
 * with a compare-and-set on the head. The continuation (play_reply)
 * answers from the verdict. The seed's own routes, which carry no token,
 * play inside the job on the account's newest run instead.
 */
#ifndef SERVER_PLAY_H
#define SERVER_PLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "agent_check.h"
#include "game.h"
#include "http.h"
#include "store.h"
#include "token.h"

struct keyring;

enum play_kind {
	PLAY_INIT,   /* a new run */
	PLAY_ACTION, /* apply moves */
	PLAY_STATE,  /* read the run as it stands */
	PLAY_FINISH  /* review, certificate */
};

enum play_verdict {
	PLAY_CHECK_FAILED,     /* 428: wrong, missing, expired or spent answer */
	PLAY_TOKEN_BAD,        /* 400: the stateToken does not open */
	PLAY_NOT_FOUND,        /* 404: the token's run is not stored */
	PLAY_UNAUTHORIZED,     /* 401: the run has an owner and no key came */
	PLAY_FORBIDDEN,        /* 403: the run belongs to another account */
	PLAY_NO_RUN,           /* 409: the account has no run (seed routes) */
	PLAY_STALE,            /* 409: an older token, not a retry */
	PLAY_REFUSED,          /* 422: the game refused; nothing stored */
	PLAY_UNCHANGED,        /* 200: nothing to store (options, preview) */
	PLAY_APPLIED,          /* 200: moves stored, head advanced */
	PLAY_RETRY,            /* 200: the newest step's request again; nothing stored */
	PLAY_CURRENT,          /* 200: state of the run */
	PLAY_NOT_OVER,         /* 409: finish before the end */
	PLAY_ALREADY_FINISHED, /* 409: a second finish */
	PLAY_FINISHED,         /* 200: review and certificate stored */
	PLAY_CREATED,          /* 200: init stored the new run */
	PLAY_ERROR             /* 500 */
};

struct play {
	/* Set by the handler. */
	const struct game   *game;
	enum play_kind       kind;
	bool                 by_account;  /* the seed's routes: the account's newest run, no token */
	bool                 check_on;
	struct agent_answer  answer;
	struct agent_fresh   fresh;       /* made when check_on; stored by the job */
	int64_t              account_id;  /* the Bearer key's account, 0 when anonymous */
	enum token_err       tok_err;     /* TOKEN_OK, or why the token did not open */
	struct state_token   tok;         /* the opened token (token routes) */
	const char          *sent_token;  /* borrowed from the request */
	const struct keyring *keys;
	void                *scratch;     /* game->scratch_size bytes, for the game's functions */
	game_state           before;      /* the state the request plays on */
	game_state           after;       /* the state after it */
	struct game_turn     turn;
	uint8_t              bytes[GAME_STATE_MAX]; /* after, encoded */
	struct store_run_advance adv;     /* what an action stores */
	struct store_run_new run;         /* init */
	int                  rating;      /* finish */
	const char          *review;      /* finish, borrowed from the request body */

	/* Set by the job. */
	enum store_check_verdict check;
	enum play_verdict    verdict;
	struct store_run_head head;       /* the run's row as the job found it */
	char                *certificate; /* finish: malloc'd */
	bool                 abandoned;   /* init on the seed's routes ended the account's last run */
};

/* A new play for req's game g (the handler's context, freed with the
 * request); answers 500 and returns NULL when out of memory. */
struct play *play_new(struct request *req, const struct game *g, enum play_kind kind);

/* Who req comes from (account_id 0: anonymous), as puzzles are bound. */
void play_who(struct request *req, int64_t account_id, struct agent_who *who);

/* Makes a fresh puzzle for req's client (account_id 0: anonymous) as the
 * request's context (a struct agent_fresh), stores it, then cont(req)
 * answers with it (the store committed when defer_committed(req)). */
void play_fresh_puzzle(struct request *req, int64_t account_id, request_cont cont);

/* The agent check of p's game: on? When on, reads the answer and makes the
 * fresh puzzle, both for p->account_id and the client's address. False
 * after a 429 when an answer came from an account or address that is over
 * its wrong-answer limit (the answer is not judged, the puzzle not spent). */
bool play_prepare_check(struct request *req, struct play *p);

/* Opens a stateToken of p's game into p. */
void play_open_token(struct request *req, struct play *p, const char *text);

/* Plays p->scratch's request on p->before into p->after and p->turn, and
 * fills p->adv with what to store. env is the calling thread's. */
void play_compute(struct play *p, const struct game_env *env);

/* The store job (store_fn) over a struct play. */
enum store_result play_job(struct store_conn *c, void *arg);

/* Answers a resumed request from its play's verdict. */
void play_reply(struct request *req);

/* The calling thread's environment for game g (its working memory);
 * false when out of memory. */
bool play_env(const struct game *g, struct game_env *env);

/* The run id as the string clients see. */
void play_id_text(int64_t id, char out[GAME_ID_TEXT_MAX]);

#endif
