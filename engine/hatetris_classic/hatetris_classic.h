/*
 * hatetris_classic.h: the original browser HATETRIS, key for key (rules
 * "hatetris-classic", docs/rules/hatetris-classic.md).
 *
 * The well is 10 x 20 with rows counted from the top; rows 0-3 are the bar
 * where pieces spawn. A run is a sequence of keys: L and R move the live
 * piece one column, U turns it a quarter clockwise, D moves it one row down
 * or, when it cannot, locks it. A key the piece cannot take (L, R, U into
 * a wall or a cell) is still a key: it is played and counted. A lock with a
 * cell in the bar removes nothing and ends the run; any other lock removes
 * its full rows (one line each) and the supplier hands out the next piece.
 *
 * The supplier tries each piece from its spawn with every key sequence (a
 * breadth-first search over at most 836 positions), collects the wells its
 * locks leave, and supplies the piece that, in this order, (1) leads least
 * back to wells the run has already had (the supplier version decides how
 * that is counted), (2) has the lowest best landing (the number of empty
 * rows above the stack, 20 for an empty well), (3) comes first in S Z O I
 * L J T.
 *
 * The run's memory. Key (1) depends on the whole history of the run, which
 * grows without bound, so it is not in the state: the caller keeps a map
 * from well keys (hclassic_well_key) to a 32-bit value and lends it to the
 * engine through struct hclassic_memory. What the value means depends on the
 * supplier version (see there). A well can only come back after line
 * clears (a lock adds 4 cells, a line takes 10, so equal wells of one run
 * are 5m locks and 2m lines apart), so the engine asks nothing about
 * landings of a run with fewer than 2 lines, clears of the landing
 * included.
 *
 * Purity and cost: nothing here allocates, reads a clock or keeps global
 * state. struct hclassic is plain, fixed-size (HCLASSIC_STATE_SIZE bytes, no
 * padding) and copyable by value. A key that moves a piece costs a few row
 * tests; a lock costs one supplier call, seven searches of at most 836
 * positions each plus the memory's look-ups.
 */
#ifndef HATETRIS_CLASSIC_H
#define HATETRIS_CLASSIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine.h"

#define HCLASSIC_RULES "hatetris-classic"
#define HCLASSIC_COLS 10
#define HCLASSIC_ROWS 20
#define HCLASSIC_BAR 4           /* rows 0..3 are the bar */
#define HCLASSIC_NPIECES 7
#define HCLASSIC_KEY_BYTES 25    /* 200 occupancy bits */
#define HCLASSIC_FULL_ROW 0x3ffu /* one well row, bit c = column c */
/* Every (x, y, o) a piece's box can take: x -2..8, y 0..18, o 0..3. */
#define HCLASSIC_XMIN (-2)
#define HCLASSIC_NX 11
#define HCLASSIC_NY 19
#define HCLASSIC_POSITIONS (HCLASSIC_NX * HCLASSIC_NY * 4) /* 836 */
/* At most this many distinct locks from one position. */
#define HCLASSIC_LOCKS_MAX HCLASSIC_POSITIONS
/* A shortest path, lock included, is at most this many keys. */
#define HCLASSIC_PATH_MAX HCLASSIC_POSITIONS
/* Room for hclassic_text: 20 rows of 10 cells and a newline, and a NUL. */
#define HCLASSIC_TEXT_SIZE (HCLASSIC_ROWS * (HCLASSIC_COLS + 1) + 1)
/* keys, pieces and lines stop at this (a run this long is refused further
 * keys) so that no counter wraps. */
#define HCLASSIC_COUNT_MAX UINT32_C(0xfffffff0)

/* Pieces, in the order of the spec's diagrams. */
enum hclassic_piece {
	HCLASSIC_I,
	HCLASSIC_J,
	HCLASSIC_L,
	HCLASSIC_O,
	HCLASSIC_S,
	HCLASSIC_T,
	HCLASSIC_Z,
};

/* Supplier versions (the original's, newest first). */
enum hclassic_supplier {
	HCLASSIC_CURRENT, /* since Dec 2022: fewest visits of a landing well */
	HCLASSIC_2022,    /* May-Dec 2022: whether any landing well was seen */
	HCLASSIC_2021,    /* Jun 2021-May 2022: pieces already given on this well */
	HCLASSIC_MILD,    /* before Jun 2021, "HATETRIS Mild": no memory */
	HCLASSIC_NSUPPLIERS,
};

enum hclassic_outcome {
	HCLASSIC_OK,        /* done (options: answered) */
	HCLASSIC_REFUSED,   /* bad input; nothing changed */
	HCLASSIC_GAME_OVER, /* the run had already ended; nothing changed */
	HCLASSIC_MEMORY,    /* the memory refused to store a value (see below) */
};

