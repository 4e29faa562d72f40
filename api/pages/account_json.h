/*
 * account_json.h: the answers of the account and key routes
 * (docs/api.md, "Accounts"): an account made, an account as its owner sees
 * it, a key added or revoked, and the server's public keys. Times are Unix
 * milliseconds in, ISO 8601 to the second out.
 */
#ifndef API_ACCOUNT_JSON_H
#define API_ACCOUNT_JSON_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "keys.h"

/* POST /api/v1/accounts: the new account and its first agent key. */
json_t *account_created_json(const char *name, int64_t created_ms, const char *key, const char *key_id);

/* One of an account's keys, as GET /api/v1/me lists them. */
struct account_key_row {
	const char *id;
	int64_t     created_ms;
	int64_t     revoked_ms;  /* 0: live */
	bool        current;     /* the key the request was sent with */
};

/* GET /api/v1/me: the account and its keys[0..n). */
json_t *account_view_json(const char *name, int64_t created_ms, const struct account_key_row *keys,
    int n);

/* POST /api/v1/me/keys: the key added. */
json_t *account_key_added_json(const char *key, const char *key_id, int64_t created_ms);

/* DELETE /api/v1/me/keys/{id}: the key revoked. */
json_t *account_key_revoked_json(const char *key_id, int64_t revoked_ms);

/* GET /api/v1/keys: the certificates' public keys, newest first. */
json_t *account_public_keys_json(const struct keyring *kr);

#endif
