/*
 * test_store_batch.c: the writer's group commit. Jobs waiting together run
 * in one transaction, each in its own savepoint: when one job fails in the
 * middle of a batch, the others commit, the failing one is reported
 * failed, and nothing it wrote survives. A lone failing job rolls back its
 * own transaction. A batch limit of 1 commits every job alone.
 *
 * A gate job holds the writer until the jobs under test are queued, so they
 * are known to share one batch. The same checks run on PostgreSQL (where a
 * failing job makes the batch run again without it, instead of a
 * savepoint) through tests/server/with_pg.py.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "store.h"
#include "tap.h"

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static bool gate_entered, gate_open;
static int ndone;

static enum store_result
gate_job(struct store_conn *c, void *arg)
{
	(void)c;
	(void)arg;
	pthread_mutex_lock(&mu);
	gate_entered = true;
	pthread_cond_broadcast(&cv);
	while (!gate_open)
		pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
	return STORE_OK;
}

struct named {
	struct store_account_new acct;
	bool                     fail_after; /* write, then report an error */
};

static enum store_result
account_job(struct store_conn *c, void *arg)
{
	struct named *n = arg;

	if (store_account_create(c, &n->acct) != STORE_OK)
		return STORE_ERROR;
	return n->fail_after ? STORE_ERROR : STORE_OK;
}

static void
done(struct store_job *job)
{
	(void)job;
	pthread_mutex_lock(&mu);
	ndone++;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
}

static void
wait_done(int n)
{
	pthread_mutex_lock(&mu);
	while (ndone < n)
		pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
}

static void
named(struct named *n, const char *name, const char *key_id, bool fail)
{
	memset(n, 0, sizeof *n);
	n->acct.name = name;
	snprintf(n->acct.key_id, sizeof n->acct.key_id, "%s", key_id);
	memset(n->acct.hash, 7, sizeof n->acct.hash);
	n->acct.now = 1;
	n->fail_after = fail;
}

static enum store_result
lookup(struct store *s, const char *key_id)
{
	struct store_key_row row;
	struct store_conn *c = store_reader(s);
	enum store_result r = store_key_lookup(c, key_id, &row);

	store_reader_release(s, c);
	return r;
}

int
main(void)
{
	char dir[] = "/tmp/arcaded-batch-XXXXXX", path[1024], err[512];
	struct store_job gate = { 0 }, jobs[4];
	struct named n[4];
	struct store_stats before, after;
	struct store *s;
	int i;

	if (mkdtemp(dir) == NULL)
		return 1;
	log_set_level(LOG_WARN);
	/* ARCADED_TEST_DB: a PostgreSQL URL (tests/server/with_pg.py sets it),
	 * to run the same checks on the other backend. */
	if (getenv("ARCADED_TEST_DB") != NULL)
		snprintf(path, sizeof path, "%s", getenv("ARCADED_TEST_DB"));
	else
		snprintf(path, sizeof path, "%s/batch.db", dir);
	s = store_open(path, SYNC_NORMAL, 1, err, sizeof err);
	if (!ok(s != NULL, "the store opens (%s)", s ? "ok" : err))
		return tap_done();

	/* A batch of four behind the gate; the third fails after writing. */
	named(&n[0], "alpha", "AAAAAAAAAAAAAAAA", false);
	named(&n[1], "bravo", "BBBBBBBBBBBBBBBB", false);
	named(&n[2], "charlie", "CCCCCCCCCCCCCCCC", true);
	named(&n[3], "delta", "DDDDDDDDDDDDDDDD", false);
	store_stats(s, &before);
	gate.run = gate_job;
	gate.done = done;
	store_submit(s, &gate);
	/* The writer takes the gate alone and blocks in it; what comes next
	 * waits in the queue. */
	pthread_mutex_lock(&mu);
	while (!gate_entered)
		pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
	for (i = 0; i < 4; i++) {
		memset(&jobs[i], 0, sizeof jobs[i]);
		jobs[i].run = account_job;
		jobs[i].arg = &n[i];
		jobs[i].done = done;
		store_submit(s, &jobs[i]);
	}
	pthread_mutex_lock(&mu);
	gate_open = true;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
	wait_done(5);
	store_stats(s, &after);
	ok(gate.status == STORE_JOB_COMMITTED, "the gate job committed");
	ok(after.commits - before.commits == 2 && after.max_batch >= 4,
	    "the four queued jobs shared one transaction (%llu commits, largest batch %llu)",
	    (unsigned long long)(after.commits - before.commits), (unsigned long long)after.max_batch);
	ok(jobs[0].status == STORE_JOB_COMMITTED && jobs[1].status == STORE_JOB_COMMITTED &&
	    jobs[3].status == STORE_JOB_COMMITTED, "the jobs around the failing one committed");
	ok(jobs[2].status == STORE_JOB_FAILED, "the failing job is reported failed");
	ok(lookup(s, "AAAAAAAAAAAAAAAA") == STORE_OK && lookup(s, "BBBBBBBBBBBBBBBB") == STORE_OK &&
	    lookup(s, "DDDDDDDDDDDDDDDD") == STORE_OK, "what the others wrote is there");
	ok(lookup(s, "CCCCCCCCCCCCCCCC") == STORE_NOT_FOUND,
	    "nothing the failing job wrote survived (its key)");
	named(&n[2], "charlie", "EEEEEEEEEEEEEEEE", false);
	ok(store_call(s, account_job, &n[2]) == STORE_JOB_COMMITTED && !n[2].acct.name_taken,
	    "nor its account: the name is still free");

	/* A lone failing job. */
	named(&n[0], "echo", "FFFFFFFFFFFFFFFF", true);
	ok(store_call(s, account_job, &n[0]) == STORE_JOB_FAILED &&
	    lookup(s, "FFFFFFFFFFFFFFFF") == STORE_NOT_FOUND, "a lone failing job leaves nothing");

	/* One job per transaction. */
	store_set_batch_limit(s, 1);
	store_stats(s, &before);
	named(&n[0], "foxtrot", "GGGGGGGGGGGGGGGG", false);
	named(&n[1], "golf", "HHHHHHHHHHHHHHHH", false);
	ok(store_call(s, account_job, &n[0]) == STORE_JOB_COMMITTED &&
	    store_call(s, account_job, &n[1]) == STORE_JOB_COMMITTED, "with a batch limit of 1 jobs commit");
	store_stats(s, &after);
	ok(after.commits - before.commits == 2, "each in its own transaction");

	/* A job that finds a conflict reports it in its argument and commits. */
	named(&n[0], "alpha", "IIIIIIIIIIIIIIII", false);
	ok(store_call(s, account_job, &n[0]) == STORE_JOB_COMMITTED && n[0].acct.name_taken &&
	    lookup(s, "IIIIIIIIIIIIIIII") == STORE_NOT_FOUND,
	    "a taken name is the job's verdict, not a failure, and writes nothing");
	store_close(s);
	snprintf(err, sizeof err, "rm -rf %s", dir);
	if (system(err) != 0)
		diag("could not remove %s", dir);
	return tap_done();
}
