/*
 * duskcourt_json.c: Duskcourt's engine structs to and from JSON. Field
 * names and order follow duskcourt.md; the same state always gives the same
 * bytes, which is what makes two runs with the same actions compare equal.
 */
#include "duskcourt_json.h"

#include <stdio.h>
#include <string.h>

static const char *const phases[] = { "playing", "break", "done" };

json_t *
duskcourt_cells_json(const uint8_t *cells, int size)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < size * size; i++) {
		char letter = duskcourt_cell_char(cells[i]);

		json_array_append_new(a, cells[i] == DUSKCOURT_EMPTY ? json_null() :
		    json_stringn_nocheck(&letter, 1));
	}
	return a;
}

static json_t *
boulders_json(const struct duskcourt_state *s)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < s->size * s->size; i++)
		if (s->board[i] == DUSKCOURT_BOULDER)
			json_array_append_new(a, json_integer(i));
	return a;
}

static json_t *
award_json(const struct duskcourt_state *s)
{
	if (!s->has_award)
		return json_null();
	return json_pack("{s:I, s:I, s:I, s:I, s:I}",
	    "capture", (json_int_t)s->last_award.capture, "clear", (json_int_t)s->last_award.clear,
	    "streak", (json_int_t)s->last_award.streak, "clean", (json_int_t)s->last_award.clean,
	    "total", (json_int_t)s->last_award.total);
}

json_t *
duskcourt_state_json(const struct duskcourt_state *s)
{
	json_t *o = json_object();

	json_object_set_new_nocheck(o, "phase", json_string_nocheck(phases[s->phase < 3 ? s->phase : 0]));
	json_object_set_new_nocheck(o, "rung", json_integer(s->rung));
	json_object_set_new_nocheck(o, "size", json_integer(s->size));
	json_object_set_new_nocheck(o, "board", duskcourt_cells_json(s->board, s->size));
	json_object_set_new_nocheck(o, "dealt", duskcourt_cells_json(s->dealt, s->size));
	json_object_set_new_nocheck(o, "boulders", boulders_json(s));
	json_object_set_new_nocheck(o, "kingSurvives", json_boolean(s->king_survives));
	json_object_set_new_nocheck(o, "resetUsed", json_boolean(s->reset_used));
	json_object_set_new_nocheck(o, "captures", json_integer(s->captures));
	json_object_set_new_nocheck(o, "paidDepth", json_integer(s->paid_depth));
	json_object_set_new_nocheck(o, "lives", json_integer(s->lives));
	json_object_set_new_nocheck(o, "streak", json_integer(s->streak));
	json_object_set_new_nocheck(o, "score", json_integer((json_int_t)s->score));
	json_object_set_new_nocheck(o, "lastResult", s->last_result == DUSKCOURT_RESULT_CLEAR ?
	    json_string("clear") : s->last_result == DUSKCOURT_RESULT_STUCK ? json_string("stuck") :
	    json_null());
	json_object_set_new_nocheck(o, "lastAward", award_json(s));
	json_object_set_new_nocheck(o, "seed", json_integer((json_int_t)s->seed));
	json_object_set_new_nocheck(o, "courtsDealt", json_integer(s->courts_dealt));
	return o;
}

json_t *
duskcourt_final_json(const struct duskcourt_state *s)
{
	return json_pack("{s:I, s:i, s:i, s:s}", "score", (json_int_t)s->score, "rung", (int)s->rung,
	    "lives", (int)s->lives, "phase", phases[s->phase < 3 ? s->phase : 0]);
}

/* Built key by key rather than with json_pack: every answer carries a list
 * of these, and pack reads its format string each time. */
json_t *
duskcourt_action_json(const struct duskcourt_action *a)
{
	static const char *const types[] = { "capture", "reset", "next", "endRun" };
	json_t *o = json_object();
	int64_t t = a->type >= 0 && a->type <= 3 ? a->type : 3;

	json_object_set_new_nocheck(o, "type", json_string_nocheck(types[t]));
	if (t == DUSKCOURT_ACT_CAPTURE) {
		json_object_set_new_nocheck(o, "from", json_integer(a->from));
		json_object_set_new_nocheck(o, "to", json_integer(a->to));
	}
	return o;
}

json_t *
duskcourt_legal_json(const struct duskcourt_state *s)
{
	struct duskcourt_action acts[DUSKCOURT_LEGAL_MAX];
	size_t n = duskcourt_legal(s, acts, DUSKCOURT_LEGAL_MAX), i;
	json_t *a = json_array();

	if (n > DUSKCOURT_LEGAL_MAX)
		n = DUSKCOURT_LEGAL_MAX;
	for (i = 0; i < n; i++)
		json_array_append_new(a, duskcourt_action_json(&acts[i]));
	return a;
}

