/*
 * handlers_ops.c: what operators and load balancers ask. /healthz answers
 * as long as the process serves HTTP; /readyz proves the database takes a
 * write and carries the schema this binary expects; /metrics is text.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "arcaded_version.h"
#include "defer.h"
#include "handlers.h"
#include "holds.h"
#include "quota.h"
#include "match_live.h"
#include "match_play.h"
#include "metrics.h"
#include "migrations.h"
#include "store.h"
#include "sweeper.h"
#include "throttle.h"
#include "workers.h"

void
handle_healthz(struct request *req)
{
	request_reply_json(req, 200, json_pack("{s:s, s:s}", "status", "ok",
	    "version", ARCADED_VERSION));
}

static void
readyz_done(struct request *req)
{
	if (!defer_committed(req)) {
		if (store_disk_full(req->app->store)) {
			request_reply_later(req, API_ERR_STORAGE_FULL, "30", "the database's disk is full: no write "
			    "commits until space is freed");
		} else if (!store_reachable(req->app->store) ||
		    req->resumed_status == STORE_JOB_OUTCOME_UNKNOWN) {
			request_reply_later(req, API_ERR_DATABASE_UNAVAILABLE, "1", "no writable database "
			    "could be reached");
		} else
			request_reply_error(req, API_ERR_NOT_READY, "the database does not take writes");
		return;
	}
	request_reply_json(req, 200, json_pack("{s:s, s:i}", "status", "ready",
	    "schema", store_schema_version(req->app->store)));
}

/* At most one probe of the database's return queued by /readyz at a
 * time (a load balancer asks often). */
static atomic_bool probe_queued;

static void
probe_done(struct store_job *job)
{
	free(job);
	atomic_store(&probe_queued, false);
}

void
handle_readyz(struct request *req)
{
	if (store_schema_version(req->app->store) != nmigrations) {
		request_reply_error(req, API_ERR_NOT_READY, "the database is not migrated");
		return;
	}
	/* Known unreachable: answered at once, and a probe queued without
	 * waiting for it, so that a daemon taken out of rotation notices the
	 * database is back (the writer reconnects for it). */
	if (!store_reachable(req->app->store)) {
		struct store_job *probe;

		if (!atomic_exchange(&probe_queued, true)) {
			if ((probe = calloc(1, sizeof *probe)) != NULL) {
				probe->run = store_probe;
				probe->done = probe_done;
				store_submit(req->app->store, probe);
			} else
				atomic_store(&probe_queued, false);
		}
		request_reply_later(req, API_ERR_DATABASE_UNAVAILABLE, "1", "no writable database could be "
		    "reached");
		return;
	}
	defer_to_store(req, store_probe, NULL, readyz_done);
}

