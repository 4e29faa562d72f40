/*
 * match_clock.c: the timers of match_clock.h.
 *
 * A binary min-heap on the due time holds the timers; an open-addressed
 * table (linear probing, deletion by backward shift, so no tombstones)
 * maps a timer's name to its heap slot, so that setting, moving and
 * cancelling a named timer are O(log n). Both grow by doubling and never
 * shrink. One mutex guards them; the thread sleeps on a condition
 * variable until the earliest due time or a change at the top of the heap.
 *
 * Workload: one set per resolved turn (the next deadline), one set and one
 * cancel per long poll, one heartbeat every few seconds: a few thousand
 * operations a second under load, each a handful of swaps.
 */
#include "match_clock.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#define KEY_BITS 60
#define NO_SLOT SIZE_MAX

struct timer {
	int64_t  when;  /* ms */
	uint64_t name;  /* kind << KEY_BITS | key */
	int64_t  arg;
};

struct slot {
	uint64_t name;
	size_t   at;    /* heap index, NO_SLOT for an empty slot */
};

struct match_clock {
	pthread_mutex_t  mu;
	pthread_cond_t   cv;
	pthread_t        thread;
	bool             started, stopping;
	match_clock_fire fire;
	void            *ctx;
	struct timer    *heap;
	size_t           n, cap;
	struct slot     *table;   /* 2 * cap slots, a power of two */
	size_t           tcap;
};

static uint64_t
name_of(unsigned kind, uint64_t key)
{
	return (uint64_t)(kind & 15u) << KEY_BITS | (key & ((UINT64_C(1) << KEY_BITS) - 1));
}

static size_t
hash(uint64_t name, size_t tcap)
{
	/* Fibonacci hashing: ids are random already, kinds are not. */
	return (size_t)((name * UINT64_C(11400714819323198485)) >> 20) & (tcap - 1);
}

static size_t
find(const struct match_clock *k, uint64_t name)
{
	size_t i;

	for (i = hash(name, k->tcap); k->table[i].at != NO_SLOT; i = (i + 1) & (k->tcap - 1))
		if (k->table[i].name == name)
			return i;
	return NO_SLOT;
}

static void
table_put(struct match_clock *k, uint64_t name, size_t at)
{
	size_t i = hash(name, k->tcap);

	while (k->table[i].at != NO_SLOT && k->table[i].name != name)
		i = (i + 1) & (k->tcap - 1);
	k->table[i].name = name;
	k->table[i].at = at;
}

/* Removes slot i, shifting back the entries of its probe run. */
static void
table_del(struct match_clock *k, size_t i)
{
	size_t j = i, home;

	k->table[i].at = NO_SLOT;
	for (;;) {
		j = (j + 1) & (k->tcap - 1);
		if (k->table[j].at == NO_SLOT)
			return;
		home = hash(k->table[j].name, k->tcap);
		/* Entry j may fill the hole at i unless its home lies
		 * cyclically in (i, j]. */
		if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j)) {
			k->table[i] = k->table[j];
			k->table[j].at = NO_SLOT;
			i = j;
		}
	}
}

static void
heap_set(struct match_clock *k, size_t at, struct timer t)
{
	k->heap[at] = t;
	table_put(k, t.name, at);
}

static void
sift_up(struct match_clock *k, size_t at)
{
	struct timer t = k->heap[at];

	while (at > 0 && k->heap[(at - 1) / 2].when > t.when) {
		heap_set(k, at, k->heap[(at - 1) / 2]);
		at = (at - 1) / 2;
	}
	heap_set(k, at, t);
}

static void
sift_down(struct match_clock *k, size_t at)
{
	struct timer t = k->heap[at];
	size_t child;

	for (;;) {
		child = 2 * at + 1;
		if (child >= k->n)
			break;
		if (child + 1 < k->n && k->heap[child + 1].when < k->heap[child].when)
			child++;
		if (k->heap[child].when >= t.when)
			break;
		heap_set(k, at, k->heap[child]);
		at = child;
	}
	heap_set(k, at, t);
}

/* Removes the heap entry at `at` (its table slot is ts). */
static void
remove_at(struct match_clock *k, size_t at, size_t ts)
{
	uint64_t moved;

	table_del(k, ts);
	k->n--;
	if (at == k->n)
		return;
	/* The last timer fills the hole, then finds its level either way. */
	heap_set(k, at, k->heap[k->n]);
	moved = k->heap[at].name;
	sift_down(k, at);
	sift_up(k, k->table[find(k, moved)].at);
}

