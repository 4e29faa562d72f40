/*
 * hatetris_json.c: HATETRIS's engine calls on the command grammar
 * (tetromino_game.h), its JSON and its game descriptor (game.h). Answers
 * are flat like Stackfall's (snake_case game fields beside runId and
 * stateToken); field names are those of docs/rules/hatetris.md.
 *
 * The seen boards. Every placement records the key of the board it leaves
 * as the move's fact. While a batch runs, the supplier's questions go
 * first to the keys of the batch's own earlier placements (at most 50, not
 * stored yet), then to the run's stored facts through the environment. A
 * replay keeps its own set of keys, filled as it plays.
 */
#include "hatetris_json.h"

#include <stdio.h>
#include <string.h>

#include "command_json.h"
#include "jsonbody.h"
#include "keyset.h"
#include "replay.h"
#include "stackfall_json.h"
#include "tetromino_game.h"

_Static_assert(HATETRIS_KEY_BYTES <= GAME_FACT_MAX, "a board key is a game fact");
_Static_assert((int)HATETRIS_OK == (int)TETROMINO_OK && (int)HATETRIS_REFUSED == (int)TETROMINO_REFUSED &&
    (int)HATETRIS_GAME_OVER == (int)TETROMINO_GAME_OVER, "HATETRIS's outcomes are the grammar's");

/* The structured actions HATETRIS takes: no hold, no resign. */
#define HT_ACTIONS (COMMAND_KIND(STACKFALL_CMD_PLACE) | COMMAND_KIND(STACKFALL_CMD_PREVIEW) | \
    COMMAND_KIND(STACKFALL_CMD_OPTIONS))

/* The oracle a batch hands the engine: its own boards, then the run's. */
struct batch_seen {
	hatetris_seen_fn              seen;
	void                         *ctx;
	const struct tetromino_batch *batch;
	uint8_t                     (*keys)[HATETRIS_KEY_BYTES]; /* one per move of batch */
};

static bool
batch_seen(void *arg, const uint8_t key[HATETRIS_KEY_BYTES])
{
	const struct batch_seen *b = arg;
	size_t i;

	for (i = 0; i < b->batch->nmoves; i++)
		if (memcmp(b->keys[i], key, HATETRIS_KEY_BYTES) == 0)
			return true;
	return b->seen != NULL && b->seen(b->ctx, key);
}

static const char *
ht_ended(const void *st)
{
	const struct hatetris *g = st;

	return g->status == HATETRIS_OVER ? hatetris_end_name(g->end_reason) : NULL;
}

static enum tetromino_outcome
ht_run(void *st, const struct stackfall_cmd *c, struct tetromino_result *r, void *ctx)
{
	struct hatetris *g = st;
	struct hatetris_report rep;
	enum hatetris_outcome o;
	const char *why;

	memset(&rep, 0, sizeof rep);
	switch (c->kind) {
	case STACKFALL_CMD_PLACE:
		o = hatetris_place(g, c->rotation, c->column, batch_seen, ctx, &rep);
		break;
	case STACKFALL_CMD_OPTIONS:
		o = hatetris_options(g, r->options, HATETRIS_OPTIONS_MAX, &r->noptions, &rep);
		break;
	case STACKFALL_CMD_PREVIEW:
		o = hatetris_preview(g, c->rotation, c->column, &r->preview, &rep);
		break;
	default: /* hold, resign */
		if ((why = ht_ended(g)) != NULL)
			return tetromino_over(r, why);
		snprintf(r->message, sizeof r->message, "'%s' is not a HATETRIS command: there is no %s "
		    "(commands: place R C, R C, options, preview R C)", stackfall_cmd_name(c->kind),
		    c->kind == STACKFALL_CMD_HOLD ? "hold" : "resigning");
		return TETROMINO_REFUSED;
	}
	snprintf(r->message, sizeof r->message, "%s", rep.message);
	return (enum tetromino_outcome)o;
}

/* A placement is made: the board it leaves is its fact. */
static void
ht_moved(const void *st, size_t i, void *ctx)
{
	const struct hatetris *g = st;
	struct batch_seen *b = ctx;

	hatetris_board_key(&g->board, b->keys[i]);
}

