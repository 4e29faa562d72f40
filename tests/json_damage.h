/*
 * json_damage.h: a JSON text damaged at random for the differential tests
 * of a reader against jansson (api-jsonload, api-mcp): one to three bytes
 * changed, added or removed, a cut, or a tail, within cap bytes. The
 * caller gives its own random source (below(n) in 0..n-1) and the bytes a
 * change may put in.
 */
#ifndef TESTS_JSON_DAMAGE_H
#define TESTS_JSON_DAMAGE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static size_t
json_damage(char *b, size_t n, size_t cap, const char *bytes, size_t nbytes,
    uint32_t (*below)(uint32_t))
{
	int k, edits = 1 + (int)below(3);
	size_t at;

	for (k = 0; k < edits && n > 0; k++) {
		at = below((uint32_t)n);
		switch (below(5)) {
		case 0:
			b[at] = bytes[below((uint32_t)nbytes)];
			break;
		case 1:
			if (n + 1 < cap) {
				memmove(b + at + 1, b + at, n - at);
				b[at] = bytes[below((uint32_t)nbytes)];
				n++;
			}
			break;
		case 2:
			memmove(b + at, b + at + 1, n - at - 1);
			n--;
			break;
		case 3:
			n = at;
			break;
		default:
			if (n + 4 < cap) {
				memcpy(b + n, below(2) ? ",}  " : " x  ", 4);
				n += below(2) ? 2 : 4;
			}
			break;
		}
	}
	return n;
}

#endif
