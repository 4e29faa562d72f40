/*
 * auth.h: agent keys on requests (Authorization: Bearer arcd_...), and on
 * POST /mcp the OAuth access tokens granted for them (a Bearer that is not
 * an agent key there is one: api/mcp/oauth.h, docs/mcp.md).
 *
 * A key is checked for shape and checksum first (no database needed: a
 * typo is a 401 at once), then looked up by its public id and compared by
 * keyed hash in constant time. The key itself is never logged or stored.
 * An access token is opened, its resource compared with this daemon's
 * /mcp, and the agent key it was granted with looked up: a revoked key
 * refuses its tokens from the next request on.
 */
#ifndef SERVER_AUTH_H
#define SERVER_AUTH_H

#include <stdbool.h>
#include <stdint.h>

#include "http.h"
#include "store.h"

struct account_ref {
	int64_t id;
	char    name[STORE_NAME_MAX + 1];
	char    key_id[STORE_KEY_ID_MAX + 1];
};

enum auth_result {
	AUTH_NONE,   /* no Authorization header */
	AUTH_OK,     /* *out is the key's account */
	AUTH_FAILED, /* a 401 (or, for a database failure, a 500) has been queued */
};

#define AUTH_WHY_MAX 160

/* Reads the Bearer key of req. With required set, a missing key is a 401
 * too; otherwise it is AUTH_NONE (anonymous). */
enum auth_result auth_bearer(struct request *req, bool required, struct account_ref *out);

/* The same without answering: on AUTH_FAILED, *status is 401, 429 (the
 * account is over its rate limit for the route: *out is then the key's
 * account all the same) or 500 and why says what to tell the client. */
enum auth_result auth_check(struct request *req, bool required, struct account_ref *out,
    int *status, char why[AUTH_WHY_MAX]);

/* Whose key req carries, without taking the account's rate limit or
 * answering anything: true with *out for a valid, unrevoked key. For what
 * a request already refused may show (play.c's 429). */
bool auth_identify(struct request *req, struct account_ref *out);

/* auth_check without taking the account's rate limit. */
enum auth_result auth_peek(struct request *req, struct account_ref *out, int *status,
    char why[AUTH_WHY_MAX]);

/* An agent key's text (len bytes, not the header) checked as a Bearer key
 * is: AUTH_OK with *out, or AUTH_FAILED with *status 401 or 500 and why.
 * Takes no rate limit. For the OAuth consent page. */
enum auth_result auth_key(struct request *req, const char *key, size_t len,
    struct account_ref *out, int *status, char why[AUTH_WHY_MAX]);

/* Whether req is a request to /mcp whose Bearer is an access token rather
 * than an agent key (not "arcd_..."). */
bool auth_access_token_sent(struct request *req);

/* Queues the 401 of a refused access token: WWW-Authenticate with
 * error="invalid_token", why (static-like text without quotes) and the
 * resource_metadata URL that starts the client's authorization again. */
void auth_refuse_token(struct request *req, const char *why);

/* Queues the answer auth_check described (401 with WWW-Authenticate, 429
 * with its rate-limit fields, or 500), extra (stolen, may be NULL) merged
 * into the envelope. */
void auth_refuse(struct request *req, int status, const char *why, json_t *extra);

#endif
