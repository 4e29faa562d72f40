/*
 * match.c: what the match rulesets share beneath their answers (match.h):
 * totals, end and places, the item option, a turn resolved, the results,
 * the replay and its certificate, the verifier and the walk it plays.
 * The views and the turns page's entries are match_view.c's.
 *
 * Why in api/game/: beside the descriptor (match_rules.h) these functions
 * are written against, below the rulesets' folders that call them.
 *
 * Workload: a match of a thousand turns verifies in a few milliseconds;
 * a turn resolved costs the engine's turn, two standings and the text of
 * its moves and events.
 */
#include "match.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "certificate.h"
#include "jsonbody.h"
#include "jw.h"
#include "replay.h"

const char *const match_item_fields[] = { "items", "item_chance", "item_weights", NULL };

/* The move of seat in a turn's moves: one every move_size bytes. */
static void *
move_at(const struct match_rules *mr, void *moves, unsigned seat)
{
	return (unsigned char *)moves + (size_t)seat * mr->move_size;
}

/* ---- totals, end, places ---- */

void
match_totals_count(struct match_totals *t, unsigned seat, unsigned sent, unsigned target, bool lost)
{
	if (sent == 0 || seat >= MATCH_PLAYERS_MAX)
		return;
	t->sent[seat] += sent;
	if (!lost && target < MATCH_PLAYERS_MAX)
		t->received[target] += sent;
}

void
match_totals_encode(const struct match_totals *t, uint8_t out[MATCH_TOTALS_SIZE])
{
	unsigned i;

	for (i = 0; i < MATCH_PLAYERS_MAX; i++) {
		engine_put_le(out + 8 * i, t->sent[i], 4);
		engine_put_le(out + 8 * i + 4, t->received[i], 4);
	}
}

bool
match_totals_decode(struct match_totals *t, const uint8_t *in, size_t n)
{
	unsigned i;

	if (in == NULL || n != MATCH_TOTALS_SIZE)
		return false;
	for (i = 0; i < MATCH_PLAYERS_MAX; i++) {
		t->sent[i] = (uint32_t)engine_get_le(in + 8 * i, 4);
		t->received[i] = (uint32_t)engine_get_le(in + 8 * i + 4, 4);
	}
	return true;
}

enum match_end
match_end_of(const struct match_standing *s, uint32_t turn_cap)
{
	unsigned nalive = 0, i;

	if (s->over) {
		for (i = 0; i < s->nplayers; i++)
			nalive += s->alive >> i & 1u;
		return nalive == 1 ? MATCH_END_LAST_STANDING : MATCH_END_ALL_OUT;
	}
	if (turn_cap != 0 && s->turn >= turn_cap)
		return MATCH_END_TURN_CAP;
	return MATCH_END_NONE;
}

const char *
match_end_name(enum match_end end)
{
	switch (end) {
	case MATCH_END_LAST_STANDING: return "last_standing";
	case MATCH_END_ALL_OUT: return "all_out";
	case MATCH_END_TURN_CAP: return "turn_cap";
	default: return NULL;
	}
}

void
match_places(const struct match_standing *s, enum match_end end, uint8_t places[MATCH_PLAYERS_MAX])
{
	unsigned i;

	memset(places, 0, MATCH_PLAYERS_MAX);
	for (i = 0; i < s->nplayers && i < MATCH_PLAYERS_MAX; i++) {
		places[i] = s->seats[i].place;
		if (end == MATCH_END_TURN_CAP && s->alive >> i & 1u)
			places[i] = 1;
	}
}

/* ---- the item option ---- */

