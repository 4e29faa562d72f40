/*
 * handlers_live.c: a real-time match over HTTP (a match created with
 * "clock": "ticks", played by the tick host, match_live.h):
 *
 *   POST /api/matches/{id}/keys     {keys}: a seat's keys, applied at the next tick; answered
 *                                   once they are stored, with that tick
 *   GET  /api/matches/{id}/stream   Server-Sent Events: a frame for every tick that changes
 *                                   what the caller sees (its own previews with its key)
 *
 * A bot sends its keys as ordinary requests on a kept-alive connection,
 * authorised as moves are (its Bearer key's account holds the seat), and
 * keeps one stream open: a seat whose stream stays closed for 2 s is out.
 * Bounds: MATCH_LIVE_KEYS_MAX keys a request, MATCH_LIVE_TICK_INPUTS
 * waiting for one tick a seat (429), MATCH_LIVE_STREAMS streams a match
 * (503 busy) and the held streams of an address or an account (holds.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "auth.h"
#include "defer.h"
#include "handlers.h"
#include "holds.h"
#include "jsonbody.h"
#include "jw.h"
#include "match_live.h"
#include "match_play.h"
#include "match_ticks.h"

#define TOO_MANY_RETRY_S "1"
/* A match playing, but on another daemon or being resumed (README,
 * "Running several daemons"). */
#define NOT_HERE_MSG "this daemon does not play the match now: retry in a second"

/* The row of match id into op from a reader; false once answered (404,
 * 500). */
static bool
live_row(struct request *req, struct match_play_op *op, int64_t id)
{
	struct store_conn *c = store_reader(req->app->store);
	enum store_result rc = match_play_read(c, op, id);

	store_reader_release(req->app->store, c);
	if (rc == STORE_OK)
		return true;
	request_reply_error(req, rc == STORE_NOT_FOUND ? API_ERR_MATCH_NOT_FOUND : API_ERR_INTERNAL, NULL);
	return false;
}

/* A match the host does not play: why, from its row. */
static void
not_live(struct request *req, int64_t id, int64_t account_id)
{
	struct match_play_op *op = match_play_op_new(req, MATCH_PLAY_OP_MOVE);

	if (op == NULL || !live_row(req, op, id))
		return;
	if (!op->row.ticks)
		request_reply_error(req, API_ERR_WRONG_CLOCK, "the match is played turn by turn: send "
		    "its moves to POST /api/matches/{id}/move");
	else if (match_play_seat_of(&op->row, account_id) < 0)
		request_reply_error(req, API_ERR_NOT_A_PLAYER, NULL);
	else if (strcmp(op->row.status, "lobby") == 0)
		request_reply_error(req, API_ERR_MATCH_NOT_STARTED, NULL);
	else if (strcmp(op->row.status, "finished") == 0)
		request_reply_error(req, API_ERR_MATCH_OVER, NULL);
	else
		request_reply_later(req, API_ERR_BUSY, "1", NOT_HERE_MSG);
}

/* ---- POST /api/matches/{id}/keys ---- */

struct keys_ctx {
	int64_t               id;
	struct match_live_ack ack;
};

static void
keys_done(struct request *req)
{
	struct keys_ctx *k = req->ctx;
	char id[24], msg[160], *text;
	struct jw w;
	size_t len = 0;

	if (!defer_committed(req)) {
		/* Applied in the match, but not stored: the host stores them
		 * with the next inputs; sent again they would be applied twice. */
		snprintf(msg, sizeof msg, "the keys were applied at tick %u but could not be stored yet; "
		    "do not send them again", k->ack.tick);
		request_reply_error(req, defer_outage(req) == API_ERR_INTERNAL ? API_ERR_DATABASE_UNAVAILABLE :
		    defer_outage(req), msg);
		return;
	}
	snprintf(id, sizeof id, "%lld", (long long)k->id);
	jw_init(&w, 128, 1024);
	jw_object(&w);
	jw_kstring(&w, "match_id", id);
	jw_kint(&w, "seat", k->ack.seat);
	jw_kint(&w, "tick", k->ack.tick);
	jw_kint(&w, "keys", (int64_t)k->ack.nkeys);
	jw_object_end(&w);
	text = jw_take(&w, &len);
	request_reply_json_text(req, 200, text, len);
}

