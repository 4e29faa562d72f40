/*
 * ab_rules.c: ActionBlocks as a match ruleset, `const struct match_rules
 * match_actionblocks` (match_rules.h): the hooks over the engine
 * (actionblocks.h), played on its turn clock, and the parts of the
 * answers ab_json.c writes, which the shared match code (game/match.h)
 * puts together.
 *
 * The server holds a match as the opaque bytes of a struct ab_match, its
 * moves as struct ab_move. The pending moves are a record a seat that
 * moved, in seat order: seat, kind, use, key count (2 bytes,
 * little-endian) and the keys. Its options are versus-v1's items
 * (docs/rules/actionblocks.md, "Items"), read by the same function
 * (match_items_read). Its standing's turn is the ticks run on the tick
 * clock, whose hooks are ab_ticks.c's.
 *
 * Pure CPU.
 */
#include <string.h>

#include "ab_json.h"
#include "ab_ticks.h"
#include "jw.h"
#include "match.h"

_Static_assert(AB_PLAYERS_MAX == MATCH_PLAYERS_MAX, "every seat of the row is a player's");
_Static_assert(sizeof(struct ab_move) <= MATCH_MOVE_MAX, "a move fits the server's");
_Static_assert(AB_MOVE_TEXT_MAX <= MATCH_MOVE_TEXT_MAX, "a move's text fits the server's");
_Static_assert(AB_TOTALS_SIZE == MATCH_TOTALS_SIZE, "the row's totals are the shared ones");
_Static_assert(AB_ITEM_KINDS == MATCH_OPTION_SHARES && AB_ITEM_WEIGHT_MAX == MATCH_ITEM_WEIGHT_MAX,
    "the item weights are the option's shares");

/* A match on the turn clock; the tick clock's start is ab_ticks.c's. */
static bool
start(void *st, uint64_t seed, unsigned nplayers, const struct match_options *o)
{
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

	/* Either clock: a real-time match's row holds its state at the
	 * start and at the end (server/match_live.c). */
	if (!ab_decode(&m, in, n))
		return false;
	memcpy(st, &m, sizeof m);
	return true;
}

/* What the shared answers read off a match: a seat's end reason only
 * once it is out (the engine names NONE too). */
static void
standing(const void *st, struct match_standing *out)
{
	const struct ab_match *m = st;
	const struct ab_player *p;
	unsigned i;

	*out = (struct match_standing){ .turn = m->clock == AB_CLOCK_TICKS ? m->tick : m->turn,
		.nplayers = m->nplayers, .over = m->over,
		.item_chance = m->item_chance };
	memcpy(out->item_weights, m->item_weights, sizeof out->item_weights);
	for (i = 0, p = m->players; i < m->nplayers && i < AB_PLAYERS_MAX; i++, p++) {
		if (p->alive)
			out->alive = (uint8_t)(out->alive | 1u << i);
		out->seats[i].place = p->place;
		out->seats[i].end_reason = p->end != AB_END_NONE ? ab_end_name(p->end) : NULL;
		out->seats[i].score = p->score;
		out->seats[i].lines = p->lines;
	}
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
	default:
		return MATCH_PARSE_INVALID;
	}
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

static void
move_missed(void *mv, bool out)
{
	memset(mv, 0, sizeof(struct ab_move));
	((struct ab_move *)mv)->kind = out ? AB_MOVE_NONE : AB_MOVE_MISSED;
}

static enum match_play
turn_play(void *st, const void *moves, void *ev, unsigned *bad, char *reason, size_t cap)
{
	enum ab_outcome rc = ab_resolve(st, moves, ev, bad, reason, cap);

	return rc == AB_OK ? MATCH_PLAYED : rc == AB_REFUSED ? MATCH_REFUSED : MATCH_NO_TURN;
}

static void
totals_add(struct match_totals *t, const void *ev)
{
	ab_totals_add(t, ev);
}

static void
events_write(struct jw *w, const void *st, const void *ev, const void *moves)
{
	const struct ab_match *m = st;

	(void)moves;
	ab_events_write(w, ev, m->item_chance > 0);
}

static void
seat_write(struct jw *w, const void *st, int viewer, unsigned seat, unsigned place,
    const struct match_totals *t)
{
	ab_seat_write(w, st, viewer, seat, place, t);
}

MATCH_RULES_SIZES_FIT(struct ab_match, struct ab_events);
_Static_assert(offsetof(struct ab_match, players) + AB_PLAYERS_MAX * sizeof(struct ab_player) ==
    sizeof(struct ab_match), "the seats are the state's last field (state_head)");

const struct match_rules match_actionblocks = {
	.id = MATCH_RULES_ACTIONBLOCKS,
	.name = AB_RULES,
	.players_min = AB_PLAYERS_MIN,
	.players_max = AB_PLAYERS_MAX,
	.seed_max = AB_SEED_MAX,
	.state_size = sizeof(struct ab_match),
	.state_head = offsetof(struct ab_match, players),
	.state_seat = sizeof(struct ab_player),
	.state_max = AB_SERIAL_MAX,
	.move_size = sizeof(struct ab_move),
	.pending_max = AB_PENDING_MAX,
	.totals_size = AB_TOTALS_SIZE,
	.events_size = sizeof(struct ab_events),
	.missed = "missed",
	.ticks = &ab_ticks,
	.option_fields = match_item_fields,
	.options_read = match_items_read,
	.start = start,
	.encode = encode,
	.decode = decode,
	.standing = standing,
	.move_read = move_read,
	.move_text = move_text,
	.move_check = move_check,
	.pending_read = pending_read,
	.pending_write = pending_write,
	.move_missed = move_missed,
	.turn_play = turn_play,
	.totals_add = totals_add,
	.events_write = events_write,
	.seat_write = seat_write,
};
