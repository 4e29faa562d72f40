/*
 * versus_serial.c: a match's bytes (layout in versus.h) and the strict
 * decoder that takes back only states the turns can reach, as far as bytes
 * can tell.
 *
 * What the decoder proves, beyond the version, the exact length and the
 * CRC: every field is in range; each board has no full row, its filled
 * rows form one block from the floor, each grey row is nine grey cells and
 * a hole, and (for a living player) its cells add up: 4 a piece placed, 9
 * a grey row risen, minus 10 a row cleared; level follows lines and the
 * score is a sum of 50-point steps; a living player has placed exactly one
 * piece a turn, has a move left and no place, and holds the stream piece it
 * drew last (as current, or held); a player out has an empty queue and the
 * place its turn of leaving gives it; nalive and over follow the alive
 * flags; in version 3 (Transformation) every shape is 0..5, a running
 * count has an odd shape on each preview slot and none has no odd preview
 * or hold, an empty hold has no shape, and some player has something of a
 * Transformation (else the state is version 2's). What it cannot prove
 * (that this exact board comes from these pieces) stays the CRC's and the
 * store's business.
 *
 * Workload: one encode per resolved turn and one decode per move or turn
 * read, on states of at most VERSUS_SERIAL_MAX bytes: the CRC and a few
 * legal-placement checks, microseconds.
 */
#include <string.h>

#include "bag.h"
#include "tetromino_serial.h"
#include "versus.h"
#include "versus_odd.h"

#define VERSUS_ODD_KINDS_SLOT VERSUS_ODD_KINDS /* a shape byte: 0..5 */

#define HEADER_SIZE 17
#define PLAYER_SIZE 33   /* 32 fixed bytes and nrows, without the queue and the rows */
#define ROW_SIZE 5
#define CRC_SIZE 4
#define ITEMS_HEADER 7   /* version 2: item_chance 1, item_weights 6 */
#define ITEMS_PLAYER 6   /* version 2: blind 1, ninventory 1, current_items 2, hold_items 2 */
#define CELL_BITS 30     /* 3 bits a column: the letter codes */
#define CELL_MASK ((UINT64_C(1) << CELL_BITS) - 1)

/* Whether p has anything of a Transformation to write. */
static bool
has_transform(const struct versus_player *p)
{
	unsigned k;
	bool any = p->transform != 0 || p->current_shape != 0 || p->hold_shape != 0;

	for (k = 0; k < VERSUS_NEXT; k++)
		any = any || p->next_shape[k] != 0;
	return any;
}

