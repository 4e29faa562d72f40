/*
 * versus_stream.h: the seeded streams of a versus match other than the
 * piece stream (bag.h): the garbage holes, the item rolls and the odd
 * shapes each draw from a Python-compatible generator of their own.
 *
 * The lowest part of versus: versus.c (holes, items) and versus_odd.c (odd
 * shapes) both seed through it, and it calls neither.
 */
#ifndef VERSUS_STREAM_H
#define VERSUS_STREAM_H

#include <stdbool.h>
#include <stdint.h>

#include "pyrandom.h"

/* The longest stream name (and rules name) versus_stream_seed takes. */
#define VERSUS_STREAM_NAME_MAX 16

/* Seeds r with the match stream "versus-v1:{seed}:{stream}:{a}" or, when
 * two is set, "versus-v1:{seed}:{stream}:{a}:{b}" (decimals). stream is
 * at most VERSUS_STREAM_NAME_MAX characters (a longer one is cut there). */
void versus_stream_seed(struct pyrandom *r, uint64_t seed, const char *stream, uint32_t a, bool two,
    uint32_t b);

/* The same with another rules name in place of "versus-v1" (at most
 * VERSUS_STREAM_NAME_MAX characters; a longer one is cut):
 * "{rules}:{seed}:{stream}:{a}[:{b}]". actionblocks-v1 seeds through it. */
void versus_stream_seed_named(struct pyrandom *r, const char *rules, uint64_t seed,
    const char *stream, uint32_t a, bool two, uint32_t b);

/* int(random() * n) for the first random() of that stream: a garbage
 * hole (stream "garbage", a = block, n = 10) or an odd shape ("odd",
 * a = player, b = stream index, n = 5). */
unsigned versus_stream_below(const char *rules, uint64_t seed, const char *stream, uint32_t a,
    bool two, uint32_t b, unsigned n);

/* The item roll of stream piece index of player ("{rules}:{seed}:items:
 * {player}:{index}"): for each of 4 minos, a first random() with
 * random() * 100 < chance gives it an item, int(random() * sum of the 6
 * weights) picking which over the cumulative weights; 4 bits a mino, item
 * codes 1..6 (versus.h's enum versus_item). 0 when chance is 0. */
#define VERSUS_STREAM_ITEM_KINDS 6
uint16_t versus_stream_items(const char *rules, uint64_t seed, unsigned chance,
    const uint8_t weights[VERSUS_STREAM_ITEM_KINDS], unsigned player, uint32_t index);

#endif
