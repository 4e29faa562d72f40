/*
 * test_versus_diff.c: random versus matches on the engine against a naive
 * model written here from the rule text (docs/rules/versus.md): int
 * cells[20][10] boards (8 for grey), shapes read from the rule diagrams, a
 * drop one row at a time from above, clears one row at a time, Stackfall's
 * scoring written out, and garbage kept literally as one queue entry per
 * pending line (its hole, its block and the turn it arrived), cancelled
 * line by line and risen line by line. The piece stream (tested against
 * CPython in tests/stackfall) and the generator behind the hole stream
 * (pyrandom.c, idem) are shared; the hole stream's seed string is built
 * here with snprintf.
 *
 * Usage: test_versus_diff [MATCHES [SEED]]. Each match has 2-8 players
 * whose bots mix a noisy heuristic (so that they clear lines, Tetrises and
 * combos, and send garbage), holds, missed turns (some bots miss often),
 * the odd resignation, and random moves whose legality versus_check_move
 * and the model must agree on; a turn holding an illegal move must be
 * refused whole. After every turn the events and every player's whole
 * observable state must agree; at the end the match is replayed from its
 * seed and moves and must come out byte for byte the same.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bag.h"
#include "pyrandom.h"
#include "tap.h"
#include "versus.h"
#include "versus_odd.h"

/* ---- the model ---- */

/* Slots 0-6 are the tetrominoes, 7-11 the odd shapes of Transformation
 * (Dot, small L, U, Plus, W), as the rule text draws them. */
static const char *const diagram[12][4][4] = {
	{ { "####" }, { "#", "#", "#", "#" }, { "####" }, { "#", "#", "#", "#" } },
	{ { "##", "##" }, { "##", "##" }, { "##", "##" }, { "##", "##" } },
	{ { ".#.", "###" }, { "#.", "##", "#." }, { "###", ".#." }, { ".#", "##", ".#" } },
	{ { ".##", "##." }, { "#.", "##", ".#" }, { ".##", "##." }, { "#.", "##", ".#" } },
	{ { "##.", ".##" }, { ".#", "##", "#." }, { "##.", ".##" }, { ".#", "##", "#." } },
	{ { "#..", "###" }, { "##", "#.", "#." }, { "###", "..#" }, { ".#", ".#", "##" } },
	{ { "..#", "###" }, { "#.", "#.", "##" }, { "###", "#.." }, { "##", ".#", ".#" } },
	{ { "#" }, { "#" }, { "#" }, { "#" } },
	{ { "#.", "##" }, { "##", "#." }, { "##", ".#" }, { ".#", "##" } },
	{ { "#.#", "###" }, { "##", "#.", "##" }, { "###", "#.#" }, { "##", ".#", "##" } },
	{ { ".#.", "###", ".#." }, { ".#.", "###", ".#." }, { ".#.", "###", ".#." },
	  { ".#.", "###", ".#." } },
	{ { "#..", "##.", ".##" }, { ".##", "##.", "#.." }, { "##.", ".##", "..#" },
	  { "..#", ".##", "##." } },
};
static const char letter_of[] = ".IOTSZJLG";
enum { GREY = 8, PIECE_O = 1 };

struct cellset {
	int n, x[5], y[5], width; /* y counts up from the shape's lowest row */
};
static struct cellset shape[12][4];

/* The shape table's index for a piece under a slot's shape (0 or odd + 1). */
static int
slot(int piece, int sh)
{
	return sh == 0 ? piece : 6 + sh;
}

static void
read_diagrams(void)
{
	int p, r, rows, k, c;

	for (p = 0; p < 12; p++)
		for (r = 0; r < 4; r++) {
			struct cellset *s = &shape[p][r];
			for (rows = 0; rows < 4 && diagram[p][r][rows] != NULL; rows++)
				;
			s->n = 0;
			s->width = (int)strlen(diagram[p][r][0]);
			for (k = 0; k < rows; k++)
				for (c = 0; diagram[p][r][k][c] != '\0'; c++)
					if (diagram[p][r][k][c] == '#') {
						s->x[s->n] = c;
						s->y[s->n] = rows - 1 - k;
						s->n++;
					}
		}
}

struct line {
	int hole, block, turn; /* one pending garbage line */
};

#define LINES_MAX (VERSUS_QUEUE_MAX * VERSUS_ATTACK_MAX)

struct mplayer {
	int cells[20][10]; /* [row][column], row 0 at the bottom */
	long long score;
	long lines, placed, drawn;
	int combo, b2b, current, hold, next[3];
	int alive, missed, place, out_reason, last_target;
	int nlines;
	struct line q[LINES_MAX]; /* oldest first */
	/* items: per cell, per mino of the current, held and next pieces */
	int it[20][10], cur_it[4], hold_it[4], next_it[3][4];
	int inv[10], ninv, blind;
	/* Transformation: turns left, and each slot's shape (0 or odd + 1) */
	int transform, cur_sh, hold_sh, next_sh[3];
};

struct model {
	uint64_t seed;
	int n, nalive, over;
	long turn, nblocks;
	int chance, weights[6]; /* chance 0: no items */
	struct mplayer p[8];
};

/* What the model says happened to one player in a turn. */
struct mev {
	int action, held, piece, lines, b2b, perfect, combo, attack, cancelled, sent, target, hole,
	    lost, received, risen, eliminated, reason, place, collected, discarded, used, used_on,
	    shape;
	long long points;
};

static int
cell_free(const struct mplayer *p, int row, int col)
{
	if (col < 0 || col > 9 || row < 0)
		return 0;
	return row >= 20 || p->cells[row][col] == 0;
}

/* Lowers the shape from above the board while it can; returns whether it
 * ends inside the board, with its bottom row in *y. */
static int
drop_at(const struct mplayer *p, int piece, int rot, int col, int *y)
{
	const struct cellset *s;
	int k, free_below;

	if (rot < 0 || rot > 3 || col < 0)
		return 0;
	s = &shape[piece][rot];
	if (col + s->width > 10)
		return 0;
	*y = 20;
	for (;;) {
		free_below = 1;
		for (k = 0; k < s->n; k++)
			free_below &= cell_free(p, *y - 1 + s->y[k], col + s->x[k]);
		if (!free_below)
			break;
		(*y)--;
	}
	for (k = 0; k < s->n; k++)
		if (*y + s->y[k] > 19)
			return 0;
	return 1;
}

