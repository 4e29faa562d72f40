/*
 * test_config.c: flags and variables. A flag wins over its variable;
 * lists come comma-separated from variables and repeat as flags (flags
 * replace the variable's list); every bad value is refused with one line
 * that names the flag or the variable; CIDR ranges match by prefix, and an
 * IPv4-mapped IPv6 peer matches an IPv4 range; a default episode cap may
 * not exceed the largest. --db: every connection string libpq reads (URL,
 * several hosts, key=value) is PostgreSQL, a path is SQLite, anything else
 * is refused; the text logged of a target keeps its hosts, ports and
 * options and never its password.
 */
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "config.h"
#include "store.h"
#include "tap.h"

static enum config_result
parse(struct config *cfg, char *err, size_t cap, int argc, ...)
{
	char *argv[16];
	va_list ap;
	int i;

	va_start(ap, argc);
	for (i = 0; i < argc && i < 16; i++)
		argv[i] = va_arg(ap, char *);
	va_end(ap);
	err[0] = '\0';
	return config_parse(cfg, argc, argv, err, cap);
}

static bool
trusted(const struct config *cfg, const char *addr)
{
	uint8_t raw[16];

	if (inet_pton(AF_INET, addr, raw) == 1)
		return config_is_trusted_proxy(cfg, AF_INET, raw);
	if (inet_pton(AF_INET6, addr, raw) == 1)
		return config_is_trusted_proxy(cfg, AF_INET6, raw);
	return false;
}

