/*
 * test_stream.c: the CPython-compatible generator and the 7-bag stream
 * against fixed answers: MT19937's reference vectors, values CPython 3.11
 * gives for a few strings, the fixtures of docs/stream.md, and the bag
 * properties (each bag a permutation, the three entry points agreeing).
 * The wide comparison against a live CPython is stream_cpython.py.
 */
#include <stdio.h>
#include <string.h>

#include "bag.h"
#include "pyrandom.h"
#include "tap.h"
#include "tetromino.h"

static void
test_reference_vectors(void)
{
	static const uint32_t key[4] = { 0x123, 0x234, 0x345, 0x456 };
	/* mt19937ar.out, the first five outputs of init_by_array(key, 4). */
	static const uint32_t want[5] = { 1067595299u, 955945823u, 477289528u, 4107218783u,
		4228976476u };
	static const uint32_t zero_key = 0;
	/* random.Random(0).getrandbits(32) three times. */
	static const uint32_t want_zero[3] = { 3626764237u, 1654615998u, 3255389356u };
	struct pyrandom r;
	int i;

	pyrandom_seed_key(&r, key, 4);
	for (i = 0; i < 5; i++)
		is_int(pyrandom_uint32(&r), want[i], "init_by_array reference output %d", i);
	pyrandom_seed_key(&r, &zero_key, 1);
	for (i = 0; i < 3; i++)
		is_int(pyrandom_uint32(&r), want_zero[i], "Random(0) output %d", i);
}

static void
test_string_seeds(void)
{
	/* random.Random('').getrandbits(32) x3, Random('').random(),
	 * Random('\u00e9').random() with CPython 3.11. */
	static const uint32_t want_empty[3] = { 4124137760u, 1951988028u, 2557274880u };
	struct pyrandom r;
	int i;

	pyrandom_seed_string(&r, "");
	for (i = 0; i < 3; i++)
		is_int(pyrandom_uint32(&r), want_empty[i], "Random('') output %d", i);
	pyrandom_seed_bytes(&r, NULL, 0);
	ok(pyrandom_random(&r) == 0.9602256525641875, "Random('').random()");
	pyrandom_seed_string(&r, "\xc3\xa9");
	ok(pyrandom_random(&r) == 0.9689252893653495, "Random('\\u00e9').random() (UTF-8 bytes)");

	/* docs/stream.md: the first three random() of "stackcraft-v1:0:0". */
	pyrandom_seed_string(&r, "stackcraft-v1:0:0");
	ok(pyrandom_random(&r) == 0.4855148968905795, "stackcraft-v1:0:0 random() #1");
	ok(pyrandom_random(&r) == 0.6565215162483241, "stackcraft-v1:0:0 random() #2");
	ok(pyrandom_random(&r) == 0.9225878775343994, "stackcraft-v1:0:0 random() #3");
}

static void
test_fixtures(void)
{
	static const struct {
		uint64_t seed;
		const char *pieces;
	} fixtures[] = {
		{ 0, "TOJIZLSTZLJSOILIJTZSO" },
		{ 1, "SZTLIOJOSLJTZIIOLJZTS" },
		{ 7, "OZTLIJSJTOILSZTZLSJOI" },
		{ 42, "TIZJSOLTJLSOIZLJOSIZT" },
	};
	char buf[64], one[22];
	uint8_t pieces[21];
	size_t f;
	int i;

	for (f = 0; f < sizeof fixtures / sizeof fixtures[0]; f++) {
		bag_letters(fixtures[f].seed, 0, buf, 21);
		is_str(buf, fixtures[f].pieces, "seed %llu: first 21 pieces by bag_letters",
		    (unsigned long long)fixtures[f].seed);
		bag_pieces(fixtures[f].seed, 0, pieces, 21);
		for (i = 0; i < 21; i++)
			one[i] = tetromino_letter(bag_piece(fixtures[f].seed, (uint64_t)i));
		one[21] = '\0';
		is_str(one, fixtures[f].pieces, "seed %llu: bag_piece one by one",
		    (unsigned long long)fixtures[f].seed);
		for (i = 0; i < 21; i++)
			one[i] = tetromino_letter(pieces[i]);
		is_str(one, fixtures[f].pieces, "seed %llu: bag_pieces",
		    (unsigned long long)fixtures[f].seed);
	}
	/* A window that starts mid-bag. */
	bag_letters(42, 5, buf, 9);
	is_str(buf, "OLTJLSOIZ", "seed 42 pieces 5..13");
	bag_letters(42, 3, buf, 0);
	is_str(buf, "", "zero pieces is an empty string");
}

static void
test_bags(void)
{
	static const uint64_t seeds[] = { 0, 1, 2, 99, 4294967295u, 4294967296u,
		BAG_SEED_MAX - 1, BAG_SEED_MAX };
	uint8_t bag[BAG_SIZE], pieces[70];
	size_t s;
	int b, i, seen, perm_ok = 1, agree = 1;

	for (s = 0; s < sizeof seeds / sizeof seeds[0]; s++) {
		bag_pieces(seeds[s], 0, pieces, 70);
		for (b = 0; b < 10; b++) {
			bag_shuffle(seeds[s], (uint64_t)b, bag);
			seen = 0;
			for (i = 0; i < BAG_SIZE; i++) {
				if (bag[i] < TETROMINO_NPIECES)
					seen |= 1 << bag[i];
				if (pieces[b * BAG_SIZE + i] != bag[i])
					agree = 0;
			}
			if (seen != 0x7f)
				perm_ok = 0;
		}
	}
	ok(perm_ok, "every bag of 8 seeds x 10 bags holds each piece once");
	ok(agree, "bag_pieces agrees with bag_shuffle across bag boundaries");
	/* Large bag numbers work through the same decimal path. */
	bag_shuffle(7, UINT64_C(18446744073709551615) / 7, bag);
	seen = 0;
	for (i = 0; i < BAG_SIZE; i++)
		seen |= 1 << bag[i];
	ok(seen == 0x7f, "bag number 2^64/7 is a permutation");
}

int
main(void)
{
	test_reference_vectors();
	test_string_seeds();
	test_fixtures();
	test_bags();
	return tap_done();
}
