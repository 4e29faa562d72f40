/*
 * wells_json.c: the wells game's answers, rules, replays and descriptor
 * (wells_json.h). Answers are Stackcraft's shape: a `state` object and the
 * `legalActions` of the current piece. The state's `board_text` frames the
 * well in the pages' 10 x 20 board ('#' outside it), so that the run pages
 * draw it as any tetromino board; `well` is the well itself.
 *
 * Every function that plays (init, an action, a replay's start and moves)
 * needs the value table of the run's well size, which it asks of the
 * environment (env->shared); without one it refuses, never guesses.
 */
#include "wells_json.h"

#include <stdio.h>
#include <string.h>

#include "replay.h"

_Static_assert(sizeof(struct wells) <= GAME_STRUCT_MAX, "a run fits a game_state");
_Static_assert(WELLS_SERIAL_MAX <= GAME_STATE_MAX, "a run's bytes fit a token");

static json_t *
end_json(unsigned end)
{
	const char *e = wells_end_name(end);

	return e != NULL ? json_string_nocheck(e) : json_null();
}

static int64_t
seed_of_size(unsigned width, unsigned height)
{
	return 100 * (int64_t)width + height;
}

/* The built table of a well size, from the environment; NULL without. */
static const struct wells_table *
table_for(const struct game_env *env, unsigned width, unsigned height)
{
	int k = wells_size_index(width, height);
	const struct wells_table *t;

	if (k < 0 || env == NULL || env->shared == NULL)
		return NULL;
	t = env->shared(&game_wells, (unsigned)k);
	return t != NULL && t->built && t->width == width && t->height == height ? t : NULL;
}

static void
landing_id(unsigned rot, unsigned x, unsigned y, char out[16])
{
	snprintf(out, 16, "r%ux%uy%u", rot, x, y);
}

/* "r<digit>x<digits>y<digits>", each number without sign, at most 2 digits. */
static bool
parse_id(const char *s, size_t len, unsigned *rot, unsigned *x, unsigned *y)
{
	const char keys[3] = { 'r', 'x', 'y' };
	unsigned *out[3] = { rot, x, y }, k;
	size_t i = 0;

	for (k = 0; k < 3; k++) {
		size_t start;

		if (i >= len || s[i] != keys[k])
			return false;
		start = ++i;
		*out[k] = 0;
		while (i < len && s[i] >= '0' && s[i] <= '9' && i - start < 2)
			*out[k] = *out[k] * 10 + (unsigned)(s[i++] - '0');
		if (i == start)
			return false;
	}
	return i == len;
}

bool
wells_action_from_json(const json_t *v, unsigned *rot, unsigned *x, unsigned *y,
    char reason[ENGINE_REASON_MAX])
{
	if (json_is_string(v) && parse_id(json_string_value(v), json_string_length(v), rot, x, y))
		return true;
	snprintf(reason, ENGINE_REASON_MAX, "the action must be a landing id r<rotation>x<column>y<row> "
	    "from legalActions, such as \"r0x0y7\"");
	return false;
}

static json_t *
final_json(const struct wells *g)
{
	return json_pack("{s:i, s:i, s:s, s:o, s:i, s:i}", "lines", g->end_reason == WELLS_END_LINE ? 1 : 0,
	    "pieces", (int)g->pieces, "status", wells_status_name(g->status), "end_reason",
	    end_json(g->end_reason), "width", (int)g->width, "height", (int)g->height);
}

/* ---- the descriptor ---- */

struct wl_scratch {
	bool     valid;
	unsigned rot, x, y;
	char     reason[ENGINE_REASON_MAX];
};

static size_t
wl_encode(const void *st, uint8_t *out, size_t cap)
{
	return wells_encode(st, out, cap);
}

static bool
wl_decode(void *st, const uint8_t *in, size_t n)
{
	return wells_decode(st, in, n);
}

/* Block key: a table header, then its slots. */
#define TABLE_OFFSET ((sizeof(struct wells_table) + 63) / 64 * 64)

