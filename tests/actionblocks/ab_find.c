/*
 * ab_find.c: the offline search behind the scripted ActionBlocks cases over
 * HTTP (tests/e2e/test_actionblocks_spins.py). It is a tool, not a test: it
 * looks through seeds for a 2-player turn-clock match in which seat 0's keys
 * reach a position (a T-spin triple, a mini T-spin before a back-to-back
 * triple, every SRS kick test, a garbage overflow), and prints the seed and
 * both seats' moves, turn by turn, as one JSON line. The e2e test plays those
 * moves over HTTP and checks what the rules say they must do; the search
 * itself never runs in the suite.
 *
 *   ab_find tst FROM TO       a T-spin triple by seat 0, nothing else first
 *   ab_find b2b FROM TO       a mini T-spin single, then a T-spin triple
 *   ab_find kicks FROM TO     tests 2 to 5 of both SRS tables, each once, and
 *                             as many other (quarter turn, test) pairs as
 *                             250 turns find
 *   ab_find overflow FROM TO  seat 1's perfect clears push seat 0's tower
 *                             over row 39
 *
 * How: seat 0's pieces are its own (the stream is shared, the draws are per
 * seat), so a plan for it is searched on a copy of its player alone. A
 * beam over hard-drop placements (hold or not, four rotations, every shift)
 * builds a shape that a cell template scores; then a breadth-first search
 * over keys from the spawn (L R X Z S, C first) finds the keys whose lock
 * does the wanted thing. The other seat plays a placement that sends
 * nothing. For the overflow the roles turn: seat 1 plays two perfect
 * clears (a beam of its own over hard drops, rows clearing on the way),
 * seat 0 builds a tower at the walls and keeps the spawn's columns low.
 * Every result is played once more as the server plays it
 * (ab_resolve on the whole match, the moves as text) before it is printed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actionblocks.h"
#include "actionblocks_rules.h"

#define KEYS_MAX 64
#define TURNS_MAX 64
#define BEAM 400

/* ---- one seat alone ---- */

static struct ab_match solo_m;

static void
solo_load(uint64_t seed, const struct ab_player *p)
{
	memset(&solo_m, 0, sizeof solo_m);
	solo_m.seed = seed;
	solo_m.clock = AB_CLOCK_TURNS;
	solo_m.nplayers = 1;
	solo_m.nalive = 1;
	solo_m.players[0] = *p;
}

/* A rotation's kick: table 1 J L S T Z, 2 I; test 1..5. */
struct kick {
	uint8_t table, from, to, test;
};

/* The kick a rotation from a to b took (table 0 when it was no kick test). */
static struct kick
kick_of(const struct ab_player *a, const struct ab_player *b)
{
	const int8_t (*tests)[2];
	unsigned t, nt = ab_kicks(a->cur.piece, a->cur.shape, a->act.rot, b->act.rot, &tests);
	struct kick k = { 0, 0, 0, 0 };

	for (t = 0; t < nt; t++)
		if (tests[t][0] == b->act.x - a->act.x && tests[t][1] == b->act.y - a->act.y)
			break;
	if (nt == AB_KICK_TESTS && t < nt && a->act.rot != b->act.rot)
		k = (struct kick){ a->cur.piece == AB_PIECE_I ? 2 : 1, a->act.rot, b->act.rot,
		    (uint8_t)(t + 1) };
	return k;
}

/* Plays keys on p (seat 0 of a solo match seeded seed); true when the last
 * key, and only it, locks without a lock out or a block out, and the next
 * piece spawns. e gets the lock. */
static bool
solo_play(uint64_t seed, struct ab_player *p, const char *keys, struct ab_lock_events *e)
{
	uint32_t drop = 0;
	size_t k, n = strlen(keys);
	enum ab_key_result r = AB_KEY_NOTHING;

	solo_load(seed, p);
	for (k = 0; k < n; k++) {
		r = ab_key(&solo_m, 0, keys[k], &drop);
		if (r == AB_KEY_BLOCK_OUT || r == AB_KEY_LOCK)
			break;
	}
	if (k + 1 != n || r != AB_KEY_LOCK)
		return false;
	ab_lock(&solo_m, 0, e);
	if (e->lock_out || !ab_spawn_next(&solo_m, 0))
		return false;
	*p = solo_m.players[0];
	return true;
}

