/*
 * workspace.c: a thread-specific key holds an array of blocks, one per
 * game, freed by the key's destructor when the thread exits
 * (libmicrohttpd joins its pool on stop). Zeroed memory is what each game
 * asks for as its fresh working memory.
 */
#include "play_workspace.h"

#include <pthread.h>
#include <stdlib.h>

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
