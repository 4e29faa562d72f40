/*
 * match_cache.h: the decoded engine state of the matches this daemon
 * plays, kept between moves so that a move does not decode the stored
 * state again (versus_decode deals every bag again: 114 k instructions a
 * move at 8 players).
 *
 * The store stays the truth: a move still reads its row, and an entry
 * is used only when the row's state bytes are exactly the bytes the entry
 * was decoded from (decoding is a function of those bytes), so a write
 * by another daemon, or a turn resolved anywhere, simply misses. Bounded:
 * MATCH_CACHE_ENTRIES entries of fixed size, a slot per match id (a
 * collision replaces the older); a finished match is dropped. Thread-safe
 * (the writer and the readers share it).
 */
#ifndef ARCADED_MATCH_CACHE_H
#define ARCADED_MATCH_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "versus.h"

#define MATCH_CACHE_ENTRIES 128

struct match_cache;

struct match_cache_stats {
	uint64_t hits, misses;
	size_t   bytes;          /* the cache's fixed size */
};

struct match_cache *match_cache_new(void);
void match_cache_free(struct match_cache *mc);

/* The state decoded from state[0..n) for match id into *out: true when
 * the entry for id was decoded from these very bytes. */
bool match_cache_get(struct match_cache *mc, int64_t id, const uint8_t *state, size_t n,
    struct versus_match *out);

/* Keeps m as the decoding of state[0..n) for match id (n at most
 * VERSUS_SERIAL_MAX, else nothing is kept). */
void match_cache_put(struct match_cache *mc, int64_t id, const uint8_t *state, size_t n,
    const struct versus_match *m);

/* Forgets match id (it is over). */
void match_cache_drop(struct match_cache *mc, int64_t id);

void match_cache_stats(struct match_cache *mc, struct match_cache_stats *out);

#endif
