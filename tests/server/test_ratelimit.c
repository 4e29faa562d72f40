/*
 * test_ratelimit.c: the rate limiter (server/ratelimit.h).
 *
 * Where the expected figures come from: the boundary cases are worked out
 * by hand from the rule in ratelimit.h (T = period / count, a request
 * passes while max(TAT, now) - now <= (B - 1) * T); the random sequences
 * are checked against a naive model written from a different statement of
 * the same policy, a token bucket of capacity B * T nanoseconds that
 * refills one nanosecond per nanosecond and charges T per request (a
 * request passes when at least T is in the bucket, and the wait is what is
 * missing). The header values follow the RateLimit draft's examples.
 */
#include <arpa/inet.h>
#include <pthread.h>
#include <sodium.h>
#include <stdlib.h>
#include <sys/socket.h>

#include "ratelimit.h"
#include "tap.h"

#define S (INT64_C(1000000)) /* one second in µs */
#define T0 (INT64_C(5000) * S)

static struct ratelimit *
make(const char *flags, size_t capacity)
{
	struct ratelimit_config cfg;
	char err[256];

	ratelimit_config_init(&cfg);
	if (!ratelimit_config_parse(&cfg, flags, err, sizeof err)) {
		diag("%s", err);
		return NULL;
	}
	return ratelimit_new(capacity, &cfg);
}

static struct ratelimit_key
ip4(uint8_t a, uint8_t b, uint8_t c, uint8_t d)
{
	uint8_t v[4] = { a, b, c, d };
	struct ratelimit_key k;

	ratelimit_key_ip(&k, AF_INET, v);
	return k;
}

static struct ratelimit_key
ip_text(const char *s)
{
	struct ratelimit_key k = { RATELIMIT_KEY_IPV4, 0 };

	if (!ratelimit_key_ip_text(&k, s))
		diag("not an address: %s", s);
	return k;
}

/* How many of n takes at now pass. */
static int
passes(struct ratelimit *rl, enum ratelimit_class c, const struct ratelimit_key *k, int64_t now,
    int n)
{
	struct ratelimit_result r;
	int got = 0;

	for (int i = 0; i < n; i++)
		got += ratelimit_take(rl, c, k, now, &r);
	return got;
}

/* The defaults against a bot's pace, on the limiter's own clock (the end
 * to end test cannot promise a pace on a loaded machine): a keyed bot
 * sending moves and reads at 200 a second for a minute meets no refusal
 * at either scope, while a client at 300 a second is refused once the
 * burst of 500 is spent, after 500 / (300 - 250) = 10 s. */
static void
test_defaults_bot_pace(void)
{
	struct ratelimit *rl = make(RATELIMIT_DEFAULTS, 1024);
	struct ratelimit_key addr = ip4(198, 51, 100, 7), acct = ratelimit_key_account(4242);
	struct ratelimit_result r;
	int refused = 0, i, first = -1;

	if (!ok(rl != NULL, "the default limits parse"))
		return;
	for (i = 0; i < 200 * 60; i++) {
		int64_t now = T0 + (int64_t)i * S / 200;

		refused += !ratelimit_take(rl, RATELIMIT_MOVES, &addr, now, &r);
		refused += !ratelimit_take(rl, RATELIMIT_MOVES, &acct, now, &r);
		refused += !ratelimit_take(rl, RATELIMIT_READS, &addr, now, &r);
		refused += !ratelimit_take(rl, RATELIMIT_READS, &acct, now, &r);
	}
	is_int(refused, 0, "defaults: 12000 moves and 12000 reads at 200 a second, address and account: none refused");
	addr = ip4(198, 51, 100, 8);
	for (i = 0; i < 300 * 60 && first < 0; i++)
		if (!ratelimit_take(rl, RATELIMIT_MOVES, &addr, T0 + (int64_t)i * S / 300, &r))
			first = i;
	ok(first >= 2990 && first <= 3010, "defaults: at 300 moves a second the first refusal is request %d "
	    "(about 10 s in: the burst of 500 spent at 50 a second over the rate)", first);
	ratelimit_free(rl);
}

