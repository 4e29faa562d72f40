/*
 * test_stackcraft_serial.c: stackcraft_encode / stackcraft_decode.
 *
 * What is asserted:
 *  - round trip: thousands of states reached by play (playing, top_out and
 *    capped) decode to a byte-identical struct and re-encode to the same
 *    bytes, 41 + 4 x (non-empty rows) of them;
 *  - every truncation and a one-byte extension are rejected, and so is
 *    every single-bit flip (the CRC);
 *  - with the CRC recomputed after a flip (a forger's flip), a flip is either
 *    rejected or yields a state that re-encodes to exactly the flipped
 *    bytes (there is one encoding per state), and flips of the version, the
 *    row count and the reserved bits are always rejected;
 *  - states crafted byte by byte that break one rule each are rejected and
 *    their repaired twins accepted;
 *  - the score check accepts exactly the scores that clears of 1-4 rows can
 *    make for a number of lines, compared with a table this test builds by
 *    dynamic programming up to 24 lines;
 *  - random byte strings with a valid CRC never crash decode (ASan watches),
 *    and any that is accepted re-encodes to itself.
 * The test's CRC-16/CCITT-FALSE is checked on the standard "123456789"
 * (0x29b1) first.
 */
#include <stdlib.h>
#include <string.h>

#include "bag.h"
#include "stackcraft.h"
#include "tap.h"

static uint64_t rng_state = 88172645463325252u;

static uint64_t
rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static uint16_t
crc(const uint8_t *p, size_t n)
{
	uint16_t c = 0xffff;
	int k;

	while (n-- > 0) {
		c ^= (uint16_t)(*p++ << 8);
		for (k = 0; k < 8; k++)
			c = (uint16_t)(c & 0x8000 ? (c << 1) ^ 0x1021 : c << 1);
	}
	return c;
}

static void
reseal(uint8_t *b, size_t len)
{
	uint16_t c = crc(b, len - 2);

	b[len - 2] = (uint8_t)c;
	b[len - 1] = (uint8_t)(c >> 8);
}

#define NSTATES 4000
static struct stackcraft states[NSTATES];
static size_t nstates;

static void
collect(void)
{
	struct stackcraft g;
	struct stackcraft_action a[STACKCRAFT_LEGAL_MAX];
	uint64_t seed;
	size_t n;

	for (seed = 0; nstates < NSTATES; seed++) {
		stackcraft_init(&g, seed % 3 ? rng() % (STACKCRAFT_SEED_MAX + 1) : seed,
		    seed % 4 == 0 ? 1 + rng() % 40 : 0);
		for (;;) {
			if (rng() % 4 == 0 || g.status == STACKCRAFT_OVER)
				states[nstates++] = g;
			if (g.status == STACKCRAFT_OVER || nstates == NSTATES)
				break;
			n = stackcraft_legal(&g, a, STACKCRAFT_LEGAL_MAX);
			/* mostly the lowest landing (long games, clears), else random */
			if (rng() % 3 != 0) {
				size_t i, best = 0;

				for (i = 1; i < n; i++)
					if (a[i].y > a[best].y)
						best = i;
				stackcraft_step(&g, a[best].rotation, a[best].x, NULL);
			} else {
				size_t pick = (size_t)(rng() % n);

				stackcraft_step(&g, a[pick].rotation, a[pick].x, NULL);
			}
		}
	}
}

