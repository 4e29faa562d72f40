/*
 * test_log.c: the access line that server/log.c puts together without
 * printf, and its time stamp whose seconds are formatted once a second a
 * thread, against the line libc writes: gmtime_r and strftime for the
 * seconds, snprintf for the milliseconds and for the line (log_msg's
 * format, as log_access wrote it before), cut where log_msg cut it.
 * Random fields (methods, paths with any byte, statuses, durations, ids,
 * clients, notes long enough to be cut) and times either side of
 * second, minute, day, month and year boundaries, leap days included,
 * in years 1 to 9999; the stamps again on two threads at once, each with
 * its own kept second.
 */
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log.h"
#include "tap.h"
#include "xorshift.h"

/* 0001-01-01T00:00:00 and 9999-12-31T23:59:59. */
#define FIRST_SEC (-62135596800LL)
#define LAST_SEC  253402300799LL

/* The stamp as libc writes it (log.c's stamp before f649b68). */
static size_t
ref_stamp(char out[64], const struct timespec *ts)
{
	struct tm tm;
	size_t n;

	gmtime_r(&ts->tv_sec, &tm);
	n = strftime(out, 32, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(out + n, 32 - n, ".%03ldZ", ts->tv_nsec / 1000000);
	return strlen(out);
}

/* The access line as log_access wrote it through log_msg before f649b68:
 * the stamp, " info ", the message, cut to 2046 bytes, and '\n'. */
static size_t
ref_line(char *out, const struct timespec *ts, const char *method, const char *path, int status,
    long long us, const char *id, const char *client, const char *note)
{
	char line[LOG_LINE_MAX], escaped[512];
	size_t n;
	int m;

	n = ref_stamp(line, ts);
	m = snprintf(line + n, sizeof line - n, " %s ", "info");
	n += (size_t)m;
	log_escape(path, escaped, sizeof escaped);
	if (status > 0)
		m = snprintf(line + n, sizeof line - n, "access %s %s %d %lldus id=%s from %s%s%s", method,
		    escaped, status, us, id ? id : "-", client, note ? " " : "", note ? note : "");
	else
		m = snprintf(line + n, sizeof line - n, "access %s %s - %lldus id=%s from %s%s%s", method,
		    escaped, us, id ? id : "-", client, note ? " " : "", note ? note : "");
	n += (size_t)m;
	if (n > sizeof line - 2)
		n = sizeof line - 2;
	line[n++] = '\n';
	memcpy(out, line, n);
	return n;
}

static int
is_leap(long long y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

/* A second near a calendar boundary: the first second of a random
 * minute, hour, day, month or year (1 March after a leap day, the leap
 * day itself), give or take one. */
static time_t
near_boundary(uint64_t *rng)
{
	static const int mdays[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	struct tm tm;
	long long y = 1 + xorshift_below(rng, 9999);
	time_t t;

	memset(&tm, 0, sizeof tm);
	switch (xorshift_below(rng, 6)) {
	case 0: /* a year's first second */
		tm.tm_mday = 1;
		break;
	case 1: /* a leap day, or the day after it */
		while (!is_leap(y))
			y = 4 * (1 + xorshift_below(rng, 2499));
		tm.tm_mon = 1;
		tm.tm_mday = 29;
		if (xorshift_below(rng, 2))
			tm.tm_mon = 2, tm.tm_mday = 1;
		break;
	case 2: { /* a month's last day, then its first */
		int mon = (int)xorshift_below(rng, 12);

		tm.tm_mon = mon;
		tm.tm_mday = mdays[mon] + (mon == 1 && is_leap(y));
		tm.tm_hour = 23, tm.tm_min = 59, tm.tm_sec = 59;
		break;
	}
	default: /* a minute's, an hour's or a day's first second */
		tm.tm_mon = (int)xorshift_below(rng, 12);
		tm.tm_mday = 1 + (int)xorshift_below(rng, 28);
		tm.tm_hour = (int)xorshift_below(rng, 24);
		tm.tm_min = (int)xorshift_below(rng, 60);
		break;
	}
	tm.tm_year = (int)(y - 1900);
	t = timegm(&tm);
	if (t < FIRST_SEC + 1)
		t = FIRST_SEC + 1;
	if (t > LAST_SEC - 1)
		t = LAST_SEC - 1;
	return t + (time_t)xorshift_below(rng, 3) - 1;
}

/* The next time of a sequence: mostly the same second again (the kept
 * text), the next one, a boundary, any second, or back in time. */
static void
next_time(uint64_t *rng, struct timespec *ts)
{
	switch (xorshift_below(rng, 8)) {
	case 0: case 1: case 2:
		break;
	case 3:
		ts->tv_sec++;
		break;
	case 4: case 5:
		ts->tv_sec = near_boundary(rng);
		break;
	case 6:
		ts->tv_sec = (time_t)(FIRST_SEC + (long long)(xorshift_next(rng) %
		    (uint64_t)(LAST_SEC - FIRST_SEC + 1)));
		break;
	default:
		ts->tv_sec -= (time_t)xorshift_below(rng, 100000);
		break;
	}
	if (ts->tv_sec < FIRST_SEC || ts->tv_sec > LAST_SEC)
		ts->tv_sec = 0;
	switch (xorshift_below(rng, 6)) {
	case 0:
		ts->tv_nsec = 0;
		break;
	case 1:
		ts->tv_nsec = 999999999;
		break;
	case 2:
		ts->tv_nsec = 1000000L * (long)xorshift_below(rng, 1000) - (long)xorshift_below(rng, 2);
		if (ts->tv_nsec < 0)
			ts->tv_nsec = 0;
		break;
	default:
		ts->tv_nsec = (long)xorshift_below(rng, 1000000000);
		break;
	}
}

struct stamp_run {
	uint64_t      seed;
	unsigned long n, apart;
	char          first_apart[160];
};

/* n stamps of one sequence on the calling thread against ref_stamp. */
static void *
stamps(void *arg)
{
	struct stamp_run *r = arg;
	uint64_t rng = r->seed;
	struct timespec ts = { 0, 0 };
	unsigned long i;

	for (i = 0; i < r->n; i++) {
		char a[32], b[64];
		size_t na, nb;

		next_time(&rng, &ts);
		na = log_stamp_at(a, &ts);
		nb = ref_stamp(b, &ts);
		if (na != nb || strcmp(a, b) != 0) {
			if (r->apart++ == 0)
				snprintf(r->first_apart, sizeof r->first_apart, "%lld.%09ld: %s, not %s",
				    (long long)ts.tv_sec, ts.tv_nsec, a, b);
		}
	}
	return NULL;
}

/* One stamp at 1969-12-31T23:59:59.250 on a fresh thread. */
static void *
first_second(void *arg)
{
	struct stamp_run *r = arg;
	struct timespec ts = { -1, 250000000 };
	char a[32], b[64];

	log_stamp_at(a, &ts);
	ref_stamp(b, &ts);
	if (strcmp(a, b) != 0) {
		r->apart++;
		snprintf(r->first_apart, sizeof r->first_apart, "%s, not %s", a, b);
	}
	return NULL;
}

/* A random string of up to max bytes from one of a few alphabets: any
 * byte but NUL, printable ASCII, or the bytes log_escape writes as \xHH. */
static const char *
rand_text(uint64_t *rng, char *buf, size_t max)
{
	size_t n = max > 0 ? xorshift_below(rng, (uint32_t)max + 1) : 0, i;
	uint32_t kind = xorshift_below(rng, 3);

	for (i = 0; i < n; i++) {
		uint32_t c = kind == 0 ? 1 + xorshift_below(rng, 255) :
		    kind == 1 ? 0x20 + xorshift_below(rng, 0x5f) :
		    (xorshift_below(rng, 2) ? xorshift_below(rng, 0x20) | 1 : 0x5c + 0x23 *
		    xorshift_below(rng, 2));
		buf[i] = (char)(c == 0 ? 1 : c);
	}
	buf[n] = '\0';
	return buf;
}

int
main(int argc, char **argv)
{
	unsigned long lines = argc > 1 ? strtoul(argv[1], NULL, 10) : 100000, i, apart = 0, cut = 0;
	uint64_t rng = 0x9e3779b97f4a7c15u;
	char first_apart[LOG_LINE_MAX * 3] = "";

	/* The stamps: one sequence here, then two at once on two threads. */
	{
		struct stamp_run main_run = { 0x1234567u, 3 * lines, 0, "" };
		struct stamp_run runs[2] = { { 0xfeedfaceu, 3 * lines, 0, "" },
			{ 0xdeadbeefu, 3 * lines, 0, "" } };
		pthread_t th[2];
		int started = 0, k;

		stamps(&main_run);
		ok(main_run.apart == 0, "log_stamp_at writes what gmtime_r, strftime and snprintf write "
		    "(%lu times, %lu apart)%s%s", main_run.n, main_run.apart, main_run.apart ? ": " : "",
		    main_run.first_apart);
		for (k = 0; k < 2; k++)
			started += pthread_create(&th[k], NULL, stamps, &runs[k]) == 0;
		for (k = 0; k < started; k++)
			pthread_join(th[k], NULL);
		ok(started == 2 && runs[0].apart == 0 && runs[1].apart == 0,
		    "and on two threads at once, each keeping its own second (%lu and %lu apart)%s%s%s",
		    runs[0].apart, runs[1].apart, runs[0].first_apart[0] || runs[1].first_apart[0] ?
		    ": " : "", runs[0].first_apart, runs[1].first_apart);
	}
	{
		/* A thread's first stamp at second -1 (1969-12-31T23:59:59), the
		 * value that marks its kept second as none yet. */
		struct stamp_run first = { 0, 0, 0, "" };
		pthread_t th;
		int ran = pthread_create(&th, NULL, first_second, &first) == 0 &&
		    pthread_join(th, NULL) == 0;

		ok(ran && first.apart == 0, "a thread's first stamp at second -1%s%s",
		    first.apart ? ": " : "", first.first_apart);
	}
	{
		struct timespec ts = { 951782400, 5000000 }; /* 2000-02-29 */
		char a[32];

		log_stamp_at(a, &ts);
		is_str(a, "2000-02-29T00:00:00.005Z", "a known leap day");
	}

	/* The lines. */
	{
		static const char *const methods[] = { "GET", "HEAD", "POST", "PUT", "DELETE", "PATCH",
			"OPTIONS", "BREW" };
		static const char *const notes[] = { "timeout", "client gone", "body too large",
			"refused at the headers" };
		static char method[64], path[800], id[64], client[80], note[2600];
		struct timespec ts = { 1764547200, 0 };

		for (i = 0; i < lines; i++) {
			char a[LOG_LINE_MAX], b[LOG_LINE_MAX];
			const char *m, *p, *idp, *cl, *nt;
			int status;
			long long us;
			size_t na, nb;

			next_time(&rng, &ts);
			m = xorshift_below(&rng, 8) ? methods[xorshift_below(&rng, 8)] :
			    rand_text(&rng, method, sizeof method - 1);
			p = rand_text(&rng, path, xorshift_below(&rng, 4) ? 80 : sizeof path - 1);
			switch (xorshift_below(&rng, 6)) {
			case 0:
				status = 0;
				break;
			case 1:
				status = (int)(int32_t)xorshift_next(&rng);
				break;
			case 2:
				status = xorshift_below(&rng, 2) ? INT_MAX : INT_MIN;
				break;
			default:
				status = 100 + (int)xorshift_below(&rng, 500);
				break;
			}
			switch (xorshift_below(&rng, 5)) {
			case 0:
				us = xorshift_below(&rng, 2) ? LLONG_MAX : LLONG_MIN;
				break;
			case 1:
				us = (long long)(int64_t)xorshift_next(&rng);
				break;
			default:
				us = (long long)(xorshift_next(&rng) >> xorshift_below(&rng, 64));
				break;
			}
			idp = xorshift_below(&rng, 4) == 0 ? NULL : rand_text(&rng, id, sizeof id - 1);
			if (xorshift_below(&rng, 3) == 0)
				cl = rand_text(&rng, client, sizeof client - 1);
			else {
				snprintf(client, sizeof client, "%u.%u.%u.%u", xorshift_below(&rng, 256),
				    xorshift_below(&rng, 256), xorshift_below(&rng, 256),
				    xorshift_below(&rng, 256));
				cl = client;
			}
			switch (xorshift_below(&rng, 6)) {
			case 0: case 1:
				nt = NULL;
				break;
			case 2:
				/* long enough to pass the line's end */
				nt = rand_text(&rng, note, sizeof note - 1);
				break;
			default:
				nt = notes[xorshift_below(&rng, 4)];
				break;
			}
			na = log_access_line(a, &ts, m, p, status, us, idp, cl, nt);
			nb = ref_line(b, &ts, m, p, status, us, idp, cl, nt);
			cut += nb == LOG_LINE_MAX - 1;
			if (na != nb || memcmp(a, b, nb) != 0) {
				if (apart++ == 0) {
					char ea[LOG_LINE_MAX + 8], eb[LOG_LINE_MAX + 8];

					a[na < sizeof a ? na : sizeof a - 1] = '\0';
					b[nb - 1] = '\0';
					log_escape(a, ea, sizeof ea);
					log_escape(b, eb, sizeof eb);
					snprintf(first_apart, sizeof first_apart, ": %s (%zu bytes), not %s (%zu)",
					    ea, na, eb, nb);
				}
			}
		}
		ok(apart == 0, "log_access_line writes what snprintf wrote (%lu lines, %lu cut at the "
		    "end, %lu apart)%s", lines, cut, apart, first_apart);
		ok(cut > lines / 100, "some lines were long enough to be cut (%lu)", cut);
	}
	{
		struct timespec ts = { 1764547200, 123456789 };
		char a[LOG_LINE_MAX];
		size_t n = log_access_line(a, &ts, "GET", "/a\nb", 200, 1500, NULL, "10.0.0.1", NULL);

		a[n] = '\0';
		is_str(a, "2025-12-01T00:00:00.123Z info access GET /a\\x0ab 200 1500us id=- from "
		    "10.0.0.1\n", "a known line");
	}
	return tap_done();
}