/* The game's fields of an answer (hatetris_fields_json's, written). */
static void
ht_write_fields(struct jw *w, const void *st)
{
	const struct hatetris *g = st;
	char text[HATETRIS_TEXT_SIZE];
	const char *end = hatetris_end_name(g->end_reason);

	hatetris_board_text(g, text);
	jw_kstring(w, "status", hatetris_status_name(g->status));
	jw_kstring_or_null(w, "end_reason", end);
	jw_kint(w, "lines", g->lines);
	jw_kint(w, "pieces", g->pieces);
	jw_kchar(w, "current", tetromino_letter(g->current));
	jw_kint(w, "depth", g->depth);
	jw_kint_if(w, "cap", g->cap != HATETRIS_NO_CAP, g->cap);
	jw_kstring(w, "board_text", text);
}

static const struct tetromino_rules ht_grammar = {
	.actions = HT_ACTIONS,
	.example = "place 0 4",
	.ended = ht_ended,
	.run = ht_run,
	.moved = ht_moved,
	.write_fields = ht_write_fields,
};

void
hatetris_batch_run(struct hatetris *g, const struct stackfall_cmd *cmds, size_t n,
    hatetris_seen_fn seen, void *ctx, struct hatetris_batch *out)
{
	struct batch_seen bs = { seen, ctx, &out->batch, out->keys };

	tetromino_batch_run(&ht_grammar, g, cmds, n, &bs, &out->batch);
}

static json_t *
letter(unsigned piece)
{
	char c = tetromino_letter(piece);

	return json_stringn_nocheck(&c, 1);
}

json_t *
hatetris_fields_json(const struct hatetris *g)
{
	char text[HATETRIS_TEXT_SIZE];
	const char *end = hatetris_end_name(g->end_reason);
	json_t *o = json_object();

	hatetris_board_text(g, text);
	json_object_set_new_nocheck(o, "status", json_string(hatetris_status_name(g->status)));
	json_object_set_new_nocheck(o, "end_reason", end ? json_string(end) : json_null());
	json_object_set_new_nocheck(o, "lines", json_integer(g->lines));
	json_object_set_new_nocheck(o, "pieces", json_integer(g->pieces));
	json_object_set_new_nocheck(o, "current", letter(g->current));
	json_object_set_new_nocheck(o, "depth", json_integer(g->depth));
	json_object_set_new_nocheck(o, "cap", g->cap == HATETRIS_NO_CAP ? json_null() :
	    json_integer(g->cap));
	json_object_set_new_nocheck(o, "board_text", json_string(text));
	return o;
}

void
hatetris_action_from_json(const json_t *v, struct stackfall_cmd *out)
{
	command_action_from_json(v, HT_ACTIONS, out);
}

json_t *
hatetris_final_json(const struct hatetris *g)
{
	const char *end = hatetris_end_name(g->end_reason);

	return json_pack("{s:I, s:I, s:s, s:o}", "lines", (json_int_t)g->lines,
	    "pieces", (json_int_t)g->pieces, "status", hatetris_status_name(g->status),
	    "end_reason", end ? json_string(end) : json_null());
}

