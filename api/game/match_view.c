/*
 * match_view.c: a match as the answers show it, for every ruleset
 * (match.h): the view and its event for the streams, the mover's state
 * and the move's answer, and the turns page's entries, each around the
 * ruleset's seat_write, its boardText when it has one, and its events.
 *
 * Every match answer carries a view, and the event streams send one after
 * each resolved turn: written straight into the answer's buffer (jw.h),
 * the last turn's events copied as the text the row keeps. Pure CPU:
 * nothing here reads a clock or a store. Why in api/game/: match.c's
 * header.
 */
#include "match.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iso8601.h"
#include "jw.h"

/* What the answers read off a record once its match has begun (st NULL
 * before, or when the totals do not read): its state, standing, end,
 * places and totals. */
struct seen {
	const void           *st;
	struct match_standing s;
	enum match_end        end;
	uint8_t               places[MATCH_PLAYERS_MAX];
	struct match_totals   t;
};

static void
seen_of(const struct match_rules *mr, const void *st, uint32_t turn_cap, struct seen *v)
{
	v->st = st;
	mr->standing(st, &v->s);
	v->end = match_end_of(&v->s, turn_cap);
	match_places(&v->s, v->end, v->places);
}

static void
record_seen(const struct match_rules *mr, const struct match_rules_record *r, struct seen *v)
{
	v->st = NULL;
	v->end = MATCH_END_NONE;
	if (r->state != NULL && r->totals != NULL &&
	    match_totals_decode(&v->t, r->totals, MATCH_TOTALS_SIZE))
		seen_of(mr, r->state, (uint32_t)r->turn_cap, v);
}

/* A key and its string, left out when s is not UTF-8 (as the answers
 * have always left out a field jansson would not take). */
static void
string_field(struct jw *w, const char *key, const char *s)
{
	if (s == NULL || !jw_utf8(s, strlen(s)))
		return;
	jw_kstring(w, key, s);
}

/* A string member that is null when s is empty (or NULL), left out when
 * s is not UTF-8. */
static void
string_or_null_field(struct jw *w, const char *key, const char *s)
{
	if (s != NULL && s[0] != '\0')
		string_field(w, key, s);
	else
		jw_knull(w, key);
}

/* "deadline_in_ms" (null unless playing) and "end" (null until it ends),
 * which the whole view and the mover's both carry. */
static void
time_left_and_end_write(struct jw *w, const struct match_rules_record *r, bool playing,
    int64_t now_ms)
{
	jw_key(w, "deadline_in_ms");
	if (playing)
		jw_int(w, r->deadline_at > now_ms ? r->deadline_at - now_ms : 0);
	else
		jw_null(w);
	string_or_null_field(w, "end", r->end_reason);
}

/* The view's "boardText" of a ruleset that has one: null in the lobby. */
static void
board_text_write(const struct match_rules *mr, struct jw *w, const struct seen *v,
    const char *const *names)
{
	if (mr->board_text_write == NULL)
		return;
	jw_key(w, "boardText");
	if (v->st != NULL)
		mr->board_text_write(w, v->st, v->places, names);
	else
		jw_null(w);
}

/* The members of a seat the match's state shows (its number alone in
 * the lobby). */
static void
seat_write(const struct match_rules *mr, struct jw *w, const struct seen *v, int viewer,
    unsigned seat)
{
	if (v->st != NULL && seat < v->s.nplayers)
		mr->seat_write(w, v->st, viewer, seat, v->places[seat], &v->t);
	else
		jw_kint(w, "seat", seat);
}

void
match_view_write(const struct match_rules *mr, struct jw *w, const struct match_rules_record *r,
    int viewer, int64_t now_ms)
{
	bool playing = strcmp(r->status, "playing") == 0, over = strcmp(r->status, "finished") == 0;
	const char *names[MATCH_PLAYERS_MAX] = { NULL };
	struct seen v;
	char id[24];
	int i;

	record_seen(mr, r, &v);
	jw_object(w);
	snprintf(id, sizeof id, "%lld", (long long)r->id);
	jw_kstring(w, "match_id", id);
	string_field(w, "rules", r->rules);
	if (r->ticks)
		jw_kstring(w, "clock", "ticks"); /* the turn clock's views say nothing */
	string_field(w, "status", r->status);
	jw_kint(w, "players", r->players);
	jw_kint(w, "joined", r->joined);
	jw_kint(w, "turn_seconds", r->turn_seconds);
	jw_kint(w, "turn_cap", r->turn_cap);
	jw_kbool(w, "rated", r->rated);
	jw_key(w, "items");
	match_item_settings_write(w, r->options.on, r->options.chance, r->options.shares);
	jw_kbool(w, "queue", r->queue);
	string_or_null_field(w, "unrated_reason", r->unrated_reason);
	jw_kint_if(w, "seed", over, r->seed);
	jw_kbool(w, "seed_chosen", r->seed_chosen);
	jw_kint(w, "turn", r->turn);
	iso8601_ms_member(w, "deadline", playing ? r->deadline_at : 0);
	time_left_and_end_write(w, r, playing, now_ms);
	jw_kint_if(w, "you", viewer >= 0, viewer);
	jw_key(w, "seats");
	jw_array(w);
	for (i = 0; i < r->nseats && i < MATCH_PLAYERS_MAX; i++) {
		names[i] = r->seats[i].account;
		jw_object(w);
		seat_write(mr, w, &v, viewer, (unsigned)i);
		string_field(w, "account", r->seats[i].account);
		if (playing)
			jw_kbool(w, "moved", r->moved >> i & 1u);
		if (over && r->rated && !isnan(r->seats[i].rating_after)) {
			jw_key(w, "rating_before");
			match_real_write(w, r->seats[i].rating_before);
			jw_key(w, "rating_after");
			match_real_write(w, r->seats[i].rating_after);
		}
		jw_object_end(w);
	}
	jw_array_end(w);
	board_text_write(mr, w, &v, names);
	jw_key(w, "last_turn");
	/* The row's text is the writer's own compact JSON (events_write),
	 * written as it is. */
	if (r->last_turn != NULL && r->last_turn[0] != '\0')
		jw_raw(w, r->last_turn, strlen(r->last_turn));
	else
		jw_null(w);
	iso8601_ms_member(w, "created_at", r->created_at);
	iso8601_ms_member(w, "started_at", r->started_at);
	iso8601_ms_member(w, "finished_at", r->finished_at);
	if (r->certificate != NULL)
		string_field(w, "certificate", r->certificate);
	else
		jw_knull(w, "certificate");
	jw_object_end(w);
}

