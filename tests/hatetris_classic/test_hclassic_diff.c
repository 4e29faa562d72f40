/*
 * test_hclassic_diff.c: the engine against naive.h, the tests' own plain
 * model of the rules.
 *
 * 1. Runs: random key streams (bursts of random keys, and the paths of
 *    locks picked from the engine's options, mostly low ones, so that runs
 *    last and remove lines) played by both, under all four supplier
 *    versions in turn; after every burst the wells, live pieces, lines,
 *    keys, pieces and ends must agree. Every new piece's options are
 *    compared with the naive search (below).
 * 2. Supplier: random wells (no full row, the bar empty) with random
 *    memory (counts or given pieces on some landing wells and on the well
 *    itself); engine and model must give the same piece, ratings and key 1
 *    under every version.
 * 3. Options: on the same wells, a random piece at its spawn: the same set
 *    of distinct locks (by their cells), each with the model's shortest
 *    distance + 1 as its path length, the same well after, lines and end;
 *    and the engine's path, played key by key in the model, locks there.
 *
 * Usage: test_hclassic_diff RUNS WELLS SEED
 */
#include <stdlib.h>

#include "hatetris_classic.h"
#include "memo.h"
#include "naive.h"
#include "tap.h"

static uint64_t rng_state;

static uint64_t
rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static unsigned
rnd(unsigned n)
{
	return (unsigned)(rng() % n);
}

static struct hclassic_lock locks[HCLASSIC_LOCKS_MAX];
static struct nv_landing land[4 * NV_NY * NV_NX];
static int failures;

/* A lock's four cells as a 200-bit set, for comparing locks. */
struct cells {
	uint8_t b[25];
};

static struct cells
cells_of(int p, int x, int y, int o)
{
	struct cells s;
	int r, c;

	memset(&s, 0, sizeof s);
	for (r = 0; r < 4; r++)
		for (c = 0; c < 4; c++)
			if (nv_cell(p, o, r, c)) {
				int i = (y + r) * NV_W + x + c;

				s.b[i / 8] |= (uint8_t)(1u << (i % 8));
			}
	return s;
}

static bool
same_run(const struct hclassic *g, const struct nv_run *n)
{
	uint16_t rows[NV_H];

	nv_rows(&n->well, rows);
	if (memcmp(rows, g->well, sizeof rows) != 0)
		return false;
	if (g->lines != (uint32_t)n->lines || g->keys != (uint32_t)n->keys ||
	    g->pieces != (uint32_t)n->pieces || (bool)g->over != n->over)
		return false;
	if (g->piece != n->piece)
		return false;
	if (!n->over && (g->x != n->x || g->y != n->y || g->o != n->o))
		return false;
	return true;
}

/* Compares the engine's options of g with the model's search; true when
 * they agree. */
static bool
check_options(const struct hclassic *g, const char *label)
{
	static struct hclassic_search s;
	struct nv_search ns;
	struct nv_well w;
	struct cells distinct[4 * NV_NY * NV_NX];
	int mind[4 * NV_NY * NV_NX], idx[4 * NV_NY * NV_NX];
	size_t n, i;
	int nn, nd = 0, k;
	char path[HCLASSIC_PATH_MAX + 1];

	n = hclassic_options(g, &s, locks, HCLASSIC_LOCKS_MAX);
	nv_from_rows(&w, g->well);
	nn = nv_landings(&w, g->piece, g->x, g->y, g->o, land, 4 * NV_NY * NV_NX, &ns);
	for (k = 0; k < nn; k++) {
		struct cells c = cells_of(g->piece, land[k].x, land[k].y, land[k].o);
		int j;

		for (j = 0; j < nd; j++)
			if (memcmp(&distinct[j], &c, sizeof c) == 0)
				break;
		if (j == nd) {
			distinct[nd] = c;
			mind[nd] = land[k].dist;
			idx[nd] = k;
			nd++;
		} else if (land[k].dist < mind[j]) {
			mind[j] = land[k].dist;
		}
	}
	if (n != (size_t)nd) {
		diag("%s: %zu locks, the model has %d", label, n, nd);
		return false;
	}
	for (i = 0; i < n; i++) {
		struct cells c = cells_of(g->piece, locks[i].x, locks[i].y, locks[i].o);
		uint16_t rows[NV_H];
		struct nv_run r;
		size_t len, j;
		int d;

		for (d = 0; d < nd; d++)
			if (memcmp(&distinct[d], &c, sizeof c) == 0)
				break;
		if (d == nd) {
			diag("%s: lock %zu not in the model", label, i);
			return false;
		}
		nv_rows(&land[idx[d]].after, rows);
		if (locks[i].nkeys != mind[d] + 1 || memcmp(rows, locks[i].well, sizeof rows) ||
		    locks[i].lines != land[idx[d]].lines || locks[i].over != land[idx[d]].over) {
			diag("%s: lock %zu (x %d y %d o %d) differs: keys %u vs %d", label, i,
			    locks[i].x, locks[i].y, locks[i].o, locks[i].nkeys, mind[d] + 1);
			return false;
		}
		/* Its path, played in the model, locks there after exactly its keys. */
		len = hclassic_lock_path(&s, &locks[i], path, sizeof path);
		if (len != locks[i].nkeys)
			return false;
		memset(&r, 0, sizeof r);
		r.well = w, r.piece = g->piece, r.x = g->x, r.y = g->y, r.o = g->o;
		r.supplier = HCLASSIC_MILD;
		for (j = 0; j + 1 < len; j++) {
			long before = r.pieces;

			nv_key(&r, path[j]);
			if (r.pieces != before || r.over)
				return false;
		}
		if (r.x != locks[i].x || r.y != locks[i].y || r.o != locks[i].o)
			return false;
	}
	return true;
}

