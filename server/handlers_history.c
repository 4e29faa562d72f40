/*
 * handlers_history.c: what bot authors read to see how their bots do
 * (docs/api.md, "Accounts and open matches"): the matches open on the
 * server, an account's public page, its runs of one game and its matches.
 * Reads only, on a reader connection; the answers are written in api/
 * (history_json.c) from the rows read here. Every list is one page of at
 * most STORE_PAGE_MAX rows after a cursor, so a call costs one index walk
 * whatever the page; the account page adds one bounded query a game.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "handlers.h"
#include "history_json.h"
#include "jsonbody.h"
#include "quote.h"
#include "store.h"

#define BEST_SEEDS 20     /* seeds shown on an account's page, per game */

/* ?before=AT.ID, the `next` of a previous page: two whole numbers. */
static bool
read_before(struct request *req, bool *has, int64_t *at, int64_t *id)
{
	const char *q = request_query(req, "before");
	char *end;

	*has = false;
	if (q == NULL)
		return true;
	errno = 0;
	*at = strtoll(q, &end, 10);
	if (errno == 0 && end != q && *end == '.' && q[0] != '+' && q[0] != ' ') {
		const char *p = end + 1;

		*id = strtoll(p, &end, 10);
		if (errno == 0 && end != p && *end == '\0' && p[0] != '+' && p[0] != ' ' && p[0] != '-') {
			*has = true;
			return true;
		}
	}
	request_reply_error(req, API_ERR_INVALID_REQUEST,
	    "query 'before' must be the 'next' cursor of a previous page");
	return false;
}

static void
to_match(const struct store_match_brief *b, struct history_match *m)
{
	int i;

	*m = (struct history_match){
		.id = b->id, .turn = b->turn, .created_at = b->created_at, .started_at = b->started_at,
		.finished_at = b->finished_at, .players = b->players, .joined = b->joined,
		.turn_seconds = b->turn_seconds, .turn_cap = b->turn_cap, .rated = b->rated,
		.items = b->items, .queue = b->queued,
		.item_chance = b->item_chance, .item_weights = b->item_weights,
		.status = b->status, .end_reason = b->end_reason, .nseats = b->nseats, .seat = b->seat,
		.place = b->place, .score = b->score, .rating_before = b->rating_before,
		.rating_after = b->rating_after,
	};
	for (i = 0; i < b->nseats && i < HISTORY_SEATS; i++)
		m->names[i] = b->names[i];
}

/* The n rows a match list read (rc) as the answer's matches; false with
 * the 500 answered when the read failed. */
static bool
to_matches(struct request *req, enum store_result rc, const struct store_match_brief *rows, int n,
    struct history_match *out)
{
	int i;

	if (rc != STORE_OK) {
		request_reply_error(req, API_ERR_INTERNAL, NULL);
		return false;
	}
	for (i = 0; i < n; i++)
		to_match(&rows[i], &out[i]);
	return true;
}

static struct board_figures
figures(const struct store_history_run *r)
{
	return (struct board_figures){ r->lines, r->pieces, r->rung, r->lives };
}

/* ---- GET /api/matches?status=lobby|playing|finished (and /api/matches/open) ---- */

void
handle_matches_open(struct request *req)
{
	struct store_match_brief rows[STORE_PAGE_MAX];
	struct history_match out[STORE_PAGE_MAX];
	const char *status = request_query(req, "status");
	struct store_conn *c;
	int64_t at = 0, id = 0;
	int limit, n = 0;
	bool has;
	enum store_result rc;
	char *text;
	size_t len;

	if (status == NULL)
		status = "lobby";
	if (strcmp(status, "lobby") != 0 && strcmp(status, "playing") != 0 &&
	    strcmp(status, "finished") != 0) {
		request_reply_error(req, API_ERR_INVALID_REQUEST,
		    "query 'status' must be lobby, playing or finished");
		return;
	}
	if (!handlers_read_limit(req, &limit) || !read_before(req, &has, &at, &id))
		return;
	c = store_reader(req->app->store);
	rc = store_matches_open(c, status, has, at, id, limit, rows, &n);
	store_reader_release(req->app->store, c);
	if (!to_matches(req, rc, rows, n, out))
		return;
	text = history_open_matches_text(status, out, n, n == limit, &len);
	request_reply_json_text(req, 200, text, len);
}

/* A reader borrowed for the account named by the path, whose id, creation
 * time and name are read; NULL with a 404 (or a 500) answered and the
 * reader given back. The caller releases the reader it gets. */
static struct store_conn *
account_reader(struct request *req, int64_t *id, int64_t *created_at, char *name, size_t cap)
{
	char msg[128], q[QUOTE_SHORT];
	struct store_conn *c;
	enum store_result rc;

	/* A name no account can have is not looked up: PostgreSQL refuses
	 * text that is not UTF-8 as an error, not as no row. */
	if (!account_name_valid(req->params[0]))
		rc = STORE_NOT_FOUND;
	else {
		c = store_reader(req->app->store);
		rc = store_account_by_name(c, req->params[0], id, created_at, name, cap);
		if (rc == STORE_OK)
			return c;
		store_reader_release(req->app->store, c);
	}
	if (rc == STORE_NOT_FOUND) {
		snprintf(msg, sizeof msg, "no account has this name: %s", text_quote(q, sizeof q, req->params[0], 40));
		request_reply_error(req, API_ERR_ACCOUNT_NOT_FOUND, msg);
	} else
		request_reply_error(req, API_ERR_INTERNAL, NULL);
	return NULL;
}

