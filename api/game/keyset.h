/*
 * keyset.h: a set of fixed-size byte keys in memory, for questions asked
 * thousands of times per request (HATETRIS's supplier asks up to a couple
 * of thousand "was this board seen?" at depth 2). Open addressing with
 * linear probing over a power-of-two table kept at most half full; keys
 * are hashed with libsodium's SipHash (crypto_shorthash) under a key drawn
 * for each set, so that keys a player steers cannot be made to collide.
 *
 * Keys cannot be removed. A set is not shared between threads.
 */
#ifndef API_KEYSET_H
#define API_KEYSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define KEYSET_KEY_MAX 64 /* bytes in a key, at most */

struct keyset;

/* An empty set of keys of key_bytes bytes (1..KEYSET_KEY_MAX); NULL when
 * out of memory or key_bytes is out of range. libsodium must be
 * initialised. */
struct keyset *keyset_new(size_t key_bytes);

/* Adds key (copied); false only when out of memory (the set is then
 * unchanged). Adding a key already there changes nothing. */
bool keyset_add(struct keyset *s, const uint8_t *key);

/* Whether key is in s. */
bool keyset_has(const struct keyset *s, const uint8_t *key);

/* The number of distinct keys in s. */
size_t keyset_count(const struct keyset *s);

/* Accepts NULL. */
void keyset_free(struct keyset *s);

#endif