bool
match_items_read(const json_t *body, struct match_options *o, char *msg, size_t cap)
{
	const json_t *items = body ? json_object_get(body, "items") : NULL;
	const json_t *weights = body ? json_object_get(body, "item_weights") : NULL;
	int64_t chance = MATCH_ITEM_CHANCE_DEFAULT;
	bool has_chance = false, on;
	unsigned total = 0;
	size_t k;

	if (items != NULL && !json_is_boolean(items)) {
		snprintf(msg, cap, "field 'items' must be true or false");
		return false;
	}
	if (!jsonbody_int(body, "item_chance", 0, 100, &has_chance, &chance, msg, cap))
		return false;
	memset(o->shares, 1, sizeof o->shares);
	if (weights != NULL) {
		if (!json_is_array(weights) || json_array_size(weights) != MATCH_OPTION_SHARES) {
			snprintf(msg, cap, "field 'item_weights' must list 6 integers (add_line, clear_line, "
			    "nuke, swap, blind, transform)");
			return false;
		}
		for (k = 0; k < MATCH_OPTION_SHARES; k++) {
			const json_t *w = json_array_get(weights, k);

			if (!json_is_integer(w) || json_integer_value(w) < 0 ||
			    json_integer_value(w) > MATCH_ITEM_WEIGHT_MAX) {
				snprintf(msg, cap, "field 'item_weights' item %zu must be an integer from 0 to %d",
				    k, MATCH_ITEM_WEIGHT_MAX);
				return false;
			}
			o->shares[k] = (uint8_t)json_integer_value(w);
			total += o->shares[k];
		}
		if (total == 0) {
			snprintf(msg, cap, "field 'item_weights' must have at least one weight above 0");
			return false;
		}
	}
	if (json_is_false(items) && ((has_chance && chance > 0) || weights != NULL)) {
		snprintf(msg, cap, "fields 'item_chance' and 'item_weights' need items on: drop 'items': "
		    "false");
		return false;
	}
	on = json_is_true(items) || has_chance || weights != NULL;
	if (!on || chance == 0) {
		o->on = false;
		o->chance = 0;
		memset(o->shares, 1, sizeof o->shares);
		return true;
	}
	o->on = true;
	o->chance = (uint8_t)chance;
	return true;
}

void
match_item_settings_write(struct jw *w, bool items, unsigned chance, const uint8_t *weights)
{
	int k;

	if (!items || weights == NULL) {
		jw_bool(w, false);
		return;
	}
	jw_object(w);
	jw_kint(w, "chance", (int)chance);
	jw_key(w, "weights");
	jw_array(w);
	for (k = 0; k < MATCH_OPTION_SHARES; k++)
		jw_int(w, weights[k]);
	jw_array_end(w);
	jw_object_end(w);
}

/* ---- a turn resolved, the results ---- */

void
match_turn_write(const struct match_rules *mr, struct jw *w, uint8_t alive, unsigned nplayers,
    const void *moves)
{
	char text[MATCH_MOVE_TEXT_MAX];
	unsigned i;

	jw_array(w);
	for (i = 0; i < nplayers; i++) {
		if (!(alive >> i & 1u)) {
			jw_null(w);
			continue;
		}
		mr->move_text((const unsigned char *)moves + (size_t)i * mr->move_size, text, sizeof text);
		jw_string(w, text);
	}
	jw_array_end(w);
}

bool
match_resolve(const struct match_rules *mr, void *st, void *moves, uint8_t moved, uint8_t *totals,
    uint32_t turn_cap, struct jw *moves_text, struct jw *events, struct match_turn_out *out)
{
	char reason[ENGINE_REASON_MAX];
	struct match_standing s;
	struct match_totals t;
	match_events ev;
	enum match_play played;
	uint8_t alive, missed = 0;
	unsigned i, bad = 0;

	memset(out, 0, sizeof *out);
	if (!match_totals_decode(&t, totals, MATCH_TOTALS_SIZE))
		return false;
	mr->standing(st, &s);
	alive = s.alive;
	for (i = 0; i < s.nplayers; i++)
		if (!(moved >> i & 1u)) {
			mr->move_missed(move_at(mr, moves, i), !(alive >> i & 1u));
			missed = (uint8_t)(missed | 1u << i);
		}
	/* The engine refuses the first living seat's move it cannot play and
	 * changes nothing: that seat misses, and the turn is tried again. */
	while ((played = mr->turn_play(st, moves, &ev, &bad, reason, sizeof reason)) == MATCH_REFUSED &&
	    bad < s.nplayers && !(missed >> bad & 1u)) {
		out->refused = (uint8_t)(out->refused | 1u << bad);
		memcpy(out->reason[bad], reason, sizeof reason);
		mr->move_missed(move_at(mr, moves, bad), false);
		missed = (uint8_t)(missed | 1u << bad);
	}
	if (played != MATCH_PLAYED)
		return false;
	if (mr->use_empty != NULL)
		out->use_empty = mr->use_empty(&ev, moves);
	mr->totals_add(&t, &ev);
	match_totals_encode(&t, totals);
	mr->standing(st, &s);
	out->end = match_end_name(match_end_of(&s, turn_cap));
	match_turn_write(mr, moves_text, alive, s.nplayers, moves);
	mr->events_write(events, st, &ev, moves);
	return true;
}

