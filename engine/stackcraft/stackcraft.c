/*
 * stackcraft.c: the Stackcraft game on tetromino.c's board and bag.c's
 * stream: shapes, the legal-placement enumerator, steps and the end.
 *
 * The landing. A shape's cells in each of its columns are one vertical run
 * (true of every tetromino orientation), from offset top[c] to bottom[c].
 * The shape can stand at every origin row 0..y of its path exactly when no
 * filled cell lies in rows top[c] .. y + bottom[c] of each of its columns.
 * With first[t][col] = the first filled row at or below row t of col (20
 * when none), the landing row is therefore
 *     y = min over c of (first[top[c]][x + c] - 1 - bottom[c]),
 * and the placement is available exactly when y >= 0 (the spawn at row 0 is
 * then free too). top[c] is 0, 1 or 2, so three such tables per board cover
 * every shape; when the top two rows are empty all three are the column
 * surfaces, and the result is a drop from above. It differs from one only
 * when a filled cell sits above a shape's spawn cells in their column: the
 * shape starts below it.
 *
 * Invariants kept by every step and checked again by stackcraft_decode()
 * (stackcraft_serial.c): no full row, and no empty row below a filled one
 * (a piece always rests on the floor or the stack, in contiguous rows);
 * filled cells = 4 x pieces - 10 x lines; current and next are stream pieces
 * pieces and pieces + 1; a playing run has a legal placement and fewer
 * pieces than its cap. A step validates everything before it writes.
 *
 * Workload: stackcraft_legal_on() is the hot path (every bot enumerates
 * every turn, heuristic bots for every placement of a lookahead); it costs
 * one scan of the board's rows and a few operations per placement.
 */
#include "stackcraft.h"

#include <string.h>

#include "bag.h"

/* The orientations, computed from the spawn shapes by turning their cells
 * clockwise ((x, y) -> (-y, x) with y downward), normalising and dropping
 * repeats; tests/stackcraft checks this table against that computation. */
static const uint8_t norientations[TETROMINO_NPIECES] = { 2, 1, 4, 2, 2, 4, 4 };

static const struct stackcraft_shape shapes[TETROMINO_NPIECES][4] = {
	{ /* I: #### ; vertical */
		{ 4, 1, { { 0, 0 }, { 1, 0 }, { 2, 0 }, { 3, 0 } }, { 0, 0, 0, 0 }, { 0, 0, 0, 0 } },
		{ 1, 4, { { 0, 0 }, { 0, 1 }, { 0, 2 }, { 0, 3 } }, { 0 }, { 3 } },
	},
	{ /* O: ## / ## */
		{ 2, 2, { { 0, 0 }, { 1, 0 }, { 0, 1 }, { 1, 1 } }, { 0, 0 }, { 1, 1 } },
	},
	{ /* T: .#. / ### ; #. / ## / #. ; ### / .#. ; .# / ## / .# */
		{ 3, 2, { { 1, 0 }, { 0, 1 }, { 1, 1 }, { 2, 1 } }, { 1, 0, 1 }, { 1, 1, 1 } },
		{ 2, 3, { { 0, 0 }, { 0, 1 }, { 1, 1 }, { 0, 2 } }, { 0, 1 }, { 2, 1 } },
		{ 3, 2, { { 0, 0 }, { 1, 0 }, { 2, 0 }, { 1, 1 } }, { 0, 0, 0 }, { 0, 1, 0 } },
		{ 2, 3, { { 1, 0 }, { 0, 1 }, { 1, 1 }, { 1, 2 } }, { 1, 0 }, { 1, 2 } },
	},
	{ /* S: .## / ##. ; #. / ## / .# */
		{ 3, 2, { { 1, 0 }, { 2, 0 }, { 0, 1 }, { 1, 1 } }, { 1, 0, 0 }, { 1, 1, 0 } },
		{ 2, 3, { { 0, 0 }, { 0, 1 }, { 1, 1 }, { 1, 2 } }, { 0, 1 }, { 1, 2 } },
	},
	{ /* Z: ##. / .## ; .# / ## / #. */
		{ 3, 2, { { 0, 0 }, { 1, 0 }, { 1, 1 }, { 2, 1 } }, { 0, 0, 1 }, { 0, 1, 1 } },
		{ 2, 3, { { 1, 0 }, { 0, 1 }, { 1, 1 }, { 0, 2 } }, { 1, 0 }, { 2, 1 } },
	},
	{ /* J: #.. / ### ; ## / #. / #. ; ### / ..# ; .# / .# / ## */
		{ 3, 2, { { 0, 0 }, { 0, 1 }, { 1, 1 }, { 2, 1 } }, { 0, 1, 1 }, { 1, 1, 1 } },
		{ 2, 3, { { 0, 0 }, { 1, 0 }, { 0, 1 }, { 0, 2 } }, { 0, 0 }, { 2, 0 } },
		{ 3, 2, { { 0, 0 }, { 1, 0 }, { 2, 0 }, { 2, 1 } }, { 0, 0, 0 }, { 0, 0, 1 } },
		{ 2, 3, { { 1, 0 }, { 1, 1 }, { 0, 2 }, { 1, 2 } }, { 2, 0 }, { 2, 2 } },
	},
	{ /* L: ..# / ### ; #. / #. / ## ; ### / #.. ; ## / .# / .# */
		{ 3, 2, { { 2, 0 }, { 0, 1 }, { 1, 1 }, { 2, 1 } }, { 1, 1, 0 }, { 1, 1, 1 } },
		{ 2, 3, { { 0, 0 }, { 0, 1 }, { 0, 2 }, { 1, 2 } }, { 0, 2 }, { 2, 2 } },
		{ 3, 2, { { 0, 0 }, { 1, 0 }, { 2, 0 }, { 0, 1 } }, { 0, 0, 0 }, { 1, 0, 0 } },
		{ 2, 3, { { 0, 0 }, { 1, 0 }, { 1, 1 }, { 1, 2 } }, { 0, 0 }, { 0, 2 } },
	},
};

