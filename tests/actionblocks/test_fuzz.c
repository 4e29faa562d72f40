/*
 * test_fuzz.c: the outside input of actionblocks-v1 (move text and match
 * bytes) under random damage, as a test program making its own inputs, so
 * that every build (the sanitized one included) runs it.
 *
 * Moves: random strings over the grammar's alphabet; whatever reads must
 * write back canonically and read again to the same move, and checking it
 * against a match must not crash. Bytes: encodings of bot matches with a
 * few bytes changed and the CRC made right again, so the decoder's checks
 * (not the CRC) are what stands; what decodes must encode to the same
 * bytes and play three more turns of bot moves without a fault.
 *
 * Usage: test_ab_fuzz [ROUNDS [SEED]] (3000 and 1 by default).
 */
#include <stdlib.h>

#include "ab_bot.h"
#include "tap.h"

/* Pieces of the grammar and of near misses, put together at random. */
static const char *const tokens[] = {
	"use ", "USE", "use", "2", "1", "13", "0", "9999", ";", " ; ", " ", "\t", "\n", "keys ",
	"Keys", "keys", "resign", "RESIGN ", "LRXZSDC", "L", "R", "X", "Z", "S", "D", "C",
	"SSSSSSSSSS", "q", "place 0 3", "",
};

static bool
same_move(const struct ab_move *a, const struct ab_move *b)
{
	return a->kind == b->kind && a->use == b->use && a->nkeys == b->nkeys &&
	    memcmp(a->keys, b->keys, a->nkeys) == 0;
}

int
main(int argc, char **argv)
{
	unsigned rounds = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 3000;
	uint64_t rng = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
	static uint8_t buf[AB_SERIAL_MAX], again[AB_SERIAL_MAX];
	static const uint8_t w[AB_ITEM_KINDS] = { 1, 2, 1, 1, 2, 3 };
	struct ab_match m, d;
	struct ab_move mv, mv2, moves[AB_PLAYERS_MAX];
	char text[400], back[400], reason[ENGINE_REASON_MAX], bot[AB_PLAYERS_MAX][300];
	unsigned r, n, k, i, t, parsed = 0, canon = 0, decoded = 0, faithful = 0;
	size_t len;

	if (rng == 0)
		rng = 1;
	ab_init(&m, 4242, 4, AB_CLOCK_TURNS, 20, w);
	for (r = 0; r < rounds; r++) {
		text[0] = '\0';
		for (k = xorshift_below(&rng, 8); k > 0; k--) {
			const char *tok = tokens[xorshift_below(&rng, sizeof tokens / sizeof tokens[0])];

			if (strlen(text) + strlen(tok) < sizeof text)
				strcat(text, tok);
		}
		n = (unsigned)strlen(text);
		if (ab_move_parse(text, n, &mv, reason, sizeof reason) != AB_PARSE_OK)
			continue;
		parsed++;
		ab_move_text(&mv, back, sizeof back);
		if (ab_move_parse(back, strlen(back), &mv2, reason, sizeof reason) == AB_PARSE_OK &&
		    same_move(&mv, &mv2))
			canon++;
		ab_check_move(&m, xorshift_below(&rng, 4), &mv, reason, sizeof reason);
	}
	ok(parsed > 0 && canon == parsed, "%u of %u random move texts read; each writes back "
	    "canonically and reads again the same (%u)", parsed, rounds, canon);

	for (r = 0; r < rounds / 10; r++) {
		n = 2 + xorshift_below(&rng, 7);
		ab_init(&m, xorshift_next(&rng) & AB_SEED_MAX, n, AB_CLOCK_TURNS,
		    r % 2 ? 30 : 0, w);
		for (t = xorshift_below(&rng, 30); t > 0 && !m.over; t--) {
			memset(moves, 0, sizeof moves);
			for (i = 0; i < n; i++) {
				if (!m.players[i].alive)
					continue;
				ab_bot_move(&m, i, &rng, bot[i], sizeof bot[i]);
				if (strcmp(bot[i], "missed") == 0)
					moves[i].kind = AB_MOVE_MISSED;
				else
					ab_move_parse(bot[i], strlen(bot[i]), &moves[i], reason, sizeof reason);
			}
			ab_resolve(&m, moves, NULL, NULL, NULL, 0);
		}
		len = ab_encode(&m, buf, sizeof buf);
		for (k = 1 + xorshift_below(&rng, 4); k > 0; k--)
			buf[xorshift_below(&rng, (uint32_t)(len - 4))] = (uint8_t)xorshift_next(&rng);
		engine_put_le(buf + len - 4, engine_crc32(buf, len - 4), 4);
		if (!ab_decode(&d, buf, len))
			continue;
		decoded++;
		if (ab_encode(&d, again, sizeof again) == len && memcmp(again, buf, len) == 0)
			faithful++;
		for (t = 0; t < 3 && !d.over; t++) {
			memset(moves, 0, sizeof moves);
			for (i = 0; i < d.nplayers; i++) {
				if (!d.players[i].alive)
					continue;
				ab_bot_move(&d, i, &rng, bot[i], sizeof bot[i]);
				if (strcmp(bot[i], "missed") == 0)
					moves[i].kind = AB_MOVE_MISSED;
				else
					ab_move_parse(bot[i], strlen(bot[i]), &moves[i], reason, sizeof reason);
			}
			ab_resolve(&d, moves, NULL, NULL, NULL, 0);
		}
	}
	ok(decoded == faithful, "damaged bytes with a good CRC: %u of %u decoded, every one "
	    "re-encodes to its bytes and plays on", decoded, rounds / 10);
	return tap_done();
}
