/*
 * actionblocks_tick.c: the tick clock (real time, 60 ticks a second).
 *
 * A tick runs, in this order:
 *   1. At tick AB_COUNTDOWN_TICKS (the countdown's end) every seat's first
 *      piece spawns.
 *   2. Inputs, in arrival order. A target selection works from tick 0
 *      (unknown or out seats ignored); a disconnect takes the seat out;
 *      keys, soft drop and item uses are ignored during the countdown.
 *      A key is ab_key(), as on the turn clock; a lock it causes is made
 *      at once (below). Item uses act on the selected target at once; a
 *      piece the new board overlaps is pushed up, or the seat is out
 *      (no_room).
 *   3. Seats in match order: gravity (ab_gravity(level) a tick; while soft
 *      drop is held, 20 times that capped at one row a tick, or gravity
 *      when that is faster; +1 point a row fallen with soft drop held),
 *      then the lock delay: a grounded piece counts a tick, and locks at
 *      AB_LOCK_DELAY_TICKS; spent resets lock it as soon as it is grounded.
 *   4. Blackout and Transformation timers count down (one reaching 0
 *      turns preview and hold back).
 *   5. Everyone out in the tick shares place n + 1; targets on a seat out
 *      fall back to the selector itself.
 * A lock on this clock (lock()) is the turn's steps for one seat at once:
 * ab_lock, cancel, send (round-robin over the seats in when the tick
 * began), the whole queue rising when nothing cleared (blocks sent earlier
 * in the same tick included: there is no turn to wait for), then the next
 * spawn. Seats act in arrival order of their inputs, then in match order.
 *
 * Invariants: as actionblocks.c's, but a living seat has a piece only from
 * the countdown's end; lock_ticks < AB_LOCK_DELAY_TICKS between ticks;
 * gravity < AB_GRAVITY_ONE. Workload: one call a tick per match.
 */
#include "actionblocks_tick.h"

#include <string.h>

#include "actionblocks_gravity.h"
#include "actionblocks_rules.h"

struct tick_ctx {
	struct ab_match *m;
	struct ab_tick_events *ev;
	bool alive[AB_PLAYERS_MAX];
	uint8_t out_reason[AB_PLAYERS_MAX];
};

static void
lock(struct tick_ctx *c, unsigned seat)
{
	struct ab_match *m = c->m;
	struct ab_player *p = &m->players[seat];
	struct ab_lock_events e;
	uint16_t lines = 0;

	ab_lock(m, seat, &e);
	if (e.lock_out) {
		c->out_reason[seat] = AB_END_LOCK_OUT;
	} else {
		if (e.attack > 0)
			ab_cancel(p, &e);
		ab_send(m, seat, c->alive, &e);
		if (e.lines == 0 && p->nqueue > 0 && ab_rise(p, p->nqueue, &lines))
			c->out_reason[seat] = AB_END_OVERFLOW;
		if (c->out_reason[seat] == AB_END_NONE && !ab_spawn_next(m, seat))
			c->out_reason[seat] = AB_END_BLOCK_OUT;
	}
	c->ev->nlocks_all++;
	if (c->ev->nlocks < AB_TICK_LOCKS_MAX)
		c->ev->locks[c->ev->nlocks++] = e;
}

static bool
in(const struct tick_ctx *c, unsigned seat)
{
	return seat < c->m->nplayers && c->alive[seat] && c->out_reason[seat] == AB_END_NONE;
}

static void
input(struct tick_ctx *c, const struct ab_input *x, bool countdown)
{
	struct ab_match *m = c->m;
	struct ab_player *p;
	unsigned t;
	enum ab_key_result r;
	bool piece; /* inputs to the piece wait for the countdown's end */

	if (!in(c, x->seat))
		return;
	p = &m->players[x->seat];
	piece = !countdown && p->has_piece;
	switch (x->kind) {
	case AB_IN_TARGET:
		t = engine_use_seat(m->nplayers, x->seat, x->arg);
		if (t != AB_NOBODY && m->players[t].alive)
			p->target = (uint8_t)t;
		break;
	case AB_IN_DISCONNECT:
		c->out_reason[x->seat] = AB_END_DISCONNECTED;
		break;
	case AB_IN_KEY:
		if (!piece)
			break;
		r = ab_key(m, x->seat, (char)x->arg, &c->ev->drop_points[x->seat]);
		if (r == AB_KEY_LOCK)
			lock(c, x->seat);
		else if (r == AB_KEY_BLOCK_OUT)
			c->out_reason[x->seat] = AB_END_BLOCK_OUT;
		break;
	case AB_IN_SOFT_DOWN:
	case AB_IN_SOFT_UP:
		if (piece)
			p->act.soft = x->kind == AB_IN_SOFT_DOWN;
		break;
	case AB_IN_USE:
		if (piece)
			ab_use_item(m, x->seat, p->target, c->out_reason);
		break;
	default:
		break;
	}
}

