/*
 * game_table.c: the table of games, made from games.def (the list in
 * api/games.txt), and the lookups that walk it. Each descriptor lives in
 * its game's folder, api/<game>/. The table has a handful of entries:
 * lookups walk it.
 */
#include "game.h"

#include <stdio.h>
#include <string.h>

#define GAME(folder, ID) extern const struct game game_##folder;
#include "games.def"
#undef GAME

const struct game *const game_table[GAME__COUNT] = {
#define GAME(folder, ID) [GAME_##ID] = &game_##folder,
#include "games.def"
#undef GAME
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

/* names of the games that pass keep(), ", "-separated. */
static const char *
names_where(char *out, size_t cap, bool (*keep)(const struct game *, const void *), const void *arg)
{
	size_t i, n = 0;

	if (cap == 0)
		return out;
	out[0] = '\0';
	for (i = 0; i < GAME__COUNT && n < cap; i++)
		if (keep == NULL || keep(game_table[i], arg))
			n += (size_t)snprintf(out + n, cap - n, "%s%s", n ? ", " : "", game_table[i]->name);
	return out;
}

const char *
game_names(char *out, size_t cap)
{
	return names_where(out, cap, NULL, NULL);
}

static bool
has_seed_routes(const struct game *g, const void *arg)
{
	(void)arg;
	return game_ext(g)->abandon != NULL;
}

const char *
game_seed_route_names(char *out, size_t cap)
{
	return names_where(out, cap, has_seed_routes, NULL);
}

static const struct game_option *
option_named(const struct game *g, const char *name)
{
	size_t i;

	for (i = 0; i < g->noptions; i++)
		if (strcmp(g->options[i].name, name) == 0)
			return &g->options[i];
	return NULL;
}

static bool
has_option(const struct game *g, const void *name)
{
	return option_named(g, name) != NULL;
}

const char *
game_names_with_option(const char *name, char *out, size_t cap)
{
	return names_where(out, cap, has_option, name);
}
