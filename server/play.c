/*
 * play.c: the game pipeline (play.h). The job reads the head with the
 * writer's own connection, so what it decides and what it writes are one
 * transaction: two requests on the same head can never both advance it.
 * Nothing here knows a game: every game-specific step is a call through
 * the descriptor.
 */
#include "play.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

#include "app.h"
#include "auth.h"
#include "defer.h"
#include "play_facts.h"
#include "jsonbody.h"
#include "keys.h"
#include "throttle.h"
#include "run_result.h"
#include "play_workspace.h"
#include "quota_charge.h"
#include "numtext.h"

static void
play_free(void *arg)
{
	struct play *p = arg;

	free(p->certificate);
	p->certificate = NULL;
	free(p);
}


/* play_new leaves exactly turn and bytes uncleared: they sit together,
 * right before adv. */
_Static_assert(offsetof(struct play, bytes) > offsetof(struct play, turn) &&
    offsetof(struct play, adv) == offsetof(struct play, bytes) + GAME_STATE_MAX,
    "struct play: turn, then bytes, then adv");

struct play *
play_new(struct request *req, const struct game *g, enum play_kind kind, bool by_account)
{
	/* The game's scratch rides behind the struct: one allocation. Only
	 * what is read before it is written is cleared: everything but the
	 * turn's moves and canonical text (compute() resets the turn's header)
	 * and the encoded state, and of the scratch what the game's
	 * scratch_init names. A calloc cleared 17-67 KB a request. */
	size_t size = sizeof(struct play) + g->scratch_size;
	struct play *p = malloc(size);

	if (p == NULL) {
		request_reply_error(req, API_ERR_INTERNAL, "out of memory");
		return NULL;
	}
	memset(p, 0, offsetof(struct play, turn));
	memset(&p->adv, 0, sizeof *p - offsetof(struct play, adv));
	game_turn_reset(&p->turn);
	if (g->scratch_size > 0)
		game_scratch_ready(g, p + 1);
	p->game = g;
	p->kind = kind;
	p->by_account = by_account;
	p->keys = app_keys(req->app);
	p->scratch = g->scratch_size > 0 ? (void *)(p + 1) : NULL;
	req->ctx = p;
	req->ctx_free = play_free;
	return p;
}

bool
play_env(const struct game *g, struct game_env *env)
{
	memset(env, 0, sizeof *env);
	env->work = play_workspace_for_thread(g);
	env->shared = play_shared;
	return g->work_size == 0 || env->work != NULL;
}

void
play_id_text(int64_t id, char out[GAME_ID_TEXT_MAX])
{
	numtext_i64(out, id);
}

void
play_who(struct request *req, int64_t account_id, struct agent_who *who)
{
	struct client_key k;

	memset(who, 0, sizeof *who);
	if (account_id > 0)
		snprintf(who->account, sizeof who->account, "a:%lld", (long long)account_id);
	request_client_key(req, &k);
	client_key_text(&k, who->address);
}

void
play_fresh_puzzle(struct request *req, int64_t account_id, request_cont cont)
{
	struct agent_fresh *f = calloc(1, sizeof *f);
	struct agent_who who;

	if (f == NULL) {
		request_reply_error(req, API_ERR_INTERNAL, "out of memory");
		return;
	}
	req->ctx = f;
	req->ctx_free = free;
	play_who(req, account_id, &who);
	agent_fresh_make(f, store_now_ms(), &who, app_keys(req->app));
	defer_to_store(req, agent_fresh_job, f, cont);
}

static json_t *show_limited(struct request *req, void *arg);

/* The agent check of p's game: on? When on, reads the answer and makes the
 * fresh puzzle, both for p->account_id and the client's address. False
 * after a 429 when an answer came from an account or address that is over
 * its wrong-answer limit (the answer is not judged, the puzzle not spent). */
static bool
prepare_check(struct request *req, struct play *p)
{
	struct agent_who who;

	p->check_on = req->app->cfg->agent_check[p->game->id];
	if (!p->check_on)
		return true;
	play_who(req, p->account_id, &who);
	agent_answer_read(request_header(req, "X-Agent-Check"), request_header(req, "X-Agent-Answer"),
	    req->json, &p->answer);
	if (p->answer.given && !throttle_wrong_allowed(req, p->account_id, show_limited, p))
		return false;
	p->answer.who = who;
	agent_fresh_make(&p->fresh, store_now_ms(), &who, p->keys);
	return true;
}

/* Opens the stateToken sent (p->sent_token) into p. */
static void
open_token(struct request *req, struct play *p)
{
	const char *text = p->sent_token;

	p->tok_err = token_open(p->keys, p->game->id, text, strlen(text), (int64_t)time(NULL),
	    req->app->cfg->token_ttl, &p->tok);
	if (p->tok_err == TOKEN_OK && !p->game->decode(&p->before, p->tok.state, p->tok.nstate))
		p->tok_err = TOKEN_ERR_PAYLOAD;
}

