/*
 * handlers_stackfall.c: Stackfall over HTTP in both shapes.
 *
 * Token routes (/api/games/stackfall/...) carry the state in a stateToken
 * and run the commands here, on the token's state, before the store job
 * decides newest / retry / stale. The seed's own routes
 * (/games/stackfall/api/...) are bound to the account of the Bearer key:
 * its newest run is the current one, and the commands run inside the job
 * on the stored head (there is no token to run them on).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "games.h"
#include "handlers.h"
#include "jsonbody.h"
#include "stackfall_json.h"

struct sf_ctx {
	struct run_job          job;
	struct stackfall        before, after;
	bool                    seed_route;
	const char             *sent_token;   /* borrowed from the request */
	const char             *text;         /* the command text, or NULL for an action */
	struct stackfall_cmd    cmds[STACKFALL_CMD_MAX];
	size_t                  ncmds;
	enum api_error          refusal;      /* when job.refused */
	char                    refusal_msg[ENGINE_REASON_MAX];
	bool                    broken;       /* the stored state did not read back */
	struct stackfall_batch  batch;
	char                    moves[STACKFALL_CMD_MAX][48];
	uint8_t                 bytes[STACKFALL_SERIAL_MAX];
	size_t                  nbytes;
	/* init and new */
	struct store_run_new    run;
	struct store_run_advance abandon;     /* new: the account's unfinished run */
	struct stackfall        abandoned;
	uint8_t                 abytes[STACKFALL_SERIAL_MAX];
	char                    amove[32];
	bool                    did_abandon;
};

static void
ctx_free(void *p)
{
	struct sf_ctx *x = p;

	runs_job_cleanup(&x->job);
	free(x);
}

static struct sf_ctx *
ctx_new(struct request *req, bool seed_route)
{
	struct sf_ctx *x = calloc(1, sizeof *x);

	if (x == NULL) {
		request_reply_error(req, API_ERR_INTERNAL, "out of memory");
		return NULL;
	}
	x->seed_route = seed_route;
	req->ctx = x;
	req->ctx_free = ctx_free;
	return x;
}

static void
summary(const struct stackfall *g, struct store_run_summary *sum)
{
	sum->status = stackfall_status_name(g->status);
	sum->over = g->status == STACKFALL_OVER;
	sum->end_reason = stackfall_end_name(g->end_reason);
	sum->score = g->score;
	sum->lines = g->lines;
	sum->pieces = g->placed;
	sum->rung = sum->lives = -1;
}

/* Runs the request's commands on `from` into x->after and describes the
 * outcome in the job: refused (first command failed, or the request as a
 * whole), or the moves to store. */
static void
compute(struct sf_ctx *x, const struct stackfall *from)
{
	struct run_job *j = &x->job;
	char canon[4096];
	size_t i, n;

	x->before = *from;
	x->after = *from;
	if (j->refused)
		return; /* empty or too many: decided when parsing */
	stackfall_batch_run(&x->after, x->cmds, x->ncmds, &x->batch);
	if (x->batch.failed && x->batch.nrun == 1) {
		const struct stackfall_result *r = &x->batch.results[0];

		j->refused = true;
		x->refusal = r->outcome == STACKFALL_GAME_OVER ? API_ERR_GAME_OVER : API_ERR_INVALID_COMMAND;
		snprintf(x->refusal_msg, sizeof x->refusal_msg, "%s", r->message);
		x->after = *from;
		return;
	}
	for (i = 0; i < x->batch.nmoves; i++) {
		json_t *m = stackfall_move_json(&x->batch.results[x->batch.moves[i]].cmd);
		char *s = m ? json_dumps(m, JSON_COMPACT | JSON_SORT_KEYS) : NULL;

		json_decref(m);
		snprintf(x->moves[i], sizeof x->moves[i], "%s", s ? s : "{}");
		free(s);
		j->adv.actions[i] = x->moves[i];
	}
	j->adv.nmoves = x->batch.nmoves;
	x->nbytes = stackfall_encode(&x->after, x->bytes, sizeof x->bytes);
	j->adv.state = x->bytes;
	j->adv.nstate = x->nbytes;
	summary(&x->after, &j->adv.sum);
	n = stackfall_cmd_canonical(x->cmds, x->ncmds, x->text ? x->text : "", canon, sizeof canon);
	runs_fingerprint(j->adv.fp, canon, n < sizeof canon ? n : sizeof canon - 1);
}

