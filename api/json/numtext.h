/*
 * numtext.h: integers as decimal text without printf, for the few that
 * every request writes (ids, a token's run and time stamp), on the
 * engine's engine_put_decimal. snprintf's "%lld" costs about a thousand
 * instructions; these, a few dozen.
 */
#ifndef API_NUMTEXT_H
#define API_NUMTEXT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "engine.h"

/* Writes v in decimal and a NUL at out (room for 21 bytes: INT64_MIN has
 * 20 characters); returns the characters written. */
static inline size_t
numtext_i64(char *out, int64_t v)
{
	size_t n = 0;

	if (v < 0)
		out[n++] = '-';
	n += engine_put_decimal(out + n, v < 0 ? 0 - (uint64_t)v : (uint64_t)v);
	out[n] = '\0';
	return n;
}

/* Writes v (0 <= v) in at least width digits, zeros in front, and no NUL;
 * returns the characters written. */
static inline size_t
numtext_padded(char *out, int64_t v, size_t width)
{
	char d[20];
	size_t k = engine_put_decimal(d, v < 0 ? 0 : (uint64_t)v), n = 0;

	while (n + k < width)
		out[n++] = '0';
	memcpy(out + n, d, k);
	return n + k;
}

/* Writes the IPv4 address b[0..4) in dotted decimal, as inet_ntop does,
 * and a NUL at out (room for 16 bytes); returns the characters written. */
static inline size_t
numtext_ipv4(char *out, const uint8_t b[4])
{
	size_t n = 0;
	int i;

	for (i = 0; i < 4; i++) {
		if (i > 0)
			out[n++] = '.';
		n += numtext_i64(out + n, b[i]);
	}
	return n;
}

#endif