static int
fits_somewhere(const struct mplayer *p, int piece)
{
	int r, c, y;

	for (r = 0; r < 4; r++)
		for (c = 0; c < 10; c++)
			if (drop_at(p, piece, r, c, &y))
				return 1;
	return 0;
}

static int
hold_alternative(const struct mplayer *p)
{
	return p->hold >= 0 ? p->hold : p->next[0];
}

static int
hold_alternative_shape(const struct mplayer *p)
{
	return p->hold >= 0 ? p->hold_sh : p->next_sh[0];
}

/* The rule text's odd shape for a stream piece: int(random() * 5). */
static int
model_odd(const struct model *md, int player, long index)
{
	char text[96];
	struct pyrandom r;

	snprintf(text, sizeof text, "versus-v1:%llu:odd:%d:%ld", (unsigned long long)md->seed,
	    player, index);
	pyrandom_seed_string(&r, text);
	return (int)(pyrandom_random(&r) * 5);
}

/* The rule text's rolls: per mino, random() below chance / 100 carries
 * an item, a second random() times the weights' sum picks it. */
static void
model_roll(const struct model *md, int player, long index, int out[4])
{
	char text[96];
	struct pyrandom r;
	int k, total = 0, i, x;

	memset(out, 0, 4 * sizeof out[0]);
	if (md->chance == 0)
		return;
	for (i = 0; i < 6; i++)
		total += md->weights[i];
	snprintf(text, sizeof text, "versus-v1:%llu:items:%d:%ld", (unsigned long long)md->seed,
	    player, index);
	pyrandom_seed_string(&r, text);
	for (k = 0; k < 4; k++) {
		if (pyrandom_random(&r) * 100 >= md->chance)
			continue;
		x = (int)(pyrandom_random(&r) * total);
		for (i = 0; x >= md->weights[i]; i++)
			x -= md->weights[i];
		out[k] = i + 1;
	}
}

static int
take_next(const struct model *md, struct mplayer *p, int items[4], int *sh)
{
	int piece = p->next[0];

	memcpy(items, p->next_it[0], sizeof p->next_it[0]);
	memmove(p->next_it[0], p->next_it[1], sizeof p->next_it[0] * 2);
	*sh = p->next_sh[0];
	p->next_sh[0] = p->next_sh[1];
	p->next_sh[1] = p->next_sh[2];
	p->next[0] = p->next[1];
	p->next[1] = p->next[2];
	p->drawn++;
	p->next[2] = bag_piece(md->seed, (uint64_t)p->drawn + 2);
	model_roll(md, (int)(p - md->p), p->drawn + 2, p->next_it[2]);
	/* upcoming pieces become odd while a Transformation runs */
	p->next_sh[2] = p->transform > 0 ? 1 + model_odd(md, (int)(p - md->p), p->drawn + 2) : 0;
	return piece;
}

static int
remove_full_rows(struct mplayer *p, struct mev *e)
{
	int row = 0, n = 0, c, full, r;

	while (row < 20) {
		full = 1;
		for (c = 0; c < 10; c++)
			full &= p->cells[row][c] != 0;
		if (!full) {
			row++;
			continue;
		}
		for (c = 0; c < 10; c++) {
			if (p->it[row][c] == 0)
				continue;
			e->collected++;
			if (p->ninv < 10)
				p->inv[p->ninv++] = p->it[row][c];
			else
				e->discarded++;
		}
		for (r = row; r < 19; r++) {
			memcpy(p->cells[r], p->cells[r + 1], sizeof p->cells[r]);
			memcpy(p->it[r], p->it[r + 1], sizeof p->it[r]);
		}
		memset(p->cells[19], 0, sizeof p->cells[19]);
		memset(p->it[19], 0, sizeof p->it[19]);
		n++;
	}
	return n;
}

/* One row in at the bottom; returns whether a filled cell went out. */
static int
push_row(struct mplayer *p, int hole)
{
	int col, overflow = 0;

	for (col = 0; col < 10; col++)
		if (p->cells[19][col] != 0)
			overflow = 1;
	memmove(p->cells[1], p->cells[0], sizeof p->cells[0] * 19);
	memmove(p->it[1], p->it[0], sizeof p->it[0] * 19);
	for (col = 0; col < 10; col++) {
		p->cells[0][col] = col == hole ? 0 : GREY;
		p->it[0][col] = 0;
	}
	return overflow;
}

static int
board_empty(const struct mplayer *p)
{
	int r, c;

	for (r = 0; r < 20; r++)
		for (c = 0; c < 10; c++)
			if (p->cells[r][c] != 0)
				return 0;
	return 1;
}

/* The seed's table, one entry per combo count, 5 beyond its end. */
static int
combo_lines(int combo)
{
	static const int table[] = { 0, 0, 1, 1, 1, 2, 2, 3, 3, 4, 4, 4, 5 };

	if (combo < 0)
		return 0;
	return combo < 13 ? table[combo] : 5;
}

