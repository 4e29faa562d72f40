/*
 * match_cache.h: the decoded state of the matches this daemon plays, kept
 * between moves so that a move does not decode the stored state again
 * (versus's decode, say, deals every bag again: 114 k instructions a move at 8
 * players). A state is the ruleset's opaque struct (match_rules.h), of
 * its state_size bytes: the cache holds any of at most the size it was
 * made for, and copies it as bytes.
 *
 * The store stays the truth: a move still reads its row, and an entry
 * is used only when the row's state bytes are exactly the bytes the entry
 * was decoded from (decoding is a function of those bytes), so a write
 * by another daemon, or a turn resolved anywhere, simply misses. Bounded:
 * MATCH_CACHE_ENTRIES entries of fixed size, a slot per match id (a
 * collision replaces the older); a finished match is dropped. Beside the
 * state, the match's seats (fixed while it plays; see
 * match_cache_get_seats). Thread-safe
 * (the writer and the readers share it).
 */
#ifndef ARCADED_MATCH_CACHE_H
#define ARCADED_MATCH_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store.h"

#define MATCH_CACHE_ENTRIES 128

struct match_cache;

struct match_cache_stats {
	uint64_t hits, misses;
	size_t   bytes;          /* the cache's fixed size */
};

/* A cache for decoded states of at most state_size bytes (the largest
 * of the rulesets'). */
struct match_cache *match_cache_new(size_t state_size);
void match_cache_free(struct match_cache *mc);

/* The state (size bytes) decoded from state[0..n) for match id into
 * out: true when the entry for id was decoded from these very bytes into
 * a state of this size. */
bool match_cache_get(struct match_cache *mc, int64_t id, const uint8_t *state, size_t n,
    void *out, size_t size);

/* Keeps st (size bytes) as the decoding of state[0..n) for match id (n
 * at most STORE_MATCH_STATE_MAX and size at most the cache's state size,
 * else nothing is kept). */
void match_cache_put(struct match_cache *mc, int64_t id, const uint8_t *state, size_t n,
    const void *st, size_t size);

/* The seats of match id, kept beside its state: a playing match's seats
 * are fixed from its start to its end (seats are taken in the lobby;
 * places and ratings come with the end, after which the caller reads them
 * from the store and drops the entry), so a move need not read them again.
 * The caller uses them only for a row it read as playing with n seats
 * taken. get: true with *n seats (at most STORE_MATCH_SEATS) when the
 * entry for id has them. A state put for another id in the same slot
 * forgets them; one for the same id keeps them. */
bool match_cache_get_seats(struct match_cache *mc, int64_t id, struct store_match_seat *out, int *n);
void match_cache_put_seats(struct match_cache *mc, int64_t id, const struct store_match_seat *seats,
    int n);

/* Forgets match id (it is over): its state and its seats. */
void match_cache_drop(struct match_cache *mc, int64_t id);

void match_cache_stats(struct match_cache *mc, struct match_cache_stats *out);

#endif
