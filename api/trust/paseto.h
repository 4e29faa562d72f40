/*
 * paseto.h: PASETO v4 tokens and PASERK k4 keys and ids, on libsodium.
 *
 * v4.local (XChaCha20 + keyed-BLAKE2b MAC, encrypt-then-MAC) seals the
 * stateTokens; v4.public (Ed25519) signs the result certificates. PASERK
 * k4.lid / k4.pid name a key in a token's footer, and k4.local / k4.public /
 * k4.secret are the text forms of the keys themselves.
 *
 * Contract shared by every function here:
 * - sodium_init() must have succeeded before the first call.
 * - Every key has one fixed purpose: the caller says which kind of token it
 *   expects, and a token whose header is not exactly that one is refused
 *   (PASETO_ERR_HEADER) before any key touches it. A token never chooses
 *   how it is checked.
 * - Tokens are read as (pointer, length): nothing past the length is read,
 *   and no NUL terminator is needed. Tokens are written NUL-terminated into
 *   caller buffers; the *_token_len() helpers give the exact text length
 *   (add 1 for the NUL).
 * - A footer argument of NULL on opening means "accept any footer" (it is
 *   still authenticated); a non-NULL footer, even of length 0, must match
 *   the token's footer exactly (compared in constant time). An implicit
 *   assertion of NULL or length 0 is the empty string.
 * - Nothing is retained: all pointers are borrowed for the call. Functions
 *   may allocate short-lived temporaries (PASETO_ERR_NOMEM if that fails)
 *   and wipe derived keys before returning.
 * - On any error the output buffers hold nothing usable: an opened payload
 *   is written only once the token has authenticated.
 */
#ifndef API_PASETO_H
#define API_PASETO_H

#include <stddef.h>
#include <stdint.h>

#define PASETO_LOCAL_KEYBYTES  32 /* v4.local symmetric key */
#define PASETO_NONCEBYTES      32 /* v4.local nonce n */
#define PASETO_MACBYTES        32 /* v4.local tag t */
#define PASETO_PUBLICKEYBYTES  32 /* Ed25519 public key */
#define PASETO_SECRETKEYBYTES  64 /* Ed25519 secret key, libsodium layout: seed || public key */
#define PASETO_SIGBYTES        64 /* Ed25519 signature */

/* Largest message, footer, implicit assertion or token accepted (bytes);
 * keeps every size computation far from overflow. */
#define PASETO_MAX_LEN ((size_t)1 << 28)

/* PASERK text lengths, terminating NUL not included. */
#define PASERK_K4_ID_LEN     51 /* "k4.lid." or "k4.pid." + 44 base64url chars */
#define PASERK_K4_LOCAL_LEN  52 /* "k4.local." + 43 */
#define PASERK_K4_PUBLIC_LEN 53 /* "k4.public." + 43 */
#define PASERK_K4_SECRET_LEN 96 /* "k4.secret." + 86 */

enum paseto_purpose {
	PASETO_V4_LOCAL,  /* header "v4.local." */
	PASETO_V4_PUBLIC, /* header "v4.public." */
};

enum paseto_err {
	PASETO_OK = 0,
	PASETO_ERR_ARG,       /* NULL where data is needed, key of the wrong length, input over PASETO_MAX_LEN */
	PASETO_ERR_BUFFER,    /* output capacity too small; the length out-parameter tells the size needed */
	PASETO_ERR_NOMEM,     /* a temporary could not be allocated */
	PASETO_ERR_HEADER,    /* the text does not start with the expected header ("v4.local." etc.) */
	PASETO_ERR_MALFORMED, /* bad base64url (padding, stray or non-canonical characters), too short, stray '.' */
	PASETO_ERR_FOOTER,    /* the footer differs from the one the caller expects */
	PASETO_ERR_AUTH,      /* MAC or signature does not verify: wrong key or assertion, or tampered */
};

/* A short English description of e (static storage, never NULL). */
const char *paseto_strerror(enum paseto_err e);

/* The header of purpose p: "v4.local." or "v4.public." (static storage). */
const char *paseto_header(enum paseto_purpose p);

/* Exact text length (without NUL) of a v4.local token for a message of mlen
 * bytes and a footer of flen bytes, or 0 if either exceeds PASETO_MAX_LEN. */
size_t paseto_v4_local_token_len(size_t mlen, size_t flen);

/* Same for a v4.public token. */
size_t paseto_v4_public_token_len(size_t mlen, size_t flen);

/*
 * PAE (pre-authentication encoding) of npieces byte strings: LE64(n) then,
 * for each piece, LE64(length) and the bytes. pieces[k] may be NULL only
 * when lens[k] is 0. Writes into out (capacity out_cap) and returns the
 * length written, or 0 if out_cap is too small or a size overflows (a valid
 * PAE is never shorter than 8 bytes). paseto_pae_len gives the length
 * without writing (0 on overflow).
 */
size_t paseto_pae_len(size_t npieces, const size_t *lens);
size_t paseto_pae(uint8_t *out, size_t out_cap, size_t npieces,
    const uint8_t *const *pieces, const size_t *lens);

/*
 * v4.local encryption of m (mlen bytes) under key with footer f (flen
 * bytes, NULL or 0 for none) and implicit assertion i (ilen bytes).
 * Writes the NUL-terminated token into out, which must hold
 * paseto_v4_local_token_len(mlen, flen) + 1 bytes; *out_len (may be NULL)
 * receives the text length, or on PASETO_ERR_BUFFER the capacity needed.
 * The nonce is drawn from randombytes_buf.
 */
