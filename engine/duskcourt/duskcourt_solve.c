/*
 * duskcourt_solve.c: can a court still be cleared, and how; how many decoys
 * does it hold.
 *
 * A depth-first search over captures with a memo of positions proved
 * impossible to clear. Three facts keep it small:
 *  - idols only ever land on squares that held an idol, so every position
 *    reachable from a root occupies a subset of the root's idol squares;
 *    a position is therefore exactly "which kind stands on each root idol
 *    square", 3 bits per square, and fits a 64-bit key with no hashing
 *    collisions to fear (the memo compares whole keys);
 *  - a capture is always along an edge of the fixed "any idol" graph (the
 *    scorpion's lines cut at boulders, plus the camel's jumps), and removing
 *    idols never adds edges, so a position whose idols fall into two parts
 *    with no edge between them can never be cleared. That check costs a few
 *    mask operations and cuts most dead branches at once;
 *  - kind by kind, each idol can only ever stand on a closure of the present
 *    idol squares under its own reach, so an idol that no other idol can
 *    ever get to must be the survivor: two such idols (or one besides the
 *    K that must stand last) and the position is dead (hopeless()).
 * The last two tests, applied to each first capture without any search,
 * are also the dealer's cheap screen for decoys (duskcourt_decoys_quick).
 * The memo holds dead positions only: a search stops at the first way
 * through. It is a fixed open-addressed table in the caller's struct,
 * stamped with a generation so that each top-level call starts logically
 * empty (results, node counts and therefore the dealer's budgets never
 * depend on what ran before). When a probe window is full its first slot
 * is overwritten: the memo is a cache, losing an entry costs time only.
 *
 * Workload: the dealer calls this on up to 12 idols and 4 boulders on 6x6,
 * a few times per court; a position costs about 0.15 microseconds.
 */
#include "duskcourt_solve.h"

#include <string.h>

#define MEMO_SIZE ((size_t)1 << DUSKCOURT_MEMO_BITS)
#define MEMO_PROBES 4
#define KEY_BITS 48 /* 16 slots of 3 bits */
#define KEY_MASK ((UINT64_C(1) << KEY_BITS) - 1)
#define GEN_MAX 0xffffu /* generations fit the 16 bits above the key */

struct ctx {
	struct duskcourt_solver *sv;
	bool king_survives;
	int nidols;
	uint64_t occ;    /* squares holding an idol */
	uint64_t kings;  /* the K's square when king_survives (it can never be taken) */
	uint64_t key;    /* kind code per root slot, 3 bits each */
	uint64_t budget; /* 0: unbounded */
	uint64_t nodes;
	uint64_t stamp;  /* generation << KEY_BITS */
	uint8_t kind[DUSKCOURT_CELLS];
	int8_t slot[DUSKCOURT_CELLS]; /* root slot of each square, -1 if never an idol */
	uint8_t nray[DUSKCOURT_CELLS][8];
	uint8_t ray[DUSKCOURT_CELLS][8][DUSKCOURT_SIZE_MAX];
	uint64_t jump[DUSKCOURT_CELLS];  /* camel */
	uint64_t touch[DUSKCOURT_CELLS]; /* jackal */
	uint64_t ahead[DUSKCOURT_CELLS]; /* beetle */
	uint64_t any[DUSKCOURT_CELLS];   /* every square any idol could ever take from here */
	uint64_t geo[DUSKCOURT_CELL_KINDS][DUSKCOURT_CELLS]; /* per kind, lines not cut by idols */
	int pathlen;
	struct duskcourt_capture path[DUSKCOURT_PATH_MAX];
};

/* Directions 0..3 straight, 4..7 diagonal. */
static const int dir_r[8] = { 1, -1, 0, 0, 1, 1, -1, -1 };
static const int dir_c[8] = { 0, 0, 1, -1, 1, -1, 1, -1 };

static uint64_t
bit(int sq)
{
	return UINT64_C(1) << sq;
}

static int
lowest(uint64_t m)
{
	return __builtin_ctzll(m);
}

void
duskcourt_solver_init(struct duskcourt_solver *sv)
{
	memset(sv, 0, sizeof *sv);
}

/* A fresh generation: everything stamped before is stale. */
static uint64_t
next_stamp(struct duskcourt_solver *sv)
{
	if (sv->generation >= GEN_MAX) {
		memset(sv->memo, 0, sizeof sv->memo);
		sv->generation = 0;
	}
	sv->generation++;
	return (uint64_t)sv->generation << KEY_BITS;
}

static size_t
memo_index(uint64_t key)
{
	return (size_t)((key * UINT64_C(0x9E3779B97F4A7C15)) >> (64 - DUSKCOURT_MEMO_BITS));
}

