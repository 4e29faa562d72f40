/*
 * bench_hatetris.c: `bench hatetris [SECONDS]`, on the calling thread.
 *
 * The HATETRIS supplier's decision cost. The boards are realistic: runs of
 * the depth-1 supplier against a noisy greedy player (few holes, low stack,
 * lines), seeds 1-96, a snapshot every 4 placements, each with the run's
 * lines and its seen boards. The oracle is what a server would hold in
 * memory: the run's keys in a small open-addressing hash table.
 *
 * 1. depth 1: hatetris_choose over and over on every board; decisions/s,
 *    placements rated per decision, oracle questions per decision.
 * 2. depth 2: the same.
 * Then, at both depths, each board's decision time on its own (the least of
 * 5 runs) and its median, p99 and worst over the boards, since one decision
 * is what an HTTP action pays.
 * Each measurement runs for SECONDS (default 2) of CLOCK_MONOTONIC.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "hatetris.h"

#define MAX_BOARDS 1024
#define SET_SLOTS 1024 /* power of two, more than twice the longest run */

/* A run's seen boards as a server would keep them in memory. Each key
 * remembers when it was added, so that a snapshot taken earlier in the run
 * sees only the boards seen by then. */
struct keyset {
	uint8_t keys[SET_SLOTS][HATETRIS_KEY_BYTES];
	uint16_t added[SET_SLOTS]; /* 0: free; else 1 + order of addition */
	unsigned n;
	unsigned limit; /* while looking up: keys added before this count */
};

struct snapshot {
	struct tetromino_board board;
	uint32_t lines;
	struct keyset *seen;
	unsigned nseen; /* keys of the run when the snapshot was taken */
};

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static uint64_t
rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static unsigned
slot_of(const uint8_t key[HATETRIS_KEY_BYTES])
{
	uint32_t h = 2166136261u;
	unsigned i;

	for (i = 0; i < HATETRIS_KEY_BYTES; i++)
		h = (h ^ key[i]) * 16777619u;
	return h & (SET_SLOTS - 1);
}

static void
keyset_add(struct keyset *s, const uint8_t key[HATETRIS_KEY_BYTES])
{
	unsigned i = slot_of(key);

	while (s->added[i] != 0) {
		if (memcmp(s->keys[i], key, HATETRIS_KEY_BYTES) == 0)
			return;
		i = (i + 1) & (SET_SLOTS - 1);
	}
	s->added[i] = (uint16_t)(++s->n);
	memcpy(s->keys[i], key, HATETRIS_KEY_BYTES);
}

static bool
keyset_seen(void *ctx, const uint8_t key[HATETRIS_KEY_BYTES])
{
	const struct keyset *s = ctx;
	unsigned i = slot_of(key);

	while (s->added[i] != 0) {
		if (memcmp(s->keys[i], key, HATETRIS_KEY_BYTES) == 0)
			return s->added[i] <= s->limit;
		i = (i + 1) & (SET_SLOTS - 1);
	}
	return false;
}

static size_t
realistic_boards(struct snapshot *out, struct keyset *sets)
{
	struct tetromino_option opts[HATETRIS_OPTIONS_MAX];
	struct hatetris g;
	struct keyset *ks;
	uint8_t key[HATETRIS_KEY_BYTES];
	size_t n = 0, k, i, pick;
	long best, v;
	unsigned seed;

	for (seed = 1; seed <= 96 && n < MAX_BOARDS; seed++) {
		ks = &sets[seed - 1];
		memset(ks, 0, sizeof *ks);
		ks->limit = SET_SLOTS;
		hatetris_init(&g, 1, HATETRIS_NO_CAP, keyset_seen, ks);
		while (g.status == HATETRIS_PLAYING && n < MAX_BOARDS && ks->n < SET_SLOTS / 2) {
			if (g.pieces % 4 == 3) {
				out[n].board = g.board;
				out[n].lines = g.lines;
				out[n].seen = ks;
				out[n].nseen = ks->n;
				n++;
			}
			k = tetromino_options(&g.board, g.current, opts, HATETRIS_OPTIONS_MAX);
			pick = 0;
			best = 0;
			for (i = 0; i < k; i++) {
				v = opts[i].figures.holes * 20L + opts[i].figures.max_height * 4L +
				    opts[i].figures.bumpiness * 3L - opts[i].figures.lines * 60L +
				    (long)(rng() % (seed % 3 == 0 ? 40 : 8));
				if (i == 0 || v < best) {
					best = v;
					pick = i;
				}
			}
			hatetris_place(&g, opts[pick].rotation, opts[pick].column, keyset_seen, ks, NULL);
			hatetris_board_key(&g.board, key);
			keyset_add(ks, key);
		}
	}
	return n;
}

