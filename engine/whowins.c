/*
 * whowins.c: the who-wins search (docs/rules/whowins.md).
 *
 * A well is a column of 16-bit rows (bit c = column c), the buffer's 4 rows
 * on top and 4 full rows of padding under the floor. A piece's positions are
 * (orientation, box row, box column); for one orientation and one box row the
 * set of box columns where the shape fits is a single bit mask, the AND of
 * each cell's row of free cells shifted into box coordinates. The reachable
 * locks of full movement are then a flood fill row by row from the top:
 * within a row, left and right spread a mask across its runs of fitting
 * columns and rotation moves bits between orientations (same box, no
 * kicks), until nothing changes; a down move carries the row's mask into the
 * next row, and bits that cannot go down are the locks. No move goes up,
 * so one pass from the spawn to the floor sees every reachable position.
 * Drop-only is the same masks without the spreading.
 *
 * The search is a depth-first minimax with an exact transposition table on
 * the well proper (the buffer is always empty in a well that is still being
 * played). A slot is the well's cells packed in as many 64-bit words as it
 * takes, with four flag bits at the top of the last word: the result (2
 * bits, 0 = empty slot) and two marks the strategy walk uses. Probing is
 * linear; the table refuses a new entry once 7/8 of its slots are taken, and
 * that refusal ends the search with UNKNOWN_MEMORY. Nothing is ever
 * overwritten, so every well the search has settled stays in the table, and
 * the strategy walk reads the winner's decisions back from it.
 *
 * Pruning. At a node the landings of all seven pieces are generated first;
 * a piece with a landing that completes a row is answered at once. Then each
 * remaining piece's landings are looked up in the table: a known player win
 * answers the piece, and a piece all of whose landings are known supplier
 * wins (or that has no landing) settles the node for the supplier. Only then
 * does the search recurse, pieces with the fewest open landings first (the
 * likeliest supplier wins), each piece's landings best first (fullest rows
 * after the landing), stopping at the first player win.
 *
 * Symmetry. Under drop-only movement the landings of a piece in a mirrored
 * well are the mirrored landings of the mirrored piece (J and L, S and Z
 * swap; the seven pieces' shapes, all orientations together, are closed
 * under mirroring), so a well and its mirror have one result and share one
 * slot (the smaller key). Under full movement the rotation system is not
 * mirror-symmetric (a mirrored rotation is a turn the other way about a
 * shifted box, whose intermediate positions may be blocked), so no symmetry
 * is used there.
 *
 * Workload: one search runs for milliseconds to hours; a node costs a
 * generation of about 150-250 landings' masks and one table probe per
 * landing it looks at. The table's random probes dominate on big wells.
 */
#include "whowins.h"

#include <string.h>

#include "engine.h"

#define FLAG_SHIFT 60
#define VAL_MASK (UINT64_C(3) << FLAG_SHIFT)
#define MARK0 (UINT64_C(1) << 62)
#define MARK1 (UINT64_C(1) << 63)
#define KNOWN_BIT (UINT32_C(1) << 15) /* landing's child known to be a supplier win */
#define BATCH 16 /* table probes overlapped in the search's first pass */
#define HOLE_COST 12 /* landing order: a covered empty cell against a row's fullness */
#define ABORTED(r) ((r) >= WHOWINS_UNKNOWN_MEMORY)

