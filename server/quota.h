/*
 * quota.h: how much one client may store in a day -- runs begun, reviews
 * written, matches created -- per client address and per account.
 *
 * The rate limits (ratelimit.h) bound how fast things are stored; a quota
 * bounds how many a day, so that a client inside every rate limit still
 * stores a stated amount a day at most (README, "What a flood can store").
 * A day is a UTC calendar day: every count starts again at 00:00 UTC, and
 * a refusal's wait is the time until then.
 *
 * Keys: an IPv4 address, an IPv6 /64 (what one customer picks addresses
 * from at will), the IPv6 /56 and /48 around it at 4 and 16 times the
 * address's figure (netgroup.h; a /56 is 256 /64s, what one home or cloud
 * customer may be given), and an account. A charge names every key of the
 * request and is taken from all of them or none.
 *
 * The table: fixed at start, in shards with a mutex each, a key living in
 * a window of 16 slots picked by a keyed SipHash (libsodium's
 * crypto_shorthash, its key random), so a client cannot aim its keys at
 * another's slots. A slot holding an earlier day is free. When every slot
 * of a new key's window holds today's count of another key, the charge
 * goes to one shared entry per kind of key instead (counted in
 * quota_stats): live keys are never evicted (a flood of new addresses
 * cannot reset anyone's count), and the keys that find no room share one
 * key's quota rather than pass unchecked.
 *
 * The caller passes the day (days since 1970-01-01 UTC); the module reads
 * no clock. Counts live in this daemon's memory: a restart starts them
 * again, and several daemons on one database each keep their own (README
 * says so). Workload: one charge per init, per finish and per match
 * created, never per move: a hash, a mutex and a 16-slot scan per key.
 */
#ifndef SERVER_QUOTA_H
#define SERVER_QUOTA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "netgroup.h"

enum quota_class {
	QUOTA_RUNS,    /* runs begun (an init that is stored) */
	QUOTA_REVIEWS, /* reviews written (a finish that is stored) */
	QUOTA_MATCHES, /* matches created */
	QUOTA_NCLASSES
};

enum quota_kind {
	QUOTA_KEY_IPV4 = 1, /* bits: the address, network order in the low 4 bytes */
	QUOTA_KEY_IPV6,     /* bits: the /64 prefix, network order */
	QUOTA_KEY_NET56,    /* bits: the /56 prefix (the low 8 bits zero); NET56_FACTOR times the figure */
	QUOTA_KEY_NET48,    /* bits: the /48 prefix (the low 16 bits zero); NET48_FACTOR times */
	QUOTA_KEY_ACCOUNT,  /* bits: the account id */
	QUOTA_NKINDS
};

struct quota_key {
	enum quota_kind kind;
	uint64_t        bits;
};

/* The keys of a client: kind 0 (none) for a local peer; 4 or 6 and the
 * address bytes otherwise (16 for 6, of which the /64 counts). Fills up to
 * QUOTA_KEYS_MAX keys (the address; for IPv6 its /56 and /48 too; the
 * account when account_id > 0) and returns how many. */
#define QUOTA_KEYS_MAX 4
size_t quota_keys(struct quota_key out[QUOTA_KEYS_MAX], int family, const uint8_t *bytes,
    int64_t account_id);

struct quota;

/* A table of at least capacity keys (rounded up to fill its shards),
 * 1024 .. 2^24, with a day's figure per class (0: no quota; an account's
 * and an address's figure are the same, a /56's and a /48's 4 and 16
 * times it). NULL on a
 * bad capacity or no memory. sodium_init() must have succeeded. */
struct quota *quota_new(size_t capacity, const uint32_t per_day[QUOTA_NCLASSES]);
void quota_free(struct quota *q);

/* The figure of cls for keys of kind (0: none). */
uint32_t quota_limit(const struct quota *q, enum quota_class cls, enum quota_kind kind);

/* Charges one cls to each of the n keys for day, when every one of them
 * is under its figure; else charges none and, when over is not NULL, sets
 * *over to the index of a key at its figure. True when charged (or when
 * cls has no quota). */
bool quota_take(struct quota *q, enum quota_class cls, const struct quota_key *keys, size_t n,
    uint32_t day, size_t *over);

/* Gives back one cls taken for the same keys on the same day (a charge
 * whose request stored nothing after all); a later day's count is left
 * alone. */
void quota_give_back(struct quota *q, enum quota_class cls, const struct quota_key *keys, size_t n,
    uint32_t day);

/* What key has counted of cls on day (0 when it has no entry). */
uint32_t quota_count(struct quota *q, enum quota_class cls, const struct quota_key *key, uint32_t day);

struct quota_stats {
	size_t   capacity;
	uint64_t shared;                   /* charges that went to a shared entry: no room */
	uint64_t refused[QUOTA_NCLASSES];  /* quota_take calls refused, by class */
};
void quota_stats(struct quota *q, struct quota_stats *out);

#endif