static void
test_gcra_boundaries(void)
{
	/* 10 a second, 5 at once: T = 100 ms, tolerance 400 ms. */
	struct ratelimit *rl = make("moves=10/s:5", 1024);
	struct ratelimit_key k = ip4(192, 0, 2, 1);
	struct ratelimit_result r;
	int remaining_ok = 1, steady = 1;

	if (!ok(rl != NULL, "limiter for moves=10/s:5"))
		return;
	ratelimit_peek(rl, RATELIMIT_MOVES, &k, T0, &r);
	ok(r.allowed && r.remaining == 5 && r.reset_s == 0, "a fresh key: 5 remaining, t=0");
	for (uint32_t i = 0; i < 5; i++) {
		ratelimit_take(rl, RATELIMIT_MOVES, &k, T0, &r);
		remaining_ok &= r.allowed && r.remaining == 4 - i && r.reset_s == 1 &&
		    r.retry_after_s == 0;
	}
	ok(remaining_ok, "the burst: 5 pass at once, remaining 4, 3, 2, 1, 0, t=1");
	ok(!ratelimit_take(rl, RATELIMIT_MOVES, &k, T0, &r), "the 6th at the same instant is refused");
	is_int(r.retry_after_us, 100000, "... retry after exactly 100 ms (TAT 500 ms - 400 ms)");
	is_int(r.retry_after_s, 1, "... Retry-After 1 s (rounded up)");
	ok(r.remaining == 0 && r.reset_s == 1, "... r=0, t = Retry-After");
	ok(!ratelimit_take(rl, RATELIMIT_MOVES, &k, T0 + 99999, &r) && r.retry_after_us == 1,
	    "1 µs early: refused, 1 µs to wait");
	ok(ratelimit_take(rl, RATELIMIT_MOVES, &k, T0 + 100000, &r) && r.remaining == 0,
	    "exactly 100 ms later: one passes, none left");
	ok(!ratelimit_peek(rl, RATELIMIT_MOVES, &k, T0 + 100000, &r) && r.retry_after_us == 100000,
	    "and the next waits another 100 ms");
	/* Steady state: one every 100 ms, never two. */
	for (int64_t i = 2; i < 102; i++) {
		int64_t at = T0 + i * 100000;

		steady &= passes(rl, RATELIMIT_MOVES, &k, at - 1, 3) == 0;
		steady &= passes(rl, RATELIMIT_MOVES, &k, at, 3) == 1;
	}
	ok(steady, "100 intervals at the steady rate: exactly one request per 100 ms");
	/* Quiet for the refill time (5 * 100 ms after TAT): the whole burst. */
	ratelimit_peek(rl, RATELIMIT_MOVES, &k, T0 + 101 * 100000 + 500000, &r);
	is_int(r.remaining, 5, "after 500 ms quiet the burst is whole again");
	ratelimit_peek(rl, RATELIMIT_MOVES, &k, T0 + 101 * 100000 + 499999, &r);
	is_int(r.remaining, 4, "1 µs before that, 4");
	is_int(r.reset_s, 1, "... and t=1 (whole within a second)");
	ratelimit_free(rl);

	/* A rate that does not divide: 3 a second, T = 333333333 ns. */
	rl = make("reads=3/s:1", 1024);
	if (!ok(rl != NULL, "limiter for reads=3/s:1"))
		return;
	ok(ratelimit_take(rl, RATELIMIT_READS, &k, T0, &r), "reads 3/s: the first passes");
	ok(!ratelimit_take(rl, RATELIMIT_READS, &k, T0 + 333333, &r) && r.retry_after_us == 1,
	    "333333 µs later: refused, 333 ns (1 µs rounded up) short");
	ok(ratelimit_take(rl, RATELIMIT_READS, &k, T0 + 333334, &r), "333334 µs later: passes");
	ratelimit_free(rl);

	/* A slow class: 30 an hour, 10 at once: T = 120 s. */
	rl = make("accounts=30/h:10", 1024);
	if (!ok(rl != NULL, "limiter for accounts=30/h:10"))
		return;
	is_int(passes(rl, RATELIMIT_ACCOUNTS, &k, T0, 50), 10, "accounts: 10 of 50 at once");
	ratelimit_take(rl, RATELIMIT_ACCOUNTS, &k, T0, &r);
	ok(r.retry_after_s == 120 && r.reset_s == 120, "... then Retry-After 120 s");
	ratelimit_take(rl, RATELIMIT_ACCOUNTS, &k, T0 + 119 * S + 500000, &r);
	ok(!r.allowed && r.retry_after_s == 1 && r.retry_after_us == 500000,
	    "119.5 s later: Retry-After 1 (500 ms)");
	ratelimit_free(rl);
}

/* The naive model: a token bucket in nanoseconds. */
struct bucket {
	int64_t level; /* ns of credit, 0 .. B * T */
	int64_t last;  /* ns */
};

