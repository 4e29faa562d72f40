/*
 * ab_rules.c: ActionBlocks as a match ruleset, `const struct match_rules
 * match_actionblocks` (match_rules.h), over what ab_json.c writes and the
 * engine (actionblocks.h) plays on its turn clock.
 *
 * The server holds a match as the opaque bytes of a struct ab_match, its
 * moves as struct ab_move, its totals as AB_TOTALS_SIZE bytes. The pending
 * moves are a record a seat that moved, in seat order: seat, kind, use,
 * key count (2 bytes, little-endian) and the keys. Its options are
 * versus-v1's items (docs/rules/actionblocks.md, "Items").
 *
 * Pure CPU.
 */
#include <stdio.h>
#include <string.h>

#include "ab_json.h"
#include "jsonbody.h"
#include "jw.h"
#include "match_rules.h"

#define ITEM_CHANCE_DEFAULT 10

_Static_assert(AB_PLAYERS_MAX <= MATCH_PLAYERS_MAX, "every player has a seat");
_Static_assert(sizeof(struct ab_move) <= MATCH_MOVE_MAX, "a move fits the server's");
_Static_assert(AB_MOVE_TEXT_MAX <= MATCH_MOVE_TEXT_MAX, "a move's text fits the server's");
_Static_assert(AB_ITEM_KINDS == MATCH_OPTION_SHARES, "the item weights are the option's shares");

static const char *const option_fields[] = { "items", "item_chance", "item_weights", NULL };

/* The item settings, read as versus-v1 reads them: `items`, `item_chance`
 * (0..100, 10 by default with items on), `item_weights` (six integers
 * 0..100, one at least above 0). */