/* The seed routes: the commands run on the stored head, inside the job. */
static void
apply_on_head(struct run_job *j, const struct store_run_head *head)
{
	struct sf_ctx *x = j->game_ctx;
	struct stackfall g;

	if (!stackfall_decode(&g, head->state, head->nstate)) {
		x->broken = true;
		j->refused = true;
		return;
	}
	compute(x, &g);
}

/* The response: game, runId, stateToken, the game fields, results and
 * agent_check. */
static json_t *
body_for(struct request *req, struct sf_ctx *x, int64_t run, int64_t step, const struct stackfall *g,
    const char *token_text, bool with_results)
{
	uint8_t bytes[STACKFALL_SERIAL_MAX];
	char id[24], *sealed = NULL;
	json_t *o, *fields;

	runs_id_text(run, id);
	if (token_text == NULL) {
		size_t n = stackfall_encode(g, bytes, sizeof bytes);

		sealed = runs_seal(req->app->keys, GAME_STACKFALL, run, step, bytes, n);
		if (sealed == NULL)
			return NULL;
		token_text = sealed;
	}
	o = json_object();
	json_object_set_new_nocheck(o, "game", json_string_nocheck("stackfall"));
	json_object_set_new_nocheck(o, "runId", json_string_nocheck(id));
	json_object_set_new_nocheck(o, "stateToken", json_string_nocheck(token_text));
	free(sealed);
	fields = stackfall_fields_json(g);
	if (o == NULL || fields == NULL) {
		json_decref(o);
		json_decref(fields);
		return NULL;
	}
	json_object_update(o, fields);
	json_decref(fields);
	json_object_set_new(o, "results", with_results ? stackfall_results_json(&x->batch, x->text) :
	    json_array());
	if (x->job.check_on)
		json_object_set_new(o, "agent_check", agent_fresh_json(&x->job.fresh, store_now_ms()));
	return o;
}

static bool
decode_head(struct request *req, struct sf_ctx *x, struct stackfall *g)
{
	if (!stackfall_decode(g, x->job.head.state, x->job.head.nstate)) {
		request_reply_error(req, API_ERR_INTERNAL, "the stored run does not read back");
		return false;
	}
	return true;
}

static void
reply_stale(struct request *req, struct sf_ctx *x)
{
	struct stackfall head;

	if (decode_head(req, x, &head))
		games_reply_with_body(req, API_ERR_STALE_STATE_TOKEN, NULL,
		    body_for(req, x, x->job.head.id, x->job.head.step, &head, NULL, false));
}

/* ---- reading a request ---- */

/* Bearer: required on the seed routes, optional (attribution) on the token
 * routes. Then the agent check, when on. */
static struct sf_ctx *
begin(struct request *req, bool seed_route, enum run_kind kind, struct account_ref *acct)
{
	enum auth_result a = auth_bearer(req, seed_route, acct);
	struct sf_ctx *x;

	if (a == AUTH_FAILED || (x = ctx_new(req, seed_route)) == NULL)
		return NULL;
	if (a != AUTH_OK)
		acct->id = 0;
	x->job.kind = kind;
	x->job.game_ctx = x;
	x->job.account_id = acct->id;
	games_prepare_check(req, &x->job, GAME_STACKFALL);
	return x;
}

/* The shape of an action request: {"command": text} or {"action": {...}},
 * checked with the rest of the body, before the key and the agent check.
 * Returns false after a 400. */
static bool
commands_shape_ok(struct request *req)
{
	const json_t *c = json_object_get(req->json, "command");
	const json_t *a = json_object_get(req->json, "action");

	if (c != NULL && a != NULL) {
		request_reply_error(req, API_ERR_INVALID_REQUEST,
		    "send either 'command' (text) or 'action' (an object), not both");
		return false;
	}
	if (c == NULL && a == NULL) {
		request_reply_error(req, API_ERR_INVALID_REQUEST,
		    "missing field 'command' (for example \"place 1 4\") or 'action'");
		return false;
	}
	if (c != NULL && !json_is_string(c)) {
		request_reply_error(req, API_ERR_INVALID_REQUEST, "field 'command' must be a string");
		return false;
	}
	return true;
}

/* Parses the request's commands into x (the shape was checked). Empty or
 * too many is a refusal decided here and answered after the token. */
