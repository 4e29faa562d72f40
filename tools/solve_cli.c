/*
 * solve_cli.c: the `arcaded-solve` command (tools/solve_cli.h).
 *
 * `W H` solves one well: it allocates the block the engine searches in
 * (--memory, 1 GiB by default), runs whowins_solve with a progress callback
 * that prints a line to stderr every few seconds, and prints the winner, the
 * positions searched, the table's fill and the time. With --strategy it then
 * walks the solved table and writes the winner's strategy as text.
 * `--check FILE` reads such a file back and plays it out with
 * whowins_check, which shares nothing with the search.
 *
 * The strategy file (docs/rules/whowins.md#the-strategy-file), one record a
 * line, '#' lines ignored:
 *   whowins-strategy 1
 *   width W / height H / movement full|drop / winner player|supplier
 *   decisions, one a line:
 *     player:   WELL PIECE ROT COL ROW
 *     supplier: WELL PIECE
 *   end N          (N decisions: a truncated file is refused)
 * WELL is the well proper's rows, top first, each in hex (bit c = column c),
 * joined by '/' ('-' for a well of height 0); PIECE one of OIJLSTZ; ROT, COL
 * and ROW the box's orientation, left column and top row (row 0 the top of
 * the buffer, row 4 the well's top row).
 *
 * Workload: one run per invocation; the search dominates, the file's
 * writing and reading are linear in its size.
 */
#include "solve_cli.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "whowins.h"

#define DEFAULT_MEMORY ((size_t)1 << 30)
#define PROGRESS_EVERY 65536u
#define PROGRESS_SECONDS 5.0
#define FORMAT_LINE "whowins-strategy 1"

static double
now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static double
cpu_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void
usage(const char *name)
{
	fprintf(stderr,
	    "usage: %s W H [--drop-only] [--memory SIZE] [--budget N] [--strategy FILE] [--quiet]\n"
	    "       %s --check FILE\n"
	    "  W 4..%d, H 0..%d; SIZE in bytes, or with K, M or G (binary: 1G = 2^30)\n",
	    name, name, WHOWINS_W_MAX, WHOWINS_H_MAX);
}

/* "512M" and the like; false on anything else. */
static bool
parse_size(const char *s, size_t *out)
{
	char *end;
	unsigned long long v;
	unsigned shift = 0;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		return false;
	switch (*end) {
	case 'K': case 'k': shift = 10; end++; break;
	case 'M': case 'm': shift = 20; end++; break;
	case 'G': case 'g': shift = 30; end++; break;
	default: break;
	}
	if (*end != '\0' || v > (SIZE_MAX >> shift))
		return false;
	*out = (size_t)v << shift;
	return true;
}

static bool
parse_uint(const char *s, unsigned long long max, unsigned long long *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *end != '\0' || v > max || s[0] == '-')
		return false;
	*out = v;
	return true;
}

/* ---- progress ---- */

struct progress {
	double start, last;
	bool quiet;
};

static bool
on_progress(void *ctx, const struct whowins_progress *p)
{
	struct progress *pr = ctx;
	double t = now();

	if (!pr->quiet && t - pr->last >= PROGRESS_SECONDS) {
		fprintf(stderr, "solve: %" PRIu64 " positions, table %.2f %% full, depth %u, %.0f s\n",
		    p->nodes, p->capacity ? 100.0 * (double)p->used / (double)p->capacity : 0.0,
		    p->depth, t - pr->start);
		pr->last = t;
	}
	return true;
}

/* ---- the strategy file ---- */

static void
write_well(FILE *f, const uint16_t *rows, unsigned w, unsigned h)
{
	unsigned i;

	if (h == 0)
		fputc('-', f);
	for (i = 0; i < h; i++)
		fprintf(f, "%s%0*x", i ? "/" : "", (int)((w + 3) / 4), (unsigned)rows[i]);
}

struct writer {
	FILE *f;
	unsigned w, h;
	bool failed;
};

static bool
write_decision(void *ctx, const struct whowins_decision *d)
{
	struct writer *wr = ctx;

	write_well(wr->f, d->rows, wr->w, wr->h);
	fprintf(wr->f, " %c", whowins_piece_letter(d->piece));
	if (d->has_landing)
		fprintf(wr->f, " %d %d %d", d->landing.rot, d->landing.col, d->landing.row);
	if (fputc('\n', wr->f) == EOF) {
		wr->failed = true;
		return false;
	}
	return true;
}

