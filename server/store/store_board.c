/*
 * store_board.c: leaderboards and reviews.
 *
 * Both walk an index (migrations 0002, 0003 and 0008) in order and stop after one page;
 * a page starts after a cursor by a row-value comparison on the index's
 * own columns, so page 1000 costs what page 1 costs (no OFFSET).
 */
#include "store_internal.h"
#include "store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The columns every leaderboard query reads, in this order. Parameters:
 * ?1 the game, then the seed when by seed, then the cursor's four keys
 * when paging, and the limit last (PostgreSQL wants every number used). */
#define BOARD_COLUMNS \
	"SELECT r.id, r.score, r.seed, coalesce(r.ended_at, 0), r.rank1, r.rank2, r.rank3, " \
	"r.lines, r.pieces, r.rung, r.lives, r.seed_chosen, coalesce(a.name, '') FROM runs r "
#define BOARD_JOIN " LEFT JOIN accounts a ON a.id = r.account_id "
#define BOARD_ORDER " ORDER BY r.rank1 DESC, r.rank2 DESC, r.rank3 DESC, r.id DESC LIMIT "

/* The index's own WHERE (migration 0008): ended, and not abandoned. */
#define BOARD_RANKED " AND r.over = 1 AND coalesce(r.end_reason, '') <> 'abandoned'"

enum store_result
store_leaderboard(struct store_conn *c, const char *game, bool by_seed, int64_t seed,
    const struct store_board_cursor *after, int limit, struct store_board_entry *out, int *n)
{
	static const char all_first[] = BOARD_COLUMNS
	    "INDEXED BY runs_board" BOARD_JOIN "WHERE r.game = ?1" BOARD_RANKED
	    BOARD_ORDER "?2";
	static const char all_next[] = BOARD_COLUMNS
	    "INDEXED BY runs_board" BOARD_JOIN "WHERE r.game = ?1" BOARD_RANKED
	    " AND (r.rank1, r.rank2, r.rank3, r.id) < (?2, ?3, ?4, ?5)" BOARD_ORDER "?6";
	static const char seed_first[] = BOARD_COLUMNS
	    "INDEXED BY runs_board_seed" BOARD_JOIN "WHERE r.game = ?1 AND r.seed = ?2" BOARD_RANKED
	    BOARD_ORDER "?3";
	static const char seed_next[] = BOARD_COLUMNS
	    "INDEXED BY runs_board_seed" BOARD_JOIN "WHERE r.game = ?1 AND r.seed = ?2" BOARD_RANKED
	    " AND (r.rank1, r.rank2, r.rank3, r.id) < (?3, ?4, ?5, ?6)" BOARD_ORDER "?7";
	const char *sql = by_seed ? (after ? seed_next : seed_first) : (after ? all_next : all_first);
	struct store_q *q = store_q(c, sql);
	int rc = STORE_Q_DONE, p = 1;

	*n = 0;
	if (q == NULL)
		return STORE_ERROR;
	store_q_text(q, p++, game);
	if (by_seed)
		store_q_int(q, p++, seed);
	if (after != NULL) {
		store_q_int(q, p++, after->keys[0]);
		store_q_int(q, p++, after->keys[1]);
		store_q_int(q, p++, after->keys[2]);
		store_q_int(q, p++, after->id);
	}
	store_q_int(q, p, limit);
	while (*n < limit && (rc = store_q_step(q)) == STORE_Q_ROW) {
		struct store_board_entry *e = &out[(*n)++];
		const char *name;

		e->id = store_q_col_int(q, 0);
		e->score = store_q_col_int(q, 1);
		e->seed = store_q_col_int(q, 2);
		e->ended_at = store_q_col_int(q, 3);
		e->keys[0] = store_q_col_int(q, 4);
		e->keys[1] = store_q_col_int(q, 5);
		e->keys[2] = store_q_col_int(q, 6);
		e->lines = store_q_col_nullable(q, 7);
		e->pieces = store_q_col_nullable(q, 8);
		e->rung = store_q_col_nullable(q, 9);
		e->lives = store_q_col_nullable(q, 10);
		e->seed_chosen = store_q_col_int(q, 11) != 0;
		name = store_q_col_text(q, 12);
		snprintf(e->account, sizeof e->account, "%s", name != NULL ? name : "");
	}
	store_q_reset(q);
	if (*n < limit && rc != STORE_Q_DONE) {
		store_log_error(c, "leaderboard");
		return STORE_ERROR;
	}
	return STORE_OK;
}

enum store_result
store_reviews(struct store_conn *c, const char *game, bool has_before, int64_t before_id, int limit, struct store_review_row *out, int *n, int64_t *count,
    int64_t *total)
{
	/* Listed reviews have positive ids, unlisted ones negative (store.h):
	 * a range of the index, whatever the unlisted ones number. */
	static const char first[] =
	    "SELECT v.id, v.run_id, v.created_at, v.rating, coalesce(a.name, ''), v.review "
	    "FROM reviews v INDEXED BY reviews_recent LEFT JOIN accounts a ON a.id = v.account_id "
	    "WHERE v.game = ?1 AND v.id > 0 ORDER BY v.id DESC LIMIT ?2";
	static const char next[] =
	    "SELECT v.id, v.run_id, v.created_at, v.rating, coalesce(a.name, ''), v.review "
	    "FROM reviews v INDEXED BY reviews_recent LEFT JOIN accounts a ON a.id = v.account_id "
	    "WHERE v.game = ?1 AND v.id < ?2 AND v.id > 0 ORDER BY v.id DESC LIMIT ?3";
	static const char stats[] = "SELECT count, total FROM review_stats WHERE game = ?1";
	struct store_q *q = store_q(c, has_before ? next : first);
	int rc = STORE_Q_DONE;

	*n = 0;
	*count = *total = 0;
	if (q == NULL)
		return STORE_ERROR;
	store_q_text(q, 1, game);
	if (has_before)
		store_q_int(q, 2, before_id);
	store_q_int(q, has_before ? 3 : 2, limit);
	while (*n < limit && (rc = store_q_step(q)) == STORE_Q_ROW) {
		struct store_review_row *r = &out[*n];
		const char *name = store_q_col_text(q, 4), *text = store_q_col_text(q, 5);

		r->id = store_q_col_int(q, 0);
		r->run_id = store_q_col_int(q, 1);
		r->created_at = store_q_col_int(q, 2);
		r->rating = (int)store_q_col_int(q, 3);
		snprintf(r->account, sizeof r->account, "%s", name != NULL ? name : "");
		r->text = strdup(text != NULL ? text : "");
		if (r->text == NULL)
			break;
		(*n)++;
	}
	store_q_reset(q);
	if (rc == STORE_Q_FAIL) {
		store_log_error(c, "reviews");
		return STORE_ERROR;
	}
	if ((q = store_q(c, stats)) == NULL)
		return STORE_ERROR;
	store_q_text(q, 1, game);
	if (store_q_step(q) == STORE_Q_ROW) {
		*count = store_q_col_int(q, 0);
		*total = store_q_col_int(q, 1);
	}
	store_q_reset(q);
	return STORE_OK;
}

void
store_reviews_free(struct store_review_row *rows, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(rows[i].text);
}
