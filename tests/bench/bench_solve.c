/*
 * bench_solve.c: `bench solve [MEMORY_MB] [CELL...]`, on the calling thread.
 *
 * The who-wins search (engine/whowins.h) on the bigger cells of the seed's
 * table. A cell is WxH, with a trailing d for drop-only (8x7d); by default
 * 8x6, 8x7, 10x5 and the same three drop-only. Each search runs once with a
 * table of MEMORY_MB (default 4096) from calloc, so pages are mapped only as
 * the table fills, and no budget: a cell that does not finish is stopped
 * from outside. Prints a Markdown table: winner, positions searched, table
 * entries, the memory the entries take, CPU seconds (CLOCK_PROCESS_CPUTIME_ID:
 * the machine is shared, wall time would count other jobs) and positions per
 * CPU second.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "whowins.h"

static double
cpu_seconds(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int
bench_solve(int argc, char **argv)
{
	static char *defaults[] = { "8x6", "10x5", "8x7", "8x6d", "10x5d", "8x7d" };
	size_t mb = argc > 0 ? (size_t)strtoul(argv[0], NULL, 10) : 4096;
	char **cells = argc > 1 ? argv + 1 : defaults;
	int ncells = argc > 1 ? argc - 1 : (int)(sizeof defaults / sizeof defaults[0]), i;
	struct whowins *s = malloc(sizeof *s);

	if (s == NULL || mb == 0)
		return 1;
	printf("| cell | movement | winner | positions | table entries | entries' memory | CPU s | positions/CPU s |\n");
	printf("|---|---|---|---|---|---|---|---|\n");
	for (i = 0; i < ncells; i++) {
		unsigned w, h;
		char d = 0, why[160];
		size_t bytes = mb << 20;
		void *mem;
		double t;
		enum whowins_result r;

		if (sscanf(cells[i], "%ux%u%c", &w, &h, &d) < 2) {
			fprintf(stderr, "bench solve: bad cell %s\n", cells[i]);
			return 2;
		}
		mem = calloc(1, bytes);
		if (mem == NULL || !whowins_init(s, w, h, d == 'd' ? WHOWINS_DROP : WHOWINS_FULL, mem, bytes,
		    why, sizeof why)) {
			fprintf(stderr, "bench solve: %s\n", mem ? why : "no memory");
			free(mem);
			return 1;
		}
		s->zeroed = true;
		t = cpu_seconds();
		r = whowins_solve(s, NULL);
		t = cpu_seconds() - t;
		printf("| %u x %u | %s | %s | %llu | %llu | %.1f MiB | %.2f | %.0f |\n", w, h,
		    d == 'd' ? "drop-only" : "full", whowins_result_name(r), (unsigned long long)s->nodes,
		    (unsigned long long)s->used, (double)s->used * s->slot_words * 8 / 1048576.0, t,
		    t > 0 ? (double)s->nodes / t : 0.0);
		fflush(stdout);
		free(mem);
	}
	free(s);
	return 0;
}
