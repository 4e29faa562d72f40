/*
 * paseto.c: PASETO v4.local / v4.public and PASERK k4 on libsodium.
 *
 * Every primitive is libsodium's: keyed BLAKE2b (crypto_generichash) for
 * the key split and the MAC, XChaCha20 (crypto_stream_xchacha20_xor),
 * Ed25519 (crypto_sign_detached), strict base64url without padding
 * (sodium_base642bin for secrets; a token's public text, its body and
 * footer, through the table codec of b64url.c, as strict and checked
 * against libsodium's), constant-time compares (crypto_verify_32,
 * sodium_memcmp). What is written here is the framing: headers, PAE, the
 * order of checks, and a parser that refuses anything but the one canonical
 * spelling of a token, so that a token has exactly one textual form.
 *
 * Workload: a stateToken of a few hundred bytes to a few KB is opened and
 * sealed on every game action; a certificate is signed once per finished
 * run. Temporaries are heap-allocated per call (the blob to base64 and, for
 * v4.public, the PAE that Ed25519 signs); the v4.local MAC streams its PAE
 * into BLAKE2b instead of building it.
 */
#include "paseto.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "b64url.h"

#define B64_VARIANT sodium_base64_VARIANT_URLSAFE_NO_PADDING

static const char HDR_LOCAL[] = "v4.local.";
static const char HDR_PUBLIC[] = "v4.public.";
#define HDR_LOCAL_LEN  (sizeof HDR_LOCAL - 1)
#define HDR_PUBLIC_LEN (sizeof HDR_PUBLIC - 1)

/* Domain separation constants of the v4.local key split. */
static const char LABEL_ENC[] = "paseto-encryption-key";
static const char LABEL_AUTH[] = "paseto-auth-key-for-aead";
#define LABEL_ENC_LEN  (sizeof LABEL_ENC - 1)
#define LABEL_AUTH_LEN (sizeof LABEL_AUTH - 1)

#define SPLIT_BYTES 56 /* Ek (32) || n2 (24) */
#define ID_HASH_BYTES 33 /* BLAKE2b-264 of PASERK ids */

/* A byte string that may be NULL only when empty. */
#define OPT_BYTES_OK(p, n) ((p) != NULL || (n) == 0)

const char *
paseto_strerror(enum paseto_err e)
{
	switch (e) {
	case PASETO_OK:            return "ok";
	case PASETO_ERR_ARG:       return "invalid argument";
	case PASETO_ERR_BUFFER:    return "output buffer too small";
	case PASETO_ERR_NOMEM:     return "out of memory";
	case PASETO_ERR_HEADER:    return "unexpected token header";
	case PASETO_ERR_MALFORMED: return "malformed token";
	case PASETO_ERR_FOOTER:    return "footer mismatch";
	case PASETO_ERR_AUTH:      return "token does not authenticate";
	}
	return "unknown error";
}

const char *
paseto_header(enum paseto_purpose p)
{
	return p == PASETO_V4_PUBLIC ? HDR_PUBLIC : HDR_LOCAL;
}

static size_t
header_len(enum paseto_purpose p)
{
	return p == PASETO_V4_PUBLIC ? HDR_PUBLIC_LEN : HDR_LOCAL_LEN;
}

/* Length of unpadded base64 of n bytes; callers keep n <= ~3 * 2^28 so
 * this cannot overflow. */
static size_t
b64_len(size_t n)
{
	return n / 3 * 4 + (n % 3 ? n % 3 + 1 : 0);
}

/* Writes b64(in) plus a NUL at out; out must hold b64_len(n) + 1 bytes.
 * Returns the number of characters written (NUL excluded). */
static size_t
b64_put(char *out, const uint8_t *in, size_t n)
{
	size_t len = b64_len(n);

	sodium_bin2base64(out, len + 1, in, n, B64_VARIANT);
	return len;
}

/* Size of the bytes that s_len base64 characters decode to; s_len % 4 == 1
 * is never a valid length (6 bits cannot end a byte). */
