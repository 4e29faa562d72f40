/*
 * hatetris_classic.c: the original HATETRIS, key for key (see
 * hatetris_classic.h and docs/rules/hatetris-classic.md).
 *
 * Representation. A well is 20 rows of 10 bits. The searches work on a
 * framed copy: each row shifted left by 2 with the bits outside the ten
 * columns set (0xf003), and rows 20-22 all set, so that a box at any x in
 * -2..8 and y in 0..18 is free exactly when none of its four shifted box
 * rows meets the frame. The orientation boxes below are the spec's
 * diagrams, one 4-bit mask per box row (bit c = box column c).
 *
 * Cost: the supplier dominates. A call runs seven breadth-first searches
 * (each starting as low as the empty rows allow, which does not change the
 * landing set), each visiting at most 836 positions with four tests of at
 * most four row masks; a lock then builds the well it leaves, and only in
 * runs with 2 lines or more its key for a memory look-up.
 */
#include "hatetris_classic.h"

#include <string.h>

_Static_assert(sizeof(struct hclassic) == HCLASSIC_STATE_SIZE, "struct hclassic has padding");

#define FRAME_ROWS (HCLASSIC_ROWS + 3)
#define FRAME_WALLS 0xf003u
#define NO_POS 0xffffu

/* box[piece][o][r]: box row r of the orientation, bit c = box column c. */
static const uint8_t box[HCLASSIC_NPIECES][4][4] = {
	/* I */ { { 0x0, 0xf, 0x0, 0x0 }, { 0x4, 0x4, 0x4, 0x4 }, { 0x0, 0x0, 0xf, 0x0 },
	          { 0x2, 0x2, 0x2, 0x2 } },
	/* J */ { { 0x0, 0x6, 0x2, 0x2 }, { 0x0, 0x7, 0x4, 0x0 }, { 0x4, 0x4, 0x6, 0x0 },
	          { 0x0, 0x2, 0xe, 0x0 } },
	/* L */ { { 0x0, 0xe, 0x2, 0x0 }, { 0x0, 0x6, 0x4, 0x4 }, { 0x0, 0x4, 0x7, 0x0 },
	          { 0x2, 0x2, 0x6, 0x0 } },
	/* O */ { { 0x0, 0x6, 0x6, 0x0 }, { 0x0, 0x6, 0x6, 0x0 }, { 0x0, 0x6, 0x6, 0x0 },
	          { 0x0, 0x6, 0x6, 0x0 } },
	/* S */ { { 0x0, 0xc, 0x6, 0x0 }, { 0x0, 0x2, 0x6, 0x4 }, { 0x0, 0x6, 0x3, 0x0 },
	          { 0x2, 0x6, 0x4, 0x0 } },
	/* T */ { { 0x0, 0xe, 0x4, 0x0 }, { 0x0, 0x4, 0x6, 0x4 }, { 0x0, 0x2, 0x7, 0x0 },
	          { 0x2, 0x6, 0x2, 0x0 } },
	/* Z */ { { 0x0, 0x6, 0xc, 0x0 }, { 0x0, 0x4, 0x6, 0x2 }, { 0x0, 0x3, 0x6, 0x0 },
	          { 0x4, 0x6, 0x2, 0x0 } },
};

const uint8_t hclassic_order[HCLASSIC_NPIECES] = {
	HCLASSIC_S, HCLASSIC_Z, HCLASSIC_O, HCLASSIC_I, HCLASSIC_L, HCLASSIC_J, HCLASSIC_T,
};

static const char *const piece_names[HCLASSIC_NPIECES] = { "I", "J", "L", "O", "S", "T", "Z" };
static const char *const supplier_names[HCLASSIC_NSUPPLIERS] = { "current", "2022", "2021",
	"mild" };
static const char key_chars[4] = { 'L', 'R', 'D', 'U' };

#define SPAWN_X 3

