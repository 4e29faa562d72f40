/*
 * workers.h: a small pool of threads for requests that cost milliseconds
 * of CPU (verifying a long replay re-plays every move), so that they never
 * hold an HTTP thread: the request is suspended while a worker runs its
 * task, and resumed to answer. The queue is bounded; a request that finds
 * it full is refused at once (503 busy with Retry-After) rather than
 * waiting, so a flood of expensive requests costs the daemon at most its
 * workers' time and never slows /healthz.
 */
#ifndef SERVER_WORKERS_H
#define SERVER_WORKERS_H

#include <stdbool.h>

#include "http.h"

struct workers;

/* nthreads threads, at most queue_max tasks waiting. NULL on failure. */
struct workers *workers_new(unsigned nthreads, unsigned queue_max);

/* Suspends req and queues task(arg) for a worker; when it has run, cont(req)
 * answers on an HTTP thread. False (nothing queued, req untouched) when the
 * queue is full. arg must live until cont runs. */
bool workers_submit(struct workers *w, struct request *req, void (*task)(void *arg), void *arg,
    request_cont cont);

/* workers_submit, and when the queue is full the answer: 503 busy with
 * Retry-After: 1. what names the work in the message ("replay verifier"). */
void workers_submit_or_busy(struct workers *w, struct request *req, void (*task)(void *arg),
    void *arg, request_cont cont, const char *what);

/* Tasks waiting now (for /metrics). */
unsigned workers_waiting(struct workers *w);

/* Runs every queued task, stops the threads and frees the pool. NULL is
 * fine. */
void workers_free(struct workers *w);

#endif
