/*
 * versus_rules.c: versus as a match ruleset, `const struct match_rules
 * match_versus` (match_rules.h), over what match.c, match_view.c and
 * match_result.c write and the engine (versus.h) plays.
 *
 * The server holds a versus match as the opaque bytes of a struct
 * versus_match, its moves as struct versus_move, its totals as the row's
 * MATCH_TOTALS_SIZE bytes; each hook here turns them back into what the
 * functions of this folder take. The pending moves keep the row's format
 * of before the descriptor: 5 bytes a seat (kind, hold, rotation, column,
 * use; kind 0 for none sent), and a row written before `use` was kept
 * holds 4 bytes a seat, read back with no use (no match could have items
 * then). Its options are the items (docs/rules/versus.md, "Items").
 *
 * Pure CPU. A move of the hot path costs a cast here, and a view the
 * decoding of 64 bytes of totals.
 */
#include <stdio.h>
#include <string.h>

#include "jsonbody.h"
#include "jw.h"
#include "match.h"
#include "match_result.h"
#include "match_rules.h"
#include "match_view.h"
#include "versus.h"
#include "watch_json.h"

#define PENDING_SEAT 5

_Static_assert(VERSUS_PLAYERS_MAX <= MATCH_PLAYERS_MAX, "every player has a seat");
_Static_assert(sizeof(struct versus_move) <= MATCH_MOVE_MAX, "a move fits the server's");
_Static_assert(VERSUS_ITEM_KINDS == MATCH_OPTION_SHARES, "the item weights are the option's shares");

static const char *const option_fields[] = { "items", "item_chance", "item_weights", NULL };

/* A new match's item settings: `items` (true or false), `item_chance`
 * (0..100, 0 = off; 10 by default with items on) and `item_weights` (six
 * integers 0..100, one at least above 0; all 1 by default). Giving
 * item_chance or item_weights turns items on unless `items` is false (then
 * they must not be given, or item_chance be 0). Items off are chance 0 and
 * weights all 1, so that the queue pairs every lobby without items. */