/* ---- boards ---- */

static bool
filled(const struct ab_player *p, int x, int y)
{
	if (x < 0 || x >= AB_COLS || y < 0)
		return true;
	return y < AB_ROWS && p->cells[y][x] != AB_CELL_EMPTY;
}

static int
height(const struct ab_player *p, int x)
{
	int y;

	for (y = AB_ROWS - 1; y >= 0 && p->cells[y][x] == AB_CELL_EMPTY; y--)
		;
	return y + 1;
}

static int
top_row(const struct ab_player *p)
{
	int x, h = 0;

	for (x = 0; x < AB_COLS; x++)
		if (height(p, x) > h)
			h = height(p, x);
	return h - 1;
}

/* Empty cells under a filled one. */
static int
holes(const struct ab_player *p)
{
	int x, y, n = 0;

	for (x = 0; x < AB_COLS; x++)
		for (y = height(p, x) - 2; y >= 0; y--)
			n += p->cells[y][x] == AB_CELL_EMPTY;
	return n;
}

/* ---- placements ---- */

static char placement[2 * 4 * 11][24];
static unsigned nplacement;

static void
placements_init(void)
{
	static const char *const rot[4] = { "", "X", "XX", "Z" };
	unsigned h, r;
	int s, k;

	for (h = 0; h < 2; h++)
		for (r = 0; r < 4; r++)
			for (s = -5; s <= 5; s++) {
				char *t = placement[nplacement++];

				strcpy(t, h ? "C" : "");
				strcat(t, rot[r]);
				for (k = 0; k < abs(s); k++)
					strcat(t, s < 0 ? "L" : "R");
				strcat(t, "D");
			}
}

/* ---- keys from the spawn: breadth first ---- */

struct node {
	struct ab_player p;
	struct kick last; /* the kick of its last key, when that was a rotation */
	char keys[KEYS_MAX + 1];
};

static struct node bfs_queue[20000];
static bool seen[2][8][16][48][4][2][2];

/* What a lock must do; k the kick of the rotation just before the D. */
typedef bool (*want_fn)(const struct ab_lock_events *e, const struct kick *k, void *arg);

/* The fewest keys (ending in D) from p's piece at its spawn whose lock
 * wants() takes; false when none within KEYS_MAX. */
static bool
find_keys(uint64_t seed, const struct ab_player *p0, want_fn want, void *arg, char *out)
{
	static const char moves[] = "CLRXZS";
	unsigned head = 0, tail = 0, i;

	memset(seen, 0, sizeof seen);
	bfs_queue[tail].p = *p0;
	bfs_queue[tail++].keys[0] = '\0';
	while (head < tail) {
		struct node *nd = &bfs_queue[head++];
		size_t n = strlen(nd->keys);
		struct ab_lock_events e;
		struct ab_player q = nd->p;

		if (solo_play(seed, &q, "D", &e) && want(&e, &nd->last, arg)) {
			snprintf(out, KEYS_MAX + 2, "%sD", nd->keys);
			return true;
		}
		if (n + 1 >= KEYS_MAX)
			continue;
		for (i = 0; i < sizeof moves - 1; i++) {
			struct ab_player *r;
			uint32_t drop = 0;
			enum ab_key_result res;
			const struct ab_active *a;

			if (moves[i] == 'C' && n > 0)
				continue;
			solo_load(seed, &nd->p);
			res = ab_key(&solo_m, 0, moves[i], &drop);
			if (res != AB_KEY_DONE)
				continue;
			r = &solo_m.players[0];
			a = &r->act;
			if (a->x + 3 < 0 || a->x + 3 >= 16 || a->y + 3 < 0 || a->y + 3 >= 48)
				continue;
			if (seen[r->hold_used][r->cur.piece & 7][a->x + 3][a->y + 3][a->rot][a->last_rot]
			    [a->last_kick5])
				continue;
			seen[r->hold_used][r->cur.piece & 7][a->x + 3][a->y + 3][a->rot][a->last_rot]
			    [a->last_kick5] = true;
			if (tail == sizeof bfs_queue / sizeof bfs_queue[0])
				return false;
			memset(&bfs_queue[tail].last, 0, sizeof bfs_queue[tail].last);
			if (moves[i] == 'X' || moves[i] == 'Z')
				bfs_queue[tail].last = kick_of(&nd->p, r);
			bfs_queue[tail].p = *r;
			snprintf(bfs_queue[tail].keys, sizeof bfs_queue[tail].keys, "%s%c", nd->keys, moves[i]);
			tail++;
		}
	}
	return false;
}

