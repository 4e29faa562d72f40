/*
 * interop.c: the C half of the paseto-ts cross-check (js/verify.mjs).
 *
 *   interop sign
 *       Makes a fresh Ed25519 key pair and a local key, signs a result
 *       certificate (as finish will: run id, game, seed, account, score,
 *       replay hash) with and without footer and implicit assertion,
 *       seals a stateToken-like v4.local token, and prints one JSON
 *       object: the keys as PASERK, and each token with the payload,
 *       footer and assertion it was made with.
 *   interop verify-public K4PUBLIC TOKEN ASSERTION
 *   interop decrypt-local K4LOCAL TOKEN ASSERTION
 *       Open a token made by paseto-ts; print the payload and exit 0, or
 *       print the error and exit 1.
 *
 * Not a TAP program itself: verify.mjs drives it and reports.
 */
#include <sodium.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "paseto.h"

static json_t *
public_token(const uint8_t sk[64], const char *payload, const char *footer, const char *assertion)
{
	char tok[4096];
	enum paseto_err e = paseto_v4_public_sign(tok, sizeof tok, NULL, sk,
	    (const uint8_t *)payload, strlen(payload), (const uint8_t *)footer, strlen(footer),
	    (const uint8_t *)assertion, strlen(assertion));

	if (e != PASETO_OK) {
		fprintf(stderr, "sign: %s\n", paseto_strerror(e));
		exit(1);
	}
	return json_pack("{s:s, s:s, s:s, s:s}", "token", tok, "payload", payload,
	    "footer", footer, "assertion", assertion);
}

/* {"kid": id} as compact JSON text (caller frees). */
static char *
dump_kid(const char *id)
{
	json_t *o = json_pack("{s:s}", "kid", id);
	char *s = o != NULL ? json_dumps(o, JSON_COMPACT) : NULL;

	json_decref(o);
	return s;
}

static int
cmd_sign(void)
{
	uint8_t pk[32], sk[64], lkey[32], replay_hash[32];
	char k4pub[PASERK_K4_PUBLIC_LEN + 1], pid[PASERK_K4_ID_LEN + 1];
	char k4loc[PASERK_K4_LOCAL_LEN + 1], lid[PASERK_K4_ID_LEN + 1];
	char hex[65], tok[4096], *payload, *footer, *lfooter;
	const char *assertion = "arcaded-result-v1";
	const char *lassert = "0193c7e2-5b1f-7a00-8c2e-3d7f00000001";
	const char *lpayload = "{\"run\":\"0193c7e2-5b1f-7a00-8c2e-3d7f00000001\",\"step\":12,"
	    "\"state\":\"opaque game state \\u00e9\"}";
	json_t *cert, *out, *tokens;

	crypto_sign_keypair(pk, sk);
	crypto_secretbox_keygen(lkey);
	randombytes_buf(replay_hash, sizeof replay_hash);
	sodium_bin2hex(hex, sizeof hex, replay_hash, sizeof replay_hash);
	if (paseto_k4_public(k4pub, sizeof k4pub, pk, 32) != PASETO_OK ||
	    paseto_k4_pid(pid, sizeof pid, pk, 32) != PASETO_OK ||
	    paseto_k4_local(k4loc, sizeof k4loc, lkey, 32) != PASETO_OK ||
	    paseto_k4_lid(lid, sizeof lid, lkey, 32) != PASETO_OK)
		return 1;
	cert = json_pack("{s:s, s:s, s:I, s:s, s:I, s:s, s:s}",
	    "runId", "0193c7e2-5b1f-7a00-8c2e-3d7f00000001", "game", "stackfall",
	    "seed", (json_int_t)4242, "account", "crab-bot", "score", (json_int_t)12850,
	    "replayHash", hex, "rules", "stackfall-v1");
	payload = json_dumps(cert, JSON_COMPACT | JSON_SORT_KEYS);
	footer = dump_kid(pid);
	lfooter = dump_kid(lid);
	if (payload == NULL || footer == NULL || lfooter == NULL)
		return 1;

	tokens = json_array();
	json_array_append_new(tokens, public_token(sk, payload, footer, assertion));
	json_array_append_new(tokens, public_token(sk, payload, footer, ""));
	json_array_append_new(tokens, public_token(sk, payload, "", ""));
	if (paseto_v4_local_encrypt(tok, sizeof tok, NULL, lkey, (const uint8_t *)lpayload,
	    strlen(lpayload), (const uint8_t *)lfooter, strlen(lfooter),
	    (const uint8_t *)lassert, strlen(lassert)) != PASETO_OK)
		return 1;
	out = json_pack("{s:s, s:s, s:o, s:{s:s, s:s, s:s, s:s, s:s}}",
	    "publicKey", k4pub, "pid", pid, "public", tokens,
	    "local", "key", k4loc, "token", tok, "payload", lpayload, "footer", lfooter,
	    "assertion", lassert);
	if (out == NULL)
		return 1;
	json_dumpf(out, stdout, JSON_COMPACT);
	printf("\n");
	json_decref(out);
	json_decref(cert);
	free(payload);
	free(footer);
	free(lfooter);
	return 0;
}

static int
cmd_open(int public, const char *key_text, const char *tok, const char *assertion)
{
	uint8_t key[32], m[4096];
	size_t mlen = 0;
	enum paseto_err e;

	e = public ? paseto_k4_public_parse(key, key_text, strlen(key_text)) :
	    paseto_k4_local_parse(key, key_text, strlen(key_text));
	if (e != PASETO_OK) {
		printf("key: %s\n", paseto_strerror(e));
		return 1;
	}
	if (public)
		e = paseto_v4_public_verify(m, sizeof m, &mlen, key, tok, strlen(tok), NULL, 0,
		    (const uint8_t *)assertion, strlen(assertion));
	else
		e = paseto_v4_local_decrypt(m, sizeof m, &mlen, key, tok, strlen(tok), NULL, 0,
		    (const uint8_t *)assertion, strlen(assertion));
	if (e != PASETO_OK) {
		printf("error: %s\n", paseto_strerror(e));
		return 1;
	}
	fwrite(m, 1, mlen, stdout);
	printf("\n");
	return 0;
}

int
main(int argc, char **argv)
{
	if (sodium_init() < 0)
		return 1;
	if (argc == 2 && strcmp(argv[1], "sign") == 0)
		return cmd_sign();
	if (argc == 5 && strcmp(argv[1], "verify-public") == 0)
		return cmd_open(1, argv[2], argv[3], argv[4]);
	if (argc == 5 && strcmp(argv[1], "decrypt-local") == 0)
		return cmd_open(0, argv[2], argv[3], argv[4]);
	fprintf(stderr, "usage: %s sign | verify-public K TOKEN ASSERTION | decrypt-local K TOKEN ASSERTION\n",
	    argv[0]);
	return 2;
}