/* Places the current piece (known to fit), with Stackfall's scoring. */
static void
model_place(const struct model *md, struct mplayer *p, int rot, int col, struct mev *e)
{
	const struct cellset *s = &shape[slot(p->current, p->cur_sh)][rot];
	long long level = 1 + p->lines / 10, pts = 0;
	int y, k, n, b2b_now = 0, perfect = 0, carried[5] = { 0, 0, 0, 0, 0 }, ncarried = 0;

	/* an odd shape carries the piece's items, empty minos skipped, in mino
	 * order on as many of its minos as it has */
	for (k = 0; k < 4; k++) {
		if (p->cur_sh == 0)
			carried[k] = p->cur_it[k];
		else if (p->cur_it[k] != 0 && ncarried < s->n)
			carried[ncarried++] = p->cur_it[k];
	}
	drop_at(p, slot(p->current, p->cur_sh), rot, col, &y);
	for (k = 0; k < s->n; k++) {
		/* mino order: bottom row first, left to right */
		int j, rank = 0;

		for (j = 0; j < s->n; j++)
			rank += s->y[j] < s->y[k] || (s->y[j] == s->y[k] && s->x[j] < s->x[k]);
		p->cells[y + s->y[k]][col + s->x[k]] = p->current + 1;
		p->it[y + s->y[k]][col + s->x[k]] = carried[rank];
	}
	e->piece = p->current;
	e->shape = p->cur_sh;
	n = remove_full_rows(p, e);
	if (n == 0) {
		p->combo = -1;
	} else {
		p->combo++;
		b2b_now = n == 4 && p->b2b;
		perfect = board_empty(p);
		if (n == 1)
			pts = 100;
		else if (n == 2)
			pts = 300;
		else if (n == 3)
			pts = 500;
		else
			pts = b2b_now ? 1200 : 800;
		pts *= level;
		if (p->combo >= 1)
			pts += 50LL * p->combo * level;
		if (perfect) {
			if (n == 1)
				pts += 800 * level;
			else if (n == 2)
				pts += 1200 * level;
			else if (n == 3)
				pts += 1800 * level;
			else
				pts += (b2b_now ? 3200 : 2000) * level;
		}
		p->b2b = n == 4;
		p->lines += n;
		p->score += pts;
		/* lines sent: single 0, double 1, triple 2, four 4 */
		e->attack = n == 2 ? 1 : n == 3 ? 2 : n == 4 ? 4 : 0;
		e->attack += b2b_now + combo_lines(p->combo) + (perfect ? 10 : 0);
	}
	e->lines = n;
	e->b2b = b2b_now;
	e->perfect = perfect;
	e->combo = p->combo;
	e->points = pts;
	p->placed++;
	p->current = take_next(md, p, p->cur_it, &p->cur_sh);
}

static int
model_hole(uint64_t seed, long k)
{
	char text[80];
	struct pyrandom r;

	snprintf(text, sizeof text, "versus-v1:%llu:garbage:%ld", (unsigned long long)seed, k);
	pyrandom_seed_string(&r, text);
	return (int)(pyrandom_random(&r) * 10);
}

static int
blocks_pending(const struct mplayer *p)
{
	int i, n = 0;

	for (i = 0; i < p->nlines; i++)
		if (i == 0 || p->q[i].block != p->q[i - 1].block)
			n++;
	return n;
}

static void
model_init(struct model *md, uint64_t seed, int n)
{
	int i;

	memset(md, 0, sizeof *md);
	md->seed = seed;
	md->n = n;
	md->nalive = n;
	for (i = 0; i < n; i++) {
		struct mplayer *p = &md->p[i];
		p->combo = -1;
		p->hold = -1;
		p->alive = 1;
		p->last_target = i;
		p->current = bag_piece(seed, 0);
		p->next[0] = bag_piece(seed, 1);
		p->next[1] = bag_piece(seed, 2);
		p->next[2] = bag_piece(seed, 3);
		p->drawn = 1;
	}
}

static void
model_items(struct model *md, int chance, const int *weights)
{
	int i, k;

	md->chance = chance;
	memcpy(md->weights, weights, sizeof md->weights);
	for (i = 0; i < md->n; i++) {
		model_roll(md, i, 0, md->p[i].cur_it);
		for (k = 0; k < 3; k++)
			model_roll(md, i, 1 + k, md->p[i].next_it[k]);
	}
}

/* The seat `use T` names for user i: 1 itself, then the others in order. */
static int
model_seat(const struct model *md, int i, unsigned t)
{
	int list[8], n = 0, j;

	list[n++] = i;
	for (j = 0; j < md->n; j++)
		if (j != i)
			list[n++] = j;
	return t >= 1 && t <= (unsigned)n ? list[t - 1] : -1;
}

/* Is this move legal for living player i? */
static int
model_legal(const struct model *md, int i, const struct versus_move *mv)
{
	const struct mplayer *p = &md->p[i];
	int y, piece, t;

	if (mv->kind == VERSUS_MOVE_RESIGN)
		return 1;
	if (mv->kind != VERSUS_MOVE_PLACE || mv->rotation > 3 || mv->column > 9)
		return 0;
	if (mv->use != 0) {
		t = model_seat(md, i, mv->use);
		if (md->chance == 0 || t < 0 || !md->p[t].alive)
			return 0;
	}
	piece = mv->hold ? slot(hold_alternative(p), hold_alternative_shape(p))
	    : slot(p->current, p->cur_sh);
	return drop_at(p, piece, (int)mv->rotation, (int)mv->column, &y);
}

