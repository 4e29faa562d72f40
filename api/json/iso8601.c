/*
 * iso8601.c: the civil date of a day count and back (Howard Hinnant's
 * days-from-civil and its inverse), so that api/ formats and reads times
 * without the C library's time zone machinery.
 */
#include "iso8601.h"
#include "jw.h"

#include <stdio.h>
#include <string.h>

#include "numtext.h"

/* digits at s[0..n) as a number; -1 when one is not a digit. */
static int64_t
digits(const char *s, int n)
{
	int64_t v = 0;
	int i;

	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

bool
iso8601_parse(const char *text, int64_t *secs)
{
	int64_t y, m, d, hh, mm, ss, yoe, doy, doe, era;
	static const int mdays[12] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	size_t n = strlen(text);

	if (n < 20 || text[4] != '-' || text[7] != '-' || text[10] != 'T' || text[13] != ':' ||
	    text[16] != ':')
		return false;
	if (!(n == 20 && text[19] == 'Z') && !(n == 25 && strcmp(text + 19, "+00:00") == 0))
		return false;
	y = digits(text, 4);
	m = digits(text + 5, 2);
	d = digits(text + 8, 2);
	hh = digits(text + 11, 2);
	mm = digits(text + 14, 2);
	ss = digits(text + 17, 2);
	if (y < 1970 || m < 1 || m > 12 || d < 1 || d > mdays[m - 1] || hh > 23 || mm > 59 || ss > 59 ||
	    hh < 0 || mm < 0 || ss < 0)
		return false;
	if (m == 2 && d == 29 && !(y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)))
		return false;
	y -= m <= 2;
	era = y / 400;
	yoe = y - era * 400;
	doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	*secs = (era * 146097 + doe - 719468) * 86400 + hh * 3600 + mm * 60 + ss;
	return true;
}

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
	if (y >= 0 && y <= 9999 && cap >= 26) {
		char *o = out;

		o += numtext_padded(o, y, 4);
		*o++ = '-';
		o += numtext_padded(o, m, 2);
		*o++ = '-';
		o += numtext_padded(o, d, 2);
		*o++ = 'T';
		o += numtext_padded(o, rem / 3600, 2);
		*o++ = ':';
		o += numtext_padded(o, rem / 60 % 60, 2);
		*o++ = ':';
		o += numtext_padded(o, rem % 60, 2);
		memcpy(o, "+00:00", 7);
		return;
	}
	snprintf(out, cap, "%04lld-%02lld-%02lldT%02lld:%02lld:%02lld+00:00", (long long)y,
	    (long long)m, (long long)d, (long long)(rem / 3600), (long long)(rem / 60 % 60),
	    (long long)(rem % 60));
}

json_t *
iso8601_ms_json(int64_t ms)
{
	char text[ISO8601_MAX];

	if (ms <= 0)
		return json_null();
	iso8601_format(text, sizeof text, ms / 1000);
	return json_string(text);
}

void
iso8601_ms_write(struct jw *w, int64_t ms)
{
	char text[ISO8601_MAX];

	if (ms <= 0) {
		jw_null(w);
		return;
	}
	iso8601_format(text, sizeof text, ms / 1000);
	jw_string(w, text);
}

void
iso8601_ms_member(struct jw *w, const char *key, int64_t ms)
{
	jw_key(w, key);
	iso8601_ms_write(w, ms);
}
