/*
 * test_paseto.c: PASETO v4 and PASERK k4 against the official vectors, and
 * the parser against tampering.
 *
 * argv[1] is the data folder holding paseto-v4.json, paserk-k4.lid.json and
 * paserk-k4.pid.json (copies of paseto-standard/test-vectors, ISC). Every
 * vector in them is run; the counts are asserted so a vector cannot be
 * skipped silently. Then: 10,000 random text-level and blob-level
 * mutations plus every truncation of real v4.local tokens (footer and
 * implicit assertion set), wrong keys and assertions, tokens of the other
 * purpose, non-canonical base64, buffer sizes, PAE and PASERK round trips.
 */
#include <sodium.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdlib.h>

#include "paseto.h"
#include "tap.h"

static int
unhex(uint8_t *out, size_t cap, size_t *len, const char *hex)
{
	size_t got = 0;

	if (sodium_hex2bin(out, cap, hex, strlen(hex), NULL, &got, NULL) != 0)
		return -1;
	*len = got;
	return 0;
}

static json_t *
load(const char *dir, const char *name)
{
	char path[1024];
	json_error_t err;
	json_t *j;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	j = json_load_file(path, 0, &err);
	if (j == NULL)
		diag("cannot load %s: %s (line %d)", path, err.text, err.line);
	return j;
}

static const char *
str(const json_t *o, const char *k)
{
	return json_string_value(json_object_get(o, k));
}

/* The error each must-fail vector has to produce, by name. */
static enum paseto_err
expected_failure(const char *name)
{
	if (strcmp(name, "4-F-1") == 0) return PASETO_ERR_HEADER;    /* v4.local token, public key */
	if (strcmp(name, "4-F-2") == 0) return PASETO_ERR_HEADER;    /* v4.public token, local key */
	if (strcmp(name, "4-F-3") == 0) return PASETO_ERR_HEADER;    /* v3.local */
	/* 4-F-4 is 4-E-1 with its last character changed in the unused low
	 * bits only: a lenient base64 decoder gets 4-E-1's bytes back and can
	 * only fail it on the MAC by luck of the nonce; a strict one refuses
	 * the spelling. */
	if (strcmp(name, "4-F-4") == 0) return PASETO_ERR_MALFORMED;
	if (strcmp(name, "4-F-5") == 0) return PASETO_ERR_MALFORMED; /* base64 padding */
	return PASETO_OK;
}

static void
vector_local(const json_t *t, const char *name)
{
	uint8_t key[32], nonce[32], m[1024];
	size_t klen, nlen, mlen = 0, tlen;
	char tok[2048];
	const char *want = str(t, "token"), *payload = str(t, "payload");
	const char *footer = str(t, "footer"), *ia = str(t, "implicit-assertion");
	enum paseto_err e;

	if (!ok(unhex(key, sizeof key, &klen, str(t, "key")) == 0 && klen == 32 &&
	    unhex(nonce, sizeof nonce, &nlen, str(t, "nonce")) == 0 && nlen == 32,
	    "%s: key and nonce decode", name))
		return;
	e = paseto_v4_local_encrypt_with_nonce(tok, sizeof tok, &tlen, key, nonce,
	    (const uint8_t *)payload, strlen(payload), (const uint8_t *)footer, strlen(footer),
	    (const uint8_t *)ia, strlen(ia));
	is_int(e, PASETO_OK, "%s: encrypt", name);
	is_str(tok, want, "%s: encrypt gives the vector's token", name);
	is_int(tlen, strlen(want), "%s: reported length", name);
	is_int(paseto_v4_local_token_len(strlen(payload), strlen(footer)), strlen(want),
	    "%s: paseto_v4_local_token_len", name);
	e = paseto_v4_local_decrypt(m, sizeof m, &mlen, key, want, strlen(want),
	    (const uint8_t *)footer, strlen(footer), (const uint8_t *)ia, strlen(ia));
	is_int(e, PASETO_OK, "%s: decrypt with expected footer", name);
	ok(mlen == strlen(payload) && memcmp(m, payload, mlen) == 0, "%s: payload", name);
	e = paseto_v4_local_decrypt(m, sizeof m, &mlen, key, want, strlen(want),
	    NULL, 0, (const uint8_t *)ia, strlen(ia));
	is_int(e, PASETO_OK, "%s: decrypt accepting any footer", name);
	e = paseto_v4_footer(PASETO_V4_LOCAL, want, strlen(want), m, sizeof m, &mlen);
	ok(e == PASETO_OK && mlen == strlen(footer) && memcmp(m, footer, mlen) == 0,
	    "%s: footer read before opening", name);
}

