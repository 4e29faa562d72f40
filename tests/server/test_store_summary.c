/*
 * test_store_summary.c: the summary of each account's runs (migration
 * 0012, server/store/store_summary.c) against what the account page
 * computed before it, from the runs themselves: the count of runs per
 * account and game, and the window query that ranked every ended run of
 * an account for its best per seed.
 *
 * Random operations through the store's own writers, in jobs of several
 * (so some share a transaction): runs inserted (anonymous ones among
 * them, a few already over), heads moved (playing on, ending with a
 * reason, abandoned, with keys drawn from a small range so that ties fall
 * to the id), heads of ended runs moved to another end (no game does it:
 * each refuses a move after the end; the store must stay right anyway),
 * and the sweep of unplayed runs with a small
 * limit. After every job, for every account and game, the count and the
 * best seeds (all of them, every column the page shows) must equal the
 * model's. At the end the summary is dropped and migration 0012 is applied
 * again over the same runs: its fill must give the same answers. On
 * SQLite, and on PostgreSQL when ARCADED_TEST_DB names one
 * (tests/server/with_pg.py).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "migrations.h"
#include "store_internal.h"
#include "store.h"
#include "tap.h"
#include "xorshift.h"

#define NACCOUNTS 5
#define NGAMES 3
#define NSEEDS 6
#define NJOBS 400
#define BEST_MAX 64

static const char *const games[NGAMES] = { "stackfall", "duskcourt", "hatetris" };
static struct store *S;
static int64_t A[NACCOUNTS];
static uint64_t rng = 0x3c6ef372fe94f82bu;
static int64_t clock_ms = 1000;

/* The runs the test made and has not seen swept. */
static struct live {
	int64_t id;
	int64_t step;
	bool    over;
} runs[NJOBS * 8];
static int nruns;

static enum store_result
accounts_job(struct store_conn *c, void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < NACCOUNTS; i++) {
		struct store_account_new n;
		char name[16];

		memset(&n, 0, sizeof n);
		snprintf(name, sizeof name, "acct%d", i);
		n.name = name;
		snprintf(n.key_id, sizeof n.key_id, "KEY%013d", i);
		n.now = 1000;
		if (store_account_create(c, &n) != STORE_OK)
			return STORE_ERROR;
		A[i] = n.account_id;
	}
	return STORE_OK;
}

static int64_t
draw(uint32_t n)
{
	return xorshift_below(&rng, n);
}

/* A summary as a game writes it: playing, or over with a reason (NULL
 * sometimes, as for a game without reasons), keys from a small range. */
static void
summary(struct game_summary *s, bool over)
{
	static const char *const reasons[] = { "top_out", "abandoned", "piece_limit", NULL };

	memset(s, 0, sizeof *s);
	s->over = over;
	s->status = over ? "over" : "playing";
	s->end_reason = over ? reasons[draw(4)] : NULL;
	s->score = draw(4) * 100;
	s->lines = draw(3);
	s->pieces = -1;
	s->rung = -1;
	s->lives = -1;
	s->rank[0] = s->score;
	s->rank[1] = s->lines;
	s->rank[2] = -(int64_t)draw(2);
}

static enum store_result
insert(struct store_conn *c)
{
	static const uint8_t state[4] = { 1, 2, 3, 4 };
	struct store_run_new r;

	memset(&r, 0, sizeof r);
	r.game = games[draw(NGAMES)];
	r.rules = "test-v1";
	r.account_id = draw(6) == 0 ? 0 : A[draw(NACCOUNTS)];
	r.seed = draw(NSEEDS);
	r.state = state;
	r.nstate = sizeof state;
	summary(&r.sum, draw(10) == 0);
	r.now = ++clock_ms;
	if (store_run_insert(c, &r) != STORE_OK)
		return STORE_ERROR;
	runs[nruns++] = (struct live){ r.id, 0, r.sum.over };
	return STORE_OK;
}

static enum store_result
advance(struct store_conn *c)
{
	static const uint8_t state[4] = { 5, 6, 7, 8 };
	struct store_run_advance a;
	struct live *x;
	enum store_result rc;

	if (nruns == 0)
		return STORE_OK;
	x = &runs[draw((uint32_t)nruns)];
	/* An ended run moves again once in a while: no game does it. */
	if (x->over && draw(8) != 0)
		return STORE_OK;
	memset(&a, 0, sizeof a);
	a.id = x->id;
	a.from_step = x->step;
	a.nmoves = 1;
	a.actions[0] = "{\"m\":1}";
	a.state = state;
	a.nstate = sizeof state;
	summary(&a.sum, x->over || draw(3) == 0);
	a.now = ++clock_ms;
	rc = store_run_advance(c, &a);
	if (rc == STORE_OK) {
		x->step++;
		x->over = a.sum.over;
	}
	return rc == STORE_ERROR ? STORE_ERROR : STORE_OK;
}

