/*
 * store_runs.c: runs, moves and reviews.
 *
 * A move is one INSERT into moves and the head one UPDATE of runs, in the
 * writer's transaction; the UPDATE's `WHERE step = ?` is the
 * compare-and-set, so two requests built on the same head can never both
 * advance it even if a caller forgot to check first.
 */
#include "store_internal.h"

#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "log.h"

static void
bind_nullable(sqlite3_stmt *st, int i, int64_t v)
{
	if (v < 0)
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_int64(st, i, v);
}

static void
bind_text_or_null(sqlite3_stmt *st, int i, const char *s)
{
	if (s == NULL)
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC);
}

/* A random id in [1, ENGINE_ID_MAX]: unguessable and exact as a JSON number. */
static int64_t
random_id(void)
{
	uint64_t v;

	do {
		randombytes_buf(&v, sizeof v);
		v &= (uint64_t)ENGINE_ID_MAX;
	} while (v == 0);
	return (int64_t)v;
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
		sqlite3_stmt *st = store_stmt(c, sql);

		if (st == NULL)
			return STORE_ERROR;
		r->id = random_id();
		sqlite3_bind_int64(st, 1, r->id);
		sqlite3_bind_text(st, 2, r->game, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, r->rules, -1, SQLITE_STATIC);
		if (r->account_id > 0)
			sqlite3_bind_int64(st, 4, r->account_id);
		else
			sqlite3_bind_null(st, 4);
		sqlite3_bind_int64(st, 5, r->seed);
		sqlite3_bind_int(st, 6, r->seed_chosen);
		sqlite3_bind_text(st, 7, r->sum.status, -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 8, r->sum.over);
		bind_text_or_null(st, 9, r->sum.end_reason);
		sqlite3_bind_blob(st, 10, r->state, (int)r->nstate, SQLITE_STATIC);
		sqlite3_bind_int64(st, 11, r->sum.score);
		bind_nullable(st, 12, r->sum.lines);
		bind_nullable(st, 13, r->sum.pieces);
		bind_nullable(st, 14, r->sum.rung);
		bind_nullable(st, 15, r->sum.lives);
		sqlite3_bind_int64(st, 16, r->now);
		bind_nullable(st, 17, r->sum.over ? r->now : -1);
		sqlite3_bind_int64(st, 18, r->sum.rank[0]);
		sqlite3_bind_int64(st, 19, r->sum.rank[1]);
		sqlite3_bind_int64(st, 20, r->sum.rank[2]);
		if (store_exec_stmt(c, st) != STORE_OK)
			return STORE_ERROR;
		if (sqlite3_changes(c->db) == 1)
			return STORE_OK;
	}
	log_msg(LOG_ERROR, "store: no free run id after 8 tries");
	return STORE_ERROR;
}

static int64_t
column_nullable(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? -1 : sqlite3_column_int64(st, i);
}

static void
column_text(sqlite3_stmt *st, int i, char *out, size_t cap)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	snprintf(out, cap, "%s", t != NULL ? (const char *)t : "");
}

