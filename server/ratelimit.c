/*
 * ratelimit.c: GCRA rate limits and a fixed-window penalty counter in a
 * fixed, sharded table (contract and algorithms in ratelimit.h).
 *
 * Layout: NSHARDS shards, each a mutex (on its own cache line) and a
 * power-of-two run of slots. A key hashes (keyed SipHash) to one shard and
 * a start slot; it may live in any of the PROBE slots from there (wrapping
 * inside the shard). A lookup does not stop at an empty slot (it reads
 * the whole window when the key is absent), so slots can be emptied or
 * reused in any order without tombstones. A slot is reused when it is
 * empty or its state equals a fresh one at the caller's time; no sweep
 * runs, the reuse happens on the way. Tried and not kept: two windows of 8
 * per key, the new key going to the emptier one, filled the table further
 * (first full window at 58 % instead of 40 %) but made a check on a new
 * key about twice as slow; a bigger table is the cheaper remedy. Locks
 * rather than atomics: a check reads and writes a 16-byte state and may
 * claim a slot, which a single compare-and-swap does not cover, and a
 * whole check on a hot key, lock included, measures about 30 ns.
 *
 * Workload: one or two calls on every request, on the HTTP threads, so a
 * call is a hash, one uncontended lock and at most PROBE 24-byte slots
 * (6 cache lines); tests/bench/bench_ratelimit.c measures it. Time is
 * kept in nanoseconds internally (the caller's microseconds * 1000) so
 * that an emission interval such as 1 s / 3 rounds by less than 1 ns.
 */
#include "ratelimit.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <sodium.h>

#define NSHARDS 64            /* power of two */
#define PROBE 16              /* slots a key may occupy; <= slots per shard */
#define NS_PER_US INT64_C(1000)
#define NS_PER_S INT64_C(1000000000)
#define MAX_COUNT 1000000u
#define MIN_PERIOD_US INT64_C(1000000)
#define MAX_PERIOD_US (INT64_C(86400) * 1000000)
#define MAX_TOLERANCE_NS (INT64_C(30) * 86400 * NS_PER_S) /* burst * interval */
#define MIN_CAPACITY ((size_t)1024)
#define MAX_CAPACITY ((size_t)1 << 26)

static const struct {
	const char *name;
	bool penalty;
} CLASSES[RATELIMIT_NCLASSES] = {
	[RATELIMIT_ACCOUNTS] = { "accounts", false },
	[RATELIMIT_PUZZLES] = { "puzzles", false },
	[RATELIMIT_RUNS] = { "runs", false },
	[RATELIMIT_MOVES] = { "moves", false },
	[RATELIMIT_READS] = { "reads", false },
	[RATELIMIT_VERIFY] = { "verify", false },
	[RATELIMIT_WRONG] = { "wrong", true },
};

static const char *const SCOPES[RATELIMIT_NSCOPES] = {
	[RATELIMIT_BY_ADDR] = "addr",
	[RATELIMIT_BY_ACCOUNT] = "account",
};

/* One state. */
struct slot {
	uint64_t key; /* the key's bits */
	int64_t  t;   /* rate: theoretical arrival time; penalty: window start; ns */
	uint32_t n;   /* penalty: events counted in the window */
	uint16_t tag; /* 0: empty; else 1 + class * 8 + key kind */
};

/* A policy turned into the numbers a check needs. */
struct rule {
	bool     on, penalty;
	uint32_t limit;     /* burst (rate) or count (penalty) */
	int64_t  interval;  /* rate: emission interval T, ns, >= 1 */
	int64_t  tolerance; /* rate: (burst - 1) * T, ns */
	int64_t  window;    /* penalty: ns */
};

struct shard {
	_Alignas(64) pthread_mutex_t mu;
	struct slot *slots; /* mask + 1 of them */
	uint64_t nchecks, nrefused;
};

