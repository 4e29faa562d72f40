/*
 * bench_stackcraft.c: `bench stackcraft [SECONDS]`, on the calling thread.
 *
 * 1. legal-move enumeration: a fixed set of mid-game boards (seeds 1-64
 *    played by a greedy policy, snapshots after 10, 25, 40, 55, 70 and 85
 *    pieces) and, over and over, stackcraft_legal() for each, counting the
 *    placements listed (each with its id, landing row and four cells).
 * 2. afterboard evaluation, the work of a one-ply bot: for the same boards,
 *    the legal list and then stackcraft_place() of every entry into a
 *    scratch board (the placement, its cleared rows and the shifted board),
 *    counting placements evaluated.
 * 3. the JSON of an answer: stackcraft_state_json and stackcraft_legal_json
 *    of each mid-game board, dumped compactly (what a move's response
 *    carries besides the envelope).
 * 4. complete random games: from seed 1 up, no cap, a uniformly random legal
 *    move every turn until the top-out; the piece stream (one SHA-512 and
 *    one MT19937 seeding per bag) is part of the cost.
 * Each measurement runs for SECONDS (default 2) of this thread's CPU time
 * (CLOCK_THREAD_CPUTIME_ID), so that the figures are per core even on a
 * machine shared with other work; the share of wall time the thread got is
 * printed beside them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "bench.h"
#include "stackcraft_json.h"

#define MAX_BOARDS 384

static double
clock_seconds(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double
now(void)
{
	return clock_seconds(CLOCK_THREAD_CPUTIME_ID);
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

/* Holes and height of an afterboard, for the greedy policy. */
static long
badness(const struct tetromino_board *b, int lines)
{
	uint8_t h[TETROMINO_COLS];
	long holes = 0, top = 0;
	unsigned c, r;

	tetromino_board_heights(b, h);
	for (c = 0; c < TETROMINO_COLS; c++) {
		if (h[c] > top)
			top = h[c];
		for (r = 0; r < h[c]; r++)
			holes += tetromino_board_get(b, r, c) == 0;
	}
	return holes * 8 + top * 2 - lines * 3 + (long)(rng() % 6);
}

static size_t
mid_game_boards(struct stackcraft *out)
{
	struct stackcraft_action a[STACKCRAFT_LEGAL_MAX];
	struct tetromino_board after;
	struct stackcraft g;
	size_t n = 0, k, i, pick;
	long best, v;
	uint64_t seed;
	int lines;

	for (seed = 1; seed <= 64; seed++) {
		stackcraft_init(&g, seed, 0);
		while (g.status == STACKCRAFT_PLAYING && n < MAX_BOARDS && g.pieces <= 85) {
			if (g.pieces % 15 == 10)
				out[n++] = g;
			k = stackcraft_legal(&g, a, STACKCRAFT_LEGAL_MAX);
			pick = 0;
			best = 0;
			for (i = 0; i < k; i++) {
				lines = stackcraft_place(&g.board, g.current, &a[i], &after);
				v = badness(&after, lines);
				if (i == 0 || v < best) {
					best = v;
					pick = i;
				}
			}
			stackcraft_step(&g, a[pick].rotation, a[pick].x, NULL);
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
bench_stackcraft(int argc, char **argv)
{
	static struct stackcraft boards[MAX_BOARDS];
	struct stackcraft_action a[STACKCRAFT_LEGAL_MAX];
	struct tetromino_board after;
	struct stackcraft g;
	double seconds = argc > 0 ? atof(argv[0]) : 2.0, t0, t, legal_time, eval_time, game_time;
	double json_time;
	unsigned long long answers = 0, json_bytes = 0;
	double wall0 = clock_seconds(CLOCK_MONOTONIC), cpu0 = now();
	size_t nboards, i, k, j;
	unsigned long long listed = 0, calls = 0, evaluated = 0, eval_calls = 0, games = 0,
	    pieces = 0, checksum = 0;
	uint64_t seed = 1;
	char cpu[160], date[64];
	time_t wall = time(NULL);

	if (seconds <= 0)
		seconds = 2.0;
	nboards = mid_game_boards(boards);

	t0 = now();
	do {
		for (i = 0; i < nboards; i++) {
			k = stackcraft_legal(&boards[i], a, STACKCRAFT_LEGAL_MAX);
			listed += k;
			checksum += a[k / 2].y + a[0].cells[3][1];
		}
		calls += nboards;
		t = now();
	} while (t - t0 < seconds);
	legal_time = t - t0;

	t0 = now();
	do {
		for (i = 0; i < nboards; i++) {
			k = stackcraft_legal(&boards[i], a, STACKCRAFT_LEGAL_MAX);
			for (j = 0; j < k; j++)
				checksum += (unsigned)stackcraft_place(&boards[i].board,
				    boards[i].current, &a[j], &after) + after.rows[0];
			evaluated += k;
		}
		eval_calls += nboards;
		t = now();
	} while (t - t0 < seconds);
	eval_time = t - t0;

	t0 = now();
	do {
		for (i = 0; i < nboards; i++) {
			json_t *o = json_object();
			char *text;

			json_object_set_new_nocheck(o, "state", stackcraft_state_json(&boards[i]));
			json_object_set_new_nocheck(o, "legalActions", stackcraft_legal_json(&boards[i]));
			text = json_dumps(o, JSON_COMPACT);
			json_bytes += strlen(text);
			free(text);
			json_decref(o);
		}
		answers += nboards;
		t = now();
	} while (t - t0 < seconds);
	json_time = t - t0;

	t0 = now();
	do {
		stackcraft_init(&g, seed++, 0);
		while (g.status == STACKCRAFT_PLAYING) {
			k = stackcraft_legal(&g, a, STACKCRAFT_LEGAL_MAX);
			i = (size_t)(rng() % k);
			stackcraft_step(&g, a[i].rotation, a[i].x, NULL);
		}
		games++;
		pieces += g.pieces;
		t = now();
	} while (t - t0 < seconds);
	game_time = t - t0;

	cpu_model(cpu, sizeof cpu);
	strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&wall));
	printf("## bench stackcraft\n\n");
	printf("%s, %ld cores online (one used), %s; figures per second of thread CPU time, "
	    "the thread had %.0f %% of the wall time\n\n", cpu, sysconf(_SC_NPROCESSORS_ONLN), date,
	    100.0 * (now() - cpu0) / (clock_seconds(CLOCK_MONOTONIC) - wall0));
	printf("| measure | figure |\n|---|---|\n");
	printf("| mid-game boards | %zu |\n", nboards);
	printf("| legal enumerations/s | %.0f |\n", (double)calls / legal_time);
	printf("| legal placements listed/s (id, landing y, 4 cells) | %.1f million |\n",
	    (double)listed / legal_time / 1e6);
	printf("| mean legal placements per board | %.1f |\n", (double)listed / (double)calls);
	printf("| placements evaluated/s (legal list + afterboard with clears) | %.1f million |\n",
	    (double)evaluated / eval_time / 1e6);
	printf("| state + legalActions JSON built and dumped/s | %.0f (%.0f bytes each) |\n",
	    (double)answers / json_time, (double)json_bytes / (double)answers);
	printf("| random complete games/s | %.0f |\n", (double)games / game_time);
	printf("| mean pieces per random game | %.1f |\n", (double)pieces / (double)games);
	fprintf(stderr, "(checksum %llu, %llu evaluation rounds)\n", checksum, eval_calls);
	return 0;
}
