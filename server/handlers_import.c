/*
 * handlers_import.c: POST /api/games/{game}/replays/import, a record in
 * a game's outside format (hatetris-classic: the original HATETRIS's
 * replay strings) re-simulated and answered. The game's replay_import does
 * the work, on the verifiers' workers: the longest published record is
 * 138,454 keys and 9,309 supplier calls, which an HTTP thread must not
 * spend. Nothing is stored.
 *
 * GET /api/games/{game}/runs/{runId}/record, the other way: a finished
 * run written in the game's outside format (the game's run_record), on the
 * same workers for the same reason (one search and one supplier call per
 * lock).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "errors.h"
#include "game.h"
#include "handlers.h"
#include "http.h"
#include "play.h"
#include "store.h"
#include "workers.h"

struct import {
	const struct game *game;
	const json_t      *body;   /* borrowed from the request */
	json_t            *answer; /* the game's, or NULL */
	bool               oom;
	char               why[256];
};

static void
import_free(void *arg)
{
	struct import *im = arg;

	json_decref(im->answer);
	free(im);
}

static void
import_task(void *arg)
{
	struct import *im = arg;

	im->answer = game_ext(im->game)->replay_import(im->body, &im->oom, im->why, sizeof im->why);
}

static void
import_done(struct request *req)
{
	struct import *im = req->ctx;

	if (im->answer != NULL) {
		request_reply_json(req, 200, im->answer);
		im->answer = NULL;
		return;
	}
	if (im->oom)
		request_reply_error(req, API_ERR_INTERNAL, "out of memory");
	else
		request_reply_error(req, API_ERR_INVALID_REPLAY, im->why);
}

void
handle_replay_import(struct request *req, const struct game *g)
{
	struct import *im;
	char msg[GAME_NAMES_MAX + 64];

	if (game_ext(g)->replay_import == NULL) {
		snprintf(msg, sizeof msg, "%s has no record format to import: verify its replays with "
		    "replays/verify", g->name);
		request_reply_error(req, API_ERR_NOT_FOUND, msg);
		return;
	}
	if (!json_is_object(req->json)) {
		request_reply_error(req, API_ERR_INVALID_REQUEST, "the body is {\"record\": \"...\", "
		    "\"supplier\": 0-3}");
		return;
	}
	if ((im = request_ctx_new(req, sizeof *im, import_free)) == NULL)
		return;
	im->game = g;
	im->body = req->json;
	workers_submit_or_busy(req->app->verify, req, import_task, im, import_done, "replay importer");
}

/* ---- GET /api/games/{game}/runs/{runId}/record ---- */

struct record_job {
	const struct game *game;
	game_state         st;      /* the run's end */
	json_t            *actions; /* its stored moves (owned) */
	json_t            *record;  /* the game's answer, or NULL */
	char               run[GAME_ID_TEXT_MAX];
};

static void
record_free(void *arg)
{
	struct record_job *j = arg;

	json_decref(j->actions);
	json_decref(j->record);
	free(j);
}

static void
record_task(void *arg)
{
	struct record_job *j = arg;

	j->record = game_ext(j->game)->run_record(&j->st, j->actions);
}

static void
record_done(struct request *req)
{
	struct record_job *j = req->ctx;
	json_t *o;

	/* The stored moves were played when they were stored: a record that
	 * cannot be made from them is the server's fault (or memory's). */
	if (j->record == NULL) {
		request_reply_error(req, API_ERR_INTERNAL, "the stored run does not export");
		return;
	}
	o = json_pack("{s:s, s:s}", "runId", j->run, "game", j->game->name);
	if (o == NULL || json_object_update(o, j->record) != 0) {
		json_decref(o);
		request_reply_error(req, API_ERR_INTERNAL, "out of memory");
		return;
	}
	request_reply_json(req, 200, o);
}

void
handle_run_record(struct request *req, const struct game *g)
{
	struct store_run_head head;
	struct record_job *j;
	char msg[GAME_NAMES_MAX + 64];
	int64_t id;
	json_t *actions = NULL;

	if (game_ext(g)->run_record == NULL) {
		snprintf(msg, sizeof msg, "%s has no record format to export: its runs answer their "
		    "replay", g->name);
		request_reply_error(req, API_ERR_NOT_FOUND, msg);
		return;
	}
	if (handlers_read_run(req, g, &id, &head, &actions) != 0)
		return;
	if (!head.over) {
		json_decref(actions);
		request_reply_error(req, API_ERR_RUN_NOT_OVER, "a run is exported once it is over");
		return;
	}
	if ((j = request_ctx_new(req, sizeof *j, record_free)) == NULL) {
		json_decref(actions);
		return;
	}
	j->game = g;
	j->actions = actions;
	play_id_text(id, j->run);
	if (actions == NULL || !g->decode(&j->st, head.state, head.nstate)) {
		request_reply_error(req, API_ERR_INTERNAL, "the stored run does not read back");
		return;
	}
	workers_submit_or_busy(req->app->verify, req, record_task, j, record_done, "record writer");
}
