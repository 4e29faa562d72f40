/*
 * hatetris_json.c: HATETRIS's batch runner, its JSON and its game
 * descriptor (game.h). Answers are flat like Stackfall's (snake_case game
 * fields beside runId and stateToken); field names are those of
 * docs/rules/hatetris.md.
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
#include "tetromino_json.h"

_Static_assert(HATETRIS_KEY_BYTES <= GAME_FACT_MAX, "a board key is a game fact");
_Static_assert(STACKFALL_CMD_MAX <= GAME_MOVES_MAX, "a batch's placements are a turn's moves");

/* The oracle a batch hands the engine: its own boards, then the run's. */
struct batch_seen {
	hatetris_seen_fn             seen;
	void                        *ctx;
	const struct hatetris_batch *batch;
};

static bool
batch_seen(void *arg, const uint8_t key[HATETRIS_KEY_BYTES])
{
	const struct batch_seen *b = arg;
	size_t i;

	for (i = 0; i < b->batch->nmoves; i++)
		if (memcmp(b->batch->keys[i], key, HATETRIS_KEY_BYTES) == 0)
			return true;
	return b->seen != NULL && b->seen(b->ctx, key);
}

void
hatetris_batch_run(struct hatetris *g, const struct stackfall_cmd *cmds, size_t n,
    hatetris_seen_fn seen, void *ctx, struct hatetris_batch *out)
{
	struct batch_seen bs = { seen, ctx, out };
	struct hatetris_report rep;
	size_t i;

	out->nrun = out->nmoves = 0;
	out->failed = false;
	for (i = 0; i < n && i < STACKFALL_CMD_MAX; i++) {
		struct hatetris_result *r = &out->results[out->nrun++];
		enum hatetris_outcome o;
		bool move = false;

		r->cmd = cmds[i];
		r->noptions = 0;
		memset(&rep, 0, sizeof rep);
		if (g->status == HATETRIS_OVER && (cmds[i].kind == STACKFALL_CMD_INVALID ||
		    cmds[i].kind == STACKFALL_CMD_HOLD || cmds[i].kind == STACKFALL_CMD_RESIGN)) {
			/* Every command hears first that the game is over. */
			o = HATETRIS_GAME_OVER;
			snprintf(rep.message, sizeof rep.message, "the game is over (%s)",
			    hatetris_end_name(g->end_reason));
		} else {
			switch (cmds[i].kind) {
			case STACKFALL_CMD_PLACE:
				o = hatetris_place(g, cmds[i].rotation, cmds[i].column, batch_seen, &bs, &rep);
				move = true;
				break;
			case STACKFALL_CMD_OPTIONS:
				o = hatetris_options(g, r->options, HATETRIS_OPTIONS_MAX, &r->noptions, &rep);
				break;
			case STACKFALL_CMD_PREVIEW:
				o = hatetris_preview(g, cmds[i].rotation, cmds[i].column, &r->preview, &rep);
				break;
			case STACKFALL_CMD_HOLD:
			case STACKFALL_CMD_RESIGN:
				o = HATETRIS_REFUSED;
				snprintf(rep.message, sizeof rep.message, "'%s' is not a HATETRIS command: there is "
				    "no %s (commands: place R C, R C, options, preview R C)",
				    stackfall_cmd_name(cmds[i].kind),
				    cmds[i].kind == STACKFALL_CMD_HOLD ? "hold" : "resigning");
				break;
			default:
				o = HATETRIS_REFUSED;
				snprintf(rep.message, sizeof rep.message, "%s", cmds[i].reason);
				break;
			}
		}
		r->outcome = o;
		snprintf(r->message, sizeof r->message, "%s", rep.message);
		if (o != HATETRIS_OK) {
			out->failed = true;
			break;
		}
		if (move) {
			hatetris_board_key(&g->board, out->keys[out->nmoves]);
			out->moves[out->nmoves++] = out->nrun - 1;
		}
	}
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

json_t *
hatetris_results_json(const struct hatetris_batch *b, const char *text)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < b->nrun; i++) {
		const struct hatetris_result *r = &b->results[i];
		struct command_result cr = {
			.cmd = &r->cmd, .text = text, .ok = r->outcome == HATETRIS_OK, .message = r->message,
			.options = r->options, .noptions = r->noptions,
			.figures = &r->preview.figures, .board_text = r->preview.board_text,
		};

		json_array_append_new(a, command_result_json(&cr));
	}
	return a;
}

