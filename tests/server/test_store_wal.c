/*
 * test_store_wal.c: SQLite's WAL stays bounded under continuous writes.
 * Commits never checkpoint; the checkpointer thread, woken by the WAL hook
 * at 1000 pages, copies the WAL beside the writer and then restarts it
 * holding the writer briefly (store.c). Each commit here creates an
 * account and its key (new rows in two tables and their indexes: a few
 * 4 KiB pages in the WAL every commit; a commit that changes no byte
 * writes no page, so the probe row would not do). Without checkpoints,
 * 20,000 of them leave a WAL of hundreds of megabytes; with them the -wal
 * file must stay within a few checkpoints' worth. The writer is kept busy
 * without pause, one commit after another.
 *
 * The bound asserted is the design's: past 8000 frames (32 MiB of 4 KiB
 * pages, 8 times the wake-up threshold) the writer waits for the
 * checkpointer, so a slow disk slows the writes instead of growing the
 * WAL; 48 MB leaves room for the frames' headers and one more commit.
 * Without the wait, this test's WAL reached 200 MB on a loaded machine;
 * without the RESTART (a checkpoint that never holds the writer) it never
 * restarts at all.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "store.h"
#include "tap.h"

#define COMMITS 20000
#define BOUND (48u * 1000 * 1000)

int
main(void)
{
	char dir[] = "/tmp/arcaded-wal-XXXXXX", path[256], err[512], wal[300];
	struct store_stats st;
	struct store *s;
	uint64_t most = 0, frames = 0;
	int i, failed = 0;

	if (mkdtemp(dir) == NULL)
		return 1;
	log_set_level(LOG_WARN);
	snprintf(path, sizeof path, "%s/wal.db", dir);
	s = store_open(path, SYNC_NORMAL, 1, err, sizeof err);
	if (!ok(s != NULL, "the store opens (%s)", s ? "ok" : err))
		return tap_done();
	store_set_batch_limit(s, 1); /* a commit per job: as many commits as can be */
	for (i = 0; i < COMMITS; i++) {
		struct store_account_new a;
		char name[32];

		memset(&a, 0, sizeof a);
		snprintf(name, sizeof name, "wal_%d", i);
		snprintf(a.key_id, sizeof a.key_id, "k%015d", i);
		a.name = name;
		a.now = i;
		if (store_call(s, store_account_create, &a) != STORE_JOB_COMMITTED || a.name_taken)
			failed++;
		if (i % 50 == 0) {
			store_stats(s, &st);
			if (st.wal_bytes > most)
				most = st.wal_bytes;
			if (st.wal_frames > frames)
				frames = st.wal_frames;
		}
	}
	store_stats(s, &st);
	ok(failed == 0, "%d commits, none failed (%d)", COMMITS, failed);
	ok(st.commits >= COMMITS, "the writer committed each job on its own (%llu commits)",
	    (unsigned long long)st.commits);
	ok(st.checkpoints >= 3, "the checkpointer restarted the WAL %llu times (%llu found readers "
	    "in the way)", (unsigned long long)st.checkpoints, (unsigned long long)st.checkpoint_busy);
	ok(most > 0 && most <= BOUND, "the -wal file stayed within %u MB: at most %.1f MB, %llu frames "
	    "after a commit; the writer waited for a checkpoint %llu times", BOUND / 1000000, most / 1e6,
	    (unsigned long long)frames, (unsigned long long)st.checkpoint_waits);
	ok(st.checkpoint_at_ms > 0 && st.checkpoint_hold_us < 5000000,
	    "the last checkpoint is dated and held the writer %llu us",
	    (unsigned long long)st.checkpoint_hold_us);
	store_close(s);
	snprintf(wal, sizeof wal, "%s-wal", path);
	ok(access(wal, F_OK) != 0 || unlink(wal) == 0, "closing folds the WAL in");
	unlink(path);
	rmdir(dir);
	return tap_done();
}
