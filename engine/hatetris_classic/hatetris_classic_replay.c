/*
 * hatetris_classic_replay.c: the four replay encodings of the original
 * HATETRIS (see hatetris_classic_replay.h).
 *
 * Every decoder streams: it reads one code point at a time (strict UTF-8:
 * no overlong forms, no surrogates, nothing past U+10FFFF), turns it into
 * bytes or keys and writes keys as they come, counting those that do not
 * fit. The encoders stream the same way from keys to run-length nybbles to
 * bytes to characters. The Base2048 alphabet is kept as its 221 ranges of
 * code points (npm base2048 3.0.0); a character's value is found by a
 * binary search over them. Base65536 (npm base65536 5.0.0) needs only the
 * starts of its 256 blocks, which follow a short rule.
 */
#include "hatetris_classic_replay.h"

#include "hatetris_classic.h"

#include <string.h>

struct range {
	uint16_t lo, hi;
};

/* Base2048's 2048 characters, ascending, as inclusive ranges. */
static const struct range b2048[] = {
	{ 0x0038, 0x0039 }, { 0x0041, 0x005a }, { 0x0061, 0x007a }, { 0x00c6, 0x00c6 },
	{ 0x00d0, 0x00d0 }, { 0x00d8, 0x00d8 }, { 0x00de, 0x00df }, { 0x00e6, 0x00e6 },
	{ 0x00f0, 0x00f0 }, { 0x00f8, 0x00f8 }, { 0x00fe, 0x00fe }, { 0x0110, 0x0111 },
	{ 0x0126, 0x0127 }, { 0x0131, 0x0131 }, { 0x0138, 0x0138 }, { 0x0141, 0x0142 },
	{ 0x014a, 0x014b }, { 0x0152, 0x0153 }, { 0x0166, 0x0167 }, { 0x0180, 0x019f },
	{ 0x01a2, 0x01ae }, { 0x01b1, 0x01c3 }, { 0x01dd, 0x01dd }, { 0x01e4, 0x01e5 },
	{ 0x01f6, 0x01f7 }, { 0x021c, 0x021d }, { 0x0220, 0x0225 }, { 0x0234, 0x02af },
	{ 0x0370, 0x0373 }, { 0x0376, 0x0377 }, { 0x037b, 0x037d }, { 0x037f, 0x037f },
	{ 0x0391, 0x03a1 }, { 0x03a3, 0x03a9 }, { 0x03b1, 0x03c9 }, { 0x03cf, 0x03cf },
	{ 0x03d7, 0x03ef }, { 0x03f3, 0x03f3 }, { 0x03f7, 0x03f8 }, { 0x03fa, 0x03ff },
	{ 0x0402, 0x0402 }, { 0x0404, 0x0406 }, { 0x0408, 0x040b }, { 0x040f, 0x0418 },
	{ 0x041a, 0x0438 }, { 0x043a, 0x044f }, { 0x0452, 0x0452 }, { 0x0454, 0x0456 },
	{ 0x0458, 0x045b }, { 0x045f, 0x0475 }, { 0x0478, 0x0481 }, { 0x048a, 0x04c0 },
	{ 0x04c3, 0x04cf }, { 0x04d4, 0x04d5 }, { 0x04d8, 0x04d9 }, { 0x04e0, 0x04e1 },
	{ 0x04e8, 0x04e9 }, { 0x04f6, 0x04f7 }, { 0x04fa, 0x052f }, { 0x0531, 0x0556 },
	{ 0x0561, 0x0586 }, { 0x05d0, 0x05ea }, { 0x05f0, 0x05f2 }, { 0x0620, 0x0621 },
	{ 0x0627, 0x063f }, { 0x0641, 0x064a }, { 0x0660, 0x0669 }, { 0x066e, 0x066f },
	{ 0x0671, 0x0674 }, { 0x0679, 0x06bf }, { 0x06c1, 0x06c1 }, { 0x06c3, 0x06d2 },
	{ 0x06d5, 0x06d5 }, { 0x06ee, 0x06fc }, { 0x06ff, 0x06ff }, { 0x0710, 0x0710 },
	{ 0x0712, 0x072f }, { 0x074d, 0x07a5 }, { 0x07b1, 0x07b1 }, { 0x07c0, 0x07ea },
	{ 0x0800, 0x0815 }, { 0x0840, 0x0858 }, { 0x0860, 0x086a }, { 0x08a0, 0x08b4 },
	{ 0x08b6, 0x08bd }, { 0x0904, 0x0928 }, { 0x092a, 0x0930 }, { 0x0932, 0x0933 },
	{ 0x0935, 0x0939 }, { 0x093d, 0x093d }, { 0x0950, 0x0950 }, { 0x0960, 0x0961 },
	{ 0x0966, 0x096f }, { 0x0972, 0x0980 }, { 0x0985, 0x098c }, { 0x098f, 0x0990 },
	{ 0x0993, 0x09a8 }, { 0x09aa, 0x09b0 }, { 0x09b2, 0x09b2 }, { 0x09b6, 0x09b9 },
	{ 0x09bd, 0x09bd }, { 0x09ce, 0x09ce }, { 0x09e0, 0x09e1 }, { 0x09e6, 0x09f1 },
	{ 0x09f4, 0x09f9 }, { 0x09fc, 0x09fc }, { 0x0a05, 0x0a0a }, { 0x0a0f, 0x0a10 },
	{ 0x0a13, 0x0a28 }, { 0x0a2a, 0x0a30 }, { 0x0a32, 0x0a32 }, { 0x0a35, 0x0a35 },
	{ 0x0a38, 0x0a39 }, { 0x0a5c, 0x0a5c }, { 0x0a66, 0x0a6f }, { 0x0a72, 0x0a74 },
	{ 0x0a85, 0x0a8d }, { 0x0a8f, 0x0a91 }, { 0x0a93, 0x0aa8 }, { 0x0aaa, 0x0ab0 },
	{ 0x0ab2, 0x0ab3 }, { 0x0ab5, 0x0ab9 }, { 0x0abd, 0x0abd }, { 0x0ad0, 0x0ad0 },
	{ 0x0ae0, 0x0ae1 }, { 0x0ae6, 0x0aef }, { 0x0af9, 0x0af9 }, { 0x0b05, 0x0b0c },
	{ 0x0b0f, 0x0b10 }, { 0x0b13, 0x0b28 }, { 0x0b2a, 0x0b30 }, { 0x0b32, 0x0b33 },
	{ 0x0b35, 0x0b39 }, { 0x0b3d, 0x0b3d }, { 0x0b5f, 0x0b61 }, { 0x0b66, 0x0b6f },
	{ 0x0b71, 0x0b77 }, { 0x0b83, 0x0b83 }, { 0x0b85, 0x0b8a }, { 0x0b8e, 0x0b90 },
	{ 0x0b92, 0x0b93 }, { 0x0b95, 0x0b95 }, { 0x0b99, 0x0b9a }, { 0x0b9c, 0x0b9c },
	{ 0x0b9e, 0x0b9f }, { 0x0ba3, 0x0ba4 }, { 0x0ba8, 0x0baa }, { 0x0bae, 0x0bb9 },
	{ 0x0bd0, 0x0bd0 }, { 0x0be6, 0x0bf2 }, { 0x0c05, 0x0c0c }, { 0x0c0e, 0x0c10 },
	{ 0x0c12, 0x0c28 }, { 0x0c2a, 0x0c39 }, { 0x0c3d, 0x0c3d }, { 0x0c58, 0x0c5a },
	{ 0x0c60, 0x0c61 }, { 0x0c66, 0x0c6f }, { 0x0c78, 0x0c7e }, { 0x0c80, 0x0c80 },
	{ 0x0c85, 0x0c8c }, { 0x0c8e, 0x0c90 }, { 0x0c92, 0x0ca8 }, { 0x0caa, 0x0cb3 },
	{ 0x0cb5, 0x0cb9 }, { 0x0cbd, 0x0cbd }, { 0x0cde, 0x0cde }, { 0x0ce0, 0x0ce1 },
	{ 0x0ce6, 0x0cef }, { 0x0cf1, 0x0cf2 }, { 0x0d05, 0x0d0c }, { 0x0d0e, 0x0d10 },
	{ 0x0d12, 0x0d3a }, { 0x0d3d, 0x0d3d }, { 0x0d4e, 0x0d4e }, { 0x0d54, 0x0d56 },
	{ 0x0d58, 0x0d61 }, { 0x0d66, 0x0d78 }, { 0x0d7a, 0x0d7f }, { 0x0d85, 0x0d96 },
	{ 0x0d9a, 0x0db1 }, { 0x0db3, 0x0dbb }, { 0x0dbd, 0x0dbd }, { 0x0dc0, 0x0dc6 },
	{ 0x0de6, 0x0def }, { 0x0e01, 0x0e30 }, { 0x0e32, 0x0e32 }, { 0x0e40, 0x0e45 },
	{ 0x0e50, 0x0e59 }, { 0x0e81, 0x0e82 }, { 0x0e84, 0x0e84 }, { 0x0e87, 0x0e88 },
	{ 0x0e8a, 0x0e8a }, { 0x0e8d, 0x0e8d }, { 0x0e94, 0x0e97 }, { 0x0e99, 0x0e9f },
	{ 0x0ea1, 0x0ea3 }, { 0x0ea5, 0x0ea5 }, { 0x0ea7, 0x0ea7 }, { 0x0eaa, 0x0eab },
	{ 0x0ead, 0x0eb0 }, { 0x0eb2, 0x0eb2 }, { 0x0ebd, 0x0ebd }, { 0x0ec0, 0x0ec4 },
	{ 0x0ed0, 0x0ed9 }, { 0x0ede, 0x0edf }, { 0x0f00, 0x0f00 }, { 0x0f20, 0x0f33 },
	{ 0x0f40, 0x0f42 }, { 0x0f44, 0x0f47 }, { 0x0f49, 0x0f4c }, { 0x0f4e, 0x0f51 },
	{ 0x0f53, 0x0f56 }, { 0x0f58, 0x0f5b }, { 0x0f5d, 0x0f68 }, { 0x0f6a, 0x0f6c },
	{ 0x0f88, 0x0f8c }, { 0x1000, 0x1025 }, { 0x1027, 0x102a }, { 0x103f, 0x1049 },
	{ 0x1050, 0x1055 },
};
#define NRANGES (sizeof b2048 / sizeof b2048[0])
_Static_assert(sizeof b2048 / sizeof b2048[0] == 221, "Base2048 has 221 ranges");

