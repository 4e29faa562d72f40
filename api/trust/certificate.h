/*
 * certificate.h: signed result certificates.
 *
 * A certificate is a PASETO v4.public token (Ed25519) whose payload is a
 * JSON object of claims about a finished run -- at least "run", "game",
 * "seed", "account", "score" and "replay" (the BLAKE2b-256 of the replay's
 * canonical JSON, hex) -- plus "iss": "arcaded" and "iat". Its footer is
 * {"kid": k4.pid} naming the public key, listed by GET /api/v1/keys; there
 * is no implicit assertion, so any PASETO v4 library can verify it with
 * that key alone.
 */
#ifndef API_CERTIFICATE_H
#define API_CERTIFICATE_H

#include <jansson.h>
#include <stdint.h>

#include "keys.h"

/* Signs claims (borrowed; "iss" and "iat" are added to a copy) with the
 * current key. Returns the token (caller frees with free()) or NULL. */
char *certificate_sign(const struct keyring *kr, const json_t *claims, int64_t now_secs);

/* Verifies a certificate against the ring's public keys; returns its
 * claims (caller owns) or NULL. */
json_t *certificate_verify(const struct keyring *kr, const char *token, size_t len);

/* The hex BLAKE2b-256 of v's canonical text (sorted keys, compact): what
 * the "replay" claim holds. out needs 65 bytes. Returns 0 or -1. */
#define CERTIFICATE_HASH_TEXT 65 /* 64 hex digits and the NUL */
int certificate_json_hash(const json_t *v, char out[CERTIFICATE_HASH_TEXT]);

#endif
