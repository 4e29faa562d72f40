/*
 * test_wells_table.c: the wells value table (engine/wells/wells.h) against two
 * other computations, and the game on it.
 *
 * 1. Against a naive minimax written here from the rules alone: the pieces
 *    typed again from the rules' pictures, a well of plain cells, landings
 *    by a recursive flood over (orientation, column, row) checking every
 *    move cell by cell (the same naive model as test_whowins_naive.c), and
 *    the value by plain recursion: with no memo on the smallest wells, with
 *    a plain array indexed by the well's bits on the next ones. Every well
 *    in the table must have the naive value, and the table must hold as
 *    many wells as the naive walk reaches.
 * 2. Against the who-wins search (whowins_solve): on every served size the
 *    empty well's value is NEVER exactly when the search says the supplier
 *    wins, and so for a sample of the table's wells taken as start wells.
 * 3. The game: random and greedy players against the supplier never see a
 *    line on a NEVER size, and on a player-win size no player completes a
 *    row in fewer landings than the empty well's value, while the player
 *    that follows the table (its landing of least value) takes exactly that.
 *
 * usage: test_wells_table   (prints the build's figures as diagnostics)
 */
#include <stdlib.h>
#include <time.h>

#include "tap.h"
#include "wells.h"
#include "whowins.h"

#include "naive_model.h"


static int
packed(const struct naive *n)
{
	int y, x, k = 0, b = 0;

	for (y = 0; y < n->h; y++)
		for (x = 0; x < n->w; x++, b++)
			if (n->cell[y + 4][x])
				k |= 1 << b;
	return k;
}

static unsigned char *memo; /* 2^(w*h) entries, 0 unknown; NULL: no memo */
static unsigned long nvisited;

/* The naive value: landings to a row under best play, 255 for never. */
static unsigned
naive_value(struct naive *n)
{
	int p, k, key = 0;
	unsigned best = 0;

	if (memo != NULL) {
		key = packed(n);
		if (memo[key])
			return memo[key];
	}
	nvisited++;
	for (p = 0; p < 7; p++) {
		int lands[512][3], nl;
		unsigned pv = 255;

		find_landings(n, p);
		nl = n->nland;
		memcpy(lands, n->land, sizeof lands[0] * (size_t)nl);
		for (k = 0; k < nl; k++) {
			unsigned c;

			put(n, p, lands[k][0], lands[k][1], lands[k][2], 1);
			if (any_full(n))
				c = 1;
			else {
				c = naive_value(n);
				c = c == 255 ? 255 : c + 1;
			}
			put(n, p, lands[k][0], lands[k][1], lands[k][2], 0);
			if (c < pv)
				pv = c;
		}
		if (pv > best)
			best = pv;
	}
	if (memo != NULL)
		memo[key] = (unsigned char)best;
	return best;
}

static uint64_t rng = 88172645463325252u;

