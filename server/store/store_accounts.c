/*
 * store_accounts.c: accounts and their agent keys. Keys are stored only as
 * keyed hashes; the public key id is the row's primary key, so a lookup is
 * one index probe.
 *
 * A name is taken once by the database's own uniqueness (case-insensitive:
 * COLLATE NOCASE on SQLite, an index on lower(name) on PostgreSQL) with an
 * INSERT ... ON CONFLICT DO NOTHING, so two daemons creating the same name
 * at once give one account and one "taken". "At most STORE_MAX_LIVE_KEYS
 * live keys" and "never the last live key" are counted under a lock on the
 * account's row on PostgreSQL; on SQLite the one writer already
 * serialises them.
 */
#include "store_internal.h"
#include "store.h"

#include <stdio.h>
#include <string.h>

enum store_result
store_account_create(struct store_conn *c, void *arg)
{
	static const char ins_account[] =
	    "INSERT INTO accounts (name, created_at) VALUES (?1, ?2) ON CONFLICT DO NOTHING RETURNING id";
	static const char ins_key[] =
	    "INSERT INTO agent_keys (id, account_id, hash, created_at) VALUES (?1, ?2, ?3, ?4)";
	struct store_account_new *a = arg;
	struct store_q *q = store_q(c, ins_account);
	int rc;

	if (q == NULL)
		return STORE_ERROR;
	store_q_text(q, 1, a->name);
	store_q_int(q, 2, a->now);
	rc = store_q_step(q);
	if (rc == STORE_Q_ROW)
		a->account_id = store_q_col_int(q, 0);
	store_q_reset(q);
	if (rc == STORE_Q_FAIL)
		return STORE_ERROR;
	a->name_taken = rc == STORE_Q_DONE;
	if (a->name_taken)
		return STORE_OK;
	if ((q = store_q(c, ins_key)) == NULL)
		return STORE_ERROR;
	store_q_text(q, 1, a->key_id);
	store_q_int(q, 2, a->account_id);
	store_q_blob(q, 3, a->hash, sizeof a->hash);
	store_q_int(q, 4, a->now);
	return store_q_exec(q);
}

/* The account's live keys, counted with its row locked on PostgreSQL (two
 * daemons adding or revoking keys of one account take turns). -1 on
 * error. */
static int
live_keys(struct store_conn *c, int64_t account_id)
{
	static const char lock[] = "SELECT id FROM accounts WHERE id = ?1 FOR UPDATE";
	static const char sql[] =
	    "SELECT count(*) FROM agent_keys WHERE account_id = ?1 AND revoked_at IS NULL";
	struct store_q *q;
	int n = -1;

	if (store_is_pg(c)) {
		if ((q = store_q(c, lock)) == NULL)
			return -1;
		store_q_int(q, 1, account_id);
		if (store_q_exec(q) != STORE_OK)
			return -1;
	}
	if ((q = store_q(c, sql)) == NULL)
		return -1;
	store_q_int(q, 1, account_id);
	if (store_q_step(q) == STORE_Q_ROW)
		n = (int)store_q_col_int(q, 0);
	store_q_reset(q);
	return n;
}

enum store_result
store_key_add(struct store_conn *c, void *arg)
{
	static const char ins[] =
	    "INSERT INTO agent_keys (id, account_id, hash, created_at) VALUES (?1, ?2, ?3, ?4)";
	struct store_key_change *k = arg;
	int n = live_keys(c, k->account_id);
	struct store_q *q;

	if (n < 0)
		return STORE_ERROR;
	if (n >= STORE_MAX_LIVE_KEYS) {
		k->result = STORE_KEY_LIMIT;
		return STORE_OK;
	}
	if ((q = store_q(c, ins)) == NULL)
		return STORE_ERROR;
	store_q_text(q, 1, k->key_id);
	store_q_int(q, 2, k->account_id);
	store_q_blob(q, 3, k->hash, sizeof k->hash);
	store_q_int(q, 4, k->now);
	k->result = STORE_KEY_DONE;
	return store_q_exec(q);
}

