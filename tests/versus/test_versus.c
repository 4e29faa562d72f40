/*
 * test_versus.c: hand-worked turns of versus matches, one rule at a time.
 *
 * Boards, pieces, counters and queues are set directly in the plain struct
 * (what the rules make reachable only after many turns is one line here);
 * every expected board, count and place below was worked out by hand from
 * the rule text (docs/rules/versus.md). The hole columns of seed 7's garbage
 * stream come from CPython itself:
 *     python3 -c 'import random; print([int(random.Random(
 *         f"versus-v1:7:garbage:{k}").random() * 10) for k in range(6)])'
 * prints [2, 2, 7, 7, 0, 0]; versus_garbage_hole() is also compared with
 * CPython over many seeds by holes_cpython.py.
 */
#include <string.h>

#include "tap.h"
#include "versus.h"

#define SEED 7
static const unsigned hole7[] = { 2, 2, 7, 7, 0, 0 };

static struct versus_match M;
static struct versus_events E;
static char why[ENGINE_REASON_MAX];

static struct versus_move
place_mv(unsigned r, unsigned c)
{
	struct versus_move mv = { VERSUS_MOVE_PLACE, false, r, c, 0 };

	return mv;
}

static struct versus_move
hold_mv(unsigned r, unsigned c)
{
	struct versus_move mv = { VERSUS_MOVE_PLACE, true, r, c, 0 };

	return mv;
}

static const struct versus_move resign_mv = { VERSUS_MOVE_RESIGN, false, 0, 0, 0 };
static const struct versus_move missed_mv = { VERSUS_MOVE_MISSED, false, 0, 0, 0 };

/* Sets the bottom n rows of player's board (rows[] top row first; piece
 * letters or G for grey) and empties the rest. */
static void
set_rows(unsigned player, const char *const *rows, int n)
{
	struct tetromino_board *b = &M.players[player].board;
	int i, c;

	tetromino_board_init(b);
	for (i = 0; i < n; i++)
		for (c = 0; c < 10; c++) {
			unsigned r = (unsigned)(n - 1 - i);
			if (rows[i][c] == 'G')
				b->rows[r] = (uint16_t)(b->rows[r] | 1u << c);
			else if (rows[i][c] != '.')
				tetromino_board_set(b, r, (unsigned)c,
				    (unsigned)tetromino_from_letter(rows[i][c]) + 1);
		}
}

/* The board text must be n given rows (top first) under empty ones. */
static void
rows_are(unsigned player, const char *const *rows, int n, const char *what)
{
	char text[VERSUS_TEXT_SIZE], want[VERSUS_TEXT_SIZE];
	int r, i = 0;

	versus_board_text(&M.players[player], text);
	for (r = 20; r > 0; r--) {
		memcpy(want + i, r > n ? ".........." : rows[n - r], 10);
		i += 10;
		want[i++] = r > 1 ? '\n' : '\0';
	}
	if (!is_str(text, want, "%s", what))
		diag("board:\n%s", text);
}

static void
queue_set(unsigned player, const struct versus_block *blocks, unsigned n)
{
	struct versus_player *p = &M.players[player];
	unsigned i;

	p->nqueue = (uint8_t)n;
	p->pending = 0;
	for (i = 0; i < n; i++) {
		p->queue[i] = blocks[i];
		p->pending = (uint16_t)(p->pending + blocks[i].lines);
	}
}

/* A placement of the current piece that clears nothing (the first such
 * option), so that bystanders have a legal quiet move. */
static struct versus_move
quiet(unsigned player)
{
	struct tetromino_option opts[TETROMINO_OPTIONS_MAX];
	const struct versus_player *p = &M.players[player];
	size_t n, i;

	n = tetromino_options(&p->board, p->current, opts, TETROMINO_OPTIONS_MAX);
	for (i = 0; i < n; i++)
		if (opts[i].figures.lines == 0)
			return place_mv(opts[i].rotation, opts[i].column);
	return missed_mv;
}

static int
resolve(const struct versus_move *mv)
{
	unsigned bad = VERSUS_NOBODY;
	enum versus_outcome o = versus_resolve(&M, mv, &E, &bad, why, sizeof why);

	if (o != VERSUS_OK)
		diag("resolve: outcome %d, player %u: %s", o, bad, why);
	return o == VERSUS_OK;
}

