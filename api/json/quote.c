/*
 * quote.c: client text quoted in messages (quote.h).
 */
#include "quote.h"

#include <string.h>

/* The length of the valid UTF-8 character at s (n bytes readable), or 0
 * when its bytes are not one: a stray continuation byte, a lead byte
 * without its continuations, an overlong form, a surrogate or a code
 * point past U+10FFFF. */
static size_t
char_len(const unsigned char *s, size_t n)
{
	size_t len, i;
	unsigned long cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

size_t
text_utf8_prefix(const char *src, size_t n)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t at = 0, len;

	while (at < n && (len = char_len(s + at, n - at)) != 0)
		at += len;
	return at;
}

const char *
text_quote(char *dst, size_t cap, const char *src, size_t max)
{
	const unsigned char *s = (const unsigned char *)(src != NULL ? src : "");
	size_t n = strlen((const char *)s), at = 0, o = 0, chars = 0, len;

	while (at < n) {
		len = char_len(s + at, n - at);
		/* Room for this character, then "..." and the NUL if more follows. */
		if (chars == max || o + (len != 0 ? len : 1) + 4 > cap) {
			memcpy(dst + o, "...", 3);
			o += 3;
			break;
		}
		if (len == 0 || s[at] < 0x20 || s[at] == 0x7f) {
			dst[o++] = '?';
			at += len != 0 ? len : 1;
		} else {
			memcpy(dst + o, s + at, len);
			o += len;
			at += len;
		}
		chars++;
	}
	dst[o] = '\0';
	return dst;
}
