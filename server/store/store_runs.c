/*
 * store_runs.c: runs, moves and reviews.
 *
 * A move is one INSERT into moves and the head one UPDATE of runs, in the
 * writer's transaction; the UPDATE's `WHERE step = ?` is the
 * compare-and-set, so two requests built on the same head can never both
 * advance it even if a caller forgot to check first. On PostgreSQL the
 * writer reads the head with FOR UPDATE: another daemon's request on the
 * same run waits for this transaction's commit and then reads the new
 * head, so it is judged a retry or stale on what is really stored.
 */
#include "store_internal.h"
#include "store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* A summary's figures, lines to lives, at parameters at..at+3 (NULL where
 * the game has none), and its leaderboard keys at at..at+2. */
static void
bind_figures(struct store_q *q, int at, const struct game_summary *sum)
{
	store_q_nullable(q, at, sum->lines);
	store_q_nullable(q, at + 1, sum->pieces);
	store_q_nullable(q, at + 2, sum->rung);
	store_q_nullable(q, at + 3, sum->lives);
}

static void
bind_ranks(struct store_q *q, int at, const struct game_summary *sum)
{
	store_q_int(q, at, sum->rank[0]);
	store_q_int(q, at + 1, sum->rank[1]);
	store_q_int(q, at + 2, sum->rank[2]);
}

/* The account's summary (store_summary.c) after run r was inserted: one
 * more run, and a run that ended as it started ranks at once. */
static enum store_result
summary_inserted(struct store_conn *c, const struct store_run_new *r)
{
	struct store_summary_run was = { .id = r->id, .account_id = r->account_id, .seed = r->seed };

	if (r->account_id <= 0)
		return STORE_OK;
	if (store_summary_run_added(c, r->account_id, r->game, 1) != STORE_OK)
		return STORE_ERROR;
	if (!r->sum.over)
		return STORE_OK;
	snprintf(was.game, sizeof was.game, "%s", r->game);
	return store_summary_after(c, &was, &r->sum);
}

enum store_result
store_run_insert(struct store_conn *c, struct store_run_new *r)
{
	static const char sql[] =
	    "INSERT INTO runs (id, game, rules, account_id, seed, seed_chosen, status, over, "
	    "end_reason, step, state, score, lines, pieces, rung, lives, created_at, ended_at, "
	    "rank1, rank2, rank3) "
	    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, 0, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, "
	    "?18, ?19, ?20) ON CONFLICT (id) DO NOTHING";
	int tries;

	for (tries = 0; tries < 8; tries++) {
		struct store_q *q = store_q(c, sql);

		if (q == NULL)
			return STORE_ERROR;
		r->id = store_random_id();
		store_q_int(q, 1, r->id);
		store_q_text(q, 2, r->game);
		store_q_text(q, 3, r->rules);
		store_q_nullable(q, 4, r->account_id > 0 ? r->account_id : -1);
		store_q_int(q, 5, r->seed);
		store_q_int(q, 6, r->seed_chosen);
		store_q_text(q, 7, r->sum.status);
		store_q_int(q, 8, r->sum.over);
		store_q_text(q, 9, r->sum.end_reason);
		store_q_blob(q, 10, r->state, r->nstate);
		store_q_int(q, 11, r->sum.score);
		bind_figures(q, 12, &r->sum);
		store_q_int(q, 16, r->now);
		store_q_nullable(q, 17, r->sum.over ? r->now : -1);
		bind_ranks(q, 18, &r->sum);
		if (store_q_exec(q) != STORE_OK)
			return STORE_ERROR;
		if (store_q_changes(q) == 1)
			return summary_inserted(c, r);
	}
	store_log_msg(STORE_LOG_ERROR, "store: no free run id after 8 tries");
	return STORE_ERROR;
}

#define HEAD_SQL \
	"SELECT r.id, coalesce(r.account_id, 0), r.seed, r.step, r.created_at, " \
	"coalesce(r.ended_at, 0), coalesce(r.finished_at, 0), coalesce(r.last_from_step, -1), " \
	"r.seed_chosen, r.over, r.game, r.status, r.end_reason, coalesce(a.name, ''), " \
	"r.score, r.lines, r.pieces, r.rung, r.lives, r.last_request, r.state " \
	"FROM runs r LEFT JOIN accounts a ON a.id = r.account_id WHERE r.id = ?1"

