/*
 * connguard.c: per-address connection counts and the request deadline
 * (connguard.h).
 *
 * One mutex guards the list of watched connections and the map of
 * per-address counts; it is taken once when a connection opens and once
 * when it closes, never per request. The watchdog takes it for each scan,
 * which is what makes shutting a socket down safe: libmicrohttpd reports a
 * connection closed before it closes the socket, and that report waits
 * for the same mutex, so a descriptor the watchdog touches is never one
 * that was closed and reused.
 *
 * Workload: connections open at most --connection-limit at once (a few
 * thousand); a scan reads one TCP_INFO per untrusted connection.
 */
#include "connguard.h"

#include <errno.h>
#include <stddef.h>
#include <netinet/in.h>
#include <linux/tcp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "netgroup.h"

#define SCAN_MS 250
#define NBUCKETS 1024

/* An address as counted: IPv4 (mapped IPv6 included) by its 4 bytes, IPv6
 * by its /64, and an IPv6 address's /56 and /48 as well (scope 1 and 2),
 * which may hold netgroup.h's multiples of the per-address bound. */
struct addr_key {
	uint8_t family;
	uint8_t scope;
	uint8_t bytes[16];
};

#define SCOPES 3

struct addr_count {
	struct addr_count *next;
	struct addr_key    key;
	unsigned           open;
};

struct connguard_conn {
	struct connguard_conn *prev, *next;
	struct addr_count     *addr[SCOPES]; /* NULL: not counted (a trusted peer; IPv4's nets) */
	int                    fd;
	bool                   timed;      /* the deadline applies */
	bool                   overflow;   /* over the connection limit: cut at opened_ms + CONNGUARD_OVERFLOW_MS */
	int64_t                opened_ms;
	_Atomic uint32_t       answered;   /* requests answered, bumped by HTTP threads */
	atomic_bool            received;   /* the current request is all in */
	/* The watchdog's own. */
	uint32_t               seen_answered;
	uint64_t               baseline;   /* bytes received when the last answer went out */
	int64_t                started_ms; /* first bytes of the pending request seen, 0: none */
	bool                   cut;
};

struct connguard {
	unsigned               per_address, deadline_ms;
	bool                 (*trusted)(const void *ctx, const struct sockaddr *peer);
	const void            *ctx;
	pthread_mutex_t        mu;
	pthread_cond_t         cv;
	bool                   stopping;
	pthread_t              thread;
	struct connguard_conn  head;       /* list sentinel */
	struct addr_count     *buckets[NBUCKETS];
	_Atomic uint64_t       refused, timed_out, open;
};

static int64_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The keys a peer is counted under: its address (or /64), and for IPv6
 * its /56 and /48; how many (0: not an address). */
