/*
 * stackcraft.h: the Stackcraft game (rules version "stackcraft-v1").
 *
 * Coordinates are Stackcraft's own: x = 0..9 left to right, y = 0..19 top to
 * bottom, (0, 0) the top-left cell; colours 1..7 are I, O, T, S, Z, J, L and
 * 0 is an empty cell. A piece has the unique clockwise orientations of its
 * spawn shape, numbered from 0 (I, S, Z: 2; O: 1; T, J, L: 4), each shape
 * normalised so that its smallest x and y are 0. A placement puts a shape's
 * top-left origin at column x and row 0; when any of its cells is filled
 * there the placement is unavailable, otherwise the shape steps down one row
 * at a time until the next step would hit a cell or the floor. Its id is
 * "r{rotation}x{x}" and it lands with its origin at row y.
 *
 * A run is one plain fixed-size struct, copyable by value. Every function is
 * pure and changes only what it is given. A refused step leaves the struct
 * byte for byte as it was and says why in its report. After a placement the
 * full rows go at once (0/1/2/3/4 rows: 0/100/300/500/800 points), the
 * preview piece becomes current and the stream reveals a new preview. The
 * run ends as top_out when the new current piece has no legal placement, or
 * as capped when it has one but the optional episode cap of placed pieces is
 * reached. On the move that does both, top_out wins: the cap only cuts runs
 * that the rules would let go on (docs/rules/stackcraft.md says more).
 *
 * The board storage is struct tetromino_board (occupancy bit rows and
 * 3-bit colours, rows[0] at the bottom, so cell (x, y) is bit x of
 * rows[19 - y]) and the stream is bag.h's; the shapes and the landing are
 * this module's, because Stackcraft's spawn inside the board differs from a
 * drop from above when the top two rows hold an overhang.
 */
#ifndef STACKCRAFT_H
#define STACKCRAFT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine.h"
#include "tetromino.h"

#define STACKCRAFT_RULES "stackcraft-v1"
#define STACKCRAFT_REPLAY_SCHEMA 1

#define STACKCRAFT_COLS 10
#define STACKCRAFT_ROWS 20
/* Most legal placements of one piece: T, J or L on an empty board,
 * 8 + 9 + 8 + 9. */
#define STACKCRAFT_LEGAL_MAX 34
/* "r1x4" and its NUL. */
#define STACKCRAFT_ID_SIZE 5
/* Seeds, caps and the counters stay within JSON's exact integers. */
#define STACKCRAFT_SEED_MAX UINT64_C(9007199254740991) /* 2^53 - 1 */
#define STACKCRAFT_CAP_MAX UINT64_C(9007199254740991)

enum stackcraft_status {
	STACKCRAFT_PLAYING,
	STACKCRAFT_OVER,
};

enum stackcraft_end {
	STACKCRAFT_END_NONE,
	STACKCRAFT_END_TOP_OUT,
	STACKCRAFT_END_CAPPED,
};

enum stackcraft_outcome {
	STACKCRAFT_OK,        /* placed */
	STACKCRAFT_REFUSED,   /* not a legal action now; nothing changed */
	STACKCRAFT_GAME_OVER, /* refused because the run has ended; nothing changed */
};

/* One orientation of one piece, y downward. */
struct stackcraft_shape {
	uint8_t width;       /* columns, 1..4 */
	uint8_t height;      /* rows, 1..4 */
	uint8_t cells[4][2]; /* (x, y) offsets from the origin, by y then x */
	uint8_t top[4];      /* per column offset < width: smallest y there (0..2) */
	uint8_t bottom[4];   /* per column offset < width: largest y there */
};

/* One legal placement of the current piece. */
struct stackcraft_action {
	char id[STACKCRAFT_ID_SIZE]; /* "r{rotation}x{x}", NUL-terminated */
	uint8_t rotation;            /* 0 .. orientations - 1 */
	uint8_t x;                   /* the origin's column, 0 .. 10 - width */
	uint8_t y;                   /* the origin's row after landing, 0 .. 20 - height */
	uint8_t cells[4][2];         /* absolute (x, y) of the four cells, by y then x */
};

struct stackcraft {
	struct tetromino_board board; /* never a full row between calls */
	uint64_t seed;       /* 0 .. STACKCRAFT_SEED_MAX */
	uint64_t cap;        /* episode cap in placed pieces, 0 = none; 0 .. STACKCRAFT_CAP_MAX */
	uint64_t pieces;     /* placed pieces: the stream index of current */
	uint64_t lines;      /* rows cleared so far */
	uint64_t score;      /* points so far */
	uint8_t current;     /* enum tetromino_piece: stream piece `pieces` */
	uint8_t next;        /* the preview: stream piece `pieces + 1` */
	uint8_t status;      /* enum stackcraft_status; OVER exactly when end_reason is set */
	uint8_t end_reason;  /* enum stackcraft_end */
	/* The bag holding stream piece pieces + 1, so that playing in order
	 * shuffles each bag once. Derived from seed and pieces. */
	uint8_t bag[7];
	uint64_t bag_number;
};

/* The result of a step. message is a short sentence on success ("placed T
 * r1x4 at y 17: 2 lines, +300") and the reason on a refusal. */
struct stackcraft_report {
	enum stackcraft_outcome outcome;
	uint8_t lines;   /* rows cleared by the placement, 0..4 */
	uint32_t points; /* points it scored */
	char message[ENGINE_REASON_MAX];
};

/* Number of unique orientations of piece (1, 2 or 4); 0 when piece > 6. */
unsigned stackcraft_orientations(unsigned piece);

