/*
 * actionblocks_serial.c: a match as bytes, for a store that keeps a match's
 * state in its row, and back, refusing anything the engine cannot reach.
 *
 * Little-endian, version AB_SERIAL_VERSION, a CRC-32 of everything before
 * it at the end:
 *   header (29): version 1, seed 7, clock 1, nplayers 1, turn 4, tick 4,
 *           nblocks 4, item_chance 1, item_weights 6
 *   each player (65 + inventory + 2 a block + 10 a row):
 *           flags 1 (bit 0 alive, 1 has_piece, 2 hold_used, 3 b2b, 4 soft,
 *           5 last_rot, 6 last_kick5), score 8, lines 4, combo 4 (two's
 *           complement), drawn 4, blind 4, transform 4, out_at 4, place 1,
 *           end 1, cursor 1, missed 1, target 1, cur (piece 1, shape 1,
 *           items 2), hold (the same 4), active (x 1, y 1, rot 1, lowest 1,
 *           resets 1, lock_ticks 1, gravity 4), the preview's five shapes
 *           1 each, ninventory 1 and the items 1 each, nqueue 2 and the
 *           blocks (lines 1, hole 1), nrows 1 and rows 0..nrows-1, each 5
 *           bytes of cell codes then 5 of item codes, a nibble a column,
 *           column 0 in the low nibble of the first byte
 * A board is written up to its highest non-empty row. Not written, since
 * they follow from the rest: level, pending, nalive, over, and the
 * preview's pieces and items (stream pieces drawn .. drawn + 4 and their
 * rolls). Fields the engine keeps zero (queue and inventory past their
 * counts) come back zero, so decode(encode(m)) encodes to the same bytes.
 *
 * Workload: once per turn or per stored state; a decode recomputes five
 * bag shuffles and item rolls a seat.
 */
#include "actionblocks_serial.h"

#include <stddef.h>
#include <string.h>

#include "actionblocks_rules.h"

#define HEADER 29
#define PLAYER_FIXED 65

_Static_assert(AB_COLS == 10 && AB_CELL_EMPTY == 0 && AB_ITEM_NONE == 0,
    "an empty row is ten zero bytes");

/* Whether a row of codes is all zero (empty, no item): its ten bytes read
 * as two words rather than one by one. */
static bool
row_clear(const uint8_t row[AB_COLS])
{
	uint64_t a;
	uint16_t b;

	memcpy(&a, row, 8);
	memcpy(&b, row + 8, 2);
	return (a | b) == 0;
}

/* The rows up to the highest that holds a cell or an item. */
static unsigned
nrows_of(const struct ab_player *p)
{
	unsigned y = AB_ROWS;

	while (y > 0 && row_clear(p->cells[y - 1]) && row_clear(p->items[y - 1]))
		y--;
	return y;
}

static size_t
encoded_size(const struct ab_match *m)
{
	size_t n = HEADER + 4;
	unsigned i;

	for (i = 0; i < m->nplayers && i < AB_PLAYERS_MAX; i++)
		n += PLAYER_FIXED + m->players[i].ninventory + 2u * m->players[i].nqueue +
		    10u * nrows_of(&m->players[i]);
	return n;
}

/* The fixed-width numbers of the header and of a player, in their order
 * in the bytes: one list that ab_encode writes and ab_decode reads, so the
 * two cannot disagree. A field is a member of size bytes (1, 2, 4 or 8,
 * unsigned or two's complement) written in n bytes; a wider member is cut
 * to n bytes, a narrower one widened with zeros. */
struct field {
	uint16_t off;
	uint8_t size, n;
};

#define FIELD(type, member, n) { offsetof(type, member), sizeof ((type *)0)->member, n }
#define MATCH(member, n) FIELD(struct ab_match, member, n)
#define PLAYER(member, n) FIELD(struct ab_player, member, n)

static const struct field header_fields[] = {
	MATCH(seed, 7), MATCH(clock, 1), MATCH(nplayers, 1), MATCH(turn, 4), MATCH(tick, 4),
	MATCH(nblocks, 4), MATCH(item_chance, 1), MATCH(item_weights[0], 1),
	MATCH(item_weights[1], 1), MATCH(item_weights[2], 1), MATCH(item_weights[3], 1),
	MATCH(item_weights[4], 1), MATCH(item_weights[5], 1),
};

