/*
 * bench_board.c: `bench board [RUNS]` fills a fresh database with RUNS runs
 * (default one million; half Stackfall, half Duskcourt, most of them over,
 * a third reviewed) through the daemon's own store code, then times the
 * leaderboard and review queries the daemon serves: first pages, pages deep
 * behind a cursor, the seed filter, and the review count and average.
 * Prints a Markdown table of median and 99th-percentile times.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "log.h"
#include "store.h"

#define BATCH 20000

struct fill {
	int64_t  from, count;
	uint64_t rng;
	int64_t  reviews;
};

static uint64_t
next_rand(uint64_t *s)
{
	/* splitmix64: a bench-local, reproducible stream. */
	uint64_t z = (*s += 0x9e3779b97f4a7c15u);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

static enum store_result
fill_job(struct store_conn *c, void *arg)
{
	static const uint8_t state[16];
	struct fill *f = arg;
	int64_t i;

	for (i = 0; i < f->count; i++) {
		struct store_run_new r;
		uint64_t x = next_rand(&f->rng);
		bool sf = x & 1, over = (x >> 1) % 10 < 8;

		memset(&r, 0, sizeof r);
		r.game = sf ? "stackfall" : "duskcourt";
		r.rules = sf ? "stackfall-v1" : "duskcourt-v1";
		r.seed_chosen = (x >> 5) & 1;
		r.seed = r.seed_chosen ? (int64_t)((x >> 8) % 1000) : (int64_t)((x >> 8) & 0xffffffffff);
		r.state = state;
		r.nstate = sizeof state;
		r.sum.status = over ? (sf ? "over" : "done") : "playing";
		r.sum.over = over;
		r.sum.score = (int64_t)((x >> 20) % 20000);
		r.sum.lines = sf ? (int64_t)((x >> 36) % 120) : -1;
		r.sum.pieces = sf ? (int64_t)((x >> 44) % 151) : -1;
		r.sum.rung = sf ? -1 : (int64_t)((x >> 36) % 40 + 1);
		r.sum.lives = sf ? -1 : (int64_t)((x >> 44) % 4);
		/* The games' own leaderboard keys (their descriptors' summaries). */
		r.sum.rank[0] = r.sum.score;
		r.sum.rank[1] = sf ? r.sum.lines : r.sum.rung;
		r.sum.rank[2] = sf ? -r.sum.pieces : 0;
		r.now = 1700000000000 + f->from + i;
		if (store_run_insert(c, &r) != STORE_OK)
			return STORE_ERROR;
		if (over && (x >> 52) % 3 == 0) {
			struct store_run_finish fin = {
				.id = r.id, .game = r.game, .rating = (int)((x >> 56) % 10) + 1,
				.review = "A benchmark review of a few words.", .certificate = "v4.public.bench",
				.now = r.now, .listed = true,
			};

			if (store_run_finish(c, &fin) == STORE_ERROR)
				return STORE_ERROR;
			f->reviews++;
		}
	}
	return STORE_OK;
}

static int
cmp64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

static int64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

#define SAMPLES 2000

static void
report(const char *what, int64_t *ns, int n)
{
	qsort(ns, (size_t)n, sizeof ns[0], cmp64);
	printf("| %-52s | %8.1f | %8.1f |\n", what, (double)ns[n / 2] / 1000.0,
	    (double)ns[(n * 99) / 100] / 1000.0);
}

