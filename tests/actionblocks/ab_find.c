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
 *   ab_find kicks64 FROM TO   all 64 pairs of a quarter turn and a test 2 to
 *                             5 of either table, one match each, whose last
 *                             move takes the pair's kick right before its
 *                             hard drop (templates tried cheapest first,
 *                             each over the seeds FROM..TO; a line on
 *                             stderr names a pair none gives)
 *   ab_find kick TABLE FROM TO TEST SEEDFROM SEEDTO
 *                             the same for one pair: TABLE I or JLSTZ, FROM
 *                             and TO the states of a quarter turn (0 spawn,
 *                             1 right, 2 upside down, 3 left), TEST 2..5
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
 * For one kick the shape is drawn around the kick itself (see "every
 * kick" below).
 * Every result is played once more as the server plays it
 * (ab_resolve on the whole match, the moves as text) before it is printed.
 */
#include <stddef.h>
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

/* Only seat 0 of solo_m is ever played, so the other seats stay as zero as
 * they start, and each load clears the match's own fields alone (the
 * whole match is several times one seat's size). */
static void
solo_load(uint64_t seed, const struct ab_player *p)
{
	memset(&solo_m, 0, offsetof(struct ab_match, players));
	solo_m.seed = seed;
	solo_m.clock = AB_CLOCK_TURNS;
	solo_m.nplayers = 1;
	solo_m.nalive = 1;
	solo_m.players[0] = *p;
}

/* The slots entering the preview, by stream index, for one seed at a time:
 * drawing a piece reseeds a generator with the bag's name, the dearest step
 * of a search by far, and a search draws the same few pieces again and
 * again. */
#define STREAM_CACHE 512

static uint64_t stream_seed;
static bool stream_have[STREAM_CACHE];
static struct ab_slot stream_slot[STREAM_CACHE];

static struct ab_slot
entering(uint32_t i)
{
	if (solo_m.seed != stream_seed) {
		memset(stream_have, 0, sizeof stream_have);
		stream_seed = solo_m.seed;
	}
	if (i >= STREAM_CACHE)
		return ab_entering(&solo_m, 0, i);
	if (!stream_have[i]) {
		stream_slot[i] = ab_entering(&solo_m, 0, i);
		stream_have[i] = true;
	}
	return stream_slot[i];
}

/* ab_spawn_next() on solo_m's seat, its draw (the preview's first slot out,
 * a new one in at its end) made with the cached slots. Seat 0 never holds
 * items or a Transformation here, so the slots depend on the index alone;
 * every script is played once more by ab_resolve() before it is printed. */
static bool
solo_spawn_next(void)
{
	struct ab_player *p = &solo_m.players[0];
	struct ab_slot s = p->next[0];

	memmove(&p->next[0], &p->next[1], (AB_NEXT - 1) * sizeof p->next[0]);
	p->drawn++;
	p->next[AB_NEXT - 1] = entering(p->drawn + AB_NEXT - 1);
	return ab_spawn_slot(&solo_m, 0, s);
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

/* The lock of keys on p (seat 0 of a solo match seeded seed) without the
 * next piece's spawn (drawing a piece reseeds the stream, the dearest step
 * of a search): true when the last key, and only it, locks without a lock
 * out or a block out; e gets the lock. p is left as it was; solo_m holds
 * the match after the lock. */
static bool
solo_lock(uint64_t seed, const struct ab_player *p, const char *keys, struct ab_lock_events *e)
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
	return !e->lock_out;
}

/* The same lock, then the next piece's spawn: true when it spawns too, and
 * p becomes the player after it. */
static bool
solo_play(uint64_t seed, struct ab_player *p, const char *keys, struct ab_lock_events *e)
{
	if (!solo_lock(seed, p, keys, e) || !solo_spawn_next())
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

/* Whether find_keys() also tries the hard drop right after every rotation
 * it makes, before it asks whether the place the rotation reached is a new
 * one: a place is known by the piece's position and flags, not by the test
 * that took it there, so a search for one kick test would otherwise lose
 * it whenever another test reached that place first. */
static bool check_rotations;

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

		if (solo_lock(seed, &q, "D", &e) && want(&e, &nd->last, arg) && solo_play(seed, &q, "D", &e)) {
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
			if (check_rotations && (moves[i] == 'X' || moves[i] == 'Z')) {
				struct ab_player turned = *r;
				struct kick k = kick_of(&nd->p, &turned);

				if (k.table != 0 && solo_lock(seed, &turned, "D", &e) && want(&e, &k, arg) &&
				    solo_play(seed, &turned, "D", &e)) {
					snprintf(out, KEYS_MAX + 2, "%s%cD", nd->keys, moves[i]);
					return true;
				}
				/* The lock above played on solo_m: the key again. */
				solo_load(seed, &nd->p);
				ab_key(&solo_m, 0, moves[i], &drop);
			}
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
			memcpy(bfs_queue[tail].keys, nd->keys, n);
			bfs_queue[tail].keys[n] = moves[i];
			bfs_queue[tail].keys[n + 1] = '\0';
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
 * rows[y] is row y (bottom first), up to SHAPE_ROWS rows; nothing may be
 * filled higher than row cap. */
#define SHAPE_ROWS 20

struct shape {
	char rows[SHAPE_ROWS][AB_COLS + 1];
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

/* Searches for keys in one build with a given piece: the template is
 * either good for its piece on the first boards that hold it, or it is a
 * poor one. */
#define SEARCHES_MAX 24

/* Whether p can bring piece into play now: its own, or the one a hold
 * would spawn. */
static bool
can_play(const struct ab_player *p, int piece)
{
	unsigned held = p->hold.piece == AB_NO_PIECE ? p->next[0].piece : p->hold.piece;

	return p->cur.piece == piece || (!p->hold_used && held == (unsigned)piece);
}

/* Builds s on *p with at most depth locks that clear nothing, until all
 * but slack of its cells to fill are, then finds keys whose lock wants()
 * (only with piece in play, when piece is not -1: the search for keys is
 * the costly part); the plan grows by the placements and those keys, *p
 * becomes the player after them. */
static bool
build(uint64_t seed, struct ab_player *p, struct plan *plan, const struct shape *s, int depth,
    int slack, int piece, want_fn want, void *arg)
{
	int d, n = 1, need = shape_need(s) - slack, searches;
	unsigned i, j;

	if (depth > DEPTH_MAX)
		depth = DEPTH_MAX;
	beam_a[0].p = *p;
	beam_a[0].n = 0;
	beam_a[0].score = shape_score(p, s);
	searches = 0;
	if (beam_a[0].score < 0)
		return false;
	for (d = 0; d <= depth; d++) {
		int m = 0;

		for (i = 0; i < (unsigned)n; i++) {
			char keys[KEYS_MAX + 1];
			struct beam_item *b = &beam_a[i];
			struct ab_lock_events e;

			if (b->score < need || plan->n + b->n + 1 > TURNS_MAX ||
			    (piece >= 0 && (!can_play(&b->p, piece) || ++searches > SEARCHES_MAX)) ||
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
		if (d == depth || (piece >= 0 && searches > SEARCHES_MAX))
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
			if (build(seed, &q, &plan, &s, 8, 0, -1, want_spin, w_mini)) {
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
			if (!build(seed, &q, &pl, &s, 12, 0, -1, want_spin, w_tst))
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

/* The kick the key before the last one took when keys are played on p
 * (table 0 when that key was no kicked rotation). */
static struct kick
last_kick(uint64_t seed, const struct ab_player *p, const char *keys)
{
	struct kick k = { 0, 0, 0, 0 };
	size_t i, n = strlen(keys);

	solo_load(seed, p);
	for (i = 0; i + 1 < n; i++) {
		struct ab_player before = solo_m.players[0];
		uint32_t drop = 0;

		ab_key(&solo_m, 0, keys[i], &drop);
		if (i + 2 == n && (keys[i] == 'X' || keys[i] == 'Z'))
			k = kick_of(&before, &solo_m.players[0]);
	}
	return k;
}

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
		struct kick k = last_kick(m->seed, &m->players[0], out);

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

/* ---- every kick: one match for each (table, quarter turn, test) ---- */

/* For one (table, quarter turn, test 2..5) a template is drawn around a
 * piece of that table standing in the turn's first state at (x, y): its
 * cells and those of the wanted test's position must stay empty, one cell
 * of each earlier test's position (unless the walls or the floor already
 * block it) must be filled, and so must the cells under those, down to
 * the floor or to a cell that must stay empty (an overhang, dearer); a way
 * in for the piece stays empty too, straight from above or sliding in
 * from a side. Templates are tried cheapest first, over the seeds: build()
 * stacks the template with hard drops and then looks for keys whose
 * rotation right before the hard drop takes exactly that kick. */
struct tmpl {
	struct shape s;
	int cost;
	uint8_t piece;
};

static struct tmpl *tmpls;
static size_t ntmpl, tmpl_cap;

/* The cells of piece in state rot with its box at (x, y), y upwards. */
static unsigned
piece_cells(unsigned piece, unsigned rot, int x, int y, int *cx, int *cy)
{
	int8_t dx[AB_CELLS_MAX], dy[AB_CELLS_MAX];
	unsigned i, n = ab_shape_cells(piece, AB_SHAPE_PIECE, rot, dx, dy);

	for (i = 0; i < n; i++) {
		cx[i] = x + dx[i];
		cy[i] = y - dy[i];
	}
	return n;
}

/* Whether all n cells lie inside the rows a template draws. */
static bool
in_template(const int *cx, const int *cy, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++)
		if (cx[i] < 0 || cx[i] >= AB_COLS || cy[i] < 0 || cy[i] >= SHAPE_ROWS - 2)
			return false;
	return true;
}

/* Marks the cells of piece in state rot at (x, y) 'E' in g; false when
 * one lies outside or must be filled. Rows above cap are left alone:
 * nothing is built there. */
static bool
mark_empty(char g[SHAPE_ROWS][AB_COLS + 1], unsigned piece, unsigned rot, int x, int y, int cap)
{
	int cx[AB_CELLS_MAX], cy[AB_CELLS_MAX];
	unsigned i, n = piece_cells(piece, rot, x, y, cx, cy);

	for (i = 0; i < n; i++) {
		if (cx[i] < 0 || cx[i] >= AB_COLS || cy[i] < 0)
			return false;
		if (cy[i] > cap)
			continue;
		if (g[cy[i]][cx[i]] == 'F')
			return false;
		g[cy[i]][cx[i]] = 'E';
	}
	return true;
}

/* Whether some tetromino, in some state, can fill cell (x, y) of g with
 * none of its cells on one that must stay empty or above cap: a cell no
 * piece can fill makes the template hopeless. */
static bool
coverable(char g[SHAPE_ROWS][AB_COLS + 1], int x, int y, int cap)
{
	unsigned piece, rot, i, j;

	for (piece = 0; piece < 7; piece++)
		for (rot = 0; rot < 4; rot++) {
			int cx[AB_CELLS_MAX], cy[AB_CELLS_MAX];
			unsigned n = piece_cells(piece, rot, 0, 0, cx, cy);

			/* Each of its cells in turn on (x, y). */
			for (i = 0; i < n; i++) {
				bool ok = true;

				for (j = 0; j < n && ok; j++) {
					int px = x + cx[j] - cx[i], py = y + cy[j] - cy[i];

					ok = px >= 0 && px < AB_COLS && py >= 0 && py <= cap && g[py][px] != 'E';
				}
				if (ok)
					return true;
			}
		}
	return false;
}

/* The template for blockers bx, by (nb of them) around piece in state
 * from at (x, y), kicked to (x + kx, y + ky) in state to: added to tmpls
 * unless no way in is left or a row would be full. */
static void
tmpl_add(unsigned piece, unsigned from, unsigned to, int x, int y, int kx, int ky, const int *bx,
    const int *by, unsigned nb)
{
	static const int sides[] = { 0, -1, 1, -2, 2, -3, 3, -4, 4 };
	char g[SHAPE_ROWS][AB_COLS + 1], way[SHAPE_ROWS][AB_COLS + 1];
	struct tmpl *t;
	int cx[AB_CELLS_MAX], cy[AB_CELLS_MAX];
	int r, c, cap = 0, side = -1, nf = 0, overhangs = 0;
	unsigned i, k, n;

	memset(g, 0, sizeof g);
	for (r = 0; r < SHAPE_ROWS; r++)
		memset(g[r], '.', AB_COLS);
	for (i = 0; i < nb; i++) {
		g[by[i]][bx[i]] = 'F';
		cap = by[i] > cap ? by[i] : cap;
	}
	n = piece_cells(piece, from, x, y, cx, cy);
	for (i = 0; i < n; i++)
		cap = cy[i] > cap ? cy[i] : cap;
	n = piece_cells(piece, to, x + kx, y + ky, cx, cy);
	for (i = 0; i < n; i++)
		cap = cy[i] > cap ? cy[i] : cap;
	/* Room above the template for the pieces that wait for the right one. */
	cap += 3;
	if (cap >= SHAPE_ROWS - 1)
		return;
	if (!mark_empty(g, piece, to, x + kx, y + ky, cap))
		return;
	/* The way in: sideways along row y from x + s, which the piece
	 * reaches straight from above. */
	for (k = 0; k < sizeof sides / sizeof sides[0] && side < 0; k++) {
		int s = sides[k], j, h;
		bool ok = true;

		memcpy(way, g, sizeof way);
		for (j = 0; ok && j != s + (s < 0 ? -1 : 1); j += s < 0 ? -1 : 1)
			ok = mark_empty(way, piece, from, x + j, y, cap);
		for (h = 1; ok && y + h - 3 <= cap; h++)
			ok = mark_empty(way, piece, from, x + s, y + h, cap);
		if (ok) {
			memcpy(g, way, sizeof g);
			side = abs(s);
		}
	}
	if (side < 0)
		return;
	/* What holds the blockers up. */
	for (i = 0; i < nb; i++)
		for (r = by[i] - 1; r >= 0; r--) {
			if (g[r][bx[i]] == 'E') {
				overhangs++;
				break;
			}
			g[r][bx[i]] = 'F';
		}
	for (r = 0; r < SHAPE_ROWS; r++) {
		int row = 0;

		for (c = 0; c < AB_COLS; c++) {
			row += g[r][c] == 'F';
			if (g[r][c] == 'F' && !coverable(g, c, r, cap))
				return;
		}
		if (row == AB_COLS)
			return;
		nf += row;
	}
	if (ntmpl == tmpl_cap) {
		tmpl_cap = tmpl_cap ? 2 * tmpl_cap : 4096;
		tmpls = realloc(tmpls, tmpl_cap * sizeof tmpls[0]);
		if (tmpls == NULL)
			abort();
	}
	t = &tmpls[ntmpl++];
	memset(t, 0, sizeof *t);
	memcpy(t->s.rows, g, sizeof g);
	t->s.nrows = SHAPE_ROWS;
	t->s.cap = cap;
	t->piece = (uint8_t)piece;
	t->cost = nf + 25 * overhangs + 2 * side;
}

/* Every choice of one blocker for each earlier test that the walls or the
 * floor do not block: cand[k] holds ncand[k] cells of test k + 1. */
static void
tmpl_choose(unsigned piece, unsigned from, unsigned to, int x, int y, int kx, int ky,
    int cand[4][AB_CELLS_MAX][2], const unsigned *ncand, unsigned k, unsigned ntests, int *bx,
    int *by, unsigned nb)
{
	unsigned i, j;

	if (k == ntests) {
		tmpl_add(piece, from, to, x, y, kx, ky, bx, by, nb);
		return;
	}
	if (ncand[k] == 0) {
		tmpl_choose(piece, from, to, x, y, kx, ky, cand, ncand, k + 1, ntests, bx, by, nb);
		return;
	}
	for (i = 0; i < ncand[k]; i++) {
		bool have = false;

		for (j = 0; j < nb; j++)
			have = have || (bx[j] == cand[k][i][0] && by[j] == cand[k][i][1]);
		bx[nb] = cand[k][i][0];
		by[nb] = cand[k][i][1];
		tmpl_choose(piece, from, to, x, y, kx, ky, cand, ncand, k + 1, ntests, bx, by,
		    have ? nb : nb + 1);
	}
}

static int
by_cost(const void *a, const void *b)
{
	const struct tmpl *x = a, *y = b;

	return (x->cost > y->cost) - (x->cost < y->cost);
}

/* All templates for kick goal k, cheapest first. */
static void
tmpl_all(const struct kick *k)
{
	static const unsigned jlstz[] = { AB_PIECE_T, TETROMINO_S, TETROMINO_Z, TETROMINO_J,
		TETROMINO_L };
	static const unsigned ipiece[] = { AB_PIECE_I };
	const unsigned *pieces = k->table == 2 ? ipiece : jlstz;
	unsigned np = k->table == 2 ? 1 : 5, pi;

	ntmpl = 0;
	for (pi = 0; pi < np; pi++) {
		const int8_t (*tests)[2];
		int x, y;

		ab_kicks(pieces[pi], AB_SHAPE_PIECE, k->from, k->to, &tests);
		for (x = -3; x < AB_COLS; x++)
			for (y = 0; y < SHAPE_ROWS - 6; y++) {
				int cx[AB_CELLS_MAX], cy[AB_CELLS_MAX], ex[AB_CELLS_MAX], ey[AB_CELLS_MAX];
				int cand[4][AB_CELLS_MAX][2], bx[4], by[4];
				unsigned ncand[4], n0, nn, t, i, j;
				bool ok = true;

				n0 = piece_cells(pieces[pi], k->from, x, y, cx, cy);
				nn = piece_cells(pieces[pi], k->to, x + tests[k->test - 1][0],
				    y + tests[k->test - 1][1], ex, ey);
				if (!in_template(cx, cy, n0) || !in_template(ex, ey, nn))
					continue;
				for (t = 0; ok && t + 1 < k->test; t++) {
					int tx[AB_CELLS_MAX], ty[AB_CELLS_MAX];
					unsigned nt = piece_cells(pieces[pi], k->to, x + tests[t][0], y + tests[t][1],
					    tx, ty);
					bool walled = false;

					ncand[t] = 0;
					for (i = 0; i < nt; i++)
						walled = walled || tx[i] < 0 || tx[i] >= AB_COLS || ty[i] < 0;
					if (walled)
						continue;
					for (i = 0; i < nt; i++) {
						bool taken = false;

						for (j = 0; j < n0; j++)
							taken = taken || (tx[i] == cx[j] && ty[i] == cy[j]);
						for (j = 0; j < nn; j++)
							taken = taken || (tx[i] == ex[j] && ty[i] == ey[j]);
						if (!taken && ty[i] < SHAPE_ROWS - 4) {
							cand[t][ncand[t]][0] = tx[i];
							cand[t][ncand[t]++][1] = ty[i];
						}
					}
					ok = ncand[t] > 0;
				}
				if (ok)
					tmpl_choose(pieces[pi], k->from, k->to, x, y, tests[k->test - 1][0],
					    tests[k->test - 1][1], cand, ncand, 0, k->test - 1u, bx, by, 0);
			}
	}
	qsort(tmpls, ntmpl, sizeof tmpls[0], by_cost);
}

static bool
want_pair(const struct ab_lock_events *e, const struct kick *k, void *arg)
{
	const struct kick *w = arg;

	(void)e;
	return k->table == w->table && k->from == w->from && k->to == w->to && k->test == w->test;
}

/* Templates tried for one kick, cheapest first, before giving up. */
#define KICK_TRIES 200

/* One match whose last move takes kick goal by the rotation right before
 * its hard drop: each template in turn, cheapest first, over the seeds
 * from..to; printed, as the server plays it, for the first that gives one. */
static bool
find_kick(const struct kick *goal, uint64_t from, uint64_t to, unsigned tries)
{
	unsigned ti;
	uint64_t seed;

	tmpl_all(goal);
	check_rotations = true;
	for (ti = 0; ti < ntmpl && ti < tries; ti++)
		for (seed = from; seed <= to; seed++) {
			struct ab_match m0, m;
			struct ab_player p;
			struct plan plan = { 0 };
			struct script sc;
			struct kick k;
			char extra[128];

			ab_init(&m0, seed, 2, AB_CLOCK_TURNS, 0, NULL);
			p = m0.players[0];
			if (!build(seed, &p, &plan, &tmpls[ti].s, 12, 0, tmpls[ti].piece, want_pair,
			    (void *)goal))
				continue;
			/* The match as the server plays it, up to the last move, whose
			 * kick is found again on seat 0 as it stands then. */
			if (!play_match(seed, plan_mover, &plan, plan.n - 1, &sc, &m) || m.over)
				continue;
			k = last_kick(seed, &m.players[0], plan.keys[plan.n - 1]);
			if (!want_pair(NULL, &k, (void *)goal) ||
			    !play_match(seed, plan_mover, &plan, plan.n, &sc, &m) ||
			    !sc.ev[plan.n - 1].seats[0].locked || !m.players[0].alive) {
				fprintf(stderr, "seed %llu: template %u fails as the server plays it\n",
				    (unsigned long long)seed, ti);
				continue;
			}
			snprintf(extra, sizeof extra, "\"table\": \"%s\", \"from\": %u, \"to\": %u, \"test\": %u, ",
			    goal->table == 2 ? "I" : "JLSTZ", goal->from, goal->to, goal->test);
			script_print(seed, "kick", &sc, extra);
			return true;
		}
	return false;
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

/* "I" or "JLSTZ", FROM, TO and TEST as ab_find's arguments name a kick. */
static bool
kick_arg(const char *table, const char *from, const char *to, const char *test, struct kick *k)
{
	int f = atoi(from), t = atoi(to), n = atoi(test);

	if ((strcmp(table, "I") != 0 && strcmp(table, "JLSTZ") != 0) || f < 0 || f > 3 || t < 0 || t > 3 ||
	    ((f + 1) % 4 != t && (t + 1) % 4 != f) || n < 2 || n > 5)
		return false;
	*k = (struct kick){ strcmp(table, "I") == 0 ? 2 : 1, (uint8_t)f, (uint8_t)t, (uint8_t)n };
	return true;
}

int
main(int argc, char **argv)
{
	uint64_t seed, from, to;

	placements_init();
	if (argc == 8 && strcmp(argv[1], "kick") == 0) {
		struct kick k;

		if (!kick_arg(argv[2], argv[3], argv[4], argv[5], &k)) {
			fprintf(stderr, "ab_find kick: I|JLSTZ FROM TO (a quarter turn) TEST (2-5)\n");
			return 2;
		}
		if (!find_kick(&k, strtoull(argv[6], NULL, 10), strtoull(argv[7], NULL, 10), KICK_TRIES))
			fprintf(stderr, "%s %s->%s test %s: none\n", argv[2], argv[3], argv[4], argv[5]);
		return 0;
	}
	if (argc != 4) {
		fprintf(stderr, "usage: ab_find tst|b2b|kicks|kicks64|overflow FROM TO\n"
		    "       ab_find kick I|JLSTZ FROM TO TEST SEEDFROM SEEDTO\n");
		return 2;
	}
	from = strtoull(argv[2], NULL, 10);
	to = strtoull(argv[3], NULL, 10);
	if (strcmp(argv[1], "kicks64") == 0) {
		static const uint8_t turns[8][2] = { { 0, 1 }, { 1, 0 }, { 1, 2 }, { 2, 1 }, { 2, 3 },
			{ 3, 2 }, { 3, 0 }, { 0, 3 } };
		unsigned tb, q, n;

		for (tb = 1; tb <= 2; tb++)
			for (q = 0; q < 8; q++)
				for (n = 2; n <= 5; n++) {
					struct kick k = { (uint8_t)tb, turns[q][0], turns[q][1], (uint8_t)n };

					if (!find_kick(&k, from, to, KICK_TRIES))
						fprintf(stderr, "%s %u->%u test %u: none\n", tb == 2 ? "I" : "JLSTZ",
						    k.from, k.to, n);
				}
		return 0;
	}
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