/* Box rows, bit j = box column j, transcribed from the rules' pictures. */
static const uint8_t boxes[WHOWINS_NPIECES][4][4] = {
	[WHOWINS_O] = { { 0x0, 0x6, 0x6, 0x0 } },
	[WHOWINS_I] = { { 0x0, 0xf, 0x0, 0x0 }, { 0x4, 0x4, 0x4, 0x4 } },
	[WHOWINS_J] = { { 0x0, 0x7, 0x4, 0x0 }, { 0x2, 0x2, 0x3, 0x0 }, { 0x1, 0x7, 0x0, 0x0 }, { 0x6, 0x2, 0x2, 0x0 } },
	[WHOWINS_L] = { { 0x0, 0xe, 0x2, 0x0 }, { 0x6, 0x4, 0x4, 0x0 }, { 0x8, 0xe, 0x0, 0x0 }, { 0x4, 0x4, 0xc, 0x0 } },
	[WHOWINS_S] = { { 0x0, 0xc, 0x6, 0x0 }, { 0x4, 0xc, 0x8, 0x0 } },
	[WHOWINS_T] = { { 0x0, 0xe, 0x4, 0x0 }, { 0x4, 0x6, 0x4, 0x0 }, { 0x4, 0xe, 0x0, 0x0 }, { 0x4, 0xc, 0x4, 0x0 } },
	[WHOWINS_Z] = { { 0x0, 0x6, 0xc, 0x0 }, { 0x8, 0xc, 0x4, 0x0 } },
};
static const uint8_t nrots[WHOWINS_NPIECES] = { 1, 2, 4, 4, 2, 4, 2 };
/* First box row holding a cell, per piece and orientation. */
static const uint8_t tops[WHOWINS_NPIECES][4] = {
	{ 1 }, { 1, 0 }, { 1, 0, 0, 0 }, { 1, 0, 0, 0 }, { 1, 0 }, { 1, 0, 0, 0 }, { 1, 0 },
};
static const char letters[WHOWINS_NPIECES + 1] = "OIJLSTZ";

unsigned
whowins_rotations(unsigned piece)
{
	return piece < WHOWINS_NPIECES ? nrots[piece] : 0;
}

void
whowins_box(unsigned piece, unsigned rot, uint8_t box[4])
{
	if (piece >= WHOWINS_NPIECES) {
		memset(box, 0, 4);
		return;
	}
	memcpy(box, boxes[piece][rot % nrots[piece]], 4);
}

char
whowins_piece_letter(unsigned piece)
{
	return piece < WHOWINS_NPIECES ? letters[piece] : '?';
}

int
whowins_piece_from_letter(char c)
{
	int p;

	for (p = 0; p < WHOWINS_NPIECES; p++)
		if (letters[p] == c)
			return p;
	return -1;
}

const char *
whowins_result_name(enum whowins_result r)
{
	switch (r) {
	case WHOWINS_PLAYER: return "player";
	case WHOWINS_SUPPLIER: return "supplier";
	case WHOWINS_UNKNOWN_MEMORY: return "unknown: memory";
	case WHOWINS_UNKNOWN_BUDGET: return "unknown: budget";
	case WHOWINS_UNKNOWN_STOPPED: return "unknown: stopped";
	case WHOWINS_NONE: break;
	}
	return "none";
}

const char *
whowins_movement_name(enum whowins_movement m)
{
	return m == WHOWINS_DROP ? "drop" : "full";
}

/* ---- landings ---- */

/* A landing packed in 32 bits: orientation (2 bits), box column + 3 (4
 * bits), box row (5 bits); bit 15 the KNOWN mark; bits 16-31 a score. */
#define L_ROT(l) ((unsigned)(l) & 3u)
#define L_IDX(l) (((unsigned)(l) >> 2) & 15u)
#define L_ROW(l) (((unsigned)(l) >> 6) & 31u)
#define L_PACK(r, idx, y) ((uint32_t)(r) | (uint32_t)(idx) << 2 | (uint32_t)(y) << 6)

static inline uint32_t
shift_mask(uint32_t x, int k)
{
	return k >= 0 ? x << k : x >> -k;
}

/* Box columns (+3) where orientation rot of piece p fits with its box top at
 * row y. */
static inline uint32_t
fits(const struct whowins *s, unsigned p, unsigned rot, unsigned y)
{
	const uint8_t *b = boxes[p][rot];
	uint32_t full = (UINT32_C(1) << s->width) - 1, v = ~UINT32_C(0);
	unsigned i, j;

	for (i = 0; i < 4; i++) {
		uint32_t f;

		if (b[i] == 0)
			continue;
		f = ~(uint32_t)s->rows[y + i] & full;
		for (j = 0; j < 4; j++)
			if (b[i] >> j & 1)
				v &= shift_mask(f, 3 - (int)j);
	}
	return v;
}

