/*
 * errors.c: the error table. Codes and statuses are part of the public
 * contract (openapi.yaml lists them); messages are defaults that a handler
 * may replace with a more precise one naming the field at fault.
 */
#include "errors.h"

#include <string.h>

#include "agentkey.h"
#include "jw.h"
#include "match_rules.h"
#include "quote.h"
#include "stackfall_cmd.h"

/* A limit's value in a message, from its constant. */
#define ERRORS_STR_(x) #x
#define ERRORS_STR(x) ERRORS_STR_(x)


static const struct api_error_info table[API_ERR__COUNT] = {
	[API_ERR_INVALID_JSON]        = { "invalid_json", 400, "the request body is not valid JSON" },
	[API_ERR_INVALID_REQUEST]     = { "invalid_request", 400, "the request is malformed" },
	[API_ERR_INVALID_STATE_TOKEN] = { "invalid_state_token", 400, "the stateToken does not open" },
	[API_ERR_UNAUTHORIZED]        = { "unauthorized", 401, "a valid agent key is required" },
	[API_ERR_FORBIDDEN]           = { "forbidden", 403, "this run belongs to another account" },
	[API_ERR_NOT_FOUND]           = { "not_found", 404, "no such route" },
	[API_ERR_RUN_NOT_FOUND]       = { "run_not_found", 404, "no such run" },
	[API_ERR_METHOD_NOT_ALLOWED]  = { "method_not_allowed", 405, "this route does not take that method" },
	[API_ERR_STALE_STATE_TOKEN]   = { "stale_state_token", 409, "the stateToken is not the run's newest" },
	[API_ERR_RUN_NOT_OVER]        = { "run_not_over", 409, "the run is not over yet" },
	[API_ERR_ALREADY_FINISHED]    = { "already_finished", 409, "the run has already been finished" },
	[API_ERR_NAME_TAKEN]          = { "name_taken", 409, "that account name is taken" },
	[API_ERR_KEY_LIMIT]           = { "key_limit", 409, "an account has at most " ERRORS_STR(AGENTKEY_LIVE_MAX) " live agent keys: revoke one first" },
	[API_ERR_NO_CURRENT_RUN]      = { "no_current_run", 409, "the account has no game; start one with new" },
	[API_ERR_PAYLOAD_TOO_LARGE]   = { "payload_too_large", 413, "the request body is too large" },
	[API_ERR_UNSUPPORTED_MEDIA]   = { "unsupported_media_type", 415,
	                                  "a request body must be JSON, sent as Content-Type: application/json" },
	[API_ERR_ILLEGAL_ACTION]      = { "illegal_action", 422, "the action is not legal now" },
	[API_ERR_INVALID_COMMAND]     = { "invalid_command", 422, "the command was refused" },
	[API_ERR_TOO_MANY_COMMANDS]   = { "too_many_commands", 422, "at most " ERRORS_STR(STACKFALL_CMD_MAX) " commands per request" },
	[API_ERR_EMPTY_COMMAND]       = { "empty_command", 422, "the request holds no command" },
	[API_ERR_GAME_OVER]           = { "game_over", 422, "the game is over" },
	[API_ERR_INVALID_REPLAY]      = { "invalid_replay", 422, "the replay does not verify" },
	[API_ERR_AGENT_CHECK]         = { "agent_check_required", 428, "answer the agent check to go on" },
	[API_ERR_RATE_LIMITED]        = { "rate_limited", 429, "too many requests: retry after the time given" },
	[API_ERR_INTERNAL]            = { "internal", 500, "internal error" },
	[API_ERR_NOT_READY]           = { "not_ready", 503, "the database is not ready" },
	[API_ERR_SHUTTING_DOWN]       = { "shutting_down", 503, "the server is shutting down" },
	[API_ERR_BUSY]                = { "busy", 503, "the server is busy with other such requests: retry shortly" },
	[API_ERR_MATCH_NOT_FOUND]     = { "match_not_found", 404, "no such match" },
	[API_ERR_NOT_A_PLAYER]        = { "not_a_player", 403, "the agent key's account has no seat in this match" },
	[API_ERR_MATCH_FULL]          = { "match_full", 409, "the match has no seat left" },
	[API_ERR_ALREADY_JOINED]      = { "already_joined", 409, "the account has a seat in this match already" },
	[API_ERR_MATCH_NOT_STARTED]   = { "match_not_started", 409, "the match waits for players: it starts when every seat is taken" },
	[API_ERR_MATCH_OVER]          = { "match_over", 409, "the match is over" },
	[API_ERR_MATCH_NOT_OVER]      = { "match_not_over", 409, "the match is not over yet" },
	[API_ERR_WRONG_TURN]          = { "wrong_turn", 409, "the move is not for the turn open now" },
	[API_ERR_ALREADY_MOVED]       = { "already_moved", 409, "one move per turn: this turn has yours" },
	[API_ERR_PLAYER_OUT]          = { "player_out", 409, "the player is out of the match" },
	[API_ERR_TOO_MANY_LOBBIES]    = { "too_many_lobbies", 409, "an account has at most " ERRORS_STR(MATCH_LOBBIES_MAX)
	                                  " matches waiting for players: fill or wait out one first" },
	[API_ERR_RUN_EXPIRED]         = { "run_expired", 410, "the run has expired and can no longer be continued" },
	[API_ERR_ACCOUNT_NOT_FOUND]   = { "account_not_found", 404, "no account has this name" },
	[API_ERR_STORAGE_FULL]        = { "storage_full", 503, "the server's storage is full: nothing was stored; retry later" },
	[API_ERR_QUOTA_EXCEEDED]      = { "quota_exceeded", 429, "a day's storage quota is used: retry after the time given (00:00 UTC)" },
	[API_ERR_NOT_IMPLEMENTED]     = { "not_implemented", 501, "the request uses a transfer coding this server does not implement (only chunked)" },
	[API_ERR_DATABASE_UNAVAILABLE] = { "database_unavailable", 503, "the database cannot be reached now: nothing was stored; retry after the time given" },
	[API_ERR_CLOCK_UNSUPPORTED]   = { "clock_unsupported", 422, "this ruleset is played turn by turn only: leave out 'clock' or choose another ruleset" },
	[API_ERR_WRONG_CLOCK]         = { "wrong_clock", 409, "the match runs on the other clock: moves are for turn-by-turn matches, keys for real-time ones" },
	[API_ERR_OUTCOME_UNKNOWN]     = { "outcome_unknown", 503, "the database went away while storing the request: it may or may not have been stored; resend the same request to get its answer" },
};

const struct api_error_info *
api_error_info(enum api_error e)
{
	if ((unsigned)e >= API_ERR__COUNT)
		e = API_ERR_INTERNAL;
	return &table[e];
}

int
api_error_status(enum api_error e)
{
	return api_error_info(e)->status;
}

const char *
api_error_text(char *buf, size_t cap, const char *message)
{
	if (jw_utf8(message, strlen(message)))
		return message;
	return text_quote(buf, cap, message, cap);
}

json_t *
api_error_new(enum api_error e, const char *message)
{
	const struct api_error_info *info = api_error_info(e);
	char valid[API_ERROR_TEXT_MAX];

	return json_pack("{s:{s:s, s:s}}", "error",
	    "code", info->code,
	    "message", message != NULL ? api_error_text(valid, sizeof valid, message) : info->message);
}
