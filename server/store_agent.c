/*
 * store_agent.c: agent-check puzzles. A puzzle row is deleted by the first
 * request that presents its token (DELETE ... RETURNING on the one writer,
 * so twenty parallel presentations spend it exactly once), whoever
 * presents it; only its issuer's presentation can pass. Expired rows are
 * deleted by the periodic sweep (store_sweep).
 */
#include "store_internal.h"

#include <string.h>

enum store_result
store_check_insert(struct store_conn *c, const char *token, int64_t answer, int64_t expires_at,
    const char *owner)
{
	static const char ins[] =
	    "INSERT INTO agent_checks (token, answer, expires_at, owner) VALUES (?1, ?2, ?3, ?4)";
	sqlite3_stmt *st = store_stmt(c, ins);

	if (st == NULL)
		return STORE_ERROR;
	sqlite3_bind_text(st, 1, token, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, answer);
	sqlite3_bind_int64(st, 3, expires_at);
	sqlite3_bind_text(st, 4, owner, -1, SQLITE_STATIC);
	return store_exec_stmt(c, st);
}

enum store_result
store_check_spend(struct store_conn *c, const char *token, const char *const presenter[2],
    bool have_answer, int64_t answer, int64_t now, enum store_check_verdict *out)
{
	static const char spend[] =
	    "DELETE FROM agent_checks WHERE token = ?1 RETURNING answer, expires_at, owner";
	sqlite3_stmt *st = store_stmt(c, spend);
	int rc;

	if (st == NULL)
		return STORE_ERROR;
	sqlite3_bind_text(st, 1, token, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		int64_t want = sqlite3_column_int64(st, 0), expires = sqlite3_column_int64(st, 1);
		const char *owner = (const char *)sqlite3_column_text(st, 2);

		/* Someone else's puzzle is spent all the same, and reads unknown. */
		if (owner != NULL && owner[0] != '\0' && strcmp(owner, presenter[0]) != 0 &&
		    strcmp(owner, presenter[1]) != 0)
			*out = STORE_CHECK_UNKNOWN;
		else if (now > expires)
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

enum store_result
store_sweep(struct store_conn *c, void *arg)
{
	static const char puzzles[] =
	    "DELETE FROM agent_checks WHERE token IN (SELECT token FROM agent_checks "
	    "WHERE expires_at < ?1 ORDER BY expires_at LIMIT ?2)";
	static const char runs[] =
	    "DELETE FROM runs WHERE id IN (SELECT id FROM runs INDEXED BY runs_unplayed "
	    "WHERE step = 0 AND created_at < ?1 AND over = 0 AND finished_at IS NULL "
	    "ORDER BY created_at LIMIT ?2)";
	struct store_sweep *w = arg;
	sqlite3_stmt *st = store_stmt(c, puzzles);

	w->puzzles = w->runs = 0;
	if (st == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(st, 1, w->puzzles_before);
	sqlite3_bind_int(st, 2, w->limit);
	if (store_exec_stmt(c, st) != STORE_OK)
		return STORE_ERROR;
	w->puzzles = sqlite3_changes(c->db);
	if ((st = store_stmt(c, runs)) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(st, 1, w->unplayed_before);
	sqlite3_bind_int(st, 2, w->limit);
	if (store_exec_stmt(c, st) != STORE_OK)
		return STORE_ERROR;
	w->runs = sqlite3_changes(c->db);
	return STORE_OK;
}
