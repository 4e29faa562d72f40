/*
 * store_board.c: leaderboards and reviews.
 *
 * Both walk an index (migrations 0002 and 0003) in order and stop after one page;
 * a page starts after a cursor by a row-value comparison on the index's
 * own columns, so page 1000 costs what page 1 costs (no OFFSET).
 */
#include "store_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The columns every leaderboard query reads, in this order. */
#define BOARD_COLUMNS \
	"SELECT r.id, r.score, r.seed, coalesce(r.ended_at, 0), r.rank1, r.rank2, r.rank3, " \
	"r.lines, r.pieces, r.rung, r.lives, r.seed_chosen, coalesce(a.name, '') FROM runs r "
#define BOARD_JOIN " LEFT JOIN accounts a ON a.id = r.account_id "
#define BOARD_ORDER " ORDER BY r.rank1 DESC, r.rank2 DESC, r.rank3 DESC, r.id DESC LIMIT ?7"
#define BOARD_AFTER " AND (r.rank1, r.rank2, r.rank3, r.id) < (?3, ?4, ?5, ?6)"

static int64_t
nullable(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? -1 : sqlite3_column_int64(st, i);
}

enum store_result
store_leaderboard(struct store_conn *c, const char *game, bool by_seed, int64_t seed,
    const struct store_board_cursor *after, int limit, struct store_board_entry *out, int *n)
{
	static const char chosen_first[] = BOARD_COLUMNS
	    "INDEXED BY runs_board" BOARD_JOIN "WHERE r.game = ?1 AND r.seed_chosen = 0 AND r.over = 1"
	    BOARD_ORDER;
	static const char chosen_next[] = BOARD_COLUMNS
	    "INDEXED BY runs_board" BOARD_JOIN "WHERE r.game = ?1 AND r.seed_chosen = 0 AND r.over = 1"
	    BOARD_AFTER BOARD_ORDER;
	static const char seed_first[] = BOARD_COLUMNS
	    "INDEXED BY runs_board_seed" BOARD_JOIN "WHERE r.game = ?1 AND r.seed = ?2 AND r.over = 1" BOARD_ORDER;
	static const char seed_next[] = BOARD_COLUMNS
	    "INDEXED BY runs_board_seed" BOARD_JOIN "WHERE r.game = ?1 AND r.seed = ?2 AND r.over = 1"
	    BOARD_AFTER BOARD_ORDER;
	const char *sql = by_seed ? (after ? seed_next : seed_first) : (after ? chosen_next : chosen_first);
	sqlite3_stmt *st = store_stmt(c, sql);
	int rc = SQLITE_DONE;

	*n = 0;
	if (st == NULL)
		return STORE_ERROR;
	sqlite3_bind_text(st, 1, game, -1, SQLITE_STATIC);
	if (by_seed)
		sqlite3_bind_int64(st, 2, seed);
	if (after != NULL) {
		sqlite3_bind_int64(st, 3, after->keys[0]);
		sqlite3_bind_int64(st, 4, after->keys[1]);
		sqlite3_bind_int64(st, 5, after->keys[2]);
		sqlite3_bind_int64(st, 6, after->id);
	}
	sqlite3_bind_int(st, 7, limit);
	while (*n < limit && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct store_board_entry *e = &out[(*n)++];

		e->id = sqlite3_column_int64(st, 0);
		e->score = sqlite3_column_int64(st, 1);
		e->seed = sqlite3_column_int64(st, 2);
		e->ended_at = sqlite3_column_int64(st, 3);
		e->keys[0] = sqlite3_column_int64(st, 4);
		e->keys[1] = sqlite3_column_int64(st, 5);
		e->keys[2] = sqlite3_column_int64(st, 6);
		e->lines = nullable(st, 7);
		e->pieces = nullable(st, 8);
		e->rung = nullable(st, 9);
		e->lives = nullable(st, 10);
		e->seed_chosen = sqlite3_column_int(st, 11) != 0;
		snprintf(e->account, sizeof e->account, "%s", (const char *)sqlite3_column_text(st, 12));
	}
	sqlite3_reset(st);
	if (*n < limit && rc != SQLITE_DONE) {
		store_log_error(c, "leaderboard");
		return STORE_ERROR;
	}
	return STORE_OK;
}

enum store_result
store_reviews(struct store_conn *c, const char *game, bool has_before, int64_t before_id, int limit, struct store_review_row *out, int *n, int64_t *count,
    int64_t *total)
{
	static const char first[] =
	    "SELECT v.id, v.run_id, v.created_at, v.rating, coalesce(a.name, ''), v.review "
	    "FROM reviews v INDEXED BY reviews_recent LEFT JOIN accounts a ON a.id = v.account_id "
	    "WHERE v.game = ?1 ORDER BY v.id DESC LIMIT ?4";
	static const char next[] =
	    "SELECT v.id, v.run_id, v.created_at, v.rating, coalesce(a.name, ''), v.review "
	    "FROM reviews v INDEXED BY reviews_recent LEFT JOIN accounts a ON a.id = v.account_id "
	    "WHERE v.game = ?1 AND v.id < ?2 ORDER BY v.id DESC LIMIT ?4";
	static const char stats[] = "SELECT count, total FROM review_stats WHERE game = ?1";
	sqlite3_stmt *st = store_stmt(c, has_before ? next : first);
	int rc = SQLITE_DONE;

	*n = 0;
	*count = *total = 0;
	if (st == NULL)
		return STORE_ERROR;
	sqlite3_bind_text(st, 1, game, -1, SQLITE_STATIC);
	if (has_before)
		sqlite3_bind_int64(st, 2, before_id);
	sqlite3_bind_int(st, 4, limit);
	while (*n < limit && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct store_review_row *r = &out[*n];

		r->id = sqlite3_column_int64(st, 0);
		r->run_id = sqlite3_column_int64(st, 1);
		r->created_at = sqlite3_column_int64(st, 2);
		r->rating = sqlite3_column_int(st, 3);
		snprintf(r->account, sizeof r->account, "%s", (const char *)sqlite3_column_text(st, 4));
		r->text = strdup((const char *)sqlite3_column_text(st, 5));
		if (r->text == NULL)
			break;
		(*n)++;
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
		store_log_error(c, "reviews");
		return STORE_ERROR;
	}
	if ((st = store_stmt(c, stats)) == NULL)
		return STORE_ERROR;
	sqlite3_bind_text(st, 1, game, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW) {
		*count = sqlite3_column_int64(st, 0);
		*total = sqlite3_column_int64(st, 1);
	}
	sqlite3_reset(st);
	return STORE_OK;
}

void
store_reviews_free(struct store_review_row *rows, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(rows[i].text);
}
