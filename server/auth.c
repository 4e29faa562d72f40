/*
 * auth.c: Bearer agent keys. One indexed read on a reader connection per
 * authenticated request.
 */
#include "auth.h"

#include <stdio.h>
#include <string.h>

#include "agentkey.h"
#include "app.h"
#include "keys.h"
#include "throttle.h"

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

/* auth_check and auth_identify: charge says whether the account's rate
 * limit is taken. */
static enum auth_result
check(struct request *req, bool required, bool charge, struct account_ref *out, int *status,
    char why[AUTH_WHY_MAX])
{
	const char *h = request_header(req, "Authorization");
	char id[AGENTKEY_ID_LEN + 1], msg[AUTH_WHY_MAX];
	uint8_t hash[AGENTKEY_HASH_BYTES];
	struct store_key_row row;
	struct store_conn *c;
	enum agentkey_err e;
	enum store_result found;
	const char *limited;
	size_t n;

	if (h == NULL) {
		if (!required)
			return AUTH_NONE;
		return refuse(status, why, "an agent key is required: send Authorization: Bearer <agent key> "
		    "(create an account with POST /api/v1/accounts)");
	}
	if (strncmp(h, "Bearer ", 7) != 0)
		return refuse(status, why, "the Authorization header must be 'Bearer <agent key>'");
	h += 7;
	while (*h == ' ')
		h++;
	n = strlen(h);
	while (n > 0 && h[n - 1] == ' ')
		n--;
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
	/* The account's own rate limit, now that it is known. */
	if (charge && !throttle_account(req, row.account_id, &limited)) {
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

bool
auth_identify(struct request *req, struct account_ref *out)
{
	char why[AUTH_WHY_MAX];
	int status;

	return check(req, false, false, out, &status, why) == AUTH_OK;
}