void
match_results(const struct match_rules *mr, const void *st, const uint8_t *totals, uint32_t turn_cap,
    struct match_seat_result *out)
{
	uint8_t places[MATCH_PLAYERS_MAX];
	struct match_standing s;
	struct match_totals t;
	unsigned i;

	if (!match_totals_decode(&t, totals, MATCH_TOTALS_SIZE))
		memset(&t, 0, sizeof t);
	mr->standing(st, &s);
	match_places(&s, match_end_of(&s, turn_cap), places);
	for (i = 0; i < s.nplayers; i++)
		out[i] = (struct match_seat_result){ places[i], (int64_t)s.seats[i].score, t.sent[i],
			t.received[i] };
}

/* ---- the replay and its certificate ---- */

static json_t *
string_or_null(const char *s)
{
	return s != NULL ? json_string_nocheck(s) : json_null();
}

json_t *
match_final_json(const struct match_standing *s, enum match_end end, const struct match_totals *t)
{
	uint8_t places[MATCH_PLAYERS_MAX];
	json_t *players = json_array();
	unsigned i;

	match_places(s, end, places);
	for (i = 0; i < s->nplayers; i++) {
		const struct match_standing_seat *p = &s->seats[i];

		json_array_append_new(players, json_pack("{s:o, s:o, s:I, s:I, s:I, s:I}",
		    "place", places[i] != 0 ? json_integer(places[i]) : json_null(),
		    "end_reason", string_or_null(p->end_reason),
		    "score", (json_int_t)p->score, "lines", (json_int_t)p->lines,
		    "lines_sent", (json_int_t)t->sent[i], "lines_received", (json_int_t)t->received[i]));
	}
	return json_pack("{s:I, s:o, s:o}", "turns", (json_int_t)s->turn,
	    "end", string_or_null(match_end_name(end)), "players", players);
}

json_t *
match_replay_new(const char *rules, uint64_t seed, unsigned nplayers, uint32_t turn_cap,
    json_t *turns, json_t *final, unsigned chance, const uint8_t *weights)
{
	json_t *replay, *w;
	unsigned k;

	if (turns == NULL || final == NULL) {
		json_decref(turns);
		json_decref(final);
		return NULL;
	}
	replay = json_pack("{s:i, s:s, s:I, s:i, s:I, s:o, s:o}", "schema", MATCH_REPLAY_SCHEMA,
	    "rules", rules, "seed", (json_int_t)seed, "players", (int)nplayers,
	    "turn_cap", (json_int_t)turn_cap, "turns", turns, "final", final);
	if (replay == NULL || chance == 0)
		return replay; /* a replay without items is written as before items existed */
	if ((w = json_array()) != NULL)
		for (k = 0; k < MATCH_OPTION_SHARES; k++)
			json_array_append_new(w, json_integer(weights[k]));
	if (w == NULL || json_object_set_new_nocheck(replay, "items", json_pack("{s:i, s:o}", "chance",
	    (int)chance, "weights", w)) != 0) {
		json_decref(replay);
		return NULL;
	}
	return replay;
}

/* r's state and totals once it has begun (NULL before, or when the
 * totals do not read), with its standing and end. */
static const void *
record_standing(const struct match_rules *mr, const struct match_rules_record *r,
    struct match_totals *t, struct match_standing *s, enum match_end *end)
{
	*end = MATCH_END_NONE;
	if (r->state == NULL || r->totals == NULL || !match_totals_decode(t, r->totals, MATCH_TOTALS_SIZE))
		return NULL;
	mr->standing(r->state, s);
	*end = match_end_of(s, (uint32_t)r->turn_cap);
	return r->state;
}

json_t *
match_replay(const struct match_rules *mr, const struct match_rules_record *r, json_t *turns)
{
	struct match_standing s;
	struct match_totals t;
	enum match_end end;

	if (record_standing(mr, r, &t, &s, &end) == NULL) {
		json_decref(turns);
		return NULL;
	}
	/* The state's item settings (none for a match without items). */
	return match_replay_new(mr->name, (uint64_t)r->seed, (unsigned)r->players,
	    (uint32_t)r->turn_cap, turns, match_final_json(&s, end, &t), s.item_chance,
	    s.item_weights);
}

