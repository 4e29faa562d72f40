/*
 * config.c: flags and environment variables.
 *
 * Defaults are chosen for the quick start: 127.0.0.1:8080, a database under
 * ./data, one HTTP thread per core, 64 KiB bodies, the agent check as each
 * game's descriptor says (check_default), capped games' runs uncapped
 * unless their init asks for a cap. The environment is read first so that a
 * flag overrides its variable.
 */
#include "config.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "arcaded_version.h"
#include "store.h"

enum opt {
	OPT_LISTEN, OPT_DB, OPT_KEY_FILE, OPT_THREADS, OPT_MAX_BODY,
	OPT_TRUSTED_PROXY, OPT_AGENT_CHECK, OPT_LOG_LEVEL, OPT_LOG_FORMAT, OPT_SYNC,
	OPT_CONN_LIMIT, OPT_CONN_TIMEOUT, OPT_PER_ADDRESS, OPT_REQUEST_TIMEOUT, OPT_COMMIT_BATCH,
	OPT_TOKEN_TTL, OPT_UNPLAYED, OPT_VERIFY_WORKERS, OPT_VERIFY_QUEUE, OPT_RATE_LIMIT,
	OPT_CAP_DEFAULT, OPT_CAP_MAX, OPT_MATCH_TURN_CAP, OPT_MATCH_STREAMS, OPT_MCP_ORIGIN,
	OPT_WAITS_PER_ADDRESS, OPT_STREAMS_PER_ADDRESS, OPT_DB_RETRY, OPT_DB_STATEMENT_TIMEOUT,
	OPT_RUNS_PER_DAY, OPT_REVIEWS_PER_DAY, OPT_MATCHES_PER_DAY, OPT_METRICS_ALLOW,
	OPT_REFUSAL_HOLD, OPT_PUBLIC_URL, OPT_FAIR_RATINGS, OPT__COUNT
};

/* A numeric option's range and default; hi == 0 for other options. The
 * help and every message print these, so a bound is written once. */
struct range {
	unsigned long long lo, hi, def;
	bool               size;   /* a byte count: k and m suffixes allowed */
};

