/*
 * test_rules.c: actionblocks-v1's rules in constructed positions: the SRS
 * states and every kick of both tables, a T-spin triple set up by keys, a
 * mini spin, the points and attack tables, drops, lock resets, hold, lock
 * out, block out, garbage overflow, missed turns and places, and the move
 * grammar. Every expected number is worked out from the rule book in a
 * comment beside it.
 */
#include <stdio.h>
#include <stdlib.h>

#include "ab_test.h"
#include "tap.h"

static const uint8_t equal_weights[AB_ITEM_KINDS] = { 1, 1, 1, 1, 1, 1 };

/* ---- shapes ---- */

/* The guideline's SRS states (Tetris Wiki, "Super Rotation System", the
 * picture of the four states of each piece), box rows top first. */
static const char *const srs_states[7][4] = {
	{ "....|####|....|....", "..#.|..#.|..#.|..#.", "....|....|####|....", ".#..|.#..|.#..|.#.." },
	{ "##|##", "##|##", "##|##", "##|##" },
	{ ".#.|###|...", ".#.|.##|.#.", "...|###|.#.", ".#.|##.|.#." },
	{ ".##|##.|...", ".#.|.##|..#", "...|.##|##.", "#..|##.|.#." },
	{ "##.|.##|...", "..#|.##|.#.", "...|##.|.##", ".#.|##.|#.." },
	{ "#..|###|...", ".##|.#.|.#.", "...|###|..#", ".#.|.#.|##." },
	{ "..#|###|...", ".#.|.#.|.##", "...|###|#..", "##.|.#.|.#." },
};

static void
test_shapes(void)
{
	int8_t dx[AB_CELLS_MAX], dy[AB_CELLS_MAX];
	char pic[32];
	unsigned piece, rot, n, k, size, odd, r, c;

	for (piece = 0; piece < 7; piece++) {
		size = piece == 0 ? 4 : piece == 1 ? 2 : 3;
		for (rot = 0; rot < 4; rot++) {
			n = ab_shape_cells(piece, AB_SHAPE_PIECE, rot, dx, dy);
			memset(pic, 0, sizeof pic);
			for (r = 0; r < size; r++) {
				for (c = 0; c < size; c++)
					pic[r * (size + 1) + c] = '.';
				if (r + 1 < size)
					pic[r * (size + 1) + size] = '|';
			}
			for (k = 0; k < n; k++)
				pic[dy[k] * (int)(size + 1) + dx[k]] = '#';
			is_str(pic, srs_states[piece][rot], "%c state %u is the guideline's",
			    "IOTSZJL"[piece], rot);
		}
	}
	/* Minos keep their numbers: the T's mino 0 is its bottom-left cell at
	 * spawn (bottom row first, left to right: (0,1) (1,1) (2,1) (1,0));
	 * a quarter turn clockwise takes the bottom-left of the box to its top
	 * left, so in state 1 mino 0 is at (1, 0). */
	ab_shape_cells(2, AB_SHAPE_PIECE, 0, dx, dy);
	ok(dx[0] == 0 && dy[0] == 1 && dx[3] == 1 && dy[3] == 0, "T minos at spawn: bottom row first");
	ab_shape_cells(2, AB_SHAPE_PIECE, 1, dx, dy);
	ok(dx[0] == 1 && dy[0] == 0, "T mino 0 turns with the piece");

	/* The odd shapes turned in their boxes are versus_odd.h's rotations,
	 * whose table was drawn independently (bit rows, bottom first). */
	for (odd = 0; odd < AB_ODD_KINDS; odd++) {
		for (rot = 0; rot < 4; rot++) {
			const struct versus_odd_shape *s = versus_odd_shape(odd, rot);
			unsigned bits[3] = { 0, 0, 0 }, good = 1;

			n = ab_shape_cells(0, odd + 1, rot, dx, dy);
			for (k = 0; k < n; k++) {
				if (dy[k] >= s->height) {
					good = 0;
					continue;
				}
				bits[s->height - 1 - dy[k]] |= 1u << dx[k];
			}
			for (r = 0; r < s->height; r++)
				good &= bits[r] == s->rows[r];
			ok(good && n == versus_odd_cells(odd), "odd shape %s state %u matches versus_odd",
			    versus_odd_name(odd), rot);
		}
	}
	is_int(ab_spawn_x(TETROMINO_O, 0), 4, "O spawns at column 4");
	is_int(ab_spawn_x(TETROMINO_I, 0), 3, "I spawns at column 3");
	is_int(ab_spawn_x(0, VERSUS_ODD_DOT + 1), 4, "Dot spawns at column 4 (1 wide)");
	is_int(ab_spawn_x(0, VERSUS_ODD_SMALL_L + 1), 4, "small L spawns at column 4 (2 wide)");
	is_int(ab_spawn_x(0, VERSUS_ODD_U + 1), 3, "U spawns at column 3 (3 wide)");
}

/* ---- kicks ---- */

