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
#include "log.h"
#include "metrics.h"
#include "notify.h"
#include "routes.h"
#include "store.h"
#include "sweeper.h"
#include "workers.h"

/* How long requests in flight may take to finish after SIGTERM. */
#define DRAIN_MS 4000

static int
serve(const struct config *cfg)
{
	struct app app;
	struct keyfile kf;
	struct keyring kr;
	sigset_t sigs;
	char err[1024], url[160], dbname[512];
	bool created;
	int sig = 0, left;

	memset(&app, 0, sizeof app);
	app.cfg = cfg;
	log_set_level(cfg->log_level);

	/* Every thread started from here on inherits the blocked set, so the
	 * signals reach only sigwait() below. */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGINT);
	pthread_sigmask(SIG_BLOCK, &sigs, NULL);
	signal(SIGPIPE, SIG_IGN);

	if (keyfile_load_or_create(cfg->key_path, &kf, &created, err, sizeof err) != 0)
		fatal("%s", err);
	if (created)
		log_msg(LOG_INFO, "created key file %s", cfg->key_path);
	if (keyring_init(&kr, kf.pepper, (const uint8_t (*)[32])kf.keys, kf.nkeys) != 0)
		fatal("key file %s: cannot derive keys", cfg->key_path);
	keyfile_wipe(&kf);
	app.keys = &kr;
	app.store = store_open(cfg->db_path, cfg->sync, cfg->threads, err, sizeof err);
	if (app.store == NULL)
		fatal("%s", err);
	store_set_batch_limit(app.store, cfg->commit_batch);
	app.metrics = metrics_new(nroutes, routes_label);
	if (app.metrics == NULL)
		fatal("out of memory");
	app.verify = workers_new(cfg->verify_workers, cfg->verify_queue);
	if (app.verify == NULL)
		fatal("cannot start the replay verifiers");
	/* Retention: often enough that short retentions hold to a few seconds. */
	app.sweeper = sweeper_start(app.store, cfg->unplayed_retention,
	    cfg->unplayed_retention < 20 ? (cfg->unplayed_retention + 1) / 2 : 10);
	if (app.sweeper == NULL)
		fatal("cannot start the retention sweeper");
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

	while (sigwait(&sigs, &sig) != 0)
		;
	log_msg(LOG_INFO, "%s: shutting down", sig == SIGINT ? "SIGINT" : "SIGTERM");
	notify_stopping();
	atomic_store(&app.shutting_down, true);
	http_quiesce(app.http);
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
	metrics_free(app.metrics);
	keyring_wipe(&kr);
	notify_watchdog_stop();
	log_msg(LOG_INFO, "stopped");
	return 0;
}

int
main(int argc, char **argv)
{
	struct config cfg;
	int first = 1, rc;

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
