/*
 * stackcraft_json.c: Stackcraft's state, legal actions, rules and replays as
 * JSON. Objects are built key by key with the _nocheck setters (every key
 * here is a literal, so jansson's UTF-8 check would only cost time): the
 * state and the legal list go out with every answer and are the largest
 * CPU item of a request. Replay import trusts nothing but the seed, the cap
 * and the action ids: it plays them and compares what it reaches with the
 * summary claimed.
 */
#include "stackcraft_json.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define MAX53 ((json_int_t)9007199254740991LL)

static json_t *
letter(unsigned piece)
{
	char c = tetromino_letter(piece);

	return json_stringn_nocheck(&c, 1);
}

static json_t *
end_json(unsigned end_reason)
{
	const char *end = stackcraft_end_name(end_reason);

	return end != NULL ? json_string_nocheck(end) : json_null();
}

json_t *
stackcraft_state_json(const struct stackcraft *g)
{
	uint8_t cells[STACKCRAFT_ROWS][STACKCRAFT_COLS];
	json_t *o = json_object(), *board = json_array(), *row;
	unsigned x, y;

	stackcraft_board(g, cells);
	for (y = 0; y < STACKCRAFT_ROWS; y++) {
		row = json_array();
		for (x = 0; x < STACKCRAFT_COLS; x++)
			json_array_append_new(row, json_integer(cells[y][x]));
		json_array_append_new(board, row);
	}
	json_object_set_new_nocheck(o, "board", board);
	json_object_set_new_nocheck(o, "current", letter(g->current));
	json_object_set_new_nocheck(o, "next", letter(g->next));
	json_object_set_new_nocheck(o, "score", json_integer((json_int_t)g->score));
	json_object_set_new_nocheck(o, "lines", json_integer((json_int_t)g->lines));
	json_object_set_new_nocheck(o, "pieces", json_integer((json_int_t)g->pieces));
	json_object_set_new_nocheck(o, "status", json_string_nocheck(stackcraft_status_name(g->status)));
	json_object_set_new_nocheck(o, "end_reason", end_json(g->end_reason));
	json_object_set_new_nocheck(o, "cap", g->cap != 0 ? json_integer((json_int_t)g->cap) : json_null());
	return o;
}

json_t *
stackcraft_legal_json(const struct stackcraft *g)
{
	struct stackcraft_action acts[STACKCRAFT_LEGAL_MAX];
	json_t *list = json_array(), *o, *cells, *cell;
	size_t n, i, k;

	n = stackcraft_legal(g, acts, STACKCRAFT_LEGAL_MAX);
	for (i = 0; i < n; i++) {
		o = json_object();
		cells = json_array();
		for (k = 0; k < 4; k++) {
			cell = json_array();
			json_array_append_new(cell, json_integer(acts[i].cells[k][0]));
			json_array_append_new(cell, json_integer(acts[i].cells[k][1]));
			json_array_append_new(cells, cell);
		}
		json_object_set_new_nocheck(o, "id", json_stringn_nocheck(acts[i].id, 4));
		json_object_set_new_nocheck(o, "rotation", json_integer(acts[i].rotation));
		json_object_set_new_nocheck(o, "x", json_integer(acts[i].x));
		json_object_set_new_nocheck(o, "y", json_integer(acts[i].y));
		json_object_set_new_nocheck(o, "cells", cells);
		json_array_append_new(list, o);
	}
	return list;
}

bool
stackcraft_action_from_json(const json_t *v, unsigned *rotation, unsigned *x,
    char reason[ENGINE_REASON_MAX])
{
	const char *s;
	size_t len, i;
	bool plain;

	if (!json_is_string(v)) {
		snprintf(reason, ENGINE_REASON_MAX,
		    "the action must be a string id r<rotation>x<x>, such as \"r1x4\"");
		return false;
	}
	s = json_string_value(v);
	len = json_string_length(v);
	if (stackcraft_parse_id(s, len, rotation, x))
		return true;
	plain = len > 0 && len <= 16;
	for (i = 0; plain && i < len; i++)
		plain = s[i] >= 0x20 && s[i] < 0x7f && s[i] != '"' && s[i] != '\\';
	if (plain)
		snprintf(reason, ENGINE_REASON_MAX,
		    "\"%s\" is not an action id: ids are r<rotation>x<x>, one digit each, such as r1x4",
		    s);
	else
		snprintf(reason, ENGINE_REASON_MAX,
		    "not an action id: ids are r<rotation>x<x>, one digit each, such as r1x4");
	return false;
}