static void
vector_public(const json_t *t, const char *name)
{
	uint8_t sk[64], pk[32], pk2[32], sk2[64], seed[32], m[1024];
	size_t sklen, pklen, seedlen, mlen = 0, tlen;
	char tok[2048];
	const char *want = str(t, "token"), *payload = str(t, "payload");
	const char *footer = str(t, "footer"), *ia = str(t, "implicit-assertion");
	enum paseto_err e;

	if (!ok(unhex(sk, sizeof sk, &sklen, str(t, "secret-key")) == 0 && sklen == 64 &&
	    unhex(pk, sizeof pk, &pklen, str(t, "public-key")) == 0 && pklen == 32 &&
	    unhex(seed, sizeof seed, &seedlen, str(t, "secret-key-seed")) == 0 && seedlen == 32,
	    "%s: keys decode", name))
		return;
	crypto_sign_seed_keypair(pk2, sk2, seed);
	ok(memcmp(pk, pk2, 32) == 0 && memcmp(sk, sk2, 64) == 0, "%s: seed gives the key pair", name);
	e = paseto_v4_public_sign(tok, sizeof tok, &tlen, sk,
	    (const uint8_t *)payload, strlen(payload), (const uint8_t *)footer, strlen(footer),
	    (const uint8_t *)ia, strlen(ia));
	is_int(e, PASETO_OK, "%s: sign", name);
	is_str(tok, want, "%s: sign gives the vector's token", name);
	is_int(paseto_v4_public_token_len(strlen(payload), strlen(footer)), strlen(want),
	    "%s: paseto_v4_public_token_len", name);
	e = paseto_v4_public_verify(m, sizeof m, &mlen, pk, want, strlen(want),
	    (const uint8_t *)footer, strlen(footer), (const uint8_t *)ia, strlen(ia));
	is_int(e, PASETO_OK, "%s: verify", name);
	ok(mlen == strlen(payload) && memcmp(m, payload, mlen) == 0, "%s: payload", name);
	e = paseto_v4_footer(PASETO_V4_PUBLIC, want, strlen(want), m, sizeof m, &mlen);
	ok(e == PASETO_OK && mlen == strlen(footer) && memcmp(m, footer, mlen) == 0,
	    "%s: footer read before verifying", name);
}

static void
vector_fail(const json_t *t, const char *name)
{
	uint8_t key[64], m[1024];
	size_t klen, mlen = 0;
	const char *tok = str(t, "token"), *footer = str(t, "footer"), *ia = str(t, "implicit-assertion");
	enum paseto_err e, e_any;

	ok(json_is_null(json_object_get(t, "payload")), "%s: vector has no payload", name);
	/* The kind of key a vector carries is what its reader expects. */
	if (json_object_get(t, "public-key") != NULL) {
		if (!ok(unhex(key, sizeof key, &klen, str(t, "public-key")) == 0 && klen == 32,
		    "%s: public key decodes", name))
			return;
		e = paseto_v4_public_verify(m, sizeof m, &mlen, key, tok, strlen(tok),
		    (const uint8_t *)footer, strlen(footer), (const uint8_t *)ia, strlen(ia));
		e_any = paseto_v4_public_verify(m, sizeof m, &mlen, key, tok, strlen(tok),
		    NULL, 0, (const uint8_t *)ia, strlen(ia));
	} else {
		if (!ok(unhex(key, sizeof key, &klen, str(t, "key")) == 0 && klen == 32,
		    "%s: local key decodes", name))
			return;
		e = paseto_v4_local_decrypt(m, sizeof m, &mlen, key, tok, strlen(tok),
		    (const uint8_t *)footer, strlen(footer), (const uint8_t *)ia, strlen(ia));
		e_any = paseto_v4_local_decrypt(m, sizeof m, &mlen, key, tok, strlen(tok),
		    NULL, 0, (const uint8_t *)ia, strlen(ia));
	}
	ok(e != PASETO_OK, "%s: rejected (%s)", name, paseto_strerror(e));
	ok(e_any != PASETO_OK, "%s: rejected without a footer check (%s)", name, paseto_strerror(e_any));
	is_int(e, expected_failure(name), "%s: the expected error", name);
}

