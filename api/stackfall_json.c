/*
 * stackfall_json.c: Stackfall's batch runner, its JSON and its game
 * descriptor (game.h). Field names are those of docs/api.md and
 * docs/rules/stackfall.md (snake_case, as the seed's service answers them).
 */
#include "stackfall_json.h"

#include <stdio.h>
#include <string.h>

#include "game.h"
#include "replay.h"
#include "tetromino_json.h"

void
stackfall_batch_run(struct stackfall *g, const struct stackfall_cmd *cmds, size_t n,
    struct stackfall_batch *out)
{
	struct stackfall_report rep;
	size_t i;

	out->nrun = out->nmoves = 0;
	out->failed = false;
	for (i = 0; i < n && i < STACKFALL_CMD_MAX; i++) {
		struct stackfall_result *r = &out->results[out->nrun++];
		enum stackfall_outcome o;
		bool move = false;

		r->cmd = cmds[i];
		r->noptions = 0;
		memset(&rep, 0, sizeof rep);
		switch (cmds[i].kind) {
		case STACKFALL_CMD_PLACE:
			o = stackfall_place(g, cmds[i].rotation, cmds[i].column, &rep);
			move = true;
			break;
		case STACKFALL_CMD_HOLD:
			o = stackfall_hold(g, &rep);
			move = true;
			break;
		case STACKFALL_CMD_RESIGN:
			o = stackfall_resign(g, &rep);
			move = true;
			break;
		case STACKFALL_CMD_OPTIONS:
			o = stackfall_options(g, r->options, STACKFALL_OPTIONS_MAX, &r->noptions, &rep);
			break;
		case STACKFALL_CMD_PREVIEW:
			o = stackfall_preview(g, cmds[i].rotation, cmds[i].column, &r->preview, &rep);
			break;
		default:
			/* Unreadable: refused like any other failing command, unless
			 * the game is over, which every command hears first. */
			if (g->status == STACKFALL_OVER) {
				o = STACKFALL_GAME_OVER;
				snprintf(rep.message, sizeof rep.message, "the game is over (%s)",
				    stackfall_end_name(g->end_reason));
			} else {
				o = STACKFALL_REFUSED;
				snprintf(rep.message, sizeof rep.message, "%s", cmds[i].reason);
			}
			break;
		}
		r->outcome = o;
		snprintf(r->message, sizeof r->message, "%s", rep.message);
		if (o != STACKFALL_OK) {
			out->failed = true;
			break;
		}
		if (move)
			out->moves[out->nmoves++] = out->nrun - 1;
	}
}

static json_t *
letter(unsigned piece)
{
	char c = tetromino_letter(piece);

	return json_stringn_nocheck(&c, 1);
}

json_t *
stackfall_fields_json(const struct stackfall *g)
{
	char text[STACKFALL_TEXT_SIZE];
	const char *end = stackfall_end_name(g->end_reason);
	json_t *next = json_array(), *o;
	int i;

	for (i = 0; i < STACKFALL_NEXT; i++)
		json_array_append_new(next, letter(g->next[i]));
	stackfall_board_text(g, text);
	o = json_object();
	json_object_set_new_nocheck(o, "status", json_string(stackfall_status_name(g->status)));
	json_object_set_new_nocheck(o, "end_reason", end ? json_string(end) : json_null());
	json_object_set_new_nocheck(o, "score", json_integer(g->score));
	json_object_set_new_nocheck(o, "lines", json_integer(g->lines));
	json_object_set_new_nocheck(o, "level", json_integer(g->level));
	json_object_set_new_nocheck(o, "pieces", json_integer(g->placed));
	json_object_set_new_nocheck(o, "current", letter(g->current));
	json_object_set_new_nocheck(o, "next", next);
	json_object_set_new_nocheck(o, "hold", g->hold == STACKFALL_NO_PIECE ? json_null() : letter(g->hold));
	json_object_set_new_nocheck(o, "can_hold", json_boolean(g->can_hold));
	json_object_set_new_nocheck(o, "combo", json_integer(g->combo));
	json_object_set_new_nocheck(o, "back_to_back", json_boolean(g->back_to_back));
	json_object_set_new_nocheck(o, "board_text", json_string(text));
	return o;
}

