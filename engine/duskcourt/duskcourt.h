/*
 * duskcourt.h: the Duskcourt engine: the court and its idols, the run (a
 * ladder of courts with lives, streak and score), the dealer, the solver
 * and the run's compact serialisation.
 *
 * Everything here is pure: no I/O, no clock, no allocation, no global
 * state. Game states and courts are plain fixed-size structs, copyable by
 * value and comparable with memcmp (they have no hidden padding: every byte
 * is a named field, and every function writes whole structs). The one large
 * object is struct duskcourt_solver, the solver's memo: the caller owns it
 * (one per thread), initialises it once with duskcourt_solver_init and
 * passes it to everything that deals or solves. Its contents never change a
 * result: every top-level call starts from a logically empty memo.
 *
 * Refusals are ordinary results: a function that refuses returns false,
 * writes a human-readable reason into the caller's buffer (capacity cap,
 * ENGINE_REASON_MAX is always enough; NULL/0 means "no reason wanted") and
 * leaves the state byte for byte as it was.
 *
 * Names: the JSON fields of the spec map to snake_case members (kingSurvives
 * is king_survives, courtsDealt is courts_dealt, and so on).
 */
#ifndef DUSKCOURT_H
#define DUSKCOURT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine.h"

#define DUSKCOURT_SIZE_MIN 4
#define DUSKCOURT_SIZE_MAX 6
#define DUSKCOURT_CELLS 36 /* squares of the largest court */
#define DUSKCOURT_LIVES 3
#define DUSKCOURT_SEED_MAX ((uint64_t)ENGINE_ID_MAX)
#define DUSKCOURT_IDOLS_MAX 12 /* most idols the ladder ever deals */
/* Every idol takes at most eight targets, plus the reset. */
#define DUSKCOURT_LEGAL_MAX (DUSKCOURT_IDOLS_MAX * 8 + 1)
/* Longest way through any court the solver accepts (one idol remains). */
#define DUSKCOURT_SOLVE_IDOLS_MAX 16
#define DUSKCOURT_PATH_MAX (DUSKCOURT_SOLVE_IDOLS_MAX - 1)

/* A square's content. Values are part of the serialised form: never renumber. */
enum duskcourt_cell {
	DUSKCOURT_EMPTY = 0,
	DUSKCOURT_BOULDER = 1,
	DUSKCOURT_K = 2, /* jackal: the eight touching squares */
	DUSKCOURT_Q = 3, /* scorpion: runs along straight lines and diagonals */
	DUSKCOURT_R = 4, /* cobra: runs along straight lines */
	DUSKCOURT_B = 5, /* vulture: runs along diagonals */
	DUSKCOURT_N = 6, /* camel: jumps (2,1), over anything */
	DUSKCOURT_P = 7, /* beetle: the two squares diagonally forward (row + 1) */
	DUSKCOURT_CELL_KINDS = 8
};

enum duskcourt_phase {
	DUSKCOURT_PLAYING = 0,
	DUSKCOURT_BREAK = 1,
	DUSKCOURT_DONE = 2
};

enum duskcourt_result {
	DUSKCOURT_RESULT_NONE = 0, /* JSON null: no court has resolved yet */
	DUSKCOURT_RESULT_CLEAR = 1,
	DUSKCOURT_RESULT_STUCK = 2
};

enum duskcourt_action_type {
	DUSKCOURT_ACT_CAPTURE = 0,
	DUSKCOURT_ACT_RESET = 1,
	DUSKCOURT_ACT_NEXT = 2,
	DUSKCOURT_ACT_END_RUN = 3
};

/* One action as the server decoded it from JSON. from and to matter only for
 * a capture; they are 64-bit so that any JSON integer can be passed as it is
 * and the engine does the range check (0..35 and on this court). */
struct duskcourt_action {
	int64_t type; /* enum duskcourt_action_type; anything else is refused */
	int64_t from;
	int64_t to;
};

/* One capture of a solution: square indexes. */
struct duskcourt_capture {
	uint8_t from;
	uint8_t to;
};

/* One row of the ladder table (docs/rules/duskcourt.md). */
struct duskcourt_rung {
	int size;          /* 4..6 */
	int idols;         /* idols dealt, 3..12 */
	int decoys;        /* at least this many decoys, 0..3 */
	bool king_survives; /* the jackal must stand last */
	int boulders;      /* 0..4 */
};

/* A court: the board of one position (as dealt, or any later position). */
struct duskcourt_court {
	uint32_t rung;      /* the rung it was dealt for; 0 when unknown */
	uint8_t size;       /* 4..6 */
	bool king_survives; /* exactly one K, never taken, must make the last take */
	uint8_t zero[2];    /* always 0: keeps the struct free of padding */
	uint8_t cells[DUSKCOURT_CELLS]; /* enum duskcourt_cell; index row*size+col;
	                                   squares from size*size on are EMPTY */
};