static void
test_vectors(const char *dir)
{
	json_t *root = load(dir, "paseto-v4.json"), *tests, *t;
	size_t k;
	int n_e = 0, n_s = 0, n_f = 0;

	if (!ok(root != NULL, "paseto-v4.json loads"))
		return;
	tests = json_object_get(root, "tests");
	json_array_foreach(tests, k, t) {
		const char *name = str(t, "name");

		if (json_is_true(json_object_get(t, "expect-fail"))) {
			vector_fail(t, name);
			n_f++;
		} else if (strncmp(name, "4-E-", 4) == 0) {
			vector_local(t, name);
			n_e++;
		} else if (strncmp(name, "4-S-", 4) == 0) {
			vector_public(t, name);
			n_s++;
		} else {
			ok(0, "%s: unknown vector kind", name);
		}
	}
	is_int(json_array_size(tests), 17, "paseto-v4.json: 17 vectors");
	is_int(n_e, 9, "all 9 v4.local vectors run");
	is_int(n_s, 3, "all 3 v4.public vectors run");
	is_int(n_f, 5, "all 5 must-fail vectors run");
	{
		const char *e1 = NULL, *f4 = NULL;

		json_array_foreach(tests, k, t) {
			if (strcmp(str(t, "name"), "4-E-1") == 0)
				e1 = str(t, "token");
			if (strcmp(str(t, "name"), "4-F-4") == 0)
				f4 = str(t, "token");
		}
		ok(e1 != NULL && f4 != NULL && strlen(e1) == strlen(f4) &&
		    strncmp(e1, f4, strlen(e1) - 1) == 0 && e1[strlen(e1) - 1] != f4[strlen(f4) - 1],
		    "4-F-4 differs from 4-E-1 in the last character only (non-canonical base64)");
	}
	json_decref(root);
}

static void
test_paserk_ids(const char *dir, const char *file, bool local)
{
	json_t *root = load(dir, file), *t;
	size_t k;
	int n = 0;

	if (!ok(root != NULL, "%s loads", file))
		return;
	json_array_foreach(json_object_get(root, "tests"), k, t) {
		const char *name = str(t, "name");
		uint8_t key[128];
		size_t klen = 0;
		char id[PASERK_K4_ID_LEN + 1] = "";
		enum paseto_err e;

		ok(unhex(key, sizeof key, &klen, str(t, "key")) == 0, "%s: key decodes", name);
		e = local ? paseto_k4_lid(id, sizeof id, key, klen) : paseto_k4_pid(id, sizeof id, key, klen);
		if (json_is_true(json_object_get(t, "expect-fail"))) {
			is_int(e, PASETO_ERR_ARG, "%s: refused (%zu-byte key)", name, klen);
		} else {
			is_int(e, PASETO_OK, "%s: computed", name);
			is_str(id, str(t, "paserk"), "%s: id", name);
		}
		n++;
	}
	is_int(n, local ? 4 : 5, "%s: every vector run", file);
	json_decref(root);
}

/* ---- tampering ---- */

static const uint8_t KEY[32] = {
	0x70, 0x71, 0x72, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7a, 0x7b, 0x7c, 0x7d, 0x7e, 0x7f,
	0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8a, 0x8b, 0x8c, 0x8d, 0x8e, 0x8f,
};
static const char FOOTER[] = "{\"kid\":\"k4.lid.iVtYQDjr5gEijCSjJC3fQaJm7nCeQSeaty0Jixy8dbsk\"}";
static const char ASSERT[] = "run-0193c7e2-5b1f";

static enum paseto_err
open_local(const char *tok, size_t len, const uint8_t *key, const char *f, const char *ia)
{
	uint8_t m[4096];
	size_t mlen = 0;

	return paseto_v4_local_decrypt(m, sizeof m, &mlen, key, tok, len,
	    (const uint8_t *)f, f ? strlen(f) : 0, (const uint8_t *)ia, ia ? strlen(ia) : 0);
}

static void
make_local(char *tok, size_t cap, size_t mlen)
{
	uint8_t m[1024];

	for (size_t k = 0; k < mlen; k++)
		m[k] = (uint8_t)('a' + k % 26);
	if (paseto_v4_local_encrypt(tok, cap, NULL, KEY, m, mlen, (const uint8_t *)FOOTER,
	    strlen(FOOTER), (const uint8_t *)ASSERT, strlen(ASSERT)) != PASETO_OK)
		tok[0] = '\0';
}

