/*
 * bench.c: the benchmark program. `bench NAME [ARGS]` runs one area's
 * benchmark on the calling thread and prints a Markdown table; figures are
 * recorded in tests/bench/RESULTS.md, never asserted by a test.
 */
#include <stdio.h>
#include <string.h>

#include "bench.h"

static const struct {
	const char *name;
	int (*run)(int, char **);
	const char *what;
} benches[] = {
	{ "stackfall", bench_stackfall, "options placements/s and random games/s" },
	{ "stackcraft", bench_stackcraft, "legal enumerations/s, placements evaluated/s, random games/s" },
	{ "duskcourt", bench_duskcourt, "deal time per rung (median, p99)" },
	{ "board", bench_board, "leaderboard and review queries on a database of a million runs" },
	{ "versus", bench_versus, "versus turns: resolve and move-check cost, Glicko-2 match" },
	{ "hatetris", bench_hatetris, "supplier decisions/s and decision time at depth 1 and 2" },
	{ "hatetris-classic", bench_hclassic, "keys/s, replay time of the longest record, supplier decisions/s" },
	{ "facts", bench_facts, "a run's seen boards: the writer's insert, the read into a set, a question" },
	{ "ratelimit", bench_ratelimit, "one rate-limit check, one thread and two" },
	{ "solve", bench_solve, "who wins the seed's bigger wells: positions, table, CPU time" },
};

int
main(int argc, char **argv)
{
	size_t i;

	if (argc >= 2) {
		for (i = 0; i < sizeof benches / sizeof benches[0]; i++)
			if (strcmp(argv[1], benches[i].name) == 0)
				return benches[i].run(argc - 2, argv + 2);
	}
	fprintf(stderr, "usage: bench NAME [ARGS]\n");
	for (i = 0; i < sizeof benches / sizeof benches[0]; i++)
		fprintf(stderr, "  %-10s %s\n", benches[i].name, benches[i].what);
	return 2;
}
