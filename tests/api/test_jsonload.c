/*
 * test_jsonload.c: jsonbody_load against json_loadb, on game bodies as
 * clients write them (compact, spaced, indented, other keys before or
 * after the action) and on the same bodies broken: bytes changed, cut,
 * added, a token with escapes or bytes outside printable ASCII, a second
 * stateToken, a trailing comma. Both readers must agree on every body:
 * the same value with its keys in the same order, or the same error at
 * the same place; the body must be left as it was; and the short road
 * must be taken by every well-formed body that opens with the token.
 * argv[1]: the number of bodies (default 100000).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "jsonbody.h"
#include "tap.h"
#include "xorshift.h"
#include "json_damage.h"

#define BODY_MAX 8192

static uint64_t rng = 0x9e3779b97f4a7c15u;

static uint32_t
below(uint32_t n)
{
	return xorshift_below(&rng, n);
}

static const char *const texts[] = {
	"capture", "next", "left", "rotate", "drop", "é", "\xe2\x82\xac", "tab\there", "q\"uote",
	"back\\slash", "", "stateToken", "action", "\xf0\x9f\x8e\xb2", "nul?",
};

/* A random JSON value, depth at most d. */
static json_t *
value(int d)
{
	json_t *v;
	int i, n;

	switch (below(d > 0 ? 9 : 6)) {
	case 0: return json_integer((json_int_t)below(100000) - 500);
	case 1: return json_real((double)below(1000) / 8.0);
	case 2: return json_string(texts[below(sizeof texts / sizeof texts[0])]);
	case 3: return json_true();
	case 4: return json_false();
	case 5: return json_null();
	case 6:
		v = json_array();
		for (i = 0, n = (int)below(4); i < n; i++)
			json_array_append_new(v, value(d - 1));
		return v;
	default:
		v = json_object();
		for (i = 0, n = (int)below(4); i < n; i++)
			json_object_set_new(v, texts[below(sizeof texts / sizeof texts[0])], value(d - 1));
		return v;
	}
}

/* Appends s to b at *n (within BODY_MAX). */
static void
add(char *b, size_t *n, const char *s)
{
	size_t k = strlen(s);

	if (*n + k < BODY_MAX) {
		memcpy(b + *n, s, k);
		*n += k;
	}
}

static void
ws(char *b, size_t *n, bool spaced)
{
	static const char *const kinds[] = { " ", "\n", "\t", "\r\n  ", "  " };

	if (spaced && below(2) == 0)
		add(b, n, kinds[below(5)]);
}

/* A token: base64url and dots, now and then with a character a real
 * token never has. */
