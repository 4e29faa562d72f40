/*
 * store.c: the store's two backends behind one interface: connections,
 * migrations, the writer thread with group commit, the reader pool, and on
 * SQLite the WAL checkpointer.
 *
 * Workload: many small write transactions (a move is one UPDATE of the run
 * head and one INSERT), each answered only after it is durable. A single
 * writer avoids SQLite's busy-wait between writers (measured: a connection
 * per thread gives no throughput and 0.1-0.9 s tail spikes); batching every
 * waiting job into one transaction makes a durable commit cost one fsync
 * for the whole batch instead of one per move.
 *
 * On PostgreSQL each daemon has one writer connection too, and several
 * daemons' writers run at once: a batch runs at READ COMMITTED, the jobs
 * lock what they decide on (the run's row, FOR UPDATE) and write with a
 * compare-and-set, so one daemon's batch waits for another's commit
 * instead of deciding on a head that is about to change. A batch that hits
 * a serialization failure, a deadlock or a lost connection before its
 * COMMIT was sent is rolled back and run again from its first job (a lock
 * not granted in 5 s fails the whole batch instead). A lost connection is
 * opened again, with pauses, for --db-retry-seconds at most (libpq tries
 * every host of the target and keeps the one that takes writes): past that
 * the batch's jobs fail and the store reports itself unreachable, which the
 * daemon answers 503 with Retry-After. A connection lost during COMMIT, or
 * a COMMIT whose wait for a synchronous standby statement_timeout cut (it
 * committed here, perhaps not there), leaves the outcome unknown: every
 * job of that batch is reported STORE_JOB_OUTCOME_UNKNOWN (never answered
 * 200, and never "nothing changed").
 *
 * On SQLite, commits never checkpoint (wal_autocheckpoint off): the WAL
 * hook wakes a checkpointer thread once the WAL passes CKPT_FRAMES; it
 * copies the WAL into the database without stopping the writer (PASSIVE),
 * then holds the writer between two batches for a RESTART of what little
 * was appended meanwhile, so the next commit starts the WAL from its
 * beginning and the file stays bounded under continuous writes.
 */
#include "store_internal.h"
#include "store.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "migrations.h"

/* How many times a PostgreSQL batch is run again, and the pause before
 * each try (times the try's number). */
#define PG_RETRIES 8
#define PG_RETRY_PAUSE_MS 20

/* WAL frames (pages) after which the checkpointer runs: 1000 pages of
 * 4 KiB is SQLite's own automatic threshold. */
#define CKPT_FRAMES 1000
/* How long the RESTART may wait for readers while holding the writer. */
#define CKPT_READER_WAIT_MS 20
/* At most this many copies beside the writer before the RESTART. */
#define CKPT_ROUNDS 8
/* Past this many frames (32 MiB of 4 KiB pages) the copies beside the
 * writer are not catching up (a slow disk): the RESTART, holding the
 * writer, copies the rest at once. */
#define CKPT_HARD_FRAMES (8 * CKPT_FRAMES)

struct store {
	enum store_backend backend;
	char              *target;      /* path or URL, as given */
	enum sync_mode     sync;
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
	char              retry_why[24]; /* the writer's: why the last batch runs again */
	unsigned          retry_ms;     /* PostgreSQL: how long a lost connection is retried */
	bool              writer_gave_up; /* the writer's: its last reconnection ran out of time */
	/* Held by the writer while it runs a batch; the checkpointer takes it
	 * to keep the writer out during a RESTART. */
	pthread_mutex_t   wmu;

	/* Reader pool: free connections are a stack guarded by rmu. */
	struct store_conn *readers;
	struct store_conn **free_readers;
	unsigned          nreaders, nfree;
	pthread_mutex_t   rmu;
	pthread_cond_t    rcv;

	/* SQLite's checkpointer: woken by the WAL hook. */
	struct store_conn ckpt;
	pthread_t         ckpt_thread;
	bool              ckpt_started, ckpt_wanted, ckpt_stopping;
	pthread_mutex_t   cmu;
	pthread_cond_t    ccv, ckpt_done;