static void
test_mutations(void)
{
	static const size_t sizes[] = { 0, 1, 2, 3, 57, 300 };
	char toks[6][2048], mut[4400];
	int flips = 0, flips_ok = 0, bflips = 0, bflips_auth = 0, cuts = 0, cuts_ok = 0;
	int subs = 0, subs_ok = 0, by_err[8] = { 0 };
	bool all_open = true;

	for (size_t k = 0; k < 6; k++) {
		make_local(toks[k], sizeof toks[k], sizes[k]);
		all_open &= open_local(toks[k], strlen(toks[k]), KEY, FOOTER, ASSERT) == PASETO_OK;
	}
	ok(all_open, "the 6 unmodified tokens open");

	/* Text-level: flip one bit of one character (5,000 times). */
	for (int n = 0; n < 5000; n++) {
		const char *t = toks[randombytes_uniform(6)];
		size_t len = strlen(t), pos = randombytes_uniform((uint32_t)len);
		enum paseto_err e;

		memcpy(mut, t, len);
		mut[pos] ^= (char)(1u << randombytes_uniform(8));
		e = open_local(mut, len, KEY, (n & 1) ? FOOTER : NULL, ASSERT);
		flips++;
		flips_ok += e != PASETO_OK;
		by_err[e]++;
	}
	is_int(flips_ok, flips, "5000 single-bit flips of token text all rejected");

	/* Blob-level: decode the body, flip one bit, re-encode canonically,
	 * so only the MAC can catch it (3,000 times). */
	for (int n = 0; n < 3000; n++) {
		const char *t = toks[randombytes_uniform(6)];
		const char *body = t + 9, *dot = strchr(body, '.');
		uint8_t blob[1500];
		size_t blen = 0, pos;
		char enc[2100];

		if (sodium_base642bin(blob, sizeof blob, body, (size_t)(dot - body), NULL, &blen, NULL,
		    sodium_base64_VARIANT_URLSAFE_NO_PADDING) != 0)
			break;
		pos = randombytes_uniform((uint32_t)blen);
		blob[pos] ^= (uint8_t)(1u << randombytes_uniform(8));
		sodium_bin2base64(enc, sizeof enc, blob, blen, sodium_base64_VARIANT_URLSAFE_NO_PADDING);
		snprintf(mut, sizeof mut, "v4.local.%s%s", enc, dot);
		bflips++;
		bflips_auth += open_local(mut, strlen(mut), KEY, FOOTER, ASSERT) == PASETO_ERR_AUTH;
	}
	is_int(bflips_auth, 3000, "3000 bit flips of the decoded nonce/ciphertext/tag: PASETO_ERR_AUTH");

	/* Truncation to a random shorter length (1,000) and substitution of
	 * one character by another base64url character (1,000). */
	for (int n = 0; n < 1000; n++) {
		const char *t = toks[randombytes_uniform(6)];
		size_t len = strlen(t), cut = randombytes_uniform((uint32_t)len);

		cuts++;
		cuts_ok += open_local(t, cut, KEY, FOOTER, ASSERT) != PASETO_OK;
	}
	is_int(cuts_ok, cuts, "1000 random truncations rejected");
	for (int n = 0; n < 1000; n++) {
		static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
		const char *t = toks[randombytes_uniform(6)];
		size_t len = strlen(t), pos = randombytes_uniform((uint32_t)len);
		char c;

		do
			c = b64[randombytes_uniform(64)];
		while (c == t[pos]);
		memcpy(mut, t, len);
		mut[pos] = c;
		subs++;
		subs_ok += open_local(mut, len, KEY, NULL, ASSERT) != PASETO_OK;
	}
	is_int(subs_ok, subs, "1000 base64url character substitutions rejected");
	diag("bit-flip rejections: header %d, malformed %d, footer %d, auth %d",
	    by_err[PASETO_ERR_HEADER], by_err[PASETO_ERR_MALFORMED], by_err[PASETO_ERR_FOOTER],
	    by_err[PASETO_ERR_AUTH]);
	ok(flips + bflips + cuts + subs == 10000, "10000 random mutations in all");

	/* Every truncation of one token, and every one-byte extension. */
	{
		const char *t = toks[4];
		size_t len = strlen(t);
		int all = 1, ext = 1;

		for (size_t cut = 0; cut < len; cut++)
			all &= open_local(t, cut, KEY, FOOTER, ASSERT) != PASETO_OK;
		ok(all, "all %zu proper prefixes of a token rejected", len);
		for (int c = 0; c < 256; c++) {
			memcpy(mut, t, len);
			mut[len] = (char)c;
			ext &= open_local(mut, len + 1, KEY, NULL, ASSERT) != PASETO_OK;
		}
		ok(ext, "every one-byte extension rejected (trailing garbage)");
	}
}

