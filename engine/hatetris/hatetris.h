/*
 * hatetris.h: HATETRIS, Tetris against a supplier that hands out the worst
 * piece (rules version "hatetris-v1", docs/rules/hatetris.md).
 *
 * The board and the placements are Stackfall's (tetromino.h): 10 x 20,
 * `place R C` turns the piece to rotation R, puts its leftmost cell in
 * column C and drops it straight down from above; it must end inside the 20
 * rows. There is no hold and no preview: the next piece is chosen only after
 * the current one has been placed and its full rows cleared.
 *
 * The supplier. For every piece in the order S, Z, O, I, L, J, T it tries
 * each legal placement and rates the board it leaves (after that
 * placement's own clears) by the empty rows above its highest filled cell
 * (20 for an empty board); the piece's rating is the best of those, what a
 * player would do with it (a piece with no placement rates -1 at depth 1).
 * It then supplies (1) among the pieces none of whose placements leads to a
 * board already seen in this run, or among all seven when every piece has
 * such a placement, (2) the lowest rated one, (3) the earliest in that order
 * on a tie. Depth 2 rates a piece one placement further: the best, over its
 * placements, of the depth-1 rating of the piece the depth-1 supplier would
 * then hand out on that board (rules 1-3 there, seeing the run's boards and
 * that board); -2 for a piece with no placement, -1 for a placement whose
 * next piece fits nowhere.
 *
 * Seen boards. The boards seen in a run are the empty start board and the
 * board after every placement. They are not in the state: a run's state is
 * sealed into a token and must stay small, so the caller keeps them (as
 * exact 25-byte keys, hatetris_board_key) and answers the supplier's
 * questions through an oracle. A board can only repeat after line clears:
 * a board after p placements and l lines holds 4p - 10l cells, so a later
 * board equals an earlier one only when 5m pieces and 2m lines (m >= 1) lie
 * between them. The supplier therefore asks nothing about a board whose
 * run has fewer than 2 lines counting its own clears, and never needs the
 * current board (a candidate holds 4 cells more than it, or 6 or more
 * fewer); it checks the empty start board itself.
 *
 * Purity: nothing here allocates, reads a clock or keeps global state; a
 * struct hatetris is plain, fixed-size and copyable by value. A refused
 * call leaves it byte for byte as it was.
 */
#ifndef HATETRIS_H
#define HATETRIS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine.h"
#include "tetromino.h"

#define HATETRIS_RULES "hatetris-v1"
#define HATETRIS_KEY_BYTES 25 /* 200 occupancy bits */
#define HATETRIS_TEXT_SIZE TETROMINO_TEXT_SIZE
#define HATETRIS_OPTIONS_MAX TETROMINO_OPTIONS_MAX
#define HATETRIS_NO_CAP 0u
/* A run with no cap still ends (as capped) at this many pieces, so that the
 * counters cannot wrap; it is far beyond any real game. */
#define HATETRIS_PIECES_MAX UINT32_C(0xffffffff)
/* Lines passed to hatetris_choose when a board's history is unknown: every
 * candidate board is then looked up. */
#define HATETRIS_LINES_UNKNOWN UINT32_C(0xffffffff)

/* Ratings (struct hatetris_choice): 0..20 empty rows above the stack. */
#define HATETRIS_RATING_NO_PLACEMENT (-1)  /* depth 1: the piece fits nowhere */
#define HATETRIS_RATING_DEAD_NEXT (-1)     /* depth 2: every placement leaves a
                                              board whose next piece fits nowhere */
#define HATETRIS_RATING_NO_PLACEMENT2 (-2) /* depth 2: the piece fits nowhere */

enum hatetris_status {
	HATETRIS_PLAYING,
	HATETRIS_OVER,
};

enum hatetris_end {
	HATETRIS_END_NONE,
	HATETRIS_END_TOP_OUT,   /* the supplied piece fits nowhere */
	HATETRIS_END_CAPPED,    /* the run's piece cap was reached */
	HATETRIS_END_ABANDONED, /* the account started another run */
};

enum hatetris_outcome {
	HATETRIS_OK,        /* done (or, for options and preview, answered) */
	HATETRIS_REFUSED,   /* illegal now; nothing changed */
	HATETRIS_GAME_OVER, /* refused because the run has ended; nothing changed */
};