static void
test_gcra_model(void)
{
	static const char *const flags[] = { "moves=10/s:5", "moves=7/s:3", "moves=1/m:1",
		"moves=1000/s:20" };
	static const int64_t interval[] = { 100000000, 142857143, 60000000000, 1000000 };
	static const uint32_t burst[] = { 5, 3, 1, 20 };
	uint32_t seed = 12345;
	int agree = 1, n = 0, passed = 0;

	for (size_t f = 0; f < sizeof flags / sizeof flags[0]; f++) {
		struct ratelimit *rl = make(flags[f], 1024);
		struct bucket b[8];
		int64_t now = T0 * 1000, cap = interval[f] * burst[f];

		if (rl == NULL) {
			agree = 0;
			continue;
		}
		for (int k = 0; k < 8; k++)
			b[k] = (struct bucket){ cap, now };
		for (int step = 0; step < 20000; step++) {
			struct ratelimit_key key;
			struct ratelimit_result r;
			int k, want;
			int64_t wait;

			seed = seed * 1103515245u + 12345u;
			k = (int)(seed >> 16) % 8;
			seed = seed * 1103515245u + 12345u;
			/* Steps from 0 to about 2 intervals, in whole µs. */
			now += (int64_t)((seed >> 8) % (uint32_t)(2 * interval[f] / 1000 + 1)) * 1000 *
			    ((seed & 3) == 0 ? 0 : 1);
			key = ratelimit_key_account(1000 + k);
			b[k].level += now - b[k].last;
			if (b[k].level > cap)
				b[k].level = cap;
			b[k].last = now;
			want = b[k].level >= interval[f];
			wait = want ? 0 : interval[f] - b[k].level;
			if (want)
				b[k].level -= interval[f];
			ratelimit_take(rl, RATELIMIT_MOVES, &key, now / 1000, &r);
			n++;
			passed += want;
			if (r.allowed != want || r.retry_after_us != (wait + 999) / 1000 ||
			    (want && r.remaining != (uint32_t)(b[k].level / interval[f]))) {
				if (agree)
					diag("%s step %d: got allowed=%d wait=%lld remaining=%u, model %d %lld %lld",
					    flags[f], step, r.allowed, (long long)r.retry_after_us, r.remaining,
					    want, (long long)(wait + 999) / 1000,
					    (long long)(b[k].level / interval[f]));
				agree = 0;
			}
		}
		ratelimit_free(rl);
	}
	ok(agree, "%d random requests on 8 keys under 4 policies agree with a token bucket "
	    "(decision, wait, remaining; %d passed)", n, passed);
}

static void
test_independence(void)
{
	struct ratelimit *rl = make("moves=1/h:2,reads=1/h:2", 1024);
	struct ratelimit_key a = ip4(198, 51, 100, 7), b = ip4(198, 51, 100, 8);
	struct ratelimit_key acct = ratelimit_key_account((int64_t)a.bits);

	if (!ok(rl != NULL, "limiter for moves and reads"))
		return;
	is_int(passes(rl, RATELIMIT_MOVES, &a, T0, 5), 2, "address a: 2 moves of 5");
	is_int(passes(rl, RATELIMIT_MOVES, &b, T0, 5), 2, "address b beside it: its own 2");
	is_int(passes(rl, RATELIMIT_READS, &a, T0, 5), 2, "address a, another class: its own 2");
	is_int(passes(rl, RATELIMIT_MOVES, &acct, T0, 5), 2,
	    "an account whose id equals a's bits: its own 2");
	is_int(passes(rl, RATELIMIT_RUNS, &a, T0, 50), 50, "a class that is off: all pass");
	{
		struct ratelimit_result r;

		ratelimit_take(rl, RATELIMIT_RUNS, &a, T0, &r);
		ok(r.allowed && r.off, "... and the result says off");
	}
	ratelimit_free(rl);

	/* Separate policies per scope. */
	rl = make("moves@addr=1/h:3,moves@account=1/h:1", 1024);
	if (!ok(rl != NULL, "limiter with per-scope policies"))
		return;
	is_int(passes(rl, RATELIMIT_MOVES, &a, T0, 5), 3, "moves@addr: 3");
	is_int(passes(rl, RATELIMIT_MOVES, &acct, T0, 5), 1, "moves@account: 1");
	ratelimit_free(rl);
}

/* An IPv6 client's /56 and /48 pay for every one of their /64s, at
 * RATELIMIT_NET56_FACTOR and RATELIMIT_NET48_FACTOR times an address's
 * allowance; IPv4 and accounts are untouched. */
