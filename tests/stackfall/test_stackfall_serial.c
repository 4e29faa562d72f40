/*
 * test_stackfall_serial.c: stackfall_encode / stackfall_decode.
 *
 * What is asserted, precisely:
 *  - round trip: thousands of states reached by play (every kind of end
 *    included) decode to the same struct, field by field, and re-encode to
 *    the same bytes; sizes are 21 + 4 x (non-empty rows);
 *  - every truncation (and an extension by one byte) is rejected;
 *  - every single-bit flip of an encoding is rejected (the CRC-16 catches all
 *    of them);
 *  - with the checksum recomputed after the flip (a forger's flip), the
 *    structural checks alone must reject every flip in the version, placed,
 *    lines, score and row-count bytes, the seed's top 3 bits, the reserved
 *    flag bits and row bits 30-31, and every cell flip that empties or fills
 *    a cell; a cell flip that turns one letter into another is a valid state
 *    and must be accepted; for the remaining fields (seed, pieces, end,
 *    can_hold, back_to_back, combo) a flip is either rejected or yields a
 *    state that re-encodes to exactly the flipped bytes;
 *  - crafted states that break one rule each are rejected;
 *  - random byte strings never crash decode (ASan checks this), and any that
 *    is accepted re-encodes to itself.
 */
#include <stdlib.h>
#include <string.h>

#include "stackfall.h"
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

static int
same(const struct stackfall *a, const struct stackfall *b)
{
	return memcmp(&a->board, &b->board, sizeof a->board) == 0 && a->seed == b->seed &&
	    a->score == b->score && a->lines == b->lines && a->level == b->level &&
	    a->placed == b->placed && a->drawn == b->drawn && a->combo == b->combo &&
	    a->current == b->current && a->hold == b->hold &&
	    memcmp(a->next, b->next, sizeof a->next) == 0 && a->can_hold == b->can_hold &&
	    a->back_to_back == b->back_to_back && a->status == b->status &&
	    a->end_reason == b->end_reason && a->bag_number == b->bag_number &&
	    memcmp(a->bag, b->bag, sizeof a->bag) == 0;
}

#define NSTATES 3000
static struct stackfall states[NSTATES];
static size_t nstates;

/* Plays games with a loose policy and keeps a sample of the states. */
static void
collect(void)
{
	struct stackfall g;
	struct tetromino_option opts[STACKFALL_OPTIONS_MAX];
	size_t n, pick, i;
	unsigned roll;
	long best;
	int game = 0;

	while (nstates < NSTATES) {
		stackfall_init(&g, game % 2 ? rng() % (STACKFALL_SEED_MAX + 1) : (uint64_t)game);
		game++;
		while (g.status == STACKFALL_PLAYING && nstates < NSTATES) {
			if (rng() % 8 == 0)
				states[nstates++] = g;
			roll = (unsigned)(rng() % 1000);
			if (roll < 2) {
				stackfall_resign(&g, NULL);
			} else if (roll < 4) {
				stackfall_abandon(&g, NULL);
			} else if (roll < 80) {
				stackfall_hold(&g, NULL);
			} else {
				stackfall_options(&g, opts, STACKFALL_OPTIONS_MAX, &n, NULL);
				if (n == 0) {
					/* only the hold alternative fits */
					stackfall_hold(&g, NULL);
					continue;
				}
				pick = 0;
				best = 1L << 30;
				for (i = 0; i < n; i++) {
					long v = opts[i].figures.holes * 5 + opts[i].figures.max_height * 2 +
					    opts[i].figures.bumpiness - opts[i].figures.lines * 8 +
					    (long)(rng() % (game % 3 == 0 ? 200 : 8));
					if (v < best) {
						best = v;
						pick = i;
					}
				}
				stackfall_place(&g, opts[pick].rotation, opts[pick].column, NULL);
			}
		}
		if (nstates < NSTATES)
			states[nstates++] = g; /* the end state */
	}
}

/* CRC-16/CCITT-FALSE, written again here to forge checksums. */
static uint16_t
crc16(const uint8_t *p, size_t n)
{
	uint16_t crc = 0xffff;
	int bit;

	while (n-- > 0) {
		crc ^= (uint16_t)(*p++ << 8);
		for (bit = 0; bit < 8; bit++)
			crc = (uint16_t)(crc & 0x8000 ? (crc << 1) ^ 0x1021 : crc << 1);
	}
	return crc;
}

static void
forge(uint8_t *b, size_t len)
{
	uint16_t crc = crc16(b, len - 2);

	b[len - 2] = (uint8_t)crc;
	b[len - 1] = (uint8_t)(crc >> 8);
}