/* What the mover viewer needs to play on, without the other seats:
 * {status, turn, deadline_in_ms, end, seat}. */
static void
mover_write(const struct match_rules *mr, struct jw *w, const struct match_rules_record *r,
    int viewer, int64_t now_ms)
{
	bool playing = strcmp(r->status, "playing") == 0;
	struct seen v;

	record_seen(mr, r, &v);
	jw_object(w);
	string_field(w, "status", r->status);
	jw_kint(w, "turn", r->turn);
	time_left_and_end_write(w, r, playing, now_ms);
	jw_key(w, "seat");
	if (viewer >= 0 && viewer < r->nseats && v.st != NULL && (unsigned)viewer < v.s.nplayers) {
		/* seat_write's own "seat" is the seat's: the view's seats say it
		 * once. */
		jw_object(w);
		seat_write(mr, w, &v, viewer, (unsigned)viewer);
		string_field(w, "account", r->seats[viewer].account);
		if (playing)
			jw_kbool(w, "moved", r->moved >> viewer & 1u);
		jw_object_end(w);
	} else
		jw_null(w);
	jw_object_end(w);
}

#define USE_WAITS "waits for the turn: the turn's events say it when the inventory is empty then"

void
match_move_answer_write(const struct match_rules *mr, struct jw *w,
    const struct match_rules_record *r, uint32_t turn, const void *mv, const char *move,
    bool resolved, int viewer, int64_t now_ms, bool full, bool use_empty)
{
	uint32_t use = mr->move_use != NULL && mv != NULL ? mr->move_use(mv) : 0;
	char id[24];

	snprintf(id, sizeof id, "%lld", (long long)r->id);
	jw_object(w);
	jw_kstring(w, "match_id", id);
	jw_kint(w, "turn", turn);
	jw_kstring(w, "move", move);
	jw_kbool(w, "resolved", resolved);
	jw_key(w, "state");
	mover_write(mr, w, r, viewer, now_ms);
	if (full) {
		jw_key(w, "match");
		match_view_write(mr, w, r, viewer, now_ms);
	}
	if (use != 0) {
		jw_key(w, "use");
		jw_object(w);
		jw_kint(w, "target", use);
		jw_key(w, "used");
		if (!resolved) {
			jw_null(w);
			jw_kstring(w, "reason", USE_WAITS);
		} else {
			jw_bool(w, !use_empty);
			if (use_empty)
				jw_kstring(w, "reason", "empty inventory");
		}
		jw_object_end(w);
	}
	jw_object_end(w);
}

/* ---- the parts every ruleset's seat and turn events share ---- */

const char *
match_item_name(unsigned item)
{
	static const char *const names[MATCH_OPTION_SHARES] = { "add_line", "clear_line", "nuke",
		"swap", "blind", "transform" };

	return item >= 1 && item <= MATCH_OPTION_SHARES ? names[item - 1] : NULL;
}

void
match_seat_head_write(struct jw *w, unsigned seat, bool alive, unsigned place,
    const char *end_reason)
{
	jw_kint(w, "seat", seat);
	jw_kbool(w, "alive", alive);
	jw_kint_if(w, "place", place != 0, place);
	jw_kstring_or_null(w, "end_reason", end_reason);
}

void
match_seat_counts_write(struct jw *w, const struct match_seat_counts *c,
    const struct match_totals *t, unsigned seat)
{
	jw_kint(w, "score", (int64_t)c->score);
	jw_kint(w, "lines", c->lines);
	jw_kint(w, "level", c->level);
	jw_kint(w, "combo", c->combo);
	jw_kbool(w, "back_to_back", c->back_to_back);
	jw_kint(w, "pending", c->pending);
	jw_kint(w, "missed", c->missed);
	jw_kint(w, "lines_sent", t->sent[seat]);
	jw_kint(w, "lines_received", t->received[seat]);
}

