/*
 * bench_facts.c: `bench facts` times what a HATETRIS action adds to a
 * request for its seen boards, through the daemon's own code on a fresh
 * database: the writer's insert of one board key per move (inside a
 * transaction of 64 moves, as group commit batches them), the HTTP
 * thread's one read of a run's keys into an in-memory set for runs of 50
 * to 5000 moves (server/play_facts.c, the first question of a request), and a
 * question answered from that set. Prints a Markdown table: medians of 15
 * repetitions (60 for the read, with the least of them too: on a shared
 * machine the tail is other jobs' preemption, not this code).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "bench.h"
#include "play_facts.h"
#include "hatetris_json.h"
#include "log.h"
#include "store.h"

#define REPS 15

static double
now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* A board key that differs per step (the bench needs distinct keys, not
 * real boards). */
static void
key_of(int64_t run, int64_t step, uint8_t key[HATETRIS_KEY_BYTES])
{
	memset(key, 0, HATETRIS_KEY_BYTES);
	memcpy(key, &step, sizeof step);
	memcpy(key + 8, &run, sizeof run);
	key[24] = 0x5a;
}

struct fill {
	int64_t run, from, count;
};

static enum store_result
run_job(struct store_conn *c, void *arg)
{
	static const uint8_t state[1];
	struct store_run_new r;

	memset(&r, 0, sizeof r);
	r.game = "hatetris";
	r.rules = "hatetris-v1";
	r.state = state;
	r.nstate = sizeof state;
	r.sum.status = "playing";
	if (store_run_insert(c, &r) != STORE_OK)
		return STORE_ERROR;
	*(int64_t *)arg = r.id;
	return STORE_OK;
}

static enum store_result
fill_job(struct store_conn *c, void *arg)
{
	const struct fill *f = arg;
	uint8_t key[HATETRIS_KEY_BYTES];
	int64_t i;

	for (i = 0; i < f->count; i++) {
		key_of(f->run, f->from + i, key);
		if (store_fact_insert(c, f->run, f->from + i, key, sizeof key) != STORE_OK)
			return STORE_ERROR;
	}
	return STORE_OK;
}

int
bench_facts(int argc, char **argv)
{
	static const int64_t lengths[] = { 50, 200, 1000, 5000 };
	char dir[] = "/tmp/arcaded-bench-facts-XXXXXX", path[128], err[256];
	struct store *s;
	double t[REPS];
	size_t i;
	int r;

	(void)argc;
	(void)argv;
	if (sodium_init() < 0 || mkdtemp(dir) == NULL)
		return 1;
	log_set_level(LOG_ERROR);
	snprintf(path, sizeof path, "%s/facts.db", dir);
	if ((s = store_open(path, SYNC_NORMAL, 1, err, sizeof err)) == NULL) {
		fprintf(stderr, "bench facts: %s\n", err);
		return 1;
	}
	printf("| measure | figure |\n|---|---|\n");

	/* The writer's insert: 64 moves' keys in one job, as a batch commits them. */
	{
		int64_t run;
		struct fill f;

		store_call(s, run_job, &run);
		for (r = 0; r < REPS; r++) {
			double t0;

			f.run = run;
			f.from = 1 + (int64_t)r * 64;
			f.count = 64;
			t0 = now_us();
			store_call(s, fill_job, &f);
			t[r] = (now_us() - t0) / 64.0;
		}
		qsort(t, REPS, sizeof t[0], cmp_double);
		printf("| one key inserted by the writer (64 per transaction, commit included), µs | %.2f |\n",
		    t[REPS / 2]);
	}

	for (i = 0; i < sizeof lengths / sizeof lengths[0]; i++) {
		int64_t run;
		struct fill f;
		struct game_env env;
		struct facts fx;
		uint8_t key[HATETRIS_KEY_BYTES];
		double reads[REPS * 4];
		int nreads = 0, q, yes = 0;

		store_call(s, run_job, &run);
		f.run = run;
		f.from = 1;
		f.count = lengths[i];
		store_call(s, fill_job, &f);
		for (r = 0; r < REPS * 4; r++) {
			double t0 = now_us();

			play_facts_init(&fx, &game_hatetris, s, NULL, run, lengths[i]);
			play_facts_attach(&fx, &env);
			key_of(run, 1, key);
			yes += env.fact_known(env.facts_ctx, key);
			reads[nreads++] = now_us() - t0;
			play_facts_cleanup(&fx);
		}
		qsort(reads, (size_t)nreads, sizeof reads[0], cmp_double);
		printf("| run of %lld moves: the read of its keys into a set, least / median, µs | %.1f / %.1f |\n",
		    (long long)lengths[i], reads[0], reads[nreads / 2]);

		/* Questions: 2,200 per decision (depth 2's most), nearly all absent. */
		play_facts_init(&fx, &game_hatetris, s, NULL, run, lengths[i]);
		play_facts_attach(&fx, &env);
		for (r = 0; r < REPS; r++) {
			double t0 = now_us();

			for (q = 0; q < 2200; q++) {
				key_of(run, q % 7 == 0 ? 1 + q % lengths[i] : 100000 + q, key);
				yes += env.fact_known(env.facts_ctx, key);
			}
			t[r] = now_us() - t0;
		}
		play_facts_cleanup(&fx);
		qsort(t, REPS, sizeof t[0], cmp_double);
		printf("| run of %lld moves: 2,200 questions from the set, µs (%.0f ns each) | %.1f |\n",
		    (long long)lengths[i], t[REPS / 2] * 1000.0 / 2200.0, t[REPS / 2]);
		if (yes == 0)
			fprintf(stderr, "bench facts: no key was found\n");
	}
	store_close(s);
	unlink(path);
	snprintf(err, sizeof err, "%s-wal", path);
	unlink(err);
	snprintf(err, sizeof err, "%s-shm", path);
	unlink(err);
	rmdir(dir);
	return 0;
}
