/*
 * test_token.c: stateTokens and result certificates on a keyring: round
 * trips, the footer, rotation (a retired key still opens, an unknown key
 * id does not), the other game, the lifetime, and 10,000 random bit flips
 * and truncations of real stateTokens, every one refused; the payload and
 * footer written as jansson would write them, and 20,000 random forms of
 * them opened as a reader made of jansson alone opens them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <sodium.h>

#include "certificate.h"
#include "iso8601.h"
#include "keys.h"
#include "paseto.h"
#include "tap.h"
#include "token.h"

/* The tests' clock: an hour after the samples were sealed, within a day's
 * lifetime. */
#define SEALED 1795000000
#define NOW (SEALED + 3600)
#define TTL 86400

static void
ring(struct keyring *kr, int first, int n)
{
	uint8_t pepper[32], masters[4][32];
	int i;

	memset(pepper, 9, sizeof pepper);
	for (i = 0; i < n; i++)
		memset(masters[i], first + i, sizeof masters[i]);
	keyring_init(kr, pepper, (const uint8_t (*)[32])masters, n);
}

static struct state_token
sample(enum game_id g, int64_t run, int64_t step)
{
	struct state_token t;
	size_t i;

	memset(&t, 0, sizeof t);
	t.game = g;
	t.rules = game_get(g)->rules_version;
	t.run = run;
	t.step = step;
	t.issued_at = SEALED;
	t.nstate = 77;
	for (i = 0; i < t.nstate; i++)
		t.state[i] = (uint8_t)(i * 7 + 3);
	return t;
}

static int
same(const struct state_token *a, const struct state_token *b)
{
	return a->game == b->game && a->rules == b->rules && a->run == b->run && a->step == b->step &&
	    a->nstate == b->nstate && memcmp(a->state, b->state, a->nstate) == 0;
}

/* The payload and footer are written without jansson (api/json/jw.c): opened
 * again, over random tokens, they must be the bytes jansson's compact dump
 * gives the same objects, and the tokens must open to what was sealed. */
static void
payload_as_jansson(const struct keyring *kr)
{
	const struct keyring_key *k = keyring_current(kr);
	uint64_t x = 88172645463325252ull;
	unsigned round, apart = 0, unopened = 0;

	for (round = 0; round < 2000; round++) {
		struct state_token t, got;
		char state64[sodium_base64_ENCODED_LEN(TOKEN_STATE_MAX, sodium_base64_VARIANT_URLSAFE_NO_PADDING)];
		char iat[ISO8601_MAX], run[32], ia[64], *want_p, *want_f, *tok;
		uint8_t plain[2048], foot[256];
		size_t plen = 0, flen = 0, i;
		json_t *p, *f;

		memset(&t, 0, sizeof t);
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		t.game = (enum game_id)(x % GAME__COUNT);
		t.rules = game_get(t.game)->rules_version;
		t.run = 1 + (int64_t)((x >> 8) % ENGINE_ID_MAX);
		t.step = round % 3 == 0 ? (int64_t)(x >> 20) : (int64_t)(round % 7);
		t.issued_at = NOW - (int64_t)(x % 1000);
		t.nstate = 1 + (size_t)((x >> 5) % TOKEN_STATE_MAX);
		for (i = 0; i < t.nstate; i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			t.state[i] = (uint8_t)x;
		}
		tok = token_seal(kr, &t);
		sodium_bin2base64(state64, sizeof state64, t.state, t.nstate,
		    sodium_base64_VARIANT_URLSAFE_NO_PADDING);
		iso8601_format(iat, sizeof iat, t.issued_at);
		snprintf(run, sizeof run, "%lld", (long long)t.run);
		snprintf(ia, sizeof ia, "arcaded:%s:%lld", game_get(t.game)->name, (long long)t.run);
		p = json_pack("{s:i, s:I, s:s, s:s}", "rules", t.rules, "step", (json_int_t)t.step, "iat", iat,
		    "state", state64);
		f = json_pack("{s:s, s:s}", "kid", k->lid, "run", run);
		want_p = json_dumps(p, JSON_COMPACT);
		want_f = json_dumps(f, JSON_COMPACT);
		if (tok == NULL || paseto_v4_footer(PASETO_V4_LOCAL, tok, strlen(tok), foot, sizeof foot - 1,
		    &flen) != PASETO_OK || paseto_v4_local_decrypt(plain, sizeof plain - 1, &plen, k->local, tok,
		    strlen(tok), foot, flen, (const uint8_t *)ia, strlen(ia)) != PASETO_OK ||
		    plen != strlen(want_p) || memcmp(plain, want_p, plen) != 0 || flen != strlen(want_f) ||
		    memcmp(foot, want_f, flen) != 0)
			apart++;
		if (tok == NULL || token_open(kr, t.game, tok, strlen(tok), NOW, TTL, &got) != TOKEN_OK ||
		    !same(&t, &got))
			unopened++;
		free(want_p);
		free(want_f);
		json_decref(p);
		json_decref(f);
		free(tok);
	}
	ok(apart == 0, "2000 random tokens: payload and footer are jansson's compact bytes (%u apart)", apart);
	ok(unopened == 0, "... and every one opens to what was sealed (%u not)", unopened);
}

