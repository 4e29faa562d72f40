/*
 * whowins.h: who wins a small Tetris well when the supplier chooses every
 * piece, and how (docs/rules/whowins.md).
 *
 * The game: a well W columns wide with H rows below a 4-row buffer, empty at
 * the start, nothing ever cleared. The supplier names a piece, the player
 * lands it (full movement: any lock reachable from the spawn by rotate,
 * left, right and down; or drop-only: an orientation and a column chosen at
 * the top, then straight down); a lock with a cell in the buffer is not a
 * landing. The player wins as soon as a row of the well is complete; the
 * supplier wins a well where some piece has no landing that completes a row
 * or leads to a well the player wins. The game is finite (every landing adds
 * four cells) and has no draws, so every well is won by exactly one side.
 *
 * whowins.c is the solver: a depth-first search over wells with an exact
 * transposition table in memory the caller gives, bounded; when the table
 * is full the answer is WHOWINS_UNKNOWN_MEMORY, never a guess. After a
 * solved search whowins_strategy walks the table and hands every decision
 * of the winner's strategy to a visitor. whowins_check.c is the checker: it
 * shares nothing with the search but the piece tables, works on plain
 * cells, and plays every line of a strategy out.
 *
 * Wells are given as rows of the well proper, top first (row 0 here is the
 * well's row 4 counted with the buffer), bit c = column c (0 = left).
 *
 * Purity: no allocation, no I/O, no clock, no global state. Everything the
 * search needs lives in struct whowins and in the caller's memory block.
 */
#ifndef WHOWINS_H
#define WHOWINS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WHOWINS_W_MIN 4
#define WHOWINS_W_MAX 12
#define WHOWINS_H_MAX 16
#define WHOWINS_BUFFER 4 /* rows of the spawn area above the well proper */
#define WHOWINS_NPIECES 7
/* Most landings of one piece in one well: every lock of one orientation and
 * box column lies on a row whose next row does not fit, so at most every
 * other row of the well and its buffer holds one. */
#define WHOWINS_LANDINGS_MAX (4 * (WHOWINS_W_MAX + 3) * ((WHOWINS_H_MAX + WHOWINS_BUFFER + 1) / 2))

/* The pieces in the order of the rules' table. */
enum whowins_piece {
	WHOWINS_O, WHOWINS_I, WHOWINS_J, WHOWINS_L, WHOWINS_S, WHOWINS_T, WHOWINS_Z,
};

enum whowins_movement {
	WHOWINS_FULL, /* rotate, left, right, down from the spawn */
	WHOWINS_DROP, /* orientation and column at the top, then straight down */
};

enum whowins_result {
	WHOWINS_NONE,           /* not searched yet */
	WHOWINS_PLAYER,         /* the player forces a row */
	WHOWINS_SUPPLIER,       /* the supplier keeps every row open */
	WHOWINS_UNKNOWN_MEMORY, /* the table (or the search stack) did not fit */
	WHOWINS_UNKNOWN_BUDGET, /* the node budget was spent */
	WHOWINS_UNKNOWN_STOPPED, /* the progress callback asked to stop */
};

/* Progress, handed to the caller's callback every progress_every nodes. */
struct whowins_progress {
	uint64_t nodes;    /* positions searched so far */
	uint64_t used;     /* table entries filled */
	uint64_t capacity; /* entries the table may hold */
	unsigned depth;    /* pieces landed on the current line */
};

/* Return false to stop the search (the result is then UNKNOWN_STOPPED). */
typedef bool (*whowins_progress_fn)(void *ctx, const struct whowins_progress *p);

/* A landing: the piece's 4 x 4 box in orientation rot (0..3, the rules'
 * list), its left column col (-3..W-1) and its top row row (0..H+3, counted
 * with the buffer: row 4 is the well's top row). */
struct whowins_landing {
	int8_t rot, col, row;
};

/*
 * One decision of a strategy. A player's decision: at this well, when sent
 * `piece`, make this landing. A supplier's decision: at this well, send
 * `piece` (has_landing false). mark is the checker's scratch byte.
 */
struct whowins_decision {
	uint16_t rows[WHOWINS_H_MAX]; /* the well proper, top first; rows >= H are 0 */
	uint8_t piece;                /* enum whowins_piece */
	bool has_landing;             /* player strategies only */
	struct whowins_landing landing;
	uint8_t mark;                 /* set by whowins_check; ignore */
};

/* The strategy walk's visitor; return false to stop the walk. */
typedef bool (*whowins_visit_fn)(void *ctx, const struct whowins_decision *d);

/*
 * The solver. Fill it with whowins_init, then set the optional fields
 * (budget, progress), then call whowins_solve. The counters may be read at
 * any time; the rest is private. The struct is about 10 KB.
 */
struct whowins {
	/* set by the caller after whowins_init (optional) */
	uint64_t budget;         /* positions to search at most; 0: no limit */
	uint64_t progress_every; /* nodes between progress calls; 0: never */
	whowins_progress_fn progress;
	void *progress_ctx;
	bool zeroed;             /* the block is all zero bytes already (a fresh
	                            calloc): the next solve skips clearing its
	                            table, which also leaves untouched pages
	                            unmapped; cleared again after that solve */

