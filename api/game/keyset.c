/*
 * keyset.c: the set of keyset.h. The table holds the keys inline, one slot
 * of key_bytes after another, and a byte per slot saying whether it is
 * used; it doubles when half full, so a probe sequence stays short and an
 * absent key (the common answer) is found after a slot or two.
 *
 * Workload: a few hundred to a few thousand keys, loaded once per request
 * or replay, then thousands of look-ups.
 */
#include "keyset.h"

#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#define MIN_SLOTS 64

struct keyset {
	size_t   key_bytes;
	size_t   nslots;   /* a power of two */
	size_t   count;
	uint8_t *used;     /* nslots flags */
	uint8_t *keys;     /* nslots * key_bytes */
	uint8_t  hkey[crypto_shorthash_KEYBYTES];
};

static size_t
slot_of(const struct keyset *s, const uint8_t *key)
{
	uint8_t h[crypto_shorthash_BYTES];
	uint64_t v = 0;
	size_t i;

	crypto_shorthash(h, key, s->key_bytes, s->hkey);
	for (i = 0; i < sizeof v; i++)
		v |= (uint64_t)h[i] << (8 * i);
	return (size_t)(v & (s->nslots - 1));
}

/* The slot holding key, or the empty slot where it would go. */
static size_t
find(const struct keyset *s, const uint8_t *key)
{
	size_t i = slot_of(s, key);

	while (s->used[i] && memcmp(s->keys + i * s->key_bytes, key, s->key_bytes) != 0)
		i = (i + 1) & (s->nslots - 1);
	return i;
}

static bool
alloc_table(struct keyset *s, size_t nslots)
{
	s->used = calloc(nslots, 1);
	s->keys = malloc(nslots * s->key_bytes);
	s->nslots = nslots;
	if (s->used == NULL || s->keys == NULL) {
		free(s->used);
		free(s->keys);
		return false;
	}
	return true;
}

struct keyset *
keyset_new(size_t key_bytes)
{
	struct keyset *s;

	if (key_bytes == 0 || key_bytes > KEYSET_KEY_MAX || (s = calloc(1, sizeof *s)) == NULL)
		return NULL;
	s->key_bytes = key_bytes;
	crypto_shorthash_keygen(s->hkey);
	if (!alloc_table(s, MIN_SLOTS)) {
		free(s);
		return NULL;
	}
	return s;
}

static bool
grow(struct keyset *s)
{
	struct keyset old = *s;
	size_t i;

	if (!alloc_table(s, old.nslots * 2)) {
		*s = old;
		return false;
	}
	for (i = 0; i < old.nslots; i++) {
		if (old.used[i]) {
			size_t j = find(s, old.keys + i * s->key_bytes);

			s->used[j] = 1;
			memcpy(s->keys + j * s->key_bytes, old.keys + i * s->key_bytes, s->key_bytes);
		}
	}
	free(old.used);
	free(old.keys);
	return true;
}

bool
keyset_add(struct keyset *s, const uint8_t *key)
{
	size_t i = find(s, key);

	if (s->used[i])
		return true;
	if (2 * (s->count + 1) > s->nslots) {
		if (!grow(s))
			return false;
		i = find(s, key);
	}
	s->used[i] = 1;
	memcpy(s->keys + i * s->key_bytes, key, s->key_bytes);
	s->count++;
	return true;
}

bool
keyset_has(const struct keyset *s, const uint8_t *key)
{
	return s->used[find(s, key)] != 0;
}

size_t
keyset_count(const struct keyset *s)
{
	return s->count;
}

void
keyset_free(struct keyset *s)
{
	if (s == NULL)
		return;
	free(s->used);
	free(s->keys);
	free(s);
}