struct ratelimit {
	struct ratelimit_config cfg;
	struct rule rules[RATELIMIT_NCLASSES][RATELIMIT_NSCOPES];
	struct rule nets[RATELIMIT_NCLASSES][2]; /* an address's /56 and /48: scaled */
	unsigned char hkey[crypto_shorthash_KEYBYTES];
	size_t mask;           /* slots per shard - 1 */
	struct shard *shards;  /* NSHARDS */
	struct slot *slots;    /* NSHARDS * (mask + 1) */
	pthread_mutex_t over_mu;
	struct slot over[RATELIMIT_NCLASSES][RATELIMIT_NSCOPES + 2]; /* the shared entries; a /56's, a /48's */
	uint64_t nover_checks, nover_refused, nover_shared;
	/* Checks of IPv6 keys, counted once each here rather than in the
	 * shards their three keys touch. */
	_Atomic uint64_t nv6_checks, nv6_refused;
};

/* ---- keys ---- */

static uint64_t
load_be64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

bool
ratelimit_key_ip(struct ratelimit_key *k, int family, const void *addr)
{
	static const uint8_t mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };
	const uint8_t *a = addr;

	if (k == NULL || a == NULL)
		return false;
	if (family == AF_INET6 && memcmp(a, mapped, sizeof mapped) == 0) {
		a += 12;
		family = AF_INET;
	}
	if (family == AF_INET) {
		k->kind = RATELIMIT_KEY_IPV4;
		k->bits = (uint64_t)a[0] << 24 | (uint64_t)a[1] << 16 | (uint64_t)a[2] << 8 | a[3];
		return true;
	}
	if (family == AF_INET6) {
		k->kind = RATELIMIT_KEY_IPV6;
		k->bits = load_be64(a); /* the /64 prefix; the interface half is dropped */
		return true;
	}
	return false;
}

bool
ratelimit_key_ip_text(struct ratelimit_key *k, const char *text)
{
	uint8_t buf[16];

	if (text == NULL)
		return false;
	if (inet_pton(AF_INET, text, buf) == 1)
		return ratelimit_key_ip(k, AF_INET, buf);
	if (inet_pton(AF_INET6, text, buf) == 1)
		return ratelimit_key_ip(k, AF_INET6, buf);
	return false;
}

struct ratelimit_key
ratelimit_key_account(int64_t account_id)
{
	struct ratelimit_key k = { RATELIMIT_KEY_ACCOUNT, (uint64_t)account_id };

	return k;
}

enum ratelimit_scope
ratelimit_key_scope(const struct ratelimit_key *k)
{
	return k->kind == RATELIMIT_KEY_ACCOUNT ? RATELIMIT_BY_ACCOUNT : RATELIMIT_BY_ADDR;
}

/* ---- names and policies ---- */

const char *
ratelimit_class_name(enum ratelimit_class cls)
{
	return (int)cls >= 0 && cls < RATELIMIT_NCLASSES ? CLASSES[cls].name : NULL;
}

const char *
ratelimit_scope_name(enum ratelimit_scope scope)
{
	return (int)scope >= 0 && scope < RATELIMIT_NSCOPES ? SCOPES[scope] : NULL;
}

bool
ratelimit_class_is_penalty(enum ratelimit_class cls)
{
	return (int)cls >= 0 && cls < RATELIMIT_NCLASSES && CLASSES[cls].penalty;
}

void
ratelimit_config_init(struct ratelimit_config *cfg)
{
	memset(cfg, 0, sizeof *cfg);
}

/* The emission interval of a rate policy, ns, rounded to the nearest. */
static int64_t
interval_ns(const struct ratelimit_policy *p)
{
	return (p->period_us * NS_PER_US + p->count / 2) / p->count;
}

