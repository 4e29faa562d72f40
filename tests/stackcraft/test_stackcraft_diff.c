/*
 * test_stackcraft_diff.c: random play on the engine against the naive model
 * of naive.h.
 *
 * Usage: test_stackcraft_diff [GAMES [SEED]]. Each game draws a seed (small
 * ones and ones spread over the whole range), a cap (none in half the games,
 * otherwise 1..300) and a policy: uniformly random legal moves (stacks
 * that top out fast, so the top rows and their overhangs get exercised),
 * or a noisy hole-and-height heuristic (long games that clear lines,
 * tetrises included). One turn in eight also sends an id that is not
 * legal: an unavailable placement, a rotation or x out of range, or text
 * that is not an id. Before every turn the whole legal list (count, ids,
 * rotation, x, landing y and every cell, in order) must agree; after every
 * turn the board, score, lines, pieces, current, next, status and end
 * reason; a refusal must leave the engine's struct byte-identical; and one
 * state in sixteen goes through encode/decode.
 *
 * It also counts the placements that Stackcraft allows and a drop from
 * above (tetromino_fits, Stackfall's rule) would not: the shape starts
 * below a filled cell of the top rows. They must occur, or the test never
 * saw the one place where the two rules part.
 */
#include <stdlib.h>

#include "naive.h"
#include "stackcraft.h"
#include "tap.h"

static uint64_t rng_state;

static uint64_t
rng(void)
{
	/* xorshift64*: deterministic on every platform, unlike rand(). */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * UINT64_C(2685821657736338717);
}

static char why[1024];

struct tally {
	long turns, lists, actions, refused, decoded, tetrises, spawn_below, ends[3];
};

static int
same_lists(const struct stackcraft *g, const struct nv_game *m, const struct nv_move *mv, int mn,
    struct tally *t)
{
	struct stackcraft_action ea[STACKCRAFT_LEGAL_MAX + 2];
	size_t n;
	int i, k;

	n = stackcraft_legal(g, ea, STACKCRAFT_LEGAL_MAX + 2);
	t->lists++;
	if ((int)n != mn)
		return snprintf(why, sizeof why, "legal count %zu, model %d", n, mn), 0;
	for (i = 0; i < mn; i++) {
		if (strcmp(ea[i].id, mv[i].id) != 0 || ea[i].rotation != mv[i].r ||
		    ea[i].x != mv[i].x || ea[i].y != mv[i].y)
			return snprintf(why, sizeof why, "legal %d: engine %.7s r%u x%u y%u, model %.7s y%d", i,
			    ea[i].id, ea[i].rotation, ea[i].x, ea[i].y, mv[i].id, mv[i].y), 0;
		for (k = 0; k < 4; k++)
			if (ea[i].cells[k][0] != mv[i].cells[k][0] || ea[i].cells[k][1] != mv[i].cells[k][1])
				return snprintf(why, sizeof why, "legal %.7s: cell %d differs", mv[i].id, k), 0;
		if (!tetromino_fits(&g->board, g->current, ea[i].rotation, ea[i].x))
			t->spawn_below++;
	}
	t->actions += mn;
	(void)m;
	return 1;
}

static int
same_state(const struct stackcraft *g, const struct nv_game *m)
{
	uint8_t b[STACKCRAFT_ROWS][STACKCRAFT_COLS];
	const char *end = stackcraft_end_name(g->end_reason);
	int x, y;

	stackcraft_board(g, b);
	for (y = 0; y < NV_H; y++)
		for (x = 0; x < NV_W; x++)
			if (b[y][x] != m->board[y][x])
				return snprintf(why, sizeof why, "cell (%d, %d): engine %u, model %d", x, y,
				    b[y][x], m->board[y][x]), 0;
	if (g->score != (uint64_t)m->score || g->lines != (uint64_t)m->lines ||
	    g->pieces != (uint64_t)m->pieces)
		return snprintf(why, sizeof why, "counters: score %llu/%ld lines %llu/%ld pieces %llu/%ld",
		    (unsigned long long)g->score, m->score, (unsigned long long)g->lines, m->lines,
		    (unsigned long long)g->pieces, m->pieces), 0;
	if (g->current != m->current || g->next != m->next)
		return snprintf(why, sizeof why, "pieces: current %u/%d next %u/%d", g->current,
		    m->current, g->next, m->next), 0;
	if ((g->status == STACKCRAFT_OVER) != m->over ||
	    (end == NULL) != (m->end == NULL) || (end != NULL && strcmp(end, m->end) != 0))
		return snprintf(why, sizeof why, "end: engine %s, model %s", end ? end : "none",
		    m->end ? m->end : "none"), 0;
	return 1;
}

