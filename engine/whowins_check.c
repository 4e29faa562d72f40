/*
 * whowins_check.c: plays a who-wins strategy out, line by line, so that a
 * result can be believed without believing the search (docs/rules/whowins.md).
 *
 * Nothing of whowins.c is used but the piece tables (whowins_box): the well
 * is a grid of cells, a position is (orientation, box column, box row), and
 * the reachable positions are a breadth-first search from the spawn over the
 * four moves, each move checked cell by cell exactly as the rules state it.
 * Drop-only tries every orientation and box column at the top and lowers it
 * one row at a time.
 *
 * The strategy is sorted (a heapsort on the well's rows, then the piece) so
 * that a well's decisions are found by binary search. The check is a
 * depth-first walk from the empty well; a well once verified is marked in its
 * first decision's mark byte, so each well is played out once and the walk
 * is linear in the strategy's size. The game has no cycles (every landing
 * adds four cells), so a mark set after its subtree is checked is sound.
 *
 * Workload: run by hand or by a test after a search, on strategies of a few
 * to a few million decisions; a decision costs one search over at most
 * 4 x 15 x 20 positions.
 */
#include "whowins.h"

#include <string.h>

#include "engine.h"

#define ROWS_MAX (WHOWINS_H_MAX + WHOWINS_BUFFER)
#define COLS_OFF 3 /* box columns run from -3 */
#define COLS_MAX (WHOWINS_W_MAX + COLS_OFF)
#define LAND_MAX (4 * COLS_MAX * ROWS_MAX)

struct checker {
	unsigned w, h;
	enum whowins_movement m;
	enum whowins_result winner;
	struct whowins_decision *d;
	size_t n;
	uint8_t cell[ROWS_MAX][WHOWINS_W_MAX];
	struct whowins_check_stats st;
	char *reason;
	size_t cap;
};

struct pos {
	int8_t rot, col, row;
};

static int
cmp_rows(const uint16_t *a, const uint16_t *b, unsigned h)
{
	unsigned i;

	for (i = 0; i < h; i++)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return 0;
}

static int
cmp_dec(const struct whowins_decision *a, const struct whowins_decision *b, unsigned h)
{
	int c = cmp_rows(a->rows, b->rows, h);

	if (c)
		return c;
	return a->piece < b->piece ? -1 : a->piece > b->piece;
}

static void
sift(struct whowins_decision *d, size_t root, size_t n, unsigned h)
{
	struct whowins_decision t;

	for (;;) {
		size_t child = 2 * root + 1;

		if (child >= n)
			return;
		if (child + 1 < n && cmp_dec(&d[child], &d[child + 1], h) < 0)
			child++;
		if (cmp_dec(&d[root], &d[child], h) >= 0)
			return;
		t = d[root];
		d[root] = d[child];
		d[child] = t;
		root = child;
	}
}

static void
heapsort(struct whowins_decision *d, size_t n, unsigned h)
{
	struct whowins_decision t;
	size_t i;

	if (n < 2)
		return;
	for (i = n / 2; i-- > 0;)
		sift(d, i, n, h);
	for (i = n - 1; i > 0; i--) {
		t = d[0];
		d[0] = d[i];
		d[i] = t;
		sift(d, 0, i, h);
	}
}

/* The well as text for a refusal: rows of the well proper, top first. */
static const char *
well_text(const struct checker *c, char *buf, size_t cap)
{
	size_t k = 0;
	unsigned r, col;

	for (r = 0; r < c->h && k + c->w + 2 < cap; r++) {
		for (col = 0; col < c->w; col++)
			buf[k++] = c->cell[WHOWINS_BUFFER + r][col] ? '#' : '.';
		if (r + 1 < c->h)
			buf[k++] = '/';
	}
	if (k == 0)
		buf[k++] = '-';
	buf[k] = '\0';
	return buf;
}

/* Does orientation rot of piece p fit with its box at (col, row)? */
static bool
fits(const struct checker *c, unsigned p, int rot, int col, int row)
{
	uint8_t box[4];
	int i, j;

	whowins_box(p, (unsigned)rot, box);
	for (i = 0; i < 4; i++)
		for (j = 0; j < 4; j++) {
			int y = row + i, x = col + j;

			if (!(box[i] >> j & 1))
				continue;
			if (y < 0 || y >= (int)(c->h + WHOWINS_BUFFER) || x < 0 || x >= (int)c->w)
				return false;
			if (c->cell[y][x])
				return false;
		}
	return true;
}

static int
top_row(unsigned p, int rot, int row)
{
	uint8_t box[4];
	int i;

	whowins_box(p, (unsigned)rot, box);
	for (i = 0; i < 4; i++)
		if (box[i])
			return row + i;
	return row;
}

