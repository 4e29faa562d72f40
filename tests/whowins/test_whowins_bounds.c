/*
 * test_whowins_bounds.c: what the search does at its limits, and what the
 * checker refuses.
 *
 *  - memory: from a block too small for the search stack up to one that
 *    holds the whole table, every answer is the right winner or "unknown:
 *    memory", never the wrong winner; small blocks do give "unknown";
 *  - the node budget and the progress callback (its call count, and a
 *    callback that stops the search);
 *  - odd widths: the seed's argument (the supplier sends only O pieces)
 *    shows in the supplier's strategy, every decision an O;
 *  - the checker refuses broken strategies: a decision taken out, a landing
 *    moved where the piece cannot lock, the wrong winner claimed, a second
 *    decision for one well, a supplier piece changed for one with a line.
 * The winners expected come from the seed's table (data/seed_table.txt):
 * 4 x 4 and 6 x 5 supplier, 4 x 5, 4 x 6 and 6 x 6 player.
 */
#include <stdlib.h>

#include "tap.h"
#include "whowins.h"

struct buf {
	struct whowins_decision *d;
	size_t n, room;
};

static bool
collect(void *ctx, const struct whowins_decision *d)
{
	struct buf *b = ctx;

	if (b->n == b->room) {
		size_t more = b->room ? 2 * b->room : 1024;
		struct whowins_decision *g = realloc(b->d, more * sizeof *g);

		if (g == NULL)
			return false;
		b->d = g;
		b->room = more;
	}
	b->d[b->n++] = *d;
	return true;
}

static size_t
solve_into(struct whowins *s, unsigned w, unsigned h, enum whowins_movement m, void *mem,
    size_t bytes, struct buf *b)
{
	char why[160];

	b->n = 0;
	if (!whowins_init(s, w, h, m, mem, bytes, why, sizeof why))
		return 0;
	whowins_solve(s, NULL);
	if (whowins_strategy(s, collect, b) < 0)
		return 0;
	return b->n;
}

static bool progress_stop;
static uint64_t progress_calls, progress_last;

static bool
on_progress(void *ctx, const struct whowins_progress *p)
{
	(void)ctx;
	progress_calls++;
	progress_last = p->nodes;
	return !progress_stop;
}

static void
memory_bounds(struct whowins *s, void *mem, size_t big, unsigned w, unsigned h,
    enum whowins_result want)
{
	char why[160];
	size_t need, bytes, frames;
	unsigned unknown = 0, right = 0, wrong = 0, k;

	whowins_init(s, w, h, WHOWINS_FULL, mem, big, why, sizeof why);
	ok(whowins_solve(s, NULL) == want, "%u x %u with room: the %s wins", w, h, whowins_result_name(want));
	need = (size_t)s->used;
	frames = s->frame_bytes;
	diag("%u x %u: %zu entries, %zu bytes of search stack", w, h, need, frames);

	whowins_init(s, w, h, WHOWINS_FULL, mem, frames / 2, why, sizeof why);
	is_int(whowins_solve(s, NULL), WHOWINS_UNKNOWN_MEMORY, "%u x %u: no room for the stack: unknown: memory", w, h);
	for (k = 0; k <= 20; k++) {
		enum whowins_result r;

		/* from 1 slot to twice what the search filled, in 20 steps */
		bytes = 8 + frames + (size_t)s->slot_words * 8 * (1 + (2 * need * k) / 20 * 8 / 7);
		whowins_init(s, w, h, WHOWINS_FULL, mem, bytes, why, sizeof why);
		r = whowins_solve(s, NULL);
		if (r == WHOWINS_UNKNOWN_MEMORY)
			unknown++;
		else if (r == want)
			right++;
		else
			wrong++;
		if (r == WHOWINS_UNKNOWN_MEMORY && s->used > s->capacity)
			wrong++;
	}
	is_int(wrong, 0, "%u x %u: 21 table sizes, never a wrong answer", w, h);
	ok(unknown > 0 && right > 0, "%u x %u: small tables answer unknown (%u), big ones the winner (%u)",
	    w, h, unknown, right);
}