static bool
want_spin(const struct ab_lock_events *e, const struct kick *k, void *arg)
{
	const int *w = arg; /* spin, lines */

	(void)k;
	return e->spin == (unsigned)w[0] && e->lines == w[1];
}

/* ---- templates: a shape to build with hard drops ---- */

/* Cells: 'F' must end filled, 'E' must stay empty, anything else free.
 * rows[y] is row y (bottom first), up to 8 rows; above them nothing may be
 * filled higher than cap. */
struct shape {
	char rows[8][AB_COLS + 1];
	int nrows, cap;
};

/* -1 when p breaks the shape (a cell that must stay empty filled, a cell
 * that must be filled covered while empty, anything above the cap), else
 * how many cells that must be filled are. */
static int
shape_score(const struct ab_player *p, const struct shape *s)
{
	int x, y, n = 0;

	if (top_row(p) > s->cap)
		return -1;
	for (y = 0; y < s->nrows; y++)
		for (x = 0; x < AB_COLS; x++) {
			char c = s->rows[y][x];

			if (c == 'E' && filled(p, x, y))
				return -1;
			if (c == 'F' && filled(p, x, y))
				n++;
			else if (c == 'F' && height(p, x) > y)
				return -1;
		}
	return n;
}

static int
shape_need(const struct shape *s)
{
	int x, y, n = 0;

	for (y = 0; y < s->nrows; y++)
		for (x = 0; x < AB_COLS; x++)
			n += s->rows[y][x] == 'F';
	return n;
}

struct plan {
	int n;
	char keys[TURNS_MAX][KEYS_MAX + 1];
};

#define DEPTH_MAX 16

struct beam_item {
	struct ab_player p;
	int score;
	uint8_t n;                /* placements so far */
	uint8_t idx[DEPTH_MAX];   /* placement[] of each */
	uint8_t lines;            /* rows cleared so far (perfect clears) */
};

static struct beam_item beam_a[BEAM], beam_b[BEAM * 2 * 4 * 11];

static int
by_score(const void *a, const void *b)
{
	const struct beam_item *x = a, *y = b;

	return (y->score > x->score) - (y->score < x->score);
}

/* Builds s on *p with at most depth locks that clear nothing, until all
 * but slack of its cells to fill are, then finds keys whose lock wants();
 * the plan grows by the placements and those keys, *p becomes the player
 * after them. */
