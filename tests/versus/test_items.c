/*
 * test_items.c: hand-worked turns of versus matches with items, one rule at
 * a time (docs/rules/versus.md, "Items").
 *
 * Matches here use item_chance 100 and one weight, so every mino carries
 * the one item the test needs; boards, pieces and inventories are then set
 * directly in the plain struct. Every expected board, inventory and place
 * was worked out by hand from the rule text. Seed 7's garbage holes are
 * 2, 2, 7, ... (test_versus.c says how CPython prints them), and
 *     python3 -c 'import random; r = random.Random("versus-v1:7:items:0:0");
 *         print([r.random() for _ in range(5)])'
 * gives 0.803, 0.184, 0.214, 0.293, 0.973: at chance 20 with six equal
 * weights only mino 1 carries an item, int(0.214 * 6) = 1, clear_line.
 */
#include <string.h>

#include "tap.h"
#include "versus.h"

#define SEED 7

static struct versus_match M;
static struct versus_events E;
static char why[ENGINE_REASON_MAX];

static struct versus_move
mv_place(unsigned use, unsigned r, unsigned c)
{
	struct versus_move mv = { VERSUS_MOVE_PLACE, false, r, c, use };

	return mv;
}

static void
set_rows(unsigned player, const char *const *rows, int n)
{
	struct versus_player *p = &M.players[player];
	int i, c;

	tetromino_board_init(&p->board);
	memset(p->items, 0, sizeof p->items);
	for (i = 0; i < n; i++)
		for (c = 0; c < 10; c++) {
			unsigned r = (unsigned)(n - 1 - i);
			if (rows[i][c] == 'G')
				p->board.rows[r] = (uint16_t)(p->board.rows[r] | 1u << c);
			else if (rows[i][c] != '.')
				tetromino_board_set(&p->board, r, (unsigned)c,
				    (unsigned)tetromino_from_letter(rows[i][c]) + 1);
		}
}

/* Text of n rows (top first) under empty ones, as versus_board_text(). */
static void
want_text(const char *const *rows, int n, char want[VERSUS_TEXT_SIZE])
{
	int r, i = 0;

	for (r = 20; r > 0; r--) {
		memcpy(want + i, r > n ? ".........." : rows[n - r], 10);
		i += 10;
		want[i++] = r > 1 ? '\n' : '\0';
	}
}

static void
rows_are(unsigned player, const char *const *rows, int n, const char *what)
{
	char text[VERSUS_TEXT_SIZE], want[VERSUS_TEXT_SIZE];

	versus_board_text(&M.players[player], text);
	want_text(rows, n, want);
	if (!is_str(text, want, "%s", what))
		diag("board:\n%s", text);
}