json_t *
hatetris_rules_json(void)
{
	json_t *order = json_array();
	size_t i;

	for (i = 0; i < TETROMINO_NPIECES; i++)
		json_array_append_new(order, letter(hatetris_order[i]));
	return json_pack("{s:s, s:s, s:{s:i, s:i}, s:o, s:{s:o, s:s, s:s, s:s, s:s}, s:[i,i], s:s, "
	    "s:[{s:s, s:s, s:s}, {s:s, s:s, s:s}, {s:s, s:s, s:s}], s:o, s:s, s:i, s:s, s:s}",
	    "game", game_hatetris.name, "rules", HATETRIS_RULES,
	    "board", "columns", TETROMINO_COLS, "rows", TETROMINO_ROWS,
	    "pieces", stackfall_shapes_json(),
	    "supplier",
	    "order", order,
	    "rating", "a piece is rated by the best of its placements: the empty rows above the "
	    "board it leaves, after its clears (-1 when it fits nowhere)",
	    "choice", "among the pieces none of whose placements leaves a board already seen in the "
	    "run (all seven when every piece can), the lowest rated; ties go to the earliest in order",
	    "seen", "the empty start board and the board after every placement of the run",
	    "depth2", "a placement is worth the depth-1 rating of the piece the depth-1 supplier would "
	    "hand out after it; a piece is rated by its best placement (-2 when it fits nowhere)",
	    "depths", 1, 2,
	    "end", "top_out when the supplied piece fits nowhere; capped when the run's cap of placed "
	    "pieces is reached (checked first)",
	    "commands",
	    "command", "place <rotation 0-3> <column 0-9>", "short", "<rotation> <column>",
	    "does", "drop the current piece at that rotation with its leftmost cell in that column",
	    "command", "options", "short", "", "does",
	    "every distinct valid placement with lines, holes, max_height and bumpiness",
	    "command", "preview <rotation> <column>", "short", "",
	    "does", "the board after that placement, without making it",
	    "actions", json_pack("[{s:s, s:s, s:s}, {s:s, s:s, s:s}, {s:s}]",
	    "type", "place", "rotation", "integer 0-3", "column", "integer 0-9",
	    "type", "preview", "rotation", "integer 0-3", "column", "integer 0-9",
	    "type", "options"),
	    "separators", "several commands per request, separated by new lines or ';'",
	    "max_commands", STACKFALL_CMD_MAX,
	    "init", "?depth=1|2 (default 1) and ?cap=N (pieces, 1 to the server's --cap-max; else its "
	    "--cap-default), or the same in a JSON body; there is no seed",
	    "score", "lines cleared; leaderboards rank by lines, then fewer pieces");
}

/* ---- the game descriptor ---- */

/* One request's commands, what they did and the boards they left. */
struct ht_scratch {
	struct tetromino_scratch tx;
	uint8_t                  keys[STACKFALL_CMD_MAX][HATETRIS_KEY_BYTES];
};

static size_t
ht_encode(const void *st, uint8_t *out, size_t cap)
{
	return hatetris_encode(st, out, cap);
}

static bool
ht_decode(void *st, const uint8_t *in, size_t n)
{
	return hatetris_decode(st, in, n);
}

static bool
ht_init(void *st, uint64_t seed, const struct game_options *opts, const struct game_env *env,
    enum api_error *err, char *msg, size_t cap)
{
	int64_t depth = opts->v[0], pieces = opts->v[1];

	(void)seed;
	(void)env;
	/* The empty board clears no line: the supplier asks nothing here. */
	if (!hatetris_init(st, (unsigned)depth, (uint32_t)pieces, NULL, NULL)) {
		*err = API_ERR_INTERNAL;
		snprintf(msg, cap, "the game could not start");
		return false;
	}
	return true;
}

/* The keys are written, one a move, before the batch reads them. */
static void
ht_scratch_init(void *scratch)
{
	struct ht_scratch *x = scratch;

	tetromino_scratch_init(&x->tx);
}

static bool
ht_read_action(const json_t *body, void *scratch, char *msg, size_t cap)
{
	struct ht_scratch *x = scratch;

	return tetromino_read_action(&ht_grammar, body, &x->tx, msg, cap);
}

static void
ht_play(void *st, void *scratch, const struct game_env *env, struct game_turn *t)
{
	struct ht_scratch *x = scratch;
	struct hatetris *g = st, before = *g;
	struct batch_seen bs = { env != NULL ? env->fact_known : NULL, env != NULL ? env->facts_ctx : NULL,
	    &x->tx.batch, x->keys };
	size_t i;

	if (!tetromino_play(&ht_grammar, g, &x->tx, &bs, t)) {
		*g = before;
		return;
	}
	for (i = 0; i < x->tx.batch.nmoves; i++) {
		t->facts[i].move = (uint32_t)i;
		memcpy(t->facts[i].bytes, x->keys[i], HATETRIS_KEY_BYTES);
	}
	t->nfacts = x->tx.batch.nmoves;
}

