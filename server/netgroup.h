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

#define NET56_FACTOR 4
#define NET48_FACTOR 16

#endif
