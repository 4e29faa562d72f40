/*
 * workers.c: the pool (workers.h). One mutex and condition variable guard
 * a fixed ring of pending tasks; workers take them in order. Stopping lets
 * the queue empty first: every suspended request it holds is resumed.
 */
#include "workers.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct task {
	struct request *req;
	void          (*run)(void *arg);
	void           *arg;
};

struct workers {
	pthread_mutex_t mu;
	pthread_cond_t  cv;
	bool            stopping;
	struct task    *ring;
	unsigned        cap, head, count;
	pthread_t      *threads;
	unsigned        nthreads;
};

static void *
worker_main(void *arg)
{
	struct workers *w = arg;

	for (;;) {
		struct task t;

		pthread_mutex_lock(&w->mu);
		while (w->count == 0 && !w->stopping)
			pthread_cond_wait(&w->cv, &w->mu);
		if (w->count == 0) {
			pthread_mutex_unlock(&w->mu);
			return NULL;
		}
		t = w->ring[w->head];
		w->head = (w->head + 1) % w->cap;
		w->count--;
		pthread_mutex_unlock(&w->mu);
		t.run(t.arg);
		request_resume(t.req, 0);
	}
}

struct workers *
workers_new(unsigned nthreads, unsigned queue_max)
{
	struct workers *w = calloc(1, sizeof *w);

	if (w == NULL)
		return NULL;
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->cv, NULL);
	w->cap = queue_max;
	w->ring = calloc(queue_max, sizeof *w->ring);
	w->threads = calloc(nthreads, sizeof *w->threads);
	if (w->ring == NULL || w->threads == NULL) {
		workers_free(w);
		return NULL;
	}
	for (w->nthreads = 0; w->nthreads < nthreads; w->nthreads++)
		if (pthread_create(&w->threads[w->nthreads], NULL, worker_main, w) != 0) {
			workers_free(w);
			return NULL;
		}
	return w;
}

bool
workers_submit(struct workers *w, struct request *req, void (*task)(void *arg), void *arg,
    request_cont cont)
{
	bool queued = false;

	pthread_mutex_lock(&w->mu);
	if (!w->stopping && w->count < w->cap) {
		struct task *t = &w->ring[(w->head + w->count) % w->cap];

		/* Suspended before a worker can see it: the resume must come
		 * after the suspend. */
		request_suspend(req, cont);
		t->req = req;
		t->run = task;
		t->arg = arg;
		w->count++;
		queued = true;
		pthread_cond_signal(&w->cv);
	}
	pthread_mutex_unlock(&w->mu);
	return queued;
}

void
workers_submit_or_busy(struct workers *w, struct request *req, void (*task)(void *arg), void *arg,
    request_cont cont, const char *what)
{
	char msg[128];

	if (workers_submit(w, req, task, arg, cont))
		return;
	snprintf(msg, sizeof msg, "every %s is busy and the queue is full: retry in a second", what);
	request_reply_later(req, API_ERR_BUSY, "1", msg);
}

unsigned
workers_waiting(struct workers *w)
{
	unsigned n;

	pthread_mutex_lock(&w->mu);
	n = w->count;
	pthread_mutex_unlock(&w->mu);
	return n;
}

void
workers_free(struct workers *w)
{
	unsigned i;

	if (w == NULL)
		return;
	pthread_mutex_lock(&w->mu);
	w->stopping = true;
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->mu);
	for (i = 0; i < w->nthreads; i++)
		pthread_join(w->threads[i], NULL);
	free(w->threads);
	free(w->ring);
	pthread_cond_destroy(&w->cv);
	pthread_mutex_destroy(&w->mu);
	free(w);
}
