/*
 * watch_json.c: the watch routes' answers (watch_json.h).
 */
#include "watch_json.h"

#include <stdlib.h>
#include <string.h>

#include "match_view.h"

json_t *
watch_games_json(void)
{
	json_t *list = json_array();
	size_t i, j;

	for (i = 0; i < GAME__COUNT; i++) {
		const struct game *g = game_table[i];
		json_t *fields = json_array();

		for (j = 0; g->board_fields != NULL && g->board_fields[j] != NULL; j++)
			json_array_append_new(fields, json_string(g->board_fields[j]));
		json_array_append_new(list, json_pack("{s:s, s:s, s:o, s:b, s:b, s:b}", "name", g->name,
		    "rules", g->rules, "boardFields", fields, "hidesFuture", g->hides_future,
		    "seedless", g->seedless, "marks", game_ext(g)->move_marks != NULL));
	}
	return json_pack("{s:o}", "games", list);
}

json_t *
watch_view_json(const struct game *g, const void *st)
{
	json_t *o = NULL;
	struct jw w;
	size_t len = 0;
	char *text;

	/* The game's part as its one writer writes it, read back: the view
	 * is a value inside the page's answers, which are trees. */
	jw_init(&w, 4096, 4u << 20);
	jw_object(&w);
	if (!g->answer_write(&w, st, NULL))
		w.failed = true;
	jw_object_end(&w);
	if ((text = jw_take(&w, &len)) != NULL)
		o = json_loadb(text, len, JSON_ALLOW_NUL, NULL);
	free(text);
	if (o == NULL)
		return NULL;
	/* The answer adds the game's fields only; the token and the agent
	 * check are the pipeline's. Never let one through. */
	json_object_del(o, "stateToken");
	json_object_del(o, "agent_check");
	return o;
}

json_t *
watch_live_json(const struct game *g, const struct watch_run *r, json_t *view)
{
	return json_pack("{s:s, s:s, s:s, s:b, s:o, s:I, s:I, s:b, s:o}", "game", g->name,
	    "runId", r->run_id, "status", r->status, "over", r->over,
	    "end_reason", r->end_reason[0] ? json_string(r->end_reason) : json_null(),
	    "score", (json_int_t)r->score, "moves", (json_int_t)r->moves,
	    "steps", !g->hides_future || r->over, "view", view);
}

json_t *
watch_step_json(const struct game *g, size_t step, const json_t *move, const void *prev,
    const void *st)
{
	json_t *v = watch_view_json(g, st), *e;

	if (v == NULL)
		return NULL;
	e = json_pack("{s:I, s:O, s:o}", "step", (json_int_t)step,
	    "move", move != NULL ? move : json_null(), "view", v);
	if (e != NULL && game_ext(g)->move_marks != NULL) {
		json_t *m = move != NULL ? game_ext(g)->move_marks(prev, st, move) : NULL;

		json_object_set_new(e, "marks", m != NULL ? m : json_null());
	}
	return e;
}

/* The page's `next`: the from of the following page, null at the end
 * (last: the newest position, as read). */
static json_t *
next_json(int64_t from, const json_t *items, int64_t last)
{
	size_t n = json_array_size(items);

	return from + (int64_t)n <= last && n > 0 ? json_integer(from + (json_int_t)n) : json_null();
}

json_t *
watch_steps_json(const struct game *g, const struct watch_run *r, int64_t from, json_t *items)
{
	return json_pack("{s:s, s:s, s:s, s:b, s:I, s:I, s:I, s:O, s:o}", "game", g->name,
	    "runId", r->run_id, "status", r->status, "over", r->over,
	    "moves", (json_int_t)r->moves, "from", (json_int_t)from,
	    "count", (json_int_t)json_array_size(items), "steps", items,
	    "next", next_json(from, items, r->moves));
}

/* The match after turn w->m.turn, as GET /api/matches/{id} showed it to a
 * spectator then: its status, turn and end, every seat (without `moved`,
 * which belongs to the turn being played, and the ratings, which come
 * with the end), the boards side by side and the turn's events. */
static json_t *
turn_view(const struct match_walk *w, uint32_t turn_cap, const char *const *names)
{
	enum match_end end = match_end_of(&w->m, turn_cap);
	struct match_record r = { .turn_cap = (int)turn_cap, .nseats = (int)w->m.nplayers, .m = &w->m,
		.totals = &w->totals };
	char text[MATCH_VIEW_TEXT_MAX];
	json_t *seats = json_array(), *s;
	size_t ntext;
	unsigned i;

	for (i = 0; i < w->m.nplayers && i < VERSUS_PLAYERS_MAX; i++)
		r.seats[i].account = names[i];
	ntext = match_view_board_text(&r, text);
	for (i = 0; seats != NULL && i < w->m.nplayers; i++) {
		if ((s = match_player_json(&w->m, end, VERSUS_NOBODY, i, &w->totals)) == NULL ||
		    json_object_set_new(s, "account", json_string(names[i])) != 0 ||
		    json_array_append_new(seats, s) != 0) {
			json_decref(seats);
			return NULL;
		}
	}
	return json_pack("{s:s, s:I, s:o, s:o, s:s%, s:o}", "status", end != MATCH_END_NONE ? "finished" :
	    "playing", "turn", (json_int_t)w->m.turn, "end", end != MATCH_END_NONE ?
	    json_string(match_end_name(end)) : json_null(), "seats", seats, "boardText", text, ntext,
	    "last_turn", w->m.turn > 0 ? match_events_json(&w->ev, w->mv) : json_null());
}

/* A turn's moves as the turns route shows them: each `use T; ` dropped, so
 * nobody learns who used an item on whom (the view's hits say who was hit
 * by what); the replay, shown once the match is over, keeps them. */
static json_t *
moves_hiding_users(const json_t *moves)
{
	json_t *a = json_array(), *m;
	size_t i;

	json_array_foreach(moves, i, m) {
		const char *s = json_string_value(m);
		const char *rest = s != NULL && strncmp(s, "use ", 4) == 0 ? strstr(s, "; ") : NULL;

		json_array_append_new(a, rest != NULL ? json_string(rest + 2) : json_incref(m));
	}
	return a;
}

json_t *
watch_turn_json(const struct match_walk *w, uint32_t turn_cap, const char *const *names,
    const json_t *moves)
{
	json_t *v = turn_view(w, turn_cap, names);

	if (v == NULL)
		return NULL;
	return json_pack("{s:I, s:o, s:o}", "turn", (json_int_t)w->m.turn,
	    "moves", json_is_array(moves) ? moves_hiding_users(moves) : json_null(), "view", v);
}

json_t *
watch_turns_json(const char *match_id, const char *status, int64_t nturns, int64_t from,
    json_t *items)
{
	return json_pack("{s:s, s:s, s:I, s:I, s:I, s:O, s:o}",
	    "match_id", match_id, "status", status, "turn", (json_int_t)nturns,
	    "from", (json_int_t)from, "count", (json_int_t)json_array_size(items),
	    "turns", items, "next", next_json(from, items, nturns));
}
