/*
 * store_facts.c: run facts, what a game's moves record beyond the state
 * (api/game/game.h), in the run_facts table (migrations/0005_run_facts.sql).
 *
 * Invariants: a run holds each fact once, with the first step whose move
 * recorded it; rows are written only in the job that advanced the head to
 * that step, after its compare-and-set succeeded, so the facts with step
 * <= S of a run are exactly those recorded by its moves 1..S once step S
 * is committed, whatever is being written beside them.
 *
 * Workload: one insert per move of a game with facts (one row of a few
 * dozen bytes); one bulk read of a run's facts up to a step when a request
 * needs them (a few hundred rows for a long HATETRIS run), on a reader.
 */
#include "store_internal.h"
#include "store.h"

#include <string.h>


enum store_result
store_fact_insert(struct store_conn *c, int64_t run, int64_t step, const uint8_t *fact, size_t n)
{
	static const char sql[] =
	    "INSERT INTO run_facts (run_id, fact, step) VALUES (?1, ?2, ?3) "
	    "ON CONFLICT (run_id, fact) DO NOTHING";
	struct store_q *st;

	if (n == 0 || n > GAME_FACT_MAX || (st = store_q(c, sql)) == NULL)
		return STORE_ERROR;
	store_q_int(st, 1, run);
	store_q_blob(st, 2, fact, n);
	store_q_int(st, 3, step);
	return store_q_exec(st);
}

enum store_result
store_facts_read(struct store_conn *c, int64_t run, int64_t step, size_t n,
    bool (*add)(void *ctx, const uint8_t *fact), void *ctx)
{
	static const char sql[] = "SELECT fact FROM run_facts WHERE run_id = ?1 AND step <= ?2";
	struct store_q *st = store_q(c, sql);
	enum store_result ret = STORE_OK;
	int rc;

	if (st == NULL)
		return STORE_ERROR;
	store_q_int(st, 1, run);
	store_q_int(st, 2, step);
	while ((rc = store_q_step(st)) == STORE_Q_ROW) {
		uint8_t blob[GAME_FACT_MAX];
		long len = n <= sizeof blob ? store_q_col_blob(st, 0, blob, sizeof blob) : -1;

		if (len < 0 || (size_t)len != n) {
			store_log_msg(STORE_LOG_ERROR, "store: run %lld has a fact of %ld bytes, not %zu",
			    (long long)run, len, n);
			ret = STORE_ERROR;
			break;
		}
		if (!add(ctx, blob)) {
			ret = STORE_ERROR;
			break;
		}
	}
	if (ret == STORE_OK && rc != STORE_Q_DONE) {
		store_log_error(c, "run facts");
		ret = STORE_ERROR;
	}
	store_q_reset(st);
	return ret;
}
