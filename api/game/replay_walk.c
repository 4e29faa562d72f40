/*
 * replay_walk.c: a replay re-simulated move by move on its game's engine:
 * the game looked up by the replay's rules, its form checked (replay.c),
 * then its start and each of its moves played by the game's functions.
 * Verification trusts nothing in a replay but its seed, options and
 * actions.
 */
#include "replay_walk.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quote.h"

int
replay_walk_start(struct replay_walk *w, const json_t *replay, const struct game *expect,
    const struct game_env *env, struct replay_check *out)
{
	const json_t *schema;
	const char *rules;
	char names[GAME_NAMES_MAX], reason[ENGINE_REASON_MAX], q[QUOTE_SHORT];
	int64_t seed;

	memset(w, 0, sizeof *w);
	memset(out, 0, sizeof *out);
	if (!json_is_object(replay))
		return replay_fail(out, 0, "a replay is a JSON object");
	schema = json_object_get(replay, "schema");
	if (!json_is_integer(schema) || json_integer_value(schema) != REPLAY_SCHEMA)
		return replay_fail(out, 0, "unknown replay schema (this server reads schema %d)", REPLAY_SCHEMA);
	rules = json_string_value(json_object_get(replay, "rules"));
	out->game = game_by_rules(rules);
	if (out->game == NULL) {
		size_t i, n = 0;

		for (i = 0; i < GAME__COUNT && n < sizeof names; i++)
			n += (size_t)snprintf(names + n, sizeof names - n, "%s%s", i ? ", " : "",
			    game_table[i]->rules);
		return replay_fail(out, 0, "unknown rules version %s%s%s (this server plays %s)",
		    rules ? "'" : "", rules ? text_quote(q, sizeof q, rules, 40) : "(not a string)",
		    rules ? "'" : "", names);
	}
	if (expect != NULL && out->game != expect)
		return replay_fail(out, 0, "rules %s are not %s's", rules, expect->name);
	w->game = out->game;
	if (replay_read(replay, w->game->replay_keys, w->game->final_keys, &seed, &w->actions,
	    &w->final, out) != 0)
		return -1;
	w->rc.env = env;
	w->started = true;
	if (!w->game->replay_start(&w->st, seed, replay, &w->rc, reason, sizeof reason))
		return replay_fail(out, 0, "the run cannot start: %s", reason);
	return 0;
}

int
replay_walk_next(struct replay_walk *w, struct replay_check *out)
{
	char reason[ENGINE_REASON_MAX];
	const json_t *move;

	if (w->step >= json_array_size(w->actions))
		return 0;
	move = json_array_get(w->actions, w->step);
	if (!w->game->replay_move(&w->st, move, &w->rc, reason, sizeof reason))
		return replay_fail(out, w->step + 1, "action %zu is refused: %s", w->step + 1, reason);
	w->step++;
	return 1;
}

void
replay_walk_end(struct replay_walk *w)
{
	if (w->started && game_ext(w->game)->replay_end != NULL)
		game_ext(w->game)->replay_end(&w->rc);
	w->started = false;
}

int
replay_verify(const json_t *replay, const struct game *expect, const struct game_env *env,
    struct replay_check *out)
{
	struct replay_walk *w = malloc(sizeof *w);
	int rc;

	if (w == NULL) {
		memset(out, 0, sizeof *out);
		return replay_fail(out, 0, "out of memory");
	}
	rc = replay_walk_start(w, replay, expect, env, out);
	while (rc == 0 && (rc = replay_walk_next(w, out)) == 1)
		rc = 0;
	if (rc == 0) {
		out->final = w->game->final(&w->st);
		rc = replay_compare_final(out, w->final);
	}
	replay_walk_end(w);
	free(w);
	return rc;
}