int
bench_board(int argc, char **argv)
{
	static struct store_board_entry rows[STORE_PAGE_MAX];
	static struct store_review_row rev[STORE_PAGE_MAX];
	static int64_t ns[SAMPLES];
	int64_t runs = argc > 0 ? atoll(argv[0]) : 1000000, done, t0, reviews = 0, count, total;
	char dir[] = "/tmp/arcaded-bench-XXXXXX", path[256], err[512];
	struct store *s;
	struct store_conn *c;
	uint64_t rng = 42;
	int i, n, limit;

	if (runs < 1000 || mkdtemp(dir) == NULL) {
		fprintf(stderr, "usage: bench board [RUNS >= 1000]\n");
		return 2;
	}
	log_set_level(LOG_WARN);
	snprintf(path, sizeof path, "%s/bench.db", dir);
	s = store_open(path, SYNC_NORMAL, 1, err, sizeof err);
	if (s == NULL) {
		fprintf(stderr, "bench board: %s\n", err);
		return 1;
	}
	t0 = now_ns();
	for (done = 0; done < runs; done += BATCH) {
		struct fill f = { done, runs - done < BATCH ? runs - done : BATCH, rng, 0 };

		if (store_call(s, fill_job, &f) != STORE_JOB_COMMITTED) {
			fprintf(stderr, "bench board: filling failed\n");
			return 1;
		}
		rng = f.rng;
		reviews += f.reviews;
	}
	printf("Filled %lld runs (%lld reviews) in %.1f s through the store's own inserts.\n\n",
	    (long long)runs, (long long)reviews, (double)(now_ns() - t0) / 1e9);
	printf("| query (reader connection, prepared statement) | p50 (µs) | p99 (µs) |\n");
	printf("|---|---|---|\n");

	c = store_reader(s);
	for (limit = 20; limit <= 100; limit += 80) {
		const char *games[2] = { "stackfall", "duskcourt" };
		char what[96];

		for (i = 0; i < SAMPLES; i++) {
			t0 = now_ns();
			store_leaderboard(c, games[i & 1], false, 0, NULL, limit, rows, &n);
			ns[i] = now_ns() - t0;
		}
		snprintf(what, sizeof what, "leaderboard, first page of %d", limit);
		report(what, ns, SAMPLES);
	}
	/* Deep pages: walk 200 pages of 100 behind the cursor, time each. */
	{
		struct store_board_cursor cur;
		int k = 0;

		memset(&cur, 0, sizeof cur);
		for (i = 0; i < 200; i++) {
			t0 = now_ns();
			store_leaderboard(c, "stackfall", false, 0, i ? &cur : NULL, 100, rows, &n);
			ns[k++] = now_ns() - t0;
			if (n < 100)
				break;
			memcpy(cur.keys, rows[n - 1].keys, sizeof cur.keys);
			cur.id = rows[n - 1].id;
		}
		report("leaderboard, pages 1-200 of 100 by cursor", ns, k);
	}
	for (i = 0; i < SAMPLES; i++) {
		t0 = now_ns();
		store_leaderboard(c, i & 1 ? "stackfall" : "duskcourt", true, (int64_t)(next_rand(&rng) % 1000),
		    NULL, 20, rows, &n);
		ns[i] = now_ns() - t0;
	}
	{
		char what[96];

		snprintf(what, sizeof what, "leaderboard ?seed=S (~%lld runs on S), first 20",
		    (long long)(runs / 5000));
		report(what, ns, SAMPLES);
	}
	for (i = 0; i < SAMPLES; i++) {
		t0 = now_ns();
		store_reviews(c, i & 1 ? "stackfall" : "duskcourt", false, 0, 20, rev, &n, &count, &total);
		ns[i] = now_ns() - t0;
		store_reviews_free(rev, n);
	}
	report("reviews, first page of 20 with count and average", ns, SAMPLES);
	{
		int64_t before = 0;
		int k = 0;

		for (i = 0; i < 200; i++) {
			t0 = now_ns();
			store_reviews(c, "stackfall", i > 0, before, 100, rev, &n, &count, &total);
			ns[k++] = now_ns() - t0;
			if (n == 0)
				break;
			before = rev[n - 1].id;
			store_reviews_free(rev, n);
		}
		report("reviews, pages 1-200 of 100 by cursor", ns, k);
	}
	store_reader_release(s, c);
	store_close(s);
	snprintf(err, sizeof err, "%s-wal", path);
	unlink(err);
	snprintf(err, sizeof err, "%s-shm", path);
	unlink(err);
	unlink(path);
	rmdir(dir);
	return 0;
}
