/*
 * replay.c: building replays and the checks every game's verifier shares
 * (the walk that runs a verifier is replay_walk.c's).
 * Verification trusts nothing in a replay but its seed, options and
 * actions: the game plays them on its engine and the summary it reaches is
 * compared with the one claimed.
 */
#include "replay.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

json_t *
replay_new(const struct game *g, int64_t seed, json_t *actions, json_t *final, json_t *options)
{
	json_t *r;

	if (actions == NULL || final == NULL) {
		json_decref(actions);
		json_decref(final);
		json_decref(options);
		return NULL;
	}
	r = json_pack("{s:i, s:s, s:I, s:o, s:o}", "schema", REPLAY_SCHEMA, "rules", g->rules,
	    "seed", (json_int_t)seed, "actions", actions, "final", final);
	if (r != NULL && options != NULL)
		json_object_update(r, options);
	json_decref(options);
	return r;
}

int
replay_fail(struct replay_check *out, size_t step, const char *fmt, ...)
{
	va_list ap;

	out->step = step;
	va_start(ap, fmt);
	vsnprintf(out->reason, sizeof out->reason, fmt, ap);
	va_end(ap);
	return -1;
}

static size_t
count(const char *const *keys)
{
	size_t n = 0;

	while (keys != NULL && keys[n] != NULL)
		n++;
	return n;
}

bool
replay_exact_keys(const json_t *o, const char *const *base, const char *const *extra)
{
	size_t i;

	if (!json_is_object(o) || json_object_size(o) != count(base) + count(extra))
		return false;
	for (i = 0; base != NULL && base[i] != NULL; i++)
		if (json_object_get(o, base[i]) == NULL)
			return false;
	for (i = 0; extra != NULL && extra[i] != NULL; i++)
		if (json_object_get(o, extra[i]) == NULL)
			return false;
	return true;
}

/* "a, b and c". */
static void
list_keys(char *out, size_t cap, const char *const *a, const char *const *b)
{
	size_t na = count(a), n = na + count(b), i, len = 0;

	out[0] = '\0';
	for (i = 0; i < n && len < cap; i++)
		len += (size_t)snprintf(out + len, cap - len, "%s%s", i == 0 ? "" : i + 1 == n ? " and " : ", ",
		    i < na ? a[i] : b[i - na]);
}

int
replay_read(const json_t *replay, const char *const *extra_keys, const char *const *final_keys,
    int64_t *seed, const json_t **actions, const json_t **final, struct replay_check *out)
{
	static const char *const base[] = { "schema", "rules", "seed", "actions", "final", NULL };
	const json_t *s;
	char names[200];

	if (!replay_exact_keys(replay, base, extra_keys)) {
		list_keys(names, sizeof names, base, extra_keys);
		return replay_fail(out, 0, "a %s replay is an object with exactly %s", out->game->name, names);
	}
	s = json_object_get(replay, "seed");
	if (!json_is_integer(s) || json_integer_value(s) < 0 || json_integer_value(s) > ENGINE_ID_MAX)
		return replay_fail(out, 0, "seed must be an integer from 0 to %lld", (long long)ENGINE_ID_MAX);
	*seed = json_integer_value(s);
	*actions = json_object_get(replay, "actions");
	*final = json_object_get(replay, "final");
	if (!json_is_array(*actions))
		return replay_fail(out, 0, "actions must be an array");
	out->nactions = json_array_size(*actions);
	if (!replay_exact_keys(*final, final_keys, NULL)) {
		list_keys(names, sizeof names, final_keys, NULL);
		return replay_fail(out, 0, "final must hold exactly %s", names);
	}
	return 0;
}

int
replay_compare_final(struct replay_check *out, const json_t *claimed)
{
	const char *key;
	json_t *want;

	if (out->final == NULL)
		return replay_fail(out, 0, "out of memory");
	if (json_equal(out->final, claimed))
		return 0;
	json_object_foreach(out->final, key, want) {
		if (!json_equal(want, json_object_get(claimed, key))) {
			char *got = json_dumps(json_object_get(claimed, key), JSON_ENCODE_ANY);
			char *is = json_dumps(want, JSON_ENCODE_ANY);

			replay_fail(out, out->nactions, "final.%s is %s but the actions give %s", key,
			    got ? got : "?", is ? is : "?");
			free(got);
			free(is);
			return -1;
		}
	}
	return replay_fail(out, out->nactions, "final does not match the actions");
}
