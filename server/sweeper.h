/*
 * sweeper.h: retention. A thread wakes every few seconds and has the store
 * delete expired agent-check puzzles (a minute after they expire, so a
 * late answer still reads "expired") and runs that never got a move once
 * they are older than --unplayed-retention, a batch at a time so that no
 * write transaction grows long. Finished and played runs are kept.
 */
#ifndef SERVER_SWEEPER_H
#define SERVER_SWEEPER_H

#include <stdint.h>

struct store;
struct sweeper;

/* Sweeps every interval_s seconds (and once at start). NULL on failure. */
struct sweeper *sweeper_start(struct store *s, unsigned unplayed_retention_s, unsigned interval_s);

/* Rows deleted so far (for /metrics). */
void sweeper_counts(struct sweeper *w, uint64_t *puzzles, uint64_t *runs, uint64_t *lobbies);

/* Stops the thread (a sweep in progress finishes first). NULL is fine. */
void sweeper_stop(struct sweeper *w);

#endif