/* Every landing of piece p (locks with no cell in the buffer) into out. */
static size_t
landings(const struct checker *c, unsigned p, struct pos *out)
{
	static const int dcol[4] = { 0, -1, 1, 0 }, drow[4] = { 0, 0, 0, 1 };
	uint8_t seen[4][COLS_MAX][ROWS_MAX];
	struct pos queue[4 * COLS_MAX * ROWS_MAX];
	int nrot = (int)whowins_rotations(p), rot, col;
	size_t head = 0, tail = 0, n = 0;

	if (c->m == WHOWINS_DROP) {
		for (rot = 0; rot < nrot; rot++)
			for (col = -COLS_OFF; col < (int)c->w; col++) {
				int row = 0;

				if (!fits(c, p, rot, col, 0))
					continue;
				while (fits(c, p, rot, col, row + 1))
					row++;
				if (top_row(p, rot, row) >= WHOWINS_BUFFER)
					out[n++] = (struct pos){ (int8_t)rot, (int8_t)col, (int8_t)row };
			}
		return n;
	}
	memset(seen, 0, sizeof seen);
	queue[tail++] = (struct pos){ 0, (int8_t)(((int)c->w - 4) / 2), 0 };
	if (!fits(c, p, 0, queue[0].col, 0))
		return 0;
	seen[0][queue[0].col + COLS_OFF][0] = 1;
	while (head < tail) {
		struct pos q = queue[head++];
		int k;

		for (k = 0; k < 4; k++) {
			int r2 = k == 0 ? (q.rot + 1) % nrot : q.rot;
			int c2 = q.col + dcol[k], y2 = q.row + drow[k];

			if (c2 < -COLS_OFF || c2 >= (int)c->w || y2 >= ROWS_MAX)
				continue;
			if (!fits(c, p, r2, c2, y2) || seen[r2][c2 + COLS_OFF][y2])
				continue;
			seen[r2][c2 + COLS_OFF][y2] = 1;
			queue[tail++] = (struct pos){ (int8_t)r2, (int8_t)c2, (int8_t)y2 };
		}
		if (!fits(c, p, q.rot, q.col, q.row + 1) && top_row(p, q.rot, q.row) >= WHOWINS_BUFFER)
			out[n++] = q;
	}
	return n;
}

/* Sets (v 1) or clears (v 0) the piece's cells; returns true when setting
 * completed a row. */
static bool
paint(struct checker *c, unsigned p, struct pos q, uint8_t v)
{
	uint8_t box[4];
	bool full = false;
	int i, j;

	whowins_box(p, (unsigned)q.rot, box);
	for (i = 0; i < 4; i++) {
		if (!box[i])
			continue;
		for (j = 0; j < 4; j++)
			if (box[i] >> j & 1)
				c->cell[q.row + i][q.col + j] = v;
		if (v) {
			unsigned x, cnt = 0;

			for (x = 0; x < c->w; x++)
				cnt += c->cell[q.row + i][x];
			if (cnt == c->w)
				full = true;
		}
	}
	return full;
}

/* The index of the first decision for the current well (any piece), or n. */
static size_t
find_well(const struct checker *c, const uint16_t *rows)
{
	size_t lo = 0, hi = c->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cmp_rows(c->d[mid].rows, rows, c->h) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < c->n && cmp_rows(c->d[lo].rows, rows, c->h) == 0)
		return lo;
	return c->n;
}

static void
current_rows(const struct checker *c, uint16_t *rows)
{
	unsigned r, x;

	memset(rows, 0, WHOWINS_H_MAX * sizeof *rows);
	for (r = 0; r < c->h; r++)
		for (x = 0; x < c->w; x++)
			if (c->cell[WHOWINS_BUFFER + r][x])
				rows[r] |= (uint16_t)(1u << x);
}