void
handle_metrics(struct request *req)
{
	struct store_stats ss;
	struct match_play_stats ms;
	struct match_live_stats ls;
	struct holds_stats hs;
	struct quota_stats qs;
	uint64_t open, refused, timed_out, shed, puzzles, runs, lobbies;
	size_t len = 0;
	char *text;

	if (!request_client_in(req, req->app->cfg->metrics_allow, req->app->cfg->nmetrics_allow)) {
		request_reply_error(req, API_ERR_FORBIDDEN, "/metrics is served only to the client ranges "
		    "the operator names with --metrics-allow (loopback by default)");
		return;
	}
	store_stats(req->app->store, &ss);
	match_play_stats(req->app->matches, &ms);
	match_live_stats(match_play_live(req->app->matches), &ls);
	http_connection_stats(req->app->http, &open, &refused, &timed_out, &shed);
	holds_stats(req->app->holds, &hs);
	quota_stats(req->app->quota, &qs);
	sweeper_counts(req->app->sweeper, &puzzles, &runs, &lobbies);
	{
		const struct metrics_value extra[] = {
			{ "arcaded_build_info", "The running build (always 1).", "gauge",
			    "version=\"" ARCADED_VERSION "\"", 1 },
			{ "arcaded_requests_in_flight", "Requests received and not yet answered.", "gauge",
			    NULL, (double)http_in_flight(req->app->http) },
			{ "arcaded_connections_open", "Client connections open now.", "gauge", NULL, (double)open },
			{ "arcaded_connections_refused_total",
			    "Connections refused because their address held its whole quota.", "counter", NULL,
			    (double)refused },
			{ "arcaded_connections_timed_out_total",
			    "Connections cut because a request did not arrive whole within --request-timeout.",
			    "counter", NULL, (double)timed_out },
			{ "arcaded_connections_shed_total",
			    "Connections answered 503 and closed: the daemon held --connection-limit already.",
			    "counter", NULL, (double)shed },
			{ "arcaded_refusals_held_total",
			    "Rate-limit refusals of requests with a body answered --refusal-hold-ms late.",
			    "counter", NULL, (double)http_refusals_held(req->app->http) },
			{ "arcaded_forwarded_untrusted_total",
			    "Requests whose X-Forwarded-For was ignored: their peer is no --trusted-proxy.",
			    "counter", NULL, (double)http_untrusted_forwarded(req->app->http) },
			{ "arcaded_held_requests", "Long polls and event streams held now, as counted per client.",
			    "gauge", "kind=\"long_poll\"", (double)hs.held[HOLDS_WAIT] },
			{ "arcaded_held_requests", "Long polls and event streams held now, as counted per client.",
			    "gauge", "kind=\"stream\"", (double)hs.held[HOLDS_STREAM] },
			{ "arcaded_held_refused_total",
			    "Long polls and event streams refused 429: their client, /56 or account held its share.",
			    "counter", "kind=\"long_poll\"", (double)hs.refused[HOLDS_WAIT] },
			{ "arcaded_held_refused_total",
			    "Long polls and event streams refused 429: their client, /56 or account held its share.",
			    "counter", "kind=\"stream\"", (double)hs.refused[HOLDS_STREAM] },
			{ "arcaded_quota_refused_total",
			    "Requests refused 429 quota_exceeded: their address, /56 or account stored its day's share.",
			    "counter", "class=\"runs\"", (double)qs.refused[QUOTA_RUNS] },
			{ "arcaded_quota_refused_total",
			    "Requests refused 429 quota_exceeded: their address, /56 or account stored its day's share.",
			    "counter", "class=\"reviews\"", (double)qs.refused[QUOTA_REVIEWS] },
			{ "arcaded_quota_refused_total",
			    "Requests refused 429 quota_exceeded: their address, /56 or account stored its day's share.",
			    "counter", "class=\"matches\"", (double)qs.refused[QUOTA_MATCHES] },
			{ "arcaded_quota_shared_total",
			    "Quota charges that found no room for their key and went to a shared entry.",
			    "counter", NULL, (double)qs.shared },
			{ "arcaded_verify_queue", "Replay verifications waiting for a worker.", "gauge", NULL,
			    (double)workers_waiting(req->app->verify) },
			{ "arcaded_retention_deleted_total", "Rows the retention sweep deleted.", "counter",
			    "kind=\"puzzles\"", (double)puzzles },
			{ "arcaded_retention_deleted_total", "Rows the retention sweep deleted.", "counter",
			    "kind=\"unplayed_runs\"", (double)runs },
			{ "arcaded_retention_deleted_total", "Rows the retention sweep deleted.", "counter",
			    "kind=\"lobbies\"", (double)lobbies },
			{ "arcaded_store_commits_total", "Write transactions committed.", "counter", NULL,
			    (double)ss.commits },
			{ "arcaded_store_jobs_total", "Write jobs run (several share a commit).", "counter",
			    NULL, (double)ss.jobs },
			{ "arcaded_store_commit_failures_total", "Transactions that could not commit.",
			    "counter", NULL, (double)ss.commit_failures },
			{ "arcaded_store_max_batch", "The most jobs committed in one transaction.", "gauge",
			    NULL, (double)ss.max_batch },
			{ "arcaded_store_backend", "The store's backend (always 1).", "gauge",
			    ss.postgres ? "backend=\"postgresql\"" : "backend=\"sqlite\"", 1 },
			{ "arcaded_store_queue_depth", "Write jobs submitted and not yet done.", "gauge", NULL,
			    (double)ss.queue_depth },
			{ "arcaded_store_readers", "Read connections in the pool.", "gauge", NULL,
			    (double)ss.readers },
			{ "arcaded_store_readers_busy", "Read connections lent out now.", "gauge", NULL,
			    (double)ss.readers_busy },
			{ "arcaded_store_reader_waits_total", "Times a thread waited for a free read connection.",
			    "counter", NULL, (double)ss.reader_waits },
			{ "arcaded_store_retries_total",
			    "Write batches run again after a deadlock, a serialization failure or a lost "
			    "connection (PostgreSQL).", "counter", NULL, (double)ss.retries },
			{ "arcaded_store_connection_errors_total", "Database connections found lost (PostgreSQL).",
			    "counter", NULL, (double)ss.conn_errors },
			{ "arcaded_store_reachable",
			    "0 while the database cannot be reached (PostgreSQL: no writable primary within "
			    "--db-retry-seconds; requests get 503 database_unavailable), else 1.", "gauge", NULL,
			    store_reachable(req->app->store) ? 1.0 : 0.0 },
			{ "arcaded_store_checkpoints_total", "WAL checkpoints that restarted the WAL (SQLite).",
			    "counter", NULL, (double)ss.checkpoints },
			{ "arcaded_store_checkpoint_busy_total",
			    "Checkpoints that found readers in the way; the WAL goes on (SQLite).", "counter",
			    NULL, (double)ss.checkpoint_busy },
			{ "arcaded_store_checkpoint_waits_total",
			    "Times the writer waited for a checkpoint: the WAL had passed 32 MiB (SQLite).",
			    "counter", NULL, (double)ss.checkpoint_waits },
			{ "arcaded_store_checkpoint_hold_seconds",
			    "How long the last checkpoint held the writer (SQLite).", "gauge", NULL,
			    (double)ss.checkpoint_hold_us / 1e6 },
			{ "arcaded_store_checkpoint_timestamp_seconds",
			    "When the last checkpoint finished, Unix time; 0: none yet (SQLite).", "gauge", NULL,
			    (double)ss.checkpoint_at_ms / 1e3 },
			{ "arcaded_store_wal_bytes", "Size of the write-ahead log file now (SQLite).", "gauge",
			    NULL, (double)ss.wal_bytes },
			{ "arcaded_match_turns_total", "Match turns resolved.", "counter", NULL,
			    (double)ms.turns },
			{ "arcaded_match_turns_by_deadline_total", "Of those, resolved by their deadline.",
			    "counter", NULL, (double)ms.by_deadline },
			{ "arcaded_match_timers", "Deadlines and long-poll timeouts pending.", "gauge", NULL,
			    (double)ms.timers },
			{ "arcaded_match_waiters", "Long polls waiting for a match to move.", "gauge", NULL,
			    (double)ms.waiters },
			{ "arcaded_match_streams", "Match event streams open.", "gauge", NULL,
			    (double)ms.streams },
			{ "arcaded_match_streams_refused_total", "Event streams refused: all taken.", "counter",
			    NULL, (double)ms.streams_refused },
			{ "arcaded_match_streams_dropped_total", "Event streams ended: their reader fell behind.",
			    "counter", NULL, (double)ms.streams_dropped },
			{ "arcaded_match_held_gone_total",
			    "Long polls and event streams let go because their client had closed the connection.",
			    "counter", NULL, (double)ms.gone },
			{ "arcaded_live_matches", "Real-time matches the tick host plays now.", "gauge", NULL,
			    (double)ls.matches },
			{ "arcaded_live_ticks_total", "Ticks run by the tick host.", "counter", NULL,
			    (double)ls.ticks },
			{ "arcaded_live_ticks_late_total", "Of those, run a whole tick (1/60 s) or more after "
			    "their time.", "counter", NULL, (double)ls.late_ticks },
			{ "arcaded_live_inputs_total", "Real-time inputs applied and recorded.", "counter", NULL,
			    (double)ls.inputs },
			{ "arcaded_live_disconnects_total", "Seats out of a real-time match: no stream for 2 s.",
			    "counter", NULL, (double)ls.disconnects },
			{ "arcaded_live_store_jobs_total", "Store jobs of recorded inputs.", "counter", NULL,
			    (double)ls.flushes },
			{ "arcaded_live_store_failures_total", "Of those (and the ends), failed: tried again.",
			    "counter", NULL, (double)ls.flush_failures },
		};
		/* The ticks by lateness, cumulative (a histogram's buckets). */
		static const char *const le[12] = { "le=\"0.0001\"", "le=\"0.0002\"", "le=\"0.0005\"",
			"le=\"0.001\"", "le=\"0.002\"", "le=\"0.005\"", "le=\"0.01\"", "le=\"0.02\"",
			"le=\"0.05\"", "le=\"0.1\"", "le=\"0.2\"", "le=\"+Inf\"" };
		double below = 0;

		struct metrics_value all[sizeof extra / sizeof extra[0] + RATELIMIT_NCLASSES * RATELIMIT_NSCOPES +
		    12];
		char labels[RATELIMIT_NCLASSES * RATELIMIT_NSCOPES][64];
		size_t n = sizeof extra / sizeof extra[0];
		int c, sc;

		memcpy(all, extra, sizeof extra);
		for (c = 0; c < 12; c++) {
			below += (double)ls.lateness_us[c];
			all[n++] = (struct metrics_value){ "arcaded_live_tick_lateness_seconds_bucket",
			    "Ticks run by how late after their time, cumulative.", "counter", le[c], below };
		}
		for (c = 0; c < RATELIMIT_NCLASSES; c++)
			for (sc = 0; sc < RATELIMIT_NSCOPES; sc++) {
				snprintf(labels[c * RATELIMIT_NSCOPES + sc], sizeof labels[0],
				    "class=\"%s\",key=\"%s\"", ratelimit_class_name((enum ratelimit_class)c),
				    sc == RATELIMIT_BY_ADDR ? "address" : "account");
				all[n++] = (struct metrics_value){ "arcaded_ratelimit_refused_total",
				    "Requests refused 429 by a rate limit, by class and key.", "counter",
				    labels[c * RATELIMIT_NSCOPES + sc], (double)throttle_refused(req->app->throttle,
				    (enum ratelimit_class)c, (enum ratelimit_scope)sc) };
			}
		text = metrics_render(req->app->metrics, all, n, &len);
	}

	if (text == NULL) {
		request_reply_error(req, API_ERR_INTERNAL, NULL);
		return;
	}
	request_reply_text(req, 200, "text/plain; version=0.0.4; charset=utf-8", text, len);
	free(text);
}
