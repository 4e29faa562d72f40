/*
 * test_hclassic_rules.c: the hatetris-classic rules against the spec's
 * worked examples and tables (docs/rules/hatetris-classic.md restates
 * them). Every expected value here is the spec's or follows from it by
 * hand: spawn cells, where each orientation may stand in an empty well,
 * example B (23 keys, a blocked R, a lock on the floor), a slide under an
 * overhang, turns blocked by a wall and by a cell, examples C1 and C2
 * (four lines; a lock in the bar ends the run), example D (seen-well
 * counts, current and 2022), the 2021 rule, the replay strings of example
 * E and the decoder's order of attempts, Base2048's table digest, and the
 * refusals (bad keys, keys after the end, a memory that cannot store).
 */
#include <sodium.h>
#include <stdlib.h>

#include "hatetris_classic.h"
#include "hatetris_classic_replay.h"
#include "memo.h"
#include "naive.h"
#include "tap.h"

static struct hclassic_memory mem;
static struct memo m;

/* The live piece's cells as "row,col" pairs from the text drawing. */
static void
live_cells(const struct hclassic *g, char *out, size_t cap)
{
	char text[HCLASSIC_TEXT_SIZE];
	size_t n = 0;
	int r, c;

	hclassic_text(g, text);
	out[0] = '\0';
	for (r = 0; r < HCLASSIC_ROWS; r++)
		for (c = 0; c < HCLASSIC_COLS; c++)
			if (text[r * (HCLASSIC_COLS + 1) + c] == '@')
				n += (size_t)snprintf(out + n, cap - n, "%s%d,%d", n ? " " : "", r, c);
}

static void
set_live(struct hclassic *g, unsigned piece)
{
	g->piece = (uint8_t)piece;
	g->x = 3;
	g->y = 0;
	g->o = 0;
}

static struct hclassic
constructed(const char *const rows[], unsigned first_row, unsigned piece)
{
	struct hclassic g;
	unsigned r, c;

	memset(&g, 0, sizeof g);
	g.pieces = 1;
	for (r = 0; rows[r]; r++)
		for (c = 0; c < HCLASSIC_COLS; c++)
			if (rows[r][c] == '#')
				g.well[first_row + r] |= (uint16_t)(1u << c);
	set_live(&g, piece);
	return g;
}

static void
test_spawn_and_ranges(void)
{
	static const uint16_t empty[HCLASSIC_ROWS];
	/* The spec's table: x range and highest y per piece and orientation. */
	static const int range[7][4][3] = {
		/* I */ { { 0, 6, 18 }, { -2, 7, 16 }, { 0, 6, 17 }, { -1, 8, 16 } },
		/* J */ { { -1, 7, 16 }, { 0, 7, 17 }, { -1, 7, 17 }, { -1, 6, 17 } },
		/* L */ { { -1, 6, 17 }, { -1, 7, 16 }, { 0, 7, 17 }, { -1, 7, 17 } },
		/* O */ { { -1, 7, 17 }, { -1, 7, 17 }, { -1, 7, 17 }, { -1, 7, 17 } },
		/* S */ { { -1, 6, 17 }, { -1, 7, 16 }, { 0, 7, 17 }, { -1, 7, 17 } },
		/* T */ { { -1, 6, 17 }, { -1, 7, 16 }, { 0, 7, 17 }, { -1, 7, 17 } },
		/* Z */ { { -1, 6, 17 }, { -1, 7, 16 }, { 0, 7, 17 }, { -1, 7, 17 } },
	};
	struct hclassic g;
	char cells[128];
	unsigned p, o, bad = 0;
	int x, y;

	memo_clear(&m);
	is_int(hclassic_start(&g, HCLASSIC_CURRENT, &mem, NULL), HCLASSIC_OK, "start");
	is_str(hclassic_piece_name(g.piece), "S", "example A: the first piece is S");
	ok(g.x == 3 && g.y == 0 && g.o == 0 && g.pieces == 1 && g.keys == 0,
	    "it spawns at x 3, y 0, o 0");
	live_cells(&g, cells, sizeof cells);
	is_str(cells, "1,5 1,6 2,4 2,5", "a spawned S covers row 1 cols 5-6, row 2 cols 4-5");
	set_live(&g, HCLASSIC_I);
	live_cells(&g, cells, sizeof cells);
	is_str(cells, "1,3 1,4 1,5 1,6", "a spawned I covers row 1, columns 3-6");
	is_int(m.n, 1, "the start stored one well (the empty one)");

	for (p = 0; p < 7; p++)
		for (o = 0; o < 4; o++)
			for (x = -3; x <= 9; x++)
				for (y = 0; y <= 19; y++) {
					bool want = x >= range[p][o][0] && x <= range[p][o][1] &&
					    y <= range[p][o][2];

					if (hclassic_free(empty, p, x, y, o) != want)
						bad++;
				}
	is_int(bad, 0, "every orientation stands exactly where the spec's table says");
}