/* Whether p is acceptable for cls; if not, why (a phrase). */
static bool
policy_ok(enum ratelimit_class cls, const struct ratelimit_policy *p, const char **why)
{
	if (p->count == 0)
		return true;
	if (p->count > MAX_COUNT) {
		*why = "the count must be 1 to 1000000";
		return false;
	}
	if (p->period_us < MIN_PERIOD_US || p->period_us > MAX_PERIOD_US) {
		*why = "the period must be 1 s to 1 day";
		return false;
	}
	if (CLASSES[cls].penalty)
		return true;
	if (p->burst < 1 || p->burst > MAX_COUNT) {
		*why = "the burst must be 1 to 1000000";
		return false;
	}
	if ((int64_t)p->burst > MAX_TOLERANCE_NS / interval_ns(p)) {
		*why = "the burst takes over 30 days to refill at this rate";
		return false;
	}
	return true;
}

static struct rule
rule_of(enum ratelimit_class cls, const struct ratelimit_policy *p)
{
	struct rule r = { 0 };

	if (p->count == 0)
		return r;
	r.on = true;
	r.penalty = CLASSES[cls].penalty;
	if (r.penalty) {
		r.limit = p->count;
		r.window = p->period_us * NS_PER_US;
	} else {
		r.limit = p->burst;
		r.interval = interval_ns(p);
		r.tolerance = (int64_t)(p->burst - 1) * r.interval;
	}
	return r;
}

/* ---- the flag grammar ---- */

/* Reads 1..7 decimal digits at *s into *v; false if there are none or too
 * many. */
static bool
read_number(const char **s, uint32_t *v)
{
	const char *p = *s;
	uint32_t n = 0;
	int digits = 0;

	while (*p >= '0' && *p <= '9') {
		if (++digits > 7)
			return false;
		n = n * 10 + (uint32_t)(*p++ - '0');
	}
	if (digits == 0)
		return false;
	*s = p;
	*v = n;
	return true;
}

static void
say(char *err, size_t errcap, const char *item, size_t len, const char *what)
{
	char shown[80];
	size_t n = len < sizeof shown - 4 ? len : sizeof shown - 4, k;

	if (err == NULL || errcap == 0)
		return;
	/* The item comes from a flag or the environment: keep the line one
	 * line of printable characters. */
	for (k = 0; k < n; k++)
		shown[k] = item[k] >= 0x20 && item[k] < 0x7f ? item[k] : '?';
	if (n < len)
		shown[k++] = '.', shown[k++] = '.', shown[k++] = '.';
	shown[k] = '\0';
	snprintf(err, errcap, "rate limit \"%s\": %s", shown, what);
}

