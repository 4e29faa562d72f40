/*
 * test_stackfall_kat.c: known answers. Each line of the data file is one
 * game: its seed, the expected final score, lines, pieces, end, number of
 * refused commands and a fingerprint, then the commands it sends (text
 * separated by ';', in the mixed spellings a bot might use). The commands
 * are parsed by stackfall_cmd_parse in requests of at most 50 and run in
 * order; a refused command is counted and play goes on. The fingerprint is
 * FNV-1a 64 over every command's outcome, lines and points, every options
 * list and preview, and the final board, pieces and counters, so any change
 * of behaviour shows.
 *
 * Usage: test_stackfall_kat FILE
 *        test_stackfall_kat --generate N   (wrote the data file once)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stackfall.h"
#include "stackfall_cmd.h"
#include "tap.h"

struct fnv {
	uint64_t h;
};

static void
fnv_bytes(struct fnv *f, const void *p, size_t n)
{
	const unsigned char *b = p;

	while (n-- > 0) {
		f->h ^= *b++;
		f->h *= UINT64_C(0x100000001b3);
	}
}

static void
fnv_int(struct fnv *f, long v)
{
	unsigned char b[8];
	int i;

	for (i = 0; i < 8; i++)
		b[i] = (unsigned char)((unsigned long)v >> (8 * i));
	fnv_bytes(f, b, 8);
}

struct run {
	struct stackfall g;
	struct fnv fp;
	long refused;
};

static void
run_init(struct run *r, uint64_t seed)
{
	stackfall_init(&r->g, seed);
	r->fp.h = UINT64_C(0xcbf29ce484222325);
	r->refused = 0;
}

/* Runs one parsed command and folds what it did into the fingerprint. */
static void
run_one(struct run *r, const struct stackfall_cmd *c)
{
	struct stackfall_report rep;
	struct tetromino_preview pv;
	struct tetromino_option opts[STACKFALL_OPTIONS_MAX];
	enum stackfall_outcome o = STACKFALL_REFUSED;
	size_t n = 0, i;

	memset(&rep, 0, sizeof rep);
	switch (c->kind) {
	case STACKFALL_CMD_PLACE:
		o = stackfall_place(&r->g, c->rotation, c->column, &rep);
		break;
	case STACKFALL_CMD_HOLD:
		o = stackfall_hold(&r->g, &rep);
		break;
	case STACKFALL_CMD_RESIGN:
		o = stackfall_resign(&r->g, &rep);
		break;
	case STACKFALL_CMD_OPTIONS:
		o = stackfall_options(&r->g, opts, STACKFALL_OPTIONS_MAX, &n, &rep);
		if (o == STACKFALL_OK)
			for (i = 0; i < n; i++) {
				fnv_int(&r->fp, opts[i].rotation * 16 + opts[i].column);
				fnv_bytes(&r->fp, &opts[i].figures, sizeof opts[i].figures);
			}
		break;
	case STACKFALL_CMD_PREVIEW:
		o = stackfall_preview(&r->g, c->rotation, c->column, &pv, &rep);
		if (o == STACKFALL_OK) {
			fnv_bytes(&r->fp, &pv.figures, sizeof pv.figures);
			fnv_bytes(&r->fp, pv.board_text, strlen(pv.board_text));
		}
		break;
	default:
		o = STACKFALL_REFUSED; /* unreadable command */
		break;
	}
	fnv_int(&r->fp, c->kind);
	fnv_int(&r->fp, o);
	fnv_int(&r->fp, rep.lines);
	fnv_int(&r->fp, (long)rep.points);
	if (o != STACKFALL_OK)
		r->refused++;
}

static uint64_t
run_final(struct run *r)
{
	char text[STACKFALL_TEXT_SIZE];

	stackfall_board_text(&r->g, text);
	fnv_bytes(&r->fp, text, strlen(text));
	fnv_int(&r->fp, r->g.current);
	fnv_int(&r->fp, r->g.hold);
	fnv_bytes(&r->fp, r->g.next, sizeof r->g.next);
	fnv_int(&r->fp, r->g.score);
	fnv_int(&r->fp, r->g.lines);
	fnv_int(&r->fp, r->g.level);
	fnv_int(&r->fp, r->g.placed);
	fnv_int(&r->fp, r->g.combo);
	fnv_int(&r->fp, r->g.back_to_back);
	fnv_int(&r->fp, r->g.can_hold);
	fnv_int(&r->fp, r->g.status);
	fnv_int(&r->fp, r->g.end_reason);
	return r->fp.h;
}