void
match_seat_items_write(struct jw *w, const uint8_t *inventory, unsigned n, uint32_t blind,
    uint32_t transform)
{
	unsigned k;

	jw_key(w, "inventory");
	jw_array(w);
	for (k = 0; k < n; k++)
		if (match_item_name(inventory[k]) != NULL) /* as json_array_append_new(NULL) */
			jw_string(w, match_item_name(inventory[k]));
	jw_array_end(w);
	jw_kint(w, "blind", blind);
	jw_kint(w, "transform", transform);
}

void
match_events_open(struct jw *w, uint32_t turn, bool over)
{
	jw_object(w);
	jw_kint(w, "turn", turn);
	jw_kbool(w, "over", over);
	jw_key(w, "players");
	jw_array(w);
}

bool
match_event_seat_open(struct jw *w, unsigned seat, const char *action, bool acted)
{
	jw_object(w);
	jw_kint(w, "seat", seat);
	jw_kstring(w, "action", action);
	if (!acted)
		jw_object_end(w);
	return acted;
}

void
match_attack_write(struct jw *w, unsigned attack, unsigned cancelled, unsigned sent,
    bool has_target, unsigned target, bool lost)
{
	jw_kint(w, "attack", attack);
	jw_kint(w, "cancelled", cancelled);
	jw_kint(w, "sent", sent);
	jw_kint_if(w, "target", has_target, target);
	jw_kbool(w, "lost", lost);
}

void
match_event_end_write(struct jw *w, bool eliminated, const char *end_reason, unsigned place)
{
	jw_kbool(w, "eliminated", eliminated);
	jw_kstring_or_null(w, "end_reason", eliminated ? end_reason : NULL);
	jw_kint_if(w, "place", place != 0, place);
}

char *
match_event_text(const struct match_rules *mr, const struct match_rules_record *r, int64_t now_ms,
    size_t *len)
{
	struct jw w;
	char *text, *event = NULL;
	size_t n = 0, cap;

	jw_init(&w, 4096, 4u << 20);
	match_view_write(mr, &w, r, -1, now_ms);
	if ((text = jw_take(&w, &n)) == NULL)
		return NULL;
	cap = n + 64;
	if ((event = malloc(cap)) != NULL)
		*len = (size_t)snprintf(event, cap, "id: %lld\nevent: match\ndata: %s\n\n",
		    (long long)r->turn, text);
	free(text);
	return event;
}

/* ---- the turns page ---- */

/* A turn's moves as the turns route shows them: each `use T; ` dropped, so
 * nobody learns who used an item on whom (the view's hits say who was hit
 * by what); the replay, shown once the match is over, keeps them. */
static void
moves_hiding_users(struct jw *w, const json_t *moves)
{
	const json_t *m;
	size_t i;

	jw_array(w);
	json_array_foreach(moves, i, m) {
		const char *s = json_string_value(m);
		const char *rest = s != NULL && strncmp(s, "use ", 4) == 0 ? strstr(s, "; ") : NULL;

		if (rest != NULL)
			jw_string(w, rest + 2);
		else
			jw_json(w, m);
	}
	jw_array_end(w);
}

/* The match after the turn walked as a spectator saw it then (the end
 * and places come with the end), the turn's events last. */
static void
turn_view(struct jw *w, const struct match_walk *k, uint32_t turn_cap, const char *const *names)
{
	const struct match_rules *mr = k->mr;
	struct seen v;
	unsigned i;

	seen_of(mr, &k->st, turn_cap, &v);
	v.t = k->totals;
	jw_object(w);
	jw_kstring(w, "status", v.end != MATCH_END_NONE ? "finished" : "playing");
	jw_kint(w, "turn", v.s.turn);
	jw_kstring_or_null(w, "end", match_end_name(v.end));
	jw_key(w, "seats");
	jw_array(w);
	for (i = 0; i < v.s.nplayers; i++) {
		jw_object(w);
		seat_write(mr, w, &v, -1, i);
		jw_kstring(w, "account", names[i] != NULL ? names[i] : "");
		jw_object_end(w);
	}
	jw_array_end(w);
	board_text_write(mr, w, &v, names);
	jw_key(w, "last_turn");
	if (v.s.turn > 0)
		mr->events_write(w, &k->st, &k->ev, &k->moves);
	else
		jw_null(w);
	jw_object_end(w);
}

bool
match_walk_write(struct jw *w, const struct match_walk *k, uint32_t turn_cap,
    const char *const *names, const json_t *moves)
{
	struct match_standing s;

	k->mr->standing(&k->st, &s);
	jw_object(w);
	jw_kint(w, "turn", s.turn);
	jw_key(w, "moves");
	if (json_is_array(moves))
		moves_hiding_users(w, moves);
	else
		jw_null(w);
	jw_key(w, "view");
	turn_view(w, k, turn_cap, names);
	jw_object_end(w);
	return !w->failed;
}
