/*
 * jw.c: the answer writer (jw.h). Every call appends to one buffer; the
 * only allocation is the buffer's own growth, so an answer costs one
 * malloc and a few reallocs instead of one allocation per value. Strings
 * are copied in runs between the bytes that need an escape; the UTF-8
 * check follows jansson's (no overlong forms, no surrogates, nothing past
 * U+10FFFF), and tests/api/test_answers.c holds both to the same inputs.
 */
#include "jw.h"

#include <stdlib.h>
#include <string.h>

#include "numtext.h"

void
jw_init(struct jw *w, size_t first, size_t max)
{
	memset(w, 0, sizeof *w);
	w->max = max;
	w->owned = true;
	if (first < 16)
		first = 16;
	if (first > max) {
		w->failed = true;
		return;
	}
	w->buf = malloc(first);
	if (w->buf == NULL) {
		w->failed = true;
		return;
	}
	w->cap = first;
	w->buf[0] = '\0';
}

void
jw_init_fixed(struct jw *w, char *buf, size_t cap)
{
	memset(w, 0, sizeof *w);
	w->buf = buf;
	w->cap = w->max = cap;
	if (cap == 0)
		w->failed = true;
	else
		buf[0] = '\0';
}

void
jw_cleanup(struct jw *w)
{
	if (w->owned)
		free(w->buf);
	memset(w, 0, sizeof *w);
}

char *
jw_take(struct jw *w, size_t *len)
{
	char *text = w->failed ? NULL : w->buf;

	if (len != NULL)
		*len = w->failed ? 0 : w->len;
	if (text != NULL && w->owned) {
		w->buf = NULL;
		w->cap = w->len = 0;
	}
	jw_cleanup(w);
	return text;
}

const char *
jw_text(const struct jw *w, size_t *len)
{
	if (len != NULL)
		*len = w->failed ? 0 : w->len;
	return w->failed ? NULL : w->buf;
}

/* Room for n more bytes and the NUL; false (and failed) when there is none. */
static bool
reserve(struct jw *w, size_t n)
{
	size_t need, cap;
	char *b;

	if (w->failed)
		return false;
	need = w->len + n + 1;
	if (need <= w->cap)
		return true;
	if (!w->owned || need > w->max || need < n) {
		w->failed = true;
		return false;
	}
	cap = w->cap;
	while (cap < need)
		cap = cap > w->max / 2 ? w->max : cap * 2;
	b = realloc(w->buf, cap);
	if (b == NULL) {
		w->failed = true;
		return false;
	}
	w->buf = b;
	w->cap = cap;
	return true;
}

static void
put(struct jw *w, const char *s, size_t n)
{
	if (!reserve(w, n))
		return;
	memcpy(w->buf + w->len, s, n);
	w->len += n;
	w->buf[w->len] = '\0';
}

static void
put1(struct jw *w, char c)
{
	if (!reserve(w, 1))
		return;
	w->buf[w->len++] = c;
	w->buf[w->len] = '\0';
}

/* The comma before a key or a value that is not the first of its object
 * or array and does not follow its key. */
static void
sep(struct jw *w)
{
	char last;

	if (w->failed || w->len == 0)
		return;
	last = w->buf[w->len - 1];
	if (last != '{' && last != '[' && last != ':')
		put1(w, ',');
}

void
jw_object(struct jw *w)
{
	sep(w);
	put1(w, '{');
}

void
jw_object_end(struct jw *w)
{
	put1(w, '}');
}

void
jw_array(struct jw *w)
{
	sep(w);
	put1(w, '[');
}

void
jw_array_end(struct jw *w)
{
	put1(w, ']');
}

void
jw_key(struct jw *w, const char *key)
{
	size_t n = strlen(key);

	sep(w);
	if (!reserve(w, n + 3))
		return;
	w->buf[w->len++] = '"';
	memcpy(w->buf + w->len, key, n);
	w->len += n;
	w->buf[w->len++] = '"';
	w->buf[w->len++] = ':';
	w->buf[w->len] = '\0';
}

