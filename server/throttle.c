/*
 * throttle.c: requests against the rate limiter (throttle.h). The clock is
 * the monotonic one the HTTP layer stamps requests with.
 */
#include "throttle.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>

#include "app.h"

struct throttle {
	struct ratelimit *rl;
	_Atomic uint64_t  refused[RATELIMIT_NCLASSES][RATELIMIT_NSCOPES];
};

struct throttle *
throttle_new(const struct ratelimit_config *cfg)
{
	struct throttle *l = calloc(1, sizeof *l);

	if (l == NULL)
		return NULL;
	if ((l->rl = ratelimit_new(THROTTLE_CAPACITY, cfg)) == NULL) {
		free(l);
		return NULL;
	}
	return l;
}

void
throttle_free(struct throttle *l)
{
	if (l == NULL)
		return;
	ratelimit_free(l->rl);
	free(l);
}

uint64_t
throttle_refused(struct throttle *l, enum ratelimit_class cls, enum ratelimit_scope scope)
{
	return atomic_load_explicit(&l->refused[cls][scope], memory_order_relaxed);
}

/* The request's client address as a limiter key; false for a local peer
 * with no address (the unix socket without X-Forwarded-For: the operator's
 * own tools). */
static bool
address_key(struct request *req, struct ratelimit_key *k)
{
	struct client_key c;

	request_client_key(req, &c);
	if (c.family == 4)
		return ratelimit_key_ip(k, AF_INET, c.bytes);
	if (c.family == 6)
		return ratelimit_key_ip(k, AF_INET6, c.bytes);
	return false;
}

/* The 429's headers on req, and the seconds to wait. */
static int
refusal_headers(struct request *req, struct throttle *l, enum ratelimit_class cls,
    enum ratelimit_scope scope, const struct ratelimit_result *res)
{
	char name[32], policy[96], state[96], retry[16];

	snprintf(name, sizeof name, "%s-%s", ratelimit_class_name(cls),
	    scope == RATELIMIT_BY_ADDR ? "address" : "account");
	snprintf(retry, sizeof retry, "%u", res->retry_after_s);
	request_add_header(req, "Retry-After", retry);
	if (ratelimit_format(name, ratelimit_policy(l->rl, cls, scope), res, policy, sizeof policy, state,
	    sizeof state)) {
		request_add_header(req, "RateLimit-Policy", policy);
		request_add_header(req, "RateLimit", state);
	}
	atomic_fetch_add_explicit(&l->refused[cls][scope], 1, memory_order_relaxed);
	req->retry_after_s = (int)res->retry_after_s;
	return (int)res->retry_after_s;
}

static json_t *
refusal_extra(const char *key, int seconds)
{
	return json_pack("{s:{s:s, s:i}}", "ratelimit", "key", key, "seconds", seconds);
}

static const char *
what(enum ratelimit_class cls)
{
	switch (cls) {
	case RATELIMIT_ACCOUNTS: return "too many account changes: retry after the time given";
	case RATELIMIT_PUZZLES: return "too many agent-check puzzles asked for: retry after the time given";
	case RATELIMIT_RUNS: return "too many new runs: retry after the time given";
	case RATELIMIT_MOVES: return "too many moves: retry after the time given";
	case RATELIMIT_READS: return "too many reads: retry after the time given";
	case RATELIMIT_VERIFY: return "too many verifications: retry after the time given";
	case RATELIMIT_WRONG: return "too many wrong agent-check answers: no answer is judged until the "
	    "time given has passed";
	default: return NULL;
	}
}

bool
throttle_admit(struct request *req, bool after_body)
{
	struct throttle *l = req->app->throttle;
	struct ratelimit_result res;
	struct ratelimit_key k;
	json_t *extra;
	int cls = req->rate_class;

	if (cls < 0 || !address_key(req, &k))
		return true;
	if (ratelimit_take(l->rl, (enum ratelimit_class)cls, &k, http_now_us(), &res))
		return true;
	/* A refused take charged nothing, and the route that answers this
	 * refusal after the body charges nothing either (no auth, no store). */
	extra = refusal_extra("address", refusal_headers(req, l, (enum ratelimit_class)cls,
	    RATELIMIT_BY_ADDR, &res));
	if (after_body)
		request_refuse_after_body(req, API_ERR_RATE_LIMITED, what((enum ratelimit_class)cls), extra);
	else
		request_refuse(req, API_ERR_RATE_LIMITED, what((enum ratelimit_class)cls), extra);
	return false;
}