static const struct {
	const char  *flag;   /* without the leading dashes */
	const char  *env;
	const char  *arg;
	bool         repeat; /* a list: the variable is comma-separated */
	const char  *help;
	struct range range;
} opts[OPT__COUNT] = {
	[OPT_LISTEN]        = { "listen", "ARCADED_LISTEN", "HOST:PORT|unix:PATH", false,
	    "where to listen (default 127.0.0.1:8080; port 0 picks a free one)", { 0 } },
	[OPT_DB]            = { "db", "ARCADED_DB", "PATH|CONNINFO", false,
	    "SQLite database file, created if missing (default data/arcaded.db), or a PostgreSQL "
	    "connection string shared by several daemons: a postgresql:// URL (several hosts allowed, "
	    "with target_session_attrs=read-write) or libpq's key=value form (then --key-file is "
	    "required)", { 0 } },
	[OPT_KEY_FILE]      = { "key-file", "ARCADED_KEY_FILE", "PATH", false,
	    "secret key file, created mode 0600 if missing (default: arcaded.key beside the database)",
	    { 0 } },
	[OPT_THREADS]       = { "threads", "ARCADED_THREADS", "N", false,
	    "HTTP worker threads (default: the number of cores)", { 1, 256, 0, false } },
	[OPT_MAX_BODY]      = { "max-body", "ARCADED_MAX_BODY", "BYTES", false,
	    "largest request body, suffix k or m allowed", { 1024, 64ull << 20, 64 * 1024, true } },
	[OPT_TRUSTED_PROXY] = { "trusted-proxy", "ARCADED_TRUSTED_PROXY", "ADDR[/BITS]", true,
	    "a reverse proxy whose X-Forwarded-For and X-Request-Id are believed (repeatable)", { 0 } },
	[OPT_METRICS_ALLOW] = { "metrics-allow", "ARCADED_METRICS_ALLOW", "ADDR[/BITS]", true,
	    "a client range that may read /metrics (repeatable; default 127.0.0.0/8 and ::1, a unix "
	    "socket's local peer always)", { 0 } },
	[OPT_AGENT_CHECK]   = { "agent-check", "ARCADED_AGENT_CHECK", "GAME=on|off", true,
	    "require agent-check answers for a game (repeatable; on by default for the games that "
	    "ask for it: see GET /api/games/GAME/rules)", { 0 } },
	[OPT_LOG_LEVEL]     = { "log-level", "ARCADED_LOG_LEVEL", "error|warn|info|debug", false,
	    "what to log on stderr (default info: one access line per request)", { 0 } },
	[OPT_LOG_FORMAT]    = { "log-format", "ARCADED_LOG_FORMAT", "text|json", false,
	    "log lines as text, or one JSON object per line for journald or a collector (default text)",
	    { 0 } },
	[OPT_SYNC]          = { "synchronous", "ARCADED_SYNCHRONOUS", "full|normal", false,
	    "commit durability: full survives power loss, normal only a crash (default full)", { 0 } },
	[OPT_FAIR_RATINGS]  = { "fair-ratings", "ARCADED_FAIR_RATINGS", "on|off", false,
	    "on: queue matches rate only on the standard settings, two networks rate at most 6 "
	    "matches together a day, and a rating is ranked after 10 rated matches against 5 accounts "
	    "of 3 networks (docs/api.md, Ratings); off: none of this (default on)", { 0 } },
	[OPT_CONN_LIMIT]    = { "connection-limit", "ARCADED_CONNECTION_LIMIT", "N", false,
	    "open connections at most", { 16, 100000, 4096, false } },
	[OPT_CONN_TIMEOUT]  = { "connection-timeout", "ARCADED_CONNECTION_TIMEOUT", "SECONDS", false,
	    "close a connection idle this long", { 1, 3600, 60, false } },
	[OPT_PER_ADDRESS]   = { "connections-per-address", "ARCADED_CONNECTIONS_PER_ADDRESS", "N", false,
	    "open connections from one client address (an IPv6 /64) at most; proxies are exempt",
	    { 1, 100000, 64, false } },
	[OPT_REQUEST_TIMEOUT] = { "request-timeout", "ARCADED_REQUEST_TIMEOUT", "SECONDS", false,
	    "a request's headers and body must arrive within this, from its first byte",
	    { 1, 3600, 15, false } },
	[OPT_COMMIT_BATCH]  = { "commit-batch", "ARCADED_COMMIT_BATCH", "N", false,
	    "most waiting writes committed together; 1 commits each alone", { 1, 4096, 256, false } },
	[OPT_TOKEN_TTL]     = { "token-ttl", "ARCADED_TOKEN_TTL", "SECONDS", false,
	    "a stateToken opens for this long after it was sealed (default 7 days)",
	    { 1, 31536000, 604800, false } },
	[OPT_UNPLAYED]      = { "unplayed-retention", "ARCADED_UNPLAYED_RETENTION", "SECONDS", false,
	    "runs that never got a move are deleted after this (finished runs are kept)",
	    { 1, 2592000, 3600, false } },
	[OPT_VERIFY_WORKERS] = { "verify-workers", "ARCADED_VERIFY_WORKERS", "N", false,
	    "threads that verify replays, off the HTTP threads (default: the number of cores)",
	    { 1, 64, 0, false } },
	[OPT_RATE_LIMIT]    = { "rate-limit", "ARCADED_RATE_LIMIT", "CLASS[@SCOPE]=N/PERIOD[:BURST]|off", true,
	    "a rate limit per client address and per account (scope addr or account; none: both), "
	    "classes accounts puzzles runs moves reads verify, and wrong for wrong agent-check answers "
	    "(N in a window); repeatable, later ones win (defaults: " RATELIMIT_DEFAULTS ")", { 0 } },
	[OPT_VERIFY_QUEUE]  = { "verify-queue", "ARCADED_VERIFY_QUEUE", "N", false,
	    "replay verifications waiting at most; more are answered 503 with Retry-After",
	    { 1, 4096, 16, false } },
	[OPT_MATCH_TURN_CAP] = { "match-turn-cap", "ARCADED_MATCH_TURN_CAP", "N", false,
	    "turns after which a match ends, the players still in sharing first place",
	    { 1, 100000, 1000, false } },
	[OPT_MATCH_STREAMS] = { "match-streams", "ARCADED_MATCH_STREAMS", "N", false,
	    "match event streams open at most; more are answered 503 with Retry-After",
	    { 1, 100000, 256, false } },
	[OPT_WAITS_PER_ADDRESS] = { "long-polls-per-address", "ARCADED_LONG_POLLS_PER_ADDRESS", "N", false,
	    "match long polls (GET .../wait) one client address (an IPv6 /64) or one account holds at "
	    "once; an IPv6 /56 four times that; more are answered 429 with Retry-After",
	    { 1, 100000, 8, false } },
	[OPT_STREAMS_PER_ADDRESS] = { "streams-per-address", "ARCADED_STREAMS_PER_ADDRESS", "N", false,
	    "match event streams (GET .../events) one client address (an IPv6 /64) or one account holds "
	    "at once; an IPv6 /56 four times that; more are answered 429 with Retry-After",
	    { 1, 100000, 4, false } },
	[OPT_REFUSAL_HOLD]  = { "refusal-hold-ms", "ARCADED_REFUSAL_HOLD_MS", "MS", false,
	    "a client over its rate limit that sends a body gets its 429 this late, its connection "
	    "held idle, then closed (0: at once)", { 0, 10000, 1000, false } },
	[OPT_DB_RETRY]      = { "db-retry-seconds", "ARCADED_DB_RETRY_SECONDS", "SECONDS", false,
	    "PostgreSQL: how long a lost connection is opened again (every host of the URL) before "
	    "the requests waiting on it are answered 503 database_unavailable", { 1, 300, 5, false } },
	[OPT_DB_STATEMENT_TIMEOUT] = { "db-statement-timeout", "ARCADED_DB_STATEMENT_TIMEOUT", "SECONDS",
	    false, "PostgreSQL: the writer's statement_timeout, which bounds a commit waiting for a "
	    "synchronous standby that does not answer (0: none)", { 0, 3600, 10, false } },
	[OPT_RUNS_PER_DAY]  = { "runs-per-day", "ARCADED_RUNS_PER_DAY", "N", false,
	    "runs one client address (an IPv6 /64) or one account may begin in a UTC day, an IPv6 /56 "
	    "four times that; more are answered 429 quota_exceeded until 00:00 UTC (0: no quota)",
	    { 0, 100000000, 10000, false } },
	[OPT_REVIEWS_PER_DAY] = { "reviews-per-day", "ARCADED_REVIEWS_PER_DAY", "N", false,
	    "runs finished with a review likewise (0: no quota)", { 0, 100000000, 10000, false } },
	[OPT_MATCHES_PER_DAY] = { "matches-per-day", "ARCADED_MATCHES_PER_DAY", "N", false,
	    "matches created likewise (0: no quota)", { 0, 100000000, 2000, false } },
	[OPT_MCP_ORIGIN]    = { "mcp-origin", "ARCADED_MCP_ORIGIN", "ORIGIN", true,
	    "a web origin (scheme://host[:port]) whose pages may call POST /mcp, besides the loopback "
	    "names on the daemon's own port (repeatable)", { 0 } },
	[OPT_PUBLIC_URL]    = { "public-url", "ARCADED_PUBLIC_URL", "ORIGIN", false,
	    "the origin (scheme://host[:port]) clients reach the daemon at, for the OAuth issuer and "
	    "the MCP resource (default: the request's Host, or a trusted proxy's X-Forwarded-Proto "
	    "and X-Forwarded-Host)", { 0 } },
	/* Caps count moves; JSON carries integers exactly up to 2^53 - 1. */
	[OPT_CAP_DEFAULT]   = { "cap-default", "ARCADED_CAP_DEFAULT", "N", false,
	    "episode cap, in placed pieces, of a run whose init asks for none, in the games that take "
	    "a cap (0: no cap)",
	    { 0, 9007199254740991ull, 0, false } },
	[OPT_CAP_MAX]       = { "cap-max", "ARCADED_CAP_MAX", "N", false,
	    "largest episode cap an init may ask for, in the games that take a cap",
	    { 1, 9007199254740991ull, 9007199254740991ull, false } },
};

