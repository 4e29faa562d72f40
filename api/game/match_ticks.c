/*
 * match_ticks.c: a real-time match over its ruleset's tick hooks
 * (match_ticks.h): the stream's frame, the replay of its inputs, its
 * certificate and the verifier. Above match.c, whose totals, ends,
 * places and final it uses; nothing below calls here.
 *
 * Workload: a frame for every tick that changed what a view shows, per
 * viewer with a stream open (a few KB each); a replay and a certificate
 * once a match; verification runs every tick of the match, 60 a second
 * of play (some microseconds each).
 */
#include "match_ticks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "certificate.h"
#include "jw.h"
#include "replay.h"

/* ---- the stream ---- */

void
match_live_write(const struct match_rules *mr, struct jw *w, const struct match_rules_record *r,
    int viewer, uint32_t tick, const char *phase, const void *ev)
{
	struct match_standing s;
	struct match_totals t;
	uint8_t places[MATCH_PLAYERS_MAX] = { 0 };
	enum match_end end = MATCH_END_NONE;
	bool state = r->state != NULL && r->totals != NULL &&
	    match_totals_decode(&t, r->totals, MATCH_TOTALS_SIZE);
	char id[24];
	int i;

	if (state) {
		mr->standing(r->state, &s);
		end = match_end_of(&s, (uint32_t)r->turn_cap);
		match_places(&s, end, places);
	}
	jw_object(w);
	snprintf(id, sizeof id, "%lld", (long long)r->id);
	jw_kstring(w, "match_id", id);
	jw_kstring(w, "rules", mr->name);
	jw_kstring(w, "clock", "ticks");
	jw_kint(w, "tick", tick);
	jw_kstring(w, "phase", phase);
	jw_key(w, "end");
	if (match_end_name(end) != NULL)
		jw_string(w, match_end_name(end));
	else
		jw_null(w);
	jw_key(w, "you");
	if (viewer >= 0)
		jw_int(w, viewer);
	else
		jw_null(w);
	jw_key(w, "seats");
	jw_array(w);
	for (i = 0; i < r->nseats && i < MATCH_PLAYERS_MAX; i++) {
		jw_object(w);
		if (state && (unsigned)i < s.nplayers)
			mr->seat_write(w, r->state, viewer, (unsigned)i, places[i], &t);
		else
			jw_kint(w, "seat", i);
		jw_kstring(w, "account", r->seats[i].account != NULL ? r->seats[i].account : "");
		jw_object_end(w);
	}
	jw_array_end(w);
	jw_key(w, "events");
	if (ev != NULL && state)
		mr->ticks->events_write(w, r->state, ev);
	else
		jw_null(w);
	jw_object_end(w);
}

#define FRAME_FIRST 4096
#define FRAME_MAX (4u << 20)

char *
match_live_event_text(const struct match_rules *mr, const struct match_rules_record *r,
    int viewer, uint32_t tick, const char *phase, const void *ev, size_t *len)
{
	struct jw w;
	char *text, *event = NULL;
	size_t n = 0, cap;

	jw_init(&w, FRAME_FIRST, FRAME_MAX);
	match_live_write(mr, &w, r, viewer, tick, phase, ev);
	if ((text = jw_take(&w, &n)) == NULL)
		return NULL;
	cap = n + 64;
	if ((event = malloc(cap)) != NULL)
		*len = (size_t)snprintf(event, cap, "id: %u\nevent: tick\ndata: %s\n\n", tick, text);
	free(text);
	return event;
}

/* ---- the replay ---- */

json_t *
match_ticks_final_json(const struct match_standing *s, enum match_end end,
    const struct match_totals *t)
{
	json_t *final = match_final_json(s, end, t);

	/* match_final_json counts the standing's turns: on this clock, ticks. */
	if (final != NULL && (json_object_set_new(final, "ticks", json_integer(s->turn)) != 0 ||
	    json_object_del(final, "turns") != 0)) {
		json_decref(final);
		return NULL;
	}
	return final;
}

json_t *
match_ticks_inputs_json(const struct match_ticks *mt, const struct match_input *inputs, size_t n)
{
	json_t *a = json_array();
	char text[MATCH_INPUT_TEXT_MAX];
	size_t k;

	for (k = 0; k < n && a != NULL; k++) {
		mt->input_text(&inputs[k], text, sizeof text);
		if (json_array_append_new(a, json_pack("[I, i, s]", (json_int_t)inputs[k].tick,
		    (int)inputs[k].seat, text)) != 0) {
			json_decref(a);
			a = NULL;
		}
	}
	return a;
}