static void
test_wrong_inputs(void)
{
	char tok[2048], ptok[2048];
	uint8_t key2[32], pk[32], sk[64], m[256];
	size_t mlen = 0, tlen = 0;
	const char *payload = "{\"run\":\"r1\",\"step\":3}";
	enum paseto_err e;

	memcpy(key2, KEY, 32);
	key2[31] ^= 1;
	make_local(tok, sizeof tok, 40);
	tlen = strlen(tok);
	is_int(open_local(tok, tlen, key2, FOOTER, ASSERT), PASETO_ERR_AUTH, "wrong key: PASETO_ERR_AUTH");
	is_int(open_local(tok, tlen, KEY, FOOTER, "run-0193c7e2-5b1e"), PASETO_ERR_AUTH,
	    "wrong implicit assertion: PASETO_ERR_AUTH");
	is_int(open_local(tok, tlen, KEY, FOOTER, NULL), PASETO_ERR_AUTH,
	    "missing implicit assertion: PASETO_ERR_AUTH");
	is_int(open_local(tok, tlen, KEY, "{\"kid\":\"other\"}", ASSERT), PASETO_ERR_FOOTER,
	    "other expected footer: PASETO_ERR_FOOTER");
	is_int(open_local(tok, tlen, KEY, "", ASSERT), PASETO_ERR_FOOTER,
	    "expecting no footer, token has one: PASETO_ERR_FOOTER");

	/* Cross-purpose: a token never chooses how it is checked. */
	crypto_sign_keypair(pk, sk);
	e = paseto_v4_public_sign(ptok, sizeof ptok, NULL, sk, (const uint8_t *)payload,
	    strlen(payload), NULL, 0, (const uint8_t *)ASSERT, strlen(ASSERT));
	is_int(e, PASETO_OK, "sign a v4.public token");
	is_int(open_local(ptok, strlen(ptok), KEY, NULL, ASSERT), PASETO_ERR_HEADER,
	    "v4.public token where v4.local is expected: PASETO_ERR_HEADER");
	e = paseto_v4_public_verify(m, sizeof m, &mlen, pk, tok, tlen, NULL, 0,
	    (const uint8_t *)ASSERT, strlen(ASSERT));
	is_int(e, PASETO_ERR_HEADER, "v4.local token where v4.public is expected: PASETO_ERR_HEADER");
	e = paseto_v4_public_verify(m, sizeof m, &mlen, pk, ptok, strlen(ptok), NULL, 0,
	    (const uint8_t *)ASSERT, strlen(ASSERT));
	ok(e == PASETO_OK && mlen == strlen(payload) && memcmp(m, payload, mlen) == 0,
	    "v4.public token verifies with its key and assertion");
	e = paseto_v4_public_verify(m, sizeof m, &mlen, pk, ptok, strlen(ptok), NULL, 0, NULL, 0);
	is_int(e, PASETO_ERR_AUTH, "v4.public without its implicit assertion: PASETO_ERR_AUTH");
	{
		uint8_t pk2[32], sk2[64];

		crypto_sign_keypair(pk2, sk2);
		e = paseto_v4_public_verify(m, sizeof m, &mlen, pk2, ptok, strlen(ptok), NULL, 0,
		    (const uint8_t *)ASSERT, strlen(ASSERT));
		is_int(e, PASETO_ERR_AUTH, "v4.public with another public key: PASETO_ERR_AUTH");
	}
	/* Signature bit flips: every bit of the signature's last byte and the
	 * message's first byte. */
	{
		const char *body = ptok + 10;
		uint8_t blob[512];
		size_t blen = 0;
		char enc[1024], mut[1100];
		int all = 1;

		sodium_base642bin(blob, sizeof blob, body, strlen(body), NULL, &blen, NULL,
		    sodium_base64_VARIANT_URLSAFE_NO_PADDING);
		for (int bit = 0; bit < 16; bit++) {
			size_t pos = bit < 8 ? blen - 1 : 0;

			blob[pos] ^= (uint8_t)(1u << (bit % 8));
			sodium_bin2base64(enc, sizeof enc, blob, blen, sodium_base64_VARIANT_URLSAFE_NO_PADDING);
			blob[pos] ^= (uint8_t)(1u << (bit % 8));
			snprintf(mut, sizeof mut, "v4.public.%s", enc);
			all &= paseto_v4_public_verify(m, sizeof m, &mlen, pk, mut, strlen(mut), NULL, 0,
			    (const uint8_t *)ASSERT, strlen(ASSERT)) == PASETO_ERR_AUTH;
		}
		ok(all, "16 bit flips in a v4.public signature and message: PASETO_ERR_AUTH");
	}
}