static size_t
wl_shared_size(unsigned key)
{
	return key < WELLS_NSIZES ? TABLE_OFFSET + wells_table_bytes(wells_sizes[key].room) : 0;
}

static bool
wl_shared_build(unsigned key, void *mem, size_t bytes)
{
	struct wells_table *t = mem;

	if (key >= WELLS_NSIZES || bytes < wl_shared_size(key))
		return false;
	return wells_table_build(t, wells_sizes[key].width, wells_sizes[key].height,
	    (char *)mem + TABLE_OFFSET, bytes - TABLE_OFFSET) == WELLS_BUILT;
}

static bool
wl_seed_of(const struct game_options *opts, int64_t *seed, char *msg, size_t cap)
{
	unsigned w = (unsigned)opts->v[0], h = (unsigned)opts->v[1];

	if (wells_size_index(w, h) < 0) {
		snprintf(msg, cap, "wells serves the wells 4 x 4, 4 x 5, 4 x 6 and 6 x 4 (width x height), "
		    "not %u x %u", w, h);
		return false;
	}
	*seed = seed_of_size(w, h);
	return true;
}

static bool
wl_init(void *st, uint64_t seed, const struct game_options *opts, const struct game_env *env,
    enum api_error *err, char *msg, size_t cap)
{
	unsigned w = (unsigned)opts->v[0], h = (unsigned)opts->v[1];
	const struct wells_table *t = table_for(env, w, h);

	(void)seed;
	if (t == NULL || !wells_init(st, t, w, h)) {
		*err = API_ERR_INTERNAL;
		snprintf(msg, cap, "the value table of the %u x %u well could not be built", w, h);
		return false;
	}
	return true;
}

static bool
wl_read_action(const json_t *body, void *scratch, char *msg, size_t cap)
{
	struct wl_scratch *x = scratch;
	const json_t *a = json_object_get(body, "action");

	if (a == NULL) {
		snprintf(msg, cap, "missing field 'action' (a landing id such as \"r0x0y7\")");
		return false;
	}
	x->valid = wells_action_from_json(a, &x->rot, &x->x, &x->y, x->reason);
	return true;
}

static void
wl_play(void *st, void *scratch, const struct game_env *env, struct game_turn *t)
{
	struct wl_scratch *x = scratch;
	struct wells *g = st;
	struct wells_report rep;
	const struct wells_table *tab = table_for(env, g->width, g->height);
	char id[16];

	t->refusal = API_ERR_ILLEGAL_ACTION;
	if (g->status != WELLS_PLAYING) {
		t->refused = true;
		t->refusal = API_ERR_GAME_OVER;
		snprintf(t->reason, sizeof t->reason, "the game is over (%s)", wells_end_name(g->end_reason));
		return;
	}
	if (!x->valid) {
		t->refused = true;
		snprintf(t->reason, sizeof t->reason, "%s", x->reason);
		return;
	}
	if (tab == NULL) {
		t->refused = true;
		t->refusal = API_ERR_INTERNAL;
		snprintf(t->reason, sizeof t->reason, "the value table of this well could not be built");
		return;
	}
	/* A refused landing leaves the run as it was (wells.h). */
	if (wells_place(g, tab, x->rot, x->x, x->y, &rep) != WELLS_OK) {
		t->refused = true;
		if (rep.outcome == WELLS_NO_TABLE)
			t->refusal = API_ERR_INTERNAL;
		snprintf(t->reason, sizeof t->reason, "%s", rep.message);
		return;
	}
	landing_id(x->rot, x->x, x->y, id);
	snprintf(t->moves[0], sizeof t->moves[0], "\"%s\"", id);
	t->nmoves = 1;
	snprintf(t->canon, sizeof t->canon, "%s", t->moves[0]);
}