void
handle_match_keys(struct request *req)
{
	static const char *const fields[] = { "keys", NULL };
	struct account_ref acct;
	struct keys_ctx *k;
	const char *keys = NULL;
	char msg[JSONBODY_MSG_MAX];
	int64_t id;

	if (!match_path_id(req, &id))
		return;
	if (!jsonbody_known(req->json, fields, msg, sizeof msg) ||
	    !jsonbody_string(req->json, "keys", &keys, msg, sizeof msg)) {
		request_reply_error(req, API_ERR_INVALID_REQUEST, msg);
		return;
	}
	if (keys == NULL) {
		request_reply_error(req, API_ERR_INVALID_REQUEST,
		    "missing field 'keys' (a string of the ruleset's keys, as its rules page lists them)");
		return;
	}
	if (auth_bearer(req, true, &acct) != AUTH_OK)
		return;
	if ((k = request_ctx_new(req, sizeof *k, free)) == NULL)
		return;
	k->id = id;
	switch (match_live_keys(match_play_live(req->app->matches), id, acct.id, keys,
	    json_string_length(json_object_get(req->json, "keys")), req, keys_done, &k->ack)) {
	case MATCH_LIVE_QUEUED:
		break;
	case MATCH_LIVE_NOT_LIVE:
		req->ctx = NULL;
		req->ctx_free = NULL;
		free(k);
		not_live(req, id, acct.id);
		break;
	case MATCH_LIVE_NOT_A_PLAYER:
		request_reply_error(req, API_ERR_NOT_A_PLAYER, NULL);
		break;
	case MATCH_LIVE_OUT:
		request_reply_error(req, API_ERR_PLAYER_OUT, NULL);
		break;
	case MATCH_LIVE_OVER:
		request_reply_error(req, API_ERR_MATCH_OVER, "the match is over: its result is shown");
		break;
	case MATCH_LIVE_TOO_MANY:
		request_add_header(req, "Retry-After", TOO_MANY_RETRY_S);
		request_reply_error_with(req, API_ERR_RATE_LIMITED, "the seat has as many keys waiting "
		    "for the next tick as it may: send the rest after it", json_pack("{s:{s:s, s:i}}",
		    "ratelimit", "key", "account", "seconds", 1));
		break;
	case MATCH_LIVE_BAD_KEYS:
		request_reply_error(req, API_ERR_INVALID_COMMAND, k->ack.reason);
		break;
	case MATCH_LIVE_SHUTTING_DOWN:
		request_reply_error(req, API_ERR_SHUTTING_DOWN, NULL);
		break;
	}
}

/* ---- GET /api/matches/{id}/stream ---- */

void
handle_match_stream(struct request *req)
{
	struct match_live *live = match_play_live(req->app->matches);
	struct match_play_op *op;
	struct match_rules_record rec;
	struct account_ref acct = { 0 };
	enum auth_result a = auth_bearer(req, false, &acct);
	enum match_live_stream rc;
	char *first = NULL;
	size_t len = 0;
	int64_t id;
	int viewer = -1, tries;
	bool over = false;

	if (a == AUTH_FAILED || !match_path_id(req, &id))
		return;
	if (!holds_request(req->app->holds, req, HOLDS_STREAM, a == AUTH_OK ? acct.id : 0))
		return;
	if ((op = match_play_op_new(req, MATCH_PLAY_OP_MOVE)) == NULL || !live_row(req, op, id))
		return;
	if (!op->row.ticks) {
		request_reply_error(req, API_ERR_WRONG_CLOCK, "the match is played turn by turn: its "
		    "stream is GET /api/matches/{id}/events");
		return;
	}
	if (a == AUTH_OK)
		viewer = match_play_seat_of(&op->row, acct.id);
	/* Live here: the host's frames. Else the row's: the lobby waits for
	 * the start; a finished match is one frame. A start between the two
	 * looks is asked again. */
	for (tries = 0, rc = MATCH_LIVE_NOT_HERE; tries < 3 && rc == MATCH_LIVE_NOT_HERE; tries++) {
		if ((rc = match_live_stream(live, id, viewer, req)) != MATCH_LIVE_NOT_HERE)
			break;
		if (tries > 0 && !live_row(req, op, id))
			return;
		over = strcmp(op->row.status, "finished") == 0;
		if (!over && strcmp(op->row.status, "lobby") != 0) {
			rc = MATCH_LIVE_NOT_HERE; /* playing, not here (yet): resuming, or another daemon */
			break;
		}
		memset(&rec, 0, sizeof rec);
		rec.id = op->row.id;
		rec.rules = op->row.rules;
		rec.status = op->row.status;
		rec.players = op->row.players;
		rec.turn_cap = op->row.turn_cap;
		rec.nseats = op->row.nseats;
		for (int i = 0; i < rec.nseats && i < MATCH_PLAYERS_MAX; i++)
			rec.seats[i].account = op->row.seats[i].name;
		if (over && op->st != NULL) {
			rec.state = op->st;
			rec.totals = op->row.totals;
		}
		free(first);
		if ((first = match_live_event_text(op->rules, &rec, viewer, (uint32_t)op->row.turn,
		    over ? "finished" : "lobby", NULL, &len)) == NULL) {
			rc = MATCH_LIVE_FAILED;
			break;
		}
		rc = match_live_stream_waiting(live, id, viewer, req, first, len, over);
	}
	free(first);
	switch (rc) {
	case MATCH_LIVE_STREAMING:
		break;
	case MATCH_LIVE_NOT_HERE:
		request_reply_later(req, API_ERR_BUSY, "1", NOT_HERE_MSG);
		break;
	case MATCH_LIVE_FULL:
		request_reply_later(req, API_ERR_BUSY, "5", "the match has as many streams open as it may: "
		    "retry later");
		break;
	case MATCH_LIVE_FAILED:
		if (!req->replied)
			request_reply_error(req, API_ERR_INTERNAL, "out of memory");
		break;
	}
}