static void
test_strict_parsing(void)
{
	char tok[512], mut[600];
	uint8_t m[256], blob[64];
	size_t tlen, mlen = 0;
	char enc[128];

	/* 1 byte of payload: blob of 65 bytes, body length 87 (87 % 4 == 3),
	 * so the last character carries 2 unused bits. */
	make_local(tok, sizeof tok, 1);
	tlen = strlen(tok);
	{
		const char *dot = strchr(tok + 9, '.');
		size_t last = (size_t)(dot - tok) - 1;
		static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
		int idx = (int)(strchr(b64, tok[last]) - b64);

		ok(((size_t)(dot - tok) - 9) % 4 == 3 && (idx & 3) == 0, "canonical token has zero tail bits");
		memcpy(mut, tok, tlen + 1);
		mut[last] = b64[idx | 1];
		is_int(open_local(mut, tlen, KEY, NULL, ASSERT), PASETO_ERR_MALFORMED,
		    "non-canonical trailing bits: PASETO_ERR_MALFORMED");
	}
	snprintf(mut, sizeof mut, "%s=", tok);
	is_int(open_local(mut, strlen(mut), KEY, NULL, ASSERT), PASETO_ERR_MALFORMED, "'=' padding after footer");
	{
		/* Padding inside the body, before the footer dot. */
		const char *dot = strchr(tok + 9, '.');
		int n = (int)(dot - tok);

		snprintf(mut, sizeof mut, "%.*s=%s", n, tok, dot);
		is_int(open_local(mut, strlen(mut), KEY, NULL, ASSERT), PASETO_ERR_MALFORMED, "'=' padding in body");
		snprintf(mut, sizeof mut, "%.*s", n + 1, tok);
		is_int(open_local(mut, strlen(mut), KEY, NULL, ASSERT), PASETO_ERR_MALFORMED,
		    "trailing dot with empty footer");
		snprintf(mut, sizeof mut, "%.*s+%s", n - 1, tok, dot);
		is_int(open_local(mut, strlen(mut), KEY, NULL, ASSERT), PASETO_ERR_MALFORMED,
		    "standard-alphabet '+' refused");
	}
	snprintf(mut, sizeof mut, "%s.eA", tok);
	is_int(open_local(mut, strlen(mut), KEY, NULL, ASSERT), PASETO_ERR_MALFORMED, "fourth part");
	snprintf(mut, sizeof mut, "%s ", tok);
	is_int(open_local(mut, strlen(mut), KEY, NULL, ASSERT), PASETO_ERR_MALFORMED, "trailing space");
	snprintf(mut, sizeof mut, "%s\n", tok);
	is_int(open_local(mut, strlen(mut), KEY, NULL, ASSERT), PASETO_ERR_MALFORMED, "trailing newline");
	snprintf(mut, sizeof mut, " %s", tok);
	is_int(open_local(mut, strlen(mut), KEY, NULL, ASSERT), PASETO_ERR_HEADER, "leading space");
	memcpy(mut, tok, tlen + 1);
	mut[0] = 'V';
	is_int(open_local(mut, tlen, KEY, NULL, ASSERT), PASETO_ERR_HEADER, "'V4.local.' header");
	is_int(open_local("v4.local", 8, KEY, NULL, ASSERT), PASETO_ERR_HEADER, "header without its dot");
	is_int(open_local("v4.local.", 9, KEY, NULL, ASSERT), PASETO_ERR_MALFORMED, "header alone");
	is_int(open_local("", 0, KEY, NULL, ASSERT), PASETO_ERR_HEADER, "empty string");
	{
		/* A token with an embedded NUL: never read as a C string. */
		memcpy(mut, tok, tlen + 1);
		mut[20] = '\0';
		is_int(open_local(mut, tlen, KEY, NULL, ASSERT), PASETO_ERR_MALFORMED, "embedded NUL");
	}
	/* Minimum lengths: 63 bytes of blob is short, 64 is an empty message. */
	memset(blob, 0, sizeof blob);
	sodium_bin2base64(enc, sizeof enc, blob, 63, sodium_base64_VARIANT_URLSAFE_NO_PADDING);
	snprintf(mut, sizeof mut, "v4.local.%s", enc);
	is_int(open_local(mut, strlen(mut), KEY, NULL, NULL), PASETO_ERR_MALFORMED, "63-byte blob: too short");
	sodium_bin2base64(enc, sizeof enc, blob, 64, sodium_base64_VARIANT_URLSAFE_NO_PADDING);
	snprintf(mut, sizeof mut, "v4.local.%s", enc);
	is_int(open_local(mut, strlen(mut), KEY, NULL, NULL), PASETO_ERR_AUTH, "64-byte blob of zeros: bad MAC");
	sodium_bin2base64(enc, sizeof enc, blob, 63, sodium_base64_VARIANT_URLSAFE_NO_PADDING);
	snprintf(mut, sizeof mut, "v4.public.%s", enc);
	is_int(paseto_v4_public_verify(m, sizeof m, &mlen, KEY, mut, strlen(mut), NULL, 0, NULL, 0),
	    PASETO_ERR_MALFORMED, "v4.public with a 63-byte blob: too short");

	/* Empty message, no footer, no assertion. */
	{
		char t2[256];
		enum paseto_err e = paseto_v4_local_encrypt(t2, sizeof t2, &tlen, KEY, NULL, 0, NULL, 0, NULL, 0);

		is_int(e, PASETO_OK, "encrypt an empty message");
		is_int(tlen, paseto_v4_local_token_len(0, 0), "length of an empty-message token");
		mlen = 99;
		e = paseto_v4_local_decrypt(NULL, 0, &mlen, KEY, t2, tlen, (const uint8_t *)"", 0, NULL, 0);
		ok(e == PASETO_OK && mlen == 0, "decrypt an empty message into no buffer, expecting no footer");
		e = paseto_v4_footer(PASETO_V4_LOCAL, t2, tlen, m, sizeof m, &mlen);
		ok(e == PASETO_OK && mlen == 0, "footer of a token without one is empty");
		e = paseto_v4_footer(PASETO_V4_PUBLIC, t2, tlen, m, sizeof m, &mlen);
		is_int(e, PASETO_ERR_HEADER, "footer read with the wrong purpose: PASETO_ERR_HEADER");
	}
}