/* The spec's tables typed again (a second transcription of
 * the actionblocks-v1 spec, so a slip in the engine's data shows). */
struct spec_row {
	unsigned from, to;
	int t[5][2];
};
static const struct spec_row spec_jlstz_rows[8] = {
	{ 0, 1, { { 0, 0 }, { -1, 0 }, { -1, 1 }, { 0, -2 }, { -1, -2 } } },
	{ 1, 0, { { 0, 0 }, { 1, 0 }, { 1, -1 }, { 0, 2 }, { 1, 2 } } },
	{ 1, 2, { { 0, 0 }, { 1, 0 }, { 1, -1 }, { 0, 2 }, { 1, 2 } } },
	{ 2, 1, { { 0, 0 }, { -1, 0 }, { -1, 1 }, { 0, -2 }, { -1, -2 } } },
	{ 2, 3, { { 0, 0 }, { 1, 0 }, { 1, 1 }, { 0, -2 }, { 1, -2 } } },
	{ 3, 2, { { 0, 0 }, { -1, 0 }, { -1, -1 }, { 0, 2 }, { -1, 2 } } },
	{ 3, 0, { { 0, 0 }, { -1, 0 }, { -1, -1 }, { 0, 2 }, { -1, 2 } } },
	{ 0, 3, { { 0, 0 }, { 1, 0 }, { 1, 1 }, { 0, -2 }, { 1, -2 } } },
};
static const struct spec_row spec_i_rows[8] = {
	{ 0, 1, { { 0, 0 }, { -2, 0 }, { 1, 0 }, { -2, -1 }, { 1, 2 } } },
	{ 1, 0, { { 0, 0 }, { 2, 0 }, { -1, 0 }, { 2, 1 }, { -1, -2 } } },
	{ 1, 2, { { 0, 0 }, { -1, 0 }, { 2, 0 }, { -1, 2 }, { 2, -1 } } },
	{ 2, 1, { { 0, 0 }, { 1, 0 }, { -2, 0 }, { 1, -2 }, { -2, 1 } } },
	{ 2, 3, { { 0, 0 }, { 2, 0 }, { -1, 0 }, { 2, 1 }, { -1, -2 } } },
	{ 3, 2, { { 0, 0 }, { -2, 0 }, { 1, 0 }, { -2, -1 }, { 1, 2 } } },
	{ 3, 0, { { 0, 0 }, { 1, 0 }, { -2, 0 }, { 1, -2 }, { -2, 1 } } },
	{ 0, 3, { { 0, 0 }, { -1, 0 }, { 2, 0 }, { -1, 2 }, { 2, -1 } } },
};

/* Marks the cells of piece at (x, y, rot) in grid[y][x]. */
static void
mark(uint8_t grid[AB_ROWS][AB_COLS], unsigned piece, int x, int y, unsigned rot)
{
	int8_t dx[AB_CELLS_MAX], dy[AB_CELLS_MAX];
	unsigned n = ab_shape_cells(piece, AB_SHAPE_PIECE, rot, dx, dy), k;

	for (k = 0; k < n; k++)
		grid[y - dy[k]][x + dx[k]] = 1;
}

/* Builds the position where the rotation from -> to must take test k: the
 * piece at (4, 10) in state from, every cell around it filled except the
 * piece's own and those test k's spot needs. Tests before k then fail
 * unless one of their spots lies entirely inside those free cells: then
 * this piece can never take test k there (for the T, 0->1 test 4 needs
 * (5,8) free, which is all test 1 needs besides the T's own cells), and
 * the answer is false with nothing asserted, so that the caller tries
 * another piece of the table. Else plays the rotation and checks it. */
static bool
kick_case(unsigned piece, const struct spec_row *row, unsigned k)
{
	struct ab_match m;
	struct ab_player *p;
	uint8_t free_cells[AB_ROWS][AB_COLS], spot[AB_ROWS][AB_COLS];
	const int x0 = 4, y0 = 10;
	unsigned j, x, y;
	uint32_t drop = 0;
	bool inside;
	char key = row->to == ((row->from + 1) & 3) ? 'X' : 'Z';

	ab_init(&m, 1, 2, AB_CLOCK_TURNS, 0, NULL);
	p = &m.players[0];
	memset(free_cells, 0, sizeof free_cells);
	mark(free_cells, piece, x0, y0, row->from);
	mark(free_cells, piece, x0 + row->t[k][0], y0 + row->t[k][1], row->to);
	for (j = 0; j < k; j++) {
		memset(spot, 0, sizeof spot);
		mark(spot, piece, x0 + row->t[j][0], y0 + row->t[j][1], row->to);
		inside = true;
		for (y = 0; y < AB_ROWS; y++)
			for (x = 0; x < AB_COLS; x++)
				if (spot[y][x] && !free_cells[y][x])
					inside = false;
		if (inside)
			return false;
	}
	memset(p->cells, 0, sizeof p->cells);
	for (y = 0; y < 20; y++)
		for (x = 0; x < AB_COLS; x++)
			if (!free_cells[y][x])
				p->cells[y][x] = AB_CELL_GREY;
	ab_test_put(&m, 0, piece, x0, y0, row->from);
	ab_key(&m, 0, key, &drop);
	ok(p->act.rot == row->to && p->act.x == x0 + row->t[k][0] &&
	    p->act.y == y0 + row->t[k][1] && p->act.last_rot && p->act.last_kick5 == (k == 4),
	    "%c %u->%u takes test %u (%+d,%+d)", "IOTSZJL"[piece], row->from, row->to, k + 1,
	    row->t[k][0], row->t[k][1]);
	return true;
}