/* After the flags byte. */
static const struct field player_fields[] = {
	PLAYER(score, 8), PLAYER(lines, 4), PLAYER(combo, 4), PLAYER(drawn, 4),
	PLAYER(blind, 4), PLAYER(transform, 4), PLAYER(out_at, 4), PLAYER(place, 1),
	PLAYER(end, 1), PLAYER(cursor, 1), PLAYER(missed, 1), PLAYER(target, 1),
	PLAYER(cur.piece, 1), PLAYER(cur.shape, 1), PLAYER(cur.items, 2),
	PLAYER(hold.piece, 1), PLAYER(hold.shape, 1), PLAYER(hold.items, 2),
	PLAYER(act.x, 1), PLAYER(act.y, 1), PLAYER(act.rot, 1), PLAYER(act.lowest, 1),
	PLAYER(act.resets, 1), PLAYER(act.lock_ticks, 1), PLAYER(act.gravity, 4),
};

#define NFIELDS(a) (sizeof (a) / sizeof (a)[0])

static uint64_t
load(const void *obj, const struct field *f)
{
	const uint8_t *at = (const uint8_t *)obj + f->off;
	uint8_t v8;
	uint16_t v16;
	uint32_t v32;
	uint64_t v64;

	switch (f->size) {
	case 1:
		memcpy(&v8, at, 1);
		return v8;
	case 2:
		memcpy(&v16, at, 2);
		return v16;
	case 4:
		memcpy(&v32, at, 4);
		return v32;
	default:
		memcpy(&v64, at, 8);
		return v64;
	}
}

static void
store(void *obj, const struct field *f, uint64_t v)
{
	uint8_t *at = (uint8_t *)obj + f->off;
	uint8_t v8 = (uint8_t)v;
	uint16_t v16 = (uint16_t)v;
	uint32_t v32 = (uint32_t)v;

	switch (f->size) {
	case 1:
		memcpy(at, &v8, 1);
		break;
	case 2:
		memcpy(at, &v16, 2);
		break;
	case 4:
		memcpy(at, &v32, 4);
		break;
	default:
		memcpy(at, &v, 8);
		break;
	}
}

static uint8_t *
put(uint8_t *at, uint64_t v, int n)
{
	engine_put_le(at, v, n);
	return at + n;
}

static uint8_t *
put_fields(uint8_t *at, const void *obj, const struct field *f, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		at = put(at, load(obj, &f[i]), f[i].n);
	return at;
}

/* A row's ten 4-bit codes, column 0 in the low nibble of the first byte. */
static uint8_t *
put_nibbles(uint8_t *at, const uint8_t row[AB_COLS])
{
	unsigned x;

	for (x = 0; x < AB_COLS; x += 2)
		*at++ = (uint8_t)(row[x] | row[x + 1] << 4);
	return at;
}

size_t
ab_encode(const struct ab_match *m, uint8_t *buf, size_t cap)
{
	size_t need = encoded_size(m);
	const struct ab_player *p;
	uint8_t *at = buf;
	unsigned i, k, y, rows;

	if (buf == NULL || cap < need)
		return need;
	at = put(at, AB_SERIAL_VERSION, 1);
	at = put_fields(at, m, header_fields, NFIELDS(header_fields));
	for (i = 0; i < m->nplayers; i++) {
		p = &m->players[i];
		at = put(at, (unsigned)p->alive | (unsigned)p->has_piece << 1 |
		    (unsigned)p->hold_used << 2 | (unsigned)p->b2b << 3 | (unsigned)p->act.soft << 4 |
		    (unsigned)p->act.last_rot << 5 | (unsigned)p->act.last_kick5 << 6, 1);
		at = put_fields(at, p, player_fields, NFIELDS(player_fields));
		for (k = 0; k < AB_NEXT; k++)
			at = put(at, p->next[k].shape, 1);
		at = put(at, p->ninventory, 1);
		memcpy(at, p->inventory, p->ninventory);
		at += p->ninventory;
		at = put(at, p->nqueue, 2);
		for (k = 0; k < p->nqueue; k++) {
			at = put(at, p->queue[k].lines, 1);
			at = put(at, p->queue[k].hole, 1);
		}
		rows = nrows_of(p);
		at = put(at, rows, 1);
		for (y = 0; y < rows; y++) {
			at = put_nibbles(at, p->cells[y]);
			at = put_nibbles(at, p->items[y]);
		}
	}
	put(at, engine_crc32(buf, (size_t)(at - buf)), 4);
	return need;
}

/* ---- decoding ---- */

struct reader {
	const uint8_t *at, *end;
	bool bad;
};

