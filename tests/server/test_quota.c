/*
 * test_quota.c: the day's storage quota (server/quota.h).
 *
 * Where the expected figures come from: quota.h's statement -- a key
 * passes while its count of the day is under its figure (four times the
 * figure for an IPv6 /56), a charge is taken from every key or none, a
 * new UTC day starts every count at zero. The random sequences are
 * checked against a naive model: a plain array of counts indexed by key
 * and class, cleared when the day changes.
 */
#include <sodium.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "quota.h"
#include "tap.h"
#include "xorshift.h"

#define DAY 20424u /* 2025-12-02 */

static struct quota *
make(uint32_t runs, uint32_t reviews, uint32_t matches, size_t capacity)
{
	const uint32_t per[QUOTA_NCLASSES] = { runs, reviews, matches };

	return quota_new(capacity, per);
}

static void
test_keys(void)
{
	const uint8_t v4[4] = { 192, 0, 2, 7 };
	uint8_t v6[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 1, 2, 3 };
	struct quota_key k[QUOTA_KEYS_MAX];

	is_int(quota_keys(k, 4, v4, 0), 1, "an IPv4 client: one key");
	ok(k[0].kind == QUOTA_KEY_IPV4 && k[0].bits == 0xc0000207u, "its address");
	is_int(quota_keys(k, 6, v6, 42), 4, "an IPv6 client with a key: /64, /56, /48 and account");
	ok(k[0].kind == QUOTA_KEY_IPV6 && k[0].bits == UINT64_C(0x20010db800010203), "the /64");
	ok(k[1].kind == QUOTA_KEY_NET56 && k[1].bits == UINT64_C(0x20010db800010200), "the /56");
	ok(k[2].kind == QUOTA_KEY_NET48 && k[2].bits == UINT64_C(0x20010db800010000), "the /48");
	ok(k[3].kind == QUOTA_KEY_ACCOUNT && k[3].bits == 42, "the account");
	is_int(quota_keys(k, 0, NULL, 0), 0, "a local peer without a key: none");
	is_int(quota_keys(k, 0, NULL, 9), 1, "a local peer with a key: the account");
	ok(make(1, 1, 1, 1000) == NULL && make(1, 1, 1, ((size_t)1 << 24) + 1) == NULL,
	    "a capacity out of range is refused");
}

static void
test_figures(void)
{
	struct quota *q = make(3, 0, 2, 1024);
	struct quota_key a = { QUOTA_KEY_IPV4, 1 }, acct = { QUOTA_KEY_ACCOUNT, 1 }, both[2];
	size_t over = 99;
	int i, n = 0;

	for (i = 0; i < 10; i++)
		n += quota_take(q, QUOTA_RUNS, &a, 1, DAY, NULL);
	is_int(n, 3, "an address begins 3 runs of a figure of 3, then no more");
	is_int(quota_count(q, QUOTA_RUNS, &a, DAY), 3, "counted 3");
	ok(quota_take(q, QUOTA_MATCHES, &a, 1, DAY, NULL), "another class keeps its own count");
	for (i = 0, n = 0; i < 100; i++)
		n += quota_take(q, QUOTA_REVIEWS, &a, 1, DAY, NULL);
	is_int(n, 100, "a class with figure 0 has no quota: 100 of 100 pass");
	ok(quota_take(q, QUOTA_RUNS, &a, 1, DAY + 1, NULL), "the next UTC day counts again");
	is_int(quota_count(q, QUOTA_RUNS, &a, DAY + 1), 1, "from 1");

	/* All or none: the address is full on DAY + 1 after 2 more. */
	both[0] = acct;
	both[1] = a;
	ok(quota_take(q, QUOTA_RUNS, both, 2, DAY + 1, NULL) && quota_take(q, QUOTA_RUNS, both, 2, DAY + 1,
	    NULL), "account and address charged together twice");
	ok(!quota_take(q, QUOTA_RUNS, both, 2, DAY + 1, &over), "the third: the address is full");
	is_int(over, 1, "the key at its figure is named");
	is_int(quota_count(q, QUOTA_RUNS, &acct, DAY + 1), 2, "and the account was not charged for it");
	quota_give_back(q, QUOTA_RUNS, both, 2, DAY + 1);
	is_int(quota_count(q, QUOTA_RUNS, &a, DAY + 1), 2, "a give-back returns one to the address");
	is_int(quota_count(q, QUOTA_RUNS, &acct, DAY + 1), 1, "and one to the account");
	quota_give_back(q, QUOTA_RUNS, &a, 1, DAY);
	is_int(quota_count(q, QUOTA_RUNS, &a, DAY + 1), 2, "a give-back for an earlier day changes nothing");
	quota_free(q);
}

