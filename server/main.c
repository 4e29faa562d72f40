/*
 * main.c: the arcaded binary. With no subcommand (or `serve`) it runs the
 * daemon: configuration, store and migrations, keys, HTTP; then it waits
 * for SIGTERM or SIGINT and shuts down in order -- stop accepting, let the
 * requests in flight finish (bounded), close connections, let the writer
 * commit what it holds, checkpoint the WAL, close the database. Other
 * subcommands are small tools for bot authors and operators (cli.c).
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "app.h"
#include "arcaded_version.h"
#include "cli.h"
#include "config.h"
#include "http.h"
#include "keyfile.h"
#include "keys.h"
#include "throttle.h"
#include "quota_charge.h"
#include "holds.h"
#include "log.h"
#include "match_play.h"
#include "metrics.h"
#include "notify.h"
#include "routes.h"
#include "store.h"
#include "sweeper.h"
#include "workers.h"

/* How long requests in flight may take to finish after SIGTERM. */
#define DRAIN_MS 4000
/* Keyrings a daemon may load over its life (the first and its reloads). */
#define RINGS_MAX 64

/* Every keyring loaded, kept until exit: a request that read the pointer
 * before a reload may still be using the old ring. */
static struct keyring *rings[RINGS_MAX];
static int nrings;

/* Loads the key file into a new ring; NULL with err on failure. */
static struct keyring *
load_ring(const char *path, bool create, char *err, size_t errcap)
{
	struct keyfile kf;
	struct keyring *kr;
	bool created = false;

	if (nrings == RINGS_MAX) {
		snprintf(err, errcap, "%d key reloads already: restart the daemon to reload again", RINGS_MAX - 1);
		return NULL;
	}
	if ((create ? keyfile_load_or_create(path, &kf, &created, err, errcap) :
	    keyfile_load(path, &kf, err, errcap)) != 0)
		return NULL;
	if (created)
		log_msg(LOG_INFO, "created key file %s", path);
	kr = calloc(1, sizeof *kr);
	if (kr == NULL || keyring_init(kr, kf.pepper, (const uint8_t (*)[32])kf.keys, kf.nkeys) != 0) {
		snprintf(err, errcap, "key file %s: cannot derive keys", path);
		keyfile_wipe(&kf);
		free(kr);
		return NULL;
	}
	keyfile_wipe(&kf);
	rings[nrings++] = kr;
	return kr;
}

/* SIGHUP: the key file again. A file that does not load, or whose pepper
 * differs (agent keys are stored as hashes keyed by it), is refused and
 * the ring in use stays. */
static void
reload_keys(struct app *app)
{
	const struct keyring *old = app_keys(app);
	struct keyring *kr;
	char err[1024];

	if ((kr = load_ring(app->cfg->key_path, false, err, sizeof err)) == NULL) {
		log_msg(LOG_ERROR, "SIGHUP: the key file was not reloaded, the keys in use stay: %s", err);
		return;
	}
	if (sodium_memcmp(kr->pepper, old->pepper, sizeof kr->pepper) != 0) {
		log_msg(LOG_ERROR, "SIGHUP: the key file's pepper changed (agent keys would stop working); "
		    "the keys in use stay");
		keyring_wipe(kr);
		return;
	}
	atomic_store_explicit(&app->keys, kr, memory_order_release);
	log_msg(LOG_INFO, "SIGHUP: keys reloaded: %d keys, current %s", kr->nkeys,
	    keyring_current(kr)->pid);
}