static int
write_strategy(struct whowins *s, const char *path)
{
	struct writer wr = { NULL, s->width, s->height, false };
	int64_t n;
	int ret = SOLVE_CLI_FAIL;

	wr.f = fopen(path, "w");
	if (wr.f == NULL) {
		fprintf(stderr, "solve: %s: %s\n", path, strerror(errno));
		goto done;
	}
	fprintf(wr.f, "%s\n# who wins: docs/rules/whowins.md describes this file\n", FORMAT_LINE);
	fprintf(wr.f, "width %u\nheight %u\nmovement %s\nwinner %s\n", s->width, s->height,
	    whowins_movement_name(s->movement), whowins_result_name(s->result));
	n = whowins_strategy(s, write_decision, &wr);
	if (n < 0 || wr.failed) {
		fprintf(stderr, "solve: %s: the strategy could not be written\n", path);
		goto done;
	}
	fprintf(wr.f, "end %" PRId64 "\n", n);
	if (fflush(wr.f) != 0 || ferror(wr.f)) {
		fprintf(stderr, "solve: %s: %s\n", path, strerror(errno));
		goto done;
	}
	printf("strategy: %" PRId64 " decisions written to %s\n", n, path);
	ret = SOLVE_CLI_OK;
done:
	if (wr.f && fclose(wr.f) != 0 && ret == SOLVE_CLI_OK) {
		fprintf(stderr, "solve: %s: %s\n", path, strerror(errno));
		ret = SOLVE_CLI_FAIL;
	}
	return ret;
}

static bool
parse_well(char *s, unsigned w, unsigned h, uint16_t *rows)
{
	unsigned i;
	char *end;

	memset(rows, 0, WHOWINS_H_MAX * sizeof *rows);
	if (h == 0)
		return strcmp(s, "-") == 0;
	for (i = 0; i < h; i++) {
		unsigned long v;

		if (*s == '\0' || *s == '/' || *s == '-' || *s == '+')
			return false;
		errno = 0;
		v = strtoul(s, &end, 16);
		if (errno || end == s || v >> w)
			return false;
		rows[i] = (uint16_t)v;
		if (i + 1 < h && *end != '/')
			return false;
		s = end + (i + 1 < h);
	}
	return *s == '\0';
}

static bool
parse_landing_field(const char *tok, int lo, int hi, int8_t *out)
{
	char *end;
	long v;

	if (tok == NULL)
		return false;
	errno = 0;
	v = strtol(tok, &end, 10);
	if (errno || end == tok || *end != '\0' || v < lo || v > hi)
		return false;
	*out = (int8_t)v;
	return true;
}