/* Parses one item (len bytes at item) into cfg. */
static bool
parse_item(struct ratelimit_config *cfg, const char *item, size_t len, char *err, size_t errcap)
{
	char buf[128], what[160];
	const char *eq, *at, *s, *why = NULL;
	struct ratelimit_policy p = { 0, 0, 0 };
	size_t namelen;
	int cls = -1, scope = -1;
	uint32_t mult = 1;
	int64_t unit;

	if (len == 0) {
		say(err, errcap, item, len, "empty item (expected CLASS=COUNT/PERIOD[:BURST])");
		return false;
	}
	if (len >= sizeof buf) {
		say(err, errcap, item, len, "item too long");
		return false;
	}
	memcpy(buf, item, len);
	buf[len] = '\0';
	eq = strchr(buf, '=');
	if (eq == NULL) {
		say(err, errcap, item, len, "missing '=' (expected CLASS=COUNT/PERIOD[:BURST])");
		return false;
	}
	at = memchr(buf, '@', (size_t)(eq - buf));
	namelen = (size_t)((at != NULL ? at : eq) - buf);
	for (int c = 0; c < RATELIMIT_NCLASSES; c++)
		if (strlen(CLASSES[c].name) == namelen && memcmp(CLASSES[c].name, buf, namelen) == 0)
			cls = c;
	if (cls < 0) {
		say(err, errcap, item, len, "unknown class (accounts, puzzles, runs, moves, reads, "
		    "verify or wrong)");
		return false;
	}
	if (at != NULL) {
		size_t sl = (size_t)(eq - at - 1);

		for (int c = 0; c < RATELIMIT_NSCOPES; c++)
			if (strlen(SCOPES[c]) == sl && memcmp(SCOPES[c], at + 1, sl) == 0)
				scope = c;
		if (scope < 0) {
			say(err, errcap, item, len, "unknown scope after '@' (addr or account)");
			return false;
		}
	}
	s = eq + 1;
	if (strcmp(s, "off") == 0 || strcmp(s, "0") == 0)
		goto store;
	if (!read_number(&s, &p.count) || p.count < 1 || p.count > MAX_COUNT) {
		say(err, errcap, item, len, "the count must be a number from 1 to 1000000 "
		    "(or \"off\")");
		return false;
	}
	if (*s++ != '/') {
		say(err, errcap, item, len, "expected '/' and a period after the count");
		return false;
	}
	if (*s >= '0' && *s <= '9' && (!read_number(&s, &mult) || mult < 1 || mult > 86400)) {
		say(err, errcap, item, len, "the period's multiplier must be 1 to 86400");
		return false;
	}
	switch (*s++) {
	case 's': unit = 1; break;
	case 'm': unit = 60; break;
	case 'h': unit = 3600; break;
	case 'd': unit = 86400; break;
	default:
		say(err, errcap, item, len, "the period needs a unit: s, m, h or d");
		return false;
	}
	p.period_us = (int64_t)mult * unit * 1000000;
	p.burst = CLASSES[cls].penalty ? 0 : p.count;
	if (*s == ':') {
		s++;
		if (CLASSES[cls].penalty) {
			say(err, errcap, item, len, "the penalty class takes no burst");
			return false;
		}
		if (!read_number(&s, &p.burst) || p.burst < 1 || p.burst > MAX_COUNT) {
			say(err, errcap, item, len, "the burst must be a number from 1 to 1000000");
			return false;
		}
	}
	if (*s != '\0') {
		snprintf(what, sizeof what, "unexpected '%c' after the %s",
		    *s >= 0x20 && *s < 0x7f ? *s : '?', strchr(eq, ':') ? "burst" : "period");
		say(err, errcap, item, len, what);
		return false;
	}
	if (!policy_ok((enum ratelimit_class)cls, &p, &why)) {
		say(err, errcap, item, len, why);
		return false;
	}
store:
	for (int c = 0; c < RATELIMIT_NSCOPES; c++)
		if (scope < 0 || scope == c)
			cfg->policy[cls][c] = p;
	return true;
}

bool
ratelimit_config_parse(struct ratelimit_config *cfg, const char *value, char *err, size_t errcap)
{
	struct ratelimit_config tmp = *cfg;
	const char *s = value;

	if (err != NULL && errcap > 0)
		err[0] = '\0';
	if (value == NULL) {
		say(err, errcap, "", 0, "no value");
		return false;
	}
	for (;;) {
		const char *end = strchr(s, ',');
		size_t len = end != NULL ? (size_t)(end - s) : strlen(s);

		if (!parse_item(&tmp, s, len, err, errcap))
			return false;
		if (end == NULL)
			break;
		s = end + 1;
	}
	*cfg = tmp;
	return true;
}

/* ---- the table ---- */

static size_t
pow2_at_least(size_t n)
{
	size_t p = 1;

	while (p < n)
		p <<= 1;
	return p;
}