/* BLAKE2b-128 of a request's canonical text: what a retry must repeat. */
static void
fingerprint(uint8_t out[STORE_FP_BYTES], const char *canonical)
{
	crypto_generichash(out, STORE_FP_BYTES, (const uint8_t *)canonical, strlen(canonical), NULL, 0);
}

/* Plays p->scratch's request on p->before into p->after and p->turn, and
 * fills p->adv with what to store. env is the calling thread's. */
static void
compute(struct play *p, const struct game_env *env)
{
	struct game_turn *t = &p->turn;
	size_t i, n;

	memcpy(&p->after, &p->before, sizeof p->after);
	game_turn_reset(t);
	p->game->play(&p->after, p->scratch, env, t);
	if (t->refused) {
		memcpy(&p->after, &p->before, sizeof p->after);
		return;
	}
	if (t->nmoves == 0)
		return;
	n = p->game->encode(&p->after, p->bytes, sizeof p->bytes);
	if (n == 0 || n > sizeof p->bytes) {
		t->refused = true;
		t->refusal = API_ERR_INTERNAL;
		snprintf(t->reason, sizeof t->reason, "the state does not fit a token");
		return;
	}
	for (i = 0; i < t->nmoves && i < STORE_MOVES_MAX; i++)
		p->adv.actions[i] = t->moves[i];
	p->adv.nmoves = t->nmoves;
	p->adv.state = p->bytes;
	p->adv.nstate = n;
	p->game->summary(&p->after, &p->adv.sum);
	fingerprint(p->adv.fp, t->canon);
}

/* ---- the store job ---- */

/* What a finished run is, for run_result.h (st its final state). */
static void
result_of(const struct play *p, const void *st, struct run_result *r)
{
	r->game = p->game;
	r->state = st;
	r->id = p->head.id;
	r->seed = p->head.seed;
	r->account = p->head.account;
	r->moves = p->head.step;
}

static enum store_result
finish(struct play *p, struct store_conn *c)
{
	struct store_run_finish f;
	game_state st;
	enum store_result rc;

	if (!p->head.over) {
		p->verdict = PLAY_NOT_OVER;
		return STORE_OK;
	}
	if (p->head.finished_at != 0) {
		p->verdict = PLAY_ALREADY_FINISHED;
		return STORE_OK;
	}
	/* A batch run again after a rollback (PostgreSQL) signs again. */
	free(p->certificate);
	p->certificate = NULL;
	if (p->game->decode(&st, p->head.state, p->head.nstate)) {
		struct run_result r;

		result_of(p, &st, &r);
		p->certificate = run_result_certificate(p->keys, &r, store_run_actions(c, p->head.id),
		    (int64_t)time(NULL));
	}
	if (p->certificate == NULL) {
		p->verdict = PLAY_ERROR;
		return STORE_OK;
	}
	memset(&f, 0, sizeof f);
	f.id = p->head.id;
	f.account_id = p->head.account_id;
	f.game = p->game->name;
	f.rating = p->rating;
	f.review = p->review;
	f.certificate = p->certificate;
	f.now = store_now_ms();
	/* A run without an account shows its review once it was played a
	 * little: a flood of one-move runs finished with a review fills no
	 * page of the feed. */
	f.listed = p->head.account_id != 0 || p->head.step >= STORE_REVIEWS_ANON_MIN_STEPS;
	rc = store_run_finish(c, &f);
	if (rc == STORE_ERROR)
		return STORE_ERROR;
	p->verdict = rc == STORE_OK ? PLAY_FINISHED : PLAY_ALREADY_FINISHED;
	return STORE_OK;
}

/* The seed's routes: an account's unfinished run ends as abandoned when it
 * starts a new one, with the abandon stored as its last move. */
static enum store_result
abandon_latest(struct play *p, struct store_conn *c)
{
	struct store_run_head head;
	struct store_run_advance a;
	struct game_turn t;
	game_state st;
	uint8_t bytes[GAME_STATE_MAX];
	enum store_result rc;
	int64_t id;

	rc = store_run_latest(c, p->account_id, p->game->name, &id);
	if (rc != STORE_OK)
		return rc == STORE_NOT_FOUND ? STORE_OK : rc;
	if ((rc = store_run_head(c, id, &head)) != STORE_OK)
		return rc == STORE_NOT_FOUND ? STORE_OK : rc;
	if (head.over || !p->game->decode(&st, head.state, head.nstate))
		return STORE_OK;
	memset(&t, 0, sizeof t);
	if (!game_ext(p->game)->abandon(&st, &t) || t.nmoves != 1)
		return STORE_OK;
	memset(&a, 0, sizeof a);
	a.id = id;
	a.from_step = head.step;
	a.nmoves = 1;
	a.actions[0] = t.moves[0];
	a.nstate = p->game->encode(&st, bytes, sizeof bytes);
	if (a.nstate == 0 || a.nstate > sizeof bytes)
		return STORE_ERROR;
	a.state = bytes;
	p->game->summary(&st, &a.sum);
	a.now = store_now_ms();
	if ((rc = store_run_advance(c, &a)) != STORE_OK)
		return STORE_ERROR; /* the writer is the only writer: a conflict is a bug */
	p->abandoned = true;
	return STORE_OK;
}

