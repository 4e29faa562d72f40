/*
 * board_json.c: the answers of the run page, the leaderboard and the
 * reviews, and a replay verification's (board_json.h). A page is at most STORE_PAGE_MAX rows (the
 * daemon's bound): some hundreds of small allocations at most.
 */
#include "board_json.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "iso8601.h"
#include "replay.h"
#include "numtext.h"

static json_t *
name_or_null(const char *account)
{
	return account != NULL && account[0] ? json_string(account) : json_null();
}

static void
id_text(int64_t id, char out[GAME_ID_TEXT_MAX])
{
	numtext_i64(out, id);
}

/* The figures g shows beside the score (its board_fields). */
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

json_t *
board_run_json(const struct board_run *r, const void *state, json_t *actions)
{
	const struct game *g = r->game;
	char idtext[GAME_ID_TEXT_MAX];
	json_t *o, *final = g->final(state);

	if (final == NULL) {
		json_decref(actions);
		return NULL;
	}
	id_text(r->id, idtext);
	o = json_pack("{s:s, s:s, s:o, s:s, s:b, s:o, s:I}", "game", g->name, "runId", idtext,
	    "account", name_or_null(r->account), "status", r->status, "over", r->over,
	    "end_reason", r->end_reason[0] ? json_string(r->end_reason) : json_null(),
	    "score", (json_int_t)r->score);
	if (o == NULL) {
		json_decref(final);
		json_decref(actions);
		return NULL;
	}
	set_figures(o, g, &r->figures);
	json_object_set_new(o, "moves", json_integer(r->moves));
	json_object_set_new(o, "seedChosenByClient", json_boolean(r->seed_chosen));
	json_object_set_new(o, "createdAt", iso8601_ms_json(r->created_at));
	json_object_set_new(o, "endedAt", iso8601_ms_json(r->ended_at));
	json_object_set_new(o, "finishedAt", iso8601_ms_json(r->finished_at));
	json_object_set_new(o, "review", r->review ? json_pack("{s:i, s:s, s:o}", "rating",
	    r->rating, "text", r->review, "createdAt", iso8601_ms_json(r->reviewed_at)) : json_null());
	json_object_set_new(o, "certificate", r->certificate ? json_string(r->certificate) :
	    json_null());
	if (r->withheld) {
		json_decref(final);
		json_decref(actions);
		json_object_set_new(o, "replay", json_null());
		json_object_set_new(o, "withheld",
		    json_string("a playing run's seed and moves would reveal its future pieces: "
		    "they are shown once it is over"));
	} else
		json_object_set_new(o, "replay", replay_new(g, r->seed, actions, final,
		    game_ext(g)->replay_options ? game_ext(g)->replay_options(state) : NULL));
	return o;
}

json_t *
board_leaderboard_json(const struct game *g, bool by_seed, int64_t seed,
    const struct board_entry *entries, int n, int64_t rank0, bool full)
{
	json_t *list = json_array(), *o;
	int i;

	for (i = 0; i < n; i++) {
		const struct board_entry *e = &entries[i];
		char id[GAME_ID_TEXT_MAX];
		json_t *x;

		id_text(e->id, id);
		x = json_pack("{s:I, s:s, s:o, s:I}", "rank", (json_int_t)(rank0 + i + 1), "runId", id,
		    "account", name_or_null(e->account), "score", (json_int_t)e->score);
		if (x == NULL)
			continue;
		set_figures(x, g, &e->figures);
		json_object_set_new(x, "seed", json_integer(e->seed));
		json_object_set_new(x, "endedAt", iso8601_ms_json(e->ended_at));
		json_array_append_new(list, x);
	}
	o = json_pack("{s:s, s:o, s:o}", "game", g->name,
	    "seed", by_seed ? json_integer(seed) : json_null(), "entries", list);
	if (o == NULL)
		return NULL;
	if (full && n > 0) {
		char next[128];
		const struct board_entry *e = &entries[n - 1];

		snprintf(next, sizeof next, "%" PRId64 ".%" PRId64 ".%" PRId64 ".%" PRId64 ".%" PRId64,
		    e->keys[0], e->keys[1], e->keys[2], e->id, rank0 + n);
		json_object_set_new(o, "next", json_string(next));
	} else
		json_object_set_new(o, "next", json_null());
	return o;
}

json_t *
board_reviews_json(const struct game *g, int64_t count, int64_t total,
    const struct board_review *reviews, int n, bool full)
{
	json_t *list = json_array(), *o;
	int i;

	for (i = 0; i < n; i++) {
		char id[GAME_ID_TEXT_MAX];

		id_text(reviews[i].run_id, id);
		json_array_append_new(list, json_pack("{s:s, s:o, s:i, s:s, s:o}", "runId", id,
		    "account", name_or_null(reviews[i].account), "rating", reviews[i].rating,
		    "text", reviews[i].text, "createdAt", iso8601_ms_json(reviews[i].created_at)));
	}
	o = json_pack("{s:s, s:I, s:o, s:o}", "game", g->name, "count", (json_int_t)count,
	    "averageRating", count ? json_real((double)total / (double)count) : json_null(),
	    "reviews", list);
	if (o == NULL)
		return NULL;
	if (full && n > 0) {
		char next[32];

		snprintf(next, sizeof next, "%" PRId64, reviews[n - 1].id);
		json_object_set_new(o, "next", json_string(next));
	} else
		json_object_set_new(o, "next", json_null());
	return o;
}

json_t *
board_verified_json(const struct game *g, const struct replay_check *chk, const char *hash,
    json_t *claims)
{
	json_t *o = json_pack("{s:b, s:s, s:I, s:O, s:s}", "valid", 1, "game", g->name,
	    "actions", (json_int_t)chk->nactions, "final", chk->final, "replayHash", hash);

	if (o != NULL && claims != NULL)
		json_object_set_new(o, "certificate", json_pack("{s:b, s:O}", "valid", 1, "claims",
		    claims));
	return o;
}

json_t *
board_verify_refusal_json(size_t step, const char *reason, json_t *final)
{
	json_t *o = json_pack("{s:I, s:s}", "step", (json_int_t)step, "reason", reason);

	if (o != NULL && final != NULL)
		json_object_set(o, "simulatedFinal", final);
	return o;
}
