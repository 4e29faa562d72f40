/*
 * token.c: sealing and opening stateTokens with paseto.c. The payload and
 * footer are written with jw.h (the bytes jansson's compact dump gave
 * them) and read back by two exact readers of that form, or by jansson
 * when a text is in any other form; the state bytes travel as
 * base64url (libsodium). Opening trusts nothing before the MAC has
 * verified, except the footer's key id and run used to pick the key and
 * build the implicit assertion -- both authenticated by that same MAC.
 */
#include "token.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <sodium.h>

#include "iso8601.h"
#include "jw.h"
#include "paseto.h"
#include "numtext.h"

#define B64 sodium_base64_VARIANT_URLSAFE_NO_PADDING

const char *
token_strerror(enum token_err e)
{
	switch (e) {
	case TOKEN_OK: return "ok";
	case TOKEN_ERR_MALFORMED: return "the stateToken is not a stateToken of this server";
	case TOKEN_ERR_WRONG_GAME: return "the stateToken belongs to another game";
	case TOKEN_ERR_UNKNOWN_KEY: return "the stateToken was sealed with a key this server does not hold";
	case TOKEN_ERR_DAMAGED: return "the stateToken is damaged or forged";
	case TOKEN_ERR_PAYLOAD: return "the stateToken holds no valid state";
	case TOKEN_ERR_EXPIRED: return "the stateToken has expired: tokens open for a limited time after "
	    "they are issued (the run is kept; its owner can read its state with the agent key)";
	case TOKEN_ERR_RULES: return "the stateToken was sealed under another version of this game's "
	    "rules, which this server does not play: start a new run";
	case TOKEN_ERR_NOMEM: return "out of memory";
	}
	return "the stateToken does not open";
}

static void
assertion(char *out, size_t cap, enum game_id g, int64_t run)
{
	const char *name = game_get(g)->name;
	size_t k = strlen(name);

	/* "arcaded:NAME:RUN", without printf (it is written twice a move). */
	if (cap < 8 + k + 1 + 21) {
		snprintf(out, cap, "arcaded:%s:%lld", name, (long long)run);
		return;
	}
	memcpy(out, "arcaded:", 8);
	memcpy(out + 8, name, k);
	out[8 + k] = ':';
	numtext_i64(out + 9 + k, run);
}

char *
token_seal(const struct keyring *kr, const struct state_token *t)
{
	const struct keyring_key *k = keyring_current(kr);
	char state64[sodium_base64_ENCODED_LEN(TOKEN_STATE_MAX, B64)], run[GAME_ID_TEXT_MAX], iat[ISO8601_MAX], ia[64];
	char payload[sizeof state64 + 128], footer[128 + sizeof k->lid], *out = NULL;
	const char *ptext, *ftext;
	size_t need, plen = 0, flen = 0;
	struct jw p, f;

	if (t->nstate == 0 || t->nstate > TOKEN_STATE_MAX || t->run < 1 || t->run > ENGINE_ID_MAX ||
	    game_get(t->game) == NULL)
		return NULL;
	sodium_bin2base64(state64, sizeof state64, t->state, t->nstate, B64);
	numtext_i64(run, t->run);
	iso8601_format(iat, sizeof iat, t->issued_at);
	/* What json_dumps(JSON_COMPACT) wrote of the same objects (jw.h). */
	jw_init_fixed(&p, payload, sizeof payload);
	jw_object(&p);
	jw_kint(&p, "rules", t->rules);
	jw_kint(&p, "step", t->step);
	jw_kstring(&p, "iat", iat);
	jw_kstring(&p, "state", state64);
	jw_object_end(&p);
	jw_init_fixed(&f, footer, sizeof footer);
	jw_object(&f);
	jw_kstring(&f, "kid", k->lid);
	jw_kstring(&f, "run", run);
	jw_object_end(&f);
	ptext = jw_text(&p, &plen);
	ftext = jw_text(&f, &flen);
	if (ptext == NULL || ftext == NULL)
		goto done;
	need = paseto_v4_local_token_len(plen, flen) + 1;
	out = malloc(need);
	if (out == NULL)
		goto done;
	assertion(ia, sizeof ia, t->game, t->run);
	if (paseto_v4_local_encrypt(out, need, NULL, k->local, (const uint8_t *)ptext, plen,
	    (const uint8_t *)ftext, flen, (const uint8_t *)ia, strlen(ia)) != PASETO_OK) {
		free(out);
		out = NULL;
	}
done:
	sodium_memzero(payload, sizeof payload);
	return out;
}

