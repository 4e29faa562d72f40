/*
 * match_hub.h: who is waiting for a match to move. Two kinds of listener,
 * neither holding a thread while it waits:
 *   - long polls (GET .../wait): the request is suspended as a waiter of
 *     its match; the next event of the match resumes it, and so does its
 *     timeout (the caller's timer calls match_hub_wake);
 *   - event streams (GET .../events, Server-Sent Events): a streamed answer
 *     whose connection sleeps while its buffer is empty; each event of the
 *     match is appended to every stream of it and wakes the connection.
 * Streams are bounded twice: at most max_streams open at once (the next is
 * refused), and at most max_bytes waiting in one stream's buffer: a stream
 * whose reader cannot keep up gets a last `closed` event and is ended.
 *
 * One mutex guards everything; a resume or a wake is called under it, so
 * that a connection is never woken before it has gone to sleep. Events
 * come from the store's writer after a commit: match_hub_notify must stay
 * cheap (it copies text and wakes connections).
 */
#ifndef SERVER_MATCH_HUB_H
#define SERVER_MATCH_HUB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "http.h"

struct match_hub;

struct match_hub *match_hub_new(unsigned max_streams, size_t max_bytes);

/* Frees the hub; every stream must have ended (after http_stop). NULL is
 * fine. */
void match_hub_free(struct match_hub *h);

/* Suspends req as a waiter of match_id; cont(req) answers once it is
 * resumed. Returns the waiter's ticket (never 0), or 0 when the hub is
 * closed (req untouched: answer it at once). */
uint64_t match_hub_wait(struct match_hub *h, struct request *req, int64_t match_id,
    request_cont cont);

/* Resumes waiter ticket of match_id if it is still waiting: true when this
 * call resumed it, false when an event (or another wake) already did. */
bool match_hub_wake(struct match_hub *h, int64_t match_id, uint64_t ticket);

enum match_hub_stream {
	MATCH_HUB_STREAMING, /* the answer is queued; the hub owns the stream */
	MATCH_HUB_FULL,      /* max_streams are open: nothing queued */
	MATCH_HUB_CLOSED,    /* shutting down: nothing queued */
	MATCH_HUB_FAILED,    /* out of memory: nothing queued */
};

/* Answers req with a text/event-stream whose first bytes are first (len
 * bytes, copied), and registers it with match_id; with last set the stream
 * ends after them (a match already over). */
enum match_hub_stream match_hub_stream(struct match_hub *h, struct request *req,
    int64_t match_id, const char *first, size_t len, bool last);

/* Whether match_id has a stream open (so that an event's text is worth
 * building). */
bool match_hub_has_streams(struct match_hub *h, int64_t match_id);

/* How many streams match_id has open (ending ones included). */
unsigned match_hub_streams(struct match_hub *h, int64_t match_id);

/* An event of match_id: every waiter of it is resumed; text (len bytes,
 * copied; may be NULL) is appended to every stream of it; with last set,
 * those streams end once it is sent. */
void match_hub_notify(struct match_hub *h, int64_t match_id, const char *text, size_t len,
    bool last);

/* A comment line to every stream, so that proxies keep them and dead
 * clients are found. */
void match_hub_heartbeat(struct match_hub *h);

/* The status a waiter is resumed with (request->resumed_status) when its
 * client has gone: answer at once, the answer goes nowhere. */
#define MATCH_HUB_GONE 2

/* Looks at every held connection's socket (http_conn_gone): a waiter
 * whose client left is resumed with MATCH_HUB_GONE, a stream whose client
 * left ends, so that their slots (and the client's budget, holds.h) are
 * free again at once rather than at the next heartbeat or timeout. Called
 * every few hundred milliseconds. */
void match_hub_probe(struct match_hub *h);

/* Up to cap ids of matches with a stream open, into ids; their count. */
size_t match_hub_streamed(struct match_hub *h, int64_t *ids, size_t cap);

/* Ends every stream of match_id with a last `closed` event (a match that
 * is over or no longer stored: swept from the lobby). */
void match_hub_end(struct match_hub *h, int64_t match_id);

/* Shutting down: resumes every waiter, ends every stream, and refuses new
 * ones from now on. */
void match_hub_close(struct match_hub *h);

struct match_hub_stats {
	unsigned waiters, streams;
	uint64_t streams_refused;  /* refused for max_streams */
	uint64_t streams_dropped;  /* ended because their reader fell behind */
	uint64_t gone;             /* long polls and streams let go: their client had left */
};
void match_hub_stats(struct match_hub *h, struct match_hub_stats *out);

#endif
