/*
 * test_hatetris_diff.c: the engine against the naive model of naive.h over
 * random games.
 *
 * Usage: test_hatetris_diff GAMES DEPTH2_GAMES [SEED]
 *
 * Each game is played by one of four players: uniform random placements, a
 * noisy greedy one (few holes, low stack, lines), a greedy one that also
 * takes any placement returning to a seen board, and a greedy one with
 * heavy noise; one move in twelve is instead a random, often illegal,
 * placement (rotations 0-4, columns 0-10). Some games carry a pieces cap.
 * The engine keeps its seen boards as keys in a plain list that the test
 * queries for it; the naive model keeps whole boards.
 *
 * Asserted after every step: the same answer to the placement (a refusal
 * leaves the engine's struct byte for byte as it was), the same board
 * letter for letter, lines, pieces, supplied piece and end. Before every
 * placement the supplier is also run on its own and compared in detail:
 * every piece's rating at the run's depth, rule 1's answer for each piece
 * the engine examined, the fallback. Every oracle question is checked
 * against the contract (a board whose run would have 2 lines or more). The
 * engine's key store randomly includes or leaves out the empty and the
 * current board, which the contract says makes no difference.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hatetris.h"
#include "naive.h"
#include "tap.h"

static uint64_t rng_state;

static uint64_t
rng(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * UINT64_C(2685821657736338717);
}

/* ---- the engine's seen boards: a plain list of keys ---- */

struct keys {
	uint8_t (*k)[HATETRIS_KEY_BYTES];
	size_t n, cap;
	/* for the contract check */
	uint32_t lines;      /* the run's lines when the question is asked */
	unsigned cells;      /* cells on the run's board then */
	unsigned depth;
	long asked, bad;
};

static void
keys_add(struct keys *s, const uint8_t key[HATETRIS_KEY_BYTES])
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		s->k = realloc(s->k, s->cap * sizeof *s->k);
		if (s->k == NULL)
			abort();
	}
	memcpy(s->k[s->n++], key, HATETRIS_KEY_BYTES);
}

static unsigned
key_cells(const uint8_t key[HATETRIS_KEY_BYTES])
{
	unsigned i, n = 0, b;

	for (i = 0; i < HATETRIS_KEY_BYTES; i++)
		for (b = key[i]; b != 0; b &= b - 1)
			n++;
	return n;
}

static bool
keys_seen(void *ctx, const uint8_t key[HATETRIS_KEY_BYTES])
{
	struct keys *s = ctx;
	unsigned cells = key_cells(key), k;
	int total = -1, d;
	size_t i;

	/* A board k pieces ahead of the one recorded in s holds cells + 4k - 10N
	 * cells after N clears in all; 4k mod 10 tells k = 1, 2 and 3 apart (3:
	 * a second-level board asked about inside hatetris_place, whose first
	 * piece is the one being placed). */
	s->asked++;
	for (k = 1; k <= s->depth + 1; k++) {
		d = (int)s->cells + 4 * (int)k - (int)cells;
		if (d >= 0 && d % 10 == 0)
			total = d / 10;
	}
	if (total < 0 || s->lines + (uint32_t)total < 2)
		s->bad++;
	for (i = 0; i < s->n; i++)
		if (memcmp(s->k[i], key, HATETRIS_KEY_BYTES) == 0)
			return true;
	return false;
}

/* ---- conversions ---- */

static char
letter_at(const struct hatetris *g, int r, int c)
{
	unsigned v = tetromino_board_get(&g->board, (unsigned)r, (unsigned)c);

	return v == 0 ? 0 : tetromino_letter(v - 1);
}

static char why[600];

static int
same_state(const struct hatetris *g, const struct nv_game *m)
{
	const char *end = hatetris_end_name(g->end_reason);
	int r, c;

	for (r = 0; r < NV_ROWS; r++)
		for (c = 0; c < NV_COLS; c++)
			if (letter_at(g, r, c) != m->board.cells[r][c])
				return snprintf(why, sizeof why, "boards differ at row %d column %d", r,
				    c), 0;
	if (g->lines != m->lines || g->pieces != m->pieces)
		return snprintf(why, sizeof why, "lines %u/%ld pieces %u/%ld", g->lines, m->lines,
		    g->pieces, m->pieces), 0;
	if (tetromino_letter(g->current) != m->current)
		return snprintf(why, sizeof why, "supplied %c, model %c",
		    tetromino_letter(g->current), m->current), 0;
	if ((g->status == HATETRIS_OVER) != (m->end != NULL) ||
	    (m->end != NULL && (end == NULL || strcmp(end, m->end) != 0)))
		return snprintf(why, sizeof why, "end %s, model %s", end ? end : "none",
		    m->end ? m->end : "none"), 0;
	return 1;
}