/* A run id as the decimal string the token carries. */
static int64_t
parse_run(const char *s)
{
	int64_t v = 0;
	size_t i, n = strlen(s);

	if (n == 0 || n > 16 || s[0] == '0')
		return -1;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v <= ENGINE_ID_MAX ? v : -1;
}

/*
 * The payload and footer as token_seal writes them, read without jansson.
 * Each reader takes one exact form -- the keys in token_seal's order, no
 * spaces, strings of printable ASCII without escapes, integers unsigned
 * without leading zeros -- and answers false for anything else, which
 * then goes to jansson: a text either reader takes, jansson's reading of
 * it gives the same values, so a token opens or fails as it did.
 */

/* The literal lit at *at; advances past it. */
static bool
lit(const char *s, size_t n, size_t *at, const char *l)
{
	size_t k = strlen(l);

	if (n - *at < k || memcmp(s + *at, l, k) != 0)
		return false;
	*at += k;
	return true;
}

/* A string's body up to its closing quote, which *at then passes. */
static bool
plain_string(const char *s, size_t n, size_t *at, size_t *start, size_t *len)
{
	size_t i = *at;

	while (i < n && s[i] != '"') {
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7e || s[i] == '\\')
			return false;
		i++;
	}
	if (i == n)
		return false;
	*start = *at;
	*len = i - *at;
	*at = i + 1;
	return true;
}

/* An unsigned integer of at most 18 digits. */
static bool
plain_uint(const char *s, size_t n, size_t *at, int64_t *v)
{
	size_t i = *at;

	*v = 0;
	if (i == n || s[i] < '0' || s[i] > '9' || (s[i] == '0' && i + 1 < n && s[i + 1] >= '0' &&
	    s[i + 1] <= '9'))
		return false;
	while (i < n && s[i] >= '0' && s[i] <= '9' && i - *at < 18)
		*v = *v * 10 + (s[i++] - '0');
	if (i < n && s[i] >= '0' && s[i] <= '9')
		return false;
	*at = i;
	return true;
}

/* {"kid":K,"run":R} into kid and run (NUL-terminated, within their caps). */
static bool
footer_plain(const char *s, size_t n, char *kid, size_t kcap, char *run, size_t rcap)
{
	size_t at = 0, ks, kn, rs, rn;

	if (!lit(s, n, &at, "{\"kid\":\"") || !plain_string(s, n, &at, &ks, &kn) ||
	    !lit(s, n, &at, ",\"run\":\"") || !plain_string(s, n, &at, &rs, &rn) ||
	    !lit(s, n, &at, "}") || at != n || kn >= kcap || rn >= rcap)
		return false;
	memcpy(kid, s + ks, kn);
	kid[kn] = '\0';
	memcpy(run, s + rs, rn);
	run[rn] = '\0';
	return true;
}

/* {"rules":N,"step":N,"iat":I,"state":S}, in place: the strings are
 * NUL-terminated where their closing quotes were. */
static bool
payload_plain(char *s, size_t n, int64_t *rules, int64_t *step, const char **iat,
    const char **state64)
{
	size_t at = 0, is, in, ss, sn;

	if (!lit(s, n, &at, "{\"rules\":") || !plain_uint(s, n, &at, rules) ||
	    !lit(s, n, &at, ",\"step\":") || !plain_uint(s, n, &at, step) ||
	    !lit(s, n, &at, ",\"iat\":\"") || !plain_string(s, n, &at, &is, &in) ||
	    !lit(s, n, &at, ",\"state\":\"") || !plain_string(s, n, &at, &ss, &sn) ||
	    !lit(s, n, &at, "}") || at != n)
		return false;
	s[is + in] = '\0';
	s[ss + sn] = '\0';
	*iat = s + is;
	*state64 = s + ss;
	return true;
}