/* tmpl with its '@' replaced by v. */
static void
fill(char *out, size_t cap, const char *tmpl, const char *v)
{
	const char *at = strchr(tmpl, '@');

	snprintf(out, cap, "%.*s%s%s", (int)(at - tmpl), tmpl, v, at + 1);
}

/* token_open reads the payload and footer token_seal writes without
 * jansson and hands any other form to jansson: forms of both kinds,
 * sealed by hand, open as jansson reads them. */
static void
other_forms(const struct keyring *kr)
{
	static const struct {
		const char *payload, *footer;
		enum token_err want;
		int64_t step;
	} forms[] = {
		{ "{\"rules\":1,\"step\":5,\"iat\":\"@\",\"state\":\"AQID\"}", NULL, TOKEN_OK, 5 },
		{ "{\"rules\":1,\"step\":0,\"iat\":\"@\",\"state\":\"AQID\"}", NULL, TOKEN_OK, 0 },
		{ "{ \"rules\": 1, \"step\": 5, \"iat\": \"@\", \"state\": \"AQID\" }", NULL, TOKEN_OK, 5 },
		{ "{\"step\":6,\"rules\":1,\"state\":\"AQID\",\"iat\":\"@\"}", NULL, TOKEN_OK, 6 },
		{ "{\"rules\":1,\"step\":5,\"iat\":\"@\",\"state\":\"AQ\\u0049D\"}", NULL, TOKEN_OK, 5 },
		{ "{\"rules\":1,\"step\":5,\"iat\":\"@\",\"state\":\"A\\u0051ID\"}", NULL, TOKEN_OK, 5 },
		{ "{\"rules\":1,\"step\":1234567890123456789,\"iat\":\"@\",\"state\":\"AQID\"}", NULL,
		  TOKEN_OK, 1234567890123456789 },
		{ "{\"rules\":1,\"step\":05,\"iat\":\"@\",\"state\":\"AQID\"}", NULL, TOKEN_ERR_PAYLOAD, 0 },
		{ "{\"rules\":1,\"step\":-1,\"iat\":\"@\",\"state\":\"AQID\"}", NULL, TOKEN_ERR_PAYLOAD, 0 },
		{ "{\"rules\":1,\"step\":5.0,\"iat\":\"@\",\"state\":\"AQID\"}", NULL, TOKEN_ERR_PAYLOAD, 0 },
		{ "{\"rules\":1,\"step\":5,\"iat\":\"@\",\"state\":\"AQID\",\"x\":1}", NULL, TOKEN_ERR_PAYLOAD, 0 },
		{ "{\"rules\":1,\"step\":5,\"step\":5,\"iat\":\"@\",\"state\":\"AQID\"}", NULL,
		  TOKEN_ERR_PAYLOAD, 0 },
		{ "{\"rules\":1,\"step\":5,\"iat\":\"@\",\"state\":\"AQID\"}x", NULL, TOKEN_ERR_PAYLOAD, 0 },
		{ "{\"rules\":1,\"step\":5,\"iat\":\"@\",\"state\":\"AQID\"", NULL, TOKEN_ERR_PAYLOAD, 0 },
		{ "{\"rules\":2,\"step\":5,\"iat\":\"@\",\"state\":\"AQID\"}", NULL, TOKEN_ERR_RULES, 0 },
		{ "{\"rules\":1,\"step\":5,\"iat\":\"@\",\"state\":\"AQID\"}", "{ \"kid\": \"@\", \"run\": \"77\" }",
		  TOKEN_OK, 5 },
		{ "{\"rules\":1,\"step\":5,\"iat\":\"@\",\"state\":\"AQID\"}", "{\"run\":\"77\",\"kid\":\"@\"}",
		  TOKEN_OK, 5 },
		{ "{\"rules\":1,\"step\":5,\"iat\":\"@\",\"state\":\"AQID\"}", "{\"kid\":\"@\",\"run\":\"\\u0037\\u0037\"}",
		  TOKEN_OK, 5 },
		{ "{\"rules\":1,\"step\":5,\"iat\":\"@\",\"state\":\"AQID\"}", "{\"kid\":\"@\",\"run\":\"077\"}",
		  TOKEN_ERR_MALFORMED, 0 },
		{ "{\"rules\":1,\"step\":5,\"iat\":\"@\",\"state\":\"AQID\"}", "{\"kid\":\"@\",\"run\":77}",
		  TOKEN_ERR_MALFORMED, 0 },
		{ "{\"rules\":1,\"step\":5,\"iat\":\"@\",\"state\":\"AQID\"}", "{\"kid\":\"@\",\"run\":\"77\",\"x\":\"\"}",
		  TOKEN_ERR_MALFORMED, 0 },
	};
	const struct keyring_key *k = keyring_current(kr);
	char iat[ISO8601_MAX], payload[256], footer[256], tok[1024];
	const char *ia = "arcaded:duskcourt:77";
	size_t i;

	iso8601_format(iat, sizeof iat, SEALED);
	for (i = 0; i < sizeof forms / sizeof forms[0]; i++) {
		struct state_token got;
		enum token_err e;

		fill(payload, sizeof payload, forms[i].payload, iat);
		fill(footer, sizeof footer, forms[i].footer ? forms[i].footer : "{\"kid\":\"@\",\"run\":\"77\"}",
		    k->lid);
		memset(&got, 0, sizeof got);
		if (paseto_v4_local_encrypt(tok, sizeof tok, NULL, k->local, (const uint8_t *)payload,
		    strlen(payload), (const uint8_t *)footer, strlen(footer), (const uint8_t *)ia,
		    strlen(ia)) != PASETO_OK) {
			ok(0, "form %zu seals", i);
			continue;
		}
		e = token_open(kr, GAME_DUSKCOURT, tok, strlen(tok), NOW, TTL, &got);
		ok(e == forms[i].want && (e != TOKEN_OK || (got.step == forms[i].step && got.run == 77 &&
		    got.nstate == 3 && got.state[0] == 1 && got.state[2] == 3)),
		    "payload %s, footer %s: %s", payload, footer, token_strerror(e));
	}
}

