/*
 * test_numtext.c: the printf-free number text (api/numtext.h) and
 * iso8601_format, which uses it, against snprintf on random values, the
 * extremes and the years a time stamp can reach either side of 0000-9999;
 * numtext_ipv4 against inet_ntop.
 */
#include <arpa/inet.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "iso8601.h"
#include "numtext.h"
#include "tap.h"
#include "xorshift.h"

/* What iso8601_format wrote with snprintf alone. */
static void
reference(char *out, size_t cap, int64_t secs)
{
	int64_t days = secs / 86400, rem = secs % 86400, z, era, doe, yoe, y, doy, mp, d, m;

	if (rem < 0) {
		rem += 86400;
		days--;
	}
	z = days + 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	y = yoe + era * 400;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	d = doy - (153 * mp + 2) / 5 + 1;
	m = mp < 10 ? mp + 3 : mp - 9;
	y += m <= 2;
	snprintf(out, cap, "%04lld-%02lld-%02lldT%02lld:%02lld:%02lld+00:00", (long long)y,
	    (long long)m, (long long)d, (long long)(rem / 3600), (long long)(rem / 60 % 60),
	    (long long)(rem % 60));
}

int
main(void)
{
	uint64_t rng = 0x2545f4914f6cdd1du;
	unsigned long i, ints = 0, ints_apart = 0, stamps = 0, stamps_apart = 0, padded_apart = 0;
	static const int64_t fixed[] = { 0, 1, -1, 9, 10, -10, 99, 100, INT64_MAX, INT64_MIN,
		INT64_MIN + 1, 9007199254740993LL, -9007199254740993LL };
	/* 0000-01-01, 9999-12-31T23:59:59, and a second either side. */
	static const int64_t edges[] = { -62167219200LL, -62167219201LL, 253402300799LL,
		253402300800LL, 0, -1, 951782400LL, 4107542400LL };

	for (i = 0; i < 200000 + sizeof fixed / sizeof fixed[0]; i++) {
		int64_t v = i < sizeof fixed / sizeof fixed[0] ? fixed[i] :
		    (int64_t)xorshift_next(&rng) >> xorshift_below(&rng, 64);
		char a[32], b[32];
		size_t n = numtext_i64(a, v);

		snprintf(b, sizeof b, "%" PRId64, v);
		ints++;
		ints_apart += strcmp(a, b) != 0 || n != strlen(b);
		if (v >= 0) {
			size_t w = xorshift_below(&rng, 6);

			n = numtext_padded(a, v, w);
			a[n] = '\0';
			snprintf(b, sizeof b, "%0*" PRId64, (int)w, v);
			padded_apart += strcmp(a, b) != 0;
		}
	}
	ok(ints_apart == 0 && padded_apart == 0,
	    "numtext_i64 and numtext_padded write what snprintf writes (%lu numbers, %lu and %lu apart)",
	    ints, ints_apart, padded_apart);
	for (i = 0; i < 200000 + sizeof edges / sizeof edges[0]; i++) {
		int64_t s = i < sizeof edges / sizeof edges[0] ? edges[i] :
		    (int64_t)(xorshift_next(&rng) % 400000000000ULL) - 100000000000LL;
		char a[ISO8601_MAX], b[96];

		iso8601_format(a, sizeof a, s);
		reference(b, sizeof b, s);
		stamps++;
		stamps_apart += strcmp(a, b) != 0;
	}
	ok(stamps_apart == 0, "iso8601_format writes what snprintf wrote (%lu times from year -1200 "
	    "to 10700, %lu apart)", stamps, stamps_apart);
	{
		unsigned long apart = 0;

		for (i = 0; i < 100000; i++) {
			uint32_t v = (uint32_t)xorshift_next(&rng);
			uint8_t b[4];
			char a[INET_ADDRSTRLEN], w[INET_ADDRSTRLEN];

			if (i < 4)
				v = i == 0 ? 0 : i == 1 ? UINT32_MAX : i == 2 ? 0x7f000001u : 0x0a00ff09u;
			memcpy(b, &v, 4);
			numtext_ipv4(a, b);
			inet_ntop(AF_INET, b, w, sizeof w);
			apart += strcmp(a, w) != 0;
		}
		ok(apart == 0, "numtext_ipv4 writes what inet_ntop writes (100000 addresses, %lu apart)",
		    apart);
	}
	{
		char a[ISO8601_MAX];

		iso8601_format(a, sizeof a, 1764547200);
		is_str(a, "2025-12-01T00:00:00+00:00", "a known day");
	}
	return tap_done();
}
