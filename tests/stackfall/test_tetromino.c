/*
 * test_tetromino.c: shapes against the rule diagrams, the drop from above,
 * validity, clears with their letters, figures, board text, and options
 * (counts on an empty board, and the fast figures against placing on a copy).
 */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "tetromino.h"

/* The diagrams of the Stackfall rules, top row first, with their column
 * ranges (the last column of "cols 0-N"). */
static const struct {
	char letter;
	const char *rot[4][4];
	unsigned maxcol[4];
} diagrams[7] = {
	{ 'I', { { "####" }, { "#", "#", "#", "#" }, { "####" }, { "#", "#", "#", "#" } },
	  { 6, 9, 6, 9 } },
	{ 'O', { { "##", "##" }, { "##", "##" }, { "##", "##" }, { "##", "##" } },
	  { 8, 8, 8, 8 } },
	{ 'T', { { ".#.", "###" }, { "#.", "##", "#." }, { "###", ".#." }, { ".#", "##", ".#" } },
	  { 7, 8, 7, 8 } },
	{ 'S', { { ".##", "##." }, { "#.", "##", ".#" }, { ".##", "##." }, { "#.", "##", ".#" } },
	  { 7, 8, 7, 8 } },
	{ 'Z', { { "##.", ".##" }, { ".#", "##", "#." }, { "##.", ".##" }, { ".#", "##", "#." } },
	  { 7, 8, 7, 8 } },
	{ 'J', { { "#..", "###" }, { "##", "#.", "#." }, { "###", "..#" }, { ".#", ".#", "##" } },
	  { 7, 8, 7, 8 } },
	{ 'L', { { "..#", "###" }, { "#.", "#.", "##" }, { "###", "#.." }, { "##", ".#", ".#" } },
	  { 7, 8, 7, 8 } },
};

/* A diagram as row masks, bottom row first. */
static int
diagram_rows(unsigned p, unsigned r, unsigned rows[4], unsigned *width)
{
	int h = 0, k;
	size_t c;

	while (h < 4 && diagrams[p].rot[r][h] != NULL)
		h++;
	*width = (unsigned)strlen(diagrams[p].rot[r][0]);
	for (k = 0; k < 4; k++)
		rows[k] = 0;
	for (k = 0; k < h; k++) {
		const char *line = diagrams[p].rot[r][h - 1 - k];
		for (c = 0; line[c] != '\0'; c++)
			if (line[c] == '#')
				rows[k] |= 1u << c;
	}
	return h;
}

static void
test_shapes(void)
{
	unsigned p, r, q, rows[4], w, k, c, canon;
	int h, same, bot, top;

	for (p = 0; p < 7; p++) {
		is_int(tetromino_letter(p), diagrams[p].letter, "letter of piece %u", p);
		is_int(tetromino_from_letter(diagrams[p].letter), (int)p, "piece of letter %c",
		    diagrams[p].letter);
		for (r = 0; r < 4; r++) {
			const struct tetromino_shape *s = tetromino_shape(p, r);
			h = diagram_rows(p, r, rows, &w);
			same = s != NULL && s->height == h && s->width == w;
			for (k = 0; same && k < 4; k++)
				same = s->rows[k] == rows[k];
			/* bottom/top offsets per column, from the diagram */
			for (c = 0; same && c < w; c++) {
				bot = -1;
				top = -1;
				for (k = 0; k < (unsigned)h; k++)
					if (rows[k] >> c & 1u) {
						if (bot < 0)
							bot = (int)k;
						top = (int)k;
					}
				same = s->bottom[c] == bot && s->top[c] == top;
			}
			ok(same, "%c rotation %u matches the diagram", diagrams[p].letter, r);
			is_int(tetromino_max_column(p, r), diagrams[p].maxcol[r],
			    "%c rotation %u: columns 0-%u", diagrams[p].letter, r, diagrams[p].maxcol[r]);
			canon = r;
			for (q = 0; q < r; q++) {
				unsigned other[4], ow;
				int oh = diagram_rows(p, q, other, &ow);
				if (oh == h && ow == w && memcmp(other, rows, sizeof rows) == 0) {
					canon = q;
					break;
				}
			}
			is_int(tetromino_canonical_rotation(p, r), canon,
			    "%c rotation %u: canonical rotation %u", diagrams[p].letter, r, canon);
		}
	}
	ok(tetromino_shape(7, 0) == NULL && tetromino_shape(0, 4) == NULL,
	    "no shape out of range");
	ok(tetromino_letter(7) == '?' && tetromino_from_letter('x') == -1 &&
	    tetromino_from_letter('t') == TETROMINO_T, "letter edge cases");
}

