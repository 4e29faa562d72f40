/*
 * quota.c: a day's counts per key (quota.h). Invariant: a slot is live
 * when its day is the day asked about; any other day is an empty slot.
 * The counts of a key only grow within its day, except by a give-back of
 * what the same day took. One shard's mutex guards its slots and its
 * shared entries.
 */
#include "quota.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#define QUOTA_SHARDS 64
#define QUOTA_WINDOW 16

struct slot {
	uint64_t bits;
	uint32_t day;   /* days since 1970-01-01 UTC; 0: never used */
	uint8_t  kind;  /* enum quota_kind; 0: never used */
	uint32_t count[QUOTA_NCLASSES];
};

struct shard {
	pthread_mutex_t mu;
	struct slot    *slots; /* nslots per shard */
	struct slot     shared[QUOTA_NKINDS]; /* the keys that found no room, by kind */
};

struct quota {
	uint32_t     per_day[QUOTA_NCLASSES];
	size_t       nslots; /* per shard, a power of two >= QUOTA_WINDOW */
	uint8_t      hash_key[crypto_shorthash_KEYBYTES];
	_Atomic uint64_t shared;
	_Atomic uint64_t refused[QUOTA_NCLASSES];
	struct shard shards[QUOTA_SHARDS];
};

size_t
quota_keys(struct quota_key out[QUOTA_KEYS_MAX], int family, const uint8_t *bytes, int64_t account_id)
{
	size_t n = 0;
	uint64_t v = 0;
	int i;

	if (family == 4 && bytes != NULL) {
		for (i = 0; i < 4; i++)
			v = v << 8 | bytes[i];
		out[n++] = (struct quota_key){ QUOTA_KEY_IPV4, v };
	} else if (family == 6 && bytes != NULL) {
		for (i = 0; i < 8; i++)
			v = v << 8 | bytes[i];
		out[n++] = (struct quota_key){ QUOTA_KEY_IPV6, v };
		out[n++] = (struct quota_key){ QUOTA_KEY_NET56, NET56_OF(v) };
		out[n++] = (struct quota_key){ QUOTA_KEY_NET48, NET48_OF(v) };
	}
	if (account_id > 0)
		out[n++] = (struct quota_key){ QUOTA_KEY_ACCOUNT, (uint64_t)account_id };
	return n;
}

struct quota *
quota_new(size_t capacity, const uint32_t per_day[QUOTA_NCLASSES])
{
	struct quota *q;
	size_t per = QUOTA_WINDOW, i;

	if (capacity < 1024 || capacity > ((size_t)1 << 24))
		return NULL;
	while (per * QUOTA_SHARDS < capacity)
		per *= 2;
	if ((q = calloc(1, sizeof *q)) == NULL)
		return NULL;
	memcpy(q->per_day, per_day, sizeof q->per_day);
	q->nslots = per;
	crypto_shorthash_keygen(q->hash_key);
	for (i = 0; i < QUOTA_SHARDS; i++) {
		pthread_mutex_init(&q->shards[i].mu, NULL);
		if ((q->shards[i].slots = calloc(per, sizeof(struct slot))) == NULL) {
			quota_free(q);
			return NULL;
		}
	}
	return q;
}

void
quota_free(struct quota *q)
{
	size_t i;

	if (q == NULL)
		return;
	for (i = 0; i < QUOTA_SHARDS; i++) {
		free(q->shards[i].slots);
		pthread_mutex_destroy(&q->shards[i].mu);
	}
	free(q);
}

uint32_t
quota_limit(const struct quota *q, enum quota_class cls, enum quota_kind kind)
{
	uint32_t v = q->per_day[cls];
	uint32_t f = kind == QUOTA_KEY_NET56 ? NET56_FACTOR : kind == QUOTA_KEY_NET48 ? NET48_FACTOR : 1;

	return v > UINT32_MAX / f ? UINT32_MAX : v * f;
}

/* The key's hash: shard in the high bits, window start in the low. */
static uint64_t
hash_of(const struct quota *q, const struct quota_key *k)
{
	uint8_t in[9], out[crypto_shorthash_BYTES];
	uint64_t h = 0;
	int i;

	in[0] = (uint8_t)k->kind;
	for (i = 0; i < 8; i++)
		in[1 + i] = (uint8_t)(k->bits >> (8 * i));
	crypto_shorthash(out, in, sizeof in, q->hash_key);
	for (i = 0; i < 8; i++)
		h |= (uint64_t)out[i] << (8 * i);
	return h;
}

