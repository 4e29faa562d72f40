/*
 * test_tick.c: the tick clock (real time, 60 ticks a second): the gravity
 * table against the seed's formula (recomputed here with libm's pow), the
 * countdown, gravity and soft drop timing, the lock delay and its resets,
 * hard drops, a T-spin triple played as inputs, items on a falling piece's
 * board (pushed up, or no room), disconnects and places.
 *
 * Gravity timing by hand: level 1 adds 1092 / 65536 of a row a tick, so
 * the first row takes ceil(65536 / 1092) = 61 ticks (60 give 65520).
 */
#include <math.h>
#include <stdlib.h>

#include "ab_test.h"
#include "tap.h"
#include "xorshift.h"

static void
run(struct ab_match *m, unsigned n, const struct ab_input *in, size_t nin,
    struct ab_tick_events *ev)
{
	unsigned k;

	for (k = 0; k < n; k++)
		ab_tick(m, k == 0 ? in : NULL, k == 0 ? nin : 0, ev);
}

static void
test_gravity_table(void)
{
	unsigned level;
	double s, want;

	for (level = 1; level <= AB_LEVEL_MAX; level++) {
		s = pow(0.8 - (level - 1) * 0.007, level - 1);
		want = floor(AB_GRAVITY_ONE / (60.0 * s) + 0.5);
		is_int(ab_gravity(level), (int64_t)want, "gravity at level %u: %.4f s a row", level, s);
	}
	is_int(ab_gravity(16), ab_gravity(15), "levels above 15 fall as 15");
}

static void
test_countdown_and_gravity(void)
{
	struct ab_match m;
	struct ab_input in[2] = {
		{ .seat = 0, .kind = AB_IN_KEY, .arg = 'L' },
		{ .seat = 0, .kind = AB_IN_TARGET, .arg = 2 },
	};
	struct ab_tick_events ev;
	struct ab_player *p;
	struct ab_move mv[2] = { { .kind = AB_MOVE_KEYS }, { .kind = AB_MOVE_KEYS } };
	uint32_t score;

	ok(ab_init(&m, 77, 2, AB_CLOCK_TICKS, 0, NULL), "a tick-clock match");
	ok(ab_resolve(&m, mv, NULL, NULL, NULL, 0) == AB_WRONG_CLOCK, "no turns on the tick clock");
	p = &m.players[0];
	run(&m, 5, NULL, 0, &ev);
	run(&m, 175, in, 2, &ev);
	ok(m.tick == 180 && !p->has_piece && !m.players[1].has_piece, "no piece during the countdown");
	is_int(p->target, 1, "target 2 selected during the countdown: seat 1");
	run(&m, 1, NULL, 0, &ev);
	ok(p->has_piece && p->act.y == 20 && p->act.x == ab_spawn_x(p->cur.piece, 0),
	    "pieces spawn at tick 180 (box row 21, then 20 at once)");
	is_int(p->act.gravity, 1092, "and fall 1092/65536 of a row in that tick");
	run(&m, 59, NULL, 0, &ev);
	is_int(p->act.y, 20, "60 ticks of level-1 gravity: 65520, not yet a row");
	run(&m, 1, NULL, 0, &ev);
	is_int(p->act.y, 19, "the 61st tick moves it a row");

	/* Soft drop from spawn: 20 x 1092 = 21840 a tick, below one row a tick;
	 * rows after N ticks = floor(21840 N / 65536): 30 ticks give 9 rows
	 * (655200 / 65536 = 9.9976), one point each. */
	ab_init(&m, 77, 2, AB_CLOCK_TICKS, 0, NULL);
	p = &m.players[0];
	run(&m, 180, NULL, 0, &ev);
	in[0].kind = AB_IN_SOFT_DOWN;
	score = (uint32_t)p->score;
	run(&m, 30, in, 1, &ev);
	is_int(p->act.y, 20 - 9, "30 ticks of soft drop: 9 rows");
	is_int(p->score - score, 9, "one point a soft-dropped row");

	/* Level 15: 154742 a tick. Tick 1: 2 rows (rest 23670); tick 2: 178412,
	 * 2 rows (rest 47340); tick 3: 202082, 3 rows. From 20: 18, 16, 13. */
	ab_init(&m, 77, 2, AB_CLOCK_TICKS, 0, NULL);
	p = &m.players[0];
	p->lines = 140;
	p->level = 15;
	run(&m, 180, NULL, 0, &ev);
	run(&m, 1, NULL, 0, &ev);
	is_int(p->act.y, 18, "level 15, first tick: 2 rows");
	run(&m, 2, NULL, 0, &ev);
	is_int(p->act.y, 13, "after three ticks: 7 rows");
}

