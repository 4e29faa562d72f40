/*
 * versus_json.c: a served versus match's parts of the answers
 * (versus_json.h): a player as the views show it, a turn's events, the
 * boards side by side and what a turn adds to the totals. Their shapes
 * are the contract's (openapi.yaml): tests/api/test_match_answers.c
 * checks every key and type over random matches.
 */
#include "versus_json.h"

#include <stdio.h>
#include <string.h>

#include "jw.h"

void
versus_totals_add(struct match_totals *t, const struct versus_events *ev)
{
	const struct versus_player_events *e;
	unsigned i;

	for (i = 0; i < ev->nplayers && i < VERSUS_PLAYERS_MAX; i++) {
		e = &ev->players[i];
		match_totals_count(t, i, e->sent, e->target, e->sent_lost);
	}
}

bool
versus_use_empty(const struct versus_events *ev, const struct versus_move *moves, unsigned player)
{
	/* The engine's uses act for every live PLACE with use > 0 and leave
	 * used NONE only when the inventory is empty then. */
	return moves != NULL && ev->items && player < ev->nplayers &&
	    moves[player].kind == VERSUS_MOVE_PLACE && moves[player].use != 0 &&
	    ev->players[player].used == VERSUS_ITEM_NONE;
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
mino_items_write(struct jw *w, unsigned bits)
{
	unsigned k;

	jw_array(w);
	for (k = 0; k < 4; k++)
		string_or_null_write(w, versus_item_name(VERSUS_MINO_ITEMS(bits, k)));
	jw_array_end(w);
}

/* The preview as v's viewer sees it (null unless it is the seat's own):
 * each slot's letter, or with items each slot's minos' items. */
static void
preview_write(struct jw *w, const struct versus_view *v, bool items)
{
	unsigned k;

	if (!v->next_visible) {
		jw_null(w);
		return;
	}
	jw_array(w);
	for (k = 0; k < VERSUS_NEXT; k++)
		if (items)
			mino_items_write(w, v->next_items[k]);
		else
			slot_write(w, v->next[k], v->next_shape[k]);
	jw_array_end(w);
}

void
versus_seat_write(struct jw *w, const struct versus_match *m, unsigned viewer, unsigned player,
    unsigned place, const struct match_totals *t)
{
	struct versus_view v;

	versus_view(m, viewer, player, &v);
	match_seat_head_write(w, player, v.alive, place, versus_end_name(v.end_reason));
	jw_kstring(w, "board_text", v.board_text);
	jw_key(w, "current");
	slot_write(w, v.current, v.current_shape);
	jw_key(w, "hold");
	slot_write(w, v.hold, v.hold_shape);
	jw_key(w, "next");
	preview_write(w, &v, false);
	match_seat_counts_write(w, &(struct match_seat_counts){ v.score, v.lines, v.level, v.combo,
	    v.back_to_back, v.pending, v.missed }, t, player);
	if (m->item_chance == 0)
		return;
	jw_kstring(w, "items_text", v.items_text);
	jw_key(w, "current_items");
	mino_items_write(w, v.current_items);
	jw_key(w, "hold_items");
	mino_items_write(w, v.hold_items);
	jw_key(w, "next_items");
	preview_write(w, &v, true);
	match_seat_items_write(w, v.inventory, v.ninventory, v.blind, v.transform);
}

void
versus_events_write(struct jw *w, const struct versus_events *ev, const struct versus_move *moves)
{
	struct match_totals turn = { { 0 }, { 0 } }; /* the turn's own: what each player received */
	unsigned i, k, target;

	versus_totals_add(&turn, ev);
	match_events_open(w, ev->turn, ev->over);
	for (i = 0; i < ev->nplayers && i < VERSUS_PLAYERS_MAX; i++) {
		const struct versus_player_events *e = &ev->players[i];
		bool placed = e->action == VERSUS_ACT_PLACED || e->action == VERSUS_ACT_DROPPED;

		if (!match_event_seat_open(w, i, versus_action_name(e->action),
		    e->action != VERSUS_ACT_NONE))
			continue;
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
			match_attack_write(w, e->attack, e->cancelled, e->sent, e->sent > 0, e->target,
			    e->sent_lost);
		}
		jw_kint(w, "received", turn.received[i]);
		jw_key(w, "risen");
		jw_array(w);
		for (k = 0; k < e->nrisen && k < VERSUS_QUEUE_MAX; k++) {
			jw_object(w);
			jw_kint(w, "lines", e->risen[k].lines);
			jw_kint(w, "hole", e->risen[k].hole);
			jw_object_end(w);
		}
		jw_array_end(w);
		match_event_end_write(w, e->eliminated, versus_end_name(e->end_reason), e->place);
		if (ev->items && placed) {
			jw_kint(w, "items_collected", e->collected);
			jw_kint(w, "items_discarded", e->discarded);
		}
		if (versus_use_empty(ev, moves, i)) {
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

/* Puts text (at most VERSUS_BOARDS_COLUMN - 1 characters of it) at the start
 * of a column of line; anything but printable ASCII becomes '?', so that
 * one byte is one column. */
static void
put_field(char *line, unsigned column, const char *text)
{
	char *at = line + column * VERSUS_BOARDS_COLUMN;
	size_t k;

	for (k = 0; text[k] != '\0' && k < VERSUS_BOARDS_COLUMN - 1; k++)
		at[k] = text[k] >= ' ' && text[k] <= '~' ? text[k] : '?';
}

/* Appends line[0..width) without its trailing blanks, and a new line
 * unless it is the last. */
static size_t
put_line(char *out, size_t n, const char *line, size_t width, bool last)
{
	while (width > 0 && line[width - 1] == ' ')
		width--;
	memcpy(out + n, line, width);
	n += width;
	if (!last)
		out[n++] = '\n';
	return n;
}

size_t
versus_boards_text(const struct versus_match *m, const uint8_t *places, const char *const *names,
    char out[VERSUS_BOARDS_TEXT_MAX])
{
	char line[VERSUS_BOARDS_COLUMN * VERSUS_PLAYERS_MAX], field[32];
	char boards[VERSUS_PLAYERS_MAX][VERSUS_TEXT_SIZE];
	unsigned n, i, row;
	size_t len = 0, width;

	out[0] = '\0';
	if (m->nplayers < VERSUS_PLAYERS_MIN || m->nplayers > VERSUS_PLAYERS_MAX)
		return 0;
	n = m->nplayers;
	/* A header field may reach into the last column's gap; trimming takes
	 * off what it does not fill. */
	width = (size_t)VERSUS_BOARDS_COLUMN * n - 1;

	memset(line, ' ', sizeof line);
	for (i = 0; i < n; i++) {
		snprintf(field, sizeof field, "%u %s", i, names[i] != NULL ? names[i] : "");
		put_field(line, i, field);
	}
	len = put_line(out, len, line, width, false);

	memset(line, ' ', sizeof line);
	for (i = 0; i < n; i++) {
		const struct versus_player *p = &m->players[i];
		const char *reason = versus_end_name(p->end_reason);

		if (!p->alive)
			snprintf(field, sizeof field, "#%u %s", places[i], reason ? reason : "out");
		else if (places[i] != 0)
			snprintf(field, sizeof field, "#%u %llu", places[i], (unsigned long long)p->score);
		else if (p->pending > 0)
			snprintf(field, sizeof field, "%llu +%u", (unsigned long long)p->score, p->pending);
		else
			snprintf(field, sizeof field, "%llu", (unsigned long long)p->score);
		put_field(line, i, field);
		versus_board_text(p, boards[i]);
		if (p->blind > 0) {
			/* Blind hides the locked cells in every view of the board
			 * (docs/rules/versus.md, "Items"): here too, as the seat's
			 * own board_text does. */
			char *c;

			for (c = boards[i]; *c != '\0'; c++)
				if (*c != '\n')
					*c = '.';
		}
	}
	len = put_line(out, len, line, width, false);

	/* versus_board_text() rows are TETROMINO_COLS characters and a new line. */
	for (row = 0; row < TETROMINO_ROWS; row++) {
		memset(line, ' ', sizeof line);
		for (i = 0; i < n; i++)
			memcpy(line + i * VERSUS_BOARDS_COLUMN, boards[i] + row * (TETROMINO_COLS + 1),
			    TETROMINO_COLS);
		len = put_line(out, len, line, width, row + 1 == TETROMINO_ROWS);
	}
	out[len] = '\0';
	return len;
}
