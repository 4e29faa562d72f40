/*
 * holds.c: per-client, per-/56, per-/48 and per-account counts of held requests
 * (holds.h).
 *
 * One hash table of counts, keyed by (kind, scope, bytes); an entry lives
 * while its count is above zero. A slot remembers the entries it counted
 * in, so that its release touches exactly those.
 */
#include "holds.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NBUCKETS 1024

/* A /56 and a /48 hold netgroup.h's multiples of a client's bound. */
enum scope { SCOPE_CLIENT, SCOPE_NET, SCOPE_NET48, SCOPE_ACCOUNT, SCOPE__COUNT };

struct key {
	uint8_t kind, scope, family;
	uint8_t bytes[16];
};

struct entry {
	struct entry *next;
	struct key    key;
	unsigned      n;
};

struct hold {
	struct holds   *owner;
	enum holds_kind kind;
	struct entry   *counted[SCOPE__COUNT];  /* NULL: not counted there */
};

struct holds {
	pthread_mutex_t mu;
	unsigned        bound[HOLDS__COUNT][SCOPE__COUNT];
	struct entry   *buckets[NBUCKETS];
	uint64_t        held[HOLDS__COUNT], refused[HOLDS__COUNT];
};

static size_t
bucket(const struct key *k)
{
	const uint8_t *p = (const uint8_t *)k;
	uint64_t h = 1469598103934665603u;
	size_t i;

	for (i = 0; i < sizeof *k; i++)
		h = (h ^ p[i]) * 1099511628211u;
	return (size_t)(h % NBUCKETS);
}

static struct entry *
find(struct holds *h, const struct key *k, bool create)
{
	struct entry **slot = &h->buckets[bucket(k)], *e;

	for (e = *slot; e != NULL; e = e->next)
		if (memcmp(&e->key, k, sizeof *k) == 0)
			return e;
	if (!create || (e = calloc(1, sizeof *e)) == NULL)
		return NULL;
	e->key = *k;
	e->next = *slot;
	*slot = e;
	return e;
}

static void
drop(struct holds *h, struct entry *e)
{
	struct entry **slot;

	if (e == NULL || --e->n > 0)
		return;
	for (slot = &h->buckets[bucket(&e->key)]; *slot != e; slot = &(*slot)->next)
		;
	*slot = e->next;
	free(e);
}

struct holds *
holds_new(const unsigned per_client[HOLDS__COUNT])
{
	struct holds *h = calloc(1, sizeof *h);
	int k;

	if (h == NULL)
		return NULL;
	pthread_mutex_init(&h->mu, NULL);
	for (k = 0; k < HOLDS__COUNT; k++) {
		h->bound[k][SCOPE_CLIENT] = per_client[k];
		h->bound[k][SCOPE_NET] = per_client[k] * NET56_FACTOR;
		h->bound[k][SCOPE_NET48] = per_client[k] * NET48_FACTOR;
		h->bound[k][SCOPE_ACCOUNT] = per_client[k];
	}
	return h;
}

void
holds_free(struct holds *h)
{
	size_t i;

	if (h == NULL)
		return;
	for (i = 0; i < NBUCKETS; i++)
		while (h->buckets[i] != NULL) {
			struct entry *e = h->buckets[i];

			h->buckets[i] = e->next;
			free(e);
		}
	pthread_mutex_destroy(&h->mu);
	free(h);
}

enum holds_result
holds_take(struct holds *h, enum holds_kind kind, const struct client_key *k, int64_t account_id,
    struct hold **out)
{
	struct key keys[SCOPE__COUNT];
	bool use[SCOPE__COUNT] = { false };
	struct hold *t = calloc(1, sizeof *t);
	enum holds_result ret = HOLDS_OK;
	int s;

