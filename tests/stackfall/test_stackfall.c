/*
 * test_stackfall.c: one case per rule of the game. Boards and pieces are set
 * directly in the plain struct (current, next, hold, flags), which is what
 * makes each scoring rule and end check reachable in a line or two; the
 * stream itself is covered by test_stream.c and the differential test.
 */
#include <string.h>

#include "stackfall.h"
#include "tap.h"

/* A game on seed 1 whose board is rows (top row first) and whose current
 * piece is current. */
static struct stackfall
game_with(const char *const *rows, int n, unsigned current)
{
	struct stackfall g;
	int i, c, p;

	stackfall_init(&g, 1);
	for (i = 0; i < n; i++)
		for (c = 0; c < 10; c++)
			if (rows[i][c] != '.') {
				p = tetromino_from_letter(rows[i][c]);
				tetromino_board_set(&g.board, (unsigned)(n - 1 - i), (unsigned)c,
				    (unsigned)p + 1);
			}
	g.current = (uint8_t)current;
	return g;
}

static void
set_board(struct stackfall *g, const char *const *rows, int n)
{
	struct stackfall fresh = game_with(rows, n, g->current);

	g->board = fresh.board;
}

/* Places and checks lines and points. */
static void
expect_place(struct stackfall *g, unsigned current, unsigned r, unsigned c, int lines,
    long points, const char *what)
{
	struct stackfall_report rep;
	enum stackfall_outcome o;

	g->current = (uint8_t)current;
	o = stackfall_place(g, r, c, &rep);
	ok(o == STACKFALL_OK && rep.lines == lines && rep.points == points,
	    "%s: %d lines, +%ld", what, lines, points);
	if (o != STACKFALL_OK || rep.lines != lines || rep.points != points)
		diag("outcome %d lines %d points %u: %s", o, rep.lines, rep.points, rep.message);
}

static const char *const single_rows[] = { "O.........", "IIIIII...." };
static const char *const single_pc_rows[] = { "IIIIII...." };
static const char *const double_rows[] = { "T.........", "JJJJJJJJ..", "JJJJJJJJ.." };
static const char *const double_pc_rows[] = { "JJJJJJJJ..", "JJJJJJJJ.." };
static const char *const triple_rows[] = { "S.........", "LLLLLLLLL.", "LLLLLLLLL.",
	"LLLLLLLLL." };
static const char *const triple_pc_rows[] = { "TTTTTTTT..", "TTTTTTTTT.", "TTTTTTTTT." };
static const char *const tetris_rows[] = { "T.........", "ZZZZZZZZZ.", "ZZZZZZZZZ.",
	"ZZZZZZZZZ.", "ZZZZZZZZZ." };
static const char *const tetris_pc_rows[] = { "ZZZZZZZZZ.", "ZZZZZZZZZ.", "ZZZZZZZZZ.",
	"ZZZZZZZZZ." };

