/*
 * store_matches.c: matches, their seats and turns, and ratings
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
#include "store.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static void
bind_blob_or_null(struct store_q *st, int i, const uint8_t *p, size_t n)
{
	if (p == NULL || n == 0)
		store_q_text(st, i, NULL);
	else
		store_q_blob(st, i, p, n);
}

static void
bind_ms_or_null(struct store_q *st, int i, int64_t ms)
{
	if (ms <= 0)
		store_q_text(st, i, NULL);
	else
		store_q_int(st, i, ms);
}

static void
bind_real_or_null(struct store_q *st, int i, double v)
{
	if (isnan(v))
		store_q_text(st, i, NULL);
	else
		store_q_double(st, i, v);
}

static double
column_real_or_nan(struct store_q *st, int i)
{
	return store_q_isnull(st, i) ? NAN : store_q_col_double(st, i);
}

/* A blob column into out (capacity cap); false when it does not fit. */
static bool
column_blob(struct store_q *st, int i, uint8_t *out, size_t cap, size_t *n)
{
	long len = store_q_col_blob(st, i, out, cap);

	*n = 0;
	if (len <= 0)
		return true;
	if ((size_t)len > cap)
		return false;
	*n = (size_t)len;
	return true;
}

/* item_weights as stored: "w1,w2,...,w6" (migration 0010). */
static void
weights_text(const uint8_t w[STORE_ITEM_KINDS], char out[32])
{
	snprintf(out, 32, "%u,%u,%u,%u,%u,%u", w[0], w[1], w[2], w[3], w[4], w[5]);
}

/* Read on every move: by hand rather than sscanf (3 k instructions),
 * taking what sscanf's "%u,%u,%u,%u,%u,%u" took of the texts
 * weights_text writes (blanks before a number allowed, anything after
 * the sixth ignored), each at most 100. Held to sscanf by the test
 * 'server store_text'. */
bool
weights_read(const char *text, uint8_t w[STORE_ITEM_KINDS])
{
	const char *p = text;
	unsigned v;
	int k;

	if (p == NULL)
		return false;
	for (k = 0; k < STORE_ITEM_KINDS; k++) {
		if (k > 0 && *p++ != ',')
			return false;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p < '0' || *p > '9')
			return false;
		for (v = 0; *p >= '0' && *p <= '9'; p++) {
			v = 10 * v + (unsigned)(*p - '0');
			if (v > 100)
				return false;
		}
		w[k] = (uint8_t)v;
	}
	return true;
}

enum store_result
store_match_insert(struct store_conn *c, struct store_match_new *m)
{
	static const char sql[] =
	    "INSERT INTO matches (id, rules, status, players, joined, turn_seconds, turn_cap, seed, "
	    "seed_chosen, rated, turn, created_by, created_at, items, queued, item_chance, item_weights, "
	    "clock) "
	    "VALUES (?1, ?2, 'lobby', ?3, 1, ?4, ?5, ?6, ?7, ?8, 0, ?9, ?10, ?11, ?12, ?13, ?14, ?15) "
	    "ON CONFLICT DO NOTHING";
	static const char seat[] =
	    "INSERT INTO match_seats (match_id, seat, account_id, joined_at, net, match_created_at) "
	    "VALUES (?1, 0, ?2, ?3, ?4, ?3)";
	/* On PostgreSQL two daemons may create for one account at once: the
	 * account's row, locked, makes them count one after the other. */
	static const char lock[] = "SELECT id FROM accounts WHERE id = ?1 FOR UPDATE";
	static const char open[] =
	    "SELECT count(*) FROM matches INDEXED BY matches_lobbies WHERE created_by = ?1 AND status = 'lobby'";
	static const char pg_open[] =
	    "SELECT count(*) FROM matches WHERE created_by = ?1 AND status = 'lobby'";
	struct store_q *st;
	int64_t lobbies;
	int tries;
	char weights[32];

	if (store_is_pg(c)) {
		if ((st = store_q(c, lock)) == NULL)
			return STORE_ERROR;
		store_q_int(st, 1, m->account_id);
		if (store_q_exec(st) != STORE_OK)
			return STORE_ERROR;
	}
	if ((st = store_q(c, store_is_pg(c) ? pg_open : open)) == NULL)
		return STORE_ERROR;
	store_q_int(st, 1, m->account_id);
	if (store_q_step(st) != STORE_Q_ROW) {
		store_q_reset(st);
		return STORE_ERROR;
	}
	lobbies = store_q_col_int(st, 0);
	store_q_reset(st);
	if (lobbies >= m->lobbies_max)
		return STORE_CONFLICT;

	for (tries = 0; tries < 8; tries++) {
		if ((st = store_q(c, sql)) == NULL)
			return STORE_ERROR;
		m->id = store_random_id();
		store_q_int(st, 1, m->id);
		store_q_text(st, 2, m->rules);
		store_q_int(st, 3, m->players);
		store_q_int(st, 4, m->turn_seconds);
		store_q_int(st, 5, m->turn_cap);
		store_q_int(st, 6, m->seed);
		store_q_int(st, 7, m->seed_chosen);
		store_q_int(st, 8, m->rated);
		store_q_int(st, 9, m->account_id);
		store_q_int(st, 10, m->now);
		store_q_int(st, 11, m->items);
		store_q_int(st, 12, m->queued);
		store_q_int(st, 13, m->item_chance);
		weights_text(m->item_weights, weights);
		store_q_text(st, 14, weights);
		store_q_text(st, 15, m->ticks ? "ticks" : "turns");
		if (store_q_exec(st) != STORE_OK)
			return STORE_ERROR;
		if (store_q_changes(st) == 1)
			break;
		/* Not inserted: the id was taken (try another), or, for the
		 * queue, another lobby with these settings committed first (on
		 * PostgreSQL the insert waited for it). */
		if (m->queued) {
			int64_t other;
			enum store_result rc = store_match_queue_find(c, m->players, m->turn_seconds,
			    m->items, m->item_chance, m->item_weights, &other);

			if (rc == STORE_ERROR)
				return STORE_ERROR;
			if (rc == STORE_OK) {
				m->queue_taken = true;
				return STORE_CONFLICT;
			}
		}
	}
	if (tries == 8) {
		store_log_msg(STORE_LOG_ERROR, "store: no free match id after 8 tries");
		return STORE_ERROR;
	}
	if ((st = store_q(c, seat)) == NULL)
		return STORE_ERROR;
	store_q_int(st, 1, m->id);
	store_q_int(st, 2, m->account_id);
	store_q_int(st, 3, m->now);
	store_q_text(st, 4, m->net);
	return store_q_exec(st);
}