struct ratelimit *
ratelimit_new(size_t capacity, const struct ratelimit_config *cfg)
{
	struct ratelimit *rl = NULL;
	size_t per_shard, k;
	int c, s;
	const char *why;

	if (cfg == NULL || capacity < MIN_CAPACITY || capacity > MAX_CAPACITY)
		return NULL;
	for (c = 0; c < RATELIMIT_NCLASSES; c++)
		for (s = 0; s < RATELIMIT_NSCOPES; s++)
			if (!policy_ok((enum ratelimit_class)c, &cfg->policy[c][s], &why))
				return NULL;
	per_shard = pow2_at_least((capacity + NSHARDS - 1) / NSHARDS);
	if (per_shard < PROBE)
		per_shard = PROBE;
	rl = calloc(1, sizeof *rl);
	if (rl == NULL)
		goto fail;
	rl->cfg = *cfg;
	for (c = 0; c < RATELIMIT_NCLASSES; c++) {
		struct ratelimit_policy wide = cfg->policy[c][RATELIMIT_BY_ADDR];

		for (s = 0; s < RATELIMIT_NSCOPES; s++)
			rl->rules[c][s] = rule_of((enum ratelimit_class)c, &cfg->policy[c][s]);
		/* A /56 and a /48 get the address policy times their factor:
		 * as many events a period, and as many at once. */
		wide.count *= RATELIMIT_NET56_FACTOR;
		wide.burst *= RATELIMIT_NET56_FACTOR;
		rl->nets[c][0] = rule_of((enum ratelimit_class)c, &wide);
		wide = cfg->policy[c][RATELIMIT_BY_ADDR];
		wide.count *= RATELIMIT_NET48_FACTOR;
		wide.burst *= RATELIMIT_NET48_FACTOR;
		rl->nets[c][1] = rule_of((enum ratelimit_class)c, &wide);
	}
	randombytes_buf(rl->hkey, sizeof rl->hkey);
	rl->mask = per_shard - 1;
	rl->slots = calloc(NSHARDS * per_shard, sizeof *rl->slots);
	rl->shards = aligned_alloc(_Alignof(struct shard), NSHARDS * sizeof *rl->shards);
	if (rl->slots == NULL || rl->shards == NULL)
		goto fail;
	memset(rl->shards, 0, NSHARDS * sizeof *rl->shards);
	for (k = 0; k < NSHARDS; k++) {
		pthread_mutex_init(&rl->shards[k].mu, NULL);
		rl->shards[k].slots = rl->slots + k * per_shard;
	}
	pthread_mutex_init(&rl->over_mu, NULL);
	return rl;
fail:
	if (rl != NULL) {
		free(rl->slots);
		free(rl->shards);
		free(rl);
	}
	return NULL;
}

void
ratelimit_free(struct ratelimit *rl)
{
	if (rl == NULL)
		return;
	for (size_t k = 0; k < NSHARDS; k++)
		pthread_mutex_destroy(&rl->shards[k].mu);
	pthread_mutex_destroy(&rl->over_mu);
	sodium_memzero(rl->hkey, sizeof rl->hkey);
	free(rl->slots);
	free(rl->shards);
	free(rl);
}

const struct ratelimit_policy *
ratelimit_policy(const struct ratelimit *rl, enum ratelimit_class cls, enum ratelimit_scope scope)
{
	if ((int)cls < 0 || cls >= RATELIMIT_NCLASSES || (int)scope < 0 || scope >= RATELIMIT_NSCOPES)
		return NULL;
	return &rl->cfg.policy[cls][scope];
}

static uint16_t
tag_of(enum ratelimit_class cls, enum ratelimit_kind kind)
{
	return (uint16_t)(1 + (int)cls * 8 + (int)kind);
}

static const struct rule *
rule_of_kind(const struct ratelimit *rl, int cls, int kind)
{
	if (kind == RATELIMIT_KEY_NET56)
		return &rl->nets[cls][0];
	if (kind == RATELIMIT_KEY_NET48)
		return &rl->nets[cls][1];
	return &rl->rules[cls][kind == RATELIMIT_KEY_ACCOUNT ? RATELIMIT_BY_ACCOUNT : RATELIMIT_BY_ADDR];
}

static const struct rule *
rule_of_tag(const struct ratelimit *rl, uint16_t tag)
{
	return rule_of_kind(rl, (tag - 1) / 8, (tag - 1) % 8);
}

/* Whether a stored state is the same as no state at all at now (ns). */
static bool
is_fresh(const struct rule *r, const struct slot *sl, int64_t now)
{
	if (!r->on)
		return true;
	if (r->penalty)
		return sl->n == 0 || now - sl->t >= r->window;
	return sl->t <= now;
}

