/*
 * hatetris.c: the HATETRIS run and its supplier on top of tetromino.c.
 *
 * The supplier works on a small private position (occupancy rows, column
 * heights and the stack's top) rather than on struct tetromino_board: it
 * never needs letters, and it rates a placement from the heights alone. A
 * placement that clears nothing leaves the stack's top at max(top, piece
 * top); one that clears rows is rare and is worked out row by row. Depth 1
 * rates every placement of the seven pieces (162 on a low board, about 130
 * on a typical one); depth 2 builds the board after each of them and rates
 * as many again on each, about 18,000 in all on typical boards and 26,000
 * at most, which is the figure to keep small (bench hatetris).
 *
 * Seen boards are asked lazily: all ratings first, then the pieces in supply
 * order (lowest rating, then S Z O I L J T) until one has no placement
 * leading to a seen board. That gives the same piece as deciding rule 1 for
 * every piece first, with far fewer questions. At depth 2 a placement's
 * value is skipped when it cannot raise the piece's best (the second-level
 * ratings bound it from both sides) and needs no question when all seven
 * second-level ratings are equal.
 *
 * Invariants of a run (checked again by hatetris_decode): the board has no
 * full row and no empty row under a filled one; cells = 4 * pieces - 10 *
 * lines; status is OVER exactly when end_reason is set; a playing run's
 * piece fits somewhere. Commands validate before they write, so a refusal
 * leaves the struct byte for byte as it was.
 */
#include "hatetris.h"

#include <string.h>

#include "tetromino_serial.h"

const uint8_t hatetris_order[TETROMINO_NPIECES] = {
	TETROMINO_S, TETROMINO_Z, TETROMINO_O, TETROMINO_I, TETROMINO_L, TETROMINO_J, TETROMINO_T,
};

static const char *const end_names[] = { NULL, "top_out", "capped", "abandoned" };

const char *
hatetris_status_name(unsigned status)
{
	return status == HATETRIS_OVER ? "over" : "playing";
}

const char *
hatetris_end_name(unsigned end_reason)
{
	return end_reason < sizeof end_names / sizeof end_names[0] ? end_names[end_reason] : NULL;
}

/* ---- the supplier ---- */

/* A board as the supplier sees it. */
struct pos {
	uint16_t rows[TETROMINO_ROWS]; /* occupancy, bit c = column c */
	uint8_t h[TETROMINO_COLS];     /* column heights, 0..20 */
	uint8_t top;                   /* highest filled row + 1 = max of h, 0..20 */
};

/* One supplier call: the oracle and what it cost. */
struct search {
	hatetris_seen_fn seen;
	void *ctx;
	uint32_t lookups, placements;
};

static void
pos_heights(struct pos *p)
{
	unsigned seen = 0, fresh, c;
	int r;

	memset(p->h, 0, sizeof p->h);
	p->top = 0;
	for (r = TETROMINO_ROWS - 1; r >= 0 && seen != TETROMINO_FULL_ROW; r--) {
		fresh = p->rows[r] & ~seen;
		if (fresh == 0)
			continue;
		if (seen == 0)
			p->top = (uint8_t)(r + 1);
		for (c = 0; c < TETROMINO_COLS; c++)
			if (fresh >> c & 1u)
				p->h[c] = (uint8_t)(r + 1);
		seen |= fresh;
	}
}

static void
pos_from_board(const struct tetromino_board *b, struct pos *p)
{
	memcpy(p->rows, b->rows, sizeof p->rows);
	pos_heights(p);
}

static int
landing(const struct pos *p, const struct tetromino_shape *s, unsigned col)
{
	int y = 0, v;
	unsigned k;

	for (k = 0; k < s->width; k++) {
		v = p->h[col + k] - s->bottom[k];
		if (v > y)
			y = v;
	}
	return y;
}

/* Bit k set when row y + k is full once the piece is in. */
static unsigned
full_rows(const struct pos *p, const struct tetromino_shape *s, unsigned col, int y)
{
	unsigned k, full = 0;

	for (k = 0; k < s->height; k++)
		if ((p->rows[y + (int)k] | (unsigned)s->rows[k] << col) == TETROMINO_FULL_ROW)
			full |= 1u << k;
	return full;
}

static unsigned
popcount4(unsigned x)
{
	return (x & 1u) + (x >> 1 & 1u) + (x >> 2 & 1u) + (x >> 3 & 1u);
}