/* The key's slot for day in shard s (its mutex held): its live slot, else
 * a free one made live, else the shared entry of its kind. */
static struct slot *
find(struct quota *q, struct shard *s, const struct quota_key *k, uint64_t h, uint32_t day,
    bool make)
{
	size_t start = (size_t)h & (q->nslots - 1), i;
	struct slot *free_slot = NULL;

	for (i = 0; i < QUOTA_WINDOW; i++) {
		struct slot *sl = &s->slots[(start + i) & (q->nslots - 1)];

		if (sl->day == day && sl->kind == (uint8_t)k->kind && sl->bits == k->bits)
			return sl;
		if (sl->day != day && free_slot == NULL)
			free_slot = sl;
	}
	if (!make)
		return NULL;
	if (free_slot != NULL) {
		memset(free_slot, 0, sizeof *free_slot);
		free_slot->kind = (uint8_t)k->kind;
		free_slot->bits = k->bits;
		free_slot->day = day;
		return free_slot;
	}
	atomic_fetch_add_explicit(&q->shared, 1, memory_order_relaxed);
	if (s->shared[k->kind].day != day) {
		memset(&s->shared[k->kind], 0, sizeof s->shared[k->kind]);
		s->shared[k->kind].day = day;
	}
	return &s->shared[k->kind];
}

static struct shard *
shard_of(struct quota *q, uint64_t h)
{
	return &q->shards[(h >> 58) % QUOTA_SHARDS];
}

/* Takes one from one key; false (nothing taken) at its figure. */
static bool
take_one(struct quota *q, enum quota_class cls, const struct quota_key *k, uint32_t day)
{
	uint64_t h = hash_of(q, k);
	struct shard *s = shard_of(q, h);
	uint32_t limit = quota_limit(q, cls, k->kind);
	struct slot *sl;
	bool ok;

	pthread_mutex_lock(&s->mu);
	sl = find(q, s, k, h, day, true);
	ok = sl->count[cls] < limit;
	if (ok)
		sl->count[cls]++;
	pthread_mutex_unlock(&s->mu);
	return ok;
}

static void
give_one(struct quota *q, enum quota_class cls, const struct quota_key *k, uint32_t day)
{
	uint64_t h = hash_of(q, k);
	struct shard *s = shard_of(q, h);
	struct slot *sl;

	pthread_mutex_lock(&s->mu);
	sl = find(q, s, k, h, day, false);
	if (sl == NULL && s->shared[k->kind].day == day)
		sl = &s->shared[k->kind];
	if (sl != NULL && sl->count[cls] > 0)
		sl->count[cls]--;
	pthread_mutex_unlock(&s->mu);
}

bool
quota_take(struct quota *q, enum quota_class cls, const struct quota_key *keys, size_t n,
    uint32_t day, size_t *over)
{
	size_t i, j;

	if (q->per_day[cls] == 0)
		return true;
	for (i = 0; i < n; i++) {
		if (take_one(q, cls, &keys[i], day))
			continue;
		for (j = 0; j < i; j++)
			give_one(q, cls, &keys[j], day);
		atomic_fetch_add_explicit(&q->refused[cls], 1, memory_order_relaxed);
		if (over != NULL)
			*over = i;
		return false;
	}
	return true;
}

void
quota_give_back(struct quota *q, enum quota_class cls, const struct quota_key *keys, size_t n,
    uint32_t day)
{
	size_t i;

	if (q->per_day[cls] == 0)
		return;
	for (i = 0; i < n; i++)
		give_one(q, cls, &keys[i], day);
}

uint32_t
quota_count(struct quota *q, enum quota_class cls, const struct quota_key *key, uint32_t day)
{
	uint64_t h = hash_of(q, key);
	struct shard *s = shard_of(q, h);
	struct slot *sl;
	uint32_t v = 0;

	pthread_mutex_lock(&s->mu);
	if ((sl = find(q, s, key, h, day, false)) != NULL)
		v = sl->count[cls];
	pthread_mutex_unlock(&s->mu);
	return v;
}

void
quota_stats(struct quota *q, struct quota_stats *out)
{
	int c;

	out->capacity = q->nslots * QUOTA_SHARDS;
	out->shared = atomic_load_explicit(&q->shared, memory_order_relaxed);
	for (c = 0; c < QUOTA_NCLASSES; c++)
		out->refused[c] = atomic_load_explicit(&q->refused[c], memory_order_relaxed);
}
