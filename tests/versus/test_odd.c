/*
 * test_odd.c: the odd shapes of the Transformation item (versus_odd.h)
 * against the diagrams of docs/rules/versus.md, "Odd shapes".
 *
 * The diagrams below are typed from the rule text (top row first, X a
 * cell), not taken from the engine's table; every board after a drop was
 * worked out by hand. The draws are CPython's:
 *     python3 -c 'import random; print(random.Random("versus-v1:7:odd:0:0").random())'
 * prints 0.41020..., so shape int(0.410 * 5) = 2 (U); 7:odd:0:1 0.39236 -> 1,
 * 7:odd:1:0 0.42887 -> 2, 7:odd:1:5 0.58205 -> 2, and seed 2^53 - 1,
 * player 7, index 2^32 - 1 0.60667 -> 3.
 */
#include <string.h>

#include "tap.h"
#include "versus.h"
#include "versus_odd.h"

/* Per shape and rotation: the diagram and the last legal column. */
static const struct {
	const char *diagram;
	unsigned maxcol;
} want[VERSUS_ODD_KINDS][4] = {
	{ { "X", 9 }, { "X", 9 }, { "X", 9 }, { "X", 9 } },
	{ { "X./XX", 8 }, { "XX/X.", 8 }, { "XX/.X", 8 }, { ".X/XX", 8 } },
	{ { "X.X/XXX", 7 }, { "XX/X./XX", 8 }, { "XXX/X.X", 7 }, { "XX/.X/XX", 8 } },
	{ { ".X./XXX/.X.", 7 }, { ".X./XXX/.X.", 7 }, { ".X./XXX/.X.", 7 },
	  { ".X./XXX/.X.", 7 } },
	{ { "X../XX./.XX", 7 }, { ".XX/XX./X..", 7 }, { "XX./.XX/..X", 7 },
	  { "..X/.XX/XX.", 7 } },
};

/* A diagram as bit rows, bottom first; returns the height. */
static unsigned
diagram_rows(const char *d, uint16_t rows[3])
{
	uint16_t top_first[3] = { 0, 0, 0 };
	unsigned n = 0, c = 0, i;

	for (; *d; d++) {
		if (*d == '/') {
			n++;
			c = 0;
			continue;
		}
		if (*d == 'X')
			top_first[n] = (uint16_t)(top_first[n] | 1u << c);
		c++;
	}
	n++;
	for (i = 0; i < n; i++)
		rows[i] = top_first[n - 1 - i];
	return n;
}

static void
test_table(void)
{
	static const char *const names[] = { "dot", "small_l", "u", "plus", "w" };
	static const unsigned cells[] = { 1, 3, 5, 5, 5 };
	unsigned o, r, i, bits;

	for (o = 0; o < VERSUS_ODD_KINDS; o++) {
		is_str(versus_odd_name(o), names[o], "name of odd shape %u", o);
		is_int(versus_odd_cells(o), cells[o], "%s has %u cells", names[o], cells[o]);
		ok(tetromino_from_letter(versus_odd_letter(o)) < 0,
		    "%s's letter %c is no tetromino's", names[o], versus_odd_letter(o));
		for (r = 0; r < 4; r++) {
			const struct versus_odd_shape *s = versus_odd_shape(o, r);
			uint16_t rows[3] = { 0, 0, 0 };
			unsigned h = diagram_rows(want[o][r].diagram, rows);

			ok(s != NULL && s->height == h && s->rows[0] == rows[0] &&
			    (h < 2 || s->rows[1] == rows[1]) && (h < 3 || s->rows[2] == rows[2]),
			    "%s rotation %u is %s", names[o], r, want[o][r].diagram);
			is_int(versus_odd_max_column(o, r), want[o][r].maxcol,
			    "%s rotation %u: columns 0-%u", names[o], r, want[o][r].maxcol);
			for (bits = 0, i = 0; i < s->height; i++)
				bits += (unsigned)__builtin_popcount(s->rows[i]);
			is_int(bits, cells[o], "%s rotation %u has %u cells", names[o], r, cells[o]);
		}
	}
	ok(versus_odd_shape(5, 0) == NULL && versus_odd_shape(0, 4) == NULL,
	    "no shape 5, no rotation 4");
	ok(versus_odd_name(5) == NULL && versus_odd_letter(5) == '?', "no name for shape 5");
	for (r = 0; r < 4; r++) {
		is_int(versus_odd_canonical_rotation(VERSUS_ODD_DOT, r), 0, "dot %u is 0", r);
		is_int(versus_odd_canonical_rotation(VERSUS_ODD_PLUS, r), 0, "plus %u is 0", r);
		is_int(versus_odd_canonical_rotation(VERSUS_ODD_W, r), r, "w %u is itself", r);
	}
}