static int
keys_of(const struct sockaddr *sa, struct addr_key k[SCOPES])
{
	static const uint8_t mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

	memset(k, 0, SCOPES * sizeof *k);
	if (sa->sa_family == AF_INET) {
		k[0].family = 4;
		memcpy(k[0].bytes, &((const struct sockaddr_in *)(const void *)sa)->sin_addr, 4);
		return 1;
	}
	if (sa->sa_family == AF_INET6) {
		const uint8_t *a = (const uint8_t *)&((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr;

		if (memcmp(a, mapped, sizeof mapped) == 0) {
			k[0].family = 4;
			memcpy(k[0].bytes, a + 12, 4);
			return 1;
		}
		k[0].family = k[1].family = k[2].family = 6;
		k[1].scope = 1;
		k[2].scope = 2;
		memcpy(k[0].bytes, a, 8); /* the /64 */
		memcpy(k[1].bytes, a, NET56_BYTES);
		memcpy(k[2].bytes, a, NET48_BYTES);
		return SCOPES;
	}
	return 0;
}

/* What a key of scope may hold. */
static unsigned
bound(const struct connguard *g, int scope)
{
	return g->per_address * (scope == 0 ? 1 : scope == 1 ? NET56_FACTOR : NET48_FACTOR);
}

static size_t
bucket(const struct addr_key *k)
{
	uint64_t h = 1469598103934665603u;
	size_t i;

	h = (h ^ k->family) * 1099511628211u;
	h = (h ^ k->scope) * 1099511628211u;
	for (i = 0; i < sizeof k->bytes; i++)
		h = (h ^ k->bytes[i]) * 1099511628211u;
	return (size_t)(h % NBUCKETS);
}

/* The count of k, created when missing (create) ; mu held. */
static struct addr_count *
find(struct connguard *g, const struct addr_key *k, bool create)
{
	struct addr_count **slot = &g->buckets[bucket(k)], *a;

	for (a = *slot; a != NULL; a = a->next)
		if (memcmp(&a->key, k, sizeof *k) == 0)
			return a;
	if (!create || (a = calloc(1, sizeof *a)) == NULL)
		return NULL;
	a->key = *k;
	a->next = *slot;
	*slot = a;
	return a;
}

static void
release(struct connguard *g, struct addr_count *a)
{
	struct addr_count **slot;

	if (--a->open > 0)
		return;
	for (slot = &g->buckets[bucket(&a->key)]; *slot != a; slot = &(*slot)->next)
		;
	*slot = a->next;
	free(a);
}

bool
connguard_admit(struct connguard *g, const struct sockaddr *peer)
{
	struct addr_key k[SCOPES];
	struct addr_count *a;
	bool ok = true;
	int n, i;

	if (g->per_address == 0 || g->trusted(g->ctx, peer) || (n = keys_of(peer, k)) == 0)
		return true;
	pthread_mutex_lock(&g->mu);
	for (i = 0; i < n && ok; i++)
		if ((a = find(g, &k[i], false)) != NULL && a->open >= bound(g, i))
			ok = false;
	pthread_mutex_unlock(&g->mu);
	if (!ok)
		atomic_fetch_add_explicit(&g->refused, 1, memory_order_relaxed);
	return ok;
}

struct connguard_conn *
connguard_opened(struct connguard *g, const struct sockaddr *peer, int fd, bool overflow)
{
	struct connguard_conn *c;
	struct addr_key k[SCOPES];
	int n = peer != NULL && !g->trusted(g->ctx, peer) ? keys_of(peer, k) : 0, i;
	bool counted = n > 0;

	if (!counted && !overflow)
		return NULL;
	if ((c = calloc(1, sizeof *c)) == NULL)
		return NULL;
	c->fd = fd;
	c->timed = counted && g->deadline_ms > 0;
	c->overflow = overflow;
	c->opened_ms = now_ms();
	pthread_mutex_lock(&g->mu);
	for (i = 0; i < n && g->per_address > 0; i++)
		if ((c->addr[i] = find(g, &k[i], true)) != NULL)
			c->addr[i]->open++;
	c->next = g->head.next;
	c->prev = &g->head;
	g->head.next->prev = c;
	g->head.next = c;
	pthread_mutex_unlock(&g->mu);
	atomic_fetch_add_explicit(&g->open, 1, memory_order_relaxed);
	return c;
}

void
connguard_closed(struct connguard *g, struct connguard_conn *c)
{
	if (c == NULL)
		return;
	pthread_mutex_lock(&g->mu);
	c->prev->next = c->next;
	c->next->prev = c->prev;
	for (int i = 0; i < SCOPES; i++)
		if (c->addr[i] != NULL)
			release(g, c->addr[i]);
	pthread_mutex_unlock(&g->mu);
	atomic_fetch_sub_explicit(&g->open, 1, memory_order_relaxed);
	free(c);
}

bool
connguard_overflow(const struct connguard_conn *c)
{
	return c != NULL && c->overflow;
}

void
connguard_received(struct connguard_conn *c)
{
	if (c != NULL)
		atomic_store_explicit(&c->received, true, memory_order_relaxed);
}

void
connguard_answered(struct connguard_conn *c)
{
	if (c == NULL)
		return;
	atomic_store_explicit(&c->received, false, memory_order_relaxed);
	atomic_fetch_add_explicit(&c->answered, 1, memory_order_release);
}

/* Bytes received on the socket so far; false when the kernel cannot say
 * (then the connection is not timed). */
static bool
bytes_received(int fd, uint64_t *out)
{
	struct tcp_info ti;
	socklen_t len = sizeof ti;

	memset(&ti, 0, sizeof ti);
	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len) != 0 ||
	    len < offsetof(struct tcp_info, tcpi_bytes_received) + sizeof ti.tcpi_bytes_received)
		return false;
	*out = ti.tcpi_bytes_received;
	return true;
}