static size_t
b64_decoded_len(size_t s_len)
{
	return s_len / 4 * 3 + (s_len % 4 ? s_len % 4 - 1 : 0);
}

static bool
b64_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	    (c >= '0' && c <= '9') || c == '-' || c == '_';
}

/*
 * Strict decoding: only the URL-safe alphabet, no padding, no whitespace,
 * a length that base64 can produce, and zero unused trailing bits
 * (libsodium refuses non-canonical tails). So every byte string has one
 * accepted spelling and a flipped character can never decode to the same
 * bytes. out must hold b64_decoded_len(s_len) bytes.
 */
static bool
b64_get(uint8_t *out, size_t out_cap, size_t *out_len, const char *s, size_t s_len)
{
	size_t want, got = 0;

	if (s_len % 4 == 1)
		return false;
	for (size_t k = 0; k < s_len; k++)
		if (!b64_char(s[k]))
			return false;
	want = b64_decoded_len(s_len);
	if (want > out_cap)
		return false;
	if (s_len == 0) {
		*out_len = 0;
		return true;
	}
	if (sodium_base642bin(out, out_cap, s, s_len, NULL, &got, NULL, B64_VARIANT) != 0)
		return false;
	if (got != want)
		return false;
	*out_len = got;
	return true;
}

/* b64_put and b64_get for public bytes (a token's body and footer): the
 * table codec, not constant-time, with the same strictness. */
static size_t
b64_put_public(char *out, const uint8_t *in, size_t n)
{
	return b64url_encode(out, in, n);
}

static bool
b64_get_public(uint8_t *out, size_t out_cap, size_t *out_len, const char *s, size_t s_len)
{
	return b64url_decode(out, out_cap, s, s_len, out_len);
}

/* The value of a URL-safe base64 character (the alphabet was checked). */
static unsigned
b64_value(char c)
{
	if (c >= 'A' && c <= 'Z')
		return (unsigned)(c - 'A');
	if (c >= 'a' && c <= 'z')
		return (unsigned)(c - 'a') + 26;
	if (c >= '0' && c <= '9')
		return (unsigned)(c - '0') + 52;
	return c == '-' ? 62 : 63;
}

/*
 * What b64_get would accept, without decoding: the alphabet, a length base64
 * can produce, at least min_len decoded bytes and zero unused trailing bits.
 * For reading a footer before opening: the body need not be decoded twice.
 */
static bool
b64_shape(const char *s, size_t s_len, size_t min_len)
{
	unsigned tail;

	if (s_len % 4 == 1 || b64_decoded_len(s_len) < min_len)
		return false;
	for (size_t k = 0; k < s_len; k++)
		if (!b64_char(s[k]))
			return false;
	if (s_len % 4 == 0)
		return true;
	tail = b64_value(s[s_len - 1]);
	return s_len % 4 == 2 ? (tail & 0x0f) == 0 : (tail & 0x03) == 0;
}

static void
le64(uint8_t out[8], uint64_t n)
{
	/* PAE clears the top bit so that the value is a valid signed 64-bit
	 * integer in every language. */
	n &= UINT64_C(0x7fffffffffffffff);
	for (int k = 0; k < 8; k++) {
		out[k] = (uint8_t)(n & 0xff);
		n >>= 8;
	}
}

size_t
paseto_pae_len(size_t npieces, const size_t *lens)
{
	size_t total = 8;

	if (npieces > 0 && lens == NULL)
		return 0;
	for (size_t k = 0; k < npieces; k++) {
		if (lens[k] > SIZE_MAX - 8 || total > SIZE_MAX - 8 - lens[k])
			return 0;
		total += 8 + lens[k];
	}
	return total;
}

size_t
paseto_pae(uint8_t *out, size_t out_cap, size_t npieces,
    const uint8_t *const *pieces, const size_t *lens)
{
	size_t total = paseto_pae_len(npieces, lens), pos;

	if (total == 0 || out == NULL || out_cap < total)
		return 0;
	if (npieces > 0 && pieces == NULL)
		return 0;
	for (size_t k = 0; k < npieces; k++)
		if (!OPT_BYTES_OK(pieces[k], lens[k]))
			return 0;
	le64(out, npieces);
	pos = 8;
	for (size_t k = 0; k < npieces; k++) {
		le64(out + pos, lens[k]);
		pos += 8;
		if (lens[k] > 0)
			memcpy(out + pos, pieces[k], lens[k]);
		pos += lens[k];
	}
	return pos;
}