/* The state object of an answer. */
static void
state_write(struct jw *w, const struct wells *g)
{
	char text[WELLS_TEXT_SIZE], board[WELLS_TEXT_SIZE], c = whowins_piece_letter(g->current);
	const char *line = text, *end = wells_end_name(g->end_reason);
	size_t i;

	wells_text(g, text);
	wells_board_text(g, board);
	jw_object(w);
	jw_kint(w, "width", g->width);
	jw_kint(w, "height", g->height);
	jw_key(w, "well");
	jw_array(w);
	for (i = 0; i < (size_t)g->height + WHOWINS_BUFFER; i++, line += g->width + 1)
		jw_stringn(w, line, g->width);
	jw_array_end(w);
	jw_kstringn(w, "current", &c, 1);
	jw_kint(w, "pieces", g->pieces);
	jw_kint_if(w, "line_in", g->value != WELLS_NEVER, g->value);
	jw_kstring(w, "status", wells_status_name(g->status));
	jw_kstring_or_null(w, "end_reason", end);
	jw_kstring(w, "board_text", board);
	jw_object_end(w);
}

/* The landings of the current piece (none once the run is over). */
static void
legal_write(struct jw *w, const struct wells *g)
{
	struct wells_landing l[WELLS_LANDINGS_MAX];
	uint16_t rows[WELLS_H_MAX];
	size_t n, i, k;

	jw_array(w);
	if (g->status == WELLS_PLAYING) {
		wells_rows(g, rows);
		n = wells_landings(g->width, g->height, rows, g->current, l, WELLS_LANDINGS_MAX);
		for (i = 0; i < n; i++) {
			char id[16];

			landing_id((unsigned)l[i].at.rot, l[i].x, l[i].y, id);
			jw_object(w);
			jw_kstring(w, "id", id);
			jw_kint(w, "rotation", l[i].at.rot);
			jw_kint(w, "x", l[i].x);
			jw_kint(w, "y", l[i].y);
			jw_key(w, "cells");
			jw_array(w);
			for (k = 0; k < 4; k++) {
				jw_array(w);
				jw_int(w, l[i].cells[k][0]);
				jw_int(w, l[i].cells[k][1]);
				jw_array_end(w);
			}
			jw_array_end(w);
			jw_kbool(w, "line", l[i].line);
			jw_object_end(w);
		}
	}
	jw_array_end(w);
}

static bool
wl_answer_write(struct jw *w, const void *st, const void *scratch)
{
	(void)scratch;
	jw_key(w, "state");
	state_write(w, st);
	jw_key(w, "legalActions");
	legal_write(w, st);
	return !w->failed;
}

static void
wl_summary(const void *st, struct game_summary *out)
{
	const struct wells *g = st;
	bool line = g->end_reason == WELLS_END_LINE;

	out->status = wells_status_name(g->status);
	out->over = g->status == WELLS_OVER;
	out->end_reason = wells_end_name(g->end_reason);
	out->score = g->pieces;
	out->lines = line ? 1 : 0;
	out->pieces = g->pieces;
	out->rung = out->lives = -1;
	/* A line beats no line; among lines fewer pieces, among the others
	 * more (the longer a bot held out). */
	out->rank[0] = line ? 1 : 0;
	out->rank[1] = line ? -(int64_t)g->pieces : (int64_t)g->pieces;
	out->rank[2] = 0;
}

static json_t *
wl_final(const void *st)
{
	return final_json(st);
}

static json_t *
wl_claims(const void *st)
{
	const struct wells *g = st;
	json_t *o = final_json(g);

	json_object_del(o, "status");
	json_object_set_new_nocheck(o, "score", json_integer(g->pieces));
	return o;
}

static json_t *
wl_replay_options(const void *st)
{
	const struct wells *g = st;

	return json_pack("{s:i, s:i}", "width", (int)g->width, "height", (int)g->height);
}

