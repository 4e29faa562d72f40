/*
 * quota_charge.h: the day's storage quota (quota.h) applied to requests.
 *
 * A route that stores something a client could pile up -- an init that
 * begins a run, a finish that writes a review, a match created --
 * charges its client address (and /56) and, when an agent key is known,
 * its account, once, before its store job; the job's answer gives the
 * charge back when it stored nothing (a stale token, a finish too early,
 * a store error). Past a figure the request is answered 429
 * quota_exceeded in the error envelope with Retry-After (the seconds
 * until 00:00 UTC, when every count starts again), RateLimit-Policy
 * ("runs-day-address";q=N;w=86400) and RateLimit (r=0;t=Retry-After), and
 * {"quota": {"class", "key", "limit", "seconds"}}, and nothing of it runs.
 * A local peer with no address (the unix socket without X-Forwarded-For)
 * is charged by account only.
 */
#ifndef SERVER_QUOTA_CHARGE_H
#define SERVER_QUOTA_CHARGE_H

#include <stdbool.h>
#include <stdint.h>

#include "http.h"
#include "quota.h"

/* Room for keys: addresses and accounts that store something in one day,
 * two or three times over (a window fills from 40 % of the table live). */
#define QUOTA_CAPACITY 262144

/* The day now (days since 1970-01-01 UTC) and the seconds until the next. */
uint32_t quota_today(uint32_t *seconds_left);

/* Charges one cls for req's client and account_id (0: none) and sets
 * *day to the day charged. False once answered with the 429
 * (request_reply_error_with). */
bool quota_charge(struct request *req, enum quota_class cls, int64_t account_id, uint32_t *day);

/* Gives back what quota_charge took on day for the same request (the
 * same client and account_id), when its job stored nothing. */
void quota_refund(struct request *req, enum quota_class cls, int64_t account_id, uint32_t day);

/* "runs", "reviews", "matches". */
const char *quota_class_name(enum quota_class cls);

#endif
