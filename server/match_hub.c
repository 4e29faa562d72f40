/*
 * match_hub.c: long polls and event streams per match (match_hub.h).
 *
 * Matches with listeners sit in a fixed table of buckets, each a list of
 * nodes that hold the match's waiters and streams; a node is freed once it
 * has neither. A stream is owned by the hub from the moment it is queued
 * until libmicrohttpd lets go of it (stream_done), which unlinks and frees
 * it; until then it may be ending (pull answers -1 once its buffer is
 * sent) but it stays reachable, so the hub never touches freed memory.
 *
 * Invariants under the mutex: a paused stream's connection is suspended
 * and is woken exactly once, by whoever clears `paused`; a waiter in a list
 * is suspended and is resumed exactly once, by whoever unlinks it.
 */
#include "match_hub.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define BUCKETS 1024

struct waiter {
	uint64_t       ticket;
	struct request *req;
	struct waiter  *next;
};

struct stream {
	struct match_hub *hub;
	int64_t        match_id;
	void          *conn;
	char          *buf;       /* bytes waiting: buf[off..len) */
	size_t         len, off, cap;
	bool           paused;    /* its connection is suspended in pull */
	bool           ending;    /* pull ends the body once buf is sent */
	struct stream *next;
};

struct node {
	int64_t        match_id;
	struct waiter *waiters;
	struct stream *streams;
	struct node   *next;
};

struct match_hub {
	pthread_mutex_t mu;
	struct node    *buckets[BUCKETS];
	unsigned        max_streams, nstreams, nwaiters;
	size_t          max_bytes;
	uint64_t        next_ticket, refused, dropped, gone;
	bool            closed;
};

static const char slow[] = "event: closed\ndata: {\"reason\":\"the reader fell behind\"}\n\n";
static const char heartbeat[] = ":\n\n";
static const char ended[] = "event: closed\ndata: {\"reason\":\"the match is over or has expired\"}\n\n";

static size_t
bucket(int64_t id)
{
	return (size_t)(((uint64_t)id * UINT64_C(11400714819323198485)) >> 40) % BUCKETS;
}

static struct node *
node_find(struct match_hub *h, int64_t id, bool create)
{
	struct node **b = &h->buckets[bucket(id)], *n;

	for (n = *b; n != NULL; n = n->next)
		if (n->match_id == id)
			return n;
	if (!create || (n = calloc(1, sizeof *n)) == NULL)
		return NULL;
	n->match_id = id;
	n->next = *b;
	*b = n;
	return n;
}

/* Frees n when nobody listens to its match any more. */
static void
node_tidy(struct match_hub *h, struct node *n)
{
	struct node **p;

	if (n->waiters != NULL || n->streams != NULL)
		return;
	for (p = &h->buckets[bucket(n->match_id)]; *p != NULL; p = &(*p)->next)
		if (*p == n) {
			*p = n->next;
			free(n);
			return;
		}
}

struct match_hub *
match_hub_new(unsigned max_streams, size_t max_bytes)
{
	struct match_hub *h = calloc(1, sizeof *h);

	if (h == NULL)
		return NULL;
	pthread_mutex_init(&h->mu, NULL);
	h->max_streams = max_streams;
	h->max_bytes = max_bytes;
	return h;
}

void
match_hub_free(struct match_hub *h)
{
	size_t i;

	if (h == NULL)
		return;
	for (i = 0; i < BUCKETS; i++)
		while (h->buckets[i] != NULL) {
			struct node *n = h->buckets[i];

			/* Nothing should be left: streams end before http_stop
			 * returns, waiters are resumed by match_hub_close. */
			h->buckets[i] = n->next;
			free(n);
		}
	pthread_mutex_destroy(&h->mu);
	free(h);
}

/* ---- long polls ---- */

uint64_t
match_hub_wait(struct match_hub *h, struct request *req, int64_t match_id, request_cont cont)
{
	struct waiter *w = malloc(sizeof *w);
	struct node *n;
	uint64_t ticket = 0;

	if (w == NULL)
		return 0;
	pthread_mutex_lock(&h->mu);
	if (!h->closed && (n = node_find(h, match_id, true)) != NULL) {
		ticket = w->ticket = ++h->next_ticket;
		w->req = req;
		w->next = n->waiters;
		n->waiters = w;
		h->nwaiters++;
		request_suspend(req, cont);
		w = NULL;
	}
	pthread_mutex_unlock(&h->mu);
	free(w);
	return ticket;
}

bool
match_hub_wake(struct match_hub *h, int64_t match_id, uint64_t ticket)
{
	struct node *n;
	struct waiter **p, *w = NULL;

	pthread_mutex_lock(&h->mu);
	if ((n = node_find(h, match_id, false)) != NULL) {
		for (p = &n->waiters; *p != NULL; p = &(*p)->next)
			if ((*p)->ticket == ticket) {
				w = *p;
				*p = w->next;
				h->nwaiters--;
				request_resume(w->req, 0);
				break;
			}
		node_tidy(h, n);
	}
	pthread_mutex_unlock(&h->mu);
	free(w);
	return w != NULL;
}

