/*
 * jsonbody.h: reading request bodies. Each helper checks one thing and,
 * when it fails, writes a message that names the field, for a 400.
 */
#ifndef API_JSONBODY_H
#define API_JSONBODY_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JSONBODY_MSG_MAX 160

/* Top-level fields every JSON route accepts besides its own: the agent
 * check's answer may travel in any body. */
#define JSONBODY_COMMON_FIELDS "agent_check", "agent_answer"

/* What a non-numeric agent-check answer is told, in a body field or the
 * X-Agent-Answer header (the 400 spends no puzzle). */
#define JSONBODY_ANSWER_NOT_A_NUMBER \
	"the answer is a number: send the puzzle's answer in digits (like 17); this puzzle is not spent"

/* Whether every key of obj (may be NULL: an empty body) is in allowed
 * (NULL-terminated) or a common field, and the common fields have their
 * types (agent_check a string, agent_answer a number or a string that
 * reads as one, see puzzle_answer_text); else writes a message naming the
 * field. */
bool jsonbody_known(const json_t *obj, const char *const *allowed, char *msg, size_t cap);

/* The common fields' types alone, whatever else obj holds (the seed's
 * routes ignore fields they do not know). */
bool jsonbody_common_ok(const json_t *obj, char *msg, size_t cap);

/* A required string field: false with a message when missing or not a
 * string. *out is borrowed from obj. */
bool jsonbody_string(const json_t *obj, const char *name, const char **out, char *msg, size_t cap);

/* An optional integer field in [lo, hi]: *present says whether it was
 * given. A real, a string or an out-of-range number is refused. */
bool jsonbody_int(const json_t *obj, const char *name, int64_t lo, int64_t hi, bool *present,
    int64_t *out, char *msg, size_t cap);

/* Parses a decimal integer in [lo, hi] from text (a query argument): no
 * sign, spaces or leading zeros. */
bool jsonbody_parse_int(const char *text, int64_t lo, int64_t hi, int64_t *out);

/* Whether s (len bytes) is valid UTF-8 with no NUL; *nchars receives the
 * number of code points. */
bool jsonbody_utf8(const char *s, size_t len, size_t *nchars);

#endif