static void
test_networks(void)
{
	struct ratelimit *rl = make("accounts=1/h:2,wrong=3/h", 1024);
	struct ratelimit_key k;
	struct ratelimit_result r;
	char addr[64];
	int total = 0, i, n;

	if (!ok(rl != NULL, "limiter for accounts=1/h:2"))
		return;
	/* 16 /64s of 2001:db8:5:100::/56, each trying 3 times. */
	for (i = 0; i < 16; i++) {
		snprintf(addr, sizeof addr, "2001:db8:5:1%02x::%x", i, i + 1);
		k = ip_text(addr);
		total += passes(rl, RATELIMIT_ACCOUNTS, &k, T0, 3);
	}
	is_int(total, 2 * RATELIMIT_NET56_FACTOR, "16 /64s of one /56: %d pass in all, its factor %d times "
	    "one /64's 2", total, RATELIMIT_NET56_FACTOR);
	k = ip_text("2001:db8:5:1ff::99");
	n = ratelimit_take(rl, RATELIMIT_ACCOUNTS, &k, T0, &r);
	ok(!n && r.retry_after_s == 3600 / RATELIMIT_NET56_FACTOR && r.remaining == 0,
	    "a /64 of that /56 that had passed nothing is refused, Retry-After the /56's interval (%u s)",
	    r.retry_after_s);
	/* Every /56 of 2001:db8:5::/48, 3 tries from 4 /64s each: the /48's 32. */
	total = 0;
	for (i = 0; i < 256; i++)
		for (n = 0; n < 4; n++) {
			snprintf(addr, sizeof addr, "2001:db8:5:%02x%02x::1", i, n);
			k = ip_text(addr);
			total += passes(rl, RATELIMIT_ACCOUNTS, &k, T0, 3);
		}
	is_int(total + 2 * RATELIMIT_NET56_FACTOR, 2 * RATELIMIT_NET48_FACTOR,
	    "the whole /48 passes its factor %d times one /64's 2, the first /56's included",
	    RATELIMIT_NET48_FACTOR);
	k = ip_text("2001:db8:6::1");
	is_int(passes(rl, RATELIMIT_ACCOUNTS, &k, T0, 3), 2, "the next /48 has its own allowance");
	k = ip4(198, 51, 100, 1);
	is_int(passes(rl, RATELIMIT_ACCOUNTS, &k, T0, 3), 2, "an IPv4 address its own 2");
	/* The penalty: 3 wrong answers a /64, 12 a /56. */
	total = 0;
	for (i = 0; i < 8; i++) {
		snprintf(addr, sizeof addr, "2001:db8:7:%x::1", i);
		k = ip_text(addr);
		total += passes(rl, RATELIMIT_WRONG, &k, T0, 5);
	}
	is_int(total, 3 * RATELIMIT_NET56_FACTOR, "wrong answers: 8 /64s of one /56 count %d in all", total);
	ratelimit_free(rl);
}

static void
test_keys(void)
{
	struct ratelimit *rl = make("moves=1/h:4", 1024);
	struct ratelimit_key k, k2;
	uint8_t mapped[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 192, 0, 2, 33 };
	char addr[64];
	int total = 0;

	if (!ok(rl != NULL, "limiter for moves=1/h:4"))
		return;
	/* 1000 addresses inside one /64, each trying 4 times. */
	for (int i = 0; i < 1000; i++) {
		snprintf(addr, sizeof addr, "2001:db8:1:2:%x:%x:%x:%x", i * 7919 % 65536, i,
		    (i * 31) % 65536, 65535 - i);
		k = ip_text(addr);
		total += passes(rl, RATELIMIT_MOVES, &k, T0, 4);
	}
	is_int(total, 4, "1000 addresses of 2001:db8:1:2::/64: 4 pass in all");
	k = ip_text("2001:db8:1:3::1");
	is_int(passes(rl, RATELIMIT_MOVES, &k, T0, 10), 4, "the next /64 has its own 4");
	k = ip_text("2001:db8:1:2::");
	k2 = ip_text("2001:db8:1:2:ffff:ffff:ffff:ffff");
	ok(k.kind == RATELIMIT_KEY_IPV6 && k.bits == k2.bits && k.bits == UINT64_C(0x20010db800010002),
	    "a /64's key is its prefix");
	ratelimit_key_ip(&k, AF_INET6, mapped);
	k2 = ip_text("192.0.2.33");
	ok(k.kind == RATELIMIT_KEY_IPV4 && k.bits == k2.bits && k.bits == 0xc0000221u,
	    "::ffff:192.0.2.33 is the IPv4 address 192.0.2.33");
	k = ip_text("::ffff:192.0.2.33");
	ok(k.kind == RATELIMIT_KEY_IPV4 && k.bits == k2.bits, "... also from text");
	ok(!ratelimit_key_ip_text(&k, "192.0.2") && !ratelimit_key_ip_text(&k, "example.org") &&
	    !ratelimit_key_ip_text(&k, "") && !ratelimit_key_ip_text(&k, NULL),
	    "text that is no address gives no key");
	ok(!ratelimit_key_ip(&k, AF_UNIX, mapped), "another family gives no key");
	k = ratelimit_key_account(42);
	ok(ratelimit_key_scope(&k) == RATELIMIT_BY_ACCOUNT && ratelimit_key_scope(&k2) == RATELIMIT_BY_ADDR,
	    "accounts and addresses have their scopes");
	ratelimit_free(rl);
}