static void
read_commands(struct request *req, struct sf_ctx *x)
{
	const json_t *c = json_object_get(req->json, "command");
	const json_t *a = json_object_get(req->json, "action");
	size_t n = 0;

	if (c != NULL) {
		x->text = json_string_value(c);
		switch (stackfall_cmd_parse(x->text, json_string_length(c), x->cmds, STACKFALL_CMD_MAX, &n)) {
		case STACKFALL_PARSE_EMPTY:
			x->job.refused = true;
			x->refusal = API_ERR_EMPTY_COMMAND;
			snprintf(x->refusal_msg, sizeof x->refusal_msg,
			    "the request holds no command: try \"options\" or \"place 1 4\"");
			break;
		case STACKFALL_PARSE_TOO_MANY:
			x->job.refused = true;
			x->refusal = API_ERR_TOO_MANY_COMMANDS;
			snprintf(x->refusal_msg, sizeof x->refusal_msg,
			    "more than %d commands in one request: nothing was run", STACKFALL_CMD_MAX);
			break;
		case STACKFALL_PARSE_OK:
			break;
		}
		x->ncmds = x->job.refused ? 0 : n;
	} else {
		stackfall_action_from_json(a, &x->cmds[0]);
		x->ncmds = 1;
	}
}

/* ---- init and new ---- */

static int
new_job(struct store_conn *c, void *arg)
{
	struct sf_ctx *x = arg;
	struct store_run_head head;
	int64_t id;
	int rc;

	if (x->job.check_on && agent_fresh_store(c, &x->job.fresh) != 0)
		return -1;
	if (x->seed_route) {
		/* One current run per account: an unfinished one is abandoned. */
		rc = store_run_latest(c, x->run.account_id, "stackfall", &id);
		if (rc < 0)
			return -1;
		if (rc == 1 && (rc = store_run_head(c, id, &head)) < 0)
			return -1;
		if (rc == 1 && !head.over && stackfall_decode(&x->abandoned, head.state, head.nstate)) {
			json_t *m;
			char *s;

			stackfall_abandon(&x->abandoned, NULL);
			m = json_pack("{s:s}", "type", "abandon");
			s = m ? json_dumps(m, JSON_COMPACT) : NULL;
			json_decref(m);
			if (s == NULL)
				return -1;
			snprintf(x->amove, sizeof x->amove, "%s", s);
			free(s);
			memset(&x->abandon, 0, sizeof x->abandon);
			x->abandon.id = id;
			x->abandon.from_step = head.step;
			x->abandon.nmoves = 1;
			x->abandon.actions[0] = x->amove;
			x->abandon.nstate = stackfall_encode(&x->abandoned, x->abytes, sizeof x->abytes);
			x->abandon.state = x->abytes;
			summary(&x->abandoned, &x->abandon.sum);
			x->abandon.now = store_now_ms();
			if (store_run_advance(c, &x->abandon) != 0)
				return -1;
			x->did_abandon = true;
		}
	}
	return store_run_insert(c, &x->run);
}

static void
new_done(struct request *req)
{
	struct sf_ctx *x = req->ctx;

	if (req->job.status != STORE_COMMITTED) {
		request_reply_error(req, API_ERR_INTERNAL, "the run could not be stored");
		return;
	}
	request_reply_json(req, 200, body_for(req, x, x->run.id, 0, &x->after, NULL, false));
}

static void
start_run(struct request *req, bool seed_route)
{
	struct account_ref acct = { 0 };
	struct sf_ctx *x;
	int64_t seed;
	bool chosen;

	if (!games_read_seed(req, &seed, &chosen))
		return;
	if ((x = begin(req, seed_route, RUN_ACTION, &acct)) == NULL)
		return;
	if (!stackfall_init(&x->after, (uint64_t)seed)) {
		request_reply_error(req, API_ERR_INTERNAL, "the game could not start");
		return;
	}
	x->nbytes = stackfall_encode(&x->after, x->bytes, sizeof x->bytes);
	x->run.game = "stackfall";
	x->run.rules = ENGINE_RULES_STACKFALL;
	x->run.account_id = acct.id;
	x->run.seed = seed;
	x->run.seed_chosen = chosen;
	x->run.state = x->bytes;
	x->run.nstate = x->nbytes;
	summary(&x->after, &x->run.sum);
	x->run.now = store_now_ms();
	request_defer(req, new_job, x, new_done);
}

/* init and new need no answer to an agent check, but hand out a puzzle
 * like every Stackfall response. */
