/*
 * versus_rules.c: versus as a match ruleset, `const struct match_rules
 * match_versus` (match_rules.h): the hooks over the engine (versus.h) and
 * the parts of the answers versus_json.c writes, which the shared match
 * code (game/match.h) puts together.
 *
 * The server holds a versus match as the opaque bytes of a struct
 * versus_match, its moves as struct versus_move. The pending moves keep
 * the row's format of before the descriptor: 5 bytes a seat (kind, hold,
 * rotation, column, use; kind 0 for none sent), and a row written before
 * `use` was kept holds 4 bytes a seat, read back with no use (no match
 * could have items then). Its options are the items (docs/rules/versus.md,
 * "Items"), read as every ruleset with items reads them (match_items_read).
 *
 * Pure CPU. A move of the hot path costs a cast here.
 */
#include <string.h>

#include "jw.h"
#include "match.h"
#include "match_rules.h"
#include "versus.h"
#include "versus_json.h"

#define PENDING_SEAT 5

_Static_assert(VERSUS_PLAYERS_MAX == MATCH_PLAYERS_MAX, "every seat of the row is a player's");
_Static_assert(sizeof(struct versus_move) <= MATCH_MOVE_MAX, "a move fits the server's");
_Static_assert(VERSUS_ITEM_KINDS == MATCH_OPTION_SHARES, "the item weights are the option's shares");
_Static_assert(VERSUS_ITEM_CHANCE_DEFAULT == MATCH_ITEM_CHANCE_DEFAULT &&
    VERSUS_ITEM_WEIGHT_MAX == MATCH_ITEM_WEIGHT_MAX, "versus's items are read as the option's");
_Static_assert((int)VERSUS_PARSE_OK == (int)MATCH_PARSE_OK &&
    (int)VERSUS_PARSE_EMPTY == (int)MATCH_PARSE_EMPTY &&
    (int)VERSUS_PARSE_INVALID == (int)MATCH_PARSE_INVALID, "a move reads as the server's");

static bool
start(void *st, uint64_t seed, unsigned nplayers, const struct match_options *o)
{
	return versus_init(st, seed, nplayers) && (!o->on || versus_set_items(st, o->chance, o->shares));
}

static size_t
encode(const void *st, uint8_t *out, size_t cap)
{
	return versus_encode(st, out, cap);
}

static bool
decode(void *st, const uint8_t *in, size_t n)
{
	return versus_decode(st, in, n);
}

static void
standing(const void *st, struct match_standing *out)
{
	const struct versus_match *m = st;
	unsigned i;

	out->turn = m->turn;
	out->nplayers = m->nplayers;
	out->over = m->over;
	out->item_chance = m->item_chance;
	memcpy(out->item_weights, m->item_weights, sizeof out->item_weights);
	out->alive = 0;
	for (i = 0; i < m->nplayers && i < VERSUS_PLAYERS_MAX; i++) {
		const struct versus_player *p = &m->players[i];

		out->alive = (uint8_t)(out->alive | (unsigned)p->alive << i);
		out->seats[i] = (struct match_standing_seat){ p->place, versus_end_name(p->end_reason),
			p->score, p->lines };
	}
}

static enum match_parse
move_read(const char *text, size_t len, void *mv, char *reason, size_t cap)
{
	return (enum match_parse)versus_move_parse(text, len, mv, reason, cap);
}

static size_t
move_text(const void *mv, char *buf, size_t cap)
{
	return versus_move_text(mv, buf, cap);
}

static bool
move_check(const void *st, unsigned seat, const void *mv, char *reason, size_t cap)
{
	return versus_check_move(st, seat, mv, reason, cap);
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

/* A seat out of the match plays a missed turn too: the engine skips it. */
static void
move_missed(void *mv, bool out)
{
	(void)out;
	memset(mv, 0, sizeof(struct versus_move));
	((struct versus_move *)mv)->kind = VERSUS_MOVE_MISSED;
}

static enum match_play
turn_play(void *st, const void *moves, void *ev, unsigned *bad, char *reason, size_t cap)
{
	switch (versus_resolve(st, moves, ev, bad, reason, cap)) {
	case VERSUS_OK:
		return MATCH_PLAYED;
	case VERSUS_REFUSED:
		return MATCH_REFUSED;
	default:
		return MATCH_NO_TURN;
	}
}

static void
totals_add(struct match_totals *t, const void *ev)
{
	versus_totals_add(t, ev);
}

static void
events_write(struct jw *w, const void *st, const void *ev, const void *moves)
{
	(void)st;
	versus_events_write(w, ev, moves);
}

static uint8_t
use_empty(const void *ev, const void *moves)
{
	uint8_t seats = 0;
	unsigned i;

	for (i = 0; i < VERSUS_PLAYERS_MAX; i++)
		if (versus_use_empty(ev, moves, i))
			seats = (uint8_t)(seats | 1u << i);
	return seats;
}

static uint32_t
move_use(const void *mv)
{
	const struct versus_move *v = mv;

	return v->kind == VERSUS_MOVE_PLACE ? v->use : 0;
}

static void
seat_write(struct jw *w, const void *st, int viewer, unsigned seat, unsigned place,
    const struct match_totals *t)
{
	versus_seat_write(w, st, viewer >= 0 ? (unsigned)viewer : VERSUS_NOBODY, seat, place, t);
}

static void
board_text_write(struct jw *w, const void *st, const uint8_t *places, const char *const *names)
{
	char text[VERSUS_BOARDS_TEXT_MAX];
	size_t n = versus_boards_text(st, places, names, text);

	if (n > 0)
		jw_stringn(w, text, n);
	else
		jw_null(w);
}

MATCH_RULES_SIZES_FIT(struct versus_match, struct versus_events);

const struct match_rules match_versus = {
	.id = MATCH_RULES_VERSUS,
	.name = VERSUS_RULES,
	.players_min = VERSUS_PLAYERS_MIN,
	.players_max = VERSUS_PLAYERS_MAX,
	.seed_max = VERSUS_SEED_MAX,
	.state_size = sizeof(struct versus_match),
	.state_max = VERSUS_SERIAL_MAX,
	.move_size = sizeof(struct versus_move),
	.pending_max = PENDING_SEAT * VERSUS_PLAYERS_MAX,
	.totals_size = MATCH_TOTALS_SIZE,
	.events_size = sizeof(struct versus_events),
	.missed = "missed",
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
	.use_empty = use_empty,
	.move_use = move_use,
	.seat_write = seat_write,
	.board_text_write = board_text_write,
};