/* ---- random forms: token_open against a reader made of jansson alone ---- */

static uint32_t rnd_state = 0x2545f491;

static uint32_t
rnd(uint32_t n)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 17;
	rnd_state ^= rnd_state << 5;
	return rnd_state % n;
}

/* One random change to text, in place (cap bytes in all): a blank, a
 * character written as an escape, a leading zero, a character dropped or
 * doubled, the two halves swapped around a comma. */
static void
mutate(char *text, size_t cap)
{
	size_t n = strlen(text), at = n > 0 ? rnd((uint32_t)n) : 0;
	char tmp[512];

	if (n + 8 >= cap || n + 8 >= sizeof tmp)
		return;
	switch (rnd(7)) {
	case 0: /* a blank */
		memmove(text + at + 1, text + at, n - at + 1);
		text[at] = " \n\t"[rnd(3)];
		break;
	case 1: /* an escape */
		snprintf(tmp, sizeof tmp, "%.*s\\u%04x%s", (int)at, text, (unsigned char)text[at],
		    text + at + 1);
		snprintf(text, cap, "%s", tmp);
		break;
	case 2: /* a leading zero before some digit */
		memmove(text + at + 1, text + at, n - at + 1);
		text[at] = '0';
		break;
	case 3: /* a character dropped */
		memmove(text + at, text + at + 1, n - at);
		break;
	case 4: /* a character doubled */
		memmove(text + at + 1, text + at, n - at + 1);
		break;
	case 5: { /* the members around a comma in the other order */
		char *c = strchr(text + at, ',');

		if (c != NULL && text[0] == '{' && text[n - 1] == '}') {
			snprintf(tmp, sizeof tmp, "{%.*s,%.*s}", (int)(n - 2 - (size_t)(c - text)), c + 1,
			    (int)(c - text - 1), text + 1);
			snprintf(text, cap, "%s", tmp);
		}
		break;
	}
	default: /* a member more, or one twice */
		if (n > 2 && text[n - 1] == '}')
			snprintf(text + n - 1, cap - n + 1, rnd(2) ? ",\"x\":1}" : ",\"step\":3}");
		break;
	}
}