static bool
grow(struct match_clock *k)
{
	size_t cap = k->cap ? 2 * k->cap : 64, tcap = 2 * cap, i;
	struct timer *heap = realloc(k->heap, cap * sizeof *heap);
	struct slot *table;

	if (heap == NULL)
		return false;
	k->heap = heap;
	if ((table = malloc(tcap * sizeof *table)) == NULL)
		return false;
	for (i = 0; i < tcap; i++)
		table[i].at = NO_SLOT;
	free(k->table);
	k->table = table;
	k->tcap = tcap;
	k->cap = cap;
	for (i = 0; i < k->n; i++)
		table_put(k, k->heap[i].name, i);
	return true;
}

static int64_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void *
clock_main(void *arg)
{
	struct match_clock *k = arg;

	pthread_mutex_lock(&k->mu);
	while (!k->stopping) {
		int64_t now = now_ms();

		if (k->n == 0) {
			pthread_cond_wait(&k->cv, &k->mu);
		} else if (k->heap[0].when > now) {
			struct timespec until = {
				.tv_sec = (time_t)(k->heap[0].when / 1000),
				.tv_nsec = (long)(k->heap[0].when % 1000) * 1000000,
			};

			pthread_cond_timedwait(&k->cv, &k->mu, &until);
		} else {
			struct timer t = k->heap[0];

			remove_at(k, 0, find(k, t.name));
			pthread_mutex_unlock(&k->mu);
			k->fire(k->ctx, (unsigned)(t.name >> KEY_BITS), t.name & ((UINT64_C(1) << KEY_BITS) - 1),
			    t.arg);
			pthread_mutex_lock(&k->mu);
		}
	}
	pthread_mutex_unlock(&k->mu);
	return NULL;
}

struct match_clock *
match_clock_new(match_clock_fire fire, void *ctx)
{
	struct match_clock *k = calloc(1, sizeof *k);

	if (k == NULL)
		return NULL;
	pthread_mutex_init(&k->mu, NULL);
	pthread_cond_init(&k->cv, NULL);
	k->fire = fire;
	k->ctx = ctx;
	if (!grow(k) || pthread_create(&k->thread, NULL, clock_main, k) != 0) {
		match_clock_free(k);
		return NULL;
	}
	k->started = true;
	return k;
}

void
match_clock_set(struct match_clock *k, unsigned kind, uint64_t key, int64_t when_ms, int64_t arg)
{
	struct timer t = { when_ms, name_of(kind, key), arg };
	size_t ts, at;

	pthread_mutex_lock(&k->mu);
	if (k->stopping)
		goto done;
	ts = find(k, t.name);
	if (ts != NO_SLOT) {
		at = k->table[ts].at;
		k->heap[at] = t;
		sift_up(k, at);
		sift_down(k, k->table[find(k, t.name)].at);
	} else {
		if (k->n == k->cap && !grow(k))
			goto done; /* out of memory: the timer is lost, logged by nobody */
		k->heap[k->n] = t;
		at = k->n++;
		table_put(k, t.name, at);
		sift_up(k, at);
	}
	/* Wake the thread when the earliest time may have changed. */
	if (k->heap[0].name == t.name)
		pthread_cond_signal(&k->cv);
done:
	pthread_mutex_unlock(&k->mu);
}

bool
match_clock_cancel(struct match_clock *k, unsigned kind, uint64_t key)
{
	size_t ts;
	bool found = false;

	pthread_mutex_lock(&k->mu);
	ts = find(k, name_of(kind, key));
	if (ts != NO_SLOT) {
		remove_at(k, k->table[ts].at, ts);
		found = true;
	}
	pthread_mutex_unlock(&k->mu);
	return found;
}

unsigned
match_clock_pending(struct match_clock *k)
{
	unsigned n;

	pthread_mutex_lock(&k->mu);
	n = (unsigned)k->n;
	pthread_mutex_unlock(&k->mu);
	return n;
}

void
match_clock_stop(struct match_clock *k)
{
	bool join;

	if (k == NULL)
		return;
	pthread_mutex_lock(&k->mu);
	join = k->started && !k->stopping;
	k->stopping = true;
	pthread_cond_broadcast(&k->cv);
	pthread_mutex_unlock(&k->mu);
	if (join)
		pthread_join(k->thread, NULL);
}

void
match_clock_free(struct match_clock *k)
{
	if (k == NULL)
		return;
	match_clock_stop(k);
	free(k->heap);
	free(k->table);
	pthread_cond_destroy(&k->cv);
	pthread_mutex_destroy(&k->mu);
	free(k);
}
