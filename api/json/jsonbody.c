/*
 * jsonbody.c: field checks over jansson values. Messages are short and
 * name the field, so that a bot author sees at once what to fix.
 */
#include "jsonbody.h"

#include <stdio.h>
#include <string.h>

#include "puzzle.h"
#include "quote.h"
#include "jw.h"

static const char *const common[] = { JSONBODY_COMMON_FIELDS, NULL };

static bool
listed(const char *key, const char *const *list)
{
	for (; list != NULL && *list != NULL; list++)
		if (strcmp(key, *list) == 0)
			return true;
	return false;
}

bool
jsonbody_known(const json_t *obj, const char *const *allowed, char *msg, size_t cap)
{
	const char *key;
	json_t *v;

	if (obj == NULL)
		return true;
	json_object_foreach((json_t *)obj, key, v) {
		if (!listed(key, allowed) && !listed(key, common)) {
			char q[QUOTE_CAP(60)];
			size_t n, i;

			n = (size_t)snprintf(msg, cap, "unknown field '%s'", text_quote(q, sizeof q, key, 60));
			/* What the route does take, so that `command` for `action`
			 * (or a casing slip) says what to send instead. */
			for (i = 0; allowed != NULL && allowed[i] != NULL && n < cap; i++)
				n += (size_t)snprintf(msg + n, cap - n, "%s%s", i == 0 ? "; this route takes " : ", ",
				    allowed[i]);
			if (i == 0 && n < cap)
				snprintf(msg + n, cap - n, "; this route takes no fields");
			return false;
		}
	}
	return jsonbody_common_ok(obj, msg, cap);
}

bool
jsonbody_common_ok(const json_t *obj, char *msg, size_t cap)
{
	const json_t *v;

	if (obj == NULL)
		return true;
	/* The common fields have fixed types wherever they come. */
	v = json_object_get(obj, "agent_check");
	if (v != NULL && !json_is_string(v)) {
		snprintf(msg, cap, "field 'agent_check' must be the puzzle's token, a string");
		return false;
	}
	v = json_object_get(obj, "agent_answer");
	if (v != NULL && !json_is_string(v) && !json_is_number(v)) {
		snprintf(msg, cap, "field 'agent_answer' must be a number or a numeric string");
		return false;
	}
	/* Text that is no number at all ("seventeen") is a malformed body,
	 * refused before any puzzle is touched; a number that is merely wrong
	 * (17.5, 18) is judged, and spends the puzzle. */
	if (json_is_string(v) && puzzle_answer_json(v, NULL) == PUZZLE_ANSWER_NAN) {
		snprintf(msg, cap, "field 'agent_answer': %s", JSONBODY_ANSWER_NOT_A_NUMBER);
		return false;
	}
	return true;
}

bool
jsonbody_string(const json_t *obj, const char *name, const char **out, char *msg, size_t cap)
{
	const json_t *v = obj != NULL ? json_object_get(obj, name) : NULL;

	if (v == NULL) {
		snprintf(msg, cap, "missing field '%s'", name);
		return false;
	}
	if (!json_is_string(v)) {
		snprintf(msg, cap, "field '%s' must be a string", name);
		return false;
	}
	*out = json_string_value(v);
	return true;
}

bool
jsonbody_int(const json_t *obj, const char *name, int64_t lo, int64_t hi, bool *present,
    int64_t *out, char *msg, size_t cap)
{
	const json_t *v = obj != NULL ? json_object_get(obj, name) : NULL;

	*present = v != NULL;
	if (v == NULL)
		return true;
	if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi) {
		snprintf(msg, cap, "field '%s' must be an integer from %lld to %lld", name,
		    (long long)lo, (long long)hi);
		return false;
	}
	*out = json_integer_value(v);
	return true;
}

bool
jsonbody_parse_int(const char *text, int64_t lo, int64_t hi, int64_t *out)
{
	int64_t v = 0;
	const char *p = text;

	if (text == NULL || *p < '0' || *p > '9' || (p[0] == '0' && p[1] != '\0'))
		return false;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > (INT64_MAX - 9) / 10)
			return false;
		v = v * 10 + (*p - '0');
	}
	if (*p != '\0' || v < lo || v > hi)
		return false;
	*out = v;
	return true;
}

