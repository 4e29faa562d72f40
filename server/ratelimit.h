/*
 * ratelimit.h: request rate limits per client address and per account.
 *
 * A limiter holds one small state per (class, key) in a fixed table made
 * at start: its memory never grows, whatever the traffic. The caller
 * passes the time (monotonic microseconds) into every call, so the module
 * reads no clock and a test controls time. Every call is thread-safe.
 *
 * Keys. A client address is limited by its IPv4 address, or by the /64
 * prefix of its IPv6 address: one /64 is what a provider hands a single
 * customer, who can pick any of its 2^64 addresses at will, so hopping
 * inside it does not escape the limit; and since a customer may hold a
 * /56 or a /48, its /56 and /48 are charged too, at the multiples below.
 * An IPv4-mapped IPv6 address
 * (::ffff:a.b.c.d) counts as the IPv4 address. An account is its id. The
 * same class keeps separate states, and may have separate policies, for
 * addresses (RATELIMIT_BY_ADDR) and accounts (RATELIMIT_BY_ACCOUNT).
 *
 * Rate classes use GCRA (the generic cell rate algorithm): a policy of
 * `count` per `period` with a burst B has an emission interval
 * T = period / count and a tolerance tau = (B - 1) * T; a key's state is
 * one "theoretical arrival time" TAT. A request at time now passes when
 * max(TAT, now) - now <= tau, and then TAT becomes max(TAT, now) + T. So a
 * key that has been quiet may send B requests at once, then one per T,
 * and a refused request costs nothing. T is kept in nanoseconds, rounded
 * to the nearest one when period / count is not whole.
 *
 * The penalty class (RATELIMIT_WRONG, for wrong agent-check answers) uses
 * a fixed window: the first counted event opens a window of `period`;
 * once `count` events were counted in it, every check is refused until
 * the window ends, then the count starts again. (Windows open at the first
 * event, so at most 2 * count - 1 events fit any stretch of one period.)
 *
 * The table is split in shards, each with a mutex; a key lives in a
 * window of slots of one shard picked by a keyed SipHash (libsodium's
 * crypto_shorthash, key drawn at ratelimit_new), so a client cannot aim
 * its keys at another key's slots. A state equal to a fresh one (TAT at or
 * before now; a penalty window over or empty) means nothing and its slot
 * is reused. When every slot of a new key's window holds a live state,
 * the request is charged to one shared entry per class and scope instead
 * (result.shared, counted in the stats): live keys are never evicted, so a
 * flood of new keys cannot reset anyone's limit, and the keys that find no
 * room share one key's allowance rather than passing unchecked (failing
 * open would let the 65537th address of a flood go unlimited) or being
 * refused outright. A window is 16 slots: with random keys the first one
 * finds its window full at about 40 % of the table live, 1 % of new keys
 * do at 55-60 % and 10 % at 70-75 % (measured), so size the table at two
 * or three times the states expected to be live at once (a state lives
 * until its quota is whole again: 2 s for moves=100/s:200, 20 min for
 * accounts=30/h:10).
 *
 * Policies come from flag values (ratelimit_config_parse), one item or a
 * comma-separated list:
 *
 *   item   = class [ "@" scope ] "=" spec
 *   class  = "accounts" | "puzzles" | "runs" | "moves" | "reads" | "verify" | "wrong"
 *   scope  = "addr" | "account"            (none: both scopes)
 *   spec   = "off" | "0" | count "/" period [ ":" burst ]
 *   count  = 1 .. 1000000                  (decimal)
 *   period = [ multiplier ] unit           unit "s", "m", "h" or "d"; multiplier
 *                                          1 .. 86400, the period at most 1 day
 *   burst  = 1 .. 1000000                  (rate classes only; default: count)
 *
 * e.g. `moves=100/s:200` (100 a second, 200 at once), `accounts@addr=30/h:10`,
 * `wrong=5/10m` (refuse after 5 wrong answers within 10 minutes),
 * `reads@account=off`. A later item overrides an earlier one. Every class
 * starts off (ratelimit_config_init); RATELIMIT_DEFAULTS is a suggested set.
 *
 * Headers (draft-ietf-httpapi-ratelimit-headers, -11 text; the item is a
 * structured-field String): for a rate class the policy is q = burst,
 * w = burst * T in whole seconds (rounded up), the time a quiet key's
 * burst takes to refill, so q / w is the steady rate when B * T is whole;
 * the state is r = requests that would pass now, t = seconds until the
 * quota is whole again, or, on a refusal, r = 0 and t = Retry-After. For
 * the penalty class q = count, w = period, r = events left in the window,
 * t = seconds until it ends.
 *
 *   RateLimit-Policy: "moves";q=200;w=2
 *   RateLimit: "moves";r=153;t=1
 */
