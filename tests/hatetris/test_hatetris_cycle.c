/*
 * test_hatetris_cycle.c: rule 1 (prefer pieces that cannot return to a seen
 * board) changing the supplier's choice, the engine and the naive model of
 * naive.h side by side.
 *
 * Real play hardly ever reaches such a position: a placement that returns
 * to an earlier board has usually just cleared lines, which makes it one of
 * the player's best, so the piece that allows it is rarely the lowest rated
 * (test_hatetris_diff.c reports how often rule 1 changed a choice in its
 * random runs). The positions here are therefore built: real boards from
 * runs of the supplier against a greedy player, their real history, plus
 * seen boards added by the test. Because that history is hypothetical, the
 * engine is called with HATETRIS_LINES_UNKNOWN (every candidate asked).
 *
 * Usage: test_hatetris_cycle [POSITIONS [DEPTH2_POSITIONS]]
 *   depth 1: the board left by one placement of the supplier's pick is
 *     marked seen. The model, with rule 1, must then pick another piece;
 *     without it, still the first one; the engine must agree with the model
 *     on the piece, every rating and the fallback flag.
 *   fallback: a board left by one placement of every piece is marked seen.
 *     All seven repeat, so the rule falls back to all pieces and gives the
 *     lowest rated, earliest piece; model and engine agree.
 *   depth 2: for every first placement x, the board left by one placement
 *     of the piece the depth-1 supplier would hand out after x is marked
 *     seen, so the rule acts on the second level and changes ratings; model
 *     and engine agree on every rating and the piece.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hatetris.h"
#include "naive.h"
#include "tap.h"

static uint64_t rng_state = 0x2b992ddfa23249d6u;

static uint64_t
rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* The engine's seen boards: a plain list of keys. */
struct keys {
	uint8_t (*k)[HATETRIS_KEY_BYTES];
	size_t n, cap;
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

static bool
keys_seen(void *ctx, const uint8_t key[HATETRIS_KEY_BYTES])
{
	const struct keys *s = ctx;
	size_t i;

	for (i = 0; i < s->n; i++)
		if (memcmp(s->k[i], key, HATETRIS_KEY_BYTES) == 0)
			return true;
	return false;
}

/* The model's board for an engine board (the tests' glue). */
static void
to_model(const struct tetromino_board *b, struct nv_board *m)
{
	unsigned r, c, v;

	nv_clear(m);
	for (r = 0; r < TETROMINO_ROWS; r++)
		for (c = 0; c < TETROMINO_COLS; c++) {
			v = tetromino_board_get(b, r, c);
			m->cells[r][c] = v == 0 ? 0 : tetromino_letter(v - 1);
		}
}

static void
to_key(const struct nv_board *m, uint8_t key[HATETRIS_KEY_BYTES])
{
	unsigned r, c, i;

	memset(key, 0, HATETRIS_KEY_BYTES);
	for (r = 0; r < NV_ROWS; r++)
		for (c = 0; c < NV_COLS; c++)
			if (m->cells[r][c] != 0) {
				i = 10 * r + c;
				key[i / 8] = (uint8_t)(key[i / 8] | 1u << (i % 8));
			}
}

/* A position: a real board with its real history, in both forms. */
struct position {
	struct tetromino_board board;
	struct nv_board model;
	struct nv_seen seen;
	struct keys keys;
};

static size_t
positions(struct position *out, size_t want)
{
	struct tetromino_option opts[HATETRIS_OPTIONS_MAX];
	struct hatetris g;
	struct nv_seen seen;
	struct keys keys;
	struct nv_board m;
	uint8_t key[HATETRIS_KEY_BYTES];
	size_t n = 0, k, i, pick;
	long best, v;

	while (n < want) {
		memset(&seen, 0, sizeof seen);
		memset(&keys, 0, sizeof keys);
		hatetris_init(&g, 1, HATETRIS_NO_CAP, keys_seen, &keys);
		to_model(&g.board, &m);
		nv_seen_add(&seen, &m);
		while (g.status == HATETRIS_PLAYING && n < want) {
			if (rng() % 6 == 0) {
				out[n].board = g.board;
				to_model(&g.board, &out[n].model);
				memset(&out[n].seen, 0, sizeof out[n].seen);
				for (i = 0; i < seen.n; i++)
					nv_seen_add(&out[n].seen, &seen.boards[i]);
				memset(&out[n].keys, 0, sizeof out[n].keys);
				for (i = 0; i < keys.n; i++)
					keys_add(&out[n].keys, keys.k[i]);
				n++;
			}
			k = tetromino_options(&g.board, g.current, opts, HATETRIS_OPTIONS_MAX);
			pick = 0;
			best = 0;
			for (i = 0; i < k; i++) {
				v = 20L * opts[i].figures.holes + 4L * opts[i].figures.max_height +
				    3L * opts[i].figures.bumpiness - 60L * opts[i].figures.lines +
				    (long)(rng() % 16);
				if (i == 0 || v < best) {
					best = v;
					pick = i;
				}
			}
			hatetris_place(&g, opts[pick].rotation, opts[pick].column, keys_seen, &keys,
			    NULL);
			hatetris_board_key(&g.board, key);
			keys_add(&keys, key);
			to_model(&g.board, &m);
			nv_seen_add(&seen, &m);
		}
		nv_seen_free(&seen);
		free(keys.k);
	}
	return n;
}

/* Marks seen the board left by a random legal placement of letter. */
static void
mark_one(struct position *p, const struct nv_board *on, char letter)
{
	struct nv_board after;
	uint8_t key[HATETRIS_KEY_BYTES];
	int r, c, n = 0, chosen;

	for (r = 0; r < 4; r++)
		for (c = 0; c < NV_COLS; c++)
			n += nv_place(on, letter, r, c, &after) >= 0;
	if (n == 0)
		return;
	chosen = (int)(rng() % (uint64_t)n);
	for (r = 0; r < 4; r++)
		for (c = 0; c < NV_COLS; c++)
			if (nv_place(on, letter, r, c, &after) >= 0 && chosen-- == 0) {
				nv_seen_add(&p->seen, &after);
				to_key(&after, key);
				keys_add(&p->keys, key);
			}
}

static char why[300];

/* Engine (told nothing of the lines) against the model with rule 1. */
static int
agree(struct position *p, int depth, struct nv_choice *nc)
{
	struct hatetris_choice d;
	unsigned piece;
	int i;

	if (depth == 2)
		nv_choose2(&p->model, &p->seen, 1, nc);
	else
		nv_choose1(&p->model, &p->seen, 1, nc);
	piece = hatetris_choose(&p->board, HATETRIS_LINES_UNKNOWN, (unsigned)depth, keys_seen,
	    &p->keys, &d);
	if (tetromino_letter(piece) != nc->piece)
		return snprintf(why, sizeof why, "engine %c, model %c", tetromino_letter(piece),
		    nc->piece), 0;
	for (i = 0; i < 7; i++)
		if (d.rating[tetromino_from_letter(nv_order[i])] != nc->rating[i])
			return snprintf(why, sizeof why, "rating of %c: engine %d, model %d",
			    nv_order[i], d.rating[tetromino_from_letter(nv_order[i])],
			    nc->rating[i]), 0;
	if (d.fallback != (nc->fallback != 0))
		return snprintf(why, sizeof why, "fallback: engine %d, model %d", d.fallback,
		    nc->fallback), 0;
	return 1;
}

int
main(int argc, char **argv)
{
	size_t npos = argc > 1 ? (size_t)atol(argv[1]) : 300;
	size_t npos2 = argc > 2 ? (size_t)atol(argv[2]) : 6;
	struct position *pos = calloc(npos, sizeof *pos);
	struct nv_choice before, with_rule, plain, nc;
	size_t i, saved_seen, saved_keys;
	int good = 1, changed = 0, fallbacks = 0, all_fallback = 1, good2 = 1, changed2 = 0;
	static struct nv_board marks[7 * 4 * NV_COLS];
	static char picks[7 * 4 * NV_COLS];
	int x, r, c, k, nmarks;

	if (pos == NULL)
		abort();
	npos = positions(pos, npos);

	/* depth 1: the pick's own placement marked seen */
	for (i = 0; i < npos; i++) {
		saved_seen = pos[i].seen.n;
		saved_keys = pos[i].keys.n;
		if (!agree(&pos[i], 1, &before)) {
			good = 0;
			diag("position %zu, real history: %s", i, why);
		}
		mark_one(&pos[i], &pos[i].model, before.piece);
		if (!agree(&pos[i], 1, &with_rule)) {
			good = 0;
			diag("position %zu, pick marked: %s", i, why);
		}
		nv_choose1(&pos[i].model, &pos[i].seen, 0, &plain);
		if (plain.piece != before.piece || with_rule.repeats[nv_index(before.piece)] != 1) {
			good = 0;
			diag("position %zu: the construction did not hold", i);
		}
		if (with_rule.fallback)
			fallbacks++;
		else if (with_rule.piece != before.piece)
			changed++;
		pos[i].seen.n = saved_seen;
		pos[i].keys.n = saved_keys;
	}
	ok(good, "depth 1, %zu positions: with a board of the pick's marked seen, engine and "
	    "model agree on piece, ratings and fallback", npos);
	ok(changed + fallbacks == (int)npos && changed > 0, "rule 1 changed the choice in every "
	    "position where another piece was free of repeats (%d changed, %d fallbacks); without "
	    "the rule the choice stays", changed, fallbacks);

	/* fallback: every piece repeats */
	good = 1;
	for (i = 0; i < npos; i++) {
		saved_seen = pos[i].seen.n;
		saved_keys = pos[i].keys.n;
		nv_choose1(&pos[i].model, &pos[i].seen, 0, &plain);
		for (k = 0; k < 7; k++)
			mark_one(&pos[i], &pos[i].model, nv_order[k]);
		if (!agree(&pos[i], 1, &with_rule)) {
			good = 0;
			diag("position %zu, all marked: %s", i, why);
		}
		for (k = 0; k < 7; k++)
			if (with_rule.rating[k] >= 0 && !with_rule.repeats[k])
				all_fallback = 0;
		if (with_rule.fallback && with_rule.piece != plain.piece)
			good = 0;
		pos[i].seen.n = saved_seen;
		pos[i].keys.n = saved_keys;
	}
	ok(good && all_fallback, "every piece marked: all that fit repeat, the fallback gives the "
	    "lowest rated, earliest piece; engine and model agree");

	/* depth 2: the rule acting on the second level */
	for (i = 0; i < npos2 && i < npos; i++) {
		saved_seen = pos[i].seen.n;
		saved_keys = pos[i].keys.n;
		if (!agree(&pos[i], 2, &before)) {
			good2 = 0;
			diag("depth 2 position %zu, real history: %s", i, why);
		}
		/* After every first placement, a board of the second-level pick's
		 * is marked seen (the marks go in after all the picks are made,
		 * so that each is the pick on the real history). */
		nmarks = 0;
		for (x = 0; x < 7; x++)
			for (r = 0; r < 4; r++)
				for (c = 0; c < NV_COLS; c++) {
					if (nv_place(&pos[i].model, nv_order[x], r, c, &marks[nmarks]) < 0)
						continue;
					nv_seen_add(&pos[i].seen, &marks[nmarks]);
					nv_choose1(&marks[nmarks], &pos[i].seen, 1, &nc);
					pos[i].seen.n--;
					picks[nmarks++] = nc.piece;
				}
		for (k = 0; k < nmarks; k++)
			mark_one(&pos[i], &marks[k], picks[k]);
		if (!agree(&pos[i], 2, &with_rule)) {
			good2 = 0;
			diag("depth 2 position %zu, marked: %s", i, why);
		}
		for (k = 0; k < 7; k++)
			if (with_rule.rating[k] != before.rating[k])
				break;
		changed2 += k < 7 || with_rule.piece != before.piece;
		pos[i].seen.n = saved_seen;
		pos[i].keys.n = saved_keys;
	}
	ok(good2, "depth 2, %zu positions with second-level boards marked seen: engine and model "
	    "agree on piece, ratings and fallback", npos2);
	ok(npos2 == 0 || changed2 > 0, "the second-level rule changed ratings or the piece in %d "
	    "of them", changed2);

	for (i = 0; i < npos; i++) {
		nv_seen_free(&pos[i].seen);
		free(pos[i].keys.k);
	}
	free(pos);
	return tap_done();
}