json_t *
stackcraft_final_json(const struct stackcraft *g)
{
	json_t *o = json_object();

	json_object_set_new_nocheck(o, "score", json_integer((json_int_t)g->score));
	json_object_set_new_nocheck(o, "lines", json_integer((json_int_t)g->lines));
	json_object_set_new_nocheck(o, "pieces", json_integer((json_int_t)g->pieces));
	json_object_set_new_nocheck(o, "status", json_string_nocheck(stackcraft_status_name(g->status)));
	json_object_set_new_nocheck(o, "end_reason", end_json(g->end_reason));
	return o;
}

static json_t *
pieces_json(void)
{
	json_t *pieces = json_object();
	unsigned p, r, k;

	for (p = 0; p < TETROMINO_NPIECES; p++) {
		json_t *list = json_array();
		char name[2] = { tetromino_letter(p), '\0' };

		for (r = 0; r < stackcraft_orientations(p); r++) {
			const struct stackcraft_shape *s = stackcraft_shape(p, r);
			json_t *o = json_object(), *cells = json_array(), *rows = json_array();
			char line[5];
			unsigned y, x;

			for (k = 0; k < 4; k++)
				json_array_append_new(cells, json_pack("[i,i]", s->cells[k][0],
				    s->cells[k][1]));
			for (y = 0; y < s->height; y++) {
				memset(line, 0, sizeof line);
				for (x = 0; x < s->width; x++)
					line[x] = '.';
				for (k = 0; k < 4; k++)
					if (s->cells[k][1] == y)
						line[s->cells[k][0]] = '#';
				json_array_append_new(rows, json_string_nocheck(line));
			}
			json_object_set_new_nocheck(o, "rotation", json_integer(r));
			json_object_set_new_nocheck(o, "cells", cells);
			json_object_set_new_nocheck(o, "shape", rows);
			json_object_set_new_nocheck(o, "x", json_pack("[i,i]", 0,
			    STACKCRAFT_COLS - s->width));
			json_array_append_new(list, o);
		}
		json_object_set_new_nocheck(pieces, name, list);
	}
	return pieces;
}

json_t *
stackcraft_rules_json(void)
{
	return json_pack("{s:s, s:s, s:i, s:{s:i, s:i, s:s, s:s, s:i}, s:{s:i, s:i, s:i, s:i, s:i, "
	    "s:i, s:i}, s:o, s:s, s:{s:s, s:s, s:s, s:s, s:s}, s:s, s:[i,i,i,i,i], s:s, s:{s:s, s:s}, "
	    "s:s, s:[s,s,s], s:s, s:{s:i, s:s, s:[s,s,s,s,s,s], s:[s,s,s,s,s]}}",
	    "game", "stackcraft",
	    "rules", STACKCRAFT_RULES,
	    "replay_schema", STACKCRAFT_REPLAY_SCHEMA,
	    "board", "columns", STACKCRAFT_COLS, "rows", STACKCRAFT_ROWS,
	    "origin", "(0, 0) is the top-left cell",
	    "axes", "x grows to the right, y grows downward", "empty", 0,
	    "colors", "I", 1, "O", 2, "T", 3, "S", 4, "Z", 5, "J", 6, "L", 7,
	    "pieces", pieces_json(),
	    "orientations", "rotation 0 is the spawn shape; each next rotation turns it 90 degrees "
	    "clockwise, shifted so its smallest x and y are 0; repeated shapes are dropped "
	    "(I, S, Z: 2; O: 1; T, J, L: 4)",
	    "action",
	    "id", "r{rotation}x{x}",
	    "example", "r1x4",
	    "x", "the column of the shape's top-left origin",
	    "y", "the row of that origin after landing (y downward)",
	    "cells", "the four cells [x, y] after landing, by y then x",
	    "legal",
	    "for each rotation and each x where the shape fits the width: put it at y = 0; if any of "
	    "those cells is filled the placement is unavailable, otherwise it moves down one row at a "
	    "time until the next step would hit a cell or leave the board; listed by rotation, then x",
	    "points", 0, 100, 300, 500, 800,
	    "clearing", "after each placement every full row is removed at once and the rows above "
	    "move down; points by rows removed: 0, 1, 2, 3, 4; no levels, combos, back-to-back, hold "
	    "or drop points",
	    "end",
	    "top_out", "the next current piece, after the clears, has no legal placement",
	    "capped", "the run's optional cap of placed pieces is reached and the next piece still "
	    "has a placement (a move that both reaches the cap and tops out ends as top_out)",
	    "cap", "optional, set when the run starts: a number of placed pieces, or none",
	    "observation", "board", "current", "next",
	    "stream", "7-bags: bag b of seed s is I,O,T,S,Z,J,L shuffled by Python's random.Random("
	    "\"stackcraft-v1:{s}:{b}\") with a descending Fisher-Yates (p = 6..1, swap with "
	    "int(random() * (p + 1)))",
	    "replay",
	    "schema", STACKCRAFT_REPLAY_SCHEMA,
	    "rules", STACKCRAFT_RULES,
	    "keys", "schema", "rules", "seed", "cap", "actions", "final",
	    "final", "score", "lines", "pieces", "status", "end_reason");
}