static uint64_t
get(struct reader *r, int n)
{
	uint64_t v;

	if (r->bad || r->end - r->at < n) {
		r->bad = true;
		return 0;
	}
	v = engine_get_le(r->at, n);
	r->at += n;
	return v;
}

static bool
slot_ok(const struct ab_slot *s, bool empty_ok)
{
	unsigned k;

	if (s->piece == AB_NO_PIECE)
		return empty_ok && s->shape == 0 && s->items == 0;
	if (s->piece >= TETROMINO_NPIECES || s->shape > AB_ODD_KINDS)
		return false;
	for (k = 0; k < 4; k++)
		if (AB_MINO_ITEM(s->items, k) > AB_ITEM_KINDS)
			return false;
	return true;
}

static void
get_fields(struct reader *r, void *obj, const struct field *f, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		store(obj, &f[i], get(r, f[i].n));
}

static void
get_nibbles(struct reader *r, uint8_t row[AB_COLS])
{
	unsigned x, b;

	for (x = 0; x < AB_COLS; x += 2) {
		b = (unsigned)get(r, 1);
		row[x] = (uint8_t)(b & 15);
		row[x + 1] = (uint8_t)(b >> 4);
	}
}

/* One player's bytes into p; false on anything out of range. */
static bool
get_player(struct reader *r, struct ab_match *m, unsigned seat, struct ab_player *p)
{
	unsigned flags, k, y, x, rows, total;
	bool full;

	flags = (unsigned)get(r, 1);
	if (flags >> 7)
		return false;
	p->alive = flags & 1;
	p->has_piece = flags >> 1 & 1;
	p->hold_used = flags >> 2 & 1;
	p->b2b = flags >> 3 & 1;
	p->act.soft = flags >> 4 & 1;
	p->act.last_rot = flags >> 5 & 1;
	p->act.last_kick5 = flags >> 6 & 1;
	get_fields(r, p, player_fields, NFIELDS(player_fields));
	if (!slot_ok(&p->cur, false) || !slot_ok(&p->hold, true))
		return false;
	for (k = 0; k < AB_NEXT; k++) {
		p->next[k].shape = (uint8_t)get(r, 1);
		if (p->next[k].shape > AB_ODD_KINDS || (p->transform == 0 && p->next[k].shape != 0))
			return false;
	}
	if (r->bad || p->combo < -1 || p->end > AB_END_DISCONNECTED || p->cursor >= m->nplayers ||
	    p->target >= m->nplayers || p->place > m->nplayers || p->act.rot > 3 ||
	    p->act.resets > AB_LOCK_RESETS || p->act.lock_ticks >= AB_LOCK_DELAY_TICKS ||
	    p->act.gravity >= AB_GRAVITY_ONE || p->drawn > UINT32_MAX - 2 * AB_NEXT ||
	    (p->transform == 0 && p->hold.shape != 0))
		return false;
	if (p->alive != (p->end == AB_END_NONE) || (!p->alive && (p->place == 0 || p->has_piece)))
		return false;
	/* Missed turns in a row: below 3, but the seat the third took out. */
	if ((p->end == AB_END_MISSED ? p->missed != AB_MISSED_MAX : p->missed >= AB_MISSED_MAX) ||
	    (m->clock == AB_CLOCK_TICKS && p->missed != 0))
		return false;
	if (m->clock == AB_CLOCK_TURNS && (p->act.soft || p->act.lock_ticks || p->act.gravity))
		return false;
	k = 1 + p->lines / AB_LINES_PER_LEVEL;
	p->level = (uint8_t)(k > AB_LEVEL_MAX ? AB_LEVEL_MAX : k);
	p->ninventory = (uint8_t)get(r, 1);
	if (p->ninventory > AB_INVENTORY_MAX)
		return false;
	for (k = 0; k < p->ninventory; k++) {
		p->inventory[k] = (uint8_t)get(r, 1);
		if (p->inventory[k] < 1 || p->inventory[k] > AB_ITEM_KINDS)
			return false;
	}
	p->nqueue = (uint16_t)get(r, 2);
	if (p->nqueue > AB_QUEUE_MAX || (!p->alive && p->nqueue > 0))
		return false;
	for (k = 0, total = 0; k < p->nqueue; k++) {
		p->queue[k].lines = (uint8_t)get(r, 1);
		p->queue[k].hole = (uint8_t)get(r, 1);
		if (p->queue[k].lines < 1 || p->queue[k].lines > AB_ATTACK_MAX ||
		    p->queue[k].hole >= AB_COLS)
			return false;
		total += p->queue[k].lines;
	}
	p->pending = (uint16_t)total;
	rows = (unsigned)get(r, 1);
	if (rows > AB_ROWS)
		return false;
	for (y = 0; y < rows; y++) {
		get_nibbles(r, p->cells[y]);
		get_nibbles(r, p->items[y]);
		full = true;
		for (x = 0; x < AB_COLS; x++) {
			if (p->cells[y][x] > AB_CELL_GREY || p->items[y][x] > AB_ITEM_KINDS)
				return false;
			/* Items ride on locked piece cells only: never empty, never grey. */
			if (p->items[y][x] != AB_ITEM_NONE && (p->cells[y][x] == AB_CELL_EMPTY ||
			    p->cells[y][x] == AB_CELL_GREY))
				return false;
			full = full && p->cells[y][x] != AB_CELL_EMPTY;
		}
		if (full)
			return false;
	}
	if (r->bad || nrows_of(p) != rows)
		return false;
	/* The preview follows from the stream. */
	for (k = 0; k < AB_NEXT; k++) {
		p->next[k].piece = (uint8_t)ab_match_piece(m, p->drawn + k);
		p->next[k].items = ab_item_roll(m, seat, p->drawn + k);
	}
	if (m->item_chance == 0 && (p->cur.items != 0 || p->hold.items != 0 || p->ninventory != 0))
		return false;
	if (p->has_piece) {
		if (!ab_fits(p, &p->cur, p->act.x, p->act.y, p->act.rot) || p->act.lowest > p->act.y)
			return false;
	} else if (p->act.x != 0 || p->act.y != 0 || p->act.rot != 0 || p->act.lowest != 0 ||
	    p->act.resets != 0 || p->act.lock_ticks != 0 || p->act.gravity != 0 ||
	    p->act.last_rot || p->act.last_kick5) {
		return false; /* the engine clears the active state with the piece */
	}
	return true;
}

