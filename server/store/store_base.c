/*
 * store_base.c: the store's log (store_base.h): the program's, once it
 * has set one, else lines on stderr, each one write(2) so that threads
 * never interleave them.
 */
#include "store_base.h"

#include <stdio.h>
#include <unistd.h>

#if defined(__GNUC__)
__attribute__((format(printf, 3, 0)))
#endif
static void stderr_msg(void *ctx, enum store_log_level level, const char *fmt, va_list ap);

static struct store_log current = { stderr_msg, NULL };

static void
stderr_msg(void *ctx, enum store_log_level level, const char *fmt, va_list ap)
{
	static const char *const names[] = { "error", "warn", "info", "debug" };
	char line[2048];
	size_t n = 0;
	int m;

	(void)ctx;
	if (level > STORE_LOG_INFO)
		goto done;
	m = snprintf(line, sizeof line, "store %s ", names[level]);
	if (m > 0)
		n = (size_t)m;
	m = vsnprintf(line + n, sizeof line - n, fmt, ap);
	if (m > 0)
		n += (size_t)m;
	if (n > sizeof line - 2)
		n = sizeof line - 2;
	line[n++] = '\n';
	if (write(STDERR_FILENO, line, n) < 0) {
		/* Nowhere left to report it. */
	}
done:
	return;
}

void
store_set_log(const struct store_log *log)
{
	static const struct store_log fallback = { stderr_msg, NULL };

	current = log != NULL && log->msg != NULL ? *log : fallback;
}

void
store_log_msg(enum store_log_level level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	current.msg(current.ctx, level, fmt, ap);
	va_end(ap);
}