static void
test_clear_sizes(void)
{
	struct stackfall g;

	g = game_with(single_rows, 2, TETROMINO_I);
	expect_place(&g, TETROMINO_I, 0, 6, 1, 100, "single");
	ok(g.combo == 0 && g.lines == 1 && g.score == 100 && !g.back_to_back,
	    "single: combo 0, 1 line, score 100, no back-to-back");
	g = game_with(double_rows, 3, TETROMINO_O);
	expect_place(&g, TETROMINO_O, 0, 8, 2, 300, "double");
	g = game_with(triple_rows, 4, TETROMINO_I);
	expect_place(&g, TETROMINO_I, 1, 9, 3, 500, "triple");
	g = game_with(tetris_rows, 5, TETROMINO_I);
	expect_place(&g, TETROMINO_I, 1, 9, 4, 800, "tetris");
	ok(g.back_to_back, "a tetris sets back-to-back");

	g = game_with(single_pc_rows, 1, TETROMINO_I);
	expect_place(&g, TETROMINO_I, 0, 6, 1, 900, "single perfect clear: 100 + 800");
	ok(tetromino_board_is_empty(&g.board), "board empty after a perfect clear");
	g = game_with(double_pc_rows, 2, TETROMINO_O);
	expect_place(&g, TETROMINO_O, 0, 8, 2, 1500, "double perfect clear: 300 + 1200");
	g = game_with(triple_pc_rows, 3, TETROMINO_L);
	expect_place(&g, TETROMINO_L, 3, 8, 3, 2300, "triple perfect clear: 500 + 1800");
	g = game_with(tetris_pc_rows, 4, TETROMINO_I);
	expect_place(&g, TETROMINO_I, 1, 9, 4, 2800, "tetris perfect clear: 800 + 2000");

	g = game_with(tetris_pc_rows, 4, TETROMINO_I);
	g.back_to_back = true;
	expect_place(&g, TETROMINO_I, 1, 9, 4, 4400,
	    "back-to-back tetris perfect clear, no combo: 1200 + 3200");
	g = game_with(tetris_pc_rows, 4, TETROMINO_I);
	g.back_to_back = true;
	g.combo = 0;
	expect_place(&g, TETROMINO_I, 1, 9, 4, 4450,
	    "worked check: b2b tetris perfect clear, level 1, combo 1 = 4450");
	ok(g.combo == 1 && g.back_to_back && g.score == 4450, "combo 1, still back-to-back");

	g = game_with(single_rows, 2, TETROMINO_I);
	g.lines = 10;
	g.level = 2;
	expect_place(&g, TETROMINO_I, 0, 6, 1, 200, "single at level 2");
	g = game_with(tetris_pc_rows, 4, TETROMINO_I);
	g.lines = 57;
	g.level = 6;
	g.back_to_back = true;
	g.combo = 2;
	expect_place(&g, TETROMINO_I, 1, 9, 4, (1200 + 150 + 3200) * 6,
	    "b2b tetris perfect clear, combo 3, level 6");
	is_int(g.level, 7, "61 lines: level 7");
}

static void
test_back_to_back_and_combo(void)
{
	static const char *const two_tetrises[] = {
		"ZZZZZZZZZ.", "ZZZZZZZZZ.", "ZZZZZZZZZ.", "ZZZZZZZZZ.",
		"ZZZZZZZZZ.", "ZZZZZZZZZ.", "ZZZZZZZZZ.", "ZZZZZZZZZ.",
	};
	struct stackfall g;

	/* Kept across a placement that clears nothing. */
	g = game_with(two_tetrises, 8, TETROMINO_I);
	expect_place(&g, TETROMINO_I, 1, 9, 4, 800, "first tetris");
	expect_place(&g, TETROMINO_O, 0, 0, 0, 0, "an O that clears nothing");
	ok(g.combo == -1 && g.back_to_back, "combo reset, back-to-back kept");
	expect_place(&g, TETROMINO_I, 1, 9, 4, 1200, "back-to-back tetris after a gap: 1200");

	/* Broken by a single; combo grows while clears follow each other. */
	g = game_with(tetris_rows, 5, TETROMINO_I);
	expect_place(&g, TETROMINO_I, 1, 9, 4, 800, "tetris (combo 0)");
	set_board(&g, single_rows, 2);
	expect_place(&g, TETROMINO_I, 0, 6, 1, 150, "single right after: 100 + combo 1 x 50");
	ok(!g.back_to_back && g.combo == 1, "the single broke back-to-back; combo 1");
	set_board(&g, tetris_rows, 5);
	expect_place(&g, TETROMINO_I, 1, 9, 4, 900, "tetris, not back-to-back: 800 + combo 2 x 50");
	ok(g.combo == 2 && g.back_to_back, "combo 2, back-to-back again");
	set_board(&g, double_rows, 3);
	expect_place(&g, TETROMINO_O, 0, 8, 2, 450, "double: 300 + combo 3 x 50");
	expect_place(&g, TETROMINO_T, 0, 3, 0, 0, "a placement that clears nothing");
	is_int(g.combo, -1, "combo back to -1");
	set_board(&g, single_rows, 2);
	expect_place(&g, TETROMINO_I, 0, 6, 1, 200,
	    "single after the reset: no combo bonus, level 2 since 11 lines");
	is_int(g.lines, 12, "12 lines");
	is_int(g.level, 2, "level 2");
	is_int(g.score, 800 + 150 + 900 + 450 + 200, "score adds up");
}