static bool
build(uint64_t seed, struct ab_player *p, struct plan *plan, const struct shape *s, int depth,
    int slack, want_fn want, void *arg)
{
	int d, n = 1, need = shape_need(s) - slack;
	unsigned i, j;

	if (depth > DEPTH_MAX)
		depth = DEPTH_MAX;
	beam_a[0].p = *p;
	beam_a[0].n = 0;
	beam_a[0].score = shape_score(p, s);
	if (beam_a[0].score < 0)
		return false;
	for (d = 0; d <= depth; d++) {
		int m = 0;

		for (i = 0; i < (unsigned)n; i++) {
			char keys[KEYS_MAX + 1];
			struct beam_item *b = &beam_a[i];
			struct ab_lock_events e;

			if (b->score < need || plan->n + b->n + 1 > TURNS_MAX ||
			    !find_keys(seed, &b->p, want, arg, keys))
				continue;
			for (j = 0; j < b->n; j++)
				strcpy(plan->keys[plan->n++], placement[b->idx[j]]);
			strcpy(plan->keys[plan->n++], keys);
			if (!solo_play(seed, &b->p, keys, &e))
				abort();
			*p = b->p;
			return true;
		}
		if (d == depth)
			break;
		for (i = 0; i < (unsigned)n; i++)
			for (j = 0; j < nplacement; j++) {
				struct beam_item *c = &beam_b[m];
				struct ab_lock_events e;

				c->p = beam_a[i].p;
				if (!solo_play(seed, &c->p, placement[j], &e) || e.lines > 0)
					continue;
				c->score = shape_score(&c->p, s);
				if (c->score < 0)
					continue;
				c->n = beam_a[i].n;
				memcpy(c->idx, beam_a[i].idx, sizeof c->idx);
				c->idx[c->n++] = (uint8_t)j;
				m++;
			}
		if (m == 0)
			return false;
		/* Ties: a lower stack first, then fewer holes. */
		for (i = 0; i < (unsigned)m; i++)
			beam_b[i].score = beam_b[i].score * 1000 - top_row(&beam_b[i].p) * 10 -
			    holes(&beam_b[i].p);
		qsort(beam_b, (size_t)m, sizeof beam_b[0], by_score);
		/* Drop boards seen already (the same cells, piece and hold). */
		n = 0;
		for (i = 0; i < (unsigned)m && n < BEAM; i++) {
			bool dup = false;

			for (j = 0; j < (unsigned)n && !dup; j++)
				dup = memcmp(beam_a[j].p.cells, beam_b[i].p.cells, sizeof beam_b[i].p.cells) == 0 &&
				    beam_a[j].p.hold.piece == beam_b[i].p.hold.piece &&
				    beam_a[j].p.drawn == beam_b[i].p.drawn;
			if (dup)
				continue;
			beam_a[n] = beam_b[i];
			beam_a[n].score = shape_score(&beam_a[n].p, s);
			n++;
		}
	}
	return false;
}

/* A perfect clear of rows rows on *p's empty well by hard drops, rows
 * clearing on the way allowed: the beam keeps wells whose cells all lie
 * below rows less the rows cleared, with no covered hole, fullest first. */
static bool
pc_build(uint64_t seed, struct ab_player *p, struct plan *plan, int rows, int depth)
{
	int d, n = 1;
	unsigned i, j;

	if (depth > DEPTH_MAX)
		depth = DEPTH_MAX;
	beam_a[0].p = *p;
	beam_a[0].n = 0;
	beam_a[0].lines = 0;
	for (d = 0; d < depth; d++) {
		int m = 0;

		for (i = 0; i < (unsigned)n; i++)
			for (j = 0; j < nplacement; j++) {
				struct beam_item *c = &beam_b[m];
				struct ab_lock_events e;
				int x, cells = 0;

				c->p = beam_a[i].p;
				if (!solo_play(seed, &c->p, placement[j], &e))
					continue;
				c->lines = (uint8_t)(beam_a[i].lines + e.lines);
				c->n = beam_a[i].n;
				memcpy(c->idx, beam_a[i].idx, sizeof c->idx);
				c->idx[c->n++] = (uint8_t)j;
				if (e.perfect) {
					for (j = 0; j < c->n; j++)
						strcpy(plan->keys[plan->n++], placement[c->idx[j]]);
					*p = c->p;
					return true;
				}
				if (top_row(&c->p) >= rows - c->lines || holes(&c->p) > 0)
					continue;
				for (x = 0; x < AB_COLS; x++)
					cells += height(&c->p, x);
				c->score = cells + 10 * c->lines;
				m++;
			}
		if (m == 0)
			return false;
		for (i = 0; i < (unsigned)m; i++) {
			int x, bump = 0;

			for (x = 1; x < AB_COLS; x++)
				bump += abs(height(&beam_b[i].p, x) - height(&beam_b[i].p, x - 1));
			beam_b[i].score = beam_b[i].score * 100 - bump;
		}
		qsort(beam_b, (size_t)m, sizeof beam_b[0], by_score);
		n = 0;
		for (i = 0; i < (unsigned)m && n < BEAM; i++) {
			bool dup = false;

			for (j = 0; j < (unsigned)n && !dup; j++)
				dup = memcmp(beam_a[j].p.cells, beam_b[i].p.cells, sizeof beam_b[i].p.cells) == 0 &&
				    beam_a[j].p.hold.piece == beam_b[i].p.hold.piece &&
				    beam_a[j].p.drawn == beam_b[i].p.drawn;
			if (!dup)
				beam_a[n++] = beam_b[i];
		}
	}
	return false;
}

