/*
 * test_jsonbody.c: the request-body helpers: unknown and common fields,
 * integers in range, query integers, UTF-8 and its character count.
 */
#include <string.h>

#include <jansson.h>

#include "jsonbody.h"
#include "tap.h"

int
main(void)
{
	static const char *const fields[] = { "seed", NULL };
	char msg[JSONBODY_MSG_MAX];
	json_t *o;
	int64_t v = 0;
	bool present;
	size_t n;

	o = json_pack("{s:i, s:s, s:i}", "seed", 7, "agent_check", "ac_x", "agent_answer", 3);
	ok(jsonbody_known(o, fields, msg, sizeof msg), "own and common fields are known");
	json_object_set_new(o, "sede", json_integer(1));
	ok(!jsonbody_known(o, fields, msg, sizeof msg) && strstr(msg, "'sede'") != NULL,
	    "an unknown field is named: %s", msg);
	json_decref(o);
	o = json_pack("{s:i}", "agent_check", 5);
	ok(!jsonbody_known(o, fields, msg, sizeof msg) && strstr(msg, "agent_check") != NULL,
	    "agent_check must be a string");
	json_decref(o);
	o = json_pack("{s:[]}", "agent_answer");
	ok(!jsonbody_known(o, fields, msg, sizeof msg), "agent_answer must be a number or a string");
	json_decref(o);
	o = json_pack("{s:s}", "agent_answer", "seventeen");
	ok(!jsonbody_known(o, fields, msg, sizeof msg) && strstr(msg, "the answer is a number") != NULL,
	    "an agent_answer in words is refused: %s", msg);
	json_object_set_new(o, "agent_answer", json_string(""));
	ok(!jsonbody_known(o, fields, msg, sizeof msg), "so is an empty one");
	json_object_set_new(o, "agent_answer", json_string(" 17.00 "));
	ok(jsonbody_known(o, fields, msg, sizeof msg), "a numeric string passes, to be judged");
	json_object_set_new(o, "agent_answer", json_string("17.5"));
	ok(jsonbody_known(o, fields, msg, sizeof msg), "a number that is not whole passes too (judged wrong)");
	json_object_set_new(o, "agent_answer", json_real(2.5));
	ok(jsonbody_known(o, fields, msg, sizeof msg), "and a JSON real");
	json_decref(o);
	ok(jsonbody_known(NULL, fields, msg, sizeof msg), "an empty body is fine");

	o = json_pack("{s:I}", "seed", (json_int_t)9007199254740991);
	ok(jsonbody_int(o, "seed", 0, 9007199254740991, &present, &v, msg, sizeof msg) && present &&
	    v == 9007199254740991, "the largest seed is in range");
	json_object_set_new(o, "seed", json_integer(-1));
	ok(!jsonbody_int(o, "seed", 0, 10, &present, &v, msg, sizeof msg), "below the range is refused");
	json_object_set_new(o, "seed", json_real(1.0));
	ok(!jsonbody_int(o, "seed", 0, 10, &present, &v, msg, sizeof msg), "a real is refused, even 1.0");
	json_object_set_new(o, "seed", json_string("1"));
	ok(!jsonbody_int(o, "seed", 0, 10, &present, &v, msg, sizeof msg), "a string is refused");
	json_object_del(o, "seed");
	ok(jsonbody_int(o, "seed", 0, 10, &present, &v, msg, sizeof msg) && !present, "absent is fine");
	json_decref(o);

	ok(jsonbody_parse_int("0", 0, 5, &v) && v == 0, "query integer 0");
	ok(jsonbody_parse_int("9007199254740991", 0, 9007199254740991, &v), "query integer 2^53-1");
	ok(!jsonbody_parse_int("07", 0, 10, &v), "no leading zeros");
	ok(!jsonbody_parse_int("-1", -5, 10, &v), "no sign");
	ok(!jsonbody_parse_int("", 0, 10, &v) && !jsonbody_parse_int("1x", 0, 10, &v), "digits only");
	ok(!jsonbody_parse_int("99999999999999999999999", 0, INT64_MAX, &v), "no overflow");

	ok(jsonbody_utf8("h\xc3\xa9llo \xe2\x98\x83 \xf0\x9f\x98\x80", 15, &n) && n == 9,
	    "UTF-8 counts characters, not bytes (%zu)", n);
	ok(!jsonbody_utf8("\xc0\xaf", 2, &n), "an overlong form is refused");
	ok(!jsonbody_utf8("\xed\xa0\x80", 3, &n), "a surrogate is refused");
	ok(!jsonbody_utf8("a\0b", 3, &n), "a NUL is refused");
	ok(!jsonbody_utf8("\xe2\x98", 2, &n), "a cut sequence is refused");
	return tap_done();
}