size_t
versus_encode(const struct versus_match *m, uint8_t *buf, size_t cap)
{
	const struct versus_player *p;
	bool items = m->item_chance > 0, odd = false;
	size_t len = HEADER_SIZE + CRC_SIZE + (items ? ITEMS_HEADER : 0), at;
	unsigned i, k, c, nrows;
	uint64_t v;

	for (i = 0; items && i < m->nplayers && i < VERSUS_PLAYERS_MAX; i++)
		odd = odd || has_transform(&m->players[i]);
	for (i = 0; i < m->nplayers && i < VERSUS_PLAYERS_MAX; i++) {
		p = &m->players[i];
		nrows = tetromino_board_used_rows(&p->board);
		len += PLAYER_SIZE + 2 * (size_t)p->nqueue + ROW_SIZE * (size_t)nrows;
		if (items)
			len += ITEMS_PLAYER + p->ninventory + ROW_SIZE * (size_t)nrows;
		if (odd)
			len += VERSUS_SERIAL_TRANSFORM_PLAYER;
	}
	if (buf == NULL || cap < len)
		return len;
	buf[0] = odd ? VERSUS_SERIAL_VERSION_TRANSFORM : items ? VERSUS_SERIAL_VERSION_ITEMS
	    : VERSUS_SERIAL_VERSION;
	engine_put_le(buf + 1, m->seed, 7);
	engine_put_le(buf + 8, m->turn, 4);
	engine_put_le(buf + 12, m->nblocks, 4);
	buf[16] = m->nplayers;
	at = HEADER_SIZE;
	if (items) {
		buf[at++] = m->item_chance;
		memcpy(buf + at, m->item_weights, VERSUS_ITEM_KINDS);
		at += VERSUS_ITEM_KINDS;
	}
	for (i = 0; i < m->nplayers && i < VERSUS_PLAYERS_MAX; i++) {
		p = &m->players[i];
		engine_put_le(buf + at, p->score, 8);
		engine_put_le(buf + at + 8, p->lines, 4);
		engine_put_le(buf + at + 12, p->placed, 4);
		engine_put_le(buf + at + 16, (uint32_t)p->combo, 4);
		engine_put_le(buf + at + 20, p->out_turn, 4);
		buf[at + 24] = p->current;
		buf[at + 25] = p->hold;
		buf[at + 26] = (uint8_t)((p->alive ? 1u : 0u) | (p->back_to_back ? 2u : 0u));
		buf[at + 27] = p->missed;
		buf[at + 28] = p->place;
		buf[at + 29] = p->end_reason;
		buf[at + 30] = p->cursor;
		buf[at + 31] = p->nqueue;
		at += 32;
		for (k = 0; k < p->nqueue; k++) {
			/* A count past the queue's room (a state the engine cannot
			 * make, which the decoder refuses) is written with empty
			 * blocks, never read past the array. */
			struct versus_block b = k < VERSUS_QUEUE_MAX ? p->queue[k] : (struct versus_block){ 0, 0 };

			buf[at++] = b.lines;
			buf[at++] = b.hole;
		}
		nrows = tetromino_board_used_rows(&p->board);
		buf[at++] = (uint8_t)nrows;
		for (k = 0; k < nrows; k++) {
			engine_put_le(buf + at, (uint64_t)p->board.cells[k] |
			    (uint64_t)p->board.rows[k] << CELL_BITS, ROW_SIZE);
			at += ROW_SIZE;
		}
		if (!items)
			continue;
		buf[at++] = p->blind;
		buf[at++] = p->ninventory;
		memcpy(buf + at, p->inventory, p->ninventory);
		at += p->ninventory;
		engine_put_le(buf + at, p->current_items, 2);
		engine_put_le(buf + at + 2, p->hold_items, 2);
		at += 4;
		for (k = 0; k < nrows; k++) {
			for (c = 0, v = 0; c < TETROMINO_COLS; c++)
				v |= (uint64_t)p->items[k][c] << (4 * c);
			engine_put_le(buf + at, v, ROW_SIZE);
			at += ROW_SIZE;
		}
		if (!odd)
			continue;
		buf[at++] = p->transform;
		buf[at++] = p->current_shape;
		buf[at++] = p->hold_shape;
		for (k = 0; k < VERSUS_NEXT; k++)
			buf[at++] = p->next_shape[k];
	}
	engine_put_le(buf + at, engine_crc32(buf, at), CRC_SIZE);
	return at + CRC_SIZE;
}

/* The bags a decode has shuffled: players of one match share the seed and
 * are at most a few pieces apart, so a handful of bags serve them all and
 * each is shuffled (one SHA-512 and one generator seeding) once. */
#define BAGS_KEPT 4
struct bags {
	uint64_t seed;
	uint32_t number[BAGS_KEPT];
	uint8_t  bag[BAGS_KEPT][BAG_SIZE];
	unsigned n, next;
};

/* Bag number b of the stream, from the ones kept or shuffled now. */
static const uint8_t *
bag_of(struct bags *k, uint32_t b)
{
	unsigned i;

	for (i = 0; i < k->n; i++)
		if (k->number[i] == b)
			return k->bag[i];
	i = k->n < BAGS_KEPT ? k->n++ : k->next++ % BAGS_KEPT;
	k->number[i] = b;
	bag_shuffle(k->seed, b, k->bag[i]);
	return k->bag[i];
}

static uint8_t
stream_piece(struct bags *k, uint32_t i)
{
	return bag_of(k, i / BAG_SIZE)[i % BAG_SIZE];
}

/* One board row from its 5 bytes: letters and occupancy must agree (a
 * letter only on an occupied cell), the row is not full, and a row with a
 * grey cell is nine grey cells and an empty hole. Counts the row's cells. */
