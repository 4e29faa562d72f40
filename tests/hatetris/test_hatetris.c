/*
 * test_hatetris.c: the HATETRIS run outside the supplier's choices (those
 * are test_hatetris_diff.c's and test_hatetris_kat.c's): start, refusals,
 * cap, top-out, abandon, options and preview, the command grammar, board
 * keys, the oracle's contract, and the serialisation.
 *
 * Serialisation, what is asserted precisely:
 *  - round trip: states reached by play at both depths, with and without a
 *    cap, every kind of end, decode to the same struct (memcmp) and
 *    re-encode to the same bytes; sizes are 18 + 4 x (non-empty rows);
 *  - every truncation and a one-byte extension are refused;
 *  - every single-bit flip is refused (the CRC-16 catches all of them);
 *  - with the checksum recomputed after the flip (a forger's flip), every
 *    flip in the version, depth, pieces, lines, row-count and reserved bits
 *    and every cell flip that empties or fills a cell is refused; a cell flip
 *    that changes one letter into another is a valid state and accepted; a
 *    flip anywhere else is refused or re-encodes to the flipped bytes;
 *  - crafted states that break one rule each are refused;
 *  - random byte strings never crash decode and, if accepted, re-encode to
 *    themselves.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hatetris.h"
#include "stackfall_cmd.h"
#include "tap.h"

static uint64_t rng_state = 0x853c49e6748fea9bu;

static uint64_t
rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* ---- a plain oracle: a list of keys ---- */

struct keys {
	uint8_t k[4096][HATETRIS_KEY_BYTES];
	size_t n;
	long asked;
};

static bool
keys_seen(void *ctx, const uint8_t key[HATETRIS_KEY_BYTES])
{
	struct keys *s = ctx;
	size_t i;

	s->asked++;
	for (i = 0; i < s->n; i++)
		if (memcmp(s->k[i], key, HATETRIS_KEY_BYTES) == 0)
			return true;
	return false;
}

static bool
always_seen(void *ctx, const uint8_t key[HATETRIS_KEY_BYTES])
{
	(void)key;
	++*(long *)ctx;
	return true;
}

static struct keys keys;

/* Plays a placement and records the new board for the oracle. */
static enum hatetris_outcome
play(struct hatetris *g, unsigned rot, unsigned col, struct hatetris_report *rep)
{
	enum hatetris_outcome o = hatetris_place(g, rot, col, keys_seen, &keys, rep);

	if (o == HATETRIS_OK && keys.n < 4096)
		hatetris_board_key(&g->board, keys.k[keys.n++]);
	return o;
}

/* A random legal placement of the current piece. */
static void
random_move(const struct hatetris *g, unsigned *rot, unsigned *col)
{
	struct tetromino_option opts[HATETRIS_OPTIONS_MAX];
	size_t n = tetromino_options(&g->board, g->current, opts, HATETRIS_OPTIONS_MAX), i;

	i = (size_t)(rng() % n);
	*rot = opts[i].rotation;
	*col = opts[i].column;
}

/* ---- start ---- */

