/*
 * stackfall_json.c: Stackfall's engine calls on the command grammar
 * (tetromino_game.h), its JSON and its game descriptor (game.h). Field
 * names are those of docs/api.md and docs/rules/stackfall.md (snake_case,
 * as the seed's service answers them).
 */
#include "stackfall_json.h"

#include <stdio.h>
#include <string.h>

#include "command_json.h"
#include "game.h"
#include "replay.h"
#include "tetromino_game.h"

/* The structured actions Stackfall takes: all of the grammar. */
#define SF_ACTIONS (COMMAND_KIND(STACKFALL_CMD_PLACE) | COMMAND_KIND(STACKFALL_CMD_PREVIEW) | \
    COMMAND_KIND(STACKFALL_CMD_HOLD) | COMMAND_KIND(STACKFALL_CMD_RESIGN) | \
    COMMAND_KIND(STACKFALL_CMD_OPTIONS))

_Static_assert((int)STACKFALL_OK == (int)TETROMINO_OK && (int)STACKFALL_REFUSED == (int)TETROMINO_REFUSED &&
    (int)STACKFALL_GAME_OVER == (int)TETROMINO_GAME_OVER, "Stackfall's outcomes are the grammar's");

static const char *
sf_ended(const void *st)
{
	const struct stackfall *g = st;

	return g->status == STACKFALL_OVER ? stackfall_end_name(g->end_reason) : NULL;
}

static enum tetromino_outcome
sf_run(void *st, const struct stackfall_cmd *c, struct tetromino_result *r, void *ctx)
{
	struct stackfall *g = st;
	struct stackfall_report rep;
	enum stackfall_outcome o;

	(void)ctx;
	memset(&rep, 0, sizeof rep);
	switch (c->kind) {
	case STACKFALL_CMD_PLACE:
		o = stackfall_place(g, c->rotation, c->column, &rep);
		break;
	case STACKFALL_CMD_HOLD:
		o = stackfall_hold(g, &rep);
		break;
	case STACKFALL_CMD_RESIGN:
		o = stackfall_resign(g, &rep);
		break;
	case STACKFALL_CMD_OPTIONS:
		o = stackfall_options(g, r->options, STACKFALL_OPTIONS_MAX, &r->noptions, &rep);
		break;
	default:
		o = stackfall_preview(g, c->rotation, c->column, &r->preview, &rep);
		break;
	}
	snprintf(r->message, sizeof r->message, "%s", rep.message);
	return (enum tetromino_outcome)o;
}

/* The game's fields of an answer (stackfall_fields_json's, written). */
static void
sf_write_fields(struct jw *w, const void *st)
{
	const struct stackfall *g = st;
	char text[STACKFALL_TEXT_SIZE];
	const char *end = stackfall_end_name(g->end_reason);
	int i;

	stackfall_board_text(g, text);
	jw_kstring(w, "status", stackfall_status_name(g->status));
	jw_kstring_or_null(w, "end_reason", end);
	jw_kint(w, "score", g->score);
	jw_kint(w, "lines", g->lines);
	jw_kint(w, "level", g->level);
	jw_kint(w, "pieces", g->placed);
	jw_kchar(w, "current", tetromino_letter(g->current));
	jw_key(w, "next");
	jw_array(w);
	for (i = 0; i < STACKFALL_NEXT; i++)
		jw_char(w, tetromino_letter(g->next[i]));
	jw_array_end(w);
	jw_key(w, "hold");
	if (g->hold == STACKFALL_NO_PIECE)
		jw_null(w);
	else
		jw_char(w, tetromino_letter(g->hold));
	jw_kbool(w, "can_hold", g->can_hold);
	jw_kint(w, "combo", g->combo);
	jw_kbool(w, "back_to_back", g->back_to_back);
	jw_kstring(w, "board_text", text);
}

static const struct tetromino_rules sf_rules_grammar = {
	.actions = SF_ACTIONS,
	.example = "place 1 4",
	.ended = sf_ended,
	.run = sf_run,
	.write_fields = sf_write_fields,
};

void
stackfall_batch_run(struct stackfall *g, const struct stackfall_cmd *cmds, size_t n,
    struct tetromino_batch *out)
{
	tetromino_batch_run(&sf_rules_grammar, g, cmds, n, NULL, out);
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

void
stackfall_action_from_json(const json_t *v, struct stackfall_cmd *out)
{
	command_action_from_json(v, SF_ACTIONS, out);
}

json_t *
stackfall_final_json(const struct stackfall *g)
{
	return json_pack("{s:i, s:i, s:i, s:s}", "score", (int)g->score, "lines", (int)g->lines,
	    "pieces", (int)g->placed, "status", stackfall_status_name(g->status));
}

json_t *
stackfall_shapes_json(void)
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
	return pieces;
}

