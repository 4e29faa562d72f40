/*
 * wells.c: the value table of a small well and the wells game on it
 * (wells.h, docs/rules/wells.md).
 *
 * The table is an open-addressing hash table of 64-bit slots in the
 * caller's block: a well's cells packed row after row (W * H <= 56 bits)
 * in the low 56 bits, its value in the top 8 (0 marks an empty slot, since
 * every value is 1..255). Probing is linear from a splitmix64 hash; the
 * build refuses a new entry past 7/8 of the slots, so every probe ends.
 * The build is a depth-first walk with memo over every landing of every
 * piece from the empty well (no pruning: a bot may go anywhere, and every
 * well it can reach needs its exact value), landings from the who-wins
 * search's own generator (whowins_landings). The game is finite, every
 * landing adding four cells, so the walk ends, at most W * H / 4 + 1 deep.
 *
 * Workload: the build runs once per well size, for milliseconds to a few
 * seconds; then each action costs seven landing generations and one probe
 * per landing (well under a millisecond).
 */
#include "wells.h"

#include <string.h>

#define VALUE_SHIFT 56
#define KEY_MASK ((UINT64_C(1) << VALUE_SHIFT) - 1)

const struct wells_size wells_sizes[WELLS_NSIZES] = {
	{ 4, 4, 2048 }, { 4, 5, 16384 }, { 4, 6, 65536 }, { 6, 4, 262144 },
};

int
wells_size_index(unsigned width, unsigned height)
{
	int i;

	for (i = 0; i < WELLS_NSIZES; i++)
		if (wells_sizes[i].width == width && wells_sizes[i].height == height)
			return i;
	return -1;
}

/* ---- the table ---- */

static uint64_t
pack(unsigned width, unsigned height, const uint16_t *rows)
{
	uint64_t k = 0;
	unsigned i;

	for (i = 0; i < height; i++)
		k |= (uint64_t)(rows[i] & ((1u << width) - 1)) << (i * width);
	return k;
}