static const uint32_t points_for[5] = { 0, 100, 300, 500, 800 };

_Static_assert(sizeof ((struct stackcraft_action *)0)->cells == 8,
    "stackcraft_legal_on moves the four cells as one 8-byte word");

unsigned
stackcraft_orientations(unsigned piece)
{
	return piece < TETROMINO_NPIECES ? norientations[piece] : 0;
}

const struct stackcraft_shape *
stackcraft_shape(unsigned piece, unsigned rotation)
{
	if (piece >= TETROMINO_NPIECES || rotation >= norientations[piece])
		return NULL;
	return &shapes[piece][rotation];
}

const char *
stackcraft_status_name(unsigned status)
{
	return status == STACKCRAFT_OVER ? "over" : "playing";
}

const char *
stackcraft_end_name(unsigned end_reason)
{
	switch (end_reason) {
	case STACKCRAFT_END_TOP_OUT: return "top_out";
	case STACKCRAFT_END_CAPPED: return "capped";
	default: return NULL;
	}
}

unsigned
stackcraft_board_get(const struct tetromino_board *b, unsigned x, unsigned y)
{
	return tetromino_board_get(b, STACKCRAFT_ROWS - 1 - y, x);
}

void
stackcraft_board(const struct stackcraft *g, uint8_t out[STACKCRAFT_ROWS][STACKCRAFT_COLS])
{
	unsigned x, y;
	uint32_t row;

	for (y = 0; y < STACKCRAFT_ROWS; y++) {
		row = g->board.cells[STACKCRAFT_ROWS - 1 - y];
		for (x = 0; x < STACKCRAFT_COLS; x++)
			out[y][x] = (uint8_t)(row >> (3 * x) & 7u);
	}
}

/* first[t][col]: the first filled row at or below row t (y downward) of col,
 * or 20; t = 0, 1, 2. */
struct surfaces {
	int8_t first[3][STACKCRAFT_COLS];
};

