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
 * (game->move_marks). So the page draws what the engine says rather than
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
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "handlers.h"
#include "jsonbody.h"
#include "play.h"
#include "replay.h"
#include "store.h"
#include "workers.h"

#define STEPS_DEFAULT 50
#define STEPS_MAX 200

/* The {game} of the path; a 404 when it is none of ours. */
static const struct game *
path_game(struct request *req)
{
	const struct game *g = game_by_name(req->params[0], strlen(req->params[0]));
	char names[GAME_NAMES_MAX], msg[GAME_NAMES_MAX + 32];

	if (g == NULL) {
		snprintf(msg, sizeof msg, "no such game: %s", game_names(names, sizeof names));
		request_reply_error(req, API_ERR_NOT_FOUND, msg);
	}
	return g;
}

/* The run of the path (params[1]) in game g, and its stored moves when
 * actions is not NULL and they are shown (not a playing run of a game
 * that hides its future: *actions stays NULL). 0, or -1 once answered
 * (404, 500). */
static int
read_run(struct request *req, const struct game *g, int64_t *id, struct store_run_head *head,
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

/* The game's answer for st, as a player sees it, without any token. */
static json_t *
view(const struct game *g, const void *st)
{
	json_t *o = json_object();

	if (o == NULL || !g->answer(o, st, NULL)) {
		json_decref(o);
		return NULL;
	}
	/* The answer adds the game's fields only; the token and the agent
	 * check are the pipeline's. Never let one through. */
	json_object_del(o, "stateToken");
	json_object_del(o, "agent_check");
	return o;
}

/* ---- GET /api/games ---- */

void
handle_games(struct request *req)
{
	json_t *list = json_array();
	size_t i, j;

	for (i = 0; i < GAME__COUNT; i++) {
		const struct game *g = game_table[i];
		json_t *fields = json_array();

		for (j = 0; g->board_fields != NULL && g->board_fields[j] != NULL; j++)
			json_array_append_new(fields, json_string(g->board_fields[j]));
		json_array_append_new(list, json_pack("{s:s, s:s, s:o, s:b, s:b, s:b}", "name", g->name,
		    "rules", g->rules, "boardFields", fields, "hidesFuture", g->hides_future,
		    "seedless", g->seedless, "marks", g->move_marks != NULL));
	}
	request_reply_json(req, 200, json_pack("{s:o}", "games", list));
}

/* ---- GET /api/games/{game}/runs/{runId}/live ---- */

void
handle_run_live(struct request *req)
{
	struct store_run_head head;
	const struct game *g;
	game_state st;
	int64_t id;
	char idtext[GAME_ID_TEXT_MAX];
	json_t *v = NULL, *o;

	if ((g = path_game(req)) == NULL || read_run(req, g, &id, &head, NULL) != 0)
		return;
	if (g->decode(&st, head.state, head.nstate))
		v = view(g, &st);
	if (v == NULL) {
		request_reply_error(req, API_ERR_INTERNAL, "the stored run does not read back");
		return;
	}
	play_id_text(id, idtext);
	o = json_pack("{s:s, s:s, s:s, s:b, s:o, s:I, s:I, s:b, s:o}", "game", g->name,
	    "runId", idtext, "status", head.status, "over", head.over,
	    "end_reason", head.end_reason[0] ? json_string(head.end_reason) : json_null(),
	    "score", (json_int_t)head.score, "moves", (json_int_t)head.step,
	    "steps", !g->hides_future || head.over, "view", v);
	request_reply_json(req, 200, o);
}

/* ---- GET /api/games/{game}/runs/{runId}/steps?from=&count= ---- */

/* One walk, done by a worker. */
struct steps_job {
	const struct game *game;
	json_t            *replay;  /* owned */
	int64_t            from, count;
	bool               no_memory;
	bool               failed;  /* the stored moves do not replay */
	char               reason[256];
	json_t            *steps;   /* the answer's array, built by the task */
};

/* The entry of step w->step; prev is the state before its move. */
static json_t *
step_entry(const struct game *g, const struct replay_walk *w, const void *prev)
{
	const json_t *move = w->step > 0 ? json_array_get(w->actions, w->step - 1) : NULL;
	json_t *v = view(g, &w->st), *e;

	if (v == NULL)
		return NULL;
	e = json_pack("{s:I, s:O, s:o}", "step", (json_int_t)w->step,
	    "move", move != NULL ? move : json_null(), "view", v);
	if (e != NULL && g->move_marks != NULL) {
		json_t *m = move != NULL ? g->move_marks(prev, &w->st, move) : NULL;

		json_object_set_new(e, "marks", m != NULL ? m : json_null());
	}
	return e;
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

	if (w == NULL || prev == NULL || !play_env(j->game, &env) || (j->steps = json_array()) == NULL) {
		j->no_memory = true;
		free(w);
		free(prev);
		return;
	}
	rc = replay_walk_start(w, j->replay, j->game, &env, &chk);
	while (rc == 0) {
		if ((int64_t)w->step >= j->from) {
			json_t *e = step_entry(j->game, w, prev);

			if (e == NULL || json_array_append_new(j->steps, e) != 0) {
				j->no_memory = true;
				break;
			}
			if ((int64_t)w->step + 1 >= j->from + j->count)
				break;
		}
		if ((int64_t)w->step + 1 >= j->from)
			memcpy(prev, &w->st, sizeof *prev);
		rc = replay_walk_next(w, &chk);
		rc = rc == 1 ? 0 : rc == 0 ? 1 : -1;
	}
	if (rc < 0) {
		j->failed = true;
		snprintf(j->reason, sizeof j->reason, "%s", chk.reason);
	}
	replay_walk_end(w);
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
	struct steps_job *j = &x->job;
	size_t n;
	json_t *o;

	if (j->no_memory) {
		request_reply_error(req, API_ERR_INTERNAL, "out of memory");
		return;
	}
	if (j->failed) {
		char msg[320];

		snprintf(msg, sizeof msg, "the stored run does not replay: %s", j->reason);
		request_reply_error(req, API_ERR_INTERNAL, msg);
		return;
	}
	n = json_array_size(j->steps);
	o = json_pack("{s:s, s:s, s:s, s:b, s:I, s:I, s:I, s:O}", "game", j->game->name,
	    "runId", x->run, "status", x->status, "over", x->over,
	    "moves", (json_int_t)x->moves, "from", (json_int_t)j->from,
	    "count", (json_int_t)n, "steps", j->steps);
	if (o != NULL)
		json_object_set_new(o, "next", j->from + (int64_t)n <= x->moves && n > 0 ?
		    json_integer(j->from + (json_int_t)n) : json_null());
	request_reply_json(req, 200, o);
}

static void
steps_ctx_free(void *arg)
{
	struct steps_ctx *x = arg;

	json_decref(x->job.replay);
	json_decref(x->job.steps);
	free(x);
}

/* ?name=: a whole number in lo..hi (hi_cap: larger values are capped),
 * def when absent; false once answered 400. */
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

void
handle_run_steps(struct request *req)
{
	struct store_run_head head;
	const struct game *g;
	struct steps_ctx *x;
	game_state st;
	int64_t id, from, count;
	json_t *actions = NULL, *final = NULL;

	if ((g = path_game(req)) == NULL ||
	    !query_number(req, "from", 0, ENGINE_ID_MAX, ENGINE_ID_MAX, 0, &from) ||
	    !query_number(req, "count", 1, ENGINE_ID_MAX, STEPS_MAX, STEPS_DEFAULT, &count) ||
	    read_run(req, g, &id, &head, &actions) != 0)
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
	if ((x = calloc(1, sizeof *x)) == NULL) {
		json_decref(actions);
		request_reply_error(req, API_ERR_INTERNAL, "out of memory");
		return;
	}
	req->ctx = x;
	req->ctx_free = steps_ctx_free;
	play_id_text(id, x->run);
	/* The moves as read: a move stored between the two reads is simply
	 * one more step. */
	x->moves = (int64_t)json_array_size(actions);
	x->over = head.over;
	snprintf(x->status, sizeof x->status, "%s", head.status);
	x->job.game = g;
	x->job.from = from;
	x->job.count = count;
	if (from > x->moves) {
		/* Past the newest step: nothing to walk (a live page asking for
		 * what comes next). */
		json_decref(actions);
		x->job.steps = json_array();
		steps_done(req);
		return;
	}
	if (g->decode(&st, head.state, head.nstate))
		final = g->final(&st);
	x->job.replay = replay_new(g, head.seed, actions, final,
	    g->replay_options ? g->replay_options(&st) : NULL);
	if (x->job.replay == NULL) {
		request_reply_error(req, API_ERR_INTERNAL, "the stored run does not read back");
		return;
	}
	if (!workers_submit(req->app->verify, req, steps_task, &x->job, steps_done)) {
		request_add_header(req, "Retry-After", "1");
		request_reply_error(req, API_ERR_BUSY, "every replay worker is busy and the queue is full: "
		    "retry in a second");
	}
}