static const char *const tetris_rows[] = {
	"T.........", "ZZZZZZZZZ.", "ZZZZZZZZZ.", "ZZZZZZZZZ.", "ZZZZZZZZZ.",
};
/* A double for an O at column 8 that leaves a cell (no perfect clear). */
static const char *const double_rows[] = { "J.........", "JJJJJJJJ..", "JJJJJJJJ.." };

/* A Tetris sends 4 lines; they wait a turn, then rise under a quiet
 * placement with the stream's hole. */
static void
test_tetris_and_arrival(void)
{
	struct versus_move mv[2];
	static const char *const p1_after1[] = { "OO........", "OO........" };
	static const char *const p1_after2[] = {
		"OO........", "OO..IIII..", "GG.GGGGGGG", "GG.GGGGGGG", "GG.GGGGGGG",
		"GG.GGGGGGG",
	};
	static const char *const p0_after1[] = { "T........." };

	versus_init(&M, SEED, 2);
	set_rows(0, tetris_rows, 5);
	M.players[0].current = TETROMINO_I;
	M.players[1].current = TETROMINO_O;
	mv[0] = place_mv(1, 9);
	mv[1] = place_mv(0, 0);
	ok(resolve(mv), "turn 1 resolves");
	is_int(E.turn, 1, "the events name turn 1");
	is_int(E.players[0].lines, 4, "player 0 clears 4 lines");
	is_int(E.players[0].points, 800, "a Tetris at level 1 scores 800");
	is_int(E.players[0].attack, 4, "a Tetris is worth 4 lines");
	is_int(E.players[0].cancelled, 0, "nothing to cancel");
	is_int(E.players[0].sent, 4, "4 lines sent");
	is_int(E.players[0].target, 1, "to the only opponent");
	is_int(E.players[0].sent_hole, hole7[0], "the first block's hole is the stream's first");
	is_int(E.players[1].received, 1, "player 1 receives one block");
	is_int(E.players[1].nrisen, 0, "a block sent this turn does not rise this turn");
	is_int(M.players[1].pending, 4, "player 1 has 4 lines pending");
	rows_are(1, p1_after1, 2, "player 1's board holds only the O");
	rows_are(0, p0_after1, 1, "player 0's T fell to row 1");
	is_int(M.nblocks, 1, "one block drawn from the garbage stream");

	M.players[0].current = TETROMINO_O;
	M.players[1].current = TETROMINO_I;
	mv[0] = place_mv(0, 0);
	mv[1] = place_mv(0, 4);
	ok(resolve(mv), "turn 2 resolves");
	is_int(E.players[1].nrisen, 1, "the block rises under a placement that clears nothing");
	ok(E.players[1].risen[0].lines == 4 && E.players[1].risen[0].hole == hole7[0],
	    "the risen block is 4 lines with its hole");
	is_int(M.players[1].pending, 0, "nothing pending after the rise");
	rows_are(1, p1_after2, 6, "the placement lands first, then 4 grey rows push it up");
	ok(!E.players[1].eliminated && M.players[1].alive, "player 1 is still in");
	is_int(M.players[0].combo, -1, "player 0's combo ended with a quiet placement");
}

/* Attacks cancel the sender's own queue, oldest lines first; a clear keeps
 * the queue down; only the rest is sent. */
