/*
 * tarpit.h: refusals answered late, to a client that is over its rate
 * limit and sends bodies.
 *
 * A request refused at its headers (a rate limit) while it declares a
 * body is answered without reading that body, and libmicrohttpd then
 * closes its connection. Answered at once, such a client can open, send,
 * be refused and reconnect tens of thousands of times a second from one
 * address, each round a TCP handshake and teardown the daemon pays for
 * (a full core for 32 connections of 62 KB messages: RESULTS.md, "One
 * address flooding /mcp"). Held for hold_ms first, its connection
 * suspended and costing nothing, it makes at most one round a
 * connection in that time, and --connections-per-address bounds its
 * connections. A client that honours Retry-After (a second or more)
 * loses nothing.
 *
 * The answer is queued before the hold: when the hold ends the
 * connection only resumes, sends it and closes. At most cap connections
 * are held at once; past that the caller answers at once.
 *
 * Workload: one push and one pop under a mutex a held refusal; one
 * thread asleep until the oldest hold ends.
 */
#ifndef SERVER_TARPIT_H
#define SERVER_TARPIT_H

#include <stdbool.h>
#include <stdint.h>

#include <microhttpd.h>

struct tarpit;

/* NULL when out of memory or its thread cannot start. */
struct tarpit *tarpit_new(unsigned cap, unsigned hold_ms);

/* Lets every held connection go at once and stops the thread; NULL is
 * fine. Before libmicrohttpd stops (it must find no connection suspended). */
void tarpit_free(struct tarpit *t);

/* Called from libmicrohttpd's handler of conn, its answer queued: suspends
 * conn and resumes it hold_ms later. False when cap are held already
 * (nothing done: the answer goes at once). */
bool tarpit_hold(struct tarpit *t, struct MHD_Connection *conn);

/* Connections held since the start (for /metrics). */
uint64_t tarpit_held(struct tarpit *t);

#endif
