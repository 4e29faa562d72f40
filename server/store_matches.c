/*
 * store_matches.c: versus matches, their seats and turns, and ratings
 * (store.h). Plain statements only, so that another backend can port each
 * function one for one.
 *
 * The two compare-and-sets: store_match_join's `UPDATE ... WHERE joined =
 * ? AND status = 'lobby'` and store_match_update's `WHERE turn = ? AND
 * status = ?`. A writer that lost either writes nothing and says CONFLICT,
 * so two requests or a request and a deadline built on the same row can
 * never both move it. Workload: one get and one update per move; a turn
 * insert per resolved turn; the turns and ratings once per finished match.
 */
#include "store_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "log.h"

/* A random id in [1, ENGINE_ID_MAX], as runs have. */
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

static void
bind_text_or_null(sqlite3_stmt *st, int i, const char *s)
{
	if (s == NULL)
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC);
}

static void
bind_blob_or_null(sqlite3_stmt *st, int i, const uint8_t *p, size_t n)
{
	if (p == NULL || n == 0)
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_blob(st, i, p, (int)n, SQLITE_STATIC);
}

static void
bind_ms_or_null(sqlite3_stmt *st, int i, int64_t ms)
{
	if (ms <= 0)
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_int64(st, i, ms);
}

static void
bind_real_or_null(sqlite3_stmt *st, int i, double v)
{
	if (isnan(v))
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_double(st, i, v);
}

static double
column_real_or_nan(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

static void
column_text(sqlite3_stmt *st, int i, char *out, size_t cap)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	snprintf(out, cap, "%s", t != NULL ? (const char *)t : "");
}

