/*
 * keys.h: the keyring derived from the key file's secrets.
 *
 * Each master secret yields a v4.local key (stateTokens) and an Ed25519
 * key pair (result certificates), by libsodium's KDF with fixed subkey
 * numbers, and their PASERK ids (k4.lid, k4.pid) that tokens carry in
 * their footers. The last key is current: it seals and signs; every key
 * opens and verifies. The pepper keys agent-key hashes and never rotates;
 * the puzzle key, derived from it, keys agent-check tokens (server/
 * agent_check.c), so every daemon sharing a key file reads the others';
 * the handle key, derived from it too, keys run handles (handle.h), which
 * therefore never rotate either.
 */
#ifndef API_KEYS_H
#define API_KEYS_H

#include <stddef.h>
#include <stdint.h>

#include "paseto.h"

#define KEYRING_MAX 16

struct keyring_key {
	uint8_t local[PASETO_LOCAL_KEYBYTES];
	uint8_t sign_sk[PASETO_SECRETKEYBYTES];
	uint8_t sign_pk[PASETO_PUBLICKEYBYTES];
	char    lid[PASERK_K4_ID_LEN + 1];  /* k4.lid of local */
	char    pid[PASERK_K4_ID_LEN + 1];  /* k4.pid of sign_pk */
	char    public_paserk[PASERK_K4_PUBLIC_LEN + 1]; /* k4.public of sign_pk */
};

struct keyring {
	uint8_t            pepper[32];
	uint8_t            puzzle[32]; /* from the pepper: keys agent-check tokens */
	uint8_t            handle[32]; /* from the pepper: keys run handles (handle.h) */
	struct keyring_key keys[KEYRING_MAX];
	int                nkeys; /* 1..KEYRING_MAX; keys[nkeys - 1] is current */
};

/* Derives the ring from the pepper and n master secrets (oldest first).
 * Returns 0, or -1 when n is out of range. */
int keyring_init(struct keyring *kr, const uint8_t pepper[32], const uint8_t (*masters)[32], int n);

/* The key that seals and signs. */
const struct keyring_key *keyring_current(const struct keyring *kr);

/* The key whose k4.lid (or k4.pid) is id (len bytes), or NULL. */
const struct keyring_key *keyring_by_lid(const struct keyring *kr, const char *id, size_t len);
const struct keyring_key *keyring_by_pid(const struct keyring *kr, const char *id, size_t len);

/* Wipes every secret. */
void keyring_wipe(struct keyring *kr);

#endif