static enum store_result
init_job(struct play *p, struct store_conn *c)
{
	p->abandoned = false; /* the job may run again after a rollback */
	if (p->by_account && game_ext(p->game)->abandon != NULL && abandon_latest(p, c) != STORE_OK)
		return STORE_ERROR;
	if (store_run_insert(c, &p->run) != STORE_OK)
		return STORE_ERROR;
	p->verdict = PLAY_CREATED;
	return STORE_OK;
}

/* The facts of the moves just stored by a's compare-and-set, each at the
 * step of the move that recorded it; only ever after the head moved, so
 * the facts of a run up to a step are those of its stored moves. */
static enum store_result
record_facts(struct store_conn *c, const struct game *g, const struct store_run_advance *a,
    const struct game_turn *t)
{
	size_t i;

	for (i = 0; i < t->nfacts && i < GAME_MOVES_MAX; i++)
		if (t->facts[i].move >= a->nmoves || store_fact_insert(c, a->id,
		    a->from_step + (int64_t)t->facts[i].move + 1, t->facts[i].bytes, game_ext(g)->fact_bytes) != STORE_OK)
			return STORE_ERROR;
	return STORE_OK;
}

/* Finds the request's run and reads its head into p->head. */
static enum store_result
find_run(struct play *p, struct store_conn *c)
{
	enum store_result rc;
	int64_t id;

	if (p->by_account) {
		rc = store_run_latest(c, p->account_id, p->game->name, &id);
		if (rc == STORE_NOT_FOUND)
			p->verdict = PLAY_NO_RUN;
		if (rc != STORE_OK)
			return rc;
	} else
		id = p->tok.run;
	rc = store_run_head(c, id, &p->head);
	if (rc == STORE_OK && strcmp(p->head.game, p->game->name) != 0)
		rc = STORE_NOT_FOUND;
	if (rc == STORE_NOT_FOUND)
		p->verdict = PLAY_NOT_FOUND;
	return rc;
}

static enum store_result
play_job(struct store_conn *c, void *arg)
{
	struct play *p = arg;
	enum store_result rc;
	int64_t step;

	p->verdict = PLAY_ERROR;
	if (p->kind == PLAY_INIT) {
		if (p->check_on && agent_fresh_store(c, &p->fresh) != STORE_OK)
			return STORE_ERROR;
		return init_job(p, c);
	}
	if (p->check_on) {
		/* Judge before storing the fresh puzzle: storing sweeps expired
		 * ones, and the presented one must still read "expired". */
		if (agent_check_judge(c, &p->answer, store_now_ms(), &p->check) != STORE_OK ||
		    agent_fresh_store(c, &p->fresh) != STORE_OK)
			return STORE_ERROR;
		if (p->check != STORE_CHECK_PASS) {
			/* The seed's routes show the run beside the new puzzle. */
			if (p->by_account && find_run(p, c) == STORE_ERROR)
				return STORE_ERROR;
			p->verdict = PLAY_CHECK_FAILED;
			return STORE_OK;
		}
	}
	if (!p->by_account && p->tok_err != TOKEN_OK) {
		p->verdict = PLAY_TOKEN_BAD;
		if (p->tok_err != TOKEN_ERR_EXPIRED)
			return STORE_OK;
		/* An expired token still names its run (it authenticated). A run
		 * without an account has no way back once its newest token is
		 * past its lifetime: say so. An account's run, or an older token
		 * (a newer one may live), keeps the token error. */
		rc = find_run(p, c);
		if (rc == STORE_ERROR)
			return STORE_ERROR;
		if (rc == STORE_OK && p->head.account_id == 0 && p->head.step == p->tok.step)
			p->verdict = PLAY_EXPIRED;
		else
			p->verdict = PLAY_TOKEN_BAD;
		return STORE_OK;
	}
	rc = find_run(p, c);
	if (rc != STORE_OK)
		return rc == STORE_ERROR ? STORE_ERROR : STORE_OK;
	/* A run begun with an agent key belongs to its account, whatever token
	 * is shown: before the head is compared, so a stale token of someone
	 * else's run learns nothing newer. */
	if (p->head.account_id != 0 && p->account_id != p->head.account_id) {
		p->verdict = p->account_id == 0 ? PLAY_UNAUTHORIZED : PLAY_FORBIDDEN;
		return STORE_OK;
	}
	if (p->by_account) {
		/* The seed's routes act on the head itself. */
		p->tok.run = p->head.id;
		p->tok.step = p->head.step;
		if (!p->game->decode(&p->before, p->head.state, p->head.nstate)) {
			p->verdict = PLAY_ERROR;
			return STORE_OK;
		}
		if (p->kind == PLAY_ACTION) {
			struct game_env env;

			if (!play_env(p->game, &env))
				return STORE_ERROR;
			compute(p, &env);
		}
	}
	step = p->tok.step;
	if (step != p->head.step) {
		bool retry = p->kind == PLAY_ACTION && p->head.last_from_step == step &&
		    p->adv.nmoves > 0 && p->head.step == step + (int64_t)p->adv.nmoves &&
		    sodium_memcmp(p->head.last_request, p->adv.fp, STORE_FP_BYTES) == 0;

		p->verdict = retry ? PLAY_RETRY : PLAY_STALE;
		return STORE_OK;
	}
	switch (p->kind) {
	case PLAY_STATE:
		p->verdict = PLAY_CURRENT;
		return STORE_OK;
	case PLAY_FINISH:
		return finish(p, c);
	case PLAY_INIT:
	case PLAY_ACTION:
		break;
	}
	if (p->turn.refused) {
		p->verdict = p->turn.refusal == API_ERR_INTERNAL ? PLAY_ERROR : PLAY_REFUSED;
		return STORE_OK;
	}
	if (p->adv.nmoves == 0) {
		p->verdict = PLAY_UNCHANGED;
		return STORE_OK;
	}
	p->adv.id = p->head.id;
	p->adv.from_step = step;
	p->adv.now = store_now_ms();
	rc = store_run_advance(c, &p->adv);
	if (rc == STORE_ERROR || (rc == STORE_OK && record_facts(c, p->game, &p->adv, &p->turn) != STORE_OK))
		return STORE_ERROR;
	p->verdict = rc == STORE_OK ? PLAY_APPLIED : PLAY_STALE;
	return STORE_OK;
}

