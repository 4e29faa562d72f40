/*
 * numtext.h: integers as decimal text without printf, for the few that
 * every request writes (ids, a token's run and time stamp). snprintf's
 * "%lld" costs about a thousand instructions; these, a few dozen.
 *
 * Self-contained: the daemon's objects that include it call nothing
 * outside themselves for it (no engine function:
 * tests/server/check_layers.py). The digits are the loop of the engine's
 * engine_put_decimal, written again here.
 */
#ifndef API_NUMTEXT_H
#define API_NUMTEXT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Writes v in decimal at out (room for 20 bytes), no NUL; returns the
 * characters written. A call, as engine_put_decimal was: inlined, its
 * loops grow jw_int past the size at which the compiler still inlines
 * the writer's put into it, and a versus move costs some 400
 * instructions more (callgrind). */
static __attribute__((noinline)) size_t
numtext_digits(char *out, uint64_t v)
{
	char d[20];
	size_t n = 0, i;

	do {
		d[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	for (i = 0; i < n; i++)
		out[i] = d[n - 1 - i];
	return n;
}

/* Writes v in decimal and a NUL at out (room for 21 bytes: INT64_MIN has
 * 20 characters); returns the characters written. */
static inline size_t
numtext_i64(char *out, int64_t v)
{
	size_t n = 0;

	if (v < 0)
		out[n++] = '-';
	n += numtext_digits(out + n, v < 0 ? 0 - (uint64_t)v : (uint64_t)v);
	out[n] = '\0';
	return n;
}

/* Writes v (0 <= v) in at least width digits, zeros in front, and no NUL;
 * returns the characters written. */
static inline size_t
numtext_padded(char *out, int64_t v, size_t width)
{
	char d[20];
	size_t k = numtext_digits(d, v < 0 ? 0 : (uint64_t)v), n = 0;

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