static long
lock_value(const struct hclassic_lock *l)
{
	long holes = 0;
	unsigned r, c;

	for (c = 0; c < HCLASSIC_COLS; c++) {
		bool roof = false;

		for (r = 0; r < HCLASSIC_ROWS; r++) {
			if (l->well[r] >> c & 1u)
				roof = true;
			else if (roof)
				holes++;
		}
	}
	return (long)l->lines * 60 + (long)l->top * 10 - holes * 25 - (l->over ? 100000 : 0);
}

static void
play_runs(unsigned nruns)
{
	static struct hclassic_search s;
	struct memo m;
	unsigned run, bad = 0, pieces = 0, lines = 0, opt_bad = 0, checks = 0;
	size_t gets = 0;

	memo_init(&m);
	for (run = 0; run < nruns; run++) {
		struct hclassic_memory mem = memo_iface(&m);
		struct hclassic g;
		struct nv_run n;
		unsigned sup = run % HCLASSIC_NSUPPLIERS, steps;
		uint32_t last_piece = 0;
		char label[64];

		memo_clear(&m);
		if (run % 2) {
			/* A well of nearly full rows, as if 2 lines were made. */
			uint16_t rows[HCLASSIC_ROWS] = { 0 };
			struct nv_well w;
			unsigned r, hole = rnd(HCLASSIC_COLS);

			for (r = 10 + rnd(6); r < HCLASSIC_ROWS; r++) {
				if (rnd(3) == 0)
					hole = rnd(HCLASSIC_COLS);
				rows[r] = (uint16_t)(HCLASSIC_FULL_ROW & ~(1u << hole));
			}
			nv_from_rows(&w, rows);
			hclassic_start_from(&g, sup, rows, 2, &mem, NULL);
			nv_start(&n, (int)sup, &w, 2);
		} else {
			hclassic_start(&g, sup, &mem, NULL);
			nv_start(&n, (int)sup, NULL, 0);
		}
		for (steps = 0; steps < 400 && !g.over; steps++) {
			char keys[HCLASSIC_PATH_MAX + 16];
			struct hclassic_report rep;
			size_t nk = 0, i;

			if (g.pieces != last_piece && run % 4 == 0) {
				snprintf(label, sizeof label, "run %u piece %u", run, g.pieces);
				checks++;
				if (!check_options(&g, label))
					opt_bad++;
			}
			last_piece = g.pieces;
			if (rnd(5) == 0) {
				unsigned len = 1 + rnd(8);

				for (i = 0; i < len; i++) {
					unsigned k = rnd(10);

					keys[nk++] = k < 2 ? 'L' : k < 4 ? 'R' : k < 8 ? 'D' : 'U';
				}
			} else {
				size_t nl = hclassic_options(&g, &s, locks, HCLASSIC_LOCKS_MAX), pick = 0;

				if (nl == 0)
					break;
				if (rnd(10) < 7) {
					/* a plain greedy player: lines, a low stack, few holes */
					long best = -1000000;

					for (i = 0; i < nl; i++) {
						long v = lock_value(&locks[i]);

						if (v > best) {
							best = v;
							pick = i;
						}
					}
				} else {
					pick = rnd((unsigned)nl);
				}
				nk = hclassic_lock_path(&s, &locks[pick], keys, sizeof keys);
			}
			hclassic_keys(&g, keys, nk, &mem, &rep);
			lines += rep.lines;
			for (i = 0; i < nk; i++)
				nv_key(&n, keys[i]);
			if (!same_run(&g, &n)) {
				if (bad++ < 5)
					diag("run %u (%s) differs after step %u", run,
					    hclassic_supplier_name(sup), steps);
				break;
			}
		}
		pieces += g.pieces;
		gets += m.gets;
		nv_mem_free(&n.mem);
	}
	memo_cleanup(&m);
	diag("%u runs, %u pieces, %u lines made, %zu memory look-ups", nruns, pieces, lines, gets);
	is_int(bad, 0, "%u random runs agree with the model (wells, pieces, lines, keys, ends)",
	    nruns);
	ok(gets > 0, "the runs asked the memory (%zu look-ups)", gets);
	is_int(opt_bad, 0, "options agree with the model at %u new pieces", checks);
	failures += (int)bad + (int)opt_bad;
}