static void
test_lock_delay(void)
{
	struct ab_match m;
	struct ab_tick_events ev;
	struct ab_input in[16];
	struct ab_player *p;
	unsigned k;

	ab_init(&m, 78, 2, AB_CLOCK_TICKS, 0, NULL);
	p = &m.players[0];
	run(&m, 181, NULL, 0, &ev);
	/* A T on the floor (box row 1): 29 grounded ticks keep it, the 30th
	 * locks it and the next piece spawns in the same tick. */
	ab_test_put(&m, 0, TETROMINO_T, 3, 1, 0);
	run(&m, 29, NULL, 0, &ev);
	ok(p->has_piece && p->act.y == 1 && p->act.lock_ticks == 29 && p->cells[0][3] == 0,
	    "29 ticks on the ground: not locked");
	run(&m, 1, NULL, 0, &ev);
	ok(p->cells[0][3] == TETROMINO_T + 1 && p->act.y >= 19 && ev.nlocks == 1,
	    "the 30th locks it; the next piece is up top");

	/* A move on the ground starts the timer over (and uses a reset). */
	memset(p->cells, 0, sizeof p->cells);
	ab_test_put(&m, 0, TETROMINO_T, 3, 1, 0);
	run(&m, 20, NULL, 0, &ev);
	in[0] = (struct ab_input){ .seat = 0, .kind = AB_IN_KEY, .arg = 'L' };
	run(&m, 1, in, 1, &ev);
	ok(p->act.resets == 1 && p->act.lock_ticks == 1, "a grounded move: timer restarts (then 1 tick)");
	run(&m, 28, NULL, 0, &ev);
	ok(p->has_piece && p->act.lock_ticks == 29 && p->act.x == 2, "29 ticks after the move: still");

	/* 15 moves in one tick: the 15th, grounded, locks at once. */
	memset(p->cells, 0, sizeof p->cells);
	ab_test_put(&m, 0, TETROMINO_T, 3, 1, 0);
	for (k = 0; k < 15; k++)
		in[k] = (struct ab_input){ .seat = 0, .kind = AB_IN_KEY, .arg = k % 2 ? 'R' : 'L' };
	run(&m, 1, in, 15, &ev);
	ok(ev.nlocks == 1 && p->cells[0][2] == TETROMINO_T + 1, "the 15th reset locks on the ground");

	/* A hard drop locks in its tick: from box row 20 to 1 (on an empty
	 * board the T's bottom reaches row 0), 19 rows, 38 points. */
	memset(p->cells, 0, sizeof p->cells);
	ab_test_put(&m, 0, TETROMINO_T, 3, 20, 0);
	in[0] = (struct ab_input){ .seat = 0, .kind = AB_IN_KEY, .arg = 'D' };
	run(&m, 1, in, 1, &ev);
	ok(ev.nlocks == 1 && ev.drop_points[0] == 38, "hard drop: a lock and 38 points in one tick");
}

static void
test_tst_inputs(void)
{
	struct ab_match m;
	struct ab_tick_events ev;
	struct ab_input in[32];
	static const char keys[] = "LLSSSSSSSSSSSSSSSSRZD";
	static const char *const pic[] = {
		"....#.....", "..........", "####.#####", "###..#####", "####.#####",
	};
	unsigned k;

	/* The turn clock's T-spin triple (test_rules.c) as 21 inputs in one
	 * tick: the same rule functions, the same 1600 x level 1 and attack 6. */
	ab_init(&m, 79, 2, AB_CLOCK_TICKS, 0, NULL);
	run(&m, 181, NULL, 0, &ev);
	ab_test_board(&m.players[0], pic, 5);
	ab_test_put(&m, 0, TETROMINO_T, 3, 20, 0);
	for (k = 0; keys[k]; k++)
		in[k] = (struct ab_input){ .seat = 0, .kind = AB_IN_KEY, .arg = (uint8_t)keys[k] };
	run(&m, 1, in, k, &ev);
	ok(ev.nlocks == 1 && ev.locks[0].lines == 3 && ev.locks[0].spin == AB_SPIN_FULL &&
	    ev.locks[0].points == 1600 && ev.locks[0].attack == 6 && ev.locks[0].target == 1,
	    "T-spin triple by inputs: 3 lines, full, 1600, 6 to seat 1");
	ok(m.players[1].nqueue == 1 && m.players[1].queue[0].lines == 6, "queued at once on this clock");
}