enum store_result
store_match_queue_find(struct store_conn *c, int players, int turn_seconds, bool items,
    unsigned item_chance, const uint8_t item_weights[STORE_ITEM_KINDS], int64_t *id)
{
	static const char sql[] =
	    "SELECT id FROM matches INDEXED BY matches_queue WHERE players = ?1 AND turn_seconds = ?2 "
	    "AND items = ?3 AND item_chance = ?4 AND item_weights = ?5 AND status = 'lobby' AND queued = 1";
	struct store_q *st = store_q(c, sql);
	enum store_result ret;
	char weights[32];
	int rc;

	if (st == NULL)
		return STORE_ERROR;
	weights_text(item_weights, weights);
	store_q_int(st, 1, players);
	store_q_int(st, 2, turn_seconds);
	store_q_int(st, 3, items);
	store_q_int(st, 4, item_chance);
	store_q_text(st, 5, weights);
	rc = store_q_step(st);
	if (rc == STORE_Q_ROW) {
		*id = store_q_col_int(st, 0);
		ret = STORE_OK;
	} else if (rc == STORE_Q_DONE)
		ret = STORE_NOT_FOUND;
	else {
		store_log_error(c, "queue lobby");
		ret = STORE_ERROR;
	}
	store_q_reset(st);
	return ret;
}

enum store_result
store_match_pair_rated(struct store_conn *c, int64_t a, int64_t b, int64_t since_ms, int64_t *n)
{
	static const char sql[] =
	    "SELECT count(*) FROM match_seats x JOIN match_seats y ON y.match_id = x.match_id "
	    "JOIN matches m ON m.id = x.match_id WHERE x.account_id = ?1 AND y.account_id = ?2 "
	    "AND x.rating_after IS NOT NULL AND m.finished_at >= ?3";
	struct store_q *st = store_q(c, sql);
	int rc;

	if (st == NULL)
		return STORE_ERROR;
	store_q_int(st, 1, a);
	store_q_int(st, 2, b);
	store_q_int(st, 3, since_ms);
	rc = store_q_step(st);
	*n = rc == STORE_Q_ROW ? store_q_col_int(st, 0) : 0;
	store_q_reset(st);
	if (rc != STORE_Q_ROW) {
		store_log_error(c, "pair rated");
		return STORE_ERROR;
	}
	return STORE_OK;
}

enum store_result
store_match_nets_rated(struct store_conn *c, const char *a, const char *b, int64_t since_ms,
    int64_t *n)
{
	static const char sql[] =
	    "SELECT count(DISTINCT x.match_id) FROM match_seats x JOIN match_seats y "
	    "ON y.match_id = x.match_id AND y.seat <> x.seat JOIN matches m ON m.id = x.match_id "
	    "WHERE x.net = ?1 AND y.net = ?2 AND x.rating_after IS NOT NULL AND m.finished_at >= ?3";
	struct store_q *st = store_q(c, sql);
	int rc;

	if (st == NULL)
		return STORE_ERROR;
	store_q_text(st, 1, a);
	store_q_text(st, 2, b);
	store_q_int(st, 3, since_ms);
	rc = store_q_step(st);
	*n = rc == STORE_Q_ROW ? store_q_col_int(st, 0) : 0;
	store_q_reset(st);
	if (rc != STORE_Q_ROW) {
		store_log_error(c, "networks rated");
		return STORE_ERROR;
	}
	return STORE_OK;
}