/* Accepted only as a canonical state: decoding then encoding gives b back. */
static int
canonical(const uint8_t *b, size_t len)
{
	struct stackfall g;
	uint8_t again[STACKFALL_SERIAL_MAX];

	if (!stackfall_decode(&g, b, len))
		return 1; /* rejected */
	return stackfall_encode(&g, again, sizeof again) == len && memcmp(again, b, len) == 0;
}

static void
test_round_trips(void)
{
	uint8_t b[STACKFALL_SERIAL_MAX + 1], again[STACKFALL_SERIAL_MAX];
	struct stackfall g;
	size_t i, len, cut, rows, max = 0;
	int good = 1, sized = 1, trunc = 1, ends[5] = { 0 };
	unsigned r;

	for (i = 0; i < nstates; i++) {
		len = stackfall_encode(&states[i], b, sizeof b);
		for (rows = 0, r = 0; r < TETROMINO_ROWS; r++)
			rows += states[i].board.rows[r] != 0;
		if (len != 21 + 4 * rows || len > STACKFALL_SERIAL_MAX)
			sized = 0;
		if (len > max)
			max = len;
		memset(&g, 0xa5, sizeof g);
		if (!stackfall_decode(&g, b, len) || !same(&g, &states[i]) ||
		    stackfall_encode(&g, again, sizeof again) != len || memcmp(again, b, len) != 0) {
			if (good)
				diag("state %zu does not round-trip", i);
			good = 0;
		}
		for (cut = 0; cut < len; cut++)
			if (stackfall_decode(&g, b, cut))
				trunc = 0;
		b[len] = 0;
		if (stackfall_decode(&g, b, len + 1))
			trunc = 0;
		ends[states[i].end_reason]++;
	}
	ok(good, "%zu states decode to the same struct and re-encode to the same bytes", nstates);
	ok(sized, "each takes 21 + 4 x non-empty rows bytes (largest seen %zu)", max);
	ok(trunc, "every truncation and a one-byte extension is rejected");
	ok(ends[0] > 0 && ends[1] > 0 && ends[2] > 0 && ends[3] > 0 && ends[4] > 0,
	    "the sample holds playing states and every kind of end (%d %d %d %d %d)", ends[0],
	    ends[1], ends[2], ends[3], ends[4]);
	stackfall_init(&g, 0);
	is_int(stackfall_encode(&g, NULL, 0), 21, "a new run takes 21 bytes");
	is_int(stackfall_encode(&g, b, 20), 21, "too small a buffer: length only");
	is_int(STACKFALL_SERIAL_MAX, 101, "at most 101 bytes");
}

static void
test_flips(void)
{
	uint8_t b[STACKFALL_SERIAL_MAX], f[STACKFALL_SERIAL_MAX];
	struct stackfall g;
	size_t i, len, at, nrows;
	int bit, plain = 1, must = 1, letters = 1, loose = 1;
	long n_must = 0, n_letters = 0, n_loose = 0, n_loose_ok = 0, n_plain = 0;

	for (i = 0; i < nstates; i += 10) {
		len = stackfall_encode(&states[i], b, sizeof b);
		nrows = b[18];
		for (at = 0; at < len; at++)
			for (bit = 0; bit < 8; bit++) {
				memcpy(f, b, len);
				f[at] ^= (uint8_t)(1u << bit);
				n_plain++;
				if (stackfall_decode(&g, f, len))
					plain = 0;
				if (at >= len - 2)
					continue;
				forge(f, len);
				if (at == 0 || (at >= 8 && at <= 14) || at == 18 ||
				    (at == 7 && bit >= 5) || (at == 16 && bit >= 5) ||
				    (at >= 19 && (at - 19) % 4 == 3 && bit >= 6)) {
					n_must++;
					if (stackfall_decode(&g, f, len))
						must = 0;
				} else if (at >= 19 && at < 19 + 4 * nrows) {
					/* a cell flip: the cell is bits 3c..3c+2 of the row */
					size_t row = (at - 19) / 4;
					uint32_t before = states[i].board.cells[row];
					uint32_t after = before ^ (uint32_t)1u << (8 * ((at - 19) % 4) + bit);
					unsigned pos = (unsigned)(8 * ((at - 19) % 4) + bit), c = pos / 3;
					unsigned v0 = before >> (3 * c) & 7u, v1 = after >> (3 * c) & 7u;
					int accepted = stackfall_decode(&g, f, len);
					n_letters++;
					if (accepted != (v0 != 0 && v1 != 0) || !canonical(f, len))
						letters = 0;
				} else {
					n_loose++;
					n_loose_ok += stackfall_decode(&g, f, len);
					if (!canonical(f, len))
						loose = 0;
				}
			}
	}
	ok(plain, "all %ld single-bit flips are rejected by the checksum", n_plain);
	ok(must, "with a forged checksum, all %ld flips in version, counters, row count, "
	    "seed top bits, reserved bits and row spare bits are rejected", n_must);
	ok(letters, "with a forged checksum, %ld cell flips: rejected exactly when a cell "
	    "empties or fills, accepted when a letter becomes another", n_letters);
	ok(loose, "with a forged checksum, %ld flips in seed, pieces, flags and combo: rejected "
	    "or canonical (%ld accepted)", n_loose, n_loose_ok);
}

