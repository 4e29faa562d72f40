/*
 * actionblocks.c: the rules of an actionblocks-v1 match that both clocks
 * share (keys, locks, points, garbage, items, spawns), the turn clock's
 * ab_resolve(), the views and the seeded streams.
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
 * plus a bag shuffle and an item roll (one SHA-512 each) per piece drawn
 * and one per block sent: tens of microseconds.
 */
#include "actionblocks.h"

#include <string.h>

#include "actionblocks_rules.h"
#include "bag.h"
#include "versus_stream.h"

static const char *const end_names[] = {
	"none", "lock_out", "block_out", "overflow", "missed", "resigned", "no_room",
	"disconnected",
};

static const char *const spin_names[] = { "none", "mini", "full" };

const char *
ab_end_name(unsigned end)
{
	return end < sizeof end_names / sizeof end_names[0] ? end_names[end] : "none";
}

const char *
ab_spin_name(unsigned spin)
{
	return spin < 3 ? spin_names[spin] : "none";
}

char
ab_slot_letter(const struct ab_slot *s)
{
	if (s->piece >= TETROMINO_NPIECES)
		return '?';
	return s->shape == AB_SHAPE_PIECE ? tetromino_letter(s->piece)
	    : versus_odd_letter(s->shape - 1u);
}

/* ---- the seeded streams ---- */

unsigned
ab_stream_piece(uint64_t seed, uint32_t i)
{
	uint8_t bag[BAG_SIZE];

	bag_shuffle_named(AB_RULES, seed, i / BAG_SIZE, bag);
	return bag[i % BAG_SIZE];
}

/* The holes, odd shapes and item rolls are versus-v1's draws on streams
 * named "actionblocks-v1" (versus_stream.h). */
unsigned
ab_garbage_hole(uint64_t seed, uint32_t k)
{
	return versus_stream_below(AB_RULES, seed, "garbage", k, false, 0, AB_COLS);
}

unsigned
ab_odd_roll(uint64_t seed, unsigned seat, uint32_t index)
{
	return versus_stream_below(AB_RULES, seed, "odd", seat, true, index, AB_ODD_KINDS);
}

uint16_t
ab_item_roll(const struct ab_match *m, unsigned seat, uint32_t index)
{
	return versus_stream_items(AB_RULES, m->seed, m->item_chance, m->item_weights, seat, index);
}

/* The slot of stream piece index entering seat's preview now: odd while a
 * Transformation runs. */
static struct ab_slot
entering(const struct ab_match *m, unsigned seat, uint32_t index)
{
	struct ab_slot s;

	s.piece = (uint8_t)ab_stream_piece(m->seed, index);
	s.items = ab_item_roll(m, seat, index);
	s.shape = m->players[seat].transform > 0 ?
	    (uint8_t)(ab_odd_roll(m->seed, seat, index) + 1) : AB_SHAPE_PIECE;
	return s;
}

/* Takes the preview's first slot; a new one enters at its end. */
static struct ab_slot
draw(struct ab_match *m, unsigned seat)
{
	struct ab_player *p = &m->players[seat];
	struct ab_slot s = p->next[0];

	memmove(&p->next[0], &p->next[1], (AB_NEXT - 1) * sizeof p->next[0]);
	p->drawn++;
	p->next[AB_NEXT - 1] = entering(m, seat, p->drawn + AB_NEXT - 1);
	return s;
}

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
			p->next[k] = entering(m, i, k);
		/* An empty board: the first spawn always fits. */
		if (clock == AB_CLOCK_TURNS)
			ab_spawn_next(m, i);
	}
	return true;
}

/* ---- pieces on the board ---- */

static bool
blocked(const struct ab_player *p, int x, int y)
{
	return x < 0 || x >= AB_COLS || y < 0 || y >= AB_ROWS || p->cells[y][x] != AB_CELL_EMPTY;
}