/* ---- streams ---- */

/* Appends len bytes to s's buffer; false when that would pass max_bytes. */
static bool
stream_append(struct match_hub *h, struct stream *s, const char *text, size_t len)
{
	size_t need;

	if (s->off > 0 && s->off == s->len)
		s->off = s->len = 0;
	need = s->len + len;
	if (need - s->off > h->max_bytes)
		return false;
	if (need > s->cap) {
		size_t cap = s->cap ? s->cap : 1024;
		char *b;

		while (cap < need)
			cap *= 2;
		if ((b = realloc(s->buf, cap)) == NULL)
			return false;
		s->buf = b;
		s->cap = cap;
	}
	memcpy(s->buf + s->len, text, len);
	s->len = need;
	return true;
}

/* Under the mutex: wakes s when it sleeps. */
static void
stream_wake(struct stream *s)
{
	if (s->paused) {
		s->paused = false;
		http_stream_wake(s->conn);
	}
}

static long
stream_pull(void *ctx, char *buf, size_t max)
{
	struct stream *s = ctx;
	struct match_hub *h = s->hub;
	long n;

	pthread_mutex_lock(&h->mu);
	if (s->off < s->len) {
		size_t k = s->len - s->off < max ? s->len - s->off : max;

		memcpy(buf, s->buf + s->off, k);
		s->off += k;
		n = (long)k;
	} else if (s->ending) {
		n = -1;
	} else {
		s->paused = true;
		http_stream_pause(s->conn);
		n = 0;
	}
	pthread_mutex_unlock(&h->mu);
	return n;
}

static void
stream_done(void *ctx)
{
	struct stream *s = ctx;
	struct match_hub *h = s->hub;
	struct stream **p;
	struct node *n;

	pthread_mutex_lock(&h->mu);
	if ((n = node_find(h, s->match_id, false)) != NULL) {
		for (p = &n->streams; *p != NULL; p = &(*p)->next)
			if (*p == s) {
				*p = s->next;
				h->nstreams--;
				break;
			}
		node_tidy(h, n);
	}
	pthread_mutex_unlock(&h->mu);
	free(s->buf);
	free(s);
}

enum match_hub_stream
match_hub_stream(struct match_hub *h, struct request *req, int64_t match_id, const char *first,
    size_t len, bool last)
{
	struct stream *s = calloc(1, sizeof *s);
	enum match_hub_stream ret = MATCH_HUB_FAILED;
	struct node *n;

	if (s == NULL)
		return MATCH_HUB_FAILED;
	s->hub = h;
	s->match_id = match_id;
	s->conn = req->conn;
	s->ending = last;
	pthread_mutex_lock(&h->mu);
	if (h->closed)
		ret = MATCH_HUB_CLOSED;
	else if (h->nstreams >= h->max_streams) {
		h->refused++;
		ret = MATCH_HUB_FULL;
	} else if (stream_append(h, s, first, len) && (n = node_find(h, match_id, true)) != NULL) {
		s->next = n->streams;
		n->streams = s;
		h->nstreams++;
		ret = MATCH_HUB_STREAMING;
	}
	pthread_mutex_unlock(&h->mu);
	if (ret != MATCH_HUB_STREAMING) {
		free(s->buf);
		free(s);
		return ret;
	}
	/* From here the stream is the hub's; a failure to queue ends it
	 * through stream_done like any other end. */
	if (!request_reply_stream(req, "text/event-stream; charset=utf-8", stream_pull, stream_done, s))
		return MATCH_HUB_FAILED;
	return MATCH_HUB_STREAMING;
}

bool
match_hub_has_streams(struct match_hub *h, int64_t match_id)
{
	struct node *n;
	bool any;

	pthread_mutex_lock(&h->mu);
	n = node_find(h, match_id, false);
	any = n != NULL && n->streams != NULL;
	pthread_mutex_unlock(&h->mu);
	return any;
}

unsigned
match_hub_streams(struct match_hub *h, int64_t match_id)
{
	struct stream *s;
	struct node *n;
	unsigned k = 0;

	pthread_mutex_lock(&h->mu);
	if ((n = node_find(h, match_id, false)) != NULL)
		for (s = n->streams; s != NULL; s = s->next)
			k++;
	pthread_mutex_unlock(&h->mu);
	return k;
}

/* Resumes every waiter of n (h->mu held), each then put on woken, which
 * is returned: the waiters are freed once the lock is let go. */
static struct waiter *
wake_all(struct match_hub *h, struct node *n, struct waiter *woken)
{
	struct waiter *w;

	while ((w = n->waiters) != NULL) {
		n->waiters = w->next;
		h->nwaiters--;
		request_resume(w->req, 0);
		w->next = woken;
		woken = w;
	}
	return woken;
}