void
config_usage(void)
{
	int i;

	printf("usage: arcaded [serve] [OPTION]...\n"
	    "       arcaded stream SEED COUNT      print a seed's first pieces of the 7-bag stream\n");
	/* The games' own tools, from their descriptors. */
	for (i = 0; i < GAME__COUNT; i++) {
		const struct game_subcommand *c = game_ext(game_table[i])->subcommands;

		for (; c != NULL && c->name != NULL; c++) {
			char head[64];

			snprintf(head, sizeof head, "%s %s", c->name, c->usage);
			printf("       arcaded %-23s%s\n", head, c->help);
		}
	}
	printf("       arcaded verify FILE            re-simulate a replay (exit status 1 when it does not verify)\n"
	    "       arcaded play GAME --bot CMD [--games N] [--seed S] [--option NAME=VALUE]... [-o FILE]\n"
	    "                                      play a bot (JSON lines on its stdin and stdout) offline\n"
	    "       arcaded solve W H [--drop-only] [--memory SIZE] [--strategy FILE] | --check FILE\n"
	    "                                      who wins a W x H well against a supplier that picks every piece\n"
	    "       arcaded keys rotate [--db PATH] [--key-file PATH]\n"
	    "                                      add a new current key; old ones still open tokens\n"
	    "       arcaded backup PATH [--db DB]  copy a running daemon's SQLite database into a new file\n"
	    "       arcaded copy --from PATH --to postgresql://...\n"
	    "                                      copy a SQLite database into an empty PostgreSQL one\n"
	    "\n"
	    "Serves turn-based games over HTTP/JSON. Options (each also read from the\n"
	    "environment variable shown; --flag value and --flag=value both work):\n\n");
	for (i = 0; i < OPT__COUNT; i++) {
		const struct range *r = &opts[i].range;
		char left[64], bounds[96] = "";

		snprintf(left, sizeof left, "--%s %s", opts[i].flag, opts[i].arg);
		if (r->hi != 0 && r->def != 0)
			snprintf(bounds, sizeof bounds, " (%llu-%llu, default %llu)", r->lo, r->hi, r->def);
		else if (r->hi != 0)
			snprintf(bounds, sizeof bounds, " (%llu-%llu)", r->lo, r->hi);
		printf("  %-36s %s%s\n  %-36s [%s]\n", left, opts[i].help, bounds, "", opts[i].env);
	}
	{
		/* Which games those are, from the game table. */
		char names[GAME_NAMES_MAX];

		printf("\n  The games that take a cap: %s.\n\n", game_names_with_option("cap", names,
		    sizeof names));
	}
	printf("  %-36s %s\n", "--help", "print this help and exit");
	printf("  %-36s %s\n", "--version", "print the version and exit");
}