bool
ab_fits(const struct ab_player *p, const struct ab_slot *s, int x, int y, unsigned rot)
{
	int8_t dx[AB_CELLS_MAX], dy[AB_CELLS_MAX];
	unsigned n = ab_shape_cells(s->piece, s->shape, rot, dx, dy), k;

	for (k = 0; k < n; k++)
		if (blocked(p, x + dx[k], y - dy[k]))
			return false;
	return n > 0;
}

bool
ab_grounded(const struct ab_player *p)
{
	return !ab_fits(p, &p->cur, p->act.x, p->act.y - 1, p->act.rot);
}

bool
ab_reset_lock_due(const struct ab_player *p)
{
	return p->act.resets >= AB_LOCK_RESETS && ab_grounded(p);
}

/* Bookkeeping after a successful move or rotation: a reset when the piece
 * rested before it, then a new lowest row starts the count (and the lock
 * timer) over. */
static void
moved(struct ab_player *p, bool grounded_before)
{
	if (grounded_before) {
		if (p->act.resets < UINT8_MAX)
			p->act.resets++;
		p->act.lock_ticks = 0;
	}
	if (p->act.y < p->act.lowest) {
		p->act.lowest = p->act.y;
		p->act.resets = 0;
		p->act.lock_ticks = 0;
	}
}

bool
ab_step_down(struct ab_player *p)
{
	if (!ab_fits(p, &p->cur, p->act.x, p->act.y - 1, p->act.rot))
		return false;
	p->act.y--;
	p->act.last_rot = false;
	p->act.last_kick5 = false;
	moved(p, false);
	return true;
}

/* No piece falls: the active state goes too (a held soft drop stays). */
static void
clear_active(struct ab_player *p)
{
	bool soft = p->act.soft;

	p->has_piece = false;
	memset(&p->act, 0, sizeof p->act);
	p->act.soft = soft;
}

bool
ab_spawn_slot(struct ab_match *m, unsigned seat, struct ab_slot slot)
{
	struct ab_player *p = &m->players[seat];
	bool soft = p->act.soft; /* a held key stays held across pieces */

	p->cur = slot;
	memset(&p->act, 0, sizeof p->act);
	p->act.soft = soft;
	p->act.x = (int8_t)ab_spawn_x(slot.piece, slot.shape);
	p->act.y = AB_SPAWN_TOP;
	if (!ab_fits(p, &slot, p->act.x, p->act.y, 0)) {
		clear_active(p);
		return false;
	}
	if (ab_fits(p, &slot, p->act.x, p->act.y - 1, 0))
		p->act.y--;
	p->act.lowest = p->act.y;
	p->has_piece = true;
	return true;
}

bool
ab_spawn_next(struct ab_match *m, unsigned seat)
{
	return ab_spawn_slot(m, seat, draw(m, seat));
}