/* Each rotation on an empty board at columns 0 and max: cells where the
 * diagram shifted by the column puts them, on the floor, in the given code;
 * max + 1 is refused with the rule text's words and changes nothing. */
static void
test_edges(void)
{
	struct tetromino_board b, before;
	char why[ENGINE_REASON_MAX], expect[ENGINE_REASON_MAX];
	unsigned o, r, e, i, col;

	for (o = 0; o < VERSUS_ODD_KINDS; o++)
		for (r = 0; r < 4; r++) {
			uint16_t rows[3] = { 0, 0, 0 };
			unsigned h = diagram_rows(want[o][r].diagram, rows);
			for (e = 0; e < 2; e++) {
				bool same = true;
				col = e ? want[o][r].maxcol : 0;
				tetromino_board_init(&b);
				is_int(versus_odd_place(&b, o, r, col, 6), 0,
				    "%s r%u at column %u: placed, no lines", versus_odd_name(o), r, col);
				for (i = 0; i < TETROMINO_ROWS; i++)
					same = same && b.rows[i] == (i < h ? rows[i] << col : 0);
				ok(same, "%s r%u at column %u fills its diagram from the floor",
				    versus_odd_name(o), r, col);
				i = (unsigned)__builtin_ctz(b.rows[0]);
				is_int(tetromino_board_get(&b, 0, i), 6, "its cells keep code 6");
			}
			col = want[o][r].maxcol + 1;
			tetromino_board_init(&b);
			before = b;
			ok(!versus_odd_placement_ok(&b, o, r, col, why, sizeof why),
			    "%s r%u at column %u refused", versus_odd_name(o), r, col);
			snprintf(expect, sizeof expect,
			    "column %u is out of range for %c rotation %u: columns 0-%u", col,
			    versus_odd_letter(o), r, want[o][r].maxcol);
			is_str(why, expect, "%s r%u: the refusal names the range", versus_odd_name(o), r);
			is_int(versus_odd_place(&b, o, r, col, 6), -1, "place refuses it too");
			ok(memcmp(&b, &before, sizeof b) == 0, "and the board is unchanged");
		}
	ok(!versus_odd_placement_ok(&b, VERSUS_ODD_U, 4, 0, why, sizeof why),
	    "rotation 4 refused");
	is_str(why, "rotation 4 is out of range: rotations 0-3", "with its reason");
}

static void
test_drops(void)
{
	struct tetromino_board b, before;
	char why[ENGINE_REASON_MAX];
	unsigned i;

	/* A cell at row 1, column 1 nests inside U rotation 2 (XXX over X.X)
	 * dropped at column 0: the U lands on the floor around it. */
	tetromino_board_init(&b);
	tetromino_board_set(&b, 0, 1, 1);
	is_int(versus_odd_place(&b, VERSUS_ODD_U, 2, 0, 2), 0, "U r2 over a single cell");
	ok(b.rows[0] == 0x7 && b.rows[1] == 0x7 && b.rows[2] == 0, "it wraps the cell: rows 1-2 XXX");
	is_int(tetromino_board_get(&b, 0, 1), 1, "the old cell keeps its code");
	is_int(tetromino_board_get(&b, 1, 1), 2, "the U's cells have theirs");

	/* U rotation 0 (X.X over XXX) on the same cell stops above it. */
	tetromino_board_init(&b);
	tetromino_board_set(&b, 0, 1, 1);
	is_int(versus_odd_landing(&b, VERSUS_ODD_U, 0, 0), 1, "U r0 lands on row 2");

	/* Row 1 full but column 5, row 2 full but columns 4-6: a Plus at
	 * column 4 fills both and clears them; its top cell drops to row 1. */
	tetromino_board_init(&b);
	for (i = 0; i < 10; i++) {
		if (i != 5)
			tetromino_board_set(&b, 0, i, 1);
		if (i < 4 || i > 6)
			tetromino_board_set(&b, 1, i, 1);
	}
	is_int(versus_odd_place(&b, VERSUS_ODD_PLUS, 0, 4, 3), 2, "the Plus clears 2 rows");
	ok(b.rows[0] == 0x20 && b.rows[1] == 0, "its top cell is left in row 1, column 5");
	is_int(tetromino_board_get(&b, 0, 5), 3, "with its code");

	/* A dot into the last gap of row 1 clears it. */
	tetromino_board_init(&b);
	for (i = 0; i < 9; i++)
		tetromino_board_set(&b, 0, i, 1);
	is_int(versus_odd_place(&b, VERSUS_ODD_DOT, 3, 9, 0), 1, "a dot at column 9 clears row 1");
	ok(tetromino_board_is_empty(&b), "the board is empty after it");

	/* Column 0 filled to row 20: a dot there would reach row 21. */
	tetromino_board_init(&b);
	for (i = 0; i < 20; i++)
		tetromino_board_set(&b, i, 0, 1);
	before = b;
	ok(!versus_odd_placement_ok(&b, VERSUS_ODD_DOT, 0, 0, why, sizeof why), "no room on column 0");
	is_str(why, "D rotation 0 at column 0 does not fit: it would reach row 21, above row 20",
	    "the refusal says how high");
	is_int(versus_odd_place(&b, VERSUS_ODD_DOT, 0, 0, 1), -1, "place refuses it");
	ok(memcmp(&b, &before, sizeof b) == 0, "and changes nothing");
	ok(versus_odd_placement_ok(&b, VERSUS_ODD_DOT, 0, 1, why, sizeof why), "column 1 has room");
}