/* The cells of box row i of a landing, in well columns. */
static inline uint16_t
cells_row(unsigned p, unsigned rot, unsigned idx, unsigned i)
{
	return (uint16_t)shift_mask(boxes[p][rot][i], (int)idx - 3);
}

/* XORs a landing into the well (landing and lifting are the same call). */
static inline void
toggle(struct whowins *s, unsigned p, uint32_t l)
{
	unsigned i, rot = L_ROT(l), idx = L_IDX(l), y = L_ROW(l);

	for (i = 0; i < 4; i++)
		s->rows[y + i] ^= cells_row(p, rot, idx, i);
}

static inline bool
completes(const struct whowins *s, unsigned p, uint32_t l)
{
	uint16_t full = (uint16_t)((1u << s->width) - 1);
	unsigned i, rot = L_ROT(l), idx = L_IDX(l), y = L_ROW(l);

	for (i = 0; i < 4; i++) {
		uint16_t c = cells_row(p, rot, idx, i);

		if (c && (uint16_t)(s->rows[y + i] | c) == full)
			return true;
	}
	return false;
}

/* Appends the landings of the locks in mask m (orientation rot, row y);
 * returns true when one completes a row (it is then the last one) and stop
 * is set; without stop it always goes on and returns false. */
static bool
emit(const struct whowins *s, unsigned p, unsigned rot, unsigned y, uint32_t m, uint32_t *out,
    unsigned *n, bool stop)
{
	if (y + tops[p][rot] < WHOWINS_BUFFER)
		return false; /* a lock in the buffer is a loss, not a landing */
	while (m) {
		unsigned idx = (unsigned)__builtin_ctz(m);
		uint32_t l = L_PACK(rot, idx, y);

		m &= m - 1;
		out[(*n)++] = l;
		if (stop && completes(s, p, l))
			return true;
	}
	return false;
}

/* Every landing of piece p in the current well into out (at most s->lmax);
 * with stop, stops early, with *line set, at a landing that completes a
 * row. */
static unsigned
generate(const struct whowins *s, unsigned p, uint32_t *out, bool *line, bool stop)
{
	unsigned n = 0, nr = nrots[p], r, y;
	uint32_t reach[4] = { 0 }, v[4], vn[4], any;

	*line = false;
	if (s->movement == WHOWINS_DROP) {
		for (r = 0; r < nr; r++) {
			uint32_t alive = fits(s, p, r, 0);

			for (y = 0; alive; y++) {
				uint32_t next = fits(s, p, r, y + 1);

				if (emit(s, p, r, y, alive & ~next, out, &n, stop)) {
					*line = true;
					return n;
				}
				alive &= next;
			}
		}
		return n;
	}
	for (r = 0; r < nr; r++)
		v[r] = fits(s, p, r, 0);
	reach[0] = (UINT32_C(1) << ((s->width - 4) / 2 + 3)) & v[0];
	for (y = 0;; y++) {
		bool changed = true;

		while (changed) {
			changed = false;
			for (r = 0; r < nr; r++) {
				uint32_t x = reach[r], spread;
				unsigned nx = r + 1 == nr ? 0 : r + 1;

				for (;;) {
					spread = (x | x << 1 | x >> 1) & v[r];
					if (spread == x)
						break;
					x = spread;
				}
				if (x != reach[r])
					changed = true;
				reach[r] = x;
				spread = x & v[nx] & ~reach[nx];
				if (spread) {
					reach[nx] |= spread;
					changed = true;
				}
			}
		}
		any = 0;
		for (r = 0; r < nr; r++) {
			vn[r] = fits(s, p, r, y + 1);
			if (emit(s, p, r, y, reach[r] & ~vn[r], out, &n, stop)) {
				*line = true;
				return n;
			}
			reach[r] &= vn[r];
			v[r] = vn[r];
			any |= reach[r];
		}
		if (!any)
			return n;
	}
}