/*
 * The run's memory, kept by the caller: a map from a well's key to a
 * uint32_t, 0 for a well never stored. get(ctx, key) reads it, set(ctx,
 * key, value) writes it and returns false when it cannot (full): the engine
 * then stops before the lock that needed it. What the value is:
 *   current  the number of supplier calls made on that well
 *   2022     the same count (the engine only asks whether it is above 0)
 *   2021     bit p (enum hclassic_piece): piece p was supplied on that well
 *   mild     never read or written
 * The engine writes at each supplier call, on the call's current well (the
 * empty well at the start, then the well after each lock that did not end
 * the run), before it reads; so after k calls the map holds what the spec
 * says. get may be asked about the same key more than once and must answer
 * with what set stored. A NULL memory (or NULL get/set) reads 0 and stores
 * nothing: exact for `mild`, and for a run that has not removed 2 lines.
 */
struct hclassic_memory {
	uint32_t (*get)(void *ctx, const uint8_t key[HCLASSIC_KEY_BYTES]);
	bool (*set)(void *ctx, const uint8_t key[HCLASSIC_KEY_BYTES], uint32_t value);
	void *ctx;
};

/* A run: 60 bytes (HCLASSIC_STATE_SIZE), no padding, every byte defined. */
struct hclassic {
	uint16_t well[HCLASSIC_ROWS]; /* row 0 the top; bit c = column c, 0..0x3ff */
	uint32_t lines;    /* rows removed so far */
	uint32_t keys;     /* keys played (blocked ones included) */
	uint32_t pieces;   /* pieces supplied, the live one included, >= 1 */
	int8_t x;          /* live piece box's left column, -2..8 */
	uint8_t y;         /* live piece box's top row, 0..18 */
	uint8_t o;         /* orientation 0..3 */
	uint8_t piece;     /* enum hclassic_piece; after the end, the piece that locked */
	uint8_t supplier;  /* enum hclassic_supplier */
	uint8_t over;      /* 1 once a lock in the bar ended the run */
	uint8_t reserved[2]; /* zero */
};
#define HCLASSIC_STATE_SIZE 60

/* What one call to hclassic_keys did. */
struct hclassic_report {
	enum hclassic_outcome outcome;
	size_t applied;    /* keys played by this call */
	size_t ignored;    /* keys left unplayed because the run ended */
	uint32_t locks;    /* pieces locked by this call */
	uint32_t lines;    /* rows removed by this call */
	char message[ENGINE_REASON_MAX];
};

/* One reachable lock of the live piece (hclassic_options). */
struct hclassic_lock {
	int8_t x;          /* where the piece locks */
	uint8_t y, o;
	uint8_t lines;     /* rows it removes, 0..4 */
	uint8_t over;      /* 1: it has a cell in the bar and ends the run */
	uint8_t top;       /* the rating of the well it leaves: its highest filled row, 20 if empty */
	uint16_t nkeys;    /* length of one shortest path, the locking D included */
	uint16_t pos;      /* the position's index in the search that found it */
	uint16_t well[HCLASSIC_ROWS]; /* the well it leaves (after its clears) */
};

/* The working memory of one search: how each position was first reached.
 * About 2.5 KiB; the caller keeps it (on the stack is fine) to read paths. */
struct hclassic_search {
	uint16_t from[HCLASSIC_POSITIONS]; /* predecessor's index; 0xffff: the start or unreached */
	uint8_t key[HCLASSIC_POSITIONS];   /* key that reached it: 'L' 'R' 'D' 'U'; 0 unreached */
};

/* What the supplier saw when it chose; for tests, the bench and logs. */
struct hclassic_choice {
	uint8_t piece;                      /* enum hclassic_piece supplied */
	uint8_t rating[HCLASSIC_NPIECES];   /* best landing per piece, 0..20 */
	uint32_t loops[HCLASSIC_NPIECES];   /* key 1 per piece, as the version counts it */
	uint16_t landings[HCLASSIC_NPIECES];/* locks found per piece (duplicates of a well included) */
	uint32_t lookups;                   /* memory get calls */
};

/* The supply tie order, S Z O I L J T. */
extern const uint8_t hclassic_order[HCLASSIC_NPIECES];

/* Starts a run: an empty well, the first supplier call (which stores the
 * empty well's value in mem) and its piece at the spawn. Returns
 * HCLASSIC_REFUSED (g unchanged) for an unknown supplier, HCLASSIC_MEMORY
 * when mem could not store. */
enum hclassic_outcome hclassic_start(struct hclassic *g, unsigned supplier,
    const struct hclassic_memory *mem, char reason[ENGINE_REASON_MAX]);