static void
set_defaults(struct config *cfg)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	size_t i;

	memset(cfg, 0, sizeof *cfg);
	snprintf(cfg->listen_host, sizeof cfg->listen_host, "127.0.0.1");
	cfg->listen_port = 8080;
	snprintf(cfg->db_path, sizeof cfg->db_path, "data/arcaded.db");
	cfg->threads = n > 0 && (unsigned long long)n <= opts[OPT_THREADS].range.hi ? (unsigned)n : 2;
	cfg->max_body = (size_t)opts[OPT_MAX_BODY].range.def;
	for (i = 0; i < GAME__COUNT; i++)
		cfg->agent_check[i] = game_table[i]->check_default;
	cfg->log_level = LOG_INFO;
	cfg->sync = SYNC_FULL;
	cfg->fair_ratings = true;
	cfg->connection_limit = (unsigned)opts[OPT_CONN_LIMIT].range.def;
	cfg->connection_timeout = (unsigned)opts[OPT_CONN_TIMEOUT].range.def;
	cfg->commit_batch = (unsigned)opts[OPT_COMMIT_BATCH].range.def;
	cfg->per_address = (unsigned)opts[OPT_PER_ADDRESS].range.def;
	cfg->request_timeout = (unsigned)opts[OPT_REQUEST_TIMEOUT].range.def;
	cfg->token_ttl = (unsigned)opts[OPT_TOKEN_TTL].range.def;
	cfg->unplayed_retention = (unsigned)opts[OPT_UNPLAYED].range.def;
	cfg->verify_workers = cfg->threads;
	cfg->verify_queue = (unsigned)opts[OPT_VERIFY_QUEUE].range.def;
	cfg->match_turn_cap = (unsigned)opts[OPT_MATCH_TURN_CAP].range.def;
	cfg->match_streams = (unsigned)opts[OPT_MATCH_STREAMS].range.def;
	cfg->waits_per_address = (unsigned)opts[OPT_WAITS_PER_ADDRESS].range.def;
	cfg->streams_per_address = (unsigned)opts[OPT_STREAMS_PER_ADDRESS].range.def;
	cfg->refusal_hold_ms = (unsigned)opts[OPT_REFUSAL_HOLD].range.def;
	cfg->runs_per_day = (unsigned)opts[OPT_RUNS_PER_DAY].range.def;
	cfg->reviews_per_day = (unsigned)opts[OPT_REVIEWS_PER_DAY].range.def;
	cfg->matches_per_day = (unsigned)opts[OPT_MATCHES_PER_DAY].range.def;
	cfg->cap_default = opts[OPT_CAP_DEFAULT].range.def;
	cfg->cap_max = opts[OPT_CAP_MAX].range.def;
	cfg->db_retry_seconds = (unsigned)opts[OPT_DB_RETRY].range.def;
	cfg->db_statement_timeout = (unsigned)opts[OPT_DB_STATEMENT_TIMEOUT].range.def;
	ratelimit_config_init(&cfg->rate);
	if (!ratelimit_config_parse(&cfg->rate, RATELIMIT_DEFAULTS, NULL, 0))
		ratelimit_config_init(&cfg->rate); /* unreachable: the defaults parse (a test says so) */
}

/* A decimal number with an optional k/m suffix (powers of 1024). */
static bool
parse_size(const char *s, unsigned long long lo, unsigned long long hi,
    bool suffix, unsigned long long *out)
{
	unsigned long long v = 0, mul = 1;
	const char *p = s;

	if (!isdigit((unsigned char)*p))
		return false;
	for (; isdigit((unsigned char)*p); p++) {
		if (v > (ULLONG_MAX - 9) / 10)
			return false;
		v = v * 10 + (unsigned)(*p - '0');
	}
	if (suffix && (*p == 'k' || *p == 'K'))
		mul = 1024, p++;
	else if (suffix && (*p == 'm' || *p == 'M'))
		mul = 1024 * 1024, p++;
	if (*p != '\0' || v > hi / mul)
		return false;
	v *= mul;
	if (v < lo || v > hi)
		return false;
	*out = v;
	return true;
}