static void
surfaces(const struct tetromino_board *b, struct surfaces *sf)
{
	int8_t (*first)[STACKCRAFT_COLS] = sf->first;
	unsigned seen = 0, fresh, c;
	int r;

	for (c = 0; c < STACKCRAFT_COLS; c++)
		first[2][c] = STACKCRAFT_ROWS;
	/* rows[r] is y = 19 - r: rows 17 .. 0 are y = 2 .. 19. */
	for (r = STACKCRAFT_ROWS - 3; r >= 0 && seen != TETROMINO_FULL_ROW; r--) {
		fresh = b->rows[r] & ~seen;
		for (; fresh != 0; fresh &= fresh - 1) {
			c = (unsigned)__builtin_ctz(fresh);
			first[2][c] = (int8_t)(STACKCRAFT_ROWS - 1 - r);
		}
		seen |= b->rows[r];
	}
	for (c = 0; c < STACKCRAFT_COLS; c++) {
		first[1][c] = b->rows[STACKCRAFT_ROWS - 2] >> c & 1u ? 1 : first[2][c];
		first[0][c] = b->rows[STACKCRAFT_ROWS - 1] >> c & 1u ? 0 : first[1][c];
	}
}

/* The landing row of s at column x, or a negative number when the spawn is
 * blocked. */
static int
landing(const struct surfaces *sf, const struct stackcraft_shape *s, unsigned x)
{
	int y = STACKCRAFT_ROWS, v;
	unsigned c;

	for (c = 0; c < s->width; c++) {
		v = sf->first[s->top[c]][x + c] - 1 - s->bottom[c];
		if (v < y)
			y = v;
	}
	return y;
}

static inline void
write_id(unsigned rotation, unsigned x, char out[STACKCRAFT_ID_SIZE])
{
	out[0] = 'r';
	out[1] = (char)('0' + rotation % 10);
	out[2] = 'x';
	out[3] = (char)('0' + x % 10);
	out[4] = '\0';
}

void
stackcraft_action_id(unsigned rotation, unsigned x, char out[STACKCRAFT_ID_SIZE])
{
	write_id(rotation, x, out);
}

bool
stackcraft_parse_id(const char *text, size_t len, unsigned *rotation, unsigned *x)
{
	if (text == NULL || len != 4 || text[0] != 'r' || text[2] != 'x' || text[1] < '0' ||
	    text[1] > '9' || text[3] < '0' || text[3] > '9')
		return false;
	*rotation = (unsigned)(text[1] - '0');
	*x = (unsigned)(text[3] - '0');
	return true;
}

size_t
stackcraft_legal_on(const struct tetromino_board *b, unsigned piece,
    struct stackcraft_action *out, size_t cap)
{
	/* The cells move as one 8-byte word: adding x to the even bytes and y
	 * to the odd ones never carries (offsets <= 3, x <= 9, y <= 19). The
	 * masks are built from bytes so that the byte order does not matter. */
	static const uint8_t even[8] = { 1, 0, 1, 0, 1, 0, 1, 0 }, odd[8] = { 0, 1, 0, 1, 0, 1, 0, 1 };
	const struct stackcraft_shape *s;
	struct stackcraft_action *a;
	struct surfaces sf;
	uint64_t xs, ys, cells;
	unsigned rot, x;
	size_t n = 0;
	int y;

	if (piece >= TETROMINO_NPIECES)
		return 0;
	memcpy(&xs, even, sizeof xs);
	memcpy(&ys, odd, sizeof ys);
	surfaces(b, &sf);
	for (rot = 0; rot < norientations[piece]; rot++) {
		s = &shapes[piece][rot];
		for (x = 0; x + s->width <= STACKCRAFT_COLS; x++) {
			y = landing(&sf, s, x);
			if (y < 0)
				continue;
			if (n < cap) {
				a = &out[n];
				write_id(rot, x, a->id);
				a->rotation = (uint8_t)rot;
				a->x = (uint8_t)x;
				a->y = (uint8_t)y;
				memcpy(&cells, s->cells, sizeof cells);
				cells += x * xs + (unsigned)y * ys;
				memcpy(a->cells, &cells, sizeof cells);
			}
			n++;
		}
	}
	return n;
}

bool
stackcraft_has_legal(const struct tetromino_board *b, unsigned piece)
{
	const struct stackcraft_shape *s;
	struct surfaces sf;
	unsigned rot, x;

	if (piece >= TETROMINO_NPIECES)
		return false;
	surfaces(b, &sf);
	for (rot = 0; rot < norientations[piece]; rot++) {
		s = &shapes[piece][rot];
		for (x = 0; x + s->width <= STACKCRAFT_COLS; x++)
			if (landing(&sf, s, x) >= 0)
				return true;
	}
	return false;
}

