/*
 * test_connguard.c: the connection counts of connguard.c by address: an
 * IPv4 address and an IPv6 /64 hold per_address connections at once, an
 * IPv6 /56 and /48 their multiples (netgroup.h) over all their /64s, and a
 * close gives a place back at every level. No sockets: the peers are
 * addresses written by hand, the descriptors -1 (no deadline, so the
 * watchdog never reads them).
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#include "connguard.h"
#include "netgroup.h"
#include "tap.h"

static bool
never(const void *ctx, const struct sockaddr *peer)
{
	(void)ctx;
	(void)peer;
	return false;
}

static struct sockaddr_in6
v6(const char *text)
{
	struct sockaddr_in6 a;

	memset(&a, 0, sizeof a);
	a.sin6_family = AF_INET6;
	inet_pton(AF_INET6, text, &a.sin6_addr);
	return a;
}

/* Opens connections from peer while admitted, up to max; how many. */
static int
fill(struct connguard *g, const struct sockaddr_in6 *peer, int max, struct connguard_conn **out, int *n)
{
	int got = 0;

	while (got < max && connguard_admit(g, (const struct sockaddr *)peer)) {
		out[(*n)++] = connguard_opened(g, (const struct sockaddr *)peer, -1, false);
		got++;
	}
	return got;
}

int
main(void)
{
	enum { PER = 3 };
	struct connguard *g = connguard_new(PER, 0, never, NULL);
	static struct connguard_conn *open[4096];
	struct sockaddr_in6 a;
	struct sockaddr_in v4;
	char text[64];
	int n = 0, total, i, j;

	if (!ok(g != NULL, "a guard of %d connections an address", PER))
		return tap_done();
	a = v6("2001:db8:1:100::1");
	is_int(fill(g, &a, 100, open, &n), PER, "one /64: %d connections", PER);
	a = v6("2001:db8:1:100::ffff");
	is_int(fill(g, &a, 100, open, &n), 0, "another address of the same /64: none more");
	/* The other /64s of 2001:db8:1:100::/56. */
	total = PER;
	for (i = 1; i < 256 && total < 1000; i++) {
		snprintf(text, sizeof text, "2001:db8:1:1%02x::1", i);
		a = v6(text);
		total += fill(g, &a, 100, open, &n);
	}
	is_int(total, PER * NET56_FACTOR, "the /56's /64s: %d in all, %d times one address's", total,
	    NET56_FACTOR);
	/* Every /56 of 2001:db8:1::/48, one /64 each. */
	total = 0;
	for (i = 0; i < 256; i++) {
		snprintf(text, sizeof text, "2001:db8:1:%02x00::1", i);
		a = v6(text);
		total += fill(g, &a, 100, open, &n);
	}
	is_int(total + PER * NET56_FACTOR, PER * NET48_FACTOR, "the whole /48: %d times one address's",
	    NET48_FACTOR);
	a = v6("2001:db8:2::1");
	is_int(fill(g, &a, 100, open, &n), PER, "the next /48 has its own");
	memset(&v4, 0, sizeof v4);
	v4.sin_family = AF_INET;
	inet_pton(AF_INET, "192.0.2.1", &v4.sin_addr);
	for (j = 0; j < 100 && connguard_admit(g, (const struct sockaddr *)&v4); j++)
		open[n++] = connguard_opened(g, (const struct sockaddr *)&v4, -1, false);
	is_int(j, PER, "an IPv4 address its %d", PER);
	/* A close in the /48 frees a place at each level for that /64. */
	connguard_closed(g, open[0]);
	open[0] = NULL;
	a = v6("2001:db8:1:100::2");
	ok(connguard_admit(g, (const struct sockaddr *)&a), "a close in the first /64 lets it open one again");
	a = v6("2001:db8:1:900::1");
	ok(!connguard_admit(g, (const struct sockaddr *)&a), "but not another /56 of the full /48");
	for (i = 0; i < n; i++)
		connguard_closed(g, open[i]);
	n = 0;
	a = v6("2001:db8:1:100::1");
	is_int(fill(g, &a, 100, open, &n), PER, "all closed, the /64 has its %d again", PER);
	for (i = 0; i < n; i++)
		connguard_closed(g, open[i]);
	connguard_free(g);
	return tap_done();
}