enum ab_key_result
ab_key(struct ab_match *m, unsigned seat, char key, uint32_t *drop_points)
{
	struct ab_player *p = &m->players[seat];
	const int8_t (*tests)[2];
	unsigned ntests, k, to;
	bool grounded;
	int n;

	if (!p->has_piece)
		return AB_KEY_NOTHING;
	switch (key) {
	case 'L':
	case 'R':
		n = key == 'L' ? -1 : 1;
		if (!ab_fits(p, &p->cur, p->act.x + n, p->act.y, p->act.rot))
			return AB_KEY_NOTHING;
		grounded = ab_grounded(p);
		p->act.x = (int8_t)(p->act.x + n);
		p->act.last_rot = false;
		p->act.last_kick5 = false;
		moved(p, grounded);
		break;
	case 'X':
	case 'Z':
		to = (p->act.rot + (key == 'X' ? 1u : 3u)) & 3u;
		ntests = ab_kicks(p->cur.piece, p->cur.shape, p->act.rot, to, &tests);
		for (k = 0; k < ntests; k++)
			if (ab_fits(p, &p->cur, p->act.x + tests[k][0], p->act.y + tests[k][1], to))
				break;
		if (k == ntests)
			return AB_KEY_NOTHING;
		grounded = ab_grounded(p);
		p->act.x = (int8_t)(p->act.x + tests[k][0]);
		p->act.y = (int8_t)(p->act.y + tests[k][1]);
		p->act.rot = (uint8_t)to;
		p->act.last_rot = true;
		p->act.last_kick5 = k == AB_KICK_TESTS - 1;
		moved(p, grounded);
		break;
	case 'S':
		if (!ab_step_down(p))
			return AB_KEY_NOTHING;
		p->score += 1;
		*drop_points += 1;
		break;
	case 'D':
		for (n = 0; ab_fits(p, &p->cur, p->act.x, p->act.y - 1, p->act.rot); n++)
			p->act.y--;
		if (n > 0) {
			p->act.last_rot = false;
			p->act.last_kick5 = false;
		}
		p->score += 2u * (unsigned)n;
		*drop_points += 2u * (unsigned)n;
		return AB_KEY_LOCK;
	case 'C': {
		struct ab_slot out = p->cur, in = p->hold;

		if (p->hold_used)
			return AB_KEY_NOTHING;
		/* Held while no Transformation runs, an odd piece is its
		 * tetromino again, as the held ones became when it ended. */
		if (p->transform == 0)
			out.shape = AB_SHAPE_PIECE;
		p->hold = out;
		if (!(in.piece == AB_NO_PIECE ? ab_spawn_next(m, seat) : ab_spawn_slot(m, seat, in)))
			return AB_KEY_BLOCK_OUT;
		p->hold_used = true;
		return AB_KEY_DONE;
	}
	default:
		return AB_KEY_NOTHING;
	}
	return ab_reset_lock_due(p) ? AB_KEY_LOCK : AB_KEY_DONE;
}

/* ---- the lock ---- */

static const uint16_t clear_points[5] = { 0, 100, 300, 500, 800 };
static const uint16_t full_points[5] = { 400, 800, 1200, 1600, 1600 };
static const uint16_t mini_points[3] = { 100, 200, 400 };
static const uint8_t clear_attack[5] = { 0, 0, 1, 2, 4 };
static const uint8_t full_attack[5] = { 0, 2, 4, 6, 6 };
static const uint8_t mini_attack[3] = { 0, 0, 1 };
static const uint8_t combo_attack[13] = { 0, 0, 1, 1, 1, 2, 2, 3, 3, 4, 4, 4, 5 };

/* A mini spin clearing 3 rows (no row in the seed's tables) counts as a
 * full one (spec). */
static unsigned
effective_spin(unsigned lines, unsigned spin)
{
	return spin == AB_SPIN_MINI && lines >= 3 ? AB_SPIN_FULL : spin;
}

uint64_t
ab_points(unsigned lines, unsigned spin, bool b2b, int combo, unsigned level)
{
	uint64_t base;

	if (lines > 4)
		lines = 4;
	spin = effective_spin(lines, spin);
	base = spin == AB_SPIN_FULL ? full_points[lines]
	    : spin == AB_SPIN_MINI ? mini_points[lines] : clear_points[lines];
	if (b2b)
		base = base * 3 / 2; /* every base is a multiple of 100: exact */
	if (combo > 0)
		base += 50u * (uint64_t)combo;
	return base * level;
}

unsigned
ab_attack(unsigned lines, unsigned spin, bool b2b, int combo, bool perfect)
{
	unsigned a;

	if (lines == 0)
		return 0;
	if (lines > 4)
		lines = 4;
	spin = effective_spin(lines, spin);
	a = spin == AB_SPIN_FULL ? full_attack[lines]
	    : spin == AB_SPIN_MINI ? mini_attack[lines] : clear_attack[lines];
	if (b2b)
		a += 1;
	if (combo > 12)
		a += combo_attack[12];
	else if (combo >= 0)
		a += combo_attack[combo];
	if (perfect)
		a += 10;
	return a;
}