static void
test_cancelling(void)
{
	static const struct versus_block q[] = { { 3, 5 }, { 1, 6 } };
	static const char *const p1_double[] = { "O.........", "JJJJJJJJ..", "JJJJJJJJ.." };
	struct versus_move mv[2];

	versus_init(&M, SEED, 2);
	queue_set(1, q, 2);
	set_rows(1, p1_double, 3);
	M.players[1].current = TETROMINO_O;
	M.players[0].current = TETROMINO_I;
	mv[0] = place_mv(0, 0);
	mv[1] = place_mv(0, 8);
	ok(resolve(mv), "turn 1 resolves");
	is_int(E.players[1].lines, 2, "player 1 clears a double");
	is_int(E.players[1].attack, 1, "a double is worth 1 line");
	is_int(E.players[1].cancelled, 1, "which cancels 1 pending line");
	is_int(E.players[1].sent, 0, "and sends nothing");
	is_int(E.players[1].target, VERSUS_NOBODY, "so there is no target");
	is_int(M.nblocks, 0, "no hole drawn");
	ok(M.players[1].nqueue == 2 && M.players[1].queue[0].lines == 2 &&
	    M.players[1].queue[0].hole == 5 && M.players[1].queue[1].lines == 1,
	    "the oldest block lost a line and kept its hole");
	is_int(M.players[1].pending, 3, "3 lines pending");
	is_int(E.players[1].nrisen, 0, "a clearing placement lets nothing rise");

	set_rows(1, tetris_rows, 5);
	M.players[1].current = TETROMINO_I;
	M.players[0].current = TETROMINO_O;
	mv[0] = place_mv(0, 4);
	mv[1] = place_mv(1, 9);
	ok(resolve(mv), "turn 2 resolves");
	is_int(E.players[1].combo, 1, "the second clear in a row is combo 1");
	is_int(E.players[1].attack, 4, "a Tetris at combo 1 is worth 4 (combo bonus 0)");
	is_int(E.players[1].cancelled, 3, "3 cancel the whole queue");
	is_int(E.players[1].sent, 1, "1 line is left to send");
	is_int(E.players[1].target, 0, "to player 0");
	is_int(E.players[1].sent_hole, hole7[0], "with the stream's first hole");
	is_int(M.players[1].pending, 0, "player 1's queue is empty");
	is_int(M.players[0].pending, 1, "player 0 has 1 line pending");

	tetromino_board_init(&M.players[0].board);
	M.players[0].current = TETROMINO_I;
	mv[0] = place_mv(0, 6);
	mv[1] = quiet(1);
	ok(resolve(mv), "turn 3 resolves");
	is_int(E.players[0].nrisen, 1, "player 0's line rises");
	{
		static const char *const rows[] = { "......IIII", "GG.GGGGGGG" };
		rows_are(0, rows, 2, "one grey row, hole at the stream's column, under the I");
	}
}

/* Simultaneous attacks do not meet: each cancels only what was queued
 * before the turn, and both arrive. Two blocks rising together stack the
 * oldest highest. */
static void
test_simultaneous_and_stacking(void)
{
	static const struct versus_block q[] = { { 2, 3 }, { 1, 8 } };
	static const char *const after[] = {
		"OO........", "OO........", "GGG.GGGGGG", "GGG.GGGGGG", "GGGGGGGG.G",
	};
	struct versus_move mv[3];

	versus_init(&M, SEED, 2);
	set_rows(0, tetris_rows, 5);
	set_rows(1, tetris_rows, 5);
	M.players[0].current = TETROMINO_I;
	M.players[1].current = TETROMINO_I;
	mv[0] = place_mv(1, 9);
	mv[1] = place_mv(1, 9);
	ok(resolve(mv), "both send a Tetris");
	ok(E.players[0].sent == 4 && E.players[1].sent == 4, "neither attack is cancelled");
	ok(E.players[0].target == 1 && E.players[1].target == 0, "each hits the other");
	ok(E.players[0].sent_hole == hole7[0] && E.players[1].sent_hole == hole7[1],
	    "holes are drawn in sender order");
	ok(M.players[0].pending == 4 && M.players[1].pending == 4, "both have 4 pending");

	versus_init(&M, SEED, 3);
	queue_set(2, q, 2);
	M.players[2].current = TETROMINO_O;
	mv[0] = quiet(0);
	mv[1] = quiet(1);
	mv[2] = place_mv(0, 0);
	ok(resolve(mv), "two queued blocks rise under one placement");
	is_int(E.players[2].nrisen, 2, "both rise");
	is_int(E.players[2].risen_lines, 3, "3 lines in all");
	rows_are(2, after, 5, "the older block sits above the newer one");
}

/* Round-robin targeting: one cursor per sender, match order, dead players
 * skipped; a player leaving this turn is still a target this turn. */
static void
test_targeting(void)
{
	static const unsigned want0[] = { 1, 2, 3, 2 }, want3[] = { 0, 2, 0, 2 };
	struct versus_move mv[4];
	unsigned turn, i;
	int good0 = 1, good3 = 1;

	versus_init(&M, SEED, 4);
	for (turn = 0; turn < 4; turn++) {
		/* players 0 and 3 clear a double every turn from a fresh stack */
		for (i = 0; i < 4; i += 3) {
			set_rows(i, double_rows, 3);
			M.players[i].current = TETROMINO_O;
			M.players[i].combo = -1;
			queue_set(i, NULL, 0);
			mv[i] = place_mv(0, 8);
		}
		mv[1] = turn == 0 ? resign_mv : missed_mv;
		mv[2] = quiet(2);
		if (!resolve(mv))
			break;
		good0 &= E.players[0].target == want0[turn] && E.players[0].sent == 1;
		good3 &= E.players[3].target == want3[turn] && E.players[3].sent == 1;
		if (turn == 0) {
			ok(E.players[1].eliminated && E.players[1].place == 4,
			    "player 1 resigns in turn 1: place 4");
			is_int(M.players[1].pending, 0, "an eliminated player's queue is dropped");
		}
		if (turn == 1)
			is_int(E.players[2].received, 2, "turn 2: player 2 receives two blocks");
	}
	ok(good0, "player 0 sends to 1 (leaving this turn), then 2, 3, 2");
	ok(good3, "player 3 sends to 0, then 2 (1 is out), 0, 2");
	is_int(M.players[0].cursor, 2, "player 0's cursor is its last target");
}