static void
model_turn(struct model *md, const struct versus_move *mv, struct mev *ev)
{
	int was_alive[8], i, k, t, col, y, placed, piece, d, overflow, nout;
	struct mplayer *p, *q;

	md->turn++;
	memset(ev, 0, sizeof *ev * 8);
	for (i = 0; i < md->n; i++) {
		was_alive[i] = md->p[i].alive;
		ev[i].target = -1;
		if (md->p[i].blind > 0)
			md->p[i].blind--;
	}
	/* placements, in match order */
	for (i = 0; i < md->n; i++) {
		if (!was_alive[i])
			continue;
		p = &md->p[i];
		if (mv[i].kind == VERSUS_MOVE_RESIGN) {
			ev[i].action = VERSUS_ACT_RESIGNED;
			ev[i].reason = VERSUS_END_RESIGNED;
		} else if (mv[i].kind == VERSUS_MOVE_MISSED) {
			p->missed++;
			col = p->cur_sh != 0 ? (p->cur_sh == 1 ? 4 : 3) : p->current == PIECE_O ? 4 : 3;
			if (p->missed == 3) {
				ev[i].action = VERSUS_ACT_TIMED_OUT;
				ev[i].reason = VERSUS_END_MISSED;
			} else if (!drop_at(p, slot(p->current, p->cur_sh), 0, col, &y)) {
				ev[i].action = VERSUS_ACT_NO_ROOM;
				ev[i].reason = VERSUS_END_TOP_OUT;
			} else {
				ev[i].action = VERSUS_ACT_DROPPED;
				model_place(md, p, 0, col, &ev[i]);
			}
		} else {
			p->missed = 0;
			if (mv[i].hold) {
				int held[4], held_sh = p->cur_sh;

				memcpy(held, p->cur_it, sizeof held);
				piece = p->current;
				if (p->hold < 0) {
					p->current = take_next(md, p, p->cur_it, &p->cur_sh);
				} else {
					p->current = p->hold;
					p->cur_sh = p->hold_sh;
					memcpy(p->cur_it, p->hold_it, sizeof held);
				}
				p->hold = piece;
				/* held with no Transformation running: its own piece again */
				p->hold_sh = p->transform > 0 ? held_sh : 0;
				memcpy(p->hold_it, held, sizeof held);
				ev[i].held = 1;
			}
			ev[i].action = VERSUS_ACT_PLACED;
			model_place(md, p, (int)mv[i].rotation, (int)mv[i].column, &ev[i]);
		}
	}
	/* after the placements, Transformations count down; one ending turns
	 * the queue and the hold back */
	for (i = 0; i < md->n; i++) {
		p = &md->p[i];
		if (p->transform > 0 && --p->transform == 0) {
			memset(p->next_sh, 0, sizeof p->next_sh);
			p->hold_sh = 0;
		}
	}
	/* item uses, in match order, the oldest item each */
	for (i = 0; i < md->n; i++) {
		struct mplayer tmp;
		int item;

		p = &md->p[i];
		if (!was_alive[i] || mv[i].kind != VERSUS_MOVE_PLACE || mv[i].use == 0 ||
		    p->ninv == 0)
			continue;
		item = p->inv[0];
		memmove(&p->inv[0], &p->inv[1], sizeof p->inv[0] * 9);
		p->ninv--;
		t = model_seat(md, i, mv[i].use);
		q = &md->p[t];
		ev[i].used = item;
		ev[i].used_on = t;
		if (item == VERSUS_ITEM_ADD_LINE) {
			if (push_row(q, model_hole(md->seed, md->nblocks++)) && ev[t].reason == 0)
				ev[t].reason = VERSUS_END_OVERFLOW;
		} else if (item == VERSUS_ITEM_CLEAR_LINE) {
			memmove(q->cells[0], q->cells[1], sizeof q->cells[0] * 19);
			memmove(q->it[0], q->it[1], sizeof q->it[0] * 19);
			memset(q->cells[19], 0, sizeof q->cells[19]);
			memset(q->it[19], 0, sizeof q->it[19]);
		} else if (item == VERSUS_ITEM_NUKE) {
			memset(q->cells, 0, sizeof q->cells);
			memset(q->it, 0, sizeof q->it);
		} else if (item == VERSUS_ITEM_SWAP && t != i) {
			memcpy(tmp.cells, p->cells, sizeof tmp.cells);
			memcpy(tmp.it, p->it, sizeof tmp.it);
			memcpy(p->cells, q->cells, sizeof tmp.cells);
			memcpy(p->it, q->it, sizeof tmp.it);
			memcpy(q->cells, tmp.cells, sizeof tmp.cells);
			memcpy(q->it, tmp.it, sizeof tmp.it);
		} else if (item == VERSUS_ITEM_BLIND) {
			q->blind += 4;
		} else if (item == VERSUS_ITEM_TRANSFORM) {
			q->transform = q->transform + 8 > 255 ? 255 : q->transform + 8;
			for (k = 0; k < 3; k++)
				if (q->next_sh[k] == 0)
					q->next_sh[k] = 1 + model_odd(md, t, q->drawn + k);
		}
	}
	/* cancelling: one queued line per attacking line, from the front */
	for (i = 0; i < md->n; i++) {
		p = &md->p[i];
		while (was_alive[i] && ev[i].cancelled < ev[i].attack && p->nlines > 0) {
			memmove(&p->q[0], &p->q[1], sizeof p->q[0] * (size_t)(p->nlines - 1));
			p->nlines--;
			ev[i].cancelled++;
		}
		ev[i].sent = ev[i].attack - ev[i].cancelled;
	}
	/* sending, in match order */
	for (i = 0; i < md->n; i++) {
		if (!was_alive[i] || ev[i].sent == 0)
			continue;
		p = &md->p[i];
		t = -1;
		for (d = 1; d <= md->n && t < 0; d++) {
			k = (p->last_target + d) % md->n;
			if (k != i && was_alive[k])
				t = k;
		}
		p->last_target = t;
		ev[i].target = t;
		ev[i].hole = model_hole(md->seed, md->nblocks);
		q = &md->p[t];
		if (blocks_pending(q) >= VERSUS_QUEUE_MAX) {
			ev[i].lost = 1;
		} else {
			for (k = 0; k < ev[i].sent; k++) {
				q->q[q->nlines].hole = ev[i].hole;
				q->q[q->nlines].block = (int)md->nblocks;
				q->q[q->nlines].turn = (int)md->turn;
				q->nlines++;
			}
			ev[t].received++;
		}
		md->nblocks++;
	}
	/* rising: one line at a time from the front, for placements that
	 * cleared nothing, lines that arrived in earlier turns only */
	for (i = 0; i < md->n; i++) {
		p = &md->p[i];
		placed = ev[i].action == VERSUS_ACT_PLACED || ev[i].action == VERSUS_ACT_DROPPED;
		if (!was_alive[i] || !placed || ev[i].lines > 0)
			continue;
		overflow = 0;
		while (p->nlines > 0 && p->q[0].turn < md->turn) {
			overflow |= push_row(p, p->q[0].hole);
			memmove(&p->q[0], &p->q[1], sizeof p->q[0] * (size_t)(p->nlines - 1));
			p->nlines--;
			ev[i].risen++;
		}
		if (overflow)
			ev[i].reason = VERSUS_END_OVERFLOW;
	}
	/* eliminations */
	nout = 0;
	for (i = 0; i < md->n; i++) {
		p = &md->p[i];
		if (!was_alive[i])
			continue;
		if (ev[i].reason == 0 && !fits_somewhere(p, slot(p->current, p->cur_sh)) &&
		    !fits_somewhere(p, slot(hold_alternative(p), hold_alternative_shape(p))))
			ev[i].reason = VERSUS_END_TOP_OUT;
		if (ev[i].reason != 0)
			nout++;
	}
	md->nalive -= nout;
	for (i = 0; i < md->n; i++) {
		p = &md->p[i];
		if (!was_alive[i])
			continue;
		if (ev[i].reason != 0) {
			p->alive = 0;
			p->out_reason = ev[i].reason;
			p->place = md->nalive + 1;
			p->nlines = 0;
			ev[i].eliminated = 1;
			ev[i].place = p->place;
		} else if (md->nalive == 1) {
			p->place = 1;
			ev[i].place = 1;
		}
	}
	md->over = md->nalive <= 1;
}

