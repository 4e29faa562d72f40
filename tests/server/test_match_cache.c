/*
 * test_match_cache.c: the daemon's decoded match states (match_cache.h).
 *
 *   - an entry answers only for its match id and for exactly the bytes it
 *     was decoded from: one changed byte, a longer or shorter state, or
 *     another id misses; what a hit gives encodes back to those bytes;
 *   - drop forgets a match; the cache holds at most MATCH_CACHE_ENTRIES
 *     matches whatever is put, and its size is fixed;
 *   - the hit and miss counters count every look-up;
 *   - the seats kept beside a state: they come back as put, are no state
 *     themselves, stay when the same match's state is put again, go when
 *     another match takes the slot or the match is dropped; more than
 *     STORE_MATCH_SEATS are not kept.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "match_cache.h"
#include "versus.h"
#include "tap.h"

static uint8_t bytes[4][VERSUS_SERIAL_MAX];
static size_t nbytes[4];
static struct versus_match ms[4];

int
main(void)
{
	struct match_cache *mc = match_cache_new(sizeof(struct versus_match));
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
	ok(!match_cache_get(mc, 11, bytes[0], nbytes[0], &out, sizeof out), "an empty cache misses");
	lookups++;
	for (i = 0; i < 4; i++)
		match_cache_put(mc, 11 + i, bytes[i], nbytes[i], &ms[i], sizeof ms[0]);
	for (i = 0; i < 4; i++) {
		memset(&out, 0, sizeof out);
		ok(match_cache_get(mc, 11 + i, bytes[i], nbytes[i], &out, sizeof out), "match %d: its own bytes hit", i);
		lookups++, hits++;
		ok(versus_encode(&out, again, sizeof again) == nbytes[i] && memcmp(again, bytes[i], nbytes[i]) == 0,
		    "match %d: the state a hit gives encodes back to the stored bytes", i);
		ok(out.nplayers == players[i], "match %d: with its %u players", i, players[i]);
	}
	memcpy(changed, bytes[3], nbytes[3]);
	changed[nbytes[3] / 2] ^= 1;
	ok(!match_cache_get(mc, 14, changed, nbytes[3], &out, sizeof out), "one byte changed (another writer's turn): a miss");
	ok(!match_cache_get(mc, 14, bytes[3], nbytes[3] - 1, &out, sizeof out), "a shorter state: a miss");
	ok(!match_cache_get(mc, 12, bytes[3], nbytes[3], &out, sizeof out), "another match's bytes under this id: a miss");
	ok(!match_cache_get(mc, 99, bytes[0], nbytes[0], &out, sizeof out), "an id never put: a miss");
	lookups += 4;
	match_cache_drop(mc, 12);
	ok(!match_cache_get(mc, 12, bytes[1], nbytes[1], &out, sizeof out), "a dropped (finished) match misses");
	ok(match_cache_get(mc, 11, bytes[0], nbytes[0], &out, sizeof out), "the others stay");
	lookups += 2, hits++;
	match_cache_put(mc, 20, bytes[0], STORE_MATCH_STATE_MAX + 1, &ms[0], sizeof ms[0]);
	ok(!match_cache_get(mc, 20, bytes[0], nbytes[0], &out, sizeof out), "a state longer than STORE_MATCH_STATE_MAX is not kept");
	lookups++;

	for (i = 0; i < 4 * MATCH_CACHE_ENTRIES; i++)
		match_cache_put(mc, 1000 + i, bytes[i % 4], nbytes[i % 4], &ms[i % 4], sizeof ms[0]);
	for (i = 0; i < 4 * MATCH_CACHE_ENTRIES; i++) {
		held += match_cache_get(mc, 1000 + i, bytes[i % 4], nbytes[i % 4], &out, sizeof out);
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
	{
		struct store_match_seat seats[STORE_MATCH_SEATS], got[STORE_MATCH_SEATS];
		int n = -1, k;
		int64_t other = 0;

		memset(seats, 0, sizeof seats);
		for (k = 0; k < 3; k++) {
			seats[k].account_id = 100 + k;
			snprintf(seats[k].name, sizeof seats[k].name, "player%d", k);
		}
		ok(!match_cache_get_seats(mc, 5000, got, &n), "no seats for a match never put");
		match_cache_put_seats(mc, 5000, seats, 3);
		ok(match_cache_get_seats(mc, 5000, got, &n) && n == 3 &&
		    memcmp(got, seats, 3 * sizeof seats[0]) == 0, "the seats put come back");
		ok(!match_cache_get(mc, 5000, bytes[0], nbytes[0], &out, sizeof out), "seats alone are no state: a miss");
		match_cache_put(mc, 5000, bytes[1], nbytes[1], &ms[1], sizeof ms[0]);
		n = -1;
		ok(match_cache_get_seats(mc, 5000, got, &n) && n == 3 && got[2].account_id == 102 &&
		    strcmp(got[2].name, "player2") == 0, "a state put for the same match keeps its seats");
		ok(match_cache_get(mc, 5000, bytes[1], nbytes[1], &out, sizeof out), "and its state hits");
		for (k = 1; k < 100000 && other == 0; k++) {
			match_cache_put(mc, 5000 + k, bytes[0], nbytes[0], &ms[0], sizeof ms[0]);
			if (!match_cache_get_seats(mc, 5000, got, &n))
				other = 5000 + k;
		}
		ok(other != 0 && !match_cache_get_seats(mc, other, got, &n) &&
		    match_cache_get(mc, other, bytes[0], nbytes[0], &out, sizeof out),
		    "another match taking the slot (%lld) forgets the seats, and has none", (long long)other);
		match_cache_put_seats(mc, 6000, seats, 2);
		match_cache_drop(mc, 6000);
		ok(!match_cache_get_seats(mc, 6000, got, &n), "a dropped match's seats are gone");
		match_cache_put_seats(mc, 7000, seats, STORE_MATCH_SEATS + 1);
		ok(!match_cache_get_seats(mc, 7000, got, &n), "more than STORE_MATCH_SEATS are not kept");
	}
	match_cache_free(mc);
	return tap_done();
}