/* Places: n + 1 for everyone out while n stay; the last one is 1st. */
static void
test_places(void)
{
	struct versus_move mv[4];

	versus_init(&M, SEED, 4);
	mv[0] = quiet(0);
	mv[1] = quiet(1);
	mv[2] = quiet(2);
	mv[3] = resign_mv;
	ok(resolve(mv), "4 players: player 3 resigns");
	ok(M.players[3].place == 4 && M.players[3].end_reason == VERSUS_END_RESIGNED &&
	    !M.players[3].alive && M.nalive == 3 && !M.over, "place 4, three left");
	mv[0] = resign_mv;
	mv[1] = quiet(1);
	mv[2] = resign_mv;
	ok(resolve(mv), "players 0 and 2 resign in the same turn");
	ok(M.players[0].place == 2 && M.players[2].place == 2, "they share place 2");
	ok(M.players[3].out_turn == 1 && M.players[0].out_turn == 2 && M.players[1].out_turn == 0,
	    "each player out records its turn");
	ok(M.players[1].place == 1 && M.players[1].alive, "the survivor is 1st");
	ok(M.over && E.over && E.neliminated == 2 && E.players[1].place == 1,
	    "the match is over; the events say so");
	ok(versus_resolve(&M, mv, &E, NULL, why, sizeof why) == VERSUS_MATCH_OVER,
	    "nothing resolves after the end");
	ok(!versus_check_move(&M, 1, &mv[1], why, sizeof why), "no move is legal after the end");

	versus_init(&M, SEED, 2);
	mv[0] = resign_mv;
	mv[1] = resign_mv;
	ok(resolve(mv), "2 players resign together");
	ok(M.players[0].place == 1 && M.players[1].place == 1 && M.nalive == 0 && M.over,
	    "both share place 1");

	versus_init(&M, SEED, 3);
	mv[0] = quiet(0);
	mv[1] = resign_mv;
	mv[2] = quiet(2);
	ok(resolve(mv) && M.players[1].place == 3, "3 players: the first out is 3rd");
	mv[0] = resign_mv;
	mv[2] = resign_mv;
	ok(resolve(mv) && M.players[0].place == 1 && M.players[2].place == 1,
	    "the last two out together share place 1");
}

/* A missed turn drops the current piece at rotation 0 from its spawn
 * column; the third in a row takes the player out without a drop. */
static void
test_missed(void)
{
	static const char *const after1[] = { "....T.....", "...TTT...." };
	static const char *const after2[] = {
		"....OO....", "....OO....", "....T.....", "...TTT....",
	};
	struct versus_move mv[2];

	versus_init(&M, SEED, 2);
	M.players[0].current = TETROMINO_T;
	mv[0] = missed_mv;
	mv[1] = quiet(1);
	ok(resolve(mv), "player 0 misses turn 1");
	is_int(E.players[0].action, VERSUS_ACT_DROPPED, "the piece is dropped");
	ok(E.players[0].rotation == 0 && E.players[0].column == 3, "T: rotation 0, column 3");
	rows_are(0, after1, 2, "the T lies where gravity puts it");
	is_int(M.players[0].missed, 1, "one missed turn");
	is_int(M.players[0].placed, 1, "the drop counts as a placement");

	M.players[0].current = TETROMINO_O;
	mv[1] = quiet(1);
	ok(resolve(mv), "player 0 misses turn 2");
	is_int(E.players[0].column, 4, "O: column 4");
	rows_are(0, after2, 4, "the O rests on the T's top");
	is_int(M.players[0].missed, 2, "two missed turns");

	M.players[0].current = TETROMINO_I;
	mv[1] = quiet(1);
	ok(resolve(mv), "player 0 misses turn 3");
	is_int(E.players[0].action, VERSUS_ACT_TIMED_OUT, "the third miss times out");
	ok(M.players[0].end_reason == VERSUS_END_MISSED && M.players[0].place == 2 &&
	    M.players[1].place == 1 && M.over, "out for missing: 2nd; the other wins");
	rows_are(0, after2, 4, "nothing was dropped on the third miss");

	versus_init(&M, SEED, 2);
	M.players[0].current = TETROMINO_T;
	mv[0] = missed_mv;
	mv[1] = quiet(1);
	resolve(mv);
	M.players[0].current = TETROMINO_O;
	mv[1] = quiet(1);
	resolve(mv);
	M.players[0].current = TETROMINO_I;
	mv[0] = quiet(0);
	mv[1] = quiet(1);
	ok(resolve(mv) && M.players[0].missed == 0, "a move after two misses resets the count");
	M.players[0].current = TETROMINO_I;
	mv[0] = missed_mv;
	mv[1] = quiet(1);
	ok(resolve(mv) && M.players[0].alive && M.players[0].missed == 1, "and misses count again");
}

