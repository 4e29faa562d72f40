/*
 * actionblocks.c: a match's start (ab_init), the turn clock (ab_resolve)
 * and the views; the rules they apply are actionblocks_rules.c's, which the
 * tick clock (actionblocks_tick.c) applies too.
 *
 * A turn (ab_resolve) runs, each step for every seat before the next:
 *   0. Blackouts count down (versus-v1 counts them at the start of a turn).
 *   1. Seats alive when the turn began, in match order: a resignation or a
 *      third missed turn takes the seat out; otherwise its keys (a missed
 *      turn's are none) are played on its piece up to the lock, keys that
 *      end without one being completed by a hard drop; then the lock:
 *      spin, lock out, clears (items to the inventory), combo,
 *      back-to-back, perfect clear, points. No spawn yet.
 *   1a. Transformations count down; one reaching 0 turns preview and hold
 *       back. 1b. Item uses, users in match order.
 *   2. Attacks cancel the sender's own queue. 3. What is left is sent,
 *      senders in match order, round-robin over the seats alive when the
 *      turn began; holes drawn as sent.
 *   4. Seats whose lock cleared nothing take the blocks queued before step
 *      3, oldest first (overflow above row 39 takes them out).
 *   5. Every seat still in spawns its next piece (block out takes it out).
 *   6. Everyone out in the turn shares place n + 1 (n still alive after
 *      it); at most one left ends the match, a survivor taking place 1.
 *
 * Invariants between calls, for every seat p: no full row on p's board;
 * an item only on a filled cell; next[k] is stream piece drawn + k (shape
 * odd only while a Transformation runs or as it left it); level =
 * min(15, 1 + lines / 10); pending = the queue's lines; a living seat on
 * the turn clock has an active piece that fits; a seat out has no piece,
 * an empty queue and a place; nalive counts the living and over is
 * nalive <= 1. ab_resolve() checks every move before it writes anything.
 *
 * Workload: a turn is at most 8 x 256 keys, each a few fits of 4-5 cells,
 * checked once on a copy (ab_check_move) and played once, plus a bag
 * shuffle and an item roll (one SHA-512 each) per piece drawn and one per
 * block sent: tens of microseconds.
 */
#include "actionblocks.h"

#include <string.h>

bool
ab_init(struct ab_match *m, uint64_t seed, unsigned nplayers, unsigned clock,
    unsigned item_chance, const uint8_t *weights)
{
	struct ab_player *p;
	unsigned i, k, total = 0;

	if (seed > AB_SEED_MAX || nplayers < AB_PLAYERS_MIN || nplayers > AB_PLAYERS_MAX ||
	    clock > AB_CLOCK_TICKS || item_chance > 100)
		return false;
	if (item_chance > 0) {
		if (weights == NULL)
			return false;
		for (i = 0; i < AB_ITEM_KINDS; i++) {
			if (weights[i] > AB_ITEM_WEIGHT_MAX)
				return false;
			total += weights[i];
		}
		if (total == 0)
			return false;
	}
	memset(m, 0, sizeof *m);
	m->seed = seed;
	m->clock = (uint8_t)clock;
	m->nplayers = (uint8_t)nplayers;
	m->nalive = (uint8_t)nplayers;
	m->item_chance = (uint8_t)item_chance;
	if (item_chance > 0)
		memcpy(m->item_weights, weights, AB_ITEM_KINDS);
	for (i = 0; i < nplayers; i++) {
		p = &m->players[i];
		p->level = 1;
		p->combo = -1;
		p->hold.piece = AB_NO_PIECE;
		p->alive = true;
		p->cursor = (uint8_t)i;
		p->target = (uint8_t)i;
		for (k = 0; k < AB_NEXT; k++)
			p->next[k] = ab_entering(m, i, k);
		/* An empty board: the first spawn always fits. */
		if (clock == AB_CLOCK_TURNS)
			ab_spawn_next(m, i);
	}
	return true;
}

