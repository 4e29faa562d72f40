/*
 * ab_json.c: a served actionblocks-v1 match's totals, end, places, views,
 * events and replay, and the replay's walk and verifier (ab_json.h).
 *
 * The verifier trusts nothing in a replay but its seed, player count, cap,
 * items and moves: it plays the turns on the engine (ab_resolve refuses an
 * illegal move as the server did when it was sent) and compares the final
 * summary it reaches with the one claimed.
 */
#include "ab_json.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "certificate.h"
#include "iso8601.h"
#include "jw.h"
#include "match_answers.h"

static const char *const item_names[AB_ITEM_KINDS] = { "add_line", "clear_line", "nuke", "swap",
	"blind", "transform" };

static const char *
item_name(unsigned item)
{
	return item >= 1 && item <= AB_ITEM_KINDS ? item_names[item - 1] : NULL;
}

/* ---- totals, end, places ---- */

void
ab_totals_add(struct ab_totals *t, const struct ab_events *ev)
{
	unsigned i;

	for (i = 0; i < ev->nplayers && i < AB_PLAYERS_MAX; i++) {
		const struct ab_seat_events *e = &ev->seats[i];

		if (!e->locked || e->lock.sent == 0)
			continue;
		t->sent[i] += e->lock.sent;
		if (!e->lock.sent_lost && e->lock.target < AB_PLAYERS_MAX)
			t->received[e->lock.target] += e->lock.sent;
	}
}

void
ab_totals_encode(const struct ab_totals *t, uint8_t out[AB_TOTALS_SIZE])
{
	unsigned i;

	for (i = 0; i < AB_PLAYERS_MAX; i++) {
		engine_put_le(out + 8 * i, t->sent[i], 4);
		engine_put_le(out + 8 * i + 4, t->received[i], 4);
	}
}

bool
ab_totals_decode(struct ab_totals *t, const uint8_t *in, size_t n)
{
	unsigned i;

	if (in == NULL || n != AB_TOTALS_SIZE)
		return false;
	for (i = 0; i < AB_PLAYERS_MAX; i++) {
		t->sent[i] = (uint32_t)engine_get_le(in + 8 * i, 4);
		t->received[i] = (uint32_t)engine_get_le(in + 8 * i + 4, 4);
	}
	return true;
}

enum ab_match_end
ab_match_end_of(const struct ab_match *m, uint32_t turn_cap)
{
	if (m->over)
		return m->nalive == 1 ? AB_MATCH_LAST_STANDING : AB_MATCH_ALL_OUT;
	if (turn_cap != 0 && m->turn >= turn_cap)
		return AB_MATCH_TURN_CAP;
	return AB_MATCH_NONE;
}

const char *
ab_match_end_name(enum ab_match_end end)
{
	switch (end) {
	case AB_MATCH_LAST_STANDING: return "last_standing";
	case AB_MATCH_ALL_OUT: return "all_out";
	case AB_MATCH_TURN_CAP: return "turn_cap";
	default: return NULL;
	}
}

void
ab_match_places(const struct ab_match *m, enum ab_match_end end, uint8_t places[AB_PLAYERS_MAX])
{
	unsigned i;

	memset(places, 0, AB_PLAYERS_MAX);
	for (i = 0; i < m->nplayers && i < AB_PLAYERS_MAX; i++) {
		places[i] = m->players[i].place;
		if (end == AB_MATCH_TURN_CAP && m->players[i].alive)
			places[i] = 1;
	}
}

