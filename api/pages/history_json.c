/*
 * history_json.c: the answers of the open matches, an account's page and
 * its runs and matches (history_json.h), each written in one pass instead
 * of a tree of some thousands of values for a full page.
 */
#include "history_json.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "match.h"
#include "iso8601.h"
#include "page_text.h"

/* v, or null for NAN (no rating yet). */
static void
real_or_null(struct jw *w, double v)
{
	if (isnan(v))
		jw_null(w);
	else
		page_text_real(w, v);
}

/* Closes a page's list and the page, whose `next` is the cursor "at.id" of
 * its last row when full (null otherwise), and hands back its text. */
static char *
page_close(struct jw *w, bool full, int n, int64_t at, int64_t id, size_t *len)
{
	char next[48];

	jw_array_end(w);
	jw_key(w, "next");
	if (!full || n <= 0)
		jw_null(w);
	else {
		snprintf(next, sizeof next, "%" PRId64 ".%" PRId64, at, id);
		jw_string(w, next);
	}
	jw_object_end(w);
	return page_text_take(w, len);
}

static void
match_text(struct jw *w, const struct history_match *m, bool mine)
{
	int i;

	jw_object(w);
	jw_key(w, "match_id");
	page_text_id(w, m->id);
	jw_kstring(w, "status", m->status);
	jw_kint(w, "players", m->players);
	jw_kint(w, "joined", m->joined);
	jw_key(w, "seats");
	jw_array(w);
	for (i = 0; i < m->nseats && i < HISTORY_SEATS; i++)
		jw_string(w, m->names[i]);
	jw_array_end(w);
	jw_kint(w, "turn", m->turn);
	jw_kint(w, "turn_seconds", m->turn_seconds);
	jw_kint(w, "turn_cap", m->turn_cap);
	jw_kbool(w, "rated", m->rated);
	jw_key(w, "end");
	page_text_string_or_null(w, m->end_reason);
	jw_key(w, "created_at");
	iso8601_ms_write(w, m->created_at);
	jw_key(w, "started_at");
	iso8601_ms_write(w, m->started_at);
	jw_key(w, "finished_at");
	iso8601_ms_write(w, m->finished_at);
	/* The item setting is the versus layer's form (match.h), the one its
	 * views and replays carry, written by its one writer. */
	jw_key(w, "items");
	match_item_settings_write(w, m->items, m->item_chance, m->item_weights);
	jw_kbool(w, "queue", m->queue);
	if (mine) {
		jw_kint(w, "seat", m->seat);
		jw_kint_if(w, "place", m->place > 0, m->place);
		jw_kint_if(w, "score", m->score >= 0, m->score);
		jw_key(w, "rating_before");
		real_or_null(w, m->rating_before);
		jw_key(w, "rating_after");
		real_or_null(w, m->rating_after);
	}
	jw_object_end(w);
}

/* A page of matches under one leading member (key: value): an account's
 * own, with its seat and result (mine), or the open ones of a status. */
static char *
matches_page_text(const char *key, const char *value, const struct history_match *m, int n,
    bool mine, bool full, size_t *len)
{
	struct jw w;
	int i;

	page_text_start(&w);
	jw_object(&w);
	jw_kstring(&w, key, value);
	jw_key(&w, "matches");
	jw_array(&w);
	for (i = 0; i < n; i++)
		match_text(&w, &m[i], mine);
	return page_close(&w, full, n, n > 0 ? m[n - 1].created_at : 0, n > 0 ? m[n - 1].id : 0, len);
}

char *
history_open_matches_text(const char *status, const struct history_match *m, int n, bool full,
    size_t *len)
{
	return matches_page_text("status", status, m, n, false, full, len);
}

char *
history_account_text(const char *name, int64_t created_at, const struct history_game *games,
    int ngames, const struct history_rating *rating, size_t *len)
{
	struct jw w;
	int i, j;

	page_text_start(&w);
	jw_object(&w);
	jw_kstring(&w, "name", name);
	jw_key(&w, "createdAt");
	iso8601_ms_write(&w, created_at);
	jw_key(&w, "games");
	jw_array(&w);
	for (i = 0; i < ngames; i++) {
		const struct history_game *hg = &games[i];

		jw_object(&w);
		jw_kstring(&w, "game", hg->game->name);
		jw_kint(&w, "runs", hg->runs);
		jw_key(&w, "bestPerSeed");
		jw_array(&w);
		for (j = 0; j < hg->nbest; j++) {
			const struct history_best *b = &hg->best[j];

			jw_object(&w);
			jw_kint(&w, "seed", b->seed);
			jw_key(&w, "runId");
			page_text_id(&w, b->id);
			jw_kint(&w, "score", b->score);
			jw_key(&w, "endedAt");
			iso8601_ms_write(&w, b->ended_at);
			jw_kint(&w, "runs", b->runs);
			page_text_figures(&w, hg->game, &b->figures);
			jw_object_end(&w);
		}
		jw_array_end(&w);
		jw_kbool(&w, "moreSeeds", hg->more_seeds);
		jw_object_end(&w);
	}
	jw_array_end(&w);
	jw_key(&w, "rating");
	if (rating->found) {
		jw_object(&w);
		jw_key(&w, "rating");
		page_text_real(&w, rating->rating);
		jw_key(&w, "rd");
		page_text_real(&w, rating->rd);
		jw_kint(&w, "matches", rating->matches);
		jw_object_end(&w);
	} else
		jw_null(&w);
	jw_object_end(&w);
	return page_text_take(&w, len);
}

char *
history_runs_text(const char *name, const struct game *g, const struct history_run *runs, int n,
    bool full, size_t *len)
{
	struct jw w;
	int i;

	page_text_start(&w);
	jw_object(&w);
	jw_kstring(&w, "account", name);
	jw_kstring(&w, "game", g->name);
	jw_key(&w, "runs");
	jw_array(&w);
	for (i = 0; i < n; i++) {
		const struct history_run *r = &runs[i];

		jw_object(&w);
		jw_key(&w, "runId");
		page_text_id(&w, r->id);
		/* null for a playing run of a game whose seed tells its future */
		jw_kint_if(&w, "seed", !g->hides_future || r->over, r->seed);
		jw_kbool(&w, "seedChosenByClient", r->seed_chosen);
		jw_kstring(&w, "status", r->status);
		jw_kbool(&w, "over", r->over);
		jw_key(&w, "endReason");
		page_text_string_or_null(&w, r->end_reason);
		jw_kint(&w, "score", r->score);
		jw_kint(&w, "moves", r->moves);
		jw_key(&w, "createdAt");
		iso8601_ms_write(&w, r->created_at);
		jw_key(&w, "endedAt");
		iso8601_ms_write(&w, r->ended_at);
		page_text_figures(&w, g, &r->figures);
		jw_object_end(&w);
	}
	return page_close(&w, full, n, n > 0 ? runs[n - 1].created_at : 0, n > 0 ? runs[n - 1].id : 0, len);
}

char *
history_matches_text(const char *name, const struct history_match *m, int n, bool full,
    size_t *len)
{
	return matches_page_text("account", name, m, n, true, full, len);
}
