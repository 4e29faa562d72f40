/*
 * keys.c: key derivation. crypto_kdf_derive_from_key with the context
 * "arcdkeys": subkey 1 is the v4.local key, subkey 2 the Ed25519 seed.
 * Changing either number or the context would orphan every issued token
 * and certificate, so they are fixed forever. The puzzle key is subkey 1
 * of the pepper under the context "arcpuzzl" (fixed too: changing it
 * would only void the puzzles handed out, which live 10 minutes). The
 * handle key is subkey 1 of the pepper under "archandl" (fixed: changing
 * it would void every run handle handed out).
 */
#include "keys.h"

#include <string.h>

#include <sodium.h>

#define KDF_CONTEXT "arcdkeys"
#define SUBKEY_LOCAL 1
#define SUBKEY_SIGN 2
#define PUZZLE_CONTEXT "arcpuzzl"
#define SUBKEY_PUZZLE 1
#define HANDLE_CONTEXT "archandl"
#define SUBKEY_HANDLE 1

int
keyring_init(struct keyring *kr, const uint8_t pepper[32], const uint8_t (*masters)[32], int n)
{
	int i;

	memset(kr, 0, sizeof *kr);
	if (n < 1 || n > KEYRING_MAX)
		return -1;
	memcpy(kr->pepper, pepper, sizeof kr->pepper);
	crypto_kdf_derive_from_key(kr->puzzle, sizeof kr->puzzle, SUBKEY_PUZZLE, PUZZLE_CONTEXT, pepper);
	crypto_kdf_derive_from_key(kr->handle, sizeof kr->handle, SUBKEY_HANDLE, HANDLE_CONTEXT, pepper);
	for (i = 0; i < n; i++) {
		struct keyring_key *k = &kr->keys[i];
		uint8_t seed[crypto_sign_SEEDBYTES];

		crypto_kdf_derive_from_key(k->local, sizeof k->local, SUBKEY_LOCAL, KDF_CONTEXT, masters[i]);
		crypto_kdf_derive_from_key(seed, sizeof seed, SUBKEY_SIGN, KDF_CONTEXT, masters[i]);
		crypto_sign_seed_keypair(k->sign_pk, k->sign_sk, seed);
		sodium_memzero(seed, sizeof seed);
		if (paseto_k4_lid(k->lid, sizeof k->lid, k->local, sizeof k->local) != PASETO_OK ||
		    paseto_k4_pid(k->pid, sizeof k->pid, k->sign_pk, sizeof k->sign_pk) != PASETO_OK ||
		    paseto_k4_public(k->public_paserk, sizeof k->public_paserk, k->sign_pk,
		    sizeof k->sign_pk) != PASETO_OK) {
			keyring_wipe(kr);
			return -1;
		}
	}
	kr->nkeys = n;
	return 0;
}

const struct keyring_key *
keyring_current(const struct keyring *kr)
{
	return &kr->keys[kr->nkeys - 1];
}

static const struct keyring_key *
find(const struct keyring *kr, const char *id, size_t len, size_t offset)
{
	int i;

	if (len != PASERK_K4_ID_LEN)
		return NULL;
	for (i = kr->nkeys - 1; i >= 0; i--) {
		const char *have = (const char *)&kr->keys[i] + offset;

		if (memcmp(have, id, len) == 0)
			return &kr->keys[i];
	}
	return NULL;
}

const struct keyring_key *
keyring_by_lid(const struct keyring *kr, const char *id, size_t len)
{
	return find(kr, id, len, offsetof(struct keyring_key, lid));
}

const struct keyring_key *
keyring_by_pid(const struct keyring *kr, const char *id, size_t len)
{
	return find(kr, id, len, offsetof(struct keyring_key, pid));
}

void
keyring_wipe(struct keyring *kr)
{
	sodium_memzero(kr, sizeof *kr);
}
