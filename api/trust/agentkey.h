/*
 * agentkey.h: the agent keys that accounts authenticate with.
 *
 * A key is 62 characters of text:
 *
 *     arcd_<id: 16>_<secret: 32><checksum: 8>
 *     arcd_000g40r40m30e209_185gr38e1w8124gk2gahc5rr34d1p70xbfcrj6n5
 *
 * (that one is made from the bytes 0..29, see tests/trust/test_agentkey.c)
 *
 * Id, secret and checksum are lowercase Crockford base32
 * ("0123456789abcdefghjkmnpqrstvwxyz": no i, l, o or u, so a key read
 * aloud or off a screen has no look-alikes). The id (80 random bits) is
 * public: GET /api/v1/me lists it and a key is revoked by it. The secret
 * holds 160 random bits. The checksum is the first 40 bits of BLAKE2b over
 * everything before it, so a typo or a key pasted into a log is recognised
 * without a database lookup (unkeyed on purpose: secret scanners can check
 * it too; it proves nothing about the key's validity). The database stores
 * only agentkey_hash(): keyed BLAKE2b of the whole key under a 32-byte
 * server secret (the pepper), compared in constant time.
 *
 * sodium_init() must have succeeded before the first call. Keys and
 * hashes are secrets: never log them (the id may be logged).
 */
#ifndef API_AGENTKEY_H
#define API_AGENTKEY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define AGENTKEY_PREFIX        "arcd_"
#define AGENTKEY_PREFIX_LEN    5
#define AGENTKEY_ID_LEN        16 /* base32 characters of the public id */
#define AGENTKEY_SECRET_LEN    32 /* base32 characters of the secret (160 bits) */
#define AGENTKEY_CHECK_LEN     8  /* base32 characters of the checksum (40 bits) */
#define AGENTKEY_LEN           (AGENTKEY_PREFIX_LEN + AGENTKEY_ID_LEN + 1 + \
                                AGENTKEY_SECRET_LEN + AGENTKEY_CHECK_LEN) /* 62 */
#define AGENTKEY_RANDOM_BYTES  30 /* 10 for the id, 20 for the secret */
#define AGENTKEY_PEPPER_BYTES  32
#define AGENTKEY_HASH_BYTES    32
/* Live keys an account may hold at once: enough to rotate without a gap. */
#define AGENTKEY_LIVE_MAX      2

enum agentkey_err {
	AGENTKEY_OK = 0,
	AGENTKEY_ERR_ARG,      /* NULL text */
	AGENTKEY_ERR_PREFIX,   /* does not start with "arcd_": not one of our keys */
	AGENTKEY_ERR_LENGTH,   /* our prefix, wrong length */
	AGENTKEY_ERR_FORMAT,   /* separator missing or a character outside the alphabet */
	AGENTKEY_ERR_CHECKSUM, /* well-formed but the checksum disagrees: a typo */
};

/* A short English description of e (static storage, never NULL). */
const char *agentkey_strerror(enum agentkey_err e);

/*
 * A new key from randombytes_buf: writes the NUL-terminated key into key
 * and its id into id (id may be NULL).
 */
void agentkey_generate(char key[AGENTKEY_LEN + 1], char id[AGENTKEY_ID_LEN + 1]);

/* The same from caller-supplied random bytes (deterministic, for tests). */
void agentkey_from_random(char key[AGENTKEY_LEN + 1], char id[AGENTKEY_ID_LEN + 1],
    const uint8_t rnd[AGENTKEY_RANDOM_BYTES]);

/* Whether id (NUL-terminated) has a key id's form: AGENTKEY_ID_LEN
 * characters of the key alphabet. */
bool agentkey_id_valid(const char *id);

/*
 * Checks a presented key (len bytes, no NUL needed, nothing past len read):
 * prefix, length, separators, alphabet and checksum, in that order. On
 * AGENTKEY_OK writes the NUL-terminated id into id (may be NULL). Says
 * nothing about whether the key exists or is revoked: look its hash up.
 */
enum agentkey_err agentkey_parse(const char *text, size_t len, char id[AGENTKEY_ID_LEN + 1]);

/* The stored form: BLAKE2b-256 of the key text (len bytes) keyed with the
 * pepper. Hashes whatever it is given; parse first. */
void agentkey_hash(uint8_t out[AGENTKEY_HASH_BYTES], const char *key, size_t len,
    const uint8_t pepper[AGENTKEY_PEPPER_BYTES]);

/* Constant-time equality of two stored hashes. */
bool agentkey_hash_equal(const uint8_t a[AGENTKEY_HASH_BYTES], const uint8_t b[AGENTKEY_HASH_BYTES]);

#endif
