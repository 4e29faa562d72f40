/* Placeholder until the stackfall engine lands; replaced by its benchmark. */
#include <stdio.h>

#include "bench.h"

int
bench_stackfall(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "bench stackfall: not written yet\n");
	return 1;
}
