/*
 * test_numtext.c: the printf-free number text (api/json/numtext.h) against
 * snprintf, and iso8601_format, which uses it, against gmtime_r's fields,
 * on random values, the extremes and the years a time stamp can reach
 * either side of 0000-9999; numtext_ipv4 against inet_ntop.
 */
#include <arpa/inet.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "iso8601.h"
#include "numtext.h"
#include "tap.h"
#include "xorshift.h"

/* The same text from libc's calendar: gmtime_r's fields, printed. */
static void
reference(char *out, size_t cap, int64_t secs)
{
	time_t t = (time_t)secs;
	struct tm tm;

	gmtime_r(&t, &tm);
	snprintf(out, cap, "%04lld-%02d-%02dT%02d:%02d:%02d+00:00", (long long)tm.tm_year + 1900,
	    tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
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
	ok(stamps_apart == 0, "iso8601_format writes what gmtime_r's fields print (%lu times from "
	    "year -1200 to 10700, %lu apart)", stamps, stamps_apart);
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
