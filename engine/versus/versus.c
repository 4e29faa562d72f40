/*
 * versus.c: the turn of a versus match on top of tetromino.c (boards),
 * bag.c (pieces), stackfall.c (points of a clear) and stackfall_cmd.c (move
 * text).
 *
 * Invariants between calls, for every player p:
 *   - p's board has no full row; grey cells are rows[] bits whose cells[]
 *     code is 0, and every other rows[] bit has a letter;
 *   - drawn = placed + 1 + (hold slot used) and next[k] is stream piece
 *     drawn + k; the piece drawn - 1 is current or held;
 *   - level = 1 + lines / 10; pending = sum of queue[0..nqueue).lines, each
 *     block's lines in 1..VERSUS_ATTACK_MAX;
 *   - a living player has a move (it is not topped out), missed < 3 and
 *     place 0; a player out has an empty queue and a place;
 *   - nalive counts the living; over exactly when nalive <= 1.
 * versus_resolve() validates every move before it writes anything, so a
 * refusal leaves the match byte for byte as it was.
 *
 * Workload: one call per turn per match; a turn costs a few placements, at
 * most 8 SHA-512 hole draws and a bag shuffle every 7 turns per player,
 * some microseconds in all.
 */
#include "versus.h"

#include <string.h>

#include "bag.h"
#include "engine.h"
#include "stackfall.h"
#include "stackfall_cmd.h"
#include "versus_odd.h"
#include "versus_stream.h"

static const char *const end_names[] = {
	NULL, "top_out", "overflow", "missed", "resigned",
};

static const char *const item_names[] = {
	NULL, "add_line", "clear_line", "nuke", "swap", "blind", "transform",
};

const char *
versus_item_name(unsigned item)
{
	return item < sizeof item_names / sizeof item_names[0] ? item_names[item] : NULL;
}

static const char *const action_names[] = {
	"none", "placed", "dropped", "no_room", "timed_out", "resigned",
};

const char *
versus_end_name(unsigned end_reason)
{
	return end_reason < sizeof end_names / sizeof end_names[0] ? end_names[end_reason] : NULL;
}

const char *
versus_action_name(unsigned action)
{
	return action < sizeof action_names / sizeof action_names[0] ? action_names[action]
	    : "none";
}

/* ---- the piece stream, per player (the same cache as struct stackfall) ---- */

/* The players share the stream and draw about a piece a turn each, so
 * they reach a new bag in the same turn: the first one shuffles it (a
 * SHA-512 and a generator seeding, most of a draw's cost), the others copy
 * it from a player who holds it. */
static uint8_t
stream_at(const struct versus_match *m, struct versus_player *p, uint32_t i)
{
	uint32_t b = i / BAG_SIZE;
	unsigned k;

	if (b != p->bag_number) {
		for (k = 0; k < m->nplayers && k < VERSUS_PLAYERS_MAX; k++)
			if (m->players[k].bag_number == b && &m->players[k] != p)
				break;
		if (k < m->nplayers && k < VERSUS_PLAYERS_MAX)
			memcpy(p->bag, m->players[k].bag, BAG_SIZE);
		else
			bag_shuffle(m->seed, b, p->bag);
		p->bag_number = b;
	}
	return p->bag[i % BAG_SIZE];
}

uint16_t
versus_item_roll(const struct versus_match *m, unsigned player, uint32_t index)
{
	return versus_stream_items(VERSUS_RULES, m->seed, m->item_chance, m->item_weights, player,
	    index);
}

static unsigned
player_index(const struct versus_match *m, const struct versus_player *p)
{
	return (unsigned)(p - m->players);
}

/* The shape slot of stream piece index entering p's preview now: odd
 * while a Transformation runs. */
static uint8_t
entering_shape(const struct versus_match *m, const struct versus_player *p, uint32_t index)
{
	if (p->transform == 0)
		return VERSUS_SHAPE_PIECE;
	return (uint8_t)(versus_odd_roll(m->seed, player_index(m, p), index) + 1);
}

/* Takes the next piece; its items go to *items, its shape to *shape. */
static uint8_t
draw(const struct versus_match *m, struct versus_player *p, uint16_t *items, uint8_t *shape)
{
	uint8_t piece = p->next[0];

	*items = p->next_items[0];
	*shape = p->next_shape[0];
	p->next[0] = p->next[1];
	p->next[1] = p->next[2];
	p->next_items[0] = p->next_items[1];
	p->next_items[1] = p->next_items[2];
	p->next_shape[0] = p->next_shape[1];
	p->next_shape[1] = p->next_shape[2];
	p->drawn++;
	p->next[2] = stream_at(m, p, p->drawn + 2);
	p->next_items[2] = versus_item_roll(m, player_index(m, p), p->drawn + 2);
	p->next_shape[2] = entering_shape(m, p, p->drawn + 2);
	return piece;
}

