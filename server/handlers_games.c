/*
 * handlers_games.c: the game routes, once for every game on the table.
 *
 *   /api/games/{game}/init|action|state|finish|rules
 *       stateToken routes: the state travels in the token; an optional
 *       Bearer key attributes a new run to its account.
 *   /games/{game}/api/new|act|state|finish|rules
 *       the seed's own routes, for games that have them (an abandon hook):
 *       bound to the Bearer key's account, whose newest run is the current
 *       one; the request plays inside the store job on the stored head.
 *
 * Each handler reads and checks the request in the order docs/api.md
 * fixes, fills a struct play and hands it to the store (play.h); messages
 * name the field at fault.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "app.h"
#include "auth.h"
#include "defer.h"
#include "facts.h"
#include "handlers.h"
#include "jsonbody.h"
#include "play.h"

#define FIELDS_MAX 12

/* The {game} of the path; a 404 when it is none of ours, or when the
 * route is the seed's own and the game has no such routes. */
static const struct game *
path_game(struct request *req, bool account_route)
{
	const struct game *g = game_by_name(req->params[0], strlen(req->params[0]));
	char names[GAME_NAMES_MAX], msg[GAME_NAMES_MAX + 32];

	if (g != NULL && (!account_route || g->abandon != NULL))
		return g;
	if (account_route)
		snprintf(msg, sizeof msg, "no such game on these routes");
	else
		snprintf(msg, sizeof msg, "no such game: %s", game_names(names, sizeof names));
	request_reply_error(req, API_ERR_NOT_FOUND, msg);
	return NULL;
}

/* first (may be NULL), then the game's own list: the body fields a route
 * accepts besides the common ones. */
static void
fields(const char *const *out[1], const char *buf[FIELDS_MAX], const char *const *first,
    const char *const *game)
{
	size_t n = 0, i;

	for (i = 0; first != NULL && first[i] != NULL && n + 1 < FIELDS_MAX; i++)
		buf[n++] = first[i];
	for (i = 0; game != NULL && game[i] != NULL && n + 1 < FIELDS_MAX; i++)
		buf[n++] = game[i];
	buf[n] = NULL;
	*out = buf;
}

static bool
known_fields(struct request *req, const char *const *first, const char *const *game)
{
	const char *buf[FIELDS_MAX];
	const char *const *list;
	char msg[JSONBODY_MSG_MAX];

	fields(&list, buf, first, game);
	if (!jsonbody_known(req->json, list, msg, sizeof msg)) {
		request_reply_error(req, API_ERR_INVALID_REQUEST, msg);
		return false;
	}
	return true;
}

static const char *
query(void *ctx, const char *name)
{
	return request_query(ctx, name);
}

/* The seed of an init: ?seed= (GET) or {"seed": N} (POST), 0..ENGINE_ID_MAX;
 * when absent a random one (*chosen false). False with msg for a 400. */
static bool
read_seed(struct request *req, int64_t *seed, bool *chosen, char msg[JSONBODY_MSG_MAX])
{
	const char *q = request_query(req, "seed");
	bool present = false;

	if (!jsonbody_int(req->json, "seed", 0, ENGINE_ID_MAX, &present, seed, msg, JSONBODY_MSG_MAX))
		return false;
	if (!present && q != NULL) {
		if (!jsonbody_parse_int(q, 0, ENGINE_ID_MAX, seed)) {
			snprintf(msg, JSONBODY_MSG_MAX, "query 'seed' must be an integer from 0 to %lld",
			    (long long)ENGINE_ID_MAX);
			return false;
		}
		present = true;
	}
	*chosen = present;
	if (!present) {
		uint64_t r;

		randombytes_buf(&r, sizeof r);
		*seed = (int64_t)(r & (uint64_t)ENGINE_ID_MAX);
	}
	return true;
}

/* The stateToken of a state or finish request: ?stateToken= (GET) or the
 * body field (POST). */
static const char *
read_token(struct request *req)
{
	char msg[JSONBODY_MSG_MAX];
	const char *text;

	if (req->method != HTTP_POST) {
		text = request_query(req, "stateToken");
		if (text == NULL)
			request_reply_error(req, API_ERR_INVALID_REQUEST, "missing query 'stateToken'");
		return text;
	}
	if (!jsonbody_string(req->json, "stateToken", &text, msg, sizeof msg)) {
		request_reply_error(req, API_ERR_INVALID_REQUEST, msg);
		return NULL;
	}
	return text;
}

