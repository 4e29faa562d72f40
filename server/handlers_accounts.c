/*
 * handlers_accounts.c: accounts, agent keys, agent-check puzzles and the
 * public signing keys. An agent key is shown once, when it is made; the
 * database keeps its keyed hash.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "agent_check.h"
#include "agentkey.h"
#include "app.h"
#include "account_json.h"
#include "auth.h"
#include "defer.h"
#include "handlers.h"
#include "jsonbody.h"
#include "keys.h"
#include "play.h"

bool
account_name_valid(const char *s)
{
	size_t n = strlen(s), i;

	if (n < 3 || n > STORE_NAME_MAX)
		return false;
	for (i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		    (s[i] >= '0' && s[i] <= '9') || s[i] == '_' || s[i] == '-'))
			return false;
	return true;
}

/* A job's struct plus the key text, which lives only until the answer. */
struct account_ctx {
	struct store_account_new job;
	struct store_key_change  change;
	char                     name[STORE_NAME_MAX + 1];
	char                     key[AGENTKEY_LEN + 1];
};

static void
ctx_free(void *p)
{
	sodium_memzero(p, sizeof(struct account_ctx));
	free(p);
}

static struct account_ctx *
ctx_new(struct request *req)
{
	struct account_ctx *x = calloc(1, sizeof *x);

	if (x != NULL) {
		req->ctx = x;
		req->ctx_free = ctx_free;
	} else
		request_reply_error(req, API_ERR_INTERNAL, "out of memory");
	return x;
}

static void
new_key(struct request *req, char key[AGENTKEY_LEN + 1], char id[STORE_KEY_ID_MAX + 1],
    uint8_t hash[STORE_KEY_HASH])
{
	agentkey_generate(key, id);
	agentkey_hash(hash, key, strlen(key), app_keys(req->app)->pepper);
}

static void
account_created(struct request *req)
{
	struct account_ctx *x = req->ctx;
	char *text;
	size_t len;

	if (!defer_committed(req)) {
		request_reply_error(req, API_ERR_INTERNAL, "the account could not be stored");
		return;
	}
	if (x->job.name_taken) {
		request_reply_error_with(req, API_ERR_NAME_TAKEN, NULL,
		    json_pack("{s:s}", "name", x->name));
		return;
	}
	text = account_created_text(x->name, x->job.now, x->key, x->job.key_id, &len);
	request_reply_json_text(req, 201, text, len);
}

void
handle_accounts_create(struct request *req)
{
	static const char *const fields[] = { "name", NULL };
	char msg[JSONBODY_MSG_MAX];
	struct account_ctx *x;
	const char *name;

	if (!jsonbody_known(req->json, fields, msg, sizeof msg) ||
	    !jsonbody_string(req->json, "name", &name, msg, sizeof msg)) {
		request_reply_error(req, API_ERR_INVALID_REQUEST, msg);
		return;
	}
	if (!account_name_valid(name)) {
		request_reply_error(req, API_ERR_INVALID_REQUEST,
		    "field 'name' must be 3-32 letters, digits, '_' or '-'");
		return;
	}
	if ((x = ctx_new(req)) == NULL)
		return;
	snprintf(x->name, sizeof x->name, "%s", name);
	new_key(req, x->key, x->job.key_id, x->job.hash);
	x->job.name = x->name;
	x->job.now = store_now_ms();
	defer_to_store(req, store_account_create, &x->job, account_created);
}

void
handle_me(struct request *req)
{
	struct store_account_view v;
	struct account_ref acct;
	struct store_conn *c;
	struct account_key_row keys[sizeof v.keys / sizeof v.keys[0]];
	enum store_result found;
	char *text;
	size_t len;
	int i;

	if (auth_bearer(req, true, &acct) != AUTH_OK)
		return;
	c = store_reader(req->app->store);
	found = store_account_view(c, acct.id, &v);
	store_reader_release(req->app->store, c);
	if (found != STORE_OK) {
		request_reply_error(req, API_ERR_INTERNAL, NULL);
		return;
	}
	for (i = 0; i < v.nkeys; i++)
		keys[i] = (struct account_key_row){ v.keys[i].id, v.keys[i].created_at, v.keys[i].revoked_at,
		    strcmp(v.keys[i].id, acct.key_id) == 0 };
	text = account_view_text(v.name, v.created_at, keys, v.nkeys, &len);
	request_reply_json_text(req, 200, text, len);
}