bool
versus_init(struct versus_match *m, uint64_t seed, unsigned nplayers)
{
	struct versus_player *p;
	unsigned i;

	if (seed > VERSUS_SEED_MAX || nplayers < VERSUS_PLAYERS_MIN ||
	    nplayers > VERSUS_PLAYERS_MAX)
		return false;
	memset(m, 0, sizeof *m);
	m->seed = seed;
	m->nplayers = (uint8_t)nplayers;
	m->nalive = (uint8_t)nplayers;
	for (i = 0; i < nplayers; i++) {
		p = &m->players[i];
		tetromino_board_init(&p->board);
		p->level = 1;
		p->combo = -1;
		p->hold = VERSUS_NO_PIECE;
		p->alive = true;
		p->cursor = (uint8_t)i;
		p->bag_number = 0;
		if (i == 0)
			bag_shuffle(seed, 0, p->bag);
		else
			memcpy(p->bag, m->players[0].bag, BAG_SIZE); /* one stream: one first bag */
		p->current = p->bag[0];
		p->drawn = 1;
		p->next[0] = p->bag[1];
		p->next[1] = p->bag[2];
		p->next[2] = p->bag[3];
	}
	return true;
}

bool
versus_set_items(struct versus_match *m, unsigned chance,
    const uint8_t weights[VERSUS_ITEM_KINDS])
{
	struct versus_player *p;
	unsigned i, k, total = 0;

	if (chance > 100 || m->turn != 0)
		return false;
	for (i = 0; i < VERSUS_ITEM_KINDS; i++) {
		if (weights[i] > VERSUS_ITEM_WEIGHT_MAX)
			return false;
		total += weights[i];
	}
	if (chance > 0 && total == 0)
		return false;
	m->item_chance = (uint8_t)chance;
	memcpy(m->item_weights, weights, VERSUS_ITEM_KINDS);
	for (i = 0; i < m->nplayers; i++) {
		p = &m->players[i];
		p->current_items = versus_item_roll(m, i, p->drawn - 1);
		for (k = 0; k < VERSUS_NEXT; k++)
			p->next_items[k] = versus_item_roll(m, i, p->drawn + k);
	}
	return true;
}

_Static_assert(VERSUS_NOBODY == ENGINE_NOBODY, "one nobody for the item games");

unsigned
versus_use_target(const struct versus_match *m, unsigned user, unsigned seat)
{
	return engine_use_seat(m->nplayers, user, seat);
}

unsigned
versus_hold_piece(const struct versus_player *p)
{
	return p->hold != VERSUS_NO_PIECE ? p->hold : p->next[0];
}

unsigned
versus_hold_shape(const struct versus_player *p)
{
	return p->hold != VERSUS_NO_PIECE ? p->hold_shape : p->next_shape[0];
}

unsigned
versus_slot_max_column(unsigned piece, unsigned shape, unsigned rotation)
{
	return shape == VERSUS_SHAPE_PIECE ? tetromino_max_column(piece, rotation)
	    : versus_odd_max_column(shape - 1, rotation);
}

/* Row index where the slot's bottom lands and its height; all in range. */
static int
slot_top(const struct tetromino_board *b, unsigned piece, unsigned shape, unsigned rotation,
    unsigned column)
{
	if (shape == VERSUS_SHAPE_PIECE)
		return tetromino_landing(b, piece, rotation, column) +
		    tetromino_shape(piece, rotation)->height;
	return versus_odd_landing(b, shape - 1, rotation, column) +
	    versus_odd_shape(shape - 1, rotation)->height;
}

bool
versus_slot_fits(const struct tetromino_board *b, unsigned piece, unsigned shape,
    unsigned rotation, unsigned column)
{
	if (shape == VERSUS_SHAPE_PIECE)
		return tetromino_fits(b, piece, rotation, column);
	if (shape > VERSUS_ODD_KINDS || rotation >= TETROMINO_NROTATIONS ||
	    column > versus_odd_max_column(shape - 1, rotation))
		return false;
	return slot_top(b, piece, shape, rotation, column) <= TETROMINO_ROWS;
}

bool
versus_slot_can_place(const struct tetromino_board *b, unsigned piece, unsigned shape)
{
	unsigned r, c;

	if (shape == VERSUS_SHAPE_PIECE)
		return tetromino_can_place(b, piece);
	for (r = 0; r < TETROMINO_NROTATIONS; r++)
		for (c = 0; c <= versus_odd_max_column(shape - 1, r); c++)
			if (versus_slot_fits(b, piece, shape, r, c))
				return true;
	return false;
}

char
versus_slot_letter(unsigned piece, unsigned shape)
{
	return shape == VERSUS_SHAPE_PIECE ? tetromino_letter(piece) : versus_odd_letter(shape - 1);
}

/* ---- attacks and the garbage stream ---- */

static const uint8_t clear_attack[5] = { 0, 0, 1, 2, 4 };
static const uint8_t combo_attack[13] = { 0, 0, 1, 1, 1, 2, 2, 3, 3, 4, 4, 4, 5 };