/* The T-spin triple's shape: the slot at column c, its rows b..b+2, the
 * overhang at (c, b+4), the T's way in by columns c-3..c-1 from above
 * (it lands on row b+3 and slides right under the overhang). */
static void
tst_shape(struct shape *s, int c, int b)
{
	int x, y;

	memset(s, 0, sizeof *s);
	s->nrows = b + 8 < 8 ? b + 8 : 8;
	s->cap = b + 6;
	for (y = 0; y < s->nrows; y++)
		for (x = 0; x < AB_COLS; x++)
			s->rows[y][x] = '.';
	for (y = b; y <= b + 2; y++)
		for (x = 0; x < AB_COLS; x++)
			s->rows[y][x] = 'F';
	s->rows[b][c] = s->rows[b + 1][c] = s->rows[b + 2][c] = s->rows[b + 1][c - 1] = 'E';
	s->rows[b + 3][c] = 'E';
	s->rows[b + 4][c] = 'F';
	for (y = b + 3; y < s->nrows; y++)
		for (x = c - 3; x < c; x++)
			s->rows[y][x] = 'E';
}

/* The mini T-spin single's: row r full but the wall's column, which is
 * filled on row r - 1; the three columns at the wall open above row r (the
 * T lands flat on row r + 1 and turns towards the wall, its second test). */
static void
mini_shape(struct shape *s, int r, bool right)
{
	int x, y;

	memset(s, 0, sizeof *s);
	s->nrows = 8;
	s->cap = r + 3;
	for (y = 0; y < s->nrows; y++)
		for (x = 0; x < AB_COLS; x++) {
			int w = right ? AB_COLS - 1 - x : x; /* columns from the wall */

			s->rows[y][x] = y == r ? (w == 0 ? 'E' : 'F') : y > r && w < 3 ? 'E' :
			    y == r - 1 && w == 0 ? 'F' : '.';
		}
}

/* ---- the other seat, and the whole match ---- */

/* A hard-drop placement for seat that sends nothing and keeps its stack
 * low and flat. */
static void
quiet_move(const struct ab_match *m, unsigned seat, char *out)
{
	long best = -1000000000L;
	unsigned j;

	strcpy(out, "D");
	for (j = 0; j < nplacement; j++) {
		struct ab_player p = m->players[seat];
		struct ab_lock_events e;
		long v;
		int x, bump = 0;

		if (placement[j][0] == 'C' || !solo_play(m->seed, &p, placement[j], &e) || e.attack > 0)
			continue;
		for (x = 1; x < AB_COLS; x++)
			bump += abs(height(&p, x) - height(&p, x - 1));
		v = -100L * top_row(&p) - 30L * holes(&p) - bump;
		if (v > best) {
			best = v;
			strcpy(out, placement[j]);
		}
	}
}