/* Orientation rotation of piece; NULL when either is out of range. */
const struct stackcraft_shape *stackcraft_shape(unsigned piece, unsigned rotation);

/* Starts a run on seed with an episode cap (0 = none). Returns false, g
 * unchanged, when seed > STACKCRAFT_SEED_MAX or cap > STACKCRAFT_CAP_MAX. */
bool stackcraft_init(struct stackcraft *g, uint64_t seed, uint64_t cap);

/* The legal placements of the current piece, by rotation then x. Writes at
 * most cap of them into out (out may be NULL when cap is 0) and returns how
 * many there are, 0 .. STACKCRAFT_LEGAL_MAX; 0 when the run is over. */
size_t stackcraft_legal(const struct stackcraft *g, struct stackcraft_action *out, size_t cap);

/* The same for any board and piece (0..6): the enumerator every bot uses. */
size_t stackcraft_legal_on(const struct tetromino_board *b, unsigned piece,
    struct stackcraft_action *out, size_t cap);

/* True when piece (0..6) has at least one legal placement on b. */
bool stackcraft_has_legal(const struct tetromino_board *b, unsigned piece);

/* The afterboard helper for expert and heuristic evaluation: writes into
 * after (which may be b) the board with piece placed at a's rotation, x and
 * y and its full rows cleared, and returns the rows cleared (0..4). It reads
 * no seed or stream and does not re-check the path down: a must come from
 * the legal list of this board and piece. It does check the shape's bounds
 * and that its cells are empty: -1, after untouched, when not. a->cells and
 * a->id are not read. */
int stackcraft_place(const struct tetromino_board *b, unsigned piece,
    const struct stackcraft_action *a, struct tetromino_board *after);

/* Reads an action id from text[0..len): 'r', one digit, 'x', one digit and
 * nothing else. Returns false (outputs untouched) otherwise. The digits are
 * not range-checked here: r7x9 parses, and stackcraft_step refuses it. */
bool stackcraft_parse_id(const char *text, size_t len, unsigned *rotation, unsigned *x);

/* Writes "r{rotation}x{x}" for rotation, x in 0..9. */
void stackcraft_action_id(unsigned rotation, unsigned x, char out[STACKCRAFT_ID_SIZE]);

/* Places the current piece at rotation and x if that is one of the legal
 * placements, then clears, scores, advances the stream and checks the end
 * (top_out first, then the cap). rep may be NULL; when given it is always
 * filled. Refused (GAME_OVER) after the end; refused (REFUSED) for a
 * rotation or x out of range and for an unavailable placement. */
enum stackcraft_outcome stackcraft_step(struct stackcraft *g, unsigned rotation, unsigned x,
    struct stackcraft_report *rep);

/* stackcraft_parse_id then stackcraft_step; an unreadable id is REFUSED (or
 * GAME_OVER when the run has ended). */
enum stackcraft_outcome stackcraft_step_id(struct stackcraft *g, const char *text, size_t len,
    struct stackcraft_report *rep);

/* The board as colour ids, out[y][x], row y = 0 (the top) first. */
void stackcraft_board(const struct stackcraft *g, uint8_t out[STACKCRAFT_ROWS][STACKCRAFT_COLS]);

/* Colour id (0..7) of cell (x, y) of b; x < 10, y < 20. */
unsigned stackcraft_board_get(const struct tetromino_board *b, unsigned x, unsigned y);

/* "playing" or "over". */
const char *stackcraft_status_name(unsigned status);

/* "top_out" or "capped"; NULL for NONE or anything else. */
const char *stackcraft_end_name(unsigned end_reason);

/*
 * Serialisation, for sealing into state tokens.
 *
 * Layout (version 1, integers little-endian):
 *   0      version (1)
 *   1..7   seed (53 bits: the top 3 bits of byte 7 are zero)
 *   8..14  cap (0 = none; 53 bits)
 *   15..21 pieces (53 bits)
 *   22..28 lines (53 bits)
 *   29..36 score
 *   37     end_reason (0 none, 1 top_out, 2 capped)
 *   38     n, the number of non-empty board rows (0..20)
 *   39..   n rows from the bottom (y = 19 first), 4 bytes each: 3 bits per
 *          cell as in struct tetromino_board, bits 30-31 zero
 *   last 2 CRC-16/CCITT-FALSE of all bytes before it
 * so a run takes 41 + 4n bytes, STACKCRAFT_SERIAL_MAX at most. current,
 * next, status and the bag cache are derived from the rest.
 */
#define STACKCRAFT_SERIAL_VERSION 1
#define STACKCRAFT_SERIAL_MAX (41 + 4 * STACKCRAFT_ROWS)

/* Writes g's bytes into buf when they fit in cap and returns their length
 * (which may exceed cap: then nothing is written). */
size_t stackcraft_encode(const struct stackcraft *g, uint8_t *buf, size_t cap);

/* Reads a run written by stackcraft_encode. Returns false, g unchanged, for
 * anything that is not a consistent state: wrong version, length or
 * checksum; a field out of range or a reserved bit set; a full row, an
 * empty row under a filled one or a stray bit; a cell count other than
 * 4 x pieces - 10 x lines; more cells of a colour than its pieces brought;
 * a score no sequence of clears of those lines gives; an end that
 * contradicts the board or the cap (playing with no legal placement or
 * with pieces = cap, top_out with a legal placement, capped without a cap,
 * with pieces != cap or with no legal placement, pieces > cap). Accepting means
 * that encode gives back exactly the same bytes. */
bool stackcraft_decode(struct stackcraft *g, const uint8_t *buf, size_t len);

#endif