static bool
memo_dead(const struct ctx *x)
{
	size_t h = memo_index(x->key), i;
	uint64_t want = x->stamp | x->key;

	for (i = 0; i < MEMO_PROBES; i++)
		if (x->sv->memo[(h + i) & (MEMO_SIZE - 1)] == want)
			return true;
	return false;
}

static void
memo_put(struct ctx *x)
{
	size_t h = memo_index(x->key), i;
	uint64_t *m = x->sv->memo;

	for (i = 0; i < MEMO_PROBES; i++) {
		size_t j = (h + i) & (MEMO_SIZE - 1);

		if ((m[j] & ~KEY_MASK) != x->stamp) {
			m[j] = x->stamp | x->key;
			return;
		}
	}
	m[h] = x->stamp | x->key;
}

static bool
on_court(int r, int c, int size)
{
	return r >= 0 && r < size && c >= 0 && c < size;
}

/* Tables for this court's size and boulders, slots for its idols. False
 * when it holds more idols than a key can carry. */
static bool
setup(struct ctx *x, struct duskcourt_solver *sv, const struct duskcourt_court *c)
{
	static const int jr[8] = { 1, 2, 2, 1, -1, -2, -2, -1 };
	static const int jc[8] = { 2, 1, -1, -2, -2, -1, 1, 2 };
	int size = c->size, sq, d, r, col, n, nslots = 0;
	uint64_t m;

	if (size < DUSKCOURT_SIZE_MIN || size > DUSKCOURT_SIZE_MAX)
		return false;
	memset(x, 0, sizeof *x);
	x->sv = sv;
	x->king_survives = c->king_survives;
	for (sq = 0; sq < DUSKCOURT_CELLS; sq++)
		x->slot[sq] = -1;
	for (sq = 0; sq < size * size; sq++) {
		int k = c->cells[sq];

		if (k < DUSKCOURT_K || k > DUSKCOURT_P)
			continue;
		if (nslots == DUSKCOURT_SOLVE_IDOLS_MAX)
			return false;
		x->slot[sq] = (int8_t)nslots;
		x->key |= (uint64_t)(k - 1) << (3 * nslots);
		nslots++;
		x->kind[sq] = (uint8_t)k;
		x->occ |= bit(sq);
		if (k == DUSKCOURT_K && c->king_survives)
			x->kings |= bit(sq);
	}
	x->nidols = nslots;
	/* The tables of the idols' squares alone: every square the search
	 * looks up comes from a subset of the root's idol squares (an idol
	 * lands only where one stood); the others stay cleared. */
	for (m = x->occ; m; m &= m - 1) {
		int r0, c0;

		sq = lowest(m);
		r0 = sq / size;
		c0 = sq % size;
		uint64_t lines[2] = { 0, 0 }; /* straight, diagonal */

		for (d = 0; d < 8; d++) {
			n = 0;
			/* A boulder ends a line for good: nothing runs past it. */
			for (r = r0 + dir_r[d], col = c0 + dir_c[d]; on_court(r, col, size)
			    && c->cells[r * size + col] != DUSKCOURT_BOULDER;
			    r += dir_r[d], col += dir_c[d]) {
				x->ray[sq][d][n++] = (uint8_t)(r * size + col);
				lines[d >= 4] |= bit(r * size + col);
			}
			x->nray[sq][d] = (uint8_t)n;
			if (n > 0)
				x->touch[sq] |= bit(x->ray[sq][d][0]);
			if (d >= 4 && dir_r[d] == 1 && n > 0)
				x->ahead[sq] |= bit(x->ray[sq][d][0]);
			r = r0 + jr[d];
			col = c0 + jc[d];
			if (on_court(r, col, size) && c->cells[r * size + col] != DUSKCOURT_BOULDER)
				x->jump[sq] |= bit(r * size + col);
		}
		x->any[sq] = lines[0] | lines[1] | x->jump[sq];
		x->geo[DUSKCOURT_K][sq] = x->touch[sq];
		x->geo[DUSKCOURT_N][sq] = x->jump[sq];
		x->geo[DUSKCOURT_P][sq] = x->ahead[sq];
		x->geo[DUSKCOURT_Q][sq] = lines[0] | lines[1];
		x->geo[DUSKCOURT_R][sq] = lines[0];
		x->geo[DUSKCOURT_B][sq] = lines[1];
	}
	return true;
}

/* The squares the idol on sq can take now. */
static uint64_t
targets(const struct ctx *x, int sq)
{
	uint64_t t = 0;
	int d, dlo, dhi, i;

	switch (x->kind[sq]) {
	case DUSKCOURT_K:
		t = x->touch[sq] & x->occ;
		break;
	case DUSKCOURT_N:
		t = x->jump[sq] & x->occ;
		break;
	case DUSKCOURT_P:
		t = x->ahead[sq] & x->occ;
		break;
	default:
		dlo = x->kind[sq] == DUSKCOURT_B ? 4 : 0;
		dhi = x->kind[sq] == DUSKCOURT_R ? 4 : 8;
		for (d = dlo; d < dhi; d++) {
			const uint8_t *ray = x->ray[sq][d];

			for (i = 0; i < x->nray[sq][d]; i++) {
				if (x->occ & bit(ray[i])) {
					t |= bit(ray[i]);
					break;
				}
			}
		}
		break;
	}
	return t & ~x->kings;
}