static int64_t swept;

static enum store_result
sweep(struct store_conn *c)
{
	struct store_sweep w = { .puzzles_before = 0, .unplayed_before = clock_ms - (int64_t)draw(40),
		.limit = 1 + (int)draw(4) };
	struct store_run_head h;
	int i, kept = 0;

	if (store_sweep(c, &w) != STORE_OK)
		return STORE_ERROR;
	swept += w.runs;
	for (i = 0; i < nruns; i++) {
		enum store_result rc = store_run_head(c, runs[i].id, &h);

		if (rc == STORE_OK)
			runs[kept++] = runs[i];
		else if (rc != STORE_NOT_FOUND)
			return STORE_ERROR;
	}
	nruns = kept;
	return STORE_OK;
}

static enum store_result
ops_job(struct store_conn *c, void *arg)
{
	int i, n = 1 + (int)draw(6);

	(void)arg;
	for (i = 0; i < n; i++) {
		uint32_t k = xorshift_below(&rng, 100);
		enum store_result rc = k < 45 ? insert(c) : k < 95 ? advance(c) : sweep(c);

		if (rc != STORE_OK)
			return rc;
	}
	return STORE_OK;
}

/* ---- the model: the queries the page ran before the summary ---- */

static int64_t
model_count(struct store_conn *c, int64_t account, const char *game)
{
	static const char sql[] = "SELECT count(*) FROM runs WHERE account_id = ?1 AND game = ?2";
	struct store_q *q = store_q(c, sql);
	int64_t n = -1;

	if (q == NULL)
		return -1;
	store_q_int(q, 1, account);
	store_q_text(q, 2, game);
	if (store_q_step(q) == STORE_Q_ROW)
		n = store_q_col_int(q, 0);
	store_q_reset(q);
	return n;
}

static int
model_best(struct store_conn *c, int64_t account, const char *game, struct store_history_run *out)
{
	static const char sql[] =
	    "SELECT runs.id, seed, seed_chosen, status, over, coalesce(end_reason, ''), score, lines, "
	    "pieces, rung, lives, step, created_at, coalesce(ended_at, 0), b.nruns FROM runs "
	    "JOIN (SELECT id AS best_id, count(*) OVER w AS nruns, "
	    "row_number() OVER (w ORDER BY rank1 DESC, rank2 DESC, rank3 DESC, id DESC) AS k "
	    "FROM runs WHERE account_id = ?1 AND game = ?2 AND over = 1 "
	    "AND coalesce(end_reason, '') <> 'abandoned' WINDOW w AS (PARTITION BY seed)) b "
	    "ON b.best_id = runs.id WHERE b.k = 1 "
	    "ORDER BY rank1 DESC, rank2 DESC, rank3 DESC, id DESC LIMIT ?3";
	struct store_q *q = store_q(c, sql);
	int n = 0, rc;

	if (q == NULL)
		return -1;
	store_q_int(q, 1, account);
	store_q_text(q, 2, game);
	store_q_int(q, 3, BEST_MAX);
	while (n < BEST_MAX && (rc = store_q_step(q)) == STORE_Q_ROW) {
		struct store_history_run *r = &out[n++];

		memset(r, 0, sizeof *r);
		r->id = store_q_col_int(q, 0);
		r->seed = store_q_col_int(q, 1);
		r->seed_chosen = store_q_col_int(q, 2) != 0;
		store_q_col_copy(q, 3, r->status, sizeof r->status);
		r->over = store_q_col_int(q, 4) != 0;
		store_q_col_copy(q, 5, r->end_reason, sizeof r->end_reason);
		r->score = store_q_col_int(q, 6);
		r->lines = store_q_col_nullable(q, 7);
		r->pieces = store_q_col_nullable(q, 8);
		r->rung = store_q_col_nullable(q, 9);
		r->lives = store_q_col_nullable(q, 10);
		r->moves = store_q_col_int(q, 11);
		r->created_at = store_q_col_int(q, 12);
		r->ended_at = store_q_col_int(q, 13);
		r->runs = store_q_col_int(q, 14);
	}
	store_q_reset(q);
	return n;
}

static bool
same_run(const struct store_history_run *a, const struct store_history_run *b)
{
	return a->id == b->id && a->seed == b->seed && a->seed_chosen == b->seed_chosen &&
	    strcmp(a->status, b->status) == 0 && a->over == b->over &&
	    strcmp(a->end_reason, b->end_reason) == 0 && a->score == b->score &&
	    a->lines == b->lines && a->pieces == b->pieces && a->rung == b->rung &&
	    a->lives == b->lives && a->moves == b->moves && a->created_at == b->created_at &&
	    a->ended_at == b->ended_at && a->runs == b->runs;
}

