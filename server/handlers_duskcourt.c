/*
 * handlers_duskcourt.c: Duskcourt over HTTP: init, action, state, finish
 * and rules, with stateTokens. The engine runs here on the token's state;
 * runs.c's job decides against the stored head and writes the move.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "duskcourt_json.h"
#include "games.h"
#include "handlers.h"
#include "jsonbody.h"
#include "solver.h"

struct dc_ctx {
	struct run_job         job;
	struct duskcourt_state before, after;
	const char            *sent_token;   /* borrowed from the request */
	char                   action[128];  /* canonical JSON of the move */
	char                   reason[ENGINE_REASON_MAX];
	struct store_run_new   run;          /* init */
	uint8_t                bytes[DUSKCOURT_SERIAL_SIZE];
};

static void
ctx_free(void *p)
{
	struct dc_ctx *x = p;

	runs_job_cleanup(&x->job);
	free(x);
}

static struct dc_ctx *
ctx_new(struct request *req)
{
	struct dc_ctx *x = calloc(1, sizeof *x);

	if (x == NULL) {
		request_reply_error(req, API_ERR_INTERNAL, "out of memory");
		return NULL;
	}
	req->ctx = x;
	req->ctx_free = ctx_free;
	return x;
}

static void
summary(const struct duskcourt_state *s, struct store_run_summary *sum)
{
	static const char *const phases[] = { "playing", "break", "done" };

	sum->status = phases[s->phase];
	sum->over = s->phase == DUSKCOURT_DONE;
	sum->end_reason = NULL;
	sum->score = (int64_t)s->score;
	sum->lines = sum->pieces = -1;
	sum->rung = s->rung;
	sum->lives = s->lives;
}

/* {game, runId, stateToken, state, legalActions}, plus agent_check when on. */
static json_t *
body_for(struct request *req, struct dc_ctx *x, int64_t run, int64_t step,
    const struct duskcourt_state *s, const char *token_text)
{
	char id[24], *sealed = NULL;
	uint8_t bytes[DUSKCOURT_SERIAL_SIZE];
	json_t *o;

	runs_id_text(run, id);
	if (token_text == NULL) {
		duskcourt_serialise(s, bytes);
		sealed = runs_seal(req->app->keys, GAME_DUSKCOURT, run, step, bytes, sizeof bytes);
		if (sealed == NULL)
			return NULL;
		token_text = sealed;
	}
	o = json_object();
	json_object_set_new_nocheck(o, "game", json_string_nocheck("duskcourt"));
	json_object_set_new_nocheck(o, "runId", json_string_nocheck(id));
	json_object_set_new_nocheck(o, "stateToken", json_string_nocheck(token_text));
	json_object_set_new_nocheck(o, "state", duskcourt_state_json(s));
	json_object_set_new_nocheck(o, "legalActions", duskcourt_legal_json(s));
	free(sealed);
	if (o != NULL && x->job.check_on)
		json_object_set_new(o, "agent_check", agent_fresh_json(&x->job.fresh, store_now_ms()));
	return o;
}

/* The head as stored (409s, state). */
static bool
head_state(struct request *req, struct dc_ctx *x, struct duskcourt_state *s)
{
	if (!duskcourt_deserialise(s, x->job.head.state, x->job.head.nstate, NULL, 0)) {
		request_reply_error(req, API_ERR_INTERNAL, "the stored run does not read back");
		return false;
	}
	return true;
}

static void
reply_stale(struct request *req, struct dc_ctx *x)
{
	struct duskcourt_state head;

	if (head_state(req, x, &head))
		games_reply_with_body(req, API_ERR_STALE_STATE_TOKEN, NULL,
		    body_for(req, x, x->job.head.id, x->job.head.step, &head, NULL));
}

/* ---- init ---- */

static void
init_done(struct request *req)
{
	struct dc_ctx *x = req->ctx;

	if (req->job.status != STORE_COMMITTED) {
		request_reply_error(req, API_ERR_INTERNAL, "the run could not be stored");
		return;
	}
	request_reply_json(req, 200, body_for(req, x, x->run.id, 0, &x->after, NULL));
}

static int
init_job(struct store_conn *c, void *arg)
{
	struct dc_ctx *x = arg;

	if (x->job.check_on && agent_fresh_store(c, &x->job.fresh) != 0)
		return -1;
	return store_run_insert(c, &x->run);
}

