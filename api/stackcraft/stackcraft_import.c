/*
 * stackcraft_import.c: a Stackcraft replay from outside re-simulated by the
 * walk every game's verifier runs (replay_walk.h), with its refusal sorted
 * into a fault a caller can act on (stackcraft_json.h). It walks the table
 * of games, so it sits above the adapters, apart from stackcraft_json.c.
 */
#include "stackcraft_import.h"

#include <stdio.h>
#include <string.h>

#include "replay_walk.h"
#include "stackcraft_json.h"

/* Why replay_walk_start refused: the version fields when they are well
 * formed and wrong, else the form. */
static enum stackcraft_replay_fault
start_fault(const json_t *replay)
{
	const json_t *schema = json_object_get(replay, "schema");
	const json_t *rules = json_object_get(replay, "rules");

	if (!json_is_integer(schema))
		return STACKCRAFT_REPLAY_BAD_FORM;
	if (json_integer_value(schema) != STACKCRAFT_REPLAY_SCHEMA)
		return STACKCRAFT_REPLAY_BAD_SCHEMA;
	if (!json_is_string(rules))
		return STACKCRAFT_REPLAY_BAD_FORM;
	if (strcmp(json_string_value(rules), STACKCRAFT_RULES) != 0 ||
	    json_string_length(rules) != strlen(STACKCRAFT_RULES))
		return STACKCRAFT_REPLAY_BAD_RULES;
	return STACKCRAFT_REPLAY_BAD_FORM;
}


int
stackcraft_replay_import(const json_t *replay, struct stackcraft_replay_check *out)
{
	struct game_env env = { .work = NULL };
	struct replay_check chk;
	struct replay_walk w;
	int rc;
	size_t i;

	memset(out, 0, sizeof *out);
	rc = replay_walk_start(&w, replay, &game_stackcraft, &env, &chk);
	if (rc != 0)
		out->fault = start_fault(replay);
	while (rc == 0 && (rc = replay_walk_next(&w, &chk)) == 1)
		rc = 0;
	if (rc != 0 && out->fault == STACKCRAFT_REPLAY_OK)
		out->fault = STACKCRAFT_REPLAY_BAD_MOVE;
	if (rc == 0) {
		chk.final = stackcraft_final_json((const struct stackcraft *)&w.st);
		rc = replay_compare_final(&chk, w.final);
		/* The first field that differs, in the order replay.c compares. */
		for (i = 0; rc != 0 && game_stackcraft.final_keys[i] != NULL && out->field == NULL; i++)
			if (!json_equal(json_object_get(chk.final, game_stackcraft.final_keys[i]),
			    json_object_get(w.final, game_stackcraft.final_keys[i])))
				out->field = game_stackcraft.final_keys[i];
		if (rc != 0)
			out->fault = STACKCRAFT_REPLAY_BAD_FINAL;
		json_decref(chk.final);
	}
	if (w.started)
		memcpy(&out->game, &w.st, sizeof out->game);
	replay_walk_end(&w);
	out->nactions = w.step;
	if (rc == 0)
		return 0;
	out->step = out->fault == STACKCRAFT_REPLAY_BAD_MOVE ? chk.step : 0;
	snprintf(out->reason, sizeof out->reason, "%s", chk.reason);
	return -1;
}
