/*
 * play_workspace.h: the games' working memory, per thread and per game. The
 * engine never allocates; a game that needs memory for a computation (the
 * Duskcourt dealer's 2 MiB memo) says how much in its descriptor, and each
 * thread that plays it (HTTP threads, the store's writer, a verifier) gets
 * its own block on first use, zeroed, reserved to that game, and freed when
 * the thread ends.
 */
#ifndef SERVER_WORKSPACE_H
#define SERVER_WORKSPACE_H

#include "game.h"

/* The calling thread's memory for g (g->work_size bytes), NULL when out of
 * memory or when g needs none. */
void *play_workspace_for_thread(const struct game *g);

/* Block k of g's shared read-only data (game.h: shared_size, shared_build),
 * built at its first request, under one lock, and kept for the daemon's
 * life; NULL when k is out of range or it could not be built. The
 * environment's `shared` (play_env). */
const void *play_shared(const struct game *g, unsigned k);

#endif