static void
test_start(void)
{
	struct hatetris g, before;
	char order[TETROMINO_NPIECES + 1];
	long asked = 0;
	unsigned i;

	for (i = 0; i < TETROMINO_NPIECES; i++)
		order[i] = tetromino_letter(hatetris_order[i]);
	order[i] = '\0';
	is_str(order, "SZOILJT", "the supply order");

	/* By hand from the rules: on the empty board I lies flat one row
	 * high (19 empty rows left); every other piece is at least two rows
	 * tall in every rotation (18). The lowest rating is 18, shared by S,
	 * Z, O, L, J and T, and S comes first. */
	ok(hatetris_init(&g, 1, HATETRIS_NO_CAP, always_seen, &asked), "depth 1 starts");
	is_int(tetromino_letter(g.current), 'S', "the first piece on the empty board is S");
	is_int(asked, 0, "the oracle is not asked at the start");
	ok(g.status == HATETRIS_PLAYING && g.end_reason == HATETRIS_END_NONE && g.pieces == 0 &&
	    g.lines == 0 && g.depth == 1 && g.cap == 0 && tetromino_board_is_empty(&g.board),
	    "a new run is empty and playing");
	ok(hatetris_init(&g, 2, 7, NULL, NULL) && g.depth == 2 && g.cap == 7, "depth 2 starts, with a cap");
	memset(&g, 0x5a, sizeof g);
	before = g;
	ok(!hatetris_init(&g, 0, 0, NULL, NULL) && !hatetris_init(&g, 3, 0, NULL, NULL) &&
	    memcmp(&g, &before, sizeof g) == 0, "depths other than 1 and 2 are refused, g untouched");
	is_str(hatetris_status_name(HATETRIS_PLAYING), "playing", "status name playing");
	is_str(hatetris_status_name(HATETRIS_OVER), "over", "status name over");
	ok(hatetris_end_name(HATETRIS_END_NONE) == NULL && hatetris_end_name(9) == NULL,
	    "no end name for none or out of range");
	is_str(hatetris_end_name(HATETRIS_END_TOP_OUT), "top_out", "end name top_out");
	is_str(hatetris_end_name(HATETRIS_END_CAPPED), "capped", "end name capped");
	is_str(hatetris_end_name(HATETRIS_END_ABANDONED), "abandoned", "end name abandoned");
}

/* ---- refusals ---- */

static void
test_refusals(void)
{
	struct hatetris g, before;
	struct hatetris_report rep;
	unsigned rot, col, k;
	int refused_ok = 1, tested = 0;

	keys.n = 0;
	hatetris_init(&g, 1, HATETRIS_NO_CAP, NULL, NULL);
	before = g;
	ok(hatetris_place(&g, 4, 0, NULL, NULL, &rep) == HATETRIS_REFUSED &&
	    memcmp(&g, &before, sizeof g) == 0, "rotation 4 is refused, nothing changes");
	is_str(rep.message, "rotation 4 is out of range: rotations 0-3", "its reason");
	ok(hatetris_place(&g, 0, 8, NULL, NULL, &rep) == HATETRIS_REFUSED &&
	    memcmp(&g, &before, sizeof g) == 0, "S rotation 0 at column 8 is refused");
	is_str(rep.message, "column 8 is out of range for S rotation 0: columns 0-7", "its reason");
	ok(hatetris_place(&g, 1, 9, NULL, NULL, NULL) == HATETRIS_REFUSED &&
	    hatetris_place(&g, 0, 4294967295u, NULL, NULL, NULL) == HATETRIS_REFUSED &&
	    hatetris_place(&g, 4294967295u, 0, NULL, NULL, NULL) == HATETRIS_REFUSED &&
	    memcmp(&g, &before, sizeof g) == 0, "other ranges are refused (rep may be NULL)");

	/* Every unfitting placement along random runs (whether a placement
	 * fits is checked against the naive model in test_hatetris_diff.c). */
	for (k = 0; k < 200; k++) {
		hatetris_init(&g, 1, HATETRIS_NO_CAP, NULL, NULL);
		while (g.status == HATETRIS_PLAYING) {
			for (rot = 0; rot < 5; rot++)
				for (col = 0; col < 11; col++) {
					before = g;
					if (tetromino_fits(&g.board, g.current, rot, col))
						continue;
					tested++;
					if (hatetris_place(&g, rot, col, NULL, NULL, &rep) != HATETRIS_REFUSED ||
					    memcmp(&g, &before, sizeof g) != 0 ||
					    hatetris_preview(&g, rot, col, NULL, NULL) != HATETRIS_REFUSED)
						refused_ok = 0;
				}
			random_move(&g, &rot, &col);
			hatetris_place(&g, rot, col, NULL, NULL, NULL);
		}
	}
	ok(refused_ok && tested > 1000, "%d unfitting placements in random runs: all refused, the "
	    "struct byte-identical", tested);
	before = g;
	ok(hatetris_place(&g, 0, 0, NULL, NULL, &rep) == HATETRIS_GAME_OVER &&
	    memcmp(&g, &before, sizeof g) == 0, "after the end a placement is refused as game over");
	is_str(rep.message, "the game is over (top_out)", "its reason");
	ok(hatetris_options(&g, NULL, 0, NULL, NULL) == HATETRIS_GAME_OVER &&
	    hatetris_preview(&g, 0, 0, NULL, NULL) == HATETRIS_GAME_OVER &&
	    hatetris_abandon(&g, NULL) == HATETRIS_GAME_OVER && memcmp(&g, &before, sizeof g) == 0,
	    "options, preview and abandon are refused too");
}