static unsigned
next(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static bool
build(struct wells_table *t, unsigned w, unsigned h, uint64_t room, void **mem)
{
	size_t bytes = wells_table_bytes(room);
	double t0;
	enum wells_build r;

	*mem = calloc(1, bytes);
	if (*mem == NULL)
		return false;
	t0 = now_ms();
	r = wells_table_build(t, w, h, *mem, bytes);
	diag("%ux%u: %s, %llu wells, %llu landings, empty value %u, %.1f ms, %zu bytes", w, h,
	    r == WELLS_BUILT ? "built" : "not built", (unsigned long long)t->used,
	    (unsigned long long)t->landings, t->empty_value, now_ms() - t0, bytes);
	return r == WELLS_BUILT;
}

static void
rows_of_key(const struct wells_table *t, uint64_t key, uint16_t *rows)
{
	unsigned i;

	for (i = 0; i < t->height; i++)
		rows[i] = (uint16_t)(key >> (i * t->width) & ((1u << t->width) - 1));
}

/* Part 1. */
static void
against_naive(unsigned w, unsigned h, bool with_memo)
{
	struct wells_table t;
	struct naive n;
	void *mem;
	uint64_t i, bad = 0, checked = 0;

	if (!ok(build(&t, w, h, 1u << 17, &mem), "%ux%u: the table builds", w, h))
		return;
	memo = with_memo ? calloc((size_t)1 << (w * h), 1) : NULL;
	for (i = 0; i < t.nslots; i++) {
		uint16_t rows[WELLS_H_MAX];
		unsigned y, x, want;

		if (t.slots[i] == 0)
			continue;
		rows_of_key(&t, t.slots[i] & ((UINT64_C(1) << 56) - 1), rows);
		memset(&n, 0, sizeof n);
		n.w = (int)w;
		n.h = (int)h;
		for (y = 0; y < h; y++)
			for (x = 0; x < w; x++)
				n.cell[y + 4][x] = (char)(rows[y] >> x & 1);
		want = naive_value(&n);
		checked++;
		if (want != wells_value(&t, rows) && bad++ < 5)
			diag("%ux%u: a well of the table has value %u, the naive recursion %u", w, h,
			    wells_value(&t, rows), want);
	}
	ok(bad == 0 && checked == t.used, "%ux%u: all %llu wells of the table have the naive value%s", w, h,
	    (unsigned long long)checked, with_memo ? " (array memo)" : " (no memo)");
	if (with_memo) {
		uint64_t k, reached = 0;

		/* the naive walk from the empty well reaches exactly the table's wells */
		memset(memo, 0, (size_t)1 << (w * h));
		memset(&n, 0, sizeof n);
		n.w = (int)w;
		n.h = (int)h;
		is_int(naive_value(&n), t.empty_value, "%ux%u: the empty well's naive value", w, h);
		for (k = 0; k < ((uint64_t)1 << (w * h)); k++)
			reached += memo[k] != 0;
		is_int(reached, t.used, "%ux%u: the naive walk reaches as many wells as the table holds", w, h);
	}
	free(memo);
	memo = NULL;
	free(mem);
}

/* Part 2. */
static void
against_whowins(unsigned w, unsigned h, unsigned samples)
{
	struct wells_table t;
	struct whowins *s = malloc(sizeof *s);
	size_t bytes = (size_t)16 << 20; /* whowins_solve clears it on every call */
	void *mem, *smem = malloc(bytes);
	char why[160];
	uint64_t i, bad = 0, done = 0;
	unsigned k;

	if (!ok(s != NULL && smem != NULL && build(&t, w, h, wells_sizes[wells_size_index(w, h)].room, &mem),
	    "%ux%u: the table builds", w, h)) {
		free(s);
		free(smem);
		return;
	}
	whowins_init(s, w, h, WHOWINS_FULL, smem, bytes, why, sizeof why);
	whowins_solve(s, NULL);
	is_int(s->result == WHOWINS_SUPPLIER, t.empty_value == WELLS_NEVER,
	    "%ux%u: the empty well is NEVER exactly when whowins_solve says supplier (%s, value %u)", w, h,
	    whowins_result_name(s->result), t.empty_value);
	for (k = 0; k < samples; k++) {
		uint16_t rows[WELLS_H_MAX];
		enum whowins_result r;

		for (i = next((unsigned)t.nslots); t.slots[i] == 0; i = (i + 1) % t.nslots)
			;
		rows_of_key(&t, t.slots[i] & ((UINT64_C(1) << 56) - 1), rows);
		r = whowins_solve(s, rows);
		done++;
		if ((r == WHOWINS_SUPPLIER) != (wells_value(&t, rows) == WELLS_NEVER) && bad++ < 5)
			diag("%ux%u: a well of value %u, whowins says %s", w, h, wells_value(&t, rows),
			    whowins_result_name(r));
	}
	ok(bad == 0, "%ux%u: %llu sampled wells: NEVER exactly where whowins_solve says supplier", w, h,
	    (unsigned long long)done);
	free(s);
	free(smem);
	free(mem);
}

/* A player's choice among the landings of the current piece: 0 random,
 * 1 greedy (fullest rows, then lowest), 2 the table's best. */
static size_t
choose(const struct wells_table *t, const struct wells *g, const struct wells_landing *l, size_t n,
    int how)
{
	size_t i, best = 0;
	long bestv = -1000000;

	if (how == 0)
		return next((unsigned)n);
	for (i = 0; i < n; i++) {
		long v;

		if (how == 1) {
			uint16_t rows[WELLS_H_MAX];
			unsigned k, r;

			wells_rows(g, rows);
			v = l[i].line ? 1000 : 0;
			for (k = 0; k < 4; k++)
				rows[l[i].cells[k][0] - 4] |= (uint16_t)(1u << l[i].cells[k][1]);
			for (r = 0; r < g->height; r++)
				v += (long)__builtin_popcount(rows[r]) * __builtin_popcount(rows[r]);
			v += l[i].y;
		} else {
			uint16_t rows[WELLS_H_MAX];
			unsigned k, c;

			wells_rows(g, rows);
			for (k = 0; k < 4; k++)
				rows[l[i].cells[k][0] - 4] |= (uint16_t)(1u << l[i].cells[k][1]);
			c = l[i].line ? 0 : wells_value(t, rows);
			v = -(long)c;
		}
		if (v > bestv) {
			bestv = v;
			best = i;
		}
	}
	return best;
}

/* Part 3. */
static void
games(unsigned w, unsigned h, unsigned runs)
{
	struct wells_table t;
	void *mem;
	int how;

	if (!ok(build(&t, w, h, wells_sizes[wells_size_index(w, h)].room, &mem), "%ux%u: the table builds", w, h))
		return;
	for (how = 0; how < 3; how++) {
		unsigned run, lines = 0, early = 0, late = 0, pieces = 0, refused = 0;
		double spent = 0;

		for (run = 0; run < runs; run++) {
			struct wells g;

			if (!wells_init(&g, &t, w, h)) {
				refused++;
				break;
			}
			while (g.status == WELLS_PLAYING) {
				struct wells_landing l[WELLS_LANDINGS_MAX];
				uint16_t rows[WELLS_H_MAX];
				size_t n, i;

				wells_rows(&g, rows);
				n = wells_landings(w, h, rows, g.current, l, WELLS_LANDINGS_MAX);
				double t0;
				enum wells_outcome o;

				i = choose(&t, &g, l, n, how);
				t0 = now_ms();
				o = wells_place(&g, &t, (unsigned)l[i].at.rot, l[i].x, l[i].y, NULL);
				spent += now_ms() - t0;
				if (o != WELLS_OK) {
					refused++;
					break;
				}
			}
			pieces += g.pieces;
			if (g.end_reason == WELLS_END_LINE) {
				lines++;
				early += g.pieces < t.empty_value;
				late += g.pieces > t.empty_value;
			}
		}
		ok(refused == 0, "%ux%u, player %d: every landing chosen from the list is taken", w, h, how);
		diag("%ux%u, player %d: %u landings, %.1f us each (wells_place: the landing, the supplier)", w, h,
		    how, pieces, pieces ? spent * 1e3 / pieces : 0.0);
		if (t.empty_value == WELLS_NEVER)
			ok(lines == 0, "%ux%u, player %d: no line in %u runs (%u pieces)", w, h, how, runs, pieces);
		else
			ok(early == 0 && (how != 2 || (lines == runs && late == 0)),
			    "%ux%u, player %d: %u lines in %u runs, none before %u landings%s", w, h, how, lines,
			    runs, t.empty_value, how == 2 ? ", every one at exactly that many" : "");
	}
	free(mem);
}

int
main(void)
{
	unsigned h;

	for (h = 0; h <= 3; h++)
		against_naive(4, h, false);
	against_naive(4, 4, true);
	against_naive(4, 5, true);
	against_naive(6, 3, true);
	for (h = 0; h < WELLS_NSIZES; h++)
		against_whowins(wells_sizes[h].width, wells_sizes[h].height, 200);
	for (h = 0; h < WELLS_NSIZES; h++)
		games(wells_sizes[h].width, wells_sizes[h].height, 300);
	return tap_done();
}
