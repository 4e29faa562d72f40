/*
 * watch_json.c: the watch routes' answers (watch_json.h). A page of steps
 * is up to STEPS_MAX views of the game, each of which was a tree of its
 * own; written, a page costs its text and no allocation per value.
 */
#include "watch_json.h"

#include <stdlib.h>
#include <string.h>

#include "page_text.h"

char *
watch_games_text(size_t *len)
{
	struct jw w;
	size_t i, j;

	page_text_start(&w);
	jw_object(&w);
	jw_key(&w, "games");
	jw_array(&w);
	for (i = 0; i < GAME__COUNT; i++) {
		const struct game *g = game_table[i];

		jw_object(&w);
		jw_kstring(&w, "name", g->name);
		jw_kstring(&w, "rules", g->rules);
		jw_key(&w, "boardFields");
		jw_array(&w);
		for (j = 0; g->board_fields != NULL && g->board_fields[j] != NULL; j++)
			jw_string(&w, g->board_fields[j]);
		jw_array_end(&w);
		jw_kbool(&w, "hidesFuture", g->hides_future);
		jw_kbool(&w, "seedless", g->seedless);
		jw_kbool(&w, "marks", game_ext(g)->move_marks != NULL);
		jw_object_end(&w);
	}
	jw_array_end(&w);
	jw_object_end(&w);
	return page_text_take(&w, len);
}

/* The game's answer for st as its player sees it: the game's part alone,
 * without the token or the agent check, which are the pipeline's. */
static bool
view_write(struct jw *w, const struct game *g, const void *st)
{
	bool ok;

	/* The game's writer writes its fields after the pipeline's (game.h);
	 * here there are none before them, and the token and the agent check,
	 * which are the pipeline's, are not the game's to write. */
	jw_object(w);
	ok = g->answer_write(w, st, NULL);
	jw_object_end(w);
	return ok && !w->failed;
}

/* A run's view and its steps open alike: the writer started, then the
 * game, the run and how it stands. */
static void
run_head(struct jw *w, const struct game *g, const struct watch_run *r)
{
	page_text_start(w);
	jw_object(w);
	jw_kstring(w, "game", g->name);
	jw_kstring(w, "runId", r->run_id);
	jw_kstring(w, "status", r->status);
	jw_kbool(w, "over", r->over);
}

char *
watch_live_text(const struct game *g, const struct watch_run *r, const void *st, size_t *len)
{
	struct jw w;

	run_head(&w, g, r);
	jw_key(&w, "end_reason");
	page_text_string_or_null(&w, r->end_reason);
	jw_kint(&w, "score", r->score);
	jw_kint(&w, "moves", r->moves);
	jw_kbool(&w, "steps", !g->hides_future || r->over);
	jw_key(&w, "view");
	if (!view_write(&w, g, st)) {
		jw_cleanup(&w);
		return NULL;
	}
	jw_object_end(&w);
	return page_text_take(&w, len);
}

bool
watch_step_write(struct jw *w, const struct game *g, size_t step, const json_t *move,
    const void *prev, const void *st)
{
	jw_object(w);
	jw_kint(w, "step", (int64_t)step);
	jw_key(w, "move");
	if (move != NULL)
		jw_json(w, move);
	else
		jw_null(w);
	jw_key(w, "view");
	if (!view_write(w, g, st))
		return false;
	if (game_ext(g)->move_marks != NULL) {
		json_t *m = move != NULL ? game_ext(g)->move_marks(prev, st, move) : NULL;

		jw_key(w, "marks");
		if (m != NULL)
			jw_json(w, m);
		else
			jw_null(w);
		json_decref(m);
	}
	jw_object_end(w);
	return !w->failed;
}

/* The page's `next`: the from of the following page, null at the end
 * (last: the newest position, as read). */
static void
next_text(struct jw *w, int64_t from, int64_t count, int64_t last)
{
	jw_kint_if(w, "next", from + count <= last && count > 0, from + count);
}

char *
watch_steps_text(const struct game *g, const struct watch_run *r, int64_t from,
    const char *items, size_t nitems, int64_t count, size_t *len)
{
	struct jw w;

	run_head(&w, g, r);
	jw_kint(&w, "moves", r->moves);
	jw_kint(&w, "from", from);
	jw_kint(&w, "count", count);
	jw_key(&w, "steps");
	jw_raw(&w, items, nitems);
	next_text(&w, from, count, r->moves);
	jw_object_end(&w);
	return page_text_take(&w, len);
}

char *
watch_turns_text(const char *match_id, const char *status, int64_t nturns, int64_t from,
    const char *items, size_t nitems, int64_t count, size_t *len)
{
	struct jw w;

	page_text_start(&w);
	jw_object(&w);
	jw_kstring(&w, "match_id", match_id);
	jw_kstring(&w, "status", status);
	jw_kint(&w, "turn", nturns);
	jw_kint(&w, "from", from);
	jw_kint(&w, "count", count);
	jw_key(&w, "turns");
	jw_raw(&w, items, nitems);
	next_text(&w, from, count, nturns);
	jw_object_end(&w);
	return page_text_take(&w, len);
}