static bool
read_row(struct tetromino_board *b, unsigned r, uint64_t v, unsigned *cells)
{
	uint32_t letters = (uint32_t)(v & CELL_MASK);
	uint64_t occ = v >> CELL_BITS;
	unsigned c, code, grey = 0, filled = 0;

	if (occ == 0 || occ >= TETROMINO_FULL_ROW)
		return false; /* empty inside the block, full, or beyond 10 bits */
	for (c = 0; c < TETROMINO_COLS; c++) {
		code = letters >> (3 * c) & 7u;
		if (!(occ >> c & 1u)) {
			if (code != 0)
				return false;
			continue;
		}
		filled++;
		grey += code == 0;
	}
	if (grey != 0 && (grey != TETROMINO_COLS - 1 || filled != grey))
		return false;
	b->rows[r] = (uint16_t)occ;
	b->cells[r] = letters;
	*cells += filled;
	return true;
}

/* Whether bits holds item codes (0..VERSUS_ITEM_KINDS) on its 4 minos. */
static bool
mino_items_ok(uint64_t bits)
{
	unsigned k;

	for (k = 0; k < 4; k++)
		if (VERSUS_MINO_ITEMS(bits, k) > VERSUS_ITEM_KINDS)
			return false;
	return true;
}

/* Version 2: a player's items after its board; an item only on a filled cell. */
static bool
read_items(struct versus_player *p, unsigned nrows, const uint8_t *buf, size_t len,
    size_t *at)
{
	size_t o = *at;
	unsigned k, c, code;
	uint64_t v;

	if (len - o < ITEMS_PLAYER)
		return false;
	p->blind = buf[o++];
	p->ninventory = buf[o++];
	if (p->ninventory > VERSUS_INVENTORY_MAX || len - o < p->ninventory + 4u +
	    ROW_SIZE * (size_t)nrows)
		return false;
	for (k = 0; k < p->ninventory; k++) {
		p->inventory[k] = buf[o++];
		if (p->inventory[k] < 1 || p->inventory[k] > VERSUS_ITEM_KINDS)
			return false;
	}
	p->current_items = (uint16_t)engine_get_le(buf + o, 2);
	p->hold_items = (uint16_t)engine_get_le(buf + o + 2, 2);
	o += 4;
	if (!mino_items_ok(p->current_items) || !mino_items_ok(p->hold_items) ||
	    (p->hold == VERSUS_NO_PIECE && p->hold_items != 0))
		return false;
	for (k = 0; k < nrows; k++, o += ROW_SIZE) {
		v = engine_get_le(buf + o, ROW_SIZE);
		for (c = 0; c < TETROMINO_COLS; c++) {
			code = (unsigned)(v >> (4 * c) & 15u);
			if (code > VERSUS_ITEM_KINDS || (code != 0 && !(p->board.rows[k] >> c & 1u)))
				return false;
			p->items[k][c] = (uint8_t)code;
		}
	}
	*at = o;
	return true;
}

/* Version 3: a player's Transformation after its items. A running one has
 * every preview slot odd; none has neither an odd preview nor an odd hold
 * (the current piece may stay odd after it ended); an empty hold has no
 * shape. */
static bool
read_transform(struct versus_player *p, const uint8_t *buf, size_t len, size_t *at)
{
	size_t o = *at;
	unsigned k;

	if (len - o < VERSUS_SERIAL_TRANSFORM_PLAYER)
		return false;
	p->transform = buf[o++];
	p->current_shape = buf[o++];
	p->hold_shape = buf[o++];
	for (k = 0; k < VERSUS_NEXT; k++)
		p->next_shape[k] = buf[o++];
	if (p->current_shape > VERSUS_ODD_KINDS_SLOT || p->hold_shape > VERSUS_ODD_KINDS_SLOT ||
	    (p->hold == VERSUS_NO_PIECE && p->hold_shape != 0) ||
	    (p->transform == 0 && p->hold_shape != 0))
		return false;
	for (k = 0; k < VERSUS_NEXT; k++)
		if (p->next_shape[k] > VERSUS_ODD_KINDS_SLOT ||
		    (p->next_shape[k] != 0) != (p->transform != 0))
			return false;
	*at = o;
	return true;
}