/* The spawn drop without room, garbage overflow, and top-out after a rise
 * with and without a hold piece that fits. */
static void
test_eliminations(void)
{
	static const char *const tower[] = {
		"...JJJJ...", "...JJJJ...", "...JJJJ...", "...JJJJ...", "...JJJJ...",
		"...JJJJ...", "...JJJJ...", "...JJJJ...", "...JJJJ...", "...JJJJ...",
		"...JJJJ...", "...JJJJ...", "...JJJJ...", "...JJJJ...", "...JJJJ...",
		"...JJJJ...", "...JJJJ...", "...JJJJ...", "...JJJJ...",
	};
	static const struct versus_block three = { 3, 5 }, one = { 1, 0 };
	char rows[18][11];
	const char *rowp[18];
	struct versus_move mv[2];
	int r, c;

	versus_init(&M, SEED, 2);
	set_rows(0, tower, 19);
	M.players[0].current = TETROMINO_T;
	mv[0] = missed_mv;
	mv[1] = quiet(1);
	ok(versus_check_move(&M, 0, &(struct versus_move){ VERSUS_MOVE_PLACE, false, 0, 0, 0 },
	    why, sizeof why), "the T still fits at the side");
	ok(resolve(mv), "player 0 misses with a tower under the spawn columns");
	is_int(E.players[0].action, VERSUS_ACT_NO_ROOM, "the spawn drop does not fit");
	ok(E.players[0].eliminated && M.players[0].end_reason == VERSUS_END_TOP_OUT,
	    "the player is out: top_out");

	/* Column 0 is 18 high; 3 rising lines push its top to row 21. */
	versus_init(&M, SEED, 2);
	set_rows(0, tower, 18);
	for (r = 0; r < 18; r++)
		tetromino_board_set(&M.players[0].board, (unsigned)r, 0, TETROMINO_L + 1);
	queue_set(0, &three, 1);
	M.players[0].current = TETROMINO_O;
	mv[0] = place_mv(0, 8);
	mv[1] = quiet(1);
	ok(resolve(mv), "player 0 places over 3 queued lines");
	ok(E.players[0].nrisen == 1 && E.players[0].eliminated &&
	    M.players[0].end_reason == VERSUS_END_OVERFLOW, "a cell went above row 20: overflow");
	is_int(M.players[0].place, 2, "2nd of 2");

	/* 17 high: the rise brings the top to row 20 exactly, no overflow. */
	versus_init(&M, SEED, 2);
	set_rows(0, tower, 17);
	for (r = 0; r < 17; r++)
		tetromino_board_set(&M.players[0].board, (unsigned)r, 0, TETROMINO_L + 1);
	queue_set(0, &three, 1);
	M.players[0].current = TETROMINO_O;
	mv[0] = place_mv(0, 8);
	ok(resolve(mv) && M.players[0].alive, "17 + 3 rows reach row 20: still in");

	/* Rows 1-18 each miss one column (row r misses column r % 10). An I on
	 * top and one rising line leave no room for an O anywhere, but room for
	 * a flat I in columns 4-7. */
	for (r = 0; r < 18; r++) {
		for (c = 0; c < 10; c++)
			rows[r][c] = c == (18 - r) % 10 ? '.' : 'S';
		rows[r][10] = '\0';
		rowp[r] = rows[r];
	}
	for (c = 0; c < 2; c++) {
		versus_init(&M, SEED, 2);
		set_rows(0, rowp, 18);
		queue_set(0, &one, 1);
		M.players[0].current = TETROMINO_I;
		M.players[0].next[0] = TETROMINO_O;
		M.players[0].hold = c == 0 ? TETROMINO_O : TETROMINO_I;
		mv[0] = place_mv(0, 0);
		mv[1] = quiet(1);
		ok(resolve(mv), "an I on top, then a line rises (hold %s)", c == 0 ? "O" : "I");
		ok(E.players[0].nrisen == 1 && E.players[0].lines == 0, "the line rose");
		if (c == 0)
			ok(E.players[0].eliminated && M.players[0].end_reason == VERSUS_END_TOP_OUT,
			    "neither the current O nor the held O fits: top_out");
		else
			ok(M.players[0].alive, "the held I still fits: the player stays");
	}
}

