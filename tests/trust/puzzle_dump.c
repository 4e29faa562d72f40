/*
 * puzzle_dump.c: prints N generated puzzles, one JSON object a line:
 * {"text": ..., "answer": ...}. The blind solver's test
 * (tests/e2e/test_puzzle_solver.py) reads them; the answers here come from
 * the generator, the solver never sees its tables.
 *
 * usage: puzzle_dump N [FIRST]   (seeds are FIRST, FIRST+1, ... as 32-byte
 * little-endian counters, so a run is reproducible)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <sodium.h>

#include "puzzle.h"

int
main(int argc, char **argv)
{
	unsigned long n, first, i;

	if (argc < 2 || sodium_init() < 0) {
		fprintf(stderr, "usage: puzzle_dump N [FIRST]\n");
		return 2;
	}
	n = strtoul(argv[1], NULL, 10);
	first = argc > 2 ? strtoul(argv[2], NULL, 10) : 0;
	for (i = 0; i < n; i++) {
		uint8_t seed[PUZZLE_SEED_BYTES] = { 0 };
		unsigned long k = first + i;
		struct puzzle p;
		json_t *o;
		char *line;
		size_t b;

		for (b = 0; b < sizeof k; b++)
			seed[b] = (uint8_t)(k >> (8 * b));
		puzzle_make(&p, seed);
		o = json_pack("{s:s, s:I}", "text", p.text, "answer", (json_int_t)p.answer);
		line = o ? json_dumps(o, JSON_COMPACT) : NULL;
		if (line == NULL)
			return 1;
		puts(line);
		free(line);
		json_decref(o);
	}
	return 0;
}