#ifndef SERVER_RATELIMIT_H
#define SERVER_RATELIMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "netgroup.h"

/* To add a class: a name before RATELIMIT_NCLASSES and a row in
 * ratelimit.c's CLASSES table (its flag name and whether it is a penalty). */
enum ratelimit_class {
	RATELIMIT_ACCOUNTS, /* account creation */
	RATELIMIT_PUZZLES,  /* agent-check puzzles issued */
	RATELIMIT_RUNS,     /* new runs */
	RATELIMIT_MOVES,    /* moves */
	RATELIMIT_READS,    /* reads (state, boards, replays) */
	RATELIMIT_VERIFY,   /* certificate verification */
	RATELIMIT_WRONG,    /* penalty: wrong agent-check answers */
	RATELIMIT_NCLASSES
};

enum ratelimit_scope {
	RATELIMIT_BY_ADDR,    /* keys from client addresses */
	RATELIMIT_BY_ACCOUNT, /* keys from account ids */
	RATELIMIT_NSCOPES
};

enum ratelimit_kind {
	RATELIMIT_KEY_IPV4 = 1, /* bits: the address, network order in the low 4 bytes */
	RATELIMIT_KEY_IPV6,     /* bits: the /64 prefix, network order */
	RATELIMIT_KEY_ACCOUNT,  /* bits: the account id */
	RATELIMIT_KEY_NET56,    /* internal: an IPv6 key's /56 (bits: the /64's, low byte zero) */
	RATELIMIT_KEY_NET48,    /* internal: its /48 */
};

/* What an IPv6 key's wider networks may spend, in multiples of the
 * address policy (count and burst alike; netgroup.h): every request from
 * a /64 is also charged to its /56 and its /48. */
#define RATELIMIT_NET56_FACTOR NET56_FACTOR
#define RATELIMIT_NET48_FACTOR NET48_FACTOR

struct ratelimit_key {
	enum ratelimit_kind kind;
	uint64_t bits;
};

/* An address key from raw bytes: family AF_INET (4 bytes at addr) or
 * AF_INET6 (16 bytes; IPv4-mapped counts as IPv4). False for another
 * family or a NULL addr. */
bool ratelimit_key_ip(struct ratelimit_key *k, int family, const void *addr);

/* An address key from text ("192.0.2.7", "2001:db8::1"); false when the
 * text is neither. */
bool ratelimit_key_ip_text(struct ratelimit_key *k, const char *text);

/* An account key. */
struct ratelimit_key ratelimit_key_account(int64_t account_id);

/* The scope a key belongs to. */
enum ratelimit_scope ratelimit_key_scope(const struct ratelimit_key *k);

/* One policy. count == 0 means off: every check passes and nothing is
 * stored. */
struct ratelimit_policy {
	uint32_t count;     /* events per period, 0 .. 1000000; 0 = off */
	int64_t  period_us; /* the period (penalty: the window), 1 s .. 1 day, in µs */
	uint32_t burst;     /* rate classes: requests at once, 1 .. 1000000; penalty: 0
	                       (ratelimit_format tells the two kinds apart by it) */
};

struct ratelimit_config {
	struct ratelimit_policy policy[RATELIMIT_NCLASSES][RATELIMIT_NSCOPES];
};

/* A suggested configuration, in the flag grammar (parsed by the tests).
 * Moves and reads are sized for a bot on one connection at up to 200
 * requests a second (a whole Stackfall game with `options` before each
 * piece, about 300 requests, fits the burst of 500 at any speed); the
 * classes that create things at a cost (accounts, runs, puzzles asked for)
 * stay small. Every request pays its address and, once its key is known,
 * its account, so both scopes carry the same figures: an account limit
 * above its address's would never be reached. README's "What a flood can
 * store" does the arithmetic. */