/* A queue of VERSUS_QUEUE_MAX blocks loses what arrives next. */
static void
test_full_queue(void)
{
	static const char *const single[] = { "O.........", "IIIIII...." };
	struct versus_block q[VERSUS_QUEUE_MAX];
	struct versus_move mv[2];
	unsigned i;

	versus_init(&M, SEED, 2);
	for (i = 0; i < VERSUS_QUEUE_MAX; i++) {
		q[i].lines = 1;
		q[i].hole = 0;
	}
	queue_set(1, q, VERSUS_QUEUE_MAX);
	set_rows(0, double_rows, 3);
	M.players[0].current = TETROMINO_O;
	set_rows(1, single, 2);
	M.players[1].current = TETROMINO_I;
	mv[0] = place_mv(0, 8);
	mv[1] = place_mv(0, 6);
	ok(resolve(mv), "player 0 sends 1 line to a full queue while player 1 clears a single");
	ok(E.players[0].sent == 1 && E.players[0].target == 1 && E.players[0].sent_lost,
	    "the block is sent and lost");
	ok(M.players[1].nqueue == VERSUS_QUEUE_MAX && M.players[1].pending == VERSUS_QUEUE_MAX &&
	    E.players[1].received == 0, "the receiver's queue is unchanged");
	is_int(M.nblocks, 1, "its hole was still drawn");
	is_int(E.players[1].attack, 0, "a single at combo 0 is worth nothing, so cancels nothing");
}

/* The attack table as the rules list it, and a back-to-back Tetris perfect
 * clear with combo 1 (the Stackfall rules' worked check: 4450 points). */
static void
test_attack_values(void)
{
	static const unsigned combo_bonus[] = { 0, 0, 1, 1, 1, 2, 2, 3, 3, 4, 4, 4, 5, 5, 5 };
	static const char *const pc_rows[] = {
		"ZZZZZZZZZ.", "ZZZZZZZZZ.", "ZZZZZZZZZ.", "ZZZZZZZZZ.",
	};
	struct versus_move mv[2];
	int k, good = 1;

	ok(versus_attack(0, -1, false, false) == 0 && versus_attack(1, 0, false, false) == 0 &&
	    versus_attack(2, 0, false, false) == 1 && versus_attack(3, 0, false, false) == 2 &&
	    versus_attack(4, 0, false, false) == 4, "single 0, double 1, triple 2, Tetris 4");
	is_int(versus_attack(4, 0, true, false), 5, "back-to-back Tetris 5");
	for (k = 0; k < 15; k++)
		good &= versus_attack(1, k, false, false) == combo_bonus[k];
	ok(good, "combo bonus 0,0,1,1,1,2,2,3,3,4,4,4,5 then 5");
	is_int(versus_attack(1, 0, false, true), 10, "perfect-clear single 10");
	is_int(versus_attack(4, 40, true, true), VERSUS_ATTACK_MAX, "the largest attack");

	versus_init(&M, SEED, 2);
	set_rows(0, pc_rows, 4);
	M.players[0].current = TETROMINO_I;
	M.players[0].back_to_back = true;
	M.players[0].combo = 0;
	mv[0] = place_mv(1, 9);
	mv[1] = quiet(1);
	ok(resolve(mv), "a back-to-back Tetris perfect clear");
	ok(E.players[0].back_to_back && E.players[0].perfect_clear && E.players[0].combo == 1,
	    "flagged back-to-back, perfect, combo 1");
	is_int(E.players[0].points, 4450, "1200 + 50 + 3200 points");
	is_int(E.players[0].attack, 15, "4 + 1 + 0 + 10 lines");
	is_int(M.players[0].score, 4450, "score");
	ok(M.players[0].lines == 4 && M.players[0].level == 1, "4 lines, level 1");
}

/* versus_check_move answers without changing anything; versus_resolve
 * refuses a turn with an illegal move whole. */
