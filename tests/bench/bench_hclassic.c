/*
 * bench_hclassic.c: `bench hatetris-classic [SECONDS] [RECORDS.JSON]`, on the
 * calling thread.
 *
 * The hatetris-classic engine's costs, on the published records of
 * tests/hatetris_classic/data/records.json (the default path, relative to
 * the repository's root):
 * 1. keys that only move (L R U on the live piece, no lock): keys/s;
 * 2. replaying every record string (decode and play under the current
 *    supplier, with an in-memory hash map as the run's memory): keys/s,
 *    and the time to replay the longest record (the least of 5 runs);
 * 3. the supplier alone on every current well those replays met:
 *    decisions/s, and each well's decision time (least of 5) as median,
 *    p99 and worst, with the landings searched per decision.
 * Each throughput measurement runs for SECONDS (default 2) of
 * CLOCK_MONOTONIC.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "hatetris_classic.h"
#include "hatetris_classic_replay.h"
#include "memo.h"

#define MAX_WELLS 4096

struct snapshot {
	uint16_t well[HCLASSIC_ROWS];
	uint32_t lines;
};

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Decodes and plays one replay; the wells of its supplier calls go to
 * snaps when given. Returns the keys played. */
static size_t
replay(const char *s, struct memo *m, struct snapshot *snaps, size_t *nsnaps, uint32_t *lines)
{
	struct hclassic_memory mem = memo_iface(m);
	struct hclassic g;
	struct hclassic_report rep;
	static char keys[1 << 20];
	size_t nkeys = 0, i;

	if (hclassic_replay_decode(s, strlen(s), keys, sizeof keys, &nkeys, NULL) !=
	    HCLASSIC_REPLAY_OK || nkeys > sizeof keys)
		return 0;
	memo_clear(m);
	hclassic_start(&g, HCLASSIC_CURRENT, &mem, NULL);
	if (!snaps) {
		hclassic_keys(&g, keys, nkeys, &mem, &rep);
	} else {
		for (i = 0; i < nkeys && !g.over; i++) {
			uint32_t before = g.pieces;

			if (*nsnaps < MAX_WELLS && i == 0) {
				memset(&snaps[*nsnaps], 0, sizeof snaps[0]);
				(*nsnaps)++;
			}
			hclassic_keys(&g, keys + i, 1, &mem, &rep);
			if (g.pieces != before && *nsnaps < MAX_WELLS) {
				memcpy(snaps[*nsnaps].well, g.well, sizeof g.well);
				snaps[*nsnaps].lines = g.lines;
				(*nsnaps)++;
			}
		}
	}
	if (lines)
		*lines = g.lines;
	return g.keys;
}

int
bench_hclassic(int argc, char **argv)
{
	double seconds = argc > 0 ? atof(argv[0]) : 2.0;
	const char *path = argc > 1 ? argv[1] : "tests/hatetris_classic/data/records.json";
	static struct snapshot snaps[MAX_WELLS];
	static double times[MAX_WELLS];
	struct hclassic_memory nomem = { 0 };
	struct memo m;
	json_error_t err;
	json_t *root, *cases, *c;
	const char *longest = NULL, *strings[64];
	size_t nsnaps = 0, nstrings = 0, i, most = 0, calls, landings = 0;
	uint64_t nkeys;
	uint32_t lines = 0;
	double t0, t, best_long = 1e9, checksum = 0;
	int k;

	if (seconds <= 0)
		seconds = 2.0;
	root = json_load_file(path, 0, &err);
	if (!root) {
		fprintf(stderr, "bench hatetris-classic: %s: %s\n", path, err.text);
		return 1;
	}
	cases = json_object_get(root, "cases");
	json_array_foreach(cases, i, c) {
		const char *s = json_string_value(json_object_get(c, "replay"));
		size_t n = (size_t)json_integer_value(json_object_get(c, "keys"));

		if (!s || nstrings == 64)
			continue;
		strings[nstrings++] = s;
		if (n > most) {
			most = n;
			longest = s;
		}
	}
	memo_init(&m);

	/* 1. Moves only. */
	{
		struct hclassic g;
		struct hclassic_report rep;
		static char moves[4096];

		for (i = 0; i < sizeof moves; i++)
			moves[i] = "LRUURLUU"[i % 8];
		hclassic_start(&g, HCLASSIC_CURRENT, &nomem, NULL);
		nkeys = 0;
		t0 = now();
		do {
			hclassic_keys(&g, moves, sizeof moves, &nomem, &rep);
			nkeys += rep.applied;
			g.keys = 0;
			t = now();
		} while (t - t0 < seconds);
		checksum += g.x;
		printf("| moves only (L R U, no lock) | %.0f keys/s |\n", (double)nkeys / (t - t0));
	}

	/* 2. Replays. */
	nkeys = 0;
	t0 = now();
	do {
		for (i = 0; i < nstrings; i++)
			nkeys += replay(strings[i], &m, NULL, NULL, NULL);
		t = now();
	} while (t - t0 < seconds);
	printf("| replaying the %zu record strings (decode and play) | %.0f keys/s |\n", nstrings,
	    (double)nkeys / (t - t0));
	for (k = 0; k < 5 && longest; k++) {
		double a = now(), b;

		replay(longest, &m, NULL, NULL, &lines);
		b = now() - a;
		if (b < best_long)
			best_long = b;
	}
	printf("| the longest record (%zu keys, %u lines): replay time | %.2f ms |\n", most, lines,
	    best_long * 1e3);

	/* 3. The supplier on the wells the replays met. */
	for (i = 0; i < nstrings; i++)
		replay(strings[i], &m, snaps, &nsnaps, NULL);
	{
		struct hclassic_memory mem = memo_iface(&m);
		struct hclassic_choice ch;

		calls = 0;
		t0 = now();
		do {
			for (i = 0; i < nsnaps; i++) {
				checksum += hclassic_choose(snaps[i].well, snaps[i].lines,
				    HCLASSIC_CURRENT, &mem, &ch);
				calls++;
			}
			t = now();
		} while (t - t0 < seconds);
		printf("| supplier decisions on %zu wells | %.0f decisions/s |\n", nsnaps,
		    (double)calls / (t - t0));
		for (i = 0; i < nsnaps; i++) {
			double bestt = 1e9;

			for (k = 0; k < 5; k++) {
				double a = now(), b;

				hclassic_choose(snaps[i].well, snaps[i].lines, HCLASSIC_CURRENT, &mem,
				    &ch);
				b = now() - a;
				if (b < bestt)
					bestt = b;
			}
			times[i] = bestt;
			for (k = 0; k < HCLASSIC_NPIECES; k++)
				landings += ch.landings[k];
		}
		qsort(times, nsnaps, sizeof times[0], cmp_double);
		if (nsnaps) {
			printf("| decision time: median / p99 / worst | %.1f / %.1f / %.1f µs |\n",
			    times[nsnaps / 2] * 1e6, times[nsnaps * 99 / 100] * 1e6,
			    times[nsnaps - 1] * 1e6);
			printf("| locks found per decision (seven searches) | %.1f |\n",
			    (double)landings / (double)nsnaps);
		}
	}
	fprintf(stderr, "checksum %.0f\n", checksum);
	memo_cleanup(&m);
	json_decref(root);
	return 0;
}
