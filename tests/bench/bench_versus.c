/*
 * bench_versus.c: `bench versus [SECONDS]`, on the calling thread.
 *
 * Complete matches of 2, 4 and 8 players from seed 1 up, every bot placing
 * by a small greedy rule on tetromino_options (1 move in 10 after a hold),
 * until one is left. Only versus_resolve() and versus_check_move() are
 * timed (CLOCK_MONOTONIC around each call, about 20 ns of it overhead), so
 * the figures are the engine's cost per turn as the server would pay it;
 * the bots' choices are not. Every resolved turn is also encoded and
 * decoded (versus_serial.c), as the server stores and reads a match's row,
 * and those calls are timed the same way. Then glicko2_match() for 8
 * players. Each measurement runs for SECONDS (default 2) of bot and engine
 * time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "glicko2.h"
#include "versus.h"

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

static struct versus_move
greedy(const struct versus_player *p)
{
	struct tetromino_option o[TETROMINO_OPTIONS_MAX];
	struct versus_move mv = { VERSUS_MOVE_PLACE, false, 0, 0, 0 };
	unsigned piece;
	size_t n, i, pick = 0;
	long v, best = 0;

	mv.hold = rng() % 10 == 0;
	piece = mv.hold ? versus_hold_piece(p) : p->current;
	n = tetromino_options(&p->board, piece, o, TETROMINO_OPTIONS_MAX);
	if (n == 0) {
		mv.hold = !mv.hold;
		piece = mv.hold ? versus_hold_piece(p) : p->current;
		n = tetromino_options(&p->board, piece, o, TETROMINO_OPTIONS_MAX);
	}
	for (i = 0; i < n; i++) {
		v = o[i].figures.holes * 8L + o[i].figures.max_height * 2L + o[i].figures.bumpiness -
		    o[i].figures.lines * 6L + (long)(rng() % 8);
		if (i == 0 || v < best) {
			best = v;
			pick = i;
		}
	}
	mv.rotation = o[pick].rotation;
	mv.column = o[pick].column;
	return mv;
}

struct figures {
	unsigned long long matches, turns, checks, blocks, bytes;
	double resolve_time, check_time, encode_time, decode_time;
};

static void
run_matches(unsigned nplayers, double seconds, struct figures *f)
{
	struct versus_match m, back;
	struct versus_events ev;
	struct versus_move mv[VERSUS_PLAYERS_MAX];
	uint8_t bytes[VERSUS_SERIAL_MAX];
	size_t n;
	double start = now(), t;
	uint64_t seed = 1;
	unsigned i;

	memset(f, 0, sizeof *f);
	do {
		versus_init(&m, seed++, nplayers);
		while (!m.over) {
			for (i = 0; i < nplayers; i++) {
				if (!m.players[i].alive)
					continue;
				mv[i] = greedy(&m.players[i]);
				t = now();
				if (!versus_check_move(&m, i, &mv[i], NULL, 0))
					abort();
				f->check_time += now() - t;
				f->checks++;
			}
			t = now();
			versus_resolve(&m, mv, &ev, NULL, NULL, 0);
			f->resolve_time += now() - t;
			f->turns++;
			t = now();
			n = versus_encode(&m, bytes, sizeof bytes);
			f->encode_time += now() - t;
			f->bytes += n;
			t = now();
			if (!versus_decode(&back, bytes, n))
				abort();
			f->decode_time += now() - t;
		}
		f->matches++;
		f->blocks += m.nblocks;
	} while (now() - start < seconds);
}

int
bench_versus(int argc, char **argv)
{
	static const unsigned sizes[] = { 2, 4, 8 };
	struct glicko2_rating before[8], after[8];
	uint8_t places[8] = { 1, 2, 3, 3, 5, 6, 7, 8 };
	struct figures f[3];
	double seconds = argc > 0 ? atof(argv[0]) : 2.0, t0, t;
	unsigned long long updates = 0;
	char date[64];
	time_t wall = time(NULL);
	size_t k;
	int i;

	if (seconds <= 0)
		seconds = 2.0;
	for (k = 0; k < 3; k++)
		run_matches(sizes[k], seconds, &f[k]);
	for (i = 0; i < 8; i++) {
		before[i].rating = 1400 + 25 * i;
		before[i].rd = 60 + 30 * i;
		before[i].volatility = 0.06;
	}
	t0 = now();
	do {
		glicko2_match(before, places, 8, GLICKO2_TAU_DEFAULT, after);
		before[0].rating = after[0].rating; /* keep the compiler from hoisting */
		updates++;
		t = now();
	} while (t - t0 < seconds);

	strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&wall));
	printf("## bench versus\n\n%ld cores online (one used), %s\n\n",
	    sysconf(_SC_NPROCESSORS_ONLN), date);
	printf("| players | matches | mean turns | blocks sent per match | versus_resolve µs/turn "
	    "| versus_check_move µs/move | state bytes | versus_encode µs | versus_decode µs |\n"
	    "|---|---|---|---|---|---|---|---|---|\n");
	for (k = 0; k < 3; k++)
		printf("| %u | %llu | %.1f | %.1f | %.2f | %.3f | %.0f | %.2f | %.2f |\n", sizes[k],
		    f[k].matches, (double)f[k].turns / (double)f[k].matches,
		    (double)f[k].blocks / (double)f[k].matches,
		    f[k].resolve_time / (double)f[k].turns * 1e6,
		    f[k].check_time / (double)f[k].checks * 1e6,
		    (double)f[k].bytes / (double)f[k].turns,
		    f[k].encode_time / (double)f[k].turns * 1e6,
		    f[k].decode_time / (double)f[k].turns * 1e6);
	printf("\n| glicko2_match, 8 players (7 games each) | %.2f µs |\n",
	    (t - t0) / (double)updates * 1e6);
	return 0;
}
