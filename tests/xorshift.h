/*
 * xorshift.h: the tests' small seeded generator, xorshift64* (Vigna), so
 * that a test's random inputs are the same for the same seed on every
 * machine. Not for anything the daemon does: its random bytes are
 * libsodium's.
 */
#ifndef TESTS_XORSHIFT_H
#define TESTS_XORSHIFT_H

#include <stdint.h>

/* The next 64 bits; *state must not be 0. */
static inline uint64_t
xorshift_next(uint64_t *state)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return *state * UINT64_C(2685821657736338717);
}

/* A number below n (n > 0), from the high 32 bits. */
static inline uint32_t
xorshift_below(uint64_t *state, uint32_t n)
{
	return (uint32_t)(xorshift_next(state) >> 32) % n;
}

#endif