/* The T's spin, with the board as it is before the lock. */
static unsigned
spin_of(const struct ab_player *p)
{
	/* Corners of the 3 x 3 box: top-left, top-right, bottom-right,
	 * bottom-left; the pointing side of state r is corners r and r + 1. */
	static const int8_t corner[4][2] = { { 0, 0 }, { 2, 0 }, { 2, -2 }, { 0, -2 } };
	bool b[4];
	unsigned k, nb = 0, r = p->act.rot;

	if (p->cur.shape != AB_SHAPE_PIECE || p->cur.piece != AB_PIECE_T || !p->act.last_rot)
		return AB_SPIN_NONE;
	for (k = 0; k < 4; k++) {
		b[k] = blocked(p, p->act.x + corner[k][0], p->act.y + corner[k][1]);
		nb += b[k];
	}
	if (nb < 3)
		return AB_SPIN_NONE;
	if ((b[r] && b[(r + 1) & 3]) || p->act.last_kick5)
		return AB_SPIN_FULL;
	return AB_SPIN_MINI;
}

void
ab_lock(struct ab_match *m, unsigned seat, struct ab_lock_events *e)
{
	struct ab_player *p = &m->players[seat];
	int8_t dx[AB_CELLS_MAX], dy[AB_CELLS_MAX];
	unsigned n, k, x, y, w, spin, level = p->level;
	uint16_t items = p->cur.items;
	bool lock_out = true, full, b2b, difficult, perfect;

	memset(e, 0, sizeof *e);
	e->seat = (uint8_t)seat;
	e->piece = p->cur.piece;
	e->shape = p->cur.shape;
	e->target = AB_NOBODY;
	e->combo = p->combo;
	spin = spin_of(p);
	if (p->cur.shape != AB_SHAPE_PIECE)
		items = versus_odd_items(items, p->cur.shape - 1u);
	n = ab_shape_cells(p->cur.piece, p->cur.shape, p->act.rot, dx, dy);
	for (k = 0; k < n; k++) {
		x = (unsigned)(p->act.x + dx[k]);
		y = (unsigned)(p->act.y - dy[k]);
		p->cells[y][x] = (uint8_t)(p->cur.piece + 1);
		p->items[y][x] = (uint8_t)AB_MINO_ITEM(items, k);
		if (y < AB_VISIBLE_ROWS)
			lock_out = false;
	}
	clear_active(p);
	p->hold_used = false;
	if (lock_out) {
		/* The seat is out: nothing clears, nothing scores. */
		e->lock_out = true;
		return;
	}

	/* Clears, bottom to top, items to the inventory as they come. */
	n = 0;
	for (y = 0, w = 0; y < AB_ROWS; y++) {
		full = true;
		for (x = 0; x < AB_COLS; x++)
			full = full && p->cells[y][x] != AB_CELL_EMPTY;
		if (!full) {
			if (w != y) {
				memcpy(p->cells[w], p->cells[y], AB_COLS);
				memcpy(p->items[w], p->items[y], AB_COLS);
			}
			w++;
			continue;
		}
		n++;
		for (x = 0; x < AB_COLS; x++) {
			if (p->items[y][x] == AB_ITEM_NONE)
				continue;
			e->collected++;
			if (p->ninventory < AB_INVENTORY_MAX)
				p->inventory[p->ninventory++] = p->items[y][x];
			else
				e->discarded++;
		}
	}
	for (; w < AB_ROWS; w++) {
		memset(p->cells[w], AB_CELL_EMPTY, AB_COLS);
		memset(p->items[w], AB_ITEM_NONE, AB_COLS);
	}

	spin = effective_spin(n, spin);
	if (n == 0) {
		p->combo = -1;
		b2b = false;
		perfect = false;
	} else {
		p->combo++;
		difficult = n == 4 || spin != AB_SPIN_NONE;
		b2b = difficult && p->b2b;
		p->b2b = difficult;
		perfect = true;
		for (y = 0; y < AB_ROWS && perfect; y++)
			for (x = 0; x < AB_COLS && perfect; x++)
				perfect = p->cells[y][x] == AB_CELL_EMPTY;
	}
	e->lines = (uint8_t)n;
	e->spin = (uint8_t)spin;
	e->b2b = b2b;
	e->perfect = perfect;
	e->combo = p->combo;
	e->points = ab_points(n, spin, b2b, p->combo, level);
	e->attack = (uint8_t)ab_attack(n, spin, b2b, p->combo, perfect);
	p->score += e->points;
	p->lines += n;
	k = 1 + p->lines / AB_LINES_PER_LEVEL;
	p->level = (uint8_t)(k > AB_LEVEL_MAX ? AB_LEVEL_MAX : k);
}