static bool
check_well(struct checker *c, unsigned depth)
{
	uint16_t rows[WHOWINS_H_MAX];
	struct pos land[LAND_MAX];
	char text[WHOWINS_H_MAX * (WHOWINS_W_MAX + 1) + 2];
	size_t first, k, nl;
	unsigned p;

	current_rows(c, rows);
	first = find_well(c, rows);
	if (first == c->n)
		return engine_refuse(c->reason, c->cap, "no decision at well %s",
		    well_text(c, text, sizeof text));
	if (c->d[first].mark)
		return true;
	if (depth > c->w * c->h / 4) /* cannot happen: every landing adds 4 cells */
		return engine_refuse(c->reason, c->cap, "line too long");
	c->st.wells++;

	if (c->winner == WHOWINS_SUPPLIER) {
		struct whowins_decision *d = &c->d[first];

		if (first + 1 < c->n && cmp_rows(c->d[first + 1].rows, rows, c->h) == 0)
			return engine_refuse(c->reason, c->cap, "two pieces to send at well %s",
			    well_text(c, text, sizeof text));
		nl = landings(c, d->piece, land);
		/* every landing first for a line, then each one's well */
		for (k = 0; k < nl; k++) {
			bool line = paint(c, d->piece, land[k], 1);

			paint(c, d->piece, land[k], 0);
			if (line)
				return engine_refuse(c->reason, c->cap,
				    "at well %s, %c r%d c%d y%d completes a row",
				    well_text(c, text, sizeof text), whowins_piece_letter(d->piece),
				    land[k].rot, land[k].col, land[k].row);
		}
		for (k = 0; k < nl; k++) {
			bool good;

			c->st.landings++;
			paint(c, d->piece, land[k], 1);
			good = check_well(c, depth + 1);
			paint(c, d->piece, land[k], 0);
			if (!good)
				return false;
		}
		c->d[first].mark = 1;
		return true;
	}

	for (p = 0; p < WHOWINS_NPIECES; p++) {
		struct whowins_decision *d = first + p < c->n ? &c->d[first + p] : NULL;
		struct pos q;
		bool legal = false, line, good;

		if (d == NULL || d->piece != p || cmp_rows(d->rows, rows, c->h) != 0)
			return engine_refuse(c->reason, c->cap, "no landing for %c at well %s",
			    whowins_piece_letter(p), well_text(c, text, sizeof text));
		q = (struct pos){ d->landing.rot, d->landing.col, d->landing.row };
		nl = landings(c, p, land);
		for (k = 0; k < nl && !legal; k++)
			legal = land[k].rot == q.rot && land[k].col == q.col && land[k].row == q.row;
		if (!legal)
			return engine_refuse(c->reason, c->cap,
			    "at well %s, %c r%d c%d y%d is not a landing",
			    well_text(c, text, sizeof text), whowins_piece_letter(p), q.rot, q.col, q.row);
		c->st.landings++;
		line = paint(c, p, q, 1);
		good = line || check_well(c, depth + 1);
		paint(c, p, q, 0);
		if (!good)
			return false;
	}
	c->d[first].mark = 1;
	return true;
}

bool
whowins_check(unsigned width, unsigned height, enum whowins_movement m,
    enum whowins_result winner, struct whowins_decision *d, size_t n,
    struct whowins_check_stats *stats, char *reason, size_t cap)
{
	struct checker c;
	size_t i;
	unsigned r;
	bool good;

	if (stats)
		memset(stats, 0, sizeof *stats);
	if (width < WHOWINS_W_MIN || width > WHOWINS_W_MAX || height > WHOWINS_H_MAX)
		return engine_refuse(reason, cap, "well %u x %u is out of range", width, height);
	if (m != WHOWINS_FULL && m != WHOWINS_DROP)
		return engine_refuse(reason, cap, "unknown movement");
	if (winner != WHOWINS_PLAYER && winner != WHOWINS_SUPPLIER)
		return engine_refuse(reason, cap, "the winner must be the player or the supplier");
	for (i = 0; i < n; i++) {
		if (d[i].piece >= WHOWINS_NPIECES)
			return engine_refuse(reason, cap, "decision %zu: no such piece", i);
		if (d[i].has_landing != (winner == WHOWINS_PLAYER))
			return engine_refuse(reason, cap, "decision %zu: %s", i,
			    winner == WHOWINS_PLAYER ? "a player's decision needs a landing"
						     : "a supplier's decision has no landing");
		if (d[i].has_landing && (d[i].landing.rot < 0 ||
		    (unsigned)d[i].landing.rot >= whowins_rotations(d[i].piece)))
			return engine_refuse(reason, cap, "decision %zu: no such orientation", i);
		for (r = 0; r < WHOWINS_H_MAX; r++)
			if ((r >= height && d[i].rows[r]) || d[i].rows[r] >> width)
				return engine_refuse(reason, cap, "decision %zu: cells outside the well", i);
		d[i].mark = 0;
	}
	heapsort(d, n, height);
	for (i = 1; i < n; i++)
		if (cmp_dec(&d[i - 1], &d[i], height) == 0)
			return engine_refuse(reason, cap, "two decisions for one well and piece");

	memset(&c, 0, sizeof c);
	c.w = width;
	c.h = height;
	c.m = m;
	c.winner = winner;
	c.d = d;
	c.n = n;
	c.reason = reason;
	c.cap = cap;
	good = check_well(&c, 0);
	if (good) {
		bool reached = false;

		for (i = 0; i < n; i++) {
			if (i == 0 || cmp_rows(d[i - 1].rows, d[i].rows, height) != 0)
				reached = d[i].mark != 0;
			if (!reached)
				c.st.unused++;
		}
	}
	if (stats)
		*stats = c.st;
	return good;
}
