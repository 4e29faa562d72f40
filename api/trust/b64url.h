/*
 * b64url.h: base64url without padding, table-driven, for public bytes.
 *
 * A stateToken's text is public (the nonce, the ciphertext, the tag, the
 * footer), and libsodium's codec, which is constant-time for secrets, cost
 * about an eighth of a game action (tests/bench/RESULTS.md). This codec is
 * not constant-time: its look-ups depend on the data. Secret bytes (keys,
 * the plaintext of a payload) stay with libsodium's. It is exactly as
 * strict as api/trust/paseto.c's use of sodium_base642bin: only the URL-safe
 * alphabet, no padding, no whitespace, a length base64 can produce and
 * zero unused trailing bits, so a byte string has one accepted spelling.
 * tests/api/test_b64url.c checks it against libsodium on random inputs.
 */
#ifndef API_B64URL_H
#define API_B64URL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Characters in the encoding of n bytes (no NUL); n <= SIZE_MAX / 2. */
size_t b64url_encoded_len(size_t n);

/* Bytes that n characters decode to (n % 4 == 1 decodes to nothing). */
size_t b64url_decoded_len(size_t n);

/* Writes the encoding of in[0..n) and a NUL at out, which must hold
 * b64url_encoded_len(n) + 1 bytes; returns the characters written. */
size_t b64url_encode(char *out, const uint8_t *in, size_t n);

/* Decodes s[0..n) into out (cap bytes); false, with out's contents
 * unspecified, unless all of s is canonical base64url that fits. */
bool b64url_decode(uint8_t *out, size_t cap, const char *s, size_t n, size_t *got);

#endif