bool
config_parse_cidr(const char *s, struct cidr *c)
{
	char host[INET6_ADDRSTRLEN + 1];
	const char *slash = strchr(s, '/');
	size_t hlen = slash ? (size_t)(slash - s) : strlen(s);
	unsigned long long bits;
	int max;

	if (hlen == 0 || hlen >= sizeof host)
		return false;
	memcpy(host, s, hlen);
	host[hlen] = '\0';
	memset(c, 0, sizeof *c);
	if (inet_pton(AF_INET, host, c->addr) == 1) {
		c->family = AF_INET;
		max = 32;
	} else if (inet_pton(AF_INET6, host, c->addr) == 1) {
		c->family = AF_INET6;
		max = 128;
	} else
		return false;
	c->bits = max;
	if (slash != NULL) {
		if (!parse_size(slash + 1, 0, (unsigned)max, false, &bits))
			return false;
		c->bits = (int)bits;
	}
	return true;
}

static bool
parse_listen(struct config *cfg, const char *v)
{
	const char *colon;
	unsigned long long port;
	size_t hlen;

	if (strncmp(v, "unix:", 5) == 0) {
		if (v[5] == '\0' || strlen(v + 5) >= sizeof cfg->listen_path)
			return false;
		cfg->listen_unix = true;
		snprintf(cfg->listen_path, sizeof cfg->listen_path, "%s", v + 5);
		return true;
	}
	if (v[0] == '[') {
		const char *close = strchr(v, ']');

		if (close == NULL || close[1] != ':')
			return false;
		hlen = (size_t)(close - v - 1);
		v++;
		colon = close + 1;
	} else {
		colon = strrchr(v, ':');
		if (colon == NULL)
			return false;
		hlen = (size_t)(colon - v);
	}
	if (hlen == 0 || hlen >= sizeof cfg->listen_host)
		return false;
	if (!parse_size(colon + 1, 0, 65535, false, &port))
		return false;
	memcpy(cfg->listen_host, v, hlen);
	cfg->listen_host[hlen] = '\0';
	{
		uint8_t probe[16];

		if (inet_pton(AF_INET, cfg->listen_host, probe) != 1 &&
		    inet_pton(AF_INET6, cfg->listen_host, probe) != 1 &&
		    strcmp(cfg->listen_host, "localhost") != 0)
			return false;
	}
	cfg->listen_unix = false;
	cfg->listen_port = (uint16_t)port;
	return true;
}

static bool
parse_agent_check(struct config *cfg, const char *v)
{
	const char *eq = strchr(v, '=');
	const struct game *g;

	if (eq == NULL)
		return false;
	g = game_by_name(v, (size_t)(eq - v));
	if (g == NULL)
		return false;
	if (strcmp(eq + 1, "on") == 0)
		cfg->agent_check[g->id] = true;
	else if (strcmp(eq + 1, "off") == 0)
		cfg->agent_check[g->id] = false;
	else
		return false;
	return true;
}

/* A numeric option's value within its range, or the message. */
static bool
parse_number(enum opt o, const char *v, unsigned long long *n, char *why, size_t cap)
{
	const struct range *r = &opts[o].range;

	if (parse_size(v, r->lo, r->hi, r->size, n))
		return true;
	snprintf(why, cap, "expected a whole number from %llu to %llu%s", r->lo, r->hi,
	    r->size ? " (bytes; suffix k or m allowed)" : "");
	return false;
}

