/*
 * engine.c: helpers shared by the game modules: formatting a refusal reason
 * (vsnprintf writes into the caller's buffer and neither allocates nor
 * touches a stream) and the little-endian fields of the serialisations.
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

void
engine_put_le(uint8_t *p, uint64_t v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

uint64_t
engine_get_le(const uint8_t *p, int n)
{
	uint64_t v = 0;
	int i;

	for (i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}