/* The structured actions HATETRIS takes: no hold, no resign. */
#define HT_ACTIONS (COMMAND_KIND(STACKFALL_CMD_PLACE) | COMMAND_KIND(STACKFALL_CMD_PREVIEW) | \
    COMMAND_KIND(STACKFALL_CMD_OPTIONS))

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

/* One request's commands and what they did. */
struct ht_scratch {
	struct command_request   rq;
	bool                     ran;    /* batch holds the results to show */
	struct hatetris_batch    batch;
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

static bool
ht_read_action(const json_t *body, void *scratch, char *msg, size_t cap)
{
	struct ht_scratch *x = scratch;

	return command_read_request(body, HT_ACTIONS, &x->rq, msg, cap);
}

static void
ht_play(void *st, void *scratch, const struct game_env *env, struct game_turn *t)
{
	struct ht_scratch *x = scratch;
	struct hatetris *g = st, before = *g;
	size_t i;

	x->ran = false;
	if (command_refused(&x->rq, "place 0 4", t))
		return;
	hatetris_batch_run(g, x->rq.cmds, x->rq.ncmds, env != NULL ? env->fact_known : NULL,
	    env != NULL ? env->facts_ctx : NULL, &x->batch);
	x->ran = true;
	if (x->batch.failed && x->batch.nrun == 1) {
		const struct hatetris_result *r = &x->batch.results[0];

		*g = before;
		t->refused = true;
		t->refusal = r->outcome == HATETRIS_GAME_OVER ? API_ERR_GAME_OVER : API_ERR_INVALID_COMMAND;
		snprintf(t->reason, sizeof t->reason, "%s", r->message);
		return;
	}
	for (i = 0; i < x->batch.nmoves; i++) {
		const struct stackfall_cmd *c = &x->batch.results[x->batch.moves[i]].cmd;

		command_move_text(c, t->moves[i], sizeof t->moves[i]);
		t->facts[i].move = (uint32_t)i;
		memcpy(t->facts[i].bytes, x->batch.keys[i], HATETRIS_KEY_BYTES);
	}
	t->nmoves = t->nfacts = x->batch.nmoves;
	stackfall_cmd_canonical(x->rq.cmds, x->rq.ncmds, x->rq.text ? x->rq.text : "", t->canon,
	    sizeof t->canon);
}

static bool
ht_answer(json_t *o, const void *st, const void *scratch)
{
	const struct ht_scratch *x = scratch;

	return command_answer(o, hatetris_fields_json(st), x != NULL && x->ran ?
	    hatetris_results_json(&x->batch, x->rq.text) : json_array());
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
	struct stackfall_cmd c;

	(void)after;
	hatetris_action_from_json(move, &c);
	if (c.kind != STACKFALL_CMD_PLACE)
		return NULL;
	return tetromino_json_marks(&b->board, b->current, c.rotation, c.column);
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

const struct game game_hatetris = {
	.id = GAME_HATETRIS,
	.name = "hatetris",
	.title = "HATETRIS",
	.how_to_play = "HATETRIS: tetrominoes against a supplier that always hands you the piece "
	    "that helps you least, and avoids giving back a board you have already had. Stackfall's "
	    "10 x 20 board and placements: 'place R C' drops the current piece at rotation R with "
	    "its leftmost cell in column C; 'options' lists every placement and what it leaves. No "
	    "hold, no preview, no seed: the next piece is chosen only after you place this one. Each "
	    "cleared line is a point. At init, 'depth' 1 or 2 sets how far the supplier looks "
	    "ahead. The run ends when the supplied piece fits nowhere; then finish it.",
	.rules = HATETRIS_RULES,
	.rules_version = 1,
	.check_default = false,
	.hides_future = false,
	.seedless = true,
	.fact_bytes = HATETRIS_KEY_BYTES,
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
	.answer = ht_answer,
	.summary = ht_summary,
	.final = ht_final,
	.claims = ht_claims,
	.replay_options = ht_replay_options,
	.replay_keys = ht_replay_keys,
	.final_keys = ht_final_keys,
	.replay_start = ht_replay_start,
	.replay_move = ht_replay_move,
	.replay_end = ht_replay_end,
	.rules_json = ht_rules,
	.move_marks = ht_marks,
};