static void
set_number(struct config *cfg, enum opt o, unsigned long long n)
{
	switch (o) {
	case OPT_THREADS: cfg->threads = (unsigned)n; break;
	case OPT_MAX_BODY: cfg->max_body = (size_t)n; break;
	case OPT_CONN_LIMIT: cfg->connection_limit = (unsigned)n; break;
	case OPT_CONN_TIMEOUT: cfg->connection_timeout = (unsigned)n; break;
	case OPT_COMMIT_BATCH: cfg->commit_batch = (unsigned)n; break;
	case OPT_PER_ADDRESS: cfg->per_address = (unsigned)n; break;
	case OPT_REQUEST_TIMEOUT: cfg->request_timeout = (unsigned)n; break;
	case OPT_TOKEN_TTL: cfg->token_ttl = (unsigned)n; break;
	case OPT_UNPLAYED: cfg->unplayed_retention = (unsigned)n; break;
	case OPT_VERIFY_WORKERS: cfg->verify_workers = (unsigned)n; break;
	case OPT_VERIFY_QUEUE: cfg->verify_queue = (unsigned)n; break;
	case OPT_MATCH_TURN_CAP: cfg->match_turn_cap = (unsigned)n; break;
	case OPT_MATCH_STREAMS: cfg->match_streams = (unsigned)n; break;
	case OPT_WAITS_PER_ADDRESS: cfg->waits_per_address = (unsigned)n; break;
	case OPT_STREAMS_PER_ADDRESS: cfg->streams_per_address = (unsigned)n; break;
	case OPT_REFUSAL_HOLD: cfg->refusal_hold_ms = (unsigned)n; break;
	case OPT_RUNS_PER_DAY: cfg->runs_per_day = (unsigned)n; break;
	case OPT_REVIEWS_PER_DAY: cfg->reviews_per_day = (unsigned)n; break;
	case OPT_MATCHES_PER_DAY: cfg->matches_per_day = (unsigned)n; break;
	case OPT_CAP_DEFAULT: cfg->cap_default = (uint64_t)n; break;
	case OPT_CAP_MAX: cfg->cap_max = (uint64_t)n; break;
	case OPT_DB_RETRY: cfg->db_retry_seconds = (unsigned)n; break;
	case OPT_DB_STATEMENT_TIMEOUT: cfg->db_statement_timeout = (unsigned)n; break;
	default: break;
	}
}

/* Applies one value of option o; on failure writes the one-line message. */
static bool
apply(struct config *cfg, enum opt o, const char *v, bool from_env,
    bool *key_set, char *err, size_t errcap)
{
	unsigned long long n;
	const char *why = NULL;
	char whybuf[200];

	switch (o) {
	case OPT_LISTEN:
		if (!parse_listen(cfg, v))
			why = "expected HOST:PORT (an IP address or localhost, port 0-65535) or unix:PATH";
		break;
	case OPT_DB:
		if (v[0] == '\0' || strlen(v) >= sizeof cfg->db_path)
			why = "expected a file path or a PostgreSQL connection string";
		else if (store_target_kind(v, whybuf, sizeof whybuf) == STORE_TARGET_REFUSED)
			why = whybuf;
		else
			snprintf(cfg->db_path, sizeof cfg->db_path, "%s", v);
		break;
	case OPT_KEY_FILE:
		if (v[0] == '\0' || strlen(v) >= sizeof cfg->key_path)
			why = "expected a file path";
		else {
			snprintf(cfg->key_path, sizeof cfg->key_path, "%s", v);
			*key_set = true;
		}
		break;
	case OPT_THREADS:
	case OPT_MAX_BODY:
	case OPT_CONN_LIMIT:
	case OPT_CONN_TIMEOUT:
	case OPT_PER_ADDRESS:
	case OPT_REQUEST_TIMEOUT:
	case OPT_COMMIT_BATCH:
	case OPT_TOKEN_TTL:
	case OPT_UNPLAYED:
	case OPT_VERIFY_WORKERS:
	case OPT_VERIFY_QUEUE:
	case OPT_MATCH_TURN_CAP:
	case OPT_MATCH_STREAMS:
	case OPT_WAITS_PER_ADDRESS:
	case OPT_STREAMS_PER_ADDRESS:
	case OPT_REFUSAL_HOLD:
	case OPT_RUNS_PER_DAY:
	case OPT_REVIEWS_PER_DAY:
	case OPT_MATCHES_PER_DAY:
	case OPT_CAP_DEFAULT:
	case OPT_CAP_MAX:
	case OPT_DB_RETRY:
	case OPT_DB_STATEMENT_TIMEOUT:
		if (!parse_number(o, v, &n, whybuf, sizeof whybuf))
			why = whybuf;
		else
			set_number(cfg, o, n);
		break;
	case OPT_TRUSTED_PROXY:
	case OPT_METRICS_ALLOW: {
		struct cidr *list = o == OPT_TRUSTED_PROXY ? cfg->proxies : cfg->metrics_allow;
		int *count = o == OPT_TRUSTED_PROXY ? &cfg->nproxies : &cfg->nmetrics_allow;

		if (*count == CONFIG_MAX_PROXIES) {
			snprintf(whybuf, sizeof whybuf, "too many ranges (at most %d)", CONFIG_MAX_PROXIES);
			why = whybuf;
		}
		else if (!config_parse_cidr(v, &list[*count]))
			why = "expected an IPv4 or IPv6 address with an optional /BITS prefix";
		else
			(*count)++;
		break;
	}
	case OPT_PUBLIC_URL:
		if ((strncmp(v, "http://", 7) != 0 && strncmp(v, "https://", 8) != 0) ||
		    strlen(v) >= sizeof cfg->public_url || strchr(strchr(v, ':') + 3, '/') != NULL ||
		    strlen(strchr(v, ':') + 3) == 0 || strpbrk(v, "\"<>'?#@ ") != NULL)
			why = "expected an origin such as https://arcade.example.org, without a path";
		else
			snprintf(cfg->public_url, sizeof cfg->public_url, "%s", v);
		break;
	case OPT_MCP_ORIGIN:
		/* Compared exactly with the Origin header, which never ends in
		 * a slash nor carries a path. */
		if (cfg->nmcp_origins == CONFIG_MAX_ORIGINS) {
			snprintf(whybuf, sizeof whybuf, "too many origins (at most %d)", CONFIG_MAX_ORIGINS);
			why = whybuf;
		} else if ((strncmp(v, "http://", 7) != 0 && strncmp(v, "https://", 8) != 0) ||
		    strlen(v) >= sizeof cfg->mcp_origins[0] || strchr(strchr(v, ':') + 3, '/') != NULL ||
		    strlen(strchr(v, ':') + 3) == 0)
			why = "expected an origin such as https://example.org or http://10.0.0.5:8080";
		else
			snprintf(cfg->mcp_origins[cfg->nmcp_origins++], sizeof cfg->mcp_origins[0], "%s", v);
		break;
	case OPT_AGENT_CHECK:
		if (!parse_agent_check(cfg, v)) {
			char names[GAME_NAMES_MAX];

			snprintf(whybuf, sizeof whybuf, "expected GAME=on or GAME=off with GAME one of %s",
			    game_names(names, sizeof names));
			why = whybuf;
		}
		break;
	case OPT_LOG_LEVEL:
		if (strcmp(v, "error") == 0)
			cfg->log_level = LOG_ERROR;
		else if (strcmp(v, "warn") == 0)
			cfg->log_level = LOG_WARN;
		else if (strcmp(v, "info") == 0)
			cfg->log_level = LOG_INFO;
		else if (strcmp(v, "debug") == 0)
			cfg->log_level = LOG_DEBUG;
		else
			why = "expected error, warn, info or debug";
		break;
	case OPT_RATE_LIMIT:
		if (!ratelimit_config_parse(&cfg->rate, v, whybuf, sizeof whybuf))
			why = whybuf;
		break;
	case OPT_LOG_FORMAT:
		if (strcmp(v, "text") == 0)
			cfg->log_json = false;
		else if (strcmp(v, "json") == 0)
			cfg->log_json = true;
		else
			why = "expected text or json";
		break;
	case OPT_FAIR_RATINGS:
		if (strcmp(v, "on") == 0 || strcmp(v, "off") == 0)
			cfg->fair_ratings = strcmp(v, "on") == 0;
		else
			why = "expected on or off";
		break;
	case OPT_SYNC:
		if (strcmp(v, "full") == 0)
			cfg->sync = SYNC_FULL;
		else if (strcmp(v, "normal") == 0)
			cfg->sync = SYNC_NORMAL;
		else
			why = "expected full or normal";
		break;
	default:
		why = "unknown option";
		break;
	}
	if (why == NULL)
		return true;
	if (from_env)
		snprintf(err, errcap, "%s=%s: %s", opts[o].env, v, why);
	else
		snprintf(err, errcap, "--%s %s: %s", opts[o].flag, v, why);
	return false;
}