/* What token_open must answer for this payload and footer, read by
 * jansson alone, with the rules token.h states (a token sealed under run
 * 77's assertion or, when the footer names another run, under that one's). */
static enum token_err
reference(const struct keyring *kr, const char *payload, const char *footer, int64_t *step,
    int64_t *run, uint8_t *state, size_t *nstate)
{
	json_t *f = json_loads(footer, JSON_REJECT_DUPLICATES, NULL);
	json_t *p = json_loads(payload, JSON_REJECT_DUPLICATES, NULL);
	const char *kid, *frun, *iat, *state64;
	json_int_t rules, st;
	enum token_err e = TOKEN_ERR_MALFORMED;
	int64_t issued;
	size_t i, n;

	*run = -1;
	if (f == NULL || json_unpack(f, "{s:s, s:s !}", "kid", &kid, "run", &frun) != 0)
		goto done;
	n = strlen(frun);
	if (n == 0 || n > 16 || frun[0] == '0')
		goto done;
	*run = 0;
	for (i = 0; i < n; i++) {
		if (frun[i] < '0' || frun[i] > '9') {
			*run = -1;
			goto done;
		}
		*run = *run * 10 + (frun[i] - '0');
	}
	if (*run > ENGINE_ID_MAX) {
		*run = -1;
		goto done;
	}
	e = TOKEN_ERR_UNKNOWN_KEY;
	if (strcmp(kid, keyring_current(kr)->lid) != 0)
		goto done;
	e = TOKEN_ERR_PAYLOAD;
	if (p == NULL || json_unpack(p, "{s:I, s:I, s:s, s:s !}", "rules", &rules, "step", &st, "iat",
	    &iat, "state", &state64) != 0)
		goto done;
	if (st < 0 || rules < 1 || rules > 1000 || !iso8601_parse(iat, &issued))
		goto done;
	e = TOKEN_ERR_RULES;
	if (rules != game_get(GAME_DUSKCOURT)->rules_version)
		goto done;
	e = TOKEN_ERR_EXPIRED;
	*step = st;
	if (NOW - issued > TTL || issued - NOW > TOKEN_CLOCK_SKEW)
		goto done;
	e = TOKEN_ERR_PAYLOAD;
	if (sodium_base642bin(state, TOKEN_STATE_MAX, state64, strlen(state64), NULL, nstate, NULL,
	    sodium_base64_VARIANT_URLSAFE_NO_PADDING) != 0 || *nstate == 0)
		goto done;
	e = TOKEN_OK;
done:
	json_decref(f);
	json_decref(p);
	return e;
}