size_t
stackcraft_legal(const struct stackcraft *g, struct stackcraft_action *out, size_t cap)
{
	if (g->status == STACKCRAFT_OVER)
		return 0;
	return stackcraft_legal_on(&g->board, g->current, out, cap);
}

/* Writes s at (x, y) in colour piece + 1 and clears; the cells are known to
 * be inside and empty. */
static int
put(struct tetromino_board *b, unsigned piece, const struct stackcraft_shape *s, unsigned x,
    unsigned y)
{
	unsigned k, cx, r, full = 0;

	for (k = 0; k < 4; k++) {
		cx = x + s->cells[k][0];
		r = STACKCRAFT_ROWS - 1 - (y + s->cells[k][1]);
		b->rows[r] = (uint16_t)(b->rows[r] | 1u << cx);
		b->cells[r] |= (uint32_t)(piece + 1) << (3 * cx);
	}
	for (k = 0; k < s->height; k++)
		full |= b->rows[STACKCRAFT_ROWS - 1 - (y + k)] == TETROMINO_FULL_ROW;
	return full ? (int)tetromino_clear_lines(b) : 0;
}

int
stackcraft_place(const struct tetromino_board *b, unsigned piece,
    const struct stackcraft_action *a, struct tetromino_board *after)
{
	const struct stackcraft_shape *s = stackcraft_shape(piece, a->rotation);
	unsigned k, r;

	if (s == NULL || a->x + s->width > STACKCRAFT_COLS || a->y + s->height > STACKCRAFT_ROWS)
		return -1;
	for (k = 0; k < 4; k++) {
		r = STACKCRAFT_ROWS - 1 - (a->y + s->cells[k][1]);
		if (b->rows[r] >> (a->x + s->cells[k][0]) & 1u)
			return -1;
	}
	if (after != b)
		*after = *b;
	return put(after, piece, s, a->x, a->y);
}

/* ---- the run ---- */

/* Stream piece i, for i = pieces + 1 of a run that only moves forward: one
 * cached bag is enough. */
static uint8_t
stream_at(struct stackcraft *g, uint64_t i)
{
	if (i / BAG_SIZE != g->bag_number) {
		g->bag_number = i / BAG_SIZE;
		bag_shuffle(g->seed, g->bag_number, g->bag);
	}
	return g->bag[i % BAG_SIZE];
}

bool
stackcraft_init(struct stackcraft *g, uint64_t seed, uint64_t cap)
{
	if (seed > STACKCRAFT_SEED_MAX || cap > STACKCRAFT_CAP_MAX)
		return false;
	/* The whole struct, padding included, so that equal runs compare
	 * equal byte for byte. */
	memset(g, 0, sizeof *g);
	tetromino_board_init(&g->board);
	g->seed = seed;
	g->cap = cap;
	g->status = STACKCRAFT_PLAYING;
	g->end_reason = STACKCRAFT_END_NONE;
	g->bag_number = 0;
	bag_shuffle(seed, 0, g->bag);
	g->current = g->bag[0];
	g->next = g->bag[1];
	return true;
}

static enum stackcraft_outcome
report(struct stackcraft_report *rep, enum stackcraft_outcome outcome, unsigned lines,
    uint32_t points)
{
	if (rep != NULL) {
		rep->outcome = outcome;
		rep->lines = (uint8_t)lines;
		rep->points = points;
	}
	return outcome;
}

static enum stackcraft_outcome
refuse_over(const struct stackcraft *g, struct stackcraft_report *rep)
{
	if (rep != NULL)
		engine_refuse(rep->message, sizeof rep->message, "the game is over (%s)",
		    stackcraft_end_name(g->end_reason));
	return report(rep, STACKCRAFT_GAME_OVER, 0, 0);
}

/* Finds the landing of the current piece at rotation and x; on refusal
 * fills rep and returns -1. */
static int
check_step(const struct stackcraft *g, unsigned rotation, unsigned x,
    struct stackcraft_report *rep)
{
	char *buf = rep != NULL ? rep->message : NULL;
	size_t cap = rep != NULL ? sizeof rep->message : 0;
	char letter = tetromino_letter(g->current);
	const struct stackcraft_shape *s;
	struct surfaces sf;
	unsigned n = norientations[g->current];
	int y;

