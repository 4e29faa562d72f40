/*
 * test_serial.c: actionblocks-v1 matches as bytes and replays.
 *
 * Random bot matches (ab_bot.h) on the turn clock, 2 to 8 seats, with and
 * without items: after every turn the match is encoded, decoded and encoded
 * again (same bytes), and the decoded copy must play the next turn to the
 * same bytes as the original (so nothing the bytes leave out matters).
 * Each match is then replayed from its seed and the move texts alone and
 * must give the same bytes turn by turn (determinism). Every single-bit
 * flip, truncation and extension of some encodings is refused, and so are
 * states with a good CRC that break an invariant.
 *
 * Usage: test_ab_serial [MATCHES [SEED]] (150 and 1 by default).
 */
#include <stdlib.h>

#include "ab_bot.h"
#include "ab_test.h"
#include "tap.h"

#define TURNS_MAX 400

static uint8_t buf[AB_SERIAL_MAX], again[AB_SERIAL_MAX];
static char texts[TURNS_MAX][AB_PLAYERS_MAX][300];

static bool
same_bytes(const struct ab_match *a, const struct ab_match *b)
{
	size_t na = ab_encode(a, buf, sizeof buf), nb = ab_encode(b, again, sizeof again);

	return na == nb && memcmp(buf, again, na) == 0;
}

static void
moves_of(const struct ab_match *m, unsigned turn, struct ab_move *moves)
{
	char reason[ENGINE_REASON_MAX];
	unsigned i;

	memset(moves, 0, sizeof *moves * AB_PLAYERS_MAX);
	for (i = 0; i < m->nplayers; i++) {
		if (!m->players[i].alive)
			continue;
		if (strcmp(texts[turn][i], "missed") == 0)
			moves[i].kind = AB_MOVE_MISSED;
		else
			ab_move_parse(texts[turn][i], strlen(texts[turn][i]), &moves[i], reason,
			    sizeof reason);
	}
}

/* Plays one match; returns the number of failures. */
static int
play(uint64_t seed, unsigned nplayers, unsigned chance, uint64_t *rng, unsigned *nturns)
{
	static const uint8_t weights[AB_ITEM_KINDS] = { 2, 2, 1, 1, 2, 3 };
	struct ab_match m, copy, replay;
	struct ab_move moves[AB_PLAYERS_MAX];
	size_t n, n2;
	unsigned t, i, fails = 0;

	ab_init(&m, seed, nplayers, AB_CLOCK_TURNS, chance, weights);
	for (t = 0; t < TURNS_MAX && !m.over; t++) {
		for (i = 0; i < nplayers; i++)
			if (m.players[i].alive)
				ab_bot_move(&m, i, rng, texts[t][i], sizeof texts[t][i]);
		moves_of(&m, t, moves);
		n = ab_encode(&m, buf, sizeof buf);
		if (n > AB_SERIAL_MAX || !ab_decode(&copy, buf, n)) {
			diag("seed %llu turn %u: decode refused its own bytes",
			    (unsigned long long)seed, t);
			return 1;
		}
		n2 = ab_encode(&copy, again, sizeof again);
		if (n2 != n || memcmp(buf, again, n) != 0)
			fails++;
		if (ab_resolve(&m, moves, NULL, NULL, NULL, 0) != AB_OK ||
		    ab_resolve(&copy, moves, NULL, NULL, NULL, 0) != AB_OK) {
			diag("seed %llu turn %u: a bot move was refused", (unsigned long long)seed, t);
			return fails + 1;
		}
		if (!same_bytes(&m, &copy))
			fails++;
	}
	*nturns = t;
	/* The replay: seed and texts only. */
	ab_init(&replay, seed, nplayers, AB_CLOCK_TURNS, chance, weights);
	for (i = 0; i < t; i++) {
		moves_of(&replay, i, moves);
		if (ab_resolve(&replay, moves, NULL, NULL, NULL, 0) != AB_OK)
			return fails + 1;
	}
	if (!same_bytes(&m, &replay))
		fails++;
	return (int)fails;
}

