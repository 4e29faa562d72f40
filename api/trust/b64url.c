/*
 * b64url.c: the table-driven base64url of b64url.h.
 */
#include "b64url.h"

static const char alphabet[64] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/* The value of every byte as a character: 0..63, or -1 outside the
 * alphabet. Written as constant expressions so the table is data (the
 * cast: clang weighs every branch of the conditional, even those a byte
 * never takes). */
#define V(c) ((int8_t)((c) >= 'A' && (c) <= 'Z' ? (c) - 'A' : (c) >= 'a' && (c) <= 'z' ? (c) - 'a' + 26 : \
	(c) >= '0' && (c) <= '9' ? (c) - '0' + 52 : (c) == '-' ? 62 : (c) == '_' ? 63 : -1))
#define V4(c) V(c), V((c) + 1), V((c) + 2), V((c) + 3)
#define V16(c) V4(c), V4((c) + 4), V4((c) + 8), V4((c) + 12)
#define V64(c) V16(c), V16((c) + 16), V16((c) + 32), V16((c) + 48)
static const int8_t value[256] = { V64(0), V64(64), V64(128), V64(192) };

size_t
b64url_encoded_len(size_t n)
{
	return n / 3 * 4 + (n % 3 ? n % 3 + 1 : 0);
}

size_t
b64url_decoded_len(size_t n)
{
	return n / 4 * 3 + (n % 4 > 1 ? n % 4 - 1 : 0);
}

size_t
b64url_encode(char *out, const uint8_t *in, size_t n)
{
	size_t i = 0, o = 0;

	for (; i + 3 <= n; i += 3) {
		uint32_t w = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 | in[i + 2];

		out[o++] = alphabet[w >> 18];
		out[o++] = alphabet[w >> 12 & 63];
		out[o++] = alphabet[w >> 6 & 63];
		out[o++] = alphabet[w & 63];
	}
	if (n - i == 1) {
		out[o++] = alphabet[in[i] >> 2];
		out[o++] = alphabet[(in[i] & 3) << 4];
	} else if (n - i == 2) {
		uint32_t w = (uint32_t)in[i] << 8 | in[i + 1];

		out[o++] = alphabet[w >> 10];
		out[o++] = alphabet[w >> 4 & 63];
		out[o++] = alphabet[(w & 15) << 2];
	}
	out[o] = '\0';
	return o;
}

bool
b64url_decode(uint8_t *out, size_t cap, const char *s, size_t n, size_t *got)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, o = 0, rest = n % 4;

	if (rest == 1 || b64url_decoded_len(n) > cap)
		return false;
	for (; i + 4 <= n; i += 4) {
		int a = value[u[i]], b = value[u[i + 1]], c = value[u[i + 2]], d = value[u[i + 3]];
		uint32_t w;

		if ((a | b | c | d) < 0)
			return false;
		w = (uint32_t)a << 18 | (uint32_t)b << 12 | (uint32_t)c << 6 | (uint32_t)d;
		out[o++] = (uint8_t)(w >> 16);
		out[o++] = (uint8_t)(w >> 8);
		out[o++] = (uint8_t)w;
	}
	if (rest == 2) {
		int a = value[u[i]], b = value[u[i + 1]];

		/* Four bits of the last character are unused: they must be 0. */
		if ((a | b) < 0 || (b & 15) != 0)
			return false;
		out[o++] = (uint8_t)(a << 2 | b >> 4);
	} else if (rest == 3) {
		int a = value[u[i]], b = value[u[i + 1]], c = value[u[i + 2]];

		if ((a | b | c) < 0 || (c & 3) != 0)
			return false;
		out[o++] = (uint8_t)(a << 2 | b >> 4);
		out[o++] = (uint8_t)((b & 15) << 4 | c >> 2);
	}
	*got = o;
	return true;
}
