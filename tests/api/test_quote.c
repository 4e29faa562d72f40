/*
 * test_quote.c: client text quoted in messages (api/json/quote.h). The
 * UTF-8 check the quote and the error envelope use (jw_utf8, jw_utf8_seq)
 * against jansson's, which refuses any string that is not valid UTF-8, on
 * random bytes.
 * Every quote is text jansson takes, at most the characters and bytes
 * asked for; and the cases the hardening issue met: a two- or three-byte
 * character at the cap, bytes that are no character, control characters.
 */
#include <stdbool.h>
#include <string.h>

#include <jansson.h>

#include "errors.h"
#include "jw.h"
#include "quote.h"
#include "tap.h"
#include "xorshift.h"

/* Characters in valid UTF-8 text: the bytes that start one. */
static size_t
chars(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

static bool
jansson_takes(const char *s, size_t n)
{
	json_t *j = json_stringn(s, n);

	json_decref(j);
	return j != NULL;
}

int
main(void)
{
	uint64_t rng = 0x9e3779b97f4a7c15u;
	unsigned long i, prefix_apart = 0, quote_bad = 0, quote_long = 0;
	char s[64], q[QUOTE_CAP(12)], buf[QUOTE_SHORT];
	/* Bytes weighted towards UTF-8's edges: leads, continuations, ASCII. */
	static const unsigned char pool[] = { 'a', 'Z', '\'', 0x01, 0x7f, 0x80, 0xbf, 0xc0, 0xc1,
		0xc2, 0xc3, 0xa9, 0xdf, 0xe0, 0xa0, 0xe2, 0x82, 0xac, 0xed, 0x9f, 0xa0, 0xef, 0xf0,
		0x90, 0xf4, 0x8f, 0xf5, 0xff };

	for (i = 0; i < 200000; i++) {
		size_t n = 1 + xorshift_below(&rng, sizeof s - 1), k, max;

		for (k = 0; k < n; k++)
			s[k] = (char)pool[xorshift_below(&rng, sizeof pool)];
		s[n] = '\0';
		prefix_apart += jw_utf8(s, n) != jansson_takes(s, n);
		max = 1 + xorshift_below(&rng, 12);
		text_quote(q, sizeof q, s, max);
		quote_bad += !jansson_takes(q, strlen(q));
		quote_long += chars(q) > max + 3 || strlen(q) >= sizeof q;
	}
	is_int(prefix_apart, 0, "jw_utf8 agrees with jansson's UTF-8 check on 200,000 random byte strings");
	is_int(quote_bad, 0, "every quote of them is text jansson takes");
	is_int(quote_long, 0, "no quote holds more than its characters and \"...\", nor fills its room");

	/* 59 a's and a two-byte character: the byte cap of old (%.60s) cut it. */
	memset(s, 'a', 59);
	memcpy(s + 59, "\xc3\xa9", 3);
	text_quote(buf, sizeof buf, s, 60);
	ok(strlen(buf) == 61 && strcmp(buf + 59, "\xc3\xa9") == 0,
	    "a two-byte character as the 60th of 60 is quoted whole");
	text_quote(buf, sizeof buf, s, 59);
	ok(strlen(buf) == 62 && strcmp(buf + 59, "...") == 0,
	    "the same text quoted to 59 characters stops before it, with \"...\"");
	memcpy(s + 39, "\xe2\x82\xac", 4);
	text_quote(buf, sizeof buf, s, 40);
	ok(strlen(buf) == 42 && strcmp(buf + 39, "\xe2\x82\xac") == 0,
	    "a three-byte character as the 40th of 40 is quoted whole");
	/* Fifteen 4-byte characters (60 of s's 64 bytes) in a room of 40
	 * bytes: nine of them, the "..." and the NUL fill it. */
	for (i = 0; i < 15; i++)
		memcpy(s + 4 * i, "\xf0\x9f\x82\xa1", 4);
	s[60] = '\0';
	{
		char small[40];

		text_quote(small, sizeof small, s, 40);
		ok(strlen(small) == 39 && strcmp(small + 36, "...") == 0,
		    "wide characters stop at the room's end, on a boundary, with \"...\" (%zu bytes)",
		    strlen(small));
	}
	text_quote(buf, sizeof buf, "a\xff" "b\n\xc3(c\xe2\x82", 40);
	ok(strcmp(buf, "a?b?" "?(c?" "?") == 0, "each byte that is no character, and each control character, is '?' (%s)",
	    buf);
	ok(strcmp(text_quote(buf, sizeof buf, NULL, 40), "") == 0, "no text quotes as empty");
	{
		json_t *e = api_error_new(API_ERR_INVALID_REQUEST, "unknown field 'aa\xc3'");
		const char *m = json_string_value(json_object_get(json_object_get(e, "error"), "message"));

		ok(m != NULL && strcmp(m, "unknown field 'aa?'") == 0,
		    "an error message cut inside a character still makes an answer, repaired (%s)",
		    m ? m : "(none)");
		json_decref(e);
	}
	return tap_done();
}
