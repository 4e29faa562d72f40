/*
 * handlers_board.c: what anyone may read about runs: a run with its replay,
 * leaderboards, reviews, and replay verification. All reads go to a reader
 * connection; nothing here writes.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "certificate.h"
#include "duskcourt_json.h"
#include "handlers.h"
#include "iso8601.h"
#include "jsonbody.h"
#include "replay.h"
#include "runs.h"
#include "solver.h"
#include "stackfall_json.h"
#include "store.h"

#define DEFAULT_LIMIT 20

static json_t *
time_or_null(int64_t ms)
{
	char text[ISO8601_MAX];

	if (ms <= 0)
		return json_null();
	iso8601_format(text, sizeof text, ms / 1000);
	return json_string(text);
}

/* The {game} of the path; a 404 when it is none of ours. */
static int
path_game(struct request *req)
{
	int g = game_from_name(req->params[0], strlen(req->params[0]));

	if (g < 0)
		request_reply_error(req, API_ERR_NOT_FOUND, "no such game: stackfall or duskcourt");
	return g;
}

/* ?limit=: 1..100 (larger values are capped), default 20. */
static bool
read_limit(struct request *req, int *limit)
{
	const char *q = request_query(req, "limit");
	int64_t v;

	*limit = DEFAULT_LIMIT;
	if (q == NULL)
		return true;
	if (!jsonbody_parse_int(q, 1, INT64_MAX / 2, &v)) {
		request_reply_error(req, API_ERR_INVALID_REQUEST, "query 'limit' must be a whole number from 1 to 100");
		return false;
	}
	*limit = v > STORE_PAGE_MAX ? STORE_PAGE_MAX : (int)v;
	return true;
}

/* Signed decimal fields separated by '.', exactly n of them. */
static bool
parse_cursor(const char *s, int64_t *out, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		char *end;

		if (*s == '\0' || *s == '+' || *s == ' ')
			return false;
		errno = 0;
		out[i] = strtoll(s, &end, 10);
		if (errno != 0 || end == s || (i + 1 < n ? *end != '.' : *end != '\0'))
			return false;
		s = end + (i + 1 < n);
	}
	return true;
}

/* ---- GET /api/games/{game}/runs/{runId} ---- */

void
handle_run_get(struct request *req)
{
	struct store_run_head head;
	struct store_run_extras extras = { 0 };
	struct store_conn *c;
	int64_t id;
	char idtext[24];
	int g, found;
	json_t *o, *final = NULL, *actions = NULL;
	bool playing_stackfall;

	if ((g = path_game(req)) < 0)
		return;
	if (!jsonbody_parse_int(req->params[1], 1, ((int64_t)1 << 53) - 1, &id)) {
		request_reply_error(req, API_ERR_RUN_NOT_FOUND, NULL);
		return;
	}
	c = store_reader(req->app->store);
	found = store_run_head(c, id, &head);
	if (found == 1 && strcmp(head.game, game_name((enum game)g)) != 0)
		found = 0;
	playing_stackfall = found == 1 && g == GAME_STACKFALL && !head.over;
	if (found == 1) {
		if (store_run_extras(c, id, &extras) < 0)
			found = -1;
		if (!playing_stackfall && (actions = store_run_actions(c, id)) == NULL)
			found = -1;
	}
	store_reader_release(req->app->store, c);
	if (found != 1) {
		json_decref(actions);
		store_run_extras_free(&extras);
		if (found == 0)
			request_reply_error(req, API_ERR_RUN_NOT_FOUND, NULL);
		else
			request_reply_error(req, API_ERR_INTERNAL, NULL);
		return;
	}
	if (g == GAME_STACKFALL) {
		struct stackfall sf;

		if (stackfall_decode(&sf, head.state, head.nstate))
			final = stackfall_final_json(&sf);
	} else {
		struct duskcourt_state dc;

		if (duskcourt_deserialise(&dc, head.state, head.nstate, NULL, 0))
			final = duskcourt_final_json(&dc);
	}
	if (final == NULL) {
		json_decref(actions);
		store_run_extras_free(&extras);
		request_reply_error(req, API_ERR_INTERNAL, "the stored run does not read back");
		return;
	}
	runs_id_text(id, idtext);
	o = json_pack("{s:s, s:s, s:o, s:s, s:b, s:o, s:I}", "game", head.game, "runId", idtext,
	    "account", head.account[0] ? json_string(head.account) : json_null(),
	    "status", head.status, "over", head.over,
	    "end_reason", head.end_reason[0] ? json_string(head.end_reason) : json_null(),
	    "score", (json_int_t)head.score);
	if (g == GAME_STACKFALL) {
		json_object_set_new(o, "lines", json_integer(head.lines));
		json_object_set_new(o, "pieces", json_integer(head.pieces));
	} else {
		json_object_set_new(o, "rung", json_integer(head.rung));
		json_object_set_new(o, "lives", json_integer(head.lives));
	}
	json_object_set_new(o, "moves", json_integer(head.step));
	json_object_set_new(o, "seedChosenByClient", json_boolean(head.seed_chosen));
	json_object_set_new(o, "createdAt", time_or_null(head.created_at));
	json_object_set_new(o, "endedAt", time_or_null(head.ended_at));
	json_object_set_new(o, "finishedAt", time_or_null(head.finished_at));
	json_object_set_new(o, "review", extras.review ? json_pack("{s:i, s:s, s:o}", "rating",
	    extras.rating, "text", extras.review, "createdAt", time_or_null(extras.reviewed_at)) :
	    json_null());
	json_object_set_new(o, "certificate", extras.certificate ? json_string(extras.certificate) :
	    json_null());
	if (playing_stackfall) {
		json_decref(final);
		json_object_set_new(o, "replay", json_null());
		json_object_set_new(o, "withheld",
		    json_string("a playing Stackfall run's seed and moves would reveal its future pieces: "
		    "they are shown once it is over"));
	} else
		json_object_set_new(o, "replay", replay_new(g == GAME_STACKFALL ? ENGINE_RULES_STACKFALL :
		    ENGINE_RULES_DUSKCOURT, head.seed, actions, final));
	store_run_extras_free(&extras);
	request_reply_json(req, 200, o);
}