/* Whether all idols are joined through the "any idol" graph. */
static bool
connected(const struct ctx *x)
{
	uint64_t seen = x->occ & -x->occ, frontier = seen;

	while (frontier) {
		uint64_t grow = 0;

		while (frontier) {
			grow |= x->any[lowest(frontier)];
			frontier &= frontier - 1;
		}
		grow &= x->occ & ~seen;
		seen |= grow;
		frontier = grow;
	}
	return seen == x->occ;
}

/* A necessary condition, kind by kind: every idol but the survivor must be
 * taken somewhere, so some other idol must be able to get to a square it
 * can stand on. An idol moves only by taking, onto squares that hold idols
 * now (an emptied square stays empty for good), so the squares it can ever
 * reach are a closure over the present idol squares with its own kind's
 * lines (not cut by idols: an over-estimate, which keeps this sound). Two
 * idols that nothing can reach, or one besides the K that must stand last,
 * or a K that can never take at all, and the court is dead. */
static bool
hopeless(const struct ctx *x)
{
	uint64_t stand[DUSKCOURT_CELLS], go[DUSKCOURT_CELLS], takeable = x->occ & ~x->kings;
	uint64_t m, safe, all = 0, twice = 0;

	for (m = x->occ; m; m &= m - 1) {
		int a = lowest(m);
		const uint64_t *g = x->geo[x->kind[a]];
		uint64_t reach = g[a] & takeable, frontier = reach;

		while (frontier) {
			uint64_t grow = 0;

			for (; frontier; frontier &= frontier - 1)
				grow |= g[lowest(frontier)];
			frontier = grow & takeable & ~reach;
			reach |= frontier;
		}
		go[a] = reach & ~bit(a);
		stand[a] = reach | bit(a);
		if ((x->kings & bit(a)) && go[a] == 0)
			return true;
	}
	/* Squares some other idol can get to, for every idol at once: a square
	 * reached by two idols is reached by another than a whatever a is. */
	for (m = x->occ; m; m &= m - 1) {
		uint64_t g = go[lowest(m)];

		twice |= all & g;
		all |= g;
	}
	safe = x->kings;
	for (m = x->occ & ~x->kings; m; m &= m - 1) {
		int a = lowest(m);

		if (((twice | (all & ~go[a])) & stand[a]) == 0) {
			if (safe != 0)
				return true;
			safe |= bit(a);
		}
	}
	return false;
}

/* What a capture changed, for undoing it. */
struct taken {
	uint64_t key, kings;
	uint8_t kf, kt; /* the kinds that stood on from and to */
};

/* The idol on f takes the one on t: the squares, the count, the K's square
 * and the key follow. */
static void
take(struct ctx *x, int f, int t, struct taken *u)
{
	int sf = x->slot[f], st = x->slot[t];

	u->kf = x->kind[f];
	u->kt = x->kind[t];
	u->key = x->key;
	u->kings = x->kings;
	x->kind[t] = u->kf;
	x->kind[f] = DUSKCOURT_EMPTY;
	x->occ &= ~bit(f);
	x->nidols--;
	if (u->kings & bit(f))
		x->kings = bit(t);
	x->key = (u->key & ~(UINT64_C(7) << (3 * sf)) & ~(UINT64_C(7) << (3 * st)))
	    | ((uint64_t)(u->kf - 1) << (3 * st));
}

/* Undoes take(x, f, t, u). */
static void
untake(struct ctx *x, int f, int t, const struct taken *u)
{
	x->kind[f] = u->kf;
	x->kind[t] = u->kt;
	x->occ |= bit(f);
	x->nidols++;
	x->kings = u->kings;
	x->key = u->key;
}

/* 1: clearable (path[0..pathlen) is a way), 0: dead, -1: out of budget. */
static int
search(struct ctx *x, int depth)
{
	uint64_t from_set;

	if (x->nidols <= 1) {
		x->pathlen = depth;
		return x->nidols == 1;
	}
	if (memo_dead(x))
		return 0;
	x->nodes++;
	if (x->budget != 0 && x->nodes > x->budget)
		return -1;
	if (x->nidols >= 3 && (!connected(x) || hopeless(x))) {
		memo_put(x);
		return 0;
	}
	for (from_set = x->occ; from_set; from_set &= from_set - 1) {
		int f = lowest(from_set);
		uint64_t to_set = targets(x, f);

		for (; to_set; to_set &= to_set - 1) {
			int t = lowest(to_set), res;
			struct taken u;

			take(x, f, t, &u);
			x->path[depth].from = (uint8_t)f;
			x->path[depth].to = (uint8_t)t;
			res = search(x, depth + 1);
			untake(x, f, t, &u);
			if (res != 0)
				return res;
		}
	}
	memo_put(x);
	return 0;
}

