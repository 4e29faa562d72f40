/*
 * bench_duskcourt.c: `bench duskcourt [DEALS_PER_RUNG [MAX_RUNG]]`: the time
 * to deal one Duskcourt court, per rung, on the calling thread. Each rung
 * deals DEALS_PER_RUNG courts (default 500) from distinct (seed, k) pairs
 * and reports the median, the 99th percentile and the worst time, plus how
 * many deals ended on the dealer's fallback court. The goal is a p99 under
 * 20 ms at every rung from 1 to 40.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "duskcourt.h"

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void
cpu_model(char *out, size_t cap)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[512];

	snprintf(out, cap, "unknown CPU");
	if (f == NULL)
		return;
	while (fgets(line, sizeof line, f) != NULL) {
		if (strncmp(line, "model name", 10) == 0) {
			char *v = strchr(line, ':');

			if (v != NULL) {
				v += 1 + (v[1] == ' ');
				v[strcspn(v, "\n")] = '\0';
				snprintf(out, cap, "%s", v);
			}
			break;
		}
	}
	fclose(f);
}

static bool
is_fallback(const struct duskcourt_court *c, uint32_t rung)
{
	struct duskcourt_court f;
	int m;

	for (m = 0; m < 2; m++)
		if (duskcourt_deal_fallback(&f, rung, m == 1) && memcmp(&f, c, sizeof f) == 0)
			return true;
	return false;
}

int
bench_duskcourt(int argc, char **argv)
{
	int per_rung = argc > 0 ? atoi(argv[0]) : 500, max_rung = argc > 1 ? atoi(argv[1]) : 40;
	struct duskcourt_solver *sv = malloc(sizeof *sv);
	double *ms = malloc(sizeof *ms * (size_t)(per_rung > 0 ? per_rung : 1)), worst_p99 = 0;
	char cpu[256], date[64];
	time_t now = time(NULL);
	int rung, i;

	if (sv == NULL || ms == NULL || per_rung < 1 || max_rung < 1) {
		fprintf(stderr, "usage: bench duskcourt [DEALS_PER_RUNG [MAX_RUNG]]\n");
		free(sv);
		free(ms);
		return 2;
	}
	duskcourt_solver_init(sv);
	cpu_model(cpu, sizeof cpu);
	strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
	printf("## Duskcourt deal time per rung\n\n");
	printf("Machine: %s, nproc %ld; %s; one thread; %d deals per rung.\n\n", cpu,
	    sysconf(_SC_NPROCESSORS_ONLN), date, per_rung);
	printf("| rung | size | idols | decoys | jackal | boulders | median ms | p99 ms | max ms | fallback |\n");
	printf("|---:|---:|---:|---:|:---:|---:|---:|---:|---:|---:|\n");
	for (rung = 1; rung <= max_rung; rung++) {
		struct duskcourt_rung row;
		int fallbacks = 0;
		double p99;

		duskcourt_ladder((uint32_t)rung, &row);
		for (i = 0; i < per_rung; i++) {
			struct duskcourt_court c;
			struct timespec t0, t1;
			uint64_t seed = (uint64_t)rung * 1000003u + (uint64_t)i * 7919u;

			clock_gettime(CLOCK_MONOTONIC, &t0);
			duskcourt_deal(&c, seed, (uint32_t)(i % 17), (uint32_t)rung, sv);
			clock_gettime(CLOCK_MONOTONIC, &t1);
			ms[i] = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
			fallbacks += is_fallback(&c, (uint32_t)rung);
		}
		qsort(ms, (size_t)per_rung, sizeof ms[0], cmp_double);
		p99 = ms[(per_rung * 99) / 100 < per_rung ? (per_rung * 99) / 100 : per_rung - 1];
		if (p99 > worst_p99)
			worst_p99 = p99;
		printf("| %d | %d | %d | %d | %s | %d | %.3f | %.3f | %.3f | %d |\n", rung, row.size,
		    row.idols, row.decoys, row.king_survives ? "yes" : "no", row.boulders,
		    ms[per_rung / 2], p99, ms[per_rung - 1], fallbacks);
		fflush(stdout);
	}
	printf("\nWorst p99: %.3f ms (goal: under 20 ms at every rung).\n", worst_p99);
	free(sv);
	free(ms);
	return 0;
}