static unsigned
pos_index(int x, int y, unsigned o)
{
	return ((o * HCLASSIC_NY) + (unsigned)y) * HCLASSIC_NX + (unsigned)(x - HCLASSIC_XMIN);
}

static void
pos_split(unsigned i, int *x, int *y, unsigned *o)
{
	*x = (int)(i % HCLASSIC_NX) + HCLASSIC_XMIN;
	*y = (int)((i / HCLASSIC_NX) % HCLASSIC_NY);
	*o = i / (HCLASSIC_NX * HCLASSIC_NY);
}

static void
frame_well(const uint16_t well[HCLASSIC_ROWS], uint16_t frame[FRAME_ROWS])
{
	unsigned r;

	for (r = 0; r < HCLASSIC_ROWS; r++)
		frame[r] = (uint16_t)((unsigned)well[r] << 2 | FRAME_WALLS);
	for (; r < FRAME_ROWS; r++)
		frame[r] = 0xffff;
}

/* x in -2..8, y in 0..19 (19 is never free: every box has a cell in box
 * row 1 or lower, which would be row 20 or more). */
static bool
frame_free(const uint16_t frame[FRAME_ROWS], unsigned piece, int x, int y, unsigned o)
{
	const uint8_t *b = box[piece][o];
	unsigned sh = (unsigned)(x + 2), r;

	if (x < HCLASSIC_XMIN || x > HCLASSIC_XMIN + HCLASSIC_NX - 1 || y < 0 ||
	    y >= HCLASSIC_NY)
		return false;
	for (r = 0; r < 4; r++)
		if (frame[y + (int)r] & ((unsigned)b[r] << sh))
			return false;
	return true;
}

bool
hclassic_free(const uint16_t well[HCLASSIC_ROWS], unsigned piece, int x, int y, unsigned o)
{
	uint16_t frame[FRAME_ROWS];

	if (piece >= HCLASSIC_NPIECES || o > 3)
		return false;
	frame_well(well, frame);
	return frame_free(frame, piece, x, y, o);
}

/* The well row mask of box row r at column x (x may be negative: the cells
 * are then in box columns >= -x, which the caller has checked). */
static uint16_t
row_mask(unsigned piece, unsigned o, unsigned r, int x)
{
	unsigned m = box[piece][o][r];

	return (uint16_t)((x >= 0 ? m << x : m >> -x) & HCLASSIC_FULL_ROW);
}

static unsigned
well_top(const uint16_t well[HCLASSIC_ROWS])
{
	unsigned r;

	for (r = 0; r < HCLASSIC_ROWS; r++)
		if (well[r])
			return r;
	return HCLASSIC_ROWS;
}

/* Locks piece at a free position of in: writes the well it leaves into out
 * (may be in), returns the rows removed and sets *over when a cell is in
 * the bar (nothing is removed then). */
static unsigned
lock_into(const uint16_t in[HCLASSIC_ROWS], unsigned piece, int x, int y, unsigned o,
    uint16_t out[HCLASSIC_ROWS], bool *over)
{
	uint16_t w[HCLASSIC_ROWS];
	unsigned r, top = HCLASSIC_ROWS, lines = 0;
	int src, dst;

	memcpy(w, in, sizeof w);
	for (r = 0; r < 4; r++) {
		uint16_t m = row_mask(piece, o, r, x);

		if (!m)
			continue;
		w[y + (int)r] |= m;
		if (top == HCLASSIC_ROWS)
			top = (unsigned)y + r;
	}
	*over = top < HCLASSIC_BAR;
	if (!*over) {
		for (src = dst = HCLASSIC_ROWS - 1; src >= 0; src--) {
			if (w[src] == HCLASSIC_FULL_ROW) {
				lines++;
				continue;
			}
			w[dst--] = w[src];
		}
		for (; dst >= 0; dst--)
			w[dst] = 0;
	}
	memcpy(out, w, sizeof w);
	return lines;
}