/* Noisy heuristic on the model's afterboard: holes, height, lines. */
static int
choose(const struct nv_game *m, const struct nv_move *mv, int mn, int noise)
{
	long best = 0, v;
	int pick = 0, i, k, x, y, b[NV_H][NV_W], rows, holes, top, seen;

	for (i = 0; i < mn; i++) {
		memcpy(b, m->board, sizeof b);
		for (k = 0; k < 4; k++)
			b[mv[i].cells[k][1]][mv[i].cells[k][0]] = 1;
		rows = nv_clear(b);
		holes = 0;
		top = NV_H;
		for (x = 0; x < NV_W; x++) {
			seen = 0;
			for (y = 0; y < NV_H; y++) {
				if (b[y][x] != 0 && !seen) {
					seen = 1;
					if (y < top)
						top = y;
				} else if (b[y][x] == 0 && seen) {
					holes++;
				}
			}
		}
		v = holes * 40L + (NV_H - top) * 6L - (rows == 4 ? 120 : rows * 5) +
		    (long)(rng() % (uint64_t)noise);
		if (i == 0 || v < best) {
			best = v;
			pick = i;
		}
	}
	return pick;
}

/* An id that is not legal now, of one of four kinds. */
static void
bad_id(const struct stackcraft *g, char *buf, size_t cap, size_t *len)
{
	static const char *const junk[] = { "", "r", "r1", "r1x", "R1x4", "r1X4", "r1x44", "r01x4",
		"r-1x4", " r1x4", "r1x4 ", "r1 x4", "rax4", "r1x_", "x1r4", "r1x4\n", "r1y4" };
	struct stackcraft_action acts[STACKCRAFT_LEGAL_MAX];
	unsigned r, x, n = stackcraft_orientations(g->current), k;
	size_t nl = stackcraft_legal(g, acts, STACKCRAFT_LEGAL_MAX), i;
	int legal;

	switch (rng() % 4) {
	case 0:
		snprintf(buf, cap, "%s", junk[rng() % (sizeof junk / sizeof junk[0])]);
		break;
	case 1:
		snprintf(buf, cap, "r%ux%u", n + (unsigned)(rng() % (10 - n)), (unsigned)(rng() % 10));
		break;
	case 2:
		r = (unsigned)(rng() % n);
		x = STACKCRAFT_COLS - stackcraft_shape(g->current, r)->width + 1;
		if (x > 9) /* a one-column shape: every digit is a column */
			x = 9 - (unsigned)(rng() % 3);
		snprintf(buf, cap, "r%ux%u", r, x + (unsigned)(rng() % (10 - x)));
		break;
	default:
		/* an unavailable placement, when there is one */
		for (k = 0; k < 40; k++) {
			r = (unsigned)(rng() % n);
			x = (unsigned)(rng() % (STACKCRAFT_COLS - stackcraft_shape(g->current, r)->width + 1));
			legal = 0;
			for (i = 0; i < nl; i++)
				legal |= acts[i].rotation == r && acts[i].x == x;
			if (!legal)
				break;
		}
		snprintf(buf, cap, "r%ux%u", r, x);
		break;
	}
	*len = strlen(buf);
}

