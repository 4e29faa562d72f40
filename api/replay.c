/*
 * replay.c: building replays. The object's keys are fixed; its canonical
 * text (sorted keys) is what certificates hash.
 */
#include "replay.h"

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