bool
ab_match_resolve(struct ab_match *m, struct ab_move *mv, uint8_t moved, struct ab_events *ev,
    uint8_t *refused, char reason[][ENGINE_REASON_MAX])
{
	char why[ENGINE_REASON_MAX];
	uint32_t turn = m->turn;
	unsigned i, bad = 0;

	*refused = 0;
	for (i = 0; i < m->nplayers; i++)
		if (!(moved >> i & 1u))
			mv[i].kind = m->players[i].alive ? AB_MOVE_MISSED : AB_MOVE_NONE;
	/* The engine refuses the first living seat's move it cannot play and
	 * changes nothing: that seat misses, and the turn is tried again. */
	while (ab_resolve(m, mv, ev, &bad, why, sizeof why) == AB_REFUSED && bad < m->nplayers &&
	    mv[bad].kind != AB_MOVE_MISSED) {
		*refused = (uint8_t)(*refused | 1u << bad);
		memcpy(reason[bad], why, sizeof why);
		memset(&mv[bad], 0, sizeof mv[bad]);
		mv[bad].kind = AB_MOVE_MISSED;
	}
	return m->turn == turn + 1;
}

/* ---- the parts of the answers ---- */

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
ab_seat_write(struct jw *w, const struct ab_match *m, enum ab_match_end end, int viewer,
    unsigned seat, const struct ab_totals *t)
{
	const struct ab_player *p = &m->players[seat];
	struct ab_view v;
	uint8_t places[AB_PLAYERS_MAX];
	int top;
	unsigned k;
	bool blind = p->blind > 0;

	ab_view(m, seat, &v);
	ab_match_places(m, end, places);
	for (top = AB_ROWS - 1; top >= AB_VISIBLE_ROWS; top--)
		if (memcmp(v.board[top], "..........", AB_COLS) != 0)
			break;
	jw_kint(w, "seat", seat);
	jw_kbool(w, "alive", v.alive);
	jw_key(w, "place");
	place_or_null_write(w, places[seat]);
	jw_key(w, "end_reason");
	string_or_null_write(w, p->end != AB_END_NONE ? v.end : NULL);
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
	jw_kint(w, "score", (int64_t)v.score);
	jw_kint(w, "lines", v.lines);
	jw_kint(w, "level", v.level);
	jw_kint(w, "combo", v.combo);
	jw_kbool(w, "back_to_back", v.b2b);
	jw_kint(w, "pending", p->pending);
	jw_kint(w, "missed", v.missed);
	jw_kint(w, "lines_sent", t != NULL ? t->sent[seat] : 0);
	jw_kint(w, "lines_received", t != NULL ? t->received[seat] : 0);
	if (m->item_chance == 0)
		return;
	jw_key(w, "item_board");
	rows_write(w, &v.items[0][0], AB_VISIBLE_ROWS - 1, 0, blind);
	jw_key(w, "inventory");
	jw_array(w);
	for (k = 0; k < p->ninventory && k < AB_INVENTORY_MAX; k++)
		if (item_name(p->inventory[k]) != NULL)
			jw_string(w, item_name(p->inventory[k]));
	jw_array_end(w);
	jw_kint(w, "blind", v.blind);
	jw_kint(w, "transform", v.transform);
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
ab_events_write(struct jw *w, const struct ab_events *ev, bool items)
{
	unsigned i, target, received[AB_PLAYERS_MAX] = { 0 };

	for (i = 0; i < ev->nplayers && i < AB_PLAYERS_MAX; i++) {
		const struct ab_lock_events *l = &ev->seats[i].lock;

		if (ev->seats[i].locked && l->sent > 0 && !l->sent_lost && l->target < AB_PLAYERS_MAX)
			received[l->target] += l->sent;
	}
	jw_object(w);
	jw_kint(w, "turn", ev->turn);
	jw_kbool(w, "over", ev->over);
	jw_key(w, "players");
	jw_array(w);
	for (i = 0; i < ev->nplayers && i < AB_PLAYERS_MAX; i++) {
		const struct ab_seat_events *e = &ev->seats[i];
		const struct ab_lock_events *l = &e->lock;

		jw_object(w);
		jw_kint(w, "seat", i);
		jw_kstring(w, "action", action_name(e->action));
		if (e->action == AB_ACT_NONE) {
			jw_object_end(w);
			continue;
		}
		jw_kint(w, "drop_points", e->drop_points);
		jw_kbool(w, "locked", e->locked);
		if (e->locked) {
			struct ab_slot s = { l->piece, l->shape, 0 };

			jw_key(w, "piece");
			letter_or_null_write(w, ab_slot_letter(&s));
			jw_kint(w, "lines", l->lines);
			jw_kstring(w, "spin", ab_spin_name(l->spin));
			jw_kbool(w, "back_to_back", l->b2b);
			jw_kbool(w, "perfect_clear", l->perfect);
			jw_kint(w, "combo", l->combo);
			jw_kint(w, "points", (int64_t)l->points);
			jw_kint(w, "attack", l->attack);
			jw_kint(w, "cancelled", l->cancelled);
			jw_kint(w, "sent", l->sent);
			jw_key(w, "target");
			if (l->sent > 0 && l->target < AB_PLAYERS_MAX)
				jw_int(w, l->target);
			else
				jw_null(w);
			jw_kbool(w, "lost", l->sent_lost);
			if (items) {
				jw_kint(w, "items_collected", l->collected);
				jw_kint(w, "items_discarded", l->discarded);
			}
		}
		jw_kint(w, "received", received[i]);
		jw_kint(w, "risen_lines", e->risen_lines);
		jw_kbool(w, "eliminated", e->eliminated);
		jw_key(w, "end_reason");
		string_or_null_write(w, e->eliminated ? ab_end_name(e->end) : NULL);
		jw_key(w, "place");
		place_or_null_write(w, e->place);
		jw_object_end(w);
	}
	jw_array_end(w);
	if (items) {
		jw_key(w, "hits");
		jw_array(w);
		for (target = 0; target < ev->nplayers && target < AB_PLAYERS_MAX; target++)
			for (i = 0; i < ev->nplayers && i < AB_PLAYERS_MAX; i++) {
				if (item_name(ev->seats[i].used) == NULL || ev->seats[i].used_on != target)
					continue;
				jw_object(w);
				jw_kint(w, "target", target);
				jw_kstring(w, "item", item_name(ev->seats[i].used));
				jw_object_end(w);
			}
		jw_array_end(w);
	}
	jw_object_end(w);
}

void
ab_turn_write(struct jw *w, const struct ab_match *before, const struct ab_move *mv)
{
	char text[AB_MOVE_TEXT_MAX];
	unsigned i;

	jw_array(w);
	for (i = 0; i < before->nplayers; i++) {
		if (!before->players[i].alive) {
			jw_null(w);
			continue;
		}
		ab_move_text(&mv[i], text, sizeof text);
		jw_string(w, text);
	}
	jw_array_end(w);
}

/* A key and its string, left out when s is not UTF-8. */
static void
string_field(struct jw *w, const char *key, const char *s)
{
	if (s == NULL || !jw_utf8(s, strlen(s)))
		return;
	jw_kstring(w, key, s);
}

static void
item_settings_write(struct jw *w, const struct match_options *o)
{
	int k;

	if (!o->on) {
		jw_bool(w, false);
		return;
	}
	jw_object(w);
	jw_kint(w, "chance", o->chance);
	jw_key(w, "weights");
	jw_array(w);
	for (k = 0; k < AB_ITEM_KINDS; k++)
		jw_int(w, o->shares[k]);
	jw_array_end(w);
	jw_object_end(w);
}

static void
time_left_and_end_write(struct jw *w, const struct match_rules_record *r, bool playing,
    int64_t now_ms)
{
	jw_key(w, "deadline_in_ms");
	if (playing)
		jw_int(w, r->deadline_at > now_ms ? r->deadline_at - now_ms : 0);
	else
		jw_null(w);
	if (r->end_reason != NULL && r->end_reason[0])
		string_field(w, "end", r->end_reason);
	else
		jw_knull(w, "end");
}

/* The record's state and totals, when it has begun. */
static const struct ab_match *
record_match(const struct match_rules_record *r, struct ab_totals *t)
{
	if (r->state == NULL || r->totals == NULL || !ab_totals_decode(t, r->totals, AB_TOTALS_SIZE))
		return NULL;
	return r->state;
}

void
ab_view_write(struct jw *w, const struct match_rules_record *r, int viewer, int64_t now_ms)
{
	bool playing = strcmp(r->status, "playing") == 0, over = strcmp(r->status, "finished") == 0;
	struct ab_totals t;
	const struct ab_match *m = record_match(r, &t);
	enum ab_match_end end = m != NULL ? ab_match_end_of(m, (uint32_t)r->turn_cap) : AB_MATCH_NONE;
	char text[24];
	int i;

	jw_object(w);
	snprintf(text, sizeof text, "%lld", (long long)r->id);
	jw_kstring(w, "match_id", text);
	string_field(w, "rules", r->rules);
	string_field(w, "status", r->status);
	jw_kint(w, "players", r->players);
	jw_kint(w, "joined", r->joined);
	jw_kint(w, "turn_seconds", r->turn_seconds);
	jw_kint(w, "turn_cap", r->turn_cap);
	jw_kbool(w, "rated", r->rated);
	jw_key(w, "items");
	item_settings_write(w, &r->options);
	jw_kbool(w, "queue", r->queue);
	if (r->unrated_reason != NULL && r->unrated_reason[0] != '\0')
		string_field(w, "unrated_reason", r->unrated_reason);
	else
		jw_knull(w, "unrated_reason");
	jw_key(w, "seed");
	if (over)
		jw_int(w, r->seed);
	else
		jw_null(w);
	jw_kbool(w, "seed_chosen", r->seed_chosen);
	jw_kint(w, "turn", r->turn);
	jw_key(w, "deadline");
	if (playing)
		iso8601_ms_write(w, r->deadline_at);
	else
		jw_null(w);
	time_left_and_end_write(w, r, playing, now_ms);
	jw_key(w, "you");
	if (viewer >= 0)
		jw_int(w, viewer);
	else
		jw_null(w);
	jw_key(w, "seats");
	jw_array(w);
	for (i = 0; i < r->nseats && i < AB_PLAYERS_MAX; i++) {
		jw_object(w);
		if (m != NULL && i < m->nplayers)
			ab_seat_write(w, m, end, viewer, (unsigned)i, &t);
		else
			jw_kint(w, "seat", i);
		string_field(w, "account", r->seats[i].account);
		if (playing)
			jw_kbool(w, "moved", r->moved >> i & 1u);
		if (over && r->rated && r->seats[i].rating_after == r->seats[i].rating_after) {
			jw_key(w, "rating_before");
			match_real_write(w, r->seats[i].rating_before);
			jw_key(w, "rating_after");
			match_real_write(w, r->seats[i].rating_after);
		}
		jw_object_end(w);
	}
	jw_array_end(w);
	jw_key(w, "last_turn");
	if (r->last_turn != NULL && r->last_turn[0] != '\0')
		jw_raw(w, r->last_turn, strlen(r->last_turn));
	else
		jw_null(w);
	jw_key(w, "created_at");
	iso8601_ms_write(w, r->created_at);
	jw_key(w, "started_at");
	iso8601_ms_write(w, r->started_at);
	jw_key(w, "finished_at");
	iso8601_ms_write(w, r->finished_at);
	if (r->certificate != NULL)
		string_field(w, "certificate", r->certificate);
	else
		jw_knull(w, "certificate");
	jw_object_end(w);
}

void
ab_move_answer_write(struct jw *w, const struct match_rules_record *r, uint32_t turn,
    const char *move, bool resolved, int viewer, int64_t now_ms, bool full)
{
	bool playing = strcmp(r->status, "playing") == 0;
	struct ab_totals t;
	const struct ab_match *m = record_match(r, &t);
	enum ab_match_end end = m != NULL ? ab_match_end_of(m, (uint32_t)r->turn_cap) : AB_MATCH_NONE;
	char text[24];

	snprintf(text, sizeof text, "%lld", (long long)r->id);
	jw_object(w);
	jw_kstring(w, "match_id", text);
	jw_kint(w, "turn", turn);
	jw_kstring(w, "move", move);
	jw_kbool(w, "resolved", resolved);
	jw_key(w, "state");
	jw_object(w);
	string_field(w, "status", r->status);
	jw_kint(w, "turn", r->turn);
	time_left_and_end_write(w, r, playing, now_ms);
	jw_key(w, "seat");
	if (viewer >= 0 && viewer < r->nseats && m != NULL && viewer < m->nplayers) {
		jw_object(w);
		ab_seat_write(w, m, end, viewer, (unsigned)viewer, &t);
		string_field(w, "account", r->seats[viewer].account);
		if (playing)
			jw_kbool(w, "moved", r->moved >> viewer & 1u);
		jw_object_end(w);
	} else
		jw_null(w);
	jw_object_end(w);
	if (full) {
		jw_key(w, "match");
		ab_view_write(w, r, viewer, now_ms);
	}
	jw_object_end(w);
}

/* ---- the replay ---- */

static json_t *
string_or_null(const char *s)
{
	return s != NULL ? json_string_nocheck(s) : json_null();
}

json_t *
ab_final_json(const struct ab_match *m, enum ab_match_end end, const struct ab_totals *t)
{
	uint8_t places[AB_PLAYERS_MAX];
	json_t *players = json_array();
	unsigned i;

	ab_match_places(m, end, places);
	for (i = 0; i < m->nplayers; i++) {
		const struct ab_player *p = &m->players[i];

		json_array_append_new(players, json_pack("{s:o, s:o, s:I, s:I, s:I, s:I}",
		    "place", places[i] != 0 ? json_integer(places[i]) : json_null(),
		    "end_reason", string_or_null(p->end != AB_END_NONE ? ab_end_name(p->end) : NULL),
		    "score", (json_int_t)p->score, "lines", (json_int_t)p->lines,
		    "lines_sent", (json_int_t)t->sent[i], "lines_received", (json_int_t)t->received[i]));
	}
	return json_pack("{s:I, s:o, s:o}", "turns", (json_int_t)m->turn,
	    "end", string_or_null(ab_match_end_name(end)), "players", players);
}

json_t *
ab_replay_json(const struct match_rules_record *r, json_t *turns)
{
	struct ab_totals t;
	const struct ab_match *m = record_match(r, &t);
	json_t *replay, *final, *weights;
	unsigned k;

	if (m == NULL || turns == NULL) {
		json_decref(turns);
		return NULL;
	}
	final = ab_final_json(m, ab_match_end_of(m, (uint32_t)r->turn_cap), &t);
	replay = final == NULL ? NULL : json_pack("{s:i, s:s, s:I, s:i, s:I, s:o, s:o}", "schema",
	    MATCH_REPLAY_SCHEMA, "rules", AB_RULES, "seed", (json_int_t)r->seed, "players",
	    (int)m->nplayers, "turn_cap", (json_int_t)r->turn_cap, "turns", turns, "final", final);
	if (replay == NULL)
		return NULL;
	if (m->item_chance > 0) {
		weights = json_array();
		for (k = 0; k < AB_ITEM_KINDS; k++)
			json_array_append_new(weights, json_integer(m->item_weights[k]));
		if (json_object_set_new(replay, "items", json_pack("{s:i, s:o}", "chance",
		    (int)m->item_chance, "weights", weights)) != 0) {
			json_decref(replay);
			return NULL;
		}
	}
	return replay;
}

char *
ab_certificate(const struct keyring *kr, const struct match_rules_record *r, json_t *turns,
    int64_t now)
{
	struct ab_totals t;
	const struct ab_match *m = record_match(r, &t);
	uint8_t places[AB_PLAYERS_MAX];
	char hash[CERTIFICATE_HASH_TEXT], id[24], *cert = NULL;
	json_t *replay = ab_replay_json(r, turns), *claims = NULL;
	json_t *names = json_array(), *pl = json_array(), *scores = json_array();
	enum ab_match_end end;
	int i;

	if (replay == NULL || m == NULL || certificate_json_hash(replay, hash) != 0)
		goto done;
	end = ab_match_end_of(m, (uint32_t)r->turn_cap);
	ab_match_places(m, end, places);
	for (i = 0; i < m->nplayers; i++) {
		json_array_append_new(names, json_string(i < r->nseats && r->seats[i].account ?
		    r->seats[i].account : ""));
		json_array_append_new(pl, json_integer(places[i]));
		json_array_append_new(scores, json_integer((json_int_t)m->players[i].score));
	}
	snprintf(id, sizeof id, "%lld", (long long)r->id);
	claims = json_pack("{s:s, s:s, s:I, s:O, s:O, s:O, s:I, s:s, s:b, s:s}", "match", id,
	    "rules", r->rules, "seed", (json_int_t)r->seed, "players", names, "places", pl,
	    "scores", scores, "turns", (json_int_t)m->turn, "end", ab_match_end_name(end),
	    "rated", r->rated, "replay", hash);
	if (claims != NULL)
		cert = certificate_sign(kr, claims, now);
done:
	json_decref(names);
	json_decref(pl);
	json_decref(scores);
	json_decref(claims);
	json_decref(replay);
	return cert;
}

/* ---- verification and the walk ---- */

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

static bool
integer_in(const json_t *v, json_int_t lo, json_int_t hi, json_int_t *out)
{
	if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
		return false;
	*out = json_integer_value(v);
	return true;
}

bool
ab_walk_start(void *walk, uint64_t seed, unsigned nplayers, const struct match_options *o)
{
	struct ab_walk *w = walk;

	memset(&w->totals, 0, sizeof w->totals);
	memset(&w->ev, 0, sizeof w->ev);
	memset(w->mv, 0, sizeof w->mv);
	return ab_init(&w->m, seed, nplayers, AB_CLOCK_TURNS, o != NULL && o->on ? o->chance : 0,
	    o != NULL && o->on ? o->shares : NULL);
}

int
ab_walk_turn(void *walk, const json_t *entry, struct match_replay_check *out)
{
	struct ab_walk *w = walk;
	struct ab_move mv[AB_PLAYERS_MAX];
	char reason[ENGINE_REASON_MAX];
	size_t t = (size_t)w->m.turn + 1;
	unsigned i, bad = 0;

	if (w->m.over)
		return fail(out, t, "turn %zu comes after the end of the match (turn %u)", t, w->m.turn);
	if (!json_is_array(entry) || json_array_size(entry) != w->m.nplayers)
		return fail(out, t, "turn %zu must list %u moves, one a player", t, w->m.nplayers);
	memset(mv, 0, sizeof mv);
	for (i = 0; i < w->m.nplayers; i++) {
		const json_t *v = json_array_get(entry, i);
		const char *text = json_string_value(v);

		if (!w->m.players[i].alive) {
			if (!json_is_null(v))
				return fail(out, t, "turn %zu: player %u is out of the match: its move must be null",
				    t, i);
			mv[i].kind = AB_MOVE_NONE;
			continue;
		}
		if (text == NULL)
			return fail(out, t, "turn %zu: player %u is playing: its move must be a string", t, i);
		if (strcmp(text, "missed") == 0) {
			mv[i].kind = AB_MOVE_MISSED;
			continue;
		}
		if (ab_move_parse(text, json_string_length(v), &mv[i], reason, sizeof reason) !=
		    AB_PARSE_OK)
			return fail(out, t, "turn %zu: player %u's move is not a move: %s", t, i, reason);
	}
	if (ab_resolve(&w->m, mv, &w->ev, &bad, reason, sizeof reason) != AB_OK)
		return fail(out, t, "turn %zu: player %u's move is refused: %s", t, bad, reason);
	memcpy(w->mv, mv, sizeof w->mv);
	ab_totals_add(&w->totals, &w->ev);
	return 0;
}

bool
ab_walk_write(struct jw *w, const void *walk, uint32_t turn_cap, const char *const *names,
    const json_t *moves)
{
	const struct ab_walk *k = walk;
	enum ab_match_end end = ab_match_end_of(&k->m, turn_cap);
	const json_t *mv;
	size_t j;
	unsigned i;

	jw_object(w);
	jw_kint(w, "turn", k->m.turn);
	jw_key(w, "moves");
	if (json_is_array(moves)) {
		/* Each `use T; ` dropped, as versus's turns page does: the hits
		 * say who was hit by what, nobody who used it. */
		jw_array(w);
		json_array_foreach(moves, j, mv) {
			const char *s = json_string_value(mv);
			const char *rest = s != NULL && strncmp(s, "use ", 4) == 0 ? strstr(s, "; ") : NULL;

			if (rest != NULL)
				jw_string(w, rest + 2);
			else
				jw_json(w, mv);
		}
		jw_array_end(w);
	} else
		jw_null(w);
	jw_key(w, "view");
	jw_object(w);
	jw_kstring(w, "status", end != AB_MATCH_NONE ? "finished" : "playing");
	jw_kint(w, "turn", k->m.turn);
	jw_key(w, "end");
	string_or_null_write(w, ab_match_end_name(end));
	jw_key(w, "seats");
	jw_array(w);
	for (i = 0; i < k->m.nplayers; i++) {
		jw_object(w);
		ab_seat_write(w, &k->m, end, -1, i, &k->totals);
		jw_kstring(w, "account", names[i] != NULL ? names[i] : "");
		jw_object_end(w);
	}
	jw_array_end(w);
	jw_key(w, "last_turn");
	if (k->m.turn > 0)
		ab_events_write(w, &k->ev, k->m.item_chance > 0);
	else
		jw_null(w);
	jw_object_end(w);
	jw_object_end(w);
	return !w->failed;
}

static bool
exact_keys(const json_t *o, const char *const *keys, const char *optional)
{
	size_t n = 0, i;

	if (!json_is_object(o))
		return false;
	if (optional != NULL && json_object_get(o, optional) != NULL)
		n++;
	for (i = 0; keys[i] != NULL; i++, n++)
		if (json_object_get(o, keys[i]) == NULL)
			return false;
	return json_object_size(o) == n;
}

static int
compare_final(struct match_replay_check *out, const json_t *claimed)
{
	char *gs, *ws;

	if (out->final == NULL)
		return fail(out, 0, "out of memory");
	if (json_equal(out->final, claimed))
		return 0;
	gs = json_dumps(claimed, JSON_COMPACT | JSON_SORT_KEYS);
	ws = json_dumps(out->final, JSON_COMPACT | JSON_SORT_KEYS);
	fail(out, out->nturns, "final is %s but the turns give %s", gs ? gs : "?", ws ? ws : "?");
	free(gs);
	free(ws);
	return -1;
}

int
ab_replay_verify(const json_t *replay, struct match_replay_check *out)
{
	static const char *const keys[] = { "schema", "rules", "seed", "players", "turn_cap", "turns",
		"final", NULL };
	static const char *const final_keys[] = { "turns", "end", "players", NULL };
	static const char *const item_keys[] = { "chance", "weights", NULL };
	struct match_options o = { .on = false };
	const json_t *turns, *final, *items, *ws;
	const char *rules;
	json_int_t v, seed, nplayers, cap;
	struct ab_walk *w;
	size_t t, k;
	int rc = -1;

	memset(out, 0, sizeof *out);
	if (!json_is_object(replay))
		return fail(out, 0, "a replay is a JSON object");
	if (!integer_in(json_object_get(replay, "schema"), MATCH_REPLAY_SCHEMA, MATCH_REPLAY_SCHEMA,
	    &v))
		return fail(out, 0, "unknown replay schema (this server reads schema %d)",
		    MATCH_REPLAY_SCHEMA);
	rules = json_string_value(json_object_get(replay, "rules"));
	if (rules == NULL || strcmp(rules, AB_RULES) != 0)
		return fail(out, 0, "an actionblocks replay has rules \"%s\"", AB_RULES);
	if (!exact_keys(replay, keys, "items"))
		return fail(out, 0, "a match replay is an object with exactly schema, rules, seed, "
		    "players, turn_cap, turns and final, and items for a match with items");
	if ((items = json_object_get(replay, "items")) != NULL) {
		if (!exact_keys(items, item_keys, NULL) ||
		    !integer_in(json_object_get(items, "chance"), 1, 100, &v))
			return fail(out, 0, "items must hold exactly chance (1-100) and weights");
		o.on = true;
		o.chance = (uint8_t)v;
		ws = json_object_get(items, "weights");
		if (!json_is_array(ws) || json_array_size(ws) != AB_ITEM_KINDS)
			return fail(out, 0, "items.weights must list %d weights", AB_ITEM_KINDS);
		for (k = 0; k < AB_ITEM_KINDS; k++) {
			if (!integer_in(json_array_get(ws, k), 0, AB_ITEM_WEIGHT_MAX, &v))
				return fail(out, 0, "items.weights[%zu] must be an integer from 0 to %d", k,
				    AB_ITEM_WEIGHT_MAX);
			o.shares[k] = (uint8_t)v;
		}
	}
	if (!integer_in(json_object_get(replay, "seed"), 0, (json_int_t)AB_SEED_MAX, &seed))
		return fail(out, 0, "seed must be an integer from 0 to %llu",
		    (unsigned long long)AB_SEED_MAX);
	if (!integer_in(json_object_get(replay, "players"), AB_PLAYERS_MIN, AB_PLAYERS_MAX, &nplayers))
		return fail(out, 0, "players must be an integer from %d to %d", AB_PLAYERS_MIN,
		    AB_PLAYERS_MAX);
	if (!integer_in(json_object_get(replay, "turn_cap"), 1, MATCH_TURN_CAP_MAX, &cap))
		return fail(out, 0, "turn_cap must be an integer from 1 to %d", MATCH_TURN_CAP_MAX);
	turns = json_object_get(replay, "turns");
	final = json_object_get(replay, "final");
	if (!json_is_array(turns))
		return fail(out, 0, "turns must be an array");
	out->nturns = json_array_size(turns);
	if (out->nturns > (size_t)cap)
		return fail(out, 0, "%zu turns are more than the cap of %lld", out->nturns, (long long)cap);
	if (!exact_keys(final, final_keys, NULL))
		return fail(out, 0, "final must hold exactly turns, end and players");
	if ((w = malloc(sizeof *w)) == NULL)
		return fail(out, 0, "out of memory");
	if (!ab_walk_start(w, (uint64_t)seed, (unsigned)nplayers, &o)) {
		fail(out, 0, "items.weights: at least one must be above 0");
		goto done;
	}
	for (t = 1; t <= out->nturns; t++)
		if (ab_walk_turn(w, json_array_get(turns, t - 1), out) != 0)
			goto done;
	out->final = ab_final_json(&w->m, ab_match_end_of(&w->m, (uint32_t)cap), &w->totals);
	rc = compare_final(out, final);
done:
	free(w);
	return rc;
}
