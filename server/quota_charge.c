/*
 * quota_charge.c: requests against the day's storage quota
 * (quota_charge.h). The day is UTC from the wall clock, the one clock a
 * calendar day can be read from.
 */
#include "quota_charge.h"

#include <stdio.h>
#include <time.h>

#include "app.h"

uint32_t
quota_today(uint32_t *seconds_left)
{
	int64_t now = (int64_t)time(NULL);

	if (now < 0)
		now = 0;
	if (seconds_left != NULL)
		*seconds_left = (uint32_t)(86400 - now % 86400);
	return (uint32_t)(now / 86400);
}

const char *
quota_class_name(enum quota_class cls)
{
	switch (cls) {
	case QUOTA_RUNS: return "runs";
	case QUOTA_REVIEWS: return "reviews";
	case QUOTA_MATCHES: return "matches";
	default: return NULL;
	}
}

static size_t
keys_of(struct request *req, int64_t account_id, struct quota_key keys[QUOTA_KEYS_MAX])
{
	struct client_key c;

	request_client_key(req, &c);
	return quota_keys(keys, c.family, c.family != 0 ? c.bytes : NULL, account_id);
}

static const char *
key_name(enum quota_kind kind)
{
	switch (kind) {
	case QUOTA_KEY_NET56:
	case QUOTA_KEY_NET48: return "network";
	case QUOTA_KEY_ACCOUNT: return "account";
	default: return "address";
	}
}

static const char *
what(enum quota_class cls)
{
	switch (cls) {
	case QUOTA_RUNS: return "this day's quota of new runs is used: retry after the time given "
	    "(00:00 UTC)";
	case QUOTA_REVIEWS: return "this day's quota of finished runs with a review is used: retry after "
	    "the time given (00:00 UTC); the run stays as it is";
	case QUOTA_MATCHES: return "this day's quota of matches created is used: retry after the time "
	    "given (00:00 UTC)";
	default: return NULL;
	}
}

bool
quota_charge(struct request *req, enum quota_class cls, int64_t account_id, uint32_t *day)
{
	struct quota *q = req->app->quota;
	struct quota_key keys[QUOTA_KEYS_MAX];
	uint32_t left;
	size_t n, over = 0;
	char retry[16], name[48], policy[96], state[96];

	*day = quota_today(&left);
	if (q == NULL || (n = keys_of(req, account_id, keys)) == 0 ||
	    quota_take(q, cls, keys, n, *day, &over))
		return true;
	snprintf(retry, sizeof retry, "%u", left);
	request_add_header(req, "Retry-After", retry);
	/* The RateLimit draft's fields, as the rate limits send them: a
	 * policy of `limit` in a window of a day, none left until 00:00 UTC. */
	snprintf(name, sizeof name, "%s-day-%s", quota_class_name(cls), key_name(keys[over].kind));
	snprintf(policy, sizeof policy, "\"%s\";q=%u;w=86400", name, quota_limit(q, cls, keys[over].kind));
	snprintf(state, sizeof state, "\"%s\";r=0;t=%u", name, left);
	request_add_header(req, "RateLimit-Policy", policy);
	request_add_header(req, "RateLimit", state);
	req->retry_after_s = (int)left;
	request_reply_error_with(req, API_ERR_QUOTA_EXCEEDED, what(cls),
	    json_pack("{s:{s:s, s:s, s:I, s:i}}", "quota", "class", quota_class_name(cls),
	    "key", key_name(keys[over].kind), "limit", (json_int_t)quota_limit(q, cls, keys[over].kind),
	    "seconds", (int)left));
	return false;
}

void
quota_refund(struct request *req, enum quota_class cls, int64_t account_id, uint32_t day)
{
	struct quota_key keys[QUOTA_KEYS_MAX];
	size_t n;

	if (req->app->quota != NULL && (n = keys_of(req, account_id, keys)) > 0)
		quota_give_back(req->app->quota, cls, keys, n, day);
}