enum duskcourt_verdict
duskcourt_solve(struct duskcourt_solver *sv, const struct duskcourt_court *c,
    uint64_t budget, struct duskcourt_capture *path, size_t *npath)
{
	struct ctx x;
	int res;

	if (npath != NULL)
		*npath = 0;
	sv->nodes = 0;
	if (!setup(&x, sv, c))
		return DUSKCOURT_UNKNOWN;
	x.budget = budget;
	x.stamp = next_stamp(sv);
	res = search(&x, 0);
	sv->nodes = x.nodes;
	if (res < 0)
		return DUSKCOURT_UNKNOWN;
	if (res == 0)
		return DUSKCOURT_UNCLEARABLE;
	if (path != NULL)
		memcpy(path, x.path, (size_t)x.pathlen * sizeof path[0]);
	if (npath != NULL)
		*npath = (size_t)x.pathlen;
	return DUSKCOURT_CLEARABLE;
}

/* Plays one first capture on the root for the decoy count and undoes it.
 * limit 0 makes only the instant tests; otherwise the child may search that
 * many more positions (within the global budget). Returns 1 clearable,
 * 0 dead, 2 undecided within the limit, -1 global budget spent. */
static int
try_first(struct ctx *x, int f, int t, uint64_t limit, uint64_t global)
{
	struct taken u;
	int res;

	take(x, f, t, &u);
	if (limit == 0) {
		res = x->nidols >= 3 && (!connected(x) || hopeless(x)) ? 0 : 2;
	} else {
		x->budget = global - x->nodes > limit ? x->nodes + limit : global;
		res = search(x, 1);
		if (res < 0 && x->nodes <= global)
			res = 2;
	}
	untake(x, f, t, &u);
	return res;
}

bool
duskcourt_decoys(struct duskcourt_solver *sv, const struct duskcourt_court *c,
    int enough, uint64_t budget, int *ndecoys, bool *clearable)
{
	/* Rounds of growing effort per first capture: clearable ones mostly
	 * show a way through within a few dozen positions, and once enough of
	 * them are known the count is settled without proving any dead one. */
	static const uint64_t limits[] = { 0, 64, 1024, 16384, UINT64_MAX };
	struct ctx x;
	uint64_t from_set, undecided[DUSKCOURT_CELLS], global = budget ? budget : UINT64_MAX;
	int dead = 0, open = 0, res = 0;
	size_t round;

	*ndecoys = 0;
	if (clearable != NULL)
		*clearable = false;
	sv->nodes = 0;
	if (!setup(&x, sv, c))
		return false;
	x.stamp = next_stamp(sv);
	for (from_set = x.occ; from_set; from_set &= from_set - 1) {
		undecided[lowest(from_set)] = targets(&x, lowest(from_set));
		open += __builtin_popcountll(undecided[lowest(from_set)]);
	}
	for (round = 0; round < sizeof limits / sizeof limits[0] && open > 0; round++) {
		for (from_set = x.occ; from_set; from_set &= from_set - 1) {
			int f = lowest(from_set);
			uint64_t to_set;

			for (to_set = undecided[f]; to_set; to_set &= to_set - 1) {
				int t = lowest(to_set);

				res = try_first(&x, f, t, limits[round], global);
				if (res < 0)
					goto done;
				if (res == 0)
					dead++;
				if (res == 1 && clearable != NULL)
					*clearable = true;
				if (res != 2) {
					undecided[f] &= ~bit(t);
					open--;
				}
				/* Settled either way: enough proved, or too few left
				 * undecided to ever get there. */
				if (enough > 0 && (dead >= enough || dead + open < enough))
					goto done;
			}
		}
	}
done:
	sv->nodes = x.nodes;
	*ndecoys = dead;
	return res >= 0;
}

int
duskcourt_decoys_quick(struct duskcourt_solver *sv, const struct duskcourt_court *c)
{
	struct ctx x;
	uint64_t from_set, to_set;
	int dead = 0;

	sv->nodes = 0;
	if (!setup(&x, sv, c))
		return 0;
	for (from_set = x.occ; from_set; from_set &= from_set - 1) {
		int f = lowest(from_set);

		for (to_set = targets(&x, f); to_set; to_set &= to_set - 1)
			dead += try_first(&x, f, lowest(to_set), 0, 0) == 0;
	}
	return dead;
}
