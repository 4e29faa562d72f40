/*
 * body.c: the bounded body buffer (body.h).
 */
#include "body.h"

#include <stdlib.h>
#include <string.h>

bool
body_append(struct body *b, const char *chunk, size_t n, size_t max)
{
	if (b->too_large)
		return false;
	if (n > max || b->len > max - n) {
		body_free(b);
		b->too_large = true;
		return false;
	}
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 1024;
		char *grown;

		while (cap < b->len + n + 1)
			cap *= 2;
		if (cap > max + 1)
			cap = max + 1;
		grown = realloc(b->data, cap);
		if (grown == NULL) {
			body_free(b);
			b->too_large = true;
			return false;
		}
		b->data = grown;
		b->cap = cap;
	}
	memcpy(b->data + b->len, chunk, n);
	b->len += n;
	b->data[b->len] = '\0';
	return true;
}

void
body_free(struct body *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}
