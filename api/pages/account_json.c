/*
 * account_json.c: the account and key routes' answers (account_json.h).
 */
#include "account_json.h"

#include "iso8601.h"
#include "page_text.h"

/* Once only: an agent key is stored hashed, never shown again. */
#define SHOWN_ONCE "store the agent key now: it is shown only once"

/* A member whose value is a time to the second: these routes' times are
 * always there (unlike a run's end), never null. */
static void
time_member(struct jw *w, const char *key, int64_t ms)
{
	char text[ISO8601_MAX];

	iso8601_format(text, sizeof text, ms / 1000);
	jw_kstring(w, key, text);
}

char *
account_created_text(const char *name, int64_t created_ms, const char *key, const char *key_id,
    size_t *len)
{
	struct jw w;

	page_text_start(&w);
	jw_object(&w);
	jw_kstring(&w, "name", name);
	time_member(&w, "createdAt", created_ms);
	jw_kstring(&w, "agentKey", key);
	jw_kstring(&w, "keyId", key_id);
	jw_kstring(&w, "note", SHOWN_ONCE);
	jw_object_end(&w);
	return page_text_take(&w, len);
}

char *
account_view_text(const char *name, int64_t created_ms, const struct account_key_row *keys, int n,
    size_t *len)
{
	struct jw w;
	int i;

	page_text_start(&w);
	jw_object(&w);
	jw_kstring(&w, "name", name);
	time_member(&w, "createdAt", created_ms);
	jw_key(&w, "keys");
	jw_array(&w);
	for (i = 0; i < n; i++) {
		jw_object(&w);
		jw_kstring(&w, "id", keys[i].id);
		time_member(&w, "createdAt", keys[i].created_ms);
		if (keys[i].revoked_ms)
			time_member(&w, "revokedAt", keys[i].revoked_ms);
		else
			jw_knull(&w, "revokedAt");
		jw_kbool(&w, "current", keys[i].current);
		jw_object_end(&w);
	}
	jw_array_end(&w);
	jw_object_end(&w);
	return page_text_take(&w, len);
}

char *
account_key_added_text(const char *key, const char *key_id, int64_t created_ms, size_t *len)
{
	struct jw w;

	page_text_start(&w);
	jw_object(&w);
	jw_kstring(&w, "agentKey", key);
	jw_kstring(&w, "keyId", key_id);
	time_member(&w, "createdAt", created_ms);
	jw_kstring(&w, "note", SHOWN_ONCE);
	jw_object_end(&w);
	return page_text_take(&w, len);
}

char *
account_key_revoked_text(const char *key_id, int64_t revoked_ms, size_t *len)
{
	struct jw w;

	page_text_start(&w);
	jw_object(&w);
	jw_kstring(&w, "revoked", key_id);
	time_member(&w, "revokedAt", revoked_ms);
	jw_object_end(&w);
	return page_text_take(&w, len);
}

char *
account_public_keys_text(const struct keyring *kr, size_t *len)
{
	struct jw w;
	int i;

	page_text_start(&w);
	jw_object(&w);
	jw_key(&w, "keys");
	jw_array(&w);
	for (i = kr->nkeys - 1; i >= 0; i--) {
		jw_object(&w);
		jw_kstring(&w, "kid", kr->keys[i].pid);
		jw_kstring(&w, "paserk", kr->keys[i].public_paserk);
		jw_kstring(&w, "purpose", "v4.public");
		jw_kbool(&w, "current", i == kr->nkeys - 1);
		jw_object_end(&w);
	}
	jw_array_end(&w);
	jw_key(&w, "note");
	jw_string(&w, "result certificates are PASETO v4.public tokens; their footer's kid names the key");
	jw_object_end(&w);
	return page_text_take(&w, len);
}