void
jw_int(struct jw *w, int64_t v)
{
	char digits[24];
	size_t n = numtext_i64(digits, v);

	sep(w);
	put(w, digits, n);
}

void
jw_bool(struct jw *w, bool v)
{
	sep(w);
	if (v)
		put(w, "true", 4);
	else
		put(w, "false", 5);
}

void
jw_null(struct jw *w)
{
	sep(w);
	put(w, "null", 4);
}

/* The length of the UTF-8 sequence at s (at most n bytes), 0 when jansson
 * would refuse it. */
size_t
jw_utf8_seq(const unsigned char *s, size_t n)
{
	unsigned char c = s[0];
	size_t len, i;
	uint32_t v;

	if (c < 0x80)
		return 1;
	if (c < 0xC2)
		return 0;  /* a continuation byte, or an overlong two-byte form */
	if (c < 0xE0) {
		len = 2;
		v = c & 0x1F;
	} else if (c < 0xF0) {
		len = 3;
		v = c & 0x0F;
	} else if (c < 0xF5) {
		len = 4;
		v = c & 0x07;
	} else
		return 0;
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		v = (v << 6) | (s[i] & 0x3F);
	}
	if (v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF) || (len == 3 && v < 0x800) ||
	    (len == 4 && v < 0x10000))
		return 0;
	return len;
}

bool
jw_utf8(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, k;

	while (i < n) {
		if (p[i] < 0x80) {
			i++;
			continue;
		}
		if ((k = jw_utf8_seq(p + i, n - i)) == 0)
			return false;
		i += k;
	}
	return true;
}

/* 1: the byte is written as an escape (", \ and the control characters). */
static const unsigned char needs_escape[128] = {
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,
};

static void
escape(struct jw *w, unsigned char c)
{
	static const char hex[] = "0123456789ABCDEF";
	char e[6] = { '\\', 'u', '0', '0', 0, 0 };

	switch (c) {
	case '"': put(w, "\\\"", 2); return;
	case '\\': put(w, "\\\\", 2); return;
	case '\b': put(w, "\\b", 2); return;
	case '\f': put(w, "\\f", 2); return;
	case '\n': put(w, "\\n", 2); return;
	case '\r': put(w, "\\r", 2); return;
	case '\t': put(w, "\\t", 2); return;
	default:
		e[4] = hex[c >> 4];
		e[5] = hex[c & 15];
		put(w, e, 6);
		return;
	}
}

void
jw_stringn(struct jw *w, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, run = 0, k;

	sep(w);
	put1(w, '"');
	while (i < n && !w->failed) {
		unsigned char c;

		if (n - i >= 8 && jw_plain8(p + i)) {
			i += 8;
			continue;
		}
		c = p[i];
		if (c >= 0x80) {
			if ((k = jw_utf8_seq(p + i, n - i)) == 0) {
				w->failed = true;
				return;
			}
			i += k;
			continue;
		}
		if (!needs_escape[c]) {
			i++;
			continue;
		}
		put(w, s + run, i - run);
		escape(w, c);
		run = ++i;
	}
	put(w, s + run, i - run);
	put1(w, '"');
}

void
jw_string(struct jw *w, const char *s)
{
	jw_stringn(w, s, strlen(s));
}

void
jw_char(struct jw *w, char c)
{
	jw_stringn(w, &c, 1);
}

static int
dump_cb(const char *buffer, size_t size, void *data)
{
	struct jw *w = data;

	put(w, buffer, size);
	return w->failed ? -1 : 0;
}

void
jw_json(struct jw *w, const json_t *v)
{
	sep(w);
	if (w->failed)
		return;
	if (v == NULL || json_dump_callback(v, dump_cb, w, JSON_COMPACT | JSON_ENCODE_ANY) != 0)
		w->failed = true;
}

void
jw_raw(struct jw *w, const char *text, size_t n)
{
	sep(w);
	put(w, text, n);
}
