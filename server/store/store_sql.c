/*
 * store_sql.c: the query layer under every store function
 * (store_internal.h), on SQLite or on PostgreSQL through libpq.
 *
 * Invariants: a connection caches each statement once, keyed by the address
 * of its SQL text; a PostgreSQL statement is prepared on first use under
 * the name "s<slot>" and dies with its connection (a reconnect empties the
 * cache). PostgreSQL parameters are sent as text, except blobs (bytea),
 * sent binary; results come back as text, and bytea as hex, decoded by
 * libsodium. Workload: a few statements per request, each one round trip
 * to the PostgreSQL server or one sqlite3_step.
 */
#include "store_internal.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

#include "engine.h"
#include "numtext.h"

/* Collects what the writer must know of COMMIT's notices: a warning while
 * committing (PostgreSQL's "canceling wait for synchronous replication",
 * sent when statement_timeout interrupts the wait for a standby) means the
 * commit is local only, and the caller must not call it durable. */
static void
notice_receiver(void *arg, const PGresult *res)
{
	struct store_conn *c = arg;
	const char *sev = PQresultErrorField(res, PG_DIAG_SEVERITY_NONLOCALIZED);

	if (sev != NULL && strcmp(sev, "WARNING") == 0)
		c->warned = true;
}

static void
note_pg_error(struct store_conn *c, const PGresult *res)
{
	const char *state = res != NULL ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;

	snprintf(c->sqlstate, sizeof c->sqlstate, "%s", state != NULL ? state : "");
	/* The server's own word that the session is over counts as much as
	 * libpq's: a backend terminated by an administrator (57P01) or a
	 * crash (57P02) sends FATAL and closes, and libpq can still call the
	 * connection OK until it reads the close. Class 08 is the connection
	 * failing. */
	if ((PQstatus(c->pg) == CONNECTION_BAD || strncmp(c->sqlstate, "57P0", 4) == 0 ||
	    strncmp(c->sqlstate, "08", 2) == 0) && !c->lost) {
		c->lost = true;
		if (c->health != NULL)
			atomic_fetch_add(&c->health->conn_errors, 1);
	}
}

