/*
 * fuzz_ticks.c: one fuzz target for what a real-time match reads from
 * outside, for every ruleset with a tick clock on the table (match_rules.h,
 * struct match_ticks), so that one added there is fuzzed with no new code:
 * a request's keys (POST .../keys: keys_read, whose inputs must then run a
 * tick of a fresh match) and a real-time replay (JSON text, as the verify
 * route and `arcaded verify` take it: match_replay_verify). The first input
 * byte picks the ruleset and the reader.
 *
 * Built two ways, as fuzz_mcp.c: a libFuzzer target where clang links
 * -fsanitize=fuzzer (run by hand: build-clang/tests/fuzz/fuzz_ticks
 * -max_total_time=120), and a test program (FUZZ_TICKS_DRIVER) that makes
 * its inputs from a seeded generator: random key strings, and replays of a
 * played match with their text damaged a byte or a few at a time, in suite
 * api (under the sanitizers too).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "match.h"
#include "match_rules.h"
#include "match_ticks.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define KEYS_CAP 32

/* The rulesets with a tick clock, in table order; their count. */
static size_t
rulesets(const struct match_rules **out)
{
	size_t i, n = 0;

	for (i = 0; i < MATCH_RULES__COUNT; i++)
		if (match_rules_table[i]->ticks != NULL)
			out[n++] = match_rules_table[i];
	return n;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct match_rules *all[MATCH_RULES__COUNT], *mr;
	struct match_input in[KEYS_CAP];
	struct match_replay_check chk;
	struct match_options o = { 0 };
	char reason[ENGINE_REASON_MAX] = "";
	size_t nrules = rulesets(all), n, k;
	void *st, *ev;
	json_t *v;

	if (size == 0 || nrules == 0)
		return 0;
	mr = all[(data[0] >> 1) % nrules];
	if (data[0] & 1) { /* a replay */
		v = json_loadb((const char *)data + 1, size - 1, JSON_DECODE_ANY, NULL);
		if (v != NULL) {
			match_replay_verify(mr, v, &chk);
			json_decref(chk.final);
		}
		json_decref(v);
		return 0;
	}
	/* Keys: whatever is read runs a tick of a fresh match past its
	 * countdown, as the seat's inputs. */
	n = mr->ticks->keys_read((const char *)data + 1, size - 1, in, KEYS_CAP, reason, sizeof reason);
	if (n > KEYS_CAP || (n == 0 && reason[0] == '\0'))
		abort(); /* a count past the room, or a refusal without its reason */
	st = malloc(mr->state_size);
	ev = malloc(mr->ticks->events_size);
	if (st != NULL && ev != NULL && mr->ticks->start(st, 1, mr->players_min, &o)) {
		for (k = 0; k < mr->ticks->countdown; k++)
			mr->ticks->tick(st, NULL, 0, ev);
		for (k = 0; k < n; k++)
			in[k].seat = 0;
		mr->ticks->tick(st, in, n, ev);
	}
	free(st);
	free(ev);
	return 0;
}

#ifdef FUZZ_TICKS_DRIVER
#include "tap.h"
#include "xorshift.h"

static const char keys_all[] = "LRXZSDCv^F12345678 \tQz!";

/* A replay of a match of mr's played with random keys, as text (caller
 * frees), or NULL. */
static char *
played(const struct match_rules *mr, uint64_t *rng)
{
	const struct match_ticks *mt = mr->ticks;
	struct match_input *list = calloc(4096, sizeof *list), x;
	struct match_options o = { 0 };
	struct match_rules_record r;
	struct match_standing s;
	struct match_totals t;
	uint8_t totals[MATCH_TOTALS_SIZE];
	void *st = malloc(mr->state_size), *ev = malloc(mt->events_size);
	char reason[ENGINE_REASON_MAX], key, *text = NULL;
	size_t n = 0, first;
	uint32_t tick;
	json_t *replay;

	memset(&t, 0, sizeof t);
	if (list == NULL || st == NULL || ev == NULL || !mt->start(st, 9, mr->players_min, &o))
		goto done;
	for (tick = 0; tick < 900; tick++) {
		mr->standing(st, &s);
		if (s.over)
			break;
		first = n;
		key = keys_all[xorshift_below(rng, 12)];
		if (n < 4096 && mt->keys_read(&key, 1, &x, 1, reason, sizeof reason) == 1) {
			x.tick = tick;
			x.seat = (uint8_t)xorshift_below(rng, mr->players_min);
			list[n++] = x;
		}
		mt->tick(st, list + first, n - first, ev);
		mt->totals_add(&t, ev);
	}
	memset(&r, 0, sizeof r);
	match_totals_encode(&t, totals);
	r.id = 1;
	r.seed = 9;
	r.rules = mr->name;
	r.players = (int)mr->players_min;
	r.turn_cap = (int)mt->tick_cap;
	r.ticks = true;
	r.state = st;
	r.totals = totals;
	if ((replay = match_ticks_replay(mr, &r, list, n)) != NULL)
		text = json_dumps(replay, JSON_COMPACT);
	json_decref(replay);
done:
	free(list);
	free(st);
	free(ev);
	return text;
}

int
main(int argc, char **argv)
{
	const struct match_rules *all[MATCH_RULES__COUNT];
	size_t nrules = rulesets(all), r, len, k;
	long rounds = argc > 1 ? strtol(argv[1], NULL, 10) : 1000, i;
	uint64_t rng = 0x71c5;
	uint8_t buf[1 << 16];

	for (r = 0; r < nrules; r++) {
		char *text = played(all[r], &rng);

		if (!ok(text != NULL, "%s: a played match's replay to damage", all[r]->name))
			continue;
		len = strlen(text);
		for (i = 0; i < rounds; i++) {
			/* Keys: a random string of keys, and of anything. */
			buf[0] = (uint8_t)(r << 1);
			for (k = 1; k < 1 + xorshift_below(&rng, 40); k++)
				buf[k] = xorshift_below(&rng, 4) == 0 ? (uint8_t)xorshift_below(&rng, 256) :
				    (uint8_t)keys_all[xorshift_below(&rng, (uint32_t)strlen(keys_all))];
			LLVMFuzzerTestOneInput(buf, k);
			/* A replay, a byte or a few changed, or cut short. */
			if (len + 1 > sizeof buf)
				continue;
			buf[0] = (uint8_t)(r << 1 | 1);
			memcpy(buf + 1, text, len);
			for (k = 0; k < 1 + xorshift_below(&rng, 3); k++)
				buf[1 + xorshift_below(&rng, (uint32_t)len)] = xorshift_below(&rng, 2) ?
				    (uint8_t)"0123456789[],\"-:{}"[xorshift_below(&rng, 18)] :
				    (uint8_t)xorshift_below(&rng, 256);
			LLVMFuzzerTestOneInput(buf, 1 + (xorshift_below(&rng, 8) == 0 ?
			    xorshift_below(&rng, (uint32_t)len) : len));
		}
		ok(1, "%s: %ld random key strings and damaged replays read without a fault", all[r]->name,
		    rounds);
		free(text);
	}
	ok(nrules > 0, "%zu ruleset(s) with a tick clock", nrules);
	return tap_done();
}
#endif