/* Test k of a J L S T Z row, with the first of T, J, L, S, Z whose shape
 * lets it be isolated. */
static void
jlstz_case(const struct spec_row *row, unsigned k)
{
	static const unsigned order[] = { TETROMINO_T, TETROMINO_J, TETROMINO_L, TETROMINO_S,
		TETROMINO_Z };
	unsigned i;

	for (i = 0; i < 5; i++)
		if (kick_case(order[i], row, k))
			return;
	ok(0, "%u->%u test %u: no piece of the table can be made to take it", row->from, row->to,
	    k + 1);
}

static void
test_kicks(void)
{
	struct ab_match m;
	struct ab_player *p;
	unsigned r, k, piece;
	uint32_t drop = 0;

	for (r = 0; r < 8; r++)
		for (k = 0; k < 5; k++)
			jlstz_case(&spec_jlstz_rows[r], k);
	for (r = 0; r < 8; r++)
		for (k = 0; k < 5; k++)
			ok(kick_case(TETROMINO_I, &spec_i_rows[r], k) || 0, "I %u->%u test %u isolated",
			    spec_i_rows[r].from, spec_i_rows[r].to, k + 1);
	/* J, L, S and Z share the T's table: their fifth tests too. */
	for (piece = TETROMINO_S; piece <= TETROMINO_L; piece++)
		for (r = 0; r < 8; r++)
			ok(kick_case(piece, &spec_jlstz_rows[r], 4), "%c %u->%u test 5 isolated",
			    "IOTSZJL"[piece], spec_jlstz_rows[r].from, spec_jlstz_rows[r].to);

	/* Fitting nowhere, a rotation does nothing: a T in state 0 boxed in
	 * on every side. */
	ab_init(&m, 1, 2, AB_CLOCK_TURNS, 0, NULL);
	p = &m.players[0];
	{
		static const char *const pic[] = {
			"##########", "#.########", "...#######", "##########",
		};
		ab_test_board(p, pic, 4);
	}
	ab_test_put(&m, 0, TETROMINO_T, 0, 2, 0);
	ok(ab_key(&m, 0, 'X', &drop) == AB_KEY_NOTHING && p->act.rot == 0 && p->act.x == 0 &&
	    p->act.y == 2, "a rotation that fits nowhere does nothing");
	/* The O turns in place (one test), and its items turn with it. */
	ab_test_put(&m, 0, TETROMINO_O, 4, 30, 0);
	memset(p->cells, 0, sizeof p->cells);
	ok(ab_key(&m, 0, 'X', &drop) == AB_KEY_DONE && p->act.rot == 1 && p->act.x == 4 &&
	    p->act.y == 30, "the O rotates in place");
}

/* ---- spins, points, attack ---- */

static struct ab_move
keys_move(const char *text)
{
	struct ab_move mv;
	char reason[ENGINE_REASON_MAX];

	if (ab_move_parse(text, strlen(text), &mv, reason, sizeof reason) != AB_PARSE_OK) {
		printf("# bad move in test: %s: %s\n", text, reason);
		exit(1);
	}
	return mv;
}

/* The T-spin triple slot, built as worked out below. */
static void
tst_board(struct ab_player *p)
{
	/* y up; the slot is the T in state 3 at box (3, 2): cells (4,2),
	 * (3,1), (4,1), (4,0). Row 2 is full but column 4, row 1 but 3 and 4,
	 * row 0 but 4; (4,4) overhangs the start spot. */
	static const char *const pic[] = {
		"....#.....", /* y 4 */
		"..........", /* y 3 */
		"####.#####", /* y 2 */
		"###..#####", /* y 1 */
		"####.#####", /* y 0 */
	};
	ab_test_board(p, pic, 5);
}

