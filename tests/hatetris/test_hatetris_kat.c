/*
 * test_hatetris_kat.c: known answers. Each line of the data file is one
 * run: its depth and cap, the pieces the supplier handed out (the first
 * piece, then one after every placement), the final lines, pieces and end,
 * the number of refused commands, and the commands sent, separated by ';'
 * in the spellings a bot might use (place R C, R C, options, preview R C,
 * and some that are refused: out of range, not fitting, not commands).
 *
 * The data file was written once by `test_ht_kat --generate`, which plays
 * fixed placement policies against the naive model of naive.h alone (no
 * engine code runs when generating): so every expected piece comes from an
 * implementation written from the rule text, not from the engine. The test
 * replays the commands through stackfall_cmd_parse (requests of at most 50)
 * against the engine, whose oracle is the list of board keys after every
 * placement, and compares.
 *
 * Usage: test_ht_kat FILE
 *        test_ht_kat --generate
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hatetris.h"
#include "naive.h"
#include "stackfall_cmd.h"
#include "tap.h"

#define LINE_MAX 65536

/* ---- generating, with the model alone ---- */

enum policy { LEFT, RIGHT, LOW, FLAT, GREEDY, POLICIES };
static const char *const policy_names[] = { "left", "right", "low", "flat", "greedy" };

/* The greedy policy's noise: a fixed generator, seeded per run. */
static uint32_t noise_state;

static uint32_t
noise(void)
{
	noise_state = noise_state * 1103515245u + 12345u;
	return noise_state >> 16;
}

/* Holes (empty cells under a column's highest filled cell) and
 * bumpiness (height differences of neighbouring columns). */
static int
nv_holes(const struct nv_board *b, int *bump)
{
	int r, c, top, n = 0, h[NV_COLS];

	*bump = 0;
	for (c = 0; c < NV_COLS; c++) {
		for (top = NV_ROWS - 1; top >= 0 && b->cells[top][c] == 0; top--)
			;
		h[c] = top + 1;
		for (r = 0; r < top; r++)
			n += b->cells[r][c] == 0;
		if (c > 0)
			*bump += h[c] > h[c - 1] ? h[c] - h[c - 1] : h[c - 1] - h[c];
	}
	return n;
}

/* The placement a policy makes; returns 0 when none is legal. */
static int
policy_move(enum policy pol, const struct nv_game *g, int *rot, int *col)
{
	struct nv_board after;
	long v, best = 0;
	int r, c, cc, n, found = 0, bump;

	for (r = 0; r < 4; r++)
		for (cc = 0; cc < NV_COLS; cc++) {
			c = pol == RIGHT ? NV_COLS - 1 - cc : cc;
			n = nv_place(&g->board, g->current, r, c, &after);
			if (n < 0)
				continue;
			switch (pol) {
			case LEFT:
			case RIGHT:
				v = 0;
				break;
			case LOW:
				v = -nv_rating(&after);
				break;
			case FLAT:
				v = 100L * nv_holes(&after, &bump) - nv_rating(&after);
				break;
			default:
				v = 20L * nv_holes(&after, &bump) - 4L * nv_rating(&after) + 3L * bump -
				    60L * n + (long)(noise() % 12);
				break;
			}
			if (!found || v < best) {
				best = v;
				*rot = r;
				*col = c;
				found = 1;
			}
		}
	return found;
}