static void
test_round_trip(void)
{
	uint8_t b[STACKCRAFT_SERIAL_MAX + 8], again[STACKCRAFT_SERIAL_MAX + 8];
	struct stackcraft back;
	size_t i, len, rows, r, cut;
	long bad = 0, badsize = 0, badcut = 0, ends[3] = { 0, 0, 0 }, cleared = 0;

	for (i = 0; i < nstates; i++) {
		len = stackcraft_encode(&states[i], b, sizeof b);
		for (rows = 0, r = 0; r < STACKCRAFT_ROWS; r++)
			rows += states[i].board.rows[r] != 0;
		badsize += len != 41 + 4 * rows || len > STACKCRAFT_SERIAL_MAX;
		memset(&back, 0xaa, sizeof back);
		if (!stackcraft_decode(&back, b, len) || memcmp(&back, &states[i], sizeof back) != 0 ||
		    stackcraft_encode(&back, again, sizeof again) != len || memcmp(b, again, len) != 0)
			bad++;
		for (cut = 0; cut < len; cut += 1 + (cut > 45) * 3)
			badcut += stackcraft_decode(&back, b, cut);
		b[len] = 0;
		badcut += stackcraft_decode(&back, b, len + 1);
		ends[states[i].end_reason]++;
		cleared += states[i].lines > 0;
	}
	diag("%zu states: %ld playing, %ld top_out, %ld capped, %ld with lines cleared", nstates,
	    ends[0], ends[1], ends[2], cleared);
	ok(ends[0] > 0 && ends[1] > 0 && ends[2] > 0 && cleared > 0,
	    "the sample has every kind of end and cleared lines");
	is_int(bad, 0, "every state decodes to the same bytes of struct and encodes back");
	is_int(badsize, 0, "sizes are 41 + 4 x non-empty rows, at most %d", STACKCRAFT_SERIAL_MAX);
	is_int(badcut, 0, "truncated or extended encodings are rejected");
	len = stackcraft_encode(&states[nstates - 1], b, sizeof b);
	memset(again, 0x3c, sizeof again);
	ok(stackcraft_encode(&states[nstates - 1], NULL, 0) == len &&
	    stackcraft_encode(&states[nstates - 1], again, len - 1) == len && again[0] == 0x3c,
	    "a short buffer gets the length and nothing written");
}

static void
test_flips(void)
{
	uint8_t b[STACKCRAFT_SERIAL_MAX], f[STACKCRAFT_SERIAL_MAX], again[STACKCRAFT_SERIAL_MAX];
	struct stackcraft back, keep;
	size_t i, len, bit;
	long plain = 0, forged_bad = 0, must = 0, accepted = 0, flips = 0;

	for (i = 0; i < nstates; i += 13) {
		len = stackcraft_encode(&states[i], b, sizeof b);
		for (bit = 0; bit < 8 * len; bit++) {
			memcpy(f, b, len);
			f[bit / 8] ^= (uint8_t)(1u << (bit % 8));
			memset(&keep, 0x5c, sizeof keep);
			back = keep;
			plain += stackcraft_decode(&back, f, len) || memcmp(&back, &keep, sizeof back) != 0;
			if (bit / 8 >= len - 2)
				continue;
			reseal(f, len);
			flips++;
			if (stackcraft_decode(&back, f, len)) {
				accepted++;
				if (stackcraft_encode(&back, again, sizeof again) != len ||
				    memcmp(again, f, len) != 0)
					forged_bad++;
				/* version, row count, reserved bits of end and rows */
				if (bit / 8 == 0 || bit / 8 == 38 || (bit / 8 == 37 && bit % 8 >= 2) ||
				    (bit / 8 >= 39 && (bit / 8 - 39) % 4 == 3 && bit % 8 >= 6) ||
				    ((bit / 8 == 7 || bit / 8 == 14 || bit / 8 == 21 || bit / 8 == 28) &&
				    bit % 8 >= 5))
					must++;
			}
		}
	}
	diag("%ld forged flips, %ld of them accepted as other valid states", flips, accepted);
	is_int(plain, 0, "every single-bit flip is rejected, the output untouched");
	is_int(forged_bad, 0, "a forged flip that decodes re-encodes to exactly its bytes");
	is_int(must, 0, "forged flips of version, row count, reserved bits and bits 53-55 are all rejected");
}

/* A state written byte by byte. */
struct craft {
	uint64_t seed, cap, pieces, lines, score;
	uint8_t end;
	unsigned nrows;
	uint32_t rows[20]; /* bottom first, 3 bits a cell */
};

static size_t
put(const struct craft *c, uint8_t *b)
{
	size_t len = 41 + 4 * (size_t)c->nrows, i;
	unsigned r;

	memset(b, 0, len);
	b[0] = 1;
	for (i = 0; i < 7; i++) {
		b[1 + i] = (uint8_t)(c->seed >> (8 * i));
		b[8 + i] = (uint8_t)(c->cap >> (8 * i));
		b[15 + i] = (uint8_t)(c->pieces >> (8 * i));
		b[22 + i] = (uint8_t)(c->lines >> (8 * i));
	}
	for (i = 0; i < 8; i++)
		b[29 + i] = (uint8_t)(c->score >> (8 * i));
	b[37] = c->end;
	b[38] = (uint8_t)c->nrows;
	for (r = 0; r < c->nrows; r++)
		for (i = 0; i < 4; i++)
			b[39 + 4 * r + i] = (uint8_t)(c->rows[r] >> (8 * i));
	reseal(b, len);
	return len;
}

static int
accepts(const struct craft *c)
{
	uint8_t b[200];
	struct stackcraft g;
	size_t len = put(c, b);

	return stackcraft_decode(&g, b, len);
}