size_t
whowins_landings(unsigned width, unsigned height, enum whowins_movement m, const uint16_t *rows,
    unsigned piece, struct whowins_landing *out, bool *line, size_t cap)
{
	struct whowins s; /* only the fields generate reads */
	uint32_t l[WHOWINS_LANDINGS_MAX];
	uint16_t full;
	unsigned i, n;
	bool stopped;

	if (width < WHOWINS_W_MIN || width > WHOWINS_W_MAX || height > WHOWINS_H_MAX ||
	    piece >= WHOWINS_NPIECES)
		return 0;
	full = (uint16_t)((1u << width) - 1);
	s.width = width;
	s.height = height;
	s.movement = m;
	for (i = 0; i < sizeof s.rows / sizeof s.rows[0]; i++)
		s.rows[i] = i < WHOWINS_BUFFER ? 0 : i < WHOWINS_BUFFER + height ?
		    (uint16_t)(rows[i - WHOWINS_BUFFER] & full) : full;
	n = generate(&s, piece, l, &stopped, false);
	for (i = 0; i < n && i < cap; i++) {
		out[i].rot = (int8_t)L_ROT(l[i]);
		out[i].col = (int8_t)((int)L_IDX(l[i]) - 3);
		out[i].row = (int8_t)L_ROW(l[i]);
		if (line != NULL)
			line[i] = completes(&s, piece, l[i]);
	}
	return i;
}

/* ---- the table ---- */

static void
make_key(const struct whowins *s, uint64_t key[4], bool *mirrored)
{
	uint64_t a[4] = { 0 }, b[4] = { 0 };
	unsigned i, bit = 0, w = s->width, nw = s->slot_words;
	int k;

	for (i = 0; i < s->height; i++) {
		uint64_t row = s->rows[WHOWINS_BUFFER + i];
		unsigned word = bit >> 6, off = bit & 63;

		a[word] |= row << off;
		if (off + w > 64)
			a[word + 1] |= row >> (64 - off);
		if (s->mirror) {
			uint64_t m = s->rev[row];

			b[word] |= m << off;
			if (off + w > 64)
				b[word + 1] |= m >> (64 - off);
		}
		bit += w;
	}
	*mirrored = false;
	if (s->mirror) {
		for (k = (int)nw - 1; k >= 0; k--)
			if (a[k] != b[k])
				break;
		if (k >= 0 && b[k] < a[k]) {
			memcpy(a, b, sizeof a);
			*mirrored = true;
		}
	}
	memcpy(key, a, sizeof a);
}

static inline uint64_t
slot_index(const struct whowins *s, const uint64_t key[4])
{
	uint64_t h = 0;
	unsigned i;

	for (i = 0; i < s->slot_words; i++) {
		h ^= key[i] + UINT64_C(0x9e3779b97f4a7c15) * (i + 1);
		h ^= h >> 30;
		h *= UINT64_C(0xbf58476d1ce4e5b9);
		h ^= h >> 27;
		h *= UINT64_C(0x94d049bb133111eb);
		h ^= h >> 31;
	}
	/* a multiply-shift range reduction: nslots < 2^32 */
	return ((h >> 32) * s->nslots) >> 32;
}

static inline bool
slot_matches(const struct whowins *s, const uint64_t *slot, const uint64_t key[4])
{
	unsigned i, last = s->slot_words - 1;

	for (i = 0; i < last; i++)
		if (slot[i] != key[i])
			return false;
	return (slot[last] & ~(VAL_MASK | MARK0 | MARK1)) == key[last];
}

/* The slot holding key, or the empty slot where it would go, starting at
 * slot i (slot_index). */
static uint64_t *
probe_at(const struct whowins *s, const uint64_t key[4], uint64_t i)
{
	unsigned nw = s->slot_words;

	for (;;) {
		uint64_t *slot = s->slots + i * nw;

		if ((slot[nw - 1] & VAL_MASK) == 0 || slot_matches(s, slot, key))
			return slot;
		if (++i == s->nslots)
			i = 0;
	}
}