/* ---- answers ---- */

/* A stateToken for the run at step with state st; NULL when out of memory. */
static char *
seal(const struct play *p, int64_t run, int64_t step, const void *st)
{
	struct state_token t;

	memset(&t, 0, sizeof t);
	t.nstate = p->game->encode(st, t.state, sizeof t.state);
	if (t.nstate == 0 || t.nstate > sizeof t.state)
		return NULL;
	t.game = p->game->id;
	t.rules = p->game->rules_version;
	t.run = run;
	t.step = step;
	t.issued_at = (int64_t)time(NULL);
	return token_seal(p->keys, &t);
}

/* Queues text (taken) as the JSON reply. A wrapper that takes text (MCP's
 * tool calls) takes it as it is; another has it parsed, NULs in strings
 * included (a command's text may hold one). */
static void
reply_text(struct request *req, int status, char *text, size_t len)
{
	json_t *o;

	if (req->wrap == NULL || req->wrap_text != NULL || text == NULL) {
		request_reply_json_text(req, status, text, len);
		return;
	}
	o = json_loadb(text, len, JSON_ALLOW_NUL, NULL);
	free(text);
	request_reply_json(req, status, o);
}

/* The answer body, written: {"game", runId, stateToken (token_text, or a
 * new one sealed for run, step and st), the game's part, agent_check when
 * on}; with err not NULL, a refusal that shows the run instead: its
 * {"error": {code, message}} where "game" stands (message NULL: the
 * table's). NULL when it cannot be written. */
#define ANSWER_FIRST 4096          /* bytes the writer starts with */
#define ANSWER_MAX (4u << 20)      /* the largest answer it writes */
static char *
body_text(struct play *p, int64_t run, int64_t step, const void *st, const char *token_text,
    const void *scratch, const struct api_error_info *err, const char *message, size_t *len)
{
	char id[GAME_ID_TEXT_MAX], *sealed = NULL;
	json_t *check = NULL;
	struct jw w;

	play_id_text(run, id);
	if (token_text == NULL) {
		if ((sealed = seal(p, run, step, st)) == NULL)
			return NULL;
		token_text = sealed;
	}
	if (p->check_on)
		check = agent_fresh_json(&p->fresh, store_now_ms());
	jw_init(&w, ANSWER_FIRST, ANSWER_MAX);
	jw_object(&w);
	if (err != NULL) {
		jw_key(&w, "error");
		jw_object(&w);
		jw_kstring(&w, "code", err->code);
		jw_kstring(&w, "message", message != NULL ? message : err->message);
		jw_object_end(&w);
	} else {
		jw_kstring(&w, "game", p->game->name);
	}
	game_answer_fields(&w, p->game, id, token_text, st, scratch);
	if (check != NULL) {
		jw_key(&w, "agent_check");
		jw_json(&w, check);
	}
	jw_object_end(&w);
	json_decref(check);
	free(sealed);
	return jw_take(&w, len);
}

