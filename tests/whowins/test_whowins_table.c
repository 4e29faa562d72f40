/*
 * test_whowins_table.c: the seed's table of who wins, reproduced.
 *
 * usage: test_whowins_table TABLE MEMORY_MB WxH[f]...  (f: full movement only)
 * For each named cell: the full-movement search must give the winner that
 * data/seed_table.txt (the published table) names, and the strategy the
 * search writes must pass whowins_check. The drop-only search runs too: it
 * has no published answers to compare with, so its strategy is checked and
 * it must agree with what the rules imply (drop-only landings are a subset of
 * full movement's, so a drop-only player win is a full player win), and a
 * player win must stay one a row deeper whenever both depths are named.
 */
#include <stdlib.h>
#include <time.h>

#include "tap.h"
#include "whowins.h"

#define CELLS_MAX 64

struct cell {
	unsigned w, h;
	enum whowins_result want, full, drop;
	bool full_only;
};

struct buf {
	struct whowins_decision *d;
	size_t n, room;
};

static bool
collect(void *ctx, const struct whowins_decision *d)
{
	struct buf *b = ctx;

	if (b->n == b->room) {
		size_t more = b->room ? 2 * b->room : 4096;
		struct whowins_decision *g = realloc(b->d, more * sizeof *g);

		if (g == NULL)
			return false;
		b->d = g;
		b->room = more;
	}
	b->d[b->n++] = *d;
	return true;
}

static double
seconds(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static enum whowins_result
run(struct whowins *s, unsigned w, unsigned h, enum whowins_movement m, void *mem, size_t bytes)
{
	char why[160];
	struct buf b = { NULL, 0, 0 };
	struct whowins_check_stats st;
	enum whowins_result r;
	double t0;
	int64_t n;
	bool held;

	memset(mem, 0, bytes);
	if (!ok(whowins_init(s, w, h, m, mem, bytes, why, sizeof why), "%u x %u %s: init", w, h,
	    whowins_movement_name(m)))
		return WHOWINS_NONE;
	s->zeroed = true;
	t0 = seconds();
	r = whowins_solve(s, NULL);
	diag("%u x %u %s: %s, %llu positions, %llu table entries, %.2f s", w, h,
	    whowins_movement_name(m), whowins_result_name(r), (unsigned long long)s->nodes,
	    (unsigned long long)s->used, seconds() - t0);
	if (!ok(r == WHOWINS_PLAYER || r == WHOWINS_SUPPLIER, "%u x %u %s: solved", w, h,
	    whowins_movement_name(m)))
		return r;
	n = whowins_strategy(s, collect, &b);
	ok(n > 0 && (size_t)n == b.n, "%u x %u %s: strategy of %lld decisions walked", w, h,
	    whowins_movement_name(m), (long long)n);
	held = whowins_check(w, h, m, r, b.d, b.n, &st, why, sizeof why);
	ok(held, "%u x %u %s: whowins_check holds the %s's strategy (%llu wells played out) %s", w, h,
	    whowins_movement_name(m), whowins_result_name(r), (unsigned long long)st.wells,
	    held ? "" : why);
	free(b.d);
	return r;
}

int
main(int argc, char **argv)
{
	struct cell cells[CELLS_MAX];
	unsigned ncells = 0, known = 0, i, j;
	char line[128];
	FILE *f;
	size_t bytes;
	void *mem;
	struct whowins *s;
	struct {
		unsigned w, h;
		enum whowins_result r;
	} table[CELLS_MAX];

	if (argc < 4) {
		fprintf(stderr, "usage: test_whowins_table TABLE MEMORY_MB WxH...\n");
		return 2;
	}
	f = fopen(argv[1], "r");
	if (!ok(f != NULL, "the seed's table %s opens", argv[1]))
		return tap_done();
	while (fgets(line, sizeof line, f) && known < CELLS_MAX) {
		char who[32];

		if (line[0] == '#')
			continue;
		if (sscanf(line, "%u %u %31s", &table[known].w, &table[known].h, who) == 3) {
			table[known].r = strcmp(who, "player") == 0 ? WHOWINS_PLAYER
			    : strcmp(who, "supplier") == 0          ? WHOWINS_SUPPLIER
								    : WHOWINS_NONE;
			known++;
		}
	}
	fclose(f);
	for (i = 3; i < (unsigned)argc && ncells < CELLS_MAX; i++) {
		struct cell *c = &cells[ncells];
		char only = 0;

		if (sscanf(argv[i], "%ux%u%c", &c->w, &c->h, &only) < 2) {
			ok(0, "cell argument %s", argv[i]);
			continue;
		}
		c->full_only = only == 'f';
		c->want = WHOWINS_NONE;
		for (j = 0; j < known; j++)
			if (table[j].w == c->w && table[j].h == c->h)
				c->want = table[j].r;
		ok(c->want != WHOWINS_NONE, "%u x %u is in the seed's table", c->w, c->h);
		ncells++;
	}
	bytes = (size_t)strtoul(argv[2], NULL, 10) << 20;
	mem = malloc(bytes);
	s = malloc(sizeof *s);
	if (!ok(mem && s, "%zu bytes for the table", bytes))
		return tap_done();

	for (i = 0; i < ncells; i++) {
		struct cell *c = &cells[i];

		c->full = run(s, c->w, c->h, WHOWINS_FULL, mem, bytes);
		ok(c->full == c->want, "%u x %u: the %s wins, as in the seed's table", c->w, c->h,
		    whowins_result_name(c->want));
		c->drop = c->full_only ? WHOWINS_NONE : run(s, c->w, c->h, WHOWINS_DROP, mem, bytes);
		if (c->drop == WHOWINS_PLAYER)
			ok(c->full == WHOWINS_PLAYER, "%u x %u: drop-only's player win is one with full movement",
			    c->w, c->h);
	}
	for (i = 0; i < ncells; i++)
		for (j = 0; j < ncells; j++)
			if (cells[j].w == cells[i].w && cells[j].h == cells[i].h + 1) {
				if (cells[i].full == WHOWINS_PLAYER)
					ok(cells[j].full == WHOWINS_PLAYER, "%u x %u full: a player win stays one a row deeper",
					    cells[i].w, cells[i].h);
				if (cells[i].drop == WHOWINS_PLAYER)
					ok(cells[j].drop == WHOWINS_PLAYER, "%u x %u drop: a player win stays one a row deeper",
					    cells[i].w, cells[i].h);
			}
	for (i = 0; i < ncells; i++)
		diag("cell %u x %u: full %s, drop-only %s", cells[i].w, cells[i].h,
		    whowins_result_name(cells[i].full), whowins_result_name(cells[i].drop));
	free(mem);
	free(s);
	return tap_done();
}