static void
items_are(unsigned viewer, unsigned player, const char *const *rows, int n, const char *what)
{
	struct versus_view v;
	char want[VERSUS_TEXT_SIZE];

	versus_view(&M, viewer, player, &v);
	want_text(rows, n, want);
	is_str(v.items_text, want, "%s", what);
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

/* A match of n on seed 7 where every mino carries item. */
static void
start(unsigned n, unsigned item)
{
	uint8_t w[VERSUS_ITEM_KINDS] = { 0 };

	w[item - 1] = 1;
	versus_init(&M, SEED, n);
	ok(versus_set_items(&M, 100, w), "items on: chance 100, only %s", versus_item_name(item));
}

/* Everyone's current piece becomes an O with no items (quiet placements). */
static void
all_o(void)
{
	unsigned i;

	for (i = 0; i < M.nplayers; i++) {
		M.players[i].current = TETROMINO_O;
		M.players[i].current_items = 0;
	}
}

static void
test_rolls(void)
{
	uint8_t w[VERSUS_ITEM_KINDS] = { 1, 1, 1, 1, 1, 1 };
	uint8_t bad[VERSUS_ITEM_KINDS] = { 0 };
	struct versus_match off;

	versus_init(&M, SEED, 2);
	off = M;
	ok(!versus_set_items(&M, 101, w), "chance 101 refused");
	ok(!versus_set_items(&M, 10, bad), "all weights 0 refused");
	ok(memcmp(&M, &off, sizeof M) == 0, "a refusal changes nothing");
	ok(versus_set_items(&M, 20, w), "chance 20, equal weights");
	is_int(versus_item_roll(&M, 0, 0), 0x20, "CPython: only mino 1 carries clear_line");
	is_int(M.players[0].current_items, 0x20, "rolled for the current piece");
	versus_init(&M, SEED, 2);
	is_int(versus_item_roll(&M, 0, 0), 0, "chance 0: no rolls");
	start(2, VERSUS_ITEM_NUKE);
	is_int(M.players[1].next_items[2], 0x3333, "chance 100: every mino, every preview piece");
}

static void
test_parse(void)
{
	struct versus_move mv;
	char text[64];
	static const char *const bad[] = {
		"use 1", "use 0; place 0 0", "use; place 0 0", "use 1; resign", "use 1 place 0 0",
		"use 1; hold", "use 1; use 2; place 0 0",
	};
	size_t i;

	ok(versus_move_parse("use 1; place 3 4", 16, &mv, why, sizeof why) == VERSUS_PARSE_OK &&
	    mv.use == 1 && mv.rotation == 3 && mv.column == 4 && !mv.hold, "use 1; place 3 4");
	ok(versus_move_parse(" USE 2\nhold; place 0 1", 22, &mv, why, sizeof why) ==
	    VERSUS_PARSE_OK && mv.use == 2 && mv.hold && mv.column == 1, "USE 2, a new line, hold");
	versus_move_text(&mv, text, sizeof text);
	is_str(text, "use 2; hold; place 0 1", "canonical text");
	ok(versus_move_parse("place 0 0", 9, &mv, why, sizeof why) == VERSUS_PARSE_OK &&
	    mv.use == 0, "no use");
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
		ok(versus_move_parse(bad[i], strlen(bad[i]), &mv, why, sizeof why) ==
		    VERSUS_PARSE_INVALID, "refused: %s (%s)", bad[i], why);
}

/* An I that clears the bottom row collects its four items there; a full
 * inventory discards what does not fit. */
static void
test_collect_and_cap(void)
{
	static const char *const before[] = { "TTTTTT...." };
	static const char *const two[] = { "TTTTTT....", "TTTTTT...." };
	struct versus_move mv[2];

	start(2, VERSUS_ITEM_BLIND);
	all_o();
	set_rows(0, before, 1);
	M.players[0].items[0][1] = VERSUS_ITEM_SWAP; /* an item already on the board */
	M.players[0].current = TETROMINO_I;
	M.players[0].current_items = 0x5555;
	mv[0] = mv_place(0, 0, 6);
	mv[1] = mv_place(0, 0, 0);
	ok(resolve(mv), "I at 6 clears the row");
	is_int(E.players[0].collected, 5, "five items collected");
	is_int(M.players[0].ninventory, 5, "inventory of 5");
	is_int(M.players[0].inventory[0], VERSUS_ITEM_SWAP, "column order: swap at column 1 first");
	is_int(M.players[0].inventory[4], VERSUS_ITEM_BLIND, "then the I's blinds");
	ok(tetromino_board_is_empty(&M.players[0].board), "the row is gone");

	/* Two rows cleared by two O's, the inventory at 9 of 10. */
	all_o();
	set_rows(0, two, 2);
	M.players[0].items[1][0] = VERSUS_ITEM_NUKE;
	M.players[0].current = TETROMINO_O;
	M.players[0].current_items = 0x5555;
	M.players[0].ninventory = 9;
	mv[0] = mv_place(0, 0, 6);
	mv[1] = mv_place(0, 0, 2);
	ok(resolve(mv), "O at 6-7 fills nothing");
	is_int(E.players[0].collected, 0, "nothing collected");
	M.players[0].current = TETROMINO_O;
	M.players[0].current_items = 0x5555;
	mv[0] = mv_place(0, 0, 8);
	mv[1] = mv_place(0, 0, 4);
	ok(resolve(mv), "O at 8-9 clears both rows");
	is_int(E.players[0].collected, 9, "both O's blinds and the nuke");
	is_int(E.players[0].discarded, 8, "eight beyond the cap discarded");
	is_int(M.players[0].ninventory, VERSUS_INVENTORY_MAX, "inventory at the cap");
	is_int(M.players[0].inventory[9], VERSUS_ITEM_BLIND,
	    "the first in order (row 0, column 6) kept");
}

/* Rows with an item drop when a row under them clears. */
static void
test_items_drop(void)
{
	static const char *const before[] = { "OO........", "TTTTTTTT.." };
	static const char *const it[] = { "s........." };
	struct versus_move mv[2];

	start(2, VERSUS_ITEM_NUKE);
	all_o();
	set_rows(0, before, 2);
	M.players[0].items[1][0] = VERSUS_ITEM_SWAP;
	/* An O at 8 fills row 0, its upper cells going into row 1. */
	M.players[0].current = TETROMINO_O;
	mv[0] = mv_place(0, 0, 8);
	mv[1] = mv_place(0, 0, 4);
	ok(resolve(mv), "O at 8 clears row 0");
	rows_are(0, (const char *const[]){ "OO......OO" }, 1, "the O's top and the old OO drop");
	items_are(0, 0, it, 1, "the swap dropped one row with its cell");
}

/* add_line pushes one grey row in at once (hole from the garbage stream)
 * and can overflow the target out of the match. */
static void
test_add_line(void)
{
	static const char *const full[] = {
		"T.........", "T.........", "T.........", "T.........", "T.........",
		"T.........", "T.........", "T.........", "T.........", "T.........",
		"T.........", "T.........", "T.........", "T.........", "T.........",
		"T.........", "T.........", "T.........", "T.........", "T.........",
	};
	struct versus_move mv[3];

	start(3, VERSUS_ITEM_ADD_LINE);
	all_o();
	M.players[0].inventory[0] = VERSUS_ITEM_ADD_LINE;
	M.players[0].inventory[1] = VERSUS_ITEM_ADD_LINE;
	M.players[0].ninventory = 2;
	mv[0] = mv_place(3, 0, 0); /* seat 3 of player 0: player 2 */
	mv[1] = mv_place(0, 0, 4);
	mv[2] = mv_place(0, 0, 4);
	ok(resolve(mv), "use 3 on player 2");
	is_int(E.nhits, 1, "one hit");
	is_int(E.hits[0].target, 2, "on player 2");
	is_int(E.hits[0].item, VERSUS_ITEM_ADD_LINE, "by add_line");
	rows_are(2, (const char *const[]){ "....OO....", "....OO....", "GG.GGGGGGG" }, 3,
	    "the O rests on the grey row, hole 2 (block 0)");
	is_int(M.nblocks, 1, "the line used block number 0");
	is_int(M.players[0].ninventory, 1, "one item left");

	all_o();
	set_rows(1, full, 20);
	/* Player 1's board reaches row 20 in column 0 but an O fits at 4. */
	mv[0] = mv_place(2, 0, 6);
	mv[1] = mv_place(0, 0, 4);
	mv[2] = mv_place(0, 0, 0);
	ok(resolve(mv), "use 2 on player 1, whose column 0 is 20 high");
	ok(E.players[1].eliminated && E.players[1].end_reason == VERSUS_END_OVERFLOW,
	    "add_line pushed a cell above row 20: overflow");
	is_int(E.players[1].place, 3, "third of three");
}

/* clear_line removes the bottom row and its items; the rest drops. */
static void
test_clear_line(void)
{
	static const char *const before[] = { "ZZ........", "TTTTTT...." };
	struct versus_move mv[2];

	start(2, VERSUS_ITEM_CLEAR_LINE);
	all_o();
	set_rows(1, before, 2);
	M.players[1].items[0][2] = VERSUS_ITEM_NUKE;  /* lost */
	M.players[1].items[1][1] = VERSUS_ITEM_SWAP;  /* drops */
	M.players[0].inventory[0] = VERSUS_ITEM_CLEAR_LINE;
	M.players[0].ninventory = 1;
	M.players[1].current_items = 0x2222;
	mv[0] = mv_place(2, 0, 0);
	mv[1] = mv_place(0, 0, 4);
	ok(resolve(mv), "use 2: clear_line on player 1");
	rows_are(1, (const char *const[]){ "....OO....", "ZZ..OO...." }, 2,
	    "placed first, then the bottom row removed");
	items_are(0, 1, (const char *const[]){ "....cc....", ".s..cc...." }, 2,
	    "the nuke is lost with its row; the swap dropped with its row");
}

static void
test_nuke_and_swap(void)
{
	static const char *const a[] = { "JJJ.......", "JJJJ......" };
	static const char *const b[] = { "LLLLLLL..." };
	struct versus_move mv[2];
	struct versus_view v;

	start(2, VERSUS_ITEM_SWAP);
	all_o();
	set_rows(0, a, 2);
	set_rows(1, b, 1);
	M.players[0].items[0][3] = VERSUS_ITEM_BLIND;
	M.players[1].items[0][6] = VERSUS_ITEM_NUKE;
	M.players[0].inventory[0] = VERSUS_ITEM_SWAP;
	M.players[0].ninventory = 1;
	M.players[0].current_items = 0x4444;
	mv[0] = mv_place(2, 0, 8);
	mv[1] = mv_place(0, 0, 0);
	ok(resolve(mv), "use 2: swap");
	rows_are(0, (const char *const[]){ "OO........", "OO........", "LLLLLLL..." }, 3,
	    "player 0 has player 1's board, with its O");
	rows_are(1, (const char *const[]){ "JJJ.....OO", "JJJJ....OO" }, 2,
	    "player 1 has player 0's board, with its O");
	versus_view(&M, VERSUS_NOBODY, 0, &v);
	ok(v.items_text[19 * 11 + 6] == 'n', "the nuke travelled to player 0");
	versus_view(&M, VERSUS_NOBODY, 1, &v);
	ok(v.items_text[19 * 11 + 3] == 'b', "the blind travelled to player 1");
	ok(v.items_text[19 * 11 + 8] == 's' && v.items_text[18 * 11 + 9] == 's',
	    "the O's swaps are on its cells");

	/* swap on oneself does nothing; a nuke empties the target's board. */
	all_o();
	M.players[0].inventory[0] = VERSUS_ITEM_SWAP;
	M.players[0].inventory[1] = VERSUS_ITEM_NUKE;
	M.players[0].ninventory = 2;
	mv[0] = mv_place(1, 0, 8);
	mv[1] = mv_place(0, 0, 4);
	ok(resolve(mv), "use 1: swap on oneself");
	is_int(E.players[0].used, VERSUS_ITEM_SWAP, "the swap was used");
	rows_are(0, (const char *const[]){ "OO........", "OO......OO", "LLLLLLL.OO" }, 3,
	    "nothing swapped");
	all_o();
	mv[0] = mv_place(2, 0, 2);
	mv[1] = mv_place(0, 0, 4);
	ok(resolve(mv), "use 2: nuke");
	ok(tetromino_board_is_empty(&M.players[1].board), "player 1's board is empty");
	versus_view(&M, VERSUS_NOBODY, 1, &v);
	ok(strchr(v.items_text, 's') == NULL && strchr(v.items_text, 'b') == NULL,
	    "its items gone");
	is_int(M.players[0].ninventory, 0, "inventory empty");
	all_o();
	mv[0] = mv_place(2, 0, 4);
	mv[1] = mv_place(0, 0, 0);
	ok(resolve(mv), "use with an empty inventory");
	is_int(E.players[0].used, VERSUS_ITEM_NONE, "does nothing");
	is_int(E.nhits, 0, "and hits nobody");
}

static void
test_blind(void)
{
	static const char *const b[] = { "LLLLLLL..." };
	struct versus_move mv[2];
	struct versus_view v;
	unsigned t;

	start(2, VERSUS_ITEM_BLIND);
	all_o();
	set_rows(1, b, 1);
	M.players[1].items[0][0] = VERSUS_ITEM_NUKE;
	M.players[0].inventory[0] = VERSUS_ITEM_BLIND;
	M.players[0].inventory[1] = VERSUS_ITEM_BLIND;
	M.players[0].ninventory = 2;
	mv[0] = mv_place(2, 0, 0);
	mv[1] = mv_place(0, 0, 8);
	ok(resolve(mv), "use 2: blind on player 1");
	is_int(M.players[1].blind, 4, "4 turns");
	{
		struct versus_move tall = mv_place(0, 1, 0);

		set_rows(1, (const char *const[]){ "L.........", "L.........", "L.........",
		    "L.........", "L.........", "L.........", "L.........", "L.........",
		    "L.........", "L.........", "L.........", "L.........", "L.........",
		    "L.........", "L.........", "L.........", "L.........", "LLLLLLL..." }, 18);
		M.players[1].current = TETROMINO_I;
		ok(!versus_check_move(&M, 1, &tall, why, sizeof why) && strstr(why, "reach row") == NULL,
		    "a refusal does not tell a blind player its height (%s)", why);
		set_rows(1, b, 1);
		M.players[1].items[0][0] = VERSUS_ITEM_NUKE;
	}
	versus_view(&M, 1, 1, &v);
	ok(strchr(v.board_text, 'L') == NULL && strchr(v.board_text, 'O') == NULL &&
	    strchr(v.items_text, 'n') == NULL, "hidden in its own view, items too");
	versus_view(&M, 0, 1, &v);
	ok(strchr(v.board_text, 'L') == NULL, "hidden in an opponent's view");
	versus_view(&M, VERSUS_NOBODY, 1, &v);
	ok(strchr(v.board_text, 'L') == NULL, "hidden from spectators");
	ok(v.current == M.players[1].current, "the current piece still shows");
	all_o();
	mv[0] = mv_place(2, 0, 2);
	mv[1] = mv_place(0, 0, 4);
	ok(resolve(mv), "a second blind");
	is_int(M.players[1].blind, 3 + 4, "stacks: 3 left plus 4");
	for (t = 0; t < 7; t++) {
		all_o();
		mv[0] = mv_place(0, 0, (t % 2) * 8);
		mv[1] = mv_place(0, 0, 2 + t % 4);
		if (t == 3)
			set_rows(0, b, 0), set_rows(1, b, 1);
		if (!resolve(mv))
			break;
	}
	is_int(M.players[1].blind, 0, "seven turns later it is over");
	versus_view(&M, 0, 1, &v);
	ok(strchr(v.board_text, 'L') != NULL, "the board shows again");
}

/* Transformation, worked by hand. CPython's odd draws for seed 7, player 1:
 *     python3 -c 'import random; print([int(random.Random(
 *         "versus-v1:7:odd:1:%d" % i).random() * 5) for i in range(8)])'
 * prints [2, 3, 4, 2, 0, 2, 2, 0]: stream piece 2 becomes a W (4), 3 a U
 * (2), 4 a Dot (0), 5 a U. A shape slot holds odd + 1. */
static void
test_transform(void)
{
	static const char *const w_rows[] = { ".......X..", ".......XX.", "........XX" };
	static const char *const w_items[] = { "..........", ".......tt.", "........tt" };
	uint8_t buf[VERSUS_SERIAL_MAX], again[VERSUS_SERIAL_MAX];
	struct versus_match d, bad;
	struct versus_move mv[2];
	struct versus_view v;
	char rows[3][11];
	unsigned under, k, i;
	uint16_t held_items;
	size_t n;

	start(2, VERSUS_ITEM_TRANSFORM);
	all_o();
	M.players[0].inventory[0] = VERSUS_ITEM_TRANSFORM;
	M.players[0].ninventory = 1;
	mv[0] = mv_place(2, 0, 0);
	mv[1] = mv_place(0, 0, 4);
	ok(resolve(mv), "turn 1: use 2, transform on player 1");
	is_int(E.nhits, 1, "one hit");
	is_int(E.hits[0].item, VERSUS_ITEM_TRANSFORM, "listed as transform");
	is_int(M.players[1].transform, 8, "8 turns");
	is_int(M.players[1].current_shape, 0, "the current piece is unchanged");
	ok(M.players[1].next_shape[0] == 5 && M.players[1].next_shape[1] == 3 &&
	    M.players[1].next_shape[2] == 1, "the preview is W, U, Dot (CPython's draws)");
	is_int(M.players[0].transform, 0, "the user is untouched");
	ok(M.players[0].next_shape[0] == 0 && M.players[0].next_shape[2] == 0,
	    "and its preview too");
	versus_view(&M, 1, 1, &v);
	ok(v.next_shape[0] == 5 && v.next_shape[2] == 1 && v.transform == 8,
	    "its own view shows the shapes and 8 turns");
	is_int(v.next_items[0], 0x6666, "a W carries the piece's four items");
	is_int(v.next_items[2], 0x6, "a Dot only the first one");
	is_int(M.players[1].next_items[2], 0x6666, "the piece under it keeps all four");
	versus_view(&M, 0, 1, &v);
	ok(v.next_shape[0] == 0 && v.transform == 8, "an opponent sees the turns, not the preview");

	/* Turn 2: a second transform stacks on the 7 turns left. */
	all_o();
	M.players[0].inventory[0] = VERSUS_ITEM_TRANSFORM;
	M.players[0].ninventory = 1;
	mv[0] = mv_place(2, 0, 2);
	mv[1] = mv_place(0, 0, 6);
	ok(resolve(mv), "turn 2: transform again");
	is_int(M.players[1].transform, 8 - 1 + 8, "stacks: 7 left plus 8");
	is_int(M.players[1].current_shape, 5, "the W is current now");
	ok(M.players[1].next_shape[0] == 3 && M.players[1].next_shape[1] == 1 &&
	    M.players[1].next_shape[2] == 3, "U, Dot kept; piece 5 entered as a U");

	/* The bytes: version 3, and back. */
	n = versus_encode(&M, buf, sizeof buf);
	is_int(buf[0], VERSUS_SERIAL_VERSION_TRANSFORM, "a running transform writes version 3");
	ok(versus_decode(&d, buf, n), "it decodes");
	ok(versus_encode(&d, again, sizeof again) == n && memcmp(buf, again, n) == 0,
	    "to the same bytes");
	ok(d.players[1].transform == 15 && d.players[1].current_shape == 5 &&
	    memcmp(d.players[1].next_shape, M.players[1].next_shape, 3) == 0,
	    "counter and shapes come back");
	bad = M;
	bad.players[1].next_shape[1] = 0;
	n = versus_encode(&bad, buf, sizeof buf);
	ok(!versus_decode(&d, buf, n), "a running transform with a plain preview slot is refused");
	bad = M;
	bad.players[1].current_shape = 6;
	n = versus_encode(&bad, buf, sizeof buf);
	ok(!versus_decode(&d, buf, n), "shape 6 is refused");

	/* Turn 3: the W is placed at its last column, rotation 0. */
	set_rows(1, NULL, 0);
	under = M.players[1].current;
	{
		struct versus_move far = mv_place(0, 0, 8);

		ok(!versus_check_move(&M, 1, &far, why, sizeof why), "W rotation 0 at column 8 refused");
		is_str(why, "column 8 is out of range for W rotation 0: columns 0-7", "with the range");
	}
	held_items = M.players[1].current_items;
	all_o();
	M.players[1].current = (uint8_t)under;
	M.players[1].current_items = held_items;
	mv[0] = mv_place(0, 0, 0);
	mv[1] = mv_place(0, 0, 7);
	ok(resolve(mv), "turn 3: place 0 7 with the W");
	ok(E.players[1].shape == 5 && E.players[1].piece == under, "the event names W over its piece");
	for (i = 0; i < 3; i++) {
		memcpy(rows[i], w_rows[i], 11);
		for (k = 0; k < 10; k++)
			if (rows[i][k] == 'X')
				rows[i][k] = tetromino_letter(under);
	}
	rows_are(1, (const char *const[]){ rows[0], rows[1], rows[2] }, 3,
	    "the W's cells, in its piece's letter");
	items_are(1, 1, w_items, 3, "four items on its first four minos, none on the fifth");
	is_int(M.players[1].transform, 14, "14 turns left");
	is_int(M.players[1].current_shape, 3, "the U is current");

	/* The last turn of it: hold the U (slot empty: the Dot comes), place
	 * the Dot; then the preview and the hold change back. */
	M.players[1].transform = 1;
	held_items = M.players[1].current_items;
	under = M.players[1].current;
	all_o();
	M.players[1].current = (uint8_t)under;
	M.players[1].current_items = held_items;
	mv[0] = mv_place(0, 0, 0);
	mv[1] = mv_place(0, 0, 0);
	mv[1].hold = true;
	ok(resolve(mv), "hold the U, place the Dot at column 0");
	is_int(E.players[1].shape, 1, "a Dot was placed");
	is_int(M.players[1].transform, 0, "the transform is over");
	ok(M.players[1].hold == under && M.players[1].hold_shape == 0 &&
	    M.players[1].hold_items == held_items, "the held U is its piece again, with its items");
	ok(M.players[1].next_shape[0] == 0 && M.players[1].next_shape[1] == 0 &&
	    M.players[1].next_shape[2] == 0, "the preview is plain again");
	is_int(M.players[1].current_shape, 3, "the current piece (drawn before the end) stays a U");
	versus_view(&M, 1, 1, &v);
	is_int(v.hold, under, "the view shows the piece held");
	n = versus_encode(&M, buf, sizeof buf);
	is_int(buf[0], VERSUS_SERIAL_VERSION_TRANSFORM, "an odd current piece still needs version 3");
	ok(versus_decode(&d, buf, n), "and decodes");
}

static void
test_refused(void)
{
	struct versus_move mv[3], keep;
	struct versus_match before;
	unsigned bad = 99;

	start(3, VERSUS_ITEM_NUKE);
	all_o();
	mv[0] = mv_place(4, 0, 0);
	ok(!versus_check_move(&M, 0, &mv[0], why, sizeof why), "use 4 of 3 seats refused (%s)",
	    why);
	mv[0] = mv_place(0, 0, 0);
	mv[1] = (struct versus_move){ VERSUS_MOVE_RESIGN, false, 0, 0, 0 };
	mv[2] = mv_place(0, 0, 4);
	ok(resolve(mv), "player 1 resigns");
	all_o();
	keep = mv_place(2, 0, 0); /* player 0's seat 2 is player 1 */
	ok(!versus_check_move(&M, 0, &keep, why, sizeof why), "use on a player out refused (%s)",
	    why);
	mv[0] = keep;
	mv[2] = mv_place(2, 0, 4); /* player 2's seat 2 is player 0 */
	ok(versus_check_move(&M, 2, &mv[2], why, sizeof why), "player 2 may use 2 on player 0");
	before = M;
	ok(versus_resolve(&M, mv, &E, &bad, why, sizeof why) == VERSUS_REFUSED && bad == 0,
	    "the turn refuses player 0");
	ok(memcmp(&before, &M, sizeof M) == 0, "and changes nothing");
	versus_init(&M, SEED, 2);
	mv[0] = mv_place(1, 0, 0);
	ok(!versus_check_move(&M, 0, &mv[0], why, sizeof why), "no items: use refused (%s)", why);
}

static void
test_serial(void)
{
	uint8_t buf[VERSUS_SERIAL_MAX], again[VERSUS_SERIAL_MAX];
	struct versus_match d;
	struct versus_move mv[2];
	size_t n, n2;

	/* A reachable state: one real turn. */
	versus_init(&M, SEED, 2);
	versus_set_items(&M, 100, (const uint8_t[VERSUS_ITEM_KINDS]){ 0, 0, 0, 0, 1, 0 });
	mv[0] = mv_place(0, 0, 0);
	mv[1] = mv_place(0, 1, 0);
	ok(resolve(mv), "turn 1");
	n = versus_encode(&M, buf, sizeof buf);
	is_int(buf[0], VERSUS_SERIAL_VERSION_ITEMS, "a match with items writes version 2");
	ok(versus_decode(&d, buf, n), "and decodes");
	n2 = versus_encode(&d, again, sizeof again);
	ok(n == n2 && memcmp(buf, again, n) == 0, "to the same bytes");
	ok(memcmp(d.players[0].items, M.players[0].items, sizeof d.players[0].items) == 0 &&
	    d.players[1].next_items[2] == M.players[1].next_items[2], "items and rolls back");
	buf[17] = 0;
	ok(!versus_decode(&d, buf, n), "a changed byte refused");
}

int
main(void)
{
	test_rolls();
	test_parse();
	test_collect_and_cap();
	test_items_drop();
	test_add_line();
	test_clear_line();
	test_nuke_and_swap();
	test_blind();
	test_transform();
	test_refused();
	test_serial();
	return tap_done();
}