/* rating (1-10) and review (1-GAMES_REVIEW_MAX characters of UTF-8).
 * False with msg for a 400. */
#define GAMES_REVIEW_MAX 2000
static bool
read_review(struct request *req, int *rating, const char **review, char msg[JSONBODY_MSG_MAX])
{
	const json_t *r = req->json ? json_object_get(req->json, "rating") : NULL;
	size_t nchars = 0;
	int64_t v = 0;
	bool present;

	if (r == NULL) {
		snprintf(msg, JSONBODY_MSG_MAX, "missing field 'rating' (an integer 1-10)");
		return false;
	}
	if (!jsonbody_int(req->json, "rating", 1, 10, &present, &v, msg, JSONBODY_MSG_MAX) ||
	    !jsonbody_string(req->json, "review", review, msg, JSONBODY_MSG_MAX))
		return false;
	if (!jsonbody_utf8(*review, json_string_length(json_object_get(req->json, "review")), &nchars) ||
	    nchars < 1 || nchars > GAMES_REVIEW_MAX) {
		snprintf(msg, JSONBODY_MSG_MAX, "field 'review' must be 1-%d characters of UTF-8 text",
		    GAMES_REVIEW_MAX);
		return false;
	}
	*rating = (int)v;
	return true;
}

/*
 * The seed's routes answer every refusal with the next agent_check, even
 * one decided before the check (a bad body, a bad key): the puzzle is made
 * and stored, then the error goes out with it.
 */
struct refusal {
	struct agent_fresh fresh;
	enum api_error     error;
	int                status;   /* auth: 401 or 500; 0 otherwise */
	char               message[JSONBODY_MSG_MAX + AUTH_WHY_MAX];
};

static void
refusal_reply(struct request *req)
{
	struct refusal *r = req->ctx;
	json_t *extra = NULL;

	if (defer_committed(req))
		extra = json_pack("{s:o}", "agent_check", agent_fresh_json(&r->fresh, store_now_ms()));
	if (r->status != 0)
		auth_refuse(req, r->status, r->message, extra);
	else
		request_reply_error_with(req, r->error, r->message, extra);
}

static void
refuse_account(struct request *req, const struct game *g, enum api_error e, int status,
    const char *message)
{
	struct refusal *r;

	if (!req->app->cfg->agent_check[g->id] || (r = calloc(1, sizeof *r)) == NULL) {
		if (status != 0)
			auth_refuse(req, status, message, NULL);
		else
			request_reply_error(req, e, message);
		return;
	}
	if (req->ctx_free != NULL)
		req->ctx_free(req->ctx);
	req->ctx = r;
	req->ctx_free = free;
	r->error = e;
	r->status = status;
	snprintf(r->message, sizeof r->message, "%s", message);
	{
		struct agent_who who;

		play_who(req, 0, &who);
		agent_fresh_make(&r->fresh, store_now_ms(), &who);
	}
	defer_to_store(req, agent_fresh_job, &r->fresh, refusal_reply);
}

/* A 400; on the seed's routes it carries the next puzzle. */
static void
bad_request(struct request *req, const struct game *g, bool account, const char *msg)
{
	if (account)
		refuse_account(req, g, API_ERR_INVALID_REQUEST, 0, msg);
	else
		request_reply_error(req, API_ERR_INVALID_REQUEST, msg);
}

/* Checks the body's fields; on the seed's routes a refusal carries the
 * next puzzle. */
static bool
body_ok(struct request *req, const struct game *g, bool account, const char *const *first,
    const char *const *game)
{
	const char *buf[FIELDS_MAX];
	const char *const *list;
	char msg[JSONBODY_MSG_MAX];

	if (!account)
		return known_fields(req, first, game);
	fields(&list, buf, first, game);
	if (!jsonbody_known(req->json, list, msg, sizeof msg)) {
		refuse_account(req, g, API_ERR_INVALID_REQUEST, 0, msg);
		return false;
	}
	return true;
}

/* The Bearer key: required on the seed's routes, optional (attribution)
 * on the token routes. */
