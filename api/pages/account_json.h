/*
 * account_json.h: the answers of the account and key routes
 * (docs/api.md, "Accounts"): an account made, an account as its owner sees
 * it, a key added or revoked, and the server's public keys. Times are Unix
 * milliseconds in, ISO 8601 to the second out.
 *
 * Each answer is one function that writes its text with the answer
 * writer (jw.h): what the jansson trees these replaced dumped
 * (JSON_COMPACT), byte for byte. The text is malloc'd, NUL-terminated,
 * its length in *len; NULL when it could not be written.
 */
#ifndef API_ACCOUNT_JSON_H
#define API_ACCOUNT_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "keys.h"

/* POST /api/v1/accounts: the new account and its first agent key. */
char *account_created_text(const char *name, int64_t created_ms, const char *key, const char *key_id,
    size_t *len);

/* One of an account's keys, as GET /api/v1/me lists them. */
struct account_key_row {
	const char *id;
	int64_t     created_ms;
	int64_t     revoked_ms;  /* 0: live */
	bool        current;     /* the key the request was sent with */
};

/* GET /api/v1/me: the account and its keys[0..n). */
char *account_view_text(const char *name, int64_t created_ms, const struct account_key_row *keys,
    int n, size_t *len);

/* POST /api/v1/me/keys: the key added. */
char *account_key_added_text(const char *key, const char *key_id, int64_t created_ms, size_t *len);

/* DELETE /api/v1/me/keys/{id}: the key revoked. */
char *account_key_revoked_text(const char *key_id, int64_t revoked_ms, size_t *len);

/* GET /api/v1/keys: the certificates' public keys, newest first. */
char *account_public_keys_text(const struct keyring *kr, size_t *len);

#endif
