/*
 * test_keyset.c: api/game/keyset.c against a naive model, a plain array
 * searched from end to end. Random 25-byte keys drawn from a small
 * alphabet (so that many repeat and many share long prefixes) are added
 * and asked about, across several table growths; the set and the array
 * must agree on every answer and on the count.
 */
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "keyset.h"
#include "tap.h"

#define KEY 25
#define NKEYS 20000

static uint8_t model[NKEYS][KEY];
static size_t nmodel;

static bool
model_has(const uint8_t *k)
{
	size_t i;

	for (i = 0; i < nmodel; i++)
		if (memcmp(model[i], k, KEY) == 0)
			return true;
	return false;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static uint64_t
rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* A key with a few random bits set among the first bytes. */
static void
draw(uint8_t *k)
{
	int i;

	memset(k, 0, KEY);
	for (i = 0; i < 3; i++)
		k[rng() % 4] |= (uint8_t)(1u << (rng() % 8));
	if (rng() % 4 == 0)
		k[KEY - 1] = (uint8_t)rng();
}

int
main(void)
{
	struct keyset *s;
	uint8_t k[KEY];
	size_t i, disagree = 0, adds = 0;

	if (sodium_init() < 0)
		return 1;
	ok(keyset_new(0) == NULL && keyset_new(KEYSET_KEY_MAX + 1) == NULL, "sizes out of range are refused");
	s = keyset_new(KEY);
	ok(s != NULL && keyset_count(s) == 0, "an empty set");
	memset(k, 0, KEY);
	ok(!keyset_has(s, k), "the empty set holds nothing");
	for (i = 0; i < 60000; i++) {
		draw(k);
		if (rng() % 3 == 0 && nmodel < NKEYS) {
			if (!keyset_add(s, k))
				break;
			if (!model_has(k))
				memcpy(model[nmodel++], k, KEY);
			adds++;
		} else if (keyset_has(s, k) != model_has(k))
			disagree++;
	}
	ok(disagree == 0, "60000 random operations (%zu adds): the set and the array agree on every question",
	    adds);
	ok(keyset_count(s) == nmodel, "the count is the number of distinct keys (%zu)", nmodel);
	for (i = 0, disagree = 0; i < nmodel; i++)
		disagree += !keyset_has(s, model[i]);
	ok(disagree == 0, "every key added is still there after the table grew");
	keyset_free(s);
	keyset_free(NULL); /* accepted */
	return tap_done();
}