/* Feeds PAE(pieces) to a BLAKE2b state piece by piece: the same bytes as
 * paseto_pae, without a copy of the ciphertext. */
static void
pae_feed(crypto_generichash_state *st, size_t npieces,
    const uint8_t *const *pieces, const size_t *lens)
{
	uint8_t len8[8];

	le64(len8, npieces);
	crypto_generichash_update(st, len8, sizeof len8);
	for (size_t k = 0; k < npieces; k++) {
		le64(len8, lens[k]);
		crypto_generichash_update(st, len8, sizeof len8);
		if (lens[k] > 0)
			crypto_generichash_update(st, pieces[k], lens[k]);
	}
}

static size_t
token_len(enum paseto_purpose p, size_t blob_len, size_t flen)
{
	return header_len(p) + b64_len(blob_len) + (flen > 0 ? 1 + b64_len(flen) : 0);
}

size_t
paseto_v4_local_token_len(size_t mlen, size_t flen)
{
	if (mlen > PASETO_MAX_LEN || flen > PASETO_MAX_LEN)
		return 0;
	return token_len(PASETO_V4_LOCAL, PASETO_NONCEBYTES + mlen + PASETO_MACBYTES, flen);
}

size_t
paseto_v4_public_token_len(size_t mlen, size_t flen)
{
	if (mlen > PASETO_MAX_LEN || flen > PASETO_MAX_LEN)
		return 0;
	return token_len(PASETO_V4_PUBLIC, mlen + PASETO_SIGBYTES, flen);
}

/* Writes header || b64(blob) [|| "." || b64(f)] || NUL; out is known to be
 * large enough. */
static size_t
token_put(char *out, enum paseto_purpose p, const uint8_t *blob, size_t blob_len,
    const uint8_t *f, size_t flen)
{
	size_t pos = header_len(p);

	memcpy(out, paseto_header(p), pos);
	pos += b64_put_public(out + pos, blob, blob_len);
	if (flen > 0) {
		out[pos++] = '.';
		pos += b64_put_public(out + pos, f, flen);
	}
	out[pos] = '\0';
	return pos;
}

/* The pieces of a token's text, pointing into the caller's string. */
struct token_parts {
	const char *body;  /* base64 of the blob */
	size_t body_len;
	const char *foot;  /* base64 of the footer, NULL when absent */
	size_t foot_len;
};

static enum paseto_err
token_split(struct token_parts *tp, enum paseto_purpose p, const char *token, size_t tlen)
{
	size_t hlen = header_len(p), rlen;
	const char *rest, *dot;

	if (token == NULL)
		return PASETO_ERR_ARG;
	if (tlen < hlen || memcmp(token, paseto_header(p), hlen) != 0)
		return PASETO_ERR_HEADER;
	if (tlen > PASETO_MAX_LEN)
		return PASETO_ERR_MALFORMED;
	rest = token + hlen;
	rlen = tlen - hlen;
	dot = memchr(rest, '.', rlen);
	if (dot == NULL) {
		tp->body = rest;
		tp->body_len = rlen;
		tp->foot = NULL;
		tp->foot_len = 0;
		return PASETO_OK;
	}
	tp->body = rest;
	tp->body_len = (size_t)(dot - rest);
	tp->foot = dot + 1;
	tp->foot_len = rlen - tp->body_len - 1;
	/* An empty footer is spelled without the dot, and a token has at
	 * most three parts: anything else is a second spelling. */
	if (tp->foot_len == 0 || memchr(tp->foot, '.', tp->foot_len) != NULL)
		return PASETO_ERR_MALFORMED;
	return PASETO_OK;
}

