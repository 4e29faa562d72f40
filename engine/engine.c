/*
 * engine.c: helpers shared by the game modules. Formatting a refusal reason
 * is the only thing here; vsnprintf writes into the caller's buffer and
 * neither allocates nor touches a stream.
 */
#include "engine.h"

#include <stdarg.h>
#include <stdio.h>

_Bool
engine_refuse(char *buf, size_t cap, const char *fmt, ...)
{
	va_list ap;

	if (buf == NULL || cap == 0)
		return 0;
	va_start(ap, fmt);
	vsnprintf(buf, cap, fmt, ap);
	va_end(ap);
	return 0;
}