static void
test_penalty(void)
{
	struct ratelimit *rl = make("wrong=3/10m", 1024);
	struct ratelimit_key k = ip4(203, 0, 113, 9);
	struct ratelimit_result r;
	int counts = 1;

	if (!ok(rl != NULL, "limiter for wrong=3/10m"))
		return;
	ratelimit_peek(rl, RATELIMIT_WRONG, &k, T0, &r);
	ok(r.allowed && r.remaining == 3 && r.reset_s == 0, "no wrong answers yet: 3 left, t=0");
	for (uint32_t i = 0; i < 3; i++) {
		ratelimit_take(rl, RATELIMIT_WRONG, &k, T0 + i * 10 * S, &r);
		counts &= r.allowed && r.remaining == 2 - i && r.reset_s == 600 - i * 10;
		ratelimit_peek(rl, RATELIMIT_WRONG, &k, T0 + i * 10 * S, &r);
		counts &= r.allowed == (i < 2);
	}
	ok(counts, "three wrong answers are counted (2, 1, 0 left; the window ends 600 s after "
	    "the first); after the third a peek refuses");
	ok(!ratelimit_peek(rl, RATELIMIT_WRONG, &k, T0 + 100 * S, &r) &&
	    r.retry_after_us == 500 * S && r.retry_after_s == 500 && r.reset_s == 500,
	    "100 s in: refused, 500 s until the window passes");
	ok(!ratelimit_take(rl, RATELIMIT_WRONG, &k, T0 + 100 * S, &r), "another wrong answer is refused");
	ok(!ratelimit_peek(rl, RATELIMIT_WRONG, &k, T0 + 600 * S - 1, &r) && r.retry_after_us == 1,
	    "1 µs before the window ends: still refused");
	ok(ratelimit_peek(rl, RATELIMIT_WRONG, &k, T0 + 600 * S, &r) && r.remaining == 3,
	    "when it ends: 3 again");
	ok(ratelimit_take(rl, RATELIMIT_WRONG, &k, T0 + 700 * S, &r) && r.reset_s == 600,
	    "a new window opens at the next wrong answer");
	is_int(passes(rl, RATELIMIT_WRONG, &k, T0 + 700 * S, 10), 2, "... with 2 more in it");
	ratelimit_free(rl);
}

static void
test_flood(void)
{
	struct ratelimit *rl = make("moves=1/m:3,accounts=1/h:2", 1024);
	struct ratelimit_key victim = ip4(192, 0, 2, 200), half = ratelimit_key_account(77), k;
	struct ratelimit_stats before, after, later;
	struct ratelimit_result r;
	uint64_t shared = 0;
	int new_tracked = 1;

	if (!ok(rl != NULL, "limiter with capacity 1024"))
		return;
	is_int(passes(rl, RATELIMIT_MOVES, &victim, T0, 10), 3, "the victim uses its 3 moves");
	is_int(passes(rl, RATELIMIT_MOVES, &half, T0, 1), 1, "an account uses 1 of 3");
	ratelimit_stats(rl, T0, &before);
	/* 200000 distinct IPv4 addresses and 200000 distinct /64s, one move
	 * and one account each, at the same instant: every state stays live. */
	for (uint32_t i = 0; i < 200000; i++) {
		uint8_t v6[16] = { 0x20, 0x01, 0x0d, 0xb8, (uint8_t)(i >> 24), (uint8_t)(i >> 16),
			(uint8_t)(i >> 8), (uint8_t)i, 0, 0, 0, 0, 0, 0, 0, 1 };

		k = ip4(10, (uint8_t)(i >> 16), (uint8_t)(i >> 8), (uint8_t)i);
		ratelimit_take(rl, RATELIMIT_MOVES, &k, T0, &r);
		shared += r.shared;
		ratelimit_take(rl, RATELIMIT_ACCOUNTS, &k, T0, &r);
		ratelimit_key_ip(&k, AF_INET6, v6);
		ratelimit_take(rl, RATELIMIT_MOVES, &k, T0, &r);
		/* These /64s share 782 /56s and 4 /48s, whose allowance (16
		 * times an address's) runs out before the table fills. */
		shared += r.shared || !r.allowed;
	}
	ratelimit_stats(rl, T0, &after);
	is_int(after.bytes, before.bytes, "memory is the same after the flood (%zu bytes for %zu states)",
	    after.bytes, after.capacity);
	ok(after.live <= after.capacity && after.live > after.capacity * 9 / 10,
	    "the table is full of live states (%zu of %zu)", after.live, after.capacity);
	ok(shared > 390000 && after.shared >= shared,
	    "most of the flood went to the shared entries or was refused by its /48 (%llu of 400000 moves)",
	    (unsigned long long)shared);
	/* Its TAT is 180 s ahead, the tolerance 120 s: 60 s to wait. */
	ok(!ratelimit_take(rl, RATELIMIT_MOVES, &victim, T0, &r) && !r.shared && r.retry_after_s == 60,
	    "the victim is still refused by its own state, Retry-After 60 s");
	is_int(passes(rl, RATELIMIT_MOVES, &half, T0, 5), 2, "the account still has exactly 2 left");
	/* The flood's states turn fresh once their time has passed. */
	ratelimit_stats(rl, T0 + 3601 * S, &later);
	is_int(later.live, 0, "an hour later no state is live");
	/* 200 keys in 64 shards of 16 slots: a shard would need 16 of them to
	 * fill up (Poisson, mean 3.1: about 1e-7 per shard). */
	for (uint32_t i = 0; i < 200; i++) {
		k = ip4(172, 16, (uint8_t)(i >> 8), (uint8_t)i);
		ratelimit_take(rl, RATELIMIT_MOVES, &k, T0 + 3601 * S, &r);
		new_tracked &= r.allowed && !r.shared && r.remaining == 2;
	}
	ok(new_tracked, "then new keys get slots of their own again (200 of them)");
	ratelimit_free(rl);
}