struct tally {
	long steps, refused, decisions, rule_changed, fallbacks, repeats_found, lookups;
	long ends[3], max_lines, lines, games_with_2_lines;
	long asked, bad;
};

/* The supplier in detail on the current position, engine against model. */
static int
same_choice(const struct hatetris *g, struct nv_game *m, struct keys *ks, struct tally *t)
{
	struct hatetris_choice d;
	struct nv_choice nc, plain;
	unsigned piece;
	int i, p;

	ks->lines = g->lines;
	ks->cells = tetromino_board_count(&g->board);
	piece = hatetris_choose(&g->board, g->lines, g->depth, keys_seen, ks, &d);
	nc = m->last; /* the model's supplier on this position, from its last step */
	t->decisions++;
	t->lookups += d.lookups;
	if (piece != g->current || piece != d.piece)
		return snprintf(why, sizeof why, "choose gives %u, the run holds %u", piece,
		    g->current), 0;
	if (tetromino_letter(piece) != nc.piece)
		return snprintf(why, sizeof why, "choice %c, model %c", tetromino_letter(piece),
		    nc.piece), 0;
	for (i = 0; i < 7; i++) {
		p = tetromino_from_letter(nv_order[i]);
		if (d.rating[p] != nc.rating[i])
			return snprintf(why, sizeof why, "rating of %c: %d, model %d", nv_order[i],
			    d.rating[p], nc.rating[i]), 0;
		if ((d.checked >> p & 1u) && (int)(d.repeats >> p & 1u) != nc.repeats[i])
			return snprintf(why, sizeof why, "rule 1 for %c: %d, model %d", nv_order[i],
			    d.repeats >> p & 1u, nc.repeats[i]), 0;
		t->repeats_found += nc.repeats[i];
	}
	if (d.fallback != (nc.fallback != 0))
		return snprintf(why, sizeof why, "fallback %d, model %d", d.fallback,
		    nc.fallback), 0;
	t->fallbacks += d.fallback;
	/* What rule 1 changed: the order alone would give the lowest rating. */
	memcpy(&plain, &nc, sizeof plain);
	plain.piece = nv_decide(nc.rating, nc.repeats, 0, &plain.fallback);
	t->rule_changed += plain.piece != nc.piece;
	return 1;
}

enum { RANDOM, GREEDY, SEEKER, NOISY };

/* The player's move: a legal placement (rotation, column) for the model. */
static void
player(int kind, const struct hatetris *g, struct nv_game *m, int *rot, int *col)
{
	struct tetromino_option opts[HATETRIS_OPTIONS_MAX];
	struct nv_board after;
	size_t n, i, best_i = 0;
	long v, best = 0;

	n = tetromino_options(&g->board, g->current, opts, HATETRIS_OPTIONS_MAX);
	if (kind == RANDOM) {
		i = (size_t)(rng() % n);
		*rot = opts[i].rotation;
		*col = opts[i].column;
		return;
	}
	for (i = 0; i < n; i++) {
		v = 20L * opts[i].figures.holes + 4L * opts[i].figures.max_height +
		    3L * opts[i].figures.bumpiness - 60L * opts[i].figures.lines;
		v += (long)(rng() % (kind == NOISY ? 200 : 12));
		if (kind == SEEKER && opts[i].figures.lines > 0 &&
		    nv_place(&m->board, m->current, opts[i].rotation, opts[i].column, &after) >= 0 &&
		    nv_is_seen(&m->seen, &after))
			v -= 100000;
		if (i == 0 || v < best) {
			best = v;
			best_i = i;
		}
	}
	*rot = opts[best_i].rotation;
	*col = opts[best_i].column;
}