enum store_result
store_rating_rank(struct store_conn *c, int64_t account_id, int64_t matches, int64_t opponents,
    int64_t nets)
{
	/* Opponents and networks from the account's rated seats: a seat of
	 * the account's own network (as its seat had it) is not counted. */
	static const char sql[] =
	    "UPDATE ratings SET ranked = 1 WHERE account_id = ?1 AND ranked = 0 AND matches >= ?2 "
	    "AND (SELECT count(DISTINCT y.account_id) FROM match_seats x JOIN match_seats y "
	    "ON y.match_id = x.match_id AND y.account_id <> x.account_id WHERE x.account_id = ?1 "
	    "AND x.rating_after IS NOT NULL AND y.net IS NOT NULL AND y.net <> coalesce(x.net, '')) >= ?3 "
	    "AND (SELECT count(DISTINCT y.net) FROM match_seats x JOIN match_seats y "
	    "ON y.match_id = x.match_id AND y.account_id <> x.account_id WHERE x.account_id = ?1 "
	    "AND x.rating_after IS NOT NULL AND y.net IS NOT NULL AND y.net <> coalesce(x.net, '')) >= ?4";
	struct store_q *st = store_q(c, sql);

	if (st == NULL)
		return STORE_ERROR;
	store_q_int(st, 1, account_id);
	store_q_int(st, 2, matches);
	store_q_int(st, 3, opponents);
	store_q_int(st, 4, nets);
	return store_q_exec(st);
}

enum store_result
store_match_unrated(struct store_conn *c, int64_t id, const char *reason)
{
	static const char sql[] = "UPDATE matches SET rated = 0, unrated_reason = ?2 WHERE id = ?1";
	struct store_q *st = store_q(c, sql);

	if (st == NULL)
		return STORE_ERROR;
	store_q_int(st, 1, id);
	store_q_text(st, 2, reason);
	return store_q_exec(st);
}

enum store_result
store_match_seats_read(struct store_conn *c, struct store_match_row *out)
{
	static const char sql[] =
	    "SELECT s.seat, s.account_id, coalesce(a.name, ''), coalesce(s.place, 0), "
	    "s.rating_before, s.rating_after, coalesce(s.net, '') "
	    "FROM match_seats s LEFT JOIN accounts a ON a.id = s.account_id "
	    "WHERE s.match_id = ?1 ORDER BY s.seat";
	struct store_q *st = store_q(c, sql);
	int rc;

	if (st == NULL)
		return STORE_ERROR;
	store_q_int(st, 1, out->id);
	out->nseats = 0;
	while ((rc = store_q_step(st)) == STORE_Q_ROW) {
		int seat = store_q_col_int(st, 0);
		struct store_match_seat *s;

		if (seat != out->nseats || seat >= STORE_MATCH_SEATS) {
			rc = STORE_Q_FAIL;
			break;
		}
		s = &out->seats[out->nseats++];
		s->account_id = store_q_col_int(st, 1);
		store_q_col_copy(st, 2, s->name, sizeof s->name);
		s->place = store_q_col_int(st, 3);
		store_q_col_copy(st, 6, s->net, sizeof s->net);
		s->rating_before = column_real_or_nan(st, 4);
		s->rating_after = column_real_or_nan(st, 5);
	}
	store_q_reset(st);
	if (rc != STORE_Q_DONE) {
		store_log_msg(STORE_LOG_ERROR, "store: cannot read the seats of match %lld", (long long)out->id);
		return STORE_ERROR;
	}
	return STORE_OK;
}

enum store_result
store_match_get(struct store_conn *c, int64_t id, struct store_match_row *out)
{
	enum store_result ret = store_match_get_row(c, id, out);

	if (ret == STORE_OK && (ret = store_match_seats_read(c, out)) != STORE_OK)
		store_match_row_free(out);
	return ret;
}