unsigned
versus_attack(unsigned lines, int combo, bool back_to_back, bool perfect)
{
	unsigned a;

	if (lines == 0 || lines > 4)
		return 0;
	a = clear_attack[lines];
	if (back_to_back)
		a += 1;
	if (combo > 12)
		a += combo_attack[12];
	else if (combo >= 0)
		a += combo_attack[combo];
	if (perfect)
		a += 10;
	return a;
}

unsigned
versus_garbage_hole(uint64_t seed, uint32_t k)
{
	return versus_stream_below(VERSUS_RULES, seed, "garbage", k, false, 0, TETROMINO_COLS);
}

/* ---- boards ---- */

void
versus_board_text(const struct versus_player *p, char out[VERSUS_TEXT_SIZE])
{
	unsigned r, c;

	tetromino_board_text(&p->board, out);
	for (r = 0; r < TETROMINO_ROWS; r++)
		for (c = 0; c < TETROMINO_COLS; c++)
			if ((p->board.rows[r] >> c & 1u) && tetromino_board_get(&p->board, r, c) == 0)
				out[(TETROMINO_ROWS - 1 - r) * (TETROMINO_COLS + 1) + c] =
				    VERSUS_GREY_LETTER;
}

/* Pushes p's board up by block->lines rows, items with their cells, and
 * fills them from the bottom with grey rows open at the hole. Returns true
 * when a filled cell went above row 20 (the cells pushed out are gone). */
static bool
rise(struct versus_player *p, const struct versus_block *block)
{
	struct tetromino_board *b = &p->board;
	unsigned k = block->lines, r;
	bool overflow = false;

	for (r = TETROMINO_ROWS - k; r < TETROMINO_ROWS; r++)
		if (b->rows[r] != 0)
			overflow = true;
	for (r = TETROMINO_ROWS; r-- > k;) {
		b->rows[r] = b->rows[r - k];
		b->cells[r] = b->cells[r - k];
		memcpy(p->items[r], p->items[r - k], TETROMINO_COLS);
	}
	for (r = 0; r < k; r++) {
		b->rows[r] = (uint16_t)(TETROMINO_FULL_ROW & ~(1u << block->hole));
		b->cells[r] = 0;
		memset(p->items[r], 0, TETROMINO_COLS);
	}
	return overflow;
}

/* Removes p's bottom row; what is above drops by one, items with it. */
static void
clear_bottom(struct versus_player *p)
{
	struct tetromino_board *b = &p->board;
	unsigned r;

	for (r = 0; r + 1 < TETROMINO_ROWS; r++) {
		b->rows[r] = b->rows[r + 1];
		b->cells[r] = b->cells[r + 1];
		memcpy(p->items[r], p->items[r + 1], TETROMINO_COLS);
	}
	b->rows[TETROMINO_ROWS - 1] = 0;
	b->cells[TETROMINO_ROWS - 1] = 0;
	memset(p->items[TETROMINO_ROWS - 1], 0, TETROMINO_COLS);
}

static bool
topped_out(const struct versus_player *p)
{
	return !versus_slot_can_place(&p->board, p->current, p->current_shape) &&
	    !versus_slot_can_place(&p->board, versus_hold_piece(p), versus_hold_shape(p));
}

/* Removes up to n lines from the front of p's queue; returns how many. */
static unsigned
cancel(struct versus_player *p, unsigned n)
{
	unsigned done = 0, take, i;

	while (done < n && p->nqueue > 0) {
		take = n - done < p->queue[0].lines ? n - done : p->queue[0].lines;
		p->queue[0].lines = (uint8_t)(p->queue[0].lines - take);
		done += take;
		if (p->queue[0].lines == 0) {
			for (i = 1; i < p->nqueue; i++)
				p->queue[i - 1] = p->queue[i];
			p->nqueue--;
		}
	}
	p->pending = (uint16_t)(p->pending - done);
	return done;
}

/* The next living opponent after the sender's cursor, in match order;
 * alive[] is the turn's starting roll. */
static unsigned
next_target(const struct versus_match *m, unsigned sender, const bool *alive)
{
	unsigned t = m->players[sender].cursor, step;

	for (step = 0; step < m->nplayers; step++) {
		t = (t + 1) % m->nplayers;
		if (t != sender && alive[t])
			return t;
	}
	return VERSUS_NOBODY; /* unreachable: a turn starts with two players alive */
}

/* ---- moves ---- */

