/*
 * replay.c: building and verifying replays. The object's keys are fixed;
 * its canonical text (sorted keys) is what certificates hash. Verification
 * trusts nothing in the replay but its seed and actions: it plays them on
 * the engine and compares the summary it reaches with the one claimed.
 */
#include "replay.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "duskcourt_json.h"
#include "stackfall_json.h"

#define SEED_MAX (((int64_t)1 << 53) - 1)

json_t *
replay_new(const char *rules, int64_t seed, json_t *actions, json_t *final)
{
	if (actions == NULL || final == NULL) {
		json_decref(actions);
		json_decref(final);
		return NULL;
	}
	return json_pack("{s:i, s:s, s:I, s:o, s:o}", "schema", REPLAY_SCHEMA, "rules", rules,
	    "seed", (json_int_t)seed, "actions", actions, "final", final);
}

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static int
fail(struct replay_check *out, size_t step, const char *fmt, ...)
{
	va_list ap;

	out->step = step;
	va_start(ap, fmt);
	vsnprintf(out->reason, sizeof out->reason, fmt, ap);
	va_end(ap);
	return -1;
}

/* Only the listed keys, each present. */
static bool
exact_keys(const json_t *o, const char *const *keys, size_t n)
{
	size_t i;

	if (!json_is_object(o) || json_object_size(o) != n)
		return false;
	for (i = 0; i < n; i++)
		if (json_object_get(o, keys[i]) == NULL)
			return false;
	return true;
}

static int
play_stackfall(const json_t *actions, int64_t seed, struct replay_check *out)
{
	struct stackfall g;
	struct stackfall_report rep;
	size_t i;
	json_t *a;

	stackfall_init(&g, (uint64_t)seed);
	json_array_foreach(actions, i, a) {
		const char *type = json_is_object(a) ? json_string_value(json_object_get(a, "type")) : NULL;
		enum stackfall_outcome o;

		memset(&rep, 0, sizeof rep);
		if (type != NULL && strcmp(type, "abandon") == 0 && json_object_size(a) == 1) {
			o = stackfall_abandon(&g, &rep);
		} else {
			struct stackfall_cmd c;

			stackfall_action_from_json(a, &c);
			if (c.kind == STACKFALL_CMD_INVALID)
				return fail(out, i + 1, "action %zu is not a Stackfall move: %s", i + 1, c.reason);
			if (c.kind == STACKFALL_CMD_OPTIONS || c.kind == STACKFALL_CMD_PREVIEW)
				return fail(out, i + 1, "action %zu (%s) changes nothing and is never a move",
				    i + 1, type);
			if (c.kind == STACKFALL_CMD_PLACE)
				o = stackfall_place(&g, c.rotation, c.column, &rep);
			else if (c.kind == STACKFALL_CMD_HOLD)
				o = stackfall_hold(&g, &rep);
			else
				o = stackfall_resign(&g, &rep);
		}
		if (o != STACKFALL_OK)
			return fail(out, i + 1, "action %zu is refused: %s", i + 1, rep.message);
	}
	out->final = stackfall_final_json(&g);
	return 0;
}

static int
play_duskcourt(const json_t *actions, int64_t seed, struct duskcourt_solver *sv,
    struct replay_check *out)
{
	struct duskcourt_state s;
	char reason[ENGINE_REASON_MAX];
	size_t i;
	json_t *a;

	if (sv == NULL || !duskcourt_init(&s, (uint64_t)seed, sv, reason, sizeof reason))
		return fail(out, 0, "the run cannot start: %s", sv ? reason : "no dealer memory");
	json_array_foreach(actions, i, a) {
		struct duskcourt_action act;

		if (!duskcourt_action_from_json(a, &act, reason, sizeof reason))
			return fail(out, i + 1, "action %zu is not a Duskcourt action: %s", i + 1, reason);
		if (!duskcourt_apply(&s, &act, sv, reason, sizeof reason))
			return fail(out, i + 1, "action %zu is refused: %s", i + 1, reason);
	}
	out->final = duskcourt_final_json(&s);
	return 0;
}

int
replay_verify(const json_t *replay, enum game expect, struct duskcourt_solver *sv,
    struct replay_check *out)
{
	static const char *const keys[] = { "schema", "rules", "seed", "actions", "final" };
	static const char *const sf_final[] = { "score", "lines", "pieces", "status" };
	static const char *const dc_final[] = { "score", "rung", "lives", "phase" };
	const json_t *schema, *seed, *actions, *final;
	const char *rules;
	int rc;

	memset(out, 0, sizeof *out);
	if (!exact_keys(replay, keys, 5))
		return fail(out, 0, "a replay is an object with exactly schema, rules, seed, actions and final");
	schema = json_object_get(replay, "schema");
	if (!json_is_integer(schema) || json_integer_value(schema) != REPLAY_SCHEMA)
		return fail(out, 0, "unknown replay schema (this server reads schema %d)", REPLAY_SCHEMA);
	rules = json_string_value(json_object_get(replay, "rules"));
	if (rules != NULL && strcmp(rules, ENGINE_RULES_STACKFALL) == 0)
		out->game = GAME_STACKFALL;
	else if (rules != NULL && strcmp(rules, ENGINE_RULES_DUSKCOURT) == 0)
		out->game = GAME_DUSKCOURT;
	else
		return fail(out, 0, "unknown rules version %s%.40s%s (this server plays %s and %s)",
		    rules ? "'" : "", rules ? rules : "(not a string)", rules ? "'" : "",
		    ENGINE_RULES_STACKFALL, ENGINE_RULES_DUSKCOURT);
	if (expect != GAME__COUNT && out->game != expect)
		return fail(out, 0, "rules %s are not %s's", rules, game_name(expect));
	seed = json_object_get(replay, "seed");
	if (!json_is_integer(seed) || json_integer_value(seed) < 0 || json_integer_value(seed) > SEED_MAX)
		return fail(out, 0, "seed must be an integer from 0 to %lld", (long long)SEED_MAX);
	actions = json_object_get(replay, "actions");
	final = json_object_get(replay, "final");
	if (!json_is_array(actions))
		return fail(out, 0, "actions must be an array");
	out->nactions = json_array_size(actions);
	if (out->game == GAME_STACKFALL ? !exact_keys(final, sf_final, 4) : !exact_keys(final, dc_final, 4))
		return fail(out, 0, "final must hold exactly %s",
		    out->game == GAME_STACKFALL ? "score, lines, pieces and status" : "score, rung, lives and phase");
	rc = out->game == GAME_STACKFALL ?
	    play_stackfall(actions, json_integer_value(seed), out) :
	    play_duskcourt(actions, json_integer_value(seed), sv, out);
	if (rc != 0)
		return rc;
	if (out->final == NULL)
		return fail(out, 0, "out of memory");
	if (!json_equal(out->final, final)) {
		const char *key;
		json_t *want;

		json_object_foreach(out->final, key, want)
			if (!json_equal(want, json_object_get(final, key))) {
				char *got = json_dumps(json_object_get(final, key), JSON_ENCODE_ANY);
				char *is = json_dumps(want, JSON_ENCODE_ANY);

				fail(out, out->nactions, "final.%s is %s but the actions give %s", key,
				    got ? got : "?", is ? is : "?");
				free(got);
				free(is);
				return -1;
			}
		return fail(out, out->nactions, "final does not match the actions");
	}
	return 0;
}