static bool
ht_answer_write(struct jw *w, const void *st, const void *scratch)
{
	const struct ht_scratch *x = scratch;

	return tetromino_answer_write(&ht_grammar, w, st, x != NULL ? &x->tx : NULL);
}

static void
ht_summary(const void *st, struct game_summary *out)
{
	const struct hatetris *g = st;

	out->status = hatetris_status_name(g->status);
	out->over = g->status == HATETRIS_OVER;
	out->end_reason = hatetris_end_name(g->end_reason);
	out->score = g->lines;
	out->lines = g->lines;
	out->pieces = g->pieces;
	out->rung = out->lives = -1;
	/* Lines, then fewer pieces; on a tie the deeper supplier's run first. */
	out->rank[0] = g->lines;
	out->rank[1] = -(int64_t)g->pieces;
	out->rank[2] = g->depth;
}

static json_t *
ht_final(const void *st)
{
	return hatetris_final_json(st);
}

static json_t *
cap_json(const struct hatetris *g)
{
	return g->cap == HATETRIS_NO_CAP ? json_null() : json_integer(g->cap);
}

static json_t *
ht_claims(const void *st)
{
	const struct hatetris *g = st;
	const char *end = hatetris_end_name(g->end_reason);

	return json_pack("{s:I, s:I, s:I, s:s, s:i, s:o}", "score", (json_int_t)g->lines,
	    "lines", (json_int_t)g->lines, "pieces", (json_int_t)g->pieces,
	    "end_reason", end ? end : "", "depth", (int)g->depth, "cap", cap_json(g));
}

static json_t *
ht_replay_options(const void *st)
{
	const struct hatetris *g = st;

	return json_pack("{s:i, s:o}", "depth", (int)g->depth, "cap", cap_json(g));
}

/* The replay's own seen boards, as the engine's oracle. */
static bool
replay_seen(void *ctx, const uint8_t key[HATETRIS_KEY_BYTES])
{
	return keyset_has(ctx, key);
}

static bool
ht_replay_start(void *st, int64_t seed, const json_t *replay, struct replay_ctx *rc, char *reason,
    size_t cap)
{
	const json_t *depth = json_object_get(replay, "depth"), *pieces = json_object_get(replay, "cap");

	if (seed != 0)
		return engine_refuse(reason, cap, "HATETRIS has no seed: a replay's seed is 0");
	if (!json_is_integer(depth) || json_integer_value(depth) < 1 || json_integer_value(depth) > 2)
		return engine_refuse(reason, cap, "depth must be 1 or 2");
	if (!json_is_null(pieces) && (!json_is_integer(pieces) || json_integer_value(pieces) < 1 ||
	    json_integer_value(pieces) > (json_int_t)HATETRIS_PIECES_MAX))
		return engine_refuse(reason, cap, "cap must be null or an integer from 1 to %lu",
		    (unsigned long)HATETRIS_PIECES_MAX);
	if ((rc->game = keyset_new(HATETRIS_KEY_BYTES)) == NULL)
		return engine_refuse(reason, cap, "out of memory");
	if (!hatetris_init(st, (unsigned)json_integer_value(depth),
	    json_is_null(pieces) ? HATETRIS_NO_CAP : (uint32_t)json_integer_value(pieces), NULL, NULL))
		return engine_refuse(reason, cap, "the run cannot start");
	return true;
}

/* A stored move: a placement, nothing else. */
static bool
ht_replay_move(void *st, const json_t *move, struct replay_ctx *rc, char *reason, size_t cap)
{
	struct hatetris *g = st;
	struct hatetris_report rep;
	struct stackfall_cmd c;
	uint8_t key[HATETRIS_KEY_BYTES];

	hatetris_action_from_json(move, &c);
	if (c.kind == STACKFALL_CMD_INVALID)
		return engine_refuse(reason, cap, "not a HATETRIS move: %s", c.reason);
	if (c.kind != STACKFALL_CMD_PLACE)
		return engine_refuse(reason, cap, "%s changes nothing and is never a move",
		    stackfall_cmd_name(c.kind));
	memset(&rep, 0, sizeof rep);
	if (hatetris_place(g, c.rotation, c.column, replay_seen, rc->game, &rep) != HATETRIS_OK)
		return engine_refuse(reason, cap, "%s", rep.message);
	hatetris_board_key(&g->board, key);
	if (!keyset_add(rc->game, key))
		return engine_refuse(reason, cap, "out of memory");
	return true;
}