static void
test_shared_entry(void)
{
	/* A full table: the keys that find no room share one key's allowance. */
	struct ratelimit *rl = make("moves=1/h:5", 1024);
	struct ratelimit_result r;
	int in_shared = 0, shared_passed = 0;

	if (!ok(rl != NULL, "limiter for the shared entry"))
		return;
	for (uint32_t i = 0; i < 20000; i++) {
		struct ratelimit_key k = ip4(10, 1, (uint8_t)(i >> 8), (uint8_t)i);

		ratelimit_take(rl, RATELIMIT_MOVES, &k, T0, &r);
		in_shared += r.shared;
		shared_passed += r.shared && r.allowed;
	}
	ok(in_shared > 15000, "%d of 20000 new keys found the table full", in_shared);
	is_int(shared_passed, 5, "together they passed 5 times: one key's burst");
	ratelimit_free(rl);
}

static void
test_headers(void)
{
	struct ratelimit *rl = make("moves=100/s:200,accounts=30/h:10,wrong=5/10m", 1024);
	struct ratelimit_key k = ip4(192, 0, 2, 50);
	struct ratelimit_result r;
	char pol[128], st[128];
	const struct ratelimit_policy *p;

	if (!ok(rl != NULL, "limiter for the headers"))
		return;
	p = ratelimit_policy(rl, RATELIMIT_MOVES, RATELIMIT_BY_ADDR);
	passes(rl, RATELIMIT_MOVES, &k, T0, 46);
	ratelimit_take(rl, RATELIMIT_MOVES, &k, T0, &r);
	ok(ratelimit_format("moves", p, &r, pol, sizeof pol, st, sizeof st), "moves: formatted");
	/* 47 taken: TAT is 470 ms ahead; 153 of 200 left; whole in 1 s. */
	is_str(pol, "\"moves\";q=200;w=2", "RateLimit-Policy for 100/s:200 (200 per 2 s)");
	is_str(st, "\"moves\";r=153;t=1", "RateLimit after 47 requests at once");

	p = ratelimit_policy(rl, RATELIMIT_ACCOUNTS, RATELIMIT_BY_ADDR);
	passes(rl, RATELIMIT_ACCOUNTS, &k, T0, 10);
	ratelimit_take(rl, RATELIMIT_ACCOUNTS, &k, T0 + 30 * S, &r);
	ok(!r.allowed && r.retry_after_s == 90, "accounts: the 11th, 30 s later, waits 90 s");
	ratelimit_format("accounts", p, &r, pol, sizeof pol, st, sizeof st);
	is_str(pol, "\"accounts\";q=10;w=1200", "RateLimit-Policy for 30/h:10 (10 per 1200 s)");
	is_str(st, "\"accounts\";r=0;t=90", "RateLimit when refused: t equals Retry-After");

	p = ratelimit_policy(rl, RATELIMIT_WRONG, RATELIMIT_BY_ADDR);
	ratelimit_take(rl, RATELIMIT_WRONG, &k, T0, &r);
	ratelimit_take(rl, RATELIMIT_WRONG, &k, T0 + 60 * S, &r);
	ratelimit_format("wrong", p, &r, pol, sizeof pol, st, sizeof st);
	is_str(pol, "\"wrong\";q=5;w=600", "RateLimit-Policy for wrong=5/10m");
	is_str(st, "\"wrong\";r=3;t=540", "RateLimit after 2 wrong answers, 60 s into the window");

	ok(ratelimit_format("a \"b\" \\c", p, &r, pol, sizeof pol, st, sizeof st),
	    "a name with quotes and a backslash");
	is_str(pol, "\"a \\\"b\\\" \\\\c\";q=5;w=600", "... is escaped as a String");
	ok(!ratelimit_format("tab\there", p, &r, pol, sizeof pol, st, sizeof st) && pol[0] == '\0' &&
	    st[0] == '\0', "a control character in the name: refused, outputs empty");
	ok(!ratelimit_format("wrong", p, &r, pol, 12, st, sizeof st) && pol[0] == '\0',
	    "a buffer too small: refused");
	ok(!ratelimit_format("runs", ratelimit_policy(rl, RATELIMIT_RUNS, RATELIMIT_BY_ADDR), &r, pol,
	    sizeof pol, st, sizeof st), "an off policy has no headers");
	ratelimit_free(rl);
}