/* ---- garbage ---- */

void
ab_cancel(struct ab_player *p, struct ab_lock_events *e)
{
	unsigned done = 0, take, want = e->attack;

	while (done < want && p->nqueue > 0) {
		take = want - done < p->queue[0].lines ? want - done : p->queue[0].lines;
		p->queue[0].lines = (uint8_t)(p->queue[0].lines - take);
		done += take;
		if (p->queue[0].lines == 0) {
			memmove(&p->queue[0], &p->queue[1], (p->nqueue - 1u) * sizeof p->queue[0]);
			p->nqueue--;
			p->queue[p->nqueue].hole = 0; /* so decoded bytes give the same struct */
		}
	}
	p->pending = (uint16_t)(p->pending - done);
	e->cancelled = (uint8_t)done;
	e->sent = (uint8_t)(want - done);
}

unsigned
ab_send(struct ab_match *m, unsigned sender, const bool *alive, struct ab_lock_events *e)
{
	struct ab_player *t;
	unsigned to = m->players[sender].cursor, step;

	if (e->sent == 0)
		return AB_NOBODY;
	for (step = 0; step < m->nplayers; step++) {
		to = (to + 1) % m->nplayers;
		if (to != sender && alive[to])
			break;
	}
	if (step == m->nplayers)
		return AB_NOBODY; /* nobody left to send to (the tick clock's last seat) */
	m->players[sender].cursor = (uint8_t)to;
	e->target = (uint8_t)to;
	e->hole = (uint8_t)ab_garbage_hole(m->seed, m->nblocks++);
	t = &m->players[to];
	if (t->nqueue == AB_QUEUE_MAX) {
		e->sent_lost = true;
		return to;
	}
	t->queue[t->nqueue].lines = e->sent;
	t->queue[t->nqueue].hole = e->hole;
	t->nqueue++;
	t->pending = (uint16_t)(t->pending + e->sent);
	return to;
}

/* Pushes the board up by block's lines, items with their cells, grey rows
 * open at the hole entering from the bottom. True when a filled cell went
 * above row 39 (those cells are gone). */
static bool
rise_block(struct ab_player *p, const struct ab_block *block)
{
	unsigned k = block->lines, y, x;
	bool overflow = false;

	if (k > AB_ROWS)
		k = AB_ROWS;
	for (y = AB_ROWS - k; y < AB_ROWS; y++)
		for (x = 0; x < AB_COLS; x++)
			overflow = overflow || p->cells[y][x] != AB_CELL_EMPTY;
	memmove(p->cells[k], p->cells[0], (AB_ROWS - k) * AB_COLS);
	memmove(p->items[k], p->items[0], (AB_ROWS - k) * AB_COLS);
	for (y = 0; y < k; y++) {
		memset(p->cells[y], AB_CELL_GREY, AB_COLS);
		p->cells[y][block->hole] = AB_CELL_EMPTY;
		memset(p->items[y], AB_ITEM_NONE, AB_COLS);
	}
	return overflow;
}