static void
test_example_b(void)
{
	const char *keys = "URRRRRDDDDDDDDDDDDDDDDD";
	static const char *const after[] = { "........#.", "........##", ".........#", NULL };
	struct hclassic g, w;
	struct hclassic_report rep;
	unsigned i;
	bool xs = true;

	memo_clear(&m);
	hclassic_start(&g, HCLASSIC_CURRENT, &mem, NULL);
	for (i = 0; i < 6; i++) {
		static const int want_x[6] = { 3, 4, 5, 6, 7, 7 };

		hclassic_keys(&g, keys + i, 1, &mem, &rep);
		xs = xs && g.x == want_x[i] && g.o == 1;
	}
	ok(xs, "example B: U turns to o 1, RRRR reach x 7, the fifth R is blocked");
	is_int(g.keys, 6, "the blocked R is still a key");
	for (; i < 22; i++)
		hclassic_keys(&g, keys + i, 1, &mem, &rep);
	ok(g.y == 16 && g.pieces == 1, "16 D reach y 16 without a lock");
	hclassic_keys(&g, keys + 22, 1, &mem, &rep);
	is_int(rep.locks, 1, "key 23 locks the S");
	w = constructed(after, 17, HCLASSIC_S);
	ok(memcmp(g.well, w.well, sizeof g.well) == 0, "it lies on rows 17-19 as drawn");
	ok(g.pieces == 2 && g.piece == HCLASSIC_S && g.x == 3 && g.y == 0 && g.o == 0,
	    "call 1 supplies S again, at the spawn");
	is_int(g.lines, 0, "no line");
	{
		struct hclassic_choice ch;
		unsigned p, all17 = 1;

		hclassic_choose(g.well, g.lines, HCLASSIC_CURRENT, &mem, &ch);
		for (p = 0; p < 7; p++)
			all17 = all17 && ch.rating[p] == 17 && ch.loops[p] == 0;
		ok(all17, "after it every piece rates 17 with loops 0");
	}
}

static void
test_moves(void)
{
	/* A shelf over rows 18-19: an O slides under it from the right. */
	static const char *const shelf[] = { "###.......", NULL };
	static struct hclassic_search s;
	struct hclassic_lock locks[HCLASSIC_LOCKS_MAX];
	struct hclassic g = constructed(shelf, 17, HCLASSIC_O), h;
	struct hclassic_report rep;
	char path[HCLASSIC_PATH_MAX + 1];
	size_t n, i, found = n = 0;

	n = hclassic_options(&g, &s, locks, HCLASSIC_LOCKS_MAX);
	for (i = 0; i < n; i++)
		if (locks[i].x == -1 && locks[i].y == 17)
			found = i + 1;
	ok(found, "the O can lock under the shelf at x -1, y 17");
	if (found) {
		/* 17 rows down and 4 columns left is at least 21 keys, plus the D. */
		is_int(locks[found - 1].nkeys, 22, "by a shortest path of 22 keys");
		is_int(hclassic_lock_path(&s, &locks[found - 1], path, sizeof path), 22,
		    "the path reads back");
		h = g;
		hclassic_keys(&h, path, strlen(path), NULL, &rep);
		ok((h.well[18] & 3u) == 3u && (h.well[19] & 3u) == 3u,
		    "playing it fills columns 0-1 of rows 18-19 (a tuck)");
		is_int(h.well[17], 7, "the shelf is untouched");
	}
	is_int(hclassic_lock_path(&s, &locks[0], path, 3), locks[0].nkeys,
	    "a short buffer is told the length");

	/* Turns: an I upright at the right wall cannot lie down there. */
	memo_clear(&m);
	hclassic_start(&g, HCLASSIC_CURRENT, &mem, NULL);
	set_live(&g, HCLASSIC_I);
	hclassic_keys(&g, "URRRR", 5, &mem, &rep);
	ok(g.x == 7 && g.o == 1, "I upright at x 7 (column 9)");
	hclassic_keys(&g, "U", 1, &mem, &rep);
	ok(g.x == 7 && g.o == 1 && g.keys == 6, "U there is blocked by the wall, and counted");
	hclassic_keys(&g, "L", 1, &mem, &rep);
	hclassic_keys(&g, "U", 1, &mem, &rep);
	ok(g.x == 6 && g.o == 2, "one column left it turns (o 2 covers columns 6-9)");
	hclassic_keys(&g, "UU", 2, &mem, &rep);
	ok(g.o == 0, "four turns come back to o 0");
	hclassic_keys(&g, "LLLLLLLL", 8, &mem, &rep);
	ok(g.x == 0, "L stops at x 0 for a flat I");

	/* Turn blocked by a cell: a T at rest on a floor cell's side. */
	{
		static const char *const post[] = { ".....#....", NULL };

		g = constructed(post, 4, HCLASSIC_T);
		/* T o0 one row down covers row 2 cols 4-6 and row 3 col 5; o1
		 * would add row 4 col 5, the filled cell. */
		hclassic_keys(&g, "DU", 2, NULL, &rep);
		ok(g.y == 1 && g.o == 0 && g.keys == 2,
		    "a T over a cell at row 4 col 5 cannot turn to o 1");
		hclassic_keys(&g, "LU", 2, NULL, &rep);
		ok(g.o == 1 && g.x == 2, "one column left it can");
	}
}

