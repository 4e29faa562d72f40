/*
 * netgroup.h: how many times one client's bound the wider IPv6 networks
 * around it may use.
 *
 * One IPv6 client is its /64 (a provider's smallest hand-out: every
 * address inside it is the same client), but one customer may hold a /56
 * (256 /64s) or a /48 (65,536). Rate limits, held requests and daily
 * quotas therefore also count each /64's /56 and /48, which may use
 * these multiples of one client's figure: many /64s buy no more than
 * that.
 */
#ifndef SERVER_NETGROUP_H
#define SERVER_NETGROUP_H

#include <stdint.h>

#define NET56_FACTOR 4
#define NET48_FACTOR 16

/* A /64's wider networks: in bytes of the address (the /56 is its first
 * 7, the /48 its first 6), and as the /64's 64 bits in network order with
 * the low 8 or 16 zeroed. */
#define NET56_BYTES 7
#define NET48_BYTES 6
#define NET56_OF(bits64) ((bits64) & ~(uint64_t)0xff)
#define NET48_OF(bits64) ((bits64) & ~(uint64_t)0xffff)

#endif
