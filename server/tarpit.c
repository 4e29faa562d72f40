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

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

struct held {
	int64_t                ends_ns;   /* CLOCK_MONOTONIC */
	struct MHD_Connection *conn;
};

struct tarpit {
	pthread_mutex_t  mu;
	pthread_cond_t   cv;         /* on CLOCK_MONOTONIC */
	pthread_t        thread;
	struct held     *ring;
	unsigned         cap, head, n;
	int64_t          hold_ns;
	bool             stopping;
	_Atomic uint64_t held;
};

static int64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void *
run(void *arg)
{
	struct tarpit *t = arg;
	struct MHD_Connection *conn;
	struct timespec until;
	int64_t end;

	pthread_mutex_lock(&t->mu);
	for (;;) {
		if (t->n == 0) {
			if (t->stopping)
				break;
			pthread_cond_wait(&t->cv, &t->mu);
			continue;
		}
		end = t->ring[t->head].ends_ns;
		if (!t->stopping && now_ns() < end) {
			until.tv_sec = (time_t)(end / 1000000000);
			until.tv_nsec = (long)(end % 1000000000);
			pthread_cond_timedwait(&t->cv, &t->mu, &until);
			continue;
		}
		conn = t->ring[t->head].conn;
		t->head = (t->head + 1) % t->cap;
		t->n--;
		pthread_mutex_unlock(&t->mu);
		MHD_resume_connection(conn);
		pthread_mutex_lock(&t->mu);
	}
	pthread_mutex_unlock(&t->mu);
	return NULL;
}

struct tarpit *
tarpit_new(unsigned cap, unsigned hold_ms)
{
	struct tarpit *t = calloc(1, sizeof *t);
	pthread_condattr_t ca;

	if (t == NULL || cap == 0)
		goto fail;
	t->cap = cap;
	t->hold_ns = (int64_t)hold_ms * 1000000;
	if ((t->ring = calloc(cap, sizeof *t->ring)) == NULL)
		goto fail;
	if (pthread_condattr_init(&ca) != 0)
		goto fail;
	if (pthread_condattr_setclock(&ca, CLOCK_MONOTONIC) != 0 ||
	    pthread_cond_init(&t->cv, &ca) != 0) {
		pthread_condattr_destroy(&ca);
		goto fail;
	}
	pthread_condattr_destroy(&ca);
	if (pthread_mutex_init(&t->mu, NULL) != 0) {
		pthread_cond_destroy(&t->cv);
		goto fail;
	}
	if (pthread_create(&t->thread, NULL, run, t) != 0) {
		pthread_mutex_destroy(&t->mu);
		pthread_cond_destroy(&t->cv);
		goto fail;
	}
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
	pthread_mutex_lock(&t->mu);
	t->stopping = true;
	pthread_cond_signal(&t->cv);
	pthread_mutex_unlock(&t->mu);
	pthread_join(t->thread, NULL);
	pthread_mutex_destroy(&t->mu);
	pthread_cond_destroy(&t->cv);
	free(t->ring);
	free(t);
}

bool
tarpit_hold(struct tarpit *t, struct MHD_Connection *conn)
{
	bool ok = false;

	pthread_mutex_lock(&t->mu);
	if (t->n < t->cap && !t->stopping) {
		MHD_suspend_connection(conn);
		t->ring[(t->head + t->n) % t->cap] = (struct held){ now_ns() + t->hold_ns, conn };
		if (t->n++ == 0)
			pthread_cond_signal(&t->cv);
		atomic_fetch_add_explicit(&t->held, 1, memory_order_relaxed);
		ok = true;
	}
	pthread_mutex_unlock(&t->mu);
	return ok;
}

uint64_t
tarpit_held(struct tarpit *t)
{
	return t == NULL ? 0 : atomic_load_explicit(&t->held, memory_order_relaxed);
}