/* Decodes body and footer into fresh heap buffers (caller frees both,
 * even on error). blob must decode to at least min_blob bytes. */
static enum paseto_err
token_decode(const struct token_parts *tp, size_t min_blob,
    uint8_t **blob, size_t *blob_len, uint8_t **foot, size_t *foot_len)
{
	size_t bcap = b64_decoded_len(tp->body_len), fcap = b64_decoded_len(tp->foot_len);

	*blob = malloc(bcap > 0 ? bcap : 1);
	*foot = malloc(fcap > 0 ? fcap : 1);
	if (*blob == NULL || *foot == NULL)
		return PASETO_ERR_NOMEM;
	if (!b64_get_public(*blob, bcap, blob_len, tp->body, tp->body_len) || *blob_len < min_blob)
		return PASETO_ERR_MALFORMED;
	*foot_len = 0;
	if (tp->foot != NULL && !b64_get_public(*foot, fcap, foot_len, tp->foot, tp->foot_len))
		return PASETO_ERR_MALFORMED;
	return PASETO_OK;
}

/* Footer rule: NULL expected accepts any; otherwise an exact match. */
static bool
footer_matches(const uint8_t *want, size_t want_len, const uint8_t *got, size_t got_len)
{
	if (want == NULL)
		return true;
	if (want_len != got_len)
		return false;
	return want_len == 0 || sodium_memcmp(want, got, want_len) == 0;
}

/* Ek || n2 and Ak from the key and the nonce (Version4.md, key split). */
static void
local_split(uint8_t ek_n2[SPLIT_BYTES], uint8_t ak[32], const uint8_t key[32],
    const uint8_t n[PASETO_NONCEBYTES])
{
	uint8_t msg[LABEL_AUTH_LEN + PASETO_NONCEBYTES];

	memcpy(msg, LABEL_ENC, LABEL_ENC_LEN);
	memcpy(msg + LABEL_ENC_LEN, n, PASETO_NONCEBYTES);
	crypto_generichash(ek_n2, SPLIT_BYTES, msg, LABEL_ENC_LEN + PASETO_NONCEBYTES,
	    key, PASETO_LOCAL_KEYBYTES);
	memcpy(msg, LABEL_AUTH, LABEL_AUTH_LEN);
	memcpy(msg + LABEL_AUTH_LEN, n, PASETO_NONCEBYTES);
	crypto_generichash(ak, 32, msg, LABEL_AUTH_LEN + PASETO_NONCEBYTES,
	    key, PASETO_LOCAL_KEYBYTES);
}

/* t = BLAKE2b-256 keyed with Ak over PAE(h, n, c, f, i). */
static void
local_mac(uint8_t t[PASETO_MACBYTES], const uint8_t ak[32], const uint8_t *n,
    const uint8_t *c, size_t clen, const uint8_t *f, size_t flen,
    const uint8_t *i, size_t ilen)
{
	crypto_generichash_state st;
	const uint8_t *pieces[5] = { (const uint8_t *)HDR_LOCAL, n, c, f, i };
	size_t lens[5] = { HDR_LOCAL_LEN, PASETO_NONCEBYTES, clen, flen, ilen };

	crypto_generichash_init(&st, ak, 32, PASETO_MACBYTES);
	pae_feed(&st, 5, pieces, lens);
	crypto_generichash_final(&st, t, PASETO_MACBYTES);
	sodium_memzero(&st, sizeof st);
}