static int
play(int depth, struct tally *t)
{
	struct hatetris g, before;
	struct hatetris_report rep;
	struct nv_game m;
	struct keys ks;
	uint8_t key[HATETRIS_KEY_BYTES];
	int kind = (int)(rng() % 4), rot, col, mres, ok_all = 1, step;
	long cap = rng() % 5 == 0 ? 5 + (long)(rng() % 60) : 0;
	bool store_empty = rng() % 2, store_first = rng() % 2;
	enum hatetris_outcome eres;

	memset(&ks, 0, sizeof ks);
	ks.depth = (unsigned)depth;
	if (store_empty) {
		struct tetromino_board empty;

		tetromino_board_init(&empty);
		hatetris_board_key(&empty, key);
		keys_add(&ks, key);
	}
	hatetris_init(&g, (unsigned)depth, (uint32_t)cap, keys_seen, &ks);
	nv_game_init(&m, depth, cap);
	if (!same_state(&g, &m))
		ok_all = 0;
	for (step = 0; ok_all && step < 2000 && g.status == HATETRIS_PLAYING; step++) {
		if (!same_choice(&g, &m, &ks, t)) {
			ok_all = 0;
			break;
		}
		if (rng() % 12 == 0) {
			rot = (int)(rng() % 5);
			col = (int)(rng() % 11);
		} else {
			player(kind, &g, &m, &rot, &col);
		}
		before = g;
		ks.lines = g.lines;
		ks.cells = tetromino_board_count(&g.board);
		if (store_first) {
			/* The caller stores the new board before the call that makes it:
			 * simulate by storing what this placement would leave. */
			struct tetromino_board b = g.board;

			if (g.current < TETROMINO_NPIECES && rot < 4 &&
			    tetromino_place(&b, g.current, (unsigned)rot, (unsigned)col) >= 0) {
				hatetris_board_key(&b, key);
				keys_add(&ks, key);
			}
		}
		eres = hatetris_place(&g, (unsigned)rot, (unsigned)col, keys_seen, &ks, &rep);
		mres = nv_game_place(&m, rot, col);
		t->steps++;
		if ((eres == HATETRIS_OK) != (mres >= 0)) {
			snprintf(why, sizeof why, "placement %d %d: engine %d, model %d (%s)", rot, col,
			    eres, mres, rep.message);
			ok_all = 0;
			break;
		}
		if (eres != HATETRIS_OK) {
			t->refused++;
			if (memcmp(&g, &before, sizeof g) != 0) {
				snprintf(why, sizeof why, "a refusal changed the state");
				ok_all = 0;
			}
			continue;
		}
		if (rep.lines != mres || rep.next != g.current) {
			snprintf(why, sizeof why, "report lines %u/%d next %u", rep.lines, mres,
			    rep.next);
			ok_all = 0;
			break;
		}
		if (!store_first) {
			hatetris_board_key(&g.board, key);
			keys_add(&ks, key);
		}
		if (!same_state(&g, &m)) {
			ok_all = 0;
			break;
		}
	}
	if (ok_all && g.status != HATETRIS_OVER) {
		snprintf(why, sizeof why, "the game did not end in 2000 steps");
		ok_all = 0;
	}
	if (ok_all) {
		t->ends[g.end_reason == HATETRIS_END_CAPPED ? 2 : 1]++;
		t->lines += g.lines;
		if ((long)g.lines > t->max_lines)
			t->max_lines = g.lines;
		t->games_with_2_lines += g.lines >= 2;
		before = g;
		if (hatetris_place(&g, 0, 0, keys_seen, &ks, NULL) != HATETRIS_GAME_OVER ||
		    memcmp(&g, &before, sizeof g) != 0) {
			snprintf(why, sizeof why, "a placement after the end was not refused");
			ok_all = 0;
		}
	}
	t->asked += ks.asked;
	t->bad += ks.bad;
	free(ks.k);
	nv_game_free(&m);
	return ok_all;
}

static void
run(long games, int depth, const char *what)
{
	struct tally t;
	long i, first = 0, batch = depth == 2 ? 5 : 250;
	int batch_ok = 1;

	memset(&t, 0, sizeof t);
	for (i = 0; i < games; i++) {
		if (!play(depth, &t)) {
			if (batch_ok)
				diag("%s game %ld: %s", what, i, why);
			batch_ok = 0;
		}
		if ((i + 1) % batch == 0 || i + 1 == games) {
			ok(batch_ok, "%s games %ld-%ld: engine and naive model agree", what, first, i);
			batch_ok = 1;
			first = i + 1;
		}
	}
	diag("%s: %ld steps, %ld refused, %ld decisions compared in detail", what, t.steps,
	    t.refused, t.decisions);
	diag("%s: ends top_out %ld capped %ld; lines %ld in all, %ld at most, %ld games with 2+",
	    what, t.ends[1], t.ends[2], t.lines, t.max_lines, t.games_with_2_lines);
	diag("%s: %ld pieces with a repeating placement, rule 1 changed %ld choices, %ld "
	    "fallbacks; %ld oracle questions", what, t.repeats_found, t.rule_changed, t.fallbacks,
	    t.asked);
	ok(t.bad == 0, "%s: every oracle question was about a run with 2 lines or more (%ld of %ld "
	    "were not)", what, t.bad, t.asked);
	if (games >= 100)
		ok(t.games_with_2_lines > 0 && t.repeats_found > 0,
		    "%s: play reached runs with 2+ lines and pieces that could repeat a board", what);
}

int
main(int argc, char **argv)
{
	long games = argc > 1 ? atol(argv[1]) : 1000;
	long games2 = argc > 2 ? atol(argv[2]) : 4;
	uint64_t seed = argc > 3 ? strtoull(argv[3], NULL, 10) : 1;

	rng_state = seed * 2654435761u + 88172645463325252u;
	run(games, 1, "depth 1");
	if (games2 > 0)
		run(games2, 2, "depth 2");
	return tap_done();
}
