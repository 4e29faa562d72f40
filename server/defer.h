/*
 * defer.h: handing a request's work to the store's writer. The request is
 * suspended (http.h) while its job waits in the writer's queue and runs in
 * a group commit; once the job is reported, the request resumes on an HTTP
 * thread with req->resumed_status set to the job's enum store_job_status,
 * and its continuation answers. A job's results are to be believed only
 * when that status is STORE_JOB_COMMITTED.
 */
#ifndef SERVER_DEFER_H
#define SERVER_DEFER_H

#include "http.h"
#include "store.h"

/* Runs run(c, arg) on the writer, then cont(req). When the job cannot even
 * be queued (out of memory) the request is answered 500 at once and cont
 * never runs. arg must stay valid until cont runs (the handler's context,
 * freed with the request, is the usual place). */
void defer_to_store(struct request *req, store_fn run, void *arg, request_cont cont);

/* What an internal error of req is while the store is out (the router's
 * outage, http.h): API_ERR_STORAGE_FULL while the database's disk is
 * full, API_ERR_OUTCOME_UNKNOWN when req's job lost its COMMIT's answer
 * (a resend learns the outcome), API_ERR_DATABASE_UNAVAILABLE while the
 * database cannot be reached; else API_ERR_INTERNAL. */
enum api_error defer_outage(struct request *req);

/* Whether the job of a resumed request committed. */
static inline bool
defer_committed(const struct request *req)
{
	return req->resumed_status == STORE_JOB_COMMITTED;
}

#endif