static int
play(uint64_t seed, uint64_t cap, int policy, struct tally *t)
{
	struct stackcraft g, before, back;
	struct stackcraft_report rep;
	struct nv_game m;
	struct nv_move mv[64];
	uint8_t bytes[STACKCRAFT_SERIAL_MAX];
	char id[32];
	size_t len;
	int mn, pick, mres, turn;
	enum stackcraft_outcome eres;

	if (!stackcraft_init(&g, seed, cap))
		return snprintf(why, sizeof why, "init refused"), 0;
	nv_init(&m, seed, cap);
	if (!same_state(&g, &m))
		return 0;
	for (turn = 0; turn < 3000; turn++) {
		mn = nv_legal(&m, mv);
		if (!same_lists(&g, &m, mv, mn, t))
			return 0;
		if (m.over)
			break;
		if (rng() % 8 == 0) {
			bad_id(&g, id, sizeof id, &len);
		} else {
			pick = policy == 0 ? (int)(rng() % (uint64_t)mn) : choose(&m, mv, mn, policy);
			snprintf(id, sizeof id, "%.7s", mv[pick].id);
			len = strlen(id);
		}
		memcpy(&before, &g, sizeof g);
		eres = stackcraft_step_id(&g, id, len, &rep);
		mres = nv_step(&m, id);
		t->turns++;
		if ((eres == STACKCRAFT_OK) != (mres >= 0))
			return snprintf(why, sizeof why, "turn %d, id \"%s\": engine %d (%s), model %d", turn,
			    id, eres, rep.message, mres), 0;
		if (eres != STACKCRAFT_OK) {
			t->refused++;
			if (memcmp(&g, &before, sizeof g) != 0)
				return snprintf(why, sizeof why, "turn %d: refusing \"%s\" changed the state",
				    turn, id), 0;
		} else if (rep.lines != mres) {
			return snprintf(why, sizeof why, "turn %d: report says %u lines, model %d", turn,
			    rep.lines, mres), 0;
		}
		t->tetrises += mres == 4;
		if (!same_state(&g, &m)) {
			char tmp[sizeof why];

			memcpy(tmp, why, sizeof tmp);
			return snprintf(why, sizeof why, "turn %d (%.8s): %.900s", turn, id, tmp), 0;
		}
		if (rng() % 16 == 0 || g.status == STACKCRAFT_OVER) {
			len = stackcraft_encode(&g, bytes, sizeof bytes);
			if (len > sizeof bytes || !stackcraft_decode(&back, bytes, len) ||
			    memcmp(&back, &g, sizeof g) != 0)
				return snprintf(why, sizeof why, "turn %d: the state does not decode back",
				    turn), 0;
			t->decoded++;
		}
	}
	if (!m.over)
		return snprintf(why, sizeof why, "no end in 3000 turns"), 0;
	t->ends[g.end_reason]++;
	/* every move is refused now, and changes nothing */
	memcpy(&before, &g, sizeof g);
	if (stackcraft_step(&g, 0, 0, &rep) != STACKCRAFT_GAME_OVER ||
	    stackcraft_step_id(&g, "r0x0", 4, &rep) != STACKCRAFT_GAME_OVER ||
	    memcmp(&g, &before, sizeof g) != 0 || stackcraft_legal(&g, NULL, 0) != 0)
		return snprintf(why, sizeof why, "moves after the end were not refused"), 0;
	return 1;
}

int
main(int argc, char **argv)
{
	long games = argc > 1 ? atol(argv[1]) : 2000, i, first = 0;
	uint64_t base = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
	int batch_ok = 1;
	struct tally t;

	nv_setup();
	memset(&t, 0, sizeof t);
	rng_state = base * 2654435761u + 77;
	for (i = 0; i < games; i++) {
		uint64_t seed = i % 3 == 0 ? (uint64_t)i : rng() % (STACKCRAFT_SEED_MAX + 1);
		uint64_t cap = rng() % 2 ? 0 : 1 + rng() % 300;
		int policy = rng() % 3 == 0 ? 0 : 1 + (int)(rng() % 40);

		if (!play(seed, cap, policy, &t)) {
			if (batch_ok)
				diag("game %ld (seed %llu, cap %llu, policy %d): %s", i,
				    (unsigned long long)seed, (unsigned long long)cap, policy, why);
			batch_ok = 0;
		}
		if ((i + 1) % 500 == 0 || i + 1 == games) {
			ok(batch_ok, "games %ld-%ld: engine and naive model agree", first, i);
			batch_ok = 1;
			first = i + 1;
		}
	}
	diag("%ld turns, %ld legal lists (%ld actions) compared, %ld refusals, %ld states decoded",
	    t.turns, t.lists, t.actions, t.refused, t.decoded);
	diag("%ld tetrises; ends: top_out %ld, capped %ld; %ld legal placements start below a "
	    "filled top cell", t.tetrises, t.ends[1], t.ends[2], t.spawn_below);
	if (games >= 500) {
		ok(t.tetrises > 0 && t.ends[1] > 0 && t.ends[2] > 0,
		    "play reached tetrises, top-outs and caps");
		ok(t.spawn_below > 0, "play reached placements a drop from above would not allow");
	}
	return tap_done();
}