void
hclassic_well_key(const uint16_t well[HCLASSIC_ROWS], uint8_t key[HCLASSIC_KEY_BYTES])
{
	uint32_t acc = 0;
	unsigned r, nbits = 0, n = 0;

	/* Rows are appended 10 bits at a time, low bits first, and whole bytes
	 * leave from the bottom: bit 10 r + c lands in byte (10 r + c) / 8. */
	for (r = 0; r < HCLASSIC_ROWS; r++) {
		acc |= (uint32_t)(well[r] & HCLASSIC_FULL_ROW) << nbits;
		nbits += HCLASSIC_COLS;
		while (nbits >= 8) {
			key[n++] = (uint8_t)acc;
			acc >>= 8;
			nbits -= 8;
		}
	}
}

static uint32_t
mem_get(const struct hclassic_memory *mem, const uint16_t well[HCLASSIC_ROWS],
    uint32_t *lookups)
{
	uint8_t key[HCLASSIC_KEY_BYTES];

	if (!mem || !mem->get)
		return 0;
	hclassic_well_key(well, key);
	if (lookups)
		(*lookups)++;
	return mem->get(mem->ctx, key);
}

static bool
mem_set(const struct hclassic_memory *mem, const uint16_t well[HCLASSIC_ROWS], uint32_t v)
{
	uint8_t key[HCLASSIC_KEY_BYTES];

	if (!mem || !mem->set)
		return true;
	hclassic_well_key(well, key);
	return mem->set(mem->ctx, key, v);
}

/* One piece's landings for the supplier: its best rating, and key 1 for
 * the current (max count) or 2022 (any seen) version. The hot loop of the
 * engine: positions are packed as x + 3 (bits 0-3), y (4-8) and o (9-10)
 * so that no division is needed, and each (o, x) has its four framed row
 * masks ready, with x = -3 and x = 9 always blocked, so a test is four
 * ANDs and no range check (rows 20-22 of the frame are walls). */
#define PK(x, y, o) ((unsigned)((x) + 3) | (unsigned)(y) << 4 | (unsigned)(o) << 9)

static void
rate_piece(const uint16_t well[HCLASSIC_ROWS], const uint16_t frame[FRAME_ROWS], unsigned piece,
    uint32_t lines, unsigned supplier, const struct hclassic_memory *mem, uint8_t *rating,
    uint32_t *loops, uint16_t *nlandings, uint32_t *lookups)
{
	uint16_t masks[4][13][4];
	uint16_t queue[HCLASSIC_POSITIONS];
	uint8_t seen[2048 / 8];
	unsigned head = 0, tail = 0, best = 0, nland = 0, o, xi, r;
	uint32_t worst = 0;
	bool ask = supplier == HCLASSIC_CURRENT || supplier == HCLASSIC_2022;
	int y0 = 0;

	for (o = 0; o < 4; o++)
		for (xi = 0; xi < 13; xi++)
			for (r = 0; r < 4; r++)
				masks[o][xi][r] = xi == 0 || xi == 12 ? 0xffff :
				    (uint16_t)((unsigned)box[piece][o][r] << (xi - 1));
	memset(seen, 0, sizeof seen);
	/* Start as low as the empty rows under the bar's box allow. */
	while (y0 + 4 < HCLASSIC_ROWS && well[y0 + 4] == 0)
		y0++;
	queue[tail++] = (uint16_t)PK(SPAWN_X, y0, 0);
	seen[queue[0] >> 3] |= (uint8_t)(1u << (queue[0] & 7));
	while (head < tail) {
		unsigned i = queue[head++], k;
		unsigned x3 = i & 15, y = i >> 4 & 31, oo = i >> 9;

		for (k = 0; k < 4; k++) {
			unsigned nx3 = x3, ny = y, no = oo, j;
			const uint16_t *mk;

			if (k == 0)
				nx3--;
			else if (k == 1)
				nx3++;
			else if (k == 2)
				ny++;
			else
				no = (oo + 1) & 3;
			mk = masks[no][nx3];
			if (!((frame[ny] & mk[0]) | (frame[ny + 1] & mk[1]) | (frame[ny + 2] & mk[2]) |
			    (frame[ny + 3] & mk[3]))) {
				j = nx3 | ny << 4 | no << 9;
				if (!(seen[j >> 3] >> (j & 7) & 1u)) {
					seen[j >> 3] |= (uint8_t)(1u << (j & 7));
					queue[tail++] = (uint16_t)j;
				}
				continue;
			}
			if (k != 2)
				continue;
			{
				uint16_t after[HCLASSIC_ROWS];
				bool over;
				unsigned cleared = lock_into(well, piece, (int)x3 - 3, (int)y, oo, after,
				    &over);
				unsigned top = well_top(after);

				nland++;
				if (top > best)
					best = top;
				if (ask && !over && (uint64_t)lines + cleared >= 2 &&
				    !(supplier == HCLASSIC_2022 && worst > 0)) {
					uint32_t c = mem_get(mem, after, lookups);

					if (supplier == HCLASSIC_2022 && c > 0)
						c = 1;
					if (c > worst)
						worst = c;
				}
			}
		}
	}
	*rating = (uint8_t)best;
	*loops = worst;
	*nlandings = (uint16_t)nland;
}