static void
corruption(void)
{
	struct ab_match m, out;
	struct ab_move moves[AB_PLAYERS_MAX];
	uint64_t rng = 99;
	size_t n, bit;
	unsigned t, i, refused = 0, tries = 0;
	static const uint8_t weights[AB_ITEM_KINDS] = { 1, 1, 1, 1, 1, 1 };

	ab_init(&m, 123456789, 3, AB_CLOCK_TURNS, 30, weights);
	for (t = 0; t < 25 && !m.over; t++) {
		for (i = 0; i < 3; i++)
			if (m.players[i].alive)
				ab_bot_move(&m, i, &rng, texts[t][i], sizeof texts[t][i]);
		moves_of(&m, t, moves);
		ab_resolve(&m, moves, NULL, NULL, NULL, 0);
	}
	n = ab_encode(&m, buf, sizeof buf);
	ok(ab_decode(&out, buf, n), "a 25-turn match decodes (%zu bytes)", n);
	for (bit = 0; bit < n * 8; bit++) {
		memcpy(again, buf, n);
		again[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		tries++;
		refused += !ab_decode(&out, again, n);
	}
	is_int(refused, tries, "every single-bit flip is refused");
	ok(!ab_decode(&out, buf, n - 1) && !ab_decode(&out, buf, 0) && !ab_decode(&out, NULL, n),
	    "truncated or no bytes are refused");
	memcpy(again, buf, n);
	again[n] = 0;
	ok(!ab_decode(&out, again, n + 1), "an extra byte is refused");
}

/* Encodes a state that breaks one invariant (the encoder writes what it is
 * given, CRC and all) and expects decode to refuse it. */
static void
strict(void)
{
	struct ab_match m, bad, out;
	size_t n;
	int x;

	ab_init(&m, 5, 2, AB_CLOCK_TURNS, 10, (const uint8_t[6]){ 1, 1, 1, 1, 1, 1 });
	n = ab_encode(&m, buf, sizeof buf);
	ok(ab_decode(&out, buf, n), "a fresh match decodes");

	bad = m;
	for (x = 0; x < AB_COLS; x++)
		bad.players[0].cells[0][x] = AB_CELL_GREY;
	n = ab_encode(&bad, buf, sizeof buf);
	ok(!ab_decode(&out, buf, n), "a full row is refused");

	bad = m;
	bad.players[1].items[3][3] = AB_ITEM_NUKE;
	n = ab_encode(&bad, buf, sizeof buf);
	ok(!ab_decode(&out, buf, n), "an item on an empty cell is refused");

	bad = m;
	bad.players[1].cells[3][3] = AB_CELL_GREY;
	bad.players[1].items[3][3] = AB_ITEM_NUKE;
	n = ab_encode(&bad, buf, sizeof buf);
	ok(!ab_decode(&out, buf, n), "an item on a grey cell is refused");

	bad = m;
	bad.players[0].place = 2;
	n = ab_encode(&bad, buf, sizeof buf);
	ok(!ab_decode(&out, buf, n), "a living seat with a place is refused");

	bad = m;
	bad.players[0].act.resets = 16;
	n = ab_encode(&bad, buf, sizeof buf);
	ok(!ab_decode(&out, buf, n), "16 resets are refused");

	bad = m;
	bad.players[0].cells[19][4] = AB_CELL_GREY; /* under the spawned piece */
	bad.players[0].cells[20][4] = AB_CELL_GREY;
	n = ab_encode(&bad, buf, sizeof buf);
	ok(!ab_decode(&out, buf, n), "a piece overlapping the board is refused");

	bad = m;
	bad.players[0].queue[0].lines = 3;
	bad.players[0].queue[0].hole = 10;
	bad.players[0].nqueue = 1;
	n = ab_encode(&bad, buf, sizeof buf);
	ok(!ab_decode(&out, buf, n), "a hole beyond column 9 is refused");

	bad = m;
	bad.players[1].inventory[0] = 7;
	bad.players[1].ninventory = 1;
	n = ab_encode(&bad, buf, sizeof buf);
	ok(!ab_decode(&out, buf, n), "an unknown item is refused");

	bad = m;
	bad.players[1].next[2].shape = 2; /* odd without a Transformation */
	n = ab_encode(&bad, buf, sizeof buf);
	ok(!ab_decode(&out, buf, n), "an odd preview without a Transformation is refused");

	bad = m;
	bad.players[1].alive = false;
	bad.players[1].end = AB_END_RESIGNED;
	bad.players[1].place = 2;
	bad.players[1].has_piece = false;
	memset(&bad.players[1].act, 0, sizeof bad.players[1].act);
	bad.players[0].place = 1;
	n = ab_encode(&bad, buf, sizeof buf);
	ok(ab_decode(&out, buf, n) && out.over && out.nalive == 1, "a finished match decodes");
	bad.players[0].place = 0;
	n = ab_encode(&bad, buf, sizeof buf);
	ok(!ab_decode(&out, buf, n), "the last seat in without place 1 is refused");
}

int
main(int argc, char **argv)
{
	unsigned matches = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 150;
	uint64_t rng = argc > 2 ? strtoull(argv[2], NULL, 10) : 1, seed;
	unsigned k, nplayers, chance, turns, total = 0, over = 0;
	int fails = 0;

	if (rng == 0)
		rng = 1;
	for (k = 0; k < matches; k++) {
		seed = xorshift_next(&rng) & AB_SEED_MAX;
		nplayers = 2 + xorshift_below(&rng, 7);
		chance = k % 3 == 0 ? 0 : 5 + xorshift_below(&rng, 60);
		fails += play(seed, nplayers, chance, &rng, &turns);
		total += turns;
		over += turns < TURNS_MAX;
	}
	is_int(fails, 0, "%u matches (%u turns, %u to the end): encode, decode, encode again, "
	    "play on from the copy, replay from the texts", matches, total, over);
	ok(over > matches / 2, "most bot matches end (%u of %u)", over, matches);
	corruption();
	strict();
	return tap_done();
}
