/*
 * ab_json.c: a served actionblocks-v1 match's parts of the answers
 * (ab_json.h): a seat as the views show it, a turn's events, and what a
 * turn adds to the totals. The shared match code (game/match.h) puts
 * them together into the views, replays and the turns page.
 */
#include "ab_json.h"

#include <string.h>

#include "jw.h"

/* ---- totals ---- */

void
ab_totals_add(struct match_totals *t, const struct ab_events *ev)
{
	unsigned i;

	for (i = 0; i < ev->nplayers && i < AB_PLAYERS_MAX; i++) {
		const struct ab_seat_events *e = &ev->seats[i];

		if (e->locked)
			match_totals_count(t, i, e->lock.sent, e->lock.target, e->lock.sent_lost);
	}
}

/* ---- the parts of the answers ---- */

static void
letter_or_null_write(struct jw *w, char c)
{
	if (c != 0)
		jw_char(w, c);
	else
		jw_null(w);
}

/* Rows from top down to bottom of a view's grid (rows of AB_COLS + 1), blind turning every cell
 * to '.'. */
static void
rows_write(struct jw *w, const char *grid, int top, int bottom, bool blind)
{
	static const char empty[AB_COLS + 1] = "..........";
	int y;

	jw_array(w);
	for (y = top; y >= bottom; y--)
		jw_stringn(w, blind ? empty : grid + (size_t)y * (AB_COLS + 1), AB_COLS);
	jw_array_end(w);
}

void
ab_seat_write(struct jw *w, const struct ab_match *m, int viewer, unsigned seat, unsigned place,
    const struct match_totals *t)
{
	const struct ab_player *p = &m->players[seat];
	struct ab_view v;
	int top;
	unsigned k;
	bool blind = p->blind > 0;

	ab_view(m, seat, &v);
	for (top = AB_ROWS - 1; top >= AB_VISIBLE_ROWS; top--)
		if (memcmp(v.board[top], "..........", AB_COLS) != 0)
			break;
	match_seat_head_write(w, seat, v.alive, place, p->end != AB_END_NONE ? v.end : NULL);
	jw_key(w, "board");
	rows_write(w, &v.board[0][0], AB_VISIBLE_ROWS - 1, 0, blind);
	jw_key(w, "buffer");
	rows_write(w, &v.board[0][0], top, AB_VISIBLE_ROWS, blind);
	jw_key(w, "piece");
	if (v.piece != 0) {
		jw_object(w);
		jw_kchar(w, "letter", v.piece);
		jw_kint(w, "x", v.x);
		jw_kint(w, "y", v.y);
		jw_kint(w, "rotation", v.r);
		jw_object_end(w);
	} else
		jw_null(w);
	jw_key(w, "hold");
	letter_or_null_write(w, v.hold);
	jw_key(w, "next");
	if (viewer >= 0 && (unsigned)viewer == seat) {
		jw_array(w);
		for (k = 0; k < AB_NEXT; k++)
			letter_or_null_write(w, v.next[k]);
		jw_array_end(w);
	} else
		jw_null(w);
	match_seat_counts_write(w, &(struct match_seat_counts){ v.score, v.lines, v.level, v.combo,
	    v.b2b, p->pending, v.missed }, t, seat);
	if (m->item_chance == 0)
		return;
	jw_key(w, "item_board");
	rows_write(w, &v.items[0][0], AB_VISIBLE_ROWS - 1, 0, blind);
	match_seat_items_write(w, p->inventory, p->ninventory < AB_INVENTORY_MAX ? p->ninventory :
	    AB_INVENTORY_MAX, v.blind, v.transform);
}

static const char *
action_name(unsigned action)
{
	switch (action) {
	case AB_ACT_KEYS: return "keys";
	case AB_ACT_DROPPED: return "dropped";
	case AB_ACT_TIMED_OUT: return "timed_out";
	case AB_ACT_RESIGNED: return "resigned";
	default: return "none";
	}
}

void
ab_lock_write(struct jw *w, const struct ab_lock_events *l)
{
	struct ab_slot s = { l->piece, l->shape, 0 };

	jw_key(w, "piece");
	letter_or_null_write(w, ab_slot_letter(&s));
	jw_kint(w, "lines", l->lines);
	jw_kstring(w, "spin", ab_spin_name(l->spin));
	jw_kbool(w, "back_to_back", l->b2b);
	jw_kbool(w, "perfect_clear", l->perfect);
	jw_kint(w, "combo", l->combo);
	jw_kint(w, "points", (int64_t)l->points);
	match_attack_write(w, l->attack, l->cancelled, l->sent,
	    l->sent > 0 && l->target < AB_PLAYERS_MAX, l->target, l->sent_lost);
}

void
ab_events_write(struct jw *w, const struct ab_events *ev, bool items)
{
	struct match_totals turn = { { 0 }, { 0 } }; /* the turn's own: what each seat received */
	unsigned i, target;

	ab_totals_add(&turn, ev);
	match_events_open(w, ev->turn, ev->over);
	for (i = 0; i < ev->nplayers && i < AB_PLAYERS_MAX; i++) {
		const struct ab_seat_events *e = &ev->seats[i];
		const struct ab_lock_events *l = &e->lock;

		if (!match_event_seat_open(w, i, action_name(e->action), e->action != AB_ACT_NONE))
			continue;
		jw_kint(w, "drop_points", e->drop_points);
		jw_kbool(w, "locked", e->locked);
		if (e->locked) {
			ab_lock_write(w, l);
			if (items) {
				jw_kint(w, "items_collected", l->collected);
				jw_kint(w, "items_discarded", l->discarded);
			}
		}
		jw_kint(w, "received", turn.received[i]);
		jw_kint(w, "risen_lines", e->risen_lines);
		match_event_end_write(w, e->eliminated, ab_end_name(e->end), e->place);
		jw_object_end(w);
	}
	jw_array_end(w);
	if (items) {
		jw_key(w, "hits");
		jw_array(w);
		for (target = 0; target < ev->nplayers && target < AB_PLAYERS_MAX; target++)
			for (i = 0; i < ev->nplayers && i < AB_PLAYERS_MAX; i++) {
				if (match_item_name(ev->seats[i].used) == NULL || ev->seats[i].used_on != target)
					continue;
				jw_object(w);
				jw_kint(w, "target", target);
				jw_kstring(w, "item", match_item_name(ev->seats[i].used));
				jw_object_end(w);
			}
		jw_array_end(w);
	}
	jw_object_end(w);
}