/* ---- GET /api/games/{game}/leaderboard ---- */

void
handle_leaderboard(struct request *req)
{
	struct store_board_entry rows[STORE_PAGE_MAX];
	struct store_board_cursor cur;
	const char *qseed = request_query(req, "seed"), *qafter = request_query(req, "after");
	struct store_conn *c;
	int g, limit, n = 0, i, rc;
	int64_t seed = 0, parts[5];
	json_t *entries, *o;

	if ((g = path_game(req)) < 0 || !read_limit(req, &limit))
		return;
	if (qseed != NULL && !jsonbody_parse_int(qseed, 0, ((int64_t)1 << 53) - 1, &seed)) {
		request_reply_error(req, API_ERR_INVALID_REQUEST,
		    "query 'seed' must be an integer from 0 to 9007199254740991");
		return;
	}
	if (qafter != NULL) {
		if (!parse_cursor(qafter, parts, 5) || parts[4] < 0) {
			request_reply_error(req, API_ERR_INVALID_REQUEST,
			    "query 'after' must be the 'next' cursor of a previous page");
			return;
		}
		cur.score = parts[0];
		cur.second = parts[1];
		cur.third = parts[2];
		cur.id = parts[3];
		cur.rank = parts[4];
	}
	c = store_reader(req->app->store);
	rc = store_leaderboard(c, game_name((enum game)g), qseed != NULL, seed, qafter ? &cur : NULL,
	    limit, rows, &n);
	store_reader_release(req->app->store, c);
	if (rc != 0) {
		request_reply_error(req, API_ERR_INTERNAL, NULL);
		return;
	}
	entries = json_array();
	for (i = 0; i < n; i++) {
		struct store_board_entry *e = &rows[i];
		char id[24];
		json_t *x;

		runs_id_text(e->id, id);
		x = json_pack("{s:I, s:s, s:o, s:I}", "rank", (json_int_t)((qafter ? cur.rank : 0) + i + 1),
		    "runId", id, "account", e->account[0] ? json_string(e->account) : json_null(),
		    "score", (json_int_t)e->score);
		if (g == GAME_STACKFALL) {
			json_object_set_new(x, "lines", json_integer(e->lines));
			json_object_set_new(x, "pieces", json_integer(e->pieces));
		} else {
			json_object_set_new(x, "rung", json_integer(e->rung));
			json_object_set_new(x, "lives", json_integer(e->lives));
		}
		json_object_set_new(x, "seed", json_integer(e->seed));
		json_object_set_new(x, "endedAt", time_or_null(e->ended_at));
		json_array_append_new(entries, x);
	}
	o = json_pack("{s:s, s:o, s:o}", "game", game_name((enum game)g),
	    "seed", qseed ? json_integer(seed) : json_null(), "entries", entries);
	if (n == limit) {
		char next[128];
		const struct store_board_entry *e = &rows[n - 1];

		snprintf(next, sizeof next, "%" PRId64 ".%" PRId64 ".%" PRId64 ".%" PRId64 ".%" PRId64,
		    e->score, e->second, e->third, e->id, (qafter ? cur.rank : 0) + n);
		json_object_set_new(o, "next", json_string(next));
	} else
		json_object_set_new(o, "next", json_null());
	request_reply_json(req, 200, o);
}

/* ---- GET /api/games/{game}/reviews ---- */