static const char key_chars[4] = { 'L', 'R', 'D', 'U' };
static const char *const encoding_names[HCLASSIC_NENCODINGS] = { "raw", "hex", "Base65536",
	"Base2048" };

/* Reads the code point at s[*i]; false for bytes that are not UTF-8. */
static bool
utf8_next(const char *s, size_t len, size_t *i, uint32_t *cp)
{
	const unsigned char *p = (const unsigned char *)s + *i;
	size_t left = len - *i, n, k;
	uint32_t c, min;

	if (p[0] < 0x80) {
		*cp = p[0];
		*i += 1;
		return true;
	}
	if ((p[0] & 0xe0) == 0xc0) {
		n = 2;
		c = p[0] & 0x1fu;
		min = 0x80;
	} else if ((p[0] & 0xf0) == 0xe0) {
		n = 3;
		c = p[0] & 0x0fu;
		min = 0x800;
	} else if ((p[0] & 0xf8) == 0xf0) {
		n = 4;
		c = p[0] & 0x07u;
		min = 0x10000;
	} else {
		return false;
	}
	if (left < n)
		return false;
	for (k = 1; k < n; k++) {
		if ((p[k] & 0xc0) != 0x80)
			return false;
		c = c << 6 | (p[k] & 0x3fu);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return false;
	*cp = c;
	*i += n;
	return true;
}

static bool
is_blank(uint32_t c)
{
	return (c >= 0x09 && c <= 0x0d) || c == 0x20 || c == 0xa0 || c == 0x1680 ||
	    (c >= 0x2000 && c <= 0x200a) || c == 0x2028 || c == 0x2029 || c == 0x202f ||
	    c == 0x205f || c == 0x3000 || c == 0xfeff;
}

/* Where decoded keys go. */
struct sink {
	char *keys;
	size_t cap, n;
};

static void
sink_key(struct sink *k, int code)
{
	if (k->n < k->cap)
		k->keys[k->n] = key_chars[code];
	k->n++;
}

static void
sink_byte(struct sink *k, unsigned byte)
{
	unsigned h, nyb, run;

	for (h = 0; h < 2; h++) {
		nyb = h == 0 ? byte >> 4 : byte & 0xfu;
		for (run = 0; run <= (nyb & 3u); run++)
			sink_key(k, (int)(nyb >> 2));
	}
}

static enum hclassic_replay_status
decode_raw(const char *s, size_t len, struct sink *k)
{
	size_t i;

	for (i = 0; i < len; i++) {
		int c = hclassic_key_code(s[i]);

		if (c < 0)
			return HCLASSIC_REPLAY_INVALID;
		sink_key(k, c);
	}
	return HCLASSIC_REPLAY_OK;
}

static int
hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static enum hclassic_replay_status
decode_hex(const char *s, size_t len, struct sink *k)
{
	size_t i;

	for (i = 0; i < len; i++) {
		int v;

		if (s[i] == ' ' || s[i] == '#')
			continue;
		v = hex_value(s[i]);
		if (v < 0)
			return HCLASSIC_REPLAY_INVALID;
		sink_key(k, v >> 2);
		sink_key(k, v & 3);
	}
	return HCLASSIC_REPLAY_OK;
}

/* Base65536: the block (second byte) whose 256 code points start at
 * start, or -1. */
static int
b65536_block(uint32_t start)
{
	if (start >= 0x3400 && start <= 0x3400 + 24 * 256)
		return (int)((start - 0x3400) >> 8);
	if (start >= 0x4e00 && start <= 0x4e00 + 80 * 256)
		return 25 + (int)((start - 0x4e00) >> 8);
	if (start >= 0xa100 && start <= 0xa300)
		return 106 + (int)((start - 0xa100) >> 8);
	if (start == 0xa500)
		return 109;
	if (start == 0x10600)
		return 110;
	if (start >= 0x12000 && start <= 0x12200)
		return 111 + (int)((start - 0x12000) >> 8);
	if (start >= 0x13000 && start <= 0x13300)
		return 114 + (int)((start - 0x13000) >> 8);
	if (start >= 0x14400 && start <= 0x14500)
		return 118 + (int)((start - 0x14400) >> 8);
	if (start >= 0x16800 && start <= 0x16900)
		return 120 + (int)((start - 0x16800) >> 8);
	if (start >= 0x20000 && start <= 0x20000 + 133 * 256)
		return 122 + (int)((start - 0x20000) >> 8);
	return -1;
}

static uint32_t
b65536_start(unsigned b)
{
	if (b <= 24)
		return 0x3400 + 256 * b;
	if (b <= 105)
		return 0x4e00 + 256 * (b - 25);
	if (b <= 108)
		return 0xa100 + 256 * (b - 106);
	if (b == 109)
		return 0xa500;
	if (b == 110)
		return 0x10600;
	if (b <= 113)
		return 0x12000 + 256 * (b - 111);
	if (b <= 117)
		return 0x13000 + 256 * (b - 114);
	if (b <= 119)
		return 0x14400 + 256 * (b - 118);
	if (b <= 121)
		return 0x16800 + 256 * (b - 120);
	return 0x20000 + 256 * (b - 122);
}

static enum hclassic_replay_status
decode_b65536(const char *s, size_t len, struct sink *k)
{
	size_t i = 0;
	bool ended = false;

	while (i < len) {
		uint32_t cp;
		int b;

		if (!utf8_next(s, len, &i, &cp))
			return HCLASSIC_REPLAY_BAD_UTF8;
		if (ended)
			return HCLASSIC_REPLAY_INVALID;
		if ((cp & ~0xffu) == 0x1500) {
			sink_byte(k, cp & 0xffu);
			ended = true;
			continue;
		}
		b = b65536_block(cp & ~0xffu);
		if (b < 0)
			return HCLASSIC_REPLAY_INVALID;
		sink_byte(k, cp & 0xffu);
		sink_byte(k, (unsigned)b);
	}
	return HCLASSIC_REPLAY_OK;
}

/* Base2048: the value (0..2047) of a main-set character, or -1. */
static int
b2048_value(uint32_t cp)
{
	unsigned lo = 0, hi = NRANGES, i, before = 0;

	if (cp > 0xffff)
		return -1;
	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;

		if (cp < b2048[mid].lo)
			hi = mid;
		else if (cp > b2048[mid].hi)
			lo = mid + 1;
		else {
			for (i = 0; i < mid; i++)
				before += (unsigned)(b2048[i].hi - b2048[i].lo + 1);
			return (int)(before + (cp - b2048[mid].lo));
		}
	}
	return -1;
}