static void
test_clears_and_end(void)
{
	static const char *const c1[] = { "#########.", "#########.", "#########.", "#########.",
		NULL };
	static const char *const c2[] = { "#########.", ".#########", ".#########", ".#########",
		".#########", ".#########", ".#########", ".#########", ".#########", ".#########",
		".#########", ".#########", ".#########", ".#########", NULL };
	char keys[64];
	struct hclassic g, before;
	struct hclassic_report rep;
	struct hclassic_choice ch;
	unsigned r;
	bool empty = true;

	g = constructed(c1, 16, HCLASSIC_I);
	g.supplier = HCLASSIC_CURRENT;
	hclassic_choose(g.well, 0, HCLASSIC_CURRENT, NULL, &ch);
	ok(ch.rating[HCLASSIC_S] == 15 && ch.rating[HCLASSIC_Z] == 14 &&
	    ch.rating[HCLASSIC_O] == 14 && ch.rating[HCLASSIC_I] == 20 &&
	    ch.rating[HCLASSIC_L] == 17 && ch.rating[HCLASSIC_J] == 16 &&
	    ch.rating[HCLASSIC_T] == 15, "C1: ratings S 15 Z 14 O 14 I 20 L 17 J 16 T 15");
	is_str(hclassic_piece_name(ch.piece), "Z", "C1: Z and O tie at 14, Z is chosen");
	snprintf(keys, sizeof keys, "URRRR%s", "DDDDDDDDDDDDDDDDD");
	memo_clear(&m);
	hclassic_keys(&g, keys, strlen(keys), &mem, &rep);
	ok(rep.applied == 22 && rep.locks == 1, "C1: the I locks at key 22");
	is_int(g.lines, 4, "C1: four rows go, 4 lines");
	for (r = 0; r < HCLASSIC_ROWS; r++)
		empty = empty && g.well[r] == 0;
	ok(empty, "C1: the well is empty");
	is_str(hclassic_piece_name(g.piece), "S", "C1: the empty well then gets S");

	g = constructed(c2, 6, HCLASSIC_I);
	hclassic_keys(&g, "URRRRDDDDLLRU", 13, &mem, &rep);
	ok(rep.applied == 9 && rep.ignored == 4, "C2: the lock is key 9, 4 keys ignored");
	ok(g.over == 1 && g.lines == 0, "C2: a lock with cells in the bar ends the run, 0 lines");
	is_int(g.well[6], HCLASSIC_FULL_ROW, "C2: full row 6 is not removed");
	ok(g.well[3] != 0, "C2: row 3 is filled");
	before = g;
	is_int(hclassic_keys(&g, "D", 1, &mem, &rep), HCLASSIC_GAME_OVER,
	    "keys after the end are refused");
	ok(memcmp(&g, &before, sizeof g) == 0, "and change nothing");
	is_int(hclassic_options(&g, &(struct hclassic_search){ 0 }, NULL, 0), 0,
	    "a finished run has no options");
}