/* Empty rows above the stack after the placement and its clears. */
static int
rating_after(const struct pos *p, const struct tetromino_shape *s, int y, unsigned full)
{
	int t = y + s->height > p->top ? y + s->height : p->top, r, below;

	if (full == 0)
		return TETROMINO_ROWS - t;
	/* The highest row that stays and is not empty, moved down by the
	 * cleared rows under it. */
	for (r = t - 1; r >= 0; r--) {
		if (r >= y && r < y + s->height && (full >> (r - y) & 1u))
			continue;
		if (p->rows[r] != 0 || (r >= y && r < y + s->height && s->rows[r - y] != 0))
			break;
	}
	if (r < 0)
		return TETROMINO_ROWS;
	below = 0;
	if (r > y)
		below = (int)popcount4(full & ((1u << (r - y < s->height ? r - y : s->height)) - 1u));
	return TETROMINO_ROWS - (r + 1 - below);
}

/* The position after the placement and its clears. */
static void
apply(const struct pos *p, const struct tetromino_shape *s, unsigned col, int y, unsigned full,
    struct pos *out)
{
	unsigned k, r, w;

	memcpy(out->rows, p->rows, sizeof out->rows);
	for (k = 0; k < s->height; k++)
		out->rows[y + (int)k] = (uint16_t)(out->rows[y + (int)k] | s->rows[k] << col);
	if (full == 0) {
		memcpy(out->h, p->h, sizeof out->h);
		for (k = 0; k < s->width; k++)
			out->h[col + k] = (uint8_t)(y + s->top[k] + 1);
		out->top = (uint8_t)(y + s->height > p->top ? y + s->height : p->top);
		return;
	}
	for (r = 0, w = 0; r < TETROMINO_ROWS; r++)
		if (out->rows[r] != TETROMINO_FULL_ROW)
			out->rows[w++] = out->rows[r];
	for (; w < TETROMINO_ROWS; w++)
		out->rows[w] = 0;
	pos_heights(out);
}

/* Four rows are exactly 40 bits, five bytes: the key is five such groups. */
static void
key_of(const uint16_t *rows, uint8_t key[HATETRIS_KEY_BYTES])
{
	unsigned g, r;
	uint64_t v;

	for (g = 0; g < 5; g++) {
		v = 0;
		for (r = 0; r < 4; r++)
			v |= (uint64_t)rows[4 * g + r] << (10 * r);
		engine_put_le(key + 5 * g, v, 5);
	}
}

void
hatetris_board_key(const struct tetromino_board *b, uint8_t key[HATETRIS_KEY_BYTES])
{
	key_of(b->rows, key);
}

/* Lines of a run after n more; the unknown count stays unknown. */
static uint32_t
add_lines(uint32_t lines, unsigned n)
{
	return lines >= HATETRIS_LINES_UNKNOWN - n ? HATETRIS_LINES_UNKNOWN : lines + n;
}

/* Depth-1 ratings of the seven pieces on p, indexed by piece. */
static void
rate1(const struct pos *p, int8_t rating[TETROMINO_NPIECES], struct search *sr)
{
	const struct tetromino_shape *s;
	unsigned piece, rot, col;
	int y, best, v;

	for (piece = 0; piece < TETROMINO_NPIECES; piece++) {
		best = HATETRIS_RATING_NO_PLACEMENT;
		for (rot = 0; rot < TETROMINO_NROTATIONS; rot++) {
			if (tetromino_canonical_rotation(piece, rot) != rot)
				continue;
			s = tetromino_shape(piece, rot);
			for (col = 0; col + s->width <= TETROMINO_COLS; col++) {
				y = landing(p, s, col);
				if (y + s->height > TETROMINO_ROWS)
					continue;
				v = rating_after(p, s, y, full_rows(p, s, col, y));
				sr->placements++;
				if (v > best)
					best = v;
			}
		}
		rating[piece] = (int8_t)best;
	}
}

/* Whether some placement of piece on p leaves a board seen in the run;
 * lines is the run's count on p. */
static bool
repeats(const struct pos *p, uint32_t lines, unsigned piece, struct search *sr)
{
	const struct tetromino_shape *s;
	struct pos after;
	uint8_t key[HATETRIS_KEY_BYTES];
	unsigned rot, col, full, n;
	bool ask;
	int y;

	for (rot = 0; rot < TETROMINO_NROTATIONS; rot++) {
		if (tetromino_canonical_rotation(piece, rot) != rot)
			continue;
		s = tetromino_shape(piece, rot);
		for (col = 0; col + s->width <= TETROMINO_COLS; col++) {
			y = landing(p, s, col);
			if (y + s->height > TETROMINO_ROWS)
				continue;
			full = full_rows(p, s, col, y);
			n = popcount4(full);
			ask = sr->seen != NULL && add_lines(lines, n) >= 2;
			if (n == 0 && !ask)
				continue; /* it cannot be empty and needs no question */
			apply(p, s, col, y, full, &after);
			if (after.top == 0)
				return true; /* the empty start board */
			if (!ask)
				continue;
			key_of(after.rows, key);
			sr->lookups++;
			if (sr->seen(sr->ctx, key))
				return true;
		}
	}
	return false;
}