static void
test_tspin_triple(bool b2b)
{
	struct ab_match m;
	struct ab_events ev;
	struct ab_move moves[2];
	struct ab_player *p;
	char reason[ENGINE_REASON_MAX];
	const struct ab_lock_events *e;

	ab_init(&m, 7, 2, AB_CLOCK_TURNS, 0, NULL);
	p = &m.players[0];
	tst_board(p);
	/* Level 3 (25 lines), so the level's factor shows. */
	p->lines = 25;
	p->level = 3;
	p->b2b = b2b;
	/* A T as just spawned: box column 3, top row 21, moved down to 20. */
	ab_test_put(&m, 0, TETROMINO_T, 3, 20, 0);
	/* Keys: LL to column 1; 16 soft drops from box row 20 to 4, where its
	 * bottom (row 3) rests on row 2 (columns 1-3 filled); R slides under
	 * the overhang to (2, 4), its right arm at (4, 3); Z (0 -> 3): test 1
	 * (0,0) hits (3,2), test 2 (+1,0) hits the overhang (4,4), test 3
	 * (+1,+1) hits (4,4), test 4 (0,-2) hits (3,2), test 5 (+1,-2) lands
	 * in the slot at (3, 2); D moves nothing (the T stands on the floor),
	 * so the last action stays the rotation. */
	moves[0] = keys_move("keys LLSSSSSSSSSSSSSSSSRZD");
	moves[1] = keys_move("D");
	ok(ab_resolve(&m, moves, &ev, NULL, reason, sizeof reason) == AB_OK, "TST turn resolves");
	e = &ev.seats[0].lock;
	is_int(e->lines, 3, "TST clears 3 rows");
	is_int(e->spin, AB_SPIN_FULL, "TST is a full spin (4 corners, fifth kick)");
	/* Spin with 3 lines: 1600 x level 3 (level before the lock: 25 lines),
	 * x1.5 after a difficult clear; combo 0 adds nothing. */
	is_int(e->points, b2b ? 1600 * 3 * 3 / 2 : 1600 * 3, "TST scores 1600 x level%s",
	    b2b ? " x 1.5" : "");
	is_int(e->attack, b2b ? 7 : 6, "TST attacks 6 (+1 back-to-back)");
	ok(e->b2b == b2b, "back-to-back flag");
	is_int(ev.seats[0].drop_points, 16, "16 soft drop rows, hard drop 0 rows");
	is_int(p->score, (b2b ? 7200 : 4800) + 16, "score = points + drops");
	is_int(p->lines, 28, "lines 28");
	is_int(p->level, 3, "level 1 + 28 / 10 = 3");
	/* Seat 0's cursor starts at itself: the block goes to seat 1. */
	is_int(e->target, 1, "sent to seat 1");
	is_int(m.players[1].nqueue, 1, "seat 1 queues one block");
	is_int(m.players[1].queue[0].lines, b2b ? 7 : 6, "of the attack's lines");
	is_int(m.players[1].queue[0].hole, ab_garbage_hole(7, 0), "hole of block 0");
	/* After the clear: rows 3 (empty) and 4 (the overhang) drop by 3. */
	ok(ab_test_cell(p, 4, 1) == '#' && ab_test_cell(p, 4, 0) == '.', "the overhang fell 3 rows");
}

static void
test_mini(void)
{
	struct ab_match m;
	struct ab_player *p;
	struct ab_lock_events e;
	uint32_t drop = 0;
	/* T in state 1 at box (0, 2): cells (1,2) (1,1) (2,1) (1,0). X turns it
	 * to state 2 in place (test 1): cells (0,1) (1,1) (2,1) (1,0). Corners
	 * of the box: top-left (0,2) and top-right (2,2) filled, bottom-left
	 * (0,0) filled, bottom-right (2,0) empty: 3 corners, but the pointing
	 * side (down: bottom-left, bottom-right) is not both, and no fifth
	 * kick: a mini spin. Row 1 becomes full: a mini single. */
	static const char *const pic[] = {
		"#.#.......", /* y 2 */
		"...#######", /* y 1 */
		"#.........", /* y 0 */
	};

	ab_init(&m, 1, 2, AB_CLOCK_TURNS, 0, NULL);
	p = &m.players[0];
	ab_test_board(p, pic, 3);
	ab_test_put(&m, 0, TETROMINO_T, 0, 2, 1);
	ab_key(&m, 0, 'X', &drop);
	ok(p->act.rot == 2 && p->act.x == 0 && p->act.y == 2 && !p->act.last_kick5,
	    "mini: the T turned in place");
	is_int(ab_test_keys(&m, 0, "D", &e), 0, "D locks");
	is_int(e.spin, AB_SPIN_MINI, "mini spin");
	is_int(e.lines, 1, "mini single");
	is_int(e.points, 200, "mini single: 200 x level 1");
	is_int(e.attack, 0, "mini single attacks 0");
	ok(p->b2b, "a mini spin that clears is difficult");

	/* On an empty board the same turn finds no corner blocked: no spin. */
	memset(p->cells, 0, sizeof p->cells);
	ab_test_put(&m, 0, TETROMINO_T, 3, 2, 1);
	ab_key(&m, 0, 'X', &drop);
	ab_test_keys(&m, 0, "D", &e);
	/* Box (3,2) state 2: its bottom (4,0) on the floor; corners (3,0) and
	 * (5,0) are empty floor-level cells, (3,2) (5,2) empty: 0 corners. */
	is_int(e.spin, AB_SPIN_NONE, "no corners, no spin");
}

