/*
 * versus_stream.c: the seed strings of a match's own streams, written with
 * engine_put_decimal so that the engine needs no stdio.
 */
#include "versus_stream.h"

#include <string.h>

#include "engine.h"

void
versus_stream_seed(struct pyrandom *r, uint64_t seed, const char *stream, uint32_t a, bool two,
    uint32_t b)
{
	static const char prefix[] = "versus-v1:";
	char text[sizeof prefix + 20 + 1 + VERSUS_STREAM_NAME_MAX + 1 + 10 + 1 + 10];
	size_t len = sizeof prefix - 1, n = strlen(stream);

	if (n > VERSUS_STREAM_NAME_MAX)
		n = VERSUS_STREAM_NAME_MAX;
	memcpy(text, prefix, len);
	len += engine_put_decimal(text + len, seed);
	text[len++] = ':';
	memcpy(text + len, stream, n);
	len += n;
	text[len++] = ':';
	len += engine_put_decimal(text + len, a);
	if (two) {
		text[len++] = ':';
		len += engine_put_decimal(text + len, b);
	}
	pyrandom_seed_bytes(r, text, len);
}