bool
ab_rise(struct ab_player *p, unsigned n, uint16_t *lines)
{
	unsigned k;
	bool overflow = false;

	if (n > p->nqueue)
		n = p->nqueue;
	for (k = 0; k < n; k++) {
		overflow = rise_block(p, &p->queue[k]) || overflow;
		*lines = (uint16_t)(*lines + p->queue[k].lines);
		p->pending = (uint16_t)(p->pending - p->queue[k].lines);
	}
	memmove(&p->queue[0], &p->queue[n], (p->nqueue - n) * sizeof p->queue[0]);
	p->nqueue = (uint16_t)(p->nqueue - n);
	memset(&p->queue[p->nqueue], 0, n * sizeof p->queue[0]);
	return overflow;
}

/* ---- items ---- */

unsigned
ab_use_target(const struct ab_match *m, unsigned user, unsigned t)
{
	unsigned i, n = 1;

	if (t == 1)
		return user;
	for (i = 0; i < m->nplayers; i++) {
		if (i == user)
			continue;
		if (++n == t)
			return i;
	}
	return AB_NOBODY;
}

void
ab_transform_end(struct ab_player *p)
{
	unsigned k;

	for (k = 0; k < AB_NEXT; k++)
		p->next[k].shape = AB_SHAPE_PIECE;
	p->hold.shape = AB_SHAPE_PIECE;
}

/* On the tick clock an item may move the board under a falling piece: it
 * is pushed up to the first row where it fits, or the seat is out. */
static void
push_up(struct ab_player *p, uint8_t *reason)
{
	int up;

	if (!p->has_piece || ab_fits(p, &p->cur, p->act.x, p->act.y, p->act.rot))
		return;
	for (up = 1; p->act.y + up < AB_ROWS + AB_CELLS_MAX; up++) {
		if (ab_fits(p, &p->cur, p->act.x, p->act.y + up, p->act.rot)) {
			p->act.y = (int8_t)(p->act.y + up);
			return;
		}
	}
	if (*reason == AB_END_NONE)
		*reason = AB_END_NO_ROOM;
}

static uint32_t
add_sat(uint32_t a, uint32_t b)
{
	return a > UINT32_MAX - b ? UINT32_MAX : a + b;
}

unsigned
ab_use_item(struct ab_match *m, unsigned user, unsigned target, uint8_t *out_reason)
{
	struct ab_player *u = &m->players[user], *t = &m->players[target];
	uint8_t tmp[AB_ROWS][AB_COLS];
	struct ab_block line;
	bool ticks = m->clock == AB_CLOCK_TICKS;
	unsigned item, k, y;

	if (u->ninventory == 0)
		return AB_ITEM_NONE;
	item = u->inventory[0];
	memmove(&u->inventory[0], &u->inventory[1], u->ninventory - 1u);
	u->inventory[--u->ninventory] = AB_ITEM_NONE;
	switch (item) {
	case AB_ITEM_ADD_LINE:
		line.lines = 1;
		line.hole = (uint8_t)ab_garbage_hole(m->seed, m->nblocks++);
		if (rise_block(t, &line) && out_reason[target] == AB_END_NONE)
			out_reason[target] = AB_END_OVERFLOW;
		break;
	case AB_ITEM_CLEAR_LINE:
		for (y = 0; y + 1 < AB_ROWS; y++) {
			memcpy(t->cells[y], t->cells[y + 1], AB_COLS);
			memcpy(t->items[y], t->items[y + 1], AB_COLS);
		}
		memset(t->cells[AB_ROWS - 1], AB_CELL_EMPTY, AB_COLS);
		memset(t->items[AB_ROWS - 1], AB_ITEM_NONE, AB_COLS);
		break;
	case AB_ITEM_NUKE:
		memset(t->cells, AB_CELL_EMPTY, sizeof t->cells);
		memset(t->items, AB_ITEM_NONE, sizeof t->items);
		break;
	case AB_ITEM_SWAP:
		if (t == u)
			break;
		memcpy(tmp, u->cells, sizeof tmp);
		memcpy(u->cells, t->cells, sizeof tmp);
		memcpy(t->cells, tmp, sizeof tmp);
		memcpy(tmp, u->items, sizeof tmp);
		memcpy(u->items, t->items, sizeof tmp);
		memcpy(t->items, tmp, sizeof tmp);
		push_up(u, &out_reason[user]);
		break;
	case AB_ITEM_BLIND:
		t->blind = add_sat(t->blind, ticks ? AB_BLIND_TICKS : AB_BLIND_TURNS);
		break;
	case AB_ITEM_TRANSFORM:
		/* The preview turns odd at once (the falling piece and the hold
		 * stay); an odd slot keeps its shape. */
		t->transform = add_sat(t->transform, ticks ? AB_TRANSFORM_TICKS : AB_TRANSFORM_TURNS);
		for (k = 0; k < AB_NEXT; k++)
			if (t->next[k].shape == AB_SHAPE_PIECE)
				t->next[k].shape = (uint8_t)(ab_odd_roll(m->seed, target, t->drawn + k) + 1);
		break;
	default:
		break;
	}
	push_up(t, &out_reason[target]);
	return item;
}

