/*
 * duskcourt_deal.h: the Duskcourt dealer: court k of a run as a pure
 * function of the seed, k and the rung. Built on the court
 * (duskcourt_court.h) and the solver (duskcourt_solve.h); the run deals
 * through it.
 */
#ifndef DUSKCOURT_DEAL_H
#define DUSKCOURT_DEAL_H

#include <stdbool.h>
#include <stdint.h>

#include "duskcourt_court.h"
#include "duskcourt_solve.h"

/* Court k of a run with this seed, at this rung: a pure function of
 * (seed, k, rung) following the ladder table. Always finishes, in bounded
 * time. Refuses (false, *out untouched) rung 0 or a seed above
 * DUSKCOURT_SEED_MAX. */
bool duskcourt_deal(struct duskcourt_court *out, uint64_t seed, uint32_t k, uint32_t rung,
    struct duskcourt_solver *work);

/* The dealer's last resort for a rung: a fixed court of that ladder row,
 * mirrored when `mirror`. Exposed so that tests can check every one. */
bool duskcourt_deal_fallback(struct duskcourt_court *out, uint32_t rung, bool mirror);

#endif
