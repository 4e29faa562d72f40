/*
 * solver.c: a thread-specific key whose destructor frees each thread's
 * solver when the thread exits (libmicrohttpd joins its pool on stop).
 */
#include "solver.h"

#include <pthread.h>
#include <stdlib.h>

static pthread_key_t key;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void
make_key(void)
{
	pthread_key_create(&key, free);
}

struct duskcourt_solver *
solver_for_thread(void)
{
	struct duskcourt_solver *sv;

	pthread_once(&once, make_key);
	sv = pthread_getspecific(key);
	if (sv == NULL) {
		sv = malloc(sizeof *sv);
		if (sv == NULL)
			return NULL;
		duskcourt_solver_init(sv);
		pthread_setspecific(key, sv);
	}
	return sv;
}