static bool
read_account(struct request *req, const struct game *g, bool account, int64_t *id)
{
	struct account_ref acct = { 0 };
	char why[AUTH_WHY_MAX];
	int status = 0;
	enum auth_result a = auth_check(req, account, &acct, &status, why);

	if (a == AUTH_FAILED) {
		if (account)
			refuse_account(req, g, API_ERR_UNAUTHORIZED, status, why);
		else
			auth_refuse(req, status, why, NULL);
		return false;
	}
	*id = a == AUTH_OK ? acct.id : 0;
	return true;
}

/* The common tail of action, state and finish: who asks, the agent check,
 * the token (token routes), and the store job. compute plays the request
 * on the token's state first (actions). */
static void
submit(struct request *req, struct play *p, bool account, int64_t account_id, const char *text,
    bool compute)
{
	p->by_account = account;
	p->account_id = account_id;
	if (!play_prepare_check(req, p))
		return;
	if (!account) {
		play_open_token(req, p, text);
		if (compute && p->tok_err == TOKEN_OK) {
			struct game_env env;
			struct facts facts;
			bool failed;

			if (!play_env(p->game, &env)) {
				request_reply_error(req, API_ERR_INTERNAL, "out of memory");
				return;
			}
			/* The run's facts as of the token's step, read when first asked. */
			facts_init(&facts, p->game, req->app->store, NULL, p->tok.run, p->tok.step);
			facts_attach(&facts, &env);
			play_compute(p, &env);
			failed = facts_failed(&facts);
			facts_cleanup(&facts);
			if (failed) {
				request_reply_error(req, API_ERR_INTERNAL, "the run's history could not be read; "
				    "nothing changed");
				return;
			}
		}
	}
	defer_to_store(req, play_job, p, play_reply);
}

/* ---- init and new ---- */

static void
init(struct request *req, bool account)
{
	static const char *const seed_field[] = { "seed", NULL };
	const struct game *g = path_game(req, account);
	struct game_request rq = { req->json, query, req, req->app->cfg->cap_default,
	    req->app->cfg->cap_max };
	struct game_env env;
	struct play *p;
	enum api_error err = API_ERR_INTERNAL;
	char msg[JSONBODY_MSG_MAX];
	int64_t seed, account_id;
	bool chosen;
	size_t n;

	if (g == NULL)
		return;
	if (g->seedless && ((req->json != NULL && json_object_get(req->json, "seed") != NULL) ||
	    request_query(req, "seed") != NULL)) {
		snprintf(msg, sizeof msg, "%s has no seed: leave 'seed' out", g->name);
		bad_request(req, g, account, msg);
		return;
	}
	if (!body_ok(req, g, account, g->seedless ? NULL : seed_field, g->init_fields))
		return;
	if (g->seedless) {
		seed = 0;
		chosen = false;
	} else if (!read_seed(req, &seed, &chosen, msg)) {
		bad_request(req, g, account, msg);
		return;
	}
	if (!read_account(req, g, account, &account_id))
		return;
	if ((p = play_new(req, g, PLAY_INIT)) == NULL)
		return;
	p->by_account = account;
	p->account_id = account_id;
	p->check_on = req->app->cfg->agent_check[g->id];
	if (p->check_on) {
		struct agent_who who;

		play_who(req, account_id, &who);
		agent_fresh_make(&p->fresh, store_now_ms(), &who);
	}
	if (!play_env(g, &env)) {
		request_reply_error(req, API_ERR_INTERNAL, "out of memory");
		return;
	}
	if (!g->init(&p->after, (uint64_t)seed, &rq, &env, &err, msg, sizeof msg)) {
		request_reply_error(req, err, msg);
		return;
	}
	n = g->encode(&p->after, p->bytes, sizeof p->bytes);
	if (n == 0 || n > sizeof p->bytes) {
		request_reply_error(req, API_ERR_INTERNAL, "the state does not fit a token");
		return;
	}
	p->run.game = g->name;
	p->run.rules = g->rules;
	p->run.account_id = account_id;
	p->run.seed = seed;
	p->run.seed_chosen = chosen;
	p->run.state = p->bytes;
	p->run.nstate = n;
	g->summary(&p->after, &p->run.sum);
	p->run.now = store_now_ms();
	defer_to_store(req, play_job, p, play_reply);
}

void
handle_game_init(struct request *req)
{
	init(req, false);
}

void
handle_account_new(struct request *req)
{
	init(req, true);
}

/* ---- action and act ---- */