/* A 200 answer: body_text's, handed to libmicrohttpd as it is. */
static void
reply_answer(struct request *req, struct play *p, int64_t run, int64_t step, const void *st,
    const char *token_text, const void *scratch)
{
	size_t len = 0;
	char *text = body_text(p, run, step, st, token_text, scratch, NULL, NULL, &len);

	reply_text(req, 200, text, len);
}

/* An error that carries the run (a refusal with the unchanged state, a
 * stale token with the run as it stands): the envelope, then the answer's
 * fields but "game". A body that cannot be written answers 500; a
 * message that is not UTF-8 (a reason cut inside a character) cannot be
 * an envelope's, and answers the 500 of a failed reply. */
static void
reply_with_body(struct request *req, struct play *p, enum api_error e, const char *message,
    int64_t run, int64_t step, const void *st, const char *token_text, const void *scratch)
{
	size_t len = 0;
	char *text;

	if (message != NULL && !jw_utf8(message, strlen(message))) {
		request_reply_json(req, api_error_status(e), NULL);
		return;
	}
	text = body_text(p, run, step, st, token_text, scratch, api_error_info(e), message, &len);
	if (text == NULL) {
		request_reply_error(req, API_ERR_INTERNAL, NULL);
		return;
	}
	reply_text(req, api_error_status(e), text, len);
}

/* The run's head as stored, or NULL (and a 500) when it does not read back. */
static const void *
head_state(struct request *req, struct play *p, game_state *st)
{
	if (!p->game->decode(st, p->head.state, p->head.nstate)) {
		request_reply_error(req, API_ERR_INTERNAL, "the stored run does not read back");
		return NULL;
	}
	return st;
}

/* Errors that name no state: the seed's routes still show the run when
 * the job found one, and the new puzzle when the check is on. */
static void
reply_plain(struct request *req, struct play *p, enum api_error e, const char *message)
{
	game_state st;

	if (p->by_account && p->head.id != 0 && p->game->decode(&st, p->head.state, p->head.nstate)) {
		reply_with_body(req, p, e, message, p->head.id, p->head.step, &st, NULL, NULL);
		return;
	}
	request_reply_error_with(req, e, message, p->check_on ? json_pack("{s:o}", "agent_check",
	    agent_fresh_json(&p->fresh, store_now_ms())) : NULL);
}

static void
reply_finished(struct request *req, struct play *p)
{
	char id[GAME_ID_TEXT_MAX], *text;
	struct run_result r;
	game_state st;
	json_t *final, *check = NULL;
	struct jw w;
	size_t len = 0;

	if (head_state(req, p, &st) == NULL)
		return;
	play_id_text(p->head.id, id);
	result_of(p, &st, &r);
	final = run_result_final(&r);
	if (p->check_on)
		check = agent_fresh_json(&p->fresh, store_now_ms());
	/* The seed's routes answer with the game's fields too. */
	jw_init(&w, ANSWER_FIRST, ANSWER_MAX);
	run_finish_write(&w, p->game, id, final, p->rating, p->review, p->certificate,
	    p->by_account ? &st : NULL, check);
	text = jw_take(&w, &len);
	json_decref(final);
	json_decref(check);
	reply_text(req, 200, text, len);
}

