/*
 * game_shared.h: the daemon's shared read-only blocks for tests that drive
 * the game table directly, as play_shared keeps them: built at the first
 * request, kept to the end of the process.
 */
#ifndef ARCADED_TESTS_GAME_SHARED_H
#define ARCADED_TESTS_GAME_SHARED_H

#include <stdlib.h>

#include "game.h"

static const void *
test_shared(const struct game *g, unsigned k)
{
	static void *blocks[GAME__COUNT][8];
	size_t bytes;

	if (k >= game_ext(g)->nshared || k >= 8 || game_ext(g)->shared_size == NULL)
		return NULL;
	if (blocks[g->id][k] == NULL && (bytes = game_ext(g)->shared_size(k)) > 0 &&
	    (blocks[g->id][k] = calloc(1, bytes)) != NULL && !game_ext(g)->shared_build(k, blocks[g->id][k], bytes)) {
		free(blocks[g->id][k]);
		blocks[g->id][k] = NULL;
	}
	return blocks[g->id][k];
}

#endif
