/*
 * handlers_watch.c: what the pages that watch games draw (docs/web.md):
 * the games on the table, a run's states step by step, and a playing run's
 * head as its player sees it. Nothing here writes; nothing here shows a
 * stateToken.
 *
 * A run's steps are not stored: the store keeps its moves and its head.
 * GET .../steps replays the moves on the engine (replay_walk) and answers
 * each step's state as the game's descriptor shows it to a player
 * (game->answer), with the move that led there and what the move did
 * (its ext's move_marks). So the page draws what the engine says rather than
 * a second copy of the rules in JavaScript. A call walks from the start
 * of the run, so its cost grows with from + count: at most 200 states are
 * answered, and the walk itself costs what verifying that much of the
 * replay costs (microseconds a move, a fraction of a millisecond for a
 * Duskcourt deal); it runs on the verification workers, never on an HTTP
 * thread, and a full queue answers 503 at once.
 *
 * A playing run of a game whose seed tells its future (hides_future) has
 * no steps until it is over (409 run_not_over, as its replay is withheld
 * on the run's page); GET .../live shows its head alone, as its player
 * sees it: the answer a state request would give, without the token.
 *
 * A match's turns (GET /api/matches/{id}/turns) are walked the same way:
 * its stored turns from its seed, by its ruleset's walk (match_rules.h),
 * on the same workers, each turn answered as GET /api/matches/{id} showed
 * it to a spectator then. Every turn resolved is public, a playing
 * match's too (what the ruleset shows everyone); nothing the ruleset keeps
 * secret (the seed, the previews) gets out.
 *
 * The answers themselves are api's (watch_json.c): this file reads the
 * request, reads the store and hands the walk to a worker, which writes
 * each step or turn of the page as it passes it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "handlers.h"
#include "jsonbody.h"
#include "match.h"
#include "match_rules.h"
#include "page_text.h"
#include "play.h"
#include "replay.h"
#include "replay_walk.h"
#include "store.h"
#include "watch_json.h"
#include "workers.h"

#define STEPS_DEFAULT 50  /* steps or turns a page, unless asked */
#define STEPS_MAX 200     /* at most, whatever is asked */

/* handlers.h */
int
handlers_read_run(struct request *req, const struct game *g, int64_t *id, struct store_run_head *head,
    json_t **actions)
{
	struct store_conn *c;
	enum store_result found;

	if (!jsonbody_parse_int(req->params[1], 1, ENGINE_ID_MAX, id)) {
		request_reply_error(req, API_ERR_RUN_NOT_FOUND, NULL);
		return -1;
	}
	c = store_reader(req->app->store);
	found = store_run_head(c, *id, head);
	if (found == STORE_OK && strcmp(head->game, g->name) != 0)
		found = STORE_NOT_FOUND;
	if (found == STORE_OK && actions != NULL && (!g->hides_future || head->over) &&
	    (*actions = store_run_actions(c, *id)) == NULL)
		found = STORE_ERROR;
	store_reader_release(req->app->store, c);
	if (found == STORE_NOT_FOUND)
		request_reply_error(req, API_ERR_RUN_NOT_FOUND, NULL);
	else if (found != STORE_OK)
		request_reply_error(req, API_ERR_INTERNAL, NULL);
	return found == STORE_OK ? 0 : -1;
}

/* ---- GET /api/games ---- */

void
handle_games(struct request *req)
{
	size_t len;
	char *text = watch_games_text(&len);

	request_reply_json_text(req, 200, text, len);
}

/* ---- GET /api/games/{game}/runs/{runId}/live ---- */

void
handle_run_live(struct request *req, const struct game *g)
{
	struct store_run_head head;
	game_state st;
	int64_t id;
	char idtext[GAME_ID_TEXT_MAX];
	struct watch_run r;
	char *text = NULL;
	size_t len = 0;

	if (handlers_read_run(req, g, &id, &head, NULL) != 0)
		return;
	play_id_text(id, idtext);
	r = (struct watch_run){ .run_id = idtext, .status = head.status, .over = head.over,
	    .end_reason = head.end_reason, .score = head.score, .moves = head.step };
	if (g->decode(&st, head.state, head.nstate))
		text = watch_live_text(g, &r, &st, &len);
	if (text == NULL) {
		request_reply_error(req, API_ERR_INTERNAL, "the stored run does not read back");
		return;
	}
	request_reply_json_text(req, 200, text, len);
}

/* ---- what the steps and the turns share: a walk on a worker ---- */