/* Example D: W_p is p dropped straight down from its spawn. */
static void
drop_well(unsigned p, uint16_t rows[HCLASSIC_ROWS])
{
	struct nv_well w;
	bool over;
	int y = 0;

	memset(&w, 0, sizeof w);
	while (nv_free(&w, (int)p, 3, y + 1, 0))
		y++;
	nv_lock(&w, (int)p, 3, y, 0, &over);
	nv_rows(&w, rows);
}

static void
set_count(unsigned p, uint32_t v)
{
	uint16_t rows[HCLASSIC_ROWS];
	uint8_t key[HCLASSIC_KEY_BYTES];

	drop_well(p, rows);
	hclassic_well_key(rows, key);
	memo_set(&m, key, v);
}

static void
test_example_d(void)
{
	static const char *const want_loops[4] = { "0000000", "1000000", "1110111", "2111111" };
	static const char *const want_current[4] = { "S", "Z", "I", "Z" };
	static const char *const want_2022[4] = { "S", "Z", "I", "S" };
	static const uint16_t empty[HCLASSIC_ROWS];
	unsigned row, k;

	for (row = 0; row < 4; row++) {
		struct hclassic_choice ch, ch2;
		char loops[8];
		unsigned p;

		memo_clear(&m);
		if (row == 1)
			set_count(HCLASSIC_S, 1);
		if (row >= 2)
			for (p = 0; p < 7; p++)
				if (p != HCLASSIC_I)
					set_count(p, row == 3 && p == HCLASSIC_S ? 2 : 1);
		if (row == 3)
			set_count(HCLASSIC_I, 1);
		{
			uint8_t key[HCLASSIC_KEY_BYTES];

			hclassic_well_key(empty, key);
			memo_set(&m, key, 1); /* step 1 of the call */
		}
		hclassic_choose(empty, HCLASSIC_COUNT_MAX, HCLASSIC_CURRENT, &mem, &ch);
		hclassic_choose(empty, HCLASSIC_COUNT_MAX, HCLASSIC_2022, &mem, &ch2);
		for (k = 0; k < 7; k++)
			loops[k] = (char)('0' + ch.loops[hclassic_order[k]]);
		loops[7] = '\0';
		is_str(loops, want_loops[row], "example D row %u: loops S Z O I L J T", row + 1);
		is_str(hclassic_piece_name(ch.piece), want_current[row], "example D row %u: current",
		    row + 1);
		is_str(hclassic_piece_name(ch2.piece), want_2022[row], "example D row %u: 2022",
		    row + 1);
	}
	/* Without the run's lines, nothing can repeat: the counts are not asked. */
	{
		struct hclassic_choice ch;

		hclassic_choose(empty, 0, HCLASSIC_CURRENT, &mem, &ch);
		ok(ch.lookups == 0 && ch.piece == HCLASSIC_S, "with 0 lines nothing is looked up");
	}
}

static void
test_2021_and_mild(void)
{
	static const uint16_t empty[HCLASSIC_ROWS];
	uint8_t key[HCLASSIC_KEY_BYTES];
	struct hclassic_choice ch;

	memo_clear(&m);
	hclassic_well_key(empty, key);
	memo_set(&m, key, 1u << HCLASSIC_S);
	hclassic_choose(empty, HCLASSIC_COUNT_MAX, HCLASSIC_2021, &mem, &ch);
	is_str(hclassic_piece_name(ch.piece), "Z", "2021: a well that got S gets Z (next at 18)");
	memo_set(&m, key, 0x7fu & ~(1u << HCLASSIC_I));
	hclassic_choose(empty, HCLASSIC_COUNT_MAX, HCLASSIC_2021, &mem, &ch);
	is_str(hclassic_piece_name(ch.piece), "I", "2021: the only piece not given is I");
	memo_set(&m, key, 0x7f);
	hclassic_choose(empty, HCLASSIC_COUNT_MAX, HCLASSIC_2021, &mem, &ch);
	is_str(hclassic_piece_name(ch.piece), "S", "2021: all given, rating and order: S");
	hclassic_choose(empty, HCLASSIC_COUNT_MAX, HCLASSIC_MILD, &mem, &ch);
	ok(ch.piece == HCLASSIC_S && ch.lookups == 0, "mild: S, and no memory read");

	/* A run under 2021 stores the piece given on the well. */
	{
		struct hclassic g;

		memo_clear(&m);
		hclassic_start(&g, HCLASSIC_2021, &mem, NULL);
		is_int(memo_get(&m, key), 1u << HCLASSIC_S, "2021 run: the empty well got S");
		memo_clear(&m);
		hclassic_start(&g, HCLASSIC_CURRENT, &mem, NULL);
		is_int(memo_get(&m, key), 1, "current run: count(empty) is 1 after call 0");
	}
}