static bool
wl_replay_start(void *st, int64_t seed, const json_t *replay, struct replay_ctx *rc, char *reason,
    size_t cap)
{
	const json_t *w = json_object_get(replay, "width"), *h = json_object_get(replay, "height");
	const struct wells_table *t;
	unsigned width, height;

	if (!json_is_integer(w) || !json_is_integer(h) || json_integer_value(w) < 0 ||
	    json_integer_value(w) > 16 || json_integer_value(h) < 0 || json_integer_value(h) > 16 ||
	    wells_size_index((unsigned)json_integer_value(w), (unsigned)json_integer_value(h)) < 0)
		return engine_refuse(reason, cap, "width and height must name a well the game serves "
		    "(4 x 4, 4 x 5, 4 x 6, 6 x 4)");
	width = (unsigned)json_integer_value(w);
	height = (unsigned)json_integer_value(h);
	if (seed != seed_of_size(width, height))
		return engine_refuse(reason, cap, "a wells replay's seed is its well, 100 x width + height: "
		    "%lld for %u x %u", (long long)seed_of_size(width, height), width, height);
	if ((t = table_for(rc->env, width, height)) == NULL || !wells_init(st, t, width, height))
		return engine_refuse(reason, cap, "the value table of the %u x %u well could not be built",
		    width, height);
	return true;
}

static bool
wl_replay_move(void *st, const json_t *move, struct replay_ctx *rc, char *reason, size_t cap)
{
	struct wells *g = st;
	struct wells_report rep;
	const struct wells_table *t = table_for(rc->env, g->width, g->height);
	unsigned rot, x, y;
	char why[ENGINE_REASON_MAX];

	if (!wells_action_from_json(move, &rot, &x, &y, why))
		return engine_refuse(reason, cap, "%s", why);
	if (t == NULL)
		return engine_refuse(reason, cap, "the value table of this well could not be built");
	if (wells_place(g, t, rot, x, y, &rep) != WELLS_OK)
		return engine_refuse(reason, cap, "%s", rep.message);
	return true;
}

static json_t *
wl_rules(void)
{
	json_t *sizes = json_array(), *pieces = json_object();
	unsigned k, p, r, i, j;

	for (k = 0; k < WELLS_NSIZES; k++)
		json_array_append_new(sizes, json_pack("{s:i, s:i, s:I}", "width", wells_sizes[k].width,
		    "height", wells_sizes[k].height, "seed",
		    (json_int_t)seed_of_size(wells_sizes[k].width, wells_sizes[k].height)));
	for (p = 0; p < WHOWINS_NPIECES; p++) {
		json_t *rots = json_array();
		char name[2] = { whowins_piece_letter(p), '\0' };

		for (r = 0; r < whowins_rotations(p); r++) {
			uint8_t box[4];
			json_t *pic = json_array();

			whowins_box(p, r, box);
			for (i = 0; i < 4; i++) {
				char row[5];

				for (j = 0; j < 4; j++)
					row[j] = box[i] >> j & 1 ? '#' : '.';
				row[4] = '\0';
				json_array_append_new(pic, json_string(row));
			}
			json_array_append_new(rots, pic);
		}
		json_object_set_new(pieces, name, rots);
	}
	return json_pack("{s:s, s:s, s:o, s:i, s:o, s:s, s:s, s:s, s:s, s:s, s:s, s:s}",
	    "game", game_wells.name, "rules", WELLS_RULES,
	    "sizes", sizes, "buffer", WHOWINS_BUFFER, "pieces", pieces,
	    "movement", "full movement: the piece appears in orientation 0 with its 4 x 4 box's left "
	    "column at (W - 4) / 2 and its top at row 0, then rotates (the next orientation in the list, "
	    "in place, no kicks), moves left, right or down while every cell stays inside the well and "
	    "empty; it locks where down is impossible, and a lock is a landing only when no cell is in "
	    "the buffer's 4 rows",
	    "supplier", "plays the solved game: on a well the player can force a row from, the first "
	    "piece (O I J L S T Z) that puts the row furthest away under best play by both; on a well "
	    "it keeps open for ever, the first piece with a landing none of whose landings completes a "
	    "row or leaves a well the player could force one from (a piece with no landing when only "
	    "such pieces keep it open)",
	    "line_in", "the state's line_in: the landings the player still needs under best play by "
	    "both, this one's included; null when the supplier keeps every row open for ever",
	    "action", "a landing's id from legalActions, r<orientation>x<leftmost column>y<top row, "
	    "counted from the top of the buffer>, such as \"r0x0y7\"",
	    "end", "line when a landing completes a row of the well; top_out when the piece supplied "
	    "has no landing",
	    "init", "?width=W&height=H (default 4 x 5), or the same in a JSON body; the seed is the "
	    "well, 100 W + H, and may not be named",
	    "score", "the pieces landed, the one that completed the row included; leaderboards (one a "
	    "well: ?seed=100W+H) rank a line before no line, then fewer pieces among lines and more "
	    "among the others");
}