static void
key_added(struct request *req)
{
	struct account_ctx *x = req->ctx;
	char *text;
	size_t len;

	if (!defer_committed(req))
		request_reply_error(req, API_ERR_INTERNAL, "the key could not be stored");
	else if (x->change.result == STORE_KEY_LIMIT)
		request_reply_error(req, API_ERR_KEY_LIMIT, NULL);
	else {
		text = account_key_added_text(x->key, x->change.key_id, x->change.now, &len);
		request_reply_json_text(req, 201, text, len);
	}
}

void
handle_me_keys_add(struct request *req)
{
	static const char *const fields[] = { NULL };
	struct account_ref acct;
	struct account_ctx *x;
	char msg[JSONBODY_MSG_MAX];

	if (!jsonbody_known(req->json, fields, msg, sizeof msg)) {
		request_reply_error(req, API_ERR_INVALID_REQUEST, msg);
		return;
	}
	if (auth_bearer(req, true, &acct) != AUTH_OK || (x = ctx_new(req)) == NULL)
		return;
	new_key(req, x->key, x->change.key_id, x->change.hash);
	x->change.account_id = acct.id;
	x->change.now = store_now_ms();
	defer_to_store(req, store_key_add, &x->change, key_added);
}

static void
key_revoked(struct request *req)
{
	struct account_ctx *x = req->ctx;
	char *text;
	size_t len;

	if (!defer_committed(req))
		request_reply_error(req, API_ERR_INTERNAL, NULL);
	else if (x->change.result == STORE_KEY_UNKNOWN)
		request_reply_error(req, API_ERR_NOT_FOUND, "this account has no live key with that id");
	else if (x->change.result == STORE_KEY_LAST)
		request_reply_error(req, API_ERR_KEY_LIMIT,
		    "this is the account's only live key: add another before revoking it");
	else {
		text = account_key_revoked_text(x->change.key_id, x->change.now, &len);
		request_reply_json_text(req, 200, text, len);
	}
}

void
handle_me_keys_revoke(struct request *req)
{
	struct account_ref acct;
	struct account_ctx *x;

	if (auth_bearer(req, true, &acct) != AUTH_OK || (x = ctx_new(req)) == NULL)
		return;
	if (!agentkey_id_valid(req->params[0])) {
		request_reply_error(req, API_ERR_NOT_FOUND, "this account has no live key with that id");
		return;
	}
	memcpy(x->change.key_id, req->params[0], AGENTKEY_ID_LEN + 1);
	x->change.account_id = acct.id;
	x->change.now = store_now_ms();
	defer_to_store(req, store_key_revoke, &x->change, key_revoked);
}

static void
fresh_stored(struct request *req)
{
	if (!defer_committed(req)) {
		request_reply_error(req, API_ERR_INTERNAL, "the puzzle could not be stored");
		return;
	}
	request_reply_json(req, 200, json_pack("{s:o}", "agent_check",
	    agent_fresh_json(req->ctx, store_now_ms())));
}

/* A puzzle for the account of the Bearer key when one is sent, else for
 * the client's address. */
void
handle_agent_check(struct request *req)
{
	struct account_ref acct = { 0 };
	enum auth_result a = auth_bearer(req, false, &acct);

	if (a != AUTH_FAILED)
		play_fresh_puzzle(req, a == AUTH_OK ? acct.id : 0, fresh_stored);
}

void
handle_keys(struct request *req)
{
	size_t len;
	char *text = account_public_keys_text(app_keys(req->app), &len);

	request_reply_json_text(req, 200, text, len);
}
