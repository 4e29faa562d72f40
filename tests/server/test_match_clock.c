/*
 * test_match_clock.c: the matches' timer thread against a naive model (a
 * plain array of named timers, scanned in full).
 *
 *   - bookkeeping: tens of thousands of sets, moves and cancels of timers
 *     an hour away (they never fire) leave exactly the model's timers
 *     pending, and cancel answers what the model says; this walks the heap
 *     and the name table through growth and deletions in the middle;
 *   - firing: a few hundred timers 60-400 ms ahead, some moved and some
 *     cancelled, fire exactly once each with their last argument, never
 *     before their time, in the order of their times; cancelled ones never
 *     fire, and nothing fires after stop.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "match_clock.h"
#include "store.h"
#include "tap.h"

#define NAMES 4000

struct model {
	bool    set;
	int64_t when, arg;
};

static struct model model[NAMES];

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static uint64_t
rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* Names spread over two kinds and keys that look like match ids. */
static unsigned
kind_of(unsigned i)
{
	return i % 3 == 0 ? 1u : 0u;
}

static uint64_t
key_of(unsigned i)
{
	return (uint64_t)i * UINT64_C(2654435761) % UINT64_C(9007199254740991) + 1;
}

struct fired {
	unsigned kind;
	uint64_t key;
	int64_t  arg, at;
};

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static struct fired fired[NAMES * 2];
static size_t nfired;

static void
on_fire(void *ctx, unsigned kind, uint64_t key, int64_t arg)
{
	(void)ctx;
	pthread_mutex_lock(&mu);
	if (nfired < sizeof fired / sizeof fired[0])
		fired[nfired++] = (struct fired){ kind, key, arg, store_now_ms() };
	pthread_mutex_unlock(&mu);
}

static unsigned
model_pending(void)
{
	unsigned i, n = 0;

	for (i = 0; i < NAMES; i++)
		n += model[i].set;
	return n;
}

static void
bookkeeping(void)
{
	struct match_clock *k = match_clock_new(on_fire, NULL);
	int64_t far = store_now_ms() + 3600 * 1000;
	long ops, bad_cancel = 0;
	unsigned i;

	memset(model, 0, sizeof model);
	for (ops = 0; ops < 60000; ops++) {
		i = (unsigned)(rng() % NAMES);
		if (rng() % 3 == 0) {
			bool got = match_clock_cancel(k, kind_of(i), key_of(i));

			bad_cancel += got != model[i].set;
			model[i].set = false;
		} else {
			model[i] = (struct model){ true, far + (int64_t)(rng() % 100000), (int64_t)ops };
			match_clock_set(k, kind_of(i), key_of(i), model[i].when, model[i].arg);
		}
		if (ops % 10000 == 9999 && match_clock_pending(k) != model_pending())
			break;
	}
	is_int(bad_cancel, 0, "60000 sets, moves and cancels: every cancel answers as the model");
	is_int(match_clock_pending(k), model_pending(), "the pending timers are the model's (%u)",
	    model_pending());
	for (i = 0; i < NAMES; i++)
		if (model[i].set)
			match_clock_cancel(k, kind_of(i), key_of(i));
	is_int(match_clock_pending(k), 0, "cancelling the rest leaves nothing");
	is_int((long)nfired, 0, "and nothing an hour away fired");
	match_clock_free(k);
}

static void
firing(void)
{
	struct match_clock *k = match_clock_new(on_fire, NULL);
	int64_t start = store_now_ms(), last = 0;
	unsigned i, n = 400, wrong = 0, early = 0, order = 0, seen[NAMES] = { 0 };
	size_t f;

	memset(model, 0, sizeof model);
	nfired = 0;
	for (i = 0; i < n; i++) {
		model[i] = (struct model){ true, start + 60 + (int64_t)(rng() % 300), i };
		match_clock_set(k, kind_of(i), key_of(i), model[i].when, model[i].arg);
	}
	/* Move a quarter (new time and argument), cancel another quarter. */
	for (i = 0; i < n; i += 4) {
		model[i].when = start + 60 + (int64_t)(rng() % 300);
		model[i].arg = 100000 + i;
		match_clock_set(k, kind_of(i), key_of(i), model[i].when, model[i].arg);
		match_clock_cancel(k, kind_of(i + 1), key_of(i + 1));
		model[i + 1].set = false;
		if (model[i].when > last)
			last = model[i].when;
	}
	for (i = 0; i < n; i++)
		if (model[i].set && model[i].when > last)
			last = model[i].when;
	while (store_now_ms() < last + 300) {
		struct timespec ts = { 0, 20 * 1000 * 1000 };

		nanosleep(&ts, NULL);
	}
	match_clock_stop(k);
	pthread_mutex_lock(&mu);
	for (f = 0; f < nfired; f++) {
		for (i = 0; i < n && !(key_of(i) == fired[f].key && kind_of(i) == fired[f].kind); i++)
			;
		if (i == n || !model[i].set || fired[f].arg != model[i].arg) {
			wrong++;
			continue;
		}
		seen[i]++;
		early += fired[f].at < model[i].when;
		if (f > 0) {
			unsigned j;

			for (j = 0; j < n && !(key_of(j) == fired[f - 1].key && kind_of(j) == fired[f - 1].kind); j++)
				;
			order += j < n && model[j].when > model[i].when;
		}
	}
	pthread_mutex_unlock(&mu);
	is_int(wrong, 0, "every timer that fired was set, not cancelled, with its last argument");
	for (i = 0, f = 0; i < n; i++)
		f += model[i].set && seen[i] != 1;
	is_int((long)f, 0, "every timer still set fired exactly once (%zu fired)", nfired);
	is_int(early, 0, "none fired before its time");
	is_int(order, 0, "they fired in the order of their times");
	match_clock_set(k, 0, 1, store_now_ms(), 1);
	{
		struct timespec ts = { 0, 100 * 1000 * 1000 };

		nanosleep(&ts, NULL);
	}
	is_int((long)nfired, (long)(n - n / 4), "after stop, a timer set is ignored and nothing fires");
	match_clock_free(k);
}

int
main(void)
{
	bookkeeping();
	firing();
	match_clock_free(NULL);
	ok(1, "match_clock_free(NULL) is harmless");
	return tap_done();
}