enum token_err
token_open(const struct keyring *kr, enum game_id expect, const char *text, size_t len,
    int64_t now, int64_t ttl, struct state_token *out)
{
	uint8_t footer[256], *payload = NULL;
	size_t flen = 0, plen = 0, bin_len = 0;
	const struct keyring_key *k;
	const char *kid, *frun, *iat, *state64;
	char kidbuf[PASERK_K4_ID_LEN + 1], runbuf[GAME_ID_TEXT_MAX];
	json_t *f = NULL, *p = NULL;
	json_int_t rules, step;
	int64_t rules64, step64;
	int64_t issued;
	enum token_err ret = TOKEN_ERR_MALFORMED;
	char ia[64];
	int64_t run;

	if (len == 0 || len > TOKEN_TEXT_MAX)
		return TOKEN_ERR_MALFORMED;
	if (paseto_v4_footer(PASETO_V4_LOCAL, text, len, footer, sizeof footer, &flen) != PASETO_OK ||
	    flen == 0)
		return TOKEN_ERR_MALFORMED;
	if (footer_plain((const char *)footer, flen, kidbuf, sizeof kidbuf, runbuf, sizeof runbuf)) {
		kid = kidbuf;
		frun = runbuf;
	} else {
		f = json_loadb((const char *)footer, flen, JSON_REJECT_DUPLICATES, NULL);
		if (f == NULL || json_unpack(f, "{s:s, s:s !}", "kid", &kid, "run", &frun) != 0)
			goto done;
	}
	run = parse_run(frun);
	if (run < 0)
		goto done;
	k = keyring_by_lid(kr, kid, strlen(kid));
	if (k == NULL) {
		ret = TOKEN_ERR_UNKNOWN_KEY;
		goto done;
	}
	payload = malloc(len);
	if (payload == NULL) {
		ret = TOKEN_ERR_NOMEM;
		goto done;
	}
	assertion(ia, sizeof ia, expect, run);
	if (paseto_v4_local_decrypt(payload, len, &plen, k->local, text, len, footer, flen,
	    (const uint8_t *)ia, strlen(ia)) != PASETO_OK) {
		/* The game is bound by the implicit assertion: a token that opens
		 * under another game's is that game's, not damaged. Only a failed
		 * token pays for these tries. */
		int other;

		ret = TOKEN_ERR_DAMAGED;
		for (other = 0; other < GAME__COUNT; other++) {
			if (other == (int)expect)
				continue;
			assertion(ia, sizeof ia, (enum game_id)other, run);
			if (paseto_v4_local_decrypt(payload, len, &plen, k->local, text, len, footer, flen,
			    (const uint8_t *)ia, strlen(ia)) == PASETO_OK) {
				ret = TOKEN_ERR_WRONG_GAME;
				break;
			}
		}
		goto done;
	}
	ret = TOKEN_ERR_PAYLOAD;
	if (payload_plain((char *)payload, plen, &rules64, &step64, &iat, &state64)) {
		rules = (json_int_t)rules64;
		step = (json_int_t)step64;
	} else {
		p = json_loadb((const char *)payload, plen, JSON_REJECT_DUPLICATES, NULL);
		if (p == NULL || json_unpack(p, "{s:I, s:I, s:s, s:s !}", "rules", &rules, "step", &step,
		    "iat", &iat, "state", &state64) != 0)
			goto done;
	}
	if (step < 0 || rules < 1 || rules > 1000 || !iso8601_parse(iat, &issued))
		goto done;
	if (rules != game_get(expect)->rules_version) {
		ret = TOKEN_ERR_RULES;
		goto done;
	}
	if (now - issued > ttl || issued - now > TOKEN_CLOCK_SKEW) {
		/* Authentic all the same: the caller may say which run it was
		 * (an anonymous run's last token expiring ends it for good). */
		out->game = expect;
		out->rules = (int)rules;
		out->run = run;
		out->step = step;
		out->issued_at = issued;
		out->nstate = 0;
		ret = TOKEN_ERR_EXPIRED;
		goto done;
	}
	if (sodium_base642bin(out->state, sizeof out->state, state64, strlen(state64), NULL,
	    &bin_len, NULL, B64) != 0 || bin_len == 0)
		goto done;
	out->game = expect;
	out->rules = (int)rules;
	out->run = run;
	out->step = step;
	out->issued_at = issued;
	out->nstate = bin_len;
	ret = TOKEN_OK;
done:
	if (payload != NULL) {
		sodium_memzero(payload, len);
		free(payload);
	}
	json_decref(f);
	json_decref(p);
	return ret;
}