static void
random_forms(const struct keyring *kr)
{
	const struct keyring_key *k = keyring_current(kr);
	char iat[ISO8601_MAX], payload[512], footer[512], tok[2048], ia[64];
	uint8_t want_state[TOKEN_STATE_MAX];
	unsigned i, apart = 0, plain = 0, kinds[TOKEN_ERR_NOMEM + 1];

	memset(kinds, 0, sizeof kinds);
	iso8601_format(iat, sizeof iat, SEALED);
	for (i = 0; i < 20000; i++) {
		struct state_token got;
		int64_t want_step = -1, want_run = -1;
		size_t want_n = 0;
		unsigned m, nm = rnd(3);
		enum token_err want, e;

		snprintf(payload, sizeof payload, "{\"rules\":1,\"step\":%u,\"iat\":\"%s\",\"state\":\"%s\"}",
		    rnd(1000000), iat, rnd(2) ? "AQID" : "q83vASNFZ4k");
		snprintf(footer, sizeof footer, "{\"kid\":\"%s\",\"run\":\"%u\"}", k->lid, 1 + rnd(100000));
		for (m = 0; m < nm; m++)
			mutate(rnd(2) ? payload : footer, sizeof payload);
		if (nm == 0)
			plain++;
		want = reference(kr, payload, footer, &want_step, &want_run, want_state, &want_n);
		snprintf(ia, sizeof ia, "arcaded:duskcourt:%lld", (long long)(want_run >= 0 ? want_run : 77));
		memset(&got, 0, sizeof got);
		if (paseto_v4_local_encrypt(tok, sizeof tok, NULL, k->local, (const uint8_t *)payload,
		    strlen(payload), (const uint8_t *)footer, strlen(footer), (const uint8_t *)ia,
		    strlen(ia)) != PASETO_OK) {
			apart++;
			continue;
		}
		e = token_open(kr, GAME_DUSKCOURT, tok, strlen(tok), NOW, TTL, &got);
		if (e <= TOKEN_ERR_NOMEM)
			kinds[e]++;
		if (e != want || ((e == TOKEN_OK || e == TOKEN_ERR_EXPIRED) && (got.step != want_step ||
		    got.run != want_run)) || (e == TOKEN_OK && (got.nstate != want_n ||
		    memcmp(got.state, want_state, want_n) != 0))) {
			if (apart++ < 3)
				diag("payload %s footer %s: token_open %s, jansson %s", payload, footer,
				    token_strerror(e), token_strerror(want));
		}
	}
	ok(apart == 0 && plain > 0 && kinds[TOKEN_OK] > plain && kinds[TOKEN_ERR_PAYLOAD] > 0 &&
	    kinds[TOKEN_ERR_MALFORMED] > 0, "20000 random payloads and footers (%u as sealed, %u open, "
	    "%u malformed, %u bad payloads, %u unknown keys): token_open answers what jansson's "
	    "reading does (%u apart)", plain, kinds[TOKEN_OK], kinds[TOKEN_ERR_MALFORMED],
	    kinds[TOKEN_ERR_PAYLOAD], kinds[TOKEN_ERR_UNKNOWN_KEY], apart);
}