/* The supply order for these ratings: lowest first, ties in S Z O I L J T. */
static void
supply_order(const int8_t rating[TETROMINO_NPIECES], uint8_t sorted[TETROMINO_NPIECES])
{
	unsigned i, j;
	uint8_t q;

	memcpy(sorted, hatetris_order, TETROMINO_NPIECES);
	for (i = 1; i < TETROMINO_NPIECES; i++) {
		q = sorted[i];
		for (j = i; j > 0 && rating[sorted[j - 1]] > rating[q]; j--)
			sorted[j] = sorted[j - 1];
		sorted[j] = q;
	}
}

/* Rules 1-3 given the ratings. */
static unsigned
pick(const struct pos *p, uint32_t lines, const int8_t rating[TETROMINO_NPIECES],
    struct search *sr, uint8_t *checked, uint8_t *repeated, bool *fallback)
{
	uint8_t sorted[TETROMINO_NPIECES];
	unsigned i;

	supply_order(rating, sorted);
	*checked = 0;
	*repeated = 0;
	*fallback = false;
	for (i = 0; i < TETROMINO_NPIECES; i++) {
		*checked = (uint8_t)(*checked | 1u << sorted[i]);
		if (!repeats(p, lines, sorted[i], sr))
			return sorted[i];
		*repeated = (uint8_t)(*repeated | 1u << sorted[i]);
	}
	*fallback = true;
	return sorted[0];
}

/* What the depth-1 supplier's piece is worth to the player on p: its
 * rating. The answer lies between the lowest and the highest of the seven
 * ratings; when the highest is at most floor the caller (keeping a maximum
 * that is already floor) cannot use it, and the lowest is returned without
 * asking anything. */
static int
value1(const struct pos *p, uint32_t lines, int floor, struct search *sr)
{
	int8_t rating[TETROMINO_NPIECES];
	uint8_t checked, repeated;
	bool fallback;
	int lo = 127, hi = -128;
	unsigned q;

	rate1(p, rating, sr);
	for (q = 0; q < TETROMINO_NPIECES; q++) {
		if (rating[q] < lo)
			lo = rating[q];
		if (rating[q] > hi)
			hi = rating[q];
	}
	if (hi <= floor || lo == hi)
		return lo; /* below floor anyway, or the same whichever is chosen */
	return rating[pick(p, lines, rating, sr, &checked, &repeated, &fallback)];
}

/* Depth-2 ratings of the seven pieces on p. */
static void
rate2(const struct pos *p, uint32_t lines, int8_t rating[TETROMINO_NPIECES], struct search *sr)
{
	const struct tetromino_shape *s;
	struct pos after;
	unsigned piece, rot, col, full;
	int y, best, v;

	for (piece = 0; piece < TETROMINO_NPIECES; piece++) {
		best = HATETRIS_RATING_NO_PLACEMENT2;
		for (rot = 0; rot < TETROMINO_NROTATIONS; rot++) {
			if (tetromino_canonical_rotation(piece, rot) != rot)
				continue;
			s = tetromino_shape(piece, rot);
			for (col = 0; col + s->width <= TETROMINO_COLS; col++) {
				y = landing(p, s, col);
				if (y + s->height > TETROMINO_ROWS)
					continue;
				full = full_rows(p, s, col, y);
				sr->placements++;
				apply(p, s, col, y, full, &after);
				v = value1(&after, add_lines(lines, popcount4(full)), best, sr);
				if (v > best)
					best = v;
			}
		}
		rating[piece] = (int8_t)best;
	}
}

