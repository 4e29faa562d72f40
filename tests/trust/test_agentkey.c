/*
 * test_agentkey.c: agent keys: a known answer computed independently, many
 * generated keys parsed back, every single-character change caught, the
 * peppered hash and its constant-time compare.
 */
#include <sodium.h>
#include <stdbool.h>

#include "agentkey.h"
#include "tap.h"

static const char ALPHABET[] = "0123456789abcdefghjkmnpqrstvwxyz";

static void
test_known_answer(void)
{
	uint8_t rnd[AGENTKEY_RANDOM_BYTES], pepper[32], h[32], want[32];
	char key[AGENTKEY_LEN + 1], id[AGENTKEY_ID_LEN + 1];
	size_t n = 0;

	for (int k = 0; k < AGENTKEY_RANDOM_BYTES; k++)
		rnd[k] = (uint8_t)k;
	/* Expected values computed with Python's hashlib.blake2b and a
	 * ten-line Crockford base32 encoder, not with this code. */
	agentkey_from_random(key, id, rnd);
	is_str(key, "arcd_000g40r40m30e209_185gr38e1w8124gk2gahc5rr34d1p70xbfcrj6n5",
	    "key from bytes 0..29");
	is_str(id, "000g40r40m30e209", "its id");
	memset(pepper, 0x42, sizeof pepper);
	agentkey_hash(h, key, strlen(key), pepper);
	sodium_hex2bin(want, sizeof want,
	    "815984578451da353bea5b1cd3617bf358414736e3595a9f25e92e6c5d150310", 64,
	    NULL, &n, NULL);
	ok(n == 32 && memcmp(h, want, 32) == 0, "peppered hash of that key");
	is_int(AGENTKEY_LEN, 62, "keys are 62 characters");
}

static bool
all_in_alphabet(const char *s, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (strchr(ALPHABET, s[k]) == NULL || s[k] == '\0')
			return false;
	return true;
}

static void
test_generate_parse(void)
{
	enum { N = 500 };
	static char ids[N][AGENTKEY_ID_LEN + 1];
	char key[AGENTKEY_LEN + 1], id2[AGENTKEY_ID_LEN + 1];
	int parsed = 0, shaped = 0, distinct = 1;

	for (int k = 0; k < N; k++) {
		agentkey_generate(key, ids[k]);
		shaped += strlen(key) == AGENTKEY_LEN && strncmp(key, "arcd_", 5) == 0 &&
		    key[21] == '_' && all_in_alphabet(key + 5, 16) && all_in_alphabet(key + 22, 40) &&
		    strncmp(key + 5, ids[k], AGENTKEY_ID_LEN) == 0;
		parsed += agentkey_parse(key, strlen(key), id2) == AGENTKEY_OK &&
		    strcmp(id2, ids[k]) == 0;
	}
	for (int a = 0; a < N; a++)
		for (int b = a + 1; b < N; b++)
			if (strcmp(ids[a], ids[b]) == 0)
				distinct = 0;
	is_int(shaped, N, "%d generated keys have prefix, id, separator and alphabet", N);
	is_int(parsed, N, "%d generated keys parse back to their ids", N);
	ok(distinct, "%d generated ids are distinct", N);
	ok(agentkey_parse(key, strlen(key), NULL) == AGENTKEY_OK, "parse without an id buffer");
}

/* Every single-character change of 60 keys, at every position, with
 * several substitutions each. */
static void
test_single_changes(void)
{
	char key[AGENTKEY_LEN + 1], mut[AGENTKEY_LEN + 1];
	int body_changes = 0, body_checksum = 0, prefix_changes = 0, prefix_caught = 0;
	int sep_changes = 0, sep_caught = 0, case_changes = 0, case_caught = 0;
	int swaps = 0, swaps_caught = 0;

	for (int n = 0; n < 60; n++) {
		agentkey_generate(key, NULL);
		for (size_t pos = 0; pos < AGENTKEY_LEN; pos++) {
			for (int s = 0; s < 6; s++) {
				memcpy(mut, key, sizeof key);
				if (pos < AGENTKEY_PREFIX_LEN) {
					mut[pos] = (char)(pos == 4 ? "-.x0A"[s % 5] : "bZ_9A."[s]);
					prefix_changes++;
					prefix_caught += agentkey_parse(mut, AGENTKEY_LEN, NULL) == AGENTKEY_ERR_PREFIX;
				} else if (pos == 21) {
					mut[pos] = ALPHABET[randombytes_uniform(32)];
					sep_changes++;
					sep_caught += agentkey_parse(mut, AGENTKEY_LEN, NULL) == AGENTKEY_ERR_FORMAT;
				} else {
					do
						mut[pos] = ALPHABET[randombytes_uniform(32)];
					while (mut[pos] == key[pos]);
					body_changes++;
					body_checksum += agentkey_parse(mut, AGENTKEY_LEN, NULL) == AGENTKEY_ERR_CHECKSUM;
				}
			}
			/* Upper case of a letter: a second spelling, refused. */
			if (pos > 5 && key[pos] >= 'a' && key[pos] <= 'z') {
				memcpy(mut, key, sizeof key);
				mut[pos] = (char)(key[pos] - 'a' + 'A');
				case_changes++;
				case_caught += agentkey_parse(mut, AGENTKEY_LEN, NULL) == AGENTKEY_ERR_FORMAT;
			}
			/* Neighbours swapped inside the id or the secret. */
			if (pos >= 5 && pos + 1 < AGENTKEY_LEN && pos != 20 && pos != 21 &&
			    key[pos] != key[pos + 1]) {
				memcpy(mut, key, sizeof key);
				mut[pos] = key[pos + 1];
				mut[pos + 1] = key[pos];
				swaps++;
				swaps_caught += agentkey_parse(mut, AGENTKEY_LEN, NULL) == AGENTKEY_ERR_CHECKSUM;
			}
		}
	}
	is_int(body_checksum, body_changes, "%d substitutions in id, secret and checksum: AGENTKEY_ERR_CHECKSUM",
	    body_changes);
	is_int(prefix_caught, prefix_changes, "%d changes in the prefix: AGENTKEY_ERR_PREFIX", prefix_changes);
	is_int(sep_caught, sep_changes, "%d changes of the separator: AGENTKEY_ERR_FORMAT", sep_changes);
	is_int(case_caught, case_changes, "%d upper-cased letters: AGENTKEY_ERR_FORMAT", case_changes);
	is_int(swaps_caught, swaps, "%d swapped neighbours: AGENTKEY_ERR_CHECKSUM", swaps);
}