	_Atomic uint64_t  commits, jobs, commit_failures, max_batch;
	struct store_health health; /* told by the query layer: a full disk, a lost database */
	_Atomic uint64_t  retries, reader_waits, checkpoints, checkpoint_busy,
	                  checkpoint_waits;
	_Atomic int64_t   checkpoint_at;     /* ms since the epoch, 0: none yet */
	_Atomic uint64_t  checkpoint_us;     /* how long the writer was held by the last one */
	_Atomic uint64_t  wal_frames;        /* frames in the WAL after the last commit */
};

int64_t
store_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static uint64_t
mono_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

static void
sleep_ms(unsigned ms)
{
	struct timespec ts = { (time_t)(ms / 1000), (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

bool
store_disk_full(struct store *s)
{
	return s != NULL && atomic_load(&s->health.disk_full);
}

bool
store_reachable(struct store *s)
{
	return s == NULL || !atomic_load(&s->health.unreachable);
}

/* ---- migrations ---- */

static int
read_version(struct store_conn *c, int *version, char *err, size_t errcap)
{
	static const char sql[] = "SELECT coalesce(max(version), 0), count(*) FROM schema_migrations";
	struct store_q *q;
	int rc;

	/* Two daemons starting together on one PostgreSQL may race to create
	 * the table: the loser's statement fails, and the table is there. */
	if (store_conn_exec(c, "CREATE TABLE IF NOT EXISTS schema_migrations ("
	    " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)",
	    err, errcap) != 0 && store_conn_exec(c, "SELECT 1 FROM schema_migrations LIMIT 1",
	    NULL, 0) != 0)
		return -1;
	q = store_q(c, sql);
	if (q == NULL) {
		snprintf(err, errcap, "cannot read schema_migrations");
		return -1;
	}
	rc = store_q_step(q);
	if (rc == STORE_Q_ROW) {
		*version = (int)store_q_col_int(q, 0);
		if (store_q_col_int(q, 1) != *version) {
			snprintf(err, errcap, "schema_migrations has gaps: the database was not made by arcaded");
			rc = STORE_Q_FAIL;
		}
	} else {
		snprintf(err, errcap, "cannot read schema_migrations");
		rc = STORE_Q_FAIL;
	}
	store_q_reset(q);
	return rc == STORE_Q_ROW ? 0 : -1;
}

/* Applies the missing migrations of c's backend in order, one transaction
 * each. The row of schema_migrations is inserted first: when two daemons
 * migrate one PostgreSQL database at once, the second one's insert waits
 * for the first one's commit, then fails on the key, and it reads the
 * version again instead of applying the same migration twice. */
static int
migrate(struct store_conn *c, const char *name, int *version, char *err, size_t errcap)
{
	static const char ins[] =
	    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?1, ?2, ?3)";
	const struct migration *list = store_is_pg(c) ? pg_migrations : migrations;
	char why[512];
	int tries = 0;

	for (;;) {
		const struct migration *m;
		struct store_q *q;

		if (read_version(c, version, why, sizeof why) != 0) {
			snprintf(err, errcap, "cannot read the schema version of %s: %s", name, why);
			return -1;
		}
		if (*version > nmigrations) {
			snprintf(err, errcap, "database %s has schema version %d but this arcaded knows only "
			    "up to %d: run a newer arcaded", name, *version, nmigrations);
			return -1;
		}
		if (*version == nmigrations)
			return 0;
		m = &list[*version];
		if (store_conn_exec(c, store_is_pg(c) ? "BEGIN" : "BEGIN IMMEDIATE", why, sizeof why) != 0)
			goto failed;
		q = store_q(c, ins);
		if (q != NULL) {
			store_q_int(q, 1, m->number);
			store_q_text(q, 2, m->name);
			store_q_int(q, 3, store_now_ms());
		}
		if (store_q_exec(q) != STORE_OK) {
			bool raced = store_is_pg(c) && strcmp(c->sqlstate, "23505") == 0;

			snprintf(why, sizeof why, "cannot record it in schema_migrations");
			store_conn_exec(c, "ROLLBACK", NULL, 0);
			if (raced && ++tries < 100) {
				store_log_msg(STORE_LOG_INFO, "migration %04d_%s was applied by another daemon",
				    m->number, m->name);
				continue;
			}
			goto failed;
		}
		if (store_conn_exec(c, m->sql, why, sizeof why) != 0) {
			store_conn_exec(c, "ROLLBACK", NULL, 0);
			goto failed;
		}
		if (store_conn_exec(c, "COMMIT", why, sizeof why) != 0) {
			store_conn_exec(c, "ROLLBACK", NULL, 0);
			goto failed;
		}
		store_log_msg(STORE_LOG_INFO, "applied migration %04d_%s", m->number, m->name);
		continue;
failed:
		snprintf(err, errcap, "migration %04d_%s failed on %s (nothing of it was applied): %s",
		    m->number, m->name, name, why);
		return -1;
	}
}

/* ---- the writer ---- */

/* The writer's transaction control, as prepared statements: sqlite3_exec
 * would compile the same text again for every batch and every job. */
static const char sql_begin_lite[] = "BEGIN IMMEDIATE";
static const char sql_begin_pg[] = "BEGIN ISOLATION LEVEL READ COMMITTED";
static const char sql_rollback[] = "ROLLBACK";
static const char sql_savepoint[] = "SAVEPOINT job";
static const char sql_release[] = "RELEASE SAVEPOINT job";
static const char sql_rollback_to[] = "ROLLBACK TO SAVEPOINT job";

static enum store_result
control(struct store_conn *c, const char *sql)
{
	return store_q_exec(store_q(c, sql));
}

/* A PostgreSQL failure after which the whole batch may run again: nothing
 * of it was committed, and running it again can succeed (a serialization
 * failure, a deadlock, a lost connection). */
static bool
retryable(const struct store_conn *c)
{
	return c->backend == STORE_PG && (c->lost || strcmp(c->sqlstate, "40001") == 0 ||
	    strcmp(c->sqlstate, "40P01") == 0);
}

/* A statement cut by statement_timeout: the server does not finish it in
 * time (a disk that hangs, a synchronous standby that does not answer). */
static bool
timed_out(const struct store_conn *c)
{
	return c->backend == STORE_PG && strcmp(c->sqlstate, "57014") == 0;
}

/* A lock not granted within lock_timeout: the rows are held by a
 * transaction that does not end (a stopped daemon, an operator's session).
 * The rest of the batch would wait as long, job after job: the whole batch
 * fails at once, as on SQLite when the busy timeout passes. */
static bool
stuck(const struct store_conn *c)
{
	return c->backend == STORE_PG && (strcmp(c->sqlstate, "55P03") == 0 || timed_out(c));
}

enum batch_outcome {
	BATCH_DONE,  /* every job has its status */
	BATCH_RETRY, /* nothing was written: run the batch again (a retryable failure) */
	BATCH_RERUN  /* PostgreSQL: a job failed; run the others again without it */
};

/* Runs the batch's jobs in one transaction and commits; sets every job's
 * status, or asks for the batch to run again.
 *
 * On SQLite each job of a batch of several runs in a savepoint, which
 * costs nothing there. On PostgreSQL a savepoint and its release are two
 * more round trips per job, so none is taken: a job that fails rolls the
 * whole transaction back, is marked failed, and the batch runs again
 * without it (jobs fail only when the database does, so this is rare). */
static enum batch_outcome
run_batch_once(struct store *s, struct store_job *batch, bool last_try)
{
	struct store_conn *c = &s->writer;
	struct store_job *j;
	bool pg = c->backend == STORE_PG, ok, savepoints, any = false;
	unsigned live = 0;

	/* On PostgreSQL a job already failed is left out of later runs. */
	for (j = batch; j != NULL; j = j->next)
		if (!(pg && j->status == STORE_JOB_FAILED))
			live++;
	if (live == 0)
		return BATCH_DONE;
	savepoints = !pg && live > 1;
	c->sqlstate[0] = '\0';
	ok = control(c, pg ? sql_begin_pg : sql_begin_lite) == STORE_OK;
	if (!ok && retryable(c) && !last_try)
		goto retry;
	for (j = batch; j != NULL; j = j->next) {
		if (pg && j->status == STORE_JOB_FAILED)
			continue;
		if (!ok) {
			j->status = STORE_JOB_COMMIT_FAILED;
			continue;
		}
		if (savepoints && control(c, sql_savepoint) != STORE_OK) {
			j->status = STORE_JOB_FAILED;
			continue;
		}
		if (j->run(c, j->arg) != STORE_ERROR) {
			j->status = STORE_JOB_COMMITTED;
			any = true;
		} else {
			if (retryable(c) && !last_try)
				goto retry;
			if (stuck(c))
				goto give_up;
			j->status = STORE_JOB_FAILED;
			if (savepoints)
				control(c, sql_rollback_to);
			else if (pg && live > 1) {
				control(c, sql_rollback);
				return BATCH_RERUN;
			}
		}
		if (savepoints)
			control(c, sql_release);
	}
	if (!ok) {
		atomic_fetch_add(&s->commit_failures, 1);
		return BATCH_DONE;
	}
	/* Nothing succeeded (a lone job failed): roll back. */
	if (!any) {
		control(c, sql_rollback);
		return BATCH_DONE;
	}
	c->warned = false;
	if (store_conn_commit(c) == STORE_OK) {
		atomic_fetch_add(&s->commits, 1);
		atomic_store(&s->health.disk_full, false);
		if (pg && c->warned) {
			/* statement_timeout cut the wait for the synchronous standby:
			 * committed here, perhaps not on the standby that a failover
			 * would promote. Not durable as promised, not undone either. */
			store_log_msg(STORE_LOG_WARN, "postgresql: a commit of %u jobs was not confirmed "
			    "by the synchronous standby within the statement timeout: answered "
			    "outcome_unknown", live);
			atomic_store(&s->health.unreachable, true);
			for (j = batch; j != NULL; j = j->next)
				if (j->status == STORE_JOB_COMMITTED)
					j->status = STORE_JOB_OUTCOME_UNKNOWN;
			return BATCH_DONE;
		}
		atomic_store(&s->health.unreachable, false);
		return BATCH_DONE;
	}
	/* A commit refused by the server (a serialization failure) undid
	 * everything and may run again; a connection lost while committing
	 * leaves the outcome unknown: report it so, never success, never
	 * "nothing changed". */
	if (pg && !c->lost && retryable(c) && !last_try)
		goto retry;
	if (!c->lost)
		control(c, sql_rollback);
	atomic_fetch_add(&s->commit_failures, 1);
	for (j = batch; j != NULL; j = j->next)
		if (!(pg && j->status == STORE_JOB_FAILED))
			j->status = c->lost ? STORE_JOB_OUTCOME_UNKNOWN : STORE_JOB_COMMIT_FAILED;
	return BATCH_DONE;
retry:
	/* Why, for the log line: the ROLLBACK clears the SQLSTATE. */
	snprintf(s->retry_why, sizeof s->retry_why, "%s", c->lost ? "connection lost" : c->sqlstate);
	if (!c->lost)
		control(c, sql_rollback);
	return BATCH_RETRY;
give_up:
	if (timed_out(c))
		atomic_store(&s->health.unreachable, true);
	control(c, sql_rollback);
	atomic_fetch_add(&s->commit_failures, 1);
	for (j = batch; j != NULL; j = j->next)
		j->status = STORE_JOB_FAILED;
	return BATCH_DONE;
}

/* A lost PostgreSQL connection is opened again, with growing pauses (50
 * ms, then up to 500 ms), until deadline_us (CLOCK_MONOTONIC): 0 when
 * connected again. One try may overrun the deadline by a connect_timeout
 * per host that does not answer. */
static int
writer_reconnect(struct store *s, uint64_t deadline_us)
{
	struct store_conn *c = &s->writer;
	unsigned i, pause;
	uint64_t now;

	for (i = 1; c->lost; i++) {
		if (store_conn_reconnect(c) == 0) {
			store_log_msg(STORE_LOG_WARN, "postgresql: the writer reconnected (try %u)", i);
			s->writer_gave_up = false;
			return 0;
		}
		now = mono_us();
		if (now >= deadline_us)
			break;
		pause = 50u * i < 500u ? 50u * i : 500u;
		if ((uint64_t)pause * 1000 > deadline_us - now)
			pause = (unsigned)((deadline_us - now) / 1000) + 1;
		sleep_ms(pause);
	}
	store_log_msg(STORE_LOG_ERROR, "postgresql: the writer could not reconnect within %u ms: "
	    "the database is unreachable", s->retry_ms);
	atomic_store(&s->health.unreachable, true);
	s->writer_gave_up = true;
	return -1;
}

/* Back-pressure when the disk cannot keep up: past CKPT_HARD_FRAMES the
 * writer stops until the checkpointer has restarted the WAL (2 s at most),
 * so the WAL stays bounded whatever the write rate. */
static void
wait_for_checkpoint(struct store *s)
{
	struct timespec until;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 2;
	pthread_mutex_lock(&s->cmu);
	s->ckpt_wanted = true;
	pthread_cond_signal(&s->ccv);
	while (atomic_load(&s->wal_frames) >= CKPT_HARD_FRAMES && !s->ckpt_stopping &&
	    pthread_cond_timedwait(&s->ckpt_done, &s->cmu, &until) == 0)
		;
	pthread_mutex_unlock(&s->cmu);
	atomic_fetch_add(&s->checkpoint_waits, 1);
}

/* Runs one batch of jobs in one transaction (again after a retryable
 * PostgreSQL failure), then reports every job done. */
static void
run_batch(struct store *s, struct store_job *batch)
{
	struct store_job *j, *next;
	uint64_t n = 0, max, deadline;
	int attempt;

	for (j = batch; j != NULL; j = j->next)
		n++;
	pthread_mutex_lock(&s->wmu);
	deadline = mono_us() + (uint64_t)s->retry_ms * 1000;
	for (attempt = 0;;) {
		enum batch_outcome o;

		/* A batch before this one gave up: one try only, so that a queue
		 * of batches does not wait a budget each. */
		if (s->writer.lost && writer_reconnect(s, s->writer_gave_up ? 0 : deadline) != 0) {
			for (j = batch; j != NULL; j = j->next)
				if (j->status != STORE_JOB_FAILED)
					j->status = STORE_JOB_COMMIT_FAILED;
			atomic_fetch_add(&s->commit_failures, 1);
			break;
		}
		o = run_batch_once(s, batch, attempt + 1 >= PG_RETRIES || mono_us() >= deadline);
		if (o == BATCH_DONE)
			break;
		if (o == BATCH_RERUN)
			continue; /* one job fewer each time: bounded by the batch */
		attempt++;
		atomic_fetch_add(&s->retries, 1);
		store_log_msg(STORE_LOG_WARN, "postgresql: a batch of %llu jobs runs again (%s)",
		    (unsigned long long)n, s->retry_why);
		sleep_ms((unsigned)(PG_RETRY_PAUSE_MS * (attempt - 1)) + randombytes_uniform(PG_RETRY_PAUSE_MS));
	}
	pthread_mutex_unlock(&s->wmu);
	if (s->backend == STORE_SQLITE && atomic_load(&s->wal_frames) >= CKPT_HARD_FRAMES)
		wait_for_checkpoint(s);
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

/* ---- readers ---- */

struct store_conn *
store_reader(struct store *s)
{
	struct store_conn *c;

	pthread_mutex_lock(&s->rmu);
	if (s->nfree == 0)
		atomic_fetch_add(&s->reader_waits, 1);
	while (s->nfree == 0)
		pthread_cond_wait(&s->rcv, &s->rmu);
	c = s->free_readers[--s->nfree];
	pthread_mutex_unlock(&s->rmu);
	/* A connection lost by its last query is opened again before use,
	 * once: a reader that cannot is answered 503 at once (its caller
	 * may retry) rather than holding the request for the writer's budget. */
	if (c->backend == STORE_PG && (c->lost || PQstatus(c->pg) != CONNECTION_OK) &&
	    store_conn_reconnect(c) != 0)
		store_log_msg(STORE_LOG_WARN, "postgresql: a reader could not reconnect");
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
	struct store_q *q = store_q(c, sql);

	(void)arg;
	if (q == NULL)
		return STORE_ERROR;
	store_q_int(q, 1, store_now_ms());
	return store_q_exec(q);
}

void
store_stats(struct store *s, struct store_stats *out)
{
	memset(out, 0, sizeof *out);
	out->postgres = s->backend == STORE_PG;
	out->commits = atomic_load(&s->commits);
	out->jobs = atomic_load(&s->jobs);
	out->commit_failures = atomic_load(&s->commit_failures);
	out->max_batch = atomic_load(&s->max_batch);
	pthread_mutex_lock(&s->mu);
	out->queue_depth = s->pending;
	pthread_mutex_unlock(&s->mu);
	pthread_mutex_lock(&s->rmu);
	out->readers = s->nreaders;
	out->readers_busy = s->nreaders - s->nfree;
	pthread_mutex_unlock(&s->rmu);
	out->reader_waits = atomic_load(&s->reader_waits);
	out->retries = atomic_load(&s->retries);
	out->conn_errors = atomic_load(&s->health.conn_errors);
	out->checkpoints = atomic_load(&s->checkpoints);
	out->checkpoint_busy = atomic_load(&s->checkpoint_busy);
	out->checkpoint_waits = atomic_load(&s->checkpoint_waits);
	out->checkpoint_at_ms = atomic_load(&s->checkpoint_at);
	out->checkpoint_hold_us = atomic_load(&s->checkpoint_us);
	if (s->backend == STORE_SQLITE) {
		char wal[4200];
		struct stat st;

		out->wal_frames = atomic_load(&s->wal_frames);
		snprintf(wal, sizeof wal, "%s-wal", s->target);
		out->wal_bytes = stat(wal, &st) == 0 ? (uint64_t)st.st_size : 0;
	}
}

/* ---- SQLite's checkpointer ---- */

static int
wal_hook(void *arg, sqlite3 *db, const char *name, int frames)
{
	struct store *s = arg;

	(void)db;
	(void)name;
	atomic_store(&s->wal_frames, (uint64_t)frames);
	if (frames >= CKPT_FRAMES) {
		pthread_mutex_lock(&s->cmu);
		if (!s->ckpt_wanted) {
			s->ckpt_wanted = true;
			pthread_cond_signal(&s->ccv);
		}
		pthread_mutex_unlock(&s->cmu);
	}
	return SQLITE_OK;
}

static void
checkpoint(struct store *s)
{
	sqlite3 *db = s->ckpt.db;
	uint64_t t0, held;
	int rc, round, nlog = 0, ndone = 0, prev = -1, log2 = 0, done2 = 0;

	/* Copy beside the writer, again while the writer appended many frames
	 * during the previous copy: what is left for the RESTART, with the
	 * writer held, is what arrived during one short copy. */
	for (round = 0; round < CKPT_ROUNDS; round++) {
		rc = sqlite3_wal_checkpoint_v2(db, NULL, SQLITE_CHECKPOINT_PASSIVE, &nlog, &ndone);
		if (rc != SQLITE_OK) {
			if (rc != SQLITE_BUSY)
				store_log_error(&s->ckpt, "checkpoint");
			break;
		}
		if (prev >= 0 && nlog - prev < CKPT_FRAMES / 4)
			break;
		/* The copies do not catch up with the writer: stop it now. */
		if (atomic_load(&s->wal_frames) >= CKPT_HARD_FRAMES)
			break;
		prev = nlog;
	}
	/* The rest with the writer held between batches: RESTART waits for
	 * readers (briefly) so that the next commit writes the WAL from its
	 * start. */
	pthread_mutex_lock(&s->wmu);
	t0 = mono_us();
	rc = sqlite3_wal_checkpoint_v2(db, NULL, SQLITE_CHECKPOINT_RESTART, &log2, &done2);
	held = mono_us() - t0;
	pthread_mutex_unlock(&s->wmu);
	atomic_store(&s->checkpoint_us, held);
	store_log_msg(STORE_LOG_DEBUG, "checkpoint: %d rounds beside the writer up to frame %d, "
	    "then %d frames in %llu us holding it (%s)", round + 1, ndone, log2, (unsigned long long)held,
	    rc == SQLITE_OK ? "restarted" : rc == SQLITE_BUSY ? "readers in the way" : "failed");
	if (rc == SQLITE_OK) {
		atomic_fetch_add(&s->checkpoints, 1);
		atomic_store(&s->checkpoint_at, store_now_ms());
		atomic_store(&s->wal_frames, 0);
	} else if (rc == SQLITE_BUSY)
		atomic_fetch_add(&s->checkpoint_busy, 1);
	else
		store_log_error(&s->ckpt, "checkpoint");
	pthread_mutex_lock(&s->cmu);
	pthread_cond_broadcast(&s->ckpt_done);
	pthread_mutex_unlock(&s->cmu);
}

static void *
checkpointer_main(void *arg)
{
	struct store *s = arg;

	pthread_mutex_lock(&s->cmu);
	for (;;) {
		while (!s->ckpt_wanted && !s->ckpt_stopping)
			pthread_cond_wait(&s->ccv, &s->cmu);
		if (s->ckpt_stopping)
			break;
		s->ckpt_wanted = false;
		pthread_mutex_unlock(&s->cmu);
		checkpoint(s);
		pthread_mutex_lock(&s->cmu);
	}
	pthread_mutex_unlock(&s->cmu);
	return NULL;
}

static int
start_checkpointer(struct store *s, char *err, size_t errcap)
{
	char why[256];

	if (store_conn_exec(&s->writer, "PRAGMA wal_autocheckpoint = 0", why, sizeof why) != 0 ||
	    store_conn_open(&s->ckpt, s->target, false, s->sync, err, errcap) != 0) {
		if (err[0] == '\0')
			snprintf(err, errcap, "cannot set up checkpoints: %s", why);
		return -1;
	}
	/* A connection learns that the file is in WAL mode only when it first
	 * reads it; until then a checkpoint on it is a silent no-op. */
	if (store_conn_exec(&s->ckpt, "SELECT count(*) FROM sqlite_schema", why, sizeof why) != 0) {
		snprintf(err, errcap, "cannot set up checkpoints: %s", why);
		return -1;
	}
	sqlite3_busy_timeout(s->ckpt.db, CKPT_READER_WAIT_MS);
	sqlite3_wal_hook(s->writer.db, wal_hook, s);
	if (pthread_create(&s->ckpt_thread, NULL, checkpointer_main, s) != 0) {
		snprintf(err, errcap, "cannot start the checkpointer thread");
		return -1;
	}
	s->ckpt_started = true;
	return 0;
}

/* ---- open and close ---- */

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

struct store *
store_open(const char *path, enum sync_mode sync, unsigned nreaders, char *err, size_t errcap)
{
	return store_open_with(path, sync, nreaders, NULL, err, errcap);
}

struct store *
store_open_with(const char *path, enum sync_mode sync, unsigned nreaders,
    const struct store_limits *limits, char *err, size_t errcap)
{
	struct store *s;
	char name[512];
	unsigned i;

	err[0] = '\0';
	store_target_text(path, name, sizeof name);
	if (!store_is_postgres(path)) {
		if (sqlite3_threadsafe() == 0) {
			snprintf(err, errcap, "this SQLite library was built without thread support");
			return NULL;
		}
		if (ensure_dir(path, err, errcap) != 0)
			return NULL;
	}
	s = calloc(1, sizeof *s);
	if (s == NULL || (s->target = strdup(path)) == NULL) {
		free(s);
		snprintf(err, errcap, "out of memory");
		return NULL;
	}
	s->backend = store_is_postgres(path) ? STORE_PG : STORE_SQLITE;
	s->sync = sync;
	s->retry_ms = limits != NULL ? limits->retry_ms : STORE_RETRY_MS_DEFAULT;
	s->batch_limit = STORE_BATCH_DEFAULT;
	pthread_mutex_init(&s->mu, NULL);
	pthread_cond_init(&s->cv, NULL);
	pthread_cond_init(&s->drained, NULL);
	pthread_mutex_init(&s->wmu, NULL);
	pthread_mutex_init(&s->rmu, NULL);
	pthread_cond_init(&s->rcv, NULL);
	pthread_mutex_init(&s->cmu, NULL);
	pthread_cond_init(&s->ccv, NULL);
	pthread_cond_init(&s->ckpt_done, NULL);
	if (store_conn_open(&s->writer, path, false, sync, err, errcap) != 0)
		goto fail;
	s->writer.writer = true;
	s->writer.health = &s->health;
	if (s->backend == STORE_SQLITE && set_wal(&s->writer, path, err, errcap) != 0)
		goto fail;
	if (migrate(&s->writer, name, &s->schema_version, err, errcap) != 0)
		goto fail;
	/* After the migrations, which may take long on a big database. */
	if (s->backend == STORE_PG) {
		char sql[64], why[256];

		s->writer.statement_timeout_ms = limits != NULL ? limits->statement_timeout_ms :
		    STORE_STATEMENT_TIMEOUT_MS_DEFAULT;
		snprintf(sql, sizeof sql, "SET statement_timeout = %u", s->writer.statement_timeout_ms);
		if (store_conn_exec(&s->writer, sql, why, sizeof why) != 0) {
			snprintf(err, errcap, "cannot use the PostgreSQL database: %s", why);
			goto fail;
		}
	}
	if (nreaders == 0)
		nreaders = 1;
	s->readers = calloc(nreaders, sizeof *s->readers);
	s->free_readers = calloc(nreaders, sizeof *s->free_readers);
	if (s->readers == NULL || s->free_readers == NULL) {
		snprintf(err, errcap, "out of memory");
		goto fail;
	}
	for (i = 0; i < nreaders; i++) {
		if (store_conn_open(&s->readers[i], path, true, sync, err, errcap) != 0)
			goto fail;
		s->readers[i].health = &s->health;
		s->nreaders++;
		s->free_readers[s->nfree++] = &s->readers[i];
	}
	if (s->backend == STORE_SQLITE && start_checkpointer(s, err, errcap) != 0)
		goto fail;
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
	if (s->ckpt_started) {
		pthread_mutex_lock(&s->cmu);
		s->ckpt_stopping = true;
		pthread_cond_signal(&s->ccv);
		pthread_cond_broadcast(&s->ckpt_done);
		pthread_mutex_unlock(&s->cmu);
		pthread_join(s->ckpt_thread, NULL);
	}
	store_conn_close(&s->ckpt);
	for (i = 0; i < s->nreaders; i++)
		store_conn_close(&s->readers[i]);
	if (s->writer.db != NULL) {
		/* Fold the WAL into the database so the file stands alone. */
		if (sqlite3_wal_checkpoint_v2(s->writer.db, NULL, SQLITE_CHECKPOINT_TRUNCATE,
		    NULL, NULL) != SQLITE_OK && s->thread_started)
			store_log_error(&s->writer, "checkpoint");
	}
	store_conn_close(&s->writer);
	free(s->readers);
	free(s->free_readers);
	pthread_cond_destroy(&s->ckpt_done);
	pthread_cond_destroy(&s->ccv);
	pthread_mutex_destroy(&s->cmu);
	pthread_cond_destroy(&s->rcv);
	pthread_mutex_destroy(&s->rmu);
	pthread_mutex_destroy(&s->wmu);
	pthread_cond_destroy(&s->cv);
	pthread_cond_destroy(&s->drained);
	pthread_mutex_destroy(&s->mu);
	free(s->target);
	free(s);
}