/* Reads a strategy file; on success the caller frees *out. */
static bool
read_strategy(const char *path, unsigned *w, unsigned *h, enum whowins_movement *m,
    enum whowins_result *winner, struct whowins_decision **out, size_t *nout)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0, n = 0, room = 0, lineno = 0;
	struct whowins_decision *d = NULL;
	unsigned long long declared = 0;
	int header = 0; /* fields read: format, width, height, movement, winner */
	bool ended = false, good = false;
	ssize_t len;

	if (f == NULL) {
		fprintf(stderr, "solve: %s: %s\n", path, strerror(errno));
		return false;
	}
	while ((len = getline(&line, &cap, f)) != -1) {
		char *tok, *save = NULL;
		unsigned long long v;

		lineno++;
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		if (line[0] == '#' || line[0] == '\0')
			continue;
		if (ended) {
			fprintf(stderr, "solve: %s:%zu: text after the end line\n", path, lineno);
			goto done;
		}
		if (header == 0) {
			if (strcmp(line, FORMAT_LINE) != 0) {
				fprintf(stderr, "solve: %s:%zu: not a strategy file (want \"%s\")\n", path,
				    lineno, FORMAT_LINE);
				goto done;
			}
			header++;
			continue;
		}
		tok = strtok_r(line, " ", &save);
		if (header < 5) {
			static const char *const keys[] = { NULL, "width", "height", "movement", "winner" };
			char *val = strtok_r(NULL, " ", &save);

			if (tok == NULL || strcmp(tok, keys[header]) != 0 || val == NULL ||
			    strtok_r(NULL, " ", &save) != NULL) {
				fprintf(stderr, "solve: %s:%zu: want \"%s VALUE\"\n", path, lineno, keys[header]);
				goto done;
			}
			if (header == 1 && parse_uint(val, WHOWINS_W_MAX, &v) && v >= WHOWINS_W_MIN)
				*w = (unsigned)v;
			else if (header == 2 && parse_uint(val, WHOWINS_H_MAX, &v))
				*h = (unsigned)v;
			else if (header == 3 && (strcmp(val, "full") == 0 || strcmp(val, "drop") == 0))
				*m = strcmp(val, "drop") == 0 ? WHOWINS_DROP : WHOWINS_FULL;
			else if (header == 4 && (strcmp(val, "player") == 0 || strcmp(val, "supplier") == 0))
				*winner = strcmp(val, "player") == 0 ? WHOWINS_PLAYER : WHOWINS_SUPPLIER;
			else {
				fprintf(stderr, "solve: %s:%zu: bad %s\n", path, lineno, keys[header]);
				goto done;
			}
			header++;
			continue;
		}
		if (tok && strcmp(tok, "end") == 0) {
			char *val = strtok_r(NULL, " ", &save);

			if (val == NULL || !parse_uint(val, UINT64_MAX, &declared) ||
			    strtok_r(NULL, " ", &save) != NULL) {
				fprintf(stderr, "solve: %s:%zu: want \"end N\"\n", path, lineno);
				goto done;
			}
			ended = true;
			continue;
		}
		if (n == room) {
			size_t more = room ? 2 * room : 1024;
			struct whowins_decision *grown = realloc(d, more * sizeof *d);

			if (grown == NULL) {
				fprintf(stderr, "solve: out of memory reading %s\n", path);
				goto done;
			}
			d = grown;
			room = more;
		}
		memset(&d[n], 0, sizeof d[n]);
		{
			char *piece = strtok_r(NULL, " ", &save);
			int p = piece && piece[0] && !piece[1] ? whowins_piece_from_letter(piece[0]) : -1;

			if (tok == NULL || !parse_well(tok, *w, *h, d[n].rows) || p < 0) {
				fprintf(stderr, "solve: %s:%zu: want \"WELL PIECE ...\"\n", path, lineno);
				goto done;
			}
			d[n].piece = (uint8_t)p;
			if (*winner == WHOWINS_PLAYER) {
				d[n].has_landing = true;
				if (!parse_landing_field(strtok_r(NULL, " ", &save), 0, 3, &d[n].landing.rot) ||
				    !parse_landing_field(strtok_r(NULL, " ", &save), -3, WHOWINS_W_MAX - 1,
				    &d[n].landing.col) ||
				    !parse_landing_field(strtok_r(NULL, " ", &save), 0,
				    WHOWINS_H_MAX + WHOWINS_BUFFER - 1, &d[n].landing.row)) {
					fprintf(stderr, "solve: %s:%zu: want \"WELL PIECE ROT COL ROW\"\n", path,
					    lineno);
					goto done;
				}
			}
			if (strtok_r(NULL, " ", &save) != NULL) {
				fprintf(stderr, "solve: %s:%zu: extra fields\n", path, lineno);
				goto done;
			}
		}
		n++;
	}
	if (ferror(f)) {
		fprintf(stderr, "solve: %s: %s\n", path, strerror(errno));
		goto done;
	}
	if (header < 5 || !ended) {
		fprintf(stderr, "solve: %s: %s\n", path, header < 5 ? "the header is incomplete"
								     : "no end line: the file is truncated");
		goto done;
	}
	if (declared != n) {
		fprintf(stderr, "solve: %s: the end line says %llu decisions, the file holds %zu\n", path,
		    declared, n);
		goto done;
	}
	good = true;
done:
	free(line);
	fclose(f);
	if (!good) {
		free(d);
		return false;
	}
	*out = d;
	*nout = n;
	return true;
}

static int
check_file(const char *path)
{
	unsigned w = 0, h = 0;
	enum whowins_movement m = WHOWINS_FULL;
	enum whowins_result winner = WHOWINS_NONE;
	struct whowins_decision *d = NULL;
	struct whowins_check_stats st;
	size_t n = 0;
	char reason[256];
	double t0;
	int ret = SOLVE_CLI_FAIL;

	if (!read_strategy(path, &w, &h, &m, &winner, &d, &n))
		goto done;
	t0 = now();
	if (!whowins_check(w, h, m, winner, d, n, &st, reason, sizeof reason)) {
		printf("strategy refused: %s\n", reason);
		goto done;
	}
	printf("strategy holds: %u x %u, %s movement, the %s wins\n", w, h, whowins_movement_name(m),
	    whowins_result_name(winner));
	printf("checked: %" PRIu64 " wells played out, %" PRIu64 " landings, %zu decisions, %" PRIu64
	       " unused, %.2f s\n", st.wells, st.landings, n, st.unused, now() - t0);
	ret = SOLVE_CLI_OK;
done:
	free(d);
	return ret;
}

