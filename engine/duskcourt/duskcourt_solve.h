/*
 * duskcourt_solve.h: the Duskcourt solver: whether a court can still be
 * cleared, and how, and how many decoys it holds. Built on the court
 * (duskcourt_court.h); the dealer asks it about every court it builds.
 */
#ifndef DUSKCOURT_SOLVE_H
#define DUSKCOURT_SOLVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "duskcourt_court.h"

/* Longest way through any court the solver accepts (one idol remains). */
#define DUSKCOURT_SOLVE_IDOLS_MAX 16
#define DUSKCOURT_PATH_MAX (DUSKCOURT_SOLVE_IDOLS_MAX - 1)

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

#endif
