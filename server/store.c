/*
 * store.c: connections, migrations, the writer thread and the reader pool.
 *
 * Workload: many small write transactions (a move is one UPDATE of the run
 * head and one INSERT), each answered only after it is durable. A single
 * writer avoids SQLite's busy-wait between writers (measured: a connection
 * per thread gives no throughput and 0.1-0.9 s tail spikes); batching every
 * waiting job into one transaction makes a durable commit cost one fsync
 * for the whole batch instead of one per move.
 */
#include "store_internal.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "log.h"
#include "migrations.h"

struct store {
	struct store_conn writer;
	pthread_t         thread;
	bool              thread_started;
	pthread_mutex_t   mu;
	pthread_cond_t    cv;
	struct store_job *head, *tail;
	unsigned          pending;      /* jobs submitted and not yet reported done */
	pthread_cond_t    drained;      /* signalled when pending falls to 0 */
	bool              stopping;
	int               schema_version;
	unsigned          batch_limit;  /* most jobs per transaction; 1: a commit each */

	/* Reader pool: free connections are a stack guarded by rmu. */
	struct store_conn *readers;
	struct store_conn **free_readers;
	unsigned          nreaders, nfree;
	pthread_mutex_t   rmu;
	pthread_cond_t    rcv;

	_Atomic uint64_t  commits, jobs, commit_failures, max_batch;
};

int64_t
store_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void
store_log_error(struct store_conn *c, const char *what)
{
	log_msg(LOG_ERROR, "sqlite: %s: %s", what, sqlite3_errmsg(c->db));
}

sqlite3_stmt *
store_stmt(struct store_conn *c, const char *sql)
{
	size_t h = ((uintptr_t)sql >> 3) % STORE_STMT_SLOTS, i;

	for (i = 0; i < STORE_STMT_SLOTS; i++, h = (h + 1) % STORE_STMT_SLOTS) {
		if (c->cache[h].sql == sql) {
			sqlite3_reset(c->cache[h].stmt);
			sqlite3_clear_bindings(c->cache[h].stmt);
			return c->cache[h].stmt;
		}
		if (c->cache[h].sql == NULL)
			break;
	}
	if (i == STORE_STMT_SLOTS) {
		log_msg(LOG_ERROR, "store: statement cache full");
		return NULL;
	}
	if (sqlite3_prepare_v3(c->db, sql, -1, SQLITE_PREPARE_PERSISTENT,
	    &c->cache[h].stmt, NULL) != SQLITE_OK) {
		store_log_error(c, sql);
		c->cache[h].stmt = NULL;
		return NULL;
	}
	c->cache[h].sql = sql;
	return c->cache[h].stmt;
}

enum store_result
store_exec_stmt(struct store_conn *c, sqlite3_stmt *st)
{
	int rc;

	if (st == NULL)
		return STORE_ERROR;
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
		store_log_error(c, sqlite3_sql(st));
		return STORE_ERROR;
	}
	return STORE_OK;
}

