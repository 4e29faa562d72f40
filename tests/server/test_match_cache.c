/*
 * test_match_cache.c: the daemon's decoded match states (match_cache.h).
 *
 *   - an entry answers only for its match id and for exactly the bytes it
 *     was decoded from: one changed byte, a longer or shorter state, or
 *     another id misses; what a hit gives encodes back to those bytes;
 *   - drop forgets a match; the cache holds at most MATCH_CACHE_ENTRIES
 *     matches whatever is put, and its size is fixed;
 *   - the hit and miss counters count every look-up.
 */
#include <stdlib.h>
#include <string.h>

#include "match_cache.h"
#include "tap.h"

static uint8_t bytes[4][VERSUS_SERIAL_MAX];
static size_t nbytes[4];
static struct versus_match ms[4];

int
main(void)
{
	struct match_cache *mc = match_cache_new();
	struct match_cache_stats st;
	struct versus_match out;
	uint8_t again[VERSUS_SERIAL_MAX], changed[VERSUS_SERIAL_MAX];
	const unsigned players[4] = { 2, 3, 5, 8 };
	int i, held = 0, lookups = 0, hits = 0;

	ok(mc != NULL, "a cache is made");
	for (i = 0; i < 4; i++) {
		ok(versus_init(&ms[i], 1000u + (unsigned)i, players[i]), "match %d (%u players) starts", i,
		    players[i]);
		nbytes[i] = versus_encode(&ms[i], bytes[i], sizeof bytes[i]);
		ok(nbytes[i] > 0 && nbytes[i] <= VERSUS_SERIAL_MAX, "match %d encodes (%zu bytes)", i, nbytes[i]);
	}
	ok(!match_cache_get(mc, 11, bytes[0], nbytes[0], &out), "an empty cache misses");
	lookups++;
	for (i = 0; i < 4; i++)
		match_cache_put(mc, 11 + i, bytes[i], nbytes[i], &ms[i]);
	for (i = 0; i < 4; i++) {
		memset(&out, 0, sizeof out);
		ok(match_cache_get(mc, 11 + i, bytes[i], nbytes[i], &out), "match %d: its own bytes hit", i);
		lookups++, hits++;
		ok(versus_encode(&out, again, sizeof again) == nbytes[i] && memcmp(again, bytes[i], nbytes[i]) == 0,
		    "match %d: the state a hit gives encodes back to the stored bytes", i);
		ok(out.nplayers == players[i], "match %d: with its %u players", i, players[i]);
	}
	memcpy(changed, bytes[3], nbytes[3]);
	changed[nbytes[3] / 2] ^= 1;
	ok(!match_cache_get(mc, 14, changed, nbytes[3], &out), "one byte changed (another writer's turn): a miss");
	ok(!match_cache_get(mc, 14, bytes[3], nbytes[3] - 1, &out), "a shorter state: a miss");
	ok(!match_cache_get(mc, 12, bytes[3], nbytes[3], &out), "another match's bytes under this id: a miss");
	ok(!match_cache_get(mc, 99, bytes[0], nbytes[0], &out), "an id never put: a miss");
	lookups += 4;
	match_cache_drop(mc, 12);
	ok(!match_cache_get(mc, 12, bytes[1], nbytes[1], &out), "a dropped (finished) match misses");
	ok(match_cache_get(mc, 11, bytes[0], nbytes[0], &out), "the others stay");
	lookups += 2, hits++;
	match_cache_put(mc, 20, bytes[0], VERSUS_SERIAL_MAX + 1, &ms[0]);
	ok(!match_cache_get(mc, 20, bytes[0], nbytes[0], &out), "a state longer than VERSUS_SERIAL_MAX is not kept");
	lookups++;

	for (i = 0; i < 4 * MATCH_CACHE_ENTRIES; i++)
		match_cache_put(mc, 1000 + i, bytes[i % 4], nbytes[i % 4], &ms[i % 4]);
	for (i = 0; i < 4 * MATCH_CACHE_ENTRIES; i++) {
		held += match_cache_get(mc, 1000 + i, bytes[i % 4], nbytes[i % 4], &out);
		lookups++;
	}
	hits += held;
	ok(held > 0 && held <= MATCH_CACHE_ENTRIES, "after %d matches put, %d held: at most %d",
	    4 * MATCH_CACHE_ENTRIES, held, MATCH_CACHE_ENTRIES);
	match_cache_stats(mc, &st);
	is_int(st.hits, hits, "hits counted");
	is_int(st.misses, lookups - hits, "misses counted");
	ok(st.bytes >= MATCH_CACHE_ENTRIES * sizeof(struct versus_match) && st.bytes < 8u << 20,
	    "a fixed size: %zu bytes", st.bytes);
	match_cache_free(mc);
	return tap_done();
}