static void
play_reply(struct request *req)
{
	struct play *p = req->ctx;
	const char *same = p->by_account ? NULL : p->sent_token; /* the token sent, still newest */
	game_state st;

	if (!defer_committed(req))
		p->verdict = PLAY_ERROR;
	/* The quota counts what was stored: an init's run, a finish's review. */
	if (p->charged && p->verdict != (p->kind == PLAY_INIT ? PLAY_CREATED : PLAY_FINISHED))
		quota_refund(req, p->kind == PLAY_INIT ? QUOTA_RUNS : QUOTA_REVIEWS, p->account_id,
		    p->quota_day);
	switch (p->verdict) {
	case PLAY_CREATED:
		reply_answer(req, p, p->run.id, 0, &p->after, NULL, NULL);
		return;
	case PLAY_CHECK_FAILED:
		if (p->check == STORE_CHECK_WRONG)
			throttle_wrong_count(req, p->account_id);
		if (p->by_account && p->head.id != 0 && head_state(req, p, &st) != NULL) {
			reply_with_body(req, p, API_ERR_AGENT_CHECK, agent_check_reason(&p->answer, p->check),
			    p->head.id, p->head.step, &st, NULL, NULL);
			return;
		}
		request_reply_error_with(req, API_ERR_AGENT_CHECK, agent_check_reason(&p->answer, p->check),
		    json_pack("{s:o}", "agent_check", agent_fresh_json(&p->fresh, store_now_ms())));
		return;
	case PLAY_TOKEN_BAD:
		reply_plain(req, p, API_ERR_INVALID_STATE_TOKEN, token_strerror(p->tok_err));
		return;
	case PLAY_EXPIRED:
		reply_plain(req, p, API_ERR_RUN_EXPIRED, "the run has expired and can no longer be continued: "
		    "its newest stateToken is past its lifetime, and a run played without an agent key "
		    "has no other way back; start a new run");
		return;
	case PLAY_NOT_FOUND:
		reply_plain(req, p, API_ERR_RUN_NOT_FOUND, "the stateToken's run is not stored here");
		return;
	case PLAY_UNAUTHORIZED:
		request_add_header(req, "WWW-Authenticate", "Bearer realm=\"arcaded\"");
		/* Like every 401, without a puzzle. */
		request_reply_error(req, API_ERR_UNAUTHORIZED, "this run belongs to an account: send its "
		    "agent key (Authorization: Bearer <agent key>)");
		return;
	case PLAY_FORBIDDEN:
		reply_plain(req, p, API_ERR_FORBIDDEN, "this run belongs to another account");
		return;
	case PLAY_NO_RUN:
		reply_plain(req, p, API_ERR_NO_CURRENT_RUN, NULL);
		return;
	case PLAY_NOT_OVER: {
		char msg[256];

		snprintf(msg, sizeof msg, "the run is not over yet: %s", p->game->how_to_end != NULL ?
		    p->game->how_to_end : "play on until it ends");
		reply_plain(req, p, API_ERR_RUN_NOT_OVER, msg);
		return;
	}
	case PLAY_ALREADY_FINISHED:
		reply_plain(req, p, API_ERR_ALREADY_FINISHED, NULL);
		return;
	case PLAY_STALE:
		if (head_state(req, p, &st) != NULL)
			reply_with_body(req, p, API_ERR_STALE_STATE_TOKEN, "the stateToken is not the run's "
			    "newest: here are the run as it stands and its newest token", p->head.id,
			    p->head.step, &st, NULL, NULL);
		return;
	case PLAY_REFUSED:
		reply_with_body(req, p, p->turn.refusal, p->turn.reason, p->head.id, p->tok.step,
		    &p->before, same, p->scratch);
		return;
	case PLAY_UNCHANGED:
		reply_answer(req, p, p->head.id, p->tok.step, &p->after, same, p->scratch);
		return;
	case PLAY_APPLIED:
	case PLAY_RETRY:
		/* A retry answers what the first request did: the same state. */
		reply_answer(req, p, p->head.id, p->tok.step + (int64_t)p->turn.nmoves, &p->after, NULL,
		    p->scratch);
		return;
	case PLAY_CURRENT:
		if (head_state(req, p, &st) != NULL)
			reply_answer(req, p, p->head.id, p->head.step, &st, same, NULL);
		return;
	case PLAY_FINISHED:
		reply_finished(req, p);
		return;
	case PLAY_ERROR:
		break;
	}
	request_reply_error(req, API_ERR_INTERNAL, "the request could not be stored; nothing changed");
}

/* ---- the pipeline ---- */

bool
play_fields(struct request *req, struct play *p, const char *const *first,
    const char *const *game)
{
	const char *list[16];
	char msg[JSONBODY_MSG_MAX];
	size_t n = 0, i;
	bool ok;

	if (p->by_account) {
		ok = jsonbody_common_ok(req->json, msg, sizeof msg);
	} else {
		for (i = 0; first != NULL && first[i] != NULL && n + 1 < sizeof list / sizeof list[0]; i++)
			list[n++] = first[i];
		for (i = 0; game != NULL && game[i] != NULL && n + 1 < sizeof list / sizeof list[0]; i++)
			list[n++] = game[i];
		list[n] = NULL;
		ok = jsonbody_known(req->json, list, msg, sizeof msg);
	}
	if (!ok)
		play_refuse(req, p, API_ERR_INVALID_REQUEST, msg);
	return ok;
}

/* A refusal of the seed's routes, once its puzzle is stored. */
static void
refusal_reply(struct request *req)
{
	struct play *p = req->ctx;
	json_t *extra = NULL;

	if (defer_committed(req))
		extra = json_pack("{s:o}", "agent_check", agent_fresh_json(&p->fresh, store_now_ms()));
	if (p->refusal_status != 0)
		auth_refuse(req, p->refusal_status, p->refusal_msg, extra);
	else
		request_reply_error_with(req, p->refusal, p->refusal_msg, extra);
}

static json_t *limited_body(struct request *req, struct play *p, const struct account_ref *known);