/* The awards of one clear (spec: lastAward). All in points. */
struct duskcourt_award {
	uint64_t capture; /* pay of the clearing capture, 0 if its depth was paid */
	uint64_t clear;   /* 40r */
	uint64_t streak;  /* 10r * min(streak, 5) */
	uint64_t clean;   /* 20r, or 0 after a reset on that court */
	uint64_t total;   /* the sum of the four */
};

/* The run. Every field of the state table of docs/rules/duskcourt.md;
 * boulders are the BOULDER cells of board (and of dealt, which always has
 * the same ones). */
struct duskcourt_state {
	uint64_t seed;  /* 0 .. DUSKCOURT_SEED_MAX */
	uint64_t score; /* only ever goes up */
	struct duskcourt_award last_award; /* meaningful when has_award; else all 0 */
	uint32_t rung;         /* rung of the court in play (or just resolved), from 1 */
	uint32_t courts_dealt; /* courts dealt, the one in play included: the stream cursor */
	uint32_t streak;       /* consecutive clears since the last lost life */
	uint8_t phase;         /* enum duskcourt_phase */
	uint8_t last_result;   /* enum duskcourt_result */
	bool has_award;        /* false: lastAward is JSON null */
	bool king_survives;
	bool reset_used;
	uint8_t size;          /* 4..6 */
	uint8_t lives;         /* 0..3 */
	uint8_t captures;      /* captures in this attempt at this court */
	uint8_t paid_depth;    /* deepest capture number already paid on this court */
	uint8_t zero[3];       /* always 0: keeps the struct free of padding */
	uint8_t board[DUSKCOURT_CELLS]; /* enum duskcourt_cell, as in struct duskcourt_court */
	uint8_t dealt[DUSKCOURT_CELLS];
};

/* The solver's working memory (about 2 MiB): a memo of positions proved
 * impossible to clear. Callers allocate it (statically or on the heap, not
 * on a small thread stack), call duskcourt_solver_init once, and never touch
 * its fields. Not shareable between threads; reusable forever. */
#define DUSKCOURT_MEMO_BITS 18
struct duskcourt_solver {
	uint32_t generation; /* private */
	uint32_t zero;       /* private */
	uint64_t nodes;      /* positions searched by the last call: statistics only */
	uint64_t memo[(size_t)1 << DUSKCOURT_MEMO_BITS]; /* private */
};

/* ---- the court and its idols (duskcourt.c) ---- */

/* The ladder row of a rung (>= 1). False (and *out untouched) for rung 0. */
bool duskcourt_ladder(uint32_t rung, struct duskcourt_rung *out);

/* 'K' 'Q' 'R' 'B' 'N' 'P' '#' for a cell, '.' for empty, '?' for junk. */
char duskcourt_cell_char(int cell);
/* The inverse of duskcourt_cell_char ('.' gives EMPTY); -1 for any other. */
int duskcourt_cell_from_char(char c);
/* The idol's name in the rules ("jackal", "scorpion", ...); "square" else. */
const char *duskcourt_idol_name(int cell);

/* Whether the idol on from may take the idol on to on this board: the reach
 * of docs/rules/duskcourt.md, boulders and line blocking included, and never
 * onto the K when king_survives. False for anything that is not such a take
 * (empty squares, boulders, from == to, indexes off the court). */
bool duskcourt_can_take(const uint8_t *cells, int size, bool king_survives, int from, int to);

/* Every legal capture of the position, sorted by from then to, written to
 * out (capacity cap; out may be NULL when cap is 0). Returns how many there
 * are, which may exceed cap (then only cap were written). */
size_t duskcourt_captures(const uint8_t *cells, int size, bool king_survives,
    struct duskcourt_capture *out, size_t cap);

/* Idols (not boulders) on the board's size*size squares. */
int duskcourt_count_idols(const uint8_t *cells, int size);

/* ---- the run (duskcourt.c) ---- */

/* Starts a run: rung 1, playing, lives 3, court 0 of the seed dealt.
 * Refuses (false, *s untouched) a seed above DUSKCOURT_SEED_MAX. */
bool duskcourt_init(struct duskcourt_state *s, uint64_t seed, struct duskcourt_solver *work,
    char *reason, size_t cap);

/* The four actions. Each returns true when applied; false when refused, and
 * then *s is byte-identical to before and the reason says why. */
