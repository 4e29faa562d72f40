/*
 * tetromino_game.h: what the games on the tetromino command grammar share
 * (Stackfall and HATETRIS): the batch runner, the results array, and the
 * descriptor's read/play/answer/marks steps written once. A game gives a
 * `struct tetromino_rules` (its structured actions, its engine calls, its
 * answer fields) and keeps in its own adapter only what differs: its
 * state's codec, its summaries, its replay and its rules text.
 */
#ifndef API_TETROMINO_GAME_H
#define API_TETROMINO_GAME_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "command_json.h"
#include "engine.h"
#include "game.h"
#include "stackfall_cmd.h"
#include "tetromino.h"

/* What one command did (the engines' outcomes have these three values). */
enum tetromino_outcome {
	TETROMINO_OK,        /* done (or, for options and preview, answered) */
	TETROMINO_REFUSED,   /* illegal now; nothing changed */
	TETROMINO_GAME_OVER, /* refused because the run has ended; nothing changed */
};

struct tetromino_result {
	struct stackfall_cmd     cmd;     /* the command (span into the request text) */
	enum tetromino_outcome   outcome;
	char                     message[ENGINE_REASON_MAX];
	size_t                   noptions;
	struct tetromino_option  options[TETROMINO_OPTIONS_MAX];
	struct tetromino_preview preview;
};

struct tetromino_batch {
	size_t nrun;     /* results written: the commands that ran, the failing one included */
	size_t nmoves;   /* commands that changed the game (place, hold, resign) */
	bool   failed;   /* the last result failed */
	struct tetromino_result results[STACKFALL_CMD_MAX];
	size_t moves[STACKFALL_CMD_MAX]; /* indexes into results of the moves, in order */
};

/* One game on the grammar. */
struct tetromino_rules {
	unsigned    actions;  /* the structured actions it takes: a COMMAND_KIND set */
	const char *example;  /* the command a refusal of unreadable text suggests */
	/* NULL while g plays; once it is over, the name of why it ended. */
	const char *(*ended)(const void *g);
	/* Runs one readable command on g (an options or preview answer into
	 * r->options, r->noptions or r->preview, the engine's message into
	 * r->message). ctx is the batch's, as given to tetromino_batch_run. */
	enum tetromino_outcome (*run)(void *g, const struct stackfall_cmd *c, struct tetromino_result *r,
	    void *ctx);
	/* After the batch's move number i is made (NULL: nothing to note). */
	void (*moved)(const void *g, size_t i, void *ctx);
	/* The game's answer fields, written into an open object (jw.h). */
	void (*write_fields)(struct jw *w, const void *g);
};

/* Runs up to STACKFALL_CMD_MAX commands on g in order, stopping after the
 * first that fails. An unreadable command is refused with its parse
 * reason, or as the game being over when it is. */
void tetromino_batch_run(const struct tetromino_rules *rules, void *g, const struct stackfall_cmd *cmds,
    size_t n, void *ctx, struct tetromino_batch *out);

/* The results array of an answer; text is the request's command text, or
 * NULL for a structured action. */
json_t *tetromino_results_json(const struct tetromino_batch *b, const char *text);

/* "the game is over (<why>)" into r's message, as r's outcome. */
enum tetromino_outcome tetromino_over(struct tetromino_result *r, const char *why);

/* ---- the descriptor's steps ---- */

/* One request's commands and what they did: the start of a game's scratch. */
struct tetromino_scratch {
	struct command_request rq;
	bool                   ran;    /* batch holds the results to show */
	struct tetromino_batch batch;
};

/* Readies x for tetromino_read_action and the answers (the counts and
 * the flags, not the 40 KB of results the batch writes before it reads). */
void tetromino_scratch_init(struct tetromino_scratch *x);

bool tetromino_read_action(const struct tetromino_rules *rules, const json_t *body,
    struct tetromino_scratch *x, char *msg, size_t cap);

/* Plays the request read into x on g and lists its moves in t. False when
 * the request is refused as a whole (t says why): the caller then puts g
 * back as it was. */
bool tetromino_play(const struct tetromino_rules *rules, void *g, struct tetromino_scratch *x,
    void *ctx, struct game_turn *t);

/* The game's part of an answer written into w: the game's fields, then
 * "results" (x's, or none when x is NULL or did not run). */
bool tetromino_answer_write(const struct tetromino_rules *rules, struct jw *w, const void *g,
    const struct tetromino_scratch *x);

/* A stored move's marks on the board before it: a placement's cells and
 * cleared rows, NULL for any other move. */
json_t *tetromino_move_marks(const struct tetromino_rules *rules, const struct tetromino_board *before,
    unsigned piece, const json_t *move);

/* The 7-bag stream that every tetromino game deals from seed: its first
 * count pieces as letters (I, J, L, O, S, T, Z), and a NUL at out[count] (out
 * holds count + 1 bytes). What `arcaded stream SEED COUNT` prints. */
void tetromino_stream_letters(uint64_t seed, char *out, size_t count);

#endif
