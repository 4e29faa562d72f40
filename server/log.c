/*
 * log.c: timestamped lines on stderr. The level is set once at start-up and
 * read by every thread, hence the atomic.
 */
#include "log.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static _Atomic int current_level = LOG_INFO;

static const char *const level_names[] = { "error", "warn", "info", "debug" };

void
log_set_level(enum log_level level)
{
	atomic_store(&current_level, (int)level);
}

enum log_level
log_get_level(void)
{
	return (enum log_level)atomic_load(&current_level);
}

void
log_escape(const char *in, char *out, size_t cap)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = 0;

	if (cap == 0)
		return;
	for (; *in != '\0'; in++) {
		unsigned char c = (unsigned char)*in;
		size_t need = c >= 0x20 && c < 0x7f && c != '\\' ? 1 : 4;

		if (n + need + 4 > cap) {
			if (n + 4 <= cap)
				memcpy(out + n, "...", 3), n += 3;
			break;
		}
		if (need == 1)
			out[n++] = (char)c;
		else {
			out[n++] = '\\';
			out[n++] = 'x';
			out[n++] = hex[c >> 4];
			out[n++] = hex[c & 15];
		}
	}
	out[n] = '\0';
}

void
log_msg(enum log_level level, const char *fmt, ...)
{
	char line[2048];
	struct timespec ts;
	struct tm tm;
	size_t n;
	int m;
	va_list ap;

	if ((int)level > atomic_load(&current_level))
		return;
	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	n = strftime(line, sizeof line, "%Y-%m-%dT%H:%M:%S", &tm);
	m = snprintf(line + n, sizeof line - n, ".%03ldZ %s ", ts.tv_nsec / 1000000,
	    level_names[level]);
	if (m > 0)
		n += (size_t)m;
	va_start(ap, fmt);
	m = vsnprintf(line + n, sizeof line - n, fmt, ap);
	va_end(ap);
	if (m < 0)
		m = 0;
	n += (size_t)m;
	if (n > sizeof line - 2)
		n = sizeof line - 2;
	line[n++] = '\n';
	if (write(STDERR_FILENO, line, n) < 0) {
		/* Nowhere left to report it. */
	}
}

void
fatal(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	fprintf(stderr, "arcaded: %s\n", msg);
	exit(1);
}
