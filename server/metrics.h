/*
 * metrics.h: counters for GET /metrics in the Prometheus text format:
 * requests by route and status, a latency histogram per route, requests in
 * flight (read from the HTTP server) and the store's commit counters. All
 * updates are relaxed atomic adds: no lock on the request path.
 */
#ifndef SERVER_METRICS_H
#define SERVER_METRICS_H

#include <stddef.h>
#include <stdint.h>

struct metrics;
struct app;

/* nroutes labelled routes plus one "unmatched" slot. */
struct metrics *metrics_new(size_t nroutes);
void metrics_free(struct metrics *m);

/* route: index into the route table, or nroutes for unmatched. */
void metrics_observe(struct metrics *m, size_t route, int status, int64_t micros);

/* The exposition text (caller frees) or NULL. */
char *metrics_render(struct metrics *m, struct app *app, size_t *len);

#endif