static uint32_t
ceil_seconds(int64_t ns)
{
	int64_t s = (ns + NS_PER_S - 1) / NS_PER_S;

	return s > UINT32_MAX ? UINT32_MAX : (uint32_t)s;
}

static void
refuse(struct ratelimit_result *res, int64_t wait)
{
	res->allowed = false;
	res->remaining = 0;
	res->retry_after_us = (wait + NS_PER_US - 1) / NS_PER_US;
	res->retry_after_s = ceil_seconds(wait);
	res->reset_s = res->retry_after_s;
}

/*
 * The decision for one state (sl; taken as fresh when is_new) at now,
 * counting the event in sl when take and it passes. Fills res.
 */
static void
decide(const struct rule *r, struct slot *sl, bool is_new, int64_t now, bool take,
    struct ratelimit_result *res)
{
	if (r->penalty) {
		if (is_new || is_fresh(r, sl, now)) {
			sl->t = now;
			sl->n = 0;
		}
		if (sl->n >= r->limit) {
			refuse(res, sl->t + r->window - now);
			return;
		}
		if (take)
			sl->n++;
		res->allowed = true;
		res->remaining = r->limit - sl->n;
		res->reset_s = sl->n == 0 ? 0 : ceil_seconds(sl->t + r->window - now);
		return;
	}
	{
		int64_t tat = is_new || sl->t < now ? now : sl->t, d = tat - now;

		if (d > r->tolerance) {
			refuse(res, d - r->tolerance);
			return;
		}
		if (take) {
			sl->t = tat + r->interval;
			d += r->interval;
		}
		res->allowed = true;
		res->remaining = d > r->tolerance ? 0 : (uint32_t)((r->tolerance - d) / r->interval + 1);
		res->reset_s = ceil_seconds(d);
	}
}

/* The check of one key, whatever its kind; counted in the stats when
 * count. */
static bool
check_one(struct ratelimit *rl, enum ratelimit_class cls, const struct ratelimit_key *key,
    int64_t now, bool take, bool count, struct ratelimit_result *res)
{
	const struct rule *r = rule_of_kind(rl, (int)cls, (int)key->kind);
	struct shard *sh;
	struct slot *found = NULL, *room = NULL, scratch;
	uint8_t in[10];
	uint64_t h;
	uint16_t tag;
	size_t pos;

	memset(res, 0, sizeof *res);
	if (!r->on) {
		res->allowed = true;
		res->off = true;
		return true;
	}
	tag = tag_of(cls, key->kind);
	for (int i = 0; i < 8; i++)
		in[i] = (uint8_t)(key->bits >> (8 * i));
	in[8] = (uint8_t)tag;
	in[9] = (uint8_t)(tag >> 8);
	crypto_shorthash((unsigned char *)&h, in, sizeof in, rl->hkey);
	sh = &rl->shards[h & (NSHARDS - 1)];
	pos = (size_t)(h >> 8);

	pthread_mutex_lock(&sh->mu);
	for (size_t i = 0; i < PROBE; i++) {
		struct slot *sl = &sh->slots[(pos + i) & rl->mask];

		if (sl->tag == tag && sl->key == key->bits) {
			found = sl;
			break;
		}
	}
	/* A new key: the first slot that is empty or holds a fresh state. */
	for (size_t i = 0; found == NULL && take && room == NULL && i < PROBE; i++) {
		struct slot *sl = &sh->slots[(pos + i) & rl->mask];

		if (sl->tag == 0 || is_fresh(rule_of_tag(rl, sl->tag), sl, now))
			room = sl;
	}
	if (found != NULL) {
		decide(r, found, false, now, take, res);
	} else if (!take) {
		/* Unknown means fresh: nothing to store for a look. */
		decide(r, &scratch, true, now, false, res);
	} else if (room != NULL) {
		room->tag = tag;
		room->key = key->bits;
		decide(r, room, true, now, true, res);
	}
	if (found != NULL || !take || room != NULL) {
		sh->nchecks += count;
		sh->nrefused += count && !res->allowed;
		pthread_mutex_unlock(&sh->mu);
		return res->allowed;
	}
	pthread_mutex_unlock(&sh->mu);

	/* Every slot of the window holds a live state: the class's shared
	 * entry decides (ratelimit.h says why). */
	pthread_mutex_lock(&rl->over_mu);
	{
		struct slot *sl = &rl->over[cls][key->kind == RATELIMIT_KEY_NET56 ? RATELIMIT_NSCOPES :
		    key->kind == RATELIMIT_KEY_NET48 ? RATELIMIT_NSCOPES + 1 : (int)ratelimit_key_scope(key)];

		decide(r, sl, sl->tag == 0, now, true, res);
		sl->tag = tag;
		res->shared = true;
		rl->nover_shared++;
		rl->nover_checks += count;
		rl->nover_refused += count && !res->allowed;
	}
	pthread_mutex_unlock(&rl->over_mu);
	return res->allowed;
}