unsigned
hclassic_choose(const uint16_t well[HCLASSIC_ROWS], uint32_t lines, unsigned supplier,
    const struct hclassic_memory *mem, struct hclassic_choice *detail)
{
	struct hclassic_choice ch;
	uint16_t frame[FRAME_ROWS];
	uint32_t given = 0;
	unsigned p, k, best = HCLASSIC_NPIECES;

	memset(&ch, 0, sizeof ch);
	if (supplier >= HCLASSIC_NSUPPLIERS)
		supplier = HCLASSIC_CURRENT;
	frame_well(well, frame);
	if (supplier == HCLASSIC_2021 && lines >= 2)
		given = mem_get(mem, well, &ch.lookups);
	for (p = 0; p < HCLASSIC_NPIECES; p++) {
		rate_piece(well, frame, p, lines, supplier, mem, &ch.rating[p], &ch.loops[p],
		    &ch.landings[p], &ch.lookups);
		if (supplier == HCLASSIC_2021)
			ch.loops[p] = given >> p & 1u;
	}
	for (k = 0; k < HCLASSIC_NPIECES; k++) {
		p = hclassic_order[k];
		if (best == HCLASSIC_NPIECES || ch.loops[p] < ch.loops[best] ||
		    (ch.loops[p] == ch.loops[best] && ch.rating[p] < ch.rating[best]))
			best = p;
	}
	ch.piece = (uint8_t)best;
	if (detail)
		*detail = ch;
	return best;
}

/* One supplier call on g's well: stores what the version remembers and
 * sets the new live piece. False when the memory refused. */
static bool
supply(struct hclassic *g, const struct hclassic_memory *mem)
{
	unsigned p;

	if (g->supplier == HCLASSIC_CURRENT || g->supplier == HCLASSIC_2022) {
		uint32_t c = g->lines >= 2 ? mem_get(mem, g->well, NULL) : 0;

		if (!mem_set(mem, g->well, c == UINT32_MAX ? c : c + 1))
			return false;
	}
	p = hclassic_choose(g->well, g->lines, g->supplier, mem, NULL);
	if (g->supplier == HCLASSIC_2021) {
		uint32_t given = g->lines >= 2 ? mem_get(mem, g->well, NULL) : 0;

		if (!mem_set(mem, g->well, given | 1u << p))
			return false;
	}
	g->piece = (uint8_t)p;
	g->x = SPAWN_X;
	g->y = 0;
	g->o = 0;
	g->pieces++;
	return true;
}