enum store_result
store_run_head(struct store_conn *c, int64_t id, struct store_run_head *out)
{
	static const char sql[] =
	    "SELECT r.id, coalesce(r.account_id, 0), r.seed, r.step, r.created_at, "
	    "coalesce(r.ended_at, 0), coalesce(r.finished_at, 0), coalesce(r.last_from_step, -1), "
	    "r.seed_chosen, r.over, r.game, r.status, r.end_reason, coalesce(a.name, ''), "
	    "r.score, r.lines, r.pieces, r.rung, r.lives, r.last_request, r.state "
	    "FROM runs r LEFT JOIN accounts a ON a.id = r.account_id WHERE r.id = ?1";
	sqlite3_stmt *st = store_stmt(c, sql);
	int rc;
	enum store_result ret = STORE_ERROR;

	if (st == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(st, 1, id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		const void *blob;
		int n;

		memset(out, 0, sizeof *out);
		out->id = sqlite3_column_int64(st, 0);
		out->account_id = sqlite3_column_int64(st, 1);
		out->seed = sqlite3_column_int64(st, 2);
		out->step = sqlite3_column_int64(st, 3);
		out->created_at = sqlite3_column_int64(st, 4);
		out->ended_at = sqlite3_column_int64(st, 5);
		out->finished_at = sqlite3_column_int64(st, 6);
		out->last_from_step = sqlite3_column_int64(st, 7);
		out->seed_chosen = sqlite3_column_int(st, 8) != 0;
		out->over = sqlite3_column_int(st, 9) != 0;
		column_text(st, 10, out->game, sizeof out->game);
		column_text(st, 11, out->status, sizeof out->status);
		column_text(st, 12, out->end_reason, sizeof out->end_reason);
		column_text(st, 13, out->account, sizeof out->account);
		out->score = sqlite3_column_int64(st, 14);
		out->lines = column_nullable(st, 15);
		out->pieces = column_nullable(st, 16);
		out->rung = column_nullable(st, 17);
		out->lives = column_nullable(st, 18);
		blob = sqlite3_column_blob(st, 19);
		if (blob != NULL && sqlite3_column_bytes(st, 19) == STORE_FP_BYTES)
			memcpy(out->last_request, blob, STORE_FP_BYTES);
		blob = sqlite3_column_blob(st, 20);
		n = sqlite3_column_bytes(st, 20);
		if (blob != NULL && n > 0 && n <= STORE_STATE_MAX) {
			memcpy(out->state, blob, (size_t)n);
			out->nstate = (size_t)n;
			ret = STORE_OK;
		} else
			log_msg(LOG_ERROR, "store: run %lld has no valid state", (long long)id);
	} else if (rc == SQLITE_DONE)
		ret = STORE_NOT_FOUND;
	else
		store_log_error(c, "run head");
	sqlite3_reset(st);
	return ret;
}

enum store_result
store_run_latest(struct store_conn *c, int64_t account_id, const char *game, int64_t *id)
{
	static const char sql[] =
	    "SELECT id FROM runs WHERE account_id = ?1 AND game = ?2 "
	    "ORDER BY created_at DESC, rowid DESC LIMIT 1";
	sqlite3_stmt *st = store_stmt(c, sql);
	int rc;
	enum store_result ret = STORE_ERROR;

	if (st == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(st, 1, account_id);
	sqlite3_bind_text(st, 2, game, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*id = sqlite3_column_int64(st, 0);
		ret = STORE_OK;
	} else if (rc == SQLITE_DONE)
		ret = STORE_NOT_FOUND;
	sqlite3_reset(st);
	return ret;
}

enum store_result
store_run_advance(struct store_conn *c, const struct store_run_advance *a)
{
	static const char upd[] =
	    "UPDATE runs SET step = ?3, state = ?4, last_from_step = ?2, last_request = ?5, "
	    "status = ?6, over = ?7, end_reason = ?8, score = ?9, lines = ?10, pieces = ?11, "
	    "rung = ?12, lives = ?13, rank1 = ?15, rank2 = ?16, rank3 = ?17, "
	    "ended_at = CASE WHEN ?7 AND ended_at IS NULL THEN ?14 ELSE ended_at END "
	    "WHERE id = ?1 AND step = ?2";
	static const char ins[] =
	    "INSERT INTO moves (run_id, step, action, created_at) VALUES (?1, ?2, ?3, ?4)";
	sqlite3_stmt *st = store_stmt(c, upd);
	size_t i;

	if (st == NULL || a->nmoves == 0 || a->nmoves > STORE_MOVES_MAX)
		return STORE_ERROR;
	sqlite3_bind_int64(st, 1, a->id);
	sqlite3_bind_int64(st, 2, a->from_step);
	sqlite3_bind_int64(st, 3, a->from_step + (int64_t)a->nmoves);
	sqlite3_bind_blob(st, 4, a->state, (int)a->nstate, SQLITE_STATIC);
	sqlite3_bind_blob(st, 5, a->fp, STORE_FP_BYTES, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, a->sum.status, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 7, a->sum.over);
	bind_text_or_null(st, 8, a->sum.end_reason);
	sqlite3_bind_int64(st, 9, a->sum.score);
	bind_nullable(st, 10, a->sum.lines);
	bind_nullable(st, 11, a->sum.pieces);
	bind_nullable(st, 12, a->sum.rung);
	bind_nullable(st, 13, a->sum.lives);
	sqlite3_bind_int64(st, 14, a->now);
	sqlite3_bind_int64(st, 15, a->sum.rank[0]);
	sqlite3_bind_int64(st, 16, a->sum.rank[1]);
	sqlite3_bind_int64(st, 17, a->sum.rank[2]);
	if (store_exec_stmt(c, st) != STORE_OK)
		return STORE_ERROR;
	if (sqlite3_changes(c->db) != 1)
		return STORE_CONFLICT;
	for (i = 0; i < a->nmoves; i++) {
		if ((st = store_stmt(c, ins)) == NULL)
			return STORE_ERROR;
		sqlite3_bind_int64(st, 1, a->id);
		sqlite3_bind_int64(st, 2, a->from_step + (int64_t)i + 1);
		sqlite3_bind_text(st, 3, a->actions[i], -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 4, a->now);
		if (store_exec_stmt(c, st) != STORE_OK)
			return STORE_ERROR;
	}
	return STORE_OK;
}

json_t *
store_run_actions(struct store_conn *c, int64_t id)
{
	static const char sql[] = "SELECT action FROM moves WHERE run_id = ?1 ORDER BY step";
	sqlite3_stmt *st = store_stmt(c, sql);
	json_t *a;
	int rc;

	if (st == NULL || (a = json_array()) == NULL)
		return NULL;
	sqlite3_bind_int64(st, 1, id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *text = (const char *)sqlite3_column_text(st, 0);
		/* A move is any JSON value: a Stackcraft move is a bare id string. */
		json_t *v = text ? json_loads(text, JSON_DECODE_ANY, NULL) : NULL;

		if (v == NULL || json_array_append_new(a, v) != 0) {
			rc = SQLITE_CORRUPT;
			break;
		}
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		log_msg(LOG_ERROR, "store: cannot read the moves of run %lld", (long long)id);
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
	sqlite3_stmt *st = store_stmt(c, upd);

	if (st == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(st, 1, f->id);
	sqlite3_bind_int64(st, 2, f->now);
	sqlite3_bind_text(st, 3, f->certificate, -1, SQLITE_STATIC);
	if (store_exec_stmt(c, st) != STORE_OK)
		return STORE_ERROR;
	if (sqlite3_changes(c->db) != 1)
		return STORE_CONFLICT;
	if ((st = store_stmt(c, ins)) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(st, 1, f->id);
	sqlite3_bind_text(st, 2, f->game, -1, SQLITE_STATIC);
	if (f->account_id > 0)
		sqlite3_bind_int64(st, 3, f->account_id);
	else
		sqlite3_bind_null(st, 3);
	sqlite3_bind_int(st, 4, f->rating);
	sqlite3_bind_text(st, 5, f->review, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 6, f->now);
	return store_exec_stmt(c, st);
}

static char *
column_strdup(sqlite3_stmt *st, int i, bool *failed)
{
	char *s;

	if (sqlite3_column_type(st, i) == SQLITE_NULL)
		return NULL;
	s = strdup((const char *)sqlite3_column_text(st, i));
	if (s == NULL)
		*failed = true;
	return s;
}

enum store_result
store_run_extras(struct store_conn *c, int64_t id, struct store_run_extras *out)
{
	static const char sql[] =
	    "SELECT r.certificate, v.review, v.rating, v.created_at FROM runs r "
	    "LEFT JOIN reviews v ON v.run_id = r.id WHERE r.id = ?1";
	sqlite3_stmt *st = store_stmt(c, sql);
	bool failed = false;
	int rc;

	memset(out, 0, sizeof *out);
	if (st == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(st, 1, id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		out->certificate = column_strdup(st, 0, &failed);
		out->review = column_strdup(st, 1, &failed);
		out->rating = sqlite3_column_int(st, 2);
		out->reviewed_at = sqlite3_column_int64(st, 3);
	}
	sqlite3_reset(st);
	if (failed || (rc != SQLITE_ROW && rc != SQLITE_DONE)) {
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