/* ---- comparison ---- */

static char why[600];

static int
same_player(const struct versus_match *m, const struct model *md, int i)
{
	const struct versus_player *p = &m->players[i];
	const struct mplayer *q = &md->p[i];
	char a[VERSUS_TEXT_SIZE], b[VERSUS_TEXT_SIZE], *o = b;
	int r, c, k, hold = p->hold == VERSUS_NO_PIECE ? -1 : p->hold;

	versus_board_text(p, a);
	for (r = 19; r >= 0; r--) {
		for (c = 0; c < 10; c++)
			*o++ = letter_of[q->cells[r][c]];
		*o++ = r > 0 ? '\n' : '\0';
	}
	if (strcmp(a, b) != 0)
		return snprintf(why, sizeof why, "player %d: boards differ:\n%s\nmodel:\n%s", i, a,
		    b), 0;
	if ((long long)p->score != q->score || p->lines != q->lines || p->placed != q->placed ||
	    p->level != 1 + q->lines / 10 || p->combo != q->combo || p->back_to_back != q->b2b)
		return snprintf(why, sizeof why,
		    "player %d: counters differ: score %llu/%lld lines %u/%ld placed %u/%ld combo %d/%d",
		    i, (unsigned long long)p->score, q->score, p->lines, q->lines, p->placed,
		    q->placed, p->combo, q->combo), 0;
	if (p->current != q->current || hold != q->hold || p->drawn != q->drawn)
		return snprintf(why, sizeof why, "player %d: pieces differ", i), 0;
	for (k = 0; k < 3; k++)
		if (p->next[k] != q->next[k] || p->next_shape[k] != q->next_sh[k])
			return snprintf(why, sizeof why, "player %d: next[%d] differs", i, k), 0;
	if (p->transform != q->transform || p->current_shape != q->cur_sh ||
	    p->hold_shape != q->hold_sh)
		return snprintf(why, sizeof why, "player %d: transform %d/%d shapes %d/%d %d/%d", i,
		    p->transform, q->transform, p->current_shape, q->cur_sh, p->hold_shape,
		    q->hold_sh), 0;
	if (p->alive != q->alive || p->missed != q->missed || p->place != q->place ||
	    p->end_reason != q->out_reason || p->pending != q->nlines ||
	    p->nqueue != blocks_pending(q) || (p->alive && p->cursor != q->last_target))
		return snprintf(why, sizeof why,
		    "player %d: alive %d/%d missed %d/%d place %d/%d end %d/%d pending %d/%d "
		    "blocks %d/%d cursor %d/%d", i, p->alive, q->alive, p->missed, q->missed,
		    p->place, q->place, p->end_reason, q->out_reason, p->pending, q->nlines,
		    p->nqueue, blocks_pending(q), p->cursor, q->last_target), 0;
	for (r = 0; r < 20; r++)
		for (c = 0; c < 10; c++)
			if (p->items[r][c] != q->it[r][c])
				return snprintf(why, sizeof why, "player %d: item at row %d column %d differs",
				    i, r, c), 0;
	if (p->ninventory != q->ninv || p->blind != q->blind)
		return snprintf(why, sizeof why, "player %d: inventory %d/%d blind %d/%d", i,
		    p->ninventory, q->ninv, p->blind, q->blind), 0;
	for (k = 0; k < q->ninv; k++)
		if (p->inventory[k] != q->inv[k])
			return snprintf(why, sizeof why, "player %d: inventory[%d] differs", i, k), 0;
	for (k = 0; k < 4; k++)
		if ((int)VERSUS_MINO_ITEMS(p->current_items, k) != q->cur_it[k] ||
		    (q->hold >= 0 && (int)VERSUS_MINO_ITEMS(p->hold_items, k) != q->hold_it[k]) ||
		    (int)VERSUS_MINO_ITEMS(p->next_items[0], k) != q->next_it[0][k] ||
		    (int)VERSUS_MINO_ITEMS(p->next_items[1], k) != q->next_it[1][k] ||
		    (int)VERSUS_MINO_ITEMS(p->next_items[2], k) != q->next_it[2][k])
			return snprintf(why, sizeof why, "player %d: a piece's items differ", i), 0;
	for (k = 0; k < q->nlines; k++) {
		/* line k of the literal queue lies in the engine's block j */
		int j = 0, before = 0;
		while (j < p->nqueue && before + p->queue[j].lines <= k)
			before += p->queue[j++].lines;
		if (j == p->nqueue || p->queue[j].hole != q->q[k].hole)
			return snprintf(why, sizeof why, "player %d: queued line %d's hole differs", i,
			    k), 0;
	}
	return 1;
}

