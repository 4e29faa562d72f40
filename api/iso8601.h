/* iso8601.h: Unix seconds as an ISO 8601 UTC date-time, the DateTime form
 * PASETO claims use ("2026-11-29T12:00:00+00:00"). */
#ifndef API_ISO8601_H
#define API_ISO8601_H

#include <stddef.h>
#include <stdint.h>

#define ISO8601_MAX 32

/* Writes the NUL-terminated text into out (capacity cap, ISO8601_MAX
 * always suffices). */
void iso8601_format(char *out, size_t cap, int64_t secs);

#endif