static void
test_net56(void)
{
	struct quota *q = make(2, 0, 0, 1024);
	uint8_t v6[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0x12, 0 };
	struct quota_key k[QUOTA_KEYS_MAX];
	int hop, n = 0;
	size_t nk, over = 0;

	/* A client hopping over the /64s of one /56: 2 a /64, 8 for the /56. */
	for (hop = 0; hop < 16; hop++) {
		v6[7] = (uint8_t)hop;
		nk = quota_keys(k, 6, v6, 0);
		n += quota_take(q, QUOTA_RUNS, k, nk, DAY, &over);
		n += quota_take(q, QUOTA_RUNS, k, nk, DAY, &over);
		n += quota_take(q, QUOTA_RUNS, k, nk, DAY, &over);
	}
	is_int(n, 8, "16 /64s of one /56 begin 8 runs: four times the figure");
	is_int(over, 1, "the /56 is the key named");
	is_int(quota_limit(q, QUOTA_RUNS, QUOTA_KEY_NET56), 8, "its figure");
	v6[6] = 0x13;
	nk = quota_keys(k, 6, v6, 0);
	ok(quota_take(q, QUOTA_RUNS, k, nk, DAY, NULL), "the next /56 has its own");
	/* Two /64s of each /56 of the same /48, 3 tries each: 2 a /64 (8 a
	 * /56) would make 2048; the /48 stops them at 32, sixteen times the
	 * figure, the 9 runs above counted in it. */
	n = 0;
	over = 0;
	for (hop = 0; hop < 512; hop++) {
		v6[6] = (uint8_t)(hop >> 1);
		v6[7] = (uint8_t)(hop & 1);
		nk = quota_keys(k, 6, v6, 0);
		n += quota_take(q, QUOTA_RUNS, k, nk, DAY, &over);
		n += quota_take(q, QUOTA_RUNS, k, nk, DAY, &over);
		n += quota_take(q, QUOTA_RUNS, k, nk, DAY, &over);
	}
	is_int(n + 9, 32, "a whole /48 begins 32 runs, the 9 above included: sixteen times the figure");
	is_int(quota_limit(q, QUOTA_RUNS, QUOTA_KEY_NET48), 32, "its figure");
	quota_free(q);
}

/* A flood of new keys never takes a live key's count away. */
static void
test_flood(void)
{
	struct quota *q = make(5, 0, 0, 1024);
	struct quota_stats st;
	struct quota_key a = { QUOTA_KEY_ACCOUNT, 7 };
	uint64_t i;
	int n = 0;

	for (i = 0; i < 5; i++)
		n += quota_take(q, QUOTA_RUNS, &a, 1, DAY, NULL);
	for (i = 0; i < 100000; i++) {
		struct quota_key k = { QUOTA_KEY_IPV4, 1000 + i };

		quota_take(q, QUOTA_RUNS, &k, 1, DAY, NULL);
	}
	quota_stats(q, &st);
	ok(st.shared > 0, "100,000 keys in a table of %zu: %llu charges shared", st.capacity,
	    (unsigned long long)st.shared);
	ok(n == 5 && !quota_take(q, QUOTA_RUNS, &a, 1, DAY, NULL), "the live key still holds its 5");
	ok(st.refused[QUOTA_RUNS] > 0, "the shared entries refuse past one key's figure: %llu refused",
	    (unsigned long long)st.refused[QUOTA_RUNS]);
	ok(quota_take(q, QUOTA_RUNS, &a, 1, DAY + 1, NULL), "a new day: the old slots are free again");
	quota_free(q);
}

/* Random charges and give-backs against plain arrays. */
static void
test_model(void)
{
	enum { NKEYS = 40 };
	struct quota *q = make(7, 3, 5, 1024);
	uint32_t model[NKEYS][QUOTA_NCLASSES], day = DAY;
	const uint32_t fig[QUOTA_NCLASSES] = { 7, 3, 5 };
	uint64_t rng = 27;
	int step, bad = 0;

	memset(model, 0, sizeof model);
	for (step = 0; step < 200000; step++) {
		uint32_t r = (uint32_t)(xorshift_next(&rng) >> 32);
		int mk = (int)(r % NKEYS), cls = (int)((r >> 8) % QUOTA_NCLASSES);
		/* Even model keys are accounts, odd ones addresses. */
		struct quota_key k = { mk % 2 == 0 ? QUOTA_KEY_ACCOUNT : QUOTA_KEY_IPV4, (uint64_t)mk };
		if ((r >> 20) % 1000 == 0) {
			day++;
			memset(model, 0, sizeof model);
		}
		if ((r >> 20) % 5 == 0) {
			quota_give_back(q, (enum quota_class)cls, &k, 1, day);
			if (model[mk][cls] > 0)
				model[mk][cls]--;
		} else {
			bool want = model[mk][cls] < fig[cls];

			if (quota_take(q, (enum quota_class)cls, &k, 1, day, NULL) != want)
				bad++;
			if (want)
				model[mk][cls]++;
		}
		if (quota_count(q, (enum quota_class)cls, &k, day) != model[mk][cls])
			bad++;
	}
	is_int(bad, 0, "200,000 random charges and give-backs over %u days agree with the model",
	    day - DAY + 1);
	quota_free(q);
}

/* What a charge costs (no assertion: a figure for README). */
static void
test_cost(void)
{
	struct quota *q = make(100000000, 0, 0, 262144);
	struct quota_key k[QUOTA_KEYS_MAX];
	uint8_t v6[16] = { 0x20, 0x01, 0x0d, 0xb8 };
	struct timespec a, b;
	int i, n = 200000;
	size_t nk;

	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < n; i++) {
		v6[5] = (uint8_t)(i & 0xff);
		v6[6] = (uint8_t)(i >> 8 & 0x3f);
		nk = quota_keys(k, 6, v6, 1 + i % 1000);
		quota_take(q, QUOTA_RUNS, k, nk, DAY, NULL);
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	diag("a charge of four keys (/64, /56, /48, account): %.0f ns",
	    ((double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec)) / n);
	quota_free(q);
}

int
main(void)
{
	if (sodium_init() < 0) {
		printf("Bail out! sodium_init failed\n");
		return 1;
	}
	test_keys();
	test_figures();
	test_net56();
	test_flood();
	test_model();
	test_cost();
	return tap_done();
}