void
handle_stackfall_init(struct request *req)
{
	start_run(req, false);
}

void
handle_stackfall_new(struct request *req)
{
	start_run(req, true);
}

/* ---- act ---- */

static void
act_done(struct request *req)
{
	struct sf_ctx *x = req->ctx;
	bool ok = req->job.status == STORE_COMMITTED;
	int64_t run = x->job.head.id ? x->job.head.id : x->job.tok.run;

	if (ok && x->broken) {
		request_reply_error(req, API_ERR_INTERNAL, "the stored run does not read back");
		return;
	}
	if (ok && x->job.verdict == RUN_STALE) {
		reply_stale(req, x);
		return;
	}
	if (ok && x->job.verdict == RUN_REFUSED) {
		games_reply_with_body(req, x->refusal, x->refusal_msg, body_for(req, x, run,
		    x->job.tok.step, &x->before, x->seed_route ? NULL : x->sent_token, true));
		return;
	}
	if (games_reply_common(req, &x->job, NULL))
		return;
	if (x->job.verdict == RUN_UNCHANGED)
		request_reply_json(req, 200, body_for(req, x, run, x->job.tok.step, &x->after,
		    x->seed_route ? NULL : x->sent_token, true));
	else /* applied, or a retry of the newest step */
		request_reply_json(req, 200, body_for(req, x, run, x->job.tok.step + (int64_t)x->batch.nmoves,
		    &x->after, NULL, true));
}

static void
act(struct request *req, bool seed_route)
{
	static const char *const token_fields[] = { "stateToken", "command", "action", NULL };
	static const char *const seed_fields[] = { "command", "action", NULL };
	struct account_ref acct = { 0 };
	char msg[JSONBODY_MSG_MAX];
	const char *text = NULL;
	struct sf_ctx *x;

	if (!jsonbody_known(req->json, seed_route ? seed_fields : token_fields, msg, sizeof msg) ||
	    (!seed_route && !jsonbody_string(req->json, "stateToken", &text, msg, sizeof msg))) {
		request_reply_error(req, API_ERR_INVALID_REQUEST, msg);
		return;
	}
	if (!commands_shape_ok(req) || (x = begin(req, seed_route, RUN_ACTION, &acct)) == NULL)
		return;
	read_commands(req, x);
	if (seed_route) {
		x->job.apply = apply_on_head;
	} else {
		x->sent_token = text;
		games_open_token(req, &x->job, GAME_STACKFALL, text);
		if (x->job.tok_err == TOKEN_OK) {
			struct stackfall g;

			if (!stackfall_decode(&g, x->job.tok.state, x->job.tok.nstate))
				x->job.tok_err = TOKEN_ERR_PAYLOAD;
			else
				compute(x, &g);
		}
	}
	request_defer(req, runs_job, &x->job, act_done);
}

void
handle_stackfall_action(struct request *req)
{
	act(req, false);
}

void
handle_stackfall_act(struct request *req)
{
	act(req, true);
}

/* ---- state ---- */

static void
state_done(struct request *req)
{
	struct sf_ctx *x = req->ctx;
	struct stackfall head;

	if (req->job.status == STORE_COMMITTED && x->job.verdict == RUN_STALE) {
		reply_stale(req, x);
		return;
	}
	if (games_reply_common(req, &x->job, NULL))
		return;
	if (decode_head(req, x, &head))
		request_reply_json(req, 200, body_for(req, x, x->job.head.id, x->job.head.step, &head,
		    x->seed_route ? NULL : x->sent_token, false));
}

static void
state(struct request *req, bool seed_route)
{
	static const char *const fields[] = { "stateToken", NULL };
	struct account_ref acct = { 0 };
	const char *text = NULL;
	struct sf_ctx *x;

	if (!seed_route && (text = games_read_token(req, fields)) == NULL)
		return;
	if ((x = begin(req, seed_route, RUN_STATE, &acct)) == NULL)
		return;
	if (!seed_route) {
		x->sent_token = text;
		games_open_token(req, &x->job, GAME_STACKFALL, text);
	}
	request_defer(req, runs_job, &x->job, state_done);
}

void
handle_stackfall_state(struct request *req)
{
	state(req, false);
}

void
handle_stackfall_api_state(struct request *req)
{
	state(req, true);
}

/* ---- finish ---- */

