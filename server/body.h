/*
 * body.h: a request body as it arrives, bounded. Chunks are appended until
 * the total would pass the limit; from then on the body is dropped (its
 * memory freed at once) and only the fact that it was too large is kept,
 * so a client cannot make the daemon hold more than the limit per request.
 * The buffer grows by doubling, is never larger than the limit plus one,
 * and is always NUL-terminated once it holds anything.
 */
#ifndef SERVER_BODY_H
#define SERVER_BODY_H

#include <stdbool.h>
#include <stddef.h>

struct body {
	char  *data;       /* NUL-terminated when len > 0; NULL while empty */
	size_t len, cap;
	bool   too_large;  /* the limit was passed (or memory ran out): data is gone */
};

/* Appends n bytes unless that passes max in all; false once too large. */
bool body_append(struct body *b, const char *chunk, size_t n, size_t max);

/* Frees the buffer; the struct may be reused. */
void body_free(struct body *b);

#endif
