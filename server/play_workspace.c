/*
 * play_workspace.c: a thread-specific key holds an array of blocks, one per
 * game, freed by the key's destructor when the thread exits
 * (libmicrohttpd joins its pool on stop). Zeroed memory is what each game
 * asks for as its fresh working memory.
 *
 * The games' shared read-only blocks (play_shared) are one table for the
 * daemon: a pointer per (game, key), published with release order once
 * built, so a reader that sees it sees the block's contents; one mutex
 * serialises the builds (a second thread asking for a block being built
 * waits for it rather than building its own). A block lives as long as
 * the process. A build that fails is tried again at the next request.
 */
#include "play_workspace.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>


#define SHARED_MAX 8 /* blocks a game may share */

static _Atomic(void *) shared_blocks[GAME__COUNT][SHARED_MAX];
static pthread_mutex_t shared_lock = PTHREAD_MUTEX_INITIALIZER;

struct blocks {
	void *per_game[GAME__COUNT];
};

static pthread_key_t key;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void
blocks_free(void *arg)
{
	struct blocks *b = arg;
	size_t i;

	for (i = 0; i < GAME__COUNT; i++)
		free(b->per_game[i]);
	free(b);
}

static void
make_key(void)
{
	pthread_key_create(&key, blocks_free);
}

void *
play_workspace_for_thread(const struct game *g)
{
	struct blocks *b;

	if (g->work_size == 0)
		return NULL;
	pthread_once(&once, make_key);
	b = pthread_getspecific(key);
	if (b == NULL) {
		if ((b = calloc(1, sizeof *b)) == NULL)
			return NULL;
		pthread_setspecific(key, b);
	}
	if (b->per_game[g->id] == NULL)
		b->per_game[g->id] = calloc(1, g->work_size);
	return b->per_game[g->id];
}

const void *
play_shared(const struct game *g, unsigned k)
{
	void *b, *mem;
	size_t bytes;

	if (g == NULL || (unsigned)g->id >= GAME__COUNT || k >= game_ext(g)->nshared || k >= SHARED_MAX ||
	    game_ext(g)->shared_build == NULL || game_ext(g)->shared_size == NULL)
		return NULL;
	b = atomic_load_explicit(&shared_blocks[g->id][k], memory_order_acquire);
	if (b != NULL)
		return b;
	pthread_mutex_lock(&shared_lock);
	b = atomic_load_explicit(&shared_blocks[g->id][k], memory_order_relaxed);
	if (b == NULL && (bytes = game_ext(g)->shared_size(k)) > 0 && (mem = calloc(1, bytes)) != NULL) {
		if (game_ext(g)->shared_build(k, mem, bytes)) {
			atomic_store_explicit(&shared_blocks[g->id][k], mem, memory_order_release);
			b = mem;
		} else
			free(mem);
	}
	pthread_mutex_unlock(&shared_lock);
	return b;
}