/* What a request's keys say together: allowed when every one allows;
 * the least room left and the longest wait of them. */
static void
combine(struct ratelimit_result *all, const struct ratelimit_result *one)
{
	all->shared |= one->shared;
	if (!one->allowed) {
		if (all->allowed || one->retry_after_us > all->retry_after_us) {
			all->retry_after_us = one->retry_after_us;
			all->retry_after_s = one->retry_after_s;
		}
		all->allowed = false;
		all->remaining = 0;
		all->reset_s = all->retry_after_s;
		return;
	}
	if (!all->allowed)
		return;
	if (one->remaining < all->remaining)
		all->remaining = one->remaining;
	if (one->reset_s > all->reset_s)
		all->reset_s = one->reset_s;
}

static bool
check(struct ratelimit *rl, enum ratelimit_class cls, const struct ratelimit_key *key,
    int64_t now_us, bool take, struct ratelimit_result *res)
{
	struct ratelimit_key nets[3];
	struct ratelimit_result one;
	int64_t now = now_us * NS_PER_US;
	int i;

	memset(res, 0, sizeof *res);
	if ((int)cls < 0 || cls >= RATELIMIT_NCLASSES || key == NULL ||
	    key->kind < RATELIMIT_KEY_IPV4 || key->kind > RATELIMIT_KEY_ACCOUNT) {
		/* A programming error: refuse rather than let it through. */
		refuse(res, NS_PER_S);
		return false;
	}
	if (key->kind != RATELIMIT_KEY_IPV6)
		return check_one(rl, cls, key, now, take, true, res);
	/* An IPv6 /64 also pays its /56 and its /48 (ratelimit.h). Looked
	 * at first, then taken only when all three pass, so that a refusal
	 * still costs nothing; two requests racing between the look and the
	 * take can each pass, as with one key under its lock they could not. */
	nets[0] = *key;
	nets[1] = (struct ratelimit_key){ RATELIMIT_KEY_NET56, NET56_OF(key->bits) };
	nets[2] = (struct ratelimit_key){ RATELIMIT_KEY_NET48, NET48_OF(key->bits) };
	check_one(rl, cls, &nets[0], now, false, false, res);
	if (res->off)
		return true;
	for (i = 1; i < 3; i++) {
		check_one(rl, cls, &nets[i], now, false, false, &one);
		combine(res, &one);
	}
	if (res->allowed && take) {
		check_one(rl, cls, &nets[0], now, true, false, res);
		for (i = 1; i < 3; i++) {
			check_one(rl, cls, &nets[i], now, true, false, &one);
			combine(res, &one);
		}
	}
	atomic_fetch_add_explicit(&rl->nv6_checks, 1, memory_order_relaxed);
	if (!res->allowed)
		atomic_fetch_add_explicit(&rl->nv6_refused, 1, memory_order_relaxed);
	return res->allowed;
}

bool
ratelimit_take(struct ratelimit *rl, enum ratelimit_class cls, const struct ratelimit_key *key,
    int64_t now_us, struct ratelimit_result *res)
{
	return check(rl, cls, key, now_us, true, res);
}

