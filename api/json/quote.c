/*
 * quote.c: client text quoted in messages (quote.h).
 */
#include "quote.h"

#include <string.h>

#include "jw.h"

const char *
text_quote(char *dst, size_t cap, const char *src, size_t max)
{
	const unsigned char *s = (const unsigned char *)(src != NULL ? src : "");
	size_t n = strlen((const char *)s), at = 0, o = 0, chars = 0, len;

	while (at < n) {
		len = jw_utf8_seq(s + at, n - at);
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

void
text_repair(char *s, size_t cap)
{
	char fixed[1024];
	size_t n = strlen(s);

	if (jw_utf8(s, n))
		return;
	text_quote(fixed, sizeof fixed < cap ? sizeof fixed : cap, s, n);
	memcpy(s, fixed, strlen(fixed) + 1);
}