enum paseto_err
paseto_v4_local_encrypt_with_nonce(char *out, size_t out_cap, size_t *out_len,
    const uint8_t key[PASETO_LOCAL_KEYBYTES], const uint8_t nonce[PASETO_NONCEBYTES],
    const uint8_t *m, size_t mlen, const uint8_t *f, size_t flen,
    const uint8_t *i, size_t ilen)
{
	uint8_t ek_n2[SPLIT_BYTES], ak[32], *blob;
	size_t need, blob_len, len;

	if (key == NULL || nonce == NULL || !OPT_BYTES_OK(m, mlen) ||
	    !OPT_BYTES_OK(f, flen) || !OPT_BYTES_OK(i, ilen) ||
	    mlen > PASETO_MAX_LEN || flen > PASETO_MAX_LEN || ilen > PASETO_MAX_LEN)
		return PASETO_ERR_ARG;
	need = paseto_v4_local_token_len(mlen, flen) + 1;
	if (out == NULL || out_cap < need) {
		if (out_len != NULL)
			*out_len = need;
		return PASETO_ERR_BUFFER;
	}
	blob_len = PASETO_NONCEBYTES + mlen + PASETO_MACBYTES;
	blob = malloc(blob_len);
	if (blob == NULL)
		return PASETO_ERR_NOMEM;
	memcpy(blob, nonce, PASETO_NONCEBYTES);
	local_split(ek_n2, ak, key, nonce);
	if (mlen > 0)
		crypto_stream_xchacha20_xor(blob + PASETO_NONCEBYTES, m, mlen, ek_n2 + 32, ek_n2);
	local_mac(blob + PASETO_NONCEBYTES + mlen, ak, nonce, blob + PASETO_NONCEBYTES, mlen,
	    f, flen, i, ilen);
	sodium_memzero(ek_n2, sizeof ek_n2);
	sodium_memzero(ak, sizeof ak);
	len = token_put(out, PASETO_V4_LOCAL, blob, blob_len, f, flen);
	free(blob);
	if (out_len != NULL)
		*out_len = len;
	return PASETO_OK;
}

enum paseto_err
paseto_v4_local_encrypt(char *out, size_t out_cap, size_t *out_len,
    const uint8_t key[PASETO_LOCAL_KEYBYTES],
    const uint8_t *m, size_t mlen, const uint8_t *f, size_t flen,
    const uint8_t *i, size_t ilen)
{
	uint8_t nonce[PASETO_NONCEBYTES];

	randombytes_buf(nonce, sizeof nonce);
	return paseto_v4_local_encrypt_with_nonce(out, out_cap, out_len, key, nonce,
	    m, mlen, f, flen, i, ilen);
}

enum paseto_err
paseto_v4_local_decrypt(uint8_t *m, size_t m_cap, size_t *mlen,
    const uint8_t key[PASETO_LOCAL_KEYBYTES], const char *token, size_t token_len,
    const uint8_t *f, size_t flen, const uint8_t *i, size_t ilen)
{
	struct token_parts tp;
	uint8_t ek_n2[SPLIT_BYTES], ak[32], t2[PASETO_MACBYTES];
	uint8_t *blob = NULL, *foot = NULL;
	size_t blob_len = 0, foot_len = 0, clen;
	const uint8_t *n, *c, *t;
	enum paseto_err ret;

	if (key == NULL || mlen == NULL || !OPT_BYTES_OK(m, m_cap) ||
	    !OPT_BYTES_OK(i, ilen) || ilen > PASETO_MAX_LEN ||
	    (f != NULL && flen > PASETO_MAX_LEN))
		return PASETO_ERR_ARG;
	ret = token_split(&tp, PASETO_V4_LOCAL, token, token_len);
	if (ret != PASETO_OK)
		return ret;
	ret = token_decode(&tp, PASETO_NONCEBYTES + PASETO_MACBYTES, &blob, &blob_len,
	    &foot, &foot_len);
	if (ret != PASETO_OK)
		goto done;
	if (!footer_matches(f, flen, foot, foot_len)) {
		ret = PASETO_ERR_FOOTER;
		goto done;
	}
	n = blob;
	c = blob + PASETO_NONCEBYTES;
	clen = blob_len - PASETO_NONCEBYTES - PASETO_MACBYTES;
	t = c + clen;
	local_split(ek_n2, ak, key, n);
	local_mac(t2, ak, n, c, clen, foot, foot_len, i, ilen);
	if (crypto_verify_32(t, t2) != 0) {
		ret = PASETO_ERR_AUTH;
		goto done;
	}
	*mlen = clen;
	if (clen > m_cap) {
		ret = PASETO_ERR_BUFFER;
		goto done;
	}
	if (clen > 0)
		crypto_stream_xchacha20_xor(m, c, clen, ek_n2 + 32, ek_n2);
	ret = PASETO_OK;
done:
	sodium_memzero(ek_n2, sizeof ek_n2);
	sodium_memzero(ak, sizeof ak);
	free(blob);
	free(foot);
	return ret;
}