static void
act(struct request *req, bool account)
{
	static const char *const token_field[] = { "stateToken", NULL };
	const struct game *g = path_game(req, account);
	char msg[JSONBODY_MSG_MAX];
	const char *text = NULL;
	struct play *p;
	int64_t account_id;

	if (g == NULL || !body_ok(req, g, account, account ? NULL : token_field, g->action_fields))
		return;
	if (!account && !jsonbody_string(req->json, "stateToken", &text, msg, sizeof msg)) {
		request_reply_error(req, API_ERR_INVALID_REQUEST, msg);
		return;
	}
	if ((p = play_new(req, g, PLAY_ACTION)) == NULL)
		return;
	if (!g->read_action(req->json, p->scratch, msg, sizeof msg)) {
		if (account)
			refuse_account(req, g, API_ERR_INVALID_REQUEST, 0, msg);
		else
			request_reply_error(req, API_ERR_INVALID_REQUEST, msg);
		return;
	}
	if (read_account(req, g, account, &account_id))
		submit(req, p, account, account_id, text, true);
}

void
handle_game_action(struct request *req)
{
	act(req, false);
}

void
handle_account_act(struct request *req)
{
	act(req, true);
}

/* ---- state ---- */

static void
state(struct request *req, bool account)
{
	static const char *const token_field[] = { "stateToken", NULL };
	const struct game *g = path_game(req, account);
	const char *text = NULL;
	struct play *p;
	int64_t account_id;

	if (g == NULL || !body_ok(req, g, account, account ? NULL : token_field, NULL))
		return;
	if (!account && (text = read_token(req)) == NULL)
		return;
	if (read_account(req, g, account, &account_id) && (p = play_new(req, g, PLAY_STATE)) != NULL)
		submit(req, p, account, account_id, text, false);
}

void
handle_game_state(struct request *req)
{
	state(req, false);
}

void
handle_account_state(struct request *req)
{
	state(req, true);
}

/* ---- finish ---- */

static void
finish(struct request *req, bool account)
{
	static const char *const token_fields[] = { "stateToken", "rating", "review", NULL };
	static const char *const review_fields[] = { "rating", "review", NULL };
	const struct game *g = path_game(req, account);
	const char *text = NULL, *review;
	char msg[JSONBODY_MSG_MAX];
	struct play *p;
	int64_t account_id;
	int rating;

	if (g == NULL || !body_ok(req, g, account, account ? review_fields : token_fields, NULL))
		return;
	if (!account && (text = read_token(req)) == NULL)
		return;
	if (!read_review(req, &rating, &review, msg)) {
		bad_request(req, g, account, msg);
		return;
	}
	if (!read_account(req, g, account, &account_id))
		return;
	if ((p = play_new(req, g, PLAY_FINISH)) == NULL)
		return;
	p->rating = rating;
	p->review = review;
	submit(req, p, account, account_id, text, false);
}

void
handle_game_finish(struct request *req)
{
	finish(req, false);
}

void
handle_account_finish(struct request *req)
{
	finish(req, true);
}

/* ---- rules ---- */

static json_t *
rules_body(struct request *req, const struct game *g)
{
	json_t *o = g->rules_json();

	if (o != NULL)
		json_object_set_new(o, "agentCheck", json_boolean(req->app->cfg->agent_check[g->id]));
	return o;
}

static void
rules_done(struct request *req)
{
	const struct game *g = game_by_name(req->params[0], strlen(req->params[0]));
	json_t *o;

	if (!defer_committed(req)) {
		request_reply_error(req, API_ERR_INTERNAL, NULL);
		return;
	}
	o = rules_body(req, g);
	if (o != NULL)
		json_object_set_new(o, "agent_check", agent_fresh_json(req->ctx, store_now_ms()));
	request_reply_json(req, 200, o);
}

/* The rules as JSON; when the game's agent check is on, with a first
 * puzzle (stored before it goes out). */
static void
rules(struct request *req, bool account)
{
	const struct game *g = path_game(req, account);

	if (g == NULL)
		return;
	if (!req->app->cfg->agent_check[g->id])
		request_reply_json(req, 200, rules_body(req, g));
	else
		play_fresh_puzzle(req, 0, rules_done);
}

void
handle_game_rules(struct request *req)
{
	rules(req, false);
}

void
handle_account_rules(struct request *req)
{
	rules(req, true);
}
