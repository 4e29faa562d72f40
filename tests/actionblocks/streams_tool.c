/*
 * streams_tool.c: prints actionblocks-v1's seeded draws for
 * streams_cpython.py to compare with CPython's random.Random.
 *
 * stdin, one query a line: "piece SEED I N" (stream pieces I..I+N-1 as
 * letters), "hole SEED K N" (holes of blocks K..K+N-1 as digits), "items
 * SEED CHANCE W1..W6 SEAT I" (the 16-bit mino item codes of stream piece I
 * of SEAT, decimal), "odd SEED SEAT I" (the odd shape 0..4). One answer a
 * line on stdout.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "actionblocks.h"

int
main(void)
{
	char kind[16];
	uint64_t seed;
	unsigned a, b, c, w[6], k;
	struct ab_match m;

	while (scanf("%15s %" SCNu64, kind, &seed) == 2) {
		if (strcmp(kind, "piece") == 0 && scanf("%u %u", &a, &b) == 2) {
			for (k = 0; k < b; k++)
				putchar("IOTSZJL"[ab_stream_piece(seed, a + k)]);
			putchar('\n');
		} else if (strcmp(kind, "hole") == 0 && scanf("%u %u", &a, &b) == 2) {
			for (k = 0; k < b; k++)
				putchar('0' + (int)ab_garbage_hole(seed, a + k));
			putchar('\n');
		} else if (strcmp(kind, "items") == 0 &&
		    scanf("%u %u %u %u %u %u %u %u %u", &c, &w[0], &w[1], &w[2], &w[3], &w[4], &w[5],
		    &a, &b) == 9) {
			uint8_t weights[AB_ITEM_KINDS];

			for (k = 0; k < AB_ITEM_KINDS; k++)
				weights[k] = (uint8_t)w[k];
			if (!ab_init(&m, seed, 8, AB_CLOCK_TICKS, c, weights)) {
				printf("bad\n");
				continue;
			}
			printf("%u\n", (unsigned)ab_item_roll(&m, a, b));
		} else if (strcmp(kind, "odd") == 0 && scanf("%u %u", &a, &b) == 2) {
			printf("%u\n", ab_odd_roll(seed, a, b));
		} else {
			printf("bad\n");
			return 1;
		}
	}
	return 0;
}