static int
exec_sql(struct store_conn *c, const char *sql, char *err, size_t errcap)
{
	char *msg = NULL;

	if (sqlite3_exec(c->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		if (err != NULL)
			snprintf(err, errcap, "%s", msg ? msg : sqlite3_errmsg(c->db));
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

static void
conn_close(struct store_conn *c)
{
	size_t i;

	for (i = 0; i < STORE_STMT_SLOTS; i++)
		if (c->cache[i].stmt != NULL)
			sqlite3_finalize(c->cache[i].stmt);
	memset(c->cache, 0, sizeof c->cache);
	if (c->db != NULL)
		sqlite3_close(c->db);
	c->db = NULL;
}

static int
conn_open(struct store_conn *c, const char *path, bool readonly, enum sync_mode sync,
    char *err, size_t errcap)
{
	int flags = SQLITE_OPEN_NOMUTEX | (readonly ? SQLITE_OPEN_READONLY :
	    SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
	char pragmas[256];

	memset(c, 0, sizeof *c);
	if (sqlite3_open_v2(path, &c->db, flags, NULL) != SQLITE_OK) {
		snprintf(err, errcap, "cannot open database %s: %s", path,
		    c->db ? sqlite3_errmsg(c->db) : "out of memory");
		conn_close(c);
		return -1;
	}
	sqlite3_extended_result_codes(c->db, 1);
	sqlite3_busy_timeout(c->db, 5000);
	snprintf(pragmas, sizeof pragmas,
	    "PRAGMA foreign_keys = ON; PRAGMA synchronous = %s; PRAGMA temp_store = MEMORY;%s",
	    sync == SYNC_FULL ? "FULL" : "NORMAL",
	    readonly ? " PRAGMA query_only = ON;" : "");
	if (exec_sql(c, pragmas, err, errcap) != 0) {
		char why[200];

		snprintf(why, sizeof why, "%s", err);
		snprintf(err, errcap, "cannot use database %s: %s", path, why);
		conn_close(c);
		return -1;
	}
	return 0;
}

/* WAL lets readers run beside the one writer; it has to be set by a
 * connection that can write, and it sticks to the file. */
static int
set_wal(struct store_conn *c, const char *path, char *err, size_t errcap)
{
	sqlite3_stmt *st = NULL;
	int ok = 0;

	if (sqlite3_prepare_v2(c->db, "PRAGMA journal_mode = WAL", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		ok = strcmp((const char *)sqlite3_column_text(st, 0), "wal") == 0;
	sqlite3_finalize(st);
	if (!ok) {
		snprintf(err, errcap, "cannot use database %s: %s", path,
		    sqlite3_errcode(c->db) != SQLITE_OK ? sqlite3_errmsg(c->db) :
		    "it refuses write-ahead logging");
		return -1;
	}
	return 0;
}

static int
read_version(struct store_conn *c, int *version, char *err, size_t errcap)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (exec_sql(c, "CREATE TABLE IF NOT EXISTS schema_migrations ("
	    " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)",
	    err, errcap) != 0)
		return -1;
	rc = sqlite3_prepare_v2(c->db, "SELECT coalesce(max(version), 0), count(*) FROM schema_migrations",
	    -1, &st, NULL);
	if (rc == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
		*version = sqlite3_column_int(st, 0);
		if (sqlite3_column_int(st, 1) != *version) {
			snprintf(err, errcap, "schema_migrations has gaps: the database was not made by arcaded");
			rc = SQLITE_CORRUPT;
		}
	} else {
		snprintf(err, errcap, "%s", sqlite3_errmsg(c->db));
		rc = SQLITE_ERROR;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_OK ? 0 : -1;
}

static int
migrate(struct store_conn *c, const char *path, int *version, char *err, size_t errcap)
{
	char why[512];
	int i;

	if (read_version(c, version, why, sizeof why) != 0) {
		snprintf(err, errcap, "cannot read the schema version of %s: %s", path, why);
		return -1;
	}
	if (*version > nmigrations) {
		snprintf(err, errcap, "database %s has schema version %d but this arcaded knows only "
		    "up to %d: run a newer arcaded", path, *version, nmigrations);
		return -1;
	}
	for (i = *version; i < nmigrations; i++) {
		const struct migration *m = &migrations[i];
		sqlite3_stmt *st = NULL;
		int rc;

		if (exec_sql(c, "BEGIN IMMEDIATE", why, sizeof why) != 0)
			goto failed;
		if (exec_sql(c, m->sql, why, sizeof why) != 0) {
			exec_sql(c, "ROLLBACK", NULL, 0);
			goto failed;
		}
		rc = sqlite3_prepare_v2(c->db, "INSERT INTO schema_migrations (version, name, applied_at) "
		    "VALUES (?1, ?2, ?3)", -1, &st, NULL);
		if (rc == SQLITE_OK) {
			sqlite3_bind_int(st, 1, m->number);
			sqlite3_bind_text(st, 2, m->name, -1, SQLITE_STATIC);
			sqlite3_bind_int64(st, 3, store_now_ms());
			rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
		}
		sqlite3_finalize(st);
		if (rc != SQLITE_OK) {
			snprintf(why, sizeof why, "%s", sqlite3_errmsg(c->db));
			exec_sql(c, "ROLLBACK", NULL, 0);
			goto failed;
		}
		if (exec_sql(c, "COMMIT", why, sizeof why) != 0) {
			exec_sql(c, "ROLLBACK", NULL, 0);
			goto failed;
		}
		log_msg(LOG_INFO, "applied migration %04d_%s", m->number, m->name);
		*version = m->number;
		continue;
failed:
		snprintf(err, errcap, "migration %04d_%s failed on %s (nothing of it was applied): %s",
		    m->number, m->name, path, why);
		return -1;
	}
	return 0;
}

/* The writer's transaction control, as prepared statements: sqlite3_exec
 * would compile the same text again for every batch and every job. */
static const char sql_begin[] = "BEGIN IMMEDIATE";
static const char sql_commit[] = "COMMIT";
static const char sql_rollback[] = "ROLLBACK";
static const char sql_savepoint[] = "SAVEPOINT job";
static const char sql_release[] = "RELEASE job";
static const char sql_rollback_to[] = "ROLLBACK TO job";

static enum store_result
control(struct store_conn *c, const char *sql)
{
	return store_exec_stmt(c, store_stmt(c, sql));
}

/* Runs one batch of jobs in one transaction. */
static void
run_batch(struct store *s, struct store_job *batch)
{
	struct store_conn *c = &s->writer;
	struct store_job *j, *next;
	uint64_t n = 0, max;
	bool several = batch->next != NULL, ok;

	ok = control(c, sql_begin) == STORE_OK;
	for (j = batch; j != NULL; j = j->next) {
		n++;
		if (!ok) {
			j->status = STORE_JOB_COMMIT_FAILED;
			continue;
		}
		if (several && control(c, sql_savepoint) != STORE_OK) {
			j->status = STORE_JOB_FAILED;
			continue;
		}
		if (j->run(c, j->arg) != STORE_ERROR)
			j->status = STORE_JOB_COMMITTED;
		else {
			j->status = STORE_JOB_FAILED;
			if (several)
				control(c, sql_rollback_to);
		}
		if (several)
			control(c, sql_release);
	}
	if (ok) {
		/* A lone failed job rolls the whole (its own) transaction back. */
		if (!several && batch->status != STORE_JOB_COMMITTED)
			control(c, sql_rollback);
		else if (control(c, sql_commit) != STORE_OK) {
			control(c, sql_rollback);
			atomic_fetch_add(&s->commit_failures, 1);
			for (j = batch; j != NULL; j = j->next)
				j->status = STORE_JOB_COMMIT_FAILED;
		} else
			atomic_fetch_add(&s->commits, 1);
	} else
		atomic_fetch_add(&s->commit_failures, 1);
	atomic_fetch_add(&s->jobs, n);
	max = atomic_load(&s->max_batch);
	while (n > max && !atomic_compare_exchange_weak(&s->max_batch, &max, n))
		;
	for (j = batch; j != NULL; j = next) {
		next = j->next;
		j->next = NULL;
		j->done(j);
	}
	pthread_mutex_lock(&s->mu);
	s->pending -= (unsigned)n;
	if (s->pending == 0)
		pthread_cond_broadcast(&s->drained);
	pthread_mutex_unlock(&s->mu);
}

static void *
writer_main(void *arg)
{
	struct store *s = arg;
	struct store_job *batch;

	for (;;) {
		pthread_mutex_lock(&s->mu);
		while (s->head == NULL && !s->stopping)
			pthread_cond_wait(&s->cv, &s->mu);
		batch = s->head;
		if (batch != NULL) {
			struct store_job *last = batch;
			unsigned n = 1;

			while (last->next != NULL && n < s->batch_limit) {
				last = last->next;
				n++;
			}
			s->head = last->next;
			last->next = NULL;
			if (s->head == NULL)
				s->tail = NULL;
		}
		pthread_mutex_unlock(&s->mu);
		if (batch == NULL)
			break; /* stopping, and nothing left */
		run_batch(s, batch);
	}
	return NULL;
}

void
store_submit(struct store *s, struct store_job *job)
{
	job->status = STORE_JOB_PENDING;
	job->next = NULL;
	pthread_mutex_lock(&s->mu);
	if (s->tail != NULL)
		s->tail->next = job;
	else
		s->head = job;
	s->tail = job;
	s->pending++;
	pthread_cond_signal(&s->cv);
	pthread_mutex_unlock(&s->mu);
}

struct waiter {
	struct store_job job;
	pthread_mutex_t  mu;
	pthread_cond_t   cv;
	bool             done;
};

static void
waiter_done(struct store_job *job)
{
	struct waiter *w = (struct waiter *)job;

	pthread_mutex_lock(&w->mu);
	w->done = true;
	pthread_cond_signal(&w->cv);
	pthread_mutex_unlock(&w->mu);
}

enum store_job_status
store_call(struct store *s, store_fn run, void *arg)
{
	struct waiter w;

	memset(&w, 0, sizeof w);
	pthread_mutex_init(&w.mu, NULL);
	pthread_cond_init(&w.cv, NULL);
	w.job.run = run;
	w.job.arg = arg;
	w.job.done = waiter_done;
	store_submit(s, &w.job);
	pthread_mutex_lock(&w.mu);
	while (!w.done)
		pthread_cond_wait(&w.cv, &w.mu);
	pthread_mutex_unlock(&w.mu);
	pthread_cond_destroy(&w.cv);
	pthread_mutex_destroy(&w.mu);
	return w.job.status;
}

struct store_conn *
store_reader(struct store *s)
{
	struct store_conn *c;

	pthread_mutex_lock(&s->rmu);
	while (s->nfree == 0)
		pthread_cond_wait(&s->rcv, &s->rmu);
	c = s->free_readers[--s->nfree];
	pthread_mutex_unlock(&s->rmu);
	return c;
}

void
store_reader_release(struct store *s, struct store_conn *c)
{
	if (c == NULL)
		return;
	pthread_mutex_lock(&s->rmu);
	s->free_readers[s->nfree++] = c;
	pthread_cond_signal(&s->rcv);
	pthread_mutex_unlock(&s->rmu);
}

bool
store_drain(struct store *s, int timeout_ms)
{
	struct timespec until;
	bool done;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += timeout_ms / 1000;
	until.tv_nsec += (long)(timeout_ms % 1000) * 1000000;
	if (until.tv_nsec >= 1000000000) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000;
	}
	pthread_mutex_lock(&s->mu);
	while (s->pending > 0 && pthread_cond_timedwait(&s->drained, &s->mu, &until) == 0)
		;
	done = s->pending == 0;
	pthread_mutex_unlock(&s->mu);
	return done;
}

void
store_set_batch_limit(struct store *s, unsigned n)
{
	pthread_mutex_lock(&s->mu);
	s->batch_limit = n > 0 ? n : 1;
	pthread_mutex_unlock(&s->mu);
}

int
store_schema_version(const struct store *s)
{
	return s->schema_version;
}

enum store_result
store_probe(struct store_conn *c, void *arg)
{
	static const char sql[] =
	    "INSERT INTO store_probe (id, at) VALUES (1, ?1) "
	    "ON CONFLICT (id) DO UPDATE SET at = excluded.at";
	sqlite3_stmt *st = store_stmt(c, sql);

	(void)arg;
	if (st == NULL)
		return STORE_ERROR;
	sqlite3_bind_int64(st, 1, store_now_ms());
	return store_exec_stmt(c, st);
}

void
store_stats(struct store *s, struct store_stats *out)
{
	out->commits = atomic_load(&s->commits);
	out->jobs = atomic_load(&s->jobs);
	out->commit_failures = atomic_load(&s->commit_failures);
	out->max_batch = atomic_load(&s->max_batch);
}

/* Creates the database's folder when it is missing (one level: the quick
 * start's ./data). */
static int
ensure_dir(const char *path, char *err, size_t errcap)
{
	char dir[4096];
	const char *slash = strrchr(path, '/');
	struct stat st;

	if (slash == NULL || slash == path)
		return 0;
	if ((size_t)(slash - path) >= sizeof dir)
		return 0;
	memcpy(dir, path, (size_t)(slash - path));
	dir[slash - path] = '\0';
	if (stat(dir, &st) == 0)
		return 0;
	if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
		snprintf(err, errcap, "cannot create the database folder %s: %s", dir, strerror(errno));
		return -1;
	}
	return 0;
}

struct store *
store_open(const char *path, enum sync_mode sync, unsigned nreaders, char *err, size_t errcap)
{
	struct store *s;
	unsigned i;

	if (sqlite3_threadsafe() == 0) {
		snprintf(err, errcap, "this SQLite library was built without thread support");
		return NULL;
	}
	if (ensure_dir(path, err, errcap) != 0)
		return NULL;
	s = calloc(1, sizeof *s);
	if (s == NULL) {
		snprintf(err, errcap, "out of memory");
		return NULL;
	}
	s->batch_limit = STORE_BATCH_DEFAULT;
	pthread_mutex_init(&s->mu, NULL);
	pthread_cond_init(&s->cv, NULL);
	pthread_cond_init(&s->drained, NULL);
	pthread_mutex_init(&s->rmu, NULL);
	pthread_cond_init(&s->rcv, NULL);
	if (conn_open(&s->writer, path, false, sync, err, errcap) != 0)
		goto fail;
	if (set_wal(&s->writer, path, err, errcap) != 0)
		goto fail;
	if (migrate(&s->writer, path, &s->schema_version, err, errcap) != 0)
		goto fail;
	if (nreaders == 0)
		nreaders = 1;
	s->readers = calloc(nreaders, sizeof *s->readers);
	s->free_readers = calloc(nreaders, sizeof *s->free_readers);
	if (s->readers == NULL || s->free_readers == NULL) {
		snprintf(err, errcap, "out of memory");
		goto fail;
	}
	for (i = 0; i < nreaders; i++) {
		if (conn_open(&s->readers[i], path, true, sync, err, errcap) != 0)
			goto fail;
		s->nreaders++;
		s->free_readers[s->nfree++] = &s->readers[i];
	}
	if (pthread_create(&s->thread, NULL, writer_main, s) != 0) {
		snprintf(err, errcap, "cannot start the writer thread");
		goto fail;
	}
	s->thread_started = true;
	return s;
fail:
	store_close(s);
	return NULL;
}

void
store_close(struct store *s)
{
	unsigned i;

	if (s == NULL)
		return;
	if (s->thread_started) {
		pthread_mutex_lock(&s->mu);
		s->stopping = true;
		pthread_cond_signal(&s->cv);
		pthread_mutex_unlock(&s->mu);
		pthread_join(s->thread, NULL);
	}
	for (i = 0; i < s->nreaders; i++)
		conn_close(&s->readers[i]);
	if (s->writer.db != NULL) {
		/* Fold the WAL into the database so the file stands alone. */
		if (sqlite3_wal_checkpoint_v2(s->writer.db, NULL, SQLITE_CHECKPOINT_TRUNCATE,
		    NULL, NULL) != SQLITE_OK && s->thread_started)
			store_log_error(&s->writer, "checkpoint");
	}
	conn_close(&s->writer);
	free(s->readers);
	free(s->free_readers);
	pthread_cond_destroy(&s->rcv);
	pthread_mutex_destroy(&s->rmu);
	pthread_cond_destroy(&s->cv);
	pthread_cond_destroy(&s->drained);
	pthread_mutex_destroy(&s->mu);
	free(s);
}