static json_t *
figures_json(json_t *o, const struct tetromino_figures *f)
{
	json_object_set_new_nocheck(o, "lines", json_integer(f->lines));
	json_object_set_new_nocheck(o, "holes", json_integer(f->holes));
	json_object_set_new_nocheck(o, "max_height", json_integer(f->max_height));
	json_object_set_new_nocheck(o, "bumpiness", json_integer(f->bumpiness));
	return o;
}

/* The command as sent, trimmed; for a structured action its canonical text. */
static json_t *
command_text(const struct stackfall_cmd *c, const char *text)
{
	char buf[64];

	if (text != NULL)
		return json_stringn(text + c->start, c->len);
	switch (c->kind) {
	case STACKFALL_CMD_PLACE:
		snprintf(buf, sizeof buf, "place %u %u", (unsigned)c->rotation, (unsigned)c->column);
		break;
	case STACKFALL_CMD_PREVIEW:
		snprintf(buf, sizeof buf, "preview %u %u", (unsigned)c->rotation, (unsigned)c->column);
		break;
	case STACKFALL_CMD_INVALID:
		snprintf(buf, sizeof buf, "(invalid action)");
		break;
	default:
		snprintf(buf, sizeof buf, "%s", stackfall_cmd_name(c->kind));
		break;
	}
	return json_string(buf);
}

json_t *
stackfall_results_json(const struct stackfall_batch *b, const char *text)
{
	json_t *a = json_array();
	size_t i, k;

	for (i = 0; i < b->nrun; i++) {
		const struct stackfall_result *r = &b->results[i];
		json_t *o = json_object(), *opts;

		json_object_set_new_nocheck(o, "command", command_text(&r->cmd, text));
		json_object_set_new_nocheck(o, "ok", json_boolean(r->outcome == STACKFALL_OK));
		json_object_set_new_nocheck(o, "message", json_string(r->message));
		if (r->outcome == STACKFALL_OK && r->cmd.kind == STACKFALL_CMD_OPTIONS) {
			opts = json_array();
			for (k = 0; k < r->noptions; k++) {
				const struct tetromino_option *op = &r->options[k];
				char cmd[32];
				json_t *e = json_object();

				snprintf(cmd, sizeof cmd, "place %u %u", op->rotation, op->column);
				json_object_set_new_nocheck(e, "rotation", json_integer(op->rotation));
				json_object_set_new_nocheck(e, "column", json_integer(op->column));
				json_object_set_new_nocheck(e, "command", json_string(cmd));
				json_array_append_new(opts, figures_json(e, &op->figures));
			}
			json_object_set_new_nocheck(o, "options", opts);
		}
		if (r->outcome == STACKFALL_OK && r->cmd.kind == STACKFALL_CMD_PREVIEW) {
			json_t *p = json_object();

			json_object_set_new_nocheck(p, "board_text", json_string(r->preview.board_text));
			json_object_set_new_nocheck(o, "preview", figures_json(p, &r->preview.figures));
		}
		json_array_append_new(a, o);
	}
	return a;
}

static void
invalid(struct stackfall_cmd *out, const char *why)
{
	out->kind = STACKFALL_CMD_INVALID;
	snprintf(out->reason, sizeof out->reason, "%s", why);
}

/* An unsigned field of a structured action. */
static bool
number(const json_t *v, const char *name, uint32_t *out, struct stackfall_cmd *cmd)
{
	const json_t *x = json_object_get(v, name);
	char why[ENGINE_REASON_MAX];

	if (x == NULL || !json_is_integer(x) || json_integer_value(x) < 0 ||
	    json_integer_value(x) > UINT32_MAX) {
		snprintf(why, sizeof why, "'%s' must be an unsigned integer", name);
		invalid(cmd, why);
		return false;
	}
	*out = (uint32_t)json_integer_value(x);
	return true;
}