	if (rotation >= n) {
		if (n == 1)
			engine_refuse(buf, cap, "r%ux%u: %c has one orientation, rotation 0", rotation,
			    x, letter);
		else
			engine_refuse(buf, cap, "r%ux%u: %c has %u orientations, rotations 0-%u",
			    rotation, x, letter, n, n - 1);
		return -1;
	}
	s = &shapes[g->current][rotation];
	if (x + s->width > STACKCRAFT_COLS) {
		engine_refuse(buf, cap, "r%ux%u: x is out of range for %c rotation %u: x 0-%u",
		    rotation, x, letter, rotation, STACKCRAFT_COLS - s->width);
		return -1;
	}
	surfaces(&g->board, &sf);
	y = landing(&sf, s, x);
	if (y < 0)
		engine_refuse(buf, cap,
		    "r%ux%u is unavailable: %c rotation %u placed at y = 0 overlaps filled cells",
		    rotation, x, letter, rotation);
	return y;
}

enum stackcraft_outcome
stackcraft_step(struct stackcraft *g, unsigned rotation, unsigned x,
    struct stackcraft_report *rep)
{
	struct engine_msg m = engine_msg_start(NULL, 0);
	unsigned piece = g->current;
	uint32_t points;
	int y, n;

	if (g->status == STACKCRAFT_OVER)
		return refuse_over(g, rep);
	y = check_step(g, rotation, x, rep);
	if (y < 0)
		return report(rep, STACKCRAFT_REFUSED, 0, 0);

	n = put(&g->board, piece, &shapes[piece][rotation], x, (unsigned)y);
	points = points_for[n];
	g->score += points;
	g->lines += (unsigned)n;
	g->pieces++;
	g->current = g->next;
	g->next = stream_at(g, g->pieces + 1);
	/* Top-out first: a run the rules end is never reported as capped. */
	if (!stackcraft_has_legal(&g->board, g->current)) {
		g->status = STACKCRAFT_OVER;
		g->end_reason = STACKCRAFT_END_TOP_OUT;
	} else if (g->cap != 0 && g->pieces >= g->cap) {
		g->status = STACKCRAFT_OVER;
		g->end_reason = STACKCRAFT_END_CAPPED;
	}

	if (rep != NULL)
		m = engine_msg_start(rep->message, sizeof rep->message);
	if (m.cap > 0) {
		char what[3] = { tetromino_letter(piece), ' ', '\0' };
		char id[STACKCRAFT_ID_SIZE];

		write_id(rotation, x, id);
		engine_msg_str(&m, "placed ");
		engine_msg_str(&m, what);
		engine_msg_str(&m, id);
		engine_msg_str(&m, " at y ");
		engine_msg_uint(&m, (unsigned)y);
		if (n > 0) {
			engine_msg_str(&m, ": ");
			engine_msg_uint(&m, (unsigned)n);
			engine_msg_str(&m, n == 1 ? " line, +" : " lines, +");
			engine_msg_uint(&m, points);
		}
		if (g->status == STACKCRAFT_OVER)
			engine_msg_game_over(&m, stackcraft_end_name(g->end_reason));
	}
	return report(rep, STACKCRAFT_OK, (unsigned)n, points);
}

enum stackcraft_outcome
stackcraft_step_id(struct stackcraft *g, const char *text, size_t len,
    struct stackcraft_report *rep)
{
	unsigned rotation, x;
	size_t i;
	bool plain = len <= 16;

	if (g->status == STACKCRAFT_OVER)
		return refuse_over(g, rep);
	if (stackcraft_parse_id(text, len, &rotation, &x))
		return stackcraft_step(g, rotation, x, rep);
	/* Quote the id only when it is short printable ASCII. */
	for (i = 0; plain && i < len; i++)
		plain = text[i] >= 0x20 && text[i] < 0x7f;
	if (rep != NULL) {
		if (plain && len > 0)
			engine_refuse(rep->message, sizeof rep->message,
			    "\"%.*s\" is not an action id: ids are r<rotation>x<x>, one digit each, "
			    "such as r1x4", (int)len, text);
		else
			engine_refuse(rep->message, sizeof rep->message,
			    "not an action id: ids are r<rotation>x<x>, one digit each, such as r1x4");
	}
	return report(rep, STACKCRAFT_REFUSED, 0, 0);
}
