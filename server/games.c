/*
 * games.c: the request pieces Stackfall and Duskcourt share. Messages
 * name the field at fault.
 */
#include "games.h"

#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "app.h"
#include "jsonbody.h"

bool
games_read_seed(struct request *req, int64_t *seed, bool *chosen)
{
	static const char *const fields[] = { "seed", NULL };
	const char *q = request_query(req, "seed");
	char msg[JSONBODY_MSG_MAX];
	bool present = false;

	if (!jsonbody_known(req->json, fields, msg, sizeof msg)) {
		request_reply_error(req, API_ERR_INVALID_REQUEST, msg);
		return false;
	}
	if (!jsonbody_int(req->json, "seed", 0, GAMES_SEED_MAX, &present, seed, msg, sizeof msg)) {
		request_reply_error(req, API_ERR_INVALID_REQUEST, msg);
		return false;
	}
	if (!present && q != NULL) {
		if (!jsonbody_parse_int(q, 0, GAMES_SEED_MAX, seed)) {
			request_reply_error(req, API_ERR_INVALID_REQUEST,
			    "query 'seed' must be an integer from 0 to 9007199254740991");
			return false;
		}
		present = true;
	}
	*chosen = present;
	if (!present) {
		uint64_t r;

		randombytes_buf(&r, sizeof r);
		*seed = (int64_t)(r & (uint64_t)GAMES_SEED_MAX);
	}
	return true;
}

const char *
games_read_token(struct request *req, const char *const *allowed)
{
	char msg[JSONBODY_MSG_MAX];
	const char *text;

	if (req->method != HTTP_POST) {
		text = request_query(req, "stateToken");
		if (text == NULL)
			request_reply_error(req, API_ERR_INVALID_REQUEST, "missing query 'stateToken'");
		return text;
	}
	if (!jsonbody_known(req->json, allowed, msg, sizeof msg) ||
	    !jsonbody_string(req->json, "stateToken", &text, msg, sizeof msg)) {
		request_reply_error(req, API_ERR_INVALID_REQUEST, msg);
		return NULL;
	}
	return text;
}

bool
games_read_review(struct request *req, int *rating, const char **review)
{
	char msg[JSONBODY_MSG_MAX];
	const json_t *r = req->json ? json_object_get(req->json, "rating") : NULL;
	size_t nchars = 0;
	int64_t v = 0;
	bool present;

	if (r == NULL) {
		request_reply_error(req, API_ERR_INVALID_REQUEST, "missing field 'rating' (an integer 1-10)");
		return false;
	}
	if (!jsonbody_int(req->json, "rating", 1, 10, &present, &v, msg, sizeof msg)) {
		request_reply_error(req, API_ERR_INVALID_REQUEST, msg);
		return false;
	}
	if (!jsonbody_string(req->json, "review", review, msg, sizeof msg)) {
		request_reply_error(req, API_ERR_INVALID_REQUEST, msg);
		return false;
	}
	if (!jsonbody_utf8(*review, json_string_length(json_object_get(req->json, "review")), &nchars) ||
	    nchars < 1 || nchars > 2000) {
		request_reply_error(req, API_ERR_INVALID_REQUEST,
		    "field 'review' must be 1-2000 characters of UTF-8 text");
		return false;
	}
	*rating = (int)v;
	return true;
}

void
games_open_token(struct request *req, struct run_job *j, enum game g, const char *text)
{
	j->has_token = true;
	j->tok_err = token_open(req->app->keys, g, text, strlen(text), &j->tok);
}

void
games_prepare_check(struct request *req, struct run_job *j, enum game g)
{
	j->game = g;
	j->keys = req->app->keys;
	j->check_on = req->app->cfg->agent_check[g];
	if (!j->check_on)
		return;
	agent_answer_read(req, &j->answer);
	agent_fresh_make(&j->fresh, store_now_ms());
}

bool
games_reply_common(struct request *req, struct run_job *j, json_t *extra)
{
	if (req->job.status != STORE_COMMITTED)
		j->verdict = RUN_ERROR;
	if (extra == NULL)
		extra = json_object();
	if (j->check_on && j->verdict != RUN_ERROR && j->verdict != RUN_CHECK_FAILED)
		json_object_set_new(extra, "agent_check", agent_fresh_json(&j->fresh, store_now_ms()));
	switch (j->verdict) {
	case RUN_CHECK_FAILED:
		json_decref(extra);
		agent_check_refuse(req, &j->answer, j->check, &j->fresh);
		return true;
	case RUN_TOKEN_BAD:
		request_reply_error_with(req, API_ERR_INVALID_STATE_TOKEN, token_strerror(j->tok_err), extra);
		return true;
	case RUN_NOT_FOUND:
		request_reply_error_with(req, API_ERR_RUN_NOT_FOUND, "the stateToken's run is not stored here",
		    extra);
		return true;
	case RUN_NO_RUN:
		request_reply_error_with(req, API_ERR_NO_CURRENT_RUN, NULL, extra);
		return true;
	case RUN_NOT_OVER:
		request_reply_error_with(req, API_ERR_RUN_NOT_OVER, NULL, extra);
		return true;
	case RUN_ALREADY_FINISHED:
		request_reply_error_with(req, API_ERR_ALREADY_FINISHED, NULL, extra);
		return true;
	case RUN_ERROR:
		json_decref(extra);
		request_reply_error(req, API_ERR_INTERNAL, "the request could not be stored; nothing changed");
		return true;
	default:
		json_decref(extra);
		return false;
	}
}

void
games_reply_with_body(struct request *req, enum api_error e, const char *message, json_t *body)
{
	if (body == NULL) {
		request_reply_error(req, API_ERR_INTERNAL, NULL);
		return;
	}
	if (message == NULL && e == API_ERR_STALE_STATE_TOKEN)
		message = "the stateToken is not the run's newest: here are the run as it stands and "
		    "its newest token";
	json_object_del(body, "game");
	request_reply_error_with(req, e, message, body);
}
