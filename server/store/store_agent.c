/*
 * store_agent.c: agent-check puzzles. A puzzle row is deleted by the first
 * request that presents its token (DELETE ... RETURNING: on SQLite the one
 * writer serialises presentations; on PostgreSQL a second daemon's DELETE
 * of the same row waits for the first one's commit and then finds nothing),
 * so twenty parallel presentations spend it exactly once, whoever presents
 * it; only its issuer's presentation can pass. Expired rows are deleted by
 * the periodic sweep (store_sweep), which every daemon runs.
 */
#include "store_internal.h"
#include "store.h"

#include <string.h>

enum store_result
store_check_insert(struct store_conn *c, const char *token, int64_t answer, int64_t expires_at,
    const char *owner)
{
	static const char ins[] =
	    "INSERT INTO agent_checks (token, answer, expires_at, owner) VALUES (?1, ?2, ?3, ?4)";
	struct store_q *q = store_q(c, ins);

	if (q == NULL)
		return STORE_ERROR;
	store_q_text(q, 1, token);
	store_q_int(q, 2, answer);
	store_q_int(q, 3, expires_at);
	store_q_text(q, 4, owner);
	return store_q_exec(q);
}

enum store_result
store_check_spend(struct store_conn *c, const char *token, const char *const presenter[2],
    bool have_answer, int64_t answer, int64_t now, enum store_check_verdict *out)
{
	static const char spend[] =
	    "DELETE FROM agent_checks WHERE token = ?1 RETURNING answer, expires_at, owner";
	struct store_q *q = store_q(c, spend);
	int rc;

	if (q == NULL)
		return STORE_ERROR;
	store_q_text(q, 1, token);
	rc = store_q_step(q);
	if (rc == STORE_Q_ROW) {
		int64_t want = store_q_col_int(q, 0), expires = store_q_col_int(q, 1);
		const char *owner = store_q_col_text(q, 2);

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
		rc = store_q_step(q); /* finish the statement so the delete is done */
	} else if (rc == STORE_Q_DONE)
		*out = STORE_CHECK_UNKNOWN;
	store_q_reset(q);
	if (rc != STORE_Q_DONE) {
		store_log_error(c, "agent check spend");
		return STORE_ERROR;
	}
	return STORE_OK;
}

/* One DELETE of the sweep, bound to (before, limit): how many rows it took. */
static enum store_result
sweep_one(struct store_conn *c, const char *sql, int64_t before, int limit, int64_t *deleted)
{
	struct store_q *q = store_q(c, sql);

	if (q == NULL)
		return STORE_ERROR;
	store_q_int(q, 1, before);
	store_q_int(q, 2, limit);
	if (store_q_exec(q) != STORE_OK)
		return STORE_ERROR;
	*deleted = store_q_changes(q);
	return STORE_OK;
}

/* The sweep's DELETE of runs, which hands back each run's account and
 * game, taken off the accounts' summaries (store_summary.c). */
static enum store_result
sweep_runs(struct store_conn *c, const char *sql, int64_t before, int limit, int64_t *deleted)
{
	struct store_q *q = store_q(c, sql);

	*deleted = 0;
	if (q == NULL)
		return STORE_ERROR;
	store_q_int(q, 1, before);
	store_q_int(q, 2, limit);
	return store_summary_runs_deleted(c, q, deleted);
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
	    "ORDER BY created_at LIMIT ?2) RETURNING account_id, game";
	/* Every daemon sweeps: on PostgreSQL rows another daemon's sweep (or a
	 * first move) holds are left for the next sweep instead of waited for. */
	static const char pg_puzzles[] =
	    "DELETE FROM agent_checks WHERE token IN (SELECT token FROM agent_checks "
	    "WHERE expires_at < ?1 ORDER BY expires_at LIMIT ?2 FOR UPDATE SKIP LOCKED)";
	static const char pg_runs[] =
	    "DELETE FROM runs WHERE id IN (SELECT id FROM runs "
	    "WHERE step = 0 AND created_at < ?1 AND over = 0 AND finished_at IS NULL "
	    "ORDER BY created_at LIMIT ?2 FOR UPDATE SKIP LOCKED) RETURNING account_id, game";
	/* A lobby goes with its seats (the creator's, and any joined since). */
	static const char lobby_seats[] =
	    "DELETE FROM match_seats WHERE match_id IN (SELECT id FROM matches INDEXED BY matches_lobby_age "
	    "WHERE status = 'lobby' AND created_at < ?1 ORDER BY created_at LIMIT ?2)";
	static const char lobbies[] =
	    "DELETE FROM matches WHERE id IN (SELECT id FROM matches INDEXED BY matches_lobby_age "
	    "WHERE status = 'lobby' AND created_at < ?1 ORDER BY created_at LIMIT ?2)";
	/* A lobby a join holds is left for the next sweep. Every lobby has its
	 * creator's seat, so the seatless old ones are those emptied here. */
	static const char pg_lobby_seats[] =
	    "DELETE FROM match_seats WHERE match_id IN (SELECT id FROM matches "
	    "WHERE status = 'lobby' AND created_at < ?1 ORDER BY created_at LIMIT ?2 FOR UPDATE SKIP LOCKED)";
	static const char pg_lobbies[] =
	    "DELETE FROM matches WHERE id IN (SELECT id FROM matches m WHERE m.status = 'lobby' "
	    "AND m.created_at < ?1 AND NOT EXISTS (SELECT 1 FROM match_seats s WHERE s.match_id = m.id) "
	    "LIMIT ?2 FOR UPDATE SKIP LOCKED)";
	struct store_sweep *w = arg;
	bool pg = store_is_pg(c);
	int64_t seats;

	w->puzzles = w->runs = w->lobbies = 0;
	if (sweep_one(c, pg ? pg_puzzles : puzzles, w->puzzles_before, w->limit, &w->puzzles) != STORE_OK ||
	    sweep_runs(c, pg ? pg_runs : runs, w->unplayed_before, w->limit, &w->runs) != STORE_OK ||
	    sweep_one(c, pg ? pg_lobby_seats : lobby_seats, w->unplayed_before, w->limit, &seats) != STORE_OK ||
	    sweep_one(c, pg ? pg_lobbies : lobbies, w->unplayed_before, w->limit, &w->lobbies) != STORE_OK)
		return STORE_ERROR;
	return STORE_OK;
}
