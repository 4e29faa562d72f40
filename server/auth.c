/*
 * auth.c: Bearer agent keys, and on POST /mcp the OAuth access tokens the
 * daemon grants for them (docs/mcp.md). One indexed read on a reader
 * connection per authenticated request, whichever was sent: a token is
 * opened (no store) and its agent key looked up, so that revoking the key
 * refuses the token at once.
 */
#include "auth.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "agentkey.h"
#include "app.h"
#include "keys.h"
#include "oauth.h"
#include "throttle.h"

/* The Bearer value of req (trimmed), or NULL with *n 0 when the header is
 * no Bearer. */
static const char *
bearer(struct request *req, size_t *n)
{
	const char *h = request_header(req, "Authorization");

	*n = 0;
	if (h == NULL || strncmp(h, "Bearer ", 7) != 0)
		return NULL;
	h += 7;
	while (*h == ' ')
		h++;
	*n = strlen(h);
	while (*n > 0 && h[*n - 1] == ' ')
		(*n)--;
	return h;
}

bool
auth_access_token_sent(struct request *req)
{
	size_t n;
	const char *h = bearer(req, &n);

	return h != NULL && strcmp(req->path, "/mcp") == 0 && (n < 5 || strncmp(h, "arcd_", 5) != 0);
}

void
auth_refuse_token(struct request *req, const char *why)
{
	char origin[256], value[AUTH_WHY_MAX + 512];

	if (request_public_origin(req, origin, sizeof origin))
		snprintf(value, sizeof value, "Bearer error=\"invalid_token\", error_description=\"%s\", "
		    "resource_metadata=\"%s/.well-known/oauth-protected-resource/mcp\"", why, origin);
	else
		snprintf(value, sizeof value, "Bearer error=\"invalid_token\", error_description=\"%s\"",
		    why);
	request_add_header(req, "WWW-Authenticate", value);
	request_reply_error(req, API_ERR_UNAUTHORIZED, why);
}

void
auth_refuse(struct request *req, int status, const char *why, json_t *extra)
{
	if (status == 429) {
		json_t *limit = json_pack("{s:{s:s, s:i}}", "ratelimit", "key", "account", "seconds",
		    req->retry_after_s);

		if (extra != NULL && limit != NULL)
			json_object_update(limit, extra);
		json_decref(extra);
		request_reply_error_with(req, API_ERR_RATE_LIMITED, why, limit);
		return;
	}
	if (status != 401) {
		json_decref(extra);
		request_reply_error(req, API_ERR_INTERNAL, NULL);
		return;
	}
	request_add_header(req, "WWW-Authenticate", "Bearer realm=\"arcaded\"");
	request_reply_error_with(req, API_ERR_UNAUTHORIZED, why, extra);
}

static enum auth_result
refuse(int *status, char why[AUTH_WHY_MAX], const char *text)
{
	*status = 401;
	snprintf(why, AUTH_WHY_MAX, "%s", text);
	return AUTH_FAILED;
}

enum auth_result
auth_bearer(struct request *req, bool required, struct account_ref *out)
{
	char why[AUTH_WHY_MAX];
	int status;
	enum auth_result a = auth_check(req, required, out, &status, why);

	if (a == AUTH_FAILED)
		auth_refuse(req, status, why, NULL);
	return a;
}

/* An access token (len bytes) on POST /mcp: opened, its resource this
 * daemon's /mcp, its agent key still live and of its account. */
