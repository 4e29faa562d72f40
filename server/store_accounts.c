/*
 * store_accounts.c: accounts and their agent keys. Keys are stored only as
 * keyed hashes; the public key id is the row's primary key, so a lookup is
 * one index probe. Every write runs on the writer, so "at most
 * STORE_MAX_LIVE_KEYS live keys" and "names are unique" need no further
 * locking.
 */
#include "store_internal.h"

#include <stdio.h>
#include <string.h>

enum store_result
store_account_create(struct store_conn *c, void *arg)
{
	static const char find[] = "SELECT 1 FROM accounts WHERE name = ?1";
	static const char ins_account[] = "INSERT INTO accounts (name, created_at) VALUES (?1, ?2)";
	static const char ins_key[] =
	    "INSERT INTO agent_keys (id, account_id, hash, created_at) VALUES (?1, ?2, ?3, ?4)";
	struct store_account_new *a = arg;
	sqlite3_stmt *st = store_stmt(c, find);
	int rc;

	if (st == NULL)
		return STORE_ERROR;
	sqlite3_bind_text(st, 1, a->name, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	if (rc == SQLITE_ROW) {
		a->name_taken = true;
		return STORE_OK;
	}
	if (rc != SQLITE_DONE)
		return STORE_ERROR;
	a->name_taken = false;
	if ((st = store_stmt(c, ins_account)) == NULL)
		return STORE_ERROR;
	sqlite3_bind_text(st, 1, a->name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, a->now);
	if (store_exec_stmt(c, st) != STORE_OK)
		return STORE_ERROR;
	a->account_id = sqlite3_last_insert_rowid(c->db);
	if ((st = store_stmt(c, ins_key)) == NULL)
		return STORE_ERROR;
	sqlite3_bind_text(st, 1, a->key_id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, a->account_id);
	sqlite3_bind_blob(st, 3, a->hash, sizeof a->hash, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, a->now);
	return store_exec_stmt(c, st);
}

static int
live_keys(struct store_conn *c, int64_t account_id)
{
	static const char sql[] =
	    "SELECT count(*) FROM agent_keys WHERE account_id = ?1 AND revoked_at IS NULL";
	sqlite3_stmt *st = store_stmt(c, sql);
	int n = -1;

	if (st == NULL)
		return -1;
	sqlite3_bind_int64(st, 1, account_id);
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int(st, 0);
	sqlite3_reset(st);
	return n;
}

enum store_result
store_key_add(struct store_conn *c, void *arg)
{
	static const char ins[] =
	    "INSERT INTO agent_keys (id, account_id, hash, created_at) VALUES (?1, ?2, ?3, ?4)";
	struct store_key_change *k = arg;
	int n = live_keys(c, k->account_id);
	sqlite3_stmt *st;

	if (n < 0)
		return STORE_ERROR;
	if (n >= STORE_MAX_LIVE_KEYS) {
		k->result = STORE_KEY_LIMIT;
		return STORE_OK;
	}
	if ((st = store_stmt(c, ins)) == NULL)
		return STORE_ERROR;
	sqlite3_bind_text(st, 1, k->key_id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, k->account_id);
	sqlite3_bind_blob(st, 3, k->hash, sizeof k->hash, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, k->now);
	k->result = STORE_KEY_DONE;
	return store_exec_stmt(c, st);
}

enum store_result
store_key_revoke(struct store_conn *c, void *arg)
{
	static const char find[] =
	    "SELECT 1 FROM agent_keys WHERE id = ?1 AND account_id = ?2 AND revoked_at IS NULL";
	static const char upd[] = "UPDATE agent_keys SET revoked_at = ?3 WHERE id = ?1 AND account_id = ?2";
	struct store_key_change *k = arg;
	sqlite3_stmt *st = store_stmt(c, find);
	int rc, n;

	if (st == NULL)
		return STORE_ERROR;
	sqlite3_bind_text(st, 1, k->key_id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, k->account_id);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	if (rc == SQLITE_DONE) {
		k->result = STORE_KEY_UNKNOWN;
		return STORE_OK;
	}
	if (rc != SQLITE_ROW || (n = live_keys(c, k->account_id)) < 0)
		return STORE_ERROR;
	if (n <= 1) {
		k->result = STORE_KEY_LAST;
		return STORE_OK;
	}
	if ((st = store_stmt(c, upd)) == NULL)
		return STORE_ERROR;
	sqlite3_bind_text(st, 1, k->key_id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, k->account_id);
	sqlite3_bind_int64(st, 3, k->now);
	k->result = STORE_KEY_DONE;
	return store_exec_stmt(c, st);
}

enum store_result
store_key_lookup(struct store_conn *c, const char *key_id, struct store_key_row *out)
{
	static const char sql[] =
	    "SELECT k.account_id, a.name, k.hash, k.revoked_at IS NOT NULL "
	    "FROM agent_keys k JOIN accounts a ON a.id = k.account_id WHERE k.id = ?1";
	sqlite3_stmt *st = store_stmt(c, sql);
	int rc;
	enum store_result ret = STORE_ERROR;

	if (st == NULL)
		return STORE_ERROR;
	sqlite3_bind_text(st, 1, key_id, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && sqlite3_column_bytes(st, 2) == STORE_KEY_HASH) {
		out->account_id = sqlite3_column_int64(st, 0);
		snprintf(out->name, sizeof out->name, "%s", (const char *)sqlite3_column_text(st, 1));
		memcpy(out->hash, sqlite3_column_blob(st, 2), STORE_KEY_HASH);
		out->revoked = sqlite3_column_int(st, 3) != 0;
		ret = STORE_OK;
	} else if (rc == SQLITE_DONE)
		ret = STORE_NOT_FOUND;
	else
		store_log_error(c, "key lookup");
	sqlite3_reset(st);
	return ret;
}

enum store_result
store_account_view(struct store_conn *c, int64_t account_id, struct store_account_view *out)
{
	static const char acc[] = "SELECT name, created_at FROM accounts WHERE id = ?1";
	static const char keys[] =
	    "SELECT id, created_at, coalesce(revoked_at, 0) FROM agent_keys WHERE account_id = ?1 "
	    "ORDER BY revoked_at IS NOT NULL, created_at DESC, id LIMIT 8";
	sqlite3_stmt *st = store_stmt(c, acc);
	int rc;

	memset(out, 0, sizeof *out);
	if (st == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(st, 1, account_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		snprintf(out->name, sizeof out->name, "%s", (const char *)sqlite3_column_text(st, 0));
		out->created_at = sqlite3_column_int64(st, 1);
	}
	sqlite3_reset(st);
	if (rc != SQLITE_ROW)
		return rc == SQLITE_DONE ? STORE_NOT_FOUND : STORE_ERROR;
	if ((st = store_stmt(c, keys)) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(st, 1, account_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && out->nkeys < 8) {
		snprintf(out->keys[out->nkeys].id, sizeof out->keys[0].id, "%s",
		    (const char *)sqlite3_column_text(st, 0));
		out->keys[out->nkeys].created_at = sqlite3_column_int64(st, 1);
		out->keys[out->nkeys].revoked_at = sqlite3_column_int64(st, 2);
		out->nkeys++;
	}
	sqlite3_reset(st);
	return STORE_OK;
}
