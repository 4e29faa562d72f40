/*
 * wells_oracle.c: the value table as a line protocol, for the end-to-end
 * test's bot that follows the solved strategy (tests/e2e/test_wells.py).
 * It builds its own tables with the engine, apart from the daemon's.
 *
 * Each input line is one question, each answer one line:
 *   value W H R0 .. R(H-1)        -> the well's value (255: never; 0: not reachable)
 *   best W H P R0 .. R(H-1)       -> "ID V": the landing of piece P (a letter) of
 *                                    least value after it (0 for one that completes a
 *                                    row), the first in the engine's order on a tie
 * rows top first as bit masks (bit c = column c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wells.h"

static struct wells_table tables[WELLS_NSIZES];

static const struct wells_table *
table(unsigned w, unsigned h)
{
	int k = wells_size_index(w, h);
	size_t bytes;
	void *mem;

	if (k < 0)
		return NULL;
	if (!tables[k].built) {
		bytes = wells_table_bytes(wells_sizes[k].room);
		if ((mem = calloc(1, bytes)) == NULL ||
		    wells_table_build(&tables[k], w, h, mem, bytes) != WELLS_BUILT)
			return NULL;
	}
	return &tables[k];
}

int
main(void)
{
	char line[512];

	while (fgets(line, sizeof line, stdin) != NULL) {
		char cmd[16], piece[4] = "";
		unsigned w, h, i;
		uint16_t rows[WELLS_H_MAX] = { 0 };
		const struct wells_table *t;
		char *p = line;
		int used;

		if (sscanf(p, "%15s %u %u%n", cmd, &w, &h, &used) != 3 || (t = table(w, h)) == NULL) {
			printf("error\n");
			fflush(stdout);
			continue;
		}
		p += used;
		if (strcmp(cmd, "best") == 0 && sscanf(p, "%3s%n", piece, &used) == 1)
			p += used;
		for (i = 0; i < h; i++) {
			unsigned v;

			if (sscanf(p, "%u%n", &v, &used) != 1)
				break;
			rows[i] = (uint16_t)v;
			p += used;
		}
		if (strcmp(cmd, "value") == 0) {
			printf("%u\n", wells_value(t, rows));
		} else {
			struct wells_landing l[WELLS_LANDINGS_MAX];
			int pc = whowins_piece_from_letter(piece[0]);
			size_t n = pc < 0 ? 0 : wells_landings(w, h, rows, (unsigned)pc, l, WELLS_LANDINGS_MAX), k;
			size_t best = 0;
			unsigned bestv = 1000;

			for (k = 0; k < n; k++) {
				uint16_t after[WELLS_H_MAX];
				unsigned c, v;

				memcpy(after, rows, sizeof after);
				for (c = 0; c < 4; c++)
					after[l[k].cells[c][0] - WHOWINS_BUFFER] |= (uint16_t)(1u << l[k].cells[c][1]);
				v = l[k].line ? 0 : wells_value(t, after);
				if (v < bestv) {
					bestv = v;
					best = k;
				}
			}
			if (n == 0)
				printf("none\n");
			else
				printf("r%ux%uy%u %u\n", (unsigned)l[best].at.rot, l[best].x, l[best].y, bestv);
		}
		fflush(stdout);
	}
	return 0;
}