static bool
apply_env(struct config *cfg, bool *key_set, char *err, size_t errcap)
{
	int o;

	for (o = 0; o < OPT__COUNT; o++) {
		const char *v = getenv(opts[o].env);
		char buf[1024], *item, *save = NULL;

		if (v == NULL)
			continue;
		if (!opts[o].repeat) {
			if (!apply(cfg, (enum opt)o, v, true, key_set, err, errcap))
				return false;
			continue;
		}
		if (strlen(v) >= sizeof buf) {
			snprintf(err, errcap, "%s: value too long", opts[o].env);
			return false;
		}
		snprintf(buf, sizeof buf, "%s", v);
		for (item = strtok_r(buf, ",", &save); item != NULL; item = strtok_r(NULL, ",", &save))
			if (!apply(cfg, (enum opt)o, item, true, key_set, err, errcap))
				return false;
	}
	return true;
}

/* The directory part of path ("." when it has none). */
static void
dir_of(const char *path, char *out, size_t cap)
{
	const char *slash = strrchr(path, '/');

	if (slash == NULL)
		snprintf(out, cap, ".");
	else if (slash == path)
		snprintf(out, cap, "/");
	else
		snprintf(out, cap, "%.*s", (int)(slash - path), path);
}

enum config_result
config_parse(struct config *cfg, int argc, char **argv, char *err, size_t errcap)
{
	bool key_set = false, proxies_from_flags = false, origins_from_flags = false,
	    metrics_from_flags = false;
	int i;

	set_defaults(cfg);
	if (!apply_env(cfg, &key_set, err, errcap))
		return CONFIG_ERROR;
	for (i = 0; i < argc; i++) {
		const char *a = argv[i], *name, *eq, *val;
		size_t nlen;
		int o;

		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			config_usage();
			return CONFIG_EXIT;
		}
		if (strcmp(a, "--version") == 0) {
			printf("arcaded %s\n", ARCADED_VERSION);
			return CONFIG_EXIT;
		}
		if (strncmp(a, "--", 2) != 0) {
			snprintf(err, errcap, "%s: unexpected argument (options start with --; see --help)", a);
			return CONFIG_ERROR;
		}
		name = a + 2;
		eq = strchr(name, '=');
		nlen = eq ? (size_t)(eq - name) : strlen(name);
		for (o = 0; o < OPT__COUNT; o++)
			if (strlen(opts[o].flag) == nlen && strncmp(opts[o].flag, name, nlen) == 0)
				break;
		if (o == OPT__COUNT) {
			snprintf(err, errcap, "--%.*s: unknown option (see --help)", (int)nlen, name);
			return CONFIG_ERROR;
		}
		if (eq != NULL)
			val = eq + 1;
		else if (i + 1 < argc)
			val = argv[++i];
		else {
			snprintf(err, errcap, "--%s: missing value (%s)", opts[o].flag, opts[o].arg);
			return CONFIG_ERROR;
		}
		/* Flags replace the variable's list rather than adding to it. */
		if (o == OPT_TRUSTED_PROXY && !proxies_from_flags) {
			cfg->nproxies = 0;
			proxies_from_flags = true;
		}
		if (o == OPT_METRICS_ALLOW && !metrics_from_flags) {
			cfg->nmetrics_allow = 0;
			metrics_from_flags = true;
		}
		if (o == OPT_MCP_ORIGIN && !origins_from_flags) {
			cfg->nmcp_origins = 0;
			origins_from_flags = true;
		}
		if (!apply(cfg, (enum opt)o, val, false, &key_set, err, errcap))
			return CONFIG_ERROR;
	}
	if (cfg->nmetrics_allow == 0) {
		/* Loopback, where a scraper beside the daemon (or the shipped
		 * site's own location) reads it. */
		config_parse_cidr("127.0.0.0/8", &cfg->metrics_allow[0]);
		config_parse_cidr("::1/128", &cfg->metrics_allow[1]);
		cfg->nmetrics_allow = 2;
	}
	/* The default is a cap the server gives without being asked: it may
	 * not exceed what it would give when asked. */
	if (cfg->cap_default > cfg->cap_max) {
		snprintf(err, errcap, "--cap-default %llu: above --cap-max %llu",
		    (unsigned long long)cfg->cap_default, (unsigned long long)cfg->cap_max);
		return CONFIG_ERROR;
	}
	if (!key_set && store_is_postgres(cfg->db_path)) {
		/* Nothing is "beside" a database server, and every daemon on it
		 * must hold the same key file. */
		snprintf(err, errcap, "--db with a PostgreSQL database needs --key-file: the one key file "
		    "that every daemon on that database shares");
		return CONFIG_ERROR;
	}
	if (!key_set) {
		char dir[PATH_MAX];

		dir_of(cfg->db_path, dir, sizeof dir);
		if ((size_t)snprintf(cfg->key_path, sizeof cfg->key_path, "%s/arcaded.key", dir) >=
		    sizeof cfg->key_path) {
			snprintf(err, errcap, "--db %s: path too long", cfg->db_path);
			return CONFIG_ERROR;
		}
	}
	return CONFIG_OK;
}