unsigned
hatetris_choose(const struct tetromino_board *b, uint32_t lines, unsigned depth,
    hatetris_seen_fn seen, void *ctx, struct hatetris_choice *detail)
{
	struct search sr = { seen, ctx, 0, 0 };
	struct pos p;
	int8_t rating[TETROMINO_NPIECES];
	uint8_t checked, repeated;
	bool fallback;
	unsigned piece;

	pos_from_board(b, &p);
	if (depth == 2)
		rate2(&p, lines, rating, &sr);
	else
		rate1(&p, rating, &sr);
	piece = pick(&p, lines, rating, &sr, &checked, &repeated, &fallback);
	if (detail != NULL) {
		detail->piece = (uint8_t)piece;
		memcpy(detail->rating, rating, sizeof detail->rating);
		detail->checked = checked;
		detail->repeats = repeated;
		detail->fallback = fallback;
		detail->lookups = sr.lookups;
		detail->placements = sr.placements;
	}
	return piece;
}

/* ---- the run ---- */

static struct engine_msg
msg_start(struct hatetris_report *rep)
{
	return rep != NULL ? engine_msg_start(rep->message, sizeof rep->message) : engine_msg_start(NULL, 0);
}

static enum hatetris_outcome
report(struct hatetris_report *rep, enum hatetris_outcome outcome, unsigned lines, unsigned next)
{
	if (rep != NULL) {
		rep->outcome = outcome;
		rep->lines = (uint8_t)lines;
		rep->next = (uint8_t)next;
	}
	return outcome;
}

static enum hatetris_outcome
refuse_over(const struct hatetris *g, struct hatetris_report *rep)
{
	if (rep != NULL)
		engine_refuse(rep->message, sizeof rep->message, "the game is over (%s)",
		    hatetris_end_name(g->end_reason));
	return report(rep, HATETRIS_GAME_OVER, 0, g->current);
}

static uint32_t
pieces_limit(const struct hatetris *g)
{
	return g->cap != HATETRIS_NO_CAP ? g->cap : HATETRIS_PIECES_MAX;
}

static void
end_run(struct hatetris *g, enum hatetris_end why)
{
	g->status = HATETRIS_OVER;
	g->end_reason = (uint8_t)why;
}

bool
hatetris_init(struct hatetris *g, unsigned depth, uint32_t cap, hatetris_seen_fn seen,
    void *ctx)
{
	if (depth != 1 && depth != 2)
		return false;
	memset(g, 0, sizeof *g);
	tetromino_board_init(&g->board);
	g->depth = (uint8_t)depth;
	g->cap = cap;
	g->status = HATETRIS_PLAYING;
	g->end_reason = HATETRIS_END_NONE;
	g->current = (uint8_t)hatetris_choose(&g->board, 0, depth, seen, ctx, NULL);
	return true;
}

/* Checks a placement of the current piece; on refusal fills rep. */
static bool
placement_ok(const struct hatetris *g, unsigned rotation, unsigned column,
    struct hatetris_report *rep)
{
	return tetromino_placement_ok(&g->board, g->current, rotation, column,
	    rep != NULL ? rep->message : NULL, rep != NULL ? sizeof rep->message : 0);
}

enum hatetris_outcome
hatetris_place(struct hatetris *g, unsigned rotation, unsigned column, hatetris_seen_fn seen,
    void *ctx, struct hatetris_report *rep)
{
	struct engine_msg m;
	unsigned piece = g->current;
	int n;

	if (g->status == HATETRIS_OVER)
		return refuse_over(g, rep);
	if (!placement_ok(g, rotation, column, rep))
		return report(rep, HATETRIS_REFUSED, 0, g->current);

	n = tetromino_place(&g->board, piece, rotation, column);
	g->lines += (uint32_t)n;
	g->pieces++;
	g->current = (uint8_t)hatetris_choose(&g->board, g->lines, g->depth, seen, ctx, NULL);
	if (g->pieces >= pieces_limit(g))
		end_run(g, HATETRIS_END_CAPPED);
	else if (!tetromino_can_place(&g->board, g->current))
		end_run(g, HATETRIS_END_TOP_OUT);

	m = msg_start(rep);
	tetromino_say_placement(&m, "placed", piece, rotation, column);
	if (n > 0) {
		engine_msg_str(&m, ": ");
		engine_msg_uint(&m, (unsigned)n);
		engine_msg_str(&m, n == 1 ? " line" : " lines");
	}
	engine_msg_str(&m, "; next piece ");
	engine_msg_char(&m, tetromino_letter(g->current));
	if (g->status == HATETRIS_OVER)
		engine_msg_game_over(&m, hatetris_end_name(g->end_reason));
	return report(rep, HATETRIS_OK, (unsigned)n, g->current);
}