void
stackfall_action_from_json(const json_t *v, struct stackfall_cmd *out)
{
	static const struct { const char *name; enum stackfall_cmd_kind kind; bool coords; } types[] = {
		{ "place", STACKFALL_CMD_PLACE, true }, { "preview", STACKFALL_CMD_PREVIEW, true },
		{ "hold", STACKFALL_CMD_HOLD, false }, { "resign", STACKFALL_CMD_RESIGN, false },
		{ "options", STACKFALL_CMD_OPTIONS, false },
	};
	const json_t *t;
	const char *key;
	json_t *val;
	size_t i;
	char why[ENGINE_REASON_MAX];

	memset(out, 0, sizeof *out);
	if (!json_is_object(v)) {
		invalid(out, "the action must be an object such as {\"type\": \"place\", \"rotation\": 1, "
		    "\"column\": 4}");
		return;
	}
	t = json_object_get(v, "type");
	for (i = 0; json_is_string(t) && i < sizeof types / sizeof types[0]; i++)
		if (strcmp(json_string_value(t), types[i].name) == 0)
			break;
	if (!json_is_string(t) || i == sizeof types / sizeof types[0]) {
		invalid(out, "the action's 'type' must be place, preview, hold, resign or options");
		return;
	}
	json_object_foreach((json_t *)v, key, val) {
		(void)val;
		if (strcmp(key, "type") == 0 || (types[i].coords && (strcmp(key, "rotation") == 0 ||
		    strcmp(key, "column") == 0)))
			continue;
		snprintf(why, sizeof why, "a %s action has no field '%.40s'", types[i].name, key);
		invalid(out, why);
		return;
	}
	out->kind = (uint8_t)types[i].kind;
	if (types[i].coords && (!number(v, "rotation", &out->rotation, out) ||
	    !number(v, "column", &out->column, out)))
		return;
}

json_t *
stackfall_final_json(const struct stackfall *g)
{
	return json_pack("{s:i, s:i, s:i, s:s}", "score", (int)g->score, "lines", (int)g->lines,
	    "pieces", (int)g->placed, "status", stackfall_status_name(g->status));
}