/* A blob column into out (capacity cap); false when it does not fit. */
static bool
column_blob(sqlite3_stmt *st, int i, uint8_t *out, size_t cap, size_t *n)
{
	const void *b = sqlite3_column_blob(st, i);
	int len = sqlite3_column_bytes(st, i);

	*n = 0;
	if (b == NULL || len <= 0)
		return true;
	if ((size_t)len > cap)
		return false;
	memcpy(out, b, (size_t)len);
	*n = (size_t)len;
	return true;
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
store_match_insert(struct store_conn *c, struct store_match_new *m)
{
	static const char sql[] =
	    "INSERT INTO matches (id, rules, status, players, joined, turn_seconds, turn_cap, seed, "
	    "seed_chosen, rated, turn, created_by, created_at) "
	    "VALUES (?1, ?2, 'lobby', ?3, 1, ?4, ?5, ?6, ?7, ?8, 0, ?9, ?10) ON CONFLICT (id) DO NOTHING";
	static const char seat[] =
	    "INSERT INTO match_seats (match_id, seat, account_id, joined_at) VALUES (?1, 0, ?2, ?3)";
	sqlite3_stmt *st;
	int tries;

	for (tries = 0; tries < 8; tries++) {
		if ((st = store_stmt(c, sql)) == NULL)
			return STORE_ERROR;
		m->id = random_id();
		sqlite3_bind_int64(st, 1, m->id);
		sqlite3_bind_text(st, 2, m->rules, -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 3, m->players);
		sqlite3_bind_int(st, 4, m->turn_seconds);
		sqlite3_bind_int(st, 5, m->turn_cap);
		sqlite3_bind_int64(st, 6, m->seed);
		sqlite3_bind_int(st, 7, m->seed_chosen);
		sqlite3_bind_int(st, 8, m->rated);
		sqlite3_bind_int64(st, 9, m->account_id);
		sqlite3_bind_int64(st, 10, m->now);
		if (store_exec_stmt(c, st) != STORE_OK)
			return STORE_ERROR;
		if (sqlite3_changes(c->db) == 1)
			break;
	}
	if (tries == 8) {
		log_msg(LOG_ERROR, "store: no free match id after 8 tries");
		return STORE_ERROR;
	}
	if ((st = store_stmt(c, seat)) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(st, 1, m->id);
	sqlite3_bind_int64(st, 2, m->account_id);
	sqlite3_bind_int64(st, 3, m->now);
	return store_exec_stmt(c, st);
}

static enum store_result
read_seats(struct store_conn *c, struct store_match_row *out)
{
	static const char sql[] =
	    "SELECT s.seat, s.account_id, coalesce(a.name, ''), coalesce(s.place, 0), "
	    "s.rating_before, s.rating_after "
	    "FROM match_seats s LEFT JOIN accounts a ON a.id = s.account_id "
	    "WHERE s.match_id = ?1 ORDER BY s.seat";
	sqlite3_stmt *st = store_stmt(c, sql);
	int rc;

	if (st == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(st, 1, out->id);
	out->nseats = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int seat = sqlite3_column_int(st, 0);
		struct store_match_seat *s;

		if (seat != out->nseats || seat >= STORE_MATCH_SEATS) {
			rc = SQLITE_CORRUPT;
			break;
		}
		s = &out->seats[out->nseats++];
		s->account_id = sqlite3_column_int64(st, 1);
		column_text(st, 2, s->name, sizeof s->name);
		s->place = sqlite3_column_int(st, 3);
		s->rating_before = column_real_or_nan(st, 4);
		s->rating_after = column_real_or_nan(st, 5);
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		log_msg(LOG_ERROR, "store: cannot read the seats of match %lld", (long long)out->id);
		return STORE_ERROR;
	}
	return STORE_OK;
}

enum store_result
store_match_get(struct store_conn *c, int64_t id, struct store_match_row *out)
{
	static const char sql[] =
	    "SELECT id, seed, turn, created_by, created_at, coalesce(started_at, 0), "
	    "coalesce(finished_at, 0), coalesce(deadline_at, 0), players, joined, turn_seconds, "
	    "turn_cap, seed_chosen, rated, rules, status, coalesce(end_reason, ''), state, pending, "
	    "totals, last_turn, certificate FROM matches WHERE id = ?1";
	sqlite3_stmt *st = store_stmt(c, sql);
	enum store_result ret = STORE_ERROR;
	bool failed = false;
	int rc;

	memset(out, 0, sizeof *out);
	if (st == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(st, 1, id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		out->id = sqlite3_column_int64(st, 0);
		out->seed = sqlite3_column_int64(st, 1);
		out->turn = sqlite3_column_int64(st, 2);
		out->created_by = sqlite3_column_int64(st, 3);
		out->created_at = sqlite3_column_int64(st, 4);
		out->started_at = sqlite3_column_int64(st, 5);
		out->finished_at = sqlite3_column_int64(st, 6);
		out->deadline_at = sqlite3_column_int64(st, 7);
		out->players = sqlite3_column_int(st, 8);
		out->joined = sqlite3_column_int(st, 9);
		out->turn_seconds = sqlite3_column_int(st, 10);
		out->turn_cap = sqlite3_column_int(st, 11);
		out->seed_chosen = sqlite3_column_int(st, 12) != 0;
		out->rated = sqlite3_column_int(st, 13) != 0;
		column_text(st, 14, out->rules, sizeof out->rules);
		column_text(st, 15, out->status, sizeof out->status);
		column_text(st, 16, out->end_reason, sizeof out->end_reason);
		if (!column_blob(st, 17, out->state, sizeof out->state, &out->nstate) ||
		    !column_blob(st, 18, out->pending, sizeof out->pending, &out->npending) ||
		    !column_blob(st, 19, out->totals, sizeof out->totals, &out->ntotals))
			failed = true;
		out->last_turn = column_strdup(st, 20, &failed);
		out->certificate = column_strdup(st, 21, &failed);
		ret = failed ? STORE_ERROR : STORE_OK;
		if (failed)
			log_msg(LOG_ERROR, "store: match %lld does not read back", (long long)id);
	} else if (rc == SQLITE_DONE)
		ret = STORE_NOT_FOUND;
	else
		store_log_error(c, "match get");
	sqlite3_reset(st);
	if (ret == STORE_OK)
		ret = read_seats(c, out);
	if (ret != STORE_OK)
		store_match_row_free(out);
	return ret;
}

void
store_match_row_free(struct store_match_row *r)
{
	free(r->last_turn);
	free(r->certificate);
	r->last_turn = r->certificate = NULL;
}

enum store_result
store_match_join(struct store_conn *c, int64_t id, int from_joined, int64_t account_id,
    int64_t now)
{
	/* The seat goes in only while the lobby is where the caller saw it and
	 * the account has no seat yet (the UNIQUE pair): then the count. */
	static const char ins[] =
	    "INSERT INTO match_seats (match_id, seat, account_id, joined_at) "
	    "SELECT id, ?2, ?3, ?4 FROM matches WHERE id = ?1 AND joined = ?2 AND status = 'lobby' "
	    "AND joined < players ON CONFLICT DO NOTHING";
	static const char upd[] = "UPDATE matches SET joined = ?2 + 1 WHERE id = ?1 AND joined = ?2";
	sqlite3_stmt *st = store_stmt(c, ins);

	if (st == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int(st, 2, from_joined);
	sqlite3_bind_int64(st, 3, account_id);
	sqlite3_bind_int64(st, 4, now);
	if (store_exec_stmt(c, st) != STORE_OK)
		return STORE_ERROR;
	if (sqlite3_changes(c->db) != 1)
		return STORE_CONFLICT;
	if ((st = store_stmt(c, upd)) == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int(st, 2, from_joined);
	if (store_exec_stmt(c, st) != STORE_OK)
		return STORE_ERROR;
	return sqlite3_changes(c->db) == 1 ? STORE_OK : STORE_ERROR;
}

enum store_result
store_match_update(struct store_conn *c, const struct store_match_update *u)
{
	static const char sql[] =
	    "UPDATE matches SET status = ?4, turn = ?5, state = ?6, pending = ?7, totals = ?8, "
	    "last_turn = ?9, deadline_at = ?10, end_reason = ?11, started_at = ?12, "
	    "finished_at = ?13, certificate = ?14 WHERE id = ?1 AND turn = ?2 AND status = ?3";
	sqlite3_stmt *st = store_stmt(c, sql);

	if (st == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(st, 1, u->id);
	sqlite3_bind_int64(st, 2, u->from_turn);
	sqlite3_bind_text(st, 3, u->from_status, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, u->status, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 5, u->turn);
	bind_blob_or_null(st, 6, u->state, u->nstate);
	bind_blob_or_null(st, 7, u->pending, u->npending);
	bind_blob_or_null(st, 8, u->totals, u->ntotals);
	bind_text_or_null(st, 9, u->last_turn);
	bind_ms_or_null(st, 10, u->deadline_at);
	bind_text_or_null(st, 11, u->end_reason);
	bind_ms_or_null(st, 12, u->started_at);
	bind_ms_or_null(st, 13, u->finished_at);
	bind_text_or_null(st, 14, u->certificate);
	if (store_exec_stmt(c, st) != STORE_OK)
		return STORE_ERROR;
	return sqlite3_changes(c->db) == 1 ? STORE_OK : STORE_CONFLICT;
}

enum store_result
store_match_turn_insert(struct store_conn *c, int64_t id, int64_t turn, const char *moves,
    int64_t now)
{
	static const char sql[] =
	    "INSERT INTO match_turns (match_id, turn, moves, created_at) VALUES (?1, ?2, ?3, ?4)";
	sqlite3_stmt *st = store_stmt(c, sql);

	if (st == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int64(st, 2, turn);
	sqlite3_bind_text(st, 3, moves, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, now);
	return store_exec_stmt(c, st);
}

json_t *
store_match_turns(struct store_conn *c, int64_t id)
{
	static const char sql[] = "SELECT turn, moves FROM match_turns WHERE match_id = ?1 ORDER BY turn";
	sqlite3_stmt *st = store_stmt(c, sql);
	json_t *a;
	int rc;

	if (st == NULL || (a = json_array()) == NULL)
		return NULL;
	sqlite3_bind_int64(st, 1, id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *text = (const char *)sqlite3_column_text(st, 1);
		json_t *v = text != NULL ? json_loads(text, 0, NULL) : NULL;

		/* Turns are numbered 1, 2, ... without gaps. */
		if (v == NULL || sqlite3_column_int64(st, 0) != (int64_t)json_array_size(a) + 1 ||
		    json_array_append_new(a, v) != 0) {
			rc = SQLITE_CORRUPT;
			break;
		}
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		log_msg(LOG_ERROR, "store: cannot read the turns of match %lld", (long long)id);
		json_decref(a);
		return NULL;
	}
	return a;
}

enum store_result
store_match_results(struct store_conn *c, int64_t id, const struct store_match_result *r, int n)
{
	static const char sql[] =
	    "UPDATE match_seats SET place = ?3, score = ?4, lines_sent = ?5, lines_received = ?6, "
	    "rating_before = ?7, rating_after = ?8 WHERE match_id = ?1 AND seat = ?2";
	int i;

	for (i = 0; i < n; i++) {
		sqlite3_stmt *st = store_stmt(c, sql);

		if (st == NULL)
			return STORE_ERROR;
		sqlite3_bind_int64(st, 1, id);
		sqlite3_bind_int(st, 2, r[i].seat);
		sqlite3_bind_int(st, 3, r[i].place);
		sqlite3_bind_int64(st, 4, r[i].score);
		sqlite3_bind_int64(st, 5, r[i].lines_sent);
		sqlite3_bind_int64(st, 6, r[i].lines_received);
		bind_real_or_null(st, 7, r[i].rating_before);
		bind_real_or_null(st, 8, r[i].rating_after);
		if (store_exec_stmt(c, st) != STORE_OK)
			return STORE_ERROR;
	}
	return STORE_OK;
}

enum store_result
store_ratings_get(struct store_conn *c, const int64_t *accounts, int n, struct store_rating *out)
{
	static const char sql[] =
	    "SELECT rating, rd, volatility, matches FROM ratings WHERE account_id = ?1";
	int i, rc;

	for (i = 0; i < n; i++) {
		sqlite3_stmt *st = store_stmt(c, sql);

		if (st == NULL)
			return STORE_ERROR;
		memset(&out[i], 0, sizeof out[i]);
		out[i].account_id = accounts[i];
		sqlite3_bind_int64(st, 1, accounts[i]);
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW) {
			out[i].rating = sqlite3_column_double(st, 0);
			out[i].rd = sqlite3_column_double(st, 1);
			out[i].volatility = sqlite3_column_double(st, 2);
			out[i].matches = sqlite3_column_int64(st, 3);
			out[i].found = true;
		}
		sqlite3_reset(st);
		if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
			store_log_error(c, "ratings get");
			return STORE_ERROR;
		}
	}
	return STORE_OK;
}

enum store_result
store_ratings_put(struct store_conn *c, const struct store_rating *r, int n, int64_t now)
{
	static const char sql[] =
	    "INSERT INTO ratings (account_id, rating, rd, volatility, matches, updated_at) "
	    "VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT (account_id) DO UPDATE SET "
	    "rating = excluded.rating, rd = excluded.rd, volatility = excluded.volatility, "
	    "matches = excluded.matches, updated_at = excluded.updated_at";
	int i;

	for (i = 0; i < n; i++) {
		sqlite3_stmt *st = store_stmt(c, sql);

		if (st == NULL)
			return STORE_ERROR;
		sqlite3_bind_int64(st, 1, r[i].account_id);
		sqlite3_bind_double(st, 2, r[i].rating);
		sqlite3_bind_double(st, 3, r[i].rd);
		sqlite3_bind_double(st, 4, r[i].volatility);
		sqlite3_bind_int64(st, 5, r[i].matches);
		sqlite3_bind_int64(st, 6, now);
		if (store_exec_stmt(c, st) != STORE_OK)
			return STORE_ERROR;
	}
	return STORE_OK;
}

enum store_result
store_ratings_list(struct store_conn *c, int limit, struct store_rating *out, int *n)
{
	static const char sql[] =
	    "SELECT r.account_id, coalesce(a.name, ''), r.rating, r.rd, r.volatility, r.matches "
	    "FROM ratings r LEFT JOIN accounts a ON a.id = r.account_id "
	    "ORDER BY r.rating DESC, r.account_id LIMIT ?1";
	sqlite3_stmt *st = store_stmt(c, sql);
	int rc;

	*n = 0;
	if (st == NULL)
		return STORE_ERROR;
	sqlite3_bind_int(st, 1, limit);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && *n < limit) {
		struct store_rating *r = &out[(*n)++];

		memset(r, 0, sizeof *r);
		r->account_id = sqlite3_column_int64(st, 0);
		column_text(st, 1, r->name, sizeof r->name);
		r->rating = sqlite3_column_double(st, 2);
		r->rd = sqlite3_column_double(st, 3);
		r->volatility = sqlite3_column_double(st, 4);
		r->matches = sqlite3_column_int64(st, 5);
		r->found = true;
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
		store_log_error(c, "ratings list");
		return STORE_ERROR;
	}
	return STORE_OK;
}

enum store_result
store_matches_playing(struct store_conn *c,
    void (*each)(void *ctx, int64_t id, int64_t turn, int64_t deadline_at), void *ctx)
{
	static const char sql[] =
	    "SELECT id, turn, coalesce(deadline_at, 0) FROM matches WHERE status = 'playing'";
	sqlite3_stmt *st = store_stmt(c, sql);
	int rc;

	if (st == NULL)
		return STORE_ERROR;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		each(ctx, sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1),
		    sqlite3_column_int64(st, 2));
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		store_log_error(c, "matches playing");
		return STORE_ERROR;
	}
	return STORE_OK;
}