/* Runs a ';'-separated command list, sending at most 50 per request. */
static int
run_commands(struct run *r, const char *text)
{
	static struct stackfall_cmd cmds[STACKFALL_CMD_MAX];
	const char *p = text, *end;
	size_t n, i;
	int count;

	while (*p != '\0') {
		/* the request ends after the 50th separator */
		for (end = p, count = 0; *end != '\0'; end++)
			if (*end == ';' && ++count == STACKFALL_CMD_MAX)
				break;
		if (stackfall_cmd_parse(p, (size_t)(end - p), cmds, STACKFALL_CMD_MAX, &n) ==
		    STACKFALL_PARSE_TOO_MANY)
			return 0;
		for (i = 0; i < n; i++)
			run_one(r, &cmds[i]);
		p = *end == ';' ? end + 1 : end;
	}
	return 1;
}

static int
check(const char *path)
{
	static char line[1 << 16];
	char end[32], *cmds;
	unsigned long long seed, hash;
	long score, lines, pieces, refused, lineno = 0, cases = 0;
	uint64_t got;
	struct run r;
	FILE *f = fopen(path, "r");

	if (!ok(f != NULL, "open %s", path))
		return tap_done();
	while (fgets(line, sizeof line, f) != NULL) {
		lineno++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		line[strcspn(line, "\n")] = '\0';
		if (sscanf(line, "%llu|%ld|%ld|%ld|%31[a-z_]|%ld|%llx|", &seed, &score, &lines, &pieces,
		    end, &refused, &hash) != 7 || (cmds = strrchr(line, '|')) == NULL) {
			ok(0, "line %ld is well-formed", lineno);
			continue;
		}
		cases++;
		run_init(&r, seed);
		if (!run_commands(&r, cmds + 1)) {
			ok(0, "line %ld: commands parse", lineno);
			continue;
		}
		got = run_final(&r);
		const char *e = r.g.status == STACKFALL_OVER ? stackfall_end_name(r.g.end_reason)
		    : "playing";
		if (!ok(r.g.score == score && r.g.lines == lines && r.g.placed == pieces &&
		    strcmp(e, end) == 0 && r.refused == refused && got == hash,
		    "line %ld, seed %llu: score %ld, %ld lines, %ld pieces, %s, %ld refused, %016llx",
		    lineno, seed, score, lines, pieces, end, refused, hash))
			diag("got score %u, %u lines, %u pieces, %s, %ld refused, %016llx", r.g.score,
			    r.g.lines, r.g.placed, e, r.refused, (unsigned long long)got);
	}
	fclose(f);
	ok(cases >= 50, "%ld known-answer games", cases);
	return tap_done();
}

/* ---- the generator that wrote the data file ---- */

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static uint64_t
rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* Appends a command to the list and runs it at once, so that the generator
 * decides on the state the check will see. */
static void
emit(struct run *r, char *buf, size_t cap, size_t *len, const char *cmd)
{
	static struct stackfall_cmd c[STACKFALL_CMD_MAX];
	size_t n = strlen(cmd), k, i;

	if (*len + n + 2 >= cap)
		return;
	if (*len > 0)
		buf[(*len)++] = ';';
	memcpy(buf + *len, cmd, n + 1);
	*len += n;
	if (stackfall_cmd_parse(cmd, n, c, STACKFALL_CMD_MAX, &k) == STACKFALL_PARSE_OK)
		for (i = 0; i < k; i++)
			run_one(r, &c[i]);
}

/* A placement in one of the spellings a bot might use. */
static void
spell(char *out, size_t cap, int style, unsigned r, unsigned c)
{
	switch (style) {
	case 0: snprintf(out, cap, "place %u %u", r, c); break;
	case 1: snprintf(out, cap, "%u %u", r, c); break;
	case 2: snprintf(out, cap, "PLACE %u %u", r, c); break;
	case 3: snprintf(out, cap, "Place  %u  %u", r, c); break;
	case 4: snprintf(out, cap, " place %u %u ", r, c); break;
	default: snprintf(out, cap, "place 0%u %u", r, c); break;
	}
}

