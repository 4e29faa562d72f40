/*
 * memo.h: the run's memory for the hatetris-classic tests and the bench, as
 * a server would hold it: well keys to values in an open-addressing hash
 * table that doubles when half full (the tests may allocate; the engine may
 * not). memo_fail_after makes set refuse after that many stores, to test the
 * engine's HCLASSIC_MEMORY path.
 */
#ifndef HCLASSIC_MEMO_H
#define HCLASSIC_MEMO_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hatetris_classic.h"

struct memo_slot {
	uint8_t key[HCLASSIC_KEY_BYTES];
	uint8_t used;
	uint32_t value;
};

struct memo {
	struct memo_slot *slots;
	size_t nslots, n;
	size_t sets, gets;
	long fail_after; /* -1: never */
};

static size_t __attribute__((unused))
memo_hash(const uint8_t key[HCLASSIC_KEY_BYTES])
{
	uint64_t h = 1469598103934665603u;
	unsigned i;

	for (i = 0; i < HCLASSIC_KEY_BYTES; i++)
		h = (h ^ key[i]) * 1099511628211u;
	return (size_t)(h ^ h >> 29);
}

static struct memo_slot * __attribute__((unused))
memo_find(struct memo *m, const uint8_t key[HCLASSIC_KEY_BYTES])
{
	size_t i = memo_hash(key) & (m->nslots - 1);

	while (m->slots[i].used && memcmp(m->slots[i].key, key, HCLASSIC_KEY_BYTES) != 0)
		i = (i + 1) & (m->nslots - 1);
	return &m->slots[i];
}

static void __attribute__((unused))
memo_init(struct memo *m)
{
	memset(m, 0, sizeof *m);
	m->nslots = 64;
	m->slots = calloc(m->nslots, sizeof *m->slots);
	m->fail_after = -1;
	if (!m->slots)
		abort();
}

static void __attribute__((unused))
memo_clear(struct memo *m)
{
	memset(m->slots, 0, m->nslots * sizeof *m->slots);
	m->n = m->sets = m->gets = 0;
	m->fail_after = -1;
}

static void __attribute__((unused))
memo_cleanup(struct memo *m)
{
	free(m->slots);
	m->slots = NULL;
}

static uint32_t __attribute__((unused))
memo_get(void *ctx, const uint8_t key[HCLASSIC_KEY_BYTES])
{
	struct memo *m = ctx;
	struct memo_slot *s = memo_find(m, key);

	m->gets++;
	return s->used ? s->value : 0;
}

static bool __attribute__((unused))
memo_set(void *ctx, const uint8_t key[HCLASSIC_KEY_BYTES], uint32_t value)
{
	struct memo *m = ctx;
	struct memo_slot *s;

	if (m->fail_after >= 0 && (long)m->sets >= m->fail_after)
		return false;
	m->sets++;
	if (2 * (m->n + 1) > m->nslots) {
		struct memo_slot *old = m->slots;
		size_t n = m->nslots, i;

		m->nslots *= 2;
		m->slots = calloc(m->nslots, sizeof *m->slots);
		if (!m->slots)
			abort();
		for (i = 0; i < n; i++)
			if (old[i].used)
				*memo_find(m, old[i].key) = old[i];
		free(old);
	}
	s = memo_find(m, key);
	if (!s->used) {
		s->used = 1;
		memcpy(s->key, key, HCLASSIC_KEY_BYTES);
		m->n++;
	}
	s->value = value;
	return true;
}

static struct hclassic_memory __attribute__((unused))
memo_iface(struct memo *m)
{
	struct hclassic_memory mem = { memo_get, memo_set, m };

	return mem;
}

#endif