static void
token(char *b, size_t *n)
{
	static const char alpha[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.";
	static const char *const odd[] = { "\\/", "\\u0041", "\\\"", "\xc3\xa9", "\x7f", "\x01",
		"\xff", " ", "\\n" };
	size_t len = 8 + below(700), i;
	char c[2] = { 0, 0 };

	add(b, n, "v4.local.");
	for (i = 0; i < len; i++) {
		if (below(2000) == 0) {
			add(b, n, odd[below(sizeof odd / sizeof odd[0])]);
			continue;
		}
		c[0] = alpha[below(sizeof alpha - 1)];
		add(b, n, c);
	}
}

/* A body as a client writes it: the token first or not, the action, and
 * sometimes other keys. */
static size_t
body(char *b)
{
	bool spaced = below(2) == 0, first = below(8) != 0;
	size_t n = 0;
	json_t *v;
	char *text;
	int extra = (int)below(3), i;

	add(b, &n, "{");
	ws(b, &n, spaced);
	if (!first) {
		add(b, &n, "\"agent_check\":\"ac_1\",");
		ws(b, &n, spaced);
	}
	add(b, &n, "\"stateToken\"");
	ws(b, &n, spaced);
	add(b, &n, ":");
	ws(b, &n, spaced);
	add(b, &n, "\"");
	token(b, &n);
	add(b, &n, "\"");
	for (i = 0; i < extra + 1; i++) {
		ws(b, &n, spaced);
		add(b, &n, ",");
		ws(b, &n, spaced);
		add(b, &n, i == 0 ? "\"action\"" : i == 1 ? "\"command\"" : "\"stateToken\"");
		ws(b, &n, spaced);
		add(b, &n, ":");
		ws(b, &n, spaced);
		v = value(3);
		text = json_dumps(v, JSON_ENCODE_ANY | (below(2) ? JSON_COMPACT : JSON_INDENT(below(4))) |
		    (below(2) ? JSON_ENSURE_ASCII : 0));
		add(b, &n, text);
		free(text);
		json_decref(v);
	}
	ws(b, &n, spaced);
	add(b, &n, "}");
	ws(b, &n, spaced);
	return n;
}

/* One to three changed, added or removed bytes, a cut, or a tail. */
static size_t
damage(char *b, size_t n)
{
	static const char bytes[] = "{}[]\",:\\ \n0aeu\x01\x80\xc3\xff";

	return json_damage(b, n, BODY_MAX, bytes, sizeof bytes - 1, below);
}

int
main(int argc, char **argv)
{
	static char b[BODY_MAX], copy[BODY_MAX], orig[BODY_MAX];
	unsigned long count = argc > 1 ? strtoul(argv[1], NULL, 10) : 100000, i;
	unsigned long agree = 0, apart = 0, valid = 0, refused = 0, short_road = 0, eligible = 0;
	unsigned long untouched = 0;
	static const char *const fixed[] = {
		"{\"stateToken\":\"v4.local.x\",}",
		"{\"stateToken\":\"v4.local.x\", }",
		"{\"stateToken\":\"v4.local.x\",\"stateToken\":\"y\"}",
		"{\"stateToken\":\"v4.local.x\",\"action\":{}} x",
		"{\"stateToken\":\"v4.local.x\",\"action\":{}}\n",
		"{\"stateToken\":\"v4.local.x\"}",
		"{\"stateToken\":\"v4.local.\\u0078\",\"a\":1}",
		"{\"stateToken\":\"\",\"a\":1}",
		"{\"stateToken\" : \"t\" , \"a\" : [1, 2]}",
		"{\"stateToken\":\"t\",\"a\":1,\"a\":2}",
		"{\"stateToken\":\"t\",\"a\":\"\\u0000\"}",
		"{\"stateToken\":\"t\",\"\\u0000\":1}",
		"{\"stateToken\":\"t\",\"a\":1",
		"{\"stateToken\":\"t\",",
		"{\"stateToken\":\"t\"",
		"{\"stateToken\":\"t",
	};
	size_t nfixed = sizeof fixed / sizeof fixed[0];

	for (i = 0; i < count + nfixed; i++) {
		size_t n;
		json_t *a, *c, *s;
		json_error_t ea, ec;
		char *ta = NULL, *tc = NULL;
		bool same;

		if (i < nfixed) {
			n = strlen(fixed[i]);
			memcpy(b, fixed[i], n);
		} else {
			n = body(b);
			if (below(3) == 0)
				n = damage(b, n);
		}
		memcpy(orig, b, n);
		memcpy(copy, b, n);
		a = json_loadb(copy, n, JSON_REJECT_DUPLICATES, &ea);
		c = jsonbody_load(b, n, &ec);
		untouched += memcmp(orig, b, n) == 0;
		s = jsonbody_load_token_first(b, n);
		if (a != NULL) {
			valid++;
			ta = json_dumps(a, JSON_COMPACT | JSON_ENCODE_ANY);
			if (json_is_object(a) && memchr(orig, '"', n) != NULL) {
				/* Eligible: an object whose first key is the token, a
				 * plain one, with more keys after it. */
				const char *first = json_object_iter_key(json_object_iter(a));
				json_t *tok = json_object_get(a, "stateToken");
				size_t k;
				bool plain = tok != NULL && json_is_string(tok);

				for (k = 0; plain && k < json_string_length(tok); k++) {
					unsigned char ch = (unsigned char)json_string_value(tok)[k];

					plain = ch >= 0x20 && ch < 0x80 && ch != '"' && ch != '\\';
				}
				if (first != NULL && strcmp(first, "stateToken") == 0 && plain &&
				    json_object_size(a) > 1 && memchr(orig, '\\', n) == NULL) {
					eligible++;
					short_road += s != NULL;
				}
			}
		} else {
			refused++;
		}
		if (c != NULL)
			tc = json_dumps(c, JSON_COMPACT | JSON_ENCODE_ANY);
		same = (a == NULL) == (c == NULL);
		if (same && a != NULL)
			same = json_equal(a, c) && strcmp(ta, tc) == 0;
		if (same && a == NULL)
			same = strcmp(ea.text, ec.text) == 0 && ea.line == ec.line &&
			    ea.column == ec.column && ea.position == ec.position;
		if (same && s != NULL)
			same = a != NULL && json_equal(a, s);
		if (same) {
			agree++;
		} else if (apart++ < 5) {
			diag("apart on body %lu: %.*s", i, (int)(n < 300 ? n : 300), orig);
			diag("  json_loadb: %s / jsonbody_load: %s", ta ? ta : ea.text, tc ? tc : ec.text);
		}
		free(ta);
		free(tc);
		json_decref(a);
		json_decref(c);
		json_decref(s);
	}
	ok(apart == 0 && agree == count + nfixed,
	    "jsonbody_load reads %lu bodies as json_loadb does (%lu apart; %lu read, %lu refused)",
	    agree, apart, valid, refused);
	ok(untouched == count + nfixed, "every body is left as it was (%lu of %lu)", untouched,
	    count + nfixed);
	ok(eligible > count / 5 && short_road == eligible,
	    "the short road takes every plain token-first body (%lu of %lu)", short_road, eligible);
	ok(refused > count / 5 && valid > count / 3 && eligible > 0, "the bodies are well formed and broken alike "
	    "(%lu and %lu)", valid, refused);
	return tap_done();
}