enum ab_outcome
ab_resolve(struct ab_match *m, const struct ab_move *moves, struct ab_events *ev,
    unsigned *bad_seat, char *reason, size_t cap)
{
	struct ab_events local;
	struct ab_events *out = ev != NULL ? ev : &local;
	struct ab_seat_events *e;
	struct ab_player *p;
	bool alive[AB_PLAYERS_MAX];
	uint8_t out_reason[AB_PLAYERS_MAX];
	uint16_t nold[AB_PLAYERS_MAX];
	unsigned i, to, nout;
	bool block_out;

	if (m->clock != AB_CLOCK_TURNS) {
		engine_refuse(reason, cap, "this match runs in real time, not in turns");
		return AB_WRONG_CLOCK;
	}
	if (m->over) {
		engine_refuse(reason, cap, "the match is over");
		return AB_MATCH_OVER;
	}
	for (i = 0; i < m->nplayers; i++) {
		if (!m->players[i].alive || moves[i].kind == AB_MOVE_MISSED)
			continue;
		if (!ab_check_move(m, i, &moves[i], reason, cap)) {
			if (bad_seat != NULL)
				*bad_seat = i;
			return AB_REFUSED;
		}
	}

	memset(out, 0, sizeof *out);
	out->turn = m->turn + 1;
	out->nplayers = m->nplayers;
	for (i = 0; i < m->nplayers; i++) {
		p = &m->players[i];
		if (p->blind > 0)
			p->blind--;
		alive[i] = p->alive;
		out_reason[i] = AB_END_NONE;
		out->seats[i].lock.target = AB_NOBODY;
		out->seats[i].lock.seat = (uint8_t)i;
		out->seats[i].used_on = AB_NOBODY;
	}

	/* 1. Keys, locks, clears and points, in match order. */
	for (i = 0; i < m->nplayers; i++) {
		if (!alive[i])
			continue;
		p = &m->players[i];
		e = &out->seats[i];
		if (moves[i].kind == AB_MOVE_RESIGN) {
			e->action = AB_ACT_RESIGNED;
			out_reason[i] = AB_END_RESIGNED;
			continue;
		}
		if (moves[i].kind == AB_MOVE_KEYS) {
			p->missed = 0;
			e->action = AB_ACT_KEYS;
			ab_play_keys(m, i, moves[i].keys, moves[i].nkeys, &e->drop_points, &block_out);
		} else {
			if (++p->missed >= AB_MISSED_MAX) {
				e->action = AB_ACT_TIMED_OUT;
				out_reason[i] = AB_END_MISSED;
				continue;
			}
			e->action = AB_ACT_DROPPED;
			ab_play_keys(m, i, NULL, 0, &e->drop_points, &block_out);
		}
		if (block_out) {
			out_reason[i] = AB_END_BLOCK_OUT;
			continue;
		}
		ab_lock(m, i, &e->lock);
		e->locked = true;
		if (e->lock.lock_out)
			out_reason[i] = AB_END_LOCK_OUT;
	}

	/* 1a. Transformations count down after the pieces they shaped. */
	for (i = 0; i < m->nplayers; i++) {
		p = &m->players[i];
		if (p->transform > 0 && --p->transform == 0)
			ab_transform_end(p);
	}

	/* 1b. Item uses, users in match order, by seats still in after step 1. */
	for (i = 0; i < m->nplayers; i++) {
		if (!alive[i] || out_reason[i] != AB_END_NONE || moves[i].kind != AB_MOVE_KEYS ||
		    moves[i].use == 0)
			continue;
		to = engine_use_seat(m->nplayers, i, moves[i].use);
		out->seats[i].used = (uint8_t)ab_use_item(m, i, to, out_reason);
		if (out->seats[i].used != AB_ITEM_NONE)
			out->seats[i].used_on = (uint8_t)to;
	}

	/* 2. Attacks cancel the sender's own queue; what is queued now may
	 * rise in step 4. */
	for (i = 0; i < m->nplayers; i++) {
		if (!alive[i])
			continue;
		e = &out->seats[i];
		if (e->locked && e->lock.attack > 0)
			ab_cancel(&m->players[i], &e->lock);
		nold[i] = m->players[i].nqueue;
	}

	/* 3. Sending, in match order. */
	for (i = 0; i < m->nplayers; i++) {
		e = &out->seats[i];
		if (!alive[i] || !e->locked)
			continue;
		to = ab_send(m, i, alive, &e->lock);
		if (to != AB_NOBODY && !e->lock.sent_lost)
			out->seats[to].received++;
	}

	/* 4. Rising, for locks that cleared nothing. */
	for (i = 0; i < m->nplayers; i++) {
		e = &out->seats[i];
		if (!alive[i] || !e->locked || e->lock.lock_out || e->lock.lines > 0 || nold[i] == 0)
			continue;
		e->nrisen = (uint8_t)(nold[i] > UINT8_MAX ? UINT8_MAX : nold[i]);
		if (ab_rise(&m->players[i], nold[i], &e->risen_lines) &&
		    out_reason[i] == AB_END_NONE)
			out_reason[i] = AB_END_OVERFLOW;
	}

	/* 5. Spawns. */
	for (i = 0; i < m->nplayers; i++)
		if (alive[i] && out_reason[i] == AB_END_NONE && !ab_spawn_next(m, i))
			out_reason[i] = AB_END_BLOCK_OUT;

	/* 6. Eliminations and places. */
	m->turn++;
	nout = ab_eliminate(m, alive, out_reason, m->turn);
	for (i = 0; i < m->nplayers; i++) {
		e = &out->seats[i];
		e->eliminated = alive[i] && !m->players[i].alive;
		if (e->eliminated)
			e->end = out_reason[i];
		/* A seat still in holds a place only as the last one left. */
		if (alive[i])
			e->place = m->players[i].place;
	}
	out->neliminated = (uint8_t)nout;
	out->over = m->over;
	return AB_OK;
}