static uint64_t *
probe(const struct whowins *s, const uint64_t key[4])
{
	return probe_at(s, key, slot_index(s, key));
}

static inline enum whowins_result
slot_value(const struct whowins *s, const uint64_t *slot)
{
	return (enum whowins_result)(slot[s->slot_words - 1] >> FLAG_SHIFT & 3);
}

/* Fills key with the position's key and returns what the table already
 * knows of it, counting a hit when it knows something. */
static enum whowins_result
known(struct whowins *s, uint64_t key[4])
{
	bool mirrored;
	enum whowins_result r;

	make_key(s, key, &mirrored);
	r = slot_value(s, probe(s, key));
	if (r != WHOWINS_NONE)
		s->hits++;
	return r;
}

static enum whowins_result
lookup(struct whowins *s)
{
	uint64_t key[4];

	return known(s, key);
}

static enum whowins_result
store(struct whowins *s, const uint64_t key[4], enum whowins_result r)
{
	uint64_t *slot = probe(s, key);
	unsigned nw = s->slot_words;

	if (slot_value(s, slot) == WHOWINS_NONE) {
		if (s->used >= s->capacity)
			return WHOWINS_UNKNOWN_MEMORY;
		s->used++;
	}
	memcpy(slot, key, nw * sizeof *slot);
	slot[nw - 1] |= (uint64_t)r << FLAG_SHIFT;
	return r;
}

/* ---- the search ---- */

static inline uint32_t *
frame_of(const struct whowins *s, unsigned depth, unsigned p)
{
	return s->frames + ((size_t)depth * WHOWINS_NPIECES + p) * s->lmax;
}

/* Bits set in a row (no builtin: without POPCNT it is a libgcc call). */
static inline unsigned
popcount16(unsigned x)
{
	x = x - ((x >> 1) & 0x5555u);
	x = (x & 0x3333u) + ((x >> 2) & 0x3333u);
	x = (x + (x >> 4)) & 0x0f0fu;
	return (x + (x >> 8)) & 0x1fu;
}

static unsigned
score(const struct whowins *s, unsigned p, uint32_t l)
{
	unsigned i, sc = 0, rot = L_ROT(l), idx = L_IDX(l), y = L_ROW(l);

	unsigned holes = 0;

	for (i = 0; i < 4; i++) {
		uint16_t c = cells_row(p, rot, idx, i);

		if (c) {
			unsigned pc = popcount16((unsigned)(s->rows[y + i] | c));
			uint16_t under = (uint16_t)(s->rows[y + i + 1] | (i < 3 ? cells_row(p, rot, idx, i + 1) : 0));

			sc += pc * pc;
			holes += popcount16((unsigned)(c & ~under)); /* empty cells the landing covers */
		}
	}
	sc += y;
	return sc > HOLE_COST * holes ? sc - HOLE_COST * holes + 1 : 1;
}

/* Sorts landings by descending score (insertion sort: lists are short). */
static void
sort_landings(uint32_t *l, unsigned n)
{
	unsigned i, j;

	for (i = 1; i < n; i++) {
		uint32_t x = l[i];

		for (j = i; j > 0 && l[j - 1] >> 16 < x >> 16; j--)
			l[j] = l[j - 1];
		l[j] = x;
	}
}

static enum whowins_result search(struct whowins *s);