/* A refusal with auth's status (401, 429, 500) when status is not 0. */
static void
refuse(struct request *req, struct play *p, enum api_error e, int status, const char *message)
{
	struct agent_who who;

	/* Over its address's rate limit: only the body's token was read
	 * (http.c), so the rest of the request is not judged. The 429 shows
	 * the run when the token was there to read, and is the 429 as it is
	 * otherwise. */
	if (request_refusal_pending(req)) {
		request_reply_refusal(req, p->sent_token != NULL || p->by_account ? limited_body(req, p, NULL) :
		    NULL);
		return;
	}

	/* A 401 hands out no puzzle: a client without a key can be told
	 * nothing it could use, and makes the store keep nothing. */
	if (!p->by_account || !req->app->cfg->agent_check[p->game->id] || status == 401) {
		if (status != 0)
			auth_refuse(req, status, message, NULL);
		else
			request_reply_error(req, e, message);
		return;
	}
	/* The seed's routes answer every refusal with the next agent_check,
	 * even one decided before the check: the puzzle is made and stored,
	 * then the error goes out with it. */
	p->refusal = e;
	p->refusal_status = status;
	snprintf(p->refusal_msg, sizeof p->refusal_msg, "%s",
	    message != NULL ? message : api_error_info(e)->message);
	play_who(req, 0, &who);
	agent_fresh_make(&p->fresh, store_now_ms(), &who, p->keys);
	defer_to_store(req, agent_fresh_job, &p->fresh, refusal_reply);
}

void
play_refuse(struct request *req, struct play *p, enum api_error e, const char *message)
{
	refuse(req, p, e, 0, message);
}

static const char *
query(void *ctx, const char *name)
{
	return request_query(ctx, name);
}

void
play_game_request(struct request *req, struct game_request *rq)
{
	rq->body = req->json;
	rq->query = query;
	rq->query_ctx = req;
	rq->cap_default = req->app->cfg->cap_default;
	rq->cap_max = req->app->cfg->cap_max;
}

/* An init's CPU work: the options, the game's first state and its bytes,
 * the run to insert. False once answered. */
static bool
start_run(struct request *req, struct play *p, const struct game_env *env)
{
	const struct game *g = p->game;
	struct game_request rq;
	struct game_options opts;
	enum api_error err = API_ERR_INTERNAL;
	char msg[JSONBODY_MSG_MAX];
	size_t n;

	play_game_request(req, &rq);
	memset(&opts, 0, sizeof opts);
	if (!game_read_options(g, &rq, &opts, msg, sizeof msg)) {
		play_refuse(req, p, API_ERR_INVALID_REQUEST, msg);
		return false;
	}
	if (!g->init(&p->after, (uint64_t)p->run.seed, &opts, env, &err, msg, sizeof msg)) {
		request_reply_error(req, err, msg);
		return false;
	}
	n = g->encode(&p->after, p->bytes, sizeof p->bytes);
	if (n == 0 || n > sizeof p->bytes) {
		request_reply_error(req, API_ERR_INTERNAL, "the state does not fit a token");
		return false;
	}
	p->run.game = g->name;
	p->run.rules = g->rules;
	p->run.account_id = p->account_id;
	p->run.state = p->bytes;
	p->run.nstate = n;
	g->summary(&p->after, &p->run.sum);
	p->run.now = store_now_ms();
	return true;
}

/* An action on the token routes: the request played on the token's
 * state, with the run's facts as of the token's step (read when first
 * asked). False once answered. */
static bool
play_token_action(struct request *req, struct play *p, struct game_env *env)
{
	struct facts facts;
	bool failed;

	play_facts_init(&facts, p->game, req->app->store, NULL, p->tok.run, p->tok.step);
	play_facts_attach(&facts, env);
	compute(p, env);
	failed = play_facts_failed(&facts);
	play_facts_cleanup(&facts);
	if (failed)
		request_reply_error(req, API_ERR_INTERNAL, "the run's history could not be read; "
		    "nothing changed");
	return !failed;
}

/*
 * What a 429 on a game route shows, as 409, 422 and 428 show it: the run
 * as it stands with its newest token, and the agent check to answer next,
 * which is the one the request presented (a 429 judges and spends nothing,
 * so the same puzzle stays live), shown again from its token. Nothing is
 * written and the engine does not run; what it may cost is bounded by what
 * an admitted request's own checks cost: one PASETO open on the token
 * routes, the key's row when a key is sent (read, not charged to the
 * account), and the run's head, both indexed reads on a reader connection.
 * The run is shown only to whom the normal path would show it: a keyed
 * run to its own key (else the plain 429, as a 401 or 403 shows nothing),
 * an anonymous run to its token's holder. Anything that does not read
 * (a token that does not open, an expired one, the store down) leaves the
 * plain 429 and, when the check is on, the puzzle presented. A new run's
 * 429 shows no run: there is none yet. NULL when there is nothing to add.
 */