enum versus_parse
versus_move_parse(const char *text, size_t len, struct versus_move *mv, char *reason,
    size_t cap)
{
	struct stackfall_cmd cmds[3];
	enum stackfall_cmd_parse res;
	size_t n = 0, i, at;
	uint32_t use = 0;

	/* `use T` and its separator first; the rest is Stackfall's syntax. */
	for (at = 0; at < len && (text[at] == ' ' || text[at] == '\t'); at++)
		;
	if (len - at >= 3 && (text[at] | 0x20) == 'u' && (text[at + 1] | 0x20) == 's' &&
	    (text[at + 2] | 0x20) == 'e' &&
	    (len - at == 3 || text[at + 3] == ' ' || text[at + 3] == '\t')) {
		bool digits = false;

		for (at += 3; at < len && (text[at] == ' ' || text[at] == '\t'); at++)
			;
		for (; at < len && text[at] >= '0' && text[at] <= '9'; at++) {
			digits = true;
			use = use > 1000 ? 1001 : use * 10 + (uint32_t)(text[at] - '0');
		}
		for (; at < len && (text[at] == ' ' || text[at] == '\t'); at++)
			;
		if (!digits || use == 0 || use > 1000) {
			engine_refuse(reason, cap, "use needs a seat: use T, 1 for yourself, 2.. the others");
			return VERSUS_PARSE_INVALID;
		}
		if (at >= len || (text[at] != ';' && text[at] != '\n')) {
			engine_refuse(reason, cap,
			    "use T must be followed by ; and a placement: use 2; place R C");
			return VERSUS_PARSE_INVALID;
		}
		at++;
		text += at;
		len -= at;
	} else {
		use = 0;
	}
	res = stackfall_cmd_parse(text, len, cmds, 3, &n);
	if (use != 0 && res == STACKFALL_PARSE_EMPTY) {
		engine_refuse(reason, cap, "use T alone is not a move: send use T; place R C");
		return VERSUS_PARSE_INVALID;
	}
	if (res == STACKFALL_PARSE_EMPTY) {
		engine_refuse(reason, cap, "empty move: send place R C, hold; place R C or resign");
		return VERSUS_PARSE_EMPTY;
	}
	if (res == STACKFALL_PARSE_TOO_MANY) {
		engine_refuse(reason, cap,
		    "a move is one placement, optionally after hold, or resign");
		return VERSUS_PARSE_INVALID;
	}
	for (i = 0; i < n; i++) {
		if (cmds[i].kind == STACKFALL_CMD_INVALID &&
		    cmds[i].error == STACKFALL_CMD_ERR_UNKNOWN) {
			/* Stackfall's reason would offer options and preview. */
			engine_refuse(reason, cap,
			    "unknown command: send place R C, hold; place R C or resign");
			return VERSUS_PARSE_INVALID;
		}
		if (cmds[i].kind == STACKFALL_CMD_INVALID) {
			engine_refuse(reason, cap, "%s", cmds[i].reason);
			return VERSUS_PARSE_INVALID;
		}
		if (cmds[i].kind == STACKFALL_CMD_OPTIONS || cmds[i].kind == STACKFALL_CMD_PREVIEW) {
			engine_refuse(reason, cap, "%s is not a move in a match: send place R C, "
			    "hold; place R C or resign", stackfall_cmd_name(cmds[i].kind));
			return VERSUS_PARSE_INVALID;
		}
	}
	memset(mv, 0, sizeof *mv);
	mv->use = use;
	if (use != 0 && (n == 0 || cmds[n - 1].kind != STACKFALL_CMD_PLACE)) {
		engine_refuse(reason, cap, "use T goes with a placement: use T; place R C");
		return VERSUS_PARSE_INVALID;
	}
	if (n == 1 && cmds[0].kind == STACKFALL_CMD_PLACE) {
		mv->kind = VERSUS_MOVE_PLACE;
		mv->rotation = cmds[0].rotation;
		mv->column = cmds[0].column;
		return VERSUS_PARSE_OK;
	}
	if (n == 1 && cmds[0].kind == STACKFALL_CMD_RESIGN) {
		mv->kind = VERSUS_MOVE_RESIGN;
		return VERSUS_PARSE_OK;
	}
	if (n == 2 && cmds[0].kind == STACKFALL_CMD_HOLD && cmds[1].kind == STACKFALL_CMD_PLACE) {
		mv->kind = VERSUS_MOVE_PLACE;
		mv->hold = true;
		mv->rotation = cmds[1].rotation;
		mv->column = cmds[1].column;
		return VERSUS_PARSE_OK;
	}
	if (n == 1 && cmds[0].kind == STACKFALL_CMD_HOLD) {
		engine_refuse(reason, cap, "hold alone is not a move: send hold; place R C");
		return VERSUS_PARSE_INVALID;
	}
	engine_refuse(reason, cap, "a move is one placement, optionally after hold, or resign");
	return VERSUS_PARSE_INVALID;
}

size_t
versus_move_text(const struct versus_move *mv, char *buf, size_t cap)
{
	struct engine_msg msg = engine_msg_start(buf, cap);

	switch (mv->kind) {
	case VERSUS_MOVE_PLACE:
		engine_msg_use(&msg, mv->use);
		engine_msg_str(&msg, mv->hold ? "hold; place " : "place ");
		engine_msg_uint(&msg, mv->rotation);
		engine_msg_str(&msg, " ");
		engine_msg_uint(&msg, mv->column);
		break;
	case VERSUS_MOVE_RESIGN:
		engine_msg_str(&msg, "resign");
		break;
	default:
		engine_msg_str(&msg, "missed");
		break;
	}
	return msg.need;
}

