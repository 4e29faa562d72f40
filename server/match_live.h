/*
 * match_live.h: the tick host, which plays every real-time match (a
 * ruleset's tick clock, match_rules.h's struct match_ticks) of this
 * daemon. It names no game: what a tick does is the ruleset's.
 *
 * One thread wakes every 1/rate s on the monotonic clock and runs each
 * live match up to the tick its start time makes due (a late wake runs
 * the ticks it missed at once), handing each tick the inputs that arrived
 * since the last one, in arrival order; each input is recorded with the
 * tick it was applied at. The match's state lives here, in memory, from
 * its start to its end; its row keeps the state at the start and at the
 * end, and match_inputs every input recorded.
 *
 * Durability: an input is acknowledged once the store has committed it.
 * After every tick that recorded inputs, the host hands the store's
 * writer one job with the inputs not yet stored (one such job a match at
 * a time); a key request waits, suspended, until the inputs it sent are
 * committed, and is answered with the tick they were applied at. A failed
 * commit answers the requests waiting on it with the outage (503, never
 * 200) and the next tick's job tries those inputs again: they were
 * applied, and the match goes on. After a restart, a match left playing
 * is played again from its seed and stored inputs and goes on from the
 * tick after its last stored input; what was never stored was never
 * acknowledged.
 *
 * Streams: a frame (match_ticks.h) for every tick that changed what a
 * view shows, and one a second besides, to every stream of the match,
 * each viewer (a seat, or a spectator) its own. A seat with no stream
 * open for grace ticks (2 s) is sent the ruleset's disconnect input. Once
 * the engine says the match is over, its result stays for result_ticks
 * (4 s) before the match is stored as finished.
 *
 * Every call is thread-safe (one mutex); a suspended request is resumed
 * exactly once.
 */
#ifndef SERVER_MATCH_LIVE_H
#define SERVER_MATCH_LIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "http.h"
#include "match_rules.h" /* api/: the ruleset's descriptor */
#include "store.h"

struct app;
struct match_live;

#define MATCH_LIVE_KEYS_MAX 32        /* inputs one request may send */
#define MATCH_LIVE_TICK_INPUTS 64     /* inputs one seat may have waiting for one tick */
#define MATCH_LIVE_STREAMS 16         /* streams open on one match at once */
#define MATCH_LIVE_GRACE_S 2          /* a seat without a stream this long is disconnected */
#define MATCH_LIVE_RESULT_S 4         /* the result shown before the match is finished */
#define MATCH_LIVE_CATCH_UP 30        /* ticks one wake runs at most for one match */

/* A live match at its end: what match_play stores (the end's job). */
struct match_live_end {
	int64_t                   id;
	const struct match_rules *mr;
	void                     *st;        /* the state at the end (borrowed) */
	uint8_t                   totals[MATCH_TOTALS_SIZE];
	const struct match_input *inputs;    /* every input of the match (borrowed) */
	size_t                    ninputs;
	size_t                    committed; /* inputs[0..committed) are stored already */
};

/* The end's store job is match_play's: finish(ctx, end) submits it (false
 * when it cannot: tried again in a second), and its done callback calls
 * match_live_finished. Called with the host's mutex held: it must not
 * call back into the host. */
typedef bool (*match_live_finish)(void *ctx, const struct match_live_end *end);

/* Starts the host and its thread. NULL when out of memory. */
struct match_live *match_live_new(struct app *app, match_live_finish finish, void *ctx);

/* Stops the thread: no tick runs any more, every stream ends, and every
 * request waiting is answered (503). Idempotent. */
void match_live_quiesce(struct match_live *h);

/* After http_stop. NULL is fine. */
void match_live_free(struct match_live *h);

/* A match that has just started (its start committed), or one the
 * daemon resumes: its ruleset, its row (id, players, seats, turn cap,
 * copied) and its state at tick 0 (copied), played through inputs[0..n)
 * (already stored; NULL and 0 for a new match) up to the tick after the
 * last of them. False when out of memory. */
bool match_live_add(struct match_live *h, const struct match_rules *mr,
    const struct store_match_row *row, const void *st, const struct store_match_input *inputs,
    size_t n);

/* After the end's job: committed, the match leaves the host (its streams
 * get a last frame, the requests waiting are answered); failed, the end
 * is tried again in a second. */
void match_live_finished(struct match_live *h, int64_t id, bool committed, const char *last_frame,
    size_t len);

/* Whether match id is live here. */
bool match_live_has(struct match_live *h, int64_t id);

enum match_live_keys {
	MATCH_LIVE_QUEUED,      /* req is suspended: cont answers once they are stored */
	MATCH_LIVE_NOT_LIVE,    /* the match is not played here (nothing done) */
	MATCH_LIVE_NOT_A_PLAYER,
	MATCH_LIVE_OUT,         /* the seat is out of the match */
	MATCH_LIVE_OVER,        /* the match is over: its result is shown */
	MATCH_LIVE_TOO_MANY,    /* the seat has MATCH_LIVE_TICK_INPUTS waiting for the next tick */
	MATCH_LIVE_BAD_KEYS,    /* not keys of the ruleset: reason says why */
	MATCH_LIVE_SHUTTING_DOWN,
};

/* What a key request was given, for its answer (the request's context). */
struct match_live_ack {
	int      seat;
	uint32_t tick;     /* the tick the keys were applied at */
	size_t   nkeys;
	char     reason[ENGINE_REASON_MAX];
};

/* The keys text[0..len) of account_id in match id: read by the match's
 * ruleset, queued for the next tick, and req suspended until they are
 * stored (cont then answers, req->resumed_status STORE_JOB_COMMITTED or
 * the failure) with ack filled. Anything else is answered by the caller. */
enum match_live_keys match_live_keys(struct match_live *h, int64_t id, int64_t account_id,
    const char *text, size_t len, struct request *req, request_cont cont,
    struct match_live_ack *ack);

enum match_live_stream {
	MATCH_LIVE_STREAMING,   /* the stream is the hub's */
	MATCH_LIVE_NOT_HERE,    /* not live: the caller answers from the store */
	MATCH_LIVE_FULL,        /* MATCH_LIVE_STREAMS open on the match, or every stream */
	MATCH_LIVE_FAILED,
};

/* Opens req's stream of match id for viewer (a seat, or -1): its first
 * frame now, then one for every tick that changes a view. */
enum match_live_stream match_live_stream(struct match_live *h, int64_t id, int viewer,
    struct request *req);

/* A stream of a match not live (yet): in its lobby, it waits for the
 * start and then gets the frames; finished, first is all it gets (last
 * set). first (len bytes) is copied. */
enum match_live_stream match_live_stream_waiting(struct match_live *h, int64_t id, int viewer,
    struct request *req, const char *first, size_t len, bool last);

/* The live state of match id into st (state_size bytes) and its totals'
 * bytes; false when it is not live here. */
bool match_live_snapshot(struct match_live *h, int64_t id, void *st, size_t cap,
    uint8_t totals[MATCH_TOTALS_SIZE]);

struct match_live_stats {
	unsigned matches;        /* live now */
	uint64_t ticks;          /* ticks run */
	uint64_t late_ticks;     /* of those, run a whole tick or more after their time */
	uint64_t lateness_us[12]; /* ticks by lateness: < 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100,
	                             200 ms, and more */
	uint64_t inputs, disconnects, flushes, flush_failures;
};
void match_live_stats(struct match_live *h, struct match_live_stats *out);

#endif