typedef void (*mover_fn)(const struct ab_match *m, unsigned seat, int turn, char *out, void *arg);

struct script {
	int nturns;
	char moves[TURNS_MAX][2][KEYS_MAX + 8];
	struct ab_events ev[TURNS_MAX];
};

/* Plays the match as the server does; false when a move is refused. */
static bool
play_match(uint64_t seed, mover_fn mover, void *arg, int nturns, struct script *sc,
    struct ab_match *m)
{
	int t;
	unsigned s;

	if (!ab_init(m, seed, 2, AB_CLOCK_TURNS, 0, NULL))
		return false;
	sc->nturns = 0;
	for (t = 0; t < nturns && !m->over; t++) {
		struct ab_move mv[2];
		char reason[ENGINE_REASON_MAX];

		for (s = 0; s < 2; s++) {
			char keys[KEYS_MAX + 1];

			memset(&mv[s], 0, sizeof mv[s]);
			if (!m->players[s].alive) {
				strcpy(sc->moves[t][s], "null");
				continue;
			}
			mover(m, s, t, keys, arg);
			snprintf(sc->moves[t][s], sizeof sc->moves[t][s], "keys %s", keys);
			if (ab_move_parse(sc->moves[t][s], strlen(sc->moves[t][s]), &mv[s], reason,
			    sizeof reason) != AB_PARSE_OK)
				return false;
		}
		if (ab_resolve(m, mv, &sc->ev[t], NULL, reason, sizeof reason) != AB_OK) {
			fprintf(stderr, "seed %llu turn %d refused: %s\n", (unsigned long long)seed, t + 1,
			    reason);
			return false;
		}
		sc->nturns = t + 1;
	}
	return true;
}

static void
script_print(uint64_t seed, const char *what, const struct script *sc, const char *extra)
{
	int t;

	printf("{\"case\": \"%s\", \"seed\": %llu, %s\"turns\": [", what, (unsigned long long)seed,
	    extra);
	for (t = 0; t < sc->nturns; t++) {
		const char *a = sc->moves[t][0], *b = sc->moves[t][1];

		printf("%s[%s%s%s, %s%s%s]", t ? ", " : "", strcmp(a, "null") ? "\"" : "", a,
		    strcmp(a, "null") ? "\"" : "", strcmp(b, "null") ? "\"" : "", b,
		    strcmp(b, "null") ? "\"" : "");
	}
	printf("]}\n");
	fflush(stdout);
}

/* Seat 0 follows a plan, seat 1 plays quiet moves. */
static void
plan_mover(const struct ab_match *m, unsigned seat, int turn, char *out, void *arg)
{
	const struct plan *plan = arg;

	if (seat == 0 && turn < plan->n)
		strcpy(out, plan->keys[turn]);
	else
		quiet_move(m, seat, out);
}

/* ---- T-spin triple (after a mini T-spin single with b2b) ---- */

static bool
find_tst(uint64_t seed, bool b2b)
{
	struct ab_match m0, m;
	struct ab_player p;
	struct plan plan = { 0 };
	struct shape s;
	struct script sc;
	int c, b, mini_turn = 0;
	int w_tst[2] = { AB_SPIN_FULL, 3 }, w_mini[2] = { AB_SPIN_MINI, 1 };
	char extra[128];

	ab_init(&m0, seed, 2, AB_CLOCK_TURNS, 0, NULL);
	p = m0.players[0];
	if (b2b) {
		bool found = false;

		for (b = 0; b < 6 && !found; b++) {
			struct ab_player q = p;

			mini_shape(&s, b / 2, b % 2);
			if (build(seed, &q, &plan, &s, 8, 0, want_spin, w_mini)) {
				p = q;
				found = true;
			}
		}
		if (!found)
			return false;
		mini_turn = plan.n;
		fprintf(stderr, "seed %llu: a mini spin at turn %d\n", (unsigned long long)seed, mini_turn);
	}
	for (b = 0; b <= (b2b ? 2 : 0); b++)
		for (c = 3; c < AB_COLS; c++) {
			struct ab_player q = p;
			struct plan pl = plan;

			tst_shape(&s, c, b);
			if (!build(seed, &q, &pl, &s, 12, 0, want_spin, w_tst))
				continue;
			if (!play_match(seed, plan_mover, &pl, pl.n, &sc, &m))
				return false;
			{
				const struct ab_seat_events *e = &sc.ev[pl.n - 1].seats[0];

				if (!e->locked || e->lock.spin != AB_SPIN_FULL || e->lock.lines != 3 ||
				    e->lock.b2b != b2b || m.players[0].pending != 0 || !m.players[1].alive)
					return false;
			}
			snprintf(extra, sizeof extra, "\"mini_turn\": %d, \"tst_turn\": %d, ", mini_turn, pl.n);
			script_print(seed, b2b ? "b2b" : "tst", &sc, extra);
			return true;
		}
	return false;
}