static void
test_tables(void)
{
	/* Points (level before the lock applied to all but drops). */
	is_int(ab_points(1, AB_SPIN_NONE, false, 0, 1), 100, "single 100");
	is_int(ab_points(4, AB_SPIN_NONE, false, 0, 2), 1600, "tetris 800 x 2");
	/* Back-to-back tetris at combo 3, level 2: (800 x 1.5 + 50 x 3) x 2. */
	is_int(ab_points(4, AB_SPIN_NONE, true, 3, 2), 2700, "b2b tetris combo 3 level 2");
	is_int(ab_points(0, AB_SPIN_FULL, false, -1, 1), 400, "spin with no lines 400");
	is_int(ab_points(0, AB_SPIN_MINI, false, -1, 4), 400, "mini with no lines 100 x 4");
	is_int(ab_points(2, AB_SPIN_MINI, false, 0, 1), 400, "mini double 400");
	/* A mini triple scores as a full spin triple: 1600. */
	is_int(ab_points(3, AB_SPIN_MINI, false, 0, 1), 1600, "mini triple as full");
	/* Back-to-back T-spin double at combo 1, level 15: (1200 x 1.5 + 50) x 15. */
	is_int(ab_points(2, AB_SPIN_FULL, true, 1, 15), (1800 + 50) * 15, "b2b TSD combo 1 level 15");
	/* Attack. */
	is_int(ab_attack(1, AB_SPIN_NONE, false, 0, false), 0, "single 0");
	is_int(ab_attack(2, AB_SPIN_NONE, false, 0, false), 1, "double 1");
	is_int(ab_attack(3, AB_SPIN_NONE, false, 0, false), 2, "triple 2");
	is_int(ab_attack(4, AB_SPIN_NONE, true, 0, false), 5, "b2b tetris 5");
	is_int(ab_attack(1, AB_SPIN_FULL, false, 0, false), 2, "TSS 2");
	is_int(ab_attack(2, AB_SPIN_FULL, false, 0, false), 4, "TSD 4");
	is_int(ab_attack(1, AB_SPIN_MINI, false, 0, false), 0, "mini single 0");
	is_int(ab_attack(2, AB_SPIN_MINI, false, 0, false), 1, "mini double 1");
	is_int(ab_attack(3, AB_SPIN_MINI, false, 0, false), 6, "mini triple as TST 6");
	is_int(ab_attack(0, AB_SPIN_FULL, false, 0, false), 0, "no lines, no attack");
	/* Combo bonus by combo count: 0,0,1,1,1,2,2,3,3,4,4,4,5 then 5. */
	is_int(ab_attack(1, AB_SPIN_NONE, false, 2, false), 1, "combo 2 +1");
	is_int(ab_attack(1, AB_SPIN_NONE, false, 5, false), 2, "combo 5 +2");
	is_int(ab_attack(1, AB_SPIN_NONE, false, 12, false), 5, "combo 12 +5");
	is_int(ab_attack(1, AB_SPIN_NONE, false, 40, false), 5, "combo 40 +5 (capped)");
	is_int(ab_attack(1, AB_SPIN_NONE, false, 0, true), 10, "perfect single 10");
}

/* ---- drops, resets, hold ---- */

static void
test_drops(void)
{
	struct ab_match m;
	struct ab_player *p;
	struct ab_lock_events e;
	uint32_t drop = 0;

	ab_init(&m, 1, 2, AB_CLOCK_TURNS, 0, NULL);
	p = &m.players[0];
	ab_test_put(&m, 0, TETROMINO_T, 3, 20, 0);
	/* T box top 20 -> 1 (its bottom row y - 1 = 0): 19 rows, +2 each. */
	ab_key(&m, 0, 'D', &drop);
	is_int(drop, 38, "hard drop from spawn: 19 rows x 2");
	is_int(p->score, 38, "drop points go to the score, unmultiplied");
	ab_lock(&m, 0, &e);
	ab_test_put(&m, 0, TETROMINO_T, 3, 20, 0);
	drop = 0;
	p->level = 5;
	/* 3 soft drops (+3), box row 20 -> 17; the first T's top cell is
	 * (4, 1), so the new T's bottom row (y - 1) stops at row 2: box row 3,
	 * 14 rows of hard drop, +28. */
	ab_key(&m, 0, 'S', &drop);
	ab_key(&m, 0, 'S', &drop);
	ab_key(&m, 0, 'S', &drop);
	ab_key(&m, 0, 'D', &drop);
	is_int(drop, 31, "3 soft + 14 hard rows: 3 + 28, level 5 not applied");
	is_int(p->act.y, 3, "the T rests on the first one");
	/* Soft drop on the ground does nothing and scores nothing. */
	drop = 0;
	ok(ab_key(&m, 0, 'S', &drop) == AB_KEY_NOTHING && drop == 0, "soft drop on the ground: nothing");
}

