/*
 * throttle.h: the rate limiter (ratelimit.h) applied to requests.
 *
 * Each route has a class (routes.c). At the headers, before a byte of the
 * body is read, the request's client address pays for one request of its
 * route's class (throttle_admit, the router's admit); once an agent key is
 * known, its account pays too (throttle_account, from auth). A request over
 * either limit is answered 429 in the error envelope with Retry-After,
 * RateLimit-Policy and RateLimit, plus {"ratelimit": {"key", "seconds"}},
 * and nothing of it runs (on the token routes' action, state and finish
 * nothing but reading the body and opening the token, whose run the 429
 * shows: play.c). Wrong agent-check answers are counted per account
 * and per address; past the limit in a window every answer is refused with
 * 429 until the window passes (throttle_wrong_*).
 *
 * Counters live in this daemon's memory: several daemons behind one proxy
 * each count their own share (say so to operators).
 */
#ifndef SERVER_THROTTLE_H
#define SERVER_THROTTLE_H

#include <stdbool.h>
#include <stdint.h>

#include "http.h"
#include "ratelimit.h"

/* Room for states: client addresses and accounts active at once, times
 * the two or three the table wants (ratelimit.h). */
#define THROTTLE_CAPACITY 65536

struct throttle;

struct throttle *throttle_new(const struct ratelimit_config *cfg);
void throttle_free(struct throttle *l);

/* The router's admit (http.h): the per-address limit of the route's class.
 * False after request_refuse() with the 429, or, with after_body, after
 * request_refuse_after_body(): the route then answers the 429 itself once
 * the body is in (the token routes show the run their token holds). */
bool throttle_admit(struct request *req, bool after_body);

/* The same per-address limit, for a request whose route class is known
 * only once its body is read (a tool of POST /mcp names the route it
 * stands for): req->rate_class pays now, and a refusal is answered at once
 * (request_reply_error_with, so through req->wrap when set). False when
 * refused. */
bool throttle_charge(struct request *req);

/* The router's admit for such a route (POST /mcp pays a read before it
 * parses): a client already over cls's limit is refused at the headers,
 * its body never read, and nothing is counted; one under it passes, to
 * pay with throttle_charge once the body is in. False after
 * request_refuse() with the 429. */
bool throttle_admit_over(struct request *req, enum ratelimit_class cls);

/* The per-account limit of the request's route class. False when refused:
 * the 429's headers are on req, req->retry_after_s is set and why (static
 * storage) says what for; the caller answers (auth does). */
bool throttle_account(struct request *req, int64_t account_id, const char **why);

/* What a refused request shows besides the 429's own fields (NULL:
 * nothing), merged into its envelope. */
typedef json_t *(*throttle_show_fn)(struct request *req, void *arg);

/* Whether req may have an agent-check answer judged: its address and its
 * account (0: none) are not over the wrong-answer limit. When they are, a
 * 429 is queued, with what show gives (show may be NULL), and false
 * returned. */
bool throttle_wrong_allowed(struct request *req, int64_t account_id, throttle_show_fn show,
    void *arg);

/* Counts a wrong answer against req's address and account (0: none). */
void throttle_wrong_count(struct request *req, int64_t account_id);

/* Refusals by class and scope (for /metrics). */
uint64_t throttle_refused(struct throttle *l, enum ratelimit_class cls, enum ratelimit_scope scope);

#endif
