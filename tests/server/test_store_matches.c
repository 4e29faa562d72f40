/*
 * test_store_matches.c: the store's match functions on a real database:
 * what goes in comes back, and both compare-and-sets refuse what they
 * must, writing nothing:
 *   - store_match_join: a stale seat count, an account seated already, a
 *     match out of the lobby, a full match;
 *   - store_match_update: a stale turn, a stale status;
 *   - store_match_set_pending and store_match_advance, the narrow writes
 *     of a move: a stale turn, a match no longer playing; what they write
 *     and what they leave as it was;
 * then the turns in order, results, ratings (absent ones reported as not
 * found, the list best first) and the playing matches; a real-time
 * match's inputs (migration 0011) in order, a batch stored again (a
 * commit whose outcome was unknown) taken as done, and the clock read
 * back.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "store.h"
#include "tap.h"

static struct store *S;
static int64_t A[3];   /* accounts */
static int64_t M;      /* the match */

/* Runs fn(c, arg) as a job and answers what it returned (or ERROR when the
 * job did not commit). */
struct call {
	enum store_result (*fn)(struct store_conn *c, void *arg);
	void *arg;
	enum store_result rc;
};

static enum store_result
call_job(struct store_conn *c, void *arg)
{
	struct call *k = arg;

	k->rc = k->fn(c, k->arg);
	return k->rc == STORE_ERROR ? STORE_ERROR : STORE_OK;
}

static enum store_result
call(enum store_result (*fn)(struct store_conn *c, void *arg), void *arg)
{
	struct call k = { fn, arg, STORE_ERROR };

	return store_call(S, call_job, &k) == STORE_JOB_COMMITTED ? k.rc : STORE_ERROR;
}

static enum store_result
accounts_job(struct store_conn *c, void *arg)
{
	static const char *const names[] = { "ann", "ben", "cat" };
	int i;

	(void)arg;
	for (i = 0; i < 3; i++) {
		struct store_account_new n;

		memset(&n, 0, sizeof n);
		n.name = names[i];
		snprintf(n.key_id, sizeof n.key_id, "KEY%013d", i);
		n.now = 1000;
		if (store_account_create(c, &n) != STORE_OK)
			return STORE_ERROR;
		A[i] = n.account_id;
	}
	return STORE_OK;
}

static enum store_result
insert_job(struct store_conn *c, void *arg)
{
	struct store_match_new *n = arg;
	enum store_result rc = store_match_insert(c, n);

	M = n->id;
	return rc;
}

/* An insert that leaves M alone (it is expected to be refused). */
static enum store_result
insert_again_job(struct store_conn *c, void *arg)
{
	return store_match_insert(c, arg);
}

struct join {
	int from;
	int64_t account;
};

static enum store_result
join_job(struct store_conn *c, void *arg)
{
	struct join *j = arg;

	return store_match_join(c, M, j->from, j->account, NULL, 2000);
}

static enum store_result
update_job(struct store_conn *c, void *arg)
{
	return store_match_update(c, arg);
}

struct pending {
	int64_t turn;
	const uint8_t *p;
	size_t n;
};

static enum store_result
pending_job(struct store_conn *c, void *arg)
{
	struct pending *p = arg;

	return store_match_set_pending(c, M, p->turn, p->p, p->n);
}

static enum store_result
advance_job(struct store_conn *c, void *arg)
{
	return store_match_advance(c, arg);
}

struct turn {
	int64_t turn;
	const char *moves;
};

static enum store_result
turn_job(struct store_conn *c, void *arg)
{
	struct turn *t = arg;

	return store_match_turn_insert(c, M, t->turn, t->moves, 3000);
}

static enum store_result
results_job(struct store_conn *c, void *arg)
{
	struct store_match_result r[2] = {
		{ 0, 1, 300, 2, 1, 1500, 1662.3 },
		{ 1, 2, 0, 1, 2, 1500, 1337.7 },
	};
	struct store_rating rt[2] = {
		{ A[0], "", 1662.3, 290.3, 0.06, 1, true },
		{ A[1], "", 1337.7, 290.3, 0.06, 1, true },
	};

	(void)arg;
	if (store_match_results(c, M, r, 2) != STORE_OK)
		return STORE_ERROR;
	return store_ratings_put(c, rt, 2, true, 4000);
}

