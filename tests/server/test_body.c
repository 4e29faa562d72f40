/*
 * test_body.c: the bounded body buffer. A body may reach the limit exactly
 * and no further; past it the bytes already held are freed at once and
 * nothing more is kept, whatever arrives later.
 */
#include <stdlib.h>
#include <string.h>

#include "body.h"
#include "tap.h"

int
main(void)
{
	struct body b = { 0 };
	char chunk[700];
	size_t i;

	memset(chunk, 'x', sizeof chunk);
	ok(body_append(&b, "{\"a\":1}", 7, 1024) && b.len == 7 && strcmp(b.data, "{\"a\":1}") == 0,
	    "a small body is kept and NUL-terminated");
	ok(b.cap >= 8 && b.cap <= 1025, "the buffer is no larger than the limit plus one (%zu)", b.cap);
	body_free(&b);
	ok(b.data == NULL && b.len == 0 && !b.too_large, "freed, the struct is empty again");

	/* Up to the limit exactly, in chunks. */
	for (i = 0; i < 2; i++)
		body_append(&b, chunk, 500, 1024);
	ok(!b.too_large && b.len == 1000, "1000 of 1024 bytes in two chunks");
	ok(body_append(&b, chunk, 24, 1024) && b.len == 1024 && b.data[1024] == '\0',
	    "the limit exactly is accepted");
	ok(b.cap == 1025, "and the buffer is the limit plus the NUL (%zu)", b.cap);
	ok(!body_append(&b, "y", 1, 1024) && b.too_large, "one byte more is too large");
	ok(b.data == NULL && b.len == 0 && b.cap == 0, "the bytes held are freed at once");
	ok(!body_append(&b, "z", 1, 1024) && b.data == NULL, "later chunks are not kept");
	body_free(&b);
	memset(&b, 0, sizeof b);

	/* One chunk larger than the limit, and a length that would overflow. */
	ok(!body_append(&b, chunk, sizeof chunk, 600) && b.too_large && b.data == NULL,
	    "a first chunk past the limit is refused");
	memset(&b, 0, sizeof b);
	body_append(&b, "ab", 2, 1024);
	ok(!body_append(&b, chunk, (size_t)-1, 1024) && b.too_large,
	    "a chunk length that would overflow the count is refused");
	body_free(&b);
	return tap_done();
}