/* A row of colour v in the columns of mask. */
static uint32_t
row_of(unsigned mask, unsigned v)
{
	uint32_t r = 0;
	unsigned x;

	for (x = 0; x < 10; x++)
		if (mask >> x & 1u)
			r |= (uint32_t)v << (3 * x);
	return r;
}

static void
test_crafted(void)
{
	struct craft c, base;
	struct stackcraft g, init;
	uint8_t b[200];
	unsigned p0 = bag_piece(5, 0), y, x, k, other = (p0 + 1) % 7;

	memset(&base, 0, sizeof base);
	base.seed = 5;
	ok(stackcraft_decode(&g, b, put(&base, b)), "the initial state of seed 5 is accepted");
	stackcraft_init(&init, 5, 0);
	ok(memcmp(&g, &init, sizeof g) == 0, "and is stackcraft_init(5, 0) byte for byte");

	c = base; c.seed = STACKCRAFT_SEED_MAX + 1;
	ok(!accepts(&c), "seed 2^53 is rejected");
	c = base; c.cap = STACKCRAFT_CAP_MAX + 1;
	ok(!accepts(&c), "cap 2^53 is rejected");
	c = base; c.end = 3;
	ok(!accepts(&c), "end reason 3 is rejected");
	c = base; c.pieces = 1;
	ok(!accepts(&c), "a piece placed and no cells: rejected");
	c = base; c.end = STACKCRAFT_END_CAPPED;
	ok(!accepts(&c), "capped without a cap: rejected");
	c = base; c.end = STACKCRAFT_END_TOP_OUT;
	ok(!accepts(&c), "top_out on an empty board: rejected");

	/* One piece placed: 4 cells in the bottom row. */
	c = base; c.pieces = 1; c.nrows = 1; c.rows[0] = row_of(0xf, p0 + 1);
	ok(accepts(&c), "one piece of the stream's colour: accepted");
	c.rows[0] = row_of(0xf, other + 1);
	ok(!accepts(&c), "four cells of a colour the stream has not dealt yet: rejected");
	c.rows[0] = row_of(0xf, p0 + 1) | UINT32_C(1) << 30;
	ok(!accepts(&c), "a stray bit 30 in a row: rejected");
	c = base; c.pieces = 1; c.nrows = 2; c.rows[1] = row_of(0xf, p0 + 1);
	ok(!accepts(&c), "an empty row under a filled one: rejected");
	c = base; c.pieces = 1; c.nrows = 1; c.rows[0] = row_of(0xf, p0 + 1); c.cap = 1;
	ok(!accepts(&c), "playing with pieces = cap: rejected");
	c.end = STACKCRAFT_END_CAPPED;
	ok(accepts(&c), "capped with pieces = cap: accepted");
	c.cap = 2;
	ok(!accepts(&c), "capped with pieces < cap: rejected");
	c = base; c.pieces = 6; c.nrows = 1; c.rows[0] = row_of(0xf, p0 + 1); c.lines = 2;
	c.score = 300; c.cap = 5;
	ok(!accepts(&c), "more pieces than the cap: rejected");
	c.cap = 0;
	ok(accepts(&c), "the same without a cap: accepted");

	/* A full row: 5 pieces and a line, 4 x 5 - 10 = 10 cells, two in the
	 * colour of each piece dealt. */
	c = base; c.pieces = 5; c.lines = 1; c.score = 100; c.nrows = 1;
	for (k = 0; k < 5; k++)
		c.rows[0] |= row_of(3u << (2 * k), bag_piece(5, k) + 1);
	ok(!accepts(&c), "a full row: rejected");

	/* A topped-out board: every row has one hole, never two in a column
	 * or side by side, so nothing fits at the top. 180 cells = 4 x 50 -
	 * 10 x 2, colours spread over the seven pieces. */
	c = base; c.pieces = 50; c.lines = 2; c.score = 200; c.nrows = 20;
	for (y = 0, k = 0; y < 20; y++) {
		c.rows[y] = 0;
		for (x = 0; x < 10; x++)
			if (x != (y * 3) % 10)
				c.rows[y] |= (uint32_t)(1 + k++ % 7) << (3 * x);
	}
	ok(!accepts(&c), "playing with nowhere to go: rejected");
	c.end = STACKCRAFT_END_TOP_OUT;
	ok(accepts(&c), "the same as top_out: accepted");
	c.end = STACKCRAFT_END_CAPPED; c.cap = 50;
	ok(!accepts(&c), "the same as capped (the rules ended it first): rejected");
	c.end = STACKCRAFT_END_TOP_OUT; c.cap = 49;
	ok(!accepts(&c), "top_out past the cap: rejected");
	c.cap = 50;
	ok(accepts(&c), "top_out on the capped move: accepted");
	c.score = 250;
	ok(!accepts(&c), "a score that is not a multiple of 100: rejected");
	c.score = 100;
	ok(!accepts(&c), "less than 100 points a line: rejected");
	c.score = 400;
	ok(!accepts(&c), "2 lines, 400 points: rejected");
	c.score = 300;
	ok(accepts(&c), "2 lines, 300 points: accepted");
	c.lines = 3; c.pieces = 52; c.score = 300;
	c.rows[19] = 0; c.nrows = 19; /* 171 cells? no: 4 x 52 - 30 = 178 */
	ok(!accepts(&c), "a cell count that does not add up: rejected");

	/* version and nrows */
	put(&base, b);
	b[0] = 2;
	reseal(b, 41);
	ok(!stackcraft_decode(&g, b, 41), "version 2: rejected");
}