/* Every account and game: the summary's answers against the model's.
 * arg: where to write the first difference (a char[256]). */
static int64_t compared_seeds;

static enum store_result
check_job(struct store_conn *c, void *arg)
{
	static struct store_history_run got[BEST_MAX], want[BEST_MAX];
	char *why = arg;
	int i, g, k, ngot, nwant;

	for (i = 0; i < NACCOUNTS; i++)
		for (g = 0; g < NGAMES; g++) {
			int64_t count, model = model_count(c, A[i], games[g]);

			if (store_account_run_count(c, A[i], games[g], &count) != STORE_OK || model < 0) {
				snprintf(why, 256, "a count failed");
				return STORE_ERROR;
			}
			if (count != model) {
				snprintf(why, 256, "%s of account %d: %lld runs counted, %lld stored",
				    games[g], i, (long long)count, (long long)model);
				return STORE_OK;
			}
			nwant = model_best(c, A[i], games[g], want);
			if (store_account_best(c, A[i], games[g], BEST_MAX, got, &ngot) != STORE_OK ||
			    nwant < 0) {
				snprintf(why, 256, "a best read failed");
				return STORE_ERROR;
			}
			if (ngot != nwant) {
				snprintf(why, 256, "%s of account %d: %d best seeds, the model %d",
				    games[g], i, ngot, nwant);
				return STORE_OK;
			}
			for (k = 0; k < ngot; k++)
				if (!same_run(&got[k], &want[k])) {
					snprintf(why, 256, "%s of account %d, seed #%d: run %lld (%lld runs), "
					    "the model run %lld (%lld runs)", games[g], i, k,
					    (long long)got[k].id, (long long)got[k].runs,
					    (long long)want[k].id, (long long)want[k].runs);
					return STORE_OK;
				}
			compared_seeds += ngot;
		}
	return STORE_OK;
}

/* The summary dropped and migration 0012 applied again over the runs. */
static enum store_result
refill_job(struct store_conn *c, void *arg)
{
	const struct migration *list = store_is_pg(c) ? pg_migrations : migrations;
	char err[256];
	int i;

	(void)arg;
	for (i = 0; i < nmigrations; i++)
		if (strcmp(list[i].name, "account_summary") == 0)
			break;
	if (i == nmigrations ||
	    store_conn_exec(c, "DROP TABLE account_seeds; DROP TABLE account_games", err, sizeof err) != 0 ||
	    store_conn_exec(c, list[i].sql, err, sizeof err) != 0) {
		diag("refill: %s", i == nmigrations ? "no migration account_summary" : err);
		return STORE_ERROR;
	}
	return STORE_OK;
}

int
main(void)
{
	char dir[] = "/tmp/arcaded-summary-XXXXXX", path[1024], err[512], why[256] = "";
	int j, checks = 0;

	if (mkdtemp(dir) == NULL)
		return 1;
	log_set_level(LOG_ERROR);
	if (getenv("ARCADED_TEST_DB") != NULL)
		snprintf(path, sizeof path, "%s", getenv("ARCADED_TEST_DB"));
	else
		snprintf(path, sizeof path, "%s/s.db", dir);
	S = store_open(path, SYNC_NORMAL, 1, err, sizeof err);
	if (!ok(S != NULL, "the store opens (%s)", S ? "ok" : err))
		return tap_done();
	ok(store_call(S, accounts_job, NULL) == STORE_JOB_COMMITTED, "%d accounts", NACCOUNTS);

	for (j = 0; j < NJOBS && why[0] == '\0'; j++) {
		if (store_call(S, ops_job, NULL) != STORE_JOB_COMMITTED) {
			snprintf(why, sizeof why, "job %d failed", j);
			break;
		}
		if (store_call(S, check_job, why) != STORE_JOB_COMMITTED && why[0] == '\0')
			snprintf(why, sizeof why, "check %d failed", j);
		checks++;
	}
	ok(why[0] == '\0', "%d jobs of random runs: the summary equals the window query after each "
	    "(%s)", checks, why[0] ? why : "all equal");
	diag("%d runs left, %lld swept, %lld best seeds compared", nruns, (long long)swept,
	    (long long)compared_seeds);
	ok(swept > 0 && compared_seeds > 0, "the sweep deleted runs and best seeds were compared");

	ok(store_call(S, refill_job, NULL) == STORE_JOB_COMMITTED, "migration 0012 applied again");
	why[0] = '\0';
	ok(store_call(S, check_job, why) == STORE_JOB_COMMITTED && why[0] == '\0',
	    "its fill from the runs equals the window query (%s)", why[0] ? why : "all equal");
	store_close(S);
	snprintf(path, sizeof path, "rm -rf %s", dir);
	if (system(path) != 0)
		diag("could not remove %s", dir);
	return tap_done();
}
