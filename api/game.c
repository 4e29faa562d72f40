/*
 * game.c: the table of games. One line per ruleset; each descriptor lives
 * beside that game's JSON (api/<game>_json.c). Lookups walk the table:
 * it has a handful of entries.
 */
#include "game.h"

#include <stdio.h>
#include <string.h>

#include "duskcourt_json.h"
#include "stackcraft_json.h"
#include "hatetris_json.h"
#include "stackfall_json.h"

const struct game *const game_table[GAME__COUNT] = {
	[GAME_STACKFALL] = &game_stackfall,
	[GAME_DUSKCOURT] = &game_duskcourt,
	[GAME_STACKCRAFT] = &game_stackcraft,
	[GAME_HATETRIS] = &game_hatetris,
};

const struct game *
game_by_name(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < GAME__COUNT; i++)
		if (strlen(game_table[i]->name) == len && memcmp(game_table[i]->name, s, len) == 0)
			return game_table[i];
	return NULL;
}

const struct game *
game_by_rules(const char *rules)
{
	size_t i;

	for (i = 0; rules != NULL && i < GAME__COUNT; i++)
		if (strcmp(game_table[i]->rules, rules) == 0)
			return game_table[i];
	return NULL;
}

const struct game *
game_get(enum game_id id)
{
	return (unsigned)id < GAME__COUNT ? game_table[id] : NULL;
}

const char *
game_names(char *out, size_t cap)
{
	size_t i, n = 0;

	if (cap == 0)
		return out;
	out[0] = '\0';
	for (i = 0; i < GAME__COUNT && n < cap; i++)
		n += (size_t)snprintf(out + n, cap - n, "%s%s", i ? ", " : "", game_table[i]->name);
	return out;
}