/* One player's bytes from *at; false on anything out of range. */
static bool
read_player(const struct versus_match *m, bool odd, struct versus_player *p,
    const uint8_t *buf, size_t len, size_t *at)
{
	size_t o = *at;
	unsigned k, nrows, cells = 0, flags;
	uint32_t combo;

	if (len - o < PLAYER_SIZE)
		return false;
	p->score = engine_get_le(buf + o, 8);
	p->lines = (uint32_t)engine_get_le(buf + o + 8, 4);
	p->placed = (uint32_t)engine_get_le(buf + o + 12, 4);
	combo = (uint32_t)engine_get_le(buf + o + 16, 4);
	p->out_turn = (uint32_t)engine_get_le(buf + o + 20, 4);
	p->current = buf[o + 24];
	p->hold = buf[o + 25];
	flags = buf[o + 26];
	p->missed = buf[o + 27];
	p->place = buf[o + 28];
	p->end_reason = buf[o + 29];
	p->cursor = buf[o + 30];
	p->nqueue = buf[o + 31];
	o += 32;
	if (flags > 3 || p->current >= TETROMINO_NPIECES || p->hold > VERSUS_NO_PIECE ||
	    p->end_reason > VERSUS_END_RESIGNED || p->cursor >= m->nplayers ||
	    p->nqueue > VERSUS_QUEUE_MAX || p->placed > UINT32_MAX - 2 || combo == 0x80000000u)
		return false;
	p->alive = flags & 1u;
	p->back_to_back = flags & 2u;
	p->combo = combo <= INT32_MAX ? (int32_t)combo : -(int32_t)(~combo) - 1;
	if (len - o < 2 * (size_t)p->nqueue + 1)
		return false;
	for (k = 0; k < p->nqueue; k++) {
		p->queue[k].lines = buf[o++];
		p->queue[k].hole = buf[o++];
		if (p->queue[k].lines < 1 || p->queue[k].lines > VERSUS_ATTACK_MAX ||
		    p->queue[k].hole >= TETROMINO_COLS)
			return false;
		p->pending = (uint16_t)(p->pending + p->queue[k].lines);
	}
	nrows = buf[o++];
	if (nrows > TETROMINO_ROWS || len - o < ROW_SIZE * (size_t)nrows)
		return false;
	for (k = 0; k < nrows; k++, o += ROW_SIZE)
		if (!read_row(&p->board, k, engine_get_le(buf + o, ROW_SIZE), &cells))
			return false;
	if (m->item_chance > 0 && !read_items(p, nrows, buf, len, &o))
		return false;
	if (odd && !read_transform(p, buf, len, &o))
		return false;
	*at = o;

	/* Counters. */
	p->level = 1 + p->lines / 10;
	p->drawn = p->placed + 1 + (p->hold != VERSUS_NO_PIECE);
	if (p->combo < -1 || (int64_t)p->combo >= (int64_t)p->placed ||
	    (uint64_t)p->lines > 4 * (uint64_t)p->placed || (p->back_to_back && p->lines < 4) ||
	    p->score % 50 != 0 || (p->score == 0) != (p->lines == 0))
		return false;
	/* A living player's cells add up: 4 a piece, 9 a grey row, -10 a
	 * cleared row (a player out may have lost cells to an overflow; items
	 * add and remove cells, so a match with items has no such sum). */
	if (p->alive && m->item_chance == 0) {
		int64_t grey9 = (int64_t)cells + 10 * (int64_t)p->lines - 4 * (int64_t)p->placed;

		if (grey9 < 0 || grey9 % 9 != 0)
			return false;
	}
	return true;
}