static void
test_options(void)
{
	static const size_t counts[] = { 10, 36, 34, 8, 32 };
	struct tetromino_option opt[VERSUS_ODD_OPTIONS_MAX];
	struct tetromino_board b;
	unsigned o;
	size_t n;

	tetromino_board_init(&b);
	for (o = 0; o < VERSUS_ODD_KINDS; o++) {
		n = versus_odd_options(&b, o, opt, VERSUS_ODD_OPTIONS_MAX);
		is_int(n, counts[o], "%s: %zu placements on an empty board", versus_odd_name(o),
		    counts[o]);
	}
	n = versus_odd_options(&b, VERSUS_ODD_U, opt, VERSUS_ODD_OPTIONS_MAX);
	ok(opt[0].rotation == 0 && opt[0].column == 0 && opt[7].column == 7 &&
	    opt[8].rotation == 1 && opt[8].column == 0 && opt[33].rotation == 3 &&
	    opt[33].column == 8, "U: rotations ascending, then columns");
	is_int(opt[0].figures.max_height, 2, "U r0 on the floor stands 2 high");
	is_int(opt[0].figures.holes, 0, "with no hole");
	is_int(opt[17].figures.holes, 1, "U r2 at column 0 covers one hole");
	is_int(versus_odd_options(&b, VERSUS_ODD_W, NULL, 0), 32, "counting only, out NULL");
}

static void
test_items_and_rolls(void)
{
	/* Codes: mino 0 add_line (1), mino 2 nuke (3). */
	is_int(versus_odd_items(0x0301, VERSUS_ODD_DOT), 0x1, "dot keeps the first item");
	is_int(versus_odd_items(0x0301, VERSUS_ODD_SMALL_L), 0x31, "small L: both, minos 0 and 1");
	is_int(versus_odd_items(0x0301, VERSUS_ODD_W), 0x31, "W: both, minos 0 and 1");
	is_int(versus_odd_items(0x6541, VERSUS_ODD_SMALL_L), 0x541, "small L: three of four");
	is_int(versus_odd_items(0x6541, VERSUS_ODD_PLUS), 0x6541, "Plus: all four, mino 4 bare");
	is_int(versus_odd_items(0x6000, VERSUS_ODD_DOT), 0x6, "dot takes a last mino's item");
	is_int(versus_odd_items(0, VERSUS_ODD_U), 0, "no items, none moved");

	is_int(versus_odd_roll(7, 0, 0), 2, "seed 7 player 0 index 0: U (CPython)");
	is_int(versus_odd_roll(7, 0, 1), 1, "index 1: small L");
	is_int(versus_odd_roll(7, 1, 0), 2, "player 1 index 0: U");
	is_int(versus_odd_roll(7, 1, 5), 2, "player 1 index 5: U");
	is_int(versus_odd_roll(VERSUS_SEED_MAX, 7, UINT32_MAX), 3, "the largest key: Plus");
}

int
main(void)
{
	test_table();
	test_edges();
	test_drops();
	test_options();
	test_items_and_rolls();
	return tap_done();
}