	*out = NULL;
	if (t == NULL)
		return HOLDS_NO_MEMORY;
	t->owner = h;
	t->kind = kind;
	memset(keys, 0, sizeof keys);
	for (s = 0; s < SCOPE__COUNT; s++) {
		keys[s].kind = (uint8_t)kind;
		keys[s].scope = (uint8_t)s;
	}
	if (k->family == 4 || k->family == 6) {
		use[SCOPE_CLIENT] = true;
		keys[SCOPE_CLIENT].family = k->family;
		memcpy(keys[SCOPE_CLIENT].bytes, k->bytes, k->family == 4 ? 4 : 8);
	}
	if (k->family == 6) {
		use[SCOPE_NET] = use[SCOPE_NET48] = true;
		keys[SCOPE_NET].family = keys[SCOPE_NET48].family = 6;
		memcpy(keys[SCOPE_NET].bytes, k->bytes, NET56_BYTES);
		memcpy(keys[SCOPE_NET48].bytes, k->bytes, NET48_BYTES);
	}
	if (account_id > 0) {
		use[SCOPE_ACCOUNT] = true;
		memcpy(keys[SCOPE_ACCOUNT].bytes, &account_id, sizeof account_id);
	}
	pthread_mutex_lock(&h->mu);
	for (s = 0; s < SCOPE__COUNT && ret == HOLDS_OK; s++) {
		struct entry *e;

		if (!use[s] || h->bound[kind][s] == 0)
			continue;
		e = find(h, &keys[s], false);
		if (e != NULL && e->n >= h->bound[kind][s])
			ret = s == SCOPE_CLIENT ? HOLDS_BY_CLIENT : s == SCOPE_NET ? HOLDS_BY_NET :
			    s == SCOPE_NET48 ? HOLDS_BY_NET48 : HOLDS_BY_ACCOUNT;
	}
	for (s = 0; s < SCOPE__COUNT && ret == HOLDS_OK; s++) {
		if (!use[s] || h->bound[kind][s] == 0)
			continue;
		if ((t->counted[s] = find(h, &keys[s], true)) == NULL)
			ret = HOLDS_NO_MEMORY;
		else
			t->counted[s]->n++;
	}
	if (ret == HOLDS_OK)
		h->held[kind]++;
	else {
		for (s = 0; s < SCOPE__COUNT; s++)
			drop(h, t->counted[s]);
		if (ret != HOLDS_NO_MEMORY)
			h->refused[kind]++;
	}
	pthread_mutex_unlock(&h->mu);
	if (ret != HOLDS_OK)
		free(t);
	else
		*out = t;
	return ret;
}

void
holds_release(struct holds *h, struct hold *t)
{
	int s;

	if (t == NULL)
		return;
	pthread_mutex_lock(&h->mu);
	for (s = 0; s < SCOPE__COUNT; s++)
		drop(h, t->counted[s]);
	h->held[t->kind]--;
	pthread_mutex_unlock(&h->mu);
	free(t);
}

void
holds_stats(struct holds *h, struct holds_stats *out)
{
	pthread_mutex_lock(&h->mu);
	memcpy(out->held, h->held, sizeof out->held);
	memcpy(out->refused, h->refused, sizeof out->refused);
	pthread_mutex_unlock(&h->mu);
}

/* A held request's completion (http.h): its slot goes back. */
static void
release_request(void *arg)
{
	struct hold *t = arg;

	holds_release(t->owner, t);
}

bool
holds_request(struct holds *h, struct request *req, enum holds_kind kind, int64_t account_id)
{
	static const char *const what[HOLDS__COUNT] = { "long polls", "event streams" };
	struct client_key k;
	enum holds_result rc;
	struct hold *t;
	char msg[160], retry[16];

	if (h == NULL)
		return true;
	request_client_key(req, &k);
	rc = holds_take(h, kind, &k, account_id, &t);
	if (rc == HOLDS_OK) {
		req->release = release_request;
		req->release_arg = t;
		return true;
	}
	if (rc == HOLDS_NO_MEMORY) {
		request_reply_error(req, API_ERR_INTERNAL, "out of memory");
		return false;
	}
	snprintf(msg, sizeof msg, "this %s holds as many %s open as it may: close one, or retry later",
	    rc == HOLDS_BY_ACCOUNT ? "account" : rc == HOLDS_BY_NET ? "IPv6 /56" :
	    rc == HOLDS_BY_NET48 ? "IPv6 /48" : "address",
	    what[kind]);
	snprintf(retry, sizeof retry, "%d", HOLDS_RETRY_S);
	request_add_header(req, "Retry-After", retry);
	request_reply_error_with(req, API_ERR_RATE_LIMITED, msg, json_pack("{s:{s:s, s:i}}", "ratelimit",
	    "key", rc == HOLDS_BY_ACCOUNT ? "account" : "address", "seconds", HOLDS_RETRY_S));
	return false;
}