#define RATELIMIT_DEFAULTS \
	"accounts=30/h:10,puzzles=10/s:30,runs=2/s:20,moves=250/s:500," \
	"reads=250/s:500,verify=5/s:20,wrong=10/10m"

/* Every class off. */
void ratelimit_config_init(struct ratelimit_config *cfg);

/* Applies a flag value (grammar above) to cfg. On a bad value returns
 * false, leaves cfg as it was and writes one line naming the fault into
 * err (capacity errcap, may be 0). */
bool ratelimit_config_parse(struct ratelimit_config *cfg, const char *value, char *err,
    size_t errcap);

/* Flag names: "moves", "wrong"; "addr", "account". NULL when out of range. */
const char *ratelimit_class_name(enum ratelimit_class cls);
const char *ratelimit_scope_name(enum ratelimit_scope scope);

/* Whether cls counts events in a fixed window (the penalty) rather than
 * a rate. */
bool ratelimit_class_is_penalty(enum ratelimit_class cls);

struct ratelimit;

/* A limiter of at least capacity states (rounded up to fill its shards;
 * ratelimit_stats tells the real figure), 1024 .. 2^26, with cfg's
 * policies (copied). NULL on a bad capacity, a policy outside its ranges
 * or no memory. sodium_init() must have succeeded (the hash key is
 * random). */
struct ratelimit *ratelimit_new(size_t capacity, const struct ratelimit_config *cfg);
void ratelimit_free(struct ratelimit *rl);

/* The policy of cls for keys of scope (borrowed from rl). */
const struct ratelimit_policy *ratelimit_policy(const struct ratelimit *rl,
    enum ratelimit_class cls, enum ratelimit_scope scope);

struct ratelimit_result {
	bool     allowed;
	bool     off;            /* the policy is off: allowed, no headers to send */
	bool     shared;         /* no room in the table: the class's shared entry decided */
	uint32_t remaining;      /* r: requests (penalty: events) that would pass now */
	uint32_t reset_s;        /* t: seconds until the quota is whole; refused: = retry_after_s */
	uint32_t retry_after_s;  /* refused: seconds until a retry passes, >= 1; else 0 */
	int64_t  retry_after_us; /* refused: the exact wait, > 0; else 0 */
};

/*
 * Counts one event of cls for key at now_us (monotonic µs, 0 .. 2^53) and
 * fills res. Rate classes: one request, counted only if it passes. Penalty
 * class: one wrong answer; refused when the window is already full (then
 * not counted). Calls from several threads may pass times a little out of
 * order; a state never moves back. A class out of range or a key of no
 * kind is refused (a programming error). Returns res->allowed.
 */
bool ratelimit_take(struct ratelimit *rl, enum ratelimit_class cls,
    const struct ratelimit_key *key, int64_t now_us, struct ratelimit_result *res);

/* What ratelimit_take would answer, counting nothing: for the penalty
 * class, whether an answer may be judged at all. Returns res->allowed. */
bool ratelimit_peek(struct ratelimit *rl, enum ratelimit_class cls,
    const struct ratelimit_key *key, int64_t now_us, struct ratelimit_result *res);

/*
 * The two header values for a result under policy p, named name (printable
 * ASCII; '"' and '\' are escaped): policy_out gets `"name";q=Q;w=W` and
 * state_out gets `"name";r=R;t=T`. Returns false, with empty outputs, when
 * p is off, the name is not printable or a buffer is too small (64 bytes
 * plus the name always suffice).
 */
bool ratelimit_format(const char *name, const struct ratelimit_policy *p,
    const struct ratelimit_result *res, char *policy_out, size_t policy_cap,
    char *state_out, size_t state_cap);

struct ratelimit_stats {
	size_t   capacity; /* states the table holds */
	size_t   bytes;    /* memory of the limiter, fixed at ratelimit_new */
	size_t   live;     /* states not equal to a fresh one at now_us */
	uint64_t checks;   /* ratelimit_take and ratelimit_peek calls on policies that are on */
	uint64_t refused;  /* of which refused */
	uint64_t shared;   /* of which decided by a shared entry (table full) */
};

/* Figures for metrics; walks the whole table (a few ms for 65536 states),
 * one shard lock at a time. */
void ratelimit_stats(struct ratelimit *rl, int64_t now_us, struct ratelimit_stats *out);

#endif
