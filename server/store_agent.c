/*
 * store_agent.c: agent-check puzzles. A puzzle row is deleted by the first
 * request that presents its token (DELETE ... RETURNING on the one writer,
 * so twenty parallel presentations spend it exactly once). Expired rows
 * are swept a few at a time as new puzzles are stored.
 */
#include "store_internal.h"

enum store_result
store_check_insert(struct store_conn *c, const char *token, int64_t answer, int64_t expires_at)
{
	static const char ins[] =
	    "INSERT INTO agent_checks (token, answer, expires_at) VALUES (?1, ?2, ?3)";
	static const char sweep[] =
	    "DELETE FROM agent_checks WHERE token IN "
	    "(SELECT token FROM agent_checks WHERE expires_at < ?1 ORDER BY expires_at LIMIT 8)";
	sqlite3_stmt *st = store_stmt(c, ins);

	if (st == NULL)
		return STORE_ERROR;
	sqlite3_bind_text(st, 1, token, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, answer);
	sqlite3_bind_int64(st, 3, expires_at);
	if (store_exec_stmt(c, st) != STORE_OK)
		return STORE_ERROR;
	/* Each new puzzle removes up to eight expired ones (an hour past
	 * their expiry, so that a late answer still reads "expired"). */
	if ((st = store_stmt(c, sweep)) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(st, 1, expires_at - 70 * 60 * 1000);
	return store_exec_stmt(c, st);
}

enum store_result
store_check_spend(struct store_conn *c, const char *token, bool have_answer, int64_t answer,
    int64_t now, enum store_check_verdict *out)
{
	static const char spend[] =
	    "DELETE FROM agent_checks WHERE token = ?1 RETURNING answer, expires_at";
	sqlite3_stmt *st = store_stmt(c, spend);
	int rc;

	if (st == NULL)
		return STORE_ERROR;
	sqlite3_bind_text(st, 1, token, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		int64_t want = sqlite3_column_int64(st, 0), expires = sqlite3_column_int64(st, 1);

		if (now > expires)
			*out = STORE_CHECK_EXPIRED;
		else if (have_answer && answer == want)
			*out = STORE_CHECK_PASS;
		else
			*out = STORE_CHECK_WRONG;
		rc = sqlite3_step(st); /* finish the statement so the delete is done */
	} else if (rc == SQLITE_DONE)
		*out = STORE_CHECK_UNKNOWN;
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		store_log_error(c, "agent check spend");
		return STORE_ERROR;
	}
	return STORE_OK;
}