int
main(void)
{
	struct config cfg;
	struct cidr c;
	char err[512];
	size_t i;
	static const char *const bad[][2] = {
		{ "--threads", "0" }, { "--threads", "257" }, { "--threads", "-1" }, { "--threads", "4x" },
		{ "--max-body", "1023" }, { "--max-body", "65m" }, { "--max-body", "1g" },
		{ "--listen", "127.0.0.1" }, { "--listen", "example.com:80" }, { "--listen", "[::1]80" },
		{ "--listen", "127.0.0.1:65536" }, { "--listen", "unix:" },
		{ "--trusted-proxy", "10.0.0.0/33" }, { "--trusted-proxy", "::1/129" },
		{ "--trusted-proxy", "10.0.0" }, { "--agent-check", "chess=on" },
		{ "--agent-check", "stackfall=maybe" }, { "--log-level", "loud" },
		{ "--synchronous", "sometimes" }, { "--connection-limit", "15" },
		{ "--connection-timeout", "0" }, { "--commit-batch", "4097" },
		{ "--cap-default", "-1" }, { "--cap-default", "9007199254740992" }, { "--cap-max", "0" },
		{ "--cap-max", "9007199254740992" }, { "--cap-max", "1k" },
	};

	unsetenv("ARCADED_THREADS");
	unsetenv("ARCADED_TRUSTED_PROXY");
	unsetenv("ARCADED_DB");
	unsetenv("ARCADED_KEY_FILE");
	unsetenv("ARCADED_CAP_DEFAULT");
	unsetenv("ARCADED_CAP_MAX");
	ok(parse(&cfg, err, sizeof err, 0) == CONFIG_OK, "no flags: the defaults");
	ok(strcmp(cfg.listen_host, "127.0.0.1") == 0 && cfg.listen_port == 8080 && !cfg.listen_unix,
	    "default listen 127.0.0.1:8080");
	ok(cfg.max_body == 65536 && cfg.connection_limit == 4096 && cfg.commit_batch == 256,
	    "default limits");
	ok(cfg.agent_check[GAME_STACKFALL] && !cfg.agent_check[GAME_DUSKCOURT],
	    "the agent check follows each game's default");
	ok(strcmp(cfg.key_path, "data/arcaded.key") == 0, "the key file sits beside the database");
	ok(cfg.cap_default == 0 && cfg.cap_max == UINT64_C(9007199254740991),
	    "no default cap; the largest cap is JSON's largest exact integer");
	ok(parse(&cfg, err, sizeof err, 3, "--cap-default", "150", "--cap-max=1000") == CONFIG_OK &&
	    cfg.cap_default == 150 && cfg.cap_max == 1000, "--cap-default and --cap-max");
	ok(parse(&cfg, err, sizeof err, 4, "--cap-max", "100", "--cap-default", "101") == CONFIG_ERROR &&
	    strncmp(err, "--cap-default 101", 17) == 0 && strstr(err, "--cap-max 100") != NULL,
	    "a default cap above the largest is refused: %s", err);
	setenv("ARCADED_CAP_DEFAULT", "40", 1);
	ok(parse(&cfg, err, sizeof err, 0) == CONFIG_OK && cfg.cap_default == 40,
	    "ARCADED_CAP_DEFAULT sets the default cap");
	unsetenv("ARCADED_CAP_DEFAULT");

	ok(parse(&cfg, err, sizeof err, 5, "--listen", "[::1]:0", "--max-body=8k", "--db", "/tmp/x/a.db")
	    == CONFIG_OK && strcmp(cfg.listen_host, "::1") == 0 && cfg.listen_port == 0 &&
	    cfg.max_body == 8192 && strcmp(cfg.key_path, "/tmp/x/arcaded.key") == 0,
	    "IPv6 listen, --flag=value, a size suffix, the key file beside another database");
	ok(parse(&cfg, err, sizeof err, 2, "--listen", "unix:/run/a.sock") == CONFIG_OK && cfg.listen_unix &&
	    strcmp(cfg.listen_path, "/run/a.sock") == 0, "a unix socket");

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		enum config_result r = parse(&cfg, err, sizeof err, 2, bad[i][0], bad[i][1]);

		ok(r == CONFIG_ERROR && strncmp(err, bad[i][0], strlen(bad[i][0])) == 0 &&
		    strchr(err, '\n') == NULL, "%s %s refused in one line naming the flag: %s", bad[i][0],
		    bad[i][1], err);
	}
	ok(parse(&cfg, err, sizeof err, 1, "--nope") == CONFIG_ERROR && strstr(err, "unknown option"),
	    "an unknown flag");
	ok(parse(&cfg, err, sizeof err, 1, "--threads") == CONFIG_ERROR && strstr(err, "missing value"),
	    "a flag without its value");
	ok(parse(&cfg, err, sizeof err, 1, "serve-me") == CONFIG_ERROR, "a stray argument");

	/* Variables, and a flag winning over its variable. */
	setenv("ARCADED_THREADS", "3", 1);
	setenv("ARCADED_TRUSTED_PROXY", "10.1.0.0/16,192.168.5.5", 1);
	ok(parse(&cfg, err, sizeof err, 0) == CONFIG_OK && cfg.threads == 3 && cfg.nproxies == 2,
	    "variables set options; a list variable is comma-separated");
	ok(trusted(&cfg, "10.1.200.3") && !trusted(&cfg, "10.2.0.1") && trusted(&cfg, "192.168.5.5") &&
	    !trusted(&cfg, "192.168.5.6"), "the ranges match by prefix");
	ok(trusted(&cfg, "::ffff:10.1.9.9") && !trusted(&cfg, "::ffff:10.3.0.1"),
	    "an IPv4-mapped IPv6 address matches the IPv4 range");
	ok(parse(&cfg, err, sizeof err, 4, "--threads", "5", "--trusted-proxy", "fd00::/8") == CONFIG_OK &&
	    cfg.threads == 5 && cfg.nproxies == 1 && trusted(&cfg, "fd12::1") && !trusted(&cfg, "10.1.0.1"),
	    "flags win over variables, and a flag list replaces the variable's");
	setenv("ARCADED_THREADS", "many", 1);
	ok(parse(&cfg, err, sizeof err, 0) == CONFIG_ERROR && strncmp(err, "ARCADED_THREADS=many", 20) == 0,
	    "a bad variable is named as the variable: %s", err);
	unsetenv("ARCADED_THREADS");
	unsetenv("ARCADED_TRUSTED_PROXY");

	/* CIDR parsing on its own. */
	ok(config_parse_cidr("0.0.0.0/0", &c) && c.family == AF_INET && c.bits == 0, "0.0.0.0/0");
	ok(config_parse_cidr("2001:db8::/32", &c) && c.family == AF_INET6 && c.bits == 32, "2001:db8::/32");
	ok(config_parse_cidr("127.0.0.1", &c) && c.bits == 32, "a bare address is /32");
	ok(!config_parse_cidr("127.0.0.1/", &c) && !config_parse_cidr("/8", &c) &&
	    !config_parse_cidr("127.0.0.1/+8", &c) && !config_parse_cidr("1.2.3.4/8/8", &c),
	    "malformed ranges are refused");
	{
		struct config one;

		memset(&one, 0, sizeof one);
		config_parse_cidr("10.0.0.0/9", &one.proxies[0]);
		one.nproxies = 1;
		ok(trusted(&one, "10.127.255.255") && !trusted(&one, "10.128.0.0"),
		    "a prefix that is not a whole number of bytes");
	}

	/* --db: what names PostgreSQL, what SQLite, what is refused. */
	{
		static const char *const pg[] = {
			"postgresql:///arcaded",
			"postgres://u@db1/arcaded",
			"postgresql://u:secret@db1:5432,db2:5433/arcaded?target_session_attrs=read-write",
			"host=db1 port=5432 dbname=arcaded",
			"host=/tmp/pg,/tmp/pg2 dbname=x target_session_attrs=read-write",
			"dbname=arcaded",
			"  service = arcaded",
		};
		static const char *const lite[] = {
			"data/arcaded.db", "/var/lib/arcaded/arcaded.db", "arcaded.db", "./a=b/x.db",
			"Data=1.db",
		};
		static const char *const refused[] = {
			"mysql://db1/arcaded", "postgresq://db1/arcaded", "sqlite:///tmp/x.db",
			"host=db1 dbname", "hots=db1 dbname=x", "postgresql://db1:notaport/x?bogus=1",
		};
		char text[512];

		for (i = 0; i < sizeof pg / sizeof pg[0]; i++)
			ok(store_target_kind(pg[i], err, sizeof err) == STORE_TARGET_PG && store_is_postgres(pg[i]),
			    "--db %s is PostgreSQL", pg[i]);
		for (i = 0; i < sizeof lite / sizeof lite[0]; i++)
			ok(store_target_kind(lite[i], err, sizeof err) == STORE_TARGET_SQLITE,
			    "--db %s is a SQLite file", lite[i]);
		for (i = 0; i < sizeof refused / sizeof refused[0]; i++)
			ok(store_target_kind(refused[i], err, sizeof err) == STORE_TARGET_REFUSED && err[0] != '\0' &&
			    parse(&cfg, err, sizeof err, 4, "--db", refused[i], "--key-file", "/tmp/k") ==
			    CONFIG_ERROR && strncmp(err, "--db", 4) == 0,
			    "--db %s is refused: %s", refused[i], err);
		ok(parse(&cfg, err, sizeof err, 2, "--db", "host=db1 dbname=arcaded") == CONFIG_ERROR &&
		    strstr(err, "--key-file") != NULL, "a key=value conninfo needs --key-file as a URL does: %s", err);
		ok(parse(&cfg, err, sizeof err, 4, "--db", "host=db1 dbname=arcaded", "--key-file", "/tmp/k") ==
		    CONFIG_OK && strcmp(cfg.db_path, "host=db1 dbname=arcaded") == 0, "and is taken with one");

		store_target_text("postgresql://u:secret@db1:5432,db2:5433/arcaded?target_session_attrs=read-write"
		    "&connect_timeout=3", text, sizeof text);
		is_str(text, "postgresql://u@db1:5432,db2:5433/arcaded?connect_timeout=3&"
		    "target_session_attrs=read-write", "a multi-host URL is logged whole but its password");
		store_target_text("host=db1,db2 port=5432 user=u password=secret dbname=arcaded sslmode=require",
		    text, sizeof text);
		is_str(text, "postgresql://u@db1:5432,db2:5432/arcaded?sslmode=require",
		    "key=value is logged as a URL; one port serves every host; no password");
		store_target_text("postgresql://arcaded@/e2e?host=%2Ftmp%2Fpg", text, sizeof text);
		is_str(text, "postgresql://arcaded@/e2e?host=/tmp/pg", "a socket folder goes in the query");
		store_target_text("postgresql://u:pw@h/d?host=/s1,/s2&port=5432,5433&sslpassword=x", text,
		    sizeof text);
		ok(strstr(text, "pw") == NULL && strstr(text, "sslpassword") == NULL &&
		    strstr(text, "host=/s1,/s2") != NULL && strstr(text, "port=5432,5433") != NULL,
		    "socket folders and their ports, no password: %s", text);
		store_target_text("data/arcaded.db", text, sizeof text);
		is_str(text, "data/arcaded.db", "a path is logged as given");

		ok(parse(&cfg, err, sizeof err, 0) == CONFIG_OK && cfg.db_retry_seconds == 5 &&
		    cfg.db_statement_timeout == 10, "--db-retry-seconds 5 and --db-statement-timeout 10 by default");
		ok(parse(&cfg, err, sizeof err, 4, "--db-retry-seconds", "0", "--db-statement-timeout", "0") ==
		    CONFIG_ERROR, "--db-retry-seconds 0 is refused");
		ok(parse(&cfg, err, sizeof err, 4, "--db-retry-seconds", "2", "--db-statement-timeout", "0") ==
		    CONFIG_OK && cfg.db_retry_seconds == 2 && cfg.db_statement_timeout == 0,
		    "--db-statement-timeout 0 turns it off");
	}
	return tap_done();
}
