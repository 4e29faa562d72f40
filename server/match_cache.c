/*
 * match_cache.c: see match_cache.h. The entries and their decoded states
 * are allocated once, at the size the cache was made for: its size stays
 * fixed whatever it is given.
 */
#include "match_cache.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct entry {
	int64_t             id;     /* 0: empty */
	bool                has_state;
	size_t              n;
	uint8_t             state[STORE_MATCH_STATE_MAX];
	unsigned char      *m;      /* the decoded state: the cache's state_size bytes */
	size_t              msize;  /* of which the state kept is this many */
	int                 nseats; /* -1: no seats kept */
	struct store_match_seat seats[STORE_MATCH_SEATS];
};

/* e for id: as it is when it holds id, else emptied for it. */
static void
claim(struct entry *e, int64_t id)
{
	if (e->id == id)
		return;
	e->id = id;
	e->has_state = false;
	e->n = 0;
	e->nseats = -1;
}

struct match_cache {
	pthread_mutex_t mu;
	uint64_t        hits, misses;
	size_t          state_size;
	unsigned char  *states;     /* MATCH_CACHE_ENTRIES * state_size bytes */
	struct entry    e[MATCH_CACHE_ENTRIES];
};

/* Takes mc's lock and returns the entry id hashes to. */
static struct entry *
locked_slot(struct match_cache *mc, int64_t id)
{
	uint64_t h = (uint64_t)id * 0x9e3779b97f4a7c15u;

	pthread_mutex_lock(&mc->mu);
	return &mc->e[(h >> 32) % MATCH_CACHE_ENTRIES];
}

struct match_cache *
match_cache_new(size_t state_size)
{
	struct match_cache *mc = calloc(1, sizeof *mc);
	size_t i;

	if (mc == NULL)
		return NULL;
	mc->state_size = state_size;
	if ((mc->states = calloc(MATCH_CACHE_ENTRIES, state_size > 0 ? state_size : 1)) == NULL ||
	    pthread_mutex_init(&mc->mu, NULL) != 0) {
		free(mc->states);
		free(mc);
		return NULL;
	}
	for (i = 0; i < MATCH_CACHE_ENTRIES; i++)
		mc->e[i].m = mc->states + i * state_size;
	return mc;
}

void
match_cache_free(struct match_cache *mc)
{
	if (mc == NULL)
		return;
	pthread_mutex_destroy(&mc->mu);
	free(mc->states);
	free(mc);
}

bool
match_cache_get(struct match_cache *mc, int64_t id, const uint8_t *state, size_t n,
    void *out, size_t size)
{
	struct entry *e;
	bool hit;

	if (mc == NULL || id == 0)
		return false;
	e = locked_slot(mc, id);
	hit = e->id == id && e->has_state && e->msize == size && e->n == n &&
	    memcmp(e->state, state, n) == 0;
	if (hit) {
		memcpy(out, e->m, size);
		mc->hits++;
	} else
		mc->misses++;
	pthread_mutex_unlock(&mc->mu);
	return hit;
}

void
match_cache_put(struct match_cache *mc, int64_t id, const uint8_t *state, size_t n,
    const void *st, size_t size)
{
	struct entry *e;

	if (mc == NULL || id == 0 || n > STORE_MATCH_STATE_MAX || size > mc->state_size)
		return;
	e = locked_slot(mc, id);
	claim(e, id);
	e->has_state = true;
	e->n = n;
	memcpy(e->state, state, n);
	memcpy(e->m, st, size);
	e->msize = size;
	pthread_mutex_unlock(&mc->mu);
}

bool
match_cache_get_seats(struct match_cache *mc, int64_t id, struct store_match_seat *out, int *n)
{
	struct entry *e;
	bool hit;

	if (mc == NULL || id == 0)
		return false;
	e = locked_slot(mc, id);
	hit = e->id == id && e->nseats >= 0;
	if (hit) {
		memcpy(out, e->seats, (size_t)e->nseats * sizeof *out);
		*n = e->nseats;
	}
	pthread_mutex_unlock(&mc->mu);
	return hit;
}

void
match_cache_put_seats(struct match_cache *mc, int64_t id, const struct store_match_seat *seats, int n)
{
	struct entry *e;

	if (mc == NULL || id == 0 || n < 0 || n > STORE_MATCH_SEATS)
		return;
	e = locked_slot(mc, id);
	claim(e, id);
	memcpy(e->seats, seats, (size_t)n * sizeof *seats);
	e->nseats = n;
	pthread_mutex_unlock(&mc->mu);
}

void
match_cache_drop(struct match_cache *mc, int64_t id)
{
	struct entry *e;

	if (mc == NULL)
		return;
	e = locked_slot(mc, id);
	if (e->id == id)
		e->id = 0;
	pthread_mutex_unlock(&mc->mu);
}

void
match_cache_stats(struct match_cache *mc, struct match_cache_stats *out)
{
	pthread_mutex_lock(&mc->mu);
	out->hits = mc->hits;
	out->misses = mc->misses;
	pthread_mutex_unlock(&mc->mu);
	out->bytes = sizeof *mc + MATCH_CACHE_ENTRIES * mc->state_size;
}
