/*
 * match_rules_table.c: the table of match rulesets, made from games.def
 * (the lines of api/games.txt marked `match`), and the lookups that walk
 * it (match_rules.h). Each descriptor lives in its ruleset's folder,
 * api/<folder>/. A handful of entries: lookups walk them.
 */
#include "match_rules.h"

#include <stdio.h>
#include <string.h>

#define MATCH(folder, ID) extern const struct match_rules match_##folder;
#include "games.def"
#undef MATCH

const struct match_rules *const match_rules_table[MATCH_RULES__COUNT] = {
#define MATCH(folder, ID) [MATCH_RULES_##ID] = &match_##folder,
#include "games.def"
#undef MATCH
};

const struct match_rules *
match_rules_default(void)
{
	return match_rules_table[0];
}

const struct match_rules *
match_rules_by_name(const char *rules)
{
	size_t i;

	for (i = 0; rules != NULL && i < MATCH_RULES__COUNT; i++)
		if (strcmp(match_rules_table[i]->name, rules) == 0)
			return match_rules_table[i];
	return NULL;
}

const char *
match_rules_names(char *out, size_t cap)
{
	size_t i, n = 0;

	if (cap == 0)
		return out;
	out[0] = '\0';
	for (i = 0; i < MATCH_RULES__COUNT && n < cap; i++)
		n += (size_t)snprintf(out + n, cap - n, "%s%s", n ? ", " : "", match_rules_table[i]->name);
	return out;
}