enum store_result
store_key_revoke(struct store_conn *c, void *arg)
{
	static const char find[] =
	    "SELECT 1 FROM agent_keys WHERE id = ?1 AND account_id = ?2 AND revoked_at IS NULL";
	static const char upd[] = "UPDATE agent_keys SET revoked_at = ?3 WHERE id = ?1 AND account_id = ?2";
	struct store_key_change *k = arg;
	struct store_q *q;
	int rc, n;

	/* The lock first, then the key's state under it. */
	if ((n = live_keys(c, k->account_id)) < 0 || (q = store_q(c, find)) == NULL)
		return STORE_ERROR;
	store_q_text(q, 1, k->key_id);
	store_q_int(q, 2, k->account_id);
	rc = store_q_step(q);
	store_q_reset(q);
	if (rc == STORE_Q_DONE) {
		k->result = STORE_KEY_UNKNOWN;
		return STORE_OK;
	}
	if (rc != STORE_Q_ROW)
		return STORE_ERROR;
	if (n <= 1) {
		k->result = STORE_KEY_LAST;
		return STORE_OK;
	}
	if ((q = store_q(c, upd)) == NULL)
		return STORE_ERROR;
	store_q_text(q, 1, k->key_id);
	store_q_int(q, 2, k->account_id);
	store_q_int(q, 3, k->now);
	k->result = STORE_KEY_DONE;
	return store_q_exec(q);
}

enum store_result
store_key_lookup(struct store_conn *c, const char *key_id, struct store_key_row *out)
{
	static const char sql[] =
	    "SELECT k.account_id, a.name, k.hash, k.revoked_at IS NOT NULL "
	    "FROM agent_keys k JOIN accounts a ON a.id = k.account_id WHERE k.id = ?1";
	struct store_q *q = store_q(c, sql);
	int rc;
	enum store_result ret = STORE_ERROR;

	if (q == NULL)
		return STORE_ERROR;
	store_q_text(q, 1, key_id);
	rc = store_q_step(q);
	if (rc == STORE_Q_ROW && store_q_col_blob(q, 2, out->hash, STORE_KEY_HASH) == STORE_KEY_HASH) {
		const char *name = store_q_col_text(q, 1);

		out->account_id = store_q_col_int(q, 0);
		snprintf(out->name, sizeof out->name, "%s", name != NULL ? name : "");
		out->revoked = store_q_col_int(q, 3) != 0;
		ret = STORE_OK;
	} else if (rc == STORE_Q_DONE)
		ret = STORE_NOT_FOUND;
	else if (rc == STORE_Q_ROW)
		store_log_error(c, "key lookup: a stored hash of the wrong size");
	store_q_reset(q);
	return ret;
}

enum store_result
store_account_view(struct store_conn *c, int64_t account_id, struct store_account_view *out)
{
	static const char acc[] = "SELECT name, created_at FROM accounts WHERE id = ?1";
	static const char keys[] =
	    "SELECT id, created_at, coalesce(revoked_at, 0) FROM agent_keys WHERE account_id = ?1 "
	    "ORDER BY revoked_at IS NOT NULL, created_at DESC, id LIMIT 8";
	struct store_q *q = store_q(c, acc);
	int rc;

	memset(out, 0, sizeof *out);
	if (q == NULL)
		return STORE_ERROR;
	store_q_int(q, 1, account_id);
	rc = store_q_step(q);
	if (rc == STORE_Q_ROW) {
		const char *name = store_q_col_text(q, 0);

		snprintf(out->name, sizeof out->name, "%s", name != NULL ? name : "");
		out->created_at = store_q_col_int(q, 1);
	}
	store_q_reset(q);
	if (rc != STORE_Q_ROW)
		return rc == STORE_Q_DONE ? STORE_NOT_FOUND : STORE_ERROR;
	if ((q = store_q(c, keys)) == NULL)
		return STORE_ERROR;
	store_q_int(q, 1, account_id);
	while ((rc = store_q_step(q)) == STORE_Q_ROW && out->nkeys < 8) {
		const char *id = store_q_col_text(q, 0);

		snprintf(out->keys[out->nkeys].id, sizeof out->keys[0].id, "%s", id != NULL ? id : "");
		out->keys[out->nkeys].created_at = store_q_col_int(q, 1);
		out->keys[out->nkeys].revoked_at = store_q_col_int(q, 2);
		out->nkeys++;
	}
	store_q_reset(q);
	return STORE_OK;
}