static bool
options_read(const json_t *body, struct match_options *o, char *msg, size_t cap)
{
	const json_t *items = body ? json_object_get(body, "items") : NULL;
	const json_t *weights = body ? json_object_get(body, "item_weights") : NULL;
	int64_t chance = VERSUS_ITEM_CHANCE_DEFAULT;
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
		if (!json_is_array(weights) || json_array_size(weights) != VERSUS_ITEM_KINDS) {
			snprintf(msg, cap, "field 'item_weights' must list 6 integers (add_line, clear_line, "
			    "nuke, swap, blind, transform)");
			return false;
		}
		for (k = 0; k < VERSUS_ITEM_KINDS; k++) {
			const json_t *w = json_array_get(weights, k);

			if (!json_is_integer(w) || json_integer_value(w) < 0 ||
			    json_integer_value(w) > VERSUS_ITEM_WEIGHT_MAX) {
				snprintf(msg, cap, "field 'item_weights' item %zu must be an integer from 0 to %d",
				    k, VERSUS_ITEM_WEIGHT_MAX);
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

static bool
start(void *st, uint64_t seed, unsigned nplayers, const struct match_options *o, uint8_t *totals)
{
	struct match_totals t;

	memset(&t, 0, sizeof t);
	match_totals_encode(&t, totals);
	return match_state_start(st, seed, nplayers, o->on, o->chance, o->shares);
}

static size_t
encode(const void *st, uint8_t *out, size_t cap)
{
	return match_state_encode(st, out, cap);
}

static bool
decode(void *st, const uint8_t *in, size_t n)
{
	return match_state_decode(st, in, n);
}

static void
standing(const void *st, struct match_standing *out)
{
	const struct versus_match *m = st;
	unsigned i;

	out->turn = m->turn;
	out->nplayers = m->nplayers;
	out->alive = 0;
	for (i = 0; i < m->nplayers; i++)
		if (m->players[i].alive)
			out->alive = (uint8_t)(out->alive | 1u << i);
}

static enum match_parse
move_read(const char *text, size_t len, void *mv, char *reason, size_t cap)
{
	switch (match_move_read(text, len, mv, reason, cap)) {
	case VERSUS_PARSE_OK:
		return MATCH_PARSE_OK;
	case VERSUS_PARSE_EMPTY:
		return MATCH_PARSE_EMPTY;
	case VERSUS_PARSE_INVALID:
		break;
	}
	return MATCH_PARSE_INVALID;
}

static size_t
move_text(const void *mv, char *buf, size_t cap)
{
	return match_move_text(mv, buf, cap);
}

static bool
move_check(const void *st, unsigned seat, const void *mv, char *reason, size_t cap)
{
	return match_move_check(st, seat, mv, reason, cap);
}

static void
pending_read(const uint8_t *in, size_t n, unsigned nplayers, void *moves, uint8_t *moved)
{
	struct versus_move *mv = moves;
	size_t w = n == 4 * (size_t)nplayers ? 4 : PENDING_SEAT;
	unsigned i;

	*moved = 0;
	for (i = 0; i < nplayers; i++) {
		const uint8_t *p = in + w * i;

		memset(&mv[i], 0, sizeof mv[i]);
		if (n != w * nplayers || p[0] == 0)
			continue;
		mv[i].kind = p[0];
		mv[i].hold = p[1] != 0;
		mv[i].rotation = p[2];
		mv[i].column = p[3];
		mv[i].use = w == PENDING_SEAT ? p[4] : 0;
		*moved = (uint8_t)(*moved | 1u << i);
	}
}

static size_t
pending_write(const void *moves, uint8_t moved, unsigned nplayers, uint8_t *out)
{
	const struct versus_move *mv = moves;
	unsigned i;

	if (moved == 0)
		return 0;
	for (i = 0; i < nplayers; i++) {
		bool has = moved >> i & 1u;
		uint8_t *p = out + PENDING_SEAT * i;

		p[0] = has ? mv[i].kind : 0;
		p[1] = has && mv[i].hold;
		p[2] = has ? (uint8_t)mv[i].rotation : 0;
		p[3] = has ? (uint8_t)mv[i].column : 0;
		/* a checked move names a seat of the match: at most VERSUS_PLAYERS_MAX */
		p[4] = has ? (uint8_t)mv[i].use : 0;
	}
	return PENDING_SEAT * (size_t)nplayers;
}

static bool
resolve(void *st, void *moves, uint8_t moved, uint8_t *totals, uint32_t turn_cap,
    struct jw *moves_text, struct jw *events, struct match_turn_out *out)
{
	struct versus_match *m = st, before = *m;
	struct versus_move *mv = moves;
	struct versus_events ev;
	struct match_refused refused;
	struct match_totals t;
	unsigned i;

	memset(out, 0, sizeof *out);
	if (!match_totals_decode(&t, totals, MATCH_TOTALS_SIZE) ||
	    !match_turn_resolve(m, mv, moved, &ev, &refused))
		return false;
	out->refused = refused.seats;
	for (i = 0; i < VERSUS_PLAYERS_MAX; i++) {
		if (refused.seats >> i & 1u)
			memcpy(out->reason[i], refused.reason[i], sizeof out->reason[i]);
		if (match_use_empty(&ev, mv, i))
			out->use_empty = (uint8_t)(out->use_empty | 1u << i);
	}
	match_totals_add(&t, &ev);
	match_totals_encode(&t, totals);
	out->end = match_end_name(match_end_of(m, turn_cap));
	match_turn_write(moves_text, &before, mv);
	match_events_write(events, &ev, mv);
	return true;
}

static void
results(const void *st, const uint8_t *totals, uint32_t turn_cap, struct match_seat_result *out)
{
	const struct versus_match *m = st;
	uint8_t places[VERSUS_PLAYERS_MAX];
	struct match_totals t;
	unsigned i;

	if (!match_totals_decode(&t, totals, MATCH_TOTALS_SIZE))
		memset(&t, 0, sizeof t);
	match_places(m, match_end_of(m, turn_cap), places);
	for (i = 0; i < m->nplayers; i++)
		out[i] = (struct match_seat_result){ places[i], (int64_t)m->players[i].score,
			t.sent[i], t.received[i] };
}

/* r as this folder's functions read a match: its state and totals
 * decoded into t. */
static void
record_of(const struct match_rules_record *g, struct match_record *r, struct match_totals *t)
{
	int i;

	memset(r, 0, sizeof *r);
	r->id = g->id;
	r->seed = g->seed;
	r->rules = g->rules;
	r->status = g->status;
	r->end_reason = g->end_reason;
	r->players = g->players;
	r->joined = g->joined;
	r->turn_seconds = g->turn_seconds;
	r->turn_cap = g->turn_cap;
	r->seed_chosen = g->seed_chosen;
	r->rated = g->rated;
	r->items = g->options.on;
	r->queue = g->queue;
	r->item_chance = g->options.chance;
	r->item_weights = g->options.shares;
	r->unrated_reason = g->unrated_reason;
	r->turn = g->turn;
	r->created_at = g->created_at;
	r->started_at = g->started_at;
	r->finished_at = g->finished_at;
	r->deadline_at = g->deadline_at;
	r->last_turn = g->last_turn;
	r->certificate = g->certificate;
	r->nseats = g->nseats < VERSUS_PLAYERS_MAX ? g->nseats : VERSUS_PLAYERS_MAX;
	for (i = 0; i < r->nseats; i++) {
		r->seats[i].account = g->seats[i].account;
		r->seats[i].rating_before = g->seats[i].rating_before;
		r->seats[i].rating_after = g->seats[i].rating_after;
	}
	if (g->state != NULL && g->totals != NULL &&
	    match_totals_decode(t, g->totals, MATCH_TOTALS_SIZE)) {
		r->m = g->state;
		r->totals = t;
	}
	r->moved = g->moved;
}

static void
view_write(struct jw *w, const struct match_rules_record *g, int viewer, int64_t now_ms)
{
	struct match_record r;
	struct match_totals t;

	record_of(g, &r, &t);
	match_view_write(w, &r, viewer, now_ms);
}

static void
move_answer_write(struct jw *w, const struct match_rules_record *g, uint32_t turn, const void *mv,
    const char *move, bool resolved, int viewer, int64_t now_ms, bool full, bool use_empty)
{
	const struct versus_move *v = mv;
	struct match_record r;
	struct match_totals t;

	record_of(g, &r, &t);
	match_move_answer_write(w, g->id, turn, move, resolved, &r, viewer, now_ms, full,
	    v->kind == VERSUS_MOVE_PLACE ? v->use : 0, use_empty);
}

static json_t *
replay(const struct match_rules_record *g, json_t *turns)
{
	struct match_record r;
	struct match_totals t;

	record_of(g, &r, &t);
	return match_result_replay(&r, turns);
}

static char *
certificate(const struct keyring *kr, const struct match_rules_record *g, json_t *turns,
    int64_t now)
{
	struct match_record r;
	struct match_totals t;

	record_of(g, &r, &t);
	return match_result_certificate(kr, &r, turns, now);
}

static bool
walk_start(void *walk, uint64_t seed, unsigned nplayers, const struct match_options *o)
{
	struct match_walk *w = walk;

	return match_walk_start(w, seed, nplayers) &&
	    (!o->on || match_state_items(&w->m, o->chance, o->shares));
}

static int
walk_turn(void *walk, const json_t *entry, struct match_replay_check *out)
{
	return match_walk_turn(walk, entry, out);
}

static bool
walk_write(struct jw *w, const void *walk, uint32_t turn_cap, const char *const *names,
    const json_t *moves)
{
	return watch_turn_write(w, walk, turn_cap, names, moves);
}

const struct match_rules match_versus = {
	.id = MATCH_RULES_VERSUS,
	.name = VERSUS_RULES,
	.players_min = VERSUS_PLAYERS_MIN,
	.players_max = VERSUS_PLAYERS_MAX,
	.state_size = sizeof(struct versus_match),
	.state_max = VERSUS_SERIAL_MAX,
	.move_size = sizeof(struct versus_move),
	.pending_max = PENDING_SEAT * VERSUS_PLAYERS_MAX,
	.totals_size = MATCH_TOTALS_SIZE,
	.walk_size = sizeof(struct match_walk),
	.missed = "missed",
	.option_fields = option_fields,
	.options_read = options_read,
	.start = start,
	.encode = encode,
	.decode = decode,
	.standing = standing,
	.move_read = move_read,
	.move_text = move_text,
	.move_check = move_check,
	.pending_read = pending_read,
	.pending_write = pending_write,
	.resolve = resolve,
	.results = results,
	.view_write = view_write,
	.move_answer_write = move_answer_write,
	.replay = replay,
	.certificate = certificate,
	.verify = match_replay_verify,
	.walk_start = walk_start,
	.walk_turn = walk_turn,
	.walk_write = walk_write,
};
