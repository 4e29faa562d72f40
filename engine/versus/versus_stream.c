/*
 * versus_stream.c: the seed strings of a match's own streams, written with
 * engine_put_decimal so that the engine needs no stdio. The rules name in
 * front is a parameter so that actionblocks-v1, which draws its holes,
 * items and odd shapes the same way, shares this writer and the draws.
 */
#include "versus_stream.h"

#include <string.h>

#include "engine.h"

void
versus_stream_seed(struct pyrandom *r, uint64_t seed, const char *stream, uint32_t a, bool two,
    uint32_t b)
{
	versus_stream_seed_named(r, "versus-v1", seed, stream, a, two, b);
}

void
versus_stream_seed_named(struct pyrandom *r, const char *rules, uint64_t seed,
    const char *stream, uint32_t a, bool two, uint32_t b)
{
	char text[VERSUS_STREAM_NAME_MAX + 1 + 20 + 1 + VERSUS_STREAM_NAME_MAX + 1 + 10 + 1 + 10];
	size_t len = strlen(rules), n = strlen(stream);

	if (len > VERSUS_STREAM_NAME_MAX)
		len = VERSUS_STREAM_NAME_MAX;
	if (n > VERSUS_STREAM_NAME_MAX)
		n = VERSUS_STREAM_NAME_MAX;
	memcpy(text, rules, len);
	text[len++] = ':';
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

unsigned
versus_stream_below(const char *rules, uint64_t seed, const char *stream, uint32_t a, bool two,
    uint32_t b, unsigned n)
{
	struct pyrandom r;

	versus_stream_seed_named(&r, rules, seed, stream, a, two, b);
	/* random() < 1, so the product stays below n. */
	return (unsigned)(pyrandom_random(&r) * (double)n);
}

uint16_t
versus_stream_items(const char *rules, uint64_t seed, unsigned chance,
    const uint8_t weights[VERSUS_STREAM_ITEM_KINDS], unsigned player, uint32_t index)
{
	struct pyrandom r;
	unsigned total = 0, k, i, x;
	uint16_t bits = 0;

	if (chance == 0)
		return 0;
	for (i = 0; i < VERSUS_STREAM_ITEM_KINDS; i++)
		total += weights[i];
	versus_stream_seed_named(&r, rules, seed, "items", player, true, index);
	for (k = 0; k < 4; k++) {
		if (!(pyrandom_random(&r) * 100.0 < (double)chance))
			continue;
		x = (unsigned)(pyrandom_random(&r) * (double)total);
		for (i = 0; i < VERSUS_STREAM_ITEM_KINDS - 1 && x >= weights[i]; i++)
			x -= weights[i];
		bits = (uint16_t)(bits | (i + 1) << (4 * k));
	}
	return bits;
}