static void
generate(void)
{
	static const struct {
		int depth;
		long cap;
		enum policy pol;
		uint32_t seed;
	} runs[] = {
		{ 1, 0, LEFT, 0 }, { 1, 0, RIGHT, 0 }, { 1, 0, LOW, 0 }, { 1, 0, FLAT, 0 },
		{ 1, 1, LEFT, 0 }, { 1, 12, GREEDY, 1 }, { 1, 0, GREEDY, 1 }, { 1, 0, GREEDY, 2 },
		{ 1, 0, GREEDY, 3 }, { 1, 0, GREEDY, 4 }, { 1, 0, GREEDY, 5 }, { 1, 0, GREEDY, 6 },
		{ 1, 0, GREEDY, 7 }, { 1, 0, GREEDY, 8 }, { 2, 0, LEFT, 0 }, { 2, 9, LOW, 0 },
		{ 2, 0, GREEDY, 1 }, { 2, 0, GREEDY, 2 }, { 2, 0, GREEDY, 3 },
	};
	static char commands[LINE_MAX], supplied[8192];
	static const char *const refused_cmds[] = { "place 4 0", "0 10", "bogus", "place 1" };
	struct nv_game g;
	struct nv_board scratch;
	size_t k, clen, slen;
	int rot, col, step, refused, n;
	char buf[64];

	printf("# HATETRIS known answers, written by test_ht_kat --generate from the naive\n");
	printf("# model alone (policies:");
	for (k = 0; k < POLICIES; k++)
		printf(" %s", policy_names[k]);
	printf(").\n# depth|cap|supplied|lines|pieces|end|refused|commands\n");
	for (k = 0; k < sizeof runs / sizeof runs[0]; k++) {
		noise_state = runs[k].seed;
		nv_game_init(&g, runs[k].depth, runs[k].cap);
		clen = 0;
		slen = 0;
		refused = 0;
		supplied[slen++] = g.current;
		for (step = 0; g.end == NULL; step++) {
			if (step % 7 == 3) {
				/* Every 14 steps a command that is always refused (out of
				 * range, unknown, incomplete); in between options, or a
				 * preview the model refuses when 0 0 does not fit. */
				const char *extra = step % 14 == 3 ? refused_cmds[step / 14 % 4]
				    : step % 21 == 10 ? "options" : "preview 0 0";

				if (step % 14 == 3)
					refused++;
				else if (strcmp(extra, "preview 0 0") == 0 &&
				    nv_place(&g.board, g.current, 0, 0, &scratch) < 0)
					refused++;
				clen += (size_t)snprintf(commands + clen, sizeof commands - clen, "%s;",
				    extra);
			}
			if (!policy_move(runs[k].pol, &g, &rot, &col))
				break;
			/* spellings vary as a bot's would */
			snprintf(buf, sizeof buf, step % 3 == 0 ? "place %d %d;" : step % 3 == 1 ?
			    "%d %d;" : "Place  %d  %d;", rot, col);
			clen += (size_t)snprintf(commands + clen, sizeof commands - clen, "%s", buf);
			n = nv_game_place(&g, rot, col);
			if (n < 0)
				abort();
			supplied[slen++] = g.current;
		}
		supplied[slen] = '\0';
		if (clen > 0)
			commands[clen - 1] = '\0';
		printf("%d|%ld|%s|%ld|%ld|%s|%d|%s\n", runs[k].depth, runs[k].cap, supplied, g.lines,
		    g.pieces, g.end, refused, commands);
		fflush(stdout);
		nv_game_free(&g);
	}
}

/* ---- checking the engine ---- */

struct keys {
	uint8_t k[8192][HATETRIS_KEY_BYTES];
	size_t n;
};

static bool
keys_seen(void *ctx, const uint8_t key[HATETRIS_KEY_BYTES])
{
	const struct keys *s = ctx;
	size_t i;

	for (i = 0; i < s->n; i++)
		if (memcmp(s->k[i], key, HATETRIS_KEY_BYTES) == 0)
			return true;
	return false;
}

static struct keys keys;
static struct stackfall_cmd cmds[STACKFALL_CMD_MAX];