static int
same_events(const struct versus_events *ev, const struct mev *mv, int n)
{
	const struct versus_player_events *e;
	int i, k, risen;

	for (i = 0; i < n; i++) {
		e = &ev->players[i];
		risen = 0;
		for (k = 0; k < e->nrisen; k++)
			risen += e->risen[k].lines;
		if (e->action != mv[i].action || e->held != mv[i].held || e->lines != mv[i].lines ||
		    (long long)e->points != mv[i].points || e->back_to_back != mv[i].b2b ||
		    e->perfect_clear != mv[i].perfect ||
		    (mv[i].action == VERSUS_ACT_PLACED || mv[i].action == VERSUS_ACT_DROPPED
		    ? e->combo != mv[i].combo || e->piece != mv[i].piece || e->shape != mv[i].shape
		    : 0))
			return snprintf(why, sizeof why,
			    "player %d: placement events differ: action %d/%d lines %d/%d points %llu/%lld",
			    i, e->action, mv[i].action, e->lines, mv[i].lines,
			    (unsigned long long)e->points, mv[i].points), 0;
		if (e->attack != mv[i].attack || e->cancelled != mv[i].cancelled ||
		    e->sent != mv[i].sent || (mv[i].sent > 0 && (e->target != mv[i].target ||
		    e->sent_hole != mv[i].hole || e->sent_lost != mv[i].lost)) ||
		    (mv[i].sent == 0 && e->target != VERSUS_NOBODY) ||
		    e->received != mv[i].received)
			return snprintf(why, sizeof why,
			    "player %d: attack %d/%d cancelled %d/%d sent %d/%d target %d/%d hole %d/%d "
			    "received %d/%d", i, e->attack, mv[i].attack, e->cancelled,
			    mv[i].cancelled, e->sent, mv[i].sent, e->target, mv[i].target,
			    e->sent_hole, mv[i].hole, e->received, mv[i].received), 0;
		if (risen != mv[i].risen || e->risen_lines != mv[i].risen)
			return snprintf(why, sizeof why, "player %d: risen %d/%d", i, risen,
			    mv[i].risen), 0;
		if (e->collected != mv[i].collected || e->discarded != mv[i].discarded ||
		    e->used != mv[i].used || (mv[i].used != 0 && e->used_on != mv[i].used_on))
			return snprintf(why, sizeof why, "player %d: items collected %d/%d discarded "
			    "%d/%d used %d/%d", i, e->collected, mv[i].collected, e->discarded,
			    mv[i].discarded, e->used, mv[i].used), 0;
		if (e->eliminated != mv[i].eliminated || e->end_reason != mv[i].reason ||
		    e->place != mv[i].place)
			return snprintf(why, sizeof why, "player %d: eliminated %d/%d end %d/%d place %d/%d",
			    i, e->eliminated, mv[i].eliminated, e->end_reason, mv[i].reason, e->place,
			    mv[i].place), 0;
	}
	return 1;
}

/* What a Transformation keeps, the same in a and b. */
static int
same_transform(const struct versus_match *a, const struct versus_match *b)
{
	int i;

	for (i = 0; i < a->nplayers; i++) {
		const struct versus_player *p = &a->players[i], *q = &b->players[i];

		if (p->transform != q->transform || p->current_shape != q->current_shape ||
		    p->hold_shape != q->hold_shape ||
		    memcmp(p->next_shape, q->next_shape, sizeof p->next_shape) != 0 ||
		    p->current_items != q->current_items || p->hold_items != q->hold_items ||
		    memcmp(p->next_items, q->next_items, sizeof p->next_items) != 0 ||
		    memcmp(p->items, q->items, sizeof p->items) != 0 ||
		    memcmp(&p->board, &q->board, sizeof p->board) != 0)
			return 0;
	}
	return 1;
}

/* ---- the bots ---- */

static uint64_t rng_state;

static uint64_t
rng(void)
{
	/* xorshift64*: the same sequence on every platform */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * UINT64_C(2685821657736338717);
}

struct bot {
	int holes, height, bump, multi, noise, well, miss_per_mille, hold_percent;
};

static void
bot_new(struct bot *b)
{
	b->holes = 4 + (int)(rng() % 10);
	b->height = 1 + (int)(rng() % 4);
	b->bump = 1 + (int)(rng() % 2);
	b->multi = 10 + (int)(rng() % 50);
	b->noise = rng() % 5 == 0 ? 400 : 1 + (int)(rng() % 15);
	b->well = rng() % 2 ? 12 : 0;
	b->miss_per_mille = rng() % 6 == 0 ? 400 : (int)(rng() % 40);
	b->hold_percent = (int)(rng() % 20);
}

/* A placement of piece on the engine's board by the bot's taste. */
static int
bot_pick(const struct bot *b, const struct tetromino_board *board, unsigned piece,
    unsigned sh, unsigned *rot, unsigned *col)
{
	struct tetromino_option o[VERSUS_ODD_OPTIONS_MAX];
	size_t n = sh == 0 ? tetromino_options(board, piece, o, TETROMINO_OPTIONS_MAX)
	    : versus_odd_options(board, sh - 1, o, VERSUS_ODD_OPTIONS_MAX), i;
	long v, best = 0;
	size_t pick = 0;
	unsigned width;

	if (n == 0)
		return 0;
	for (i = 0; i < n; i++) {
		v = (long)b->holes * o[i].figures.holes + (long)b->height * o[i].figures.max_height +
		    (long)b->bump * o[i].figures.bumpiness;
		if (o[i].figures.lines >= 2)
			v -= (long)b->multi * o[i].figures.lines;
		else if (o[i].figures.lines == 1 && o[i].figures.max_height > 12)
			v -= b->multi;
		width = sh == 0 ? tetromino_shape(piece, o[i].rotation)->width
		    : versus_odd_shape(sh - 1, o[i].rotation)->width;
		if (o[i].column + width == 10 &&
		    o[i].figures.lines == 0)
			v += b->well;
		v += (long)(rng() % (uint64_t)b->noise);
		if (i == 0 || v < best) {
			best = v;
			pick = i;
		}
	}
	*rot = o[pick].rotation;
	*col = o[pick].column;
	return 1;
}

static struct versus_move
bot_move(const struct bot *b, const struct versus_player *p)
{
	struct versus_move mv = { VERSUS_MOVE_PLACE, false, 0, 0, 0 };
	unsigned r, c;

	if (rng() % 1000 < (unsigned)b->miss_per_mille) {
		mv.kind = VERSUS_MOVE_MISSED;
		return mv;
	}
	if (rng() % 100 < (unsigned)b->hold_percent &&
	    bot_pick(b, &p->board, versus_hold_piece(p), versus_hold_shape(p), &r, &c)) {
		mv.hold = true;
	} else if (!bot_pick(b, &p->board, p->current, p->current_shape, &r, &c)) {
		mv.hold = true;
		if (!bot_pick(b, &p->board, versus_hold_piece(p), versus_hold_shape(p), &r, &c))
			mv.kind = VERSUS_MOVE_RESIGN; /* cannot happen to a living player */
	}
	mv.rotation = r;
	mv.column = c;
	return mv;
}