enum store_result
store_run_head(struct store_conn *c, int64_t id, struct store_run_head *out)
{
	static const char sql[] = HEAD_SQL;
	static const char locked[] = HEAD_SQL " FOR UPDATE OF r";
	struct store_q *q = store_q(c, store_is_pg(c) && c->writer ? locked : sql);
	int rc;
	enum store_result ret = STORE_ERROR;

	if (q == NULL)
		return STORE_ERROR;
	store_q_int(q, 1, id);
	rc = store_q_step(q);
	if (rc == STORE_Q_ROW) {
		long n;

		memset(out, 0, sizeof *out);
		out->id = store_q_col_int(q, 0);
		out->account_id = store_q_col_int(q, 1);
		out->seed = store_q_col_int(q, 2);
		out->step = store_q_col_int(q, 3);
		out->created_at = store_q_col_int(q, 4);
		out->ended_at = store_q_col_int(q, 5);
		out->finished_at = store_q_col_int(q, 6);
		out->last_from_step = store_q_col_int(q, 7);
		out->seed_chosen = store_q_col_int(q, 8) != 0;
		out->over = store_q_col_int(q, 9) != 0;
		store_q_col_copy(q, 10, out->game, sizeof out->game);
		store_q_col_copy(q, 11, out->status, sizeof out->status);
		store_q_col_copy(q, 12, out->end_reason, sizeof out->end_reason);
		store_q_col_copy(q, 13, out->account, sizeof out->account);
		out->score = store_q_col_int(q, 14);
		out->lines = store_q_col_nullable(q, 15);
		out->pieces = store_q_col_nullable(q, 16);
		out->rung = store_q_col_nullable(q, 17);
		out->lives = store_q_col_nullable(q, 18);
		if (store_q_col_blob(q, 19, out->last_request, STORE_FP_BYTES) != STORE_FP_BYTES)
			memset(out->last_request, 0, STORE_FP_BYTES);
		n = store_q_col_blob(q, 20, out->state, sizeof out->state);
		if (n > 0 && n <= STORE_STATE_MAX) {
			out->nstate = (size_t)n;
			ret = STORE_OK;
		} else
			store_log_msg(STORE_LOG_ERROR, "store: run %lld has no valid state", (long long)id);
	} else if (rc == STORE_Q_DONE)
		ret = STORE_NOT_FOUND;
	store_q_reset(q);
	return ret;
}

enum store_result
store_run_latest(struct store_conn *c, int64_t account_id, const char *game, int64_t *id)
{
	/* id is the rowid on SQLite: the old tie-break, in both dialects. */
	static const char sql[] =
	    "SELECT id FROM runs WHERE account_id = ?1 AND game = ?2 "
	    "ORDER BY created_at DESC, id DESC LIMIT 1";
	struct store_q *q = store_q(c, sql);
	int rc;
	enum store_result ret = STORE_ERROR;

	if (q == NULL)
		return STORE_ERROR;
	store_q_int(q, 1, account_id);
	store_q_text(q, 2, game);
	rc = store_q_step(q);
	if (rc == STORE_Q_ROW) {
		*id = store_q_col_int(q, 0);
		ret = STORE_OK;
	} else if (rc == STORE_Q_DONE)
		ret = STORE_NOT_FOUND;
	store_q_reset(q);
	return ret;
}

/* The head's new values, ?1 to ?17 of both backends' statements. */
static void
bind_head(struct store_q *q, const struct store_run_advance *a)
{
	store_q_int(q, 1, a->id);
	store_q_int(q, 2, a->from_step);
	store_q_int(q, 3, a->from_step + (int64_t)a->nmoves);
	store_q_blob(q, 4, a->state, a->nstate);
	store_q_blob(q, 5, a->fp, STORE_FP_BYTES);
	store_q_text(q, 6, a->sum.status);
	store_q_int(q, 7, a->sum.over ? 1 : 0);
	store_q_text(q, 8, a->sum.end_reason);
	store_q_int(q, 9, a->sum.score);
	bind_figures(q, 10, &a->sum);
	store_q_int(q, 14, a->now);
	bind_ranks(q, 15, &a->sum);
}

/* A run's head moved from step ?2 to ?3 with its summary, as a
 * compare-and-set on the step (bind_head's parameters): the same statement
 * alone on SQLite and inside advance_pg's on PostgreSQL. */
#define RUN_HEAD_UPDATE \
	"UPDATE runs SET step = ?3, state = ?4, last_from_step = ?2, last_request = ?5, " \
	"status = ?6, over = ?7, end_reason = ?8, score = ?9, lines = ?10, pieces = ?11, " \
	"rung = ?12, lives = ?13, rank1 = ?15, rank2 = ?16, rank3 = ?17, " \
	"ended_at = CASE WHEN ?7 = 1 AND ended_at IS NULL THEN ?14 ELSE ended_at END " \
	"WHERE id = ?1 AND step = ?2"

