/*
 * certificate.c: result certificates on paseto.c's v4.public. Canonical
 * JSON for hashing is jansson's compact dump with sorted keys, which is
 * stable for the same value.
 */
#include "certificate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "iso8601.h"
#include "paseto.h"

char *
certificate_sign(const struct keyring *kr, const json_t *claims, int64_t now_secs)
{
	const struct keyring_key *k = keyring_current(kr);
	json_t *c = json_deep_copy(claims), *f = json_pack("{s:s}", "kid", k->pid);
	char iat[ISO8601_MAX], *payload = NULL, *footer = NULL, *out = NULL;
	size_t need;

	if (c == NULL || f == NULL || !json_is_object(c))
		goto done;
	iso8601_format(iat, sizeof iat, now_secs);
	json_object_set_new(c, "iss", json_string("arcaded"));
	json_object_set_new(c, "iat", json_string(iat));
	payload = json_dumps(c, JSON_COMPACT | JSON_SORT_KEYS);
	footer = json_dumps(f, JSON_COMPACT);
	if (payload == NULL || footer == NULL)
		goto done;
	need = paseto_v4_public_token_len(strlen(payload), strlen(footer)) + 1;
	out = malloc(need);
	if (out != NULL && paseto_v4_public_sign(out, need, NULL, k->sign_sk,
	    (const uint8_t *)payload, strlen(payload), (const uint8_t *)footer, strlen(footer),
	    NULL, 0) != PASETO_OK) {
		free(out);
		out = NULL;
	}
done:
	free(payload);
	free(footer);
	json_decref(c);
	json_decref(f);
	return out;
}

json_t *
certificate_verify(const struct keyring *kr, const char *token, size_t len)
{
	uint8_t footer[256], *m = NULL;
	size_t flen = 0, mlen = 0;
	const struct keyring_key *k;
	const char *kid;
	json_t *f = NULL, *claims = NULL;

	if (paseto_v4_footer(PASETO_V4_PUBLIC, token, len, footer, sizeof footer, &flen) != PASETO_OK)
		return NULL;
	f = json_loadb((const char *)footer, flen, 0, NULL);
	if (f == NULL || json_unpack(f, "{s:s}", "kid", &kid) != 0 ||
	    (k = keyring_by_pid(kr, kid, strlen(kid))) == NULL)
		goto done;
	m = malloc(len);
	if (m == NULL || paseto_v4_public_verify(m, len, &mlen, k->sign_pk, token, len, footer, flen,
	    NULL, 0) != PASETO_OK)
		goto done;
	claims = json_loadb((const char *)m, mlen, JSON_REJECT_DUPLICATES, NULL);
done:
	free(m);
	json_decref(f);
	return claims;
}

int
certificate_json_hash(const json_t *v, char out[CERTIFICATE_HASH_TEXT])
{
	uint8_t h[32];
	char *text = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);

	if (text == NULL)
		return -1;
	crypto_generichash(h, sizeof h, (const uint8_t *)text, strlen(text), NULL, 0);
	free(text);
	sodium_bin2hex(out, 65, h, sizeof h);
	return 0;
}
