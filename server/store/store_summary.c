/*
 * store_summary.c: the summary an account's page reads (migration 0012),
 * kept by the store in the transaction that writes the run it summarises.
 *
 * account_games counts each account's runs of a game, whatever their
 * status: one more when a run is inserted, fewer when the sweep deletes
 * unplayed ones. account_seeds keeps, per account, game and seed, the best
 * ranked run (ended, not abandoned; rank1, rank2, rank3 higher is better,
 * then the larger id: the leaderboards' order) and how many ranked runs the
 * seed has. A run starts ranking once, when its head first ends without
 * being abandoned: every game refuses a move after the end, so a ranked
 * run's head and keys never move again, and the sweep deletes only runs
 * that never ended. The upkeep therefore costs a statement when a run
 * starts and two when it ends, and nothing on the moves in between.
 *
 * Should a ranked run's keys ever change or it stop ranking, its seed's
 * row is computed again from the runs (summary_seed_rebuild): correct,
 * and as slow as the query the summary replaced, for one seed.
 */
#include "store_internal.h"
#include "store.h"

#include <stdlib.h>
#include <string.h>

enum store_result
store_summary_run_added(struct store_conn *c, int64_t account_id, const char *game, int64_t n)
{
	static const char sql[] =
	    "INSERT INTO account_games (account_id, game, nruns) VALUES (?1, ?2, ?3) "
	    "ON CONFLICT (account_id, game) DO UPDATE SET nruns = account_games.nruns + excluded.nruns";
	struct store_q *q = store_q(c, sql);

	if (q == NULL)
		return STORE_ERROR;
	store_q_int(q, 1, account_id);
	store_q_text(q, 2, game);
	store_q_int(q, 3, n);
	return store_q_exec(q);
}

/* The stored keys lose to the new run's: the CASE of every column below. */
#define BETTER \
	"(excluded.rank1, excluded.rank2, excluded.rank3, excluded.best_id) > " \
	"(account_seeds.rank1, account_seeds.rank2, account_seeds.rank3, account_seeds.best_id)"

enum store_result
store_summary_run_ranked(struct store_conn *c, int64_t account_id, const char *game, int64_t seed,
    int64_t id, const int64_t rank[3])
{
	static const char sql[] =
	    "INSERT INTO account_seeds (account_id, game, seed, best_id, rank1, rank2, rank3, nruns) "
	    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 1) "
	    "ON CONFLICT (account_id, game, seed) DO UPDATE SET nruns = account_seeds.nruns + 1, "
	    "best_id = CASE WHEN " BETTER " THEN excluded.best_id ELSE account_seeds.best_id END, "
	    "rank1 = CASE WHEN " BETTER " THEN excluded.rank1 ELSE account_seeds.rank1 END, "
	    "rank2 = CASE WHEN " BETTER " THEN excluded.rank2 ELSE account_seeds.rank2 END, "
	    "rank3 = CASE WHEN " BETTER " THEN excluded.rank3 ELSE account_seeds.rank3 END";
	struct store_q *q = store_q(c, sql);

	if (q == NULL)
		return STORE_ERROR;
	store_q_int(q, 1, account_id);
	store_q_text(q, 2, game);
	store_q_int(q, 3, seed);
	store_q_int(q, 4, id);
	store_q_int(q, 5, rank[0]);
	store_q_int(q, 6, rank[1]);
	store_q_int(q, 7, rank[2]);
	return store_q_exec(q);
}

/* The seed's row computed again from its ranked runs (none: no row). */
static enum store_result
summary_seed_rebuild(struct store_conn *c, int64_t account_id, const char *game, int64_t seed)
{
	static const char del[] =
	    "DELETE FROM account_seeds WHERE account_id = ?1 AND game = ?2 AND seed = ?3";
	static const char ins[] =
	    "INSERT INTO account_seeds (account_id, game, seed, best_id, rank1, rank2, rank3, nruns) "
	    "SELECT ?1, ?2, ?3, b.id, b.rank1, b.rank2, b.rank3, "
	    "(SELECT count(*) FROM runs WHERE account_id = ?1 AND game = ?2 AND seed = ?3 AND over = 1 "
	    "AND coalesce(end_reason, '') <> 'abandoned') "
	    "FROM (SELECT id, rank1, rank2, rank3 FROM runs WHERE account_id = ?1 AND game = ?2 "
	    "AND seed = ?3 AND over = 1 AND coalesce(end_reason, '') <> 'abandoned' "
	    "ORDER BY rank1 DESC, rank2 DESC, rank3 DESC, id DESC LIMIT 1) b";
	const char *const sql[] = { del, ins };
	int i;

	for (i = 0; i < 2; i++) {
		struct store_q *q = store_q(c, sql[i]);

		if (q == NULL)
			return STORE_ERROR;
		store_q_int(q, 1, account_id);
		store_q_text(q, 2, game);
		store_q_int(q, 3, seed);
		if (store_q_exec(q) != STORE_OK)
			return STORE_ERROR;
	}
	return STORE_OK;
}