json_t *
stackcraft_replay_export(const struct stackcraft *g, json_t *actions)
{
	json_t *o;

	if (actions == NULL)
		return NULL;
	o = json_object();
	json_object_set_new_nocheck(o, "schema", json_integer(STACKCRAFT_REPLAY_SCHEMA));
	json_object_set_new_nocheck(o, "rules", json_string_nocheck(STACKCRAFT_RULES));
	json_object_set_new_nocheck(o, "seed", json_integer((json_int_t)g->seed));
	json_object_set_new_nocheck(o, "cap", g->cap != 0 ? json_integer((json_int_t)g->cap) : json_null());
	json_object_set_new_nocheck(o, "actions", actions);
	json_object_set_new_nocheck(o, "final", stackcraft_final_json(g));
	return o;
}

#if defined(__GNUC__)
__attribute__((format(printf, 5, 6)))
#endif
static int
fail(struct stackcraft_replay_check *out, enum stackcraft_replay_fault fault, size_t step,
    const char *field, const char *fmt, ...)
{
	va_list ap;

	out->fault = fault;
	out->step = step;
	out->field = field;
	va_start(ap, fmt);
	vsnprintf(out->reason, sizeof out->reason, fmt, ap);
	va_end(ap);
	return -1;
}

/* An integer in 0..MAX53. */
static bool
count_ok(const json_t *v)
{
	return json_is_integer(v) && json_integer_value(v) >= 0 && json_integer_value(v) <= MAX53;
}

static int
check_final(const json_t *final, const struct stackcraft *g, struct stackcraft_replay_check *out)
{
	static const char *const keys[] = { "score", "lines", "pieces", "status", "end_reason" };
	const uint64_t counts[3] = { g->score, g->lines, g->pieces };
	const char *end = stackcraft_end_name(g->end_reason), *key;
	const json_t *v;
	json_t *val;
	size_t i;

	if (!json_is_object(final))
		return fail(out, STACKCRAFT_REPLAY_BAD_FORM, 0, NULL,
		    "final must be an object {score, lines, pieces, status, end_reason}");
	json_object_foreach((json_t *)final, key, val) {
		for (i = 0; i < 5 && strcmp(key, keys[i]) != 0; i++)
			;
		(void)val;
		if (i == 5)
			return fail(out, STACKCRAFT_REPLAY_BAD_FORM, 0, NULL,
			    "final has an unknown field (it holds score, lines, pieces, status and "
			    "end_reason)");
	}
	for (i = 0; i < 3; i++) {
		v = json_object_get(final, keys[i]);
		if (!count_ok(v))
			return fail(out, STACKCRAFT_REPLAY_BAD_FINAL, 0, keys[i],
			    "final.%s must be a non-negative integer", keys[i]);
		if ((uint64_t)json_integer_value(v) != counts[i])
			return fail(out, STACKCRAFT_REPLAY_BAD_FINAL, 0, keys[i],
			    "final.%s is %lld but the actions give %llu", keys[i],
			    (long long)json_integer_value(v), (unsigned long long)counts[i]);
	}
	v = json_object_get(final, "status");
	if (!json_is_string(v) || strcmp(json_string_value(v), stackcraft_status_name(g->status)) != 0)
		return fail(out, STACKCRAFT_REPLAY_BAD_FINAL, 0, "status",
		    "final.status does not match: the actions give \"%s\"",
		    stackcraft_status_name(g->status));
	v = json_object_get(final, "end_reason");
	if (end == NULL ? !json_is_null(v) :
	    !json_is_string(v) || strcmp(json_string_value(v), end) != 0) {
		if (end == NULL)
			return fail(out, STACKCRAFT_REPLAY_BAD_FINAL, 0, "end_reason",
			    "final.end_reason does not match: the actions give null");
		return fail(out, STACKCRAFT_REPLAY_BAD_FINAL, 0, "end_reason",
		    "final.end_reason does not match: the actions give \"%s\"", end);
	}
	return 0;
}

