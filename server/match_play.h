/*
 * match_play.h: matches on the server: the lobby, moves, deadlines and
 * the resolution of a turn, each one store job that decides and writes in
 * one transaction (as play.h does for games), and what happens once it has
 * committed (the next deadline, waking long polls and streams).
 *
 * A match plays by its ruleset, the descriptor its row's `rules` names
 * (match_rules.h): the pipeline holds its state, moves and totals as the
 * ruleset's opaque bytes and asks the ruleset everything about them.
 *
 * The match lives in its row (store.h): the ruleset's state, the moves sent
 * for the coming turn and the totals. A move's job reads the row, judges
 * the move, and either stores it (one compare-and-set write) or, when it
 * is the last living player's, resolves the turn at once; a deadline's job
 * reads the row and resolves the turn with the missing moves as missed.
 * Every write is a compare-and-set on (turn, status), so a deadline firing
 * while the last move arrives resolves the turn exactly once: the loser
 * finds the turn moved on and writes nothing.
 *
 * One timer thread (match_clock.h) keeps every deadline; there is no
 * thread per match. After a restart, match_play_start arms the deadlines of
 * every playing match from the store.
 *
 * A real-time match (its row's clock 'ticks') goes through the same
 * create, join and start; once its start has committed, the tick host
 * (match_live.h) plays it, and its end is one job here (live_end_run):
 * the inputs not stored yet, the state at the end, results and
 * certificate in one transaction. After a restart, match_play_start hands
 * the host every real-time match left playing, with its stored inputs.
 */
#ifndef SERVER_MATCHES_H
#define SERVER_MATCHES_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "http.h"
#include "match_rules.h" /* api/: the ruleset's descriptor */
#include "store.h"

struct app;
struct matches;
struct match_hub;

#define MATCH_PLAY_TURN_SECONDS_DEFAULT 10
#define MATCH_PLAY_TURN_SECONDS_MAX 3600
#define MATCH_PLAY_WAIT_MS 25000           /* a long poll answers after this at the latest */
#define MATCH_PLAY_HEARTBEAT_MS 15000      /* a comment line to every event stream, and a look
                                              at their matches: one over or gone ends them */
#define MATCH_PLAY_PROBE_MS 250            /* how often held connections are looked at for a
                                              client that left (match_hub_probe) */
#define MATCH_PLAY_STREAM_BYTES (256 * 1024) /* what one stream may hold unsent */

/* The timers' kinds on the clock. */
enum match_play_timer {
	MATCH_PLAY_TIMER_DEADLINE, MATCH_PLAY_TIMER_WAIT, MATCH_PLAY_TIMER_HEARTBEAT, MATCH_PLAY_TIMER_SCAN,
	MATCH_PLAY_TIMER_PROBE
};
/* Every MATCH_PLAY_SCAN_MS each daemon looks for deadlines MATCH_PLAY_OVERDUE_MS
 * late and arms them: a deadline lives in the memory of the daemon that
 * set it, and one that stopped (or a standby that started before it was
 * set) would otherwise leave the match waiting. The turn's compare-and-set
 * makes a deadline fired by two daemons resolve once. */
#define MATCH_PLAY_SCAN_MS 1000
#define MATCH_PLAY_OVERDUE_MS 2000
#define MATCH_PLAY_SCAN_LIMIT 256

/* Starts the service: its hub, its clock, and the deadlines of the
 * matches playing in the store. NULL with err on failure. */
struct matches *match_play_start(struct app *app, char *err, size_t errcap);

/* Shutting down: no deadline fires any more, every long poll is answered,
 * every stream ends. */
void match_play_quiesce(struct matches *mx);

/* After http_stop and store_close. NULL is fine. */
void match_play_free(struct matches *mx);

struct match_hub *match_play_hub(struct matches *mx);

/* The tick host of the real-time matches (match_live.h). */
struct match_live *match_play_live(struct matches *mx);

/* Arms a long poll's timeout (its ticket, on match_id). */
void match_play_wait_timer(struct matches *mx, uint64_t ticket, int64_t match_id, int64_t when_ms);
void match_play_wait_cancel(struct matches *mx, uint64_t ticket);