uint32_t
hclassic_base2048_char(unsigned z)
{
	unsigned i;

	for (i = 0; i < NRANGES; i++) {
		unsigned n = (unsigned)(b2048[i].hi - b2048[i].lo + 1);

		if (z < n)
			return b2048[i].lo + z;
		z -= n;
	}
	return 0;
}

static enum hclassic_replay_status
decode_b2048(const char *s, size_t len, struct sink *k)
{
	size_t i = 0;
	uint32_t acc = 0;
	unsigned nbits = 0;
	bool ended = false;

	while (i < len) {
		uint32_t cp;
		unsigned width, value;
		int z;

		if (!utf8_next(s, len, &i, &cp))
			return HCLASSIC_REPLAY_BAD_UTF8;
		if (ended)
			return HCLASSIC_REPLAY_INVALID;
		if (cp >= '0' && cp <= '7') {
			width = 3;
			value = cp - '0';
			ended = true;
		} else {
			z = b2048_value(cp);
			if (z < 0)
				return HCLASSIC_REPLAY_INVALID;
			width = 11;
			value = (unsigned)z;
		}
		acc = acc << width | value;
		nbits += width;
		while (nbits >= 8) {
			nbits -= 8;
			sink_byte(k, acc >> nbits & 0xffu);
		}
		acc &= (1u << nbits) - 1;
	}
	if (acc != (1u << nbits) - 1)
		return HCLASSIC_REPLAY_INVALID;
	return HCLASSIC_REPLAY_OK;
}