/* ---- the turn clock ---- */

/* Plays keys[0..n) on seat's piece as a turn does: up to the lock, a hard
 * drop completing keys that end without one. Returns the index of the key
 * that ended the piece (a lock or a block out), n when the completing hard
 * drop locked it. *end is AB_KEY_LOCK or AB_KEY_BLOCK_OUT. */
static unsigned
play_keys(struct ab_match *m, unsigned seat, const char *keys, unsigned n, uint32_t *drop,
    enum ab_key_result *end)
{
	enum ab_key_result r;
	unsigned k;

	for (k = 0; k < n; k++) {
		r = ab_key(m, seat, keys[k], drop);
		if (r == AB_KEY_LOCK || r == AB_KEY_BLOCK_OUT) {
			*end = r;
			return k;
		}
	}
	*end = ab_key(m, seat, 'D', drop);
	return n;
}

unsigned
ab_play_keys(struct ab_match *m, unsigned seat, const char *keys, unsigned n, bool *block_out)
{
	enum ab_key_result end;
	uint32_t drop = 0;
	unsigned k = play_keys(m, seat, keys, n, &drop, &end);

	*block_out = end == AB_KEY_BLOCK_OUT;
	return k;
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
	enum ab_key_result end;
	unsigned i, to, nout;

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
			play_keys(m, i, moves[i].keys, moves[i].nkeys, &e->drop_points, &end);
		} else {
			if (++p->missed >= AB_MISSED_MAX) {
				e->action = AB_ACT_TIMED_OUT;
				out_reason[i] = AB_END_MISSED;
				continue;
			}
			e->action = AB_ACT_DROPPED;
			play_keys(m, i, NULL, 0, &e->drop_points, &end);
		}
		if (end == AB_KEY_BLOCK_OUT) {
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
		to = ab_use_target(m, i, moves[i].use);
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
	nout = 0;
	for (i = 0; i < m->nplayers; i++)
		if (alive[i] && out_reason[i] != AB_END_NONE)
			nout++;
	m->turn++;
	m->nalive = (uint8_t)(m->nalive - nout);
	for (i = 0; i < m->nplayers; i++) {
		if (!alive[i])
			continue;
		p = &m->players[i];
		e = &out->seats[i];
		if (out_reason[i] != AB_END_NONE) {
			p->alive = false;
			p->end = out_reason[i];
			p->place = (uint8_t)(m->nalive + 1);
			p->out_at = m->turn;
			p->has_piece = false;
			memset(&p->act, 0, sizeof p->act);
			memset(p->queue, 0, sizeof p->queue);
			p->nqueue = 0;
			p->pending = 0;
			e->eliminated = true;
			e->end = out_reason[i];
			e->place = p->place;
		} else if (m->nalive == 1) {
			p->place = 1;
			e->place = 1;
		}
	}
	m->over = m->nalive <= 1;
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