static char *
certify(struct run_job *j, struct store_conn *c, const struct store_run_head *head)
{
	struct stackfall g;
	const char *end;

	if (!stackfall_decode(&g, head->state, head->nstate))
		return NULL;
	end = stackfall_end_name(g.end_reason);
	return runs_certify(j, c, head, ENGINE_RULES_STACKFALL, stackfall_final_json(&g),
	    json_pack("{s:i, s:i, s:i, s:s}", "score", (int)g.score, "lines", (int)g.lines,
	    "pieces", (int)g.placed, "end_reason", end ? end : ""));
}

static void
finish_done(struct request *req)
{
	struct sf_ctx *x = req->ctx;
	struct stackfall g;
	json_t *o, *final;
	char id[24];

	if (req->job.status == STORE_COMMITTED && x->job.verdict == RUN_STALE) {
		reply_stale(req, x);
		return;
	}
	if (games_reply_common(req, &x->job, NULL))
		return;
	if (!decode_head(req, x, &g))
		return;
	runs_id_text(x->job.head.id, id);
	final = stackfall_final_json(&g);
	if (final != NULL) {
		json_object_set_new(final, "end_reason", stackfall_end_name(g.end_reason) ?
		    json_string(stackfall_end_name(g.end_reason)) : json_null());
		json_object_set_new(final, "seed", json_integer((json_int_t)x->job.head.seed));
		json_object_set_new(final, "moves", json_integer((json_int_t)x->job.head.step));
	}
	o = json_pack("{s:s, s:s, s:o, s:{s:i, s:s}, s:s, s:s}", "game", "stackfall", "runId", id,
	    "final", final, "review", "rating", x->job.rating, "text", x->job.review,
	    "certificate", x->job.certificate, "verifyWith", "/api/v1/keys");
	if (o != NULL && x->job.check_on)
		json_object_set_new(o, "agent_check", agent_fresh_json(&x->job.fresh, store_now_ms()));
	request_reply_json(req, 200, o);
}

static void
finish(struct request *req, bool seed_route)
{
	static const char *const token_fields[] = { "stateToken", "rating", "review", NULL };
	static const char *const seed_fields[] = { "rating", "review", NULL };
	struct account_ref acct = { 0 };
	char msg[JSONBODY_MSG_MAX];
	const char *text = NULL, *review;
	struct sf_ctx *x;
	int rating;

	if (!jsonbody_known(req->json, seed_route ? seed_fields : token_fields, msg, sizeof msg) ||
	    (!seed_route && !jsonbody_string(req->json, "stateToken", &text, msg, sizeof msg))) {
		request_reply_error(req, API_ERR_INVALID_REQUEST, msg);
		return;
	}
	if (!games_read_review(req, &rating, &review))
		return;
	if ((x = begin(req, seed_route, RUN_FINISH, &acct)) == NULL)
		return;
	x->job.rating = rating;
	x->job.review = review;
	x->job.certify = certify;
	if (!seed_route) {
		x->sent_token = text;
		games_open_token(req, &x->job, GAME_STACKFALL, text);
	}
	request_defer(req, runs_job, &x->job, finish_done);
}

void
handle_stackfall_finish(struct request *req)
{
	finish(req, false);
}

void
handle_stackfall_api_finish(struct request *req)
{
	finish(req, true);
}

/* ---- rules ---- */

static int
fresh_job(struct store_conn *c, void *arg)
{
	return agent_fresh_store(c, arg);
}

static void
rules_done(struct request *req)
{
	struct sf_ctx *x = req->ctx;
	json_t *o = stackfall_rules_json();

	if (req->job.status != STORE_COMMITTED) {
		json_decref(o);
		request_reply_error(req, API_ERR_INTERNAL, NULL);
		return;
	}
	if (o != NULL)
		json_object_set_new(o, "agent_check", agent_fresh_json(&x->job.fresh, store_now_ms()));
	request_reply_json(req, 200, o);
}

void
handle_stackfall_rules(struct request *req)
{
	struct sf_ctx *x;
	json_t *o;

	if (!req->app->cfg->agent_check[GAME_STACKFALL]) {
		o = stackfall_rules_json();
		request_reply_json(req, 200, o);
		return;
	}
	if ((x = ctx_new(req, false)) == NULL)
		return;
	x->job.check_on = true;
	agent_fresh_make(&x->job.fresh, store_now_ms());
	request_defer(req, fresh_job, &x->job.fresh, rules_done);
}