enum hclassic_outcome
hclassic_start_from(struct hclassic *g, unsigned supplier, const uint16_t well[HCLASSIC_ROWS],
    uint32_t lines, const struct hclassic_memory *mem, char reason[ENGINE_REASON_MAX])
{
	struct hclassic n;
	unsigned r;

	if (supplier >= HCLASSIC_NSUPPLIERS) {
		engine_refuse(reason, ENGINE_REASON_MAX, "unknown supplier version %u", supplier);
		return HCLASSIC_REFUSED;
	}
	if (lines > HCLASSIC_COUNT_MAX) {
		engine_refuse(reason, ENGINE_REASON_MAX, "too many lines");
		return HCLASSIC_REFUSED;
	}
	memset(&n, 0, sizeof n);
	for (r = 0; r < HCLASSIC_ROWS; r++) {
		if (well[r] > HCLASSIC_FULL_ROW || well[r] == HCLASSIC_FULL_ROW ||
		    (r < HCLASSIC_BAR && well[r] != 0)) {
			engine_refuse(reason, ENGINE_REASON_MAX,
			    "row %u is full, out of range or in the bar and not empty", r);
			return HCLASSIC_REFUSED;
		}
		n.well[r] = well[r];
	}
	n.supplier = (uint8_t)supplier;
	n.lines = lines;
	if (!supply(&n, mem)) {
		engine_refuse(reason, ENGINE_REASON_MAX, "the run's memory could not store a well");
		return HCLASSIC_MEMORY;
	}
	*g = n;
	if (reason)
		reason[0] = '\0';
	return HCLASSIC_OK;
}

enum hclassic_outcome
hclassic_start(struct hclassic *g, unsigned supplier, const struct hclassic_memory *mem,
    char reason[ENGINE_REASON_MAX])
{
	static const uint16_t empty[HCLASSIC_ROWS];

	return hclassic_start_from(g, supplier, empty, 0, mem, reason);
}

/* Where key k (0 L, 1 R, 2 D, 3 U) would take a piece at x, y in
 * orientation o, whether or not it fits there. */
static void
key_move(int k, int *x, int *y, unsigned *o)
{
	if (k == 0)
		(*x)--;
	else if (k == 1)
		(*x)++;
	else if (k == 2)
		(*y)++;
	else
		*o = (*o + 1) & 3;
}

int
hclassic_key_code(char c)
{
	switch (c) {
	case 'L': return 0;
	case 'R': return 1;
	case 'D': return 2;
	case 'U': return 3;
	default: return -1;
	}
}

static void
report_init(struct hclassic_report *rep)
{
	if (rep) {
		memset(rep, 0, sizeof *rep);
		rep->outcome = HCLASSIC_OK;
	}
}

static enum hclassic_outcome
refuse(struct hclassic_report *rep, enum hclassic_outcome out, const char *why, size_t at)
{
	if (rep) {
		rep->outcome = out;
		if (at != (size_t)-1)
			engine_refuse(rep->message, sizeof rep->message, "%s (key %zu)", why, at + 1);
		else
			engine_refuse(rep->message, sizeof rep->message, "%s", why);
	}
	return out;
}

bool
hclassic_valid(const struct hclassic *g)
{
	unsigned r;

	if (g->piece >= HCLASSIC_NPIECES || g->o > 3 || g->supplier >= HCLASSIC_NSUPPLIERS ||
	    g->over > 1 || g->reserved[0] || g->reserved[1] || g->pieces == 0 ||
	    g->x < HCLASSIC_XMIN || g->x >= HCLASSIC_XMIN + HCLASSIC_NX || g->y >= HCLASSIC_NY ||
	    g->keys > HCLASSIC_COUNT_MAX)
		return false;
	for (r = 0; r < HCLASSIC_ROWS; r++) {
		if (g->well[r] > HCLASSIC_FULL_ROW)
			return false;
		if (!g->over && (g->well[r] == HCLASSIC_FULL_ROW || (r < HCLASSIC_BAR && g->well[r])))
			return false;
	}
	return g->over || hclassic_free(g->well, g->piece, g->x, g->y, g->o);
}