static void
generate(int games)
{
	static const uint64_t fixed[] = { 0, 1, 2, 7, 42, 4294967295u, 4294967296u,
		9007199254740991u, 9007199254740990u, 1000000007 };
	static const char *const junk[] = { "place 9 9", "bogus", "place 1", "hold", "place 0 12",
		"preview 3 9", "HOLD", "options", "place -1 2" };
	static char cmds[1 << 15];
	struct tetromino_option opts[STACKFALL_OPTIONS_MAX];
	struct run r;
	char one[64];
	size_t n, i, len, pick;
	uint64_t seed;
	long best, v;
	int game, style, resign_at;

	printf("# Stackfall known answers: seed|score|lines|pieces|end|refused|fnv1a64|commands\n");
	printf("# Written once by `test_sf_kat --generate %d`; see test_stackfall_kat.c.\n", games);
	for (game = 0; game < games; game++) {
		seed = game < 10 ? fixed[game] : rng() % (STACKFALL_SEED_MAX + 1);
		style = game % 4; /* 0 careful, 1 noisy, 2 tetris-minded, 3 reckless */
		resign_at = game % 9 == 4 ? 20 + (int)(rng() % 60) : -1;
		run_init(&r, seed);
		len = 0;
		cmds[0] = '\0';
		while (r.g.status == STACKFALL_PLAYING && len + 64 < sizeof cmds) {
			unsigned roll = (unsigned)(rng() % 100);
			if (resign_at >= 0 && r.g.placed >= resign_at) {
				emit(&r, cmds, sizeof cmds, &len, game % 2 ? "resign" : "RESIGN");
				break;
			}
			if (roll < 3) {
				emit(&r, cmds, sizeof cmds, &len, junk[rng() % 9]);
				continue;
			}
			if (roll < 10 && r.g.can_hold) {
				emit(&r, cmds, sizeof cmds, &len, roll % 2 ? "hold" : "Hold");
				continue;
			}
			stackfall_options(&r.g, opts, STACKFALL_OPTIONS_MAX, &n, NULL);
			if (n == 0) {
				/* only the hold alternative fits */
				emit(&r, cmds, sizeof cmds, &len, "hold");
				continue;
			}
			best = 0;
			pick = 0;
			for (i = 0; i < n; i++) {
				const struct tetromino_figures *f = &opts[i].figures;
				v = f->holes * 7L + f->max_height * 2L + f->bumpiness;
				if (style == 2 && f->lines == 4)
					v -= 60;
				else if (style == 2 && f->lines > 0 && f->max_height < 12)
					v += 10;
				else
					v -= f->lines * 4L;
				if (style == 2 && opts[i].column +
				    tetromino_shape(r.g.current, opts[i].rotation)->width == 10 &&
				    f->lines == 0)
					v += 12;
				v += (long)(rng() % (style == 3 ? 400 : style == 1 ? 20 : 3));
				if (i == 0 || v < best) {
					best = v;
					pick = i;
				}
			}
			if (roll < 14) {
				snprintf(one, sizeof one, "preview %u %u", opts[pick].rotation,
				    opts[pick].column);
				emit(&r, cmds, sizeof cmds, &len, one);
			}
			if (roll >= 97)
				emit(&r, cmds, sizeof cmds, &len, "options");
			spell(one, sizeof one, (int)(rng() % 6), opts[pick].rotation,
			    opts[pick].column);
			emit(&r, cmds, sizeof cmds, &len, one);
		}
		printf("%llu|%u|%u|%u|%s|%ld|%016llx|%s\n", (unsigned long long)seed, r.g.score,
		    r.g.lines, r.g.placed,
		    r.g.status == STACKFALL_OVER ? stackfall_end_name(r.g.end_reason) : "playing",
		    r.refused, (unsigned long long)run_final(&r), cmds);
	}
}

int
main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "--generate") == 0) {
		generate(atoi(argv[2]));
		return 0;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: test_stackfall_kat FILE | --generate N\n");
		return 2;
	}
	return check(argv[1]);
}
