/*
 * config.h: the daemon's configuration from flags and ARCADED_* variables.
 *
 * Every flag has an environment variable of the same name (`--max-body` is
 * ARCADED_MAX_BODY); a flag given on the command line wins over the
 * variable. Repeatable flags (--trusted-proxy, --agent-check) take a
 * comma-separated list in their variable. A bad value is reported as one
 * line that names the flag.
 */
#ifndef SERVER_CONFIG_H
#define SERVER_CONFIG_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "log.h"
#include "ratelimit.h"
#include "store_base.h"

#define CONFIG_MAX_PROXIES 16
#define CONFIG_MAX_ORIGINS 8

struct cidr {
	int     family;    /* AF_INET or AF_INET6 */
	uint8_t addr[16];  /* network byte order; 4 bytes used for AF_INET */
	int     bits;      /* prefix length, 0..32 or 0..128 */
};

struct config {
	/* --listen: HOST:PORT, [V6HOST]:PORT or unix:PATH */
	bool     listen_unix;
	char     listen_host[256];
	uint16_t listen_port;       /* 0: any free port (printed at start) */
	char     listen_path[108];  /* sun_path */

	char     db_path[PATH_MAX];
	char     key_path[PATH_MAX]; /* default: arcaded.key beside the database */
	unsigned threads;            /* HTTP worker threads, 1..256 */
	size_t   max_body;           /* bytes, 1 KiB .. 64 MiB */
	struct cidr proxies[CONFIG_MAX_PROXIES];
	int      nproxies;
	struct cidr metrics_allow[CONFIG_MAX_PROXIES]; /* who may read /metrics; loopback by default */
	int      nmetrics_allow;
	bool     agent_check[GAME__COUNT];
	enum log_level log_level;
	bool     log_json;           /* one JSON object per log line */
	enum sync_mode sync;
	bool           fair_ratings;  /* --fair-ratings: the queue's guards on ratings */
	unsigned connection_limit;   /* open connections at most */
	unsigned connection_timeout; /* seconds of idleness before a close */
	unsigned per_address;        /* open connections from one client address at most */
	unsigned request_timeout;    /* seconds for a request's headers and body from its first byte */
	unsigned commit_batch;       /* most moves per transaction; 1 = one commit each */
	unsigned token_ttl;          /* seconds a stateToken opens after it was sealed */
	unsigned unplayed_retention; /* seconds a run that never got a move is kept */
	unsigned verify_workers;     /* threads for replay verification */
	unsigned verify_queue;       /* verifications waiting at most; more are answered 503 */
	unsigned match_turn_cap;     /* turns after which a match ends, 1..100000 */
	unsigned match_streams;      /* match event streams open at most */
	unsigned waits_per_address;  /* long polls one client (or /64, or account) holds at most */
	unsigned streams_per_address; /* event streams likewise; a /56 holds 4 times these */
	unsigned refusal_hold_ms;    /* a rate-limited body's 429 this late (tarpit.h); 0 at once */
	unsigned runs_per_day;       /* runs one client (/64) or account begins a UTC day; 0: no quota */
	unsigned reviews_per_day;    /* runs finished with a review likewise; a /56 4 times these */
	unsigned matches_per_day;    /* matches created likewise */
	struct ratelimit_config rate; /* per-address and per-account limits by class */
	uint64_t cap_default;        /* a capped game's cap when init asks for none, in moves;
	                                0 = none; at most cap_max */
	uint64_t cap_max;            /* the largest cap an init may ask for, 1 .. 2^53 - 1 */
	char     mcp_origins[CONFIG_MAX_ORIGINS][128]; /* --mcp-origin: pages that may call /mcp */
	int      nmcp_origins;
	char     public_url[128];    /* --public-url: the daemon's origin for OAuth; "" from each request */
	unsigned db_retry_seconds;   /* PostgreSQL: a lost connection is retried this long, 1..300 */
	unsigned db_statement_timeout; /* PostgreSQL: the writer's statement_timeout in seconds; 0: none */
};

enum config_result {
	CONFIG_OK,      /* serve with this configuration */
	CONFIG_EXIT,    /* --help or --version printed: exit 0 */
	CONFIG_ERROR    /* message in err: exit 2 */
};

/* Fills cfg from the environment, then from argv (flags only: the caller
 * has removed any subcommand). err receives one line on CONFIG_ERROR. */
enum config_result config_parse(struct config *cfg, int argc, char **argv,
    char *err, size_t errcap);

/* config_parse for a command line: returns -1 to go on with cfg, or the
 * exit status after printing help, the version or the error line. */
int config_from_args(struct config *cfg, int argc, char **argv);

/* Whether addr (family AF_INET/AF_INET6, raw bytes) lies in a trusted
 * proxy range. IPv4-mapped IPv6 addresses are compared as IPv4. */
bool config_is_trusted_proxy(const struct config *cfg, int family, const uint8_t *addr);

/* Whether addr lies in one of the n ranges of list, as above. */
bool config_cidr_has(const struct cidr *list, int n, int family, const uint8_t *addr);

/* Parses ADDR[/BITS] into c; false on a bad value. */
bool config_parse_cidr(const char *s, struct cidr *c);

void config_usage(void);

#endif
