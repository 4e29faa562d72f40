/*
 * test_stackcraft_kat.c: known answers. Each line of the data file is one
 * game that kat_gen.py (a Python model of the rules, written from the rule
 * text, with CPython's own random.Random as the stream) played:
 *     seed|cap|pieces|lines|score|status|end|board_fnv|legal_fnv|ids
 * The engine replays the ids with stackcraft_step_id and must accept every
 * one, meet the same legal lists on the way (FNV-1a 64 over each list's ids,
 * landing rows and cells, 0xff after each list, the list after the last
 * move included) and end with the same counters, status, end and board
 * (FNV-1a 64 of the 200 colour ids, row y = 0 first).
 *
 * Usage: test_stackcraft_kat FILE
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stackcraft.h"
#include "tap.h"

#define FNV_START UINT64_C(0xcbf29ce484222325)

static uint64_t
fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	while (n-- > 0) {
		h ^= *b++;
		h *= UINT64_C(0x100000001b3);
	}
	return h;
}

static uint64_t
fold_legal(uint64_t h, const struct stackcraft *g)
{
	struct stackcraft_action a[STACKCRAFT_LEGAL_MAX];
	size_t n = stackcraft_legal(g, a, STACKCRAFT_LEGAL_MAX), i;
	unsigned char ff = 0xff;

	for (i = 0; i < n; i++) {
		h = fnv(h, a[i].id, 4);
		h = fnv(h, &a[i].y, 1);
		h = fnv(h, a[i].cells, 8);
	}
	return fnv(h, &ff, 1);
}

static void
check_line(char *line, int lineno)
{
	char *f[10], *p = line, *id, *save = NULL;
	struct stackcraft g;
	struct stackcraft_report rep;
	uint8_t board[STACKCRAFT_ROWS][STACKCRAFT_COLS];
	uint64_t legal_h = FNV_START, board_h;
	unsigned long long seed, cap;
	long moves = 0, refused = 0;
	const char *end;
	char hex[2][17];
	int k;

	for (k = 0; k < 10; k++) {
		f[k] = p;
		p = k < 9 ? strchr(p, '|') : NULL;
		if (k < 9 && p == NULL) {
			ok(0, "line %d has 10 fields", lineno);
			return;
		}
		if (p != NULL)
			*p++ = '\0';
	}
	f[9][strcspn(f[9], "\n")] = '\0';
	seed = strtoull(f[0], NULL, 10);
	cap = strtoull(f[1], NULL, 10);
	if (!ok(stackcraft_init(&g, seed, cap), "line %d: seed %llu cap %llu starts", lineno, seed,
	    cap))
		return;
	for (id = strtok_r(f[9], " ", &save); id != NULL; id = strtok_r(NULL, " ", &save)) {
		legal_h = fold_legal(legal_h, &g);
		if (stackcraft_step_id(&g, id, strlen(id), &rep) != STACKCRAFT_OK) {
			if (refused++ == 0)
				diag("move %ld (%s) refused: %s", moves + 1, id, rep.message);
		}
		moves++;
	}
	legal_h = fold_legal(legal_h, &g);
	stackcraft_board(&g, board);
	board_h = fnv(FNV_START, board, sizeof board);
	snprintf(hex[0], sizeof hex[0], "%016llx", (unsigned long long)board_h);
	snprintf(hex[1], sizeof hex[1], "%016llx", (unsigned long long)legal_h);
	end = stackcraft_end_name(g.end_reason);

	is_int(refused, 0, "seed %llu cap %llu: all %ld moves accepted", seed, cap, moves);
	ok(g.pieces == strtoull(f[2], NULL, 10) && g.lines == strtoull(f[3], NULL, 10) &&
	    g.score == strtoull(f[4], NULL, 10),
	    "seed %llu cap %llu: pieces %llu lines %llu score %llu (want %s %s %s)", seed, cap,
	    (unsigned long long)g.pieces, (unsigned long long)g.lines,
	    (unsigned long long)g.score, f[2], f[3], f[4]);
	ok(strcmp(stackcraft_status_name(g.status), f[5]) == 0 &&
	    strcmp(end != NULL ? end : "none", f[6]) == 0, "seed %llu cap %llu: %s, %s", seed, cap,
	    f[5], f[6]);
	is_str(hex[0], f[7], "seed %llu cap %llu: final board", seed, cap);
	is_str(hex[1], f[8], "seed %llu cap %llu: every legal list on the way", seed, cap);
}

int
main(int argc, char **argv)
{
	char line[16384];
	FILE *fp;
	int lineno = 0, cases = 0;

	if (argc < 2 || (fp = fopen(argv[1], "r")) == NULL) {
		ok(0, "open the data file");
		return tap_done();
	}
	while (fgets(line, sizeof line, fp) != NULL) {
		lineno++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (strchr(line, '\n') == NULL && !feof(fp)) {
			ok(0, "line %d fits the buffer", lineno);
			break;
		}
		check_line(line, lineno);
		cases++;
	}
	fclose(fp);
	ok(cases >= 20, "%d cases read", cases);
	return tap_done();
}
