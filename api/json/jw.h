/*
 * jw.h: a JSON writer that appends text to one buffer, for the answers on
 * the hot path (a game's answer, a token's payload), which jansson would
 * otherwise build as a tree of allocated values only to dump it.
 *
 * The text is what json_dumps(v, JSON_COMPACT) writes for the same values
 * in the same order, byte for byte: no spaces, integers in decimal, strings
 * with jansson's escapes (", \ and the control characters, \u00XX in upper
 * case for those without a short form; other bytes as they are). A string
 * jansson would refuse (not UTF-8) makes the whole text fail, as it makes
 * json_dumps fail; jw_utf8 tells beforehand, for the callers that leave a
 * field out where jansson's checked constructors would give NULL.
 *
 * The writer does not check the nesting: a caller writes keys inside
 * objects and values after them. Commas go in by themselves: a value or a
 * key after anything but an opening bracket or a key gets one.
 *
 * Memory: the buffer is the caller's (jw_init_fixed, never grown) or the
 * writer's own (jw_init: malloc'd, doubled as needed up to a bound). Any
 * failure (no memory, over the bound, bad text) is sticky: every later
 * call does nothing and jw_take/jw_text answer NULL.
 */
#ifndef API_JW_H
#define API_JW_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct jw {
	char  *buf;     /* the text so far, NUL-terminated while !failed */
	size_t len;     /* bytes of text, NUL excluded */
	size_t cap;     /* bytes of buf */
	size_t max;     /* the largest cap it may grow to */
	bool   owned;   /* buf is malloc'd by the writer (jw_init) */
	bool   failed;
};

/* A writer with its own buffer: first bytes to start with, max at most. */
void jw_init(struct jw *w, size_t first, size_t max);

/* A writer into buf (cap bytes, NUL included): it never allocates. */
void jw_init_fixed(struct jw *w, char *buf, size_t cap);

/* Frees an owned buffer (nothing for a fixed one); w may then be reused
 * after another init. */
void jw_cleanup(struct jw *w);

/* The text (NUL-terminated) and its length, or NULL when the writer
 * failed. jw_take hands an owned buffer to the caller, who frees it, and
 * leaves w empty; jw_text lends it. */
char *jw_take(struct jw *w, size_t *len);
const char *jw_text(const struct jw *w, size_t *len);

void jw_object(struct jw *w);      /* { */
void jw_object_end(struct jw *w);  /* } */
void jw_array(struct jw *w);       /* [ */
void jw_array_end(struct jw *w);   /* ] */

/* An object key: a literal of the caller's that needs no escape. */
void jw_key(struct jw *w, const char *key);

void jw_int(struct jw *w, int64_t v);
void jw_bool(struct jw *w, bool v);
void jw_null(struct jw *w);

/* Strings: s to its NUL, or n bytes of it (NULs included, as \u0000). */
void jw_string(struct jw *w, const char *s);
void jw_stringn(struct jw *w, const char *s, size_t n);

/* A one-character string (an ASCII letter, a digit). */
void jw_char(struct jw *w, char c);

/* A member in one call: its key (as jw_key takes it), then its value. */
static inline void jw_kint(struct jw *w, const char *key, int64_t v) { jw_key(w, key); jw_int(w, v); }
static inline void jw_kbool(struct jw *w, const char *key, bool v) { jw_key(w, key); jw_bool(w, v); }
static inline void jw_knull(struct jw *w, const char *key) { jw_key(w, key); jw_null(w); }
static inline void jw_kstring(struct jw *w, const char *key, const char *s)
{
	jw_key(w, key);
	jw_string(w, s);
}
static inline void jw_kstringn(struct jw *w, const char *key, const char *s, size_t n)
{
	jw_key(w, key);
	jw_stringn(w, s, n);
}
static inline void jw_kchar(struct jw *w, const char *key, char c) { jw_key(w, key); jw_char(w, c); }
/* Members that may be null: the string s, or null when s is NULL; v when
 * has, null otherwise. */
static inline void jw_kstring_or_null(struct jw *w, const char *key, const char *s)
{
	jw_key(w, key);
	if (s != NULL)
		jw_string(w, s);
	else
		jw_null(w);
}
static inline void jw_kint_if(struct jw *w, const char *key, bool has, int64_t v)
{
	jw_key(w, key);
	if (has)
		jw_int(w, v);
	else
		jw_null(w);
}

/* Whether jansson takes n bytes of s as a string (valid UTF-8). */
bool jw_utf8(const char *s, size_t n);

/* The length of the valid UTF-8 character at s (n > 0 bytes readable),
 * or 0 when its bytes are not one (a stray continuation, an overlong
 * form, a surrogate, past U+10FFFF, cut short). */
size_t jw_utf8_seq(const unsigned char *s, size_t n);

/* Whether the 8 bytes at p are all ASCII from 0x20 other than " and \
 * (what a JSON string holds as it is: no escape, no UTF-8), a word at a
 * time with the byte tests of "Bit Twiddling Hacks" (haszero, hasless),
 * each exact as a yes or no. The writer and jsonbody_load's token scan
 * pass plain runs with it. */
static inline bool
jw_plain8(const void *p)
{
	const uint64_t ones = UINT64_C(0x0101010101010101), highs = UINT64_C(0x8080808080808080);
	uint64_t x, q, b;

	memcpy(&x, p, 8);
	q = x ^ (ones * '"');
	b = x ^ (ones * '\\');
	return (((x - ones * 0x20) & ~x) | x | ((q - ones) & ~q) | ((b - ones) & ~b)) & highs ?
	    false : true;
}

/* A value built with jansson, dumped in place (compact, in its order). */
void jw_json(struct jw *w, const json_t *v);

/* Text that is JSON already, written as it is. */
void jw_raw(struct jw *w, const char *text, size_t n);

#endif
