/*
 * tetromino_game.c: the batch runner and the descriptor's steps of the
 * games on the tetromino command grammar (tetromino_game.h).
 */
#include "tetromino_game.h"

#include <stdio.h>
#include <string.h>

#include "bag.h"
#include "tetromino_json.h"

_Static_assert(STACKFALL_CMD_MAX <= GAME_MOVES_MAX, "a batch's moves are a turn's moves");

enum tetromino_outcome
tetromino_over(struct tetromino_result *r, const char *why)
{
	snprintf(r->message, sizeof r->message, "the game is over (%s)", why);
	return TETROMINO_GAME_OVER;
}

void
tetromino_batch_run(const struct tetromino_rules *rules, void *g, const struct stackfall_cmd *cmds,
    size_t n, void *ctx, struct tetromino_batch *out)
{
	size_t i;

	out->nrun = out->nmoves = 0;
	out->failed = false;
	for (i = 0; i < n && i < STACKFALL_CMD_MAX; i++) {
		struct tetromino_result *r = &out->results[out->nrun++];
		const char *why;

		r->cmd = cmds[i];
		r->noptions = 0;
		r->message[0] = '\0';
		if (cmds[i].kind != STACKFALL_CMD_INVALID)
			r->outcome = rules->run(g, &cmds[i], r, ctx);
		else if ((why = rules->ended(g)) != NULL)
			/* Every command hears first that the game is over. */
			r->outcome = tetromino_over(r, why);
		else {
			r->outcome = TETROMINO_REFUSED;
			snprintf(r->message, sizeof r->message, "%s", cmds[i].reason);
		}
		if (r->outcome != TETROMINO_OK) {
			out->failed = true;
			break;
		}
		if (cmds[i].kind == STACKFALL_CMD_PLACE || cmds[i].kind == STACKFALL_CMD_HOLD ||
		    cmds[i].kind == STACKFALL_CMD_RESIGN) {
			if (rules->moved != NULL)
				rules->moved(g, out->nmoves, ctx);
			out->moves[out->nmoves++] = out->nrun - 1;
		}
	}
}

json_t *
tetromino_results_json(const struct tetromino_batch *b, const char *text)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < b->nrun; i++) {
		const struct tetromino_result *r = &b->results[i];
		struct command_result cr = {
			.cmd = &r->cmd, .text = text, .ok = r->outcome == TETROMINO_OK, .message = r->message,
			.options = r->options, .noptions = r->noptions,
			.figures = &r->preview.figures, .board_text = r->preview.board_text,
		};

		json_array_append_new(a, command_result_json(&cr));
	}
	return a;
}

void
tetromino_scratch_init(struct tetromino_scratch *x)
{
	x->rq.text = NULL;
	x->rq.parse = STACKFALL_PARSE_OK;
	x->rq.ncmds = 0;
	x->ran = false;
	x->batch.nrun = x->batch.nmoves = 0;
	x->batch.failed = false;
}

bool
tetromino_read_action(const struct tetromino_rules *rules, const json_t *body,
    struct tetromino_scratch *x, char *msg, size_t cap)
{
	return command_read_request(body, rules->actions, &x->rq, msg, cap);
}

bool
tetromino_play(const struct tetromino_rules *rules, void *g, struct tetromino_scratch *x, void *ctx,
    struct game_turn *t)
{
	size_t i;

	x->ran = false;
	if (command_refused(&x->rq, rules->example, t))
		return false;
	tetromino_batch_run(rules, g, x->rq.cmds, x->rq.ncmds, ctx, &x->batch);
	x->ran = true;
	if (x->batch.failed && x->batch.nrun == 1) {
		const struct tetromino_result *r = &x->batch.results[0];

		t->refused = true;
		t->refusal = r->outcome == TETROMINO_GAME_OVER ? API_ERR_GAME_OVER : API_ERR_INVALID_COMMAND;
		snprintf(t->reason, sizeof t->reason, "%s", r->message);
		return false;
	}
	for (i = 0; i < x->batch.nmoves; i++)
		command_move_text(&x->batch.results[x->batch.moves[i]].cmd, t->moves[i], sizeof t->moves[i]);
	t->nmoves = x->batch.nmoves;
	stackfall_cmd_canonical(x->rq.cmds, x->rq.ncmds, x->rq.text ? x->rq.text : "", t->canon,
	    sizeof t->canon);
	return true;
}

bool
tetromino_answer_write(const struct tetromino_rules *rules, struct jw *w, const void *g,
    const struct tetromino_scratch *x)
{
	size_t i;

	rules->write_fields(w, g);
	jw_key(w, "results");
	jw_array(w);
	for (i = 0; x != NULL && x->ran && i < x->batch.nrun; i++) {
		const struct tetromino_result *r = &x->batch.results[i];
		struct command_result cr = {
			.cmd = &r->cmd, .text = x->rq.text, .ok = r->outcome == TETROMINO_OK,
			.message = r->message, .options = r->options, .noptions = r->noptions,
			.figures = &r->preview.figures, .board_text = r->preview.board_text,
		};

		command_result_write(w, &cr);
	}
	jw_array_end(w);
	return !w->failed;
}

json_t *
tetromino_move_marks(const struct tetromino_rules *rules, const struct tetromino_board *before,
    unsigned piece, const json_t *move)
{
	struct stackfall_cmd c;

	command_action_from_json(move, rules->actions, &c);
	if (c.kind != STACKFALL_CMD_PLACE)
		return NULL;
	return tetromino_json_marks(before, piece, c.rotation, c.column);
}

void
tetromino_stream_letters(uint64_t seed, char *out, size_t count)
{
	bag_letters(seed, 0, out, count);
}
