/*
 * stackcraft_json.c: Stackcraft's state, legal actions, rules and replays as
 * JSON. Objects are built key by key with the _nocheck setters (every key
 * here is a literal, so jansson's UTF-8 check would only cost time): the
 * state and the legal list go out with every answer and are the largest
 * CPU item of a request. Replays are built and walked by replay.c, the
 * same code for every game: this file supplies the cap, how a replay
 * starts and how one id is played (the descriptor, at the end);
 * stackcraft_import.c sorts that walk's faults by kind.
 */
#include "stackcraft_json.h"
#include "tetromino_json.h"

#include <stdio.h>
#include <string.h>

#include "jsonbody.h"
#include "replay.h"

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

/* {"cap": null | integer}: what a replay carries besides seed and actions. */
static json_t *
sc_replay_options(const void *st)
{
	const struct stackcraft *g = st;
	json_t *o = json_object();

	json_object_set_new_nocheck(o, "cap", g->cap != 0 ? json_integer((json_int_t)g->cap) : json_null());
	return o;
}

json_t *
stackcraft_replay_export(const struct stackcraft *g, json_t *actions)
{
	if (actions == NULL)
		return NULL;
	return replay_new(&game_stackcraft, (int64_t)g->seed, actions, stackcraft_final_json(g),
	    sc_replay_options(g));
}

/* ---- the game descriptor ---- */

_Static_assert(sizeof(struct stackcraft) <= GAME_STRUCT_MAX, "a run fits a game_state");
_Static_assert(STACKCRAFT_SERIAL_MAX <= GAME_STATE_MAX, "a run's bytes fit a token");
_Static_assert(STACKCRAFT_SEED_MAX == (uint64_t)ENGINE_ID_MAX, "the server's seeds are the engine's");

/* One request's action, as read from the body. */
struct sc_scratch {
	bool     valid;      /* the action is an id of the grammar */
	unsigned rotation, x;
	char     reason[ENGINE_REASON_MAX];
};

static size_t
sc_encode(const void *st, uint8_t *out, size_t cap)
{
	return stackcraft_encode(st, out, cap);
}

static bool
sc_decode(void *st, const uint8_t *in, size_t n)
{
	return stackcraft_decode(st, in, n);
}

static bool
sc_init(void *st, uint64_t seed, const struct game_options *opts, const struct game_env *env,
    enum api_error *err, char *msg, size_t cap)
{
	(void)env;
	if (!stackcraft_init(st, seed, (uint64_t)opts->v[0])) {
		*err = API_ERR_INTERNAL;
		snprintf(msg, cap, "the game could not start");
		return false;
	}
	return true;
}

/* A missing action is a broken request (400); one that is not an id of
 * the grammar is an illegal action (422), decided when played. */
static bool
sc_read_action(const json_t *body, void *scratch, char *msg, size_t cap)
{
	struct sc_scratch *x = scratch;
	const json_t *a = json_object_get(body, "action");

	if (a == NULL) {
		snprintf(msg, cap, "missing field 'action' (an id such as \"r1x4\")");
		return false;
	}
	x->valid = stackcraft_action_from_json(a, &x->rotation, &x->x, x->reason);
	return true;
}

static void
sc_play(void *st, void *scratch, const struct game_env *env, struct game_turn *t)
{
	struct sc_scratch *x = scratch;
	struct stackcraft_report rep;
	char id[STACKCRAFT_ID_SIZE];

	(void)env;
	t->refusal = API_ERR_ILLEGAL_ACTION;
	if (!x->valid) {
		t->refused = true;
		snprintf(t->reason, sizeof t->reason, "%s", x->reason);
		return;
	}
	/* A refused step leaves the run as it was (stackcraft.h). */
	if (stackcraft_step(st, x->rotation, x->x, &rep) != STACKCRAFT_OK) {
		t->refused = true;
		snprintf(t->reason, sizeof t->reason, "%s", rep.message);
		return;
	}
	/* The id is its own canonical form: the grammar has one spelling. */
	stackcraft_action_id(x->rotation, x->x, id);
	snprintf(t->moves[0], sizeof t->moves[0], "\"%s\"", id);
	t->nmoves = 1;
	snprintf(t->canon, sizeof t->canon, "%s", t->moves[0]);
}

/* The game's part of an answer: the state, the legal list, the well as
 * text (20 rows of 10, top first, '.' empty, a piece's letter where it
 * lies). */