bool
ratelimit_peek(struct ratelimit *rl, enum ratelimit_class cls, const struct ratelimit_key *key,
    int64_t now_us, struct ratelimit_result *res)
{
	return check(rl, cls, key, now_us, false, res);
}

/* ---- headers ---- */

/* Writes name as a structured-field String into out; false when it holds
 * a character a String cannot or out is too small. */
static bool
sf_string(char *out, size_t cap, size_t *len, const char *name)
{
	size_t o = 0;

	if (cap < 3)
		return false;
	out[o++] = '"';
	for (const char *s = name; *s != '\0'; s++) {
		if (*s < 0x20 || *s > 0x7e)
			return false;
		if (o + 4 > cap)
			return false;
		if (*s == '"' || *s == '\\')
			out[o++] = '\\';
		out[o++] = *s;
	}
	out[o++] = '"';
	out[o] = '\0';
	*len = o;
	return true;
}

bool
ratelimit_format(const char *name, const struct ratelimit_policy *p,
    const struct ratelimit_result *res, char *policy_out, size_t policy_cap,
    char *state_out, size_t state_cap)
{
	uint32_t q, w;
	size_t pl, sl;
	int n1, n2;

	if (policy_out != NULL && policy_cap > 0)
		policy_out[0] = '\0';
	if (state_out != NULL && state_cap > 0)
		state_out[0] = '\0';
	if (name == NULL || p == NULL || res == NULL || policy_out == NULL || state_out == NULL ||
	    p->count == 0 || p->period_us <= 0)
		return false;
	if (p->burst == 0) { /* the penalty: count per window */
		q = p->count;
		w = ceil_seconds(p->period_us * NS_PER_US);
	} else {
		q = p->burst;
		w = ceil_seconds((int64_t)p->burst * interval_ns(p));
	}
	if (!sf_string(policy_out, policy_cap, &pl, name) ||
	    !sf_string(state_out, state_cap, &sl, name))
		goto fail;
	n1 = snprintf(policy_out + pl, policy_cap - pl, ";q=%u;w=%u", q, w < 1 ? 1 : w);
	n2 = snprintf(state_out + sl, state_cap - sl, ";r=%u;t=%u", res->remaining, res->reset_s);
	if (n1 < 0 || (size_t)n1 >= policy_cap - pl || n2 < 0 || (size_t)n2 >= state_cap - sl)
		goto fail;
	return true;
fail:
	policy_out[0] = '\0';
	state_out[0] = '\0';
	return false;
}

/* ---- figures ---- */

void
ratelimit_stats(struct ratelimit *rl, int64_t now_us, struct ratelimit_stats *out)
{
	int64_t now = now_us * NS_PER_US;

	memset(out, 0, sizeof *out);
	out->capacity = NSHARDS * (rl->mask + 1);
	out->bytes = sizeof *rl + NSHARDS * sizeof *rl->shards + out->capacity * sizeof *rl->slots;
	for (size_t k = 0; k < NSHARDS; k++) {
		struct shard *sh = &rl->shards[k];

		pthread_mutex_lock(&sh->mu);
		out->checks += sh->nchecks;
		out->refused += sh->nrefused;
		for (size_t i = 0; i <= rl->mask; i++)
			if (sh->slots[i].tag != 0 &&
			    !is_fresh(rule_of_tag(rl, sh->slots[i].tag), &sh->slots[i], now))
				out->live++;
		pthread_mutex_unlock(&sh->mu);
	}
	pthread_mutex_lock(&rl->over_mu);
	out->checks += rl->nover_checks;
	out->refused += rl->nover_refused;
	out->checks += atomic_load_explicit(&rl->nv6_checks, memory_order_relaxed);
	out->refused += atomic_load_explicit(&rl->nv6_refused, memory_order_relaxed);
	out->shared = rl->nover_shared;
	pthread_mutex_unlock(&rl->over_mu);
}