static void
test_resets(void)
{
	struct ab_match m;
	struct ab_player *p;
	struct ab_move mv;
	char reason[ENGINE_REASON_MAX];
	static const char *const ledge[] = { "####......" };
	char keys[80];
	int k;

	/* 15 resets on the floor: a T at rest moved L R L R ... ; the 15th
	 * move is made while grounded and leaves it grounded: it locks. */
	ab_init(&m, 1, 2, AB_CLOCK_TURNS, 0, NULL);
	p = &m.players[0];
	ab_test_put(&m, 0, TETROMINO_T, 3, 20, 0);
	snprintf(keys, sizeof keys, "%s", "SSSSSSSSSSSSSSSSSSS"); /* 19: box 20 -> 1 */
	for (k = 0; k < 15; k++)
		strcat(keys, k % 2 == 0 ? "L" : "R");
	is_int(ab_test_keys(&m, 0, keys, NULL), 33, "the 15th reset (key 33) locks when grounded");
	is_int(p->act.resets, 15, "15 resets used");
	is_int(p->act.x, 2, "after L R ... L the T is one column left");

	/* The same keys and one more as a move: refused, naming the key. */
	ab_init(&m, 1, 2, AB_CLOCK_TURNS, 0, NULL);
	ab_test_put(&m, 0, TETROMINO_T, 3, 20, 0);
	strcat(keys, "R");
	mv = keys_move(keys);
	ok(!ab_check_move(&m, 0, &mv, reason, sizeof reason), "a key after the lock is refused");
	is_str(reason, "key 34 (R) comes after the lock at key 33", "the reason names the key");
	keys[strlen(keys) - 1] = '\0';
	mv = keys_move(keys);
	ok(ab_check_move(&m, 0, &mv, reason, sizeof reason), "without it the move is accepted");

	/* A new lowest row starts the count over. Ledge: row 0 columns 0-3.
	 * The T (columns 3-5) rests on it at box row 2; 14 moves L R on it are
	 * 14 resets; R to column 4 (columns 4-6, nothing under them) is the
	 * 15th, made grounded, but the T no longer rests: no lock. */
	ab_init(&m, 1, 2, AB_CLOCK_TURNS, 0, NULL);
	p = &m.players[0];
	ab_test_board(p, ledge, 1);
	ab_test_put(&m, 0, TETROMINO_T, 3, 20, 0);
	snprintf(keys, sizeof keys, "%s", "SSSSSSSSSSSSSSSSSS"); /* 18: box 20 -> 2 */
	for (k = 0; k < 14; k++)
		strcat(keys, k % 2 == 0 ? "L" : "R");
	strcat(keys, "R");
	is_int(ab_test_keys(&m, 0, keys, NULL), -1, "15 resets, not grounded: no lock");
	is_int(p->act.resets, 15, "15 resets used");
	/* Back onto the ledge (L: not grounded before, so no reset): grounded
	 * with the resets spent, it locks at once. */
	{
		struct ab_match again = m;

		is_int(ab_test_keys(&again, 0, "L", NULL), 0, "spent resets lock the moment it is grounded");
	}
	/* Or down: S reaches box row 1, lower than ever: count restarts, and
	 * 14 more moves on the floor (R L ...) do not lock. */
	is_int(ab_test_keys(&m, 0, "S", NULL), -1, "soft drop to a new lowest row");
	is_int(p->act.resets, 0, "the count restarted");
	is_int(ab_test_keys(&m, 0, "RLRLRLRLRLRLRL", NULL), -1, "14 more resets: no lock");
	is_int(p->act.resets, 14, "14 resets used at the new row");
	is_int(ab_test_keys(&m, 0, "R", NULL), 0, "the 15th at this row locks");
}

static void
test_hold(void)
{
	struct ab_match m;
	struct ab_player *p;
	struct ab_lock_events e;
	struct ab_slot first, second;
	uint32_t drop = 0;

	ab_init(&m, 42, 2, AB_CLOCK_TURNS, 0, NULL);
	p = &m.players[0];
	first = p->cur;
	second = p->next[0];
	ok(ab_key(&m, 0, 'C', &drop) == AB_KEY_DONE, "hold with an empty slot");
	ok(p->hold.piece == first.piece && p->cur.piece == second.piece, "the next piece comes");
	ok(p->act.y == 20 || p->act.y == 19, "and spawns fresh");
	ok(ab_key(&m, 0, 'C', &drop) == AB_KEY_NOTHING && p->hold.piece == first.piece,
	    "a second hold for the same piece does nothing");
	ab_key(&m, 0, 'D', &drop);
	ab_lock(&m, 0, &e);
	ab_spawn_next(&m, 0);
	ok(ab_key(&m, 0, 'C', &drop) == AB_KEY_DONE && p->cur.piece == first.piece,
	    "after the lock hold works again and brings the held piece back");
	/* The stream: seat 0 took stream piece 0 (held), 1 (locked), 2 (held
	 * now), so its preview starts at stream piece 3. */
	is_int(p->drawn, 3, "three stream pieces drawn");
	is_int(p->next[0].piece, ab_stream_piece(42, 3), "preview from stream piece 3");
}

