/*
 * game.h: the games the daemon serves, by number and by name. Shared by the
 * token format (the game is sealed into every stateToken), the routes
 * (`/api/games/{game}/...`) and the configuration (`--agent-check GAME=on`).
 */
#ifndef API_GAME_H
#define API_GAME_H

#include <stddef.h>

enum game {
	GAME_STACKFALL = 0,
	GAME_DUSKCOURT = 1,
	GAME__COUNT
};

/* "stackfall" or "duskcourt"; NULL for anything else. */
static inline const char *
game_name(enum game g)
{
	switch (g) {
	case GAME_STACKFALL: return "stackfall";
	case GAME_DUSKCOURT: return "duskcourt";
	default: return NULL;
	}
}

/* The game named by the first len bytes of s, or -1. */
static inline int
game_from_name(const char *s, size_t len)
{
	static const char *const names[GAME__COUNT] = { "stackfall", "duskcourt" };
	size_t i, j;

	for (i = 0; i < GAME__COUNT; i++) {
		for (j = 0; j < len && names[i][j] == s[j]; j++)
			;
		if (j == len && names[i][j] == '\0')
			return (int)i;
	}
	return -1;
}

#endif