enum hclassic_replay_status
hclassic_replay_decode_as(unsigned encoding, const char *s, size_t len, char *keys, size_t cap,
    size_t *nkeys)
{
	struct sink k = { keys, keys ? cap : 0, 0 };
	enum hclassic_replay_status st;

	switch (encoding) {
	case HCLASSIC_RAW: st = decode_raw(s, len, &k); break;
	case HCLASSIC_HEX: st = decode_hex(s, len, &k); break;
	case HCLASSIC_BASE65536: st = decode_b65536(s, len, &k); break;
	case HCLASSIC_BASE2048: st = decode_b2048(s, len, &k); break;
	default: st = HCLASSIC_REPLAY_INVALID; break;
	}
	if (nkeys)
		*nkeys = st == HCLASSIC_REPLAY_OK ? k.n : 0;
	return st;
}

enum hclassic_replay_status
hclassic_replay_decode(const char *s, size_t len, char *keys, size_t cap, size_t *nkeys,
    unsigned *encoding)
{
	size_t i = 0, start = len, end = 0, j;
	bool raw = true, hex = true;
	enum hclassic_replay_status st;

	if (nkeys)
		*nkeys = 0;
	if (!s) {
		s = "";
		len = 0;
	}
	/* Trim: start is the first non-blank character, end just after the
	 * last one. */
	while (i < len) {
		size_t at = i;
		uint32_t cp;

		if (!utf8_next(s, len, &i, &cp))
			return HCLASSIC_REPLAY_BAD_UTF8;
		if (!is_blank(cp)) {
			if (start == len)
				start = at;
			end = i;
		}
	}
	if (start == len)
		start = end = 0;
	for (j = start; j < end; j++) {
		char c = s[j];

		if (hclassic_key_code(c) < 0)
			raw = false;
		if (hex_value(c) < 0 && c != ' ' && c != '#')
			hex = false;
	}
	if (end > start && raw) {
		st = hclassic_replay_decode_as(HCLASSIC_RAW, s + start, end - start, keys, cap,
		    nkeys);
		if (encoding)
			*encoding = HCLASSIC_RAW;
		return st;
	}
	if (end > start && hex) {
		st = hclassic_replay_decode_as(HCLASSIC_HEX, s + start, end - start, keys, cap,
		    nkeys);
		if (encoding)
			*encoding = HCLASSIC_HEX;
		return st;
	}
	st = hclassic_replay_decode_as(HCLASSIC_BASE65536, s + start, end - start, keys, cap,
	    nkeys);
	if (st == HCLASSIC_REPLAY_OK) {
		if (encoding)
			*encoding = HCLASSIC_BASE65536;
		return st;
	}
	st = hclassic_replay_decode_as(HCLASSIC_BASE2048, s + start, end - start, keys, cap,
	    nkeys);
	if (st == HCLASSIC_REPLAY_OK && encoding)
		*encoding = HCLASSIC_BASE2048;
	return st;
}