static void
cpu_model(char *buf, size_t cap)
{
	char line[256];
	FILE *f = fopen("/proc/cpuinfo", "r");
	char *colon;

	snprintf(buf, cap, "unknown CPU");
	if (f == NULL)
		return;
	while (fgets(line, sizeof line, f) != NULL)
		if (strncmp(line, "model name", 10) == 0 && (colon = strchr(line, ':')) != NULL) {
			colon += 2;
			colon[strcspn(colon, "\n")] = '\0';
			snprintf(buf, cap, "%s", colon);
			break;
		}
	fclose(f);
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct result {
	double per_second, placements, lookups, p50, p99, worst;
	double lookups_lines, lookups_most; /* on boards of runs with 2+ lines */
	unsigned long long decisions;
};

#define REPEATS 5

/* Throughput over SECONDS, then each board's own cost: the least of
 * REPEATS timed decisions, so that a shared machine's preemptions (which
 * any single timing may include) do not pass for the supplier's cost. */
static void
measure(struct snapshot *boards, size_t nboards, unsigned depth, double seconds,
    struct result *res, unsigned long long *checksum)
{
	struct hatetris_choice d;
	double t0, t, start, least, *times;
	size_t i, k, nlines = 0;
	unsigned long long placements = 0, lookups = 0, lookups_lines = 0;

	times = malloc(nboards * sizeof *times);
	if (times == NULL)
		abort();
	res->decisions = 0;
	res->lookups_most = 0;
	t0 = now();
	do {
		for (i = 0; i < nboards; i++) {
			boards[i].seen->limit = boards[i].nseen;
			hatetris_choose(&boards[i].board, boards[i].lines, depth, keyset_seen,
			    boards[i].seen, &d);
			placements += d.placements;
			lookups += d.lookups;
			*checksum += d.piece;
		}
		res->decisions += nboards;
		t = now();
	} while (t - t0 < seconds);
	res->per_second = (double)res->decisions / (t - t0);
	res->placements = (double)placements / (double)res->decisions;
	res->lookups = (double)lookups / (double)res->decisions;

	for (i = 0; i < nboards; i++) {
		boards[i].seen->limit = boards[i].nseen;
		least = 1e9;
		for (k = 0; k < REPEATS; k++) {
			start = now();
			hatetris_choose(&boards[i].board, boards[i].lines, depth, keyset_seen,
			    boards[i].seen, &d);
			t = now() - start;
			if (t < least)
				least = t;
		}
		times[i] = least;
		*checksum += d.piece;
		if (boards[i].lines >= 2) {
			nlines++;
			lookups_lines += d.lookups;
			if (d.lookups > res->lookups_most)
				res->lookups_most = d.lookups;
		}
	}
	res->lookups_lines = nlines > 0 ? (double)lookups_lines / (double)nlines : 0;
	qsort(times, nboards, sizeof *times, cmp_double);
	res->p50 = times[nboards / 2] * 1e6;
	res->p99 = times[nboards * 99 / 100] * 1e6;
	res->worst = times[nboards - 1] * 1e6;
	free(times);
}

int
bench_hatetris(int argc, char **argv)
{
	static struct snapshot boards[MAX_BOARDS];
	static struct keyset sets[96];
	struct result r1, r2;
	double seconds = argc > 0 ? atof(argv[0]) : 2.0;
	size_t nboards, i, with_lines = 0;
	unsigned long long checksum = 0;
	double height = 0;
	char cpu[160], date[64];
	time_t wall = time(NULL);
	struct tetromino_figures f;

	if (seconds <= 0)
		seconds = 2.0;
	nboards = realistic_boards(boards, sets);
	for (i = 0; i < nboards; i++) {
		with_lines += boards[i].lines >= 2;
		tetromino_board_figures(&boards[i].board, &f);
		height += f.max_height;
	}
	measure(boards, nboards, 1, seconds, &r1, &checksum);
	measure(boards, nboards, 2, seconds, &r2, &checksum);

	cpu_model(cpu, sizeof cpu);
	strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&wall));
	printf("## bench hatetris\n\n");
	printf("%s, %ld cores online (one used), %s\n\n", cpu, sysconf(_SC_NPROCESSORS_ONLN), date);
	printf("%zu boards from 96 runs (mean stack height %.1f, %zu with 2+ lines so that the "
	    "oracle is asked)\n\n", nboards, height / (double)nboards, with_lines);
	printf("| measure | depth 1 | depth 2 |\n|---|---|---|\n");
	printf("| decisions/s | %.0f | %.0f |\n", r1.per_second, r2.per_second);
	printf("| decision time over boards: median, µs | %.1f | %.1f |\n", r1.p50, r2.p50);
	printf("| decision time over boards: p99, µs | %.1f | %.1f |\n", r1.p99, r2.p99);
	printf("| decision time over boards: worst, µs | %.1f | %.1f |\n", r1.worst, r2.worst);
	printf("| placements rated per decision | %.1f | %.1f |\n", r1.placements, r2.placements);
	printf("| oracle questions per decision | %.2f | %.2f |\n", r1.lookups, r2.lookups);
	printf("| the same on boards of runs with 2+ lines: mean | %.1f | %.1f |\n",
	    r1.lookups_lines, r2.lookups_lines);
	printf("| the same on boards of runs with 2+ lines: most | %.0f | %.0f |\n\n",
	    r1.lookups_most, r2.lookups_most);
	fprintf(stderr, "(checksum %llu)\n", checksum);
	return 0;
}