enum store_result
store_match_get_row(struct store_conn *c, int64_t id, struct store_match_row *out)
{
	static const char sql[] =
	    "SELECT id, seed, turn, created_by, created_at, coalesce(started_at, 0), "
	    "coalesce(finished_at, 0), coalesce(deadline_at, 0), players, joined, turn_seconds, "
	    "turn_cap, seed_chosen, rated, rules, status, coalesce(end_reason, ''), state, pending, "
	    "totals, last_turn, certificate, items, queued, item_chance, item_weights, "
	    "coalesce(unrated_reason, ''), clock FROM matches WHERE id = ?1";
	struct store_q *st = store_q(c, sql);
	enum store_result ret = STORE_ERROR;
	bool failed = false;
	int rc;

	memset(out, 0, sizeof *out);
	if (st == NULL)
		return STORE_ERROR;
	store_q_int(st, 1, id);
	rc = store_q_step(st);
	if (rc == STORE_Q_ROW) {
		out->id = store_q_col_int(st, 0);
		out->seed = store_q_col_int(st, 1);
		out->turn = store_q_col_int(st, 2);
		out->created_by = store_q_col_int(st, 3);
		out->created_at = store_q_col_int(st, 4);
		out->started_at = store_q_col_int(st, 5);
		out->finished_at = store_q_col_int(st, 6);
		out->deadline_at = store_q_col_int(st, 7);
		out->players = store_q_col_int(st, 8);
		out->joined = store_q_col_int(st, 9);
		out->turn_seconds = store_q_col_int(st, 10);
		out->turn_cap = store_q_col_int(st, 11);
		out->seed_chosen = store_q_col_int(st, 12) != 0;
		out->rated = store_q_col_int(st, 13) != 0;
		store_q_col_copy(st, 14, out->rules, sizeof out->rules);
		store_q_col_copy(st, 15, out->status, sizeof out->status);
		store_q_col_copy(st, 16, out->end_reason, sizeof out->end_reason);
		if (!column_blob(st, 17, out->state, sizeof out->state, &out->nstate) ||
		    !column_blob(st, 18, out->pending, sizeof out->pending, &out->npending) ||
		    !column_blob(st, 19, out->totals, sizeof out->totals, &out->ntotals))
			failed = true;
		out->last_turn = store_q_col_strdup(st, 20, &failed);
		out->certificate = store_q_col_strdup(st, 21, &failed);
		out->items = store_q_col_int(st, 22) != 0;
		out->queued = store_q_col_int(st, 23) != 0;
		out->item_chance = (uint8_t)store_q_col_int(st, 24);
		if (!weights_read(store_q_col_text(st, 25), out->item_weights))
			failed = true;
		store_q_col_copy(st, 26, out->unrated_reason, sizeof out->unrated_reason);
		out->ticks = store_q_col_text(st, 27) != NULL && strcmp(store_q_col_text(st, 27), "ticks") == 0;
		ret = failed ? STORE_ERROR : STORE_OK;
		if (failed)
			store_log_msg(STORE_LOG_ERROR, "store: match %lld does not read back", (long long)id);
	} else if (rc == STORE_Q_DONE)
		ret = STORE_NOT_FOUND;
	else
		store_log_error(c, "match get");
	store_q_reset(st);
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
    const char *net, int64_t now)
{
	/* The seat goes in only while the lobby is where the caller saw it and
	 * the account has no seat yet (the UNIQUE pair): then the count. */
	static const char ins[] =
	    "INSERT INTO match_seats (match_id, seat, account_id, joined_at, net, match_created_at) "
	    "SELECT id, ?2, ?3, ?4, ?5, created_at FROM matches WHERE id = ?1 AND joined = ?2 AND status = 'lobby' "
	    "AND joined < players ON CONFLICT DO NOTHING";
	static const char upd[] = "UPDATE matches SET joined = ?2 + 1 WHERE id = ?1 AND joined = ?2";
	struct store_q *st = store_q(c, ins);

	if (st == NULL)
		return STORE_ERROR;
	store_q_int(st, 1, id);
	store_q_int(st, 2, from_joined);
	store_q_int(st, 3, account_id);
	store_q_int(st, 4, now);
	store_q_text(st, 5, net);
	if (store_q_exec(st) != STORE_OK)
		return STORE_ERROR;
	if (store_q_changes(st) != 1)
		return STORE_CONFLICT;
	if ((st = store_q(c, upd)) == NULL)
		return STORE_ERROR;
	store_q_int(st, 1, id);
	store_q_int(st, 2, from_joined);
	if (store_q_exec(st) != STORE_OK)
		return STORE_ERROR;
	return store_q_changes(st) == 1 ? STORE_OK : STORE_ERROR;
}

enum store_result
store_match_update(struct store_conn *c, const struct store_match_update *u)
{
	static const char sql[] =
	    "UPDATE matches SET status = ?4, turn = ?5, state = ?6, pending = ?7, totals = ?8, "
	    "last_turn = ?9, deadline_at = ?10, end_reason = ?11, started_at = ?12, "
	    "finished_at = ?13, certificate = ?14 WHERE id = ?1 AND turn = ?2 AND status = ?3";
	struct store_q *st = store_q(c, sql);

	if (st == NULL)
		return STORE_ERROR;
	store_q_int(st, 1, u->id);
	store_q_int(st, 2, u->from_turn);
	store_q_text(st, 3, u->from_status);
	store_q_text(st, 4, u->status);
	store_q_int(st, 5, u->turn);
	bind_blob_or_null(st, 6, u->state, u->nstate);
	bind_blob_or_null(st, 7, u->pending, u->npending);
	bind_blob_or_null(st, 8, u->totals, u->ntotals);
	store_q_text(st, 9, u->last_turn);
	bind_ms_or_null(st, 10, u->deadline_at);
	store_q_text(st, 11, u->end_reason);
	bind_ms_or_null(st, 12, u->started_at);
	bind_ms_or_null(st, 13, u->finished_at);
	store_q_text(st, 14, u->certificate);
	if (store_q_exec(st) != STORE_OK)
		return STORE_ERROR;
	return store_q_changes(st) == 1 ? STORE_OK : STORE_CONFLICT;
}

enum store_result
store_match_set_pending(struct store_conn *c, int64_t id, int64_t turn, const uint8_t *pending,
    size_t npending)
{
	static const char sql[] =
	    "UPDATE matches SET pending = ?3 WHERE id = ?1 AND turn = ?2 AND status = 'playing'";
	struct store_q *st = store_q(c, sql);

	if (st == NULL)
		return STORE_ERROR;
	store_q_int(st, 1, id);
	store_q_int(st, 2, turn);
	bind_blob_or_null(st, 3, pending, npending);
	if (store_q_exec(st) != STORE_OK)
		return STORE_ERROR;
	return store_q_changes(st) == 1 ? STORE_OK : STORE_CONFLICT;
}