static bool
sc_answer_write(struct jw *w, const void *st, const void *scratch)
{
	const struct stackcraft *g = st;
	struct stackcraft_action acts[STACKCRAFT_LEGAL_MAX];
	uint8_t cells[STACKCRAFT_ROWS][STACKCRAFT_COLS];
	char text[TETROMINO_TEXT_SIZE];
	const char *end = stackcraft_end_name(g->end_reason);
	size_t n, i, k;
	unsigned x, y;

	(void)scratch;
	stackcraft_board(g, cells);
	jw_key(w, "state");
	jw_object(w);
	jw_key(w, "board");
	jw_array(w);
	for (y = 0; y < STACKCRAFT_ROWS; y++) {
		jw_array(w);
		for (x = 0; x < STACKCRAFT_COLS; x++)
			jw_int(w, cells[y][x]);
		jw_array_end(w);
	}
	jw_array_end(w);
	jw_kchar(w, "current", tetromino_letter(g->current));
	jw_kchar(w, "next", tetromino_letter(g->next));
	jw_kint(w, "score", (json_int_t)g->score);
	jw_kint(w, "lines", (json_int_t)g->lines);
	jw_kint(w, "pieces", (json_int_t)g->pieces);
	jw_kstring(w, "status", stackcraft_status_name(g->status));
	jw_kstring_or_null(w, "end_reason", end);
	jw_kint_if(w, "cap", g->cap != 0, (json_int_t)g->cap);
	jw_object_end(w);

	n = stackcraft_legal(g, acts, STACKCRAFT_LEGAL_MAX);
	jw_key(w, "legalActions");
	jw_array(w);
	for (i = 0; i < n; i++) {
		jw_object(w);
		jw_kstringn(w, "id", acts[i].id, 4);
		jw_kint(w, "rotation", acts[i].rotation);
		jw_kint(w, "x", acts[i].x);
		jw_kint(w, "y", acts[i].y);
		jw_key(w, "cells");
		jw_array(w);
		for (k = 0; k < 4; k++) {
			jw_array(w);
			jw_int(w, acts[i].cells[k][0]);
			jw_int(w, acts[i].cells[k][1]);
			jw_array_end(w);
		}
		jw_array_end(w);
		jw_object_end(w);
	}
	jw_array_end(w);
	tetromino_board_text(&g->board, text);
	jw_kstring(w, "boardText", text);
	return !w->failed;
}

static void
sc_summary(const void *st, struct game_summary *out)
{
	const struct stackcraft *g = st;

	out->status = stackcraft_status_name(g->status);
	out->over = g->status == STACKCRAFT_OVER;
	out->end_reason = stackcraft_end_name(g->end_reason);
	out->score = (int64_t)g->score;
	out->lines = (int64_t)g->lines;
	out->pieces = (int64_t)g->pieces;
	out->rung = out->lives = -1;
	/* Lines (the research outcome), then score, then fewer pieces. */
	out->rank[0] = (int64_t)g->lines;
	out->rank[1] = (int64_t)g->score;
	out->rank[2] = -(int64_t)g->pieces;
}

static json_t *
sc_final(const void *st)
{
	return stackcraft_final_json(st);
}

/* The final summary's figures and the cap: a capped run must say so. */
static json_t *
sc_claims(const void *st)
{
	const struct stackcraft *g = st;
	json_t *o = stackcraft_final_json(g);

	json_object_del(o, "status");
	json_object_set_new_nocheck(o, "cap", g->cap != 0 ? json_integer((json_int_t)g->cap) : json_null());
	return o;
}

static bool
sc_replay_start(void *st, int64_t seed, const json_t *replay, struct replay_ctx *rc, char *reason,
    size_t cap)
{
	const json_t *c = json_object_get(replay, "cap");
	const json_t *rules = json_object_get(replay, "rules");

	(void)rc;
	/* game_by_rules compares C strings: a NUL inside is another version. */
	if (json_string_length(rules) != strlen(STACKCRAFT_RULES))
		return engine_refuse(reason, cap, "incompatible rules version: this server plays "
		    STACKCRAFT_RULES " replays");
	if (!json_is_null(c) && (!json_is_integer(c) || json_integer_value(c) < 1 ||
	    (uint64_t)json_integer_value(c) > STACKCRAFT_CAP_MAX))
		return engine_refuse(reason, cap, "cap must be null or an integer from 1 to %llu",
		    (unsigned long long)STACKCRAFT_CAP_MAX);
	if (!stackcraft_init(st, (uint64_t)seed, json_is_null(c) ? 0 : (uint64_t)json_integer_value(c)))
		return engine_refuse(reason, cap, "seed %lld is out of range", (long long)seed);
	return true;
}

static bool
sc_replay_move(void *st, const json_t *move, struct replay_ctx *rc, char *reason, size_t cap)
{
	struct stackcraft_report rep;
	unsigned rotation, x;
	char why[ENGINE_REASON_MAX];

	(void)rc;
	if (!stackcraft_action_from_json(move, &rotation, &x, why))
		return engine_refuse(reason, cap, "%s", why);
	/* Refusals name the id, except the one for a run that is over. */
	if (stackcraft_step(st, rotation, x, &rep) == STACKCRAFT_GAME_OVER)
		return engine_refuse(reason, cap, "%s: %s", json_string_value(move), rep.message);
	if (rep.outcome != STACKCRAFT_OK)
		return engine_refuse(reason, cap, "%s", rep.message);
	return true;
}