static void
test_levels(void)
{
	struct stackfall g;

	g = game_with(double_rows, 3, TETROMINO_O);
	g.lines = 9;
	expect_place(&g, TETROMINO_O, 0, 8, 2, 300, "double from 9 lines scores at level 1");
	ok(g.lines == 11 && g.level == 2, "11 lines: level 2");
	expect_place(&g, TETROMINO_T, 0, 3, 0, 0, "no clear");
	set_board(&g, single_rows, 2);
	expect_place(&g, TETROMINO_I, 0, 6, 1, 200, "the next single scores at level 2");
	g = game_with(single_rows, 2, TETROMINO_I);
	g.lines = 8;
	expect_place(&g, TETROMINO_I, 0, 6, 1, 100, "9 lines: still level 1");
	is_int(g.level, 1, "level 1 at 9 lines");
}

static void
expect_refused(struct stackfall *g, enum stackfall_outcome got, enum stackfall_outcome want,
    const struct stackfall *before, const char *reason, const struct stackfall_report *rep,
    const char *what)
{
	ok(got == want && memcmp(g, before, sizeof *g) == 0 && rep->outcome == want,
	    "%s: refused, state byte-identical", what);
	if (reason != NULL)
		is_str(rep->message, reason, "%s: reason", what);
}

static void
test_refusals(void)
{
	static const char *const tall[] = {
		"O.........", "O.........", "O.........", "O.........", "O.........",
		"O.........", "O.........", "O.........", "O.........", "O.........",
		"O.........", "O.........", "O.........", "O.........", "O.........",
		"O.........", "O.........", "O.........",
	};
	struct stackfall g, before;
	struct stackfall_report rep;
	struct tetromino_preview pv;

	g = game_with(NULL, 0, TETROMINO_I);
	memcpy(&before, &g, sizeof g);
	expect_refused(&g, stackfall_place(&g, 0, 8, &rep), STACKFALL_REFUSED, &before,
	    "column 8 is out of range for I rotation 0: columns 0-6", &rep, "I 0 8");
	expect_refused(&g, stackfall_place(&g, 4, 0, &rep), STACKFALL_REFUSED, &before,
	    "rotation 4 is out of range: rotations 0-3", &rep, "rotation 4");
	expect_refused(&g, stackfall_place(&g, 4000000000u, 0, &rep), STACKFALL_REFUSED, &before,
	    "rotation 4000000000 is out of range: rotations 0-3", &rep, "rotation 4e9");
	expect_refused(&g, stackfall_place(&g, 1, 10, &rep), STACKFALL_REFUSED, &before,
	    "column 10 is out of range for I rotation 1: columns 0-9", &rep, "I 1 10");
	expect_refused(&g, stackfall_preview(&g, 0, 7, &pv, &rep), STACKFALL_REFUSED, &before,
	    "column 7 is out of range for I rotation 0: columns 0-6", &rep, "preview I 0 7");

	g = game_with(tall, 18, TETROMINO_I);
	memcpy(&before, &g, sizeof g);
	expect_refused(&g, stackfall_place(&g, 1, 0, &rep), STACKFALL_REFUSED, &before,
	    "I rotation 1 at column 0 does not fit: it would reach row 22, above row 20", &rep,
	    "too high");
	ok(stackfall_place(&g, 0, 0, NULL) == STACKFALL_OK, "a flat I on top of it fits (row 19)");
	/* With rep NULL a refusal still changes nothing. */
	memcpy(&before, &g, sizeof g);
	ok(stackfall_place(&g, 9, 9, NULL) == STACKFALL_REFUSED &&
	    memcmp(&g, &before, sizeof g) == 0, "refusal without a report");
}