/* Lets h->mu go, then frees the waiters woken under it. */
static void
unlock_free(struct match_hub *h, struct waiter *woken)
{
	struct waiter *w;

	pthread_mutex_unlock(&h->mu);
	while ((w = woken) != NULL) {
		woken = w->next;
		free(w);
	}
}

void
match_hub_notify(struct match_hub *h, int64_t match_id, const char *text, size_t len, bool last)
{
	struct waiter *woken = NULL;
	struct stream *s;
	struct node *n;

	pthread_mutex_lock(&h->mu);
	if ((n = node_find(h, match_id, false)) != NULL) {
		woken = wake_all(h, n, woken);
		for (s = n->streams; s != NULL; s = s->next) {
			if (s->ending)
				continue;
			if (text != NULL && !stream_append(h, s, text, len)) {
				/* Behind by more than max_bytes: what is queued is
				 * dropped and the stream ends with a last word. */
				s->off = s->len = 0;
				stream_append(h, s, slow, sizeof slow - 1);
				s->ending = true;
				h->dropped++;
			}
			if (last)
				s->ending = true;
			stream_wake(s);
		}
		node_tidy(h, n);
	}
	unlock_free(h, woken);
}

void
match_hub_heartbeat(struct match_hub *h)
{
	struct stream *s;
	struct node *n;
	size_t i;

	pthread_mutex_lock(&h->mu);
	for (i = 0; i < BUCKETS; i++)
		for (n = h->buckets[i]; n != NULL; n = n->next)
			for (s = n->streams; s != NULL; s = s->next) {
				if (s->ending)
					continue;
				if (!stream_append(h, s, heartbeat, sizeof heartbeat - 1)) {
					s->off = s->len = 0;
					stream_append(h, s, slow, sizeof slow - 1);
					s->ending = true;
					h->dropped++;
				}
				stream_wake(s);
			}
	pthread_mutex_unlock(&h->mu);
}

void
match_hub_probe(struct match_hub *h)
{
	struct waiter **p, *w, *woken = NULL;
	struct stream *s;
	struct node *n, *next;
	size_t i;

	pthread_mutex_lock(&h->mu);
	for (i = 0; i < BUCKETS; i++)
		for (n = h->buckets[i]; n != NULL; n = next) {
			next = n->next;
			for (p = &n->waiters; (w = *p) != NULL;) {
				if (!http_conn_gone(w->req->conn)) {
					p = &w->next;
					continue;
				}
				*p = w->next;
				h->nwaiters--;
				h->gone++;
				request_resume(w->req, MATCH_HUB_GONE);
				w->next = woken;
				woken = w;
			}
			for (s = n->streams; s != NULL; s = s->next)
				if (s->paused && !s->ending && http_conn_gone(s->conn)) {
					s->off = s->len = 0;
					s->ending = true;
					h->gone++;
					stream_wake(s);
				}
			node_tidy(h, n);
		}
	unlock_free(h, woken);
}

size_t
match_hub_streamed(struct match_hub *h, int64_t *ids, size_t cap)
{
	struct node *n;
	size_t i, k = 0;

	pthread_mutex_lock(&h->mu);
	for (i = 0; i < BUCKETS && k < cap; i++)
		for (n = h->buckets[i]; n != NULL && k < cap; n = n->next)
			if (n->streams != NULL)
				ids[k++] = n->match_id;
	pthread_mutex_unlock(&h->mu);
	return k;
}

void
match_hub_end(struct match_hub *h, int64_t match_id)
{
	struct stream *s;
	struct node *n;

	pthread_mutex_lock(&h->mu);
	if ((n = node_find(h, match_id, false)) != NULL)
		for (s = n->streams; s != NULL; s = s->next) {
			if (s->ending)
				continue;
			if (!stream_append(h, s, ended, sizeof ended - 1)) {
				s->off = s->len = 0;
				stream_append(h, s, ended, sizeof ended - 1);
			}
			s->ending = true;
			stream_wake(s);
		}
	pthread_mutex_unlock(&h->mu);
}

void
match_hub_close(struct match_hub *h)
{
	struct waiter *woken = NULL;
	struct stream *s;
	struct node *n, *next;
	size_t i;

	pthread_mutex_lock(&h->mu);
	h->closed = true;
	for (i = 0; i < BUCKETS; i++)
		for (n = h->buckets[i]; n != NULL; n = next) {
			next = n->next;
			woken = wake_all(h, n, woken);
			for (s = n->streams; s != NULL; s = s->next) {
				s->ending = true;
				stream_wake(s);
			}
			node_tidy(h, n);
		}
	unlock_free(h, woken);
}

void
match_hub_stats(struct match_hub *h, struct match_hub_stats *out)
{
	pthread_mutex_lock(&h->mu);
	out->waiters = h->nwaiters;
	out->streams = h->nstreams;
	out->streams_refused = h->refused;
	out->streams_dropped = h->dropped;
	out->gone = h->gone;
	pthread_mutex_unlock(&h->mu);
}
