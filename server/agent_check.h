/*
 * agent_check.h: the agent check on guarded routes.
 *
 * An answer comes as headers X-Agent-Check/X-Agent-Answer or body fields
 * agent_check/agent_answer. It is judged inside the route's store job, so
 * that spending the puzzle and doing the request's work commit together.
 * A fresh puzzle is made on the HTTP thread (pure CPU) and stored by the
 * same job; it goes out with the answer.
 */
#ifndef SERVER_AGENT_CHECK_H
#define SERVER_AGENT_CHECK_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "keys.h"
#include "puzzle.h"
#include "store.h"

#define AGENT_CHECK_TTL_MS (10 * 60 * 1000)

/* Who a request comes from, as puzzles are bound: its account ("a:ID",
 * "" when anonymous) and its client address ("ip:ADDRESS", an IPv6 client
 * by its /64). A puzzle is issued to the account when there is one, else
 * to the address; it passes for a presenter with either name. */
struct agent_who {
	char account[STORE_OWNER_MAX];
	char address[STORE_OWNER_MAX];
};

struct agent_answer {
	bool    given;   /* a puzzle token was presented */
	char    token[STORE_CHECK_TOKEN_MAX + 1];
	bool    whole;   /* the answer is a whole number (else it is wrong) */
	int64_t value;
	struct agent_who who; /* the presenter */
};

/* Reads an answer from the request's X-Agent-Check and X-Agent-Answer
 * headers (NULL when absent) or its body's agent_check and agent_answer
 * fields (body may be NULL); headers win when both are sent. The body
 * fields' types were checked with the rest of the body (jsonbody_known),
 * before any puzzle could be spent. */
void agent_answer_read(const char *header_token, const char *header_answer, const json_t *body,
    struct agent_answer *out);

/* Whether an X-Agent-Answer header value (NULL: none sent) may be judged:
 * absent, or a number (whole or not, in range or not: a wrong number is
 * judged and spends the puzzle). Text that reads as no number at all
 * ("seventeen", "") is refused at the headers with 400 invalid_request and
 * JSONBODY_ANSWER_NOT_A_NUMBER, before any puzzle is touched. */
bool agent_answer_header_ok(const char *header_answer);

struct agent_fresh {
	char    token[STORE_CHECK_TOKEN_MAX + 1];
	int64_t answer;
	int64_t expires_at; /* ms */
	char    owner[STORE_OWNER_MAX];
	char    puzzle[PUZZLE_TEXT_MAX];
};

/* A new puzzle for who, not stored yet: its token from libsodium's random
 * bytes, its puzzle from the token under kr's puzzle key. */
void agent_fresh_make(struct agent_fresh *f, int64_t now_ms, const struct agent_who *who,
    const struct keyring *kr);

/* The puzzle of a token this daemon (or one with its key file) made, as it
 * was made (f->owner left empty), from the token alone: no store read.
 * False when the token is not one of ours or has expired. Whether it is
 * still live (unspent) only the store knows. */
bool agent_fresh_recall(struct agent_fresh *f, const char *token, int64_t now_ms,
    const struct keyring *kr);

/* Stores f; for use inside a store job. */
enum store_result agent_fresh_store(struct store_conn *c, const struct agent_fresh *f);

/* A store job (store_fn) over a struct agent_fresh: stores it. */
enum store_result agent_fresh_job(struct store_conn *c, void *arg);

/* {"puzzle", "token", "expires_in"}: the agent_check object. */
json_t *agent_fresh_json(const struct agent_fresh *f, int64_t now_ms);

/* Judges a (inside a job): spends the presented puzzle. An absent token
 * is STORE_CHECK_UNKNOWN without touching the database. */
enum store_result agent_check_judge(struct store_conn *c, const struct agent_answer *a, int64_t now_ms,
    enum store_check_verdict *out);

/* The message of the 428 for a verdict other than PASS (static storage). */
const char *agent_check_reason(const struct agent_answer *a, enum store_check_verdict v);

#endif
