/*
 * solver.h: the Duskcourt solver's working memory, one per thread. The
 * engine never allocates; the dealer needs about 2 MiB of memo, so each
 * HTTP thread (and the writer) gets its own on first use, freed when the
 * thread ends.
 */
#ifndef SERVER_SOLVER_H
#define SERVER_SOLVER_H

#include "duskcourt.h"

/* The calling thread's solver, or NULL when out of memory. */
struct duskcourt_solver *solver_for_thread(void);

#endif