/*
 * The seen-boards oracle. seen(ctx, key) answers whether the board with that
 * key (hatetris_board_key) is one of the boards left by an earlier placement
 * of this run: every placement made before the current call, in other words
 * every key the caller stored after a successful hatetris_place. Contract:
 *   - it answers from a set that does not change during one engine call
 *     (same key, same answer); ctx is the caller's and passed through;
 *   - including or leaving out the empty board and the run's current board
 *     makes no difference (the engine counts the empty board as seen itself,
 *     and the current board can never be a candidate), so a caller may store
 *     the key of each new board before or after the call that produced it;
 *   - it is asked only about boards whose run would have 2 lines or more
 *     (the run's lines plus the candidate's clears, both levels at depth 2;
 *     hatetris_choose given HATETRIS_LINES_UNKNOWN asks about every
 *     candidate), possibly about the same key more than once;
 *   - NULL means no board has been seen except those two.
 * The engine asks lazily: ratings first, then only the pieces it is about
 * to supply, in supply order, until one has no placement leading to a seen
 * board (struct hatetris_choice counts the questions).
 */
typedef bool (*hatetris_seen_fn)(void *ctx, const uint8_t key[HATETRIS_KEY_BYTES]);

struct hatetris {
	struct tetromino_board board; /* no full row, no empty row under a filled one */
	uint32_t pieces;     /* placed so far, 0..HATETRIS_PIECES_MAX */
	uint32_t lines;      /* rows cleared so far; cells = 4 * pieces - 10 * lines */
	uint32_t cap;        /* pieces cap, HATETRIS_NO_CAP (0) for none */
	uint8_t current;     /* enum tetromino_piece: the piece supplied */
	uint8_t depth;       /* supplier look-ahead, 1 or 2 */
	uint8_t status;      /* enum hatetris_status */
	uint8_t end_reason;  /* enum hatetris_end; NONE exactly while playing */
};

/* The result of a command. message is a short sentence on success ("placed S
 * rotation 0 at column 3: 1 line; next piece Z") and the reason on a refusal. */
struct hatetris_report {
	enum hatetris_outcome outcome;
	uint8_t lines;       /* rows cleared by a placement, 0..4 */
	uint8_t next;        /* after a placement: the piece supplied (g->current) */
	char message[ENGINE_REASON_MAX];
};

/* What the supplier saw when it chose; for tests, the bench and logs. */
struct hatetris_choice {
	uint8_t piece;        /* enum tetromino_piece: the piece supplied */
	int8_t rating[TETROMINO_NPIECES]; /* per piece (indexed by enum
	                         tetromino_piece) at the depth asked: -2..20 */
	uint8_t checked;      /* bit p: whether piece p repeats a seen board was decided */
	uint8_t repeats;      /* bit p (of checked): some placement of p leads to a seen board */
	bool fallback;        /* every piece repeats: chosen among all seven */
	uint32_t lookups;     /* oracle calls, second level included */
	uint32_t placements;  /* placements rated, second level included */
};

/* The supply order, S Z O I L J T, as enum tetromino_piece values. */
extern const uint8_t hatetris_order[TETROMINO_NPIECES];

/* Starts a run: an empty board and the first piece chosen by the supplier
 * (S at depth 1). cap is a pieces cap or HATETRIS_NO_CAP. seen is never
 * called here (the empty board clears no line) and may be NULL. Returns
 * false, leaving g unchanged, when depth is not 1 or 2. */
bool hatetris_init(struct hatetris *g, unsigned depth, uint32_t cap, hatetris_seen_fn seen,
    void *ctx);

/* In every command below, rep may be NULL; when given it is always filled. */

/* Drops the current piece at rotation (0-3) with its leftmost cell in column,
 * clears full rows, then supplies the next piece, asking seen (see its
 * contract) about candidate boards. After that, in this order, the run ends
 * `capped` when the cap (or HATETRIS_PIECES_MAX) is reached, or `top_out`
 * when the supplied piece fits nowhere; current is the supplied piece
 * either way. Refused (g unchanged) when the rotation or column is out of
 * range, when the piece would not end inside the 20 rows, and when the run
 * is over. */
