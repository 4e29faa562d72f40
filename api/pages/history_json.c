/*
 * history_json.c: the answers of the open matches, an account's page and
 * its runs and matches (history_json.h). A list is at most one page of the
 * daemon's (STORE_PAGE_MAX rows): some thousands of small allocations.
 */
#include "history_json.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "iso8601.h"
#include "match.h"

static json_t *
id_json(int64_t id)
{
	return json_sprintf("%" PRId64, id);
}

static json_t *
text_or_null(const char *s)
{
	return s != NULL && s[0] ? json_string(s) : json_null();
}

static json_t *
real_or_null(double v)
{
	return isnan(v) ? json_null() : json_real(v);
}

/* The figures g shows beside the score, as board_json.c sets them. */
static void
set_figures(json_t *o, const struct game *g, const struct board_figures *f)
{
	size_t i;

	for (i = 0; g->board_fields != NULL && g->board_fields[i] != NULL; i++) {
		const char *name = g->board_fields[i];
		int64_t v = strcmp(name, "lines") == 0 ? f->lines : strcmp(name, "pieces") == 0 ?
		    f->pieces : strcmp(name, "rung") == 0 ? f->rung : f->lives;

		json_object_set_new(o, name, v < 0 ? json_null() : json_integer(v));
	}
}

static json_t *
next_json(bool full, int n, int64_t at, int64_t id)
{
	return full && n > 0 ? json_sprintf("%" PRId64 ".%" PRId64, at, id) : json_null();
}

static json_t *
match_json(const struct history_match *m, bool mine)
{
	json_t *names = json_array(), *o;
	int i;

	for (i = 0; i < m->nseats && i < HISTORY_SEATS; i++)
		json_array_append_new(names, json_string(m->names[i]));
	o = json_pack("{s:o, s:s, s:i, s:i, s:o, s:I, s:i, s:i, s:b, s:o, s:o, s:o, s:o}",
	    "match_id", id_json(m->id), "status", m->status, "players", m->players,
	    "joined", m->joined, "seats", names, "turn", (json_int_t)m->turn,
	    "turn_seconds", m->turn_seconds, "turn_cap", m->turn_cap, "rated", m->rated,
	    "end", text_or_null(m->end_reason), "created_at", iso8601_ms_json(m->created_at),
	    "started_at", iso8601_ms_json(m->started_at),
	    "finished_at", iso8601_ms_json(m->finished_at));
	if (o != NULL) {
		json_object_set_new(o, "items", match_item_settings_json(m->items, m->item_chance,
		    m->item_weights));
		json_object_set_new(o, "queue", json_boolean(m->queue));
	}
	if (o != NULL && mine) {
		json_object_set_new(o, "seat", json_integer(m->seat));
		json_object_set_new(o, "place", m->place > 0 ? json_integer(m->place) : json_null());
		json_object_set_new(o, "score", m->score >= 0 ? json_integer(m->score) : json_null());
		json_object_set_new(o, "rating_before", real_or_null(m->rating_before));
		json_object_set_new(o, "rating_after", real_or_null(m->rating_after));
	}
	return o;
}

json_t *
history_open_matches_json(const char *status, const struct history_match *m, int n, bool full)
{
	json_t *list = json_array();
	int i;

	for (i = 0; i < n; i++)
		json_array_append_new(list, match_json(&m[i], false));
	return json_pack("{s:s, s:o, s:o}", "status", status, "matches", list,
	    "next", n > 0 ? next_json(full, n, m[n - 1].created_at, m[n - 1].id) : json_null());
}

json_t *
history_account_json(const char *name, int64_t created_at, const struct history_game *games,
    int ngames, const struct history_rating *rating)
{
	json_t *list = json_array();
	int i, j;

	for (i = 0; i < ngames; i++) {
		const struct history_game *hg = &games[i];
		json_t *best = json_array();

		for (j = 0; j < hg->nbest; j++) {
			const struct history_best *b = &hg->best[j];
			json_t *x = json_pack("{s:I, s:o, s:I, s:o, s:I}", "seed", (json_int_t)b->seed,
			    "runId", id_json(b->id), "score", (json_int_t)b->score,
			    "endedAt", iso8601_ms_json(b->ended_at), "runs", (json_int_t)b->runs);

			if (x != NULL)
				set_figures(x, hg->game, &b->figures);
			json_array_append_new(best, x);
		}
		json_array_append_new(list, json_pack("{s:s, s:I, s:o, s:b}", "game", hg->game->name,
		    "runs", (json_int_t)hg->runs, "bestPerSeed", best, "moreSeeds", hg->more_seeds));
	}
	return json_pack("{s:s, s:o, s:o, s:o}", "name", name, "createdAt", iso8601_ms_json(created_at),
	    "games", list, "rating", rating->found ? json_pack("{s:f, s:f, s:I}", "rating", rating->rating,
	    "rd", rating->rd, "matches", (json_int_t)rating->matches) : json_null());
}

json_t *
history_runs_json(const char *name, const struct game *g, const struct history_run *runs, int n,
    bool full)
{
	json_t *list = json_array();
	int i;

	for (i = 0; i < n; i++) {
		const struct history_run *r = &runs[i];
		bool withheld = g->hides_future && !r->over;
		json_t *x = json_pack("{s:o, s:o, s:b, s:s, s:b, s:o, s:I, s:I, s:o, s:o}",
		    "runId", id_json(r->id), "seed", withheld ? json_null() : json_integer(r->seed),
		    "seedChosenByClient", r->seed_chosen, "status", r->status, "over", r->over,
		    "endReason", text_or_null(r->end_reason), "score", (json_int_t)r->score,
		    "moves", (json_int_t)r->moves, "createdAt", iso8601_ms_json(r->created_at),
		    "endedAt", iso8601_ms_json(r->ended_at));

		if (x != NULL)
			set_figures(x, g, &r->figures);
		json_array_append_new(list, x);
	}
	return json_pack("{s:s, s:s, s:o, s:o}", "account", name, "game", g->name, "runs", list,
	    "next", n > 0 ? next_json(full, n, runs[n - 1].created_at, runs[n - 1].id) : json_null());
}

json_t *
history_matches_json(const char *name, const struct history_match *m, int n, bool full)
{
	json_t *list = json_array();
	int i;

	for (i = 0; i < n; i++)
		json_array_append_new(list, match_json(&m[i], true));
	return json_pack("{s:s, s:o, s:o}", "account", name, "matches", list,
	    "next", n > 0 ? next_json(full, n, m[n - 1].created_at, m[n - 1].id) : json_null());
}