enum store_result
store_match_advance(struct store_conn *c, const struct store_match_update *u)
{
	static const char sql[] =
	    "UPDATE matches SET turn = ?3, state = ?4, pending = NULL, totals = ?5, last_turn = ?6, "
	    "deadline_at = ?7 WHERE id = ?1 AND turn = ?2 AND status = 'playing'";
	struct store_q *st = store_q(c, sql);

	if (st == NULL)
		return STORE_ERROR;
	store_q_int(st, 1, u->id);
	store_q_int(st, 2, u->from_turn);
	store_q_int(st, 3, u->turn);
	bind_blob_or_null(st, 4, u->state, u->nstate);
	bind_blob_or_null(st, 5, u->totals, u->ntotals);
	store_q_text(st, 6, u->last_turn);
	bind_ms_or_null(st, 7, u->deadline_at);
	if (store_q_exec(st) != STORE_OK)
		return STORE_ERROR;
	return store_q_changes(st) == 1 ? STORE_OK : STORE_CONFLICT;
}

enum store_result
store_match_turn_insert(struct store_conn *c, int64_t id, int64_t turn, const char *moves,
    int64_t now)
{
	static const char sql[] =
	    "INSERT INTO match_turns (match_id, turn, moves, created_at) VALUES (?1, ?2, ?3, ?4)";
	struct store_q *st = store_q(c, sql);

	if (st == NULL)
		return STORE_ERROR;
	store_q_int(st, 1, id);
	store_q_int(st, 2, turn);
	store_q_text(st, 3, moves);
	store_q_int(st, 4, now);
	return store_q_exec(st);
}

json_t *
store_match_turns(struct store_conn *c, int64_t id)
{
	static const char sql[] = "SELECT turn, moves FROM match_turns WHERE match_id = ?1 ORDER BY turn";
	struct store_q *st = store_q(c, sql);
	json_t *a;
	int rc;

	if (st == NULL || (a = json_array()) == NULL)
		return NULL;
	store_q_int(st, 1, id);
	while ((rc = store_q_step(st)) == STORE_Q_ROW) {
		const char *text = store_q_col_text(st, 1);
		json_t *v = text != NULL ? json_loads(text, 0, NULL) : NULL;

		/* Turns are numbered 1, 2, ... without gaps. */
		if (v == NULL || store_q_col_int(st, 0) != (int64_t)json_array_size(a) + 1 ||
		    json_array_append_new(a, v) != 0) {
			rc = STORE_Q_FAIL;
			break;
		}
	}
	store_q_reset(st);
	if (rc != STORE_Q_DONE) {
		store_log_msg(STORE_LOG_ERROR, "store: cannot read the turns of match %lld", (long long)id);
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
		struct store_q *st = store_q(c, sql);

		if (st == NULL)
			return STORE_ERROR;
		store_q_int(st, 1, id);
		store_q_int(st, 2, r[i].seat);
		store_q_int(st, 3, r[i].place);
		store_q_int(st, 4, r[i].score);
		store_q_int(st, 5, r[i].lines_sent);
		store_q_int(st, 6, r[i].lines_received);
		bind_real_or_null(st, 7, r[i].rating_before);
		bind_real_or_null(st, 8, r[i].rating_after);
		if (store_q_exec(st) != STORE_OK)
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
		struct store_q *st = store_q(c, sql);

		if (st == NULL)
			return STORE_ERROR;
		memset(&out[i], 0, sizeof out[i]);
		out[i].account_id = accounts[i];
		store_q_int(st, 1, accounts[i]);
		rc = store_q_step(st);
		if (rc == STORE_Q_ROW) {
			out[i].rating = store_q_col_double(st, 0);
			out[i].rd = store_q_col_double(st, 1);
			out[i].volatility = store_q_col_double(st, 2);
			out[i].matches = store_q_col_int(st, 3);
			out[i].found = true;
		}
		store_q_reset(st);
		if (rc != STORE_Q_ROW && rc != STORE_Q_DONE) {
			store_log_error(c, "ratings get");
			return STORE_ERROR;
		}
	}
	return STORE_OK;
}

enum store_result
store_ratings_put(struct store_conn *c, const struct store_rating *r, int n, bool ranked,
    int64_t now)
{
	static const char sql[] =
	    "INSERT INTO ratings (account_id, rating, rd, volatility, matches, updated_at, ranked) "
	    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT (account_id) DO UPDATE SET "
	    "rating = excluded.rating, rd = excluded.rd, volatility = excluded.volatility, "
	    "matches = excluded.matches, updated_at = excluded.updated_at";
	int i;

	for (i = 0; i < n; i++) {
		struct store_q *st = store_q(c, sql);

		if (st == NULL)
			return STORE_ERROR;
		store_q_int(st, 1, r[i].account_id);
		store_q_double(st, 2, r[i].rating);
		store_q_double(st, 3, r[i].rd);
		store_q_double(st, 4, r[i].volatility);
		store_q_int(st, 5, r[i].matches);
		store_q_int(st, 6, now);
		store_q_int(st, 7, ranked);
		if (store_q_exec(st) != STORE_OK)
			return STORE_ERROR;
	}
	return STORE_OK;
}