void
handle_duskcourt_init(struct request *req)
{
	struct account_ref acct = { 0 };
	struct duskcourt_solver *sv;
	struct dc_ctx *x;
	enum auth_result auth;
	int64_t seed;
	bool chosen;

	if (!games_read_seed(req, &seed, &chosen))
		return;
	if ((auth = auth_bearer(req, false, &acct)) == AUTH_FAILED)
		return;
	if ((x = ctx_new(req)) == NULL)
		return;
	x->job.game = GAME_DUSKCOURT;
	x->job.check_on = req->app->cfg->agent_check[GAME_DUSKCOURT];
	if (x->job.check_on)
		agent_fresh_make(&x->job.fresh, store_now_ms());
	sv = solver_for_thread();
	if (sv == NULL || !duskcourt_init(&x->after, (uint64_t)seed, sv, x->reason, sizeof x->reason)) {
		request_reply_error(req, API_ERR_INTERNAL, "the court could not be dealt");
		return;
	}
	duskcourt_serialise(&x->after, x->bytes);
	x->run.game = "duskcourt";
	x->run.rules = ENGINE_RULES_DUSKCOURT;
	x->run.account_id = auth == AUTH_OK ? acct.id : 0;
	x->run.seed = seed;
	x->run.seed_chosen = chosen;
	x->run.state = x->bytes;
	x->run.nstate = sizeof x->bytes;
	summary(&x->after, &x->run.sum);
	x->run.now = store_now_ms();
	request_defer(req, init_job, x, init_done);
}

/* ---- action ---- */

static void
action_done(struct request *req)
{
	struct dc_ctx *x = req->ctx;

	if (x->job.verdict == RUN_STALE && req->job.status == STORE_COMMITTED) {
		reply_stale(req, x);
		return;
	}
	if (x->job.verdict == RUN_REFUSED && req->job.status == STORE_COMMITTED) {
		games_reply_with_body(req, API_ERR_ILLEGAL_ACTION, x->reason,
		    body_for(req, x, x->job.tok.run, x->job.tok.step, &x->before, x->sent_token));
		return;
	}
	if (games_reply_common(req, &x->job, NULL))
		return;
	/* Applied, or a retry of the newest step: the same state either way. */
	request_reply_json(req, 200, body_for(req, x, x->job.tok.run, x->job.tok.step + 1, &x->after, NULL));
}

