/*
 * bag.h: the Stackcraft v1 piece stream (7-bags), as docs/stream.md fixes it.
 *
 * Bag b of a seed is I,O,T,S,Z,J,L shuffled by a Python-compatible generator
 * seeded with the string "stackcraft-v1:{seed}:{b}" (both in decimal), by the
 * descending Fisher-Yates: for p = 6 down to 1, j = int(random() * (p + 1)),
 * swap p and j. The stream is bag 0, bag 1, ...; piece i is entry i % 7 of
 * bag i / 7. Pieces are numbered as enum tetromino_piece (0 = I .. 6 = L).
 *
 * Every call recomputes from the seed (one SHA-512 and one MT19937 seeding
 * per bag touched, a few microseconds): nothing is cached here, callers that
 * draw in order keep the current bag themselves (struct stackfall does).
 */
#ifndef BAG_H
#define BAG_H

#include <stddef.h>
#include <stdint.h>

#include "engine.h"

#define BAG_SIZE 7
/* Largest seed of a run (2^53 - 1). The functions accept any uint64_t and
 * follow the same rule, but runs use only 0..BAG_SEED_MAX. */
#define BAG_SEED_MAX ((uint64_t)ENGINE_ID_MAX)

/* The rules name of the stream every function here but bag_shuffle_named
 * draws from. */
#define BAG_RULES "stackcraft-v1"
/* The longest rules name bag_shuffle_named takes (a longer one is cut). */
#define BAG_RULES_NAME_MAX 24

/* Writes bag number b of seed into out[0..6]. */
void bag_shuffle(uint64_t seed, uint64_t b, uint8_t out[BAG_SIZE]);

/* The same 7-bag rule on another ruleset's stream: the generator is seeded
 * with "{rules}:{seed}:{b}" instead (actionblocks-v1 draws its pieces so).
 * bag_shuffle(s, b, out) is bag_shuffle_named(BAG_RULES, s, b, out). */
void bag_shuffle_named(const char *rules, uint64_t seed, uint64_t b, uint8_t out[BAG_SIZE]);

/* Piece number i (0-based) of seed's stream. */
uint8_t bag_piece(uint64_t seed, uint64_t i);

/* Writes pieces i .. i+count-1 of seed's stream into out[0..count). Each bag
 * is computed once. */
void bag_pieces(uint64_t seed, uint64_t i, uint8_t *out, size_t count);

/* Same as letters: out receives count letters and a terminating NUL, so it
 * needs count + 1 bytes. `arcaded stream 42 21` prints
 * bag_letters(42, 0, buf, 21). */
void bag_letters(uint64_t seed, uint64_t i, char *out, size_t count);

#endif