/* ---- the end of a run ---- */

static void
test_ends(void)
{
	struct hatetris g;
	struct hatetris_report rep;
	unsigned rot, col, k;
	int topped = 0, good = 1;

	hatetris_init(&g, 1, 3, NULL, NULL);
	play(&g, 0, 0, &rep);
	is_str(rep.message, "placed S rotation 0 at column 0; next piece S", "the report of a placement");
	play(&g, 0, 3, NULL);
	ok(g.status == HATETRIS_PLAYING, "two pieces of three: still playing");
	play(&g, 0, 6, &rep);
	ok(g.status == HATETRIS_OVER && g.end_reason == HATETRIS_END_CAPPED && g.pieces == 3,
	    "the third piece of a cap of 3 ends the run as capped");
	ok(rep.outcome == HATETRIS_OK && rep.next == g.current &&
	    g.current == hatetris_choose(&g.board, g.lines, 1, NULL, NULL, NULL),
	    "the supplied piece is still set at the cap");
	ok(strstr(rep.message, "; game over (capped)") != NULL, "the report says so");

	for (k = 0; k < 100; k++) {
		hatetris_init(&g, 1 + k % 2, HATETRIS_NO_CAP, NULL, NULL);
		while (g.status == HATETRIS_PLAYING) {
			random_move(&g, &rot, &col);
			hatetris_place(&g, rot, col, NULL, NULL, &rep);
		}
		topped += g.end_reason == HATETRIS_END_TOP_OUT;
		if (tetromino_can_place(&g.board, g.current) || rep.next != g.current ||
		    strstr(rep.message, "; game over (top_out)") == NULL)
			good = 0;
	}
	ok(topped == 100 && good, "random runs without a cap end by top_out, the supplied piece "
	    "fitting nowhere");

	hatetris_init(&g, 1, HATETRIS_NO_CAP, NULL, NULL);
	play(&g, 1, 0, NULL);
	ok(hatetris_abandon(&g, &rep) == HATETRIS_OK && g.status == HATETRIS_OVER &&
	    g.end_reason == HATETRIS_END_ABANDONED && g.pieces == 1, "abandon ends a run, keeping it");
	is_str(rep.message, "abandoned: 0 lines, 1 piece", "its report");
}

/* ---- options, preview, the command grammar ---- */