bool
jsonbody_utf8(const char *s, size_t len, size_t *nchars)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + len;
	size_t n = 0;

	while (p < end) {
		unsigned c = *p;
		size_t k;
		unsigned cp;

		if (c == 0)
			return false;
		if (c < 0x80) {
			p++;
			n++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf)
			k = 1, cp = c & 0x1f;
		else if (c >= 0xe0 && c <= 0xef)
			k = 2, cp = c & 0x0f;
		else if (c >= 0xf0 && c <= 0xf4)
			k = 3, cp = c & 0x07;
		else
			return false;
		if ((size_t)(end - p) <= k)
			return false;
		for (size_t i = 1; i <= k; i++) {
			if ((p[i] & 0xc0) != 0x80)
				return false;
			cp = (cp << 6) | (p[i] & 0x3f);
		}
		if ((k == 2 && cp < 0x800) || (k == 3 && (cp < 0x10000 || cp > 0x10ffff)) ||
		    (cp >= 0xd800 && cp <= 0xdfff))
			return false;
		p += k + 1;
		n++;
	}
	*nchars = n;
	return true;
}

static size_t
skip_ws(const char *s, size_t len, size_t i)
{
	while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n'))
		i++;
	return i;
}

/* Whether s[*i..len) opens with lit (after JSON whitespace); passes it. */
static bool
skip_lit(const char *s, size_t len, size_t *i, const char *lit, size_t n)
{
	size_t at = skip_ws(s, len, *i);

	if (len - at < n || memcmp(s + at, lit, n) != 0)
		return false;
	*i = at + n;
	return true;
}

/* Whether text opens with {"stateToken":"TOKEN" (JSON whitespace between
 * the parts), TOKEN plain ASCII (no control character, quote or
 * backslash): then TOKEN is text[*t0..*t1) and *i is just past its
 * closing quote. */
static bool
token_opens(const char *text, size_t len, size_t *t0, size_t *t1, size_t *i)
{
	size_t at = 0, end;

	if (!skip_lit(text, len, &at, "{", 1) || !skip_lit(text, len, &at, "\"stateToken\"", 12) ||
	    !skip_lit(text, len, &at, ":", 1) || !skip_lit(text, len, &at, "\"", 1))
		return false;
	for (end = at; len - end >= 8 && jw_plain8(text + end); end += 8)
		;
	while (end < len && text[end] != '"' && text[end] != '\\' && (unsigned char)text[end] >= 0x20 &&
	    (unsigned char)text[end] < 0x80)
		end++;
	if (end == len || text[end] != '"')
		return false;
	*t0 = at;
	*t1 = end;
	*i = end + 1;
	return true;
}

json_t *
jsonbody_token_only(const char *text, size_t len)
{
	size_t t0, t1, i;
	json_t *out;

	if (!token_opens(text, len, &t0, &t1, &i) || (out = json_object()) == NULL)
		return NULL;
	if (json_object_set_new(out, "stateToken", json_stringn(text + t0, t1 - t0)) != 0) {
		json_decref(out);
		return NULL;
	}
	return out;
}

json_t *
jsonbody_load_token_first(char *text, size_t len)
{
	json_t *rest, *out = NULL, *v;
	const char *key;
	size_t i = 0, t, t0, t1;

	if (!token_opens(text, len, &t0, &t1, &i) || !skip_lit(text, len, &i, ",", 1))
		return NULL;
	/* A key must follow the comma: {"stateToken":"...",} is not JSON,
	 * though {} is. */
	t = skip_ws(text, len, i);
	if (t == len || text[t] != '"')
		return NULL;
	/* The rest, from the comma, read as an object of its own: the comma
	 * stands in for the opening brace while jansson reads it. */
	text[i - 1] = '{';
	rest = json_loadb(text + i - 1, len - i + 1, JSON_REJECT_DUPLICATES, NULL);
	text[i - 1] = ',';
	/* A second stateToken is jansson's duplicate to refuse, with its
	 * message: the whole body goes to it. */
	if (rest != NULL && json_object_get(rest, "stateToken") == NULL &&
	    (out = json_object()) != NULL &&
	    json_object_set_new(out, "stateToken", json_stringn(text + t0, t1 - t0)) == 0) {
		json_object_foreach(rest, key, v) {
			if (json_object_set(out, key, v) != 0) {
				json_decref(out);
				out = NULL;
				break;
			}
		}
	} else if (out != NULL) {
		json_decref(out);
		out = NULL;
	}
	json_decref(rest);
	return out;
}

json_t *
jsonbody_load(char *text, size_t len, json_error_t *err)
{
	json_t *v = jsonbody_load_token_first(text, len);

	return v != NULL ? v : json_loadb(text, len, JSON_REJECT_DUPLICATES, err);
}
