/*
 * token.h: stateTokens.
 *
 * A stateToken is a PASETO v4.local token. Its payload (encrypted) is the
 * JSON object {"rules", "step", "iat", "state"}, "state" being the engine's
 * serialised state in base64url; its footer (public, authenticated) is
 * {"kid", "run"}, kid being the PASERK k4.lid of the key that sealed it;
 * the implicit assertion is "arcaded:GAME:RUN", which binds the token to
 * its game and run without spelling them out: a token moved to another run
 * or game does not authenticate (one that opens under another game's
 * assertion is reported as that game's). Nothing about the game state is
 * readable without the key; the footer says only which key and which run.
 */
#ifndef API_TOKEN_H
#define API_TOKEN_H

#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "keys.h"

#define TOKEN_STATE_MAX GAME_STATE_MAX  /* engine state bytes */
#define TOKEN_TEXT_MAX  2048  /* a token's text length, NUL excluded */

struct state_token {
	enum game_id game;
	int       rules;      /* the game's rules version (its descriptor's rules_version) */
	int64_t   run;        /* run id, 1 .. 2^53-1 */
	int64_t   step;       /* moves applied when the token was sealed */
	int64_t   issued_at;  /* Unix seconds when sealed; the token expires ttl seconds later */
	uint8_t   state[TOKEN_STATE_MAX];
	size_t    nstate;
};

enum token_err {
	TOKEN_OK = 0,
	TOKEN_ERR_MALFORMED,   /* not a v4.local token, or its footer is not ours */
	TOKEN_ERR_WRONG_GAME,  /* a token of another game */
	TOKEN_ERR_UNKNOWN_KEY, /* sealed with a key this server does not hold */
	TOKEN_ERR_DAMAGED,     /* does not authenticate: altered, truncated or forged */
	TOKEN_ERR_PAYLOAD,     /* authenticates but does not hold a state (a bug or an old format) */
	TOKEN_ERR_EXPIRED,     /* sealed more than the lifetime ago (or in the future) */
	TOKEN_ERR_RULES,       /* sealed under another rules version of the game */
	TOKEN_ERR_NOMEM,
};

/* A sentence for e, fit for an error message (static storage). */
const char *token_strerror(enum token_err e);

/* Seals t with the ring's current key. Returns the NUL-terminated token
 * (caller frees with free()) or NULL when out of memory or t is invalid. */
char *token_seal(const struct keyring *kr, const struct state_token *t);

/* Opens text (len bytes) expecting a token of game `expect`, at time now
 * (Unix seconds), for tokens that live ttl seconds; fills *out on
 * TOKEN_OK. A token sealed more than TOKEN_CLOCK_SKEW seconds in the future
 * (another daemon's clock) is refused as expired too. The lifetime is only
 * checked once the token has authenticated, so "expired" never leaks
 * anything of a forgery; on TOKEN_ERR_EXPIRED *out holds the token's game,
 * rules, run, step and issued_at (authentic), and no state (nstate 0).
 * Every other failure leaves *out unspecified. */
#define TOKEN_CLOCK_SKEW 300
enum token_err token_open(const struct keyring *kr, enum game_id expect, const char *text,
    size_t len, int64_t now, int64_t ttl, struct state_token *out);

#endif