json_t *
stackfall_rules_json(void)
{
	static const char *const diagrams[TETROMINO_NPIECES] = { "I", "O", "T", "S", "Z", "J", "L" };
	json_t *pieces = json_object();
	unsigned p, r;

	for (p = 0; p < TETROMINO_NPIECES; p++) {
		json_t *rots = json_array();

		for (r = 0; r < TETROMINO_NROTATIONS; r++) {
			const struct tetromino_shape *s = tetromino_shape(p, r);
			json_t *rows = json_array();
			int y;

			for (y = s->height - 1; y >= 0; y--) {
				char line[5] = { 0 };
				int x;

				for (x = 0; x < s->width; x++)
					line[x] = (s->rows[y] >> x) & 1 ? '#' : '.';
				json_array_append_new(rows, json_string(line));
			}
			json_array_append_new(rots, json_pack("{s:i, s:o, s:[i,i]}", "rotation", (int)r,
			    "shape", rows, "columns", 0, (int)(TETROMINO_COLS - s->width)));
		}
		json_object_set_new_nocheck(pieces, diagrams[p], rots);
	}
	return json_pack("{s:s, s:s, s:{s:i, s:i}, s:o, s:[{s:s, s:s, s:s}, {s:s, s:s, s:s}, "
	    "{s:s, s:s, s:s}, {s:s, s:s, s:s}, {s:s, s:s, s:s}], s:o, s:o, s:s, s:i, s:i}",
	    "game", game_stackfall.name, "rules", ENGINE_RULES_STACKFALL,
	    "board", "columns", TETROMINO_COLS, "rows", TETROMINO_ROWS,
	    "pieces", pieces,
	    "commands",
	    "command", "place <rotation 0-3> <column 0-9>", "short", "<rotation> <column>",
	    "does", "hard-drop the current piece at that rotation with its leftmost cell in that column",
	    "command", "options", "short", "", "does",
	    "every distinct valid placement with lines, holes, max_height and bumpiness",
	    "command", "preview <rotation> <column>", "short", "",
	    "does", "the board after that placement, without making it",
	    "command", "hold", "short", "", "does",
	    "swap the current piece with the held one (or the next piece); once per piece",
	    "command", "resign", "short", "", "does", "end the game now, keeping the score",
	    "scoring", json_pack("{s:[i,i,i,i,i], s:s, s:s, s:s, s:s}",
	    "base", 0, 100, 300, 500, 800,
	    "level", "L = 1 + floor(lines / 10) before the clear; every award is multiplied by L",
	    "back_to_back", "a Tetris after a Tetris (placements clearing nothing keep the chain) "
	    "scores 1200 instead of 800",
	    "combo", "each consecutive clearing placement after the first adds 50 x combo",
	    "perfect_clear", "an empty board after a clear adds 800 / 1200 / 1800 / 2000, or 3200 "
	    "for a back-to-back Tetris"),
	    "actions", json_pack("[{s:s, s:s, s:s}, {s:s, s:s, s:s}, {s:s}, {s:s}, {s:s}]",
	    "type", "place", "rotation", "integer 0-3", "column", "integer 0-9",
	    "type", "preview", "rotation", "integer 0-3", "column", "integer 0-9",
	    "type", "hold", "type", "resign", "type", "options"),
	    "separators", "several commands per request, separated by new lines or ';'",
	    "max_commands", STACKFALL_CMD_MAX, "piece_limit", STACKFALL_PIECE_LIMIT);
}

/* ---- the game descriptor ---- */

/* One request's commands and what they did. */
struct sf_scratch {
	const char              *text;   /* the command text (borrowed from the body), or NULL */
	enum stackfall_cmd_parse parse;
	struct stackfall_cmd     cmds[STACKFALL_CMD_MAX];
	size_t                   ncmds;
	bool                     ran;    /* batch holds the results to show */
	struct stackfall_batch   batch;
};

static size_t
sf_encode(const void *st, uint8_t *out, size_t cap)
{
	return stackfall_encode(st, out, cap);
}

static bool
sf_decode(void *st, const uint8_t *in, size_t n)
{
	return stackfall_decode(st, in, n);
}

static bool
sf_init(void *st, uint64_t seed, const struct game_request *rq, const struct game_env *env,
    enum api_error *err, char *msg, size_t cap)
{
	(void)rq;
	(void)env;
	if (!stackfall_init(st, seed)) {
		*err = API_ERR_INTERNAL;
		snprintf(msg, cap, "the game could not start");
		return false;
	}
	return true;
}

/* {"command": text} or {"action": {...}}, one of them. */
static bool
sf_read_action(const json_t *body, void *scratch, char *msg, size_t cap)
{
	struct sf_scratch *x = scratch;
	const json_t *c = json_object_get(body, "command");
	const json_t *a = json_object_get(body, "action");

	if (c != NULL && a != NULL) {
		snprintf(msg, cap, "send either 'command' (text) or 'action' (an object), not both");
		return false;
	}
	if (c == NULL && a == NULL) {
		snprintf(msg, cap, "missing field 'command' (for example \"place 1 4\") or 'action'");
		return false;
	}
	if (c != NULL && !json_is_string(c)) {
		snprintf(msg, cap, "field 'command' must be a string");
		return false;
	}
	if (c != NULL) {
		x->text = json_string_value(c);
		x->parse = stackfall_cmd_parse(x->text, json_string_length(c), x->cmds, STACKFALL_CMD_MAX,
		    &x->ncmds);
	} else {
		x->text = NULL;
		x->parse = STACKFALL_PARSE_OK;
		stackfall_action_from_json(a, &x->cmds[0]);
		x->ncmds = 1;
	}
	return true;
}