static void
scan(struct connguard *g, int64_t now)
{
	struct connguard_conn *c;

	for (c = g->head.next; c != &g->head; c = c->next) {
		uint32_t answered = atomic_load_explicit(&c->answered, memory_order_acquire);
		uint64_t bytes;

		if (c->cut)
			continue;
		if (c->overflow && now - c->opened_ms > CONNGUARD_OVERFLOW_MS) {
			shutdown(c->fd, SHUT_RDWR);
			c->cut = true;
			continue;
		}
		if (!c->timed)
			continue;
		if (!bytes_received(c->fd, &bytes)) {
			c->timed = false;
			continue;
		}
		if (answered != c->seen_answered) {
			c->seen_answered = answered;
			c->baseline = bytes;
			c->started_ms = 0;
			continue;
		}
		if (atomic_load_explicit(&c->received, memory_order_relaxed)) {
			c->started_ms = 0; /* in the handler's hands: no deadline */
			continue;
		}
		if (bytes > c->baseline && c->started_ms == 0)
			c->started_ms = now;
		if (c->started_ms != 0 && now - c->started_ms > (int64_t)g->deadline_ms) {
			/* libmicrohttpd reads the end of the stream and closes. */
			shutdown(c->fd, SHUT_RDWR);
			c->cut = true;
			atomic_fetch_add_explicit(&g->timed_out, 1, memory_order_relaxed);
		}
	}
}

static void *
watchdog(void *arg)
{
	struct connguard *g = arg;

	pthread_mutex_lock(&g->mu);
	while (!g->stopping) {
		struct timespec until;

		scan(g, now_ms());
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += SCAN_MS * 1000000L;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&g->cv, &g->mu, &until);
	}
	pthread_mutex_unlock(&g->mu);
	return NULL;
}

struct connguard *
connguard_new(unsigned per_address, unsigned deadline_s,
    bool (*trusted)(const void *ctx, const struct sockaddr *peer), const void *ctx)
{
	struct connguard *g = calloc(1, sizeof *g);

	if (g == NULL)
		return NULL;
	g->per_address = per_address;
	g->deadline_ms = deadline_s * 1000u;
	g->trusted = trusted;
	g->ctx = ctx;
	g->head.next = g->head.prev = &g->head;
	pthread_mutex_init(&g->mu, NULL);
	pthread_cond_init(&g->cv, NULL);
	if (deadline_s > 0 && pthread_create(&g->thread, NULL, watchdog, g) != 0) {
		pthread_cond_destroy(&g->cv);
		pthread_mutex_destroy(&g->mu);
		free(g);
		return NULL;
	}
	return g;
}

void
connguard_free(struct connguard *g)
{
	size_t i;

	if (g == NULL)
		return;
	if (g->deadline_ms > 0) {
		pthread_mutex_lock(&g->mu);
		g->stopping = true;
		pthread_cond_signal(&g->cv);
		pthread_mutex_unlock(&g->mu);
		pthread_join(g->thread, NULL);
	}
	/* Connections still listed belong to a stopped daemon. */
	while (g->head.next != &g->head) {
		struct connguard_conn *c = g->head.next;

		g->head.next = c->next;
		free(c);
	}
	for (i = 0; i < NBUCKETS; i++)
		while (g->buckets[i] != NULL) {
			struct addr_count *a = g->buckets[i];

			g->buckets[i] = a->next;
			free(a);
		}
	pthread_cond_destroy(&g->cv);
	pthread_mutex_destroy(&g->mu);
	free(g);
}

void
connguard_stats(struct connguard *g, struct connguard_stats *out)
{
	out->refused = atomic_load_explicit(&g->refused, memory_order_relaxed);
	out->timed_out = atomic_load_explicit(&g->timed_out, memory_order_relaxed);
	out->open = atomic_load_explicit(&g->open, memory_order_relaxed);
}