struct match_play_stats {
	uint64_t turns;         /* turns resolved */
	uint64_t by_deadline;   /* of those, by a deadline */
	unsigned timers, waiters, streams;
	uint64_t streams_refused, streams_dropped;
	uint64_t gone;          /* long polls and streams let go: their client had left */
};
void match_play_stats(struct matches *mx, struct match_play_stats *out);

/* QUICK: the quick-match queue, a join of the queue lobby with the op's
 * settings or, when there is none, a new one (verdict JOINED or CREATED). */
enum match_play_op_kind { MATCH_PLAY_OP_CREATE, MATCH_PLAY_OP_JOIN, MATCH_PLAY_OP_MOVE, MATCH_PLAY_OP_DEADLINE,
	MATCH_PLAY_OP_QUICK };

/* The rating rules (the rules pages' "Ratings"): a queue match in
 * which some player sent fewer than MATCH_PLAY_RATED_MOVES moves is
 * aborted, and a pair of accounts rates at most MATCH_PLAY_PAIR_CAP
 * matches in MATCH_PLAY_PAIR_WINDOW_MS. */
#define MATCH_PLAY_RATED_MOVES    3
#define MATCH_PLAY_PAIR_CAP       3
#define MATCH_PLAY_PAIR_WINDOW_MS (24 * 3600 * 1000LL)
/* With --fair-ratings on (the default), three more. A queue match rates
 * only on the standard settings (match_play_standard); two networks (a
 * seat's, as its join saw it: an IPv4 /24, an IPv6 /48, or the local
 * socket), the same one twice included, rate at most
 * MATCH_PLAY_NET_PAIR_CAP matches together in the window; and a rating is
 * provisional, left out of the rankings, until its account has played
 * MATCH_PLAY_RANKED_MATCHES rated matches against MATCH_PLAY_RANKED_OPPONENTS
 * accounts of MATCH_PLAY_RANKED_NETS networks other than its own. */
#define MATCH_PLAY_NET_PAIR_CAP     6
#define MATCH_PLAY_RANKED_MATCHES   10
#define MATCH_PLAY_RANKED_OPPONENTS 5
#define MATCH_PLAY_RANKED_NETS      3
#define MATCH_PLAY_NET_MAX          64  /* a network's text, NUL included (CLIENT_KEY_TEXT_MAX) */

/* Whether a queue table is one of the standard settings that rate: 2 to
 * 4 players, the default turn (MATCH_PLAY_TURN_SECONDS_DEFAULT), items off
 * or on at the defaults. */
bool match_play_standard(int players, int turn_seconds, const struct match_options *o);

enum match_play_verdict {
	MATCH_PLAY_CREATED,        /* 200 */
	MATCH_PLAY_JOINED,         /* 200; started tells whether it filled the match */
	MATCH_PLAY_MOVED,          /* 200: the move waits for the others */
	MATCH_PLAY_RESOLVED,       /* 200: the move was the last: the turn resolved */
	MATCH_PLAY_NOT_FOUND,      /* 404 */
	MATCH_PLAY_NOT_A_PLAYER,   /* 403 */
	MATCH_PLAY_FULL,           /* 409 */
	MATCH_PLAY_ALREADY_JOINED, /* 409 */
	MATCH_PLAY_NOT_STARTED,    /* 409 */
	MATCH_PLAY_OVER,           /* 409 */
	MATCH_PLAY_WRONG_TURN,     /* 409: resolved already, or not open yet */
	MATCH_PLAY_ALREADY_MOVED,  /* 409 */
	MATCH_PLAY_PLAYER_OUT,     /* 409 */
	MATCH_PLAY_TOO_MANY_LOBBIES, /* 409: nothing created */
	MATCH_PLAY_EMPTY_MOVE,     /* 422 */
	MATCH_PLAY_INVALID_MOVE,   /* 422: not a move */
	MATCH_PLAY_ILLEGAL_MOVE,   /* 422: the engine refuses it */
	MATCH_PLAY_WRONG_CLOCK,    /* 409: a move to a real-time match */
	MATCH_PLAY_NOTHING,        /* a deadline found nothing to do */
	MATCH_PLAY_ERROR,          /* 500 */
};

