/*
 * agent_check.c: reading answers, making and judging puzzles. Tokens are
 * "ac_" and 22 base64url characters of 16 random bytes; they are never
 * logged (nor are answers).
 */
#include "agent_check.h"

#include <stdio.h>
#include <string.h>

#include <sodium.h>

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
agent_fresh_make(struct agent_fresh *f, int64_t now_ms, const struct agent_who *who)
{
	uint8_t seed[PUZZLE_SEED_BYTES], id[16];
	struct puzzle p;

	randombytes_buf(seed, sizeof seed);
	randombytes_buf(id, sizeof id);
	puzzle_make(&p, seed);
	memcpy(f->token, "ac_", 3);
	sodium_bin2base64(f->token + 3, sizeof f->token - 3, id, sizeof id,
	    sodium_base64_VARIANT_URLSAFE_NO_PADDING);
	f->answer = p.answer;
	f->expires_at = now_ms + AGENT_CHECK_TTL_MS;
	snprintf(f->owner, sizeof f->owner, "%s", who->account[0] ? who->account : who->address);
	snprintf(f->puzzle, sizeof f->puzzle, "%s", p.text);
	sodium_memzero(&p, sizeof p);
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