bool duskcourt_capture(struct duskcourt_state *s, int64_t from, int64_t to, char *reason, size_t cap);
bool duskcourt_reset(struct duskcourt_state *s, char *reason, size_t cap);
/* work is used to deal the next court. */
bool duskcourt_next(struct duskcourt_state *s, struct duskcourt_solver *work, char *reason, size_t cap);
bool duskcourt_end_run(struct duskcourt_state *s, char *reason, size_t cap);

/* The one entry point the server calls: dispatches on a->type (refusing
 * unknown types and out-of-range squares). work is only used by next. */
bool duskcourt_apply(struct duskcourt_state *s, const struct duskcourt_action *a,
    struct duskcourt_solver *work, char *reason, size_t cap);

/* The legal actions in the order of docs/rules/duskcourt.md (captures by from
 * then to, then reset; or next, endRun; or nothing when done), written to out
 * (capacity cap, DUSKCOURT_LEGAL_MAX always suffices). Returns the full
 * count, which may exceed cap. */
size_t duskcourt_legal(const struct duskcourt_state *s, struct duskcourt_action *out, size_t cap);

/* ---- the dealer (duskcourt_deal.c) ---- */

/* Court k of a run with this seed, at this rung: a pure function of
 * (seed, k, rung) following the ladder table. Always finishes, in bounded
 * time. Refuses (false, *out untouched) rung 0 or a seed above
 * DUSKCOURT_SEED_MAX. */
bool duskcourt_deal(struct duskcourt_court *out, uint64_t seed, uint32_t k, uint32_t rung,
    struct duskcourt_solver *work);

/* The dealer's last resort for a rung: a fixed court of that ladder row,
 * mirrored when `mirror`. Exposed so that tests can check every one. */
bool duskcourt_deal_fallback(struct duskcourt_court *out, uint32_t rung, bool mirror);

/* ---- the solver (duskcourt_solve.c) ---- */

enum duskcourt_verdict {
	DUSKCOURT_UNCLEARABLE = 0, /* proved: no sequence of captures clears it */
	DUSKCOURT_CLEARABLE = 1,   /* a way through was found */
	DUSKCOURT_UNKNOWN = 2      /* the node budget ran out first, or too many idols */
};

void duskcourt_solver_init(struct duskcourt_solver *sv);

/* Whether the position can be cleared (down to one idol; with
 * king_survives the K is then the one). budget bounds the positions
 * searched (0: no bound). On CLEARABLE, path (capacity DUSKCOURT_PATH_MAX,
 * may be NULL) receives one way through and *npath its length. Courts with
 * more than DUSKCOURT_SOLVE_IDOLS_MAX idols give UNKNOWN. */
enum duskcourt_verdict duskcourt_solve(struct duskcourt_solver *sv, const struct duskcourt_court *c,
    uint64_t budget, struct duskcourt_capture *path, size_t *npath);

/* Counts decoys: legal first captures after which the court can no longer
 * be cleared. With enough == 0 every first capture is decided and *ndecoys
 * is the exact count. With enough > 0 the count stops as soon as it is
 * settled whether there are at least `enough`: then *ndecoys >= enough
 * exactly when there are. Returns true when settled, false when the node
 * budget (0: no bound) ran out first (*ndecoys then holds those proved).
 * *clearable (may be NULL) is set when a first capture was seen to leave a
 * clearable court, which proves the court clearable; false proves nothing
 * unless every first capture was decided. */
bool duskcourt_decoys(struct duskcourt_solver *sv, const struct duskcourt_court *c,
    int enough, uint64_t budget, int *ndecoys, bool *clearable);

/* A lower bound on the decoys, from instant proofs only: first captures
 * that leave idols which can never all meet (the solver's two structural
 * tests, no search). Microseconds; the dealer screens courts with it. */
int duskcourt_decoys_quick(struct duskcourt_solver *sv, const struct duskcourt_court *c);

/* ---- serialisation (duskcourt_serial.c) ---- */

#define DUSKCOURT_SERIAL_VERSION 1
#define DUSKCOURT_SERIAL_SIZE 77

/* Writes the DUSKCOURT_SERIAL_SIZE bytes of s into out. */
void duskcourt_serialise(const struct duskcourt_state *s, uint8_t out[DUSKCOURT_SERIAL_SIZE]);

/* The inverse: true and *s filled when in (n bytes) is exactly a serialised
 * structurally valid state; false (with a reason, *s untouched) otherwise.
 * Never reads past n. */
bool duskcourt_deserialise(struct duskcourt_state *s, const uint8_t *in, size_t n,
    char *reason, size_t cap);

/* The structural checks of duskcourt_deserialise on a state in memory. */
bool duskcourt_state_valid(const struct duskcourt_state *s, char *reason, size_t cap);

#endif