static void
test_checks(void)
{
	struct versus_match before;
	struct versus_move mv[3];
	unsigned bad = 99;

	versus_init(&M, SEED, 3);
	M.players[0].current = TETROMINO_O;
	M.players[0].hold = TETROMINO_I;
	before = M;
	mv[0] = place_mv(4, 0);
	ok(!versus_check_move(&M, 0, &mv[0], why, sizeof why), "rotation 4 is refused: %s", why);
	mv[0] = place_mv(0, 9);
	ok(!versus_check_move(&M, 0, &mv[0], why, sizeof why), "O at column 9 is refused: %s", why);
	mv[0] = hold_mv(0, 7);
	ok(!versus_check_move(&M, 0, &mv[0], why, sizeof why),
	    "after hold the I is checked: column 7 is refused: %s", why);
	mv[0] = hold_mv(1, 9);
	ok(versus_check_move(&M, 0, &mv[0], why, sizeof why), "the held I fits upright at 9");
	ok(!versus_check_move(&M, 3, &mv[0], why, sizeof why), "no player 3: %s", why);
	ok(!versus_check_move(&M, 0, &missed_mv, why, sizeof why), "missed is not sendable: %s",
	    why);
	ok(versus_check_move(&M, 1, &resign_mv, why, sizeof why), "resign is always legal");
	ok(memcmp(&M, &before, sizeof M) == 0, "checks changed nothing");

	mv[0] = place_mv(0, 0);
	mv[1] = place_mv(5, 0);
	mv[2] = quiet(2);
	ok(versus_resolve(&M, mv, &E, &bad, why, sizeof why) == VERSUS_REFUSED && bad == 1,
	    "a turn with an illegal move is refused and names the player: %s", why);
	ok(memcmp(&M, &before, sizeof M) == 0, "the refused turn changed nothing");

	mv[0] = hold_mv(1, 9);
	mv[1] = quiet(1);
	mv[2] = quiet(2);
	ok(resolve(mv) && E.players[0].held && E.players[0].piece == TETROMINO_I &&
	    M.players[0].hold == TETROMINO_O, "hold; place puts the O aside and places the I");
	mv[0] = resign_mv;
	mv[1] = quiet(1);
	mv[2] = quiet(2);
	ok(resolve(mv) && !M.over && !versus_check_move(&M, 0, &mv[1], why, sizeof why),
	    "a player out can no longer move: %s", why);

	ok(!versus_init(&M, SEED, 1) && !versus_init(&M, SEED, 9) &&
	    !versus_init(&M, VERSUS_SEED_MAX + 1, 2) && versus_init(&M, VERSUS_SEED_MAX, 8),
	    "2-8 players, seeds up to 2^53 - 1");
}

/* The hold of an empty slot takes the next piece, as in Stackfall. */
static void
test_hold_stream(void)
{
	struct versus_move mv[2];
	uint8_t first, second, third, fourth;

	versus_init(&M, SEED, 2);
	first = M.players[0].current;
	second = M.players[0].next[0];
	third = M.players[0].next[1];
	fourth = M.players[0].next[2];
	ok(M.players[1].current == first && M.players[1].next[0] == second,
	    "both players start on the same pieces");
	is_int(versus_hold_piece(&M.players[0]), second, "with an empty slot, hold gives the next");
	mv[0] = hold_mv(0, 0);
	mv[1] = quiet(1);
	ok(resolve(mv), "player 0 holds, then places");
	ok(E.players[0].piece == second && M.players[0].hold == first &&
	    M.players[0].current == third && M.players[0].next[0] == fourth,
	    "the second piece was placed, the first held, the third is current");
	ok(M.players[1].current == second && M.players[1].next[0] == third,
	    "player 1, who did not hold, is one piece behind");
}

static void
test_views(void)
{
	static const struct versus_block q[] = { { 2, 3 } };
	static const char *const grey[] = { "GGG.GGGGGG" };
	struct versus_view v;

	versus_init(&M, SEED, 3);
	set_rows(1, grey, 1);
	queue_set(1, q, 1);
	versus_view(&M, 1, 1, &v);
	ok(v.next_visible && v.next[0] == M.players[1].next[0] && v.next[2] == M.players[1].next[2],
	    "a player sees its own preview");
	is_int(v.pending, 2, "and its pending lines");
	ok(strstr(v.board_text, "GGG.GGGGGG") != NULL, "grey cells show as G");
	versus_view(&M, 0, 1, &v);
	ok(!v.next_visible && v.next[0] == VERSUS_NO_PIECE && v.current == M.players[1].current,
	    "an opponent sees the board and current piece, not the preview");
	versus_view(&M, VERSUS_NOBODY, 1, &v);
	ok(!v.next_visible && v.next[1] == VERSUS_NO_PIECE && v.pending == 2 && v.alive,
	    "a spectator sees what an opponent sees");
}