/* ---- kicks ---- */

/* Kicks: every (table, quarter turn, test 2..5), 64 in all, is a goal;
 * each turn seat 0 takes one not yet taken if its keys can (a test of a
 * table not yet taken in any quarter turn first), right before a hard drop
 * that clears nothing, and otherwise a quiet placement. The script ends at
 * the last new one; it must hold every test of both tables. */
struct all_run {
	bool done[3][4][4][6];
	bool done_test[3][6];
	bool any_turn;  /* the search of the moment: a new test in any turn */
	int ndone, last_new;
};

static bool
want_new_kick(const struct ab_lock_events *e, const struct kick *k, void *arg)
{
	const struct all_run *ar = arg;

	if (e->lines != 0 || k->table == 0 || k->test < 2)
		return false;
	return ar->any_turn ? !ar->done_test[k->table][k->test] : !ar->done[k->table][k->from][k->to][k->test];
}

static void
all_mover(const struct ab_match *m, unsigned seat, int turn, char *out, void *arg)
{
	struct all_run *ar = arg;

	bool found = false;

	if (seat == 0) {
		ar->any_turn = true;
		found = find_keys(m->seed, &m->players[0], want_new_kick, ar, out);
		ar->any_turn = false;
		found = found || find_keys(m->seed, &m->players[0], want_new_kick, ar, out);
	}
	if (found) {
		struct ab_player p = m->players[0];
		struct kick k = { 0, 0, 0, 0 };
		size_t n = strlen(out);
		unsigned i;

		/* The kick of the rotation before the D, found again. */
		solo_load(m->seed, &p);
		for (i = 0; i + 1 < n; i++) {
			struct ab_player before = solo_m.players[0];
			uint32_t drop = 0;

			ab_key(&solo_m, 0, out[i], &drop);
			if (i + 2 == n)
				k = kick_of(&before, &solo_m.players[0]);
		}
		if (k.table != 0 && !ar->done[k.table][k.from][k.to][k.test]) {
			ar->done[k.table][k.from][k.to][k.test] = true;
			ar->done_test[k.table][k.test] = true;
			ar->ndone++;
			ar->last_new = turn + 1;
		}
		return;
	}
	quiet_move(m, seat, out);
}

static bool
find_all_kicks(uint64_t seed, int nturns)
{
	struct all_run ar;
	struct script sc;
	struct ab_match m;
	char extra[64];

	unsigned t, k;

	memset(&ar, 0, sizeof ar);
	if (!play_match(seed, all_mover, &ar, nturns, &sc, &m))
		return false;
	for (t = 1; t <= 2; t++)
		for (k = 2; k <= 5; k++)
			if (!ar.done_test[t][k])
				return false;
	sc.nturns = ar.last_new;
	snprintf(extra, sizeof extra, "\"kicks\": %d, ", ar.ndone);
	script_print(seed, "kicks", &sc, extra);
	return true;
}

/* ---- overflow ---- */

