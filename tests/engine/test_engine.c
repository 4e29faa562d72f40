/*
 * test_engine.c: the helpers every game module shares (engine.c), each
 * against an independent definition: the CRC-16 against the bit at a time
 * division written here from the parameters (poly 0x1021, init 0xffff, no
 * reflection, no final xor) and the catalogue's check value for "123456789"
 * (0x29b1); the decimal writer against snprintf; the move sentence's
 * truncation and its NULL buffer; the little-endian fields round trip.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "tap.h"

static uint16_t
crc_bitwise(const uint8_t *p, size_t n)
{
	uint16_t crc = 0xffff;
	size_t i;
	int bit;

	for (i = 0; i < n; i++) {
		crc ^= (uint16_t)(p[i] << 8);
		for (bit = 0; bit < 8; bit++)
			crc = (crc & 0x8000) ? (uint16_t)((crc << 1) ^ 0x1021) : (uint16_t)(crc << 1);
	}
	return crc;
}

/* A small deterministic generator, so a failure repeats. */
static uint64_t
next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* CRC-32 by its definition, a bit at a time. */
static uint32_t
crc32_bitwise(const uint8_t *p, size_t n)
{
	uint32_t c = 0xffffffffu;
	int k;

	while (n-- > 0) {
		c ^= *p++;
		for (k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
	}
	return ~c;
}

int
main(void)
{
	static const uint64_t values[] = { 0, 1, 9, 10, 99, 100, 12345, UINT32_MAX,
		UINT64_C(9007199254740991), UINT64_MAX };
	uint8_t buf[600];
	uint64_t s = 0x9e3779b97f4a7c15u;
	char text[32], want[32], msg[12];
	struct engine_msg m;
	size_t i, n, len, bad = 0;

	is_int(engine_crc16((const uint8_t *)"123456789", 9), 0x29b1,
	    "CRC-16/CCITT-FALSE of \"123456789\" is the catalogue's check value 0x29b1");
	is_int(engine_crc16(buf, 0), 0xffff, "the CRC of nothing is the initial value");
	for (i = 0; i < 20000; i++) {
		n = (size_t)(next(&s) % sizeof buf);
		for (len = 0; len < n; len++)
			buf[len] = (uint8_t)next(&s);
		if (engine_crc16(buf, n) != crc_bitwise(buf, n))
			bad++;
	}
	is_int(bad, 0, "the table-driven CRC equals the bit at a time division on 20000 random inputs "
	    "of 0-599 bytes");
	is_int(engine_crc32((const uint8_t *)"123456789", 9), 0xcbf43926,
	    "CRC-32 of \"123456789\" is the catalogue's check value 0xcbf43926");
	bad = 0;
	for (i = 0; i < 20000; i++) {
		n = (size_t)(next(&s) % sizeof buf);
		for (len = 0; len < n; len++)
			buf[len] = (uint8_t)next(&s);
		if (engine_crc32(buf, n) != crc32_bitwise(buf, n))
			bad++;
	}
	is_int(bad, 0, "the table-driven CRC-32 equals the bit at a time division on 20000 random "
	    "inputs of 0-599 bytes");

	bad = 0;
	for (i = 0; i < sizeof values / sizeof values[0]; i++) {
		n = engine_put_decimal(text, values[i]);
		text[n] = '\0';
		snprintf(want, sizeof want, "%llu", (unsigned long long)values[i]);
		bad += strcmp(text, want) != 0;
	}
	for (i = 0; i < 10000; i++) {
		uint64_t v = next(&s) >> (next(&s) % 64);

		n = engine_put_decimal(text, v);
		text[n] = '\0';
		snprintf(want, sizeof want, "%llu", (unsigned long long)v);
		bad += strcmp(text, want) != 0;
	}
	is_int(bad, 0, "engine_put_decimal writes what snprintf's %%llu writes (edges and 10000 random values)");

	m = engine_msg_start(msg, sizeof msg);
	engine_msg_str(&m, "placed ");
	engine_msg_char(&m, 'T');
	engine_msg_str(&m, " at ");
	engine_msg_uint(&m, 123456);
	is_str(msg, "placed T at", "a sentence longer than its buffer is cut, NUL-terminated");
	m = engine_msg_start(NULL, 40);
	engine_msg_str(&m, "nothing");
	engine_msg_uint(&m, 7);
	ok(m.len == 0 && m.cap == 0, "with no buffer the appender writes nothing");

	engine_put_le(buf, UINT64_C(0x0102030405060708), 8);
	ok(buf[0] == 8 && buf[7] == 1 && engine_get_le(buf, 8) == UINT64_C(0x0102030405060708) &&
	    engine_get_le(buf, 3) == 0x060708, "little-endian fields round trip, low bytes first");
	return tap_done();
}
