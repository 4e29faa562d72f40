/*
 * agent_check.c: reading answers, making and judging puzzles. Tokens are
 * never logged (nor are answers).
 *
 * A token is "ac_" and 32 base64url characters of 24 bytes: 10 random
 * bytes and the expiry (ms since the epoch, 48 bits big-endian), then an
 * 8-byte tag of those 16 under the keyring's puzzle key. The puzzle's seed
 * is a second keyed hash of the same 16 bytes, so the daemon (and any
 * daemon with the same key file) can show a token's puzzle again without
 * the store: a 429 re-presents the puzzle it did not spend. The store still
 * decides whether a puzzle is live and what its answer is; the tag only
 * says the token is one of ours and not expired.
 */
#include "agent_check.h"

#include <stdio.h>
#include <string.h>

#include <sodium.h>

#define TOKEN_NONCE 10
#define TOKEN_BODY (TOKEN_NONCE + 6)
#define TOKEN_TAG 8
#define TOKEN_BYTES (TOKEN_BODY + TOKEN_TAG)

/* A keyed BLAKE2b of the token's body, domain-separated by a first byte:
 * 't' for its tag, 's' for its puzzle's seed. */
static void
keyed(uint8_t *out, size_t n, char domain, const uint8_t body[TOKEN_BODY], const struct keyring *kr)
{
	crypto_generichash_state h;

	crypto_generichash_init(&h, kr->puzzle, sizeof kr->puzzle, n);
	crypto_generichash_update(&h, (const uint8_t *)&domain, 1);
	crypto_generichash_update(&h, body, TOKEN_BODY);
	crypto_generichash_final(&h, out, n);
	sodium_memzero(&h, sizeof h);
}

/* The puzzle of a token's body into f (token, answer, expiry, text). */
static void
fill_fresh(struct agent_fresh *f, const uint8_t bytes[TOKEN_BYTES], int64_t expires_at,
    const struct keyring *kr)
{
	uint8_t seed[PUZZLE_SEED_BYTES];
	struct puzzle p;

	keyed(seed, sizeof seed, 's', bytes, kr);
	puzzle_make(&p, seed);
	memcpy(f->token, "ac_", 3);
	sodium_bin2base64(f->token + 3, sizeof f->token - 3, bytes, TOKEN_BYTES,
	    sodium_base64_VARIANT_URLSAFE_NO_PADDING);
	f->answer = p.answer;
	f->expires_at = expires_at;
	snprintf(f->puzzle, sizeof f->puzzle, "%s", p.text);
	sodium_memzero(&p, sizeof p);
	sodium_memzero(seed, sizeof seed);
}

/* A presented token that cannot be one of ours is simply unknown. */
static bool
plausible_token(const char *s, size_t n)
{
	size_t i;

	if (n < 4 || n > STORE_CHECK_TOKEN_MAX || strncmp(s, "ac_", 3) != 0)
		return false;
	for (i = 3; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		    (s[i] >= '0' && s[i] <= '9') || s[i] == '-' || s[i] == '_'))
			return false;
	return true;
}

void
agent_answer_read(const char *ht, const char *ha, const json_t *body, struct agent_answer *out)
{
	const json_t *bt = body ? json_object_get(body, "agent_check") : NULL;
	const json_t *ba = body ? json_object_get(body, "agent_answer") : NULL;
	const char *token = NULL;
	enum puzzle_answer kind = PUZZLE_ANSWER_NAN;

	memset(out, 0, sizeof *out);
	/* Headers win when both are sent: they are what the seed documents first. */
	if (ht != NULL) {
		token = ht;
		if (ha != NULL)
			kind = puzzle_answer_text(ha, strlen(ha), &out->value);
	} else if (json_is_string(bt)) {
		token = json_string_value(bt);
		if (ba != NULL)
			kind = puzzle_answer_json(ba, &out->value);
	}
	if (token == NULL)
		return;
	out->given = true;
	out->whole = kind == PUZZLE_ANSWER_WHOLE;
	if (plausible_token(token, strlen(token)))
		snprintf(out->token, sizeof out->token, "%s", token);
}

