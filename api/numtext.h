/*
 * numtext.h: integers as decimal text without printf, for the few that
 * every request writes (ids, a token's run and time stamp). snprintf's
 * "%lld" costs about a thousand instructions; these, a few dozen.
 */
#ifndef API_NUMTEXT_H
#define API_NUMTEXT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Writes v in decimal and a NUL at out (room for 21 bytes: INT64_MIN has
 * 20 characters); returns the characters written. */
static inline size_t
numtext_i64(char *out, int64_t v)
{
	char d[20];
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	size_t n = 0, k = 0;

	do
		d[k++] = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (v < 0)
		out[n++] = '-';
	while (k > 0)
		out[n++] = d[--k];
	out[n] = '\0';
	return n;
}

/* Writes v (0 <= v) in at least width digits, zeros in front, and no NUL;
 * returns the characters written. */
static inline size_t
numtext_padded(char *out, int64_t v, size_t width)
{
	char d[20];
	uint64_t u = v < 0 ? 0 : (uint64_t)v;
	size_t n = 0, k = 0;

	do
		d[k++] = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	while (k < width)
		d[k++] = '0';
	while (k > 0)
		out[n++] = d[--k];
	return n;
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
