/*
 * stream_tool.c: the C side of the comparison with CPython (stream_cpython.py).
 *
 *   stream_tool bags      reads lines "SEED FIRST_BAG NBAGS" on stdin and prints
 *                         each bag's letters, bags separated by spaces
 *   stream_tool random S N  prints N getrandbits(32) of Random(S), then N
 *                         random() of a fresh Random(S) with 17 digits
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bag.h"
#include "pyrandom.h"
#include "tetromino.h"

static int
bags(void)
{
	char line[256];
	uint64_t seed, first, count, b;
	uint8_t bag[BAG_SIZE];
	int i;

	while (fgets(line, sizeof line, stdin) != NULL) {
		if (sscanf(line, "%" SCNu64 " %" SCNu64 " %" SCNu64, &seed, &first, &count) != 3)
			return 2;
		for (b = first; b < first + count; b++) {
			bag_shuffle(seed, b, bag);
			for (i = 0; i < BAG_SIZE; i++)
				putchar(tetromino_letter(bag[i]));
			putchar(b + 1 < first + count ? ' ' : '\n');
		}
	}
	return 0;
}

static int
randoms(const char *s, long n)
{
	struct pyrandom r;
	long i;

	pyrandom_seed_string(&r, s);
	for (i = 0; i < n; i++)
		printf("%" PRIu32 "\n", pyrandom_uint32(&r));
	pyrandom_seed_string(&r, s);
	for (i = 0; i < n; i++)
		printf("%.17g\n", pyrandom_random(&r));
	return 0;
}

int
main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "bags") == 0)
		return bags();
	if (argc == 4 && strcmp(argv[1], "random") == 0)
		return randoms(argv[2], strtol(argv[3], NULL, 10));
	fprintf(stderr, "usage: stream_tool bags | random STRING N\n");
	return 2;
}