int
main(void)
{
	size_t big = (size_t)64 << 20;
	void *mem = malloc(big);
	struct whowins *s = malloc(sizeof *s);
	struct buf b = { NULL, 0, 0 }, good = { NULL, 0, 0 };
	struct whowins_check_stats st;
	char why[256];
	size_t i, n;
	unsigned w;
	bool all_o;

	if (!ok(mem && s, "memory"))
		return tap_done();
	ok(!whowins_init(s, 3, 5, WHOWINS_FULL, mem, big, why, sizeof why), "width 3 refused: %s", why);
	ok(!whowins_init(s, 4, WHOWINS_H_MAX + 1, WHOWINS_FULL, mem, big, why, sizeof why),
	    "height %d refused: %s", WHOWINS_H_MAX + 1, why);

	memory_bounds(s, mem, big, 6, 5, WHOWINS_SUPPLIER);
	memory_bounds(s, mem, big, 4, 6, WHOWINS_PLAYER);

	/* the budget */
	whowins_init(s, 6, 6, WHOWINS_FULL, mem, big, why, sizeof why);
	s->budget = 100;
	is_int(whowins_solve(s, NULL), WHOWINS_UNKNOWN_BUDGET, "a budget of 100 positions stops 6 x 6");
	ok(s->nodes <= 101, "and it searched no more than that (%llu)", (unsigned long long)s->nodes);
	is_int(whowins_strategy(s, collect, &b), -1, "no strategy after an unknown result");

	/* progress */
	whowins_init(s, 6, 6, WHOWINS_FULL, mem, big, why, sizeof why);
	s->progress = on_progress;
	s->progress_every = 1000;
	is_int(whowins_solve(s, NULL), WHOWINS_PLAYER, "6 x 6 with a progress callback");
	is_int(progress_calls, s->nodes / 1000, "the callback ran once every 1000 positions");
	is_int(progress_last, s->nodes / 1000 * 1000, "with the count of positions");
	progress_stop = true;
	progress_calls = 0;
	whowins_init(s, 6, 6, WHOWINS_FULL, mem, big, why, sizeof why);
	s->progress = on_progress;
	s->progress_every = 1000;
	is_int(whowins_solve(s, NULL), WHOWINS_UNKNOWN_STOPPED, "a callback answering false stops the search");
	is_int(progress_calls, 1, "at its first call");

	/* odd widths: O pieces only */
	for (w = 5; w <= 9; w += 2) {
		unsigned h = w == 9 ? 5 : 7;

		n = solve_into(s, w, h, WHOWINS_FULL, mem, big, &b);
		all_o = n > 0;
		for (i = 0; i < n; i++)
			all_o = all_o && b.d[i].piece == WHOWINS_O;
		ok(s->result == WHOWINS_SUPPLIER && all_o,
		    "%u x %u: the supplier wins sending O pieces only (%zu decisions)", w, h, n);
		ok(whowins_check(w, h, WHOWINS_FULL, WHOWINS_SUPPLIER, b.d, n, &st, why, sizeof why),
		    "%u x %u: the O strategy checks", w, h);
	}

	/* checker refusals on a player strategy (4 x 5) */
	n = solve_into(s, 4, 5, WHOWINS_FULL, mem, big, &good);
	ok(n > 0 && whowins_check(4, 5, WHOWINS_FULL, WHOWINS_PLAYER, good.d, n, &st, why, sizeof why),
	    "4 x 5: the player's strategy checks (%zu decisions)", n);
	ok(!whowins_check(4, 5, WHOWINS_FULL, WHOWINS_SUPPLIER, good.d, n, &st, why, sizeof why),
	    "claiming the supplier wins with it is refused: %s", why);
	ok(!whowins_check(4, 6, WHOWINS_FULL, WHOWINS_PLAYER, good.d, n, &st, why, sizeof why),
	    "as a 4 x 6 strategy it is refused: %s", why);
	for (i = 0; i < n; i += n / 5 + 1) {
		struct whowins_decision *d;

		d = malloc(n * sizeof *d);
		memcpy(d, good.d, n * sizeof *d);
		d[i] = d[n - 1];
		/* taken out: the strategy plays every well it keeps, so each
		 * one is reached (unused is 0 for a walked strategy) */
		ok(!whowins_check(4, 5, WHOWINS_FULL, WHOWINS_PLAYER, d, n - 1, &st, why, sizeof why),
		    "decision %zu taken out: refused: %s", i, why);
		memcpy(d, good.d, n * sizeof *d);
		d[i].landing.row = 0; /* the box's top row in the buffer: a lock there is never a landing */
		ok(!whowins_check(4, 5, WHOWINS_FULL, WHOWINS_PLAYER, d, n, &st, why, sizeof why),
		    "decision %zu's landing moved to row 0: refused: %s", i, why);
		memcpy(d, good.d, n * sizeof *d);
		d[i].landing.row = (int8_t)(d[i].landing.row - 1); /* floating one row higher */
		ok(!whowins_check(4, 5, WHOWINS_FULL, WHOWINS_PLAYER, d, n, &st, why, sizeof why),
		    "decision %zu's landing lifted a row: refused: %s", i, why);
		free(d);
	}
	{
		struct whowins_decision *d = malloc((n + 1) * sizeof *d);

		memcpy(d, good.d, n * sizeof *d);
		d[n] = d[0];
		d[n].landing.col = (int8_t)(d[n].landing.col + 1);
		ok(!whowins_check(4, 5, WHOWINS_FULL, WHOWINS_PLAYER, d, n + 1, &st, why, sizeof why),
		    "a second decision for one well and piece: refused: %s", why);
		free(d);
	}

	/* a supplier strategy (4 x 4): take out decisions, and send an I at the
	 * start of a well where an I completes a row */
	n = solve_into(s, 4, 4, WHOWINS_FULL, mem, big, &good);
	all_o = n > 0 && whowins_check(4, 4, WHOWINS_FULL, WHOWINS_SUPPLIER, good.d, n, &st, why, sizeof why);
	ok(all_o && st.unused == 0, "4 x 4: the supplier's strategy checks (%zu decisions, %llu unused)", n,
	    (unsigned long long)st.unused);
	for (i = 0; i < n; i += n / 4 + 1) {
		struct whowins_decision *d = malloc(n * sizeof *d);

		memcpy(d, good.d, n * sizeof *d);
		d[i] = d[n - 1];
		ok(!whowins_check(4, 4, WHOWINS_FULL, WHOWINS_SUPPLIER, d, n - 1, &st, why, sizeof why),
		    "decision %zu taken out: refused: %s", i, why);
		free(d);
	}
	{
		struct whowins_decision *d = malloc(n * sizeof *d);
		size_t k;

		memcpy(d, good.d, n * sizeof *d);
		for (k = 0; k < n; k++)
			if (d[k].rows[0] == 0 && d[k].rows[1] == 0 && d[k].rows[2] == 0 && d[k].rows[3] == 0)
				d[k].piece = WHOWINS_I; /* a flat I fills the bottom row */
		ok(!whowins_check(4, 4, WHOWINS_FULL, WHOWINS_SUPPLIER, d, n, &st, why, sizeof why) &&
		    strstr(why, "completes a row") != NULL,
		    "sending an I into the empty 4-wide well: refused: %s", why);
		free(d);
	}
	free(b.d);
	free(good.d);
	free(mem);
	free(s);
	return tap_done();
}