/* PostgreSQL: the compare-and-set and the moves in one statement, one
 * round trip instead of one per statement. The moves travel as a JSON
 * array of strings (jansson writes it; the server splits it back into the
 * exact texts), numbered from from_step + 1; the UPDATE's WHERE is the
 * compare-and-set, and when it matches no row no move is inserted. */
static enum store_result
advance_pg(struct store_conn *c, const struct store_run_advance *a)
{
	static const char sql[] =
	    "WITH head AS (" RUN_HEAD_UPDATE " RETURNING id) "
	    "INSERT INTO moves (run_id, step, action, created_at) "
	    "SELECT head.id, ?2 + m.n, m.action, ?14 FROM head, "
	    "json_array_elements_text(CAST(?18 AS json)) WITH ORDINALITY AS m(action, n)";
	struct store_q *q = store_q(c, sql);
	json_t *list = json_array();
	enum store_result rc = STORE_ERROR;
	char *text = NULL;
	size_t i;

	for (i = 0; list != NULL && i < a->nmoves; i++)
		if (json_array_append_new(list, json_string(a->actions[i])) != 0)
			goto done;
	if (q == NULL || list == NULL || (text = json_dumps(list, JSON_COMPACT)) == NULL)
		goto done;
	bind_head(q, a);
	store_q_text(q, 18, text);
	if (store_q_exec(q) != STORE_OK)
		goto done;
	rc = store_q_changes(q) == (int64_t)a->nmoves ? STORE_OK :
	    store_q_changes(q) == 0 ? STORE_CONFLICT : STORE_ERROR;
done:
	free(text);
	json_decref(list);
	return rc;
}

enum store_result
store_run_advance(struct store_conn *c, const struct store_run_advance *a)
{
	static const char upd[] =
	    RUN_HEAD_UPDATE;
	static const char ins[] =
	    "INSERT INTO moves (run_id, step, action, created_at) VALUES (?1, ?2, ?3, ?4)";
	struct store_summary_run was;
	enum store_result rc;
	struct store_q *q;
	size_t i;

	if (a->nmoves == 0 || a->nmoves > STORE_MOVES_MAX)
		return STORE_ERROR;
	/* Only a head that ends can change the account's summary (a run, once
	 * over, moves no more: store_summary.c); what it was is read first. */
	if (a->sum.over && (rc = store_summary_before(c, a->id, &was)) != STORE_OK)
		return rc == STORE_NOT_FOUND ? STORE_CONFLICT : STORE_ERROR;
	if (store_is_pg(c))
		rc = advance_pg(c, a);
	else {
		if ((q = store_q(c, upd)) == NULL)
			return STORE_ERROR;
		bind_head(q, a);
		if (store_q_exec(q) != STORE_OK)
			return STORE_ERROR;
		if (store_q_changes(q) != 1)
			return STORE_CONFLICT;
		for (i = 0; i < a->nmoves; i++) {
			if ((q = store_q(c, ins)) == NULL)
				return STORE_ERROR;
			store_q_int(q, 1, a->id);
			store_q_int(q, 2, a->from_step + (int64_t)i + 1);
			store_q_text(q, 3, a->actions[i]);
			store_q_int(q, 4, a->now);
			if (store_q_exec(q) != STORE_OK)
				return STORE_ERROR;
		}
		rc = STORE_OK;
	}
	if (rc == STORE_OK && a->sum.over)
		rc = store_summary_after(c, &was, &a->sum);
	return rc;
}

json_t *
store_run_actions(struct store_conn *c, int64_t id)
{
	static const char sql[] = "SELECT action FROM moves WHERE run_id = ?1 ORDER BY step";
	struct store_q *q = store_q(c, sql);
	json_t *a;
	int rc;

	if (q == NULL || (a = json_array()) == NULL)
		return NULL;
	store_q_int(q, 1, id);
	while ((rc = store_q_step(q)) == STORE_Q_ROW) {
		const char *text = store_q_col_text(q, 0);
		/* A move is any JSON value: a Stackcraft move is a bare id string. */
		json_t *v = text ? json_loads(text, JSON_DECODE_ANY, NULL) : NULL;

		if (v == NULL || json_array_append_new(a, v) != 0) {
			rc = STORE_Q_FAIL;
			break;
		}
	}
	store_q_reset(q);
	if (rc != STORE_Q_DONE) {
		store_log_msg(STORE_LOG_ERROR, "store: cannot read the moves of run %lld", (long long)id);
		json_decref(a);
		return NULL;
	}
	return a;
}