enum hclassic_outcome
hclassic_keys(struct hclassic *g, const char *keys, size_t nkeys,
    const struct hclassic_memory *mem, struct hclassic_report *rep)
{
	uint16_t frame[FRAME_ROWS];
	size_t i;

	report_init(rep);
	if (!hclassic_valid(g))
		return refuse(rep, HCLASSIC_REFUSED, "not a valid state", (size_t)-1);
	if (g->over)
		return refuse(rep, HCLASSIC_GAME_OVER, "the run is over", (size_t)-1);
	if (nkeys && !keys)
		return refuse(rep, HCLASSIC_REFUSED, "no keys", (size_t)-1);
	for (i = 0; i < nkeys; i++)
		if (hclassic_key_code(keys[i]) < 0)
			return refuse(rep, HCLASSIC_REFUSED, "a key is one of L, R, D, U", i);
	if (nkeys > HCLASSIC_COUNT_MAX - g->keys)
		return refuse(rep, HCLASSIC_REFUSED, "the run is too long", (size_t)-1);
	frame_well(g->well, frame);
	for (i = 0; i < nkeys; i++) {
		int k = hclassic_key_code(keys[i]);
		int nx = g->x, ny = g->y;
		unsigned no = g->o;

		key_move(k, &nx, &ny, &no);
		if (frame_free(frame, g->piece, nx, ny, no)) {
			g->x = (int8_t)nx;
			g->y = (uint8_t)ny;
			g->o = (uint8_t)no;
		} else if (k == 2) {
			struct hclassic before = *g;
			bool over;
			unsigned cleared = lock_into(g->well, g->piece, g->x, g->y, g->o, g->well,
			    &over);

			g->lines += cleared;
			g->keys++;
			if (over) {
				g->over = 1;
				if (rep) {
					rep->applied = i + 1;
					rep->ignored = nkeys - i - 1;
					rep->locks++;
				}
				return HCLASSIC_OK;
			}
			if (!supply(g, mem)) {
				*g = before;
				if (rep)
					rep->applied = i;
				return refuse(rep, HCLASSIC_MEMORY,
				    "the run's memory could not store a well", i);
			}
			if (rep) {
				rep->locks++;
				rep->lines += cleared;
			}
			frame_well(g->well, frame);
			continue;
		}
		g->keys++;
	}
	if (rep)
		rep->applied = nkeys;
	return HCLASSIC_OK;
}

/* The four locked cells as one number, to tell locks apart: the row of
 * the highest cell and the non-empty row masks from there down. */
static uint64_t
lock_signature(unsigned piece, int x, int y, unsigned o)
{
	uint64_t sig = 0;
	unsigned r, top = 0;
	bool first = true;

	for (r = 0; r < 4; r++) {
		uint16_t m = row_mask(piece, o, r, x);

		if (!m)
			continue;
		if (first) {
			top = (unsigned)y + r;
			first = false;
		}
		sig = sig << 10 | m;
	}
	return sig << 5 | top;
}