enum paseto_err paseto_v4_local_encrypt(char *out, size_t out_cap, size_t *out_len,
    const uint8_t key[PASETO_LOCAL_KEYBYTES],
    const uint8_t *m, size_t mlen, const uint8_t *f, size_t flen,
    const uint8_t *i, size_t ilen);

/* The same with a caller-chosen nonce: for known-answer tests only. Using
 * one nonce twice with one key gives away both messages' XOR. */
enum paseto_err paseto_v4_local_encrypt_with_nonce(char *out, size_t out_cap, size_t *out_len,
    const uint8_t key[PASETO_LOCAL_KEYBYTES], const uint8_t nonce[PASETO_NONCEBYTES],
    const uint8_t *m, size_t mlen, const uint8_t *f, size_t flen,
    const uint8_t *i, size_t ilen);

/*
 * Opens a v4.local token (token_len bytes). On success writes the payload
 * into m (capacity m_cap; not NUL-terminated) and its length into *mlen.
 * The payload is at most token_len bytes, so m_cap >= token_len always
 * suffices. Checks, in this order: header (PASETO_ERR_HEADER), shape and
 * base64url (PASETO_ERR_MALFORMED), expected footer f if non-NULL
 * (PASETO_ERR_FOOTER), MAC over header, nonce, ciphertext, footer and
 * implicit assertion i (PASETO_ERR_AUTH), then the capacity
 * (PASETO_ERR_BUFFER, *mlen = size needed).
 */
enum paseto_err paseto_v4_local_decrypt(uint8_t *m, size_t m_cap, size_t *mlen,
    const uint8_t key[PASETO_LOCAL_KEYBYTES], const char *token, size_t token_len,
    const uint8_t *f, size_t flen, const uint8_t *i, size_t ilen);

/*
 * v4.public signature of m with Ed25519 secret key sk (libsodium's 64-byte
 * form), footer f and implicit assertion i; output as for
 * paseto_v4_local_encrypt, sized by paseto_v4_public_token_len.
 * Deterministic: the same inputs give the same token.
 */
enum paseto_err paseto_v4_public_sign(char *out, size_t out_cap, size_t *out_len,
    const uint8_t sk[PASETO_SECRETKEYBYTES],
    const uint8_t *m, size_t mlen, const uint8_t *f, size_t flen,
    const uint8_t *i, size_t ilen);

/* Verifies a v4.public token with public key pk; same order of checks,
 * outputs and footer rule as paseto_v4_local_decrypt (a bad signature is
 * PASETO_ERR_AUTH). The message is written only after it verified. */
enum paseto_err paseto_v4_public_verify(uint8_t *m, size_t m_cap, size_t *mlen,
    const uint8_t pk[PASETO_PUBLICKEYBYTES], const char *token, size_t token_len,
    const uint8_t *f, size_t flen, const uint8_t *i, size_t ilen);

/*
 * Reads the footer of a token of the given purpose without opening it, so
 * the caller can pick the key named there. The footer is NOT authenticated
 * yet: use it only to choose a key, then open the token. Checks header and
 * shape exactly as opening does. Writes the decoded footer into f (capacity
 * f_cap, not NUL-terminated; token_len bytes always suffice) and its length
 * into *flen: 0 when the token has none.
 */
enum paseto_err paseto_v4_footer(enum paseto_purpose purpose, const char *token, size_t token_len,
    uint8_t *f, size_t f_cap, size_t *flen);

/*
 * PASERK. Serialisers write NUL-terminated text into out, which needs the
 * matching PASERK_*_LEN + 1 bytes; they take the key with its length so
 * that a key of the wrong size is refused (PASETO_ERR_ARG) rather than
 * read past. Ids follow PASERK's ID operation: h || base64url(BLAKE2b-264(h
 * || the key's PASERK)), h being "k4.lid." or "k4.pid.".
 */
enum paseto_err paseto_k4_local(char *out, size_t out_cap, const uint8_t *key, size_t key_len);
enum paseto_err paseto_k4_public(char *out, size_t out_cap, const uint8_t *pk, size_t pk_len);
enum paseto_err paseto_k4_secret(char *out, size_t out_cap, const uint8_t *sk, size_t sk_len);
enum paseto_err paseto_k4_lid(char *out, size_t out_cap, const uint8_t *key, size_t key_len);
enum paseto_err paseto_k4_pid(char *out, size_t out_cap, const uint8_t *pk, size_t pk_len);

/*
 * PASERK parsers: text (text_len bytes) must be exactly the matching type's
 * form: PASETO_ERR_HEADER for another prefix, PASETO_ERR_MALFORMED for a
 * body that is not the strict base64url of a key of the right size. A
 * k4.secret whose second half is not the public key of its seed is
 * PASETO_ERR_MALFORMED. Output arrays are written only on success.
 */
enum paseto_err paseto_k4_local_parse(uint8_t key[PASETO_LOCAL_KEYBYTES], const char *text, size_t text_len);
enum paseto_err paseto_k4_public_parse(uint8_t pk[PASETO_PUBLICKEYBYTES], const char *text, size_t text_len);
enum paseto_err paseto_k4_secret_parse(uint8_t sk[PASETO_SECRETKEYBYTES], const char *text, size_t text_len);

#endif