/* ---- the run ---- */

#define TURNS_MAX 400

struct tally {
	long matches, turns, placements, clears[5], b2b, perfect, combo3, sent, cancelled,
	    partial_cancel, risen, multi_rise, lost, illegal, refused_turns, ends[5], shared,
	    no_room, dropped, players, item_matches, collected, discarded, used[7], odd_placed,
	    serial_odd, serial_max;
};

static struct versus_move history[TURNS_MAX + 8][8];

static int
play(uint64_t seed, int n, struct tally *t)
{
	static struct model md;
	struct versus_match m, before, replay;
	struct versus_events ev;
	struct mev mev[8];
	struct versus_move mv[8];
	struct bot bots[8];
	int i, turn, legal[8], first_bad, k, chance, weights[6];
	uint8_t w8[6];
	unsigned bad;
	char reason[ENGINE_REASON_MAX];

	versus_init(&m, seed, (unsigned)n);
	model_init(&md, seed, n);
	/* Half the matches have items: a chance of 5, 30 or 100 percent and
	 * random weights, at least one above 0. */
	chance = 0;
	if (rng() % 2 == 0) {
		static const int chances[] = { 5, 30, 100 };

		chance = chances[rng() % 3];
		for (k = 0; k < 6; k++) {
			weights[k] = (int)(rng() % 4);
			w8[k] = (uint8_t)weights[k];
		}
		if (weights[0] + weights[1] + weights[2] + weights[3] + weights[4] + weights[5] == 0)
			weights[rng() % 6] = 1;
		for (k = 0; k < 6; k++)
			w8[k] = (uint8_t)weights[k];
		versus_set_items(&m, (unsigned)chance, w8);
		model_items(&md, chance, weights);
		t->item_matches++;
	}
	for (i = 0; i < n; i++) {
		bot_new(&bots[i]);
		if (!same_player(&m, &md, i))
			return 0;
	}
	t->players += n;
	for (turn = 0; !m.over; turn++) {
		first_bad = -1;
		for (i = 0; i < n; i++) {
			if (!m.players[i].alive) {
				mv[i].kind = VERSUS_MOVE_MISSED;
				mv[i].hold = rng() % 2;
				continue;
			}
			if (turn >= TURNS_MAX || rng() % 2000 == 0) {
				mv[i].kind = VERSUS_MOVE_RESIGN;
			} else if (rng() % 100 < 3) {
				mv[i].kind = rng() % 20 == 0 ? VERSUS_MOVE_MISSED + 7 : VERSUS_MOVE_PLACE;
				mv[i].hold = rng() % 2;
				mv[i].rotation = (uint32_t)(rng() % 5);
				mv[i].column = (uint32_t)(rng() % 11);
				mv[i].use = rng() % 4 == 0 ? (uint32_t)(rng() % 10) : 0;
			} else {
				mv[i] = bot_move(&bots[i], &m.players[i]);
				/* in a match with items: use often, on any seat (some out or
				 * beyond the match: refused); now and then in a match without */
				if ((chance > 0 && rng() % 4 == 0) || rng() % 500 == 0)
					mv[i].use = 1 + (uint32_t)(rng() % (unsigned)(n + 1));
			}
			if (mv[i].kind == VERSUS_MOVE_MISSED)
				continue;
			legal[i] = model_legal(&md, i, &mv[i]);
			if (legal[i] != versus_check_move(&m, (unsigned)i, &mv[i], reason,
			    sizeof reason)) {
				snprintf(why, sizeof why, "turn %d player %d: legality %d, engine %s", turn,
				    i, legal[i], reason);
				return 0;
			}
			if (!legal[i]) {
				t->illegal++;
				if (first_bad < 0)
					first_bad = i;
			}
		}
		if (first_bad >= 0) {
			before = m;
			bad = VERSUS_NOBODY;
			if (versus_resolve(&m, mv, &ev, &bad, reason, sizeof reason) != VERSUS_REFUSED ||
			    bad != (unsigned)first_bad || memcmp(&m, &before, sizeof m) != 0) {
				snprintf(why, sizeof why, "turn %d: an illegal move was not refused cleanly",
				    turn);
				return 0;
			}
			t->refused_turns++;
			for (i = 0; i < n; i++)
				if (m.players[i].alive && mv[i].kind != VERSUS_MOVE_MISSED && !legal[i])
					mv[i] = bot_move(&bots[i], &m.players[i]);
			for (i = 0; i < n; i++)
				mv[i].use = m.players[i].alive ? mv[i].use : 0;
		}
		if (versus_resolve(&m, mv, &ev, NULL, reason, sizeof reason) != VERSUS_OK) {
			snprintf(why, sizeof why, "turn %d: refused: %s", turn, reason);
			return 0;
		}
		memcpy(history[turn], mv, sizeof mv);
		model_turn(&md, mv, mev);
		if (ev.turn != (uint32_t)turn + 1 || ev.over != md.over || m.over != md.over ||
		    m.nalive != md.nalive || m.nblocks != md.nblocks) {
			snprintf(why, sizeof why, "turn %d: match counters differ", turn);
			return 0;
		}
		if (!same_events(&ev, mev, n)) {
			char tmp[sizeof why];
			memcpy(tmp, why, sizeof tmp);
			snprintf(why, sizeof why, "turn %d: %.500s", turn, tmp);
			return 0;
		}
		for (i = 0; i < n; i++) {
			if (!same_player(&m, &md, i)) {
				char tmp[sizeof why];
				memcpy(tmp, why, sizeof tmp);
				snprintf(why, sizeof why, "turn %d: %.500s", turn, tmp);
				return 0;
			}
		}
		t->turns++;
		/* states with items (Transformations included) come back from
		 * their bytes and encode to the same bytes again */
		if (chance > 0) {
			static uint8_t buf[VERSUS_SERIAL_MAX], again[VERSUS_SERIAL_MAX];
			static struct versus_match back;
			size_t nb = versus_encode(&m, buf, sizeof buf);

			if (nb > VERSUS_SERIAL_MAX || !versus_decode(&back, buf, nb) ||
			    versus_encode(&back, again, sizeof again) != nb ||
			    memcmp(buf, again, nb) != 0 || !same_transform(&back, &m)) {
				snprintf(why, sizeof why, "turn %d: the state does not round-trip (version %d)",
				    turn, buf[0]);
				return 0;
			}
			t->serial_odd += buf[0] == VERSUS_SERIAL_VERSION_TRANSFORM;
			if (nb > (size_t)t->serial_max)
				t->serial_max = (long)nb;
		}
		for (i = 0; i < n; i++) {
			const struct versus_player_events *e = &ev.players[i];
			if (e->action == VERSUS_ACT_PLACED || e->action == VERSUS_ACT_DROPPED)
				t->placements++;
			t->dropped += e->action == VERSUS_ACT_DROPPED;
			t->no_room += e->action == VERSUS_ACT_NO_ROOM;
			t->clears[e->lines]++;
			t->b2b += e->back_to_back;
			t->perfect += e->perfect_clear;
			t->combo3 += e->lines > 0 && e->combo >= 3;
			t->sent += e->sent > 0;
			t->cancelled += e->cancelled > 0;
			t->partial_cancel += e->cancelled > 0 && e->sent > 0;
			t->risen += e->nrisen > 0;
			t->multi_rise += e->nrisen > 1;
			t->lost += e->sent_lost;
			t->collected += e->collected;
			t->discarded += e->discarded;
			if (e->used != VERSUS_ITEM_NONE)
				t->used[e->used]++;
			t->odd_placed += (e->action == VERSUS_ACT_PLACED ||
			    e->action == VERSUS_ACT_DROPPED) && e->shape != 0;
			if (e->eliminated)
				t->ends[e->end_reason]++;
		}
		k = 0;
		for (i = 0; i < n; i++)
			k += ev.players[i].eliminated && ev.neliminated > 1;
		t->shared += k > 0;
	}
	/* the seed and the moves give the match again, byte for byte */
	versus_init(&replay, seed, (unsigned)n);
	if (chance > 0)
		versus_set_items(&replay, (unsigned)chance, w8);
	for (i = 0; i < turn; i++)
		versus_resolve(&replay, history[i], NULL, NULL, NULL, 0);
	if (memcmp(&replay, &m, sizeof m) != 0) {
		snprintf(why, sizeof why, "the replay of %d turns differs", turn);
		return 0;
	}
	t->matches++;
	return 1;
}

