/*
 * duskcourt_json.c: Duskcourt's engine structs to and from JSON, and its
 * game descriptor (game.h). Field names and order follow
 * docs/rules/duskcourt.md; the same state always gives the same bytes,
 * which is what makes two runs with the same actions compare equal.
 */
#include "duskcourt_json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonbody.h"
#include "replay.h"
#include "numtext.h"
#include "quote.h"

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

/* The court as text, for a reader rather than a program: one line a row,
 * row 0 first, '.' an empty square and '#' a boulder, then the squares'
 * indices (what "from" and "to" name) beside it. Written a character at a
 * time: every answer carries it. */
#define DC_TEXT_MAX 256
static void
board_text(const struct duskcourt_state *s, char out[DC_TEXT_MAX])
{
	size_t n = 0;
	int r, c, size = s->size <= DUSKCOURT_SIZE_MAX ? s->size : DUSKCOURT_SIZE_MAX;

	for (r = 0; r < size; r++) {
		for (c = 0; c < size; c++) {
			uint8_t cell = s->board[r * size + c];

			if (c > 0)
				out[n++] = ' ';
			out[n++] = cell == DUSKCOURT_EMPTY ? '.' : cell == DUSKCOURT_BOULDER ? '#' :
			    duskcourt_cell_char(cell);
		}
		out[n++] = ' ';
		out[n++] = ' ';
		for (c = 0; c < size; c++) {
			int i = r * size + c;

			out[n++] = ' ';
			out[n++] = i >= 10 ? (char)('0' + i / 10) : ' ';
			out[n++] = (char)('0' + i % 10);
		}
		if (r + 1 < size)
			out[n++] = '\n';
	}
	out[n] = '\0';
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
		char q[QUOTE_SHORT];

		snprintf(reason, cap, "unknown action type '%s': capture, reset, next or endRun",
		    text_quote(q, sizeof q, type, 40));
		return false;
	}
	out->type = (int64_t)i;
	json_object_foreach((json_t *)v, key, val) {
		(void)val;
		if (strcmp(key, "type") == 0)
			continue;
		if (i == DUSKCOURT_ACT_CAPTURE && (strcmp(key, "from") == 0 || strcmp(key, "to") == 0))
			continue;
		char q[QUOTE_SHORT];

		snprintf(reason, cap, "a %s action has no field '%s'", names[i], text_quote(q, sizeof q, key, 40));
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
	    "game", game_duskcourt.name, "rules", ENGINE_RULES_DUSKCOURT,
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

/* ---- the game descriptor ---- */

/* One request's action, as read from the body. */
struct dc_scratch {
	bool                    valid;  /* the action matches the grammar */
	struct duskcourt_action action;
	char                    reason[ENGINE_REASON_MAX];
};

static size_t
dc_encode(const void *st, uint8_t *out, size_t cap)
{
	if (cap >= DUSKCOURT_SERIAL_SIZE)
		duskcourt_serialise(st, out);
	return DUSKCOURT_SERIAL_SIZE;
}

static bool
dc_decode(void *st, const uint8_t *in, size_t n)
{
	return duskcourt_deserialise(st, in, n, NULL, 0);
}

static bool
dc_init(void *st, uint64_t seed, const struct game_options *opts, const struct game_env *env,
    enum api_error *err, char *msg, size_t cap)
{
	char reason[ENGINE_REASON_MAX];

	(void)opts;
	if (env->work == NULL || !duskcourt_init(st, seed, env->work, reason, sizeof reason)) {
		*err = API_ERR_INTERNAL;
		snprintf(msg, cap, "the court could not be dealt");
		return false;
	}
	return true;
}

/* A missing action is a broken request (400); one that does not match the
 * grammar is an illegal action (422), decided when played. */
static bool
dc_read_action(const json_t *body, void *scratch, char *msg, size_t cap)
{
	struct dc_scratch *x = scratch;
	const json_t *a = json_object_get(body, "action");

	if (a == NULL) {
		snprintf(msg, cap, "missing field 'action'");
		return false;
	}
	x->valid = duskcourt_action_from_json(a, &x->action, x->reason, sizeof x->reason);
	return true;
}

/* The canonical JSON of a move as stored (keys sorted, no spaces). */
void
dc_move_text(const struct duskcourt_action *a, char *out, size_t cap)
{
	static const char *const types[] = { "capture", "reset", "next", "endRun" };

	if (a->type == DUSKCOURT_ACT_CAPTURE) {
		/* Put together in full, then cut to cap as snprintf would. */
		char text[80];
		size_t n = 8;

		if (cap == 0)
			return;
		memcpy(text, "{\"from\":", 8);
		n += numtext_i64(text + n, a->from);
		memcpy(text + n, ",\"to\":", 6);
		n += 6;
		n += numtext_i64(text + n, a->to);
		memcpy(text + n, ",\"type\":\"capture\"}", 18);
		n += 18;
		if (n > cap - 1)
			n = cap - 1;
		memcpy(out, text, n);
		out[n] = '\0';
	} else
		snprintf(out, cap, "{\"type\":\"%s\"}", types[a->type >= 0 && a->type <= 3 ? a->type : 3]);
}

static void
dc_play(void *st, void *scratch, const struct game_env *env, struct game_turn *t)
{
	struct dc_scratch *x = scratch;

	t->refusal = API_ERR_ILLEGAL_ACTION;
	if (!x->valid) {
		t->refused = true;
		snprintf(t->reason, sizeof t->reason, "%s", x->reason);
		return;
	}
	if (env->work == NULL) {
		t->refused = true;
		t->refusal = API_ERR_INTERNAL;
		snprintf(t->reason, sizeof t->reason, "out of memory");
		return;
	}
	/* A refused action leaves the state as it was (duskcourt.h). */
	if (!duskcourt_apply(st, &x->action, env->work, t->reason, sizeof t->reason)) {
		t->refused = true;
		return;
	}
	dc_move_text(&x->action, t->moves[0], sizeof t->moves[0]);
	t->nmoves = 1;
	snprintf(t->canon, sizeof t->canon, "%s", t->moves[0]);
}

/* The game's part of an answer: state, legalActions, boardText. */
static void
cells_write(struct jw *w, const uint8_t *cells, int size)
{
	int i;

	jw_array(w);
	for (i = 0; i < size * size; i++) {
		if (cells[i] == DUSKCOURT_EMPTY)
			jw_null(w);
		else
			jw_char(w, duskcourt_cell_char(cells[i]));
	}
	jw_array_end(w);
}

static void
state_write(struct jw *w, const struct duskcourt_state *s)
{
	int i;

	jw_object(w);
	jw_kstring(w, "phase", phases[s->phase < 3 ? s->phase : 0]);
	jw_kint(w, "rung", s->rung);
	jw_kint(w, "size", s->size);
	jw_key(w, "board");
	cells_write(w, s->board, s->size);
	jw_key(w, "dealt");
	cells_write(w, s->dealt, s->size);
	jw_key(w, "boulders");
	jw_array(w);
	for (i = 0; i < s->size * s->size; i++)
		if (s->board[i] == DUSKCOURT_BOULDER)
			jw_int(w, i);
	jw_array_end(w);
	jw_kbool(w, "kingSurvives", s->king_survives);
	jw_kbool(w, "resetUsed", s->reset_used);
	jw_kint(w, "captures", s->captures);
	jw_kint(w, "paidDepth", s->paid_depth);
	jw_kint(w, "lives", s->lives);
	jw_kint(w, "streak", s->streak);
	jw_kint(w, "score", (json_int_t)s->score);
	jw_key(w, "lastResult");
	if (s->last_result == DUSKCOURT_RESULT_CLEAR)
		jw_string(w, "clear");
	else if (s->last_result == DUSKCOURT_RESULT_STUCK)
		jw_string(w, "stuck");
	else
		jw_null(w);
	jw_key(w, "lastAward");
	if (!s->has_award)
		jw_null(w);
	else {
		jw_object(w);
		jw_kint(w, "capture", (json_int_t)s->last_award.capture);
		jw_kint(w, "clear", (json_int_t)s->last_award.clear);
		jw_kint(w, "streak", (json_int_t)s->last_award.streak);
		jw_kint(w, "clean", (json_int_t)s->last_award.clean);
		jw_kint(w, "total", (json_int_t)s->last_award.total);
		jw_object_end(w);
	}
	jw_kint(w, "seed", (json_int_t)s->seed);
	jw_kint(w, "courtsDealt", s->courts_dealt);
	jw_object_end(w);
}

static bool
dc_answer_write(struct jw *w, const void *st, const void *scratch)
{
	static const char *const types[] = { "capture", "reset", "next", "endRun" };
	struct duskcourt_action acts[DUSKCOURT_LEGAL_MAX];
	size_t n = duskcourt_legal(st, acts, DUSKCOURT_LEGAL_MAX), i;
	char text[DC_TEXT_MAX];

	(void)scratch;
	if (n > DUSKCOURT_LEGAL_MAX)
		n = DUSKCOURT_LEGAL_MAX;
	jw_key(w, "state");
	state_write(w, st);
	jw_key(w, "legalActions");
	jw_array(w);
	for (i = 0; i < n; i++) {
		int64_t t = acts[i].type >= 0 && acts[i].type <= 3 ? acts[i].type : 3;

		jw_object(w);
		jw_kstring(w, "type", types[t]);
		if (t == DUSKCOURT_ACT_CAPTURE) {
			jw_kint(w, "from", acts[i].from);
			jw_kint(w, "to", acts[i].to);
		}
		jw_object_end(w);
	}
	jw_array_end(w);
	board_text(st, text);
	jw_kstring(w, "boardText", text);
	return !w->failed;
}

static void
dc_summary(const void *st, struct game_summary *out)
{
	const struct duskcourt_state *s = st;

	out->status = phases[s->phase < 3 ? s->phase : 0];
	out->over = s->phase == DUSKCOURT_DONE;
	out->end_reason = NULL;
	out->score = (int64_t)s->score;
	out->lines = out->pieces = -1;
	out->rung = s->rung;
	out->lives = s->lives;
	/* Score, then rung. */
	out->rank[0] = (int64_t)s->score;
	out->rank[1] = s->rung;
	out->rank[2] = 0;
}

static json_t *
dc_final(const void *st)
{
	return duskcourt_final_json(st);
}

static json_t *
dc_claims(const void *st)
{
	const struct duskcourt_state *s = st;

	return json_pack("{s:I, s:i, s:i}", "score", (json_int_t)s->score, "rung", (int)s->rung,
	    "lives", (int)s->lives);
}

static bool
dc_replay_start(void *st, int64_t seed, const json_t *replay, struct replay_ctx *rc, char *reason,
    size_t cap)
{
	(void)replay;
	if (rc->env->work == NULL)
		return engine_refuse(reason, cap, "no dealer memory");
	return duskcourt_init(st, (uint64_t)seed, rc->env->work, reason, cap);
}

static bool
dc_replay_move(void *st, const json_t *move, struct replay_ctx *rc, char *reason, size_t cap)
{
	struct duskcourt_action act;
	char why[ENGINE_REASON_MAX];

	if (!duskcourt_action_from_json(move, &act, why, sizeof why))
		return engine_refuse(reason, cap, "not a Duskcourt action: %s", why);
	return duskcourt_apply(st, &act, rc->env->work, reason, cap);
}

static json_t *
dc_rules(void)
{
	return duskcourt_rules_json();
}

static const char *const dc_action_fields[] = { "action", NULL };
static const char *const dc_final_keys[] = { "score", "rung", "lives", "phase", NULL };
static const char *const dc_board_fields[] = { "rung", "lives", NULL };

/* ---- command line ---- */

/* arcaded deal SEED RUNG K: court K of the seed at that rung, with a way
 * through, as JSON (duskcourt_deal_json). */
static int
dc_cli_deal(int argc, char **argv, const struct game_env *env)
{
	int64_t seed, rung, k;
	const char *why;
	json_t *o;
	char *text;

	if (argc != 4) {
		fprintf(stderr, "usage: arcaded deal SEED RUNG K\n");
		return 2;
	}
	if (!jsonbody_parse_int(argv[1], 0, ENGINE_ID_MAX, &seed) ||
	    !jsonbody_parse_int(argv[2], 1, 1000000, &rung) ||
	    !jsonbody_parse_int(argv[3], 0, 1000000000, &k)) {
		fprintf(stderr, "arcaded deal: SEED 0-%lld, RUNG 1-1000000, K 0-1000000000\n",
		    (long long)ENGINE_ID_MAX);
		return 2;
	}
	o = duskcourt_deal_json((uint64_t)seed, (uint32_t)rung, (uint32_t)k, env->work, &why);
	text = o ? json_dumps(o, JSON_COMPACT) : NULL;
	json_decref(o);
	if (text == NULL) {
		fprintf(stderr, "arcaded deal: %s\n", o ? "out of memory" : why);
		return 1;
	}
	printf("%s\n", text);
	free(text);
	return 0;
}

static const struct game_subcommand dc_subcommands[] = {
	{ "deal", "SEED RUNG K", "print Duskcourt court K of a seed at a rung, with a solution",
	  dc_cli_deal },
	{ NULL, NULL, NULL, NULL },
};

/* What an agent's text names each turn (game.h): the figures of the
 * ladder, the boulders' squares and whether this court's jackal rule is
 * on. */
static const struct game_fact dc_facts[] = {
	{ "rung", "rung", NULL, NULL },
	{ "lives", "lives", NULL, NULL },
	{ "score", "score", NULL, NULL },
	{ "streak", "streak", NULL, NULL },
	{ "boulders", "boulders on squares", NULL, NULL },
	{ "resetUsed", NULL, "reset used", "reset unused" },
	{ "kingSurvives", NULL, "jackal rule: the single K can never be taken and must make the last "
	  "take", "no jackal rule" },
	{ "lastResult", "last court", NULL, NULL },
	{ NULL, NULL, NULL, NULL },
};

static const struct game_ext dc_ext = {
	.facts = dc_facts,
	.subcommands = dc_subcommands,
};

const struct game game_duskcourt = {
	.id = GAME_DUSKCOURT,
	.name = "duskcourt",
	.title = "Duskcourt",
	.how_to_end = "send {\"type\": \"endRun\"} at a break (phase \"break\") to end it now, or play until the lives run out",
	.how_to_play = "Duskcourt: a ladder of capture puzzles. Each court is a square board "
	    "(boardText draws it with the index of every square, index = row * size + column) "
	    "holding idols: K jackal (the eight touching squares), Q scorpion (lines and diagonals), "
	    "R cobra (lines), B vulture (diagonals), N camel (jumps of 2 and 1, over anything), P "
	    "beetle (the two squares diagonally one row down the drawing, row + 1; boardText's first "
	    "line is row 0); # is a boulder, which blocks and cannot "
	    "be taken. Every move is a capture, {\"type\": \"capture\", \"from\": i, \"to\": j}: "
	    "an idol takes another within its reach. Leave one idol alone to clear the court and "
	    "reach a break, where 'next' deals the next rung and 'endRun' stops with the score. A "
	    "court with no capture left costs a life (3 in all); 'reset' restores a court once. "
	    "legalActions lists every legal action of the moment; pick one of them."
	    " How each game names rows, columns and cells, with a drawing: docs/coordinates.md in "
	    "the arcaded source.",
	.rules = ENGINE_RULES_DUSKCOURT,
	.rules_version = 1,
	.check_default = false,
	.hides_future = false,
	.work_size = sizeof(struct duskcourt_solver),
	.scratch_size = sizeof(struct dc_scratch),
	.action_fields = dc_action_fields,
	.board_fields = dc_board_fields,
	.encode = dc_encode,
	.decode = dc_decode,
	.init = dc_init,
	.read_action = dc_read_action,
	.play = dc_play,
	.answer_write = dc_answer_write,
	.summary = dc_summary,
	.final = dc_final,
	.claims = dc_claims,
	.final_keys = dc_final_keys,
	.replay_start = dc_replay_start,
	.replay_move = dc_replay_move,
	.rules_json = dc_rules,
	.ext = &dc_ext,
};

json_t *
duskcourt_deal_json(uint64_t seed, uint32_t rung, uint32_t k, struct duskcourt_solver *sv,
    const char **why)
{
	struct duskcourt_capture path[DUSKCOURT_PATH_MAX];
	struct duskcourt_court court;
	json_t *boulders, *solution;
	size_t npath = 0, i;

	*why = "out of memory";
	if (sv == NULL)
		return NULL;
	if (!duskcourt_deal(&court, seed, k, rung, sv)) {
		*why = "the dealer found no court (a bug)";
		return NULL;
	}
	if (duskcourt_solve(sv, &court, 0, path, &npath) != DUSKCOURT_CLEARABLE) {
		*why = "the solver found no way through (a bug)";
		return NULL;
	}
	boulders = json_array();
	solution = json_array();
	for (i = 0; i < (size_t)court.size * court.size; i++)
		if (court.cells[i] == DUSKCOURT_BOULDER)
			json_array_append_new(boulders, json_integer((json_int_t)i));
	for (i = 0; i < npath; i++)
		json_array_append_new(solution, json_pack("{s:s, s:i, s:i}", "type", "capture",
		    "from", path[i].from, "to", path[i].to));
	return json_pack("{s:I, s:I, s:I, s:i, s:o, s:b, s:o, s:o}", "seed", (json_int_t)seed,
	    "rung", (json_int_t)rung, "k", (json_int_t)k, "size", court.size,
	    "board", duskcourt_cells_json(court.cells, court.size),
	    "kingSurvives", court.king_survives, "boulders", boulders, "solution", solution);
}