static void
test_refusals(void)
{
	struct hclassic g, before;
	struct hclassic_report rep;
	char reason[ENGINE_REASON_MAX];
	uint16_t bad[HCLASSIC_ROWS] = { 0 };

	memo_clear(&m);
	is_int(hclassic_start(&g, 9, &mem, reason), HCLASSIC_REFUSED, "unknown supplier refused");
	hclassic_start(&g, HCLASSIC_CURRENT, &mem, NULL);
	before = g;
	is_int(hclassic_keys(&g, "DDx", 3, &mem, &rep), HCLASSIC_REFUSED,
	    "a key other than L R D U is refused");
	ok(memcmp(&g, &before, sizeof g) == 0 && rep.applied == 0, "and nothing is played");
	is_int(hclassic_keys(&g, "ddd", 3, &mem, &rep), HCLASSIC_REFUSED, "lower case too");
	is_int(hclassic_keys(&g, NULL, 0, &mem, &rep), HCLASSIC_OK, "no keys is fine");
	bad[19] = HCLASSIC_FULL_ROW;
	is_int(hclassic_start_from(&g, 0, bad, 0, &mem, reason), HCLASSIC_REFUSED,
	    "a start well with a full row is refused");
	bad[19] = 0;
	bad[2] = 1;
	is_int(hclassic_start_from(&g, 0, bad, 0, &mem, reason), HCLASSIC_REFUSED,
	    "a start well with a cell in the bar is refused");
	ok(memcmp(&g, &before, sizeof g) == 0, "refused starts leave the run alone");

	/* A memory that refuses: the lock's key is not played. */
	m.fail_after = (long)m.sets;
	before = g;
	is_int(hclassic_keys(&g, "LDDDDDDDDDDDDDDDDDDD", 20, &mem, &rep), HCLASSIC_MEMORY,
	    "a memory that cannot store stops the run");
	ok(rep.applied == 18 && g.keys == before.keys + 18 && g.pieces == 1 && g.y == 17,
	    "before the locking key (18 keys played: L and 17 D)");
	m.fail_after = -1;
	is_int(hclassic_keys(&g, "DD", 2, &mem, &rep), HCLASSIC_OK, "and goes on when it can");
	ok(g.pieces == 2 && rep.locks == 1, "the lock then happens");
	before = g;
	g.piece = 7;
	is_int(hclassic_keys(&g, "L", 1, &mem, &rep), HCLASSIC_REFUSED,
	    "a state with an unknown piece is refused");
	g = before;
	g.x = 9;
	ok(!hclassic_valid(&g), "so is a live piece outside the well");
	g = before;
	g.well[2] = 1;
	ok(!hclassic_valid(&g), "and a filled bar while playing");
	g = before;
	ok(hclassic_valid(&g), "the run itself is valid");
	{
		/* The key's layout, cell by cell: bit 10 r + c, byte i / 8, bit i % 8. */
		uint16_t w[HCLASSIC_ROWS];
		uint8_t key[HCLASSIC_KEY_BYTES], want[HCLASSIC_KEY_BYTES];
		unsigned r, c, wrong = 0;

		for (r = 0; r < HCLASSIC_ROWS; r++)
			for (c = 0; c < HCLASSIC_COLS; c++) {
				unsigned i = r * 10 + c;

				memset(w, 0, sizeof w);
				w[r] = (uint16_t)(1u << c);
				memset(want, 0, sizeof want);
				want[i / 8] = (uint8_t)(1u << (i % 8));
				hclassic_well_key(w, key);
				wrong += memcmp(key, want, sizeof key) != 0;
			}
		is_int(wrong, 0, "a well's key holds cell (r, c) at bit 10 r + c");
	}
	is_int(hclassic_supplier_parse("2021"), HCLASSIC_2021, "supplier names parse");
	is_int(hclassic_supplier_parse("v2"), -1, "unknown names do not");
	ok(sizeof(struct hclassic) == HCLASSIC_STATE_SIZE, "the state is %d bytes",
	    HCLASSIC_STATE_SIZE);
}

