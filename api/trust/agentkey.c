/*
 * agentkey.c: generating, checking and hashing agent keys (format in
 * agentkey.h).
 *
 * Invariant: a key that agentkey_parse accepts has exactly one spelling
 * (lowercase only), so its hash is a stable database key. Every comparison
 * goes through libsodium's constant-time functions, even the public prefix,
 * so that this file holds no early-exit compare a later edit could turn
 * onto the secret. Workload: one parse and one hash per authenticated
 * request; generation only when an account is created.
 */
#include "agentkey.h"

#include <string.h>

#include <sodium.h>

static const char ALPHABET[] = "0123456789abcdefghjkmnpqrstvwxyz";

#define ID_BYTES      10 /* 80 bits -> 16 characters */
#define SECRET_BYTES  20 /* 160 bits -> 32 characters */
#define CHECK_BYTES   5  /* 40 bits -> 8 characters */
#define ID_POS        AGENTKEY_PREFIX_LEN
#define SEP_POS       (ID_POS + AGENTKEY_ID_LEN)
#define SECRET_POS    (SEP_POS + 1)
#define CHECK_POS     (SECRET_POS + AGENTKEY_SECRET_LEN)

const char *
agentkey_strerror(enum agentkey_err e)
{
	switch (e) {
	case AGENTKEY_OK:           return "ok";
	case AGENTKEY_ERR_ARG:      return "invalid argument";
	case AGENTKEY_ERR_PREFIX:   return "not an agent key (wrong prefix)";
	case AGENTKEY_ERR_LENGTH:   return "agent key has the wrong length";
	case AGENTKEY_ERR_FORMAT:   return "agent key contains an invalid character";
	case AGENTKEY_ERR_CHECKSUM: return "agent key checksum mismatch (typo?)";
	}
	return "unknown error";
}

/* Base32 of n bytes (n a multiple of 5) into 8n/5 characters, big-endian
 * bit order. */
static void
base32_put(char *out, const uint8_t *in, size_t n)
{
	for (size_t k = 0; k < n; k += 5) {
		uint64_t v = 0;

		for (size_t j = 0; j < 5; j++)
			v = v << 8 | in[k + j];
		for (int j = 7; j >= 0; j--) {
			*out++ = ALPHABET[(v >> (5 * j)) & 31];
		}
	}
}

static int
in_alphabet(char c)
{
	return memchr(ALPHABET, c, sizeof ALPHABET - 1) != NULL && c != '\0';
}

bool
agentkey_id_valid(const char *id)
{
	size_t i;

	for (i = 0; i < AGENTKEY_ID_LEN; i++)
		if (!in_alphabet(id[i]))
			return false;
	return id[i] == '\0';
}

/* The 8 checksum characters of the first CHECK_POS characters of key. */
static void
checksum(char out[AGENTKEY_CHECK_LEN], const char *key)
{
	uint8_t h[crypto_generichash_BYTES_MIN];

	crypto_generichash(h, sizeof h, (const uint8_t *)key, CHECK_POS, NULL, 0);
	base32_put(out, h, CHECK_BYTES);
}

void
agentkey_from_random(char key[AGENTKEY_LEN + 1], char id[AGENTKEY_ID_LEN + 1],
    const uint8_t rnd[AGENTKEY_RANDOM_BYTES])
{
	memcpy(key, AGENTKEY_PREFIX, AGENTKEY_PREFIX_LEN);
	base32_put(key + ID_POS, rnd, ID_BYTES);
	key[SEP_POS] = '_';
	base32_put(key + SECRET_POS, rnd + ID_BYTES, SECRET_BYTES);
	checksum(key + CHECK_POS, key);
	key[AGENTKEY_LEN] = '\0';
	if (id != NULL) {
		memcpy(id, key + ID_POS, AGENTKEY_ID_LEN);
		id[AGENTKEY_ID_LEN] = '\0';
	}
}

void
agentkey_generate(char key[AGENTKEY_LEN + 1], char id[AGENTKEY_ID_LEN + 1])
{
	uint8_t rnd[AGENTKEY_RANDOM_BYTES];

	randombytes_buf(rnd, sizeof rnd);
	agentkey_from_random(key, id, rnd);
	sodium_memzero(rnd, sizeof rnd);
}

enum agentkey_err
agentkey_parse(const char *text, size_t len, char id[AGENTKEY_ID_LEN + 1])
{
	char want[AGENTKEY_CHECK_LEN];

	if (text == NULL)
		return AGENTKEY_ERR_ARG;
	if (len < AGENTKEY_PREFIX_LEN ||
	    sodium_memcmp(text, AGENTKEY_PREFIX, AGENTKEY_PREFIX_LEN) != 0)
		return AGENTKEY_ERR_PREFIX;
	if (len != AGENTKEY_LEN)
		return AGENTKEY_ERR_LENGTH;
	for (size_t k = ID_POS; k < AGENTKEY_LEN; k++) {
		if (k == SEP_POS ? text[k] != '_' : !in_alphabet(text[k]))
			return AGENTKEY_ERR_FORMAT;
	}
	checksum(want, text);
	if (sodium_memcmp(want, text + CHECK_POS, AGENTKEY_CHECK_LEN) != 0)
		return AGENTKEY_ERR_CHECKSUM;
	if (id != NULL) {
		memcpy(id, text + ID_POS, AGENTKEY_ID_LEN);
		id[AGENTKEY_ID_LEN] = '\0';
	}
	return AGENTKEY_OK;
}

void
agentkey_hash(uint8_t out[AGENTKEY_HASH_BYTES], const char *key, size_t len,
    const uint8_t pepper[AGENTKEY_PEPPER_BYTES])
{
	crypto_generichash(out, AGENTKEY_HASH_BYTES, (const uint8_t *)key, len,
	    pepper, AGENTKEY_PEPPER_BYTES);
}

bool
agentkey_hash_equal(const uint8_t a[AGENTKEY_HASH_BYTES], const uint8_t b[AGENTKEY_HASH_BYTES])
{
	return crypto_verify_32(a, b) == 0;
}