static void
random_well(uint16_t rows[HCLASSIC_ROWS])
{
	unsigned top = 4 + rnd(16), r, c, dens = 30 + rnd(60);

	memset(rows, 0, HCLASSIC_ROWS * sizeof rows[0]);
	for (r = top; r < HCLASSIC_ROWS; r++) {
		for (c = 0; c < HCLASSIC_COLS; c++)
			if (rnd(100) < dens)
				rows[r] |= (uint16_t)(1u << c);
		if (rows[r] == HCLASSIC_FULL_ROW)
			rows[r] &= (uint16_t)~(1u << rnd(HCLASSIC_COLS));
	}
}

static void
supplier_wells(unsigned nwells)
{
	struct memo m;
	unsigned i, bad = 0, opt_bad = 0, nonzero = 0;

	memo_init(&m);
	for (i = 0; i < nwells; i++) {
		struct hclassic_memory mem = memo_iface(&m);
		struct nv_memory nm = { 0 };
		struct nv_well w;
		struct nv_search ns;
		uint16_t rows[HCLASSIC_ROWS];
		unsigned sup, p;
		int k, nl;

		random_well(rows);
		nv_from_rows(&w, rows);
		memo_clear(&m);
		for (p = 0; p < 7; p++) {
			nl = nv_landings(&w, (int)p, 3, 0, 0, land, 4 * NV_NY * NV_NX, &ns);
			for (k = 0; k < nl; k++)
				if (!land[k].over && rnd(4) == 0) {
					uint32_t v = 1 + rnd(3);
					uint16_t after[HCLASSIC_ROWS];
					uint8_t key[HCLASSIC_KEY_BYTES];

					nv_rows(&land[k].after, after);
					hclassic_well_key(after, key);
					memo_set(&m, key, v);
					nv_mem_set(&nm, &land[k].after, v);
				}
		}
		{
			uint32_t given = (uint32_t)rnd(128);
			uint8_t key[HCLASSIC_KEY_BYTES];

			hclassic_well_key(rows, key);
			memo_set(&m, key, given);
			nv_mem_set(&nm, &w, given);
		}
		for (sup = 0; sup < HCLASSIC_NSUPPLIERS; sup++) {
			struct hclassic_choice ch;
			struct nv_choice nc;
			bool same;

			hclassic_choose(rows, HCLASSIC_COUNT_MAX, sup, &mem, &ch);
			nv_choose(&w, sup == HCLASSIC_MILD ? -1 : (int)sup, &nm, &nc);
			same = ch.piece == nc.piece;
			for (p = 0; p < 7; p++) {
				same = same && ch.rating[p] == nc.rating[p] && ch.loops[p] == nc.loops[p];
				if (ch.loops[p])
					nonzero++;
			}
			if (!same && bad++ < 5)
				diag("well %u, %s: engine %s, model %s", i, hclassic_supplier_name(sup),
				    hclassic_piece_name(ch.piece), hclassic_piece_name((unsigned)nc.piece));
		}
		{
			struct hclassic g;
			char label[32];

			memset(&g, 0, sizeof g);
			memcpy(g.well, rows, sizeof rows);
			g.piece = (uint8_t)rnd(7);
			g.x = 3;
			g.pieces = 1;
			snprintf(label, sizeof label, "well %u", i);
			if (!check_options(&g, label))
				opt_bad++;
		}
		nv_mem_free(&nm);
	}
	memo_cleanup(&m);
	is_int(bad, 0, "supplier agrees with the model on %u random wells x 4 versions", nwells);
	ok(nonzero > nwells, "key 1 was above 0 often (%u times)", nonzero);
	is_int(opt_bad, 0, "options agree with the model on %u random wells", nwells);
	failures += (int)bad + (int)opt_bad;
}

int
main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: %s RUNS WELLS SEED\n", argv[0]);
		return 2;
	}
	rng_state = 0x9e3779b97f4a7c15u ^ strtoull(argv[3], NULL, 10);
	play_runs((unsigned)strtoul(argv[1], NULL, 10));
	supplier_wells((unsigned)strtoul(argv[2], NULL, 10));
	return tap_done();
}