/* ---- top outs ---- */

static void
test_lock_out(void)
{
	struct ab_match m;
	struct ab_events ev;
	struct ab_move moves[3];
	struct ab_player *p;
	int y;

	/* Columns 4 and 5 filled up to row 19: an O spawns at box (4, 21)
	 * (rows 20-21), cannot move down, and D locks it there, all four
	 * cells in the buffer: lock out. */
	ab_init(&m, 3, 3, AB_CLOCK_TURNS, 0, NULL);
	p = &m.players[0];
	for (y = 0; y < 20; y++)
		p->cells[y][4] = p->cells[y][5] = AB_CELL_GREY;
	p->cur.piece = TETROMINO_O;
	p->cur.items = 0;
	ok(ab_spawn_slot(&m, 0, p->cur), "the O spawns");
	is_int(p->act.y, 21, "and cannot move down");
	moves[0] = keys_move("D");
	moves[1] = keys_move("D");
	moves[2] = keys_move("D");
	ab_resolve(&m, moves, &ev, NULL, NULL, 0);
	ok(!p->alive && p->end == AB_END_LOCK_OUT, "lock out");
	is_int(p->place, 3, "out while 2 stay: place 3");
	ok(ab_test_cell(p, 4, 21) == 'O' && ab_test_cell(p, 5, 20) == 'O', "the O locked in the buffer");
	is_int(ev.seats[0].lock.points, 0, "a lock out scores nothing");
}

static void
test_block_out(void)
{
	struct ab_match m;
	struct ab_events ev;
	struct ab_move moves[2];
	struct ab_player *p;
	int y;

	/* Seat 0 drops its piece at the left wall, then the spawn spot (rows
	 * 20-21, columns 3-6) is taken: the next piece spawns on a block. */
	ab_init(&m, 3, 2, AB_CLOCK_TURNS, 0, NULL);
	p = &m.players[0];
	ab_test_put(&m, 0, TETROMINO_T, 0, 10, 0);
	for (y = 20; y <= 21; y++)
		p->cells[y][3] = p->cells[y][4] = p->cells[y][5] = p->cells[y][6] = AB_CELL_GREY;
	moves[0] = keys_move("D");
	moves[1] = keys_move("D");
	ab_resolve(&m, moves, &ev, NULL, NULL, 0);
	ok(!p->alive && p->end == AB_END_BLOCK_OUT, "block out");
	ok(ev.seats[0].locked && ev.seats[0].lock.lines == 0, "its piece locked first");
	ok(m.over && m.players[1].place == 1 && p->place == 2, "the other seat wins");
}

static void
test_overflow(void)
{
	struct ab_match m;
	struct ab_events ev;
	struct ab_move moves[2];
	struct ab_player *p;
	int y, lines;

	/* Column 0 filled on rows 0-29. A lock that clears nothing raises the
	 * queue: 10 lines take row 29 to 39 (in), 11 take it to 40 (out). */
	for (lines = 10; lines <= 11; lines++) {
		ab_init(&m, 5, 2, AB_CLOCK_TURNS, 0, NULL);
		p = &m.players[1];
		for (y = 0; y < 30; y++)
			p->cells[y][0] = AB_CELL_GREY;
		p->queue[0].lines = (uint8_t)lines;
		p->queue[0].hole = 3;
		p->nqueue = 1;
		p->pending = (uint16_t)lines;
		moves[0] = keys_move("D");
		moves[1] = keys_move("D");
		ab_resolve(&m, moves, &ev, NULL, NULL, 0);
		if (lines == 10) {
			ok(p->alive && p->cells[39][0] == AB_CELL_GREY && p->nqueue == 0 &&
			    ev.seats[1].risen_lines == 10, "10 lines rise to row 39");
			ok(p->cells[0][3] == AB_CELL_EMPTY && p->cells[0][2] == AB_CELL_GREY,
			    "grey rows open at the hole");
		} else {
			ok(!p->alive && p->end == AB_END_OVERFLOW, "11 lines overflow");
		}
	}
}