static int
serve(const struct config *cfg)
{
	struct app app;
	struct keyring *kr;
	sigset_t sigs;
	char err[1024], url[160], dbname[512];
	int sig = 0, left, i;

	memset(&app, 0, sizeof app);
	app.cfg = cfg;
	log_set_level(cfg->log_level);
	log_set_json(cfg->log_json);

	/* Every thread started from here on inherits the blocked set, so the
	 * signals reach only sigwait() below. */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &sigs, NULL);
	signal(SIGPIPE, SIG_IGN);

	if ((kr = load_ring(cfg->key_path, true, err, sizeof err)) == NULL)
		fatal("%s", err);
	atomic_store(&app.keys, kr);
	{
		struct store_limits lim = { cfg->db_retry_seconds * 1000u, cfg->db_statement_timeout * 1000u };

		app.store = store_open_with(cfg->db_path, cfg->sync, cfg->threads, &lim, err, sizeof err);
	}
	if (app.store == NULL)
		fatal("%s", err);
	store_set_batch_limit(app.store, cfg->commit_batch);
	app.metrics = metrics_new(nroutes, routes_label);
	if (app.metrics == NULL)
		fatal("out of memory");
	app.throttle = throttle_new(&cfg->rate);
	if (app.throttle == NULL)
		fatal("cannot set up the rate limits");
	{
		const unsigned per[HOLDS__COUNT] = { [HOLDS_WAIT] = cfg->waits_per_address,
		    [HOLDS_STREAM] = cfg->streams_per_address };

		if ((app.holds = holds_new(per)) == NULL)
			fatal("out of memory");
	}
	{
		const uint32_t per_day[QUOTA_NCLASSES] = { [QUOTA_RUNS] = cfg->runs_per_day,
		    [QUOTA_REVIEWS] = cfg->reviews_per_day, [QUOTA_MATCHES] = cfg->matches_per_day };

		if ((app.quota = quota_new(QUOTA_CAPACITY, per_day)) == NULL)
			fatal("out of memory");
	}
	app.verify = workers_new(cfg->verify_workers, cfg->verify_queue);
	if (app.verify == NULL)
		fatal("cannot start the replay verifiers");
	/* Retention: often enough that short retentions hold to a few seconds. */
	app.sweeper = sweeper_start(app.store, cfg->unplayed_retention,
	    cfg->unplayed_retention < 20 ? (cfg->unplayed_retention + 1) / 2 : 10);
	if (app.sweeper == NULL)
		fatal("cannot start the retention sweeper");
	/* Before HTTP: the deadlines of the matches in play are armed again. */
	app.matches = match_play_start(&app, err, sizeof err);
	if (app.matches == NULL)
		fatal("%s", err);
	app.http = http_start(cfg, &app, &routes_router, url, sizeof url, err, sizeof err);
	if (app.http == NULL)
		fatal("%s", err);
	store_target_text(cfg->db_path, dbname, sizeof dbname); /* a URL without its password */
	printf("arcaded %s serving on %s (database %s)\n", ARCADED_VERSION, url, dbname);
	fflush(stdout);
	log_msg(LOG_INFO, "serving on %s with %u threads, database %s (schema %d), synchronous=%s",
	    url, cfg->threads, dbname, store_schema_version(app.store),
	    cfg->sync == SYNC_FULL ? "full" : "normal");
	notify_ready(url);
	notify_watchdog_start();

	for (;;) {
		if (sigwait(&sigs, &sig) != 0)
			continue;
		if (sig != SIGHUP)
			break;
		reload_keys(&app);
	}
	log_msg(LOG_INFO, "%s: shutting down", sig == SIGINT ? "SIGINT" : "SIGTERM");
	notify_stopping();
	atomic_store(&app.shutting_down, true);
	http_quiesce(app.http);
	/* No deadline fires from here; long polls answer and streams end, so
	 * that no request stays suspended past the drain. */
	match_play_quiesce(app.matches);
	left = http_wait_idle(app.http, DRAIN_MS);
	if (left > 0)
		log_msg(LOG_WARN, "%d requests still in flight after %d ms; closing them", left, DRAIN_MS);
	/* Verifications still queued hold suspended requests: finish them. */
	workers_free(app.verify);
	sweeper_stop(app.sweeper);
	/* A request still waiting on the store holds a suspended connection
	 * that the writer will resume: let the writer finish before the HTTP
	 * server, and with it that connection, goes away. */
	if (!store_drain(app.store, DRAIN_MS)) {
		/* Stuck storage: nothing below could finish either. What is not
		 * committed was never answered 200. */
		log_msg(LOG_ERROR, "the store did not finish its writes in %d ms; exiting", DRAIN_MS);
		_exit(1);
	}
	http_stop(app.http);
	store_close(app.store);
	match_play_free(app.matches);
	metrics_free(app.metrics);
	throttle_free(app.throttle);
	holds_free(app.holds);
	quota_free(app.quota);
	for (i = 0; i < nrings; i++) {
		keyring_wipe(rings[i]);
		free(rings[i]);
	}
	notify_watchdog_stop();
	log_msg(LOG_INFO, "stopped");
	return 0;
}

/* The store's log lines (store_base.h) as the daemon's own. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 0)))
#endif
static void
store_log_line(void *ctx, enum store_log_level level, const char *fmt, va_list ap)
{
	static const enum log_level levels[] = { LOG_ERROR, LOG_WARN, LOG_INFO, LOG_DEBUG };

	(void)ctx;
	log_vmsg(levels[level], fmt, ap);
}

int
main(int argc, char **argv)
{
	static const struct store_log daemon_log = { store_log_line, NULL };
	struct config cfg;
	int first = 1, rc;

	store_set_log(&daemon_log);
	if (sodium_init() < 0)
		fatal("libsodium failed to initialise");
	if (argc > 1) {
		rc = cli_run(argc - 1, argv + 1);
		if (rc != CLI_NOT_A_COMMAND)
			return rc;
		if (strcmp(argv[1], "serve") == 0)
			first = 2;
	}
	if ((rc = config_from_args(&cfg, argc - first, argv + first)) >= 0)
		return rc;
	return serve(&cfg);
}