enum hatetris_outcome hatetris_place(struct hatetris *g, unsigned rotation, unsigned column,
    hatetris_seen_fn seen, void *ctx, struct hatetris_report *rep);

/* Ends an unfinished run because its account started a new one; lines and
 * pieces are kept. */
enum hatetris_outcome hatetris_abandon(struct hatetris *g, struct hatetris_report *rep);

/* The supplier on its own: the piece it hands out on board b (no full row,
 * no empty row under a filled one) at depth 1 or 2 (anything else is read as
 * 1). lines is the run's lines so far, used only to skip questions that
 * cannot find a repeat; pass HATETRIS_LINES_UNKNOWN to ask about every
 * candidate. seen may be NULL. detail (may be NULL) receives the ratings and
 * what was looked up. */
unsigned hatetris_choose(const struct tetromino_board *b, uint32_t lines, unsigned depth,
    hatetris_seen_fn seen, void *ctx, struct hatetris_choice *detail);

/* The exact key of a board's occupancy: cell (row r from the bottom, column
 * c) is bit i = 10 r + c, stored in byte i / 8 at bit i % 8. Letters are not
 * part of it: boards that fill the same cells are the same board. */
void hatetris_board_key(const struct tetromino_board *b, uint8_t key[HATETRIS_KEY_BYTES]);

/* Every distinct valid placement of the current piece with its figures (see
 * tetromino_options). Writes at most cap entries and stores the count (at
 * most HATETRIS_OPTIONS_MAX) in *count (may be NULL). Refused only when the
 * run is over. */
enum hatetris_outcome hatetris_options(const struct hatetris *g, struct tetromino_option *out,
    size_t cap, size_t *count, struct hatetris_report *rep);

/* The figures and board text after placing the current piece at rotation
 * and column, without placing it. Refused like hatetris_place. pv may be
 * NULL. */
enum hatetris_outcome hatetris_preview(const struct hatetris *g, unsigned rotation,
    unsigned column, struct tetromino_preview *pv, struct hatetris_report *rep);

/* The board as text (see tetromino_board_text). */
void hatetris_board_text(const struct hatetris *g, char out[HATETRIS_TEXT_SIZE]);

/* "playing" or "over". */
const char *hatetris_status_name(unsigned status);

/* "top_out", "capped", "abandoned"; NULL for NONE or out of range. */
const char *hatetris_end_name(unsigned end_reason);

/*
 * Serialisation, for sealing into state tokens.
 *
 * Layout (version 1, integers little-endian):
 *   0      version (1)
 *   1      depth (1 or 2)
 *   2      current piece (bits 0-3), end_reason (bits 4-6), bit 7 zero
 *   3..6   pieces
 *   7..10  lines
 *   11..14 cap (0 = none)
 *   15     n, the number of non-empty board rows (0..20)
 *   16..   n rows bottom first, 4 bytes each: 3 bits per cell as in
 *          struct tetromino_board, bits 30-31 zero
 *   last 2 CRC-16/CCITT-FALSE of all bytes before it
 * so a run takes 18 + 4n bytes, HATETRIS_SERIAL_MAX at most. status is
 * derived from end_reason. The seen boards are not in it (see above).
 */
#define HATETRIS_SERIAL_VERSION 1
#define HATETRIS_SERIAL_MAX (18 + 4 * TETROMINO_ROWS)

/* Writes g's bytes into buf when they fit in cap and returns their length
 * (which may exceed cap: then nothing is written). */
size_t hatetris_encode(const struct hatetris *g, uint8_t *buf, size_t cap);

/* Reads a run written by hatetris_encode. Returns false, leaving g
 * unchanged, for anything that is not a consistent state: wrong version,
 * length or checksum, a field out of range, a full or empty-under-filled
 * row, a cell count other than 4 * pieces - 10 * lines, a cap and an end
 * that disagree, a playing run whose piece fits nowhere or a topped-out one
 * whose piece fits. That the current piece is the supplier's choice cannot
 * be checked without the seen boards; the token's seal vouches for it.
 * Accepting means encode would give back exactly the same bytes. */
bool hatetris_decode(struct hatetris *g, const uint8_t *buf, size_t len);

#endif
