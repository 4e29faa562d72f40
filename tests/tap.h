/*
 * tap.h: a tiny Test Anything Protocol harness for the unit tests.
 *
 * Each test program includes this header once, calls ok()/is_int()/is_str()
 * as it goes and ends with `return tap_done();`, which prints the plan and
 * turns any failure into a non-zero exit status. meson runs the programs
 * with protocol 'tap', so every assertion is counted on its own.
 */
#ifndef TAP_H
#define TAP_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_run, tap_failed;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3), unused))
#endif
static int
ok(int cond, const char *fmt, ...)
{
	va_list ap;

	tap_run++;
	if (!cond)
		tap_failed++;
	printf("%sok %d - ", cond ? "" : "not ", tap_run);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	return cond;
}

#if defined(__GNUC__)
__attribute__((format(printf, 1, 2), unused))
#endif
static void
diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

#define is_int(got, want, ...) tap_is_int((int64_t)(got), (int64_t)(want), __VA_ARGS__)

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4), unused))
#endif
static int
tap_is_int(int64_t got, int64_t want, const char *fmt, ...)
{
	char name[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(name, sizeof name, fmt, ap);
	va_end(ap);
	if (!ok(got == want, "%s", name)) {
		diag("     got: %" PRId64, got);
		diag("expected: %" PRId64, want);
		return 0;
	}
	return 1;
}

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4), unused))
#endif
static int
is_str(const char *got, const char *want, const char *fmt, ...)
{
	char name[512];
	va_list ap;
	int same;

	va_start(ap, fmt);
	vsnprintf(name, sizeof name, fmt, ap);
	va_end(ap);
	same = got != NULL && want != NULL && strcmp(got, want) == 0;
	if (!ok(same, "%s", name)) {
		diag("     got: %s", got ? got : "(null)");
		diag("expected: %s", want ? want : "(null)");
		return 0;
	}
	return 1;
}

static int __attribute__((unused))
tap_done(void)
{
	printf("1..%d\n", tap_run);
	if (tap_run == 0) {
		printf("# no assertions ran\n");
		return 1;
	}
	if (tap_failed)
		printf("# %d of %d failed\n", tap_failed, tap_run);
	return tap_failed ? 1 : 0;
}

#endif