/* Writes a state by hand, with a correct checksum. */
static size_t
craft(uint8_t *b, uint64_t seed, unsigned placed, unsigned lines, uint32_t score,
    unsigned current, unsigned hold, unsigned flags, int combo, const uint32_t *rows,
    unsigned nrows)
{
	unsigned i;
	size_t len = 21 + 4 * (size_t)nrows;

	b[0] = 1;
	for (i = 0; i < 7; i++)
		b[1 + i] = (uint8_t)(seed >> (8 * i));
	b[8] = (uint8_t)placed;
	b[9] = (uint8_t)lines;
	b[10] = (uint8_t)(lines >> 8);
	for (i = 0; i < 4; i++)
		b[11 + i] = (uint8_t)(score >> (8 * i));
	b[15] = (uint8_t)(current | hold << 4);
	b[16] = (uint8_t)flags;
	b[17] = (uint8_t)(combo + 1);
	b[18] = (uint8_t)nrows;
	for (i = 0; i < nrows; i++) {
		b[19 + 4 * i] = (uint8_t)rows[i];
		b[20 + 4 * i] = (uint8_t)(rows[i] >> 8);
		b[21 + 4 * i] = (uint8_t)(rows[i] >> 16);
		b[22 + 4 * i] = (uint8_t)(rows[i] >> 24);
	}
	forge(b, len);
	return len;
}

/* A row of letter v in the columns of mask. */
static uint32_t
row_of(unsigned mask, unsigned v)
{
	uint32_t r = 0;
	unsigned c;

	for (c = 0; c < 10; c++)
		if (mask >> c & 1u)
			r |= (uint32_t)v << (3 * c);
	return r;
}