static bool
options_read(const json_t *body, struct match_options *o, char *msg, size_t cap)
{
	const json_t *items = body ? json_object_get(body, "items") : NULL;
	const json_t *weights = body ? json_object_get(body, "item_weights") : NULL;
	int64_t chance = ITEM_CHANCE_DEFAULT;
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
		if (!json_is_array(weights) || json_array_size(weights) != AB_ITEM_KINDS) {
			snprintf(msg, cap, "field 'item_weights' must list 6 integers (add_line, clear_line, "
			    "nuke, swap, blind, transform)");
			return false;
		}
		for (k = 0; k < AB_ITEM_KINDS; k++) {
			const json_t *w = json_array_get(weights, k);

			if (!json_is_integer(w) || json_integer_value(w) < 0 ||
			    json_integer_value(w) > AB_ITEM_WEIGHT_MAX) {
				snprintf(msg, cap, "field 'item_weights' item %zu must be an integer from 0 to %d",
				    k, AB_ITEM_WEIGHT_MAX);
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
	struct ab_totals t;

	memset(&t, 0, sizeof t);
	ab_totals_encode(&t, totals);
	return ab_init(st, seed, nplayers, AB_CLOCK_TURNS, o->on ? o->chance : 0,
	    o->on ? o->shares : NULL);
}

static size_t
encode(const void *st, uint8_t *out, size_t cap)
{
	return ab_encode(st, out, cap);
}

static bool
decode(void *st, const uint8_t *in, size_t n)
{
	struct ab_match m;

	/* The server serves the turn clock only. */
	if (!ab_decode(&m, in, n) || m.clock != AB_CLOCK_TURNS)
		return false;
	memcpy(st, &m, sizeof m);
	return true;
}

static void
standing(const void *st, struct match_standing *out)
{
	const struct ab_match *m = st;
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
	memset(mv, 0, sizeof(struct ab_move));
	switch (ab_move_parse(text, len, mv, reason, cap)) {
	case AB_PARSE_OK:
		return MATCH_PARSE_OK;
	case AB_PARSE_EMPTY:
		return MATCH_PARSE_EMPTY;
	case AB_PARSE_INVALID:
		break;
	}
	return MATCH_PARSE_INVALID;
}

static size_t
move_text(const void *mv, char *buf, size_t cap)
{
	return ab_move_text(mv, buf, cap);
}

static bool
move_check(const void *st, unsigned seat, const void *mv, char *reason, size_t cap)
{
	return ab_check_move(st, seat, mv, reason, cap);
}

static void
pending_read(const uint8_t *in, size_t n, unsigned nplayers, void *moves, uint8_t *moved)
{
	struct ab_move *mv = moves;
	size_t at = 0, nkeys;
	unsigned i, seat;
	uint8_t got = 0;

	for (i = 0; i < nplayers; i++)
		memset(&mv[i], 0, sizeof mv[i]);
	*moved = 0;
	while (at + 5 <= n) {
		seat = in[at];
		nkeys = (size_t)engine_get_le(in + at + 3, 2);
		if (seat >= nplayers || got >> seat & 1u || nkeys > AB_KEYS_MAX || at + 5 + nkeys > n ||
		    (in[at + 1] != AB_MOVE_KEYS && in[at + 1] != AB_MOVE_RESIGN))
			return; /* not this ruleset's bytes: none sent */
		mv[seat].kind = in[at + 1];
		mv[seat].use = in[at + 2];
		mv[seat].nkeys = (uint16_t)nkeys;
		memcpy(mv[seat].keys, in + at + 5, nkeys);
		got = (uint8_t)(got | 1u << seat);
		at += 5 + nkeys;
	}
	if (at == n)
		*moved = got;
}

static size_t
pending_write(const void *moves, uint8_t moved, unsigned nplayers, uint8_t *out)
{
	const struct ab_move *mv = moves;
	size_t at = 0;
	unsigned i;

	for (i = 0; i < nplayers; i++) {
		if (!(moved >> i & 1u))
			continue;
		out[at] = (uint8_t)i;
		out[at + 1] = mv[i].kind;
		/* a checked move's use names a seat of the match: at most 8 */
		out[at + 2] = (uint8_t)mv[i].use;
		engine_put_le(out + at + 3, mv[i].nkeys, 2);
		memcpy(out + at + 5, mv[i].keys, mv[i].nkeys);
		at += 5 + (size_t)mv[i].nkeys;
	}
	return at;
}

static bool
resolve(void *st, void *moves, uint8_t moved, uint8_t *totals, uint32_t turn_cap,
    struct jw *moves_text, struct jw *events, struct match_turn_out *out)
{
	struct ab_match *m = st;
	struct ab_move *mv = moves;
	struct ab_events ev;
	struct ab_totals t;
	uint8_t alive_before[AB_PLAYERS_MAX];
	unsigned i;

	memset(out, 0, sizeof *out);
	if (!ab_totals_decode(&t, totals, AB_TOTALS_SIZE))
		return false;
	for (i = 0; i < m->nplayers; i++)
		alive_before[i] = m->players[i].alive;
	if (!ab_match_resolve(m, mv, moved, &ev, &out->refused, out->reason))
		return false;
	ab_totals_add(&t, &ev);
	ab_totals_encode(&t, totals);
	out->end = ab_match_end_name(ab_match_end_of(m, turn_cap));
	/* The turn's entry: null for seats out before it. */
	jw_array(moves_text);
	for (i = 0; i < m->nplayers; i++) {
		char text[AB_MOVE_TEXT_MAX];

		if (!alive_before[i]) {
			jw_null(moves_text);
			continue;
		}
		ab_move_text(&mv[i], text, sizeof text);
		jw_string(moves_text, text);
	}
	jw_array_end(moves_text);
	ab_events_write(events, &ev, m->item_chance > 0);
	return true;
}

static void
results(const void *st, const uint8_t *totals, uint32_t turn_cap, struct match_seat_result *out)
{
	const struct ab_match *m = st;
	uint8_t places[AB_PLAYERS_MAX];
	struct ab_totals t;
	unsigned i;

	if (!ab_totals_decode(&t, totals, AB_TOTALS_SIZE))
		memset(&t, 0, sizeof t);
	ab_match_places(m, ab_match_end_of(m, turn_cap), places);
	for (i = 0; i < m->nplayers; i++)
		out[i] = (struct match_seat_result){ places[i], (int64_t)m->players[i].score,
			t.sent[i], t.received[i] };
}

static void
move_answer_write(struct jw *w, const struct match_rules_record *r, uint32_t turn, const void *mv,
    const char *move, bool resolved, int viewer, int64_t now_ms, bool full, bool use_empty)
{
	(void)mv;
	(void)use_empty;
	ab_move_answer_write(w, r, turn, move, resolved, viewer, now_ms, full);
}

const struct match_rules match_actionblocks = {
	.id = MATCH_RULES_ACTIONBLOCKS,
	.name = AB_RULES,
	.players_min = AB_PLAYERS_MIN,
	.players_max = AB_PLAYERS_MAX,
	.state_size = sizeof(struct ab_match),
	.state_max = AB_SERIAL_MAX,
	.move_size = sizeof(struct ab_move),
	.pending_max = AB_PENDING_MAX,
	.totals_size = AB_TOTALS_SIZE,
	.walk_size = sizeof(struct ab_walk),
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
	.view_write = ab_view_write,
	.move_answer_write = move_answer_write,
	.replay = ab_replay_json,
	.certificate = ab_certificate,
	.verify = ab_replay_verify,
	.walk_start = ab_walk_start,
	.walk_turn = ab_walk_turn,
	.walk_write = ab_walk_write,
};