/* Which (lines, score) pairs clears can make, for lines 0..24. */
static void
test_scores(void)
{
	static unsigned char can[25][25 * 8 + 1]; /* [lines][score / 100] */
	static const unsigned rows[4] = { 1, 2, 3, 4 }, pts[4] = { 1, 3, 5, 8 };
	struct craft c;
	unsigned l, s, k, wrong = 0, tried = 0, p0 = bag_piece(9, 0);

	memset(can, 0, sizeof can);
	can[0][0] = 1;
	for (l = 1; l <= 24; l++)
		for (s = 0; s <= 8 * l; s++)
			for (k = 0; k < 4; k++)
				if (rows[k] <= l && s >= pts[k] && can[l - rows[k]][s - pts[k]])
					can[l][s] = 1;
	for (l = 0; l <= 24; l++) {
		memset(&c, 0, sizeof c);
		c.seed = 9;
		c.lines = l;
		if (l % 2 == 0) {
			c.pieces = 5 * l / 2; /* no cells left */
		} else {
			c.pieces = (10 * l + 2) / 4; /* two cells left */
			c.nrows = 1;
			c.rows[0] = row_of(0x3, p0 + 1);
		}
		for (s = 0; s <= 8 * l + 2; s++) {
			c.score = 100 * (uint64_t)s;
			wrong += accepts(&c) != (s <= 8 * l && can[l][s]);
			tried++;
			c.score += 50;
			wrong += accepts(&c);
			tried++;
		}
	}
	is_int(wrong, 0, "of %u (lines, score) pairs, decode accepts exactly the reachable ones",
	    tried);
	ok(can[4][7] == 0 && can[4][8] == 1 && can[3][4] == 1, "4 lines never make 700, 800 do");
}

static void
test_random_bytes(void)
{
	uint8_t b[STACKCRAFT_SERIAL_MAX], again[STACKCRAFT_SERIAL_MAX];
	struct stackcraft g;
	size_t len, i, k, n;
	long accepted = 0, bad = 0;

	for (i = 0; i < 200000; i++) {
		if (i % 2 == 0) {
			/* noise with a plausible length and header */
			len = 41 + 4 * (rng() % 21);
			for (k = 0; k < len; k++)
				b[k] = (uint8_t)rng();
			b[0] = 1;
			b[38] = (uint8_t)((len - 41) / 4);
		} else {
			/* a real state with one to four bytes replaced */
			len = stackcraft_encode(&states[rng() % nstates], b, sizeof b);
			for (n = 1 + rng() % 4; n > 0; n--)
				b[rng() % (len - 2)] = (uint8_t)rng();
		}
		reseal(b, len);
		if (stackcraft_decode(&g, b, len)) {
			accepted++;
			bad += stackcraft_encode(&g, again, sizeof again) != len ||
			    memcmp(again, b, len) != 0;
		}
	}
	diag("%ld of 200000 random or damaged strings decoded", accepted);
	ok(accepted > 0, "some damaged states are still valid states");
	is_int(bad, 0, "the strings that decode re-encode to themselves");
}

int
main(void)
{
	static const uint8_t check[] = "123456789";

	is_int(crc(check, 9), 0x29b1, "the test's CRC-16/CCITT-FALSE has the standard check value");
	collect();
	test_round_trip();
	test_flips();
	test_crafted();
	test_scores();
	test_random_bytes();
	return tap_done();
}