int
config_from_args(struct config *cfg, int argc, char **argv)
{
	char err[512];

	switch (config_parse(cfg, argc, argv, err, sizeof err)) {
	case CONFIG_EXIT:
		return 0;
	case CONFIG_ERROR:
		fprintf(stderr, "arcaded: %s\n", err);
		return 2;
	case CONFIG_OK:
		break;
	}
	return -1;
}

bool
config_is_trusted_proxy(const struct config *cfg, int family, const uint8_t *addr)
{
	return config_cidr_has(cfg->proxies, cfg->nproxies, family, addr);
}

bool
config_cidr_has(const struct cidr *list, int n, int family, const uint8_t *addr)
{
	static const uint8_t mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };
	int i;

	if (family == AF_INET6 && memcmp(addr, mapped, sizeof mapped) == 0) {
		family = AF_INET;
		addr += 12;
	}
	for (i = 0; i < n; i++) {
		const struct cidr *c = &list[i];
		int full = c->bits / 8, rest = c->bits % 8;

		if (c->family != family)
			continue;
		if (memcmp(c->addr, addr, (size_t)full) != 0)
			continue;
		if (rest != 0) {
			uint8_t mask = (uint8_t)(0xff << (8 - rest));

			if ((c->addr[full] & mask) != (addr[full] & mask))
				continue;
		}
		return true;
	}
	return false;
}