struct inputs {
	int64_t from;
	const struct store_match_input *in;
	size_t n;
};

static enum store_result
inputs_job(struct store_conn *c, void *arg)
{
	struct inputs *x = arg;

	return store_match_inputs_insert(c, M, x->from, x->in, x->n);
}

static struct store_match_row row;

static void
read_row(void)
{
	struct store_conn *c = store_reader(S);

	store_match_row_free(&row);
	ok(store_match_get(c, M, &row) == STORE_OK, "the match reads back");
	store_reader_release(S, c);
}

static void
each(void *ctx, int64_t id, int64_t turn, int64_t deadline_at)
{
	int *n = ctx;

	if (id == M && turn == 1 && deadline_at == 9000)
		(*n)++;
	else
		(*n) += 100;
}

int
main(void)
{
	char dir[] = "/tmp/arcaded-matches-XXXXXX", path[1024], err[512];
	struct store_match_new n;
	struct store_match_update u;
	struct join j;
	struct store_conn *c;
	static const uint8_t state[5] = { 1, 2, 3, 4, 5 }, state2[3] = { 9, 9, 9 };
	struct store_rating got[3], list[5];
	json_t *turns;
	int nlist = 0, seen = 0;
	int64_t above = -1;

	if (mkdtemp(dir) == NULL)
		return 1;
	log_set_level(LOG_ERROR);
	/* ARCADED_TEST_DB: a PostgreSQL URL (tests/server/with_pg.py). */
	if (getenv("ARCADED_TEST_DB") != NULL)
		snprintf(path, sizeof path, "%s", getenv("ARCADED_TEST_DB"));
	else
		snprintf(path, sizeof path, "%s/m.db", dir);
	S = store_open(path, SYNC_NORMAL, 1, err, sizeof err);
	if (!ok(S != NULL, "the store opens (%s)", S ? "ok" : err))
		return tap_done();
	ok(call(accounts_job, NULL) == STORE_OK, "three accounts");

	memset(&n, 0, sizeof n);
	n = (struct store_match_new){ .account_id = A[0], .players = 2, .turn_seconds = 10,
		.turn_cap = 1000, .seed = 7, .seed_chosen = true, .rated = false, .rules = "versus-v1",
		.now = 1000, .lobbies_max = 1 };
	ok(call(insert_job, &n) == STORE_OK && M > 0, "a match is inserted under a random id");
	{
		struct store_match_new again = n;

		again.id = 0;
		is_int(call(insert_again_job, &again), STORE_CONFLICT,
		    "a second lobby of the same creator, past its bound of 1, is refused");
		ok(again.id == 0, "and no id was drawn for it");
	}
	read_row();
	ok(strcmp(row.status, "lobby") == 0 && row.players == 2 && row.joined == 1 && row.nseats == 1 &&
	    row.seats[0].account_id == A[0] && strcmp(row.seats[0].name, "ann") == 0 &&
	    row.seed == 7 && row.seed_chosen && !row.rated && row.turn == 0 && row.nstate == 0 &&
	    row.deadline_at == 0 && isnan(row.seats[0].rating_before),
	    "in the lobby, its creator in seat 0");

	j = (struct join){ 0, A[1] };
	is_int(call(join_job, &j), STORE_CONFLICT, "a join from a stale seat count is refused");
	j = (struct join){ 1, A[0] };
	is_int(call(join_job, &j), STORE_CONFLICT, "an account seated already is refused");
	read_row();
	ok(row.joined == 1 && row.nseats == 1, "and neither wrote anything");
	j = (struct join){ 1, A[1] };
	is_int(call(join_job, &j), STORE_OK, "the second account takes seat 1");
	j = (struct join){ 2, A[2] };
	is_int(call(join_job, &j), STORE_CONFLICT, "a full match is refused");
	read_row();
	ok(row.joined == 2 && row.nseats == 2 && row.seats[1].account_id == A[1], "two seats");

	memset(&u, 0, sizeof u);
	u = (struct store_match_update){ .id = M, .from_turn = 0, .from_status = "lobby",
		.status = "playing", .turn = 0, .state = state, .nstate = sizeof state,
		.deadline_at = 5000, .started_at = 2500 };
	is_int(call(update_job, &u), STORE_OK, "the lobby starts (0, lobby) -> (0, playing)");
	j = (struct join){ 2, A[2] };
	is_int(call(join_job, &j), STORE_CONFLICT, "no join once it plays");
	is_int(call(update_job, &u), STORE_CONFLICT, "the same update again finds the status moved");
	u.from_status = "playing";
	u.from_turn = 0;
	u.turn = 1;
	u.state = state2;
	u.nstate = sizeof state2;
	u.last_turn = "{\"turn\":1}";
	u.deadline_at = 9000;
	is_int(call(update_job, &u), STORE_OK, "turn 1 resolves: (0, playing) -> (1, playing)");
	u.turn = 2;
	is_int(call(update_job, &u), STORE_CONFLICT, "a second writer of turn 1 loses");
	read_row();
	ok(row.turn == 1 && row.nstate == 3 && memcmp(row.state, state2, 3) == 0 &&
	    row.deadline_at == 9000 && row.started_at == 2500 && row.npending == 0 &&
	    row.last_turn != NULL && strcmp(row.last_turn, "{\"turn\":1}") == 0,
	    "the row is the winner's: turn 1, its state, deadline and events");

	c = store_reader(S);
	ok(store_matches_playing(c, each, &seen) == STORE_OK && seen == 1,
	    "the playing matches list it with its turn and deadline");
	store_reader_release(S, c);

	{
		static const uint8_t mv[10] = { 1, 0, 2, 3, 0, 0, 0, 0, 0, 0 }, state3[4] = { 7, 7, 7, 7 };
		static const uint8_t totals[2] = { 4, 2 };
		struct pending p = { 0, mv, sizeof mv };
		struct store_match_update a;

		is_int(call(pending_job, &p), STORE_CONFLICT, "a pending move for a stale turn is refused");
		p.turn = 1;
		is_int(call(pending_job, &p), STORE_OK, "a pending move at turn 1 is written");
		read_row();
		ok(row.turn == 1 && row.npending == sizeof mv && memcmp(row.pending, mv, sizeof mv) == 0 &&
		    row.nstate == 3 && memcmp(row.state, state2, 3) == 0 && row.deadline_at == 9000 &&
		    strcmp(row.status, "playing") == 0 && strcmp(row.last_turn, "{\"turn\":1}") == 0,
		    "only the pending moves changed");
		a = (struct store_match_update){ .id = M, .from_turn = 0, .turn = 2, .state = state3,
			.nstate = sizeof state3, .totals = totals, .ntotals = sizeof totals,
			.last_turn = "{\"turn\":2}", .deadline_at = 11000 };
		is_int(call(advance_job, &a), STORE_CONFLICT, "an advance from a stale turn is refused");
		a.from_turn = 1;
		is_int(call(advance_job, &a), STORE_OK, "turn 2 resolves: (1, playing) -> (2, playing)");
		is_int(call(advance_job, &a), STORE_CONFLICT, "a second writer of turn 2 loses");
		read_row();
		ok(row.turn == 2 && row.npending == 0 && row.nstate == 4 && memcmp(row.state, state3, 4) == 0 &&
		    row.ntotals == 2 && memcmp(row.totals, totals, 2) == 0 && row.deadline_at == 11000 &&
		    strcmp(row.last_turn, "{\"turn\":2}") == 0 && strcmp(row.status, "playing") == 0 &&
		    row.started_at == 2500 && row.finished_at == 0 && row.end_reason[0] == '\0' &&
		    row.certificate == NULL, "the turn's columns moved, the rest stayed");
		u = (struct store_match_update){ .id = M, .from_turn = 2, .from_status = "playing",
			.status = "finished", .turn = 2, .state = state3, .nstate = sizeof state3,
			.end_reason = "last_standing", .started_at = 2500, .finished_at = 12000 };
		is_int(call(update_job, &u), STORE_OK, "the match finishes");
		p.turn = 2;
		is_int(call(pending_job, &p), STORE_CONFLICT, "no pending move once it is finished");
		a.from_turn = 2;
		a.turn = 3;
		is_int(call(advance_job, &a), STORE_CONFLICT, "no advance once it is finished");
		read_row();
		ok(row.turn == 2 && row.npending == 0 && strcmp(row.status, "finished") == 0,
		    "and neither wrote anything");
	}

	{
		struct turn t2 = { 2, "[\"place 0 0\",\"missed\"]" }, t1 = { 1, "[\"place 0 4\",\"resign\"]" };

		ok(call(turn_job, &t2) == STORE_OK && call(turn_job, &t1) == STORE_OK, "two turns stored");
		ok(call(turn_job, &t1) == STORE_ERROR, "a turn stored twice is an error (its key)");
	}
	c = store_reader(S);
	turns = store_match_turns(c, M);
	store_reader_release(S, c);
	{
		char *text = turns ? json_dumps(turns, JSON_COMPACT) : NULL;

		ok(text != NULL && strcmp(text, "[[\"place 0 4\",\"resign\"],[\"place 0 0\",\"missed\"]]") == 0,
		    "the turns come back in order (%s)", text ? text : "NULL");
		free(text);
	}
	json_decref(turns);

	{
		static const struct store_match_input in[3] = { { 0, 1, "L" }, { 0, 0, "v" }, { 7, 1,
			"disconnect" } };
		struct inputs first = { 0, in, 2 }, again = { 0, in, 3 };
		struct store_match_input *got_in = NULL;
		size_t ngot = 0;

		ok(call(inputs_job, &first) == STORE_OK && call(inputs_job, &again) == STORE_OK,
		    "inputs stored, and a batch stored again from the start (its first two there already)");
		c = store_reader(S);
		ok(store_match_inputs(c, M, &got_in, &ngot) == STORE_OK && ngot == 3 && got_in[0].seat == 1 &&
		    strcmp(got_in[1].text, "v") == 0 && got_in[2].tick == 7 &&
		    strcmp(got_in[2].text, "disconnect") == 0, "the inputs come back in order, once each");
		free(got_in);
		ok(store_match_inputs(c, M + 1, &got_in, &ngot) == STORE_OK && ngot == 0 && got_in == NULL,
		    "a match without inputs has none");
		store_reader_release(S, c);
		read_row();
		ok(!row.ticks, "a match created without the tick clock reads back as turn by turn");
	}

	ok(call(results_job, NULL) == STORE_OK, "results and ratings stored");
	read_row();
	ok(row.seats[0].place == 1 && row.seats[1].place == 2 && row.seats[0].rating_after == 1662.3,
	    "the seats carry their places and ratings");
	c = store_reader(S);
	ok(store_ratings_get(c, A, 3, got) == STORE_OK && got[0].found && got[1].found && !got[2].found &&
	    got[0].rating == 1662.3 && got[0].matches == 1, "ratings: two found, one not");
	ok(store_ratings_list(c, NULL, &above, 5, list, &nlist) == STORE_OK && nlist == 2 &&
	    strcmp(list[0].name, "ann") == 0 && strcmp(list[1].name, "ben") == 0 && above == 0,
	    "the list is best first, with names");
	ok(store_ratings_list(c, "ann", &above, 5, list, &nlist) == STORE_OK && nlist == 1 &&
	    strcmp(list[0].name, "ben") == 0 && above == 1,
	    "after ann: ben, one rating above the page");
	ok(store_ratings_list(c, "nobody", &above, 5, list, &nlist) == STORE_NOT_FOUND,
	    "a cursor naming no rated account: NOT_FOUND");
	store_reader_release(S, c);

	store_match_row_free(&row);
	store_close(S);
	snprintf(err, sizeof err, "rm -rf %s", dir);
	if (system(err) != 0)
		diag("could not remove %s", dir);
	return tap_done();
}
