/*
 * account_json.c: the account and key routes' answers (account_json.h).
 */
#include "account_json.h"

#include "iso8601.h"

/* Once only: an agent key is stored hashed, never shown again. */
#define SHOWN_ONCE "store the agent key now: it is shown only once"

static json_t *
time_json(int64_t ms)
{
	char text[ISO8601_MAX];

	iso8601_format(text, sizeof text, ms / 1000);
	return json_string(text);
}

json_t *
account_created_json(const char *name, int64_t created_ms, const char *key, const char *key_id)
{
	return json_pack("{s:s, s:o, s:s, s:s, s:s}", "name", name, "createdAt", time_json(created_ms),
	    "agentKey", key, "keyId", key_id, "note", SHOWN_ONCE);
}

json_t *
account_view_json(const char *name, int64_t created_ms, const struct account_key_row *keys, int n)
{
	json_t *list = json_array();
	int i;

	for (i = 0; i < n; i++)
		json_array_append_new(list, json_pack("{s:s, s:o, s:o, s:b}", "id", keys[i].id,
		    "createdAt", time_json(keys[i].created_ms),
		    "revokedAt", keys[i].revoked_ms ? time_json(keys[i].revoked_ms) : json_null(),
		    "current", keys[i].current));
	return json_pack("{s:s, s:o, s:o}", "name", name, "createdAt", time_json(created_ms), "keys", list);
}

json_t *
account_key_added_json(const char *key, const char *key_id, int64_t created_ms)
{
	return json_pack("{s:s, s:s, s:o, s:s}", "agentKey", key, "keyId", key_id,
	    "createdAt", time_json(created_ms), "note", SHOWN_ONCE);
}

json_t *
account_key_revoked_json(const char *key_id, int64_t revoked_ms)
{
	return json_pack("{s:s, s:o}", "revoked", key_id, "revokedAt", time_json(revoked_ms));
}

json_t *
account_public_keys_json(const struct keyring *kr)
{
	json_t *keys = json_array();
	int i;

	for (i = kr->nkeys - 1; i >= 0; i--)
		json_array_append_new(keys, json_pack("{s:s, s:s, s:s, s:b}",
		    "kid", kr->keys[i].pid, "paserk", kr->keys[i].public_paserk,
		    "purpose", "v4.public", "current", i == kr->nkeys - 1));
	return json_pack("{s:o, s:s}", "keys", keys, "note",
	    "result certificates are PASETO v4.public tokens; their footer's kid names the key");
}