/* The cells the move's placement landed on, from the legal list of the
 * state before it: the engine's own drop, never a second copy. */
static json_t *
sc_marks(const void *before, const void *after, const json_t *move)
{
	struct stackcraft_action acts[STACKCRAFT_LEGAL_MAX];
	const struct stackcraft *b = before;
	unsigned rotation, x;
	char why[ENGINE_REASON_MAX];
	struct tetromino_cell at[4];
	size_t n, i, k;

	(void)after;
	if (!stackcraft_action_from_json(move, &rotation, &x, why))
		return NULL;
	n = stackcraft_legal(b, acts, STACKCRAFT_LEGAL_MAX);
	for (i = 0; i < n; i++) {
		if (acts[i].rotation != rotation || acts[i].x != x)
			continue;
		/* The engine lists cells top row first; the marks count rows
		 * from the bottom, and list the lowest first. */
		for (k = 0; k < 4; k++) {
			at[k].row = (uint8_t)(STACKCRAFT_ROWS - 1 - acts[i].cells[3 - k][1]);
			at[k].col = acts[i].cells[3 - k][0];
		}
		return tetromino_json_marks_cells(&b->board, b->current, rotation, x, at);
	}
	return NULL;
}

static json_t *
sc_rules(void)
{
	return stackcraft_rules_json();
}

/* The cap, in placed pieces; the operator's --cap-default when the init
 * names none. */
static const struct game_option sc_options[] = {
	{ "cap", 1, (int64_t)STACKCRAFT_CAP_MAX, 0, GAME_OPTION_CAP,
	  "the episode cap, in placed pieces (the server's default when absent: none unless the operator sets one)" },
};
static const char *const sc_action_fields[] = { "action", NULL };
static const char *const sc_board_fields[] = { "lines", "pieces", NULL };
static const char *const sc_replay_keys[] = { "cap", NULL };

static const char *const sc_final_keys[] = { "score", "lines", "pieces", "status", "end_reason", NULL };

/* What an agent's text names each turn (game.h). */
static const struct game_fact sc_facts[] = {
	{ "current", "piece", NULL, NULL },
	{ "next", "next", NULL, NULL },
	{ "score", "score", NULL, NULL },
	{ "lines", "lines", NULL, NULL },
	{ "pieces", "pieces", NULL, NULL },
	{ "cap", "cap", NULL, NULL },
	{ NULL, NULL, NULL, NULL },
};

static const struct game_ext sc_ext = {
	.facts = sc_facts,
	.replay_options = sc_replay_options,
	.move_marks = sc_marks,
};

const struct game game_stackcraft = {
	.id = GAME_STACKCRAFT,
	.name = "stackcraft",
	.title = "Stackcraft",
	.how_to_end = "it ends when the stack tops out or the run reaches its cap; it cannot be ended early",
	.how_to_play = "Stackcraft: tetrominoes for research bots on a 10 x 20 well (boardText draws "
	    "it, top row first). Each move is one of the listed legal placements of the current "
	    "piece, sent by its id: 'r1x4' is rotation 1 with its box at column 4, dropped straight "
	    "down. One next piece is shown; there is no hold, gravity or spin. Full rows clear and "
	    "score 100/300/500/800 for 1-4 lines; runs rank by lines. The run ends when the new "
	    "piece has no legal placement, or at its cap (set 'cap' at init); then finish it with a "
	    "rating and a review."
	    " How each game names rows, columns and cells, with a drawing: docs/coordinates.md in "
	    "the arcaded source.",
	.rules = STACKCRAFT_RULES,
	.rules_version = 1,
	.check_default = false,
	.hides_future = true,
	.scratch_size = sizeof(struct sc_scratch),
	.options = sc_options,
	.noptions = sizeof sc_options / sizeof sc_options[0],
	.action_fields = sc_action_fields,
	.board_fields = sc_board_fields,
	.encode = sc_encode,
	.decode = sc_decode,
	.init = sc_init,
	.read_action = sc_read_action,
	.play = sc_play,
	.answer_write = sc_answer_write,
	.summary = sc_summary,
	.final = sc_final,
	.claims = sc_claims,
	.replay_keys = sc_replay_keys,
	.final_keys = sc_final_keys,
	.replay_start = sc_replay_start,
	.replay_move = sc_replay_move,
	.rules_json = sc_rules,
	.ext = &sc_ext,
};