char *
match_certificate_sign(const struct keyring *kr, const struct match_rules_record *r, json_t *replay,
    const struct match_standing *s, enum match_end end, bool ticks, int64_t now)
{
	uint8_t places[MATCH_PLAYERS_MAX];
	char hash[CERTIFICATE_HASH_TEXT], id[24], *cert = NULL;
	json_t *names = json_array(), *pl = json_array(), *scores = json_array(), *claims = NULL;
	int i;

	if (replay == NULL || certificate_json_hash(replay, hash) != 0)
		goto done;
	match_places(s, end, places);
	for (i = 0; i < r->players && i < MATCH_PLAYERS_MAX; i++) {
		json_array_append_new(names, json_string(i < r->nseats && r->seats[i].account != NULL ?
		    r->seats[i].account : ""));
		json_array_append_new(pl, json_integer(places[i]));
		json_array_append_new(scores, json_integer((json_int_t)s->seats[i].score));
	}
	snprintf(id, sizeof id, "%lld", (long long)r->id);
	/* A tick match says its clock, and counts ticks where a turn match
	 * counts turns (s->turn holds either). */
	if (ticks)
		claims = json_pack("{s:s, s:s, s:s, s:I, s:O, s:O, s:O, s:I, s:s, s:b, s:s}", "match", id,
		    "rules", r->rules, "clock", "ticks", "seed", (json_int_t)r->seed, "players", names,
		    "places", pl, "scores", scores, "ticks", (json_int_t)s->turn, "end", match_end_name(end),
		    "rated", r->rated, "replay", hash);
	else
		claims = json_pack("{s:s, s:s, s:I, s:O, s:O, s:O, s:I, s:s, s:b, s:s}", "match", id,
		    "rules", r->rules, "seed", (json_int_t)r->seed, "players", names, "places", pl,
		    "scores", scores, "turns", (json_int_t)s->turn, "end", match_end_name(end),
		    "rated", r->rated, "replay", hash);
	if (claims != NULL)
		cert = certificate_sign(kr, claims, now);
done:
	json_decref(names);
	json_decref(pl);
	json_decref(scores);
	json_decref(claims);
	return cert;
}

char *
match_certificate(const struct match_rules *mr, const struct keyring *kr,
    const struct match_rules_record *r, json_t *turns, int64_t now)
{
	json_t *replay = match_replay(mr, r, turns);
	struct match_standing s;
	struct match_totals t;
	enum match_end end;
	char *cert = NULL;

	if (replay != NULL && record_standing(mr, r, &t, &s, &end) != NULL)
		cert = match_certificate_sign(kr, r, replay, &s, end, false, now);
	json_decref(replay);
	return cert;
}

/* ---- verification and the walk ----
 * The checks write a struct replay_check (replay.h), as every game's
 * verifier does, with replay_fail: its step is the turn at fault (0: the
 * replay's form), its nactions the turns; the answers' struct
 * match_replay_check takes them at the end. */

_Static_assert(sizeof(((struct replay_check *)0)->reason) ==
    sizeof(((struct match_replay_check *)0)->reason), "a refusal's reason fits either");

static void
check_give(const struct replay_check *c, struct match_replay_check *out)
{
	out->turn = c->step;
	memcpy(out->reason, c->reason, sizeof out->reason);
}

static bool
integer_in(const json_t *v, json_int_t lo, json_int_t hi, json_int_t *out)
{
	if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
		return false;
	*out = json_integer_value(v);
	return true;
}

/* A replay's "items" (absent: none) into o: chance 1..100, six weights
 * 0..100. */
int
match_replay_items(const json_t *items, struct match_options *o, struct replay_check *c)
{
	static const char *const keys[] = { "chance", "weights", NULL };
	const json_t *w;
	json_int_t v;
	size_t k;

	memset(o, 0, sizeof *o);
	if (items == NULL)
		return 0;
	if (!replay_exact_keys(items, keys, NULL) ||
	    !integer_in(json_object_get(items, "chance"), 1, 100, &v))
		return replay_fail(c, 0, "items must hold exactly chance (1-100) and weights");
	o->on = true;
	o->chance = (uint8_t)v;
	w = json_object_get(items, "weights");
	if (!json_is_array(w) || json_array_size(w) != MATCH_OPTION_SHARES)
		return replay_fail(c, 0, "items.weights must list %d weights", MATCH_OPTION_SHARES);
	for (k = 0; k < MATCH_OPTION_SHARES; k++) {
		if (!integer_in(json_array_get(w, k), 0, MATCH_ITEM_WEIGHT_MAX, &v))
			return replay_fail(c, 0, "items.weights[%zu] must be an integer from 0 to %d", k,
			    MATCH_ITEM_WEIGHT_MAX);
		o->shares[k] = (uint8_t)v;
	}
	return 0;
}

