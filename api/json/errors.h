/*
 * errors.h: the one table of API errors.
 *
 * Every non-2xx answer of the daemon is {"error": {"code", "message"}} plus
 * whatever helps the caller go on. Raising an error is one line:
 * `api_error_new(API_ERR_NOT_FOUND, NULL)`; the table maps each code to its
 * HTTP status and default message.
 */
#ifndef API_ERRORS_H
#define API_ERRORS_H

#include <jansson.h>

enum api_error {
	API_ERR_INVALID_JSON,        /* 400 the body is not JSON */
	API_ERR_INVALID_REQUEST,     /* 400 a field is missing, unknown or of the wrong kind */
	API_ERR_INVALID_STATE_TOKEN, /* 400 the stateToken does not open */
	API_ERR_UNAUTHORIZED,        /* 401 missing, malformed, unknown or revoked agent key */
	API_ERR_FORBIDDEN,           /* 403 the run belongs to another account */
	API_ERR_NOT_FOUND,           /* 404 unknown route */
	API_ERR_RUN_NOT_FOUND,       /* 404 unknown run */
	API_ERR_METHOD_NOT_ALLOWED,  /* 405 */
	API_ERR_STALE_STATE_TOKEN,   /* 409 an older token of the run */
	API_ERR_RUN_NOT_OVER,        /* 409 finish before the end */
	API_ERR_ALREADY_FINISHED,    /* 409 a second finish */
	API_ERR_NAME_TAKEN,          /* 409 account name in use */
	API_ERR_KEY_LIMIT,           /* 409 already two live agent keys */
	API_ERR_NO_CURRENT_RUN,      /* 409 the account has no run to act on */
	API_ERR_PAYLOAD_TOO_LARGE,   /* 413 */
	API_ERR_UNSUPPORTED_MEDIA,   /* 415 a body that is not application/json */
	API_ERR_ILLEGAL_ACTION,      /* 422 Duskcourt: not legal now */
	API_ERR_INVALID_COMMAND,     /* 422 Stackfall: the first command failed */
	API_ERR_TOO_MANY_COMMANDS,   /* 422 more than 50 commands */
	API_ERR_EMPTY_COMMAND,       /* 422 no command at all */
	API_ERR_GAME_OVER,           /* 422 a command after the end */
	API_ERR_INVALID_REPLAY,      /* 422 a replay that does not verify */
	API_ERR_AGENT_CHECK,         /* 428 missing, wrong, expired or spent answer */
	API_ERR_RATE_LIMITED,        /* 429 too many requests of a kind; Retry-After says when */
	API_ERR_INTERNAL,            /* 500 */
	API_ERR_NOT_READY,           /* 503 database not writable or not migrated */
	API_ERR_SHUTTING_DOWN,       /* 503 */
	API_ERR_BUSY,                /* 503 the workers for expensive requests are all taken */
	API_ERR_MATCH_NOT_FOUND,     /* 404 unknown match */
	API_ERR_NOT_A_PLAYER,        /* 403 the key's account has no seat in the match */
	API_ERR_MATCH_FULL,          /* 409 no seat left (or the match has started) */
	API_ERR_ALREADY_JOINED,      /* 409 the account has a seat already */
	API_ERR_MATCH_NOT_STARTED,   /* 409 a move in the lobby */
	API_ERR_MATCH_OVER,          /* 409 a move or a join after the end */
	API_ERR_MATCH_NOT_OVER,      /* 409 the replay of a match still being played */
	API_ERR_WRONG_TURN,          /* 409 a move for a turn resolved already or not open yet */
	API_ERR_ALREADY_MOVED,       /* 409 a second move in one turn */
	API_ERR_PLAYER_OUT,          /* 409 a move from a player out of the match */
	API_ERR_TOO_MANY_LOBBIES,    /* 409 the account has MATCH_LOBBIES_MAX matches waiting for players */
	API_ERR_RUN_EXPIRED,         /* 410 an anonymous run whose newest token has expired */
	API_ERR_ACCOUNT_NOT_FOUND,   /* 404 no account has this name */
	API_ERR_NOT_IMPLEMENTED,     /* 501 a transfer coding other than chunked */
	API_ERR_STORAGE_FULL,        /* 503 the database's disk is full; Retry-After */
	API_ERR_DATABASE_UNAVAILABLE, /* 503 no writable database reached within --db-retry-seconds; Retry-After */
	API_ERR_OUTCOME_UNKNOWN,     /* 503 the commit's connection was lost: resend the same request; Retry-After */
	API_ERR_QUOTA_EXCEEDED,      /* 429 a day's storage quota is used; Retry-After until 00:00 UTC */
	API_ERR_CLOCK_UNSUPPORTED,   /* 422 the ruleset has no real-time clock */
	API_ERR_WRONG_CLOCK,         /* 409 a move to a real-time match, keys to a turn-by-turn one */
	API_ERR__COUNT
};

struct api_error_info {
	const char *code;    /* stable machine-readable code */
	int         status;  /* HTTP status */
	const char *message; /* default human-readable message */
};

/* The table entry of e; never NULL for a valid e. */
const struct api_error_info *api_error_info(enum api_error e);

/* The HTTP status of e. */
int api_error_status(enum api_error e);

/* A new {"error": {"code", "message"}} object; message NULL takes the
 * table's default. The caller owns the result (NULL only when out of
 * memory). */
json_t *api_error_new(enum api_error e, const char *message);

/* The room api_error_text repairs a message in. */
#define API_ERROR_TEXT_MAX 512

/* message itself when it is valid UTF-8; otherwise (a client's bytes, or
 * a byte cap that fell inside a character) the same text made valid in
 * buf (text_quote: '?' for what is not a character, cut on a boundary
 * with "..." past cap). Either way JSON can carry it. */
const char *api_error_text(char *buf, size_t cap, const char *message);

#endif