enum store_result
store_ratings_list(struct store_conn *c, const char *after, int64_t *above, int limit,
    struct store_rating *out, int *n)
{
#define RATING_COLUMNS "SELECT r.account_id, coalesce(a.name, ''), r.rating, r.rd, r.volatility, " \
	"r.matches FROM ratings r LEFT JOIN accounts a ON a.id = r.account_id "
	static const char first[] = RATING_COLUMNS "WHERE r.ranked = 1 "
	    "ORDER BY r.rating DESC, r.account_id LIMIT ?1";
	static const char next[] = RATING_COLUMNS
	    "WHERE r.ranked = 1 AND (r.rating < ?2 OR (r.rating = ?2 AND r.account_id > ?3)) "
	    "ORDER BY r.rating DESC, r.account_id LIMIT ?1";
#undef RATING_COLUMNS
	static const char cursor[] =
	    "SELECT r.rating, r.account_id, (SELECT count(*) FROM ratings o WHERE o.ranked = 1 AND "
	    "(o.rating > r.rating OR (o.rating = r.rating AND o.account_id <= r.account_id))) "
	    "FROM ratings r JOIN accounts a ON a.id = r.account_id WHERE a.name = ?1 AND r.ranked = 1";
	struct store_q *st;
	double at_rating = 0;
	int64_t at_id = 0;
	int rc;

	*n = 0;
	*above = 0;
	if (after != NULL) {
		if ((st = store_q(c, cursor)) == NULL)
			return STORE_ERROR;
		store_q_text(st, 1, after);
		rc = store_q_step(st);
		if (rc == STORE_Q_ROW) {
			at_rating = store_q_col_double(st, 0);
			at_id = store_q_col_int(st, 1);
			*above = store_q_col_int(st, 2);
		}
		store_q_reset(st);
		if (rc == STORE_Q_DONE)
			return STORE_NOT_FOUND;
		if (rc != STORE_Q_ROW) {
			store_log_error(c, "ratings cursor");
			return STORE_ERROR;
		}
	}
	if ((st = store_q(c, after != NULL ? next : first)) == NULL)
		return STORE_ERROR;
	store_q_int(st, 1, limit);
	if (after != NULL) {
		store_q_double(st, 2, at_rating);
		store_q_int(st, 3, at_id);
	}
	while ((rc = store_q_step(st)) == STORE_Q_ROW && *n < limit) {
		struct store_rating *r = &out[(*n)++];

		memset(r, 0, sizeof *r);
		r->account_id = store_q_col_int(st, 0);
		store_q_col_copy(st, 1, r->name, sizeof r->name);
		r->rating = store_q_col_double(st, 2);
		r->rd = store_q_col_double(st, 3);
		r->volatility = store_q_col_double(st, 4);
		r->matches = store_q_col_int(st, 5);
		r->found = true;
	}
	store_q_reset(st);
	if (rc != STORE_Q_DONE && rc != STORE_Q_ROW) {
		store_log_error(c, "ratings list");
		return STORE_ERROR;
	}
	return STORE_OK;
}

/* Calls each for every row of st, a query of (id, turn, deadline_at). */
static enum store_result
each_playing(struct store_conn *c, struct store_q *st,
    void (*each)(void *ctx, int64_t id, int64_t turn, int64_t deadline_at), void *ctx)
{
	int rc;

	if (st == NULL)
		return STORE_ERROR;
	while ((rc = store_q_step(st)) == STORE_Q_ROW)
		each(ctx, store_q_col_int(st, 0), store_q_col_int(st, 1),
		    store_q_col_int(st, 2));
	store_q_reset(st);
	if (rc != STORE_Q_DONE) {
		store_log_error(c, "matches playing");
		return STORE_ERROR;
	}
	return STORE_OK;
}

enum store_result
store_matches_playing(struct store_conn *c,
    void (*each)(void *ctx, int64_t id, int64_t turn, int64_t deadline_at), void *ctx)
{
	static const char sql[] =
	    "SELECT id, turn, coalesce(deadline_at, 0) FROM matches WHERE status = 'playing' "
	    "AND clock = 'turns'";

	return each_playing(c, store_q(c, sql), each, ctx);
}

enum store_result
store_matches_live(struct store_conn *c,
    void (*each)(void *ctx, int64_t id, int64_t turn, int64_t deadline_at), void *ctx)
{
	static const char sql[] =
	    "SELECT id, turn, 0 FROM matches WHERE status = 'playing' AND clock = 'ticks'";

	return each_playing(c, store_q(c, sql), each, ctx);
}

/* ---- the inputs of a real-time match (migration 0011) ---- */