/* A well not in the table: expand it. */
static enum whowins_result
expand(struct whowins *s, const uint64_t key[4])
{
	unsigned depth = s->depth, p, i, k, order[WHOWINS_NPIECES], nopen[WHOWINS_NPIECES], norder = 0;
	bool line[WHOWINS_NPIECES];

	s->nodes++;
	if (s->budget && s->nodes > s->budget)
		return WHOWINS_UNKNOWN_BUDGET;
	if (s->progress && s->progress_every && s->nodes % s->progress_every == 0) {
		struct whowins_progress pr = { s->nodes, s->used, s->capacity, depth };

		if (!s->progress(s->progress_ctx, &pr))
			return WHOWINS_UNKNOWN_STOPPED;
	}
	if (depth + 1 >= s->nframes)
		return WHOWINS_UNKNOWN_MEMORY; /* cannot happen when the frames fit */

	for (p = 0; p < WHOWINS_NPIECES; p++) {
		s->counts[depth][p] = (uint16_t)generate(s, p, frame_of(s, depth, p), &line[p], true);
		if (!line[p] && s->counts[depth][p] == 0)
			return store(s, key, WHOWINS_SUPPLIER);
	}
	/* The table first: a known win answers a piece, a piece with every
	 * landing a known loss settles the well. */
	for (p = 0; p < WHOWINS_NPIECES; p++) {
		uint32_t *l = frame_of(s, depth, p);
		unsigned n = s->counts[depth][p], open = 0;
		bool won = false;

		if (line[p])
			continue;
		for (i = 0; i < n && !won; i += BATCH) {
			uint64_t keys[BATCH][4], at[BATCH];
			unsigned b, nb = n - i < BATCH ? n - i : BATCH;
			bool mirrored;

			/* keys first, with their slots fetched ahead: the probes
			 * are cache misses on a big table, and this overlaps them */
			for (b = 0; b < nb; b++) {
				toggle(s, p, l[i + b]);
				make_key(s, keys[b], &mirrored);
				toggle(s, p, l[i + b]);
				at[b] = slot_index(s, keys[b]);
				__builtin_prefetch(s->slots + at[b] * s->slot_words);
			}
			for (b = 0; b < nb && !won; b++) {
				enum whowins_result r = slot_value(s, probe_at(s, keys[b], at[b]));

				if (r != WHOWINS_NONE)
					s->hits++;
				if (r == WHOWINS_PLAYER)
					won = true;
				else if (r == WHOWINS_SUPPLIER)
					l[i + b] |= KNOWN_BIT;
				else
					open++;
			}
		}
		if (won)
			continue;
		if (open == 0)
			return store(s, key, WHOWINS_SUPPLIER);
		for (k = norder; k > 0 && nopen[k - 1] > open; k--) {
			order[k] = order[k - 1];
			nopen[k] = nopen[k - 1];
		}
		order[k] = p;
		nopen[k] = open;
		norder++;
	}
	for (k = 0; k < norder; k++) {
		uint32_t *l;
		unsigned n, m = 0;
		bool won = false;

		p = order[k];
		l = frame_of(s, depth, p);
		n = s->counts[depth][p];
		for (i = 0; i < n; i++)
			if (!(l[i] & KNOWN_BIT))
				l[m++] = (l[i] & 0xffffu) | (uint32_t)score(s, p, l[i]) << 16;
		sort_landings(l, m);
		for (i = 0; i < m && !won; i++) {
			enum whowins_result r;

			toggle(s, p, l[i]);
			s->depth++;
			r = search(s);
			s->depth--;
			toggle(s, p, l[i]);
			if (ABORTED(r))
				return r;
			won = r == WHOWINS_PLAYER;
		}
		if (!won)
			return store(s, key, WHOWINS_SUPPLIER);
	}
	return store(s, key, WHOWINS_PLAYER);
}

static enum whowins_result
search(struct whowins *s)
{
	uint64_t key[4];
	enum whowins_result r = known(s, key);

	return r != WHOWINS_NONE ? r : expand(s, key);
}