static void
test_malformed(void)
{
	char key[AGENTKEY_LEN + 2], mut[AGENTKEY_LEN + 2];

	agentkey_generate(key, NULL);
	is_int(agentkey_parse("ghp_abc", 7, NULL), AGENTKEY_ERR_PREFIX, "another vendor's token: wrong prefix");
	is_int(agentkey_parse("arc", 3, NULL), AGENTKEY_ERR_PREFIX, "shorter than the prefix");
	is_int(agentkey_parse("", 0, NULL), AGENTKEY_ERR_PREFIX, "empty");
	is_int(agentkey_parse(NULL, 0, NULL), AGENTKEY_ERR_ARG, "NULL");
	memcpy(mut, key, sizeof key);
	mut[0] = 'A';
	is_int(agentkey_parse(mut, AGENTKEY_LEN, NULL), AGENTKEY_ERR_PREFIX, "'Arcd_' prefix");
	is_int(agentkey_parse(key, AGENTKEY_LEN - 1, NULL), AGENTKEY_ERR_LENGTH, "one character short");
	memcpy(mut, key, AGENTKEY_LEN);
	mut[AGENTKEY_LEN] = 'a';
	is_int(agentkey_parse(mut, AGENTKEY_LEN + 1, NULL), AGENTKEY_ERR_LENGTH, "one character long");
	memcpy(mut, key, AGENTKEY_LEN + 1);
	mut[30] = '\0';
	is_int(agentkey_parse(mut, AGENTKEY_LEN, NULL), AGENTKEY_ERR_FORMAT, "embedded NUL");
	memcpy(mut, key, AGENTKEY_LEN + 1);
	mut[30] = 'i';
	is_int(agentkey_parse(mut, AGENTKEY_LEN, NULL), AGENTKEY_ERR_FORMAT, "'i' is outside the alphabet");
	memcpy(mut, key, AGENTKEY_LEN + 1);
	mut[61] = ' ';
	is_int(agentkey_parse(mut, AGENTKEY_LEN, NULL), AGENTKEY_ERR_FORMAT, "trailing space in place of a character");
	ok(strcmp(agentkey_strerror(AGENTKEY_ERR_CHECKSUM), "ok") != 0, "errors have messages");
}

static void
test_hash(void)
{
	char key[AGENTKEY_LEN + 1], key2[AGENTKEY_LEN + 1];
	uint8_t p1[32], p2[32], h1[32], h1b[32], h2[32], h3[32];

	randombytes_buf(p1, sizeof p1);
	memcpy(p2, p1, sizeof p2);
	p2[0] ^= 1;
	agentkey_generate(key, NULL);
	agentkey_generate(key2, NULL);
	agentkey_hash(h1, key, strlen(key), p1);
	agentkey_hash(h1b, key, strlen(key), p1);
	agentkey_hash(h2, key, strlen(key), p2);
	agentkey_hash(h3, key2, strlen(key2), p1);
	ok(agentkey_hash_equal(h1, h1b), "same key and pepper: equal hashes");
	ok(!agentkey_hash_equal(h1, h2), "another pepper: another hash");
	ok(!agentkey_hash_equal(h1, h3), "another key: another hash");
	h1b[31] ^= 0x80;
	ok(!agentkey_hash_equal(h1, h1b), "a hash differing in its last bit is not equal");
	h1b[31] ^= 0x80;
	h1b[0] ^= 1;
	ok(!agentkey_hash_equal(h1, h1b), "a hash differing in its first bit is not equal");
}

int
main(void)
{
	if (sodium_init() < 0) {
		printf("Bail out! sodium_init failed\n");
		return 1;
	}
	test_known_answer();
	test_generate_parse();
	test_single_changes();
	test_malformed();
	test_hash();
	return tap_done();
}