static void
test_helpers(void)
{
	struct tetromino_option a[HATETRIS_OPTIONS_MAX], b[HATETRIS_OPTIONS_MAX];
	struct hatetris g, before;
	struct tetromino_preview pv;
	struct hatetris_report rep;
	struct tetromino_board after;
	char text[HATETRIS_TEXT_SIZE];
	size_t n, m;
	unsigned rot, col, k;
	int same = 1;

	hatetris_init(&g, 1, HATETRIS_NO_CAP, NULL, NULL);
	ok(hatetris_options(&g, a, HATETRIS_OPTIONS_MAX, &n, &rep) == HATETRIS_OK && n == 17,
	    "S has 17 placements on the empty board (as in Stackfall)");
	is_str(rep.message, "17 placements for S", "its report");
	for (k = 0; k < 300 && same; k++) {
		if (g.status != HATETRIS_PLAYING)
			hatetris_init(&g, 1, HATETRIS_NO_CAP, NULL, NULL);
		hatetris_options(&g, a, HATETRIS_OPTIONS_MAX, &n, NULL);
		m = tetromino_options(&g.board, g.current, b, HATETRIS_OPTIONS_MAX);
		if (n != m || memcmp(a, b, n * sizeof a[0]) != 0)
			same = 0;
		random_move(&g, &rot, &col);
		before = g;
		if (hatetris_preview(&g, rot, col, &pv, NULL) != HATETRIS_OK ||
		    memcmp(&g, &before, sizeof g) != 0)
			same = 0;
		after = g.board;
		if (pv.figures.lines != tetromino_place(&after, g.current, rot, col))
			same = 0;
		tetromino_board_text(&after, text);
		if (strcmp(text, pv.board_text) != 0)
			same = 0;
		hatetris_place(&g, rot, col, NULL, NULL, NULL);
		hatetris_board_text(&g, text);
		if (strcmp(text, pv.board_text) != 0)
			same = 0;
	}
	ok(same, "options are tetromino_options of the current piece; preview shows the board "
	    "place then leaves, and changes nothing");
}

/* The grammar of Stackfall's parser, run against a HATETRIS run as the
 * server would: place (and its short form), options and preview. */
static void
test_grammar(void)
{
	static struct stackfall_cmd cmds[STACKFALL_CMD_MAX];
	const char *text = "place 0 0;  1 4 \n OPTIONS;preview 0 2;Place 01 7;hold";
	struct hatetris g;
	struct hatetris_report rep;
	size_t n, i, count;
	int results[8];

	hatetris_init(&g, 1, HATETRIS_NO_CAP, NULL, NULL);
	ok(stackfall_cmd_parse(text, strlen(text), cmds, STACKFALL_CMD_MAX, &n) ==
	    STACKFALL_PARSE_OK && n == 6, "a request of six commands parses");
	for (i = 0; i < n; i++) {
		switch (cmds[i].kind) {
		case STACKFALL_CMD_PLACE:
			results[i] = hatetris_place(&g, cmds[i].rotation, cmds[i].column, NULL, NULL,
			    &rep);
			break;
		case STACKFALL_CMD_OPTIONS:
			results[i] = hatetris_options(&g, NULL, 0, &count, &rep);
			break;
		case STACKFALL_CMD_PREVIEW:
			results[i] = hatetris_preview(&g, cmds[i].rotation, cmds[i].column, NULL, &rep);
			break;
		default:
			results[i] = -1; /* hold and resign are not HATETRIS commands */
			break;
		}
	}
	ok(results[0] == HATETRIS_OK && results[1] == HATETRIS_OK && results[2] == HATETRIS_OK &&
	    results[3] == HATETRIS_OK && results[4] == HATETRIS_OK && results[5] == -1,
	    "place, the short form, options and preview run; hold is left to the caller");
	is_int(g.pieces, 3, "three pieces placed");
}

/* ---- keys ---- */