bool
whowins_init(struct whowins *s, unsigned width, unsigned height, enum whowins_movement m,
    void *mem, size_t bytes, char *reason, size_t cap)
{
	uintptr_t base, end;
	size_t frame_bytes, slot_bytes, nslots;
	unsigned i, c;

	if (width < WHOWINS_W_MIN || width > WHOWINS_W_MAX)
		return engine_refuse(reason, cap, "width %u is outside %d..%d", width, WHOWINS_W_MIN,
		    WHOWINS_W_MAX);
	if (height > WHOWINS_H_MAX)
		return engine_refuse(reason, cap, "height %u is outside 0..%d", height, WHOWINS_H_MAX);
	if (m != WHOWINS_FULL && m != WHOWINS_DROP)
		return engine_refuse(reason, cap, "unknown movement %d", (int)m);
	memset(s, 0, sizeof *s);
	s->width = width;
	s->height = height;
	s->movement = m;
	s->mirror = m == WHOWINS_DROP;
	s->slot_words = (width * height + 4 + 63) / 64;
	/* every lock of one orientation and box column lies on a row whose next
	 * row does not fit, so at most every other row holds one */
	s->lmax = 4 * (width + 3) * ((height + WHOWINS_BUFFER + 1) / 2);
	s->nframes = width * height / 4 + 2;
	if (s->mirror)
		for (i = 0; i < (1u << width); i++) {
			unsigned r = 0;

			for (c = 0; c < width; c++)
				if (i >> c & 1)
					r |= 1u << (width - 1 - c);
			s->rev[i] = (uint16_t)r;
		}

	base = ((uintptr_t)mem + 7) & ~(uintptr_t)7;
	end = (uintptr_t)mem + bytes;
	frame_bytes = (size_t)s->nframes * WHOWINS_NPIECES * s->lmax * sizeof(uint32_t);
	if (mem == NULL || end < base || end - base < frame_bytes)
		return true; /* solve answers UNKNOWN_MEMORY */
	s->frames = (uint32_t *)base;
	s->frame_bytes = frame_bytes;
	slot_bytes = s->slot_words * sizeof(uint64_t);
	nslots = (end - base - frame_bytes) / slot_bytes;
	if (nslots > UINT32_MAX)
		nslots = UINT32_MAX;
	s->slots = (uint64_t *)(base + frame_bytes);
	s->nslots = nslots;
	/* at least one slot stays empty, so that every probe ends */
	s->capacity = nslots - (nslots / 8 ? nslots / 8 : 1);
	return true;
}

enum whowins_result
whowins_solve(struct whowins *s, const uint16_t *start)
{
	uint16_t full = (uint16_t)((1u << s->width) - 1);
	unsigned i;

	s->nodes = s->hits = s->used = 0;
	s->depth = 0;
	memset(s->rows, 0, sizeof s->rows);
	memset(s->start, 0, sizeof s->start);
	for (i = 0; i < s->height; i++) {
		s->start[i] = start ? (uint16_t)(start[i] & full) : 0;
		s->rows[WHOWINS_BUFFER + i] = s->start[i];
	}
	for (i = WHOWINS_BUFFER + s->height; i < sizeof s->rows / sizeof s->rows[0]; i++)
		s->rows[i] = full;
	for (i = 0; i < s->height; i++)
		if (s->start[i] == full) /* a complete row: nothing to play */
			return s->result = WHOWINS_PLAYER;
	if (s->frames == NULL || s->capacity == 0)
		return s->result = WHOWINS_UNKNOWN_MEMORY;
	if (!s->zeroed)
		memset(s->slots, 0, s->nslots * s->slot_words * sizeof(uint64_t));
	s->zeroed = false;
	s->result = search(s);
	return s->result;
}

/* ---- the strategy walk ---- */

struct walk {
	whowins_visit_fn visit;
	void *ctx;
	int64_t count;
	bool failed;
};

static void
decision_of(const struct whowins *s, unsigned p, const uint32_t *l, struct whowins_decision *d)
{
	memset(d, 0, sizeof *d);
	memcpy(d->rows, s->rows + WHOWINS_BUFFER, s->height * sizeof d->rows[0]);
	d->piece = (uint8_t)p;
	if (l) {
		d->has_landing = true;
		d->landing.rot = (int8_t)L_ROT(*l);
		d->landing.col = (int8_t)((int)L_IDX(*l) - 3);
		d->landing.row = (int8_t)L_ROW(*l);
	}
}

static void walk_node(struct whowins *s, struct walk *w);

/* Hands the visitor the decision for piece p (the lock l, or NULL for
 * every lock); false, with the walk failed, when the visitor stops it. */
