/*
 * actionblocks_rules.c: the rules of actionblocks-v1 that both clocks
 * share: names, the seeded streams, the preview, keys on the falling piece
 * (moves, SRS rotation, drops, hold, lock resets), the lock (spin, lock
 * out, clears, combo, back-to-back, perfect clear, points, attack),
 * garbage (cancelling, round-robin sending, rising) and the six items.
 * actionblocks.c (turns) and actionblocks_tick.c (ticks) decide when these
 * happen; what they do is only here.
 *
 * Invariants kept for every seat: no full row on its board; an item only
 * on a locked piece's cell; next[k] is stream piece drawn + k, odd only
 * while a Transformation runs (or as one left it in the hold); level =
 * min(15, 1 + lines / 10); pending = the queue's lines and queue entries
 * past nqueue are zero; the falling piece fits; resets <= 15.
 *
 * Workload: a key is a few fits of 4-5 cells; a draw is a bag shuffle and
 * an item roll (a SHA-512 each); a sent block or add_line one more.
 */
#include "actionblocks_rules.h"

#include <string.h>

#include "bag.h"
#include "versus_stream.h"

/* engine_use_seat() answers ENGINE_NOBODY where the events say AB_NOBODY. */
_Static_assert(AB_NOBODY == ENGINE_NOBODY, "one nobody for the item games");

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

unsigned
ab_match_piece(struct ab_match *m, uint32_t i)
{
	uint32_t b = i / BAG_SIZE;
	struct ab_bag_cache *c = &m->bags[0];

	if (c->no != b + 1 || c->seed != m->seed) {
		c = &m->bags[1];
		if (c->no != b + 1 || c->seed != m->seed) {
			/* The older of the two goes. */
			if (m->bags[0].no < m->bags[1].no)
				c = &m->bags[0];
			bag_shuffle_named(AB_RULES, m->seed, b, c->pieces);
			c->seed = m->seed;
			c->no = b + 1;
		}
	}
	return c->pieces[i % BAG_SIZE];
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

struct ab_slot
ab_entering(struct ab_match *m, unsigned seat, uint32_t index)
{
	struct ab_slot s;

	s.piece = (uint8_t)ab_match_piece(m, index);
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
	p->next[AB_NEXT - 1] = ab_entering(m, seat, p->drawn + AB_NEXT - 1);
	return s;
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

/* How many rows s can fall from (x, y) in rotation rot, the rows below
 * tried one by one as ab_fits would, its cells worked out once. */
static unsigned
drop_rows(const struct ab_player *p, const struct ab_slot *s, int x, int y, unsigned rot)
{
	int8_t dx[AB_CELLS_MAX], dy[AB_CELLS_MAX];
	unsigned n = ab_shape_cells(s->piece, s->shape, rot, dx, dy), k;
	int d;

	if (n == 0)
		return 0;
	for (d = 1;; d++)
		for (k = 0; k < n; k++)
			if (blocked(p, x + dx[k], y - d - dy[k]))
				return (unsigned)(d - 1);
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
		n = (int)drop_rows(p, &p->cur, p->act.x, p->act.y, p->act.rot);
		p->act.y = (int8_t)(p->act.y - n);
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

/* A clear's base points (times the level) and attack, by spin and lines. */
struct clear_base {
	uint16_t points;
	uint8_t attack;
};

static const struct clear_base plain_base[5] = {
	{ 0, 0 }, { 100, 0 }, { 300, 1 }, { 500, 2 }, { 800, 4 },
};
static const struct clear_base full_base[5] = {
	{ 400, 0 }, { 800, 2 }, { 1200, 4 }, { 1600, 6 }, { 1600, 6 },
};
static const struct clear_base mini_base[3] = { { 100, 0 }, { 200, 0 }, { 400, 1 } };
static const uint8_t combo_attack[13] = { 0, 0, 1, 1, 1, 2, 2, 3, 3, 4, 4, 4, 5 };

/* A mini spin clearing 3 rows (no row in the seed's tables) counts as a
 * full one (spec). */
static unsigned
effective_spin(unsigned lines, unsigned spin)
{
	return spin == AB_SPIN_MINI && lines >= 3 ? AB_SPIN_FULL : spin;
}

/* The row of the tables for a clear of lines (more than 4 count as 4). */
static const struct clear_base *
clear_row(unsigned lines, unsigned spin)
{
	if (lines > 4)
		lines = 4;
	spin = effective_spin(lines, spin);
	return spin == AB_SPIN_FULL ? &full_base[lines]
	    : spin == AB_SPIN_MINI ? &mini_base[lines] : &plain_base[lines];
}

uint64_t
ab_points(unsigned lines, unsigned spin, bool b2b, int combo, unsigned level)
{
	uint64_t base = clear_row(lines, spin)->points;

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
	a = clear_row(lines, spin)->attack;
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

unsigned
ab_eliminate(struct ab_match *m, const bool *alive, const uint8_t *out_reason, uint32_t at)
{
	struct ab_player *p;
	unsigned i, nout = 0;

	for (i = 0; i < m->nplayers; i++)
		if (alive[i] && out_reason[i] != AB_END_NONE)
			nout++;
	m->nalive = (uint8_t)(m->nalive - nout);
	for (i = 0; i < m->nplayers; i++) {
		if (!alive[i])
			continue;
		p = &m->players[i];
		if (out_reason[i] != AB_END_NONE) {
			p->alive = false;
			p->end = out_reason[i];
			p->place = (uint8_t)(m->nalive + 1);
			p->out_at = at;
			p->has_piece = false;
			memset(&p->act, 0, sizeof p->act);
			memset(p->queue, 0, sizeof p->queue);
			p->nqueue = 0;
			p->pending = 0;
		} else if (m->nalive == 1) {
			p->place = 1;
		}
	}
	m->over = m->nalive <= 1;
	return nout;
}

/* ---- items ---- */

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

/* ---- a turn's keys ---- */

unsigned
ab_play_keys(struct ab_match *m, unsigned seat, const char *keys, unsigned n,
    uint32_t *drop_points, bool *block_out)
{
	enum ab_key_result r;
	unsigned k;

	*block_out = false;
	for (k = 0; k < n; k++) {
		r = ab_key(m, seat, keys[k], drop_points);
		if (r == AB_KEY_LOCK)
			return k;
		if (r == AB_KEY_BLOCK_OUT) {
			*block_out = true;
			return k;
		}
	}
	/* Keys that end before the lock: a hard drop completes them. */
	ab_key(m, seat, 'D', drop_points);
	return n;
}
