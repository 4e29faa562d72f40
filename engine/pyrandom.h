/*
 * pyrandom.h: CPython 3's random.Random, bit for bit, for the piece stream.
 *
 * The Stackcraft v1 bag rule is defined in terms of Python's generator, so
 * this module reproduces exactly what `random.Random(s)` does for a string s
 * (seed version 2): the UTF-8 bytes followed by their SHA-512 digest, read as
 * one big-endian integer, cut into 32-bit words least significant first, fed
 * to MT19937's init_by_array; random() then builds a 53-bit double from two
 * outputs. The generator is a plain struct owned by the caller (about 2.5 KB,
 * usually on the stack); nothing here allocates or keeps global state.
 */
#ifndef PYRANDOM_H
#define PYRANDOM_H

#include <stddef.h>
#include <stdint.h>

#define PYRANDOM_N 624

struct pyrandom {
	uint32_t mt[PYRANDOM_N]; /* MT19937 state words */
	uint32_t index;          /* next word to temper, 0..PYRANDOM_N */
};

/* Seeds r like random.Random(s) where s is the str whose UTF-8 encoding is
 * bytes[0..len). bytes is borrowed and may be NULL when len is 0. Any length
 * works: the key words are read from the bytes as they are needed. */
void pyrandom_seed_bytes(struct pyrandom *r, const void *bytes, size_t len);

/* Same for a NUL-terminated UTF-8 string. */
void pyrandom_seed_string(struct pyrandom *r, const char *s);

/* Seeds r with MT19937's reference init_by_array(key, n); n >= 1. This is what
 * Python does with the integer whose 32-bit words, least significant first,
 * are key[0..n). Exposed so the reference vectors can be tested. */
void pyrandom_seed_key(struct pyrandom *r, const uint32_t *key, size_t n);

/* The next 32-bit output (Python's getrandbits(32) on a fresh state). */
uint32_t pyrandom_uint32(struct pyrandom *r);

/* The next double in [0, 1), exactly as random.random(). */
double pyrandom_random(struct pyrandom *r);

#endif