int
main(int argc, char **argv)
{
	long matches = argc > 1 ? atol(argv[1]) : 1000, i, first = 0;
	uint64_t base = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
	struct tally t;
	int batch_ok = 1, n;
	uint64_t seed;

	read_diagrams();
	memset(&t, 0, sizeof t);
	rng_state = base * 2654435761u + 12345;
	for (i = 0; i < matches; i++) {
		seed = i % 4 == 0 ? (uint64_t)i : rng() % (VERSUS_SEED_MAX + 1);
		n = 2 + (int)(rng() % 7);
		if (!play(seed, n, &t)) {
			if (batch_ok)
				diag("match %ld (seed %llu, %d players): %s", i, (unsigned long long)seed,
				    n, why);
			batch_ok = 0;
		}
		if ((i + 1) % 250 == 0 || i + 1 == matches) {
			ok(batch_ok, "matches %ld-%ld: engine and naive model agree, replays match", first,
			    i);
			batch_ok = 1;
			first = i + 1;
		}
	}
	diag("%ld matches, %ld players, %ld turns, %ld placements (%ld missed-turn drops)",
	    t.matches, t.players, t.turns, t.placements, t.dropped);
	diag("clears 1-4: %ld %ld %ld %ld; back-to-back %ld, perfect %ld, combo >= 3: %ld",
	    t.clears[1], t.clears[2], t.clears[3], t.clears[4], t.b2b, t.perfect, t.combo3);
	diag("attacks sent %ld, with cancelling %ld (partly %ld), rises %ld (several blocks %ld), "
	    "lost %ld", t.sent, t.cancelled, t.partial_cancel, t.risen, t.multi_rise, t.lost);
	diag("illegal moves %ld in %ld refused turns; out: top_out %ld (no room for the drop %ld), "
	    "overflow %ld, missed %ld, resigned %ld; turns with a shared place %ld", t.illegal,
	    t.refused_turns, t.ends[VERSUS_END_TOP_OUT], t.no_room, t.ends[VERSUS_END_OVERFLOW],
	    t.ends[VERSUS_END_MISSED], t.ends[VERSUS_END_RESIGNED], t.shared);
	diag("items: %ld matches, %ld collected (%ld discarded), used add_line %ld clear_line %ld "
	    "nuke %ld swap %ld blind %ld transform %ld; odd shapes placed %ld", t.item_matches,
	    t.collected, t.discarded, t.used[1], t.used[2], t.used[3], t.used[4], t.used[5],
	    t.used[6], t.odd_placed);
	diag("item states encoded and decoded: %ld of them in version 3 (transform), longest %ld "
	    "bytes", t.serial_odd, t.serial_max);
	if (matches >= 500) {
		ok(t.item_matches > 0 && t.discarded > 0 && t.used[1] > 0 && t.used[2] > 0 &&
		    t.used[3] > 0 && t.used[4] > 0 && t.used[5] > 0 && t.used[6] > 0 &&
		    t.odd_placed > 0 && t.serial_odd > 0,
		    "items were collected, discarded and every one used, odd shapes placed");
		ok(t.clears[4] > 0 && t.b2b > 0 && t.combo3 > 0, "play reached Tetrises, "
		    "back-to-back and long combos");
		ok(t.sent > 0 && t.cancelled > 0 && t.partial_cancel > 0 && t.risen > 0 &&
		    t.multi_rise > 0, "garbage was sent, cancelled, partly cancelled and risen");
		ok(t.ends[VERSUS_END_TOP_OUT] > 0 && t.ends[VERSUS_END_OVERFLOW] > 0 &&
		    t.ends[VERSUS_END_MISSED] > 0 && t.ends[VERSUS_END_RESIGNED] > 0 && t.shared > 0,
		    "every way out happened, and shared places");
		ok(t.illegal > 0 && t.refused_turns > 0, "illegal moves were checked and refused");
	}
	return tap_done();
}