static void
ht_replay_end(struct replay_ctx *rc)
{
	keyset_free(rc->game);
	rc->game = NULL;
}

static json_t *
ht_rules(void)
{
	return hatetris_rules_json();
}

/* A placement's cells and cleared rows (every HATETRIS move is one). */
static json_t *
ht_marks(const void *before, const void *after, const json_t *move)
{
	const struct hatetris *b = before;

	(void)after;
	return tetromino_move_marks(&ht_grammar, &b->board, b->current, move);
}

/* The supplier's depth; the cap in pieces, within what the engine counts
 * (32 bits), the operator's --cap-default when the init names none. */
static const struct game_option ht_options[] = {
	{ "depth", 1, 2, 1, 0, "how far the supplier looks ahead: 1 or 2 pieces" },
	{ "cap", 1, (int64_t)HATETRIS_PIECES_MAX, 0, GAME_OPTION_CAP,
	  "the run's cap, in pieces (the server's default when absent: none unless the operator sets one)" },
};
static const char *const ht_action_fields[] = { "command", "action", NULL };
static const char *const ht_replay_keys[] = { "depth", "cap", NULL };
static const char *const ht_final_keys[] = { "lines", "pieces", "status", "end_reason", NULL };
static const char *const ht_board_fields[] = { "lines", "pieces", NULL };

/* What an agent's text names each turn (game.h): no next piece, the
 * supplier picks it after the lock. */
static const struct game_fact ht_facts[] = {
	{ "current", "piece", NULL, NULL },
	{ "lines", "lines", NULL, NULL },
	{ "pieces", "pieces", NULL, NULL },
	{ "depth", "supplier depth", NULL, NULL },
	{ "cap", "cap", NULL, NULL },
	{ NULL, NULL, NULL, NULL },
};

static const struct game_ext ht_ext = {
	.facts = ht_facts,
	.fact_bytes = HATETRIS_KEY_BYTES,
	.scratch_init = ht_scratch_init,
	.replay_options = ht_replay_options,
	.replay_end = ht_replay_end,
	.move_marks = ht_marks,
};

const struct game game_hatetris = {
	.id = GAME_HATETRIS,
	.name = "hatetris",
	.title = "HATETRIS",
	.how_to_end = "it ends when the stack tops out or the run reaches its cap; it cannot be ended early",
	.how_to_play = "HATETRIS: tetrominoes against a supplier that always hands you the piece "
	    "that helps you least, and avoids giving back a board you have already had. Stackfall's "
	    "10 x 20 board and placements: 'place R C' drops the current piece at rotation R with "
	    "its leftmost cell in column C; 'options' lists every placement and what it leaves. No "
	    "hold, no preview, no seed: the next piece is chosen only after you place this one. Each "
	    "cleared line is a point. At init, 'depth' 1 or 2 sets how far the supplier looks "
	    "ahead. The run ends when the supplied piece fits nowhere; then finish it."
	    " How each game names rows, columns and cells, with a drawing: docs/coordinates.md in "
	    "the arcaded source.",
	.rules = HATETRIS_RULES,
	.rules_version = 1,
	.check_default = false,
	.hides_future = false,
	.seedless = true,
	.scratch_size = sizeof(struct ht_scratch),
	.options = ht_options,
	.noptions = sizeof ht_options / sizeof ht_options[0],
	.action_fields = ht_action_fields,
	.board_fields = ht_board_fields,
	.encode = ht_encode,
	.decode = ht_decode,
	.init = ht_init,
	.read_action = ht_read_action,
	.play = ht_play,
	.answer_write = ht_answer_write,
	.summary = ht_summary,
	.final = ht_final,
	.claims = ht_claims,
	.replay_keys = ht_replay_keys,
	.final_keys = ht_final_keys,
	.replay_start = ht_replay_start,
	.replay_move = ht_replay_move,
	.rules_json = ht_rules,
	.ext = &ht_ext,
};