static void
test_crafted(void)
{
	uint8_t b[STACKFALL_SERIAL_MAX];
	struct stackfall g, fresh;
	uint32_t rows[20];
	size_t len;

	/* Seed 0 starts T O J I: one T placed (current O), the T flat on the floor. */
	rows[0] = row_of(0x7, 3);
	rows[1] = row_of(0x2, 3);
	len = craft(b, 0, 1, 0, 0, TETROMINO_O, STACKFALL_NO_PIECE, 8, -1, rows, 2);
	ok(stackfall_decode(&g, b, len) && g.placed == 1 && g.current == TETROMINO_O &&
	    g.next[0] == TETROMINO_J && g.drawn == 2, "a hand-made valid state decodes");
	stackfall_init(&fresh, 0);
	stackfall_place(&fresh, 0, 0, NULL);
	ok(same(&g, &fresh), "and equals the state reached by playing T 0 0");

	len = craft(b, 0, 1, 0, 0, TETROMINO_J, STACKFALL_NO_PIECE, 8, -1, rows, 2);
	ok(!stackfall_decode(&g, b, len), "a current piece the stream cannot give");
	len = craft(b, 0, 1, 0, 0, TETROMINO_O, TETROMINO_T, 8, -1, rows, 2);
	ok(!stackfall_decode(&g, b, len), "a held piece without the draw it implies");
	len = craft(b, 0, 1, 0, 0, TETROMINO_O, STACKFALL_NO_PIECE, 0, -1, rows, 2);
	ok(!stackfall_decode(&g, b, len), "can_hold false while playing with an empty slot");
	len = craft(b, 0, 1, 0, 0, TETROMINO_O, STACKFALL_NO_PIECE, 8 | 3, -1, rows, 2);
	ok(!stackfall_decode(&g, b, len), "over (resigned) with can_hold");
	len = craft(b, 0, 1, 0, 0, TETROMINO_O, STACKFALL_NO_PIECE, 3, -1, rows, 2);
	ok(stackfall_decode(&g, b, len) && g.status == STACKFALL_OVER, "resigned without can_hold");
	len = craft(b, 0, 1, 0, 0, TETROMINO_O, STACKFALL_NO_PIECE, 2, -1, rows, 2);
	ok(!stackfall_decode(&g, b, len), "piece_limit with 1 piece placed");
	len = craft(b, 0, 1, 0, 0, TETROMINO_O, STACKFALL_NO_PIECE, 1, -1, rows, 2);
	ok(!stackfall_decode(&g, b, len), "top_out while O still fits");
	len = craft(b, 0, 1, 0, 0, TETROMINO_O, STACKFALL_NO_PIECE, 5, -1, rows, 2);
	ok(!stackfall_decode(&g, b, len), "end reason 5");
	len = craft(b, 0, 1, 0, 0, TETROMINO_O, STACKFALL_NO_PIECE, 8 | 16, -1, rows, 2);
	ok(!stackfall_decode(&g, b, len), "back_to_back with no lines");
	len = craft(b, 0, 1, 0, 0, TETROMINO_O, STACKFALL_NO_PIECE, 8, 0, rows, 2);
	ok(!stackfall_decode(&g, b, len), "combo 0 with no clear");
	len = craft(b, 0, 1, 0, 50, TETROMINO_O, STACKFALL_NO_PIECE, 8, -1, rows, 2);
	ok(!stackfall_decode(&g, b, len), "points without lines");
	len = craft(b, 0, 1, 0, 0, 7, STACKFALL_NO_PIECE, 8, -1, rows, 2);
	ok(!stackfall_decode(&g, b, len), "current piece 7");
	len = craft(b, 0, 1, 0, 0, TETROMINO_O, 8, 8, -1, rows, 2);
	ok(!stackfall_decode(&g, b, len), "hold 8");
	len = craft(b, UINT64_C(1) << 53, 1, 0, 0, TETROMINO_O, STACKFALL_NO_PIECE, 8, -1, rows, 2);
	ok(!stackfall_decode(&g, b, len), "seed 2^53");
	len = craft(b, 0, 2, 0, 0, TETROMINO_O, STACKFALL_NO_PIECE, 8, -1, rows, 2);
	ok(!stackfall_decode(&g, b, len), "2 pieces placed but 4 cells");
	len = craft(b, 0, 151, 0, 0, TETROMINO_O, STACKFALL_NO_PIECE, 8, -1, rows, 2);
	ok(!stackfall_decode(&g, b, len), "151 pieces placed");

	rows[1] = 0;
	rows[2] = row_of(0x2, 3);
	len = craft(b, 0, 1, 0, 0, TETROMINO_O, STACKFALL_NO_PIECE, 8, -1, rows, 3);
	ok(!stackfall_decode(&g, b, len), "an empty row under a filled one");
	rows[0] = row_of(0x3ff, 3);
	len = craft(b, 0, 3, 0, 0, TETROMINO_O, STACKFALL_NO_PIECE, 8, -1, rows, 1);
	ok(!stackfall_decode(&g, b, len), "a full row");
	rows[0] = row_of(0x7, 3) | 1u << 30;
	rows[1] = row_of(0x2, 3);
	len = craft(b, 0, 1, 0, 0, TETROMINO_O, STACKFALL_NO_PIECE, 8, -1, rows, 2);
	ok(!stackfall_decode(&g, b, len), "row bit 30 set");
	b[0] = 2;
	forge(b, len);
	ok(!stackfall_decode(&g, b, len), "version 2");
	ok(!stackfall_decode(&g, NULL, 0), "NULL input");

	/* A topped-out state relabelled as playing (can_hold set), taken where
	 * the hold alternative would not fit either: a playing run must have a
	 * move, so this is rejected. */
	{
		size_t i;
		int found = 0;
		unsigned alt;

		for (i = 0; i < nstates && !found; i++) {
			if (states[i].end_reason != STACKFALL_END_TOP_OUT)
				continue;
			alt = states[i].hold != STACKFALL_NO_PIECE ? states[i].hold : states[i].next[0];
			if (tetromino_can_place(&states[i].board, alt))
				continue;
			len = stackfall_encode(&states[i], b, sizeof b);
			b[16] = (uint8_t)((b[16] & ~7u) | 8u); /* playing, can_hold */
			forge(b, len);
			found = 1;
			ok(!stackfall_decode(&g, b, len), "a topped-out board relabelled as playing");
		}
		ok(found, "the sample has a top_out where hold would not help either");
	}
}

static void
test_garbage(void)
{
	uint8_t b[128];
	struct stackfall g;
	long i, accepted = 0, forged = 0;
	size_t len, k;
	int good = 1;

	for (i = 0; i < 200000; i++) {
		len = (size_t)(rng() % sizeof b);
		for (k = 0; k < len; k++)
			b[k] = (uint8_t)rng();
		if (i % 2 == 0 && len >= 21) {
			/* shaped like an encoding: version, row count, checksum */
			b[0] = 1;
			b[18] = (uint8_t)((len - 21) / 4);
			len = 21 + 4 * (size_t)b[18];
			if (len > sizeof b)
				continue;
			forge(b, len);
			forged++;
		}
		if (stackfall_decode(&g, b, len)) {
			accepted++;
			if (!canonical(b, len))
				good = 0;
		}
	}
	ok(good, "200000 random byte strings (%ld shaped with a valid checksum): no crash, "
	    "%ld accepted, all canonical", forged, accepted);
}

int
main(void)
{
	collect();
	test_round_trips();
	test_flips();
	test_crafted();
	test_garbage();
	return tap_done();
}
