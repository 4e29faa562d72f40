/*
 * stackfall.h: the Stackfall game (rules version "stackfall-v1").
 *
 * A run is one plain fixed-size struct, copyable by value: the board, the
 * seed and stream position, the current, next and held pieces, the counters
 * and the end state. Every function is pure: it reads or changes only the
 * struct it is given. A refused call never changes anything (the struct stays
 * byte-identical) and says why in its report; refusals because the run has
 * ended are told apart (STACKFALL_GAME_OVER) so the server can answer
 * `game_over` rather than an ordinary illegal command.
 *
 * Rules in one place (docs/rules/stackfall.md): pieces come from the 7-bag
 * stream of bag.h; a placement hard-drops from above and clears full rows; a
 * hold is allowed once per piece; scoring uses the level before the clear,
 * keeps back-to-back across non-clearing placements, counts combos from -1
 * and adds perfect-clear bonuses. After every placement or hold the end
 * checks run in this order: 150 pieces placed (piece_limit), then top_out
 * (the current piece has no placement and hold is spent or its piece has none
 * either). After the end, current and next stay as they were and can_hold is
 * false.
 */
#ifndef STACKFALL_H
#define STACKFALL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine.h"
#include "tetromino.h"

#define STACKFALL_PIECE_LIMIT 150
#define STACKFALL_NEXT 3
#define STACKFALL_NO_PIECE 7 /* an empty hold slot */
#define STACKFALL_SEED_MAX ((uint64_t)ENGINE_ID_MAX)
#define STACKFALL_TEXT_SIZE TETROMINO_TEXT_SIZE
#define STACKFALL_OPTIONS_MAX TETROMINO_OPTIONS_MAX

enum stackfall_status {
	STACKFALL_PLAYING,
	STACKFALL_OVER,
};

enum stackfall_end {
	STACKFALL_END_NONE,
	STACKFALL_END_TOP_OUT,
	STACKFALL_END_PIECE_LIMIT,
	STACKFALL_END_RESIGNED,
	STACKFALL_END_ABANDONED,
};

/* What a command did. */
enum stackfall_outcome {
	STACKFALL_OK,        /* done (or, for options and preview, answered) */
	STACKFALL_REFUSED,   /* illegal now; nothing changed */
	STACKFALL_GAME_OVER, /* refused because the run has ended; nothing changed */
};

struct stackfall {
	struct tetromino_board board;
	uint64_t seed;       /* 0 .. STACKFALL_SEED_MAX */
	uint32_t score;
	uint16_t lines;      /* total rows cleared, 0..600 */
	uint16_t level;      /* 1 + lines / 10 */
	uint16_t placed;     /* pieces placed, 0..STACKFALL_PIECE_LIMIT */
	uint16_t drawn;      /* pieces taken from the stream: placed + 1 + (hold held) */
	int16_t combo;       /* -1 when the last placement cleared nothing */
	uint8_t current;     /* enum tetromino_piece */
	uint8_t hold;        /* enum tetromino_piece, or STACKFALL_NO_PIECE */
	uint8_t next[STACKFALL_NEXT]; /* stream pieces drawn, drawn + 1, drawn + 2 */
	bool can_hold;       /* false after a hold until the next placement, and
	                        after the end */
	bool back_to_back;   /* the last line-clearing placement cleared 4 rows */
	uint8_t status;      /* enum stackfall_status */
	uint8_t end_reason;  /* enum stackfall_end; NONE while playing */
	/* The bag that holds stream piece drawn + 2, so that drawing in order
	 * computes each bag once. Derived from seed and drawn. */
	uint32_t bag_number;
	uint8_t bag[7];
};

/* The result of one command. message is a short human sentence on success
 * ("placed T rotation 1 at column 4: 2 lines, +300") and the reason on a
 * refusal ("hold already used for this piece"). */
struct stackfall_report {
	enum stackfall_outcome outcome;
	uint8_t lines;       /* rows cleared by a placement */
	uint32_t points;     /* points awarded by a placement */
	char message[ENGINE_REASON_MAX];
};

/* Starts a run. Returns false (g unchanged) when seed > STACKFALL_SEED_MAX. */
bool stackfall_init(struct stackfall *g, uint64_t seed);

