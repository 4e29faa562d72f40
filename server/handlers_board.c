/*
 * handlers_board.c: what anyone may read about runs: a run with its replay,
 * leaderboards, reviews, and replay verification. All reads go to a reader
 * connection; nothing here writes. The answers are written in api/
 * (board_json.c) from the rows read here.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "board_json.h"
#include "certificate.h"
#include "handlers.h"
#include "jsonbody.h"
#include "play.h"
#include "replay.h"
#include "replay_walk.h"
#include "store.h"
#include "workers.h"

#define DEFAULT_LIMIT 20

bool
handlers_read_limit(struct request *req, int *limit)
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
	struct board_run run;
	game_state st;
	int64_t id;
	enum store_result found;
	json_t *actions = NULL;
	char *text = NULL;
	size_t len = 0;
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
	run = (struct board_run){
		.game = g, .id = id, .seed = head.seed, .account = head.account, .status = head.status,
		.over = head.over, .end_reason = head.end_reason, .score = head.score,
		.figures = { head.lines, head.pieces, head.rung, head.lives }, .moves = head.step,
		.seed_chosen = head.seed_chosen, .created_at = head.created_at,
		.ended_at = head.ended_at, .finished_at = head.finished_at, .review = extras.review,
		.rating = extras.rating, .reviewed_at = extras.reviewed_at,
		.certificate = extras.certificate, .withheld = withheld,
	};
	if (g->decode(&st, head.state, head.nstate))
		text = board_run_text(&run, &st, actions, &len);
	else
		json_decref(actions);
	store_run_extras_free(&extras);
	if (text == NULL) {
		request_reply_error(req, API_ERR_INTERNAL, "the stored run does not read back");
		return;
	}
	request_reply_json_text(req, 200, text, len);
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
	struct board_entry entries[STORE_PAGE_MAX];
	struct store_board_cursor cur;
	const char *qseed = request_query(req, "seed"), *qafter = request_query(req, "after");
	struct store_conn *c;
	int limit, n = 0, i;
	enum store_result rc;
	int64_t seed = 0, parts[5];
	char msg[80], *text;
	size_t len;

	if (!handlers_read_limit(req, &limit))
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
	for (i = 0; i < n; i++) {
		const struct store_board_entry *e = &rows[i];

		entries[i] = (struct board_entry){
			.id = e->id, .score = e->score, .seed = e->seed, .ended_at = e->ended_at,
			.keys = { e->keys[0], e->keys[1], e->keys[2] },
			.figures = { e->lines, e->pieces, e->rung, e->lives }, .account = e->account,
		};
	}
	text = board_leaderboard_text(g, qseed != NULL, seed, entries, n, qafter ? cur.rank : 0,
	    n == limit, &len);
	request_reply_json_text(req, 200, text, len);
}

/* ---- GET /api/games/{game}/reviews ---- */

void
handle_reviews(struct request *req, const struct game *g)
{
	struct store_review_row rows[STORE_PAGE_MAX];
	struct board_review reviews[STORE_PAGE_MAX];
	const char *qbefore = request_query(req, "before");
	struct store_conn *c;
	int64_t before = 0, count, total;
	int limit, n = 0, i;
	enum store_result rc;
	char *text;
	size_t len;

	if (!handlers_read_limit(req, &limit))
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
	for (i = 0; i < n; i++)
		reviews[i] = (struct board_review){ .id = rows[i].id, .run_id = rows[i].run_id,
			.created_at = rows[i].created_at, .rating = rows[i].rating,
			.account = rows[i].account, .text = rows[i].text };
	text = board_reviews_text(g, count, total, reviews, n, n == limit, &len);
	store_reviews_free(rows, n);
	request_reply_json_text(req, 200, text, len);
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
	char *text;
	size_t len;

	if (v->no_memory) {
		request_reply_error(req, API_ERR_INTERNAL, "out of memory");
		return;
	}
	if (v->rc != 0) {
		request_reply_error_with(req, API_ERR_INVALID_REPLAY, v->chk.reason,
		    board_verify_refusal_json(v->chk.step, v->chk.reason, v->chk.final));
		return;
	}
	if (v->why != NULL) {
		request_reply_error_with(req, API_ERR_INVALID_REPLAY, v->why,
		    board_verify_refusal_json(0, v->why, NULL));
		return;
	}
	text = board_verified_text(v->game, &v->chk, v->hash, v->claims, &len);
	request_reply_json_text(req, 200, text, len);
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
	if ((v = request_ctx_new(req, sizeof *v, verification_free)) == NULL)
		return;
	v->game = g;
	v->replay = replay;
	v->cert = cert != NULL ? json_string_value(cert) : NULL;
	v->keys = app_keys(req->app);
	workers_submit_or_busy(req->app->verify, req, verify_task, v, verify_done, "replay verifier");
}