static void
test_items_live(void)
{
	struct ab_match m;
	struct ab_tick_events ev;
	struct ab_input in[2];
	uint8_t w[AB_ITEM_KINDS] = { 1, 1, 1, 1, 1, 1 };
	struct ab_player *p, *q;
	int y, x;

	ab_init(&m, 80, 2, AB_CLOCK_TICKS, 1, w);
	p = &m.players[0];
	q = &m.players[1];
	run(&m, 181, NULL, 0, &ev);
	/* Blackout on seat 1 (target 2 = seat 1 for seat 0): 240 ticks, the
	 * tick's own countdown step takes one. */
	p->inventory[0] = AB_ITEM_BLIND;
	p->ninventory = 1;
	in[0] = (struct ab_input){ .seat = 0, .kind = AB_IN_TARGET, .arg = 2 };
	in[1] = (struct ab_input){ .seat = 0, .kind = AB_IN_USE };
	run(&m, 1, in, 2, &ev);
	is_int(q->blind, 239, "blind: 240 ticks, one gone with the tick");

	/* Swap onto a falling piece: seat 1's rows 0-9 are filled but for
	 * column 0; seat 0's T lies on its floor (box row 1). After the swap
	 * the T overlaps and is pushed up to box row 11 (its bottom on row 10). */
	memset(p->cells, 0, sizeof p->cells);
	ab_test_put(&m, 0, TETROMINO_T, 3, 1, 0);
	for (y = 0; y < 10; y++)
		for (x = 1; x < AB_COLS; x++)
			q->cells[y][x] = AB_CELL_GREY;
	memset(&q->act, 0, sizeof q->act);
	ab_test_put(&m, 1, TETROMINO_O, 4, 30, 0);
	p->inventory[0] = AB_ITEM_SWAP;
	p->ninventory = 1;
	run(&m, 1, &in[1], 1, &ev);
	ok(p->alive && p->act.y == 11 && p->cells[5][5] == AB_CELL_GREY, "swap: pushed up to row 11");

	/* No room: every row of seat 1 has a single hole in column 0, so no T
	 * fits anywhere: the user, whose board that becomes, is out. */
	for (y = 0; y < AB_ROWS; y++)
		for (x = 0; x < AB_COLS; x++)
			q->cells[y][x] = x == 0 ? AB_CELL_EMPTY : AB_CELL_GREY;
	memset(q->items, 0, sizeof q->items);
	memset(p->cells, 0, sizeof p->cells);
	ab_test_put(&m, 0, TETROMINO_T, 3, 1, 0);
	p->inventory[0] = AB_ITEM_SWAP;
	p->ninventory = 1;
	run(&m, 1, &in[1], 1, &ev);
	ok(!p->alive && p->end == AB_END_NO_ROOM && p->place == 2 && q->place == 1 && m.over,
	    "swap with no room: the user is out, the other wins");
}

static void
test_disconnect(void)
{
	struct ab_match m;
	struct ab_tick_events ev;
	struct ab_input in = { .seat = 2, .kind = AB_IN_DISCONNECT };

	ab_init(&m, 81, 3, AB_CLOCK_TICKS, 0, NULL);
	m.players[0].target = 2;
	run(&m, 10, &in, 1, &ev);
	ok(!m.players[2].alive && m.players[2].end == AB_END_DISCONNECTED && m.players[2].place == 3,
	    "a disconnect takes the seat out, even in the countdown");
	is_int(m.players[0].target, 0, "a target that went out falls back to the selector");
	in.seat = 1;
	run(&m, 1, &in, 1, &ev);
	ok(m.over && m.players[0].place == 1 && m.players[1].place == 2, "the last one in wins");
	ok(ab_tick(&m, NULL, 0, &ev) == AB_MATCH_OVER, "no tick after the end");
}