/* The same from a given well (rows 0..3 empty, no full row) as if the run
 * had already removed lines: for tests, the bench and puzzles. The
 * supplier call is made on that well as on any other. Refused (g
 * unchanged) for a bad well or supplier. */
enum hclassic_outcome hclassic_start_from(struct hclassic *g, unsigned supplier,
    const uint16_t well[HCLASSIC_ROWS], uint32_t lines, const struct hclassic_memory *mem,
    char reason[ENGINE_REASON_MAX]);

/*
 * Plays keys[0..nkeys) (each 'L', 'R', 'D' or 'U', upper case) in order,
 * through as many pieces as they reach, asking and telling mem at each lock.
 * Refused, nothing changed, when any character is another one, when the run
 * is already over (HCLASSIC_GAME_OVER) or when the counters would pass
 * HCLASSIC_COUNT_MAX. When a lock ends the run the keys after it are not
 * played: rep->ignored counts them and the outcome is still OK. On
 * HCLASSIC_MEMORY, g holds the run as it was before the key whose lock
 * failed to store and rep->applied counts the keys played before it.
 * rep may be NULL.
 */
enum hclassic_outcome hclassic_keys(struct hclassic *g, const char *keys, size_t nkeys,
    const struct hclassic_memory *mem, struct hclassic_report *rep);

/* The code of a key letter: 0 'L', 1 'R', 2 'D', 3 'U' (upper case only,
 * the order of the replay encodings); -1 for anything else. */
int hclassic_key_code(char c);

/*
 * Every distinct lock the live piece can reach from where it stands now
 * (locks that fill the same four cells are one: the O's four orientations,
 * the I, S and Z boxes that repeat shifted), each with the well it leaves
 * and one shortest key path (found breadth first, keys tried in the order
 * L R D U; the first position found for a lock gives its path). Writes at
 * most cap locks, in that order, and returns how many there are (0 only
 * after the end or for an invalid state). search receives the paths: read
 * one with hclassic_lock_path. search may not be NULL. Cost: one search of
 * at most 836 positions; about 10 KiB of stack.
 */
size_t hclassic_options(const struct hclassic *g, struct hclassic_search *search,
    struct hclassic_lock *out, size_t cap);

/* Writes the keys of lock's path (found by the search that filled search)
 * into buf, with a NUL when there is room, and returns the path's length;
 * nothing is written when buf is too small (cap <= length). */
size_t hclassic_lock_path(const struct hclassic_search *search, const struct hclassic_lock *lock,
    char *buf, size_t cap);

/*
 * The supplier on its own, for tests and the bench: the piece supplied on
 * well (rows 0..3 empty, no full row) for a run that has removed lines so
 * far (used only to skip look-ups that cannot find anything; pass
 * HCLASSIC_COUNT_MAX to look up every landing). It reads mem but does not
 * write it: the caller stores the current well's value first, as a run
 * does. For 2021, mem's value for the current well itself is read (when
 * lines >= 2; a well of a run with fewer lines is new). detail may be
 * NULL.
 */
unsigned hclassic_choose(const uint16_t well[HCLASSIC_ROWS], uint32_t lines, unsigned supplier,
    const struct hclassic_memory *mem, struct hclassic_choice *detail);

/* The exact key of a well: cell (row r from the top, column c) is bit
 * i = 10 r + c, in byte i / 8 at bit i % 8. */
void hclassic_well_key(const uint16_t well[HCLASSIC_ROWS], uint8_t key[HCLASSIC_KEY_BYTES]);

/* Whether the live piece's box at (x, y, o) is free in g's well. */
bool hclassic_free(const uint16_t well[HCLASSIC_ROWS], unsigned piece, int x, int y, unsigned o);

/* The well as 20 lines of 10 characters, top row first, each ended by a
 * newline: '#' a filled cell, '@' a cell of the live piece (while the run
 * goes on), '.' empty. NUL-terminated. */
void hclassic_text(const struct hclassic *g, char out[HCLASSIC_TEXT_SIZE]);

/* Whether g is a state the engine can have made: fields in range, the
 * reserved bytes zero, rows within 10 bits, no full row, the bar empty
 * while playing, the live piece free while playing, pieces >= 1. That the
 * pieces are the supplier's choices cannot be checked without the memory;
 * a token's seal vouches for it. hclassic_keys and hclassic_options refuse
 * a state that fails this. */
bool hclassic_valid(const struct hclassic *g);

/* "I" ... "Z"; NULL out of range. */
const char *hclassic_piece_name(unsigned piece);

/* "current", "2022", "2021", "mild"; NULL out of range. And back: the
 * version named, or -1. */
const char *hclassic_supplier_name(unsigned supplier);
int hclassic_supplier_parse(const char *name);

#endif