static json_t *
limited_body(struct request *req, struct play *p, const struct account_ref *known)
{
	struct account_ref acct;
	struct store_conn *c;
	enum store_result rc = STORE_NOT_FOUND;
	struct agent_answer ans;
	struct agent_fresh f;
	game_state st;
	json_t *b = NULL;

	p->check_on = false; /* body_text() adds no fresh puzzle: none is made for a 429 */
	if (p->kind != PLAY_INIT && (p->by_account || p->sent_token != NULL)) {
		if (!p->by_account)
			open_token(req, p);
		if (known == NULL && request_header(req, "Authorization") != NULL && auth_identify(req, &acct))
			known = &acct;
		p->account_id = known != NULL ? known->id : 0;
		if ((p->by_account ? known != NULL : p->tok_err == TOKEN_OK) &&
		    (c = store_reader(req->app->store)) != NULL) {
			rc = find_run(p, c);
			store_reader_release(req->app->store, c);
		}
		if (rc == STORE_OK && (p->head.account_id == 0 || p->head.account_id == p->account_id) &&
		    p->game->decode(&st, p->head.state, p->head.nstate)) {
			/* The token sent, when it is the newest; else a new one. */
			bool newest = !p->by_account && p->head.step == p->tok.step;

			size_t len = 0;
			char *text = body_text(p, p->head.id, p->head.step, &st,
			    newest ? p->sent_token : NULL, NULL, NULL, NULL, &len);

			/* The 429's envelope takes fields as a tree: the written
			 * answer, read back (a rare answer, off the hot path). */
			b = text != NULL ? json_loadb(text, len, JSON_ALLOW_NUL, NULL) : NULL;
			free(text);
			if (b != NULL)
				json_object_del(b, "game");
		}
	}
	if (req->app->cfg->agent_check[p->game->id]) {
		agent_answer_read(request_header(req, "X-Agent-Check"), request_header(req, "X-Agent-Answer"),
		    req->json, &ans);
		if (ans.given && agent_fresh_recall(&f, ans.token, store_now_ms(), p->keys)) {
			if (b == NULL)
				b = json_object();
			if (b != NULL)
				json_object_set_new(b, "agent_check", agent_fresh_json(&f, store_now_ms()));
		}
	}
	return b;
}

/* limited_body for a request whose key (if any) is checked already. */
static json_t *
show_limited(struct request *req, void *arg)
{
	struct play *p = arg;
	struct account_ref acct = { .id = p->account_id };

	return limited_body(req, p, p->account_id != 0 ? &acct : NULL);
}

void
play_submit(struct request *req, struct play *p)
{
	struct account_ref acct = { 0 };
	struct game_env env;
	char why[AUTH_WHY_MAX];
	int status = 0;
	enum auth_result a;

	/* Over the address's limit (admitted for this alone, routes.c): the
	 * 429 with the run, before the key is charged to its account. */
	if (request_refusal_pending(req)) {
		request_reply_refusal(req, limited_body(req, p, NULL));
		return;
	}
	/* The Bearer key: required on the seed's routes, optional
	 * (attribution) on the token routes. */
	a = auth_check(req, p->by_account, &acct, &status, why);
	if (a == AUTH_FAILED && status == 429) {
		/* Over the account's limit: the same 429 with the run. */
		auth_refuse(req, status, why, limited_body(req, p, &acct));
		return;
	}
	if (a == AUTH_FAILED) {
		refuse(req, p, API_ERR_UNAUTHORIZED, status, why);
		return;
	}
	p->account_id = a == AUTH_OK ? acct.id : 0;
	if (p->kind == PLAY_INIT) {
		/* A new run hands out the first puzzle; there is none to answer. */
		p->check_on = req->app->cfg->agent_check[p->game->id];
		if (p->check_on) {
			struct agent_who who;

			play_who(req, p->account_id, &who);
			agent_fresh_make(&p->fresh, store_now_ms(), &who, p->keys);
		}
	} else if (!prepare_check(req, p))
		return;
	if (!p->by_account && p->kind != PLAY_INIT)
		open_token(req, p);
	/* An init starts its run and a token route's action plays here; the
	 * seed's routes play inside the job, on the stored head. */
	if (p->kind == PLAY_INIT || (p->kind == PLAY_ACTION && !p->by_account && p->tok_err == TOKEN_OK)) {
		if (!play_env(p->game, &env)) {
			request_reply_error(req, API_ERR_INTERNAL, "out of memory");
			return;
		}
		if (!(p->kind == PLAY_INIT ? start_run(req, p, &env) : play_token_action(req, p, &env)))
			return;
	}
	/* The day's quota, last: what stores a run or a review, with its key
	 * known and nothing else left to refuse it before the job. */
	if (p->kind == PLAY_INIT || p->kind == PLAY_FINISH) {
		if (!quota_charge(req, p->kind == PLAY_INIT ? QUOTA_RUNS : QUOTA_REVIEWS, p->account_id,
		    &p->quota_day))
			return;
		p->charged = true;
	}
	defer_to_store(req, play_job, p, play_reply);
}