/* Runs one command; returns 1 when it was accepted. */
static int
run_one(struct hatetris *g, const struct stackfall_cmd *cmd, char *supplied, size_t *slen)
{
	struct tetromino_option opts[HATETRIS_OPTIONS_MAX];
	struct tetromino_preview pv;
	struct hatetris before = *g;
	size_t count;

	switch (cmd->kind) {
	case STACKFALL_CMD_PLACE:
		if (hatetris_place(g, cmd->rotation, cmd->column, keys_seen, &keys, NULL) !=
		    HATETRIS_OK)
			return memcmp(g, &before, sizeof *g) == 0 ? 0 : -1;
		hatetris_board_key(&g->board, keys.k[keys.n++]);
		supplied[(*slen)++] = tetromino_letter(g->current);
		return 1;
	case STACKFALL_CMD_OPTIONS:
		return hatetris_options(g, opts, HATETRIS_OPTIONS_MAX, &count, NULL) == HATETRIS_OK;
	case STACKFALL_CMD_PREVIEW:
		return hatetris_preview(g, cmd->rotation, cmd->column, &pv, NULL) == HATETRIS_OK;
	default:
		return 0; /* invalid text, hold, resign: not HATETRIS commands */
	}
}

static void
check(const char *path)
{
	static char line[LINE_MAX], supplied[8192], want_supplied[8192], want_end[32];
	FILE *f = fopen(path, "r");
	struct hatetris g;
	int depth, want_refused, refused, nline = 0, res, bad;
	long cap, want_lines, want_pieces;
	char *p, *text, *start, *end;
	size_t slen, n, i, ncmd;

	if (f == NULL) {
		ok(0, "open %s", path);
		return;
	}
	while (fgets(line, sizeof line, f) != NULL) {
		if (line[0] == '#' || line[0] == '\n')
			continue;
		line[strcspn(line, "\n")] = '\0';
		nline++;
		if (sscanf(line, "%d|%ld|%8191[^|]|%ld|%ld|%31[^|]|%d|", &depth, &cap, want_supplied,
		    &want_lines, &want_pieces, want_end, &want_refused) != 7) {
			ok(0, "line %d reads", nline);
			continue;
		}
		for (p = line, i = 0; i < 7 && p != NULL; i++)
			p = strchr(p, '|') != NULL ? strchr(p, '|') + 1 : NULL;
		text = p != NULL ? p : line + strlen(line);

		keys.n = 0;
		hatetris_init(&g, (unsigned)depth, (uint32_t)cap, keys_seen, &keys);
		slen = 0;
		supplied[slen++] = tetromino_letter(g.current);
		refused = 0;
		bad = 0;
		/* requests of at most 50 commands, cut at a ';' */
		for (start = text; *start != '\0'; start = *end == '\0' ? end : end + 1) {
			for (end = start, n = 0; *end != '\0'; end++)
				if (*end == ';' && ++n == STACKFALL_CMD_MAX)
					break;
			if (stackfall_cmd_parse(start, (size_t)(end - start), cmds, STACKFALL_CMD_MAX,
			    &ncmd) != STACKFALL_PARSE_OK) {
				bad = 1;
				break;
			}
			for (i = 0; i < ncmd; i++) {
				res = run_one(&g, &cmds[i], supplied, &slen);
				if (res < 0)
					bad = 1;
				refused += res == 0;
			}
		}
		supplied[slen] = '\0';
		ok(!bad && strcmp(supplied, want_supplied) == 0 && g.lines == want_lines &&
		    g.pieces == want_pieces && g.status == HATETRIS_OVER &&
		    strcmp(hatetris_end_name(g.end_reason), want_end) == 0 && refused == want_refused,
		    "run %d (depth %d, cap %ld): %zu pieces supplied as the model did, %ld lines, "
		    "%s, %d refused", nline, depth, cap, slen, want_lines, want_end, want_refused);
		if (strcmp(supplied, want_supplied) != 0) {
			for (i = 0; supplied[i] == want_supplied[i]; i++)
				;
			diag("first difference at piece %zu: %c, expected %c", i, supplied[i],
			    want_supplied[i]);
		}
		if (nline == 1)
			is_int(supplied[0], 'S', "the first piece at depth 1 is S");
	}
	fclose(f);
	ok(nline > 0, "the file holds %d runs", nline);
}

int
main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "--generate") == 0) {
		generate();
		return 0;
	}
	if (argc < 2) {
		fprintf(stderr, "usage: test_ht_kat FILE | --generate\n");
		return 2;
	}
	check(argv[1]);
	return tap_done();
}
