/* Placeholder until the duskcourt engine lands; replaced by its benchmark. */
#include <stdio.h>

#include "bench.h"

int
bench_duskcourt(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "bench duskcourt: not written yet\n");
	return 1;
}
