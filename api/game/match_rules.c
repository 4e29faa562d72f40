/*
 * match_rules.c: what the match pipeline does alike for every ruleset
 * (match_rules.h): the count of each seat's moves the end of a queue
 * match reads. The table of rulesets and its lookups are
 * match_rules_table.c, above the rulesets' folders; what a match is made
 * of over the descriptor (its event for the streams too), match.h.
 */
#include "match_rules.h"

#include <string.h>

void
match_rules_moves_sent(const struct match_rules *mr, const json_t *turns, int n, int *sent)
{
	size_t t;
	int i;

	for (i = 0; i < n; i++)
		sent[i] = 0;
	for (t = 0; t < json_array_size(turns); t++) {
		const json_t *moves = json_array_get(turns, t);

		for (i = 0; i < n; i++) {
			const char *m = json_string_value(json_array_get(moves, (size_t)i));

			if (m != NULL && strcmp(m, mr->missed) != 0)
				sent[i]++;
		}
	}
}