bool
agent_answer_header_ok(const char *ha)
{
	return ha == NULL || puzzle_answer_text(ha, strlen(ha), NULL) != PUZZLE_ANSWER_NAN;
}

void
agent_fresh_make(struct agent_fresh *f, int64_t now_ms, const struct agent_who *who,
    const struct keyring *kr)
{
	uint8_t bytes[TOKEN_BYTES];
	int64_t expires_at = now_ms + AGENT_CHECK_TTL_MS;
	int i;

	randombytes_buf(bytes, TOKEN_NONCE);
	for (i = 0; i < 6; i++)
		bytes[TOKEN_NONCE + i] = (uint8_t)((uint64_t)expires_at >> (8 * (5 - i)));
	keyed(bytes + TOKEN_BODY, TOKEN_TAG, 't', bytes, kr);
	fill_fresh(f, bytes, expires_at, kr);
	snprintf(f->owner, sizeof f->owner, "%s", who->account[0] ? who->account : who->address);
}

bool
agent_fresh_recall(struct agent_fresh *f, const char *token, int64_t now_ms, const struct keyring *kr)
{
	uint8_t bytes[TOKEN_BYTES], tag[TOKEN_TAG];
	size_t n = 0;
	int64_t expires_at = 0;
	int i;

	if (token == NULL || strlen(token) != 3 + sodium_base64_ENCODED_LEN(TOKEN_BYTES,
	    sodium_base64_VARIANT_URLSAFE_NO_PADDING) - 1 || strncmp(token, "ac_", 3) != 0)
		return false;
	if (sodium_base642bin(bytes, sizeof bytes, token + 3, strlen(token + 3), NULL, &n, NULL,
	    sodium_base64_VARIANT_URLSAFE_NO_PADDING) != 0 || n != TOKEN_BYTES)
		return false;
	keyed(tag, sizeof tag, 't', bytes, kr);
	if (sodium_memcmp(tag, bytes + TOKEN_BODY, TOKEN_TAG) != 0)
		return false;
	for (i = 0; i < 6; i++)
		expires_at = (expires_at << 8) | bytes[TOKEN_NONCE + i];
	if (expires_at <= now_ms)
		return false;
	memset(f, 0, sizeof *f);
	fill_fresh(f, bytes, expires_at, kr);
	return true;
}

enum store_result
agent_fresh_store(struct store_conn *c, const struct agent_fresh *f)
{
	return store_check_insert(c, f->token, f->answer, f->expires_at, f->owner);
}

enum store_result
agent_fresh_job(struct store_conn *c, void *arg)
{
	return agent_fresh_store(c, arg);
}

json_t *
agent_fresh_json(const struct agent_fresh *f, int64_t now_ms)
{
	int64_t left = (f->expires_at - now_ms) / 1000;

	return json_pack("{s:s, s:s, s:I}", "puzzle", f->puzzle, "token", f->token,
	    "expires_in", (json_int_t)(left > 0 ? left : 0));
}

enum store_result
agent_check_judge(struct store_conn *c, const struct agent_answer *a, int64_t now_ms,
    enum store_check_verdict *out)
{
	if (!a->given || a->token[0] == '\0') {
		*out = STORE_CHECK_UNKNOWN;
		return STORE_OK;
	}
	const char *const presenter[2] = { a->who.account, a->who.address };

	return store_check_spend(c, a->token, presenter, a->whole, a->value, now_ms, out);
}

const char *
agent_check_reason(const struct agent_answer *a, enum store_check_verdict v)
{
	if (!a->given)
		return "this route needs the answer to an agent check: send X-Agent-Check and "
		    "X-Agent-Answer (or agent_check and agent_answer in the body) for the puzzle in "
		    "agent_check (how to read it: agentCheckHelp in the game's rules answer)";
	if (v == STORE_CHECK_WRONG)
		return "wrong answer to the agent check; the puzzle is spent, here is a new one (how to "
		    "read it: agentCheckHelp in the game's rules answer)";
	if (v == STORE_CHECK_EXPIRED)
		return "the agent check expired; here is a new one";
	return "unknown or already used agent check; each puzzle works once, here is a new one";
}