static void
test_keys(void)
{
	struct tetromino_board b, c;
	uint8_t key[HATETRIS_KEY_BYTES], zero[HATETRIS_KEY_BYTES], other[HATETRIS_KEY_BYTES];
	unsigned r, col, i, k;
	int good = 1;

	memset(zero, 0, sizeof zero);
	tetromino_board_init(&b);
	hatetris_board_key(&b, key);
	ok(memcmp(key, zero, sizeof key) == 0, "the empty board's key is 25 zero bytes");
	for (r = 0; r < TETROMINO_ROWS; r++)
		for (col = 0; col < TETROMINO_COLS; col++) {
			tetromino_board_init(&b);
			tetromino_board_set(&b, r, col, 1 + (r + col) % 7);
			hatetris_board_key(&b, key);
			i = 10 * r + col;
			for (k = 0; k < HATETRIS_KEY_BYTES; k++)
				if (key[k] != (k == i / 8 ? 1u << (i % 8) : 0u))
					good = 0;
		}
	ok(good, "cell (row r, column c) is bit 10r + c, byte i / 8, bit i %% 8");

	/* Exactness: the key gives back every cell, whatever the letters. */
	good = 1;
	for (k = 0; k < 2000; k++) {
		tetromino_board_init(&b);
		tetromino_board_init(&c);
		for (r = 0; r < TETROMINO_ROWS; r++)
			for (col = 0; col < TETROMINO_COLS; col++)
				if (rng() % 3 == 0) {
					tetromino_board_set(&b, r, col, 1 + (unsigned)(rng() % 7));
					tetromino_board_set(&c, r, col, 1 + (unsigned)(rng() % 7));
				}
		hatetris_board_key(&b, key);
		hatetris_board_key(&c, other);
		if (memcmp(key, other, sizeof key) != 0)
			good = 0;
		for (r = 0; r < TETROMINO_ROWS; r++)
			for (col = 0; col < TETROMINO_COLS; col++) {
				i = 10 * r + col;
				if ((key[i / 8] >> (i % 8) & 1u) != (tetromino_board_get(&b, r, col) != 0))
					good = 0;
			}
	}
	ok(good, "keys of random boards give back every cell and ignore letters");
}

/* ---- the oracle's contract ---- */

static unsigned
order_index(unsigned piece)
{
	unsigned i;

	for (i = 0; i < TETROMINO_NPIECES && hatetris_order[i] != piece; i++)
		;
	return i;
}

/* Seen: every board except the empty one and those listed. */
struct except_o {
	uint8_t keys[64][HATETRIS_KEY_BYTES];
	size_t n;
};

static bool
except_o_seen(void *ctx, const uint8_t key[HATETRIS_KEY_BYTES])
{
	const struct except_o *ex = ctx;
	uint8_t zero[HATETRIS_KEY_BYTES];
	size_t i;

	memset(zero, 0, sizeof zero);
	if (memcmp(key, zero, sizeof zero) == 0)
		return false;
	for (i = 0; i < ex->n; i++)
		if (memcmp(key, ex->keys[i], HATETRIS_KEY_BYTES) == 0)
			return false;
	return true;
}

static void
test_oracle(void)
{
	struct tetromino_board b;
	struct hatetris_choice d;
	struct except_o ex;
	long asked = 0;
	unsigned r, col, rot, i;

	/* One row of nine cells: no placement clears 2 lines, so at 0 lines no
	 * board can repeat and nothing is asked, at either depth's first level.
	 * (That every question in real runs concerns 2 lines or more is
	 * checked in test_hatetris_diff.c.) */
	tetromino_board_init(&b);
	for (col = 0; col < 9; col++)
		tetromino_board_set(&b, 0, col, 1);
	hatetris_choose(&b, 0, 1, always_seen, &asked, &d);
	is_int(asked, 0, "a run at 0 lines whose placements clear 1 line at most: never asked");
	is_int(d.lookups, 0, "and the choice counts no question");

	/* With the lines unknown every candidate is a question; an oracle that
	 * has seen everything makes every piece repeat: the fallback. */
	hatetris_choose(&b, HATETRIS_LINES_UNKNOWN, 1, always_seen, &asked, &d);
	ok(asked > 0 && (long)d.lookups == asked, "with the lines unknown, candidates are asked "
	    "about (%ld questions)", asked);
	ok(d.fallback && d.checked == 0x7f && d.repeats == 0x7f, "every piece repeats: all seven "
	    "examined, the fallback applies");
	for (i = 0; i < TETROMINO_NPIECES; i++)
		if (d.rating[i] < d.rating[d.piece] || (d.rating[i] == d.rating[d.piece] &&
		    i != d.piece && order_index(i) < order_index(d.piece)))
			break;
	ok(i == TETROMINO_NPIECES, "the fallback gives the lowest rated, earliest piece (%c)",
	    tetromino_letter(d.piece));

	/* The empty start board is seen without the oracle's help. Two rows
	 * missing an O at the right: O can clear them both and leave the
	 * board empty. An oracle that calls every board seen except the empty
	 * one and those O can leave makes every other piece repeat; O repeats
	 * only through the empty board, so all seven repeat and the fallback
	 * gives the lowest rated piece, not O (rated 20). */
	tetromino_board_init(&b);
	for (r = 0; r < 2; r++)
		for (col = 0; col < 8; col++)
			tetromino_board_set(&b, r, col, 1);
	ex.n = 0;
	for (rot = 0; rot < 4; rot++)
		for (col = 0; col < TETROMINO_COLS; col++) {
			struct tetromino_board after = b;

			if (tetromino_place(&after, TETROMINO_O, rot, col) >= 0)
				hatetris_board_key(&after, ex.keys[ex.n++]);
		}
	i = hatetris_choose(&b, HATETRIS_LINES_UNKNOWN, 1, except_o_seen, &ex, &d);
	ok(d.fallback && i != TETROMINO_O && d.rating[TETROMINO_O] == 20 &&
	    (d.repeats >> TETROMINO_O & 1u), "the empty board counts as seen without the oracle "
	    "(O's perfect clear makes it repeat; the fallback gives %c)", tetromino_letter(i));
}