static bool
hand_over(const struct whowins *s, struct walk *w, unsigned p, const uint32_t *l)
{
	struct whowins_decision d;

	decision_of(s, p, l, &d);
	w->count++;
	if (!w->visit(w->ctx, &d)) {
		w->failed = true;
		return false;
	}
	return true;
}

/* Walks the position after piece p locks at l, then takes the lock back. */
static void
descend(struct whowins *s, struct walk *w, unsigned p, uint32_t l)
{
	toggle(s, p, l);
	s->depth++;
	walk_node(s, w);
	s->depth--;
	toggle(s, p, l);
}

static void
walk_node(struct whowins *s, struct walk *w)
{
	uint64_t key[4], *slot;
	uint64_t markbit;
	bool mirrored, line[WHOWINS_NPIECES];
	unsigned depth = s->depth, p, i, nw = s->slot_words;
	enum whowins_result want = s->result;

	if (w->failed)
		return;
	make_key(s, key, &mirrored);
	slot = probe(s, key);
	if (slot_value(s, slot) != want || depth + 1 >= s->nframes) {
		w->failed = true; /* cannot happen after a solved search */
		return;
	}
	markbit = mirrored ? MARK1 : MARK0;
	if (slot[nw - 1] & markbit)
		return;
	slot[nw - 1] |= markbit;
	for (p = 0; p < WHOWINS_NPIECES; p++)
		s->counts[depth][p] = (uint16_t)generate(s, p, frame_of(s, depth, p), &line[p], true);

	if (want == WHOWINS_PLAYER) {
		uint32_t chosen[WHOWINS_NPIECES];

		for (p = 0; p < WHOWINS_NPIECES; p++) {
			uint32_t *l = frame_of(s, depth, p);
			unsigned n = s->counts[depth][p];
			bool found = false;

			if (line[p]) {
				chosen[p] = l[n - 1];
				found = true;
			}
			for (i = 0; i < n && !found; i++) {
				toggle(s, p, l[i]);
				if (lookup(s) == WHOWINS_PLAYER) {
					chosen[p] = l[i];
					found = true;
				}
				toggle(s, p, l[i]);
			}
			if (!found) {
				w->failed = true;
				return;
			}
			if (!hand_over(s, w, p, &chosen[p]))
				return;
		}
		for (p = 0; p < WHOWINS_NPIECES && !w->failed; p++)
			if (!line[p])
				descend(s, w, p, chosen[p]);
		return;
	}

	for (p = 0; p < WHOWINS_NPIECES; p++) {
		uint32_t *l = frame_of(s, depth, p);
		unsigned n = s->counts[depth][p];
		bool all = !line[p];

		for (i = 0; i < n && all; i++) {
			toggle(s, p, l[i]);
			all = lookup(s) == WHOWINS_SUPPLIER;
			toggle(s, p, l[i]);
		}
		if (!all)
			continue;
		if (!hand_over(s, w, p, NULL))
			return;
		for (i = 0; i < n && !w->failed; i++)
			descend(s, w, p, l[i]);
		return;
	}
	w->failed = true;
}

int64_t
whowins_strategy(struct whowins *s, whowins_visit_fn visit, void *ctx)
{
	struct walk w = { visit, ctx, 0, false };
	uint16_t full = (uint16_t)((1u << s->width) - 1);
	uint64_t i;
	unsigned k;

	if (s->result != WHOWINS_PLAYER && s->result != WHOWINS_SUPPLIER)
		return -1;
	for (k = 0; k < s->height; k++) {
		s->rows[WHOWINS_BUFFER + k] = s->start[k];
		if (s->start[k] == full)
			return -1; /* settled without a table: no decision to make */
	}
	for (i = 0; i < s->nslots; i++)
		s->slots[i * s->slot_words + s->slot_words - 1] &= ~(MARK0 | MARK1);
	s->depth = 0;
	walk_node(s, &w);
	return w.failed ? -1 : w.count;
}