static void
test_missed_and_places(void)
{
	struct ab_match m;
	struct ab_events ev;
	struct ab_move moves[4];
	int t;

	ab_init(&m, 11, 4, AB_CLOCK_TURNS, 0, NULL);
	memset(moves, 0, sizeof moves);
	for (t = 0; t < 3; t++) {
		moves[0].kind = AB_MOVE_MISSED;
		moves[1].kind = AB_MOVE_MISSED;
		moves[2] = keys_move("LLLLD");
		moves[3] = keys_move(t == 2 ? "resign" : "RRRRD");
		ab_resolve(&m, moves, &ev, NULL, NULL, 0);
		if (t < 2)
			ok(ev.seats[0].action == AB_ACT_DROPPED && ev.seats[0].drop_points > 0 &&
			    m.players[0].alive, "missed turn %d drops the piece", t + 1);
	}
	/* Turn 3: seats 0 and 1 miss a third time, seat 3 resigns: three out
	 * while one stays share place 2; seat 2 wins. */
	ok(!m.players[0].alive && m.players[0].end == AB_END_MISSED, "third miss: out");
	ok(m.players[3].end == AB_END_RESIGNED, "resigned");
	ok(m.players[0].place == 2 && m.players[1].place == 2 && m.players[3].place == 2,
	    "three out together share place 2");
	ok(m.over && m.players[2].place == 1, "the last one wins");
	ok(ab_resolve(&m, moves, &ev, NULL, NULL, 0) == AB_MATCH_OVER, "nothing after the end");
}

/* ---- the move grammar ---- */

static enum ab_parse
parse(const char *text, struct ab_move *mv, char reason[ENGINE_REASON_MAX])
{
	return ab_move_parse(text, strlen(text), mv, reason, ENGINE_REASON_MAX);
}

static void
test_grammar(void)
{
	struct ab_match m;
	struct ab_move mv;
	char reason[ENGINE_REASON_MAX], text[400], many[300];

	ok(parse("keys XXLD", &mv, reason) == AB_PARSE_OK &&
	    mv.kind == AB_MOVE_KEYS && mv.nkeys == 4, "keys XXLD");
	ab_move_text(&mv, text, sizeof text);
	is_str(text, "keys XXLD", "canonical text");
	ok(parse(" use 2 ;  KEYS  L R d", &mv, reason) ==
	    AB_PARSE_INVALID, "lower-case letters are not keys");
	is_str(reason, "key 2: 'd' is not a key (L R X Z S D C)", "bad letter named");
	ok(parse(" use 2 ;  KEYS  L R D", &mv, reason) == AB_PARSE_OK &&
	    mv.use == 2 && mv.nkeys == 3, "use, blanks and a word in capitals");
	ab_move_text(&mv, text, sizeof text);
	is_str(text, "use 2; keys LRD", "canonical text with use");
	ok(parse("CD", &mv, reason) == AB_PARSE_OK && mv.nkeys == 2,
	    "bare letters");
	ok(parse("keys", &mv, reason) == AB_PARSE_OK && mv.nkeys == 0,
	    "keys with no letters");
	ab_move_text(&mv, text, sizeof text);
	is_str(text, "keys", "canonical text of no keys");
	ok(parse("Resign", &mv, reason) == AB_PARSE_OK &&
	    mv.kind == AB_MOVE_RESIGN, "resign");
	ok(parse("   ", &mv, reason) == AB_PARSE_EMPTY, "blank is empty");
	ok(parse("use 0; D", &mv, reason) == AB_PARSE_INVALID, "use 0");
	ok(parse("use 2; resign", &mv, reason) == AB_PARSE_INVALID,
	    "use with resign");
	ok(parse("place 0 3", &mv, reason) == AB_PARSE_INVALID,
	    "versus's place is not a move here");
	memset(many, 'L', 256);
	ok(ab_move_parse(many, 256, &mv, reason, sizeof reason) == AB_PARSE_OK && mv.nkeys == 256,
	    "256 keys");
	memset(many, 'L', 257);
	ok(ab_move_parse(many, 257, &mv, reason, sizeof reason) == AB_PARSE_INVALID, "257 keys");
	is_str(reason, "too many keys: at most 256", "too many keys named");

	ab_init(&m, 1, 3, AB_CLOCK_TURNS, 0, NULL);
	mv = keys_move("use 2; D");
	ok(!ab_check_move(&m, 0, &mv, reason, sizeof reason), "use without items is refused");
	ab_init(&m, 1, 3, AB_CLOCK_TURNS, 10, equal_weights);
	ok(ab_check_move(&m, 0, &mv, reason, sizeof reason), "use 2 with items");
	mv = keys_move("use 4; D");
	ok(!ab_check_move(&m, 0, &mv, reason, sizeof reason), "use 4 of 3 seats");
	mv = keys_move("DD");
	ok(!ab_check_move(&m, 0, &mv, reason, sizeof reason), "a key after a hard drop");
	is_str(reason, "key 1 (D) comes after the lock at key 0", "reason names both keys");
	mv.kind = AB_MOVE_MISSED;
	ok(!ab_check_move(&m, 0, &mv, reason, sizeof reason), "only the server misses");
}

int
main(void)
{
	test_shapes();
	test_kicks();
	test_tspin_triple(false);
	test_tspin_triple(true);
	test_mini();
	test_tables();
	test_drops();
	test_resets();
	test_hold();
	test_lock_out();
	test_block_out();
	test_overflow();
	test_missed_and_places();
	test_grammar();
	return tap_done();
}