enum hatetris_outcome
hatetris_abandon(struct hatetris *g, struct hatetris_report *rep)
{
	struct engine_msg m;

	if (g->status == HATETRIS_OVER)
		return refuse_over(g, rep);
	end_run(g, HATETRIS_END_ABANDONED);
	m = msg_start(rep);
	engine_msg_str(&m, "abandoned: ");
	engine_msg_uint(&m, g->lines);
	engine_msg_str(&m, g->lines == 1 ? " line, " : " lines, ");
	engine_msg_uint(&m, g->pieces);
	engine_msg_str(&m, g->pieces == 1 ? " piece" : " pieces");
	return report(rep, HATETRIS_OK, 0, g->current);
}

enum hatetris_outcome
hatetris_options(const struct hatetris *g, struct tetromino_option *out, size_t cap,
    size_t *count, struct hatetris_report *rep)
{
	struct engine_msg m;
	size_t n;

	if (g->status == HATETRIS_OVER)
		return refuse_over(g, rep);
	m = msg_start(rep);
	n = tetromino_say_options(&g->board, g->current, out, cap, &m);
	if (count != NULL)
		*count = n;
	return report(rep, HATETRIS_OK, 0, g->current);
}

enum hatetris_outcome
hatetris_preview(const struct hatetris *g, unsigned rotation, unsigned column,
    struct tetromino_preview *pv, struct hatetris_report *rep)
{
	struct engine_msg m;
	unsigned n;

	if (g->status == HATETRIS_OVER)
		return refuse_over(g, rep);
	if (!placement_ok(g, rotation, column, rep))
		return report(rep, HATETRIS_REFUSED, 0, g->current);
	m = msg_start(rep);
	n = tetromino_preview(&g->board, g->current, rotation, column, pv, &m);
	return report(rep, HATETRIS_OK, n, g->current);
}

void
hatetris_board_text(const struct hatetris *g, char out[HATETRIS_TEXT_SIZE])
{
	tetromino_board_text(&g->board, out);
}

/* ---- serialisation ---- */

#define HEADER_SIZE 16

size_t
hatetris_encode(const struct hatetris *g, uint8_t *buf, size_t cap)
{
	size_t len = tetromino_state_size(&g->board, HEADER_SIZE);

	if (buf == NULL || cap < len)
		return len;
	buf[0] = HATETRIS_SERIAL_VERSION;
	buf[1] = g->depth;
	buf[2] = (uint8_t)(g->current | g->end_reason << 4);
	engine_put_le(buf + 3, g->pieces, 4);
	engine_put_le(buf + 7, g->lines, 4);
	engine_put_le(buf + 11, g->cap, 4);
	tetromino_state_seal(&g->board, buf, HEADER_SIZE);
	return len;
}

bool
hatetris_decode(struct hatetris *out, const uint8_t *buf, size_t len)
{
	struct hatetris g;
	uint64_t cells = 0;
	bool fits;

	/* The frame (version, length, CRC) and the board: n non-empty,
	 * non-full rows with no stray bits. */
	memset(&g, 0, sizeof g);
	if (!tetromino_state_open(&g.board, buf, len, HEADER_SIZE, HATETRIS_SERIAL_VERSION))
		return false;
	cells = tetromino_board_count(&g.board);

	g.depth = buf[1];
	g.current = buf[2] & 15;
	g.end_reason = buf[2] >> 4 & 7;
	g.pieces = (uint32_t)engine_get_le(buf + 3, 4);
	g.lines = (uint32_t)engine_get_le(buf + 7, 4);
	g.cap = (uint32_t)engine_get_le(buf + 11, 4);
	if ((g.depth != 1 && g.depth != 2) || g.current >= TETROMINO_NPIECES ||
	    g.end_reason > HATETRIS_END_ABANDONED || (buf[2] & 0x80) != 0)
		return false;
	g.status = g.end_reason != HATETRIS_END_NONE ? HATETRIS_OVER : HATETRIS_PLAYING;
	if ((uint64_t)g.pieces * 4 != cells + (uint64_t)g.lines * 10)
		return false;

	/* The end: the cap is reached exactly when the run ended capped; a
	 * playing run's piece fits, a topped-out one's does not. */
	if (g.pieces > pieces_limit(&g))
		return false;
	if ((g.pieces == pieces_limit(&g)) != (g.end_reason == HATETRIS_END_CAPPED))
		return false;
	fits = tetromino_can_place(&g.board, g.current);
	if ((g.end_reason == HATETRIS_END_NONE && !fits) ||
	    (g.end_reason == HATETRIS_END_TOP_OUT && fits))
		return false;

	*out = g;
	return true;
}