enum store_result
store_run_finish(struct store_conn *c, const struct store_run_finish *f)
{
	static const char upd[] =
	    "UPDATE runs SET finished_at = ?2, certificate = ?3 WHERE id = ?1 AND finished_at IS NULL";
	static const char ins[] =
	    "INSERT INTO reviews (run_id, game, account_id, rating, review, created_at) "
	    "VALUES (?1, ?2, ?3, ?4, ?5, ?6)";
	/* Listed, on SQLite: past the largest id, and never below 1 (left to
	 * itself SQLite would count on from the largest rowid, which is
	 * negative while every review is unlisted). The writer is the only
	 * writer, so nothing comes between the read and the insert. */
	static const char ins_sqlite[] =
	    "INSERT INTO reviews (id, run_id, game, account_id, rating, review, created_at) "
	    "VALUES ((SELECT max(coalesce(max(id), 0), 0) + 1 FROM reviews), ?1, ?2, ?3, ?4, ?5, ?6)";
	/* Not listed: the id is the run's, negated (run ids are positive and
	 * a run has one review, so it is free; store.h). */
	static const char ins_unlisted[] =
	    "INSERT INTO reviews (id, run_id, game, account_id, rating, review, created_at) "
	    "VALUES (?7, ?1, ?2, ?3, ?4, ?5, ?6)";
	/* SQLite keeps review_stats by a trigger (migration 0002); on
	 * PostgreSQL the store does, so that the schema needs no trigger. */
	static const char stats[] =
	    "INSERT INTO review_stats (game, count, total) VALUES (?1, 1, ?2) "
	    "ON CONFLICT (game) DO UPDATE SET count = review_stats.count + 1, "
	    "total = review_stats.total + excluded.total";
	struct store_q *q = store_q(c, upd);

	if (q == NULL)
		return STORE_ERROR;
	store_q_int(q, 1, f->id);
	store_q_int(q, 2, f->now);
	store_q_text(q, 3, f->certificate);
	if (store_q_exec(q) != STORE_OK)
		return STORE_ERROR;
	if (store_q_changes(q) != 1)
		return STORE_CONFLICT;
	if ((q = store_q(c, !f->listed ? ins_unlisted : store_is_pg(c) ? ins : ins_sqlite)) == NULL)
		return STORE_ERROR;
	if (!f->listed)
		store_q_int(q, 7, -f->id);
	store_q_int(q, 1, f->id);
	store_q_text(q, 2, f->game);
	store_q_nullable(q, 3, f->account_id > 0 ? f->account_id : -1);
	store_q_int(q, 4, f->rating);
	store_q_text(q, 5, f->review);
	store_q_int(q, 6, f->now);
	if (store_q_exec(q) != STORE_OK)
		return STORE_ERROR;
	if (!store_is_pg(c))
		return STORE_OK;
	if ((q = store_q(c, stats)) == NULL)
		return STORE_ERROR;
	store_q_text(q, 1, f->game);
	store_q_int(q, 2, f->rating);
	return store_q_exec(q);
}

enum store_result
store_run_extras(struct store_conn *c, int64_t id, struct store_run_extras *out)
{
	static const char sql[] =
	    "SELECT r.certificate, v.review, v.rating, v.created_at FROM runs r "
	    "LEFT JOIN reviews v ON v.run_id = r.id WHERE r.id = ?1";
	struct store_q *q = store_q(c, sql);
	bool failed = false;
	int rc;

	memset(out, 0, sizeof *out);
	if (q == NULL)
		return STORE_ERROR;
	store_q_int(q, 1, id);
	rc = store_q_step(q);
	if (rc == STORE_Q_ROW) {
		out->certificate = store_q_col_strdup(q, 0, &failed);
		out->review = store_q_col_strdup(q, 1, &failed);
		out->rating = (int)store_q_col_int(q, 2);
		out->reviewed_at = store_q_col_int(q, 3);
	}
	store_q_reset(q);
	if (failed || rc == STORE_Q_FAIL) {
		store_run_extras_free(out);
		return STORE_ERROR;
	}
	return STORE_OK;
}

void
store_run_extras_free(struct store_run_extras *x)
{
	free(x->certificate);
	free(x->review);
	x->certificate = x->review = NULL;
}
