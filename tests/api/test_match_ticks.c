/*
 * test_match_ticks.c: the real-time clock of every ruleset that has one
 * (match_rules.h's struct match_ticks, walked from the table, so a
 * ruleset with a tick clock added by its line is held here with no new
 * line), and what match_ticks.h makes of it:
 *
 *   - keys: a request's keys read in order, one input each, blanks
 *     ignored; no key, an unknown character and more keys than asked are
 *     refused with a reason; no request can send the disconnect input;
 *     every input's text reads back as that input;
 *   - random matches: seeded bots sending random keys (and a disconnect)
 *     tick by tick until the end or a bound; the replay of what they sent
 *     (match_ticks_replay) verifies (match_replay_verify) with the same
 *     final, however the inputs fall into ticks;
 *   - refusals: a final that differs, ticks that decrease, an input after
 *     the end, a text that is no input, another clock, keys missing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "match.h"
#include "match_rules.h"
#include "match_ticks.h"
#include "tap.h"
#include "xorshift.h"

#define MATCHES 30
#define TICKS_MAX 4000
#define INPUTS_MAX 20000

static const char keys_all[] = "LRXZSDCv^F12";

static void
keys(const struct match_rules *mr)
{
	const struct match_ticks *mt = mr->ticks;
	struct match_input in[64], back;
	char reason[ENGINE_REASON_MAX], text[MATCH_INPUT_TEXT_MAX], many[40];
	size_t n, k;
	bool round = true;

	n = mt->keys_read("L L\tXD", 6, in, 64, reason, sizeof reason);
	is_int(n, 4, "%s: 'L L<tab>XD' reads as 4 inputs, blanks ignored", mr->name);
	mt->input_text(&in[2], text, sizeof text);
	is_str(text, "X", "%s: in the order sent", mr->name);
	ok(mt->keys_read("", 0, in, 64, reason, sizeof reason) == 0 && reason[0] != '\0',
	    "%s: no key is refused, with a reason (%s)", mr->name, reason);
	ok(mt->keys_read("LQ", 2, in, 64, reason, sizeof reason) == 0 && strstr(reason, "'Q'") != NULL,
	    "%s: an unknown key is refused, named (%s)", mr->name, reason);
	memset(many, 'L', sizeof many);
	ok(mt->keys_read(many, sizeof many, in, 32, reason, sizeof reason) == 0,
	    "%s: more keys than the bound are refused (%s)", mr->name, reason);
	ok(mt->keys_read("disconnect", 10, in, 64, reason, sizeof reason) == 0,
	    "%s: no request can send the disconnect input", mr->name);
	n = mt->keys_read(keys_all, strlen(keys_all), in, 64, reason, sizeof reason);
	for (k = 0; k < n; k++) {
		mt->input_text(&in[k], text, sizeof text);
		memset(&back, 0, sizeof back);
		round = round && mt->input_read(text, &back) && back.kind == in[k].kind && back.arg == in[k].arg;
	}
	ok(n == strlen(keys_all) && round, "%s: every key's text reads back as its input", mr->name);
	memset(&back, 0, sizeof back);
	mt->disconnect(&back);
	mt->input_text(&back, text, sizeof text);
	memset(&in[0], 0, sizeof in[0]);
	ok(mt->input_read(text, &in[0]) && in[0].kind == back.kind,
	    "%s: the disconnect's text (%s) reads back", mr->name, text);
	ok(!mt->input_read("", &back) && !mt->input_read("LL", &back),
	    "%s: an empty text, two keys, are no input", mr->name);
}

/* A random match on seed played to its end (or TICKS_MAX ticks): its inputs into
 * list, their count in *n; st at the end, its totals. */
static bool
play(const struct match_rules *mr, uint64_t *rng, unsigned players, uint64_t seed, void *st, void *ev,
    struct match_totals *t, struct match_input *list, size_t *n)
{
	const struct match_ticks *mt = mr->ticks;
	struct match_options o = { 0 };
	struct match_standing s;
	struct match_input in[8];
	char reason[ENGINE_REASON_MAX], key;
	uint32_t tick;
	size_t first, k, got;
	unsigned seat, quit = xorshift_below(rng, 4) == 0 ? xorshift_below(rng, players) : players;

	memset(t, 0, sizeof *t);
	*n = 0;
	if (!mt->start(st, seed, players, &o))
		return false;
	for (tick = 0; tick < TICKS_MAX; tick++) {
		mr->standing(st, &s);
		if (s.over)
			break;
		first = *n;
		for (seat = 0; seat < players && *n + 16 < INPUTS_MAX; seat++) {
			if (xorshift_below(rng, 3) != 0)
				continue;
			for (k = 0, got = 0; k < 1 + xorshift_below(rng, 3); k++) {
				key = keys_all[xorshift_below(rng, (uint32_t)strlen(keys_all))];
				got += mt->keys_read(&key, 1, in + got, 8 - got, reason, sizeof reason);
			}
			for (k = 0; k < got; k++) {
				in[k].tick = tick;
				in[k].seat = (uint8_t)seat;
				list[(*n)++] = in[k];
			}
		}
		if (seat == players && quit < players && tick == 400 && *n < INPUTS_MAX) {
			memset(&list[*n], 0, sizeof list[0]);
			mt->disconnect(&list[*n]);
			list[*n].tick = tick;
			list[(*n)++].seat = (uint8_t)quit;
		}
		mt->tick(st, list + first, *n - first, ev);
		mt->totals_add(t, ev);
	}
	return true;
}

