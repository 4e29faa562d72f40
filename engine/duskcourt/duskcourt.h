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
 *
 * The parts stand in layers, each calling only those below it: the court
 * (duskcourt_court.h), the solver (duskcourt_solve.h), the dealer
 * (duskcourt_deal.h), then the run and its serialisation, declared here.
 * This header includes the others, so it is the one to include.
 */
#ifndef DUSKCOURT_H
#define DUSKCOURT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "duskcourt_court.h"
#include "duskcourt_deal.h"
#include "duskcourt_solve.h"
#include "engine.h"

#define DUSKCOURT_LIVES 3
/* Every idol takes at most eight targets, plus the reset. */
#define DUSKCOURT_LEGAL_MAX (DUSKCOURT_IDOLS_MAX * 8 + 1)

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