static bool
ranks(bool over, const char *end_reason)
{
	return over && (end_reason == NULL || strcmp(end_reason, "abandoned") != 0);
}

enum store_result
store_summary_before(struct store_conn *c, int64_t id, struct store_summary_run *out)
{
	static const char sql[] =
	    "SELECT coalesce(account_id, 0), game, seed, over, coalesce(end_reason, ''), "
	    "rank1, rank2, rank3 FROM runs WHERE id = ?1";
	struct store_q *q = store_q(c, sql);
	enum store_result ret = STORE_ERROR;
	char end_reason[16];
	int rc;

	memset(out, 0, sizeof *out);
	if (q == NULL)
		return STORE_ERROR;
	store_q_int(q, 1, id);
	rc = store_q_step(q);
	if (rc == STORE_Q_ROW) {
		out->id = id;
		out->account_id = store_q_col_int(q, 0);
		store_q_col_copy(q, 1, out->game, sizeof out->game);
		out->seed = store_q_col_int(q, 2);
		store_q_col_copy(q, 4, end_reason, sizeof end_reason);
		out->ranked = ranks(store_q_col_int(q, 3) != 0, end_reason);
		out->rank[0] = store_q_col_int(q, 5);
		out->rank[1] = store_q_col_int(q, 6);
		out->rank[2] = store_q_col_int(q, 7);
		ret = STORE_OK;
	} else if (rc == STORE_Q_DONE)
		ret = STORE_NOT_FOUND;
	store_q_reset(q);
	return ret;
}

enum store_result
store_summary_after(struct store_conn *c, const struct store_summary_run *was,
    const struct game_summary *sum)
{
	bool now = ranks(sum->over, sum->end_reason);

	if (was->account_id <= 0 || (!was->ranked && !now))
		return STORE_OK;
	if (!was->ranked)
		return store_summary_run_ranked(c, was->account_id, was->game, was->seed, was->id,
		    sum->rank);
	if (now && memcmp(was->rank, sum->rank, sizeof was->rank) == 0)
		return STORE_OK;
	return summary_seed_rebuild(c, was->account_id, was->game, was->seed);
}

/* One account's runs of one game that a sweep deleted. */
struct gone {
	int64_t account_id, n;
	char    game[24];
};

enum store_result
store_summary_runs_deleted(struct store_conn *c, struct store_q *q, int64_t *ndeleted)
{
	struct gone *g = NULL;
	int ng = 0, cap = 0, rc, i;
	enum store_result ret = STORE_ERROR;

	*ndeleted = 0;
	while ((rc = store_q_step(q)) == STORE_Q_ROW) {
		int64_t account_id = store_q_col_nullable(q, 0);
		const char *game = store_q_col_text(q, 1);

		++*ndeleted;
		if (account_id < 0 || game == NULL)
			continue;
		for (i = 0; i < ng; i++)
			if (g[i].account_id == account_id && strcmp(g[i].game, game) == 0)
				break;
		if (i == ng) {
			if (ng == cap) {
				struct gone *more = realloc(g, (size_t)(cap = cap ? 2 * cap : 16) * sizeof *g);

				if (more == NULL) {
					rc = STORE_Q_FAIL;
					break;
				}
				g = more;
			}
			memset(&g[ng], 0, sizeof g[ng]);
			g[ng].account_id = account_id;
			store_q_col_copy(q, 1, g[ng].game, sizeof g[ng].game);
			ng++;
		}
		g[i].n++;
	}
	store_q_reset(q);
	if (rc != STORE_Q_DONE)
		goto done;
	for (i = 0; i < ng; i++)
		if (store_summary_run_added(c, g[i].account_id, g[i].game, -g[i].n) != STORE_OK)
			goto done;
	ret = STORE_OK;
done:
	free(g);
	return ret;
}