static json_t *
replay_of(const struct match_rules *mr, const void *st, const struct match_totals *t,
    const struct match_input *list, size_t n, unsigned players, int64_t seed)
{
	struct match_rules_record r;
	uint8_t totals[MATCH_TOTALS_SIZE];

	memset(&r, 0, sizeof r);
	match_totals_encode(t, totals);
	r.id = 1;
	r.seed = seed;
	r.rules = mr->name;
	r.players = (int)players;
	r.turn_cap = (int)mr->ticks->tick_cap;
	r.ticks = true;
	r.state = st;
	r.totals = totals;
	return match_ticks_replay(mr, &r, list, n);
}

static int
check(const struct match_rules *mr, json_t *replay, struct match_replay_check *chk)
{
	int rc = match_replay_verify(mr, replay, chk);

	json_decref(chk->final);
	chk->final = NULL;
	return rc;
}

static void
matches(const struct match_rules *mr)
{
	struct match_input *list = malloc(INPUTS_MAX * sizeof *list);
	void *st = malloc(mr->state_size), *ev = malloc(mr->ticks->events_size);
	struct match_replay_check chk;
	struct match_totals t;
	uint64_t rng = 0x5eed;
	size_t n;
	unsigned m, verified = 0, ended = 0;
	json_t *replay = NULL, *bad, *entry;

	for (m = 0; m < MATCHES && list != NULL && st != NULL && ev != NULL; m++) {
		unsigned players = mr->players_min + xorshift_below(&rng, mr->players_max - mr->players_min + 1);
		int64_t seed = (int64_t)(xorshift_next(&rng) & 0xffffff);
		struct match_standing s;

		if (!play(mr, &rng, players, (uint64_t)seed, st, ev, &t, list, &n))
			break;
		mr->standing(st, &s);
		ended += s.over;
		json_decref(replay);
		replay = replay_of(mr, st, &t, list, n, players, seed);
		if (replay != NULL && check(mr, replay, &chk) == 0)
			verified++;
		else
			diag("match %u: %s (input %zu)", m, chk.reason, chk.turn);
	}
	is_int(verified, MATCHES, "%s: %d random real-time matches (%u ended, a disconnect in some) replay "
	    "and verify from their inputs", mr->name, MATCHES, ended);
	if (replay == NULL || json_array_size(json_object_get(replay, "inputs")) < 2) {
		ok(0, "%s: a replay with inputs to damage", mr->name);
		goto done;
	}
	bad = json_deep_copy(replay);
	entry = json_array_get(json_object_get(json_object_get(bad, "final"), "players"), 0);
	json_object_set_new(entry, "score", json_integer(json_integer_value(json_object_get(entry,
	    "score")) + 1));
	ok(check(mr, bad, &chk) != 0 && strstr(chk.reason, "score") != NULL,
	    "%s: a final that differs is refused, naming it (%s)", mr->name, chk.reason);
	json_decref(bad);
	bad = json_deep_copy(replay);
	entry = json_array_get(json_object_get(bad, "inputs"), 1);
	json_array_set_new(entry, 0, json_integer(json_integer_value(json_array_get(
	    json_array_get(json_object_get(bad, "inputs"), 0), 0)) - 1));
	ok(check(mr, bad, &chk) != 0 && chk.turn == 2,
	    "%s: an input whose tick is below the one before is refused at it (%s)", mr->name, chk.reason);
	json_decref(bad);
	bad = json_deep_copy(replay);
	json_array_set_new(json_array_get(json_object_get(bad, "inputs"), 0), 2, json_string("Q"));
	ok(check(mr, bad, &chk) != 0 && chk.turn == 1, "%s: a text that is no input is refused (%s)",
	    mr->name, chk.reason);
	json_decref(bad);
	bad = json_deep_copy(replay);
	json_array_append_new(json_object_get(bad, "inputs"), json_pack("[i, i, s]",
	    mr->ticks->tick_cap, 0, "L"));
	ok(check(mr, bad, &chk) != 0, "%s: an input after the end is refused (%s)", mr->name, chk.reason);
	json_decref(bad);
	bad = json_deep_copy(replay);
	json_object_set_new(bad, "clock", json_string("turns"));
	ok(check(mr, bad, &chk) != 0 && strstr(chk.reason, "clock") != NULL,
	    "%s: another clock is refused (%s)", mr->name, chk.reason);
	json_decref(bad);
	bad = json_deep_copy(replay);
	json_object_del(bad, "inputs");
	ok(check(mr, bad, &chk) != 0, "%s: a replay without inputs is refused (%s)", mr->name, chk.reason);
	json_decref(bad);
done:
	json_decref(replay);
	free(list);
	free(st);
	free(ev);
}

int
main(void)
{
	size_t i;
	unsigned with = 0;

	for (i = 0; i < MATCH_RULES__COUNT; i++) {
		const struct match_rules *mr = match_rules_table[i];

		if (mr->ticks == NULL)
			continue;
		with++;
		ok(mr->ticks->rate > 0 && mr->ticks->tick_cap > mr->ticks->countdown &&
		    mr->ticks->events_size > 0, "%s: a tick clock of %u ticks a second", mr->name,
		    mr->ticks->rate);
		keys(mr);
		matches(mr);
	}
	ok(with > 0, "%u ruleset(s) with a tick clock", with);
	return tap_done();
}