json_t *
stackfall_rules_json(void)
{
	json_t *pieces = stackfall_shapes_json();

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
sf_init(void *st, uint64_t seed, const struct game_options *opts, const struct game_env *env,
    enum api_error *err, char *msg, size_t cap)
{
	(void)opts;
	(void)env;
	if (!stackfall_init(st, seed)) {
		*err = API_ERR_INTERNAL;
		snprintf(msg, cap, "the game could not start");
		return false;
	}
	return true;
}

static void
sf_scratch_init(void *scratch)
{
	tetromino_scratch_init(scratch);
}

static bool
sf_read_action(const json_t *body, void *scratch, char *msg, size_t cap)
{
	return tetromino_read_action(&sf_rules_grammar, body, scratch, msg, cap);
}

static void
sf_play(void *st, void *scratch, const struct game_env *env, struct game_turn *t)
{
	struct stackfall *g = st, before = *g;

	(void)env;
	if (!tetromino_play(&sf_rules_grammar, g, scratch, NULL, t))
		*g = before;
}

static bool
sf_answer_write(struct jw *w, const void *st, const void *scratch)
{
	return tetromino_answer_write(&sf_rules_grammar, w, st, scratch);
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

	(void)after;
	return tetromino_move_marks(&sf_rules_grammar, &b->board, b->current, move);
}

static const char *const sf_action_fields[] = { "command", "action", NULL };
static const char *const sf_final_keys[] = { "score", "lines", "pieces", "status", NULL };
static const char *const sf_board_fields[] = { "lines", "pieces", NULL };

/* What an agent's text names each turn (game.h). */
static const struct game_fact sf_facts[] = {
	{ "current", "piece", NULL, NULL },
	{ "next", "next", NULL, NULL },
	{ "hold", "hold", NULL, NULL },
	{ "can_hold", NULL, NULL, "hold used for this piece" },
	{ "score", "score", NULL, NULL },
	{ "lines", "lines", NULL, NULL },
	{ "level", "level", NULL, NULL },
	{ "pieces", "pieces", NULL, NULL },
	{ "combo", "combo", NULL, NULL },
	{ "back_to_back", NULL, "back-to-back on", NULL },
	{ NULL, NULL, NULL, NULL },
};

static const struct game_ext sf_ext = {
	.facts = sf_facts,
	.scratch_init = sf_scratch_init,
	.abandon = sf_abandon,
	.move_marks = sf_marks,
};

const struct game game_stackfall = {
	.id = GAME_STACKFALL,
	.name = "stackfall",
	.title = "Stackfall",
	.how_to_end = "send the command resign (or {\"type\": \"resign\"}) to end it now, or play until the stack tops out",
	.how_to_play = "Stackfall: tetrominoes on a 10 x 20 board, one request per move. Each answer "
	    "shows the board (board_text, top row first), the current piece, the next three and the "
	    "held one. Send commands as text, several separated by ';' or new lines: 'place R C' (or "
	    "just 'R C') turns the current piece to rotation R (0-3) and drops it straight down with "
	    "its leftmost cell in column C (0-9); 'options' lists every distinct placement with the "
	    "lines, holes, height and bumpiness it leaves; 'preview R C' shows one without making it; "
	    "'hold' swaps the piece with the held one, once per piece; 'resign' ends the game. Full "
	    "rows clear and score 100/300/500/800 times the level, with bonuses for combos, "
	    "back-to-back Tetrises and perfect clears. The game ends when a piece fits nowhere or "
	    "after 150 pieces; then finish it with a rating (1-10) and a review."
	    " How each game names rows, columns and cells, with a drawing: docs/coordinates.md in "
	    "the arcaded source.",
	.rules = ENGINE_RULES_STACKFALL,
	.rules_version = 1,
	.check_default = true,
	.hides_future = true,
	.scratch_size = sizeof(struct tetromino_scratch),
	.action_fields = sf_action_fields,
	.board_fields = sf_board_fields,
	.encode = sf_encode,
	.decode = sf_decode,
	.init = sf_init,
	.read_action = sf_read_action,
	.play = sf_play,
	.answer_write = sf_answer_write,
	.summary = sf_summary,
	.final = sf_final,
	.claims = sf_claims,
	.final_keys = sf_final_keys,
	.replay_start = sf_replay_start,
	.replay_move = sf_replay_move,
	.rules_json = sf_rules,
	.ext = &sf_ext,
};
