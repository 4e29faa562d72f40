/*
 * match_rules.c: what the match pipeline does alike for every ruleset
 * (match_rules.h): a match's Server-Sent Event around the ruleset's view,
 * and the count of each seat's moves the end of a queue match reads. The
 * table of rulesets and its lookups are match_rules_table.c, above the
 * rulesets' folders.
 */
#include "match_rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jw.h"
#include "match.h"

char *
match_rules_event(const struct match_rules *mr, const struct match_rules_record *r, int64_t now_ms,
    size_t *len)
{
	struct jw w;
	char *text, *event = NULL;
	size_t n = 0, cap;

	jw_init(&w, 4096, 4u << 20);
	match_view_write(mr, &w, r, -1, now_ms);
	if ((text = jw_take(&w, &n)) == NULL)
		return NULL;
	cap = n + 64;
	if ((event = malloc(cap)) != NULL)
		*len = (size_t)snprintf(event, cap, "id: %lld\nevent: match\ndata: %s\n\n",
		    (long long)r->turn, text);
	free(text);
	return event;
}

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
