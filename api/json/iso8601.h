/* iso8601.h: Unix seconds as an ISO 8601 UTC date-time, the DateTime form
 * PASETO claims use ("2026-11-29T12:00:00+00:00"). */
#ifndef API_ISO8601_H
#define API_ISO8601_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ISO8601_MAX 32

/* Writes the NUL-terminated text into out (capacity cap, ISO8601_MAX
 * always suffices). */
void iso8601_format(char *out, size_t cap, int64_t secs);

/* A time in Unix milliseconds as the answers write it: the text above
 * (whole seconds), or JSON null for 0 or less (not yet, or never). */
json_t *iso8601_ms_json(int64_t ms);

/* The same written into w (the writers' form of it), and as the member
 * key of the object w is in. */
struct jw;
void iso8601_ms_write(struct jw *w, int64_t ms);
void iso8601_ms_member(struct jw *w, const char *key, int64_t ms);

/* Reads exactly the form iso8601_format writes (years 1970-9999, "+00:00"
 * or "Z" for UTC) into Unix seconds. False for anything else. */
bool iso8601_parse(const char *text, int64_t *secs);

#endif