bool
versus_check_move(const struct versus_match *m, unsigned player,
    const struct versus_move *mv, char *reason, size_t cap)
{
	const struct versus_player *p;
	unsigned piece, shape, maxcol;
	char letter;
	int top;

	if (m->over)
		return engine_refuse(reason, cap, "the match is over");
	if (player >= m->nplayers)
		return engine_refuse(reason, cap, "there is no player %u in this match", player);
	p = &m->players[player];
	if (!p->alive)
		return engine_refuse(reason, cap, "player %u is out of the match (%s)", player,
		    versus_end_name(p->end_reason));
	if (mv->kind == VERSUS_MOVE_RESIGN)
		return true;
	if (mv->kind != VERSUS_MOVE_PLACE)
		return engine_refuse(reason, cap, "only the server records a missed turn");
	if (mv->use != 0) {
		unsigned t;

		if (!engine_check_use(m->nplayers, m->item_chance, player, mv->use, &t, reason, cap))
			return false;
		if (!m->players[t].alive)
			return engine_refuse(reason, cap, "use %u names player %u, who is out", mv->use,
			    t);
	}
	piece = mv->hold ? versus_hold_piece(p) : p->current;
	shape = mv->hold ? versus_hold_shape(p) : p->current_shape;
	letter = versus_slot_letter(piece, shape);
	if (mv->rotation >= TETROMINO_NROTATIONS)
		return engine_refuse(reason, cap, "rotation %u is out of range: rotations 0-3",
		    mv->rotation);
	maxcol = versus_slot_max_column(piece, shape, mv->rotation);
	if (mv->column > maxcol)
		return engine_refuse(reason, cap,
		    "column %u is out of range for %c rotation %u: columns 0-%u", mv->column,
		    letter, mv->rotation, maxcol);
	top = slot_top(&p->board, piece, shape, mv->rotation, mv->column);
	if (top > TETROMINO_ROWS && p->blind > 0) /* the row would show the hidden stack */
		return engine_refuse(reason, cap,
		    "%c rotation %u at column %u does not fit: it would reach above row 20",
		    letter, mv->rotation, mv->column);
	if (top > TETROMINO_ROWS)
		return engine_refuse(reason, cap,
		    "%c rotation %u at column %u does not fit: it would reach row %d, above row 20",
		    letter, mv->rotation, mv->column, top);
	return true;
}

/* ---- the turn ---- */

/* Places p's current piece (known to fit), scores it and draws the next. */
static void
place(const struct versus_match *m, struct versus_player *p, unsigned rotation,
    unsigned column, struct versus_player_events *e)
{
	uint16_t items = p->current_items;
	unsigned piece = p->current, shape = p->current_shape;
	bool b2b = false, perfect = false;
	uint64_t points = 0;
	int n;

	unsigned k, c, r, w, width, height, mino = 0;
	const uint16_t *rows;
	bool full[TETROMINO_ROWS] = { false };
	int y;

	/* An odd shape carries the piece's items as versus_odd_items() moves
	 * them, and its cells keep the piece's letter code underneath. */
	if (shape == VERSUS_SHAPE_PIECE) {
		const struct tetromino_shape *s = tetromino_shape(piece, rotation);

		width = s->width;
		height = s->height;
		rows = s->rows;
		y = tetromino_landing(&p->board, piece, rotation, column);
	} else {
		const struct versus_odd_shape *s = versus_odd_shape(shape - 1, rotation);

		width = s->width;
		height = s->height;
		rows = s->rows;
		y = versus_odd_landing(&p->board, shape - 1, rotation, column);
		items = versus_odd_items(items, shape - 1);
	}
	/* Items go onto the cells the piece takes; rows the piece fills are
	 * found before the placement clears them. */
	for (k = 0; k < height; k++) {
		for (c = 0; c < width; c++)
			if (rows[k] >> c & 1u)
				p->items[y + (int)k][column + c] =
				    (uint8_t)VERSUS_MINO_ITEMS(items, mino++);
		full[y + (int)k] = (p->board.rows[y + (int)k] | (unsigned)rows[k] << column) ==
		    TETROMINO_FULL_ROW;
	}
	for (r = 0, w = 0; r < TETROMINO_ROWS; r++) {
		if (!full[r]) {
			if (w != r)
				memcpy(p->items[w], p->items[r], TETROMINO_COLS);
			w++;
			continue;
		}
		for (c = 0; c < TETROMINO_COLS; c++) {
			if (p->items[r][c] == VERSUS_ITEM_NONE)
				continue;
			e->collected++;
			if (p->ninventory < VERSUS_INVENTORY_MAX)
				p->inventory[p->ninventory++] = p->items[r][c];
			else
				e->discarded++;
		}
	}
	for (; w < TETROMINO_ROWS; w++)
		memset(p->items[w], 0, TETROMINO_COLS);
	/* The move was checked, so n is never -1. */
	n = shape == VERSUS_SHAPE_PIECE ? tetromino_place(&p->board, piece, rotation, column)
	    : versus_odd_place(&p->board, shape - 1, rotation, column, piece + 1);
	if (n <= 0) {
		p->combo = -1;
		n = 0;
	} else {
		p->combo++;
		b2b = n == 4 && p->back_to_back;
		perfect = tetromino_board_is_empty(&p->board);
		points = stackfall_clear_points((unsigned)n, p->level, (uint64_t)p->combo, b2b,
		    perfect);
		p->back_to_back = n == 4;
		p->score += points;
		p->lines += (uint32_t)n;
		p->level = 1 + p->lines / 10;
	}
	p->placed++;
	p->current = draw(m, p, &p->current_items, &p->current_shape);

	e->piece = (uint8_t)piece;
	e->shape = (uint8_t)shape;
	e->rotation = (uint8_t)rotation;
	e->column = (uint8_t)column;
	e->lines = (uint8_t)n;
	e->back_to_back = b2b;
	e->perfect_clear = perfect;
	e->combo = p->combo;
	e->points = points;
	e->attack = (uint8_t)versus_attack((unsigned)n, p->combo, b2b, perfect);
}