/* Decodes s and compares with the keys it should hold. */
static void
decodes(const char *s, const char *want, unsigned want_enc, const char *what)
{
	char keys[256];
	size_t n = 0;
	unsigned enc = 99;
	enum hclassic_replay_status st = hclassic_replay_decode(s, strlen(s), keys, sizeof keys,
	    &n, &enc);

	ok(st == HCLASSIC_REPLAY_OK && enc == want_enc && n == strlen(want) &&
	    memcmp(keys, want, n) == 0, "%s decodes as %s", what, hclassic_encoding_name(want_enc));
}

static void
encodes(unsigned enc, const char *keys, const char *want, const char *what)
{
	char out[256];
	size_t len = 0;

	hclassic_replay_encode(enc, keys, strlen(keys), out, sizeof out, &len);
	is_str(out, want, "%s encodes in %s", what, hclassic_encoding_name(enc));
	is_int(len, strlen(want), "%s: length", what);
}

static void
test_replays(void)
{
	const char *b = "URRRRRDDDDDDDDDDDDDDDDD";
	const char *odd = "LLLLLDDDDDDDDDDDDDDDDDD";
	char odd_l[64], hex24[64], all[2048 * 3 + 1], keys[64];
	unsigned char digest[crypto_hash_sha256_BYTES];
	char hexd[2 * crypto_hash_sha256_BYTES + 1];
	size_t n = 0, i, len;
	unsigned z;

	snprintf(odd_l, sizeof odd_l, "%sL", odd);
	snprintf(hex24, sizeof hex24, "%sD", b);
	decodes(b, b, HCLASSIC_RAW, "example E raw");
	decodes("D55A AAAA AAAA", hex24, HCLASSIC_HEX, "example E hex");
	decodes("\xe8\x83\x87\xf0\xa3\xba\xbb", b, HCLASSIC_BASE65536, "example E Base65536");
	decodes("\xe0\xb2\x8e\xd9\x82\xe0\xba\xb0", b, HCLASSIC_BASE2048, "example E Base2048");
	encodes(HCLASSIC_HEX, b, "D55A AAAA AAAA ", "example E");
	encodes(HCLASSIC_BASE65536, b, "\xe8\x83\x87\xf0\xa3\xba\xbb", "example E");
	encodes(HCLASSIC_BASE2048, b, "\xe0\xb2\x8e\xd9\x82\xe0\xba\xb0", "example E");
	encodes(HCLASSIC_RAW, b, b, "example E");
	/* Base2048 `Иටฎ`, Base65536 `𤄰𡚻`: 23 keys and a padding L. */
	decodes("\xd0\x98\xe0\xb6\xa7\xe0\xb8\x8e", odd_l, HCLASSIC_BASE2048, "the odd run count");
	decodes("\xf0\xa4\x84\xb0\xf0\xa1\x9a\xbb", odd_l, HCLASSIC_BASE65536, "the odd run count");
	encodes(HCLASSIC_BASE2048, odd, "\xd0\x98\xe0\xb6\xa7\xe0\xb8\x8e", "the odd run count");
	encodes(HCLASSIC_BASE65536, odd, "\xf0\xa4\x84\xb0\xf0\xa1\x9a\xbb", "the odd run count");
	{
		struct hclassic g;
		struct hclassic_report rep;

		memo_clear(&m);
		hclassic_start(&g, HCLASSIC_CURRENT, &mem, NULL);
		hclassic_keys(&g, odd_l, strlen(odd_l), &mem, &rep);
		ok(g.pieces == 2 && g.x == 2 && g.well[18] == 0x6 && g.well[19] == 0x3,
		    "odd run: the S slid to x -1, locked on rows 18-19, the next S moved one left");
	}

	/* Order of attempts and rejections. */
	decodes("  \xe3\x80\x80URDL\xc2\xa0\n", "URDL", HCLASSIC_RAW, "raw with Unicode blanks");
	decodes("DDDD", "DDDD", HCLASSIC_RAW, "only D (meant as hex or not)");
	decodes("#A2", "DDLD", HCLASSIC_HEX, "hex with #");
	decodes("", "", HCLASSIC_BASE65536, "the empty string");
	decodes(" \t ", "", HCLASSIC_BASE65536, "an all-blank string");
	is_int(hclassic_replay_decode("d55a aaaa", 9, keys, sizeof keys, &n, NULL),
	    HCLASSIC_REPLAY_INVALID, "lower-case hex with a space is not a replay");
	is_int(hclassic_replay_decode("\xff", 1, keys, sizeof keys, &n, NULL),
	    HCLASSIC_REPLAY_BAD_UTF8, "invalid UTF-8 is told apart");
	is_int(hclassic_replay_decode("\xed\xa0\x80", 3, keys, sizeof keys, &n, NULL),
	    HCLASSIC_REPLAY_BAD_UTF8, "a UTF-8 surrogate is not UTF-8");
	is_int(hclassic_replay_decode("\xe1\x94\x80\xe8\x83\x87", 6, keys, sizeof keys, &n,
	    NULL), HCLASSIC_REPLAY_INVALID, "a U+15xx character before the end is invalid");
	is_int(hclassic_replay_decode_as(HCLASSIC_BASE2048, "3A", 2, keys, sizeof keys, &n),
	    HCLASSIC_REPLAY_INVALID, "a Base2048 tail character before the end is invalid");
	/* "A" is value 2 (0b00000000010): 3 bits left over, 010, not all 1. */
	is_int(hclassic_replay_decode_as(HCLASSIC_BASE2048, "A", 1, keys, sizeof keys, &n),
	    HCLASSIC_REPLAY_INVALID, "left-over bits that are not all 1 are invalid");
	is_int(hclassic_replay_decode_as(HCLASSIC_BASE2048, "9", 1, keys, sizeof keys, &n),
	    HCLASSIC_REPLAY_INVALID, "8 and 9 are main-set characters (value 1: bad padding)");
	ok(!hclassic_replay_encode(HCLASSIC_HEX, "LRX", 3, keys, sizeof keys, &len) && len == 0,
	    "encoding a bad key is refused");
	ok(!hclassic_replay_encode(7, "L", 1, keys, sizeof keys, &len), "so is an unknown encoding");
	hclassic_replay_encode(HCLASSIC_BASE2048, b, strlen(b), keys, 4, &len);
	ok(len == 8 && strlen(keys) == 3, "a short buffer gets a NUL-terminated prefix and the length");
	is_int(hclassic_replay_decode(b, strlen(b), keys, 5, &n, NULL), HCLASSIC_REPLAY_OK,
	    "a short key buffer still decodes");
	is_int(n, 23, "and tells the whole count");

	/* The Base2048 table against the spec's digest. */
	for (z = 0, i = 0; z < 2048; z++) {
		uint32_t cp = hclassic_base2048_char(z);

		if (cp < 0x80) {
			all[i++] = (char)cp;
		} else if (cp < 0x800) {
			all[i++] = (char)(0xc0 | cp >> 6);
			all[i++] = (char)(0x80 | (cp & 0x3f));
		} else {
			all[i++] = (char)(0xe0 | cp >> 12);
			all[i++] = (char)(0x80 | (cp >> 6 & 0x3f));
			all[i++] = (char)(0x80 | (cp & 0x3f));
		}
	}
	crypto_hash_sha256(digest, (const unsigned char *)all, i);
	sodium_bin2hex(hexd, sizeof hexd, digest, sizeof digest);
	is_str(hexd, "1708b61cb948e3ca0527cb6e26b33068eb7c908aceb041c047bda873618ec771",
	    "Base2048's 2048 characters have the spec's SHA-256");
	is_int(hclassic_base2048_char(1594), 0x0c8e, "character 1594 is U+0C8E (example E)");
}

int
main(void)
{
	if (sodium_init() < 0)
		return 1;
	memo_init(&m);
	mem = memo_iface(&m);
	test_spawn_and_ranges();
	test_example_b();
	test_moves();
	test_clears_and_end();
	test_example_d();
	test_2021_and_mild();
	test_refusals();
	test_replays();
	memo_cleanup(&m);
	return tap_done();
}