int
stackcraft_replay_import(const json_t *replay, struct stackcraft_replay_check *out)
{
	static const char *const keys[] = { "schema", "rules", "seed", "cap", "actions", "final" };
	const json_t *schema, *rules, *seed, *cap, *actions, *a;
	struct stackcraft_report rep;
	unsigned rotation, x;
	char why[ENGINE_REASON_MAX];
	const char *key;
	json_t *val;
	size_t i;

	memset(out, 0, sizeof *out);
	if (!json_is_object(replay))
		return fail(out, STACKCRAFT_REPLAY_BAD_FORM, 0, NULL, "a replay must be a JSON object");
	json_object_foreach((json_t *)replay, key, val) {
		for (i = 0; i < 6 && strcmp(key, keys[i]) != 0; i++)
			;
		(void)val;
		if (i == 6)
			return fail(out, STACKCRAFT_REPLAY_BAD_FORM, 0, NULL,
			    "a replay holds only schema, rules, seed, cap, actions and final");
	}
	schema = json_object_get(replay, "schema");
	if (!json_is_integer(schema))
		return fail(out, STACKCRAFT_REPLAY_BAD_FORM, 0, NULL, "schema must be an integer");
	if (json_integer_value(schema) != STACKCRAFT_REPLAY_SCHEMA)
		return fail(out, STACKCRAFT_REPLAY_BAD_SCHEMA, 0, NULL,
		    "incompatible replay schema %lld: this server reads schema %d",
		    (long long)json_integer_value(schema), STACKCRAFT_REPLAY_SCHEMA);
	rules = json_object_get(replay, "rules");
	if (!json_is_string(rules))
		return fail(out, STACKCRAFT_REPLAY_BAD_FORM, 0, NULL, "rules must be a string");
	if (strcmp(json_string_value(rules), STACKCRAFT_RULES) != 0 ||
	    json_string_length(rules) != strlen(STACKCRAFT_RULES))
		return fail(out, STACKCRAFT_REPLAY_BAD_RULES, 0, NULL,
		    "incompatible rules version: this server plays " STACKCRAFT_RULES " replays");
	seed = json_object_get(replay, "seed");
	if (!count_ok(seed))
		return fail(out, STACKCRAFT_REPLAY_BAD_FORM, 0, NULL,
		    "seed must be an integer from 0 to %lld", (long long)MAX53);
	cap = json_object_get(replay, "cap");
	if (cap == NULL || (!json_is_null(cap) && (!count_ok(cap) || json_integer_value(cap) == 0)))
		return fail(out, STACKCRAFT_REPLAY_BAD_FORM, 0, NULL,
		    "cap must be null or an integer from 1 to %lld", (long long)MAX53);
	actions = json_object_get(replay, "actions");
	if (!json_is_array(actions))
		return fail(out, STACKCRAFT_REPLAY_BAD_FORM, 0, NULL,
		    "actions must be an array of action ids");
	if (json_object_get(replay, "final") == NULL)
		return fail(out, STACKCRAFT_REPLAY_BAD_FORM, 0, NULL, "final is missing");

	stackcraft_init(&out->game, (uint64_t)json_integer_value(seed),
	    json_is_null(cap) ? 0 : (uint64_t)json_integer_value(cap));
	json_array_foreach(actions, i, a) {
		if (!stackcraft_action_from_json(a, &rotation, &x, why))
			return fail(out, STACKCRAFT_REPLAY_BAD_MOVE, i + 1, NULL,
			    "action %zu is invalid: %s", i + 1, why);
		if (stackcraft_step(&out->game, rotation, x, &rep) != STACKCRAFT_OK)
			return fail(out, STACKCRAFT_REPLAY_BAD_MOVE, i + 1, NULL,
			    "action %zu (%s) is invalid: %s", i + 1, json_string_value(a),
			    rep.message);
		out->nactions = i + 1;
	}
	if (check_final(json_object_get(replay, "final"), &out->game, out) != 0)
		return -1;
	out->fault = STACKCRAFT_REPLAY_OK;
	return 0;
}