/* Seat 1 clears the whole well again and again (perfect clears send 10
 * more); seat 0 builds a tower at the walls and leaves the middle free. */
struct pc_run {
	struct plan plan; /* seat 1's perfect-clear keys, from turn `from` */
	int from; /* the turn seat 1 starts them */
};

static void
tower_move(const struct ab_match *m, char *out)
{
	long best = -1000000000L;
	unsigned j;

	strcpy(out, "D");
	for (j = 0; j < nplacement; j++) {
		struct ab_player p = m->players[0];
		struct ab_lock_events e;
		long v;
		int x, y, mid = 0;

		if (placement[j][0] == 'C' || !solo_play(m->seed, &p, placement[j], &e))
			continue;
		/* The spawn's columns stay low, so that it never blocks out. */
		for (x = 3; x <= 6; x++)
			for (y = 0; y < AB_ROWS; y++)
				if (p.cells[y][x] != AB_CELL_EMPTY)
					mid += y >= 14 ? 100 : 1;
		v = 100L * (top_row(&p) < 22 ? top_row(&p) : 22) - 1000L * mid - 500L * e.lines;
		if (v > best) {
			best = v;
			strcpy(out, placement[j]);
		}
	}
}

static void
pc_mover(const struct ab_match *m, unsigned seat, int turn, char *out, void *arg)
{
	struct pc_run *pr = arg;

	if (seat == 0)
		tower_move(m, out);
	else if (turn >= pr->from && turn - pr->from < pr->plan.n)
		strcpy(out, pr->plan.keys[turn - pr->from]);
	else
		quiet_move(m, seat, out);
}

static bool
find_overflow(uint64_t seed)
{
	struct ab_match m0, m;
	struct pc_run pr = { { 0 }, 0 };
	struct ab_player p;
	struct script sc;
	int k;
	char extra[64];

	/* Seat 1's clears from the start: two perfect clears of 4 rows (at
	 * least 10 lines each; the first takes long enough for seat 0's tower
	 * to grow), or of 2. */
	ab_init(&m0, seed, 2, AB_CLOCK_TURNS, 0, NULL);
	p = m0.players[1];
	for (k = 0; k < 2; k++) {
		if (!pc_build(seed, &p, &pr.plan, 4, 10) && !pc_build(seed, &p, &pr.plan, 2, 5))
			return false;
		fprintf(stderr, "seed %llu: perfect clear %d at turn %d\n", (unsigned long long)seed, k + 1,
		    pr.plan.n);
	}
	if (!play_match(seed, pc_mover, &pr, pr.plan.n + 4, &sc, &m))
		return false;
	if (m.players[0].end != AB_END_OVERFLOW) {
		fprintf(stderr, "seed %llu: seat 0 out by %s instead\n", (unsigned long long)seed,
		    ab_end_name(m.players[0].end));
		return false;
	}
	snprintf(extra, sizeof extra, "\"clears\": %d, ", pr.plan.n);
	script_print(seed, "overflow", &sc, extra);
	return true;
}

int
main(int argc, char **argv)
{
	uint64_t seed, from, to;

	if (argc != 4) {
		fprintf(stderr, "usage: ab_find tst|b2b|kicks|overflow FROM TO\n");
		return 2;
	}
	placements_init();
	from = strtoull(argv[2], NULL, 10);
	to = strtoull(argv[3], NULL, 10);
	for (seed = from; seed <= to; seed++) {
		bool ok = false;

		if (strcmp(argv[1], "tst") == 0)
			ok = find_tst(seed, false);
		else if (strcmp(argv[1], "b2b") == 0)
			ok = find_tst(seed, true);
		else if (strcmp(argv[1], "kicks") == 0)
			ok = find_all_kicks(seed, 250);
		else if (strcmp(argv[1], "overflow") == 0)
			ok = find_overflow(seed);
		if (!ok)
			fprintf(stderr, "seed %llu: none\n", (unsigned long long)seed);
	}
	return 0;
}