/* The standing, totals and end of r once it has a state; false before. */
static bool
record_standing(const struct match_rules *mr, const struct match_rules_record *r,
    struct match_totals *t, struct match_standing *s, enum match_end *end)
{
	if (r->state == NULL || r->totals == NULL || !match_totals_decode(t, r->totals, MATCH_TOTALS_SIZE))
		return false;
	mr->standing(r->state, s);
	*end = match_end_of(s, (uint32_t)r->turn_cap);
	return true;
}

/* The replay's object: every part stolen. */
static json_t *
ticks_replay_new(const char *rules, uint64_t seed, unsigned nplayers, uint32_t cap, json_t *inputs,
    json_t *final, unsigned chance, const uint8_t *weights)
{
	json_t *replay = match_replay_new(rules, seed, nplayers, cap, inputs, final, chance, weights);
	json_t *v;

	/* match_replay_new names the turn clock's members: this clock's are
	 * "tick_cap" and "inputs", beside "clock". */
	if (replay == NULL)
		return NULL;
	if ((v = json_object_get(replay, "turns")) == NULL ||
	    json_object_set(replay, "inputs", v) != 0 || json_object_del(replay, "turns") != 0 ||
	    json_object_set_new(replay, "tick_cap", json_integer(cap)) != 0 ||
	    json_object_del(replay, "turn_cap") != 0 ||
	    json_object_set_new(replay, "clock", json_string("ticks")) != 0) {
		json_decref(replay);
		return NULL;
	}
	return replay;
}

json_t *
match_ticks_replay(const struct match_rules *mr, const struct match_rules_record *r,
    const struct match_input *inputs, size_t n)
{
	struct match_standing s;
	struct match_totals t;
	enum match_end end;

	if (mr->ticks == NULL || !record_standing(mr, r, &t, &s, &end))
		return NULL;
	return ticks_replay_new(mr->name, (uint64_t)r->seed, (unsigned)r->players, (uint32_t)r->turn_cap,
	    match_ticks_inputs_json(mr->ticks, inputs, n), match_ticks_final_json(&s, end, &t),
	    s.item_chance, s.item_weights);
}

char *
match_ticks_certificate(const struct match_rules *mr, const struct keyring *kr,
    const struct match_rules_record *r, const struct match_input *inputs, size_t n, int64_t now)
{
	json_t *replay = match_ticks_replay(mr, r, inputs, n);
	struct match_standing s;
	struct match_totals t;
	enum match_end end;
	char *cert = NULL;

	if (replay != NULL && record_standing(mr, r, &t, &s, &end))
		cert = match_certificate_sign(kr, r, replay, &s, end, true, now);
	json_decref(replay);
	return cert;
}

/* ---- the verifier ---- */

static bool
integer_in(const json_t *v, json_int_t lo, json_int_t hi, json_int_t *out)
{
	if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
		return false;
	*out = json_integer_value(v);
	return true;
}

/* Input k of the list into in, its tick not before `after`. */
static int
read_input(const struct match_rules *mr, const json_t *entry, size_t k, unsigned nplayers,
    uint32_t after, uint32_t cap, struct match_input *in, struct replay_check *c)
{
	const char *text = json_string_value(json_array_get(entry, 2));
	json_int_t tick, seat;

	if (!json_is_array(entry) || json_array_size(entry) != 3 ||
	    !integer_in(json_array_get(entry, 0), after, cap, &tick) ||
	    !integer_in(json_array_get(entry, 1), 0, (json_int_t)nplayers - 1, &seat) || text == NULL)
		return replay_fail(c, k + 1, "inputs[%zu] must be [tick, seat, key]: a tick from %u to "
		    "%u (never below the one before), a seat of the match and a key", k, after, cap);
	if (!mr->ticks->input_read(text, in))
		return replay_fail(c, k + 1, "inputs[%zu]: '%s' is no input of %s", k, text, mr->name);
	in->tick = (uint32_t)tick;
	in->seat = (uint8_t)seat;
	return 0;
}