/* Builds a board from rows given top first ('.' empty, a letter filled). */
static struct tetromino_board
board_of(const char *const *lines, int n)
{
	struct tetromino_board b;
	int i, c, p;

	tetromino_board_init(&b);
	for (i = 0; i < n; i++)
		for (c = 0; c < 10; c++)
			if (lines[i][c] != '.') {
				p = tetromino_from_letter(lines[i][c]);
				tetromino_board_set(&b, (unsigned)(n - 1 - i), (unsigned)c,
				    (unsigned)p + 1);
			}
	return b;
}

static void
test_empty_options(void)
{
	static const int want[7] = { 17, 9, 34, 17, 17, 34, 34 };
	struct tetromino_board b;
	struct tetromino_option opts[TETROMINO_OPTIONS_MAX];
	unsigned p;

	tetromino_board_init(&b);
	for (p = 0; p < 7; p++)
		is_int(tetromino_options(&b, p, opts, TETROMINO_OPTIONS_MAX), want[p],
		    "empty board: %c has %d options", tetromino_letter(p), want[p]);
	is_int(tetromino_options(&b, TETROMINO_T, NULL, 0), 34, "counting with cap 0");
	tetromino_options(&b, TETROMINO_S, opts, TETROMINO_OPTIONS_MAX);
	ok(opts[0].rotation == 0 && opts[0].column == 0 && opts[7].rotation == 0 &&
	    opts[7].column == 7 && opts[8].rotation == 1 && opts[8].column == 0 &&
	    opts[16].rotation == 1 && opts[16].column == 8, "S options ordered by rotation, column");
	/* I rotation 1 at column 0 on an empty board: one column of 4. */
	tetromino_options(&b, TETROMINO_I, opts, TETROMINO_OPTIONS_MAX);
	ok(opts[7].rotation == 1 && opts[7].column == 0 && opts[7].figures.max_height == 4 &&
	    opts[7].figures.bumpiness == 4 && opts[7].figures.holes == 0 &&
	    opts[7].figures.lines == 0, "I rotation 1 column 0 figures");
}

static void
test_drop(void)
{
	/* Column 0 has an overhang at row 3; a piece can never slide under it. */
	static const char *const overhang[] = {
		"TT........",
		"..........",
		"..........",
	};
	static const char *const step[] = {
		"......O...",
		"......O...",
		"...LLLOO..",
	};
	struct tetromino_board b = board_of(overhang, 3), full;
	char text[TETROMINO_TEXT_SIZE];
	int n;

	is_int(tetromino_landing(&b, TETROMINO_I, 1, 0), 3, "I vertical lands on the overhang");
	is_int(tetromino_landing(&b, TETROMINO_O, 0, 1), 3, "O over columns 1-2 stops on row 3");
	is_int(tetromino_landing(&b, TETROMINO_O, 0, 2), 0, "O at columns 2-3 reaches the floor");
	b = board_of(step, 3);
	/* T rotation 2 (### over .#.) at column 2: middle foot on column 3
	 * (height 1) gives row 1; side cells: column 2 (h 0) - 1, column 4 (h 1) - 1. */
	is_int(tetromino_landing(&b, TETROMINO_T, 2, 2), 1, "T rotation 2 rests its foot");
	/* J rotation 3 at column 5: foot row covers columns 5-6; column 6 is 3 high. */
	is_int(tetromino_landing(&b, TETROMINO_J, 3, 5), 3, "J rotation 3 lands on the O tower");
	/* S rotation 0 at column 6: columns 6,7 bottom 0, column 8 bottom 1. */
	is_int(tetromino_landing(&b, TETROMINO_S, 0, 6), 3, "S lands on the tallest column");

	/* Stacking I vertically in column 9: five fit (rows 1-20), the sixth not. */
	tetromino_board_init(&b);
	for (n = 0; n < 5; n++)
		tetromino_place(&b, TETROMINO_I, 1, 9);
	ok(!tetromino_fits(&b, TETROMINO_I, 1, 9), "a sixth vertical I would leave the board");
	is_int(tetromino_place(&b, TETROMINO_I, 1, 9), -1, "placing it is refused");
	ok(tetromino_fits(&b, TETROMINO_I, 0, 0), "a flat I still fits elsewhere");
	ok(!tetromino_fits(&b, TETROMINO_I, 0, 7), "column 7 is out of range for a flat I");
	ok(!tetromino_fits(&b, TETROMINO_O, 4, 0), "rotation 4 does not exist");
	ok(!tetromino_fits(&b, 7, 0, 0), "piece 7 does not exist");
	ok(!tetromino_fits(&b, TETROMINO_O, 0, 8), "O at column 8 would land on the column-9 tower");
	ok(tetromino_fits(&b, TETROMINO_O, 0, 7), "O at column 7 fits");
	full = b;
	is_int(tetromino_clear_lines(&full), 0, "no full row to clear");
	ok(memcmp(&full, &b, sizeof b) == 0, "clearing nothing changes nothing");
	tetromino_board_text(&b, text);
	is_int((long)strlen(text), 219, "board text is 219 characters");
	ok(text[9] == 'I' && text[8] == '.' && text[218] == 'I' && text[10] == '\n',
	    "letters in place, top row first");
}