static void
test_parser(void)
{
	static const struct {
		const char *flags;
		const char *err; /* a phrase the error must contain, NULL: good */
	} cases[] = {
		{ "moves=100/s:200", NULL },
		{ "accounts=30/h:10", NULL },
		{ "wrong=5/10m", NULL },
		{ "reads@account=off", NULL },
		{ "reads@addr=0", NULL },
		{ "verify=1/d", NULL },
		{ "runs=2/90s:1,puzzles=1000000/s:1000000", NULL },
		{ RATELIMIT_DEFAULTS, NULL },
		{ "", "empty item" },
		{ "moves=1/s,", "empty item" },
		{ "moves", "missing '='" },
		{ "mvoes=1/s", "unknown class" },
		{ "moves@ip=1/s", "unknown scope" },
		{ "moves=", "the count" },
		{ "moves=x/s", "the count" },
		{ "moves=0/s", "the count" },
		{ "moves=1000001/s", "the count" },
		{ "moves=-1/s", "the count" },
		{ "moves=10", "expected '/'" },
		{ "moves=10/", "unit" },
		{ "moves=10/x", "unit" },
		{ "moves=10/0s", "multiplier" },
		{ "moves=10/2d", "1 s to 1 day" },
		{ "moves=10/s:", "the burst" },
		{ "moves=10/s:0", "the burst" },
		{ "moves=10/s:2000000", "the burst" },
		{ "moves=10/sec", "unexpected 'e'" },
		{ "moves=10/s:5x", "unexpected 'x'" },
		{ "moves=10/s: 5", "the burst" },
		{ "wrong=5/m:3", "no burst" },
		{ "accounts=1/d:1000000", "30 days" },
		{ "moves=1/s,moves=\n", "the count" },
	};
	struct ratelimit_config cfg, copy;
	char err[256];

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		bool good;

		ratelimit_config_init(&cfg);
		copy = cfg;
		good = ratelimit_config_parse(&cfg, cases[i].flags, err, sizeof err);
		if (cases[i].err == NULL) {
			ok(good, "good: %s", cases[i].flags);
			if (!good)
				diag("%s", err);
		} else {
			ok(!good && strstr(err, cases[i].err) != NULL && strchr(err, '\n') == NULL &&
			    memcmp(&cfg, &copy, sizeof cfg) == 0,
			    "bad: \"%s\" -> %s", cases[i].flags[0] == 'm' && strchr(cases[i].flags, '\n') ?
			    "moves=1/s,moves=\\n" : cases[i].flags, err);
		}
	}
	ratelimit_config_init(&cfg);
	ratelimit_config_parse(&cfg, "moves=100/s:200,reads@account=7/2m,wrong=4/h", err, sizeof err);
	ok(cfg.policy[RATELIMIT_MOVES][RATELIMIT_BY_ADDR].count == 100 &&
	    cfg.policy[RATELIMIT_MOVES][RATELIMIT_BY_ACCOUNT].period_us == S &&
	    cfg.policy[RATELIMIT_MOVES][RATELIMIT_BY_ACCOUNT].burst == 200,
	    "moves=100/s:200: 100 per 1 s, burst 200, both scopes");
	ok(cfg.policy[RATELIMIT_READS][RATELIMIT_BY_ACCOUNT].count == 7 &&
	    cfg.policy[RATELIMIT_READS][RATELIMIT_BY_ACCOUNT].period_us == 120 * S &&
	    cfg.policy[RATELIMIT_READS][RATELIMIT_BY_ACCOUNT].burst == 7 &&
	    cfg.policy[RATELIMIT_READS][RATELIMIT_BY_ADDR].count == 0,
	    "reads@account=7/2m: 7 per 120 s, burst defaults to the count, addresses untouched");
	ok(cfg.policy[RATELIMIT_WRONG][RATELIMIT_BY_ADDR].count == 4 &&
	    cfg.policy[RATELIMIT_WRONG][RATELIMIT_BY_ADDR].period_us == 3600 * S &&
	    cfg.policy[RATELIMIT_WRONG][RATELIMIT_BY_ADDR].burst == 0,
	    "wrong=4/h: 4 per hour window, no burst");
	ratelimit_config_parse(&cfg, "moves@account=off", err, sizeof err);
	ok(cfg.policy[RATELIMIT_MOVES][RATELIMIT_BY_ACCOUNT].count == 0 &&
	    cfg.policy[RATELIMIT_MOVES][RATELIMIT_BY_ADDR].count == 100,
	    "a later item overrides one scope");
	ok(ratelimit_new(1023, &cfg) == NULL, "capacity below 1024 is refused");
	cfg.policy[RATELIMIT_MOVES][RATELIMIT_BY_ADDR].burst = 0;
	ok(ratelimit_new(65536, &cfg) == NULL, "a rate policy without a burst is refused");
	ok(strcmp(ratelimit_class_name(RATELIMIT_VERIFY), "verify") == 0 &&
	    ratelimit_class_name(RATELIMIT_NCLASSES) == NULL && ratelimit_class_is_penalty(RATELIMIT_WRONG) &&
	    !ratelimit_class_is_penalty(RATELIMIT_MOVES) &&
	    strcmp(ratelimit_scope_name(RATELIMIT_BY_ACCOUNT), "account") == 0,
	    "class and scope names");
}

