/*
 * defer.c: one small allocation per deferred request carries the store job
 * and the request it belongs to; the writer's done callback resumes the
 * request and frees it. The request itself knows nothing of the store.
 * Also what a request's internal error means while the store is out (the
 * router's outage, http.h).
 */
#include "defer.h"

#include <stdlib.h>

#include "app.h"

struct deferral {
	struct store_job job;
	struct request  *req;
};

static void
deferral_done(struct store_job *job)
{
	struct deferral *d = (struct deferral *)job;
	struct request *req = d->req;
	int status = (int)job->status;

	free(d);
	request_resume(req, status);
}

void
defer_to_store(struct request *req, store_fn run, void *arg, request_cont cont)
{
	struct deferral *d = calloc(1, sizeof *d);

	if (d == NULL) {
		request_reply_error(req, API_ERR_INTERNAL, "out of memory");
		return;
	}
	d->req = req;
	d->job.run = run;
	d->job.arg = arg;
	d->job.done = deferral_done;
	request_suspend(req, cont);
	store_submit(req->app->store, &d->job);
}

enum api_error
defer_outage(struct request *req)
{
	enum api_error e = API_ERR_INTERNAL;

	/* In this order: a full disk says the most, and a job whose COMMIT
	 * lost its connection is told to resend before the database is
	 * known to be away. */
	if (store_disk_full(req->app->store))
		e = API_ERR_STORAGE_FULL;
	else if (req->resumed_status == STORE_JOB_OUTCOME_UNKNOWN)
		e = API_ERR_OUTCOME_UNKNOWN;
	else if (!store_reachable(req->app->store))
		e = API_ERR_DATABASE_UNAVAILABLE;
	return e;
}