/* ---- serialisation ---- */

#define NSTATES 1500
static struct hatetris states[NSTATES];
static size_t nstates;

static void
collect(void)
{
	struct hatetris g;
	unsigned rot, col;
	int game = 0;

	while (nstates < NSTATES) {
		keys.n = 0;
		hatetris_init(&g, game % 5 == 4 ? 2 : 1, game % 3 == 0 ? 1 + (uint32_t)(rng() % 40)
		    : HATETRIS_NO_CAP, keys_seen, &keys);
		states[nstates++] = g;
		while (g.status == HATETRIS_PLAYING && nstates < NSTATES) {
			if (rng() % 200 == 0) {
				hatetris_abandon(&g, NULL);
			} else {
				struct tetromino_option opts[HATETRIS_OPTIONS_MAX];
				size_t n = tetromino_options(&g.board, g.current, opts,
				    HATETRIS_OPTIONS_MAX), i, best = 0;
				long v, bv = 0;

				/* mostly greedy, so that lines are cleared */
				for (i = 0; i < n; i++) {
					v = 20L * opts[i].figures.holes + 4L * opts[i].figures.max_height -
					    60L * opts[i].figures.lines + (long)(rng() % 30);
					if (i == 0 || v < bv) {
						bv = v;
						best = i;
					}
				}
				rot = opts[best].rotation;
				col = opts[best].column;
				play(&g, rot, col, NULL);
			}
			states[nstates++] = g;
		}
		game++;
	}
}

static void
fix_crc(uint8_t *buf, size_t len)
{
	uint16_t crc = 0xffff;
	size_t i;
	int bit;

	for (i = 0; i + 2 < len; i++) {
		crc = (uint16_t)(crc ^ (uint16_t)buf[i] << 8);
		for (bit = 0; bit < 8; bit++)
			crc = (uint16_t)(crc & 0x8000 ? (crc << 1) ^ 0x1021 : crc << 1);
	}
	buf[len - 2] = (uint8_t)crc;
	buf[len - 1] = (uint8_t)(crc >> 8);
}