/* ---- views ---- */

void
ab_view(const struct ab_match *m, unsigned seat, struct ab_view *out)
{
	const struct ab_player *p = &m->players[seat];
	unsigned x, y, k, c;

	memset(out, 0, sizeof *out);
	for (y = 0; y < AB_ROWS; y++) {
		for (x = 0; x < AB_COLS; x++) {
			c = p->cells[y][x];
			out->board[y][x] = c == AB_CELL_EMPTY ? '.' : c == AB_CELL_GREY ? AB_GREY_LETTER
			    : tetromino_letter(c - 1);
			c = p->items[y][x];
			out->items[y][x] = c == AB_ITEM_NONE || c > AB_ITEM_KINDS ? '.'
			    : AB_ITEM_CHARS[c - 1];
		}
	}
	if (p->has_piece) {
		out->piece = ab_slot_letter(&p->cur);
		out->x = p->act.x;
		out->y = p->act.y;
		out->r = p->act.rot;
	}
	out->hold = p->hold.piece == AB_NO_PIECE ? 0 : ab_slot_letter(&p->hold);
	for (k = 0; k < AB_NEXT; k++)
		out->next[k] = ab_slot_letter(&p->next[k]);
	out->score = p->score;
	out->lines = p->lines;
	out->level = p->level;
	out->combo = p->combo;
	out->b2b = p->b2b;
	out->nqueue = p->nqueue;
	out->queue = p->queue;
	for (k = 0; k < p->ninventory && k < AB_INVENTORY_MAX; k++)
		out->inventory[k] = p->inventory[k] >= 1 && p->inventory[k] <= AB_ITEM_KINDS ?
		    AB_ITEM_CHARS[p->inventory[k] - 1] : '?';
	out->alive = p->alive;
	out->place = p->place;
	out->end = ab_end_name(p->end);
	out->blind = p->blind;
	out->transform = p->transform;
	out->missed = p->missed;
}
