/*
 * play.h: the one pipeline every game request goes through, for every game
 * on the table (game.h).
 *
 * A handler reads its request's fields into a struct play (play_new, then
 * play_fields and the route's own) and calls play_submit, which runs the
 * rest in order on the HTTP thread: the Bearer key, the agent check's
 * answer and a fresh puzzle, the stateToken, the game's environment and
 * the run's facts, the game itself (the request played on the token's
 * state, or a new run), and the store job. One store job (play_job) then
 * decides, in the order docs/api.md fixes, what the request amounts to:
 * the agent check (spending the puzzle), the token's run, the run's head
 * (newest, retry or stale), and only then the game's verdict; it writes
 * the moves when there are any, with a compare-and-set on the head. The
 * continuation (play_reply) answers from the verdict. The seed's own
 * routes, which carry no token, play inside the job on the account's
 * newest run instead.
 *
 * Whether a request is on the seed's routes is said once, to play_new;
 * every refusal goes through play_refuse, which answers it in that
 * route's shape (the seed's routes hand out the next puzzle with it).
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
	PLAY_EXPIRED,          /* 410: an anonymous run's newest token has expired */
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
	/* turn and bytes are the two fields play_new does not clear (written
	 * before they are read); they stay together, in this order. */
	struct game_turn     turn;
	uint8_t              bytes[GAME_STATE_MAX]; /* after, encoded */
	struct store_run_advance adv;     /* what an action stores */
	struct store_run_new run;         /* init */
	int                  rating;      /* finish */
	const char          *review;      /* finish, borrowed from the request body */
	bool                 charged;     /* init, finish: the day's quota charged (quota_charge.h) */
	uint32_t             quota_day;   /* the UTC day charged */

	/* Set by the job. */
	enum store_check_verdict check;
	enum play_verdict    verdict;
	/* A refusal before the job (play_refuse), answered with a puzzle. */
	enum api_error       refusal;
	int                  refusal_status; /* auth's 401/429/500; 0: refusal's */
	char                 refusal_msg[256];
	struct store_run_head head;       /* the run's row as the job found it */
	char                *certificate; /* finish: malloc'd */
	bool                 abandoned;   /* init on the seed's routes ended the account's last run */
};

/* A new play for req's game g (the handler's context, freed with the
 * request), on the seed's routes when by_account; answers 500 and returns
 * NULL when out of memory. */
struct play *play_new(struct request *req, const struct game *g, enum play_kind kind,
    bool by_account);

/* Whether req's body holds only the fields the route takes: first (may be
 * NULL), then game (the game's own, may be NULL), and the common ones. The
 * seed's routes ignore fields they do not know (its bots may send more)
 * and check only the common ones' types. False after a 400. */
bool play_fields(struct request *req, struct play *p, const char *const *first,
    const char *const *game);

/* Refuses p's request with e and message (NULL: the table's). On the
 * seed's routes, when the game's agent check is on, the answer carries
 * the next puzzle (made and stored first). */
void play_refuse(struct request *req, struct play *p, enum api_error e, const char *message);

/* The init options of req as a game reads them (game_read_seed,
 * game_read_options): the body, the query string, the operator's caps. */
void play_game_request(struct request *req, struct game_request *rq);

/* The rest of the pipeline for a request read into p (see above): answers
 * exactly once, now or after the store job. For an init, p->run.seed and
 * seed_chosen are set, and the game's options are read here. */
void play_submit(struct request *req, struct play *p);

/* Who req comes from (account_id 0: anonymous), as puzzles are bound. */
void play_who(struct request *req, int64_t account_id, struct agent_who *who);

/* Makes a fresh puzzle for req's client (account_id 0: anonymous) as the
 * request's context (a struct agent_fresh), stores it, then cont(req)
 * answers with it (the store committed when defer_committed(req)). */
void play_fresh_puzzle(struct request *req, int64_t account_id, request_cont cont);

/* The calling thread's environment for game g (its working memory);
 * false when out of memory. */
bool play_env(const struct game *g, struct game_env *env);

/* The run id as the string clients see. */
void play_id_text(int64_t id, char out[GAME_ID_TEXT_MAX]);

#endif
