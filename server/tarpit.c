/*
 * tarpit.c: refusals answered late (tarpit.h).
 *
 * Every hold lasts the same hold_ms, so the ends come in the order the
 * holds began: a ring of (end, connection), oldest first, and a thread
 * that sleeps until the oldest end and lets go of each that is due. A
 * connection is resumed outside the mutex, so that libmicrohttpd's locks
 * are never taken under it while a handler (inside them) pushes.
 */
#include "tarpit.h"

#include <stdatomic.h>
#include <stdlib.h>

#include "stopper.h"

struct held {
	int64_t                ends_ns;   /* stopper_now_ns's clock */
	struct MHD_Connection *conn;
};

struct tarpit {
	struct stopper   th;         /* th.mu guards the ring */
	struct held     *ring;
	unsigned         cap, head, n;
	int64_t          hold_ns;
	_Atomic uint64_t held;
};

/* The thread: each held connection let go at its end, and every one at
 * once when stopping (libmicrohttpd stops no suspended connection). */
static void *
run(void *arg)
{
	struct tarpit *t = arg;
	struct MHD_Connection *conn;

	pthread_mutex_lock(&t->th.mu);
	while (!t->th.stopping || t->n > 0) {
		if (t->n == 0) {
			pthread_cond_wait(&t->th.cv, &t->th.mu);
			continue;
		}
		if (!t->th.stopping && stopper_now_ns() < t->ring[t->head].ends_ns) {
			stopper_wait_until(&t->th, t->ring[t->head].ends_ns);
			continue;
		}
		conn = t->ring[t->head].conn;
		t->head = (t->head + 1) % t->cap;
		t->n--;
		pthread_mutex_unlock(&t->th.mu);
		MHD_resume_connection(conn);
		pthread_mutex_lock(&t->th.mu);
	}
	pthread_mutex_unlock(&t->th.mu);
	return NULL;
}

struct tarpit *
tarpit_new(unsigned cap, unsigned hold_ms)
{
	struct tarpit *t = calloc(1, sizeof *t);

	if (t == NULL || cap == 0 || (t->ring = calloc(cap, sizeof *t->ring)) == NULL)
		goto fail;
	t->cap = cap;
	t->hold_ns = (int64_t)hold_ms * 1000000;
	if (stopper_start(&t->th, run, t))
		return t;
fail:
	if (t != NULL)
		free(t->ring);
	free(t);
	return NULL;
}

void
tarpit_free(struct tarpit *t)
{
	if (t == NULL)
		return;
	stopper_stop(&t->th);
	free(t->ring);
	free(t);
}

bool
tarpit_hold(struct tarpit *t, struct MHD_Connection *conn)
{
	bool ok = false;

	pthread_mutex_lock(&t->th.mu);
	if (t->n < t->cap && !t->th.stopping) {
		MHD_suspend_connection(conn);
		t->ring[(t->head + t->n) % t->cap] = (struct held){ stopper_now_ns() + t->hold_ns, conn };
		if (t->n++ == 0)
			pthread_cond_signal(&t->th.cv);
		atomic_fetch_add_explicit(&t->held, 1, memory_order_relaxed);
		ok = true;
	}
	pthread_mutex_unlock(&t->th.mu);
	return ok;
}

uint64_t
tarpit_held(struct tarpit *t)
{
	return t == NULL ? 0 : atomic_load_explicit(&t->held, memory_order_relaxed);
}
