/*
 * store_history.c: an account's public history, what its page reads
 * (docs/api.md, "Accounts"): the account by name, its runs of one game
 * newest first, their count, and its best run on each seed.
 *
 * The runs walk index runs_account (account_id, game, created_at) and stop
 * after one page; a page starts after a cursor (created_at, id) by a
 * row-value comparison. The count and the best run per seed come from the
 * summary the store keeps with every run it writes (store_summary.c,
 * migration 0012): the count is one row, the best seeds are the first
 * rows of index account_seeds_best, so the page reads what it shows
 * however many runs the account has. Names are matched without regard to
 * case, as accounts are created (COLLATE NOCASE on SQLite, lower(name) on
 * PostgreSQL).
 */
#include "store_internal.h"
#include "store.h"

#include <stdio.h>
#include <string.h>

enum store_result
store_account_by_name(struct store_conn *c, const char *name, int64_t *id, int64_t *created_at,
    char *out, size_t cap)
{
	static const char sqlite[] = "SELECT id, created_at, name FROM accounts WHERE name = ?1";
	static const char pg[] = "SELECT id, created_at, name FROM accounts WHERE lower(name) = lower(?1)";
	struct store_q *q = store_q(c, store_is_pg(c) ? pg : sqlite);
	enum store_result ret = STORE_ERROR;
	int rc;

	if (q == NULL)
		return STORE_ERROR;
	store_q_text(q, 1, name);
	rc = store_q_step(q);
	if (rc == STORE_Q_ROW) {
		*id = store_q_col_int(q, 0);
		*created_at = store_q_col_int(q, 1);
		store_q_col_copy(q, 2, out, cap);
		ret = STORE_OK;
	} else if (rc == STORE_Q_DONE)
		ret = STORE_NOT_FOUND;
	else
		store_log_error(c, "account by name");
	store_q_reset(q);
	return ret;
}

#define RUN_FIELDS \
	"runs.id, runs.seed, runs.seed_chosen, runs.status, runs.over, " \
	"coalesce(runs.end_reason, ''), runs.score, runs.lines, runs.pieces, runs.rung, runs.lives, " \
	"runs.step, runs.created_at, coalesce(runs.ended_at, 0)"
#define RUN_COLUMNS "SELECT " RUN_FIELDS " FROM runs "

static void
run_read(struct store_q *q, struct store_history_run *r)
{
	memset(r, 0, sizeof *r);
	r->id = store_q_col_int(q, 0);
	r->seed = store_q_col_int(q, 1);
	r->seed_chosen = store_q_col_int(q, 2) != 0;
	store_q_col_copy(q, 3, r->status, sizeof r->status);
	r->over = store_q_col_int(q, 4) != 0;
	store_q_col_copy(q, 5, r->end_reason, sizeof r->end_reason);
	r->score = store_q_col_int(q, 6);
	r->lines = store_q_col_nullable(q, 7);
	r->pieces = store_q_col_nullable(q, 8);
	r->rung = store_q_col_nullable(q, 9);
	r->lives = store_q_col_nullable(q, 10);
	r->moves = store_q_col_int(q, 11);
	r->created_at = store_q_col_int(q, 12);
	r->ended_at = store_q_col_int(q, 13);
}

enum store_result
store_account_runs(struct store_conn *c, int64_t account_id, const char *game, bool has_before,
    int64_t before_at, int64_t before_id, int limit, struct store_history_run *out, int *n)
{
	static const char first[] = RUN_COLUMNS "INDEXED BY runs_account "
	    "WHERE account_id = ?1 AND game = ?2 ORDER BY created_at DESC, id DESC LIMIT ?3";
	static const char next[] = RUN_COLUMNS "INDEXED BY runs_account "
	    "WHERE account_id = ?1 AND game = ?2 AND (created_at, id) < (?3, ?4) "
	    "ORDER BY created_at DESC, id DESC LIMIT ?5";
	struct store_q *q = store_q(c, has_before ? next : first);
	int rc = STORE_Q_DONE;

	*n = 0;
	if (q == NULL)
		return STORE_ERROR;
	store_q_int(q, 1, account_id);
	store_q_text(q, 2, game);
	if (has_before) {
		store_q_int(q, 3, before_at);
		store_q_int(q, 4, before_id);
	}
	store_q_int(q, has_before ? 5 : 3, limit);
	while (*n < limit && (rc = store_q_step(q)) == STORE_Q_ROW)
		run_read(q, &out[(*n)++]);
	store_q_reset(q);
	if (*n < limit && rc != STORE_Q_DONE) {
		store_log_error(c, "account runs");
		return STORE_ERROR;
	}
	return STORE_OK;
}

enum store_result
store_account_run_count(struct store_conn *c, int64_t account_id, const char *game, int64_t *count)
{
	static const char sql[] = "SELECT nruns FROM account_games WHERE account_id = ?1 AND game = ?2";
	struct store_q *q = store_q(c, sql);
	int rc;

	*count = 0;
	if (q == NULL)
		return STORE_ERROR;
	store_q_int(q, 1, account_id);
	store_q_text(q, 2, game);
	rc = store_q_step(q);
	if (rc == STORE_Q_ROW)
		*count = store_q_col_int(q, 0);
	store_q_reset(q);
	if (rc != STORE_Q_ROW && rc != STORE_Q_DONE) {
		store_log_error(c, "account run count");
		return STORE_ERROR;
	}
	return STORE_OK;
}

enum store_result
store_account_best(struct store_conn *c, int64_t account_id, const char *game, int limit,
    struct store_history_run *out, int *n)
{
	static const char sql[] = "SELECT " RUN_FIELDS ", s.nruns FROM account_seeds s "
	    "INDEXED BY account_seeds_best JOIN runs ON runs.id = s.best_id "
	    "WHERE s.account_id = ?1 AND s.game = ?2 "
	    "ORDER BY s.rank1 DESC, s.rank2 DESC, s.rank3 DESC, s.best_id DESC LIMIT ?3";
	struct store_q *q = store_q(c, sql);
	int rc = STORE_Q_DONE;

	*n = 0;
	if (q == NULL)
		return STORE_ERROR;
	store_q_int(q, 1, account_id);
	store_q_text(q, 2, game);
	store_q_int(q, 3, limit);
	while (*n < limit && (rc = store_q_step(q)) == STORE_Q_ROW) {
		run_read(q, &out[*n]);
		out[(*n)++].runs = store_q_col_int(q, 14);
	}
	store_q_reset(q);
	if (*n < limit && rc != STORE_Q_DONE) {
		store_log_error(c, "account best");
		return STORE_ERROR;
	}
	return STORE_OK;
}