enum store_result
store_match_inputs_insert(struct store_conn *c, int64_t id, int64_t from_seq,
    const struct store_match_input *in, size_t n)
{
	static const char sql[] =
	    "INSERT INTO match_inputs (match_id, seq, tick, seat, input) VALUES (?1, ?2, ?3, ?4, ?5) "
	    "ON CONFLICT DO NOTHING";
	struct store_q *st;
	size_t k;

	for (k = 0; k < n; k++) {
		if ((st = store_q(c, sql)) == NULL)
			return STORE_ERROR;
		store_q_int(st, 1, id);
		store_q_int(st, 2, from_seq + (int64_t)k);
		store_q_int(st, 3, in[k].tick);
		store_q_int(st, 4, in[k].seat);
		store_q_text(st, 5, in[k].text);
		if (store_q_exec(st) != STORE_OK)
			return STORE_ERROR;
	}
	return STORE_OK;
}

enum store_result
store_match_inputs(struct store_conn *c, int64_t id, struct store_match_input **out, size_t *n)
{
	static const char sql[] =
	    "SELECT seq, tick, seat, input FROM match_inputs WHERE match_id = ?1 ORDER BY seq";
	struct store_q *st = store_q(c, sql);
	struct store_match_input *list = NULL, *more;
	size_t cap = 0, k = 0;
	int rc;

	*out = NULL;
	*n = 0;
	if (st == NULL)
		return STORE_ERROR;
	store_q_int(st, 1, id);
	while ((rc = store_q_step(st)) == STORE_Q_ROW) {
		/* seq runs 0, 1, ... without gaps. */
		if (store_q_col_int(st, 0) != (int64_t)k) {
			rc = STORE_Q_FAIL;
			break;
		}
		if (k == cap) {
			cap = cap ? 2 * cap : 256;
			if ((more = realloc(list, cap * sizeof *list)) == NULL) {
				rc = STORE_Q_FAIL;
				break;
			}
			list = more;
		}
		list[k].tick = store_q_col_int(st, 1);
		list[k].seat = (int)store_q_col_int(st, 2);
		store_q_col_copy(st, 3, list[k].text, sizeof list[k].text);
		k++;
	}
	store_q_reset(st);
	if (rc != STORE_Q_DONE) {
		store_log_msg(STORE_LOG_ERROR, "store: cannot read the inputs of match %lld", (long long)id);
		free(list);
		return STORE_ERROR;
	}
	*out = list;
	*n = k;
	return STORE_OK;
}

enum store_result
store_matches_overdue(struct store_conn *c, int64_t before_ms, int limit,
    void (*each)(void *ctx, int64_t id, int64_t turn, int64_t deadline_at), void *ctx)
{
	static const char sql[] =
	    "SELECT id, turn, deadline_at FROM matches WHERE status = 'playing' AND deadline_at < ?1 "
	    "ORDER BY deadline_at LIMIT ?2";
	struct store_q *st = store_q(c, sql);

	if (st != NULL) {
		store_q_int(st, 1, before_ms);
		store_q_int(st, 2, limit);
	}
	return each_playing(c, st, each, ctx);
}


/* The names of a listed match's seats, in seat order. */
static enum store_result
brief_names(struct store_conn *c, struct store_match_brief *b)
{
	static const char sql[] =
	    "SELECT coalesce(a.name, '') FROM match_seats s LEFT JOIN accounts a ON a.id = s.account_id "
	    "WHERE s.match_id = ?1 ORDER BY s.seat";
	struct store_q *st = store_q(c, sql);
	int rc;

	if (st == NULL)
		return STORE_ERROR;
	store_q_int(st, 1, b->id);
	b->nseats = 0;
	while ((rc = store_q_step(st)) == STORE_Q_ROW && b->nseats < STORE_MATCH_SEATS)
		store_q_col_copy(st, 0, b->names[b->nseats++], sizeof b->names[0]);
	store_q_reset(st);
	if (rc == STORE_Q_FAIL) {
		store_log_error(c, "match seats");
		return STORE_ERROR;
	}
	return STORE_OK;
}

/* The columns both lists read, in this order. */
#define BRIEF_COLUMNS \
	"m.id, m.turn, m.created_at, coalesce(m.started_at, 0), coalesce(m.finished_at, 0), " \
	"m.players, m.joined, m.turn_seconds, m.turn_cap, m.rated, m.status, coalesce(m.end_reason, ''), " \
	"m.items, m.queued, m.item_chance, m.item_weights"
#define BRIEF_NCOLUMNS 16

static void
brief_read(struct store_q *st, struct store_match_brief *b)
{
	memset(b, 0, sizeof *b);
	b->id = store_q_col_int(st, 0);
	b->turn = store_q_col_int(st, 1);
	b->created_at = store_q_col_int(st, 2);
	b->started_at = store_q_col_int(st, 3);
	b->finished_at = store_q_col_int(st, 4);
	b->players = (int)store_q_col_int(st, 5);
	b->joined = (int)store_q_col_int(st, 6);
	b->turn_seconds = (int)store_q_col_int(st, 7);
	b->turn_cap = (int)store_q_col_int(st, 8);
	b->rated = store_q_col_int(st, 9) != 0;
	store_q_col_copy(st, 10, b->status, sizeof b->status);
	store_q_col_copy(st, 11, b->end_reason, sizeof b->end_reason);
	b->items = store_q_col_int(st, 12) != 0;
	b->queued = store_q_col_int(st, 13) != 0;
	b->item_chance = (uint8_t)store_q_col_int(st, 14);
	if (!weights_read(store_q_col_text(st, 15), b->item_weights))
		memset(b->item_weights, 1, sizeof b->item_weights);
	b->score = -1;
	b->rating_before = b->rating_after = NAN;
}