/* The canonical JSON of a move as stored (keys sorted, no spaces). */
static void
sf_move_text(const struct stackfall_cmd *c, char *out, size_t cap)
{
	if (c->kind == STACKFALL_CMD_PLACE)
		snprintf(out, cap, "{\"column\":%u,\"rotation\":%u,\"type\":\"place\"}",
		    (unsigned)c->column, (unsigned)c->rotation);
	else
		snprintf(out, cap, "{\"type\":\"%s\"}", stackfall_cmd_name(c->kind));
}

static void
sf_play(void *st, void *scratch, const struct game_env *env, struct game_turn *t)
{
	struct sf_scratch *x = scratch;
	struct stackfall *g = st, before = *g;
	size_t i;

	(void)env;
	x->ran = false;
	if (x->parse != STACKFALL_PARSE_OK) {
		t->refused = true;
		t->refusal = x->parse == STACKFALL_PARSE_EMPTY ? API_ERR_EMPTY_COMMAND : API_ERR_TOO_MANY_COMMANDS;
		if (x->parse == STACKFALL_PARSE_EMPTY)
			snprintf(t->reason, sizeof t->reason,
			    "the request holds no command: try \"options\" or \"place 1 4\"");
		else
			snprintf(t->reason, sizeof t->reason,
			    "more than %d commands in one request: nothing was run", STACKFALL_CMD_MAX);
		return;
	}
	stackfall_batch_run(g, x->cmds, x->ncmds, &x->batch);
	x->ran = true;
	if (x->batch.failed && x->batch.nrun == 1) {
		const struct stackfall_result *r = &x->batch.results[0];

		*g = before;
		t->refused = true;
		t->refusal = r->outcome == STACKFALL_GAME_OVER ? API_ERR_GAME_OVER : API_ERR_INVALID_COMMAND;
		snprintf(t->reason, sizeof t->reason, "%s", r->message);
		return;
	}
	for (i = 0; i < x->batch.nmoves; i++)
		sf_move_text(&x->batch.results[x->batch.moves[i]].cmd, t->moves[i], sizeof t->moves[i]);
	t->nmoves = x->batch.nmoves;
	stackfall_cmd_canonical(x->cmds, x->ncmds, x->text ? x->text : "", t->canon, sizeof t->canon);
}

static bool
sf_answer(json_t *o, const void *st, const void *scratch)
{
	const struct sf_scratch *x = scratch;
	json_t *fields = stackfall_fields_json(st);

	if (fields == NULL || json_object_update(o, fields) != 0) {
		json_decref(fields);
		return false;
	}
	json_decref(fields);
	return json_object_set_new_nocheck(o, "results", x != NULL && x->ran ?
	    stackfall_results_json(&x->batch, x->text) : json_array()) == 0;
}

static void
sf_summary(const void *st, struct game_summary *out)
{
	const struct stackfall *g = st;

	out->status = stackfall_status_name(g->status);
	out->over = g->status == STACKFALL_OVER;
	out->end_reason = stackfall_end_name(g->end_reason);
	out->score = g->score;
	out->lines = g->lines;
	out->pieces = g->placed;
	out->rung = out->lives = -1;
	/* Score, then lines, then fewer pieces. */
	out->rank[0] = g->score;
	out->rank[1] = g->lines;
	out->rank[2] = -(int64_t)g->placed;
}

static json_t *
sf_final(const void *st)
{
	return stackfall_final_json(st);
}

static json_t *
sf_claims(const void *st)
{
	const struct stackfall *g = st;
	const char *end = stackfall_end_name(g->end_reason);

	return json_pack("{s:i, s:i, s:i, s:s}", "score", (int)g->score, "lines", (int)g->lines,
	    "pieces", (int)g->placed, "end_reason", end ? end : "");
}