static enum auth_result
token(struct request *req, const char *h, size_t n, struct account_ref *out, int *status,
    char why[AUTH_WHY_MAX])
{
	char origin[256], resource[300];
	const char *r, *k;
	struct store_key_row row;
	struct store_conn *c;
	enum store_result found;
	enum auth_result ret = AUTH_FAILED;
	json_t *claims = oauth_open(app_keys(req->app), OAUTH_ACCESS, h, n, (int64_t)time(NULL));

	if (claims == NULL)
		return refuse(status, why, "the access token is not valid or has expired");
	r = json_string_value(json_object_get(claims, "r"));
	k = json_string_value(json_object_get(claims, "k"));
	if (!request_public_origin(req, origin, sizeof origin) ||
	    (size_t)snprintf(resource, sizeof resource, "%s/mcp", origin) >= sizeof resource ||
	    r == NULL || strcmp(r, resource) != 0) {
		refuse(status, why, "the access token was granted for another resource");
		goto done;
	}
	if (k == NULL || !agentkey_id_valid(k)) {
		refuse(status, why, "the access token is not valid or has expired");
		goto done;
	}
	c = store_reader(req->app->store);
	found = store_key_lookup(c, k, &row);
	store_reader_release(req->app->store, c);
	if (found == STORE_ERROR) {
		*status = 500;
		snprintf(why, AUTH_WHY_MAX, "internal error");
		goto done;
	}
	if (found == STORE_NOT_FOUND || row.revoked ||
	    row.account_id != json_integer_value(json_object_get(claims, "a"))) {
		refuse(status, why, "the agent key this access was granted with has been revoked");
		goto done;
	}
	out->id = row.account_id;
	snprintf(out->name, sizeof out->name, "%s", row.name);
	snprintf(out->key_id, sizeof out->key_id, "%s", k);
	ret = AUTH_OK;
done:
	json_decref(claims);
	return ret;
}

enum auth_result
auth_key(struct request *req, const char *h, size_t n, struct account_ref *out, int *status,
    char why[AUTH_WHY_MAX])
{
	char id[AGENTKEY_ID_LEN + 1], msg[AUTH_WHY_MAX];
	uint8_t hash[AGENTKEY_HASH_BYTES];
	struct store_key_row row;
	struct store_conn *c;
	enum agentkey_err e;
	enum store_result found;

	e = agentkey_parse(h, n, id);
	if (e != AGENTKEY_OK) {
		snprintf(msg, sizeof msg, "the agent key is not valid: %s", agentkey_strerror(e));
		return refuse(status, why, msg);
	}
	c = store_reader(req->app->store);
	found = store_key_lookup(c, id, &row);
	store_reader_release(req->app->store, c);
	if (found == STORE_ERROR) {
		*status = 500;
		snprintf(why, AUTH_WHY_MAX, "internal error");
		return AUTH_FAILED;
	}
	agentkey_hash(hash, h, n, app_keys(req->app)->pepper);
	if (found == STORE_NOT_FOUND || !agentkey_hash_equal(hash, row.hash))
		return refuse(status, why, "the agent key is unknown");
	if (row.revoked)
		return refuse(status, why, "the agent key has been revoked");
	out->id = row.account_id;
	snprintf(out->name, sizeof out->name, "%s", row.name);
	snprintf(out->key_id, sizeof out->key_id, "%s", id);
	return AUTH_OK;
}

/* auth_check and auth_identify: charge says whether the account's rate
 * limit is taken. */
static enum auth_result
check(struct request *req, bool required, bool charge, struct account_ref *out, int *status,
    char why[AUTH_WHY_MAX])
{
	enum auth_result a;
	const char *h, *limited;
	size_t n;

	if (request_header(req, "Authorization") == NULL) {
		if (!required)
			return AUTH_NONE;
		return refuse(status, why, "an agent key is required: send Authorization: Bearer <agent key> "
		    "(create an account with POST /api/v1/accounts)");
	}
	if ((h = bearer(req, &n)) == NULL)
		return refuse(status, why, "the Authorization header must be 'Bearer <agent key>'");
	a = auth_access_token_sent(req) ? token(req, h, n, out, status, why) :
	    auth_key(req, h, n, out, status, why);
	if (a != AUTH_OK)
		return a;
	/* The account's own rate limit, now that it is known. */
	if (charge && !throttle_account(req, out->id, &limited)) {
		*status = 429;
		snprintf(why, AUTH_WHY_MAX, "%s", limited);
		return AUTH_FAILED;
	}
	return AUTH_OK;
}

enum auth_result
auth_check(struct request *req, bool required, struct account_ref *out, int *status,
    char why[AUTH_WHY_MAX])
{
	return check(req, required, true, out, status, why);
}

enum auth_result
auth_peek(struct request *req, struct account_ref *out, int *status, char why[AUTH_WHY_MAX])
{
	return check(req, false, false, out, status, why);
}

bool
auth_identify(struct request *req, struct account_ref *out)
{
	char why[AUTH_WHY_MAX];
	int status;

	return check(req, false, false, out, &status, why) == AUTH_OK;
}
