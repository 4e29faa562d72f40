/*
 * fuzz_trust.c: libFuzzer target for everything in the trust library that
 * reads outside input: tokens (v4.local, v4.public, footers), PASERK keys,
 * agent keys and agent-check answers, plus puzzle generation from
 * arbitrary seeds. Built only with a compiler that links -fsanitize=fuzzer
 * (clang); run by hand, e.g.
 *
 *     build/tests/trust/fuzz_trust -max_total_time=300 -max_len=4096
 *
 * Each input is used whole by every reader; the first byte also picks an
 * expected footer rule. Invariants are checked with abort(): nothing
 * opens under a key the input cannot know, outputs stay within their
 * stated bounds, a puzzle keeps its promises.
 */
#include <sodium.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "agentkey.h"
#include "paseto.h"
#include "puzzle.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const uint8_t KEY[32] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
	17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32 };

static void
check(int cond)
{
	if (!cond)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready;
	const char *text = (const char *)data;
	uint8_t *out, pk[32], sk[64], k[64];
	size_t olen = 0;
	enum paseto_err e;
	const uint8_t *f = size > 0 && data[0] & 1 ? (const uint8_t *)"" : NULL;

	if (!ready) {
		if (sodium_init() < 0)
			abort();
		ready = 1;
	}
	out = malloc(size + 1);
	if (out == NULL)
		return 0;
	crypto_sign_seed_keypair(pk, sk, KEY);

	e = paseto_v4_local_decrypt(out, size, &olen, KEY, text, size, f, 0, NULL, 0);
	check(e != PASETO_OK && e != PASETO_ERR_BUFFER);
	e = paseto_v4_public_verify(out, size, &olen, pk, text, size, f, 0, NULL, 0);
	check(e != PASETO_OK && e != PASETO_ERR_BUFFER);
	for (int p = 0; p < 2; p++) {
		e = paseto_v4_footer(p ? PASETO_V4_PUBLIC : PASETO_V4_LOCAL, text, size, out, size, &olen);
		check(e != PASETO_ERR_BUFFER);
		if (e == PASETO_OK)
			check(olen < size);
	}
	if (paseto_k4_local_parse(k, text, size) == PASETO_OK)
		check(size == PASERK_K4_LOCAL_LEN);
	if (paseto_k4_public_parse(k, text, size) == PASETO_OK)
		check(size == PASERK_K4_PUBLIC_LEN);
	if (paseto_k4_secret_parse(k, text, size) == PASETO_OK)
		check(size == PASERK_K4_SECRET_LEN);

	{
		char id[AGENTKEY_ID_LEN + 1];

		if (agentkey_parse(text, size, id) == AGENTKEY_OK)
			check(size == AGENTKEY_LEN && memcmp(id, text + AGENTKEY_PREFIX_LEN, AGENTKEY_ID_LEN) == 0);
	}
	{
		int64_t v = 0;
		json_error_t err;
		json_t *j;

		if (puzzle_answer_text(text, size, &v) == PUZZLE_ANSWER_WHOLE)
			check(v >= -PUZZLE_ANSWER_MAX && v <= PUZZLE_ANSWER_MAX);
		j = json_loadb(text, size, JSON_DECODE_ANY | JSON_ALLOW_NUL, &err);
		if (j != NULL && puzzle_answer_json(j, &v) == PUZZLE_ANSWER_WHOLE)
			check(v >= -PUZZLE_ANSWER_MAX && v <= PUZZLE_ANSWER_MAX);
		json_decref(j);
	}
	if (size >= PUZZLE_SEED_BYTES) {
		static struct puzzle p;

		puzzle_make(&p, data);
		check(p.answer >= 1 && p.answer <= PUZZLE_ANSWER_MAX);
		check(p.a >= 0 && p.a <= 999999 && p.b >= 0 && p.b <= 999999);
		check(strpbrk(p.text, "0123456789") == NULL);
		check(strlen(p.text) + 1 < sizeof p.text);
	}
	free(out);
	return 0;
}
