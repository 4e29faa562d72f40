/*
 * sweeper.c: the retention thread (sweeper.h). Each sweep is a few store
 * jobs of at most BATCH rows of each kind, repeated while a job fills its
 * batch, so a backlog drains in one wake-up without one long transaction.
 */
#include "sweeper.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>

#include "log.h"
#include "stopper.h"
#include "store.h"

#define BATCH 1000
#define PUZZLE_GRACE_MS (60 * 1000)

struct sweeper {
	struct store    *store;
	int64_t          retention_ms;
	unsigned         interval_s;
	struct stopper   th;
	_Atomic uint64_t puzzles, runs, lobbies;
};

static void
sweep(struct sweeper *w)
{
	struct store_sweep job;
	int rounds = 0;

	do {
		int64_t now = store_now_ms();

		job.puzzles_before = now - PUZZLE_GRACE_MS;
		job.unplayed_before = now - w->retention_ms;
		job.limit = BATCH;
		if (store_call(w->store, store_sweep, &job) != STORE_JOB_COMMITTED) {
			log_msg(LOG_WARN, "retention: the sweep did not commit; it will run again");
			return;
		}
		atomic_fetch_add(&w->puzzles, (uint64_t)job.puzzles);
		atomic_fetch_add(&w->runs, (uint64_t)job.runs);
		atomic_fetch_add(&w->lobbies, (uint64_t)job.lobbies);
	} while ((job.puzzles == BATCH || job.runs == BATCH || job.lobbies == BATCH) && ++rounds < 100);
}

static void *
sweeper_main(void *arg)
{
	struct sweeper *w = arg;
	int64_t next;

	pthread_mutex_lock(&w->th.mu);
	while (!w->th.stopping) {
		pthread_mutex_unlock(&w->th.mu);
		sweep(w);
		pthread_mutex_lock(&w->th.mu);
		next = stopper_now_ns() + (int64_t)w->interval_s * 1000000000;
		while (!w->th.stopping && stopper_now_ns() < next)
			stopper_wait_until(&w->th, next);
	}
	pthread_mutex_unlock(&w->th.mu);
	return NULL;
}

struct sweeper *
sweeper_start(struct store *s, unsigned unplayed_retention_s, unsigned interval_s)
{
	struct sweeper *w = calloc(1, sizeof *w);

	if (w == NULL)
		return NULL;
	w->store = s;
	w->retention_ms = (int64_t)unplayed_retention_s * 1000;
	w->interval_s = interval_s > 0 ? interval_s : 1;
	if (!stopper_start(&w->th, sweeper_main, w)) {
		free(w);
		return NULL;
	}
	return w;
}

void
sweeper_counts(struct sweeper *w, uint64_t *puzzles, uint64_t *runs, uint64_t *lobbies)
{
	*puzzles = atomic_load(&w->puzzles);
	*runs = atomic_load(&w->runs);
	*lobbies = atomic_load(&w->lobbies);
}

void
sweeper_stop(struct sweeper *w)
{
	if (w == NULL)
		return;
	stopper_stop(&w->th);
	free(w);
}
