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

static enum auth_result
refuse(struct request *req, const char *why)
{
	request_add_header(req, "WWW-Authenticate", "Bearer realm=\"arcaded\"");
	request_reply_error(req, API_ERR_UNAUTHORIZED, why);
	return AUTH_FAILED;
}

enum auth_result
auth_bearer(struct request *req, bool required, struct account_ref *out)
{
	const char *h = request_header(req, "Authorization");
	char id[AGENTKEY_ID_LEN + 1], msg[160];
	uint8_t hash[AGENTKEY_HASH_BYTES];
	struct store_key_row row;
	struct store_conn *c;
	enum agentkey_err e;
	size_t n;
	int found;

	if (h == NULL) {
		if (!required)
			return AUTH_NONE;
		return refuse(req, "an agent key is required: send Authorization: Bearer <agent key> "
		    "(create an account with POST /api/v1/accounts)");
	}
	if (strncmp(h, "Bearer ", 7) != 0)
		return refuse(req, "the Authorization header must be 'Bearer <agent key>'");
	h += 7;
	while (*h == ' ')
		h++;
	n = strlen(h);
	while (n > 0 && h[n - 1] == ' ')
		n--;
	e = agentkey_parse(h, n, id);
	if (e != AGENTKEY_OK) {
		snprintf(msg, sizeof msg, "the agent key is not valid: %s", agentkey_strerror(e));
		return refuse(req, msg);
	}
	c = store_reader(req->app->store);
	found = store_key_lookup(c, id, &row);
	store_reader_release(req->app->store, c);
	if (found < 0) {
		request_reply_error(req, API_ERR_INTERNAL, NULL);
		return AUTH_FAILED;
	}
	agentkey_hash(hash, h, n, req->app->keys->pepper);
	if (found == 0 || !agentkey_hash_equal(hash, row.hash))
		return refuse(req, "the agent key is unknown");
	if (row.revoked)
		return refuse(req, "the agent key has been revoked");
	out->id = row.account_id;
	snprintf(out->name, sizeof out->name, "%s", row.name);
	snprintf(out->key_id, sizeof out->key_id, "%s", id);
	return AUTH_OK;
}