static void
test_buffers(void)
{
	char tok[512], small[64];
	uint8_t m[64];
	size_t need = 0, mlen = 0, tlen;
	const char *msg = "0123456789012345678901234567890123456789";
	enum paseto_err e;

	e = paseto_v4_local_encrypt(small, sizeof small, &need, KEY, (const uint8_t *)msg, strlen(msg),
	    NULL, 0, NULL, 0);
	is_int(e, PASETO_ERR_BUFFER, "encrypt into a small buffer: PASETO_ERR_BUFFER");
	is_int(need, paseto_v4_local_token_len(strlen(msg), 0) + 1, "capacity needed reported");
	e = paseto_v4_local_encrypt(tok, need, &tlen, KEY, (const uint8_t *)msg, strlen(msg), NULL, 0, NULL, 0);
	ok(e == PASETO_OK && tlen + 1 == need && tok[tlen] == '\0', "exactly the reported capacity suffices");
	e = paseto_v4_local_decrypt(m, 39, &mlen, KEY, tok, tlen, NULL, 0, NULL, 0);
	ok(e == PASETO_ERR_BUFFER && mlen == 40, "decrypt into 39 bytes: PASETO_ERR_BUFFER, 40 needed");
	e = paseto_v4_local_decrypt(m, 40, &mlen, KEY, tok, tlen, NULL, 0, NULL, 0);
	ok(e == PASETO_OK && mlen == 40 && memcmp(m, msg, 40) == 0, "decrypt into exactly 40 bytes");
	e = paseto_v4_local_encrypt(tok, sizeof tok, NULL, NULL, NULL, 0, NULL, 0, NULL, 0);
	is_int(e, PASETO_ERR_ARG, "NULL key: PASETO_ERR_ARG");
	e = paseto_v4_local_encrypt(tok, sizeof tok, NULL, KEY, NULL, 5, NULL, 0, NULL, 0);
	is_int(e, PASETO_ERR_ARG, "NULL message with a length: PASETO_ERR_ARG");
	ok(paseto_v4_local_token_len(PASETO_MAX_LEN + 1, 0) == 0, "oversized message has no token length");
	{
		/* Two encryptions of one message differ (random nonce). */
		char t1[512], t2[512];

		paseto_v4_local_encrypt(t1, sizeof t1, NULL, KEY, (const uint8_t *)msg, 10, NULL, 0, NULL, 0);
		paseto_v4_local_encrypt(t2, sizeof t2, NULL, KEY, (const uint8_t *)msg, 10, NULL, 0, NULL, 0);
		ok(strcmp(t1, t2) != 0, "random nonces: two tokens of one message differ");
	}
}

