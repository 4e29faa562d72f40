/*
 * holes_tool.c: the C side of holes_cpython.py. Reads lines "SEED K COUNT"
 * on stdin and prints versus_garbage_hole(SEED, K .. K + COUNT - 1) as one
 * string of digits per line. `holes_tool skip WHY` prints a TAP plan that
 * skips everything (no python3).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "versus.h"

int
main(int argc, char **argv)
{
	char line[256];
	uint64_t seed;
	uint32_t k, count, i;

	if (argc == 3 && strcmp(argv[1], "skip") == 0) {
		printf("1..0 # SKIP %s\n", argv[2]);
		return 0;
	}
	while (fgets(line, sizeof line, stdin) != NULL) {
		if (sscanf(line, "%" SCNu64 " %" SCNu32 " %" SCNu32, &seed, &k, &count) != 3)
			return 2;
		for (i = 0; i < count; i++)
			putchar('0' + (int)versus_garbage_hole(seed, k + i));
		putchar('\n');
	}
	return 0;
}