bool
versus_decode(struct versus_match *out, const uint8_t *buf, size_t len)
{
	struct versus_match m;
	struct versus_player *p, *q;
	struct bags bags;
	size_t at = HEADER_SIZE;
	uint8_t last;
	unsigned i, j, k, nalive = 0, later;

	if (buf == NULL || len < HEADER_SIZE + CRC_SIZE || len > VERSUS_SERIAL_MAX ||
	    buf[0] < VERSUS_SERIAL_VERSION || buf[0] > VERSUS_SERIAL_VERSION_TRANSFORM ||
	    engine_get_le(buf + len - CRC_SIZE, CRC_SIZE) != engine_crc32(buf, len - CRC_SIZE))
		return false;
	memset(&m, 0, sizeof m);
	m.seed = engine_get_le(buf + 1, 7);
	m.turn = (uint32_t)engine_get_le(buf + 8, 4);
	m.nblocks = (uint32_t)engine_get_le(buf + 12, 4);
	m.nplayers = buf[16];
	if (m.seed > VERSUS_SEED_MAX || m.nplayers < VERSUS_PLAYERS_MIN ||
	    m.nplayers > VERSUS_PLAYERS_MAX)
		return false;
	if (buf[0] >= VERSUS_SERIAL_VERSION_ITEMS) {
		unsigned total = 0;

		if (len < HEADER_SIZE + ITEMS_HEADER + CRC_SIZE)
			return false;
		m.item_chance = buf[at++];
		memcpy(m.item_weights, buf + at, VERSUS_ITEM_KINDS);
		at += VERSUS_ITEM_KINDS;
		for (k = 0; k < VERSUS_ITEM_KINDS; k++) {
			if (m.item_weights[k] > VERSUS_ITEM_WEIGHT_MAX)
				return false;
			total += m.item_weights[k];
		}
		if (m.item_chance < 1 || m.item_chance > 100 || total == 0)
			return false;
	}
	for (i = 0; i < m.nplayers; i++)
		if (!read_player(&m, buf[0] == VERSUS_SERIAL_VERSION_TRANSFORM, &m.players[i], buf,
		    len - CRC_SIZE, &at))
			return false;
	if (at != len - CRC_SIZE)
		return false;
	/* Version 3 only when version 2 cannot say it. */
	if (buf[0] == VERSUS_SERIAL_VERSION_TRANSFORM) {
		bool any = false;

		for (i = 0; i < m.nplayers; i++)
			any = any || has_transform(&m.players[i]);
		if (!any)
			return false;
	}

	bags.seed = m.seed;
	bags.n = bags.next = 0;
	for (i = 0; i < m.nplayers; i++) {
		p = &m.players[i];
		/* The stream: the preview and the bag cache follow from drawn,
		 * and the piece drawn last is current or held (current when the
		 * hold slot is empty). */
		last = stream_piece(&bags, p->drawn - 1);
		if (last != p->current && (p->hold == VERSUS_NO_PIECE || last != p->hold))
			return false;
		for (k = 0; k < VERSUS_NEXT; k++) {
			p->next[k] = stream_piece(&bags, p->drawn + k);
			p->next_items[k] = versus_item_roll(&m, i, p->drawn + k);
		}
		/* The engine keeps the bag of its last draw, drawn + 2. */
		p->bag_number = (p->drawn + VERSUS_NEXT - 1) / BAG_SIZE;
		memcpy(p->bag, bag_of(&bags, p->bag_number), BAG_SIZE);
		if (p->alive) {
			/* Once a turn a living player places a piece (its own or a
			 * missed turn's drop), and it has a move left. */
			nalive++;
			if (p->placed != m.turn || p->missed >= VERSUS_MISSED_MAX ||
			    p->end_reason != VERSUS_END_NONE || p->out_turn != 0 ||
			    p->missed > m.turn ||
			    (!versus_slot_can_place(&p->board, p->current, p->current_shape) &&
			    !versus_slot_can_place(&p->board, versus_hold_piece(p),
			    versus_hold_shape(p))))
				return false;
		} else {
			/* The turn that took it out placed nothing or one piece. */
			if (p->end_reason == VERSUS_END_NONE || p->out_turn < 1 || p->out_turn > m.turn ||
			    (p->placed != p->out_turn && p->placed + 1 != p->out_turn) ||
			    p->nqueue != 0 || p->place < 1 || p->place > m.nplayers ||
			    (p->end_reason == VERSUS_END_MISSED) != (p->missed == VERSUS_MISSED_MAX) ||
			    p->missed > VERSUS_MISSED_MAX || p->missed > p->out_turn)
				return false;
		}
	}
	if (m.turn == 0 && (nalive != m.nplayers || m.nblocks != 0))
		return false;
	/* A match ends in a turn that takes someone out. */
	for (i = 0, later = 0; i < m.nplayers; i++)
		later += !m.players[i].alive && m.players[i].out_turn == m.turn;
	if (nalive <= 1 && later == 0)
		return false;
	m.nalive = (uint8_t)nalive;
	m.over = nalive <= 1;
	/* Places: those out in the same turn share n + 1, n being the players
	 * still in after it; a last survivor has 1. */
	for (i = 0; i < m.nplayers; i++) {
		p = &m.players[i];
		if (p->alive) {
			if (p->place != (m.over ? 1 : 0))
				return false;
			continue;
		}
		later = 0;
		for (j = 0; j < m.nplayers; j++) {
			q = &m.players[j];
			later += q->alive || q->out_turn > p->out_turn;
		}
		if (p->place != later + 1)
			return false;
	}
	*out = m;
	return true;
}