/* One walk, done by a worker: from and count asked, items written. */
struct walk_job {
	int64_t   from, count;
	bool      no_memory;
	bool      failed;       /* the stored moves do not replay */
	char      reason[256];
	struct jw items;        /* the answer's array, written by the task */
	int64_t   nitems;       /* the elements written */
};

/* ?name=: a whole number in lo..hi (above cap: taken as cap), def when
 * absent; false once answered 400. */
static bool
query_number(struct request *req, const char *name, int64_t lo, int64_t hi, int64_t cap,
    int64_t def, int64_t *out)
{
	const char *q = request_query(req, name);
	char msg[96];

	*out = def;
	if (q == NULL)
		return true;
	if (!jsonbody_parse_int(q, lo, hi, out)) {
		snprintf(msg, sizeof msg, "query '%s' must be a whole number from %lld to %lld", name,
		    (long long)lo, (long long)cap);
		request_reply_error(req, API_ERR_INVALID_REQUEST, msg);
		return false;
	}
	if (*out > cap)
		*out = cap;
	return true;
}

/* ?from=&count= of a page of steps or turns; false once answered 400. */
static bool
walk_page(struct request *req, int64_t *from, int64_t *count)
{
	return query_number(req, "from", 0, ENGINE_ID_MAX, ENGINE_ID_MAX, 0, from) &&
	    query_number(req, "count", 1, ENGINE_ID_MAX, STEPS_MAX, STEPS_DEFAULT, count);
}

/* Opens the page's array; false (no memory) when the writer cannot start. */
static bool
walk_begin(struct walk_job *j)
{
	page_text_start(&j->items);
	jw_array(&j->items);
	return !j->items.failed;
}

/* Whether the walk went wrong; answered (500) when so. Else the page's
 * array is closed, and its text is at j->items. */
static bool
walk_failed(struct request *req, struct walk_job *j, const char *what)
{
	char msg[320];

	if (!j->no_memory && !j->failed) {
		jw_array_end(&j->items);
		if (jw_text(&j->items, NULL) == NULL)
			j->no_memory = true;
	}
	if (j->no_memory) {
		request_reply_error(req, API_ERR_INTERNAL, "out of memory");
		return true;
	}
	if (!j->failed)
		return false;
	snprintf(msg, sizeof msg, "the stored %s does not replay: %s", what, j->reason);
	request_reply_error(req, API_ERR_INTERNAL, msg);
	return true;
}

/* Writes the item of the walk's position k into the answer when k is in
 * the page; false once the page is full (or memory ran out). */
static bool
walk_keep(struct walk_job *j, int64_t k, bool (*write)(struct jw *w, void *arg), void *arg)
{
	if (k < j->from)
		return true;
	if (!write(&j->items, arg)) {
		j->no_memory = true;
		return false;
	}
	j->nitems++;
	return k + 1 < j->from + j->count;
}

/* Hands the walk to a verification worker; a full queue answers 503 at once. */
static void
walk_submit(struct request *req, void (*task)(void *arg), void *arg, request_cont done)
{
	workers_submit_or_busy(req->app->verify, req, task, arg, done, "replay worker");
}

/* ---- GET /api/games/{game}/runs/{runId}/steps?from=&count= ---- */

struct steps_job {
	struct walk_job    walk;
	const struct game *game;
	json_t            *replay;  /* owned */
	struct replay_walk *w;      /* while walking */
	const void        *prev;    /* the state before the step's move */
};

/* The entry of step w->step; prev is the state before its move. */
static bool
step_entry(struct jw *out, void *arg)
{
	const struct steps_job *j = arg;
	const struct replay_walk *w = j->w;

	return watch_step_write(out, j->game, w->step, w->step > 0 ?
	    json_array_get(w->actions, w->step - 1) : NULL, j->prev, &w->st);
}

static void
steps_task(void *arg)
{
	struct steps_job *j = arg;
	struct replay_walk *w = malloc(sizeof *w);
	game_state *prev = malloc(sizeof *prev);
	struct replay_check chk;
	struct game_env env;
	int rc;

	if (w == NULL || prev == NULL || !play_env(j->game, &env) || !walk_begin(&j->walk)) {
		j->walk.no_memory = true;
		free(w);
		free(prev);
		return;
	}
	j->w = w;
	j->prev = prev;
	rc = replay_walk_start(w, j->replay, j->game, &env, &chk);
	while (rc == 0) {
		if (!walk_keep(&j->walk, (int64_t)w->step, step_entry, j))
			break;
		if ((int64_t)w->step + 1 >= j->walk.from)
			memcpy(prev, &w->st, sizeof *prev);
		rc = replay_walk_next(w, &chk);
		rc = rc == 1 ? 0 : rc == 0 ? 1 : -1;
	}
	if (rc < 0) {
		j->walk.failed = true;
		snprintf(j->walk.reason, sizeof j->walk.reason, "%s", chk.reason);
	}
	replay_walk_end(w);
	j->w = NULL;
	j->prev = NULL;
	free(w);
	free(prev);
}