/* ---- solving ---- */

static int
solve(unsigned w, unsigned h, enum whowins_movement m, size_t memory, uint64_t budget,
    const char *strategy, bool quiet)
{
	struct whowins *s = NULL;
	void *mem = NULL;
	struct progress pr;
	char reason[160];
	double t, cpu;
	enum whowins_result r;
	int ret = SOLVE_CLI_FAIL;

	s = malloc(sizeof *s);
	mem = calloc(1, memory ? memory : 1);
	if (s == NULL || mem == NULL) {
		fprintf(stderr, "solve: cannot allocate %zu bytes\n", memory);
		goto done;
	}
	if (!whowins_init(s, w, h, m, mem, memory, reason, sizeof reason)) {
		fprintf(stderr, "solve: %s\n", reason);
		ret = SOLVE_CLI_USAGE;
		goto done;
	}
	s->budget = budget;
	s->zeroed = true; /* calloc: the table's pages are mapped as they fill */
	cpu = cpu_now();
	pr.start = pr.last = now();
	pr.quiet = quiet;
	s->progress = on_progress;
	s->progress_ctx = &pr;
	s->progress_every = PROGRESS_EVERY;
	r = whowins_solve(s, NULL);
	t = now() - pr.start;
	cpu = cpu_now() - cpu;

	printf("well %u x %u, %s movement\n", w, h, m == WHOWINS_DROP ? "drop-only" : "full");
	printf("winner: %s\n", whowins_result_name(r));
	printf("positions searched: %" PRIu64 "\n", s->nodes);
	printf("table: %" PRIu64 " of %" PRIu64 " entries (%.2f %%), %u bytes each, %.1f MiB given\n",
	    s->used, s->capacity, s->capacity ? 100.0 * (double)s->used / (double)s->capacity : 0.0,
	    s->slot_words * 8, (double)memory / (1024.0 * 1024.0));
	printf("time: %.3f s wall, %.3f s CPU (%.0f positions per CPU second)\n", t, cpu,
	    cpu > 0 ? (double)s->nodes / cpu : 0.0);
	if (r != WHOWINS_PLAYER && r != WHOWINS_SUPPLIER) {
		ret = SOLVE_CLI_UNKNOWN;
		goto done;
	}
	ret = SOLVE_CLI_OK;
	if (strategy)
		ret = write_strategy(s, strategy);
done:
	free(mem);
	free(s);
	return ret;
}

int
solve_cli_main(int argc, char **argv)
{
	const char *name = argc > 0 ? argv[0] : "arcaded-solve";
	const char *strategy = NULL;
	size_t memory = DEFAULT_MEMORY;
	unsigned long long w, h, budget = 0;
	enum whowins_movement m = WHOWINS_FULL;
	bool quiet = false;
	int i;

	if (argc == 3 && strcmp(argv[1], "--check") == 0)
		return check_file(argv[2]);
	if (argc < 3 || !parse_uint(argv[1], WHOWINS_W_MAX, &w) || w < WHOWINS_W_MIN ||
	    !parse_uint(argv[2], WHOWINS_H_MAX, &h)) {
		usage(name);
		return SOLVE_CLI_USAGE;
	}
	for (i = 3; i < argc; i++) {
		if (strcmp(argv[i], "--drop-only") == 0)
			m = WHOWINS_DROP;
		else if (strcmp(argv[i], "--quiet") == 0)
			quiet = true;
		else if (strcmp(argv[i], "--memory") == 0 && i + 1 < argc && parse_size(argv[i + 1], &memory))
			i++;
		else if (strcmp(argv[i], "--budget") == 0 && i + 1 < argc &&
		    parse_uint(argv[i + 1], UINT64_MAX, &budget))
			i++;
		else if (strcmp(argv[i], "--strategy") == 0 && i + 1 < argc)
			strategy = argv[++i];
		else {
			usage(name);
			return SOLVE_CLI_USAGE;
		}
	}
	return solve((unsigned)w, (unsigned)h, m, memory, budget, strategy, quiet);
}
