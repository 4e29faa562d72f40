/*
 * holds.h: what one client may hold of the requests that stay open --
 * long polls (GET /api/matches/{id}/wait) and event streams
 * (GET /api/matches/{id}/events).
 *
 * Such a request is legitimate and cheap while it waits, but it keeps a
 * connection: without a bound of its own, a few addresses holding many
 * of them take every connection and every stream of the daemon. Each
 * kind is counted four ways, and a request past any of them is refused
 * (the caller answers 429 with Retry-After):
 *   - per client: an IPv4 address, or an IPv6 /64 (struct client_key);
 *   - per IPv6 /56 (256 /64s, what one home or cloud customer may hold)
 *     and per /48, at 4 and 16 times the client's bound (netgroup.h);
 *   - per account, when the request carries an agent key.
 * A local peer with no address (the unix socket without X-Forwarded-For)
 * is not counted by address.
 *
 * Workload: one take and one release per held request, under one mutex;
 * a few thousand held at most.
 */
#ifndef SERVER_HOLDS_H
#define SERVER_HOLDS_H

#include <stdbool.h>
#include <stdint.h>

#include "http.h"
#include "netgroup.h"

enum holds_kind { HOLDS_WAIT, HOLDS_STREAM, HOLDS__COUNT };

/* Which bound refused a take. */
enum holds_result {
	HOLDS_OK,
	HOLDS_BY_CLIENT,   /* the address (IPv4) or the /64 */
	HOLDS_BY_NET,      /* the IPv6 /56 */
	HOLDS_BY_NET48,    /* the IPv6 /48 */
	HOLDS_BY_ACCOUNT,
	HOLDS_NO_MEMORY,
};

struct holds;
struct hold;

/* per_client[kind]: held requests of a kind one client may have open
 * (0: no bound); a /56 and a /48 may hold netgroup.h's multiples of that
 * (4 and 16 times), an account as many as a client. NULL when out of memory. */
struct holds *holds_new(const unsigned per_client[HOLDS__COUNT]);
void holds_free(struct holds *h);

/* Takes one slot of kind for client k and account_id (0: none). On
 * HOLDS_OK *out is the slot, to be given back with holds_release (the
 * request's release hook does that when it completes: holds_request). */
enum holds_result holds_take(struct holds *h, enum holds_kind kind, const struct client_key *k,
    int64_t account_id, struct hold **out);

/* Gives a slot back; NULL is fine. */
void holds_release(struct holds *h, struct hold *t);

/* Takes a slot of kind for req (its client, and account_id: 0 for none)
 * and hangs it on the request, which gives it back when it completes.
 * False once answered: 429 rate_limited with Retry-After, the envelope's
 * ratelimit naming the address or the account (or 500 out of memory). */
#define HOLDS_RETRY_S 5
bool holds_request(struct holds *h, struct request *req, enum holds_kind kind, int64_t account_id);

struct holds_stats {
	uint64_t held[HOLDS__COUNT];     /* open now */
	uint64_t refused[HOLDS__COUNT];  /* refused by a bound, since the start */
};
void holds_stats(struct holds *h, struct holds_stats *out);

#endif