static bool
sf_replay_start(void *st, int64_t seed, const json_t *replay, struct replay_ctx *rc, char *reason,
    size_t cap)
{
	(void)replay;
	(void)rc;
	if (!stackfall_init(st, (uint64_t)seed))
		return engine_refuse(reason, cap, "seed %lld is out of range", (long long)seed);
	return true;
}

/* A stored move: place, hold, resign, or the abandon the seed's routes
 * record when an account starts a new game. */
static bool
sf_replay_move(void *st, const json_t *move, struct replay_ctx *rc, char *reason, size_t cap)
{
	const char *type = json_is_object(move) ? json_string_value(json_object_get(move, "type")) : NULL;
	struct stackfall_report rep;
	struct stackfall_cmd c;
	enum stackfall_outcome o;

	(void)rc;
	memset(&rep, 0, sizeof rep);
	if (type != NULL && strcmp(type, "abandon") == 0 && json_object_size(move) == 1)
		o = stackfall_abandon(st, &rep);
	else {
		stackfall_action_from_json(move, &c);
		if (c.kind == STACKFALL_CMD_INVALID)
			return engine_refuse(reason, cap, "not a Stackfall move: %s", c.reason);
		if (c.kind == STACKFALL_CMD_OPTIONS || c.kind == STACKFALL_CMD_PREVIEW)
			return engine_refuse(reason, cap, "%s changes nothing and is never a move", type);
		if (c.kind == STACKFALL_CMD_PLACE)
			o = stackfall_place(st, c.rotation, c.column, &rep);
		else if (c.kind == STACKFALL_CMD_HOLD)
			o = stackfall_hold(st, &rep);
		else
			o = stackfall_resign(st, &rep);
	}
	if (o != STACKFALL_OK)
		return engine_refuse(reason, cap, "%s", rep.message);
	return true;
}

static bool
sf_abandon(void *st, struct game_turn *t)
{
	if (stackfall_abandon(st, NULL) != STACKFALL_OK)
		return false;
	snprintf(t->moves[0], sizeof t->moves[0], "{\"type\":\"abandon\"}");
	t->nmoves = 1;
	return true;
}

static json_t *
sf_rules(void)
{
	return stackfall_rules_json();
}

/* A placement's cells and cleared rows; a hold, a resign or an abandon
 * marks nothing. */
static json_t *
sf_marks(const void *before, const void *after, const json_t *move)
{
	const struct stackfall *b = before;
	struct stackfall_cmd c;

	(void)after;
	stackfall_action_from_json(move, &c);
	if (c.kind != STACKFALL_CMD_PLACE)
		return NULL;
	return tetromino_json_marks(&b->board, b->current, c.rotation, c.column);
}

static const char *const sf_action_fields[] = { "command", "action", NULL };
static const char *const sf_final_keys[] = { "score", "lines", "pieces", "status", NULL };
static const char *const sf_board_fields[] = { "lines", "pieces", NULL };

const struct game game_stackfall = {
	.id = GAME_STACKFALL,
	.name = "stackfall",
	.rules = ENGINE_RULES_STACKFALL,
	.check_default = true,
	.hides_future = true,
	.scratch_size = sizeof(struct sf_scratch),
	.action_fields = sf_action_fields,
	.board_fields = sf_board_fields,
	.encode = sf_encode,
	.decode = sf_decode,
	.init = sf_init,
	.read_action = sf_read_action,
	.play = sf_play,
	.answer = sf_answer,
	.summary = sf_summary,
	.final = sf_final,
	.claims = sf_claims,
	.abandon = sf_abandon,
	.final_keys = sf_final_keys,
	.replay_start = sf_replay_start,
	.replay_move = sf_replay_move,
	.rules_json = sf_rules,
	.move_marks = sf_marks,
};