static void
test_clears(void)
{
	/* Rows 1 and 3 lack only column 0; row 2 lacks columns 0 and 5. A
	 * vertical I in column 0 fills rows 1-4 and clears rows 1 and 3. */
	static const char *const rows[] = {
		".....Z....",
		".SSSSSSSSS",
		".JJJJ.JJJJ",
		".LLLLLLLLL",
	};
	static const char *const after[] = {
		"I....Z....",
		"IJJJJ.JJJJ",
	};
	struct tetromino_board b = board_of(rows, 4), want = board_of(after, 2);
	struct tetromino_figures f;

	is_int(tetromino_place(&b, TETROMINO_I, 1, 0), 2, "two separate rows cleared at once");
	ok(memcmp(&b, &want, sizeof b) == 0, "rows move down with their letters");
	tetromino_board_figures(&b, &f);
	is_int(f.holes, 1, "one hole (column 5, row 1)");
	is_int(f.max_height, 2, "max height 2");
	/* heights 2,1,1,1,1,2,1,1,1,1: 1+0+0+0+1+1+0+0+0 = 3 */
	is_int(f.bumpiness, 3, "bumpiness 3");
	is_int(tetromino_board_count(&b), 11, "11 cells left");
	ok(!tetromino_board_is_empty(&b), "not empty");
}

static void
test_text(void)
{
	struct tetromino_board b, c;
	char text[TETROMINO_TEXT_SIZE], bad[TETROMINO_TEXT_SIZE];

	tetromino_board_init(&b);
	tetromino_place(&b, TETROMINO_L, 2, 3);
	tetromino_place(&b, TETROMINO_Z, 1, 0);
	tetromino_board_text(&b, text);
	ok(strcmp(text + 17 * 11, ".Z........\nZZ.LLL....\nZ..L......") == 0,
	    "the bottom three rows of the text");
	ok(tetromino_board_from_text(&c, text) && memcmp(&b, &c, sizeof b) == 0,
	    "board text reads back");
	memcpy(bad, text, sizeof bad);
	bad[0] = 'X';
	ok(!tetromino_board_from_text(&c, bad), "an unknown letter is refused");
	memcpy(bad, text, sizeof bad);
	bad[10] = ' ';
	ok(!tetromino_board_from_text(&c, bad), "a missing new line is refused");
	memcpy(bad, text, sizeof bad);
	memcpy(bad + 19 * 11, "IIIIIIIIII", 10);
	ok(!tetromino_board_from_text(&c, bad), "a full row is refused");
	ok(!tetromino_board_from_text(&c, "....."), "a short text is refused");
}

/* The fast figures of options against placing on a copy, on random boards
 * built by random placements. */
static void
test_options_vs_place(void)
{
	struct tetromino_board b, copy;
	struct tetromino_option opts[TETROMINO_OPTIONS_MAX];
	struct tetromino_figures f;
	unsigned p, r, c, seen;
	size_t n, i, valid;
	int boards, agree = 1, counted = 1, lines;

	srand(12345);
	for (boards = 0; boards < 3000; boards++) {
		tetromino_board_init(&b);
		n = (size_t)(rand() % 40);
		for (i = 0; i < n; i++) {
			p = (unsigned)(rand() % 7);
			r = (unsigned)(rand() % 4);
			c = (unsigned)(rand() % 10);
			(void)tetromino_place(&b, p, r, c);
		}
		for (p = 0; p < 7; p++) {
			n = tetromino_options(&b, p, opts, TETROMINO_OPTIONS_MAX);
			valid = 0;
			for (r = 0; r < 4; r++) {
				if (tetromino_canonical_rotation(p, r) != r)
					continue;
				for (c = 0; c <= 9; c++)
					valid += tetromino_fits(&b, p, r, c);
			}
			if (valid != n)
				counted = 0;
			seen = 0;
			for (i = 0; i < n; i++) {
				copy = b;
				lines = tetromino_place(&copy, p, opts[i].rotation, opts[i].column);
				tetromino_board_figures(&copy, &f);
				if (lines != opts[i].figures.lines || f.holes != opts[i].figures.holes ||
				    f.max_height != opts[i].figures.max_height ||
				    f.bumpiness != opts[i].figures.bumpiness)
					agree = 0;
				if (opts[i].rotation * 16u + opts[i].column < seen)
					agree = 0; /* not ascending */
				seen = opts[i].rotation * 16u + opts[i].column;
			}
		}
	}
	ok(counted, "options count = valid canonical placements on 3000 random boards");
	ok(agree, "options figures = figures after placing on a copy, ascending order");
}

int
main(void)
{
	test_shapes();
	test_empty_options();
	test_drop();
	test_clears();
	test_text();
	test_options_vs_place();
	return tap_done();
}