static bool
square(const json_t *v, const char *name, int64_t *out, char *reason, size_t cap)
{
	const json_t *x = json_object_get(v, name);

	if (x == NULL) {
		snprintf(reason, cap, "a capture needs '%s', the index of a square (0-35)", name);
		return false;
	}
	if (!json_is_integer(x) || json_integer_value(x) < 0 || json_integer_value(x) > 35) {
		snprintf(reason, cap, "'%s' must be an integer from 0 to 35", name);
		return false;
	}
	*out = json_integer_value(x);
	return true;
}

bool
duskcourt_action_from_json(const json_t *v, struct duskcourt_action *out, char *reason, size_t cap)
{
	static const char *const names[] = { "capture", "reset", "next", "endRun" };
	const json_t *t;
	const char *type, *key;
	json_t *val;
	size_t i;

	memset(out, 0, sizeof *out);
	if (!json_is_object(v)) {
		snprintf(reason, cap, "the action must be an object such as {\"type\": \"capture\", "
		    "\"from\": 0, \"to\": 5}");
		return false;
	}
	t = json_object_get(v, "type");
	if (!json_is_string(t)) {
		snprintf(reason, cap, "the action needs a 'type': capture, reset, next or endRun");
		return false;
	}
	type = json_string_value(t);
	for (i = 0; i < 4; i++)
		if (strcmp(type, names[i]) == 0)
			break;
	if (i == 4) {
		snprintf(reason, cap, "unknown action type '%.40s': capture, reset, next or endRun", type);
		return false;
	}
	out->type = (int64_t)i;
	json_object_foreach((json_t *)v, key, val) {
		(void)val;
		if (strcmp(key, "type") == 0)
			continue;
		if (i == DUSKCOURT_ACT_CAPTURE && (strcmp(key, "from") == 0 || strcmp(key, "to") == 0))
			continue;
		snprintf(reason, cap, "a %s action has no field '%.40s'", names[i], key);
		return false;
	}
	if (i == DUSKCOURT_ACT_CAPTURE)
		return square(v, "from", &out->from, reason, cap) &&
		    square(v, "to", &out->to, reason, cap);
	return true;
}

json_t *
duskcourt_rules_json(void)
{
	json_t *ladder = json_array(), *o;
	uint32_t r;

	for (r = 1; r <= 14; r++) {
		struct duskcourt_rung row;

		duskcourt_ladder(r, &row);
		json_array_append_new(ladder, json_pack("{s:i, s:i, s:i, s:i, s:b, s:i}",
		    "rung", (int)r, "size", row.size, "idols", row.idols, "minDecoys", row.decoys,
		    "kingSurvives", row.king_survives, "boulders", row.boulders));
	}
	o = json_pack("{s:s, s:s, s:o, s:s, s:[s,s,s,s,s,s], s:o, s:o}",
	    "game", "duskcourt", "rules", ENGINE_RULES_DUSKCOURT,
	    "ladder", ladder,
	    "ladderBeyond", "rung r >= 11: size 6, idols min(9 + floor((r - 11) / 2), 12), "
	    "at least min(2 + floor((r - 11) / 4), 3) decoys, the jackal must stand last, "
	    "2 + ((r - 11) mod 3) boulders",
	    "summary",
	    "Every move is a capture: one idol takes another within its reach. Clear the court "
	    "to a single idol to climb a rung; a court with two or more idols and no capture is "
	    "stuck and costs a life (3 lives, never regained).",
	    "Reach: K (jackal) the eight touching squares; Q (scorpion) any distance on the eight "
	    "lines; R (cobra) on the four straight lines; B (vulture) on the four diagonals; N "
	    "(camel) jumps two and one, over anything; P (beetle) the two squares diagonally "
	    "forward (toward the top row), none on the top row.",
	    "Running idols stop at the first occupied square and take it only if it is an idol; "
	    "boulders (#) block lines, are never taken and never moved.",
	    "On a kingSurvives court the single K can never be taken and must make the last take.",
	    "reset restores the court as dealt: only while playing, after a capture, once per "
	    "court; it forfeits the clean award. next deals the next court at a break; endRun "
	    "stops and keeps the score.",
	    "Scoring with r the rung: capture k of an attempt pays 10 + 2(r - 1) if k > paidDepth; "
	    "a clear pays 40r, a streak award 10r * min(streak, 5) and a clean award 20r.",
	    "actions", json_pack("[{s:s, s:s, s:s}, {s:s}, {s:s}, {s:s}]",
	    "type", "capture", "from", "integer 0-35", "to", "integer 0-35",
	    "type", "reset", "type", "next", "type", "endRun"),
	    "board", json_pack("{s:s, s:s}", "index", "row * size + col, row 0 the bottom rank",
	    "cells", "null (empty), \"#\" (boulder) or K Q R B N P"));
	return o;
}