void
handle_reviews(struct request *req)
{
	struct store_review_row rows[STORE_PAGE_MAX];
	const char *qbefore = request_query(req, "before");
	struct store_conn *c;
	int64_t before = 0, count, total;
	int g, limit, n = 0, i, rc;
	json_t *list, *o;

	if ((g = path_game(req)) < 0 || !read_limit(req, &limit))
		return;
	if (qbefore != NULL && !parse_cursor(qbefore, &before, 1)) {
		request_reply_error(req, API_ERR_INVALID_REQUEST,
		    "query 'before' must be the 'next' cursor of a previous page");
		return;
	}
	c = store_reader(req->app->store);
	rc = store_reviews(c, game_name((enum game)g), qbefore != NULL, before, limit, rows, &n, &count,
	    &total);
	store_reader_release(req->app->store, c);
	if (rc != 0) {
		store_reviews_free(rows, n);
		request_reply_error(req, API_ERR_INTERNAL, NULL);
		return;
	}
	list = json_array();
	for (i = 0; i < n; i++) {
		char id[24];

		runs_id_text(rows[i].run_id, id);
		json_array_append_new(list, json_pack("{s:s, s:o, s:i, s:s, s:o}", "runId", id,
		    "account", rows[i].account[0] ? json_string(rows[i].account) : json_null(),
		    "rating", rows[i].rating, "text", rows[i].text,
		    "createdAt", time_or_null(rows[i].created_at)));
	}
	o = json_pack("{s:s, s:I, s:o, s:o}", "game", game_name((enum game)g), "count", (json_int_t)count,
	    "averageRating", count ? json_real((double)total / (double)count) : json_null(),
	    "reviews", list);
	if (n == limit) {
		char next[32];

		snprintf(next, sizeof next, "%" PRId64, rows[n - 1].id);
		json_object_set_new(o, "next", json_string(next));
	} else
		json_object_set_new(o, "next", json_null());
	store_reviews_free(rows, n);
	request_reply_json(req, 200, o);
}

/* ---- POST /api/games/{game}/replays/verify ---- */

/* Checks a certificate against the replay it claims; NULL when it holds,
 * else why not. */
static const char *
check_certificate(struct request *req, const char *cert, const json_t *replay, json_t **claims)
{
	char hash[65];
	const char *claimed;

	*claims = certificate_verify(req->app->keys, cert, strlen(cert));
	if (*claims == NULL)
		return "the certificate does not verify with this server's keys";
	claimed = json_string_value(json_object_get(*claims, "replay"));
	if (certificate_json_hash(replay, hash) != 0 || claimed == NULL || strcmp(claimed, hash) != 0)
		return "the certificate names another replay";
	return NULL;
}

void
handle_replay_verify(struct request *req)
{
	struct replay_check chk;
	const json_t *replay = req->json, *cert = NULL;
	json_t *claims = NULL, *o;
	const char *why;
	char hash[65];
	int g;

	if ((g = path_game(req)) < 0)
		return;
	if (req->json == NULL) {
		request_reply_error(req, API_ERR_INVALID_REQUEST,
		    "the body is a replay, or {\"replay\": ..., \"certificate\": ...}");
		return;
	}
	if (json_object_get(req->json, "replay") != NULL) {
		const char *key;
		json_t *v;

		json_object_foreach(req->json, key, v) {
			(void)v;
			if (strcmp(key, "replay") != 0 && strcmp(key, "certificate") != 0) {
				char msg[JSONBODY_MSG_MAX];

				snprintf(msg, sizeof msg, "unknown field '%.60s' (send replay and certificate)", key);
				request_reply_error(req, API_ERR_INVALID_REQUEST, msg);
				return;
			}
		}
		replay = json_object_get(req->json, "replay");
		cert = json_object_get(req->json, "certificate");
		if (cert != NULL && !json_is_string(cert)) {
			request_reply_error(req, API_ERR_INVALID_REQUEST, "field 'certificate' must be a string");
			return;
		}
	}
	if (replay_verify(replay, (enum game)g, solver_for_thread(), &chk) != 0) {
		o = json_pack("{s:I, s:s}", "step", (json_int_t)chk.step, "reason", chk.reason);
		if (chk.final != NULL)
			json_object_set_new(o, "simulatedFinal", chk.final);
		request_reply_error_with(req, API_ERR_INVALID_REPLAY, chk.reason, o);
		return;
	}
	if (cert != NULL && (why = check_certificate(req, json_string_value(cert), replay, &claims)) != NULL) {
		json_decref(claims);
		json_decref(chk.final);
		request_reply_error_with(req, API_ERR_INVALID_REPLAY, why, json_pack("{s:i, s:s}", "step", 0,
		    "reason", why));
		return;
	}
	certificate_json_hash(replay, hash);
	o = json_pack("{s:b, s:s, s:I, s:o, s:s}", "valid", 1, "game", game_name((enum game)g),
	    "actions", (json_int_t)chk.nactions, "final", chk.final, "replayHash", hash);
	if (claims != NULL)
		json_object_set_new(o, "certificate", json_pack("{s:b, s:o}", "valid", 1, "claims", claims));
	request_reply_json(req, 200, o);
}