static const struct game_option wl_options[] = {
	{ "width", 4, 6, 4, 0, "the well's width: 4 or 6 (with height 4)" },
	{ "height", 4, 6, 5, 0, "the well's height under its 4-row buffer: 4 to 6 (6 wide: 4)" },
};
static const char *const wl_action_fields[] = { "action", NULL };
static const char *const wl_board_fields[] = { "lines", "pieces", NULL };
static const char *const wl_replay_keys[] = { "width", "height", NULL };
static const char *const wl_final_keys[] = { "lines", "pieces", "status", "end_reason", "width", "height",
	NULL };

/* What an agent's text names each turn (game.h). */
static const struct game_fact wl_facts[] = {
	{ "current", "piece", NULL, NULL },
	{ "pieces", "pieces", NULL, NULL },
	{ "line_in", "landings to a full row under best play", NULL, NULL },
	{ NULL, NULL, NULL, NULL },
};

static const struct game_ext wl_ext = {
	.facts = wl_facts,
	.nshared = WELLS_NSIZES,
	.shared_size = wl_shared_size,
	.shared_build = wl_shared_build,
	.seed_of = wl_seed_of,
	.replay_options = wl_replay_options,
};

const struct game game_wells = {
	.id = GAME_WELLS,
	.name = "wells",
	.title = "Wells",
	.how_to_end = "it ends when a row is complete or the well tops out; it cannot be ended early",
	.how_to_play = "Wells: complete one row of a small well against the perfect supplier. Pick "
	    "the well at init ('width' x 'height': 4 x 4, 4 x 5, 4 x 6 or 6 x 4, under a 4-row "
	    "buffer). Nothing is ever cleared. The supplier has solved the well: where you can force "
	    "a row it hands you the piece that puts it furthest away, and where you cannot it never "
	    "lets you have one. Each move is one landing of the current piece from legalActions, "
	    "sent by its id (\"r0x0y7\": orientation 0, leftmost cell in column 0, top cell in row "
	    "7 from the top of the buffer); landings include slides and turns under overhangs. The "
	    "state's line_in says how many landings the row is away under best play (null: never). "
	    "The run ends at the first complete row (a line, the feat) or when the piece supplied has "
	    "no landing (top out); the score is the pieces landed. Leaderboards, one per well "
	    "(?seed=100W+H), rank a line before no line, then fewer pieces among lines (more among "
	    "the others)."
	    " How each game names rows, columns and cells, with a drawing: docs/coordinates.md in "
	    "the arcaded source.",
	.rules = WELLS_RULES,
	.rules_version = 1,
	.check_default = false,
	.hides_future = false,
	.seedless = false,
	.scratch_size = sizeof(struct wl_scratch),
	.options = wl_options,
	.noptions = sizeof wl_options / sizeof wl_options[0],
	.action_fields = wl_action_fields,
	.board_fields = wl_board_fields,
	.encode = wl_encode,
	.decode = wl_decode,
	.init = wl_init,
	.read_action = wl_read_action,
	.play = wl_play,
	.answer_write = wl_answer_write,
	.summary = wl_summary,
	.final = wl_final,
	.claims = wl_claims,
	.replay_keys = wl_replay_keys,
	.final_keys = wl_final_keys,
	.replay_start = wl_replay_start,
	.replay_move = wl_replay_move,
	.rules_json = wl_rules,
	.ext = &wl_ext,
};
