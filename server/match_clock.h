/*
 * match_clock.h: one thread that keeps every timed thing of the matches:
 * turn deadlines, long-poll timeouts, stream heartbeats. No thread per
 * match: a min-heap of timers, each named by a kind and a key, so that
 * setting a timer that exists moves it (a match has one deadline at a
 * time) and a timer can be cancelled by name.
 *
 * Times are wall-clock milliseconds (store_now_ms()), the clock the
 * deadlines in the store are written in, so that the daemon arms them again
 * after a restart. When a timer is due the thread removes it and calls
 * fire(ctx, kind, key, arg) without holding any lock; fire must be quick
 * (queue a store job, wake a request) and may set timers. Every call is
 * thread-safe.
 */
#ifndef SERVER_MATCH_CLOCK_H
#define SERVER_MATCH_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

struct match_clock;

typedef void (*match_clock_fire)(void *ctx, unsigned kind, uint64_t key, int64_t arg);

/* Starts the thread. NULL when out of memory or the thread cannot start. */
struct match_clock *match_clock_new(match_clock_fire fire, void *ctx);

/* Sets the timer (kind 0..15, key) to fire at when_ms with arg, replacing
 * the one of the same name. Ignored once the clock is stopped. */
void match_clock_set(struct match_clock *k, unsigned kind, uint64_t key, int64_t when_ms,
    int64_t arg);

/* Removes the timer (kind, key); false when there was none. */
bool match_clock_cancel(struct match_clock *k, unsigned kind, uint64_t key);

/* Timers pending now (for /metrics and tests). */
unsigned match_clock_pending(struct match_clock *k);

/* Stops the thread (timers still pending never fire). Idempotent. */
void match_clock_stop(struct match_clock *k);

/* Stops and frees. NULL is fine. */
void match_clock_free(struct match_clock *k);

#endif