static void
test_pae(void)
{
	uint8_t out[64];
	const uint8_t *p1[1] = { (const uint8_t *)"test" };
	size_t l1[1] = { 4 }, l0[1] = { 0 };
	const uint8_t *pnull[1] = { NULL };
	static const uint8_t want0[8] = { 0 };
	static const uint8_t want1[16] = { 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
	static const uint8_t want2[20] = { 1, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 't', 'e', 's', 't' };

	/* The examples of the PASETO spec's Common.md. */
	ok(paseto_pae(out, sizeof out, 0, NULL, NULL) == 8 && memcmp(out, want0, 8) == 0, "PAE([])");
	ok(paseto_pae(out, sizeof out, 1, pnull, l0) == 16 && memcmp(out, want1, 16) == 0, "PAE([''])");
	ok(paseto_pae(out, sizeof out, 1, p1, l1) == 20 && memcmp(out, want2, 20) == 0, "PAE(['test'])");
	is_int(paseto_pae(out, 19, 1, p1, l1), 0, "PAE into a short buffer writes nothing");
	is_int(paseto_pae_len(1, l1), 20, "paseto_pae_len");
}

static void
test_paserk_keys(void)
{
	static const uint8_t pk[32] = {
		0x1e, 0xb9, 0xdb, 0xbb, 0xbc, 0x04, 0x7c, 0x03, 0xfd, 0x70, 0x60, 0x4e, 0x00, 0x71, 0xf0, 0x98,
		0x7e, 0x16, 0xb2, 0x8b, 0x75, 0x72, 0x25, 0xc1, 0x1f, 0x00, 0x41, 0x5d, 0x0e, 0x20, 0xb1, 0xa2,
	};
	char text[PASERK_K4_SECRET_LEN + 1];
	uint8_t back[64], tpk[32], tsk[64];
	enum paseto_err e;

	/* Expected strings computed independently (Python's base64 module). */
	e = paseto_k4_public(text, sizeof text, pk, 32);
	is_str(text, "k4.public.Hrnbu7wEfAP9cGBOAHHwmH4Wsot1ciXBHwBBXQ4gsaI", "k4.public of 4-S-1's key");
	ok(e == PASETO_OK && strlen(text) == PASERK_K4_PUBLIC_LEN, "k4.public length");
	e = paseto_k4_local(text, sizeof text, KEY, 32);
	is_str(text, "k4.local.cHFyc3R1dnd4eXp7fH1-f4CBgoOEhYaHiImKi4yNjo8", "k4.local of the vectors' key");
	ok(e == PASETO_OK && strlen(text) == PASERK_K4_LOCAL_LEN, "k4.local length");
	e = paseto_k4_local_parse(back, text, strlen(text));
	ok(e == PASETO_OK && memcmp(back, KEY, 32) == 0, "k4.local parses back");
	is_int(paseto_k4_public_parse(back, text, strlen(text)), PASETO_ERR_HEADER, "k4.local is not a k4.public");
	is_int(paseto_k4_local_parse(back, text, strlen(text) - 1), PASETO_ERR_MALFORMED, "short k4.local");
	text[strlen(text) - 1] = 'p'; /* 'p' = 41 has low bits set: non-canonical */
	is_int(paseto_k4_local_parse(back, text, strlen(text)), PASETO_ERR_MALFORMED, "non-canonical k4.local");
	is_int(paseto_k4_local(text, PASERK_K4_LOCAL_LEN, KEY, 32), PASETO_ERR_BUFFER, "k4.local without room for NUL");

	crypto_sign_keypair(tpk, tsk);
	e = paseto_k4_secret(text, sizeof text, tsk, 64);
	ok(e == PASETO_OK && strlen(text) == PASERK_K4_SECRET_LEN, "k4.secret serialises");
	e = paseto_k4_secret_parse(back, text, strlen(text));
	ok(e == PASETO_OK && memcmp(back, tsk, 64) == 0, "k4.secret parses back");
	tsk[40] ^= 1;
	paseto_k4_secret(text, sizeof text, tsk, 64);
	is_int(paseto_k4_secret_parse(back, text, strlen(text)), PASETO_ERR_MALFORMED,
	    "k4.secret whose public half does not match its seed");
	is_int(paseto_k4_secret(text, sizeof text, tsk, 32), PASETO_ERR_ARG, "32-byte secret key refused");
}

int
main(int argc, char **argv)
{
	if (argc < 2) {
		printf("Bail out! usage: %s DATA_DIR\n", argv[0]);
		return 1;
	}
	if (sodium_init() < 0) {
		printf("Bail out! sodium_init failed\n");
		return 1;
	}
	test_vectors(argv[1]);
	test_paserk_ids(argv[1], "paserk-k4.lid.json", true);
	test_paserk_ids(argv[1], "paserk-k4.pid.json", false);
	test_mutations();
	test_wrong_inputs();
	test_strict_parsing();
	test_buffers();
	test_pae();
	test_paserk_keys();
	return tap_done();
}
