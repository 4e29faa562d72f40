/*
 * bag.c: the 7-bag stream. The only subtle part is the seed string, whose
 * decimal digits are written by hand (engine_put_decimal) so that the engine
 * needs no stdio.
 */
#include "bag.h"

#include "engine.h"
#include "pyrandom.h"
#include "tetromino.h"

void
bag_shuffle(uint64_t seed, uint64_t b, uint8_t out[BAG_SIZE])
{
	bag_shuffle_named(BAG_RULES, seed, b, out);
}

void
bag_shuffle_named(const char *rules, uint64_t seed, uint64_t b, uint8_t out[BAG_SIZE])
{
	char text[BAG_RULES_NAME_MAX + 1 + 20 + 1 + 20];
	struct pyrandom r;
	size_t len = 0;
	uint8_t tmp;
	int p, j;

	/* A longer name is cut, as versus_stream_seed cuts a stream name: the
	 * rules' names are short constants, so this never happens in use. */
	for (; rules[len] != '\0' && len < BAG_RULES_NAME_MAX; len++)
		text[len] = rules[len];
	text[len++] = ':';
	len += engine_put_decimal(text + len, seed);
	text[len++] = ':';
	len += engine_put_decimal(text + len, b);
	pyrandom_seed_bytes(&r, text, len);

	for (p = 0; p < BAG_SIZE; p++)
		out[p] = (uint8_t)p;
	for (p = BAG_SIZE - 1; p >= 1; p--) {
		/* random() < 1, so j <= p; the product is one rounding, like Python's. */
		j = (int)(pyrandom_random(&r) * (double)(p + 1));
		tmp = out[p];
		out[p] = out[j];
		out[j] = tmp;
	}
}

uint8_t
bag_piece(uint64_t seed, uint64_t i)
{
	uint8_t bag[BAG_SIZE];

	bag_shuffle(seed, i / BAG_SIZE, bag);
	return bag[i % BAG_SIZE];
}

void
bag_pieces(uint64_t seed, uint64_t i, uint8_t *out, size_t count)
{
	uint8_t bag[BAG_SIZE];
	uint64_t have = UINT64_MAX; /* no bag loaded yet */
	size_t k;

	for (k = 0; k < count; k++, i++) {
		if (i / BAG_SIZE != have) {
			have = i / BAG_SIZE;
			bag_shuffle(seed, have, bag);
		}
		out[k] = bag[i % BAG_SIZE];
	}
}

void
bag_letters(uint64_t seed, uint64_t i, char *out, size_t count)
{
	uint8_t bag[BAG_SIZE];
	uint64_t have = UINT64_MAX;
	size_t k;

	for (k = 0; k < count; k++, i++) {
		if (i / BAG_SIZE != have) {
			have = i / BAG_SIZE;
			bag_shuffle(seed, have, bag);
		}
		out[k] = tetromino_letter(bag[i % BAG_SIZE]);
	}
	out[count] = '\0';
}