static void
test_serial(void)
{
	uint8_t buf[HATETRIS_SERIAL_MAX + 8], flipped[HATETRIS_SERIAL_MAX + 8],
	    again[HATETRIS_SERIAL_MAX + 8];
	struct hatetris g, back;
	size_t s, len, i, nrows, byte, n2;
	unsigned bit, r;
	int round = 1, sizes = 1, trunc = 1, single = 1, forged = 1, letters = 0, ends[4] = { 0 };
	long lines = 0, accepted_other = 0;

	collect();
	for (s = 0; s < nstates; s++) {
		g = states[s];
		ends[g.end_reason]++;
		lines += g.lines;
		len = hatetris_encode(&g, buf, sizeof buf);
		for (nrows = 0; nrows < TETROMINO_ROWS && g.board.rows[nrows] != 0; nrows++)
			;
		if (len != 18 + 4 * nrows || hatetris_encode(&g, buf, len - 1) != len)
			sizes = 0;
		memset(&back, 0x77, sizeof back);
		if (!hatetris_decode(&back, buf, len) || memcmp(&back, &g, sizeof g) != 0 ||
		    hatetris_encode(&back, again, sizeof again) != len || memcmp(again, buf, len) != 0)
			round = 0;
		if (s % 7 != 0)
			continue;
		back = g;
		for (i = 0; i < len; i++)
			if (hatetris_decode(&back, buf, i))
				trunc = 0;
		buf[len] = 0;
		if (hatetris_decode(&back, buf, len + 1))
			trunc = 0;
		for (byte = 0; byte < len; byte++)
			for (bit = 0; bit < 8; bit++) {
				memcpy(flipped, buf, len);
				flipped[byte] ^= (uint8_t)(1u << bit);
				if (hatetris_decode(&back, flipped, len))
					single = 0;
				if (byte >= len - 2)
					continue;
				fix_crc(flipped, len);
				if (!hatetris_decode(&back, flipped, len)) {
					continue;
				}
				/* Accepted: allowed only where the flip makes another
				 * consistent state, never in the counters or the shape. */
				if (byte <= 1 || (byte >= 3 && byte <= 10) || byte == 15 ||
				    (byte == 2 && bit == 7)) {
					forged = 0;
				} else if (byte >= 16) {
					r = (unsigned)((byte - 16) / 4);
					n2 = (byte - 16) % 4 * 8 + bit;
					if (n2 >= 30 || ((g.board.cells[r] >> (n2 / 3 * 3) & 7u) == 0) !=
					    ((back.board.cells[r] >> (n2 / 3 * 3) & 7u) == 0))
						forged = 0;
					else
						letters++;
				} else {
					accepted_other++;
				}
				if (hatetris_encode(&back, again, sizeof again) != len ||
				    memcmp(again, flipped, len) != 0)
					forged = 0;
			}
	}
	diag("%zu states (%d playing, %d top_out, %d capped, %d abandoned), %ld lines in all",
	    nstates, ends[0], ends[1], ends[2], ends[3], lines);
	ok(ends[0] > 0 && ends[1] > 0 && ends[2] > 0 && ends[3] > 0 && lines > 0,
	    "the states cover every end and cleared lines");
	ok(round, "every state decodes to the same struct and re-encodes to the same bytes");
	ok(sizes, "sizes are 18 + 4 x non-empty rows; a short buffer gets nothing but the size");
	ok(trunc, "every truncation and a longer buffer are refused");
	ok(single, "every single-bit flip is refused");
	ok(forged, "with the CRC recomputed, flips in version, depth, counters, row count, "
	    "reserved bits and cell occupancy are refused; the rest re-encode to themselves "
	    "(%d letter changes, %ld others accepted)", letters, accepted_other);
	ok(letters > 0, "a flip that turns one letter into another is accepted");
}

