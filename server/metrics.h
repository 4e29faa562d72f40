/*
 * metrics.h: counters for GET /metrics in the Prometheus text format:
 * requests by route and status and a latency histogram per route, kept
 * here; every other figure (requests in flight, the store's counters) is
 * handed in by the caller when rendering. All updates are relaxed atomic
 * adds: no lock on the request path. Route labels come from the caller at
 * creation, so this module knows no route table.
 */
#ifndef SERVER_METRICS_H
#define SERVER_METRICS_H

#include <stddef.h>
#include <stdint.h>

struct metrics;

/* nroutes routes, route i labelled label(i), plus one "unmatched" slot
 * (labelled label(nroutes)). The labels must outlive the object. */
struct metrics *metrics_new(size_t nroutes, const char *(*label)(size_t i));
void metrics_free(struct metrics *m);

/* route: the route's index, or nroutes for unmatched. */
void metrics_observe(struct metrics *m, size_t route, int status, int64_t micros);

/* One more figure for the exposition: `name{labels} value` under its HELP
 * and TYPE lines (labels may be NULL). */
struct metrics_value {
	const char *name, *help, *type; /* type: "counter" or "gauge" */
	const char *labels;
	double      value;
};

/* The exposition text (caller frees) or NULL: the request counters, then
 * extra[0..nextra). */
char *metrics_render(struct metrics *m, const struct metrics_value *extra, size_t nextra,
    size_t *len);

#endif