/* Applies user's oldest item to target (a seat alive when the turn began). */
static void
use_item(struct versus_match *m, unsigned user, unsigned target, struct versus_events *out,
    uint8_t *out_reason)
{
	struct versus_player *u = &m->players[user], *t = &m->players[target];
	struct versus_player_events *e = &out->players[user];
	struct versus_block line;
	struct tetromino_board board;
	uint8_t items[TETROMINO_ROWS][TETROMINO_COLS];
	unsigned item, k;

	if (u->ninventory == 0)
		return;
	item = u->inventory[0];
	for (k = 1; k < u->ninventory; k++)
		u->inventory[k - 1] = u->inventory[k];
	/* The freed slot is cleared, so a state decoded from its bytes is the
	 * same struct as the one that wrote them. */
	u->inventory[--u->ninventory] = VERSUS_ITEM_NONE;
	e->used = (uint8_t)item;
	e->used_on = (uint8_t)target;
	out->hits[out->nhits].target = (uint8_t)target;
	out->hits[out->nhits].item = (uint8_t)item;
	out->nhits++;
	switch (item) {
	case VERSUS_ITEM_ADD_LINE:
		line.lines = 1;
		line.hole = (uint8_t)versus_garbage_hole(m->seed, m->nblocks++);
		if (rise(t, &line) && out_reason[target] == VERSUS_END_NONE)
			out_reason[target] = VERSUS_END_OVERFLOW;
		break;
	case VERSUS_ITEM_CLEAR_LINE:
		clear_bottom(t);
		break;
	case VERSUS_ITEM_NUKE:
		tetromino_board_init(&t->board);
		memset(t->items, 0, sizeof t->items);
		break;
	case VERSUS_ITEM_SWAP:
		if (t == u)
			break;
		board = u->board;
		u->board = t->board;
		t->board = board;
		memcpy(items, u->items, sizeof items);
		memcpy(u->items, t->items, sizeof items);
		memcpy(t->items, items, sizeof items);
		break;
	case VERSUS_ITEM_BLIND:
		t->blind = (uint8_t)(t->blind + VERSUS_BLIND_TURNS > UINT8_MAX ? UINT8_MAX
		    : t->blind + VERSUS_BLIND_TURNS);
		break;
	case VERSUS_ITEM_TRANSFORM:
		/* The preview turns odd now (the current piece and the hold stay
		 * as they are); an odd slot keeps the shape it has. */
		t->transform = (uint8_t)(t->transform + VERSUS_TRANSFORM_TURNS > UINT8_MAX ?
		    UINT8_MAX : t->transform + VERSUS_TRANSFORM_TURNS);
		for (k = 0; k < VERSUS_NEXT; k++)
			if (t->next_shape[k] == VERSUS_SHAPE_PIECE)
				t->next_shape[k] = (uint8_t)(versus_odd_roll(m->seed, target,
				    t->drawn + k) + 1);
		break;
	default:
		break;
	}
}

enum versus_outcome
versus_resolve(struct versus_match *m, const struct versus_move *moves,
    struct versus_events *ev, unsigned *bad_player, char *reason, size_t cap)
{
	struct versus_events local;
	struct versus_events *out = ev != NULL ? ev : &local;
	struct versus_player *p, *t;
	struct versus_player_events *e;
	bool alive[VERSUS_PLAYERS_MAX];
	uint8_t out_reason[VERSUS_PLAYERS_MAX];
	uint8_t nold[VERSUS_PLAYERS_MAX];
	unsigned i, k, piece, nout, target;
	bool overflow;

	if (m->over) {
		engine_refuse(reason, cap, "the match is over");
		return VERSUS_MATCH_OVER;
	}
	for (i = 0; i < m->nplayers; i++) {
		if (!m->players[i].alive || moves[i].kind == VERSUS_MOVE_MISSED)
			continue;
		if (!versus_check_move(m, i, &moves[i], reason, cap)) {
			if (bad_player != NULL)
				*bad_player = i;
			return VERSUS_REFUSED;
		}
	}