/* A request's context: the job and what the answer says of the run. */
struct steps_ctx {
	struct steps_job job;
	char             run[GAME_ID_TEXT_MAX];
	int64_t          moves;       /* the run's moves, as read with them */
	bool             over;
	char             status[12];
};

static void
steps_done(struct request *req)
{
	struct steps_ctx *x = req->ctx;
	struct walk_job *j = &x->job.walk;
	struct watch_run r;
	const char *items;
	char *text;
	size_t len, nitems;

	if (walk_failed(req, j, "run"))
		return;
	r = (struct watch_run){ .run_id = x->run, .status = x->status, .over = x->over, .end_reason = "",
	    .moves = x->moves };
	items = jw_text(&j->items, &nitems);
	text = watch_steps_text(x->job.game, &r, j->from, items, nitems, j->nitems, &len);
	request_reply_json_text(req, 200, text, len);
}

static void
steps_ctx_free(void *arg)
{
	struct steps_ctx *x = arg;

	json_decref(x->job.replay);
	jw_cleanup(&x->job.walk.items);
	free(x);
}

void
handle_run_steps(struct request *req, const struct game *g)
{
	struct store_run_head head;
	struct steps_ctx *x;
	game_state st;
	int64_t id, from, count;
	json_t *actions = NULL, *final = NULL;

	if (!walk_page(req, &from, &count) ||
	    handlers_read_run(req, g, &id, &head, &actions) != 0)
		return;
	if (actions == NULL) {
		char live[128], idtext[GAME_ID_TEXT_MAX];

		play_id_text(id, idtext);
		snprintf(live, sizeof live, "/api/games/%s/runs/%s/live", g->name, idtext);
		request_reply_error_with(req, API_ERR_RUN_NOT_OVER,
		    "a playing run's states would reveal its future pieces: they are shown once it is "
		    "over; its live view shows what its player sees", json_pack("{s:s}", "live", live));
		return;
	}
	if ((x = request_ctx_new(req, sizeof *x, steps_ctx_free)) == NULL) {
		json_decref(actions);
		return;
	}
	play_id_text(id, x->run);
	/* The moves as read: a move stored between the two reads is simply
	 * one more step. */
	x->moves = (int64_t)json_array_size(actions);
	x->over = head.over;
	snprintf(x->status, sizeof x->status, "%s", head.status);
	x->job.game = g;
	x->job.walk.from = from;
	x->job.walk.count = count;
	if (from > x->moves) {
		/* Past the newest step: nothing to walk (a live page asking for
		 * what comes next). */
		json_decref(actions);
		if (!walk_begin(&x->job.walk))
			x->job.walk.no_memory = true;
		steps_done(req);
		return;
	}
	if (g->decode(&st, head.state, head.nstate))
		final = g->final(&st);
	x->job.replay = replay_new(g, head.seed, actions, final,
	    game_ext(g)->replay_options ? game_ext(g)->replay_options(&st) : NULL);
	if (x->job.replay == NULL) {
		request_reply_error(req, API_ERR_INTERNAL, "the stored run does not read back");
		return;
	}
	walk_submit(req, steps_task, &x->job, steps_done);
}

/* ---- GET /api/matches/{id}/turns?from=&count= ---- */

struct turns_ctx {
	struct walk_job   walk;
	json_t           *turns;      /* the stored turns' moves (owned) */
	const struct match_rules *rules; /* the match's */
	struct match_walk *w;         /* while walking */
	size_t            k;          /* turns walked */
	uint64_t          seed;
	unsigned          nplayers;
	struct match_options options; /* the row's: the walk plays with them */
	uint32_t          turn_cap;
	int64_t           nturns;     /* turns resolved, as read with them */
	char              match[GAME_ID_TEXT_MAX];
	char              status[12];
	char              names[MATCH_PLAYERS_MAX][STORE_NAME_MAX + 1];
};

static bool
turn_entry(struct jw *out, void *arg)
{
	const struct turns_ctx *x = arg;
	const char *names[MATCH_PLAYERS_MAX];
	unsigned i;

	for (i = 0; i < MATCH_PLAYERS_MAX; i++)
		names[i] = x->names[i];
	return match_walk_write(out, x->w, x->turn_cap, names,
	    x->k > 0 ? json_array_get(x->turns, x->k - 1) : NULL);
}