static void
test_parse(void)
{
	static const struct {
		const char *text;
		int res, kind, hold;
		unsigned r, c;
	} cases[] = {
		{ "place 1 4", VERSUS_PARSE_OK, VERSUS_MOVE_PLACE, 0, 1, 4 },
		{ "1 4", VERSUS_PARSE_OK, VERSUS_MOVE_PLACE, 0, 1, 4 },
		{ "  PLACE\t01 4 ", VERSUS_PARSE_OK, VERSUS_MOVE_PLACE, 0, 1, 4 },
		{ "hold; place 2 3", VERSUS_PARSE_OK, VERSUS_MOVE_PLACE, 1, 2, 3 },
		{ "HOLD\n3 0", VERSUS_PARSE_OK, VERSUS_MOVE_PLACE, 1, 3, 0 },
		{ "resign", VERSUS_PARSE_OK, VERSUS_MOVE_RESIGN, 0, 0, 0 },
		{ "place 9 99", VERSUS_PARSE_OK, VERSUS_MOVE_PLACE, 0, 9, 99 },
		{ "", VERSUS_PARSE_EMPTY, 0, 0, 0, 0 },
		{ " ; \n", VERSUS_PARSE_EMPTY, 0, 0, 0, 0 },
		{ "hold", VERSUS_PARSE_INVALID, 0, 0, 0, 0 },
		{ "options", VERSUS_PARSE_INVALID, 0, 0, 0, 0 },
		{ "preview 0 0", VERSUS_PARSE_INVALID, 0, 0, 0, 0 },
		{ "place 1", VERSUS_PARSE_INVALID, 0, 0, 0, 0 },
		{ "place -1 4", VERSUS_PARSE_INVALID, 0, 0, 0, 0 },
		{ "place 1 4; place 1 4", VERSUS_PARSE_INVALID, 0, 0, 0, 0 },
		{ "place 1 4; hold", VERSUS_PARSE_INVALID, 0, 0, 0, 0 },
		{ "hold; hold; place 1 4", VERSUS_PARSE_INVALID, 0, 0, 0, 0 },
		{ "hold; resign", VERSUS_PARSE_INVALID, 0, 0, 0, 0 },
		{ "resign now", VERSUS_PARSE_INVALID, 0, 0, 0, 0 },
		{ "jump", VERSUS_PARSE_INVALID, 0, 0, 0, 0 },
	};
	struct versus_move mv;
	char text[64], shown[64];
	size_t i, k;
	int res;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		/* new lines would break the TAP line */
		for (k = 0; cases[i].text[k] != '\0' && k + 1 < sizeof shown; k++)
			shown[k] = cases[i].text[k] == '\n' ? '|' : cases[i].text[k];
		shown[k] = '\0';
		why[0] = '\0';
		res = versus_move_parse(cases[i].text, strlen(cases[i].text), &mv, why, sizeof why);
		if (cases[i].res == VERSUS_PARSE_OK)
			ok(res == VERSUS_PARSE_OK && mv.kind == cases[i].kind &&
			    mv.hold == cases[i].hold && mv.rotation == cases[i].r &&
			    mv.column == cases[i].c, "'%s' reads as a move", shown);
		else
			ok(res == cases[i].res && why[0] != '\0', "'%s' is refused: %s", shown, why);
	}
	mv = hold_mv(2, 3);
	versus_move_text(&mv, text, sizeof text);
	is_str(text, "hold; place 2 3", "canonical text of a held placement");
	mv = place_mv(0, 9);
	versus_move_text(&mv, text, sizeof text);
	is_str(text, "place 0 9", "of a placement");
	is_int(versus_move_text(&resign_mv, text, 4), 6, "a short buffer still counts the length");
	is_str(text, "res", "and is cut with a NUL");
	versus_move_text(&missed_mv, text, sizeof text);
	is_str(text, "missed", "of a missed turn");
}

int
main(void)
{
	test_tetris_and_arrival();
	test_cancelling();
	test_simultaneous_and_stacking();
	test_targeting();
	test_places();
	test_missed();
	test_eliminations();
	test_full_queue();
	test_attack_values();
	test_checks();
	test_hold_stream();
	test_views();
	test_parse();
	return tap_done();
}
