/*
 * iso8601.c: the civil date of a day count (Howard Hinnant's days-from-
 * civil inverse), so that api/ formats times without the C library's
 * time zone machinery.
 */
#include "iso8601.h"

#include <stdio.h>

void
iso8601_format(char *out, size_t cap, int64_t secs)
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