bool
ab_decode(struct ab_match *out, const uint8_t *buf, size_t len)
{
	static const struct ab_match zero;
	struct ab_match m = zero;
	struct reader r;
	unsigned i, total = 0, nalive = 0;

	if (buf == NULL || len < HEADER + 4 ||
	    engine_get_le(buf + len - 4, 4) != engine_crc32(buf, len - 4))
		return false;
	r.at = buf;
	r.end = buf + len - 4;
	r.bad = false;
	if (get(&r, 1) != AB_SERIAL_VERSION)
		return false;
	get_fields(&r, &m, header_fields, NFIELDS(header_fields));
	for (i = 0; i < AB_ITEM_KINDS; i++) {
		if (m.item_weights[i] > AB_ITEM_WEIGHT_MAX)
			return false;
		total += m.item_weights[i];
	}
	if (r.bad || m.seed > AB_SEED_MAX || m.clock > AB_CLOCK_TICKS ||
	    m.nplayers < AB_PLAYERS_MIN || m.nplayers > AB_PLAYERS_MAX || m.item_chance > 100 ||
	    (m.item_chance > 0) != (total > 0) ||
	    (m.clock == AB_CLOCK_TURNS ? m.tick != 0 : m.turn != 0))
		return false;
	for (i = 0; i < m.nplayers; i++) {
		if (!get_player(&r, &m, i, &m.players[i]))
			return false;
		nalive += m.players[i].alive;
	}
	if (r.bad || r.at != r.end)
		return false;
	m.nalive = (uint8_t)nalive;
	m.over = nalive <= 1;
	for (i = 0; i < m.nplayers; i++) {
		const struct ab_player *p = &m.players[i];

		if (p->alive) {
			/* The winner alone holds a place while alive. */
			if (p->place != (nalive == 1 ? 1 : 0))
				return false;
			/* A seat in has a piece, but for the tick clock's countdown. */
			if (p->has_piece != (m.clock == AB_CLOCK_TURNS || m.tick > AB_COUNTDOWN_TICKS))
				return false;
			if (!m.players[p->target].alive)
				return false;
		} else if (p->place < nalive + 1) {
			return false;
		}
	}
	if (!m.over && nalive == 0)
		return false;
	/* Bytes written by this version are canonical: re-encoding must match. */
	{
		uint8_t again[AB_SERIAL_MAX];

		if (ab_encode(&m, again, sizeof again) != len || memcmp(again, buf, len) != 0)
			return false;
	}
	*out = m;
	return true;
}