/* PAE(h, m, f, i) for v4.public in a fresh buffer (caller frees). */
static uint8_t *
public_pae(size_t *len, const uint8_t *m, size_t mlen, const uint8_t *f, size_t flen,
    const uint8_t *i, size_t ilen)
{
	const uint8_t *pieces[4] = { (const uint8_t *)HDR_PUBLIC, m, f, i };
	size_t lens[4] = { HDR_PUBLIC_LEN, mlen, flen, ilen };
	size_t total = paseto_pae_len(4, lens);
	uint8_t *buf;

	if (total == 0 || (buf = malloc(total)) == NULL)
		return NULL;
	*len = paseto_pae(buf, total, 4, pieces, lens);
	return buf;
}

enum paseto_err
paseto_v4_public_sign(char *out, size_t out_cap, size_t *out_len,
    const uint8_t sk[PASETO_SECRETKEYBYTES],
    const uint8_t *m, size_t mlen, const uint8_t *f, size_t flen,
    const uint8_t *i, size_t ilen)
{
	uint8_t *m2, *blob;
	size_t need, m2_len = 0, len;

	if (sk == NULL || !OPT_BYTES_OK(m, mlen) || !OPT_BYTES_OK(f, flen) ||
	    !OPT_BYTES_OK(i, ilen) || mlen > PASETO_MAX_LEN || flen > PASETO_MAX_LEN ||
	    ilen > PASETO_MAX_LEN)
		return PASETO_ERR_ARG;
	need = paseto_v4_public_token_len(mlen, flen) + 1;
	if (out == NULL || out_cap < need) {
		if (out_len != NULL)
			*out_len = need;
		return PASETO_ERR_BUFFER;
	}
	m2 = public_pae(&m2_len, m, mlen, f, flen, i, ilen);
	blob = malloc(mlen + PASETO_SIGBYTES);
	if (m2 == NULL || blob == NULL) {
		free(m2);
		free(blob);
		return PASETO_ERR_NOMEM;
	}
	if (mlen > 0)
		memcpy(blob, m, mlen);
	crypto_sign_detached(blob + mlen, NULL, m2, m2_len, sk);
	len = token_put(out, PASETO_V4_PUBLIC, blob, mlen + PASETO_SIGBYTES, f, flen);
	free(m2);
	free(blob);
	if (out_len != NULL)
		*out_len = len;
	return PASETO_OK;
}

enum paseto_err
paseto_v4_public_verify(uint8_t *m, size_t m_cap, size_t *mlen,
    const uint8_t pk[PASETO_PUBLICKEYBYTES], const char *token, size_t token_len,
    const uint8_t *f, size_t flen, const uint8_t *i, size_t ilen)
{
	struct token_parts tp;
	uint8_t *blob = NULL, *foot = NULL, *m2 = NULL;
	size_t blob_len = 0, foot_len = 0, m2_len = 0, body_len;
	enum paseto_err ret;

	if (pk == NULL || mlen == NULL || !OPT_BYTES_OK(m, m_cap) ||
	    !OPT_BYTES_OK(i, ilen) || ilen > PASETO_MAX_LEN ||
	    (f != NULL && flen > PASETO_MAX_LEN))
		return PASETO_ERR_ARG;
	ret = token_split(&tp, PASETO_V4_PUBLIC, token, token_len);
	if (ret != PASETO_OK)
		return ret;
	ret = token_decode(&tp, PASETO_SIGBYTES, &blob, &blob_len, &foot, &foot_len);
	if (ret != PASETO_OK)
		goto done;
	if (!footer_matches(f, flen, foot, foot_len)) {
		ret = PASETO_ERR_FOOTER;
		goto done;
	}
	body_len = blob_len - PASETO_SIGBYTES;
	m2 = public_pae(&m2_len, blob, body_len, foot, foot_len, i, ilen);
	if (m2 == NULL) {
		ret = PASETO_ERR_NOMEM;
		goto done;
	}
	if (crypto_sign_verify_detached(blob + body_len, m2, m2_len, pk) != 0) {
		ret = PASETO_ERR_AUTH;
		goto done;
	}
	*mlen = body_len;
	if (body_len > m_cap) {
		ret = PASETO_ERR_BUFFER;
		goto done;
	}
	if (body_len > 0)
		memcpy(m, blob, body_len);
	ret = PASETO_OK;
done:
	free(blob);
	free(foot);
	free(m2);
	return ret;
}

