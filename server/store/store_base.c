/*
 * store_base.c: the store's log (store_base.h): the program's, once it
 * has set one (the daemon's goes to log.c), else lines on stderr, the
 * stream locked for each so that threads never interleave them.
 */
#include "store_base.h"

#include <stdio.h>

#if defined(__GNUC__)
__attribute__((format(printf, 3, 0)))
#endif
static void stderr_msg(void *ctx, enum store_log_level level, const char *fmt, va_list ap);

static struct store_log current = { stderr_msg, NULL };

static void
stderr_msg(void *ctx, enum store_log_level level, const char *fmt, va_list ap)
{
	static const char *const names[] = { "error", "warn", "info", "debug" };

	(void)ctx;
	if (level > STORE_LOG_INFO)
		return;
	flockfile(stderr);
	fprintf(stderr, "store %s ", names[level]);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	funlockfile(stderr);
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