	memset(out, 0, sizeof *out);
	out->turn = m->turn + 1;
	out->items = m->item_chance > 0;
	for (i = 0; i < m->nplayers; i++)
		if (m->players[i].blind > 0)
			m->players[i].blind--;
	out->nplayers = m->nplayers;
	for (i = 0; i < m->nplayers; i++) {
		alive[i] = m->players[i].alive;
		out_reason[i] = VERSUS_END_NONE;
		out->players[i].target = VERSUS_NOBODY;
	}

	/* 1. Moves, placements, clears and points, in match order. */
	for (i = 0; i < m->nplayers; i++) {
		if (!alive[i])
			continue;
		p = &m->players[i];
		e = &out->players[i];
		switch (moves[i].kind) {
		case VERSUS_MOVE_RESIGN:
			e->action = VERSUS_ACT_RESIGNED;
			out_reason[i] = VERSUS_END_RESIGNED;
			break;
		case VERSUS_MOVE_PLACE:
			p->missed = 0;
			if (moves[i].hold) {
				uint16_t held = p->current_items;
				uint8_t held_shape = p->current_shape;

				piece = p->current;
				if (p->hold != VERSUS_NO_PIECE) {
					p->current = p->hold;
					p->current_items = p->hold_items;
					p->current_shape = p->hold_shape;
				} else {
					p->current = draw(m, p, &p->current_items, &p->current_shape);
				}
				p->hold = (uint8_t)piece;
				p->hold_items = held;
				/* Held after a Transformation ended, an odd piece is its
				 * tetromino again, as the held ones became. */
				p->hold_shape = p->transform > 0 ? held_shape : VERSUS_SHAPE_PIECE;
				e->held = true;
			}
			e->action = VERSUS_ACT_PLACED;
			place(m, p, moves[i].rotation, moves[i].column, e);
			break;
		default: /* missed */
			p->missed++;
			if (p->missed >= VERSUS_MISSED_MAX) {
				e->action = VERSUS_ACT_TIMED_OUT;
				out_reason[i] = VERSUS_END_MISSED;
				break;
			}
			k = p->current_shape == VERSUS_SHAPE_PIECE ?
			    (p->current == TETROMINO_O ? 4 : 3) :
			    (p->current_shape == VERSUS_ODD_DOT + 1 ? 4 : 3);
			if (!versus_slot_fits(&p->board, p->current, p->current_shape, 0, k)) {
				e->action = VERSUS_ACT_NO_ROOM;
				out_reason[i] = VERSUS_END_TOP_OUT;
				break;
			}
			e->action = VERSUS_ACT_DROPPED;
			place(m, p, 0, k, e);
			break;
		}
	}

	/* 1a. Transformations count down after the placements they shaped (so
	 * a move is checked against the shapes it was sent for); one running
	 * out changes the preview and the hold back, the current piece stays. */
	for (i = 0; i < m->nplayers; i++) {
		p = &m->players[i];
		if (p->transform > 0 && --p->transform == 0) {
			memset(p->next_shape, VERSUS_SHAPE_PIECE, sizeof p->next_shape);
			p->hold_shape = VERSUS_SHAPE_PIECE;
		}
	}

	/* 1b. Item uses, users in match order, each with its oldest item. */
	for (i = 0; i < m->nplayers; i++) {
		if (!alive[i] || moves[i].kind != VERSUS_MOVE_PLACE || moves[i].use == 0)
			continue;
		use_item(m, i, versus_use_target(m, i, moves[i].use), out, out_reason);
	}

	/* 2. Attacks cancel the sender's own queue first. What is queued now
	 * is what may rise in step 4. */
	for (i = 0; i < m->nplayers; i++) {
		if (!alive[i])
			continue;
		e = &out->players[i];
		if (e->attack > 0) {
			e->cancelled = (uint8_t)cancel(&m->players[i], e->attack);
			e->sent = (uint8_t)(e->attack - e->cancelled);
		}
		nold[i] = m->players[i].nqueue;
	}

	/* 3. Sending, senders in match order; each block draws its hole now. */
	for (i = 0; i < m->nplayers; i++) {
		e = &out->players[i];
		if (!alive[i] || e->sent == 0)
			continue;
		target = next_target(m, i, alive);
		m->players[i].cursor = (uint8_t)target;
		e->target = (uint8_t)target;
		e->sent_hole = (uint8_t)versus_garbage_hole(m->seed, m->nblocks++);
		t = &m->players[target];
		if (t->nqueue == VERSUS_QUEUE_MAX) {
			e->sent_lost = true;
			continue;
		}
		t->queue[t->nqueue].lines = e->sent;
		t->queue[t->nqueue].hole = e->sent_hole;
		t->nqueue++;
		t->pending = (uint16_t)(t->pending + e->sent);
		out->players[target].received++;
	}