static uint64_t
slot_of(const struct wells_table *t, uint64_t key)
{
	uint64_t h = key + UINT64_C(0x9e3779b97f4a7c15);

	h = (h ^ (h >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	h = (h ^ (h >> 27)) * UINT64_C(0x94d049bb133111eb);
	h ^= h >> 31;
	return ((h >> 32) * t->nslots) >> 32; /* nslots < 2^32 */
}

/* The slot holding key, or the empty one where it goes. */
static uint64_t *
find(const struct wells_table *t, uint64_t key)
{
	uint64_t i = slot_of(t, key);

	for (;;) {
		uint64_t *s = &t->slots[i];

		if (*s == 0 || (*s & KEY_MASK) == key)
			return s;
		if (++i == t->nslots)
			i = 0;
	}
}

size_t
wells_table_bytes(uint64_t wells)
{
	return (size_t)(wells + wells / 7 + 2) * sizeof(uint64_t);
}

/* Applies (or lifts: the same XOR) a landing's cells to rows. */
static void
toggle(uint16_t *rows, unsigned piece, const struct whowins_landing *l)
{
	uint8_t box[4];
	int i;

	whowins_box(piece, (unsigned)l->rot, box);
	for (i = 0; i < 4; i++) {
		int r = l->row + i - WHOWINS_BUFFER;

		if (box[i] != 0 && r >= 0)
			rows[r] ^= (uint16_t)(l->col >= 0 ? box[i] << l->col : box[i] >> -l->col);
	}
}

struct build {
	struct wells_table *t;
	bool full;
};

static unsigned
value_of(struct build *b, uint16_t *rows)
{
	struct wells_table *t = b->t;
	uint64_t key = pack(t->width, t->height, rows), *s = find(t, key);
	unsigned p, best = 0;

	if (*s != 0)
		return (unsigned)(*s >> VALUE_SHIFT);
	for (p = 0; p < WHOWINS_NPIECES && !b->full; p++) {
		struct whowins_landing l[WELLS_LANDINGS_MAX];
		bool line[WELLS_LANDINGS_MAX];
		size_t n = whowins_landings(t->width, t->height, WHOWINS_FULL, rows, p, l, line,
		    WELLS_LANDINGS_MAX), i;
		unsigned pv = WELLS_NEVER;

		t->landings += n;
		for (i = 0; i < n && !b->full; i++) {
			unsigned c;

			if (line[i]) {
				c = 1;
			} else {
				toggle(rows, p, &l[i]);
				c = value_of(b, rows);
				toggle(rows, p, &l[i]);
				c = c == WELLS_NEVER ? WELLS_NEVER : c + 1;
			}
			if (c < pv)
				pv = c;
		}
		if (pv > best)
			best = pv;
	}
	if (b->full)
		return WELLS_NEVER;
	/* the slot may have moved: the walk below filled others */
	s = find(t, key);
	if (t->used >= t->capacity) {
		b->full = true;
		return WELLS_NEVER;
	}
	t->used++;
	*s = key | (uint64_t)best << VALUE_SHIFT;
	return best;
}

enum wells_build
wells_table_build(struct wells_table *t, unsigned width, unsigned height, void *mem, size_t bytes)
{
	uint16_t rows[WELLS_H_MAX] = { 0 };
	struct build b = { t, false };

	memset(t, 0, sizeof *t);
	if (width < WHOWINS_W_MIN || width > WELLS_W_MAX || height > WELLS_H_MAX ||
	    width * height > VALUE_SHIFT)
		return WELLS_BAD_SIZE;
	t->width = width;
	t->height = height;
	t->slots = mem;
	t->nslots = mem != NULL ? bytes / sizeof(uint64_t) : 0;
	if (t->nslots > UINT32_MAX)
		t->nslots = UINT32_MAX;
	t->capacity = t->nslots - t->nslots / 8;
	if (t->nslots < 2)
		return WELLS_NO_MEMORY;
	memset(mem, 0, (size_t)t->nslots * sizeof(uint64_t));
	t->empty_value = value_of(&b, rows);
	if (b.full)
		return WELLS_NO_MEMORY;
	t->built = true;
	return WELLS_BUILT;
}

unsigned
wells_value(const struct wells_table *t, const uint16_t *rows)
{
	if (!t->built)
		return 0;
	return (unsigned)(*find(t, pack(t->width, t->height, rows)) >> VALUE_SHIFT);
}

/* The piece's value, and whether it has a landing. */
static unsigned
piece_value(const struct wells_table *t, const uint16_t *rows, unsigned piece, bool *any)
{
	struct whowins_landing l[WELLS_LANDINGS_MAX];
	bool line[WELLS_LANDINGS_MAX];
	uint16_t w[WELLS_H_MAX];
	size_t n, i;
	unsigned pv = WELLS_NEVER;

	memcpy(w, rows, t->height * sizeof w[0]);
	n = whowins_landings(t->width, t->height, WHOWINS_FULL, w, piece, l, line, WELLS_LANDINGS_MAX);
	*any = n > 0;
	for (i = 0; i < n; i++) {
		unsigned c;

		if (line[i])
			return 1;
		toggle(w, piece, &l[i]);
		c = wells_value(t, w);
		toggle(w, piece, &l[i]);
		if (c == 0)
			return 0;
		if (c != WELLS_NEVER && c + 1 < pv)
			pv = c + 1;
	}
	return pv;
}

unsigned
wells_piece_value(const struct wells_table *t, const uint16_t *rows, unsigned piece)
{
	bool any;

	if (!t->built || piece >= WHOWINS_NPIECES)
		return 0;
	return piece_value(t, rows, piece, &any);
}

bool
wells_choose(const struct wells_table *t, const uint16_t *rows, unsigned *piece, unsigned *value)
{
	unsigned v = wells_value(t, rows), p, pv[WHOWINS_NPIECES];
	bool any[WHOWINS_NPIECES];

	if (v == 0)
		return false;
	for (p = 0; p < WHOWINS_NPIECES; p++)
		if ((pv[p] = piece_value(t, rows, p, &any[p])) == 0)
			return false;
	if (value != NULL)
		*value = v;
	for (p = 0; p < WHOWINS_NPIECES; p++)
		if (pv[p] == v && (v != WELLS_NEVER || any[p])) {
			*piece = p;
			return true;
		}
	for (p = 0; p < WHOWINS_NPIECES; p++)
		if (pv[p] == v) {
			*piece = p;
			return true;
		}
	return false; /* the table disagrees with itself */
}

size_t
wells_landings(unsigned width, unsigned height, const uint16_t *rows, unsigned piece,
    struct wells_landing *out, size_t cap)
{
	struct whowins_landing l[WELLS_LANDINGS_MAX];
	bool line[WELLS_LANDINGS_MAX];
	size_t n, i;

	if (width > WELLS_W_MAX || height > WELLS_H_MAX)
		return 0;
	n = whowins_landings(width, height, WHOWINS_FULL, rows, piece, l, line, WELLS_LANDINGS_MAX);
	for (i = 0; i < n && i < cap; i++) {
		uint8_t box[4];
		unsigned r, c, k = 0, xmin = 255, ymin = 255;

		whowins_box(piece, (unsigned)l[i].rot, box);
		for (r = 0; r < 4; r++)
			for (c = 0; c < 4; c++)
				if (box[r] >> c & 1) {
					unsigned y = (unsigned)(l[i].row + (int)r), x = (unsigned)(l[i].col + (int)c);

					out[i].cells[k][0] = (uint8_t)y;
					out[i].cells[k][1] = (uint8_t)x;
					k++;
					if (x < xmin)
						xmin = x;
					if (y < ymin)
						ymin = y;
				}
		out[i].at = l[i];
		out[i].x = (uint8_t)xmin;
		out[i].y = (uint8_t)ymin;
		out[i].line = line[i];
	}
	return i;
}

/* ---- the game ---- */

void
wells_rows(const struct wells *g, uint16_t rows[WELLS_H_MAX])
{
	unsigned r, c;

	for (r = 0; r < WELLS_H_MAX; r++) {
		rows[r] = 0;
		for (c = 0; r < g->height && c < g->width; c++)
			if (g->cells[r] >> (3 * c) & 7)
				rows[r] |= (uint16_t)(1u << c);
	}
}

bool
wells_init(struct wells *g, const struct wells_table *t, unsigned width, unsigned height)
{
	uint16_t rows[WELLS_H_MAX] = { 0 };
	unsigned piece, value;

	if (!t->built || t->width != width || t->height != height || wells_size_index(width, height) < 0)
		return false;
	if (!wells_choose(t, rows, &piece, &value))
		return false;
	memset(g, 0, sizeof *g);
	g->width = (uint8_t)width;
	g->height = (uint8_t)height;
	g->current = (uint8_t)piece;
	g->value = (uint8_t)value;
	g->status = WELLS_PLAYING;
	g->end_reason = WELLS_END_NONE;
	return true;
}

static enum wells_outcome
say(struct wells_report *rep, enum wells_outcome o, const char *msg)
{
	if (rep != NULL) {
		rep->outcome = o;
		(void)engine_refuse(rep->message, sizeof rep->message, "%s", msg);
	}
	return o;
}

enum wells_outcome
wells_place(struct wells *g, const struct wells_table *t, unsigned rot, unsigned x, unsigned y,
    struct wells_report *rep)
{
	struct wells_landing l[WELLS_LANDINGS_MAX];
	uint16_t rows[WELLS_H_MAX];
	char msg[ENGINE_REASON_MAX];
	size_t n, i;
	unsigned k, piece, value;
	struct wells after;

	if (g->status != WELLS_PLAYING)
		return say(rep, WELLS_GAME_OVER, "the run is over");
	if (!t->built || t->width != g->width || t->height != g->height)
		return say(rep, WELLS_NO_TABLE, "no value table for this well");
	wells_rows(g, rows);
	n = wells_landings(g->width, g->height, rows, g->current, l, WELLS_LANDINGS_MAX);
	for (i = 0; i < n; i++)
		if (l[i].at.rot == (int)rot && l[i].x == x && l[i].y == y)
			break;
	if (i == n) {
		(void)engine_refuse(msg, sizeof msg, "r%ux%uy%u is not a landing of %c here (legalActions lists the %zu "
		    "there are)", rot, x, y, whowins_piece_letter(g->current), n);
		return say(rep, WELLS_REFUSED, msg);
	}
	after = *g;
	for (k = 0; k < 4; k++) {
		unsigned r = l[i].cells[k][0] - WHOWINS_BUFFER, c = l[i].cells[k][1];

		after.cells[r] |= (uint32_t)(g->current + 1) << (3 * c);
	}
	after.pieces++;
	if (l[i].line) {
		after.status = WELLS_OVER;
		after.end_reason = WELLS_END_LINE;
		after.value = 0;
		*g = after;
		(void)engine_refuse(msg, sizeof msg, "landed %c r%ux%uy%u: a row is complete after %u pieces",
		    whowins_piece_letter(g->current), rot, x, y, (unsigned)g->pieces);
		return say(rep, WELLS_OK, msg);
	}
	wells_rows(&after, rows);
	if (!wells_choose(t, rows, &piece, &value))
		return say(rep, WELLS_NO_TABLE, "the value table does not hold the well this landing leaves");
	after.current = (uint8_t)piece;
	after.value = (uint8_t)value;
	n = wells_landings(after.width, after.height, rows, piece, l, WELLS_LANDINGS_MAX);
	if (n == 0) {
		after.status = WELLS_OVER;
		after.end_reason = WELLS_END_TOP_OUT;
	}
	(void)engine_refuse(msg, sizeof msg, "landed %c r%ux%uy%u; next piece %c%s", whowins_piece_letter(g->current),
	    rot, x, y, whowins_piece_letter(piece), n == 0 ? ", which has no landing: top out" : "");
	*g = after;
	return say(rep, WELLS_OK, msg);
}

const char *
wells_status_name(unsigned status)
{
	return status == WELLS_OVER ? "over" : "playing";
}

const char *
wells_end_name(unsigned end)
{
	switch (end) {
	case WELLS_END_LINE: return "line";
	case WELLS_END_TOP_OUT: return "top_out";
	default: return NULL;
	}
}

static char
cell_char(const struct wells *g, unsigned r, unsigned c)
{
	unsigned v = g->cells[r] >> (3 * c) & 7;

	return v == 0 ? '.' : whowins_piece_letter(v - 1);
}

void
wells_text(const struct wells *g, char out[WELLS_TEXT_SIZE])
{
	unsigned r, c, n = 0;

	for (r = 0; r < WHOWINS_BUFFER + (unsigned)g->height; r++) {
		if (r > 0)
			out[n++] = '\n';
		for (c = 0; c < g->width; c++)
			out[n++] = r < WHOWINS_BUFFER ? '.' : cell_char(g, r - WHOWINS_BUFFER, c);
	}
	out[n] = '\0';
}

void
wells_board_text(const struct wells *g, char out[WELLS_TEXT_SIZE])
{
	unsigned r, c, n = 0, top = 20 - (WHOWINS_BUFFER + (unsigned)g->height);

	for (r = 0; r < 20; r++) {
		if (r > 0)
			out[n++] = '\n';
		for (c = 0; c < 10; c++) {
			char ch = '#';

			if (r >= top && c < g->width)
				ch = r - top < WHOWINS_BUFFER ? '.' : cell_char(g, r - top - WHOWINS_BUFFER, c);
			out[n++] = ch;
		}
	}
	out[n] = '\0';
}

/* ---- serialisation ---- */

size_t
wells_encode(const struct wells *g, uint8_t *out, size_t cap)
{
	size_t n = 9 + 3 * (size_t)g->height + 2, i;

	if (n > cap)
		return n;
	out[0] = 1;
	out[1] = g->width;
	out[2] = g->height;
	out[3] = g->current;
	out[4] = g->status;
	out[5] = g->end_reason;
	out[6] = g->value;
	engine_put_le(out + 7, g->pieces, 2);
	for (i = 0; i < g->height; i++)
		engine_put_le(out + 9 + 3 * i, g->cells[i], 3);
	engine_put_le(out + n - 2, engine_crc16(out, n - 2), 2);
	return n;
}

bool
wells_decode(struct wells *g, const uint8_t *in, size_t n)
{
	struct wells w;
	uint16_t rows[WELLS_H_MAX];
	unsigned i, c, count = 0, full;
	bool complete = false;

	if (n < 11 || in[0] != 1 || wells_size_index(in[1], in[2]) < 0 || n != 9 + 3 * (size_t)in[2] + 2)
		return false;
	if (engine_get_le(in + n - 2, 2) != engine_crc16(in, n - 2))
		return false;
	memset(&w, 0, sizeof w);
	w.width = in[1];
	w.height = in[2];
	w.current = in[3];
	w.status = in[4];
	w.end_reason = in[5];
	w.value = in[6];
	w.pieces = (uint16_t)engine_get_le(in + 7, 2);
	if (w.current >= WHOWINS_NPIECES || w.status > WELLS_OVER || w.end_reason > WELLS_END_TOP_OUT ||
	    (w.status == WELLS_OVER) != (w.end_reason != WELLS_END_NONE))
		return false;
	if (w.end_reason == WELLS_END_LINE ? w.value != 0 : w.value == 0)
		return false;
	for (i = 0; i < w.height; i++) {
		w.cells[i] = (uint32_t)engine_get_le(in + 9 + 3 * i, 3);
		if (w.cells[i] >> (3 * w.width) != 0)
			return false;
		for (c = 0; c < w.width; c++) {
			unsigned v = w.cells[i] >> (3 * c) & 7;

			if (v > WHOWINS_NPIECES)
				return false;
			count += v != 0;
		}
	}
	full = (1u << w.width) - 1;
	wells_rows(&w, rows);
	for (i = 0; i < w.height; i++)
		complete |= rows[i] == full;
	if (count != 4u * (unsigned)w.pieces || complete != (w.end_reason == WELLS_END_LINE))
		return false;
	*g = w;
	return true;
}