void
store_log_error(struct store_conn *c, const char *what)
{
	if (c->health != NULL && (c->backend == STORE_SQLITE ?
	    (sqlite3_errcode(c->db) & 0xff) == SQLITE_FULL : strcmp(c->sqlstate, "53100") == 0))
		atomic_store(&c->health->disk_full, true);
	if (c->backend == STORE_SQLITE)
		store_log_msg(STORE_LOG_ERROR, "sqlite: %s: %s", what, sqlite3_errmsg(c->db));
	else {
		char msg[512];
		size_t n;

		snprintf(msg, sizeof msg, "%s", c->pg != NULL ? PQerrorMessage(c->pg) : "not connected");
		n = strlen(msg);
		while (n > 0 && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
			msg[--n] = '\0';
		store_log_msg(STORE_LOG_ERROR, "postgresql: %s: %s%s%s", what, msg,
		    c->sqlstate[0] ? " SQLSTATE " : "", c->sqlstate);
	}
}

/* ?N -> $N; `INDEXED BY name` dropped. Returns a malloc'd text and the
 * highest parameter number. */
static char *
pg_text(const char *sql, int *nparams)
{
	size_t n = strlen(sql), i = 0, o = 0;
	char *out = malloc(n + 1);

	*nparams = 0;
	if (out == NULL)
		return NULL;
	while (i < n) {
		if (sql[i] == '?' && i + 1 < n && sql[i + 1] >= '0' && sql[i + 1] <= '9') {
			int v = 0;

			out[o++] = '$';
			i++;
			while (i < n && sql[i] >= '0' && sql[i] <= '9') {
				v = v * 10 + (sql[i] - '0');
				out[o++] = sql[i++];
			}
			if (v > *nparams)
				*nparams = v;
			continue;
		}
		if (strncmp(sql + i, "INDEXED BY ", 11) == 0) {
			i += 11;
			while (i < n && sql[i] != ' ')
				i++;
			continue;
		}
		out[o++] = sql[i++];
	}
	out[o] = '\0';
	return out;
}

static void
q_clear(struct store_q *q)
{
	if (q->res != NULL)
		PQclear(q->res);
	q->res = NULL;
	q->row = -1;
	q->nrows = 0;
}

static int reconnect(struct store_conn *c);

/* Prepares sql on PostgreSQL as the statement of slot q (named for the
 * slot), q cleared but for its connection. */
static bool
pg_prepare(struct store_conn *c, struct store_q *q, const char *sql)
{
	char *text = pg_text(sql, &q->nparams);
	PGresult *res;
	bool ok;

	if (text == NULL || q->nparams > STORE_PARAMS_MAX) {
		free(text);
		store_log_msg(STORE_LOG_ERROR, "store: cannot prepare %s", sql);
		return false;
	}
	snprintf(q->name, sizeof q->name, "s%zu", (size_t)(q - c->cache));
	res = PQprepare(c->pg, q->name, text, 0, NULL);
	ok = res != NULL && PQresultStatus(res) == PGRES_COMMAND_OK;
	if (!ok) {
		note_pg_error(c, res);
		store_log_error(c, text);
	} else
		c->sqlstate[0] = '\0';
	PQclear(res);
	free(text);
	return ok;
}

struct store_q *
store_q(struct store_conn *c, const char *sql)
{
	size_t h = ((uintptr_t)sql >> 3) % STORE_STMT_SLOTS, i;
	struct store_q *q;

	for (i = 0; i < STORE_STMT_SLOTS; i++, h = (h + 1) % STORE_STMT_SLOTS) {
		q = &c->cache[h];
		if (q->sql == sql) {
			if (c->backend == STORE_SQLITE) {
				sqlite3_reset(q->st);
				sqlite3_clear_bindings(q->st);
			} else {
				q_clear(q);
				memset(q->values, 0, sizeof q->values);
				memset(q->lengths, 0, sizeof q->lengths);
				memset(q->formats, 0, sizeof q->formats);
			}
			q->changes = 0;
			return q;
		}
		if (q->sql == NULL)
			break;
	}
	if (i == STORE_STMT_SLOTS) {
		store_log_msg(STORE_LOG_ERROR, "store: statement cache full");
		return NULL;
	}
	memset(q, 0, sizeof *q);
	q->c = c;
	q->row = -1;
	if (c->backend == STORE_SQLITE) {
		if (sqlite3_prepare_v3(c->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &q->st, NULL) != SQLITE_OK) {
			store_log_error(c, sql);
			q->st = NULL;
			return NULL;
		}
	} else if (!pg_prepare(c, q, sql)) {
		/* A reader whose connection was lost reconnects and tries once
		 * more (see reexecute()). */
		if (c->lost && c->readonly && reconnect(c) == 0) {
			store_log_msg(STORE_LOG_WARN, "postgresql: a reader reconnected");
			return store_q(c, sql);
		}
		return NULL;
	}
	q->sql = sql;
	return q;
}

void
store_q_int(struct store_q *q, int i, int64_t v)
{
	if (q->c->backend == STORE_SQLITE) {
		sqlite3_bind_int64(q->st, i, v);
		return;
	}
	if (i < 1 || i > STORE_PARAMS_MAX)
		return;
	numtext_i64(q->num[i - 1], v);
	q->values[i - 1] = q->num[i - 1];
	q->formats[i - 1] = 0;
}

void
store_q_nullable(struct store_q *q, int i, int64_t v)
{
	if (v >= 0)
		store_q_int(q, i, v);
	else if (q->c->backend == STORE_SQLITE)
		sqlite3_bind_null(q->st, i);
	else if (i >= 1 && i <= STORE_PARAMS_MAX)
		q->values[i - 1] = NULL;
}

void
store_q_text(struct store_q *q, int i, const char *s)
{
	if (q->c->backend == STORE_SQLITE) {
		if (s == NULL)
			sqlite3_bind_null(q->st, i);
		else
			sqlite3_bind_text(q->st, i, s, -1, SQLITE_STATIC);
		return;
	}
	if (i < 1 || i > STORE_PARAMS_MAX)
		return;
	q->values[i - 1] = s;
	q->formats[i - 1] = 0;
}

void
store_q_blob(struct store_q *q, int i, const void *p, size_t n)
{
	static const char empty[1];

	if (q->c->backend == STORE_SQLITE) {
		sqlite3_bind_blob(q->st, i, p, (int)n, SQLITE_STATIC);
		return;
	}
	if (i < 1 || i > STORE_PARAMS_MAX)
		return;
	q->values[i - 1] = n > 0 ? p : empty;
	q->lengths[i - 1] = (int)n;
	q->formats[i - 1] = 1;
}

/* Prepares q again on a reconnected connection, in its own slot, with the
 * same bindings: true when it is ready to run. */
static bool
reexecute(struct store_q *q)
{
	struct store_conn *c = q->c;
	struct store_q saved = *q;
	const char *sql = q->sql;
	int i, try;

	/* Three tries, 20 and 40 ms apart: a connection made while the server
	 * is still ending the old sessions (an administrator's terminate of
	 * every backend, a failover) can be refused or ended in turn. */
	for (try = 1;; try++) {
		struct timespec pause = { 0, 20000000L * try };
		const char *why = "reconnect";

		/* The statement goes back into q's own slot, which the caller
		 * holds: store_q() could put it in another (the cache is empty
		 * now, and q may have been a collision's second choice). A later
		 * store_q() of the same text may prepare it once more in its
		 * first choice; both are the same statement. */
		if (reconnect(c) == 0) {
			memset(q, 0, sizeof *q);
			q->c = c;
			q->row = -1;
			why = pg_prepare(c, q, sql) ? NULL : "prepare";
			if (why == NULL)
				q->sql = sql;
		}

		if (why == NULL)
			break;
		if (try == 3) {
			store_log_msg(STORE_LOG_ERROR, "postgresql: a reader could not %s to run its "
			    "statement again: %s", why, c->pg != NULL ? PQerrorMessage(c->pg) : "not connected");
			return false;
		}
		c->lost = true;
		while (nanosleep(&pause, &pause) != 0 && errno == EINTR)
			;
	}
	for (i = 0; i < STORE_PARAMS_MAX; i++) {
		q->values[i] = saved.values[i]; /* text of an integer points into q->num, the same slot */
		memcpy(q->num[i], saved.num[i], sizeof q->num[i]);
		q->lengths[i] = saved.lengths[i];
		q->formats[i] = saved.formats[i];
	}
	store_log_msg(STORE_LOG_WARN, "postgresql: a reader reconnected and runs its statement again");
	return true;
}

void
store_q_double(struct store_q *q, int i, double v)
{
	if (q->c->backend == STORE_SQLITE) {
		sqlite3_bind_double(q->st, i, v);
		return;
	}
	if (i < 1 || i > STORE_PARAMS_MAX)
		return;
	/* 17 significant digits: the double comes back bit for bit. */
	snprintf(q->num[i - 1], sizeof q->num[0], "%.17g", v);
	q->values[i - 1] = q->num[i - 1];
	q->formats[i - 1] = 0;
}

int
store_q_step(struct store_q *q)
{
	struct store_conn *c = q->c;
	ExecStatusType st;

	if (c->backend == STORE_SQLITE) {
		int rc = sqlite3_step(q->st);

		if (rc == SQLITE_ROW)
			return STORE_Q_ROW;
		if (rc == SQLITE_DONE) {
			q->changes = sqlite3_changes(c->db);
			return STORE_Q_DONE;
		}
		store_log_error(c, sqlite3_sql(q->st));
		return STORE_Q_FAIL;
	}
	if (q->res == NULL) {
		q->res = PQexecPrepared(c->pg, q->name, q->nparams, q->values, q->lengths, q->formats, 0);
		st = q->res != NULL ? PQresultStatus(q->res) : PGRES_FATAL_ERROR;
		if (st != PGRES_TUPLES_OK && st != PGRES_COMMAND_OK) {
			note_pg_error(c, q->res);
			store_log_error(c, q->sql);
			q_clear(q);
			/* A reader runs each statement on its own (autocommit): after
			 * a lost connection it may reconnect and run it once more. The
			 * writer does not: its batch is run again from its start. */
			if (c->lost && c->readonly && reexecute(q))
				return store_q_step(q);
			return STORE_Q_FAIL;
		}
		c->sqlstate[0] = '\0';
		q->nrows = PQntuples(q->res);
		q->changes = atoll(PQcmdTuples(q->res));
		q->row = -1;
	}
	if (q->row + 1 < q->nrows) {
		q->row++;
		return STORE_Q_ROW;
	}
	q->row = q->nrows;
	return STORE_Q_DONE;
}

void
store_q_col_copy(struct store_q *q, int i, char *out, size_t cap)
{
	const char *t = store_q_col_text(q, i);
	size_t n;

	/* snprintf's cut, without its cost (several of these a match read) */
	if (cap == 0)
		return;
	n = t != NULL ? strnlen(t, cap - 1) : 0;
	memcpy(out, t != NULL ? t : "", n);
	out[n] = '\0';
}

char *
store_q_col_strdup(struct store_q *q, int i, bool *failed)
{
	const char *t;
	char *s;

	if (store_q_isnull(q, i) || (t = store_q_col_text(q, i)) == NULL)
		return NULL;
	if ((s = strdup(t)) == NULL)
		*failed = true;
	return s;
}

int64_t
store_random_id(void)
{
	uint64_t v;

	do {
		randombytes_buf(&v, sizeof v);
		v &= (uint64_t)ENGINE_ID_MAX;
	} while (v == 0);
	return (int64_t)v;
}

void
store_q_reset(struct store_q *q)
{
	if (q == NULL)
		return;
	if (q->c->backend == STORE_SQLITE)
		sqlite3_reset(q->st);
	else
		q_clear(q);
}

enum store_result
store_q_exec(struct store_q *q)
{
	int rc;

	if (q == NULL)
		return STORE_ERROR;
	while ((rc = store_q_step(q)) == STORE_Q_ROW)
		;
	if (q->c->backend == STORE_SQLITE && rc == STORE_Q_DONE)
		q->changes = sqlite3_changes(q->c->db);
	store_q_reset(q);
	return rc == STORE_Q_DONE ? STORE_OK : STORE_ERROR;
}

int64_t
store_q_changes(const struct store_q *q)
{
	return q->changes;
}

static bool
pg_row_ok(const struct store_q *q, int i)
{
	return q->res != NULL && q->row >= 0 && q->row < q->nrows && i >= 0 && i < PQnfields(q->res);
}

bool
store_q_isnull(struct store_q *q, int i)
{
	if (q->c->backend == STORE_SQLITE)
		return sqlite3_column_type(q->st, i) == SQLITE_NULL;
	return !pg_row_ok(q, i) || PQgetisnull(q->res, q->row, i);
}

int64_t
store_q_col_int(struct store_q *q, int i)
{
	const char *v;

	if (q->c->backend == STORE_SQLITE)
		return sqlite3_column_int64(q->st, i);
	if (store_q_isnull(q, i))
		return 0;
	v = PQgetvalue(q->res, q->row, i);
	if (v[0] == 't')
		return 1;
	if (v[0] == 'f')
		return 0;
	return strtoll(v, NULL, 10);
}

int64_t
store_q_col_nullable(struct store_q *q, int i)
{
	return store_q_isnull(q, i) ? -1 : store_q_col_int(q, i);
}

double
store_q_col_double(struct store_q *q, int i)
{
	if (q->c->backend == STORE_SQLITE)
		return sqlite3_column_double(q->st, i);
	if (store_q_isnull(q, i))
		return 0;
	return strtod(PQgetvalue(q->res, q->row, i), NULL);
}

const char *
store_q_col_text(struct store_q *q, int i)
{
	if (q->c->backend == STORE_SQLITE)
		return (const char *)sqlite3_column_text(q->st, i);
	if (store_q_isnull(q, i))
		return NULL;
	return PQgetvalue(q->res, q->row, i);
}

long
store_q_col_blob(struct store_q *q, int i, void *out, size_t cap)
{
	if (q->c->backend == STORE_SQLITE) {
		const void *p = sqlite3_column_blob(q->st, i);
		int n = sqlite3_column_bytes(q->st, i);

		if (sqlite3_column_type(q->st, i) == SQLITE_NULL)
			return -1;
		if (p != NULL && n > 0)
			memcpy(out, p, (size_t)n < cap ? (size_t)n : cap);
		return n;
	} else {
		const char *v;
		size_t len, n = 0;

		if (store_q_isnull(q, i))
			return -1;
		v = PQgetvalue(q->res, q->row, i);
		len = (size_t)PQgetlength(q->res, q->row, i);
		if (len < 2 || v[0] != '\\' || v[1] != 'x') /* bytea_output must be hex */
			return -1;
		if (sodium_hex2bin(out, cap, v + 2, len - 2, NULL, &n, NULL) != 0)
			return (long)((len - 2) / 2); /* longer than cap */
		return (long)n;
	}
}

int
store_conn_exec(struct store_conn *c, const char *sql, char *err, size_t errcap)
{
	if (c->backend == STORE_SQLITE) {
		char *msg = NULL;

		if (sqlite3_exec(c->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
			if (err != NULL)
				snprintf(err, errcap, "%s", msg ? msg : sqlite3_errmsg(c->db));
			sqlite3_free(msg);
			return -1;
		}
		return 0;
	} else {
		PGresult *res = PQexec(c->pg, sql);
		ExecStatusType st = res != NULL ? PQresultStatus(res) : PGRES_FATAL_ERROR;
		int rc = 0;

		if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
			note_pg_error(c, res);
			if (err != NULL) {
				size_t n;

				snprintf(err, errcap, "%s", PQerrorMessage(c->pg));
				n = strlen(err);
				while (n > 0 && err[n - 1] == '\n')
					err[--n] = '\0';
			}
			rc = -1;
		} else
			c->sqlstate[0] = '\0';
		PQclear(res);
		return rc;
	}
}

static int64_t
mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Waits until c's pending query has its result or until_ms passes: 1
 * ready, 0 timed out, -1 the connection failed. */
static int
wait_result(struct store_conn *c, int64_t until_ms)
{
	while (PQisBusy(c->pg)) {
		struct pollfd pfd = { PQsocket(c->pg), POLLIN, 0 };
		int64_t left = until_ms - mono_ms();
		int rc;

		if (left <= 0)
			return 0;
		rc = poll(&pfd, 1, (int)(left > 1000 ? 1000 : left));
		if (rc < 0 && errno != EINTR)
			return -1;
		if (rc > 0 && PQconsumeInput(c->pg) == 0)
			return -1;
	}
	return 1;
}

enum store_result
store_conn_commit(struct store_conn *c)
{
	static const char sql[] = "COMMIT";
	PGresult *res, *last = NULL;
	enum store_result rc = STORE_ERROR;
	int64_t until;
	int w;

	if (c->backend == STORE_SQLITE || c->statement_timeout_ms == 0)
		return store_q_exec(store_q(c, sql));
	/* statement_timeout does not reach the wait for a synchronous standby
	 * (the server lifts it before the commit record is flushed): the
	 * writer bounds COMMIT itself and cancels it, which ends that wait
	 * with a warning, committed here; notice_receiver() notes it. */
	if (PQsendQuery(c->pg, sql) == 0) {
		note_pg_error(c, NULL);
		store_log_error(c, sql);
		return STORE_ERROR;
	}
	until = mono_ms() + c->statement_timeout_ms;
	w = wait_result(c, until);
	if (w == 0) {
		PGcancel *cancel = PQgetCancel(c->pg);
		char why[256];

		store_log_msg(STORE_LOG_WARN, "postgresql: COMMIT took more than %u ms (a synchronous "
		    "standby that does not answer?): cancelling the wait", c->statement_timeout_ms);
		if (cancel == NULL || PQcancel(cancel, why, sizeof why) == 0)
			store_log_msg(STORE_LOG_ERROR, "postgresql: cannot cancel the COMMIT");
		PQfreeCancel(cancel);
		/* The answer to a cancel comes at once from a server that lives;
		 * one that does not answer it is taken for lost. */
		w = wait_result(c, mono_ms() + 5000);
	}
	if (w <= 0) {
		/* PQreset() at the reconnection closes it and opens another. */
		store_log_msg(STORE_LOG_ERROR,
		    "postgresql: COMMIT got no answer: the connection is taken for lost");
		c->lost = true;
		if (c->health != NULL)
			atomic_fetch_add(&c->health->conn_errors, 1);
		return STORE_ERROR;
	}
	while ((res = PQgetResult(c->pg)) != NULL) {
		PQclear(last);
		last = res;
	}
	if (last != NULL && PQresultStatus(last) == PGRES_COMMAND_OK) {
		c->sqlstate[0] = '\0';
		rc = STORE_OK;
	} else {
		note_pg_error(c, last);
		store_log_error(c, sql);
	}
	PQclear(last);
	return rc;
}

static void
forget_statements(struct store_conn *c)
{
	size_t i;

	for (i = 0; i < STORE_STMT_SLOTS; i++) {
		if (c->cache[i].st != NULL)
			sqlite3_finalize(c->cache[i].st);
		if (c->cache[i].res != NULL)
			PQclear(c->cache[i].res);
	}
	/* The slots stay bound to their connection: a caller may still hold one
	 * (a reader whose reconnection failed resets it afterwards). */
	memset(c->cache, 0, sizeof c->cache);
	for (i = 0; i < STORE_STMT_SLOTS; i++) {
		c->cache[i].c = c;
		c->cache[i].row = -1;
	}
}

void
store_conn_close(struct store_conn *c)
{
	forget_statements(c);
	if (c->db != NULL)
		sqlite3_close(c->db);
	c->db = NULL;
	if (c->pg != NULL)
		PQfinish(c->pg);
	c->pg = NULL;
}

/* What every PostgreSQL session of the store sets: hex bytea (the decoder
 * above reads it), UTC, and for the writer how long a lock may be waited
 * for and how long it may sit idle inside a transaction (a stopped daemon
 * must not hold another's rows for ever). */
static int
pg_session(struct store_conn *c, bool readonly, enum sync_mode sync, char *err, size_t errcap)
{
	char sql[512];

	char timeout[64] = "";

	/* The writer's statements are bounded (set after the migrations);
	 * its COMMIT, whose wait for a synchronous standby the server does not
	 * bound, store_conn_commit() bounds itself. */
	if (!readonly && c->statement_timeout_ms > 0)
		snprintf(timeout, sizeof timeout, " SET statement_timeout = %u;", c->statement_timeout_ms);
	snprintf(sql, sizeof sql,
	    "SET bytea_output = 'hex'; SET TimeZone = 'UTC'; SET client_min_messages = 'warning';%s%s%s",
	    readonly ? " SET default_transaction_read_only = on;" :
	    " SET lock_timeout = '5s'; SET idle_in_transaction_session_timeout = '15s';",
	    sync == SYNC_NORMAL ? " SET synchronous_commit = off;" : "", timeout);
	return store_conn_exec(c, sql, err, errcap);
}

int
store_conn_reconnect(struct store_conn *c)
{
	return reconnect(c);
}

static int
reconnect(struct store_conn *c)
{
	char err[256];

	if (c->backend != STORE_PG)
		return 0;
	forget_statements(c);
	/* With several hosts libpq tries each in turn, keeping only one that
	 * matches target_session_attrs (read-write: the primary). */
	PQreset(c->pg);
	if (PQstatus(c->pg) != CONNECTION_OK) {
		if (c->health != NULL)
			atomic_store(&c->health->unreachable, true);
		return -1;
	}
	/* Session settings are per connection: set them again. */
	if (pg_session(c, c->readonly, c->sync, err, sizeof err) != 0) {
		store_log_msg(STORE_LOG_ERROR, "postgresql: after reconnecting: %s", err);
		if (c->health != NULL)
			atomic_store(&c->health->unreachable, true);
		return -1;
	}
	c->lost = false;
	if (c->health != NULL)
		atomic_store(&c->health->unreachable, false);
	return 0;
}

int
store_conn_open(struct store_conn *c, const char *target, bool readonly, enum sync_mode sync,
    char *err, size_t errcap)
{
	char why[512];

	memset(c, 0, sizeof *c);
	c->readonly = readonly;
	c->sync = sync;
	if (store_is_postgres(target)) {
		/* Defaults the URL and the PG* environment variables override. */
		const char *keys[8], *vals[8];
		int k = 0;

		/* 2 s a host (libpq's least): a dead host costs that much of the
		 * --db-retry-seconds budget. Keepalives find a primary that
		 * vanished without closing its connections (a cut network). */
		if (getenv("PGCONNECT_TIMEOUT") == NULL) {
			keys[k] = "connect_timeout";
			vals[k++] = "2";
		}
		keys[k] = "keepalives_idle";
		vals[k++] = "5";
		keys[k] = "keepalives_interval";
		vals[k++] = "2";
		keys[k] = "keepalives_count";
		vals[k++] = "2";
		if (getenv("PGAPPNAME") == NULL) {
			keys[k] = "application_name";
			vals[k++] = "arcaded";
		}
		keys[k] = "dbname";
		vals[k++] = target;
		keys[k] = NULL;
		vals[k] = NULL;
		c->backend = STORE_PG;
		c->pg = PQconnectdbParams(keys, vals, 1);
		if (c->pg == NULL || PQstatus(c->pg) != CONNECTION_OK) {
			snprintf(why, sizeof why, "%s", c->pg ? PQerrorMessage(c->pg) : "out of memory");
			why[strcspn(why, "\n")] = '\0';
			snprintf(err, errcap, "cannot connect to the PostgreSQL database: %s", why);
			store_conn_close(c);
			return -1;
		}
		PQsetNoticeReceiver(c->pg, notice_receiver, c);
		if (pg_session(c, readonly, sync, why, sizeof why) != 0) {
			snprintf(err, errcap, "cannot use the PostgreSQL database: %s", why);
			store_conn_close(c);
			return -1;
		}
		return 0;
	}
	c->backend = STORE_SQLITE;
	if (sqlite3_open_v2(target, &c->db, SQLITE_OPEN_NOMUTEX | (readonly ? SQLITE_OPEN_READONLY :
	    SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE), NULL) != SQLITE_OK) {
		snprintf(err, errcap, "cannot open database %s: %s", target,
		    c->db ? sqlite3_errmsg(c->db) : "out of memory");
		store_conn_close(c);
		return -1;
	}
	sqlite3_extended_result_codes(c->db, 1);
	sqlite3_busy_timeout(c->db, 5000);
	snprintf(why, sizeof why,
	    "PRAGMA foreign_keys = ON; PRAGMA synchronous = %s; PRAGMA temp_store = MEMORY;%s",
	    sync == SYNC_FULL ? "FULL" : "NORMAL", readonly ? " PRAGMA query_only = ON;" : "");
	if (store_conn_exec(c, why, why, sizeof why) != 0) {
		snprintf(err, errcap, "cannot use database %s: %s", target, why);
		store_conn_close(c);
		return -1;
	}
	return 0;
}