/* ---- concurrency ---- */

#define NTHREADS 4
#define TRIES 20000

struct hammer {
	struct ratelimit *rl;
	pthread_barrier_t *go;
	int passed[3];
};

static void *
hammer(void *arg)
{
	struct hammer *h = arg;
	struct ratelimit_key keys[3] = { ratelimit_key_account(1), ratelimit_key_account(2) };
	struct ratelimit_result r;

	ratelimit_key_ip_text(&keys[2], "2001:db8:9::1");
	pthread_barrier_wait(h->go);
	for (int i = 0; i < TRIES; i++)
		for (int k = 0; k < 3; k++)
			h->passed[k] += ratelimit_take(h->rl, RATELIMIT_MOVES, &keys[k], T0, &r);
	return NULL;
}

static void
test_threads(void)
{
	/* No time passes and nothing refills: exactly the burst must pass. */
	struct ratelimit *rl = make("moves=1/m:1000", 1024);
	pthread_barrier_t go;
	pthread_t t[NTHREADS];
	struct hammer h[NTHREADS];
	struct ratelimit_stats st;
	int total[3] = { 0, 0, 0 };

	if (!ok(rl != NULL, "limiter for the threads"))
		return;
	pthread_barrier_init(&go, NULL, NTHREADS);
	for (int i = 0; i < NTHREADS; i++) {
		h[i] = (struct hammer){ rl, &go, { 0, 0, 0 } };
		pthread_create(&t[i], NULL, hammer, &h[i]);
	}
	for (int i = 0; i < NTHREADS; i++) {
		pthread_join(t[i], NULL);
		for (int k = 0; k < 3; k++)
			total[k] += h[i].passed[k];
	}
	pthread_barrier_destroy(&go);
	ok(total[0] == 1000 && total[1] == 1000 && total[2] == 1000,
	    "%d threads x %d tries on 3 shared keys, burst 1000: %d, %d and %d passed", NTHREADS,
	    TRIES, total[0], total[1], total[2]);
	ratelimit_stats(rl, T0, &st);
	ok(st.checks == (uint64_t)NTHREADS * TRIES * 3 && st.refused == st.checks - 3000,
	    "every check counted once (%llu, %llu refused)", (unsigned long long)st.checks,
	    (unsigned long long)st.refused);
	ratelimit_free(rl);
}

int
main(void)
{
	if (sodium_init() < 0) {
		printf("Bail out! sodium_init failed\n");
		return 1;
	}
	test_gcra_boundaries();
	test_defaults_bot_pace();
	test_gcra_model();
	test_independence();
	test_keys();
	test_networks();
	test_penalty();
	test_flood();
	test_shared_entry();
	test_headers();
	test_parser();
	test_threads();
	return tap_done();
}