/* In every command below, rep may be NULL; when given it is always filled. */

/* Drops the current piece at rotation (0-3) with its leftmost cell in column.
 * Refused when the rotation or column is out of range or the piece would not
 * end inside the 20 rows. */
enum stackfall_outcome stackfall_place(struct stackfall *g, unsigned rotation, unsigned column,
    struct stackfall_report *rep);

/* Puts the current piece aside: an empty slot takes it and the next stream
 * piece becomes current; otherwise current and held swap. Once per piece. */
enum stackfall_outcome stackfall_hold(struct stackfall *g, struct stackfall_report *rep);

/* Ends the run now, keeping score, lines and pieces. */
enum stackfall_outcome stackfall_resign(struct stackfall *g, struct stackfall_report *rep);

/* Ends an unfinished run because its account started a new one. */
enum stackfall_outcome stackfall_abandon(struct stackfall *g, struct stackfall_report *rep);

/* Every distinct valid placement of the current piece (see tetromino_options
 * for order and figures). Writes at most cap entries into out and stores the
 * full count (at most STACKFALL_OPTIONS_MAX) in *count (count may be NULL).
 * Refused only when the run is over. */
enum stackfall_outcome stackfall_options(const struct stackfall *g,
    struct tetromino_option *out, size_t cap, size_t *count, struct stackfall_report *rep);

/* The figures and board text after placing the current piece at rotation and
 * column, without placing it. Refused like stackfall_place. */
enum stackfall_outcome stackfall_preview(const struct stackfall *g, unsigned rotation,
    unsigned column, struct tetromino_preview *pv, struct stackfall_report *rep);

/* The board as text (see tetromino_board_text). */
void stackfall_board_text(const struct stackfall *g, char out[STACKFALL_TEXT_SIZE]);

/* The points of a placement that cleared lines (1..4; 0 otherwise) at level
 * (the level before the clear): combo is the counter after this placement
 * (0 for the first clear of a streak), back_to_back says this clear is a
 * Tetris whose previous clear was one too, perfect that the board is empty
 * afterwards. Exported so that versus matches score exactly like a run. */
uint64_t stackfall_clear_points(unsigned lines, uint64_t level, uint64_t combo,
    bool back_to_back, bool perfect);

/* "playing" or "over". */
const char *stackfall_status_name(unsigned status);

/* "top_out", "piece_limit", "resigned", "abandoned"; NULL for NONE. */
const char *stackfall_end_name(unsigned end_reason);

/*
 * Serialisation, for sealing into state tokens.
 *
 * Layout (version 1, integers little-endian):
 *   0      version (1)
 *   1..7   seed (53 bits; the top 3 bits of byte 7 are zero)
 *   8      pieces placed
 *   9..10  lines
 *   11..14 score
 *   15     current piece (low nibble), hold (high nibble, 7 = empty)
 *   16     end_reason (bits 0-2), can_hold (bit 3), back_to_back (bit 4)
 *   17     combo + 1
 *   18     n, the number of non-empty board rows (0..20)
 *   19..   n rows bottom first, 4 bytes each: 3 bits per cell as in
 *          struct tetromino_board, bits 30-31 zero
 *   last 2 CRC-16/CCITT-FALSE of all bytes before it
 * so a run takes 21 + 4n bytes, STACKFALL_SERIAL_MAX at most. Everything
 * else (level, status, stream position, next pieces) is derived.
 */
#define STACKFALL_SERIAL_VERSION 1
#define STACKFALL_SERIAL_MAX (21 + 4 * TETROMINO_ROWS)

/* Writes g's bytes into buf when they fit in cap and returns their length
 * (which may exceed cap: then nothing is written). */
size_t stackfall_encode(const struct stackfall *g, uint8_t *buf, size_t cap);

/* Reads a run written by stackfall_encode. Returns false, leaving g
 * unchanged, for anything that is not a consistent state: wrong version,
 * length or checksum, a field out of range, a full or empty-under-filled
 * board row, a cell count that disagrees with pieces and lines, counters that
 * contradict each other, pieces that contradict the seed's stream, a playing
 * run that has in fact topped out. Accepting means encode would give back
 * exactly the same bytes. */
bool stackfall_decode(struct stackfall *g, const uint8_t *buf, size_t len);

#endif