enum paseto_err
paseto_v4_footer(enum paseto_purpose purpose, const char *token, size_t token_len,
    uint8_t *f, size_t f_cap, size_t *flen)
{
	struct token_parts tp;
	uint8_t *foot = NULL;
	size_t fcap, foot_len = 0;
	enum paseto_err ret;

	if (flen == NULL || !OPT_BYTES_OK(f, f_cap))
		return PASETO_ERR_ARG;
	ret = token_split(&tp, purpose, token, token_len);
	if (ret != PASETO_OK)
		return ret;
	/* The body's shape is checked as decoding would check it, so that this
	 * answers exactly as opening would for a malformed token; only the
	 * footer is decoded. */
	if (!b64_shape(tp.body, tp.body_len, purpose == PASETO_V4_PUBLIC ? PASETO_SIGBYTES :
	    PASETO_NONCEBYTES + PASETO_MACBYTES))
		return PASETO_ERR_MALFORMED;
	fcap = b64_decoded_len(tp.foot_len);
	foot = malloc(fcap > 0 ? fcap : 1);
	if (foot == NULL)
		return PASETO_ERR_NOMEM;
	if (tp.foot != NULL && !b64_get_public(foot, fcap, &foot_len, tp.foot, tp.foot_len)) {
		ret = PASETO_ERR_MALFORMED;
		goto done;
	}
	*flen = foot_len;
	if (foot_len > f_cap) {
		ret = PASETO_ERR_BUFFER;
		goto done;
	}
	if (foot_len > 0)
		memcpy(f, foot, foot_len);
	ret = PASETO_OK;
done:
	free(foot);
	return ret;
}

/* prefix || b64(key) into out; key_len must equal want. */
static enum paseto_err
paserk_put(char *out, size_t out_cap, const char *prefix, const uint8_t *key,
    size_t key_len, size_t want)
{
	size_t plen = strlen(prefix);

	if (key == NULL || key_len != want)
		return PASETO_ERR_ARG;
	if (out == NULL || out_cap < plen + b64_len(want) + 1)
		return PASETO_ERR_BUFFER;
	memcpy(out, prefix, plen);
	b64_put(out + plen, key, want);
	return PASETO_OK;
}

enum paseto_err
paseto_k4_local(char *out, size_t out_cap, const uint8_t *key, size_t key_len)
{
	return paserk_put(out, out_cap, "k4.local.", key, key_len, PASETO_LOCAL_KEYBYTES);
}

enum paseto_err
paseto_k4_public(char *out, size_t out_cap, const uint8_t *pk, size_t pk_len)
{
	return paserk_put(out, out_cap, "k4.public.", pk, pk_len, PASETO_PUBLICKEYBYTES);
}

enum paseto_err
paseto_k4_secret(char *out, size_t out_cap, const uint8_t *sk, size_t sk_len)
{
	return paserk_put(out, out_cap, "k4.secret.", sk, sk_len, PASETO_SECRETKEYBYTES);
}