static void
test_hold(void)
{
	struct stackfall g, before;
	struct stackfall_report rep;
	uint8_t c0, n0, n1, n2;

	stackfall_init(&g, 42); /* TIZJSOL TJLSOIZ ... */
	c0 = g.current;
	n0 = g.next[0];
	n1 = g.next[1];
	n2 = g.next[2];
	ok(c0 == TETROMINO_T && n0 == TETROMINO_I && n1 == TETROMINO_Z && n2 == TETROMINO_J,
	    "seed 42 starts T, next I Z J");
	ok(stackfall_hold(&g, &rep) == STACKFALL_OK, "first hold");
	is_str(rep.message, "held T; current piece is I", "hold message");
	ok(g.hold == TETROMINO_T && g.current == TETROMINO_I && g.next[0] == TETROMINO_Z &&
	    g.next[1] == TETROMINO_J && g.next[2] == TETROMINO_S && !g.can_hold && g.drawn == 2,
	    "an empty slot takes the piece and the stream moves up by one");
	memcpy(&before, &g, sizeof g);
	expect_refused(&g, stackfall_hold(&g, &rep), STACKFALL_REFUSED, &before,
	    "hold already used for this piece", &rep, "second hold");
	ok(stackfall_place(&g, 0, 0, NULL) == STACKFALL_OK && g.can_hold && g.current == TETROMINO_Z,
	    "a placement gives hold back; Z is current");
	ok(stackfall_hold(&g, &rep) == STACKFALL_OK && g.current == TETROMINO_T &&
	    g.hold == TETROMINO_Z && g.next[0] == TETROMINO_J && g.drawn == 3,
	    "a full slot swaps without drawing");
	is_str(rep.message, "held Z; current piece is T", "swap message");
}

/* Rows 1-18 miss column 9 and one more; row 19 misses only column 9. With
 * column 9 empty only I (upright in column 9, flat on top), L (rotation 3 at
 * column 8) and J (rotation 2 at column 7) fit; O, T, S and Z do not. */
static struct stackfall
well_game(void)
{
	static const char *const rows[] = {
		"OOOOOOOOO.",
		"OOOOOOOOO.", ".OOOOOOOO.", "O.OOOOOOO.", "OO.OOOOOO.", "OOO.OOOOO.",
		"OOOO.OOOO.", "OOOOO.OOO.", "OOOOOO.OO.", "OOOOOOO.O.", "OOOOOOOO..",
		".OOOOOOOO.", "O.OOOOOOO.", "OO.OOOOOO.", "OOO.OOOOO.", "OOOO.OOOO.",
		"OOOOO.OOO.", "OOOOOO.OO.", "OOOOOOO.O.",
	};
	return game_with(rows, 19, TETROMINO_I);
}

static void
test_top_out(void)
{
	struct stackfall g, before;
	struct stackfall_report rep;
	unsigned p;

	g = well_game();
	for (p = 0; p < 7; p++)
		ok(tetromino_can_place(&g.board, p) ==
		    (p == TETROMINO_I || p == TETROMINO_L || p == TETROMINO_J),
		    "well board: %c %s", tetromino_letter(p),
		    p == TETROMINO_I || p == TETROMINO_L || p == TETROMINO_J ? "fits" : "does not fit");

	/* No hold alternative: next is O, the piece after it T. */
	g = well_game();
	g.next[0] = TETROMINO_O;
	g.next[1] = TETROMINO_T;
	ok(stackfall_place(&g, 1, 9, &rep) == STACKFALL_OK, "I upright in the well");
	ok(g.status == STACKFALL_OVER && g.end_reason == STACKFALL_END_TOP_OUT && !g.can_hold &&
	    g.current == TETROMINO_O && g.next[0] == TETROMINO_T,
	    "O cannot be placed and hold would give T: top_out, current and next kept");
	is_str(rep.message, "placed I rotation 1 at column 9; game over (top_out)",
	    "the placement says the game ended");

	/* The next piece would fit through hold: the game goes on. */
	g = well_game();
	g.next[0] = TETROMINO_O;
	g.next[1] = TETROMINO_L;
	stackfall_place(&g, 1, 9, NULL);
	ok(g.status == STACKFALL_PLAYING && g.current == TETROMINO_O && g.can_hold,
	    "O does not fit but hold would bring L: still playing");
	ok(stackfall_hold(&g, &rep) == STACKFALL_OK && g.status == STACKFALL_PLAYING &&
	    g.current == TETROMINO_L, "hold brings L, which fits");

	/* The held piece would fit: the game goes on. */
	g = well_game();
	g.hold = TETROMINO_J;
	g.next[0] = TETROMINO_O;
	g.next[1] = TETROMINO_T;
	stackfall_place(&g, 1, 9, NULL);
	ok(g.status == STACKFALL_PLAYING, "O does not fit but the held J would: still playing");

	/* After a hold, hold is spent: the piece it brought must fit, even though
	 * the piece put aside would have. */
	g = well_game();
	g.hold = TETROMINO_O;
	ok(stackfall_hold(&g, &rep) == STACKFALL_OK, "hold the fitting I, take O");
	ok(g.status == STACKFALL_OVER && g.end_reason == STACKFALL_END_TOP_OUT &&
	    g.current == TETROMINO_O && g.hold == TETROMINO_I,
	    "O does not fit and hold is spent: top_out");
	is_str(rep.message, "held I; current piece is O; game over (top_out)", "hold message");
	g = well_game();
	g.current = TETROMINO_L;
	g.next[0] = TETROMINO_T;
	stackfall_hold(&g, NULL);
	ok(g.status == STACKFALL_OVER && g.end_reason == STACKFALL_END_TOP_OUT,
	    "a hold into the empty slot that brings T: top_out");

	memcpy(&before, &g, sizeof g);
	expect_refused(&g, stackfall_place(&g, 1, 9, &rep), STACKFALL_GAME_OVER, &before,
	    "the game is over (top_out)", &rep, "place after top_out");
}

