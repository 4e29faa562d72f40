/*
 * board_json.c: the answers of the run page, the leaderboard and the
 * reviews, and a replay verification's (board_json.h), each written in
 * one pass: a leaderboard page of 20 rows was some 150 jansson values
 * allocated only to be dumped and freed.
 */
#include "board_json.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "iso8601.h"
#include "page_text.h"
#include "replay.h"

/* Told instead of a playing run's seed and moves. */
#define WITHHELD "a playing run's seed and moves would reveal its future pieces: " \
	"they are shown once it is over"

char *
board_run_text(const struct board_run *r, const void *state, json_t *actions, size_t *len)
{
	const struct game *g = r->game;
	json_t *final = g->final(state), *replay = NULL;
	struct jw w;

	if (final == NULL) {
		json_decref(actions);
		return NULL;
	}
	if (r->withheld) {
		json_decref(final);
		json_decref(actions);
	} else if ((replay = replay_new(g, r->seed, actions, final,
	    game_ext(g)->replay_options ? game_ext(g)->replay_options(state) : NULL)) == NULL)
		return NULL;
	page_text_start(&w);
	jw_object(&w);
	jw_kstring(&w, "game", g->name);
	jw_key(&w, "runId");
	page_text_id(&w, r->id);
	jw_key(&w, "account");
	page_text_string_or_null(&w, r->account);
	jw_kstring(&w, "status", r->status);
	jw_kbool(&w, "over", r->over);
	jw_key(&w, "end_reason");
	page_text_string_or_null(&w, r->end_reason);
	jw_kint(&w, "score", r->score);
	page_text_figures(&w, g, &r->figures);
	jw_kint(&w, "moves", r->moves);
	jw_kbool(&w, "seedChosenByClient", r->seed_chosen);
	jw_key(&w, "createdAt");
	iso8601_ms_write(&w, r->created_at);
	jw_key(&w, "endedAt");
	iso8601_ms_write(&w, r->ended_at);
	jw_key(&w, "finishedAt");
	iso8601_ms_write(&w, r->finished_at);
	jw_key(&w, "review");
	if (r->review != NULL) {
		jw_object(&w);
		jw_kint(&w, "rating", r->rating);
		jw_kstring(&w, "text", r->review);
		jw_key(&w, "createdAt");
		iso8601_ms_write(&w, r->reviewed_at);
		jw_object_end(&w);
	} else
		jw_null(&w);
	jw_key(&w, "certificate");
	page_text_string_or_null(&w, r->certificate);
	jw_key(&w, "replay");
	if (r->withheld) {
		jw_null(&w);
		jw_kstring(&w, "withheld", WITHHELD);
	} else
		/* The replay is a tree of the game's own (replay.h), the one a
		 * certificate hashes; its text is dumped in place. */
		jw_json(&w, replay);
	jw_object_end(&w);
	json_decref(replay);
	return page_text_take(&w, len);
}

char *
board_leaderboard_text(const struct game *g, bool by_seed, int64_t seed,
    const struct board_entry *entries, int n, int64_t rank0, bool full, size_t *len)
{
	struct jw w;
	int i;

	page_text_start(&w);
	jw_object(&w);
	jw_kstring(&w, "game", g->name);
	jw_kint_if(&w, "seed", by_seed, seed);
	jw_key(&w, "entries");
	jw_array(&w);
	for (i = 0; i < n; i++) {
		const struct board_entry *e = &entries[i];

		jw_object(&w);
		jw_kint(&w, "rank", rank0 + i + 1);
		jw_key(&w, "runId");
		page_text_id(&w, e->id);
		jw_key(&w, "account");
		page_text_string_or_null(&w, e->account);
		jw_kint(&w, "score", e->score);
		page_text_figures(&w, g, &e->figures);
		jw_kint(&w, "seed", e->seed);
		jw_key(&w, "endedAt");
		iso8601_ms_write(&w, e->ended_at);
		jw_object_end(&w);
	}
	jw_array_end(&w);
	jw_key(&w, "next");
	if (full && n > 0) {
		char next[128];
		const struct board_entry *e = &entries[n - 1];

		snprintf(next, sizeof next, "%" PRId64 ".%" PRId64 ".%" PRId64 ".%" PRId64 ".%" PRId64,
		    e->keys[0], e->keys[1], e->keys[2], e->id, rank0 + n);
		jw_string(&w, next);
	} else
		jw_null(&w);
	jw_object_end(&w);
	return page_text_take(&w, len);
}

char *
board_reviews_text(const struct game *g, int64_t count, int64_t total,
    const struct board_review *reviews, int n, bool full, size_t *len)
{
	struct jw w;
	int i;

	page_text_start(&w);
	jw_object(&w);
	jw_kstring(&w, "game", g->name);
	jw_kint(&w, "count", count);
	jw_key(&w, "averageRating");
	if (count)
		page_text_real(&w, (double)total / (double)count);
	else
		jw_null(&w);
	jw_key(&w, "reviews");
	jw_array(&w);
	for (i = 0; i < n; i++) {
		jw_object(&w);
		jw_key(&w, "runId");
		page_text_id(&w, reviews[i].run_id);
		jw_key(&w, "account");
		page_text_string_or_null(&w, reviews[i].account);
		jw_kint(&w, "rating", reviews[i].rating);
		jw_kstring(&w, "text", reviews[i].text);
		jw_key(&w, "createdAt");
		iso8601_ms_write(&w, reviews[i].created_at);
		jw_object_end(&w);
	}
	jw_array_end(&w);
	jw_key(&w, "next");
	if (full && n > 0)
		page_text_id(&w, reviews[n - 1].id);
	else
		jw_null(&w);
	jw_object_end(&w);
	return page_text_take(&w, len);
}

char *
board_verified_text(const struct game *g, const struct replay_check *chk, const char *hash,
    const json_t *claims, size_t *len)
{
	struct jw w;

	page_text_start(&w);
	jw_object(&w);
	jw_kbool(&w, "valid", true);
	jw_kstring(&w, "game", g->name);
	jw_kint(&w, "actions", (int64_t)chk->nactions);
	jw_key(&w, "final");
	jw_json(&w, chk->final);
	jw_kstring(&w, "replayHash", hash);
	if (claims != NULL) {
		jw_key(&w, "certificate");
		jw_object(&w);
		jw_kbool(&w, "valid", true);
		jw_key(&w, "claims");
		jw_json(&w, claims);
		jw_object_end(&w);
	}
	jw_object_end(&w);
	return page_text_take(&w, len);
}

json_t *
board_verify_refusal_json(size_t step, const char *reason, json_t *final)
{
	json_t *o = json_pack("{s:I, s:s}", "step", (json_int_t)step, "reason", reason);

	if (o != NULL && final != NULL)
		json_object_set(o, "simulatedFinal", final);
	return o;
}
