/*
 * history_json.h: the answers of the lists bot authors read to see how
 * their bots do (docs/api.md, "Accounts and open matches"): the matches
 * open on the server (GET /api/matches/open), an account's public page
 * (GET /api/v1/accounts/{name}), its runs of one game and its matches,
 * each a page with a cursor. The daemon reads the rows; each answer is one
 * function here that writes its text with the answer writer (jw.h), so
 * the field names and the cursors' form are written once. The text is
 * what the jansson trees these replaced dumped (JSON_COMPACT), byte for
 * byte: malloc'd, NUL-terminated, its length in *len, NULL when it could
 * not be written.
 *
 * Public data only: names, runs, scores, seeds (withheld where the run's
 * game hides its future and the run is playing), matches and ratings;
 * never a key or a token. Every pointer is borrowed.
 */
#ifndef API_HISTORY_JSON_H
#define API_HISTORY_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "board_json.h"
#include "game.h"

#define HISTORY_SEATS 8

/* A match as a list shows it. Times are Unix ms, 0: not yet. */
struct history_match {
	int64_t     id, turn, created_at, started_at, finished_at;
	int         players, joined, turn_seconds, turn_cap;
	bool        rated;
	bool        items, queue;   /* the item setting; opened by the quick-match queue */
	unsigned    item_chance;    /* with items: 1..100 */
	const uint8_t *item_weights; /* with items: six shares, else NULL */
	const char *status;         /* lobby, playing or finished */
	const char *end_reason;     /* "" while not finished */
	int         nseats;
	const char *names[HISTORY_SEATS]; /* the seats taken, in seat order */
	/* An account's list only: its seat and results (place 0, score -1
	 * and NAN ratings until there are some). */
	int         seat, place;
	int64_t     score;
	double      rating_before, rating_after;
};

/* GET /api/matches?status= (and /api/matches/open): matches[0..n) of status, newest first; next
 * (the cursor "created_at.id" of the last) when full. */
char *history_open_matches_text(const char *status, const struct history_match *m, int n,
    bool full, size_t *len);

/* One run of an account. */
struct history_run {
	const struct game *game;
	int64_t     id, seed, score;
	const char *status;        /* the game's word */
	bool        over, seed_chosen;
	const char *end_reason;    /* "" for none */
	struct board_figures figures;
	int64_t     moves;
	int64_t     created_at, ended_at; /* Unix ms, 0: not yet */
};

/* The best run of an account on one seed of a game. */
struct history_best {
	int64_t id, seed, score, ended_at;
	struct board_figures figures;
	int64_t runs;              /* the account's ranked runs on that seed */
};

/* What GET /api/v1/accounts/{name} says of one game. */
struct history_game {
	const struct game *game;
	int64_t runs;              /* every run of the account in this game */
	const struct history_best *best;
	int     nbest;             /* best per seed, best first, at most the page cap */
	bool    more_seeds;        /* more seeds than shown */
};

/* The account's rating, when it has played a rated match. */
struct history_rating {
	bool    found;
	double  rating, rd;
	int64_t matches;
};

/* GET /api/v1/accounts/{name}: the name, creation time, every game of the
 * table with its count of runs and best per seed, and the rating. */
char *history_account_text(const char *name, int64_t created_at, const struct history_game *games,
    int ngames, const struct history_rating *rating, size_t *len);

/* GET /api/v1/accounts/{name}/runs?game=: runs[0..n) newest first; next
 * (the cursor "created_at.id") when full. A playing run of a game that
 * hides its future shows no seed (null). */
char *history_runs_text(const char *name, const struct game *g, const struct history_run *runs,
    int n, bool full, size_t *len);

/* GET /api/v1/accounts/{name}/matches: matches[0..n) newest first, with
 * the account's seat and results; next when full. */
char *history_matches_text(const char *name, const struct history_match *m, int n, bool full,
    size_t *len);

#endif
