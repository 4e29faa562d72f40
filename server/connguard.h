/*
 * connguard.h: what one client may hold of the daemon's connections.
 *
 * Two rules, for peers that are not a trusted proxy (a proxy on the unix
 * socket or in a --trusted-proxy range speaks for many clients and keeps
 * its own limits):
 *   - at most per_address connections open from one address (an IPv6
 *     client counts by its /64, so hopping inside it does not help), and
 *     4 and 16 times that from one IPv6 /56 and /48 (netgroup.h);
 *   - a request must arrive whole, headers and body, within a deadline
 *     counted from its first byte, however slowly the bytes trickle in.
 *     libmicrohttpd's idle timeout restarts on every byte; this does not.
 *
 * The deadline needs no hook inside libmicrohttpd: a watchdog thread reads
 * each connection's TCP_INFO byte count every quarter second. When bytes
 * arrived since the connection's last answer, a request has begun; if it
 * is not fully received by the deadline, the watchdog shuts the socket
 * down and libmicrohttpd closes the connection as the client's doing.
 * The HTTP threads only bump two atomics per request.
 *
 * A connection opened while the daemon already holds --connection-limit
 * is an overflow one (libmicrohttpd is given some headroom above the
 * limit, so that such a client is answered rather than left in the
 * backlog): the HTTP layer answers its request 503 and closes it
 * (/healthz, /readyz and /metrics excepted), and the watchdog cuts it
 * CONNGUARD_OVERFLOW_MS after it opened whatever it sent, so the
 * headroom frees itself.
 */
#ifndef SERVER_CONNGUARD_H
#define SERVER_CONNGUARD_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

struct connguard;
struct connguard_conn;

/* Counters for /metrics. */
struct connguard_stats {
	uint64_t refused;    /* connections refused: their address had its quota */
	uint64_t timed_out;  /* connections cut: a request missed its deadline */
	uint64_t open;       /* connections being watched now */
};

/* per_address 0: no per-address limit; deadline_s 0: no deadline.
 * trusted(peer) says whether a peer is a proxy (exempt). NULL when out of
 * memory or the watchdog cannot start. */
struct connguard *connguard_new(unsigned per_address, unsigned deadline_s,
    bool (*trusted)(const void *ctx, const struct sockaddr *peer), const void *ctx);
void connguard_free(struct connguard *g);

/* Whether a new connection from peer may open (libmicrohttpd's accept
 * policy). Racing accepts may pass a quota by a few; never by more than the
 * number of HTTP threads. */
bool connguard_admit(struct connguard *g, const struct sockaddr *peer);

#define CONNGUARD_OVERFLOW_MS 2000

/* A connection opened (fd: its socket; overflow: over --connection-limit)
 * or closed. opened returns the connection's handle, NULL for one not
 * watched (a trusted peer's, unless it overflows). */
struct connguard_conn *connguard_opened(struct connguard *g, const struct sockaddr *peer, int fd,
    bool overflow);

/* Whether c is an overflow connection (NULL: no). */
bool connguard_overflow(const struct connguard_conn *c);
void connguard_closed(struct connguard *g, struct connguard_conn *c);

/* The HTTP layer's marks: the request's body is all in (the deadline no
 * longer runs), and its answer is done (the next bytes start a new
 * request). c may be NULL. */
void connguard_received(struct connguard_conn *c);
void connguard_answered(struct connguard_conn *c);

void connguard_stats(struct connguard *g, struct connguard_stats *out);

#endif