static void
turns_task(void *arg)
{
	struct turns_ctx *x = arg;
	struct match_replay_check chk;
	size_t k;

	memset(&chk, 0, sizeof chk);
	if ((x->w = malloc(sizeof *x->w)) == NULL || !walk_begin(&x->walk)) {
		x->walk.no_memory = true;
		goto done;
	}
	if (!match_walk_start(x->w, x->rules, x->seed, x->nplayers, &x->options)) {
		x->walk.failed = true;
		snprintf(x->walk.reason, sizeof x->walk.reason, "its seed or players are out of range");
		goto done;
	}
	for (k = 0; x->k = k, walk_keep(&x->walk, (int64_t)k, turn_entry, x) &&
	    k < json_array_size(x->turns); k++) {
		if (match_walk_turn(x->w, json_array_get(x->turns, k), &chk) != 0) {
			x->walk.failed = true;
			snprintf(x->walk.reason, sizeof x->walk.reason, "%s", chk.reason);
			break;
		}
	}
done:
	free(x->w);
	x->w = NULL;
}

static void
turns_done(struct request *req)
{
	struct turns_ctx *x = req->ctx;
	struct walk_job *j = &x->walk;
	const char *items;
	char *text;
	size_t len, nitems;

	if (walk_failed(req, j, "match"))
		return;
	items = jw_text(&j->items, &nitems);
	text = watch_turns_text(x->match, x->status, x->nturns, j->from, items, nitems, j->nitems,
	    &len);
	request_reply_json_text(req, 200, text, len);
}

static void
turns_ctx_free(void *arg)
{
	struct turns_ctx *x = arg;

	json_decref(x->turns);
	jw_cleanup(&x->walk.items);
	free(x);
}

void
handle_match_turns(struct request *req)
{
	struct store_match_row row;
	const struct match_rules *rules;
	struct store_conn *c;
	struct turns_ctx *x = NULL;
	enum store_result found;
	json_t *turns = NULL;
	int64_t id, from, count;
	int i;

	memset(&row, 0, sizeof row);
	if (!jsonbody_parse_int(req->params[0], 1, ENGINE_ID_MAX, &id)) {
		request_reply_error(req, API_ERR_MATCH_NOT_FOUND, NULL);
		return;
	}
	if (!walk_page(req, &from, &count))
		return;
	c = store_reader(req->app->store);
	found = store_match_get(c, id, &row);
	/* A lobby has no turn yet, not even the start. */
	if (found == STORE_OK && row.nstate > 0 && (turns = store_match_turns(c, id)) == NULL)
		found = STORE_ERROR;
	store_reader_release(req->app->store, c);
	if (found != STORE_OK) {
		request_reply_error(req, found == STORE_NOT_FOUND ? API_ERR_MATCH_NOT_FOUND :
		    API_ERR_INTERNAL, NULL);
		goto done;
	}
	if ((rules = match_rules_by_name(row.rules)) == NULL) {
		request_reply_error(req, API_ERR_INTERNAL, "the stored match names no ruleset of ours");
		goto done;
	}
	if (row.ticks) {
		request_reply_error(req, API_ERR_WRONG_CLOCK, "a real-time match has no turns: its stream "
		    "shows it live, its replay lists its inputs");
		goto done;
	}
	if ((x = request_ctx_new(req, sizeof *x, turns_ctx_free)) == NULL)
		goto done;
	x->turns = turns;
	turns = NULL;
	x->rules = rules;
	x->seed = (uint64_t)row.seed;
	x->nplayers = (unsigned)row.players;
	x->options.on = row.items;
	x->options.chance = row.item_chance;
	memcpy(x->options.shares, row.item_weights, sizeof x->options.shares);
	x->turn_cap = (uint32_t)row.turn_cap;
	play_id_text(id, x->match);
	snprintf(x->status, sizeof x->status, "%s", row.status);
	for (i = 0; i < row.nseats && i < MATCH_PLAYERS_MAX; i++)
		snprintf(x->names[i], sizeof x->names[i], "%s", row.seats[i].name);
	/* The turns as read: one resolved between the two reads is simply one
	 * more turn. Turn 0, the start, is there once the match has begun. */
	x->nturns = x->turns != NULL ? (int64_t)json_array_size(x->turns) : 0;
	x->walk.from = from;
	x->walk.count = count;
	if (x->turns == NULL || from > x->nturns) {
		if (!walk_begin(&x->walk))
			x->walk.no_memory = true;
		turns_done(req);
		goto done;
	}
	walk_submit(req, turns_task, x, turns_done);
done:
	json_decref(turns);
	store_match_row_free(&row);
}