	/* 4. Rising, for placements that cleared nothing: the blocks queued
	 * before step 3, oldest first. */
	for (i = 0; i < m->nplayers; i++) {
		e = &out->players[i];
		if (!alive[i] || (e->action != VERSUS_ACT_PLACED && e->action != VERSUS_ACT_DROPPED) ||
		    e->lines > 0 || nold[i] == 0)
			continue;
		p = &m->players[i];
		overflow = false;
		for (k = 0; k < nold[i]; k++) {
			overflow |= rise(p, &p->queue[k]);
			e->risen[k] = p->queue[k];
			e->risen_lines = (uint16_t)(e->risen_lines + p->queue[k].lines);
			p->pending = (uint16_t)(p->pending - p->queue[k].lines);
		}
		e->nrisen = nold[i];
		for (k = nold[i]; k < p->nqueue; k++)
			p->queue[k - nold[i]] = p->queue[k];
		p->nqueue = (uint8_t)(p->nqueue - nold[i]);
		if (overflow)
			out_reason[i] = VERSUS_END_OVERFLOW;
	}

	/* 5. Eliminations and places. */
	nout = 0;
	for (i = 0; i < m->nplayers; i++) {
		if (!alive[i])
			continue;
		if (out_reason[i] == VERSUS_END_NONE && topped_out(&m->players[i]))
			out_reason[i] = VERSUS_END_TOP_OUT;
		if (out_reason[i] != VERSUS_END_NONE)
			nout++;
	}
	m->turn++;
	m->nalive = (uint8_t)(m->nalive - nout);
	for (i = 0; i < m->nplayers; i++) {
		if (!alive[i])
			continue;
		p = &m->players[i];
		e = &out->players[i];
		if (out_reason[i] != VERSUS_END_NONE) {
			p->alive = false;
			p->end_reason = out_reason[i];
			p->place = (uint8_t)(m->nalive + 1);
			p->out_turn = m->turn;
			p->nqueue = 0;
			p->pending = 0;
			e->eliminated = true;
			e->end_reason = out_reason[i];
			e->place = p->place;
		} else if (m->nalive == 1) {
			p->place = 1;
			e->place = 1;
		}
	}
	m->over = m->nalive <= 1;
	out->neliminated = (uint8_t)nout;
	out->over = m->over;
	return VERSUS_OK;
}

static uint16_t
shown_items(uint16_t items, unsigned shape)
{
	return shape == VERSUS_SHAPE_PIECE ? items : versus_odd_items(items, shape - 1);
}

void
versus_view(const struct versus_match *m, unsigned viewer, unsigned player,
    struct versus_view *out)
{
	const struct versus_player *p = &m->players[player];
	unsigned k;

	memset(out, 0, sizeof *out);
	versus_board_text(p, out->board_text);
	out->current = p->current;
	out->hold = p->hold;
	out->next_visible = viewer == player;
	for (k = 0; k < VERSUS_NEXT; k++)
		out->next[k] = out->next_visible ? p->next[k] : VERSUS_NO_PIECE;
	out->score = p->score;
	out->lines = p->lines;
	out->level = p->level;
	out->combo = p->combo;
	out->back_to_back = p->back_to_back;
	out->pending = p->pending;
	out->missed = p->missed;
	out->alive = p->alive;
	out->place = p->place;
	out->end_reason = p->end_reason;
	out->blind = p->blind;
	out->transform = p->transform;
	out->current_shape = p->current_shape;
	out->hold_shape = p->hold_shape;
	for (k = 0; k < VERSUS_NEXT; k++)
		out->next_shape[k] = out->next_visible ? p->next_shape[k] : VERSUS_SHAPE_PIECE;
	memset(out->items_text, '.', sizeof out->items_text - 1);
	out->items_text[sizeof out->items_text - 1] = '\0';
	for (k = 0; k + 1 < TETROMINO_ROWS; k++)
		out->items_text[k * (TETROMINO_COLS + 1) + TETROMINO_COLS] = '\n';
	if (p->blind > 0) {
		/* Blind: the locked cells are hidden in every view, the player's own too. */
		memcpy(out->board_text, out->items_text, sizeof out->board_text);
	} else {
		unsigned r, c, it;

		for (r = 0; r < TETROMINO_ROWS; r++)
			for (c = 0; c < TETROMINO_COLS; c++)
				if ((it = p->items[r][c]) != VERSUS_ITEM_NONE)
					out->items_text[(TETROMINO_ROWS - 1 - r) * (TETROMINO_COLS + 1) + c] =
					    VERSUS_ITEM_CHARS[it - 1];
	}
	/* A slot's items as its shape carries them. */
	out->current_items = shown_items(p->current_items, p->current_shape);
	out->hold_items = shown_items(p->hold_items, p->hold_shape);
	for (k = 0; k < VERSUS_NEXT; k++)
		out->next_items[k] = out->next_visible ?
		    shown_items(p->next_items[k], p->next_shape[k]) : 0;
	out->ninventory = p->ninventory;
	memcpy(out->inventory, p->inventory, sizeof out->inventory);
}