/* The moves of turn number t (1-based) from its entry, for the match s
 * stands for: null for a seat out, "missed", or a move of the ruleset. */
static int
read_turn(const struct match_rules *mr, const struct match_standing *s, const json_t *entry,
    size_t t, void *moves, struct replay_check *c)
{
	char reason[ENGINE_REASON_MAX];
	unsigned i;

	if (!json_is_array(entry) || json_array_size(entry) != s->nplayers)
		return replay_fail(c, t, "turn %zu must list %u moves, one a player", t, s->nplayers);
	for (i = 0; i < s->nplayers; i++) {
		const json_t *v = json_array_get(entry, i);
		const char *text = json_string_value(v);
		void *mv = move_at(mr, moves, i);

		if (!(s->alive >> i & 1u)) {
			if (!json_is_null(v))
				return replay_fail(c, t, "turn %zu: player %u is out of the match: its move must "
				    "be null", t, i);
			mr->move_missed(mv, true);
			continue;
		}
		if (text == NULL)
			return replay_fail(c, t, "turn %zu: player %u is playing: its move must be a string",
			    t, i);
		if (strcmp(text, mr->missed) == 0) {
			mr->move_missed(mv, false);
			continue;
		}
		if (mr->move_read(text, json_string_length(v), mv, reason, sizeof reason) != MATCH_PARSE_OK)
			return replay_fail(c, t, "turn %zu: player %u's move is not a move: %s", t, i, reason);
	}
	return 0;
}

bool
match_walk_start(struct match_walk *w, const struct match_rules *mr, uint64_t seed,
    unsigned nplayers, const struct match_options *o)
{
	w->mr = mr;
	memset(&w->totals, 0, sizeof w->totals);
	memset(&w->ev, 0, sizeof w->ev);
	memset(&w->moves, 0, sizeof w->moves);
	return mr->start(&w->st, seed, nplayers, o);
}

static int
walk_turn(struct match_walk *w, const json_t *entry, struct replay_check *c)
{
	const struct match_rules *mr = w->mr;
	char reason[ENGINE_REASON_MAX];
	struct match_standing s;
	match_moves mv;
	unsigned bad = 0;
	size_t t;

	mr->standing(&w->st, &s);
	t = (size_t)s.turn + 1;
	if (s.over)
		return replay_fail(c, t, "turn %zu comes after the end of the match (turn %u)", t, s.turn);
	memset(&mv, 0, sizeof mv);
	if (read_turn(mr, &s, entry, t, &mv, c) != 0)
		return -1;
	if (mr->turn_play(&w->st, &mv, &w->ev, &bad, reason, sizeof reason) != MATCH_PLAYED)
		return replay_fail(c, t, "turn %zu: player %u's move is refused: %s", t, bad, reason);
	memcpy(&w->moves, &mv, sizeof mv);
	mr->totals_add(&w->totals, &w->ev);
	return 0;
}

int
match_walk_turn(struct match_walk *w, const json_t *entry, struct match_replay_check *out)
{
	struct replay_check c;

	memset(&c, 0, sizeof c);
	if (walk_turn(w, entry, &c) == 0)
		return 0;
	check_give(&c, out);
	return -1;
}

/* A field of the claimed final that differs from the one reached, named
 * (a player's by its index and field): -1 with the refusal. */
static int
final_differs(struct replay_check *c, const char *what, const json_t *claimed, const json_t *got)
{
	char *cs = json_dumps(claimed, JSON_ENCODE_ANY), *gs = json_dumps(got, JSON_ENCODE_ANY);

	replay_fail(c, c->nactions, "final.%s is %s but the turns give %s", what, cs ? cs : "?",
	    gs ? gs : "?");
	free(cs);
	free(gs);
	return -1;
}

static int
compare_final(struct replay_check *c, const json_t *claimed)
{
	const char *key, *field;
	json_t *want, *w;
	char what[96];
	size_t i;

	if (c->final == NULL)
		return replay_fail(c, 0, "out of memory");
	if (json_equal(c->final, claimed))
		return 0;
	json_object_foreach(c->final, key, want) {
		const json_t *got = json_object_get(claimed, key);

		if (strcmp(key, "players") == 0 && json_is_array(got) &&
		    json_array_size(got) == json_array_size(want))
			for (i = 0; i < json_array_size(want); i++) {
				const json_t *g = json_array_get(got, i);

				json_object_foreach(json_array_get(want, i), field, w)
					if (!json_equal(w, json_object_get(g, field))) {
						snprintf(what, sizeof what, "players[%zu].%s", i, field);
						return final_differs(c, what, json_object_get(g, field), w);
					}
			}
		if (!json_equal(want, got))
			return final_differs(c, key, got, want);
	}
	return replay_fail(c, c->nactions, "final does not match the turns");
}