static void
test_piece_limit(void)
{
	struct stackfall g, before;
	struct stackfall_report rep;
	struct tetromino_preview pv;
	struct tetromino_option opts[STACKFALL_OPTIONS_MAX];
	size_t n = 99;

	stackfall_init(&g, 5);
	g.placed = 149;
	ok(stackfall_place(&g, 0, 0, &rep) == STACKFALL_OK, "the 150th placement is made");
	ok(g.status == STACKFALL_OVER && g.end_reason == STACKFALL_END_PIECE_LIMIT &&
	    g.placed == 150 && !g.can_hold, "then the game is over: piece_limit");

	/* piece_limit is checked before top_out. */
	g = well_game();
	g.placed = 149;
	g.next[0] = TETROMINO_O;
	g.next[1] = TETROMINO_T;
	stackfall_place(&g, 1, 9, NULL);
	is_int(g.end_reason, STACKFALL_END_PIECE_LIMIT, "piece_limit wins over top_out");

	memcpy(&before, &g, sizeof g);
	expect_refused(&g, stackfall_place(&g, 0, 0, &rep), STACKFALL_GAME_OVER, &before,
	    "the game is over (piece_limit)", &rep, "place");
	expect_refused(&g, stackfall_hold(&g, &rep), STACKFALL_GAME_OVER, &before, NULL, &rep,
	    "hold");
	expect_refused(&g, stackfall_options(&g, opts, STACKFALL_OPTIONS_MAX, &n, &rep),
	    STACKFALL_GAME_OVER, &before, NULL, &rep, "options");
	is_int(n, 99, "options over: count untouched");
	expect_refused(&g, stackfall_preview(&g, 0, 0, &pv, &rep), STACKFALL_GAME_OVER, &before,
	    NULL, &rep, "preview");
	expect_refused(&g, stackfall_resign(&g, &rep), STACKFALL_GAME_OVER, &before, NULL, &rep,
	    "resign");
	expect_refused(&g, stackfall_abandon(&g, &rep), STACKFALL_GAME_OVER, &before,
	    "the game is over (piece_limit)", &rep, "abandon");
}

static void
test_resign_abandon(void)
{
	struct stackfall g, before;
	struct stackfall_report rep;

	g = game_with(single_rows, 2, TETROMINO_I);
	stackfall_place(&g, 0, 6, NULL);
	ok(stackfall_resign(&g, &rep) == STACKFALL_OK && g.status == STACKFALL_OVER &&
	    g.end_reason == STACKFALL_END_RESIGNED && g.score == 100 && g.lines == 1 &&
	    g.placed == 1 && !g.can_hold, "resign ends the run and keeps the score");
	is_str(rep.message, "resigned: score 100, 1 line, 1 piece", "resign message");
	memcpy(&before, &g, sizeof g);
	expect_refused(&g, stackfall_hold(&g, &rep), STACKFALL_GAME_OVER, &before,
	    "the game is over (resigned)", &rep, "hold after resign");

	stackfall_init(&g, 3);
	ok(stackfall_abandon(&g, &rep) == STACKFALL_OK && g.status == STACKFALL_OVER &&
	    g.end_reason == STACKFALL_END_ABANDONED, "abandon ends an unfinished run");
	is_str(rep.message, "abandoned: score 0, 0 lines, 0 pieces", "abandon message");
	is_str(stackfall_end_name(g.end_reason), "abandoned", "end name");
	is_str(stackfall_status_name(g.status), "over", "status name");
	ok(stackfall_end_name(STACKFALL_END_NONE) == NULL, "no end name while playing");
}