int
main(void)
{
	struct keyring one, two, other;
	struct state_token t = sample(GAME_DUSKCOURT, 4242424242424242, 17), got;
	char *tok, *tok2, *bad;
	size_t len, i, refused = 0, accepted = 0;
	uint8_t footer[256];
	size_t flen;
	json_t *f;

	if (sodium_init() < 0)
		return 1;
	ring(&one, 1, 1);
	ring(&two, 1, 2);   /* key 1 retired, key 2 current */
	ring(&other, 7, 1); /* a server that never held key 1 */

	tok = token_seal(&one, &t);
	ok(tok != NULL && strncmp(tok, "v4.local.", 9) == 0, "a stateToken is a PASETO v4.local token");
	is_int(token_open(&one, GAME_DUSKCOURT, tok, strlen(tok), NOW, TTL, &got), TOKEN_OK, "it opens");
	ok(same(&t, &got), "and gives back game, rules, run, step and state");
	tok2 = token_seal(&one, &t);
	ok(strcmp(tok, tok2) != 0, "sealing twice gives two tokens (a fresh nonce each time)");
	free(tok2);

	ok(paseto_v4_footer(PASETO_V4_LOCAL, tok, strlen(tok), footer, sizeof footer, &flen) == PASETO_OK,
	    "the footer reads without the key");
	f = json_loadb((const char *)footer, flen, 0, NULL);
	ok(f != NULL && json_object_size(f) == 2 &&
	    strcmp(json_string_value(json_object_get(f, "kid")), one.keys[0].lid) == 0 &&
	    strcmp(json_string_value(json_object_get(f, "run")), "4242424242424242") == 0,
	    "the footer holds only the key id (k4.lid) and the run");
	json_decref(f);
	ok(strstr((const char *)tok, "state") == NULL, "nothing of the state is readable in the token text");

	is_int(token_open(&two, GAME_DUSKCOURT, tok, strlen(tok), NOW, TTL, &got), TOKEN_OK,
	    "a token sealed with a key since retired still opens");
	tok2 = token_seal(&two, &t);
	is_int(token_open(&one, GAME_DUSKCOURT, tok2, strlen(tok2), NOW, TTL, &got), TOKEN_ERR_UNKNOWN_KEY,
	    "a token of a key this server does not hold is refused by its key id");
	free(tok2);
	is_int(token_open(&other, GAME_DUSKCOURT, tok, strlen(tok), NOW, TTL, &got), TOKEN_ERR_UNKNOWN_KEY,
	    "so is any token of another server");
	is_int(token_open(&one, GAME_STACKFALL, tok, strlen(tok), NOW, TTL, &got), TOKEN_ERR_WRONG_GAME,
	    "a Duskcourt token presented to Stackfall is recognised as the other game's");

	/* The rules version: a token sealed under another version of the
	 * game's rules than the descriptor's does not open, and says why. */
	{
		struct state_token v = sample(GAME_DUSKCOURT, 7, 3);
		char *tv;

		v.rules = game_get(GAME_DUSKCOURT)->rules_version + 1;
		tv = token_seal(&one, &v);
		ok(tv != NULL, "a token of another rules version can be sealed (an older daemon's, say)");
		is_int(token_open(&one, GAME_DUSKCOURT, tv, strlen(tv), NOW, TTL, &got), TOKEN_ERR_RULES,
		    "but does not open here: another version of the game's rules");
		ok(strstr(token_strerror(TOKEN_ERR_RULES), "another version") != NULL,
		    "its message says so");
		free(tv);
	}

	/* The lifetime: to the second, then expired; a token from the future
	 * beyond the clock skew is refused too. */
	is_int(token_open(&one, GAME_DUSKCOURT, tok, strlen(tok), SEALED + TTL, TTL, &got), TOKEN_OK,
	    "a token opens until its lifetime has passed");
	ok(got.issued_at == SEALED, "and says when it was sealed");
	memset(&got, 0xa5, sizeof got); /* nothing left over from the open above */
	is_int(token_open(&one, GAME_DUSKCOURT, tok, strlen(tok), SEALED + TTL + 1, TTL, &got),
	    TOKEN_ERR_EXPIRED, "one second later it has expired");
	ok(got.run == t.run && got.step == t.step && got.game == t.game && got.rules == t.rules &&
	    got.issued_at == SEALED && got.nstate == 0,
	    "an expired token still names its run, step and sealing time, and gives no state");
	is_int(token_open(&one, GAME_DUSKCOURT, tok, strlen(tok), SEALED - TOKEN_CLOCK_SKEW, TTL, &got),
	    TOKEN_OK, "a token sealed by a clock up to the skew ahead opens");
	is_int(token_open(&one, GAME_DUSKCOURT, tok, strlen(tok), SEALED - TOKEN_CLOCK_SKEW - 1, TTL, &got),
	    TOKEN_ERR_EXPIRED, "one sealed further in the future does not");

	/* A footer moved onto another token: its run no longer matches the
	 * implicit assertion the MAC covers. */
	{
		struct state_token u = sample(GAME_DUSKCOURT, 99, 1);
		char *tu = token_seal(&one, &u), *dot_t = strrchr(tok, '.'), *dot_u = strrchr(tu, '.');
		size_t lu = (size_t)(dot_u - tu);
		char *mix = malloc(lu + strlen(dot_t) + 1);

		memcpy(mix, tu, lu);
		strcpy(mix + lu, dot_t);
		is_int(token_open(&one, GAME_DUSKCOURT, mix, strlen(mix), NOW, TTL, &got), TOKEN_ERR_DAMAGED,
		    "a token with another run's footer does not authenticate");
		free(mix);
		free(tu);
	}

	/* 10,000 random damages of a real token. */
	len = strlen(tok);
	bad = malloc(len + 1);
	for (i = 0; i < 10000; i++) {
		uint32_t r = randombytes_uniform(3);
		size_t n = len;

		memcpy(bad, tok, len + 1);
		if (r == 0) {           /* flip one bit of one character */
			size_t at = randombytes_uniform((uint32_t)len);

			bad[at] ^= (char)(1 << randombytes_uniform(7));
		} else if (r == 1) {    /* truncate */
			n = randombytes_uniform((uint32_t)len);
			bad[n] = '\0';
		} else {                /* change a character to another of the alphabet */
			static const char a[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
			size_t at = 9 + randombytes_uniform((uint32_t)(len - 9));
			char c = a[randombytes_uniform(64)];

			if (c == bad[at])
				c = c == 'A' ? 'B' : 'A';
			if (bad[at] == '.')
				continue;
			bad[at] = c;
		}
		if (memcmp(bad, tok, len + 1) == 0)
			continue;
		if (token_open(&one, GAME_DUSKCOURT, bad, n, NOW, TTL, &got) == TOKEN_OK)
			accepted++;
		else
			refused++;
	}
	is_int(accepted, 0, "no damaged token opens (%zu damages tried)", refused + accepted);
	ok(refused > 9000, "the damages were real ones (%zu)", refused);
	free(bad);

	/* Certificates. */
	{
		json_t *claims = json_pack("{s:s, s:s, s:i}", "run", "1", "game", "duskcourt", "score", 90);
		char *cert = certificate_sign(&one, claims, 1795000000), *cert2;
		json_t *back = certificate_verify(&two, cert, strlen(cert));
		char h1[65], h2[65];

		ok(cert != NULL && strncmp(cert, "v4.public.", 10) == 0, "a certificate is a v4.public token");
		ok(back != NULL && json_integer_value(json_object_get(back, "score")) == 90 &&
		    strcmp(json_string_value(json_object_get(back, "iss")), "arcaded") == 0 &&
		    strcmp(json_string_value(json_object_get(back, "iat")), "2026-11-18T11:06:40+00:00") == 0,
		    "it verifies (after a rotation too) and carries its claims, iss and iat");
		json_decref(back);
		ok(certificate_verify(&other, cert, strlen(cert)) == NULL, "another server's keys do not verify it");
		cert2 = strdup(cert);
		cert2[strlen(cert2) / 2] ^= 1;
		ok(certificate_verify(&one, cert2, strlen(cert2)) == NULL, "a changed certificate does not verify");
		free(cert2);
		free(cert);
		json_decref(claims);
		claims = json_pack("{s:i, s:[i, i]}", "b", 1, "a", 2, 3);
		certificate_json_hash(claims, h1);
		json_decref(claims);
		claims = json_pack("{s:[i, i], s:i}", "a", 2, 3, "b", 1);
		certificate_json_hash(claims, h2);
		json_decref(claims);
		ok(strcmp(h1, h2) == 0 && strlen(h1) == 64, "the replay hash ignores key order");
	}
	free(tok);
	payload_as_jansson(&two);
	other_forms(&two);
	random_forms(&two);
	keyring_wipe(&one);
	keyring_wipe(&two);
	keyring_wipe(&other);
	return tap_done();
}