/* ---- GET /api/v1/accounts/{name} ---- */

void
handle_account_page(struct request *req)
{
	struct store_history_run (*best)[BEST_SEEDS + 1] = NULL;
	struct history_best (*hb)[BEST_SEEDS] = NULL;
	struct history_game games[GAME__COUNT];
	struct history_rating rating = { 0 };
	struct store_rating r;
	struct store_conn *c;
	char name[STORE_NAME_MAX + 1];
	int64_t id, created_at;
	enum store_result rc = STORE_OK;
	int i, j, nbest[GAME__COUNT] = { 0 };
	char *text;
	size_t len;

	best = calloc(GAME__COUNT, sizeof *best);
	hb = calloc(GAME__COUNT, sizeof *hb);
	if (best == NULL || hb == NULL) {
		request_reply_error(req, API_ERR_INTERNAL, "out of memory");
		goto done;
	}
	if ((c = account_reader(req, &id, &created_at, name, sizeof name)) == NULL)
		goto done;
	for (i = 0; i < GAME__COUNT && rc == STORE_OK; i++) {
		games[i] = (struct history_game){ .game = game_table[i] };
		rc = store_account_run_count(c, id, game_table[i]->name, &games[i].runs);
		if (rc == STORE_OK && games[i].runs > 0)
			rc = store_account_best(c, id, game_table[i]->name, BEST_SEEDS + 1, best[i], &nbest[i]);
	}
	if (rc == STORE_OK)
		rc = store_ratings_get(c, &id, 1, &r);
	store_reader_release(req->app->store, c);
	if (rc != STORE_OK) {
		request_reply_error(req, API_ERR_INTERNAL, NULL);
		goto done;
	}
	for (i = 0; i < GAME__COUNT; i++) {
		games[i].more_seeds = nbest[i] > BEST_SEEDS;
		games[i].nbest = nbest[i] > BEST_SEEDS ? BEST_SEEDS : nbest[i];
		for (j = 0; j < games[i].nbest; j++) {
			const struct store_history_run *x = &best[i][j];

			hb[i][j] = (struct history_best){ .id = x->id, .seed = x->seed, .score = x->score,
				.ended_at = x->ended_at, .figures = figures(x), .runs = x->runs };
		}
		games[i].best = hb[i];
	}
	if (r.found)
		rating = (struct history_rating){ true, r.rating, r.rd, r.matches };
	text = history_account_text(name, created_at, games, GAME__COUNT, &rating, &len);
	request_reply_json_text(req, 200, text, len);
done:
	free(best);
	free(hb);
}

/* ---- GET /api/v1/accounts/{name}/runs?game= ---- */

void
handle_account_runs(struct request *req)
{
	struct store_history_run rows[STORE_PAGE_MAX];
	struct history_run out[STORE_PAGE_MAX];
	const char *qgame = request_query(req, "game");
	const struct game *g = qgame != NULL ? game_by_name(qgame, strlen(qgame)) : NULL;
	char names[GAME_NAMES_MAX], msg[GAME_NAMES_MAX + 48];
	struct store_conn *c;
	char name[STORE_NAME_MAX + 1];
	int64_t id, created_at, at = 0, before = 0;
	int limit, n = 0, i;
	bool has;
	enum store_result rc;
	char *text;
	size_t len;

	if (g == NULL) {
		snprintf(msg, sizeof msg, "query 'game' must name a game: %s", game_names(names, sizeof names));
		request_reply_error(req, API_ERR_INVALID_REQUEST, msg);
		return;
	}
	if (!handlers_read_limit(req, &limit) || !read_before(req, &has, &at, &before))
		return;
	if ((c = account_reader(req, &id, &created_at, name, sizeof name)) == NULL)
		return;
	rc = store_account_runs(c, id, g->name, has, at, before, limit, rows, &n);
	store_reader_release(req->app->store, c);
	if (rc != STORE_OK) {
		request_reply_error(req, API_ERR_INTERNAL, NULL);
		return;
	}
	for (i = 0; i < n; i++) {
		const struct store_history_run *x = &rows[i];

		out[i] = (struct history_run){ .game = g, .id = x->id, .seed = x->seed, .score = x->score,
			.status = x->status, .over = x->over, .seed_chosen = x->seed_chosen,
			.end_reason = x->end_reason, .figures = figures(x), .moves = x->moves,
			.created_at = x->created_at, .ended_at = x->ended_at };
	}
	text = history_runs_text(name, g, out, n, n == limit, &len);
	request_reply_json_text(req, 200, text, len);
}

/* ---- GET /api/v1/accounts/{name}/matches ---- */

void
handle_account_matches(struct request *req)
{
	struct store_match_brief rows[STORE_PAGE_MAX];
	struct history_match out[STORE_PAGE_MAX];
	struct store_conn *c;
	char name[STORE_NAME_MAX + 1];
	int64_t id, created_at, at = 0, before = 0;
	int limit, n = 0;
	bool has;
	enum store_result rc;
	char *text;
	size_t len;

	if (!handlers_read_limit(req, &limit) || !read_before(req, &has, &at, &before))
		return;
	if ((c = account_reader(req, &id, &created_at, name, sizeof name)) == NULL)
		return;
	rc = store_account_matches(c, id, has, at, before, limit, rows, &n);
	store_reader_release(req->app->store, c);
	if (!to_matches(req, rc, rows, n, out))
		return;
	text = history_matches_text(name, out, n, n == limit, &len);
	request_reply_json_text(req, 200, text, len);
}