size_t
hclassic_options(const struct hclassic *g, struct hclassic_search *s, struct hclassic_lock *out,
    size_t cap)
{
	uint16_t frame[FRAME_ROWS];
	uint16_t queue[HCLASSIC_POSITIONS];
	uint16_t dist[HCLASSIC_POSITIONS];
	uint64_t sigs[HCLASSIC_LOCKS_MAX];
	unsigned head = 0, tail = 0, start;
	size_t n = 0;

	memset(s->from, 0xff, sizeof s->from);
	memset(s->key, 0, sizeof s->key);
	if (g->over || !hclassic_valid(g))
		return 0;
	frame_well(g->well, frame);
	if (!frame_free(frame, g->piece, g->x, g->y, g->o & 3u))
		return 0;
	start = pos_index(g->x, g->y, g->o & 3u);
	queue[tail++] = (uint16_t)start;
	dist[start] = 0;
	s->key[start] = 'S';
	while (head < tail) {
		unsigned i = queue[head++], k;
		int x, y;
		unsigned o;

		pos_split(i, &x, &y, &o);
		for (k = 0; k < 4; k++) {
			int nx = x, ny = y;
			unsigned no = o, j;

			key_move(k, &nx, &ny, &no);
			if (frame_free(frame, g->piece, nx, ny, no)) {
				j = pos_index(nx, ny, no);
				if (!s->key[j]) {
					s->key[j] = (uint8_t)key_chars[k];
					s->from[j] = (uint16_t)i;
					dist[j] = (uint16_t)(dist[i] + 1);
					queue[tail++] = (uint16_t)j;
				}
				continue;
			}
			if (k != 2)
				continue;
			{
				uint64_t sig = lock_signature(g->piece, x, y, o);
				size_t m;

				for (m = 0; m < n; m++)
					if (sigs[m] == sig)
						break;
				if (m < n)
					continue;
				sigs[n] = sig;
				if (n < cap) {
					struct hclassic_lock *l = &out[n];
					bool over;

					memset(l, 0, sizeof *l);
					l->x = (int8_t)x;
					l->y = (uint8_t)y;
					l->o = (uint8_t)o;
					l->lines = (uint8_t)lock_into(g->well, g->piece, x, y, o, l->well,
					    &over);
					l->over = over;
					l->top = (uint8_t)well_top(l->well);
					l->nkeys = (uint16_t)(dist[i] + 1);
					l->pos = (uint16_t)i;
				}
				n++;
			}
		}
	}
	/* The start is marked 'S' only to be found; it reads as unreached
	 * through from[] (NO_POS). */
	s->key[start] = 0;
	s->from[start] = NO_POS;
	return n;
}

size_t
hclassic_lock_path(const struct hclassic_search *s, const struct hclassic_lock *lock, char *buf,
    size_t cap)
{
	size_t len = lock->nkeys, k;
	unsigned i = lock->pos;

	if (!buf || cap <= len)
		return len;
	buf[len] = '\0';
	buf[len - 1] = 'D';
	for (k = len - 1; k > 0; k--) {
		if (i >= HCLASSIC_POSITIONS || !s->key[i])
			return 0; /* not a lock of this search */
		buf[k - 1] = (char)s->key[i];
		i = s->from[i];
	}
	return len;
}

void
hclassic_text(const struct hclassic *g, char out[HCLASSIC_TEXT_SIZE])
{
	uint16_t live[HCLASSIC_ROWS];
	unsigned r, c;
	char *p = out;

	memset(live, 0, sizeof live);
	if (!g->over && g->piece < HCLASSIC_NPIECES &&
	    hclassic_free(g->well, g->piece, g->x, g->y, g->o & 3u))
		for (r = 0; r < 4; r++) {
			uint16_t m = row_mask(g->piece, g->o & 3u, r, g->x);

			if (m)
				live[g->y + (int)r] |= m;
		}
	for (r = 0; r < HCLASSIC_ROWS; r++) {
		for (c = 0; c < HCLASSIC_COLS; c++)
			*p++ = live[r] >> c & 1u ? '@' : g->well[r] >> c & 1u ? '#' : '.';
		*p++ = '\n';
	}
	*p = '\0';
}

const char *
hclassic_piece_name(unsigned piece)
{
	return piece < HCLASSIC_NPIECES ? piece_names[piece] : NULL;
}

const char *
hclassic_supplier_name(unsigned supplier)
{
	return supplier < HCLASSIC_NSUPPLIERS ? supplier_names[supplier] : NULL;
}

int
hclassic_supplier_parse(const char *name)
{
	int i;

	if (!name)
		return -1;
	for (i = 0; i < HCLASSIC_NSUPPLIERS; i++) {
		const char *a = name, *b = supplier_names[i];

		while (*a && *a == *b)
			a++, b++;
		if (*a == *b)
			return i;
	}
	return -1;
}