/* Where encoded text goes. */
struct out {
	char *buf;
	size_t cap, n;
};

static void
out_byte(struct out *o, char c)
{
	if (o->n + 1 < o->cap)
		o->buf[o->n] = c;
	o->n++;
}

static void
out_cp(struct out *o, uint32_t cp)
{
	if (cp < 0x80) {
		out_byte(o, (char)cp);
	} else if (cp < 0x800) {
		out_byte(o, (char)(0xc0 | cp >> 6));
		out_byte(o, (char)(0x80 | (cp & 0x3f)));
	} else if (cp < 0x10000) {
		out_byte(o, (char)(0xe0 | cp >> 12));
		out_byte(o, (char)(0x80 | (cp >> 6 & 0x3f)));
		out_byte(o, (char)(0x80 | (cp & 0x3f)));
	} else {
		out_byte(o, (char)(0xf0 | cp >> 18));
		out_byte(o, (char)(0x80 | (cp >> 12 & 0x3f)));
		out_byte(o, (char)(0x80 | (cp >> 6 & 0x3f)));
		out_byte(o, (char)(0x80 | (cp & 0x3f)));
	}
}

/* The run-length bytes of a key string, one at a time. */
struct rle {
	const char *keys;
	size_t n, i;
};

/* The next nybble, or -1 at the end. */
static int
rle_nybble(struct rle *r)
{
	int code;
	unsigned run = 1;

	if (r->i >= r->n)
		return -1;
	code = hclassic_key_code(r->keys[r->i++]);
	while (run < 4 && r->i < r->n && hclassic_key_code(r->keys[r->i]) == code) {
		r->i++;
		run++;
	}
	return code * 4 + (int)(run - 1);
}