	/* read-only for the caller */
	unsigned width, height;   /* 4..12, 0..16 */
	enum whowins_movement movement;
	bool mirror;              /* left-right symmetry used (drop-only: exact) */
	enum whowins_result result;
	uint64_t nodes;           /* positions searched: wells expanded */
	uint64_t hits;            /* table lookups that found the well */
	uint64_t used;            /* table entries filled */
	uint64_t capacity;        /* entries the table may hold (7/8 of its slots) */
	uint64_t nslots;          /* slots in the table */
	unsigned slot_words;      /* 64-bit words a slot takes */
	size_t frame_bytes;       /* of the caller's block, taken by the search stack */

	/* private */
	uint64_t *slots;
	uint32_t *frames;
	unsigned nframes, lmax;
	unsigned depth;
	uint16_t start[WHOWINS_H_MAX];
	uint16_t rows[WHOWINS_H_MAX + WHOWINS_BUFFER + 4]; /* with the buffer; below: full */
	uint16_t counts[WHOWINS_H_MAX * WHOWINS_W_MAX / 4 + 2][WHOWINS_NPIECES];
	uint16_t rev[1u << WHOWINS_W_MAX]; /* row mirrored, when mirror */
};

/* The piece tables: the cells of `piece` in orientation rot, as four box
 * rows (bit j = box column j). whowins_rotations counts the orientations
 * (1, 2 or 4); rot is taken modulo it. */
unsigned whowins_rotations(unsigned piece);
void whowins_box(unsigned piece, unsigned rot, uint8_t box[4]);
char whowins_piece_letter(unsigned piece);
int whowins_piece_from_letter(char c); /* -1 when not one of OIJLSTZ */
const char *whowins_result_name(enum whowins_result r); /* "player", "supplier", "unknown: memory", ... */
const char *whowins_movement_name(enum whowins_movement m); /* "full", "drop" */

/*
 * Prepares a search of a W x H well under movement m in the caller's block
 * mem (bytes long, any alignment, borrowed until the last call on s; its
 * contents are overwritten). The block holds the search stack first (a few
 * KB) and the table after it; a block too small for either still
 * initialises, and the search then answers UNKNOWN_MEMORY. Returns false
 * (reason written) when W or H is out of range.
 */
bool whowins_init(struct whowins *s, unsigned width, unsigned height, enum whowins_movement m,
    void *mem, size_t bytes, char *reason, size_t cap);

/*
 * Solves the well start (height rows, top first; NULL: the empty well).
 * A start well must have no complete row. The table starts empty on every
 * call. Returns the result, also kept in s->result. The counters tell what
 * it cost.
 */
enum whowins_result whowins_solve(struct whowins *s, const uint16_t *start);

/*
 * Walks the solved table (after whowins_solve answered PLAYER or SUPPLIER)
 * and hands the winner's strategy from the start well to visit, one
 * decision at a time, each well once: for a player win, the landing for each
 * of the seven pieces at every well the strategy reaches; for a supplier
 * win, the piece to send at every well the player can reach. Returns the
 * number of decisions visited, or -1 when there is no solved result or the
 * visitor stopped the walk.
 */
int64_t whowins_strategy(struct whowins *s, whowins_visit_fn visit, void *ctx);

/*
 * Every landing of piece in the well rows (height rows of the well proper,
 * top first, bits past width ignored) under movement m, the search's own
 * generator: in the order it finds them (the same well and piece always
 * give the same list), at most cap of them into out; line[i] (line
 * may be NULL) says whether landing i completes a row. Returns the count
 * written; 0 also when width, height or piece is out of range. Takes about
 * 12 KB of stack.
 */
size_t whowins_landings(unsigned width, unsigned height, enum whowins_movement m, const uint16_t *rows,
    unsigned piece, struct whowins_landing *out, bool *line, size_t cap);

/* ---- the checker (whowins_check.c) ---- */

struct whowins_check_stats {
	uint64_t wells;      /* distinct wells whose decisions were played out */
	uint64_t landings;   /* landings checked */
	uint64_t unused;     /* decisions never reached */
};

/*
 * Verifies that the strategy in d[0..n) wins the W x H well (from the empty
 * well) for `winner` (PLAYER or SUPPLIER) under movement m, by playing every
 * line out on plain cells with its own reachability search: a player
 * strategy must name, at every well it reaches, a legal landing for each of
 * the seven pieces, each completing a row or leading to another well it
 * covers; a supplier strategy must name, at every well the player can reach,
 * a piece none of whose landings completes a row, each leading to another
 * well it covers. d is sorted in place and its mark bytes written; nothing
 * else is kept. Returns true when it holds; otherwise false and the first
 * fault in reason.
 */
bool whowins_check(unsigned width, unsigned height, enum whowins_movement m,
    enum whowins_result winner, struct whowins_decision *d, size_t n,
    struct whowins_check_stats *stats, char *reason, size_t cap);

#endif
