/*
 * board_json.h: what anyone may read about a game's runs, as answers: a
 * run's page (GET /api/games/{game}/runs/{runId} and /api/runs/{runId}),
 * a page of the leaderboard, a page of reviews, and what a replay's
 * verification (POST .../replays/verify) answers. The daemon reads the
 * rows; each answer here is one function that writes its text with the
 * answer writer (jw.h), so that the field names, the figures each game
 * shows beside its score and the form of the page cursors are written in
 * one place. The text is what the jansson trees these replaced dumped
 * (JSON_COMPACT), byte for byte; it is malloc'd, NUL-terminated, its
 * length in *len, and NULL when it could not be written (no memory, a
 * string that is not UTF-8), which the daemon answers with a 500.
 *
 * Field names are camelCase, as the game routes' answers (docs/api.md).
 * Every pointer is borrowed unless a function says it steals it.
 */
#ifndef API_BOARD_JSON_H
#define API_BOARD_JSON_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "page_text.h"

/* A run's row and its extras. */
struct board_run {
	const struct game *game;
	int64_t     id, seed;
	const char *account;      /* the account's name, "" when anonymous */
	const char *status;       /* the game's status word */
	bool        over;
	const char *end_reason;   /* "" for none */
	int64_t     score;
	struct board_figures figures;
	int64_t     moves;        /* stored moves */
	bool        seed_chosen;  /* by the client */
	int64_t     created_at, ended_at, finished_at; /* Unix ms, 0: not yet */
	const char *review;       /* NULL when none */
	int         rating;       /* with review */
	int64_t     reviewed_at;  /* with review, Unix ms */
	const char *certificate;  /* NULL when none */
	/* The seed and the moves would tell a playing run's future pieces
	 * (game->hides_future): the page says so instead of giving them. */
	bool        withheld;
};

/* The page of run r whose decoded final state is state: the row's fields,
 * then its replay built from actions (every stored move, a JSON array,
 * stolen; NULL when withheld). NULL when the game's final summary of
 * state cannot be built or memory runs out. */
char *board_run_text(const struct board_run *r, const void *state, json_t *actions, size_t *len);

/* One leaderboard row. */
struct board_entry {
	int64_t     id, score, seed;
	int64_t     ended_at;     /* Unix ms */
	int64_t     keys[3];      /* the game's sort keys: the next cursor's */
	struct board_figures figures;
	const char *account;      /* "" when anonymous */
};

/* A page of g's leaderboard: entries[0..n), ranked from rank0 + 1 (the
 * rank of the cursor's row, 0 on the first page); by_seed and seed as
 * asked. full (the page is as long as its limit) gives a `next` cursor
 * "key0.key1.key2.id.rank" of the last entry, else null. */
char *board_leaderboard_text(const struct game *g, bool by_seed, int64_t seed,
    const struct board_entry *entries, int n, int64_t rank0, bool full, size_t *len);

/* One review. */
struct board_review {
	int64_t     id;           /* the page cursor */
	int64_t     run_id;
	int64_t     created_at;   /* Unix ms */
	int         rating;
	const char *account;      /* "" when anonymous */
	const char *text;
};

/* A page of g's reviews, newest first: reviews[0..n), with count and the
 * sum of every rating (total) for the average; full as above gives `next`,
 * the id of the last review. */
char *board_reviews_text(const struct game *g, int64_t count, int64_t total,
    const struct board_review *reviews, int n, bool full, size_t *len);

/* The answer of g's replay that verified: {valid, game, actions, final,
 * replayHash}, and certificate {valid, claims} when a certificate came
 * with it and holds (claims NULL when none came). chk and claims are
 * borrowed. */
char *board_verified_text(const struct game *g, const struct replay_check *chk,
    const char *hash, const json_t *claims, size_t *len);

/* What a refused verification adds to the error envelope, a tree because
 * the envelope (errors.h) is one and merges it: {step, reason}
 * (step 0 when no action is at fault, as when the certificate does not
 * hold), and simulatedFinal when the actions re-simulated (final borrowed,
 * may be NULL). */
json_t *board_verify_refusal_json(size_t step, const char *reason, json_t *final);

#endif