enum store_result
store_matches_open(struct store_conn *c, const char *status, bool has_before, int64_t before_at,
    int64_t before_id, int limit, struct store_match_brief *out, int *n)
{
	static const char first[] =
	    "SELECT " BRIEF_COLUMNS " FROM matches m INDEXED BY matches_open "
	    "WHERE m.status = ?1 AND m.status <> 'finished' "
	    "ORDER BY m.created_at DESC, m.id DESC LIMIT ?2";
	static const char next[] =
	    "SELECT " BRIEF_COLUMNS " FROM matches m INDEXED BY matches_open "
	    "WHERE m.status = ?1 AND m.status <> 'finished' AND (m.created_at, m.id) < (?2, ?3) "
	    "ORDER BY m.created_at DESC, m.id DESC LIMIT ?4";
	static const char done_first[] =
	    "SELECT " BRIEF_COLUMNS " FROM matches m INDEXED BY matches_finished "
	    "WHERE m.status = ?1 AND m.status = 'finished' "
	    "ORDER BY m.created_at DESC, m.id DESC LIMIT ?2";
	static const char done_next[] =
	    "SELECT " BRIEF_COLUMNS " FROM matches m INDEXED BY matches_finished "
	    "WHERE m.status = ?1 AND m.status = 'finished' AND (m.created_at, m.id) < (?2, ?3) "
	    "ORDER BY m.created_at DESC, m.id DESC LIMIT ?4";
	bool finished = strcmp(status, "finished") == 0;
	struct store_q *st = store_q(c, finished ? (has_before ? done_next : done_first) :
	    has_before ? next : first);
	enum store_result ret = STORE_OK;
	int rc = STORE_Q_DONE, i;

	*n = 0;
	if (st == NULL)
		return STORE_ERROR;
	store_q_text(st, 1, status);
	if (has_before) {
		store_q_int(st, 2, before_at);
		store_q_int(st, 3, before_id);
	}
	store_q_int(st, has_before ? 4 : 2, limit);
	while (*n < limit && (rc = store_q_step(st)) == STORE_Q_ROW)
		brief_read(st, &out[(*n)++]);
	store_q_reset(st);
	if (*n < limit && rc != STORE_Q_DONE) {
		store_log_error(c, "open matches");
		return STORE_ERROR;
	}
	for (i = 0; i < *n && ret == STORE_OK; i++)
		ret = brief_names(c, &out[i]);
	return ret;
}

enum store_result
store_account_matches(struct store_conn *c, int64_t account_id, bool has_before, int64_t before_at,
    int64_t before_id, int limit, struct store_match_brief *out, int *n)
{
#define SEAT_COLUMNS ", s.seat, coalesce(s.place, 0), coalesce(s.score, -1), s.rating_before, " \
	"s.rating_after FROM match_seats s JOIN matches m ON m.id = s.match_id WHERE s.account_id = ?1"
	/* The seat's copy of its match's creation time orders the page from
	 * the index match_seats_recent (0013): only the page is read. */
	static const char first[] = "SELECT " BRIEF_COLUMNS SEAT_COLUMNS
	    " ORDER BY s.match_created_at DESC, s.match_id DESC LIMIT ?2";
	static const char next[] = "SELECT " BRIEF_COLUMNS SEAT_COLUMNS
	    " AND (s.match_created_at, s.match_id) < (?2, ?3) "
	    "ORDER BY s.match_created_at DESC, s.match_id DESC LIMIT ?4";
#undef SEAT_COLUMNS
	struct store_q *st = store_q(c, has_before ? next : first);
	enum store_result ret = STORE_OK;
	int rc = STORE_Q_DONE, i;

	*n = 0;
	if (st == NULL)
		return STORE_ERROR;
	store_q_int(st, 1, account_id);
	if (has_before) {
		store_q_int(st, 2, before_at);
		store_q_int(st, 3, before_id);
	}
	store_q_int(st, has_before ? 4 : 2, limit);
	while (*n < limit && (rc = store_q_step(st)) == STORE_Q_ROW) {
		struct store_match_brief *b = &out[(*n)++];

		brief_read(st, b);
		b->seat = (int)store_q_col_int(st, BRIEF_NCOLUMNS);
		b->place = (int)store_q_col_int(st, BRIEF_NCOLUMNS + 1);
		b->score = store_q_col_int(st, BRIEF_NCOLUMNS + 2);
		b->rating_before = column_real_or_nan(st, BRIEF_NCOLUMNS + 3);
		b->rating_after = column_real_or_nan(st, BRIEF_NCOLUMNS + 4);
	}
	store_q_reset(st);
	if (*n < limit && rc != STORE_Q_DONE) {
		store_log_error(c, "account matches");
		return STORE_ERROR;
	}
	for (i = 0; i < *n && ret == STORE_OK; i++)
		ret = brief_names(c, &out[i]);
	return ret;
}