/* The next byte, or -1 at the end (an odd last nybble gets a 0). */
static int
rle_byte(struct rle *r)
{
	int hi = rle_nybble(r), lo;

	if (hi < 0)
		return -1;
	lo = rle_nybble(r);
	return hi << 4 | (lo < 0 ? 0 : lo);
}

bool
hclassic_replay_encode(unsigned encoding, const char *keys, size_t nkeys, char *out,
    size_t cap, size_t *len)
{
	struct out o = { out, out ? cap : 0, 0 };
	struct rle r = { keys, nkeys, 0 };
	size_t i;
	int a, b;

	if (len)
		*len = 0;
	if (encoding >= HCLASSIC_NENCODINGS || (nkeys && !keys))
		return false;
	for (i = 0; i < nkeys; i++)
		if (hclassic_key_code(keys[i]) < 0)
			return false;
	switch (encoding) {
	case HCLASSIC_RAW:
		for (i = 0; i < nkeys; i++)
			out_byte(&o, keys[i]);
		break;
	case HCLASSIC_HEX:
		for (i = 0; i < nkeys; i += 2) {
			int v = hclassic_key_code(keys[i]) * 4 + (i + 1 < nkeys ? hclassic_key_code(keys[i + 1]) : 2);

			out_byte(&o, "0123456789ABCDEF"[v]);
			if ((i / 2) % 4 == 3)
				out_byte(&o, ' ');
		}
		break;
	case HCLASSIC_BASE65536:
		while ((a = rle_byte(&r)) >= 0) {
			b = rle_byte(&r);
			if (b < 0)
				out_cp(&o, 0x1500u + (unsigned)a);
			else
				out_cp(&o, b65536_start((unsigned)b) + (unsigned)a);
		}
		break;
	case HCLASSIC_BASE2048: {
		uint32_t acc = 0;
		unsigned nbits = 0;

		while ((a = rle_byte(&r)) >= 0) {
			acc = acc << 8 | (unsigned)a;
			nbits += 8;
			if (nbits >= 11) {
				nbits -= 11;
				out_cp(&o, hclassic_base2048_char(acc >> nbits));
				acc &= (1u << nbits) - 1;
			}
		}
		if (nbits >= 4) {
			acc = acc << (11 - nbits) | ((1u << (11 - nbits)) - 1);
			out_cp(&o, hclassic_base2048_char(acc));
		} else if (nbits > 0) {
			acc = acc << (3 - nbits) | ((1u << (3 - nbits)) - 1);
			out_cp(&o, '0' + acc);
		}
		break;
	}
	default:
		break;
	}
	if (o.cap > 0)
		o.buf[o.n < o.cap ? o.n : o.cap - 1] = '\0';
	if (len)
		*len = o.n;
	return true;
}

const char *
hclassic_encoding_name(unsigned encoding)
{
	return encoding < HCLASSIC_NENCODINGS ? encoding_names[encoding] : NULL;
}