void
handle_duskcourt_action(struct request *req)
{
	static const char *const fields[] = { "stateToken", "action", NULL };
	struct account_ref acct;
	struct duskcourt_action a;
	struct duskcourt_solver *sv;
	char msg[JSONBODY_MSG_MAX];
	const char *text;
	const json_t *action;
	json_t *canon;
	char *dumped;
	struct dc_ctx *x;

	if (!jsonbody_known(req->json, fields, msg, sizeof msg) ||
	    !jsonbody_string(req->json, "stateToken", &text, msg, sizeof msg)) {
		request_reply_error(req, API_ERR_INVALID_REQUEST, msg);
		return;
	}
	action = json_object_get(req->json, "action");
	if (action == NULL) {
		request_reply_error(req, API_ERR_INVALID_REQUEST, "missing field 'action'");
		return;
	}
	if (auth_bearer(req, false, &acct) == AUTH_FAILED || (x = ctx_new(req)) == NULL)
		return;
	games_prepare_check(req, &x->job, GAME_DUSKCOURT);
	x->job.kind = RUN_ACTION;
	x->sent_token = text;
	games_open_token(req, &x->job, GAME_DUSKCOURT, text);
	if (x->job.tok_err == TOKEN_OK &&
	    !duskcourt_deserialise(&x->before, x->job.tok.state, x->job.tok.nstate, NULL, 0))
		x->job.tok_err = TOKEN_ERR_PAYLOAD;
	if (x->job.tok_err == TOKEN_OK) {
		x->after = x->before;
		if (!duskcourt_action_from_json(action, &a, x->reason, sizeof x->reason))
			x->job.refused = true;
		else if ((sv = solver_for_thread()) == NULL) {
			request_reply_error(req, API_ERR_INTERNAL, "out of memory");
			return;
		} else if (!duskcourt_apply(&x->after, &a, sv, x->reason, sizeof x->reason))
			x->job.refused = true;
		if (!x->job.refused) {
			canon = duskcourt_action_json(&a);
			dumped = canon ? json_dumps(canon, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
			json_decref(canon);
			if (dumped == NULL || strlen(dumped) >= sizeof x->action) {
				free(dumped);
				request_reply_error(req, API_ERR_INTERNAL, NULL);
				return;
			}
			snprintf(x->action, sizeof x->action, "%s", dumped);
			free(dumped);
			duskcourt_serialise(&x->after, x->bytes);
			x->job.adv.nmoves = 1;
			x->job.adv.actions[0] = x->action;
			x->job.adv.state = x->bytes;
			x->job.adv.nstate = sizeof x->bytes;
			summary(&x->after, &x->job.adv.sum);
			runs_fingerprint(x->job.adv.fp, x->action, strlen(x->action));
		}
	}
	request_defer(req, runs_job, &x->job, action_done);
}

/* ---- state ---- */

static void
state_done(struct request *req)
{
	struct dc_ctx *x = req->ctx;
	struct duskcourt_state head;

	if (x->job.verdict == RUN_STALE && req->job.status == STORE_COMMITTED) {
		reply_stale(req, x);
		return;
	}
	if (games_reply_common(req, &x->job, NULL))
		return;
	if (head_state(req, x, &head))
		request_reply_json(req, 200, body_for(req, x, x->job.head.id, x->job.head.step, &head,
		    x->sent_token));
}

void
handle_duskcourt_state(struct request *req)
{
	static const char *const fields[] = { "stateToken", NULL };
	struct account_ref acct;
	const char *text;
	struct dc_ctx *x;

	if ((text = games_read_token(req, fields)) == NULL)
		return;
	if (auth_bearer(req, false, &acct) == AUTH_FAILED || (x = ctx_new(req)) == NULL)
		return;
	games_prepare_check(req, &x->job, GAME_DUSKCOURT);
	x->job.kind = RUN_STATE;
	x->sent_token = text;
	games_open_token(req, &x->job, GAME_DUSKCOURT, text);
	request_defer(req, runs_job, &x->job, state_done);
}

/* ---- finish ---- */

static char *
certify(struct run_job *j, struct store_conn *c, const struct store_run_head *head)
{
	struct duskcourt_state s;

	if (!duskcourt_deserialise(&s, head->state, head->nstate, NULL, 0))
		return NULL;
	return runs_certify(j, c, head, ENGINE_RULES_DUSKCOURT, duskcourt_final_json(&s),
	    json_pack("{s:I, s:i, s:i}", "score", (json_int_t)s.score, "rung", (int)s.rung,
	    "lives", (int)s.lives));
}

static void
finish_done(struct request *req)
{
	struct dc_ctx *x = req->ctx;
	struct duskcourt_state head;
	char id[24];
	json_t *o;

	if (x->job.verdict == RUN_STALE && req->job.status == STORE_COMMITTED) {
		reply_stale(req, x);
		return;
	}
	if (games_reply_common(req, &x->job, NULL))
		return;
	if (!head_state(req, x, &head))
		return;
	runs_id_text(x->job.head.id, id);
	o = json_pack("{s:s, s:s, s:o, s:{s:i, s:s}, s:s, s:s}", "game", "duskcourt", "runId", id,
	    "final", duskcourt_final_json(&head), "review", "rating", x->job.rating,
	    "text", x->job.review, "certificate", x->job.certificate,
	    "verifyWith", "/api/v1/keys");
	if (o != NULL) {
		json_object_set_new(json_object_get(o, "final"), "seed", json_integer((json_int_t)head.seed));
		json_object_set_new(json_object_get(o, "final"), "moves",
		    json_integer((json_int_t)x->job.head.step));
		if (x->job.check_on)
			json_object_set_new(o, "agent_check", agent_fresh_json(&x->job.fresh, store_now_ms()));
	}
	request_reply_json(req, 200, o);
}

void
handle_duskcourt_finish(struct request *req)
{
	static const char *const fields[] = { "stateToken", "rating", "review", NULL };
	struct account_ref acct;
	const char *text;
	struct dc_ctx *x;
	int rating;
	const char *review;

	if ((text = games_read_token(req, fields)) == NULL || !games_read_review(req, &rating, &review))
		return;
	if (auth_bearer(req, false, &acct) == AUTH_FAILED || (x = ctx_new(req)) == NULL)
		return;
	games_prepare_check(req, &x->job, GAME_DUSKCOURT);
	x->job.kind = RUN_FINISH;
	x->job.rating = rating;
	x->job.review = review;
	x->job.certify = certify;
	x->sent_token = text;
	games_open_token(req, &x->job, GAME_DUSKCOURT, text);
	request_defer(req, runs_job, &x->job, finish_done);
}

/* ---- rules ---- */

void
handle_duskcourt_rules(struct request *req)
{
	json_t *o = duskcourt_rules_json();

	if (o != NULL)
		json_object_set_new(o, "agentCheck", json_boolean(req->app->cfg->agent_check[GAME_DUSKCOURT]));
	request_reply_json(req, 200, o);
}