#define INPUTS_MAX 20000

static struct ab_input recorded[INPUTS_MAX];

/* A random input for a random seat now and then: keys, soft drop, target
 * selection, item use, and rarely a disconnect. */
static size_t
random_inputs(const struct ab_match *m, uint64_t *rng, struct ab_input *out)
{
	static const char keys[] = "LRXZLRXZDC";
	size_t n = 0;
	unsigned seat, r;

	for (seat = 0; seat < m->nplayers; seat++) {
		if (xorshift_below(rng, 8) != 0)
			continue;
		r = xorshift_below(rng, 100);
		out[n].tick = m->tick;
		out[n].seat = (uint8_t)seat;
		out[n].arg = 0;
		if (r < 60) {
			out[n].kind = AB_IN_KEY;
			out[n].arg = (uint8_t)keys[xorshift_below(rng, sizeof keys - 1)];
		} else if (r < 70) {
			out[n].kind = AB_IN_SOFT_DOWN;
		} else if (r < 80) {
			out[n].kind = AB_IN_SOFT_UP;
		} else if (r < 88) {
			out[n].kind = AB_IN_TARGET;
			out[n].arg = (uint8_t)(1 + xorshift_below(rng, 9));
		} else if (r < 99 || xorshift_below(rng, 50) != 0) {
			out[n].kind = AB_IN_USE;
		} else {
			out[n].kind = AB_IN_DISCONNECT;
		}
		n++;
	}
	return n;
}

static void
test_live_matches(unsigned matches)
{
	static const uint8_t w[AB_ITEM_KINDS] = { 1, 1, 1, 1, 1, 1 };
	static uint8_t buf[AB_SERIAL_MAX], again[AB_SERIAL_MAX];
	struct ab_match m, copy, replay;
	uint64_t rng = 5;
	size_t n, nrec, len, len2;
	unsigned k, fails = 0, ended = 0, ticks = 0, locks = 0;
	struct ab_tick_events ev;

	for (k = 0; k < matches; k++) {
		ab_init(&m, xorshift_next(&rng) & AB_SEED_MAX, 2 + xorshift_below(&rng, 7),
		    AB_CLOCK_TICKS, k % 2 ? 40 : 0, w);
		replay = m;
		nrec = 0;
		while (!m.over && m.tick < 20000 && nrec + AB_PLAYERS_MAX < INPUTS_MAX) {
			if (m.tick % 50 == 0) {
				len = ab_encode(&m, buf, sizeof buf);
				if (!ab_decode(&copy, buf, len)) {
					diag("match %u tick %u: decode refused its own bytes", k, m.tick);
					fails++;
					break;
				}
				len2 = ab_encode(&copy, again, sizeof again);
				fails += len2 != len || memcmp(buf, again, len) != 0;
				m = copy; /* play on from the decoded copy */
			}
			n = random_inputs(&m, &rng, recorded + nrec);
			ab_tick(&m, recorded + nrec, n, &ev);
			locks += ev.nlocks_all;
			nrec += n;
		}
		ended += m.over;
		ticks += m.tick;
		ab_replay_ticks(&replay, recorded, nrec, m.tick);
		len = ab_encode(&m, buf, sizeof buf);
		len2 = ab_encode(&replay, again, sizeof again);
		fails += len2 != len || memcmp(buf, again, len) != 0;
	}
	is_int(fails, 0, "%u real-time matches (%u ticks, %u locks): bytes round trip every 50 "
	    "ticks, play on from the copy, replay from the inputs", matches, ticks, locks);
	ok(ended > 0, "%u of them ended", ended);
}

int
main(int argc, char **argv)
{
	test_gravity_table();
	test_countdown_and_gravity();
	test_lock_delay();
	test_tst_inputs();
	test_items_live();
	test_disconnect();
	test_live_matches(argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 40);
	return tap_done();
}