/* Crafted states, one broken rule each. */
static void
test_crafted(void)
{
	uint8_t buf[HATETRIS_SERIAL_MAX + 8], b2[HATETRIS_SERIAL_MAX + 8];
	struct hatetris g, base, back;
	size_t len, k;
	unsigned rot, col;
	int never = 1;

	hatetris_init(&base, 1, HATETRIS_NO_CAP, NULL, NULL);
	play(&base, 0, 0, NULL);
	play(&base, 0, 4, NULL);

#define REFUSED(what, change) do { \
		g = base; \
		change; \
		len = hatetris_encode(&g, buf, sizeof buf); \
		ok(!hatetris_decode(&back, buf, len), "refused: %s", what); \
	} while (0)

	REFUSED("depth 0", g.depth = 0);
	REFUSED("depth 3", g.depth = 3);
	REFUSED("piece 7", g.current = 7);
	REFUSED("end reason 4", g.end_reason = 4);
	REFUSED("one piece more than the cells say", g.pieces++);
	REFUSED("a line more than the cells say", g.lines++);
	REFUSED("a cap below the pieces", g.cap = 1);
	REFUSED("a cap reached while playing", g.cap = 2);
	REFUSED("capped below the cap", (g.cap = 5, g.end_reason = HATETRIS_END_CAPPED));
	REFUSED("capped with no cap", g.end_reason = HATETRIS_END_CAPPED);
	REFUSED("top_out while the piece fits", g.end_reason = HATETRIS_END_TOP_OUT);
	/* A full row with counts that agree: row 0 full and four cells in row
	 * 1 make 14 cells, what 6 pieces and 1 line would leave. */
	g = base;
	tetromino_board_init(&g.board);
	g.pieces = 6;
	g.lines = 1;
	for (col = 0; col < TETROMINO_COLS; col++)
		tetromino_board_set(&g.board, 0, col, 1);
	for (col = 0; col < 4; col++)
		tetromino_board_set(&g.board, 1, col, 1);
	len = hatetris_encode(&g, buf, sizeof buf);
	ok(!hatetris_decode(&back, buf, len), "refused: a full row (the counts agreeing)");
	g = base;
	len = hatetris_encode(&g, buf, sizeof buf);
	ok(hatetris_decode(&back, buf, len), "the base state itself is accepted");
	/* An empty row under a filled one: write the row count by hand. */
	memcpy(b2, buf, len);
	b2[15] = (uint8_t)(b2[15] + 1);
	memmove(b2 + 16 + 4, b2 + 16, len - 16);
	memset(b2 + 16, 0, 4);
	fix_crc(b2, len + 4);
	ok(!hatetris_decode(&back, b2, len + 4), "refused: an empty row under the others");
	/* A playing run whose piece fits nowhere: fill to the top. */
	g = base;
	for (rot = 0; rot < TETROMINO_ROWS; rot++)
		for (col = 0; col < TETROMINO_COLS; col++)
			tetromino_board_set(&g.board, rot, col, col == rot % 10 ? 0 : 1);
	g.pieces = 45;
	g.lines = 0;
	len = hatetris_encode(&g, buf, sizeof buf);
	ok(!hatetris_decode(&back, buf, len), "refused: playing with no room for the piece");
	g.end_reason = HATETRIS_END_TOP_OUT;
	g.status = HATETRIS_OVER;
	len = hatetris_encode(&g, buf, sizeof buf);
	ok(hatetris_decode(&back, buf, len) && memcmp(&back, &g, sizeof g) == 0,
	    "the same board as top_out is accepted");
	ok(!hatetris_decode(&back, NULL, 0), "NULL is refused");

	for (k = 0; k < 200000; k++) {
		size_t n = 18 + (size_t)(rng() % 84), i;

		for (i = 0; i < n; i++)
			buf[i] = (uint8_t)rng();
		buf[0] = 1;
		buf[1] = 1 + (uint8_t)(rng() % 2);
		buf[15] = (uint8_t)((n - 18) / 4);
		fix_crc(buf, n);
		if (hatetris_decode(&back, buf, n) &&
		    (hatetris_encode(&back, b2, sizeof b2) != n || memcmp(b2, buf, n) != 0))
			never = 0;
	}
	ok(never, "random byte strings: no crash, and any accepted re-encodes to itself");
}

int
main(void)
{
	test_start();
	test_refusals();
	test_ends();
	test_helpers();
	test_grammar();
	test_keys();
	test_oracle();
	test_serial();
	test_crafted();
	return tap_done();
}
