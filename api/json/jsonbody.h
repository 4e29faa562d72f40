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

#define JSONBODY_MSG_MAX 320

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
 * field and the fields the route takes. */
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

/* The request body text[0..len) as json_loadb(text, len,
 * JSON_REJECT_DUPLICATES, err) reads it: the same value (keys in the same
 * order) or NULL with jansson's error. A game body that opens with
 * {"stateToken":"...", (JSON whitespace allowed between the parts) and
 * whose token is ASCII without a control character, a quote or a
 * backslash (every token is base64url and dots) takes a shorter road: jansson parses only what follows the token, and the token
 * is copied as it is. A token is most of a game body and jansson's lexer
 * spends about 150 instructions a byte, a fifth of a Duskcourt action
 * (tests/bench/RESULTS.md, "The request body"); tests/api/test_jsonload.c
 * holds this to json_loadb on real and broken bodies. text is written to
 * (one byte, for the length of the call) and left as it was. */
json_t *jsonbody_load(char *text, size_t len, json_error_t *err);

/* The shorter road alone: NULL when the body does not take it or jansson
 * refuses what follows the token (jsonbody_load then reads it whole). */
json_t *jsonbody_load_token_first(char *text, size_t len);

/* The token alone, nothing after it read: {"stateToken": TOKEN} when the
 * body opens as the shorter road asks, else NULL. For a request refused
 * before it is served (a rate limit), whose refusal shows the run: what
 * the client sent beyond its token is never parsed. */
json_t *jsonbody_token_only(const char *text, size_t len);

#endif