bool
throttle_admit_over(struct request *req, enum ratelimit_class cls)
{
	struct throttle *l = req->app->throttle;
	struct ratelimit_result res;
	struct ratelimit_key k;

	if (!address_key(req, &k) || ratelimit_peek(l->rl, cls, &k, http_now_us(), &res))
		return true;
	request_refuse(req, API_ERR_RATE_LIMITED, what(cls), refusal_extra("address",
	    refusal_headers(req, l, cls, RATELIMIT_BY_ADDR, &res)));
	return false;
}

bool
throttle_charge(struct request *req)
{
	struct throttle *l = req->app->throttle;
	struct ratelimit_result res;
	struct ratelimit_key k;
	int cls = req->rate_class;

	if (cls < 0 || !address_key(req, &k))
		return true;
	if (ratelimit_take(l->rl, (enum ratelimit_class)cls, &k, http_now_us(), &res))
		return true;
	request_reply_error_with(req, API_ERR_RATE_LIMITED, what((enum ratelimit_class)cls),
	    refusal_extra("address", refusal_headers(req, l, (enum ratelimit_class)cls, RATELIMIT_BY_ADDR,
	    &res)));
	return false;
}

bool
throttle_account(struct request *req, int64_t account_id, const char **why)
{
	struct throttle *l = req->app->throttle;
	struct ratelimit_result res;
	struct ratelimit_key k = ratelimit_key_account(account_id);
	int cls = req->rate_class;

	if (cls < 0 || ratelimit_take(l->rl, (enum ratelimit_class)cls, &k, http_now_us(), &res))
		return true;
	refusal_headers(req, l, (enum ratelimit_class)cls, RATELIMIT_BY_ACCOUNT, &res);
	*why = what((enum ratelimit_class)cls);
	return false;
}

bool
throttle_wrong_allowed(struct request *req, int64_t account_id, throttle_show_fn show, void *arg)
{
	struct throttle *l = req->app->throttle;
	struct ratelimit_result res;
	struct ratelimit_key k;
	int64_t now = http_now_us();
	const char *key = NULL;
	json_t *extra, *more;

	if (account_id > 0) {
		k = ratelimit_key_account(account_id);
		if (!ratelimit_peek(l->rl, RATELIMIT_WRONG, &k, now, &res)) {
			refusal_headers(req, l, RATELIMIT_WRONG, RATELIMIT_BY_ACCOUNT, &res);
			key = "account";
		}
	}
	if (key == NULL && address_key(req, &k) && !ratelimit_peek(l->rl, RATELIMIT_WRONG, &k, now, &res)) {
		refusal_headers(req, l, RATELIMIT_WRONG, RATELIMIT_BY_ADDR, &res);
		key = "address";
	}
	if (key == NULL)
		return true;
	extra = refusal_extra(key, req->retry_after_s);
	more = show != NULL ? show(req, arg) : NULL;
	if (more != NULL && extra != NULL)
		json_object_update(extra, more);
	json_decref(more);
	request_reply_error_with(req, API_ERR_RATE_LIMITED, what(RATELIMIT_WRONG), extra);
	return false;
}

void
throttle_wrong_count(struct request *req, int64_t account_id)
{
	struct throttle *l = req->app->throttle;
	struct ratelimit_result res;
	struct ratelimit_key k;
	int64_t now = http_now_us();

	if (account_id > 0) {
		k = ratelimit_key_account(account_id);
		ratelimit_take(l->rl, RATELIMIT_WRONG, &k, now, &res);
	}
	if (address_key(req, &k))
		ratelimit_take(l->rl, RATELIMIT_WRONG, &k, now, &res);
}
