/*
 * bench_stackfall.c: `bench stackfall [SECONDS]`, on the calling thread.
 *
 * 1. options throughput: a fixed set of mid-game boards (seeds 1-64 played by
 *    a greedy policy, snapshots after 10, 25, 40, 55, 70 and 85 pieces) and,
 *    over and over, stackfall_options() for each, counting placements
 *    evaluated with their four figures.
 * 2. complete random games: from seed 1 up, every turn picks a random option
 *    (1 turn in 10 tries a hold) until the run ends; the piece stream (one
 *    SHA-512 and one MT19937 seeding per bag) is part of the cost.
 * Each measurement runs for SECONDS (default 2) of CLOCK_MONOTONIC.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "stackfall.h"

#define MAX_BOARDS 384

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t rng_state = 0x2545f4914f6cdd1du;

static uint64_t
rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static size_t
mid_game_boards(struct stackfall *out)
{
	struct tetromino_option opts[STACKFALL_OPTIONS_MAX];
	struct stackfall g;
	size_t n = 0, k, i, pick;
	long best, v;
	uint64_t seed;

	for (seed = 1; seed <= 64; seed++) {
		stackfall_init(&g, seed);
		while (g.status == STACKFALL_PLAYING && n < MAX_BOARDS) {
			if (g.placed % 15 == 10 && g.placed <= 85 && g.can_hold)
				out[n++] = g;
			stackfall_options(&g, opts, STACKFALL_OPTIONS_MAX, &k, NULL);
			if (k == 0) {
				stackfall_hold(&g, NULL);
				continue;
			}
			pick = 0;
			best = 0;
			for (i = 0; i < k; i++) {
				v = opts[i].figures.holes * 8L + opts[i].figures.max_height * 2L +
				    opts[i].figures.bumpiness - opts[i].figures.lines * 3L +
				    (long)(rng() % 6);
				if (i == 0 || v < best) {
					best = v;
					pick = i;
				}
			}
			stackfall_place(&g, opts[pick].rotation, opts[pick].column, NULL);
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

int
bench_stackfall(int argc, char **argv)
{
	static struct stackfall boards[MAX_BOARDS];
	struct tetromino_option opts[STACKFALL_OPTIONS_MAX];
	struct stackfall g;
	double seconds = argc > 0 ? atof(argv[0]) : 2.0, t0, t, opt_time, game_time;
	size_t nboards, i, k;
	unsigned long long evaluated = 0, calls = 0, games = 0, pieces = 0, checksum = 0;
	uint64_t seed = 1;
	char cpu[160], date[64];
	time_t wall = time(NULL);

	if (seconds <= 0)
		seconds = 2.0;
	nboards = mid_game_boards(boards);

	t0 = now();
	do {
		for (i = 0; i < nboards; i++) {
			stackfall_options(&boards[i], opts, STACKFALL_OPTIONS_MAX, &k, NULL);
			evaluated += k;
			checksum += opts[k / 2].figures.holes + opts[0].figures.bumpiness;
		}
		calls += nboards;
		t = now();
	} while (t - t0 < seconds);
	opt_time = t - t0;

	t0 = now();
	do {
		stackfall_init(&g, seed++);
		while (g.status == STACKFALL_PLAYING) {
			if (rng() % 10 == 0 && g.can_hold) {
				stackfall_hold(&g, NULL);
				continue;
			}
			stackfall_options(&g, opts, STACKFALL_OPTIONS_MAX, &k, NULL);
			if (k == 0) {
				/* still playing: only the hold alternative fits */
				stackfall_hold(&g, NULL);
				continue;
			}
			i = (size_t)(rng() % k);
			stackfall_place(&g, opts[i].rotation, opts[i].column, NULL);
		}
		games++;
		pieces += g.placed;
		t = now();
	} while (t - t0 < seconds);
	game_time = t - t0;

	cpu_model(cpu, sizeof cpu);
	strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&wall));
	printf("## bench stackfall\n\n");
	printf("%s, %ld cores online (one used), %s\n\n", cpu, sysconf(_SC_NPROCESSORS_ONLN), date);
	printf("| measure | figure |\n|---|---|\n");
	printf("| mid-game boards | %zu |\n", nboards);
	printf("| options calls/s | %.0f |\n", (double)calls / opt_time);
	printf("| placements evaluated/s (4 figures each) | %.1f million |\n",
	    (double)evaluated / opt_time / 1e6);
	printf("| mean placements per call | %.1f |\n", (double)evaluated / (double)calls);
	printf("| random complete games/s | %.0f |\n", (double)games / game_time);
	printf("| mean pieces per random game | %.1f |\n", (double)pieces / (double)games);
	fprintf(stderr, "(checksum %llu)\n", checksum);
	return 0;
}