/* The checks of match_verify, into c. */
int
match_replay_setup(const struct match_rules *mr, const json_t *replay, struct match_options *o,
    json_int_t *seed, json_int_t *players, struct replay_check *c)
{
	if (match_replay_items(json_object_get(replay, "items"), o, c) != 0)
		return -1;
	if (!integer_in(json_object_get(replay, "seed"), 0, (json_int_t)mr->seed_max, seed))
		return replay_fail(c, 0, "seed must be an integer from 0 to %llu",
		    (unsigned long long)mr->seed_max);
	if (!integer_in(json_object_get(replay, "players"), mr->players_min, mr->players_max, players))
		return replay_fail(c, 0, "players must be an integer from %u to %u", mr->players_min,
		    mr->players_max);
	return 0;
}

static int
verify(const struct match_rules *mr, const json_t *replay, struct replay_check *c)
{
	static const char *const keys[] = { "schema", "rules", "seed", "players", "turn_cap", "turns",
		"final", NULL };
	static const char *const items_key[] = { "items", NULL };
	static const char *const final_keys[] = { "turns", "end", "players", NULL };
	struct match_options o;
	struct match_standing s;
	struct match_walk *w;
	const json_t *turns, *final;
	const char *rules;
	json_int_t schema, seed, nplayers, cap;
	size_t t;
	int rc = -1;

	if (!json_is_object(replay))
		return replay_fail(c, 0, "a replay is a JSON object");
	if (!integer_in(json_object_get(replay, "schema"), MATCH_REPLAY_SCHEMA, MATCH_REPLAY_SCHEMA,
	    &schema))
		return replay_fail(c, 0, "unknown replay schema (this server reads schema %d)",
		    MATCH_REPLAY_SCHEMA);
	rules = json_string_value(json_object_get(replay, "rules"));
	if (rules == NULL || strcmp(rules, mr->name) != 0)
		return replay_fail(c, 0, "a match replay has rules \"%s\"", mr->name);
	if (!replay_exact_keys(replay, keys, json_object_get(replay, "items") ? items_key : NULL))
		return replay_fail(c, 0, "a match replay is an object with exactly schema, rules, seed, "
		    "players, turn_cap, turns and final, and items for a match with items");
	if (match_replay_setup(mr, replay, &o, &seed, &nplayers, c) != 0)
		return -1;
	if (!integer_in(json_object_get(replay, "turn_cap"), 1, MATCH_TURN_CAP_MAX, &cap))
		return replay_fail(c, 0, "turn_cap must be an integer from 1 to %d", MATCH_TURN_CAP_MAX);
	turns = json_object_get(replay, "turns");
	final = json_object_get(replay, "final");
	if (!json_is_array(turns))
		return replay_fail(c, 0, "turns must be an array");
	c->nactions = json_array_size(turns);
	if (c->nactions > (size_t)cap)
		return replay_fail(c, 0, "%zu turns are more than the cap of %lld", c->nactions,
		    (long long)cap);
	if (!replay_exact_keys(final, final_keys, NULL))
		return replay_fail(c, 0, "final must hold exactly turns, end and players");

	if ((w = malloc(sizeof *w)) == NULL)
		return replay_fail(c, 0, "out of memory");
	if (!match_walk_start(w, mr, (uint64_t)seed, (unsigned)nplayers, &o)) {
		replay_fail(c, 0, "items.weights: at least one must be above 0");
		goto done;
	}
	for (t = 1; t <= c->nactions; t++)
		if (walk_turn(w, json_array_get(turns, t - 1), c) != 0)
			goto done;
	mr->standing(&w->st, &s);
	c->final = match_final_json(&s, match_end_of(&s, (uint32_t)cap), &w->totals);
	rc = compare_final(c, final);
done:
	free(w);
	return rc;
}

int
match_verify(const struct match_rules *mr, const json_t *replay, struct match_replay_check *out)
{
	struct replay_check c;
	int rc;

	memset(&c, 0, sizeof c);
	memset(out, 0, sizeof *out);
	rc = verify(mr, replay, &c);
	check_give(&c, out);
	out->nturns = c.nactions;
	out->final = c.final;
	return rc;
}