static int
verify_ticks(const struct match_rules *mr, const json_t *replay, struct replay_check *c)
{
	static const char *const keys[] = { "schema", "rules", "clock", "seed", "players", "tick_cap",
		"inputs", "final", NULL };
	static const char *const items_key[] = { "items", NULL };
	static const char *const final_keys[] = { "ticks", "end", "players", NULL };
	const struct match_ticks *mt = mr->ticks;
	struct match_input *list = NULL;
	struct match_options o;
	struct match_standing s;
	struct match_totals t;
	const json_t *inputs, *final;
	json_int_t schema, seed, nplayers, cap, end;
	void *st = NULL, *ev = NULL;
	size_t k, n;
	uint32_t after = 0;
	int rc = -1;

	if (mt == NULL)
		return replay_fail(c, 0, "%s has no real-time clock: its replays are turn by turn", mr->name);
	if (!integer_in(json_object_get(replay, "schema"), MATCH_REPLAY_SCHEMA, MATCH_REPLAY_SCHEMA,
	    &schema))
		return replay_fail(c, 0, "unknown replay schema (this server reads schema %d)",
		    MATCH_REPLAY_SCHEMA);
	if (!replay_exact_keys(replay, keys, json_object_get(replay, "items") ? items_key : NULL))
		return replay_fail(c, 0, "a real-time match replay is an object with exactly schema, "
		    "rules, clock, seed, players, tick_cap, inputs and final, and items for a match "
		    "with items");
	if (match_replay_setup(mr, replay, &o, &seed, &nplayers, c) != 0)
		return -1;
	if (!integer_in(json_object_get(replay, "tick_cap"), 1, mt->tick_cap, &cap))
		return replay_fail(c, 0, "tick_cap must be an integer from 1 to %u", mt->tick_cap);
	inputs = json_object_get(replay, "inputs");
	final = json_object_get(replay, "final");
	if (!json_is_array(inputs))
		return replay_fail(c, 0, "inputs must be an array");
	c->nactions = n = json_array_size(inputs);
	if (!replay_exact_keys(final, final_keys, NULL) ||
	    !integer_in(json_object_get(final, "ticks"), 0, cap, &end))
		return replay_fail(c, 0, "final must hold exactly ticks (0 to tick_cap), end and players");

	if ((list = malloc((n > 0 ? n : 1) * sizeof *list)) == NULL ||
	    (st = malloc(mr->state_size)) == NULL || (ev = malloc(mt->events_size)) == NULL) {
		replay_fail(c, 0, "out of memory");
		goto done;
	}
	for (k = 0; k < n; k++) {
		if (read_input(mr, json_array_get(inputs, k), k, (unsigned)nplayers, after,
		    (uint32_t)cap, &list[k], c) != 0)
			goto done;
		after = list[k].tick;
	}
	if (!mt->start(st, (uint64_t)seed, (unsigned)nplayers, &o)) {
		replay_fail(c, 0, "items.weights: at least one must be above 0");
		goto done;
	}
	memset(&t, 0, sizeof t);
	mr->standing(st, &s);
	/* Tick by tick to the end claimed, each with its inputs (ticks never
	 * decrease, so each tick's are the next ones of the list). */
	for (k = 0; s.turn < (uint32_t)end && !s.over;) {
		size_t first = k;

		while (k < n && list[k].tick == s.turn)
			k++;
		mt->tick(st, list + first, k - first, ev);
		mt->totals_add(&t, ev);
		mr->standing(st, &s);
	}
	if (k < n) {
		replay_fail(c, k + 1, "inputs[%zu] is for tick %u, after the match ended at tick %u", k,
		    list[k].tick, s.turn);
		goto done;
	}
	c->final = match_ticks_final_json(&s, match_end_of(&s, (uint32_t)cap), &t);
	rc = replay_compare_final(c, final);
done:
	free(list);
	free(st);
	free(ev);
	return rc;
}

int
match_replay_verify(const struct match_rules *mr, const json_t *replay,
    struct match_replay_check *out)
{
	struct replay_check c;
	int rc;

	if (!json_is_object(replay) || json_object_get(replay, "clock") == NULL)
		return match_verify(mr, replay, out);
	memset(&c, 0, sizeof c);
	memset(out, 0, sizeof *out);
	if (!json_is_string(json_object_get(replay, "clock")) ||
	    strcmp(json_string_value(json_object_get(replay, "clock")), "ticks") != 0)
		rc = replay_fail(&c, 0, "clock must be \"ticks\" (a real-time replay), or absent");
	else if (strcmp(json_string_value(json_object_get(replay, "rules")) != NULL ?
	    json_string_value(json_object_get(replay, "rules")) : "", mr->name) != 0)
		rc = replay_fail(&c, 0, "a match replay has rules \"%s\"", mr->name);
	else
		rc = verify_ticks(mr, replay, &c);
	out->turn = c.step;
	memcpy(out->reason, c.reason, sizeof out->reason);
	out->nturns = c.nactions;
	out->final = c.final;
	return rc;
}
