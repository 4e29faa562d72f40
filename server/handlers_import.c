/*
 * handlers_import.c: POST /api/games/{game}/replays/import, a record in
 * a game's outside format (hatetris-classic: the original HATETRIS's
 * replay strings) re-simulated and answered. The game's replay_import does
 * the work, on the verifiers' workers: the longest published record is
 * 138,454 keys and 9,309 supplier calls, which an HTTP thread must not
 * spend. Nothing is stored.
 */
#include <stdio.h>
#include <stdlib.h>

#include "app.h"
#include "errors.h"
#include "game.h"
#include "handlers.h"
#include "http.h"
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

	im->answer = im->game->replay_import(im->body, &im->oom, im->why, sizeof im->why);
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

	if (g->replay_import == NULL) {
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
	if ((im = calloc(1, sizeof *im)) == NULL) {
		request_reply_error(req, API_ERR_INTERNAL, "out of memory");
		return;
	}
	im->game = g;
	im->body = req->json;
	req->ctx = im;
	req->ctx_free = import_free;
	workers_submit_or_busy(req->app->verify, req, import_task, im, import_done, "replay importer");
}
