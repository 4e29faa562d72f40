/*
 * quote.h: a client's text inside a message, cut on a character boundary.
 *
 * Error messages name what the client sent (a field, a path segment, an
 * action type). The client's bytes may be long, may not be UTF-8 at all,
 * and a cut by bytes can fall inside a character, which JSON cannot carry.
 * text_quote() is the one way messages quote such text.
 */
#ifndef API_QUOTE_H
#define API_QUOTE_H

#include <stddef.h>

/* Room for a quote of n characters of up to 4 bytes each, its "..." and
 * the NUL. */
#define QUOTE_CAP(n) ((n) * 4 + 4)

/* A quote small enough for an engine reason (ENGINE_REASON_MAX, 160
 * bytes) with its sentence around it: 40 characters of ASCII, fewer when
 * they are wider. */
#define QUOTE_SHORT 88

/* Writes into dst (cap bytes, cap >= 4) at most max characters of src:
 * whole UTF-8 characters only, each byte that does not start or continue
 * a valid character and each control character written as '?', and "..."
 * after the last one when src goes on. The result is always valid UTF-8
 * and NUL-terminated; src NULL reads as "". Returns dst. */
const char *text_quote(char *dst, size_t cap, const char *src, size_t max);


/* Makes s (NUL-terminated, in cap bytes) valid UTF-8 in place when it is
 * not: a message built with a byte cap, or from bytes a client sent, as
 * text_quote writes it (cut on a boundary, '?' for what is no character).
 * s is left as it is when it is valid. */
void text_repair(char *s, size_t cap);

#endif