static void
test_messages_preview_options(void)
{
	static const char *const rows[] = { "SS........", "OOOO..OOOO", "JJJJ.JJJJJ" };
	struct stackfall g, before;
	struct stackfall_report rep;
	struct tetromino_preview pv;
	struct tetromino_option opts[STACKFALL_OPTIONS_MAX];
	char text[STACKFALL_TEXT_SIZE];
	size_t n, i;

	g = game_with(rows, 3, TETROMINO_T);
	memcpy(&before, &g, sizeof g);
	ok(stackfall_preview(&g, 1, 4, &pv, &rep) == STACKFALL_OK &&
	    memcmp(&g, &before, sizeof g) == 0, "preview changes nothing");
	ok(pv.figures.lines == 2 && pv.figures.holes == 0 && pv.figures.max_height == 1 &&
	    pv.figures.bumpiness == 3, "preview figures: 2 lines, 0 holes, max 1, bumpiness 3");
	ok(strcmp(pv.board_text + 19 * 11, "SS..T.....") == 0, "preview board after the clears");
	is_str(rep.message, "preview of T rotation 1 at column 4: 2 lines", "preview message");
	ok(stackfall_options(&g, opts, STACKFALL_OPTIONS_MAX, &n, &rep) == STACKFALL_OK,
	    "options");
	for (i = 0; i < n; i++)
		if (opts[i].rotation == 1 && opts[i].column == 4)
			break;
	ok(i < n && opts[i].figures.lines == 2 && opts[i].figures.bumpiness == 3,
	    "options lists T 1 4 with the preview's figures");
	ok(strstr(rep.message, "placements for T") != NULL, "options message");
	ok(stackfall_place(&g, 1, 4, &rep) == STACKFALL_OK, "place T 1 4");
	is_str(rep.message, "placed T rotation 1 at column 4: 2 lines, +300", "place message");
	stackfall_board_text(&g, text);
	is_str(text, pv.board_text, "the board is what preview showed");

	g = game_with(tetris_pc_rows, 4, TETROMINO_I);
	g.back_to_back = true;
	g.combo = 0;
	stackfall_place(&g, 1, 9, &rep);
	is_str(rep.message,
	    "placed I rotation 1 at column 9: 4 lines, +4450 (back-to-back, combo 1, perfect clear)",
	    "message of the worked check");
	g = game_with(single_rows, 2, TETROMINO_I);
	stackfall_place(&g, 0, 6, &rep);
	is_str(rep.message, "placed I rotation 0 at column 6: 1 line, +100", "single message");
}

static void
test_init(void)
{
	struct stackfall g;
	char text[STACKFALL_TEXT_SIZE];
	int i, empty = 1;

	ok(!stackfall_init(&g, STACKFALL_SEED_MAX + 1), "seed 2^53 is refused");
	ok(stackfall_init(&g, STACKFALL_SEED_MAX), "seed 2^53 - 1 is accepted");
	ok(stackfall_init(&g, 0) && g.current == TETROMINO_T && g.next[0] == TETROMINO_O &&
	    g.next[1] == TETROMINO_J && g.next[2] == TETROMINO_I, "seed 0: T, next O J I");
	ok(g.score == 0 && g.lines == 0 && g.level == 1 && g.placed == 0 && g.combo == -1 &&
	    !g.back_to_back && g.hold == STACKFALL_NO_PIECE && g.can_hold &&
	    g.status == STACKFALL_PLAYING && g.end_reason == STACKFALL_END_NONE,
	    "a new run's counters");
	stackfall_board_text(&g, text);
	for (i = 0; i < 219; i++)
		if (text[i] != ((i + 1) % 11 == 0 ? '\n' : '.'))
			empty = 0;
	ok(empty && text[219] == '\0', "an empty board's text");
}

int
main(void)
{
	test_init();
	test_clear_sizes();
	test_back_to_back_and_combo();
	test_levels();
	test_refusals();
	test_hold();
	test_top_out();
	test_piece_limit();
	test_resign_abandon();
	test_messages_preview_options();
	return tap_done();
}