/* Gravity, soft drop and the lock delay of one seat's piece. */
static void
fall(struct tick_ctx *c, unsigned seat)
{
	struct ab_player *p = &c->m->players[seat];
	uint32_t rate = ab_gravity(p->level), soft;

	if (p->act.soft) {
		soft = rate * AB_SOFT_FACTOR;
		if (soft > AB_GRAVITY_ONE)
			soft = AB_GRAVITY_ONE;
		if (soft > rate)
			rate = soft;
	}
	if (ab_grounded(p)) {
		p->act.gravity = 0;
	} else {
		p->act.gravity += rate;
		while (p->act.gravity >= AB_GRAVITY_ONE) {
			p->act.gravity -= AB_GRAVITY_ONE;
			if (!ab_step_down(p)) {
				p->act.gravity = 0;
				break;
			}
			if (p->act.soft) {
				p->score += 1;
				c->ev->drop_points[seat] += 1;
			}
		}
		if (ab_grounded(p))
			p->act.gravity = 0;
	}
	if (!ab_grounded(p))
		return;
	if (ab_reset_lock_due(p) || ++p->act.lock_ticks >= AB_LOCK_DELAY_TICKS)
		lock(c, seat);
}

enum ab_outcome
ab_tick(struct ab_match *m, const struct ab_input *inputs, size_t n, struct ab_tick_events *ev)
{
	struct ab_tick_events local;
	struct tick_ctx c;
	struct ab_player *p;
	unsigned i, nout;
	size_t k;
	bool countdown = m->tick < AB_COUNTDOWN_TICKS;

	if (m->clock != AB_CLOCK_TICKS)
		return AB_WRONG_CLOCK;
	if (m->over)
		return AB_MATCH_OVER;
	c.m = m;
	c.ev = ev != NULL ? ev : &local;
	memset(c.ev, 0, sizeof *c.ev);
	c.ev->tick = m->tick;
	for (i = 0; i < m->nplayers; i++) {
		c.alive[i] = m->players[i].alive;
		c.out_reason[i] = AB_END_NONE;
	}

	/* 1. The countdown's end: an empty board always has room. */
	if (m->tick == AB_COUNTDOWN_TICKS)
		for (i = 0; i < m->nplayers; i++)
			if (c.alive[i] && !m->players[i].has_piece && !ab_spawn_next(m, i))
				c.out_reason[i] = AB_END_BLOCK_OUT;

	/* 2. Inputs in arrival order. */
	for (k = 0; k < n; k++)
		input(&c, &inputs[k], countdown);

	/* 3. Gravity and the lock delay. */
	for (i = 0; i < m->nplayers && !countdown; i++)
		if (in(&c, i) && m->players[i].has_piece)
			fall(&c, i);

	/* 4. Timers. */
	for (i = 0; i < m->nplayers; i++) {
		p = &m->players[i];
		if (p->blind > 0)
			p->blind--;
		if (p->transform > 0 && --p->transform == 0)
			ab_transform_end(p);
	}

	/* 5. Eliminations. */
	nout = ab_eliminate(m, c.alive, c.out_reason, m->tick);
	for (i = 0; i < m->nplayers; i++)
		c.ev->eliminated[i] = c.alive[i] && !m->players[i].alive;
	for (i = 0; i < m->nplayers; i++)
		if (!m->players[m->players[i].target].alive)
			m->players[i].target = (uint8_t)i;
	c.ev->neliminated = (uint8_t)nout;
	c.ev->over = m->over;
	m->tick++;
	return AB_OK;
}

size_t
ab_replay_ticks(struct ab_match *m, const struct ab_input *inputs, size_t n, uint32_t end)
{
	size_t at = 0, first;

	while (at < n && inputs[at].tick < m->tick)
		at++;
	while (m->tick < end && !m->over) {
		first = at;
		while (at < n && inputs[at].tick == m->tick)
			at++;
		ab_tick(m, inputs + first, at - first, NULL);
	}
	return at;
}
