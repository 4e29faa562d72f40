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
#include "handlers.h"
#include "iso8601.h"
#include "jsonbody.h"
#include "play.h"
#include "replay.h"
#include "store.h"
#include "workers.h"

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

/* The figures a game shows beside the score (its board_fields), from the
 * runs table's columns. */
static void
board_figures(json_t *o, const struct game *g, int64_t lines, int64_t pieces, int64_t rung,
    int64_t lives)
{
	size_t i;

	for (i = 0; g->board_fields != NULL && g->board_fields[i] != NULL; i++) {
		const char *f = g->board_fields[i];
		int64_t v = strcmp(f, "lines") == 0 ? lines : strcmp(f, "pieces") == 0 ? pieces :
		    strcmp(f, "rung") == 0 ? rung : lives;

		json_object_set_new(o, f, v < 0 ? json_null() : json_integer(v));
	}
}

/* ?limit=: 1..STORE_PAGE_MAX (larger values are capped), default 20. */
static bool
read_limit(struct request *req, int *limit)
{
	const char *q = request_query(req, "limit");
	char msg[64];
	int64_t v;

	*limit = DEFAULT_LIMIT;
	if (q == NULL)
		return true;
	if (!jsonbody_parse_int(q, 1, INT64_MAX / 2, &v)) {
		snprintf(msg, sizeof msg, "query 'limit' must be a whole number from 1 to %d", STORE_PAGE_MAX);
		request_reply_error(req, API_ERR_INVALID_REQUEST, msg);
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

/* The run whose id is the path segment idparam, of game g, or of any game
 * when g is NULL (run ids are unique across games). */
static void
reply_run(struct request *req, const struct game *g, const char *idparam)
{
	struct store_run_head head;
	struct store_run_extras extras = { 0 };
	struct store_conn *c;
	game_state st;
	int64_t id;
	char idtext[GAME_ID_TEXT_MAX];
	enum store_result found;
	json_t *o, *final = NULL, *actions = NULL;
	bool withheld;

	if (!jsonbody_parse_int(idparam, 1, ENGINE_ID_MAX, &id)) {
		request_reply_error(req, API_ERR_RUN_NOT_FOUND, NULL);
		return;
	}
	c = store_reader(req->app->store);
	found = store_run_head(c, id, &head);
	if (found == STORE_OK && g == NULL && (g = game_by_name(head.game, strlen(head.game))) == NULL)
		found = STORE_NOT_FOUND; /* a game this binary does not serve */
	if (found == STORE_OK && strcmp(head.game, g->name) != 0)
		found = STORE_NOT_FOUND;
	/* A playing run of a game whose seed tells its future shows no replay. */
	withheld = found == STORE_OK && g->hides_future && !head.over;
	if (found == STORE_OK) {
		if (store_run_extras(c, id, &extras) != STORE_OK)
			found = STORE_ERROR;
		if (!withheld && (actions = store_run_actions(c, id)) == NULL)
			found = STORE_ERROR;
	}
	store_reader_release(req->app->store, c);
	if (found != STORE_OK) {
		json_decref(actions);
		store_run_extras_free(&extras);
		if (found == STORE_NOT_FOUND)
			request_reply_error(req, API_ERR_RUN_NOT_FOUND, NULL);
		else
			request_reply_error(req, API_ERR_INTERNAL, NULL);
		return;
	}
	if (g->decode(&st, head.state, head.nstate))
		final = g->final(&st);
	if (final == NULL) {
		json_decref(actions);
		store_run_extras_free(&extras);
		request_reply_error(req, API_ERR_INTERNAL, "the stored run does not read back");
		return;
	}
	play_id_text(id, idtext);
	o = json_pack("{s:s, s:s, s:o, s:s, s:b, s:o, s:I}", "game", g->name, "runId", idtext,
	    "account", head.account[0] ? json_string(head.account) : json_null(),
	    "status", head.status, "over", head.over,
	    "end_reason", head.end_reason[0] ? json_string(head.end_reason) : json_null(),
	    "score", (json_int_t)head.score);
	board_figures(o, g, head.lines, head.pieces, head.rung, head.lives);
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
	if (withheld) {
		json_decref(final);
		json_object_set_new(o, "replay", json_null());
		json_object_set_new(o, "withheld",
		    json_string("a playing run's seed and moves would reveal its future pieces: "
		    "they are shown once it is over"));
	} else
		json_object_set_new(o, "replay", replay_new(g, head.seed, actions, final,
		    g->replay_options ? g->replay_options(&st) : NULL));
	store_run_extras_free(&extras);
	request_reply_json(req, 200, o);
}

void
handle_run_get(struct request *req, const struct game *g)
{
	reply_run(req, g, req->params[1]);
}

/* ---- GET /api/runs/{runId}: the same, for a page that knows only the id ---- */

void
handle_run_by_id(struct request *req)
{
	reply_run(req, NULL, req->params[0]);
}

/* ---- GET /api/games/{game}/leaderboard ---- */

void
handle_leaderboard(struct request *req, const struct game *g)
{
	struct store_board_entry rows[STORE_PAGE_MAX];
	struct store_board_cursor cur;
	const char *qseed = request_query(req, "seed"), *qafter = request_query(req, "after");
	struct store_conn *c;
	int limit, n = 0, i;
	enum store_result rc;
	int64_t seed = 0, parts[5];
	json_t *entries, *o;
	char msg[80];

	if (!read_limit(req, &limit))
		return;
	if (qseed != NULL && !jsonbody_parse_int(qseed, 0, ENGINE_ID_MAX, &seed)) {
		snprintf(msg, sizeof msg, "query 'seed' must be an integer from 0 to %lld",
		    (long long)ENGINE_ID_MAX);
		request_reply_error(req, API_ERR_INVALID_REQUEST, msg);
		return;
	}
	if (qafter != NULL) {
		if (!parse_cursor(qafter, parts, 5) || parts[4] < 0) {
			request_reply_error(req, API_ERR_INVALID_REQUEST,
			    "query 'after' must be the 'next' cursor of a previous page");
			return;
		}
		cur.keys[0] = parts[0];
		cur.keys[1] = parts[1];
		cur.keys[2] = parts[2];
		cur.id = parts[3];
		cur.rank = parts[4];
	}
	c = store_reader(req->app->store);
	rc = store_leaderboard(c, g->name, qseed != NULL, seed, qafter ? &cur : NULL, limit, rows, &n);
	store_reader_release(req->app->store, c);
	if (rc != STORE_OK) {
		request_reply_error(req, API_ERR_INTERNAL, NULL);
		return;
	}
	entries = json_array();
	for (i = 0; i < n; i++) {
		struct store_board_entry *e = &rows[i];
		char id[GAME_ID_TEXT_MAX];
		json_t *x;

		play_id_text(e->id, id);
		x = json_pack("{s:I, s:s, s:o, s:I}", "rank", (json_int_t)((qafter ? cur.rank : 0) + i + 1),
		    "runId", id, "account", e->account[0] ? json_string(e->account) : json_null(),
		    "score", (json_int_t)e->score);
		board_figures(x, g, e->lines, e->pieces, e->rung, e->lives);
		json_object_set_new(x, "seed", json_integer(e->seed));
		json_object_set_new(x, "endedAt", time_or_null(e->ended_at));
		json_array_append_new(entries, x);
	}
	o = json_pack("{s:s, s:o, s:o}", "game", g->name,
	    "seed", qseed ? json_integer(seed) : json_null(), "entries", entries);
	if (n == limit) {
		char next[128];
		const struct store_board_entry *e = &rows[n - 1];

		snprintf(next, sizeof next, "%" PRId64 ".%" PRId64 ".%" PRId64 ".%" PRId64 ".%" PRId64,
		    e->keys[0], e->keys[1], e->keys[2], e->id, (qafter ? cur.rank : 0) + n);
		json_object_set_new(o, "next", json_string(next));
	} else
		json_object_set_new(o, "next", json_null());
	request_reply_json(req, 200, o);
}

/* ---- GET /api/games/{game}/reviews ---- */

void
handle_reviews(struct request *req, const struct game *g)
{
	struct store_review_row rows[STORE_PAGE_MAX];
	const char *qbefore = request_query(req, "before");
	struct store_conn *c;
	int64_t before = 0, count, total;
	int limit, n = 0, i;
	enum store_result rc;
	json_t *list, *o;

	if (!read_limit(req, &limit))
		return;
	if (qbefore != NULL && !parse_cursor(qbefore, &before, 1)) {
		request_reply_error(req, API_ERR_INVALID_REQUEST,
		    "query 'before' must be the 'next' cursor of a previous page");
		return;
	}
	c = store_reader(req->app->store);
	rc = store_reviews(c, g->name, qbefore != NULL, before, limit, rows, &n, &count, &total);
	store_reader_release(req->app->store, c);
	if (rc != STORE_OK) {
		store_reviews_free(rows, n);
		request_reply_error(req, API_ERR_INTERNAL, NULL);
		return;
	}
	list = json_array();
	for (i = 0; i < n; i++) {
		char id[GAME_ID_TEXT_MAX];

		play_id_text(rows[i].run_id, id);
		json_array_append_new(list, json_pack("{s:s, s:o, s:i, s:s, s:o}", "runId", id,
		    "account", rows[i].account[0] ? json_string(rows[i].account) : json_null(),
		    "rating", rows[i].rating, "text", rows[i].text,
		    "createdAt", time_or_null(rows[i].created_at)));
	}
	o = json_pack("{s:s, s:I, s:o, s:o}", "game", g->name, "count", (json_int_t)count,
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
check_certificate(const struct keyring *keys, const char *cert, const json_t *replay, json_t **claims)
{
	char hash[CERTIFICATE_HASH_TEXT];
	const char *claimed;

	*claims = certificate_verify(keys, cert, strlen(cert));
	if (*claims == NULL)
		return "the certificate does not verify with this server's keys";
	claimed = json_string_value(json_object_get(*claims, "replay"));
	if (certificate_json_hash(replay, hash) != 0 || claimed == NULL || strcmp(claimed, hash) != 0)
		return "the certificate names another replay";
	return NULL;
}

/* A verification, done by a worker (workers.h): replaying a long game
 * costs milliseconds, which an HTTP thread must not spend. */
struct verification {
	const struct game    *game;
	const json_t         *replay;   /* borrowed from the request's body */
	const char           *cert;     /* likewise, or NULL */
	const struct keyring *keys;
	bool                  no_memory;
	int                   rc;       /* replay_verify's */
	struct replay_check   chk;
	json_t               *claims;   /* the certificate's, when it verified */
	const char           *why;      /* why the certificate did not */
	char                  hash[CERTIFICATE_HASH_TEXT];
};

static void
verification_free(void *arg)
{
	struct verification *v = arg;

	json_decref(v->chk.final);
	json_decref(v->claims);
	free(v);
}

static void
verify_task(void *arg)
{
	struct verification *v = arg;
	struct game_env env;

	if (!play_env(v->game, &env)) {
		v->no_memory = true;
		return;
	}
	v->rc = replay_verify(v->replay, v->game, &env, &v->chk);
	if (v->rc == 0 && v->cert != NULL)
		v->why = check_certificate(v->keys, v->cert, v->replay, &v->claims);
	if (v->rc == 0 && v->why == NULL)
		certificate_json_hash(v->replay, v->hash);
}

static void
verify_done(struct request *req)
{
	struct verification *v = req->ctx;
	json_t *o;

	if (v->no_memory) {
		request_reply_error(req, API_ERR_INTERNAL, "out of memory");
		return;
	}
	if (v->rc != 0) {
		o = json_pack("{s:I, s:s}", "step", (json_int_t)v->chk.step, "reason", v->chk.reason);
		if (v->chk.final != NULL) {
			json_object_set(o, "simulatedFinal", v->chk.final);
		}
		request_reply_error_with(req, API_ERR_INVALID_REPLAY, v->chk.reason, o);
		return;
	}
	if (v->why != NULL) {
		request_reply_error_with(req, API_ERR_INVALID_REPLAY, v->why, json_pack("{s:i, s:s}", "step", 0,
		    "reason", v->why));
		return;
	}
	o = json_pack("{s:b, s:s, s:I, s:O, s:s}", "valid", 1, "game", v->game->name,
	    "actions", (json_int_t)v->chk.nactions, "final", v->chk.final, "replayHash", v->hash);
	if (o != NULL && v->claims != NULL)
		json_object_set_new(o, "certificate", json_pack("{s:b, s:O}", "valid", 1, "claims", v->claims));
	request_reply_json(req, 200, o);
}

bool
verify_body(struct request *req, const char *what, const json_t **replay, const json_t **cert)
{
	static const char *const fields[] = { "replay", "certificate", NULL };
	char msg[JSONBODY_MSG_MAX];

	*replay = req->json;
	*cert = NULL;
	if (req->json == NULL) {
		snprintf(msg, sizeof msg, "the body is %s, or {\"replay\": ..., \"certificate\": ...}", what);
		request_reply_error(req, API_ERR_INVALID_REQUEST, msg);
		return false;
	}
	if (json_object_get(req->json, "replay") == NULL)
		return true;
	if (!jsonbody_known(req->json, fields, msg, sizeof msg)) {
		request_reply_error(req, API_ERR_INVALID_REQUEST, msg);
		return false;
	}
	*replay = json_object_get(req->json, "replay");
	*cert = json_object_get(req->json, "certificate");
	if (*cert != NULL && !json_is_string(*cert)) {
		request_reply_error(req, API_ERR_INVALID_REQUEST, "field 'certificate' must be a string");
		return false;
	}
	return true;
}

void
handle_replay_verify(struct request *req, const struct game *g)
{
	const json_t *replay, *cert;
	struct verification *v;

	if (!verify_body(req, "a replay", &replay, &cert))
		return;
	if ((v = calloc(1, sizeof *v)) == NULL) {
		request_reply_error(req, API_ERR_INTERNAL, "out of memory");
		return;
	}
	v->game = g;
	v->replay = replay;
	v->cert = cert != NULL ? json_string_value(cert) : NULL;
	v->keys = app_keys(req->app);
	req->ctx = v;
	req->ctx_free = verification_free;
	workers_submit_or_busy(req->app->verify, req, verify_task, v, verify_done, "replay verifier");
}
