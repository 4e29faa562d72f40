/*
 * engine.c: helpers shared by the game modules: formatting a refusal reason
 * (vsnprintf writes into the caller's buffer and neither allocates nor
 * touches a stream), the sentence of a successful move, and the
 * little-endian fields and checksum of the serialisations.
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

size_t
engine_put_decimal(char *out, uint64_t v)
{
	char digits[20];
	size_t n = 0, i;

	do {
		digits[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	for (i = 0; i < n; i++)
		out[i] = digits[n - 1 - i];
	return n;
}

/* CRC-16/CCITT-FALSE (poly 0x1021, init 0xffff). */
uint16_t
engine_crc16(const uint8_t *p, size_t n)
{
	uint16_t crc = 0xffff;
	int bit;

	while (n-- > 0) {
		crc = (uint16_t)(crc ^ (uint16_t)*p++ << 8);
		for (bit = 0; bit < 8; bit++)
			crc = (uint16_t)(crc & 0x8000 ? (crc << 1) ^ 0x1021 : crc << 1);
	}
	return crc;
}

struct engine_msg
engine_msg_start(char *buf, size_t cap)
{
	struct engine_msg m = { buf, buf != NULL ? cap : 0, 0 };

	if (m.cap > 0)
		buf[0] = '\0';
	return m;
}

void
engine_msg_str(struct engine_msg *m, const char *s)
{
	for (; *s != '\0'; s++)
		if (m->len + 1 < m->cap)
			m->buf[m->len++] = *s;
	if (m->cap > 0)
		m->buf[m->len] = '\0';
}

void
engine_msg_uint(struct engine_msg *m, uint64_t v)
{
	char digits[21];
	size_t i = sizeof digits - 1;

	digits[i] = '\0';
	do {
		digits[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	engine_msg_str(m, digits + i);
}

void
engine_msg_char(struct engine_msg *m, char c)
{
	char s[2] = { c, '\0' };

	engine_msg_str(m, s);
}
