/*
 * match.c: the turn cap, places, totals and JSON of a served versus match,
 * and the match replay's walk and verifier (match.h).
 *
 * The verifier trusts nothing in a replay but its seed, player count, cap
 * and moves: it plays the turns on the engine (versus_resolve refuses an
 * illegal move exactly as the server did when it was sent) and compares the
 * final summary it reaches with the one claimed. Workload: a match of a
 * thousand turns verifies in a few milliseconds.
 */
#include "match.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jw.h"

void
match_totals_add(struct match_totals *t, const struct versus_events *ev)
{
	const struct versus_player_events *e;
	unsigned i;

	for (i = 0; i < ev->nplayers && i < VERSUS_PLAYERS_MAX; i++) {
		e = &ev->players[i];
		if (e->sent == 0)
			continue;
		t->sent[i] += e->sent;
		if (!e->sent_lost && e->target < VERSUS_PLAYERS_MAX)
			t->received[e->target] += e->sent;
	}
}

void
match_totals_encode(const struct match_totals *t, uint8_t out[MATCH_TOTALS_SIZE])
{
	unsigned i;

	for (i = 0; i < VERSUS_PLAYERS_MAX; i++) {
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
	for (i = 0; i < VERSUS_PLAYERS_MAX; i++) {
		t->sent[i] = (uint32_t)engine_get_le(in + 8 * i, 4);
		t->received[i] = (uint32_t)engine_get_le(in + 8 * i + 4, 4);
	}
	return true;
}

enum match_end
match_end_of(const struct versus_match *m, uint32_t turn_cap)
{
	if (m->over)
		return m->nalive == 1 ? MATCH_END_LAST_STANDING : MATCH_END_ALL_OUT;
	if (turn_cap != 0 && m->turn >= turn_cap)
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
match_places(const struct versus_match *m, enum match_end end, uint8_t places[VERSUS_PLAYERS_MAX])
{
	unsigned i;

	memset(places, 0, VERSUS_PLAYERS_MAX);
	for (i = 0; i < m->nplayers && i < VERSUS_PLAYERS_MAX; i++) {
		places[i] = m->players[i].place;
		if (end == MATCH_END_TURN_CAP && m->players[i].alive)
			places[i] = 1;
	}
}

static json_t *
string_or_null(const char *s)
{
	return s != NULL ? json_string_nocheck(s) : json_null();
}

static json_t *
place_or_null(unsigned place)
{
	return place != 0 ? json_integer(place) : json_null();
}

bool
match_use_empty(const struct versus_events *ev, const struct versus_move *moves, unsigned player)
{
	/* The engine's uses act for every live PLACE with use > 0 and leave
	 * used NONE only when the inventory is empty then. */
	return moves != NULL && ev->items && player < ev->nplayers &&
	    moves[player].kind == VERSUS_MOVE_PLACE && moves[player].use != 0 &&
	    ev->players[player].used == VERSUS_ITEM_NONE;
}

json_t *
match_final_json(const struct versus_match *m, enum match_end end, const struct match_totals *t)
{
	uint8_t places[VERSUS_PLAYERS_MAX];
	json_t *players = json_array();
	unsigned i;

	match_places(m, end, places);
	for (i = 0; i < m->nplayers; i++) {
		const struct versus_player *p = &m->players[i];

		json_array_append_new(players, json_pack("{s:o, s:o, s:I, s:I, s:I, s:I}",
		    "place", place_or_null(places[i]),
		    "end_reason", string_or_null(versus_end_name(p->end_reason)),
		    "score", (json_int_t)p->score, "lines", (json_int_t)p->lines,
		    "lines_sent", (json_int_t)t->sent[i], "lines_received", (json_int_t)t->received[i]));
	}
	return json_pack("{s:I, s:o, s:o}", "turns", (json_int_t)m->turn,
	    "end", string_or_null(match_end_name(end)), "players", players);
}

json_t *
match_replay_new(uint64_t seed, unsigned nplayers, uint32_t turn_cap, json_t *turns, json_t *final)
{
	if (turns == NULL || final == NULL) {
		json_decref(turns);
		json_decref(final);
		return NULL;
	}
	return json_pack("{s:i, s:s, s:I, s:i, s:I, s:o, s:o}", "schema", MATCH_REPLAY_SCHEMA,
	    "rules", VERSUS_RULES, "seed", (json_int_t)seed, "players", (int)nplayers,
	    "turn_cap", (json_int_t)turn_cap, "turns", turns, "final", final);
}

int
match_replay_set_items(json_t *replay, const struct versus_match *m)
{
	json_t *w;
	unsigned k;

	if (m->item_chance == 0)
		return 0; /* a replay without items is written as before items existed */
	if ((w = json_array()) == NULL)
		return -1;
	for (k = 0; k < VERSUS_ITEM_KINDS; k++)
		json_array_append_new(w, json_integer(m->item_weights[k]));
	return json_object_set_new_nocheck(replay, "items", json_pack("{s:i, s:o}", "chance",
	    (int)m->item_chance, "weights", w));
}

/* ---- verification ---- */

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static int
fail(struct match_replay_check *out, size_t turn, const char *fmt, ...)
{
	va_list ap;

	out->turn = turn;
	va_start(ap, fmt);
	vsnprintf(out->reason, sizeof out->reason, fmt, ap);
	va_end(ap);
	return -1;
}

bool
match_replay_is(const json_t *replay)
{
	const char *rules = json_string_value(json_object_get(replay, "rules"));

	return rules != NULL && strcmp(rules, VERSUS_RULES) == 0;
}

/* Exactly these keys, each present. */
/* Like exact_keys, with one more key that may be there. */
static bool exact_keys(const json_t *o, const char *const *keys);

static bool
keys_with_optional(const json_t *o, const char *const *keys, const char *optional)
{
	size_t n = json_object_get(o, optional) != NULL;
	size_t i;

	for (i = 0; keys[i] != NULL; i++)
		if (json_object_get(o, keys[i]) == NULL)
			return false;
		else
			n++;
	return json_object_size(o) == n;
}

static bool
exact_keys(const json_t *o, const char *const *keys)
{
	size_t n = 0;

	if (!json_is_object(o))
		return false;
	for (; keys[n] != NULL; n++)
		if (json_object_get(o, keys[n]) == NULL)
			return false;
	return json_object_size(o) == n;
}

static bool
integer_in(const json_t *v, json_int_t lo, json_int_t hi, json_int_t *out)
{
	if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
		return false;
	*out = json_integer_value(v);
	return true;
}

/* The moves of turn number t (1-based) from its entry. */
static int
read_turn(const struct versus_match *m, const json_t *entry, size_t t, struct versus_move *mv,
    struct match_replay_check *out)
{
	char reason[ENGINE_REASON_MAX];
	unsigned i;

	if (!json_is_array(entry) || json_array_size(entry) != m->nplayers)
		return fail(out, t, "turn %zu must list %u moves, one a player", t, m->nplayers);
	for (i = 0; i < m->nplayers; i++) {
		const json_t *v = json_array_get(entry, i);
		const char *text = json_string_value(v);

		memset(&mv[i], 0, sizeof mv[i]);
		if (!m->players[i].alive) {
			if (!json_is_null(v))
				return fail(out, t, "turn %zu: player %u is out of the match: its move must be null",
				    t, i);
			mv[i].kind = VERSUS_MOVE_MISSED;
			continue;
		}
		if (text == NULL)
			return fail(out, t, "turn %zu: player %u is playing: its move must be a string", t, i);
		if (strcmp(text, "missed") == 0) {
			mv[i].kind = VERSUS_MOVE_MISSED;
			continue;
		}
		if (versus_move_parse(text, json_string_length(v), &mv[i], reason, sizeof reason) !=
		    VERSUS_PARSE_OK)
			return fail(out, t, "turn %zu: player %u's move is not a move: %s", t, i, reason);
	}
	return 0;
}

static int
compare_final(struct match_replay_check *out, const json_t *claimed)
{
	const char *key;
	json_t *want;

	if (out->final == NULL)
		return fail(out, 0, "out of memory");
	if (json_equal(out->final, claimed))
		return 0;
	json_object_foreach(out->final, key, want) {
		const json_t *got = json_object_get(claimed, key);

		if (strcmp(key, "players") == 0 && json_is_array(got) &&
		    json_array_size(got) == json_array_size(want)) {
			size_t i;

			for (i = 0; i < json_array_size(want); i++) {
				const char *field;
				json_t *w, *g = json_array_get(got, i);

				json_object_foreach(json_array_get(want, i), field, w) {
					if (!json_equal(w, json_object_get(g, field))) {
						char *gs = json_dumps(json_object_get(g, field), JSON_ENCODE_ANY);
						char *ws = json_dumps(w, JSON_ENCODE_ANY);

						fail(out, out->nturns, "final.players[%zu].%s is %s but the turns give %s",
						    i, field, gs ? gs : "?", ws ? ws : "?");
						free(gs);
						free(ws);
						return -1;
					}
				}
			}
		}
		if (!json_equal(want, got)) {
			char *gs = json_dumps(got, JSON_ENCODE_ANY), *ws = json_dumps(want, JSON_ENCODE_ANY);

			fail(out, out->nturns, "final.%s is %s but the turns give %s", key, gs ? gs : "?",
			    ws ? ws : "?");
			free(gs);
			free(ws);
			return -1;
		}
	}
	return fail(out, out->nturns, "final does not match the turns");
}

/* A replay's "items" (absent: none): chance 1..100, six weights 0..100. */
static int
read_items(const json_t *items, unsigned *chance, uint8_t weights[VERSUS_ITEM_KINDS],
    struct match_replay_check *out)
{
	static const char *const keys[] = { "chance", "weights", NULL };
	const json_t *w;
	json_int_t v;
	size_t k;

	*chance = 0;
	if (items == NULL)
		return 0;
	if (!exact_keys(items, keys) ||
	    !integer_in(json_object_get(items, "chance"), 1, 100, &v))
		return fail(out, 0, "items must hold exactly chance (1-100) and weights");
	*chance = (unsigned)v;
	w = json_object_get(items, "weights");
	if (!json_is_array(w) || json_array_size(w) != VERSUS_ITEM_KINDS)
		return fail(out, 0, "items.weights must list %d weights", VERSUS_ITEM_KINDS);
	for (k = 0; k < VERSUS_ITEM_KINDS; k++) {
		if (!integer_in(json_array_get(w, k), 0, VERSUS_ITEM_WEIGHT_MAX, &v))
			return fail(out, 0, "items.weights[%zu] must be an integer from 0 to %d", k,
			    VERSUS_ITEM_WEIGHT_MAX);
		weights[k] = (uint8_t)v;
	}
	return 0;
}

bool
match_items_default(struct versus_match *m)
{
	static const uint8_t weights[VERSUS_ITEM_KINDS] = { 1, 1, 1, 1, 1, 1 };

	return versus_set_items(m, VERSUS_ITEM_CHANCE_DEFAULT, weights);
}

bool
match_walk_start(struct match_walk *w, uint64_t seed, unsigned nplayers)
{
	memset(&w->totals, 0, sizeof w->totals);
	memset(&w->ev, 0, sizeof w->ev);
	memset(w->mv, 0, sizeof w->mv);
	return versus_init(&w->m, seed, nplayers);
}

int
match_walk_turn(struct match_walk *w, const json_t *entry, struct match_replay_check *out)
{
	struct versus_move mv[VERSUS_PLAYERS_MAX];
	char reason[ENGINE_REASON_MAX];
	size_t t = (size_t)w->m.turn + 1;
	unsigned bad = 0;

	if (w->m.over)
		return fail(out, t, "turn %zu comes after the end of the match (turn %u)", t, w->m.turn);
	if (read_turn(&w->m, entry, t, mv, out) != 0)
		return -1;
	if (versus_resolve(&w->m, mv, &w->ev, &bad, reason, sizeof reason) != VERSUS_OK)
		return fail(out, t, "turn %zu: player %u's move is refused: %s", t, bad, reason);
	memcpy(w->mv, mv, sizeof w->mv);
	match_totals_add(&w->totals, &w->ev);
	return 0;
}

int
match_replay_verify(const json_t *replay, struct match_replay_check *out)
{
	static const char *const keys[] = { "schema", "rules", "seed", "players", "turn_cap", "turns",
		"final", NULL };
	static const char *const final_keys[] = { "turns", "end", "players", NULL };
	struct match_walk *w;
	const json_t *turns, *final;
	json_int_t schema, seed, nplayers, cap;
	uint8_t weights[VERSUS_ITEM_KINDS] = { 0 };
	unsigned chance = 0;
	size_t t;
	int rc = -1;

	memset(out, 0, sizeof *out);
	if (!json_is_object(replay))
		return fail(out, 0, "a replay is a JSON object");
	if (!integer_in(json_object_get(replay, "schema"), MATCH_REPLAY_SCHEMA, MATCH_REPLAY_SCHEMA,
	    &schema))
		return fail(out, 0, "unknown replay schema (this server reads schema %d)",
		    MATCH_REPLAY_SCHEMA);
	if (!match_replay_is(replay))
		return fail(out, 0, "a match replay has rules \"%s\"", VERSUS_RULES);
	if (!keys_with_optional(replay, keys, "items"))
		return fail(out, 0, "a match replay is an object with exactly schema, rules, seed, "
		    "players, turn_cap, turns and final, and items for a match with items");
	if (read_items(json_object_get(replay, "items"), &chance, weights, out) != 0)
		return -1;
	if (!integer_in(json_object_get(replay, "seed"), 0, (json_int_t)VERSUS_SEED_MAX, &seed))
		return fail(out, 0, "seed must be an integer from 0 to %llu",
		    (unsigned long long)VERSUS_SEED_MAX);
	if (!integer_in(json_object_get(replay, "players"), VERSUS_PLAYERS_MIN, VERSUS_PLAYERS_MAX,
	    &nplayers))
		return fail(out, 0, "players must be an integer from %d to %d", VERSUS_PLAYERS_MIN,
		    VERSUS_PLAYERS_MAX);
	if (!integer_in(json_object_get(replay, "turn_cap"), 1, MATCH_TURN_CAP_MAX, &cap))
		return fail(out, 0, "turn_cap must be an integer from 1 to %d", MATCH_TURN_CAP_MAX);
	turns = json_object_get(replay, "turns");
	final = json_object_get(replay, "final");
	if (!json_is_array(turns))
		return fail(out, 0, "turns must be an array");
	out->nturns = json_array_size(turns);
	if (out->nturns > (size_t)cap)
		return fail(out, 0, "%zu turns are more than the cap of %lld", out->nturns, (long long)cap);
	if (!exact_keys(final, final_keys))
		return fail(out, 0, "final must hold exactly turns, end and players");

	if ((w = malloc(sizeof *w)) == NULL)
		return fail(out, 0, "out of memory");
	match_walk_start(w, (uint64_t)seed, (unsigned)nplayers);
	if (chance > 0 && !versus_set_items(&w->m, chance, weights)) {
		fail(out, 0, "items.weights: at least one must be above 0");
		goto done;
	}
	for (t = 1; t <= out->nturns; t++)
		if (match_walk_turn(w, json_array_get(turns, t - 1), out) != 0)
			goto done;
	out->final = match_final_json(&w->m, match_end_of(&w->m, (uint32_t)cap), &w->totals);
	rc = compare_final(out, final);
done:
	free(w);
	return rc;
}

/* ---- the parts of the answers, through the writer (jw.h) ----
 * Each is the one writer of its part: the views (match_view.c) and the
 * move's answer (match_result.c) put them together, and the row stores a
 * turn's events and moves as the text written here. Their shapes are the
 * contract's (openapi.yaml): tests/api/test_match_answers.c checks every
 * key and type over random matches. */

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
	for (k = 0; k < VERSUS_ITEM_KINDS; k++)
		jw_int(w, weights[k]);
	jw_array_end(w);
	jw_object_end(w);
}

static void
slot_write(struct jw *w, unsigned piece, unsigned shape)
{
	if (piece >= TETROMINO_NPIECES)
		jw_null(w);
	else
		jw_char(w, shape != VERSUS_SHAPE_PIECE ? versus_slot_letter(piece, shape) :
		    tetromino_letter(piece));
}

static void
string_or_null_write(struct jw *w, const char *s)
{
	if (s != NULL)
		jw_string(w, s);
	else
		jw_null(w);
}

static void
place_or_null_write(struct jw *w, unsigned place)
{
	if (place != 0)
		jw_int(w, place);
	else
		jw_null(w);
}

static void
mino_items_write(struct jw *w, unsigned bits)
{
	unsigned k;

	jw_array(w);
	for (k = 0; k < 4; k++)
		string_or_null_write(w, versus_item_name(VERSUS_MINO_ITEMS(bits, k)));
	jw_array_end(w);
}

void
match_player_write(struct jw *w, const struct versus_match *m, enum match_end end,
    unsigned viewer, unsigned player, const struct match_totals *t)
{
	struct versus_view v;
	uint8_t places[VERSUS_PLAYERS_MAX];
	unsigned k;

	versus_view(m, viewer, player, &v);
	match_places(m, end, places);
	jw_kint(w, "seat", player);
	jw_kbool(w, "alive", v.alive);
	jw_key(w, "place");
	place_or_null_write(w, places[player]);
	jw_key(w, "end_reason");
	string_or_null_write(w, versus_end_name(v.end_reason));
	jw_kstring(w, "board_text", v.board_text);
	jw_key(w, "current");
	slot_write(w, v.current, v.current_shape);
	jw_key(w, "hold");
	slot_write(w, v.hold, v.hold_shape);
	jw_key(w, "next");
	if (v.next_visible) {
		jw_array(w);
		for (k = 0; k < VERSUS_NEXT; k++)
			slot_write(w, v.next[k], v.next_shape[k]);
		jw_array_end(w);
	} else
		jw_null(w);
	jw_kint(w, "score", (int64_t)v.score);
	jw_kint(w, "lines", v.lines);
	jw_kint(w, "level", v.level);
	jw_kint(w, "combo", v.combo);
	jw_kbool(w, "back_to_back", v.back_to_back);
	jw_kint(w, "pending", v.pending);
	jw_kint(w, "missed", v.missed);
	jw_kint(w, "lines_sent", t->sent[player]);
	jw_kint(w, "lines_received", t->received[player]);
	if (m->item_chance == 0)
		return;
	jw_kstring(w, "items_text", v.items_text);
	jw_key(w, "current_items");
	mino_items_write(w, v.current_items);
	jw_key(w, "hold_items");
	mino_items_write(w, v.hold_items);
	jw_key(w, "next_items");
	if (v.next_visible) {
		jw_array(w);
		for (k = 0; k < VERSUS_NEXT; k++)
			mino_items_write(w, v.next_items[k]);
		jw_array_end(w);
	} else
		jw_null(w);
	jw_key(w, "inventory");
	jw_array(w);
	for (k = 0; k < v.ninventory; k++)
		if (versus_item_name(v.inventory[k]) != NULL) /* as json_array_append_new(NULL) */
			jw_string(w, versus_item_name(v.inventory[k]));
	jw_array_end(w);
	jw_kint(w, "blind", v.blind);
	jw_kint(w, "transform", v.transform);
}

void
match_events_write(struct jw *w, const struct versus_events *ev, const struct versus_move *moves)
{
	unsigned i, k, target, received[VERSUS_PLAYERS_MAX] = { 0 };

	for (i = 0; i < ev->nplayers && i < VERSUS_PLAYERS_MAX; i++) {
		const struct versus_player_events *e = &ev->players[i];

		if (e->sent > 0 && !e->sent_lost && e->target < VERSUS_PLAYERS_MAX)
			received[e->target] += e->sent;
	}
	jw_object(w);
	jw_kint(w, "turn", ev->turn);
	jw_kbool(w, "over", ev->over);
	jw_key(w, "players");
	jw_array(w);
	for (i = 0; i < ev->nplayers && i < VERSUS_PLAYERS_MAX; i++) {
		const struct versus_player_events *e = &ev->players[i];
		bool placed = e->action == VERSUS_ACT_PLACED || e->action == VERSUS_ACT_DROPPED;

		jw_object(w);
		jw_kint(w, "seat", i);
		jw_kstring(w, "action", versus_action_name(e->action));
		if (e->action == VERSUS_ACT_NONE) {
			jw_object_end(w);
			continue;
		}
		if (placed) {
			jw_kbool(w, "held", e->held);
			jw_key(w, "piece");
			slot_write(w, e->piece, e->shape);
			jw_kint(w, "rotation", e->rotation);
			jw_kint(w, "column", e->column);
			jw_kint(w, "lines", e->lines);
			jw_kint(w, "points", (int64_t)e->points);
			jw_kint(w, "combo", e->combo);
			jw_kbool(w, "back_to_back", e->back_to_back);
			jw_kbool(w, "perfect_clear", e->perfect_clear);
			jw_kint(w, "attack", e->attack);
			jw_kint(w, "cancelled", e->cancelled);
			jw_kint(w, "sent", e->sent);
			jw_key(w, "target");
			if (e->sent > 0)
				jw_int(w, e->target);
			else
				jw_null(w);
			jw_kbool(w, "lost", e->sent_lost);
		}
		jw_kint(w, "received", received[i]);
		jw_key(w, "risen");
		jw_array(w);
		for (k = 0; k < e->nrisen && k < VERSUS_QUEUE_MAX; k++) {
			jw_object(w);
			jw_kint(w, "lines", e->risen[k].lines);
			jw_kint(w, "hole", e->risen[k].hole);
			jw_object_end(w);
		}
		jw_array_end(w);
		jw_kbool(w, "eliminated", e->eliminated);
		jw_key(w, "end_reason");
		string_or_null_write(w, e->eliminated ? versus_end_name(e->end_reason) : NULL);
		jw_key(w, "place");
		place_or_null_write(w, e->place);
		if (ev->items && placed) {
			jw_kint(w, "items_collected", e->collected);
			jw_kint(w, "items_discarded", e->discarded);
		}
		if (match_use_empty(ev, moves, i)) {
			jw_key(w, "use");
			jw_object(w);
			jw_kbool(w, "used", false);
			jw_kstring(w, "reason", "empty inventory");
			jw_object_end(w);
		}
		jw_object_end(w);
	}
	jw_array_end(w);
	if (ev->items) {
		jw_key(w, "hits");
		jw_array(w);
		for (target = 0; target < ev->nplayers && target < VERSUS_PLAYERS_MAX; target++)
			for (k = 0; k < ev->nhits && k < VERSUS_PLAYERS_MAX; k++) {
				if (ev->hits[k].target != target || versus_item_name(ev->hits[k].item) == NULL)
					continue;
				jw_object(w);
				jw_kint(w, "turn", ev->turn);
				jw_kint(w, "target", target);
				jw_kstring(w, "item", versus_item_name(ev->hits[k].item));
				jw_object_end(w);
			}
		jw_array_end(w);
	}
	jw_object_end(w);
}

void
match_turn_write(struct jw *w, const struct versus_match *before, const struct versus_move *moves)
{
	char text[32];
	unsigned i;

	jw_array(w);
	for (i = 0; i < before->nplayers; i++) {
		if (!before->players[i].alive) {
			jw_null(w);
			continue;
		}
		versus_move_text(&moves[i], text, sizeof text);
		jw_string(w, text);
	}
	jw_array_end(w);
}

/* ---- what the server asks of the engine (match.h) ---- */

enum versus_parse
match_move_read(const char *text, size_t len, struct versus_move *mv, char *reason, size_t cap)
{
	return versus_move_parse(text, len, mv, reason, cap);
}

size_t
match_move_text(const struct versus_move *mv, char *buf, size_t cap)
{
	return versus_move_text(mv, buf, cap);
}

bool
match_move_check(const struct versus_match *m, unsigned seat, const struct versus_move *mv,
    char *reason, size_t cap)
{
	return versus_check_move(m, seat, mv, reason, cap);
}

bool
match_state_start(struct versus_match *m, uint64_t seed, unsigned nplayers, bool items,
    unsigned chance, const uint8_t weights[VERSUS_ITEM_KINDS])
{
	return versus_init(m, seed, nplayers) && (!items || versus_set_items(m, chance, weights));
}

bool
match_state_items(struct versus_match *m, unsigned chance, const uint8_t weights[VERSUS_ITEM_KINDS])
{
	return versus_set_items(m, chance, weights);
}

size_t
match_state_encode(const struct versus_match *m, uint8_t *buf, size_t cap)
{
	return versus_encode(m, buf, cap);
}

bool
match_state_decode(struct versus_match *m, const uint8_t *buf, size_t len)
{
	return versus_decode(m, buf, len);
}

bool
match_turn_resolve(struct versus_match *m, struct versus_move *mv, uint8_t moved,
    struct versus_events *ev, struct match_refused *refused)
{
	char reason[ENGINE_REASON_MAX];
	uint32_t turn = m->turn;
	unsigned i, bad = 0;

	refused->seats = 0;
	for (i = 0; i < m->nplayers; i++)
		if (!(moved >> i & 1u))
			mv[i].kind = VERSUS_MOVE_MISSED;
	/* The engine refuses the first living seat's move it cannot play and
	 * changes nothing: that seat misses, and the turn is tried again. */
	while (versus_resolve(m, mv, ev, &bad, reason, sizeof reason) == VERSUS_REFUSED &&
	    bad < m->nplayers && mv[bad].kind != VERSUS_MOVE_MISSED) {
		refused->seats = (uint8_t)(refused->seats | 1u << bad);
		memcpy(refused->reason[bad], reason, sizeof reason);
		mv[bad].kind = VERSUS_MOVE_MISSED;
	}
	return m->turn == turn + 1;
}