/* One request's (or deadline's) work; a handler's context. */
struct match_play_op {
	/* Set by the caller. */
	enum match_play_op_kind kind;
	struct matches    *mx;
	int64_t            account_id;
	int64_t            match_id;          /* all but create */
	int                players, turn_seconds; /* create */
	int64_t            seed;
	bool               seed_chosen, rated;
	char               net[MATCH_PLAY_NET_MAX]; /* create, join, quick: the client's network */
	struct match_options options;         /* create, quick: the ruleset's (options_read) */
	bool               ticks;             /* create: on the ruleset's tick clock (real time) */
	int64_t            turn;              /* move: the turn it is for; deadline: turns resolved */
	/* move: the request's command (borrowed from its body, which outlives
	 * the job), read by the match's ruleset once the job has its row. */
	const char        *command;
	size_t             ncommand;
	enum match_parse   parsed;            /* move: the command as read in the job */
	bool               full_view;         /* move: answer the whole match view too (?view=full) */
	bool               use_empty;         /* move that resolved the turn: it asked something of
	                                       * the turn that found nothing (the ruleset's answer) */
	match_move         mv;                /* move: the ruleset's move read */
	char               reason[ENGINE_REASON_MAX];

	/* Set by the caller for create and quick, by the read of the row for
	 * the others: the match's ruleset (NULL until then). */
	const struct match_rules *rules;

	/* Set by the job: the match as it stands after it. */
	enum match_play_verdict verdict;
	int                seat;              /* the account's seat, -1 for none */
	struct store_match_row row;
	void              *st;                /* the ruleset's state (malloc'd, st_cap bytes): valid
	                                       * when row.nstate > 0 */
	size_t             st_cap;
	uint8_t            alive;             /* a bit a seat: still in (when row.nstate > 0) */
	uint8_t            moved;             /* a bit a seat: moved for the coming turn */
	bool               started, resolved, finished;
	char              *event;             /* the streams' text, malloc'd, or NULL */
	size_t             nevent;
};

/* A handler's op (req->ctx, freed with the request); NULL (and a 500)
 * when out of memory. */
struct match_play_op *match_play_op_new(struct request *req, enum match_play_op_kind kind);

/* What an op holds besides itself (its row's texts, its state, its event):
 * freed, op itself not. */
void match_play_op_cleanup(struct match_play_op *op);

/* Suspends req and runs op's job on the writer; once it has committed (or
 * failed), its effects happen and cont(req) answers from op. */
void match_play_submit(struct request *req, struct match_play_op *op, request_cont cont);

/* Reads the row of match_id into op (row, rules, st, alive, moved) from a
 * reader: STORE_OK, STORE_NOT_FOUND or STORE_ERROR. */
enum store_result match_play_read(struct store_conn *c, struct match_play_op *op, int64_t match_id);

/* Decodes what op->row holds into op by its ruleset: the state and the
 * moves sent so far; false (logged) when the row names no ruleset of ours
 * or the stored bytes do not read back. */
bool match_play_unpack(struct match_play_op *op);

/* The seat of account_id in row, or -1. */
int match_play_seat_of(const struct store_match_row *row, int64_t account_id);

/* The match as viewer (a seat, or -1 for a spectator) sees it: the row,
 * every seat's board and counters, the last turn's events, written into w
 * (match_view_write), where a refusal's envelope puts it. */
struct jw;
void match_play_view_write(const struct match_play_op *op, int viewer, struct jw *w);
/* The same view as an answer of its own: malloc'd text (caller frees),
 * its length in *len; NULL when out of memory. */
char *match_play_view_text(const struct match_play_op *op, int viewer, size_t *len);
/* A move's answer (match_move_answer_write: the mover's state for op's
 * seat, with full the whole view as "match", and what op's `use T` did),
 * written without a DOM: malloc'd text (caller frees), its length in
 * *len; NULL when out of memory. */
char *match_play_move_answer(const struct match_play_op *op, const char *move, bool resolved,
    bool full, size_t *len);

/* The Server-Sent Event of op's match as it stands (the spectator's view,
 * `id: TURN`, `event: match`), malloc'd, its length in *len; NULL when out
 * of memory. */
char *match_play_event_text(const struct match_play_op *op, size_t *len);

/* The replay of a finished match from its row and stored turns (NULL on
 * failure); what its certificate hashes. */
json_t *match_play_replay_of(struct store_conn *c, const struct match_play_op *op);

#endif
