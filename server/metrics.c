/*
 * metrics.c: fixed arrays of atomic counters indexed by route and by a
 * small table of statuses; rendering walks them once. Statuses outside the
 * table are counted under their class ("2xx", "4xx", ...).
 */
#include "metrics.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static const int statuses[] = {
	200, 201, 202, 204, 400, 401, 403, 404, 405, 409, 410, 413, 415, 422, 428, 429, 500, 503
};
#define NSTATUS (sizeof statuses / sizeof statuses[0])
#define NSLOTS (NSTATUS + 6) /* + 1xx..5xx catch-alls, + "none" (closed unanswered) */

/* Upper bounds of the latency buckets, in microseconds. */
static const int64_t bounds_us[] = {
	100, 250, 500, 1000, 2500, 5000, 10000, 25000, 50000, 100000, 250000, 1000000
};
#define NBOUNDS (sizeof bounds_us / sizeof bounds_us[0])

struct route_counters {
	_Atomic uint64_t by_status[NSLOTS];
	_Atomic uint64_t buckets[NBOUNDS + 1]; /* last: +Inf */
	_Atomic uint64_t sum_us;
};

struct metrics {
	size_t nroutes;
	const char *(*label)(size_t i);
	struct route_counters routes[]; /* nroutes + 1 */
};

struct metrics *
metrics_new(size_t count, const char *(*label)(size_t i))
{
	struct metrics *m = calloc(1, sizeof *m + (count + 1) * sizeof m->routes[0]);

	if (m != NULL) {
		m->nroutes = count;
		m->label = label;
	}
	return m;
}

void
metrics_free(struct metrics *m)
{
	free(m);
}

static size_t
status_slot(int status)
{
	size_t i;

	for (i = 0; i < NSTATUS; i++)
		if (statuses[i] == status)
			return i;
	if (status >= 100 && status < 600)
		return NSTATUS + (size_t)(status / 100 - 1);
	return NSTATUS + 5;
}

void
metrics_observe(struct metrics *m, size_t route, int status, int64_t micros)
{
	struct route_counters *rc;
	size_t b;

	if (m == NULL)
		return;
	if (route > m->nroutes)
		route = m->nroutes;
	rc = &m->routes[route];
	atomic_fetch_add_explicit(&rc->by_status[status_slot(status)], 1, memory_order_relaxed);
	for (b = 0; b < NBOUNDS && micros > bounds_us[b]; b++)
		;
	atomic_fetch_add_explicit(&rc->buckets[b], 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&rc->sum_us, micros > 0 ? (uint64_t)micros : 0, memory_order_relaxed);
}

struct buf {
	char  *p;
	size_t len, cap;
	int    failed;
};

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void
put(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->failed)
		return;
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
		va_end(ap);
		if (n < 0) {
			b->failed = 1;
			return;
		}
		if ((size_t)n < b->cap - b->len) {
			b->len += (size_t)n;
			return;
		}
		{
			size_t ncap = b->cap * 2 + (size_t)n;
			char *np = realloc(b->p, ncap);

			if (np == NULL) {
				b->failed = 1;
				return;
			}
			b->p = np;
			b->cap = ncap;
		}
	}
}

static const char *
route_label(struct metrics *m, size_t i)
{
	return m->label(i);
}

char *
metrics_render(struct metrics *m, const struct metrics_value *extra, size_t nextra, size_t *len)
{
	struct buf b = { malloc(16384), 0, 16384, 0 };
	size_t i, s, k;

	if (b.p == NULL)
		return NULL;
	put(&b, "# HELP arcaded_requests_total HTTP requests answered, by route and status.\n"
	    "# TYPE arcaded_requests_total counter\n");
	for (i = 0; i <= m->nroutes; i++)
		for (s = 0; s < NSLOTS; s++) {
			uint64_t v = atomic_load_explicit(&m->routes[i].by_status[s], memory_order_relaxed);
			char status[8];

			if (v == 0)
				continue;
			if (s < NSTATUS)
				snprintf(status, sizeof status, "%d", statuses[s]);
			else if (s < NSTATUS + 5)
				snprintf(status, sizeof status, "%dxx", (int)(s - NSTATUS + 1));
			else
				snprintf(status, sizeof status, "none");
			put(&b, "arcaded_requests_total{route=\"%s\",status=\"%s\"} %llu\n",
			    route_label(m, i), status, (unsigned long long)v);
		}
	put(&b, "# HELP arcaded_request_duration_seconds Time from the request's headers to its answer.\n"
	    "# TYPE arcaded_request_duration_seconds histogram\n");
	for (i = 0; i <= m->nroutes; i++) {
		struct route_counters *rc = &m->routes[i];
		uint64_t cum = 0;

		for (k = 0; k <= NBOUNDS; k++)
			cum += atomic_load_explicit(&rc->buckets[k], memory_order_relaxed);
		if (cum == 0)
			continue;
		cum = 0;
		for (k = 0; k <= NBOUNDS; k++) {
			cum += atomic_load_explicit(&rc->buckets[k], memory_order_relaxed);
			if (k < NBOUNDS)
				put(&b, "arcaded_request_duration_seconds_bucket{route=\"%s\",le=\"%g\"} %llu\n",
				    route_label(m, i), (double)bounds_us[k] / 1e6, (unsigned long long)cum);
			else
				put(&b, "arcaded_request_duration_seconds_bucket{route=\"%s\",le=\"+Inf\"} %llu\n",
				    route_label(m, i), (unsigned long long)cum);
		}
		put(&b, "arcaded_request_duration_seconds_sum{route=\"%s\"} %.6f\n", route_label(m, i),
		    (double)atomic_load_explicit(&rc->sum_us, memory_order_relaxed) / 1e6);
		put(&b, "arcaded_request_duration_seconds_count{route=\"%s\"} %llu\n", route_label(m, i),
		    (unsigned long long)cum);
	}
	for (i = 0; i < nextra; i++) {
		const struct metrics_value *v = &extra[i];

		/* Lines of one name share their HELP and TYPE. */
		if (i == 0 || strcmp(extra[i - 1].name, v->name) != 0)
			put(&b, "# HELP %s %s\n# TYPE %s %s\n", v->name, v->help, v->name, v->type);
		put(&b, "%s%s%s%s %.17g\n", v->name, v->labels ? "{" : "", v->labels ? v->labels : "",
		    v->labels ? "}" : "", v->value);
	}
	if (b.failed) {
		free(b.p);
		return NULL;
	}
	*len = b.len;
	return b.p;
}