/* h || b64(BLAKE2b-264(h || paserk)). */
static enum paseto_err
paserk_id(char *out, size_t out_cap, const char *h, const char *paserk)
{
	crypto_generichash_state st;
	uint8_t d[ID_HASH_BYTES];
	size_t hlen = strlen(h);

	if (out == NULL || out_cap < PASERK_K4_ID_LEN + 1)
		return PASETO_ERR_BUFFER;
	crypto_generichash_init(&st, NULL, 0, sizeof d);
	crypto_generichash_update(&st, (const uint8_t *)h, hlen);
	crypto_generichash_update(&st, (const uint8_t *)paserk, strlen(paserk));
	crypto_generichash_final(&st, d, sizeof d);
	memcpy(out, h, hlen);
	b64_put(out + hlen, d, sizeof d);
	return PASETO_OK;
}

enum paseto_err
paseto_k4_lid(char *out, size_t out_cap, const uint8_t *key, size_t key_len)
{
	char paserk[PASERK_K4_LOCAL_LEN + 1];
	enum paseto_err ret;

	ret = paseto_k4_local(paserk, sizeof paserk, key, key_len);
	if (ret == PASETO_OK)
		ret = paserk_id(out, out_cap, "k4.lid.", paserk);
	sodium_memzero(paserk, sizeof paserk);
	return ret;
}

enum paseto_err
paseto_k4_pid(char *out, size_t out_cap, const uint8_t *pk, size_t pk_len)
{
	char paserk[PASERK_K4_PUBLIC_LEN + 1];
	enum paseto_err ret;

	ret = paseto_k4_public(paserk, sizeof paserk, pk, pk_len);
	if (ret == PASETO_OK)
		ret = paserk_id(out, out_cap, "k4.pid.", paserk);
	return ret;
}

/* Parses prefix || b64(want bytes) exactly into out. */
static enum paseto_err
paserk_get(uint8_t *out, size_t want, const char *prefix, const char *text, size_t text_len)
{
	size_t plen = strlen(prefix), got = 0;

	if (out == NULL || text == NULL)
		return PASETO_ERR_ARG;
	if (text_len < plen || memcmp(text, prefix, plen) != 0)
		return PASETO_ERR_HEADER;
	if (text_len - plen != b64_len(want))
		return PASETO_ERR_MALFORMED;
	if (!b64_get(out, want, &got, text + plen, text_len - plen) || got != want)
		return PASETO_ERR_MALFORMED;
	return PASETO_OK;
}

enum paseto_err
paseto_k4_local_parse(uint8_t key[PASETO_LOCAL_KEYBYTES], const char *text, size_t text_len)
{
	uint8_t tmp[PASETO_LOCAL_KEYBYTES];
	enum paseto_err ret = paserk_get(tmp, sizeof tmp, "k4.local.", text, text_len);

	if (ret == PASETO_OK)
		memcpy(key, tmp, sizeof tmp);
	sodium_memzero(tmp, sizeof tmp);
	return ret;
}

enum paseto_err
paseto_k4_public_parse(uint8_t pk[PASETO_PUBLICKEYBYTES], const char *text, size_t text_len)
{
	uint8_t tmp[PASETO_PUBLICKEYBYTES];
	enum paseto_err ret = paserk_get(tmp, sizeof tmp, "k4.public.", text, text_len);

	if (ret == PASETO_OK)
		memcpy(pk, tmp, sizeof tmp);
	return ret;
}

enum paseto_err
paseto_k4_secret_parse(uint8_t sk[PASETO_SECRETKEYBYTES], const char *text, size_t text_len)
{
	uint8_t tmp[PASETO_SECRETKEYBYTES], pk[PASETO_PUBLICKEYBYTES], sk2[PASETO_SECRETKEYBYTES];
	enum paseto_err ret = paserk_get(tmp, sizeof tmp, "k4.secret.", text, text_len);

	if (ret == PASETO_OK) {
		/* A secret key whose public half was edited would sign tokens
		 * that its own published key cannot verify. */
		crypto_sign_seed_keypair(pk, sk2, tmp);
		if (sodium_memcmp(pk, tmp + 32, sizeof pk) != 0)
			ret = PASETO_ERR_MALFORMED;
		else
			memcpy(sk, tmp, sizeof tmp);
	}
	sodium_memzero(tmp, sizeof tmp);
	sodium_memzero(sk2, sizeof sk2);
	return ret;
}
