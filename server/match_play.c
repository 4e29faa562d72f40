/*
 * match_play.c: the match pipeline (match_play.h), for every ruleset: what
 * a match's state, moves and totals are is its descriptor's (match_rules.h).
 *
 * Every job reads the match's row with the writer's own connection, so
 * that what it decides and what it writes are one transaction: a lobby
 * join is a compare-and-set on the seats taken, a move or a resolution a
 * compare-and-set on (turn, status). The row carries the match's state as
 * bytes (the ruleset's encode), so a turn costs one read and one write of
 * the row, plus the insert of the turn's moves for the replay; nothing
 * replays earlier turns until the match ends (its certificate hashes the
 * replay).
 *
 * What a job may not do before the commit (wake a request, arm a timer) it
 * records in its op, and effects() does it from the store's done callback
 * on the writer thread, so that it happens even when the client that
 * caused it has gone.
 *
 * Workload: one job per move, one per deadline that finds moves missing;
 * a resolution costs a decode, the ruleset's resolve, an encode and a few
 * JSON texts, some tens of microseconds on the writer.
 */
#include "match_play.h"

#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app.h"
#include "jw.h"
#include "log.h"
#include "match_cache.h"
#include "match_clock.h"
#include "match.h"
#include "match_answers.h"
#include "match_hub.h"
#include "match_live.h"
#include "match_ticks.h"

_Static_assert(MATCH_PLAYERS_MAX <= STORE_MATCH_SEATS, "every player has a seat");
_Static_assert(MATCH_OPTION_SHARES == STORE_ITEM_KINDS, "the options' shares fit their column");

struct matches {
	struct app         *app;
	struct match_hub   *hub;
	struct match_clock *clock;
	struct match_cache *cache;  /* decoded states between moves (match_cache.h) */
	struct match_live  *live;   /* the real-time matches (match_live.h) */
	atomic_uint_fast64_t turns, by_deadline;
};

/* ---- what the ruleset keeps ---- */

/* Whether rules's state, pending moves and totals fit the row's columns,
 * the server's buffers and the shared code's (match.h): checked once at
 * the start (match_play_start), so that no ruleset can overrun them
 * later. */
static bool
rules_fit(const struct match_rules *mr)
{
	return mr->state_max <= STORE_MATCH_STATE_MAX && mr->pending_max <= STORE_MATCH_PENDING_MAX &&
	    mr->totals_size == MATCH_TOTALS_SIZE && MATCH_TOTALS_SIZE <= STORE_MATCH_TOTALS_MAX &&
	    mr->move_size <= MATCH_MOVE_MAX && mr->players_max <= MATCH_PLAYERS_MAX &&
	    mr->players_min >= 2 && mr->players_min <= mr->players_max && mr->state_size > 0 &&
	    mr->state_size <= sizeof(match_state) && mr->events_size <= sizeof(match_events);
}

/* op->st with room for its ruleset's state; false when out of memory. */
static bool
state_room(struct match_play_op *op)
{
	void *st;

	if (op->st != NULL && op->st_cap >= op->rules->state_size)
		return true;
	if ((st = malloc(op->rules->state_size)) == NULL)
		return false;
	free(op->st);
	op->st = st;
	op->st_cap = op->rules->state_size;
	return true;
}

/* The moves array's entry of seat. */
static void *
move_at(const struct match_rules *mr, match_moves *mv, unsigned seat)
{
	return mv->bytes + (size_t)seat * mr->move_size;
}

/* ---- reading a row ---- */

int
match_play_seat_of(const struct store_match_row *row, int64_t account_id)
{
	int i;

	for (i = 0; i < row->nseats; i++)
		if (row->seats[i].account_id == account_id)
			return i;
	return -1;
}

/* How many leading bytes of op->st hold its state (match_rules.h,
 * state_head): what the decoded-state cache copies. */
static size_t
state_used(const struct match_play_op *op)
{
	const struct match_rules *mr = op->rules;
	size_t n;

	if (mr->state_seat == 0 || op->row.players <= 0)
		return mr->state_size;
	n = mr->state_head + (size_t)op->row.players * mr->state_seat;
	return n < mr->state_size ? n : mr->state_size;
}

/* op->st from the row's state: the daemon's decoding of these very bytes
 * when it has one (match_cache.h), else the ruleset's decode, kept for the
 * next move of a match still on. */
static bool
decode_state(struct match_play_op *op)
{
	struct match_cache *mc = op->mx != NULL ? op->mx->cache : NULL;
	const struct store_match_row *r = &op->row;
	const struct match_rules *mr = op->rules;

	if (match_cache_get(mc, r->id, r->state, r->nstate, op->st, state_used(op)))
		return true;
	if (!mr->decode(op->st, r->state, r->nstate))
		return false;
	if (strcmp(r->status, "playing") == 0)
		match_cache_put(mc, r->id, r->state, r->nstate, op->st, state_used(op));
	return true;
}

bool
match_play_unpack(struct match_play_op *op)
{
	struct match_standing s;
	match_moves mv;

	op->moved = op->alive = 0;
	if ((op->rules = match_rules_by_name(op->row.rules)) == NULL) {
		log_msg(LOG_ERROR, "match %lld: no ruleset is called '%s'", (long long)op->row.id,
		    op->row.rules);
		return false;
	}
	if (op->row.nstate == 0)
		return strcmp(op->row.status, "lobby") == 0;
	if (!state_room(op)) {
		log_msg(LOG_ERROR, "match %lld: out of memory", (long long)op->row.id);
		return false;
	}
	memset(&s, 0, sizeof s);
	if (decode_state(op))
		op->rules->standing(op->st, &s);
	if (s.nplayers == 0 || s.nplayers != (unsigned)op->row.players || s.turn != op->row.turn ||
	    op->row.ntotals != op->rules->totals_size) {
		log_msg(LOG_ERROR, "match %lld: the stored state does not read back", (long long)op->row.id);
		return false;
	}
	op->alive = s.alive;
	op->rules->pending_read(op->row.pending, op->row.npending, s.nplayers, &mv, &op->moved);
	return true;
}

enum store_result
match_play_read(struct store_conn *c, struct match_play_op *op, int64_t match_id)
{
	struct match_cache *mc = op->mx != NULL ? op->mx->cache : NULL;
	struct store_match_row *r = &op->row;
	enum store_result rc;
	bool playing;

	store_match_row_free(r);
	rc = store_match_get_row(c, match_id, r);
	if (rc != STORE_OK)
		return rc;
	/* The seats of a playing match do not change until it ends: read once
	 * (match_cache.h), then taken from the cache while it plays with all
	 * its seats taken. */
	playing = strcmp(r->status, "playing") == 0;
	if (!(playing && match_cache_get_seats(mc, r->id, r->seats, &r->nseats) &&
	    r->nseats == r->joined)) {
		if ((rc = store_match_seats_read(c, r)) != STORE_OK) {
			store_match_row_free(r);
			return rc;
		}
		if (playing)
			match_cache_put_seats(mc, r->id, r->seats, r->nseats);
	}
	if (!match_play_unpack(op))
		rc = STORE_ERROR;
	return rc;
}

/* ---- JSON (the ruleset's hooks write it: match_rules.h) ---- */

/* What op's row and state say, as api/ reads a match; borrows from op. */
static void
record_of(const struct match_play_op *op, struct match_rules_record *rec)
{
	const struct store_match_row *r = &op->row;
	int i;

	memset(rec, 0, sizeof *rec);
	rec->id = r->id;
	rec->seed = r->seed;
	rec->rules = r->rules;
	rec->status = r->status;
	rec->end_reason = r->end_reason;
	rec->players = r->players;
	rec->joined = r->joined;
	rec->turn_seconds = r->turn_seconds;
	rec->turn_cap = r->turn_cap;
	rec->seed_chosen = r->seed_chosen;
	rec->rated = r->rated;
	rec->options.on = r->items;
	rec->options.chance = r->item_chance;
	memcpy(rec->options.shares, r->item_weights, sizeof rec->options.shares);
	rec->queue = r->queued;
	rec->ticks = r->ticks;
	rec->unrated_reason = r->unrated_reason;
	rec->turn = r->turn;
	rec->created_at = r->created_at;
	rec->started_at = r->started_at;
	rec->finished_at = r->finished_at;
	rec->deadline_at = r->deadline_at;
	rec->last_turn = r->last_turn;
	rec->certificate = r->certificate;
	rec->nseats = r->nseats < MATCH_PLAYERS_MAX ? r->nseats : MATCH_PLAYERS_MAX;
	for (i = 0; i < rec->nseats; i++) {
		rec->seats[i].account = r->seats[i].name;
		rec->seats[i].rating_before = r->seats[i].rating_before;
		rec->seats[i].rating_after = r->seats[i].rating_after;
	}
	if (r->nstate > 0 && op->st != NULL) {
		rec->state = op->st;
		rec->totals = r->totals;
	}
	rec->moved = op->moved;
}

void
match_play_view_write(const struct match_play_op *op, int viewer, struct jw *w)
{
	struct match_rules_record rec;

	record_of(op, &rec);
	match_view_write(op->rules, w, &rec, viewer, store_now_ms());
}

#define MOVE_ANSWER_FIRST 2048      /* bytes: a seat with items is about 1.3 k */
#define MOVE_ANSWER_MAX (4u << 20)  /* with ?view=full, 8 seats of board text */

char *
match_play_view_text(const struct match_play_op *op, int viewer, size_t *len)
{
	struct jw w;

	jw_init(&w, MOVE_ANSWER_FIRST, MOVE_ANSWER_MAX);
	match_play_view_write(op, viewer, &w);
	return jw_take(&w, len);
}

char *
match_play_move_answer(const struct match_play_op *op, const char *move, bool resolved,
    bool full, size_t *len)
{
	struct match_rules_record rec;
	struct jw w;

	record_of(op, &rec);
	jw_init(&w, MOVE_ANSWER_FIRST, MOVE_ANSWER_MAX);
	match_move_answer_write(op->rules, &w, &rec, (uint32_t)op->turn, &op->mv, move, resolved,
	    op->seat, store_now_ms(), full, op->use_empty);
	return jw_take(&w, len);
}

char *
match_play_event_text(const struct match_play_op *op, size_t *len)
{
	struct match_rules_record rec;

	record_of(op, &rec);
	return match_event_text(op->rules, &rec, store_now_ms(), len);
}

/* The event the match's streams get after this job. */
static void
make_event(struct match_play_op *op)
{
	op->event = match_play_event_text(op, &op->nevent);
	if (op->event == NULL)
		op->nevent = 0;
}

/* ---- the end of a match: results, ratings, replay, certificate ---- */

/* The recorded inputs of a real-time match as the tick hooks read them,
 * into *out (malloc'd) and *n; false when they do not read back. */
static bool
inputs_of(struct store_conn *c, const struct match_play_op *op, struct match_input **out, size_t *n)
{
	struct store_match_input *in = NULL;
	struct match_input *list = NULL;
	size_t k, m = 0;
	bool ok = false;

	*out = NULL;
	*n = 0;
	if (op->rules->ticks == NULL || store_match_inputs(c, op->row.id, &in, &m) != STORE_OK)
		return false;
	if ((list = calloc(m > 0 ? m : 1, sizeof *list)) == NULL)
		goto done;
	for (k = 0; k < m; k++) {
		if (!op->rules->ticks->input_read(in[k].text, &list[k]) || in[k].tick < 0 || in[k].seat < 0)
			goto done;
		list[k].tick = (uint32_t)in[k].tick;
		list[k].seat = (uint8_t)in[k].seat;
	}
	*out = list;
	*n = m;
	list = NULL;
	ok = true;
done:
	free(in);
	free(list);
	return ok;
}

json_t *
match_play_replay_of(struct store_conn *c, const struct match_play_op *op)
{
	struct match_rules_record rec;
	struct match_input *in;
	json_t *replay;
	size_t n;

	if (op->row.nstate == 0)
		return NULL;
	record_of(op, &rec);
	if (!op->row.ticks)
		return match_replay(op->rules, &rec, store_match_turns(c, op->row.id));
	if (!inputs_of(c, op, &in, &n))
		return NULL;
	replay = match_ticks_replay(op->rules, &rec, in, n);
	free(in);
	return replay;
}

/* Signs the result of a finished match; turns (stolen) are every turn's
 * moves, this last one included. NULL on failure. */
static char *
certify(const struct match_play_op *op, json_t *turns)
{
	struct match_rules_record rec;

	record_of(op, &rec);
	return match_certificate(op->rules, app_keys(op->mx->app), &rec, turns, (int64_t)time(NULL));
}

/* Why a queue match moves no rating, or NULL when it does: a player sent
 * fewer than MATCH_PLAY_RATED_MOVES moves (aborted: a missed turn is no
 * move), or a pair of its players has rated MATCH_PLAY_PAIR_CAP matches
 * together in the last MATCH_PLAY_PAIR_WINDOW_MS. sent[] counts each
 * seat's moves. */
static const char *
unrated_reason(struct store_conn *c, const struct match_play_op *op, const int *sent, int64_t now,
    bool *failed)
{
	const struct store_match_row *r = &op->row;
	bool fair = op->mx->app->cfg->fair_ratings;
	int i, j;

	for (i = 0; i < r->players; i++)
		if (sent[i] < MATCH_PLAY_RATED_MOVES)
			return "aborted";
	for (i = 0; i < r->players; i++)
		for (j = i + 1; j < r->players; j++) {
			int64_t n = 0;

			if (store_match_pair_rated(c, r->seats[i].account_id, r->seats[j].account_id,
			    now - MATCH_PLAY_PAIR_WINDOW_MS, &n) != STORE_OK) {
				*failed = true;
				return NULL;
			}
			if (n >= MATCH_PLAY_PAIR_CAP)
				return "pair_cap";
			if (!fair || r->seats[i].net[0] == '\0' || r->seats[j].net[0] == '\0')
				continue;
			if (store_match_nets_rated(c, r->seats[i].net, r->seats[j].net,
			    now - MATCH_PLAY_PAIR_WINDOW_MS, &n) != STORE_OK) {
				*failed = true;
				return NULL;
			}
			if (n >= MATCH_PLAY_NET_PAIR_CAP)
				return "network_cap";
		}
	return NULL;
}

bool
match_play_standard(int players, int turn_seconds, const struct match_options *o)
{
	size_t k;

	if (players < 2 || players > 4 || turn_seconds != MATCH_PLAY_TURN_SECONDS_DEFAULT)
		return false;
	if (!o->on)
		return true;
	for (k = 0; k < MATCH_OPTION_SHARES; k++)
		if (o->shares[k] != 1)
			return false;
	return o->chance == MATCH_ITEM_CHANCE_DEFAULT;
}

/* Results on the seats, and for a rated match every player's rating. */
static enum store_result
results(struct store_conn *c, struct match_play_op *op, const int *sent, int64_t now)
{
	struct store_match_row *r = &op->row;
	struct store_match_result res[MATCH_PLAYERS_MAX];
	struct store_rating rt[MATCH_PLAYERS_MAX];
	struct match_rating before[MATCH_PLAYERS_MAX], after[MATCH_PLAYERS_MAX];
	struct match_seat_result seat[MATCH_PLAYERS_MAX];
	int64_t accounts[MATCH_PLAYERS_MAX];
	uint8_t places[MATCH_PLAYERS_MAX];
	int i, n = r->players;
	bool rated = r->rated, failed = false;

	if (rated) {
		const char *why = unrated_reason(c, op, sent, now, &failed);

		if (failed)
			return STORE_ERROR;
		if (why != NULL) {
			if (store_match_unrated(c, r->id, why) != STORE_OK)
				return STORE_ERROR;
			rated = r->rated = false;
			snprintf(r->unrated_reason, sizeof r->unrated_reason, "%s", why);
		}
	}
	match_results(op->rules, op->st, r->totals, (uint32_t)r->turn_cap, seat);
	for (i = 0; i < n; i++) {
		accounts[i] = r->seats[i].account_id;
		places[i] = (uint8_t)seat[i].place;
		res[i] = (struct store_match_result){ i, seat[i].place, seat[i].score,
			seat[i].lines_sent, seat[i].lines_received, NAN, NAN };
	}
	if (rated) {
		if (store_ratings_get(c, accounts, n, rt) != STORE_OK)
			return STORE_ERROR;
		for (i = 0; i < n; i++)
			before[i] = rt[i].found ? (struct match_rating){ rt[i].rating, rt[i].rd,
				rt[i].volatility } : match_rating_new();
		if (!match_ratings_after(before, places, (size_t)n, after)) {
			log_msg(LOG_ERROR, "match %lld: the ratings do not update", (long long)r->id);
			rated = false;
		}
	}
	if (rated) {
		for (i = 0; i < n; i++) {
			rt[i].rating = after[i].rating;
			rt[i].rd = after[i].rd;
			rt[i].volatility = after[i].volatility;
			rt[i].matches++;
			res[i].rating_before = before[i].rating;
			res[i].rating_after = after[i].rating;
			r->seats[i].rating_before = before[i].rating;
			r->seats[i].rating_after = after[i].rating;
		}
		if (store_ratings_put(c, rt, n, !op->mx->app->cfg->fair_ratings, now) != STORE_OK)
			return STORE_ERROR;
	}
	for (i = 0; i < n; i++)
		r->seats[i].place = places[i];
	if (store_match_results(c, r->id, res, n) != STORE_OK)
		return STORE_ERROR;
	/* With this match's seats stored, a provisional rating may rank. */
	for (i = 0; rated && op->mx->app->cfg->fair_ratings && i < n; i++)
		if (store_rating_rank(c, accounts[i], MATCH_PLAY_RANKED_MATCHES, MATCH_PLAY_RANKED_OPPONENTS,
		    MATCH_PLAY_RANKED_NETS) != STORE_OK)
			return STORE_ERROR;
	return STORE_OK;
}

/* ---- a turn ---- */

#define TURN_TEXT_FIRST 1024      /* bytes: 8 players' events are about 2 k */
#define TURN_TEXT_MAX (1u << 20)

/* Keeps text (malloc'd: the writer's) as the row's last turn. */
static void
set_last_turn(struct store_match_row *r, char *text)
{
	free(r->last_turn);
	r->last_turn = text;
}

/* Resolves the coming turn of op's match with the moves sent (mv, moved)
 * and the rest missed, and writes it. */
static enum store_result
resolve(struct store_conn *c, struct match_play_op *op, match_moves *mv, int64_t now)
{
	struct store_match_row *r = &op->row;
	const struct match_rules *mr = op->rules;
	struct match_turn_out out;
	struct match_standing s;
	struct store_match_update u;
	uint8_t state[STORE_MATCH_STATE_MAX], totals[STORE_MATCH_TOTALS_MAX];
	char *moves_text = NULL, *cert = NULL;
	json_t *moves = NULL, *turns = NULL;
	struct jw w, ev;
	int sent[MATCH_PLAYERS_MAX] = { 0 };
	enum store_result rc = STORE_ERROR;
	int64_t from_turn = r->turn;
	unsigned i;
	bool played;
	size_t nstate;

	/* The turn's moves (the replay's entry) and its events, as text
	 * straight away: the row stores them so, and only the end of the
	 * match needs the moves as a value. */
	memcpy(totals, r->totals, mr->totals_size);
	jw_init(&w, TURN_TEXT_FIRST, TURN_TEXT_MAX);
	jw_init(&ev, TURN_TEXT_FIRST, TURN_TEXT_MAX);
	played = match_resolve(mr, op->st, mv, op->moved, totals, (uint32_t)r->turn_cap, &w, &ev, &out);
	/* A stored move the engine refuses misses the turn (match_rules.h):
	 * said in the log, as it should never happen. */
	for (i = 0; i < MATCH_PLAYERS_MAX; i++)
		if (out.refused >> i & 1u)
			log_msg(LOG_ERROR, "match %lld turn %lld: stored move of seat %u refused (%s); missed",
			    (long long)r->id, (long long)r->turn + 1, i, out.reason[i]);
	moves_text = jw_take(&w, NULL);
	set_last_turn(r, jw_take(&ev, NULL));
	if (!played || moves_text == NULL || r->last_turn == NULL)
		goto done;
	op->use_empty = op->seat >= 0 && out.use_empty >> op->seat & 1u;
	mr->standing(op->st, &s);
	op->alive = s.alive;
	nstate = mr->encode(op->st, state, sizeof state);
	if (nstate == 0 || nstate > mr->state_max)
		goto done;
	op->moved = 0;
	op->resolved = true;
	op->finished = out.end != NULL;
	r->turn = s.turn;
	r->nstate = nstate;
	memcpy(r->state, state, nstate);
	r->npending = 0;
	memcpy(r->totals, totals, mr->totals_size);
	r->ntotals = mr->totals_size;
	if (op->finished) {
		snprintf(r->status, sizeof r->status, "finished");
		snprintf(r->end_reason, sizeof r->end_reason, "%s", out.end);
		r->finished_at = now;
		r->deadline_at = 0;
		/* The certificate hashes the replay: every turn stored so far and
		 * this one. */
		if ((turns = store_match_turns(c, r->id)) == NULL ||
		    (moves = json_loads(moves_text, 0, NULL)) == NULL ||
		    json_array_append(turns, moves) != 0)
			goto done;
		match_rules_moves_sent(mr, turns, r->players, sent);
		cert = certify(op, turns);
		turns = NULL; /* certify took it */
		if (cert == NULL)
			goto done;
		free(r->certificate);
		r->certificate = cert;
	} else
		r->deadline_at = now + 1000 * (int64_t)r->turn_seconds;

	memset(&u, 0, sizeof u);
	u.id = r->id;
	u.from_turn = from_turn;
	u.from_status = "playing";
	u.status = r->status;
	u.turn = r->turn;
	u.state = state;
	u.nstate = nstate;
	u.totals = totals;
	u.ntotals = mr->totals_size;
	u.last_turn = r->last_turn;
	u.deadline_at = r->deadline_at;
	u.end_reason = op->finished ? r->end_reason : NULL;
	u.started_at = r->started_at;
	u.finished_at = r->finished_at;
	u.certificate = r->certificate;
	/* A turn the match plays on after writes only what a turn changes. */
	rc = op->finished ? store_match_update(c, &u) : store_match_advance(c, &u);
	if (rc == STORE_CONFLICT) {
		/* Someone resolved this turn first: nothing here was written, and
		 * the answer shows the match as that writer left it. */
		op->resolved = op->finished = false;
		op->verdict = MATCH_PLAY_WRONG_TURN;
		rc = match_play_read(c, op, r->id) == STORE_ERROR ? STORE_ERROR : STORE_OK;
		goto done;
	}
	if (rc != STORE_OK || store_match_turn_insert(c, r->id, r->turn, moves_text, now) != STORE_OK ||
	    (op->finished && results(c, op, sent, now) != STORE_OK)) {
		rc = STORE_ERROR;
		goto done;
	}
	/* The next move reads these very bytes: keep the state they encode
	 * (what the ruleset's decode would give back, in every field that
	 * means something, as its serial tests hold), so that no move
	 * decodes. A commit that fails leaves an entry no row holds: it
	 * simply misses. */
	if (!op->finished && op->mx != NULL)
		match_cache_put(op->mx->cache, r->id, state, nstate, op->st, state_used(op));
	if (match_hub_has_streams(op->mx->hub, r->id))
		make_event(op);
	rc = STORE_OK;
done:
	json_decref(moves);
	json_decref(turns);
	free(moves_text);
	return rc;
}

/* ---- the jobs ---- */

static enum store_result
create_job(struct store_conn *c, struct match_play_op *op)
{
	/* A queue table off the standard settings plays, but rates nothing. */
	bool off_standard = op->kind == MATCH_PLAY_OP_QUICK && op->rated &&
	    op->mx->app->cfg->fair_ratings && !match_play_standard(op->players, op->turn_seconds, &op->options);
	struct store_match_new n = {
		.account_id = op->account_id, .players = op->players, .turn_seconds = op->turn_seconds,
		.turn_cap = op->ticks ? (int)op->rules->ticks->tick_cap : (int)op->mx->app->cfg->match_turn_cap,
		.ticks = op->ticks, .seed = op->seed,
		.seed_chosen = op->seed_chosen, .rated = op->rated && !off_standard, .rules = op->rules->name,
		.items = op->options.on, .queued = op->kind == MATCH_PLAY_OP_QUICK,
		.item_chance = op->options.chance, .now = store_now_ms(), .lobbies_max = MATCH_LOBBIES_MAX,
		.net = op->net,
	};
	enum store_result rc;

	memcpy(n.item_weights, op->options.shares, sizeof n.item_weights);
	rc = store_match_insert(c, &n);
	if (rc == STORE_CONFLICT && n.queue_taken) {
		op->verdict = MATCH_PLAY_FULL; /* the queue job looks again */
		return STORE_OK;
	}
	if (rc == STORE_CONFLICT) {
		op->verdict = MATCH_PLAY_TOO_MANY_LOBBIES;
		return STORE_OK;
	}
	if (rc != STORE_OK || (off_standard && store_match_unrated(c, n.id, "settings") != STORE_OK))
		return STORE_ERROR;
	op->match_id = n.id;
	rc = match_play_read(c, op, n.id);
	if (rc != STORE_OK)
		return STORE_ERROR;
	op->seat = 0;
	op->verdict = MATCH_PLAY_CREATED;
	return STORE_OK;
}

/* Fills the lobby's last seat: the match starts. */
static enum store_result
start(struct store_conn *c, struct match_play_op *op, int64_t now)
{
	struct store_match_row *r = &op->row;
	const struct match_rules *mr = op->rules;
	struct store_match_update u;
	struct match_options o = { .on = r->items, .chance = r->item_chance };
	struct match_standing s;
	uint8_t state[STORE_MATCH_STATE_MAX], totals[STORE_MATCH_TOTALS_MAX];
	size_t nstate;

	memcpy(o.shares, r->item_weights, sizeof o.shares);
	memset(totals, 0, sizeof totals); /* no line sent yet: match_totals_encode's zeros */
	/* A real-time match starts on its ruleset's tick clock, without a
	 * deadline: the tick host plays it once this commits. */
	if (!state_room(op) || (r->ticks && mr->ticks == NULL) ||
	    !(r->ticks ? mr->ticks->start : mr->start)(op->st, (uint64_t)r->seed, (unsigned)r->players, &o))
		return STORE_ERROR;
	nstate = mr->encode(op->st, state, sizeof state);
	if (nstate == 0 || nstate > mr->state_max)
		return STORE_ERROR;
	mr->standing(op->st, &s);
	op->alive = s.alive;
	snprintf(r->status, sizeof r->status, "playing");
	r->started_at = now;
	r->deadline_at = r->ticks ? 0 : now + 1000 * (int64_t)r->turn_seconds;
	memcpy(r->state, state, nstate);
	r->nstate = nstate;
	memcpy(r->totals, totals, mr->totals_size);
	r->ntotals = mr->totals_size;
	memset(&u, 0, sizeof u);
	u.id = r->id;
	u.from_turn = 0;
	u.from_status = "lobby";
	u.status = "playing";
	u.turn = 0;
	u.state = state;
	u.nstate = nstate;
	u.totals = totals;
	u.ntotals = mr->totals_size;
	u.deadline_at = r->deadline_at;
	u.started_at = now;
	if (store_match_update(c, &u) != STORE_OK)
		return STORE_ERROR; /* the join just won the lobby: nobody else can move it */
	op->started = true;
	return STORE_OK;
}

static enum store_result
join_job(struct store_conn *c, struct match_play_op *op)
{
	struct store_match_row *r = &op->row;
	int64_t now = store_now_ms();
	enum store_result rc;
	int tries;

	/* A lost compare-and-set means someone else took a seat in between (a
	 * backend with several writers): read again and decide again. */
	for (tries = 0; tries < 4; tries++) {
		rc = match_play_read(c, op, op->match_id);
		if (rc == STORE_NOT_FOUND) {
			op->verdict = MATCH_PLAY_NOT_FOUND;
			return STORE_OK;
		}
		if (rc != STORE_OK)
			return STORE_ERROR;
		op->seat = match_play_seat_of(r, op->account_id);
		if (op->seat >= 0) {
			op->verdict = MATCH_PLAY_ALREADY_JOINED;
			return STORE_OK;
		}
		if (strcmp(r->status, "lobby") != 0 || r->joined >= r->players) {
			op->verdict = strcmp(r->status, "finished") == 0 ? MATCH_PLAY_OVER : MATCH_PLAY_FULL;
			return STORE_OK;
		}
		rc = store_match_join(c, r->id, r->joined, op->account_id, op->net, now);
		if (rc == STORE_ERROR)
			return STORE_ERROR;
		if (rc == STORE_OK)
			break;
	}
	if (rc != STORE_OK) {
		op->verdict = MATCH_PLAY_FULL;
		return STORE_OK;
	}
	/* The seat is ours: the row as it is now. */
	if (match_play_read(c, op, op->match_id) != STORE_OK)
		return STORE_ERROR;
	op->seat = match_play_seat_of(r, op->account_id);
	if (r->joined == r->players && start(c, op, now) != STORE_OK)
		return STORE_ERROR;
	op->verdict = MATCH_PLAY_JOINED;
	if (match_hub_has_streams(op->mx->hub, r->id))
		make_event(op);
	return STORE_OK;
}

/* Whether a and b are one move: the same canonical text. */
static bool
same_move(const struct match_rules *mr, const void *a, const void *b)
{
	char ta[MATCH_MOVE_TEXT_MAX], tb[MATCH_MOVE_TEXT_MAX];

	mr->move_text(a, ta, sizeof ta);
	mr->move_text(b, tb, sizeof tb);
	return strcmp(ta, tb) == 0;
}

/* A resend of a move already stored (its first answer was lost: a
 * failover, outcome_unknown) gets the first answer again rather than
 * already_moved or wrong_turn. MOVED: the seat's pending move for the open
 * turn is this one; RESOLVED: the stored moves of that turn, resolved
 * since, give the seat this one. NOTHING: not a resend. */
static enum match_play_verdict
resent(struct store_conn *c, const struct match_play_op *op)
{
	const struct store_match_row *r = &op->row;
	const struct match_rules *mr = op->rules;
	match_moves mv;
	char text[MATCH_MOVE_TEXT_MAX];
	uint8_t moved;
	json_t *turns, *seats, *mine;
	enum match_play_verdict v = MATCH_PLAY_NOTHING;

	if (op->parsed != MATCH_PARSE_OK || op->seat < 0)
		return v;
	if (op->turn == r->turn + 1 && strcmp(r->status, "playing") == 0) {
		mr->pending_read(r->pending, r->npending, (unsigned)r->players, &mv, &moved);
		return moved >> op->seat & 1u && same_move(mr, move_at(mr, &mv, (unsigned)op->seat), &op->mv) ?
		    MATCH_PLAY_MOVED : v;
	}
	if (op->turn > r->turn || op->turn < 1)
		return v;
	if ((turns = store_match_turns(c, r->id)) == NULL)
		return v;
	seats = json_array_get(turns, (size_t)(op->turn - 1));
	mine = json_array_get(seats, (size_t)op->seat);
	mr->move_text(&op->mv, text, sizeof text);
	if (json_is_string(mine) && strcmp(json_string_value(mine), text) == 0)
		v = MATCH_PLAY_RESOLVED;
	json_decref(turns);
	return v;
}

static enum store_result
move_job(struct store_conn *c, struct match_play_op *op)
{
	struct store_match_row *r = &op->row;
	const struct match_rules *mr;
	match_moves mv;
	uint8_t pending[STORE_MATCH_PENDING_MAX], moved;
	enum store_result rc;

	rc = match_play_read(c, op, op->match_id);
	if (rc != STORE_OK) {
		op->verdict = rc == STORE_NOT_FOUND ? MATCH_PLAY_NOT_FOUND : MATCH_PLAY_ERROR;
		return rc == STORE_ERROR ? STORE_ERROR : STORE_OK;
	}
	/* The command reads as a move of the match's own ruleset; the verdict
	 * on it comes after the match's checks. */
	mr = op->rules;
	op->parsed = mr->move_read(op->command != NULL ? op->command : "", op->ncommand, &op->mv,
	    op->reason, sizeof op->reason);
	op->seat = match_play_seat_of(r, op->account_id);
	if (op->seat < 0) {
		op->verdict = MATCH_PLAY_NOT_A_PLAYER;
		return STORE_OK;
	}
	if (op->turn <= r->turn || op->moved >> op->seat & 1u) {
		enum match_play_verdict v = resent(c, op);

		if (v != MATCH_PLAY_NOTHING) {
			op->verdict = v;
			return STORE_OK;
		}
	}
	if (r->ticks) {
		op->verdict = MATCH_PLAY_WRONG_CLOCK; /* its keys go to POST .../keys */
		return STORE_OK;
	}
	if (strcmp(r->status, "playing") != 0) {
		op->verdict = strcmp(r->status, "lobby") == 0 ? MATCH_PLAY_NOT_STARTED : MATCH_PLAY_OVER;
		return STORE_OK;
	}
	if (op->turn != r->turn + 1) {
		op->verdict = MATCH_PLAY_WRONG_TURN;
		return STORE_OK;
	}
	if (!(op->alive >> op->seat & 1u)) {
		op->verdict = MATCH_PLAY_PLAYER_OUT;
		return STORE_OK;
	}
	if (op->moved >> op->seat & 1u) {
		op->verdict = MATCH_PLAY_ALREADY_MOVED;
		return STORE_OK;
	}
	if (op->parsed != MATCH_PARSE_OK) {
		op->verdict = op->parsed == MATCH_PARSE_EMPTY ? MATCH_PLAY_EMPTY_MOVE : MATCH_PLAY_INVALID_MOVE;
		return STORE_OK;
	}
	if (!mr->move_check(op->st, (unsigned)op->seat, &op->mv, op->reason, sizeof op->reason)) {
		op->verdict = MATCH_PLAY_ILLEGAL_MOVE;
		return STORE_OK;
	}
	mr->pending_read(r->pending, r->npending, (unsigned)r->players, &mv, &moved);
	memcpy(move_at(mr, &mv, (unsigned)op->seat), &op->mv, mr->move_size);
	op->moved = moved = (uint8_t)(moved | 1u << op->seat);
	if ((op->alive & ~moved) == 0) {
		/* The last living player's move: the turn resolves now. */
		op->verdict = MATCH_PLAY_RESOLVED;
		return resolve(c, op, &mv, store_now_ms());
	}
	r->npending = mr->pending_write(&mv, moved, (unsigned)r->players, pending);
	memcpy(r->pending, pending, r->npending);
	/* Only the pending moves change (the compare-and-set on the turn as a
	 * whole-row update would make it). */
	rc = store_match_set_pending(c, r->id, r->turn, pending, r->npending);
	if (rc == STORE_ERROR)
		return STORE_ERROR;
	if (rc == STORE_CONFLICT) {
		op->verdict = MATCH_PLAY_WRONG_TURN;
		return match_play_read(c, op, r->id) == STORE_ERROR ? STORE_ERROR : STORE_OK;
	}
	op->verdict = MATCH_PLAY_MOVED;
	return STORE_OK;
}

static enum store_result
deadline_job(struct store_conn *c, struct match_play_op *op)
{
	match_moves mv;
	int64_t now = store_now_ms();
	enum store_result rc;

	op->verdict = MATCH_PLAY_NOTHING;
	rc = match_play_read(c, op, op->match_id);
	if (rc != STORE_OK)
		return rc == STORE_ERROR ? STORE_ERROR : STORE_OK;
	/* Only the deadline of the turn it was set for: a turn the last move
	 * resolved first has set its own. */
	if (strcmp(op->row.status, "playing") != 0 || op->row.turn != op->turn || op->row.ticks)
		return STORE_OK;
	if (op->row.deadline_at > now)
		return STORE_OK; /* fired early (the clock moved): effects() sets it again */
	op->rules->pending_read(op->row.pending, op->row.npending, (unsigned)op->row.players, &mv,
	    &op->moved);
	op->verdict = MATCH_PLAY_RESOLVED;
	return resolve(c, op, &mv, now);
}

/* The queue: the lobby with the op's settings, joined, else a new one. A
 * lobby that filled or was opened by another daemon between the look and
 * the write sends the job round again (index matches_queue keeps one lobby
 * a setting, so two bots arriving at once end in the same one). */
static enum store_result
quick_job(struct store_conn *c, struct match_play_op *op)
{
	enum store_result rc;
	int tries;

	for (tries = 0; tries < 16; tries++) {
		rc = store_match_queue_find(c, op->players, op->turn_seconds, op->options.on,
		    op->options.chance, op->options.shares, &op->match_id);
		if (rc == STORE_ERROR)
			return STORE_ERROR;
		if (rc == STORE_OK) {
			if (join_job(c, op) != STORE_OK)
				return STORE_ERROR;
			if (op->verdict == MATCH_PLAY_ALREADY_JOINED)
				op->verdict = MATCH_PLAY_JOINED; /* asked again: the same lobby */
			if (op->verdict == MATCH_PLAY_JOINED)
				return STORE_OK;
			continue;
		}
		if (create_job(c, op) != STORE_OK)
			return STORE_ERROR;
		if (op->verdict != MATCH_PLAY_FULL)
			return STORE_OK;
	}
	op->verdict = MATCH_PLAY_FULL;
	return STORE_OK;
}

static enum store_result
run_job(struct store_conn *c, void *arg)
{
	struct match_play_op *op = arg;

	op->verdict = MATCH_PLAY_ERROR;
	op->started = op->resolved = op->finished = op->use_empty = false;
	free(op->event);
	op->event = NULL;
	op->nevent = 0;
	switch (op->kind) {
	case MATCH_PLAY_OP_CREATE:
		return create_job(c, op);
	case MATCH_PLAY_OP_JOIN:
		return join_job(c, op);
	case MATCH_PLAY_OP_MOVE:
		return move_job(c, op);
	case MATCH_PLAY_OP_DEADLINE:
		return deadline_job(c, op);
	case MATCH_PLAY_OP_QUICK:
		return quick_job(c, op);
	}
	return STORE_ERROR;
}

/* ---- after the commit ---- */

static void
effects(struct match_play_op *op, bool committed)
{
	struct matches *mx = op->mx;
	const struct store_match_row *r = &op->row;

	if (!committed) {
		/* A deadline whose job failed tries again in a second rather than
		 * leaving the match without one. */
		if (op->kind == MATCH_PLAY_OP_DEADLINE)
			match_clock_set(mx->clock, MATCH_PLAY_TIMER_DEADLINE, (uint64_t)op->match_id,
			    store_now_ms() + 1000, op->turn);
		return;
	}
	if (op->resolved) {
		atomic_fetch_add(&mx->turns, 1);
		if (op->kind == MATCH_PLAY_OP_DEADLINE)
			atomic_fetch_add(&mx->by_deadline, 1);
	}
	if (op->finished) {
		match_clock_cancel(mx->clock, MATCH_PLAY_TIMER_DEADLINE, (uint64_t)r->id);
		match_cache_drop(mx->cache, r->id);
	}
	else if (op->started && r->ticks) {
		if (!match_live_add(mx->live, op->rules, r, op->st, NULL, 0))
			log_msg(LOG_ERROR, "match %lld: the real-time match cannot start (out of memory)",
			    (long long)r->id);
	} else if (op->started || op->resolved ||
	    (op->kind == MATCH_PLAY_OP_DEADLINE && op->verdict == MATCH_PLAY_NOTHING &&
	    strcmp(r->status, "playing") == 0 && r->turn == op->turn))
		match_clock_set(mx->clock, MATCH_PLAY_TIMER_DEADLINE, (uint64_t)r->id, r->deadline_at, r->turn);
	/* Long polls and streams hear of seats taken, the start and every
	 * resolved turn (a move that waits for others changes nothing they
	 * show but a `moved` flag). */
	if (op->verdict == MATCH_PLAY_JOINED || op->resolved)
		match_hub_notify(mx->hub, r->id, op->event, op->nevent, op->finished);
}

struct match_job {
	struct store_job   job;
	struct match_play_op *op;
	struct request    *req;   /* NULL for a deadline */
};

void
match_play_op_cleanup(struct match_play_op *op)
{
	store_match_row_free(&op->row);
	free(op->event);
	op->event = NULL;
	free(op->st);
	op->st = NULL;
	op->st_cap = 0;
}

static void
op_free(void *arg)
{
	struct match_play_op *op = arg;

	match_play_op_cleanup(op);
	free(op);
}

static void
job_done(struct store_job *job)
{
	struct match_job *j = (struct match_job *)job;
	struct request *req = j->req;
	int status = (int)job->status;

	effects(j->op, job->status == STORE_JOB_COMMITTED);
	if (req == NULL)
		op_free(j->op);
	free(j);
	if (req != NULL)
		request_resume(req, status);
}

struct match_play_op *
match_play_op_new(struct request *req, enum match_play_op_kind kind)
{
	struct match_play_op *op = calloc(1, sizeof *op);

	if (op == NULL) {
		request_reply_error(req, API_ERR_INTERNAL, "out of memory");
		return NULL;
	}
	op->kind = kind;
	op->mx = req->app->matches;
	op->seat = -1;
	if (kind == MATCH_PLAY_OP_CREATE || kind == MATCH_PLAY_OP_JOIN || kind == MATCH_PLAY_OP_QUICK) {
		struct client_key k;

		_Static_assert(sizeof op->net == CLIENT_KEY_TEXT_MAX, "a network's text as http.h writes it");
		request_client_key(req, &k);
		client_net_text(&k, op->net);
	}
	req->ctx = op;
	req->ctx_free = op_free;
	return op;
}

void
match_play_submit(struct request *req, struct match_play_op *op, request_cont cont)
{
	struct match_job *j = calloc(1, sizeof *j);

	if (j == NULL) {
		request_reply_error(req, API_ERR_INTERNAL, "out of memory");
		return;
	}
	j->op = op;
	j->req = req;
	j->job.run = run_job;
	j->job.arg = op;
	j->job.done = job_done;
	request_suspend(req, cont);
	store_submit(req->app->store, &j->job);
}

/* ---- the end of a real-time match ---- */

struct live_end_job {
	struct store_job        job;
	struct matches         *mx;
	struct match_play_op    op;
	struct match_live_end   e;      /* borrowed from the host until match_live_finished */
	char                   *frame;  /* the streams' last frame, malloc'd */
	size_t                  nframe;
};

/* The inputs e holds from from on, as the store keeps them. */
static enum store_result
store_rest(struct store_conn *c, const struct match_live_end *e)
{
	struct store_match_input *in;
	enum store_result rc;
	size_t k, n = e->ninputs - e->committed;

	if (n == 0)
		return STORE_OK;
	if ((in = calloc(n, sizeof *in)) == NULL)
		return STORE_ERROR;
	for (k = 0; k < n; k++) {
		const struct match_input *x = &e->inputs[e->committed + k];

		in[k].tick = x->tick;
		in[k].seat = x->seat;
		e->mr->ticks->input_text(x, in[k].text, sizeof in[k].text);
	}
	rc = store_match_inputs_insert(c, e->id, (int64_t)e->committed, in, n);
	free(in);
	return rc;
}

static enum store_result
live_end_run(struct store_conn *c, void *arg)
{
	struct live_end_job *j = arg;
	struct match_play_op *op = &j->op;
	struct store_match_row *r = &op->row;
	const struct match_rules *mr = j->e.mr;
	struct match_rules_record rec;
	struct match_standing s;
	struct store_match_update u;
	uint8_t state[STORE_MATCH_STATE_MAX];
	int sent[MATCH_PLAYERS_MAX];
	int64_t now = store_now_ms();
	enum match_end end;
	size_t nstate;
	int i;

	op->verdict = MATCH_PLAY_ERROR;
	free(j->frame);
	j->frame = NULL;
	if (match_play_read(c, op, j->e.id) != STORE_OK || !r->ticks || op->rules != mr)
		return STORE_ERROR;
	if (strcmp(r->status, "playing") != 0) {
		op->verdict = MATCH_PLAY_NOTHING; /* stored as finished already */
		return STORE_OK;
	}
	if (store_rest(c, &j->e) != STORE_OK)
		return STORE_ERROR;
	memcpy(op->st, j->e.st, mr->state_size);
	mr->standing(op->st, &s);
	end = match_end_of(&s, (uint32_t)r->turn_cap);
	nstate = mr->encode(op->st, state, sizeof state);
	if (nstate == 0 || nstate > mr->state_max || match_end_name(end) == NULL)
		return STORE_ERROR;
	op->alive = s.alive;
	r->turn = s.turn;
	memcpy(r->state, state, nstate);
	r->nstate = nstate;
	memcpy(r->totals, j->e.totals, MATCH_TOTALS_SIZE);
	r->ntotals = MATCH_TOTALS_SIZE;
	snprintf(r->status, sizeof r->status, "finished");
	snprintf(r->end_reason, sizeof r->end_reason, "%s", match_end_name(end));
	r->finished_at = now;
	r->deadline_at = 0;
	record_of(op, &rec);
	free(r->certificate);
	r->certificate = match_ticks_certificate(mr, app_keys(j->mx->app), &rec, j->e.inputs,
	    j->e.ninputs, (int64_t)time(NULL));
	if (r->certificate == NULL)
		return STORE_ERROR;
	memset(&u, 0, sizeof u);
	u.id = r->id;
	u.from_turn = 0; /* a real-time row keeps turn 0 until its end */
	u.from_status = "playing";
	u.status = r->status;
	u.turn = r->turn;
	u.state = state;
	u.nstate = nstate;
	u.totals = r->totals;
	u.ntotals = MATCH_TOTALS_SIZE;
	u.end_reason = r->end_reason;
	u.started_at = r->started_at;
	u.finished_at = r->finished_at;
	u.certificate = r->certificate;
	/* Real-time matches are never rated (only the queue's are): every
	 * seat counts as having played. */
	for (i = 0; i < MATCH_PLAYERS_MAX; i++)
		sent[i] = MATCH_PLAY_RATED_MOVES;
	if (store_match_update(c, &u) != STORE_OK || results(c, op, sent, now) != STORE_OK)
		return STORE_ERROR;
	op->finished = true;
	op->verdict = MATCH_PLAY_RESOLVED;
	record_of(op, &rec);
	j->frame = match_live_event_text(mr, &rec, -1, s.turn, "finished", NULL, &j->nframe);
	make_event(op);
	return STORE_OK;
}

static void
live_end_done(struct store_job *job)
{
	struct live_end_job *j = (struct live_end_job *)job;
	struct matches *mx = j->mx;
	bool committed = job->status == STORE_JOB_COMMITTED;
	int64_t id = j->e.id;

	if (committed && j->op.finished)
		match_hub_notify(mx->hub, id, j->op.event, j->op.nevent, true);
	if (!committed)
		log_msg(LOG_WARN, "match %lld: the end of the real-time match is not stored: again in a "
		    "second", (long long)id);
	match_live_finished(mx->live, id, committed, j->frame, j->nframe);
	match_play_op_cleanup(&j->op);
	free(j->frame);
	free(j);
}

/* The host's end of a real-time match (match_live_finish): its job. */
static bool
live_finish(void *ctx, const struct match_live_end *e)
{
	struct matches *mx = ctx;
	struct live_end_job *j = calloc(1, sizeof *j);

	if (j == NULL)
		return false;
	j->mx = mx;
	j->op.mx = mx;
	j->op.seat = -1;
	j->op.kind = MATCH_PLAY_OP_DEADLINE;
	j->e = *e;
	j->job.run = live_end_run;
	j->job.arg = j;
	j->job.done = live_end_done;
	store_submit(mx->app->store, &j->job);
	return true;
}

/* A real-time match left playing (by a daemon that stopped): read with
 * its inputs and handed to the host, which plays it again to where its
 * stored inputs end and goes on from there. */
static void
resume(struct matches *mx, int64_t id)
{
	struct match_play_op *op = calloc(1, sizeof *op);
	struct store_match_input *in = NULL;
	struct store_conn *c;
	size_t n = 0;
	bool ok = false;

	if (op == NULL)
		return;
	op->mx = mx;
	op->seat = -1;
	c = store_reader(mx->app->store);
	if (match_play_read(c, op, id) == STORE_OK && op->row.ticks && op->rules->ticks != NULL &&
	    store_match_inputs(c, id, &in, &n) == STORE_OK)
		ok = match_live_add(mx->live, op->rules, &op->row, op->st, in, n);
	store_reader_release(mx->app->store, c);
	if (!ok)
		log_msg(LOG_ERROR, "match %lld: the real-time match left playing cannot resume",
		    (long long)id);
	free(in);
	match_play_op_cleanup(op);
	free(op);
}

#define RESUME_MAX 1024

struct live_ids {
	int64_t ids[RESUME_MAX];
	size_t  n;
};

static void
live_id(void *ctx, int64_t id, int64_t turn, int64_t deadline_at)
{
	struct live_ids *l = ctx;

	(void)turn;
	(void)deadline_at;
	if (l->n < RESUME_MAX)
		l->ids[l->n++] = id;
}

/* ---- the clock ---- */

static void arm(void *ctx, int64_t id, int64_t turn, int64_t deadline_at);

/* The scan for overdue deadlines (MATCH_PLAY_SCAN_MS): a read on the writer,
 * arming what it finds on this daemon's clock. */
static enum store_result
scan_run(struct store_conn *c, void *arg)
{
	struct matches *mx = arg;

	return store_matches_overdue(c, store_now_ms() - MATCH_PLAY_OVERDUE_MS, MATCH_PLAY_SCAN_LIMIT, arm, mx);
}

static void
scan_done(struct store_job *job)
{
	free(job);
}

/* Streams whose match is over (its last event was told by another daemon,
 * or lost) or no longer stored (a lobby swept) end: a stream never
 * outlives its match by more than a heartbeat. */
static void
end_stale_streams(struct matches *mx)
{
	int64_t ids[256];
	size_t n = match_hub_streamed(mx->hub, ids, sizeof ids / sizeof ids[0]), i;
	struct store_conn *c;

	if (n == 0)
		return;
	c = store_reader(mx->app->store);
	for (i = 0; i < n; i++) {
		struct store_match_row row;
		enum store_result rc;

		memset(&row, 0, sizeof row);
		rc = store_match_get(c, ids[i], &row);
		if (rc == STORE_NOT_FOUND || (rc == STORE_OK && strcmp(row.status, "finished") == 0))
			match_hub_end(mx->hub, ids[i]);
		if (rc == STORE_OK)
			store_match_row_free(&row);
	}
	store_reader_release(mx->app->store, c);
}

static void
fire(void *ctx, unsigned kind, uint64_t key, int64_t arg)
{
	struct matches *mx = ctx;
	struct match_job *j;
	struct match_play_op *op;

	switch (kind) {
	case MATCH_PLAY_TIMER_DEADLINE:
		j = calloc(1, sizeof *j);
		op = calloc(1, sizeof *op);
		if (j == NULL || op == NULL) {
			/* Try again shortly rather than leave the match stuck. */
			free(j);
			free(op);
			match_clock_set(mx->clock, kind, key, store_now_ms() + 1000, arg);
			return;
		}
		op->kind = MATCH_PLAY_OP_DEADLINE;
		op->mx = mx;
		op->seat = -1;
		op->match_id = (int64_t)key;
		op->turn = arg;
		j->op = op;
		j->job.run = run_job;
		j->job.arg = op;
		j->job.done = job_done;
		store_submit(mx->app->store, &j->job);
		break;
	case MATCH_PLAY_TIMER_WAIT:
		match_hub_wake(mx->hub, arg, key);
		break;
	case MATCH_PLAY_TIMER_HEARTBEAT:
		match_hub_heartbeat(mx->hub);
		end_stale_streams(mx);
		match_clock_set(mx->clock, kind, 0, store_now_ms() + MATCH_PLAY_HEARTBEAT_MS, 0);
		break;
	case MATCH_PLAY_TIMER_PROBE:
		match_hub_probe(mx->hub);
		match_clock_set(mx->clock, kind, 0, store_now_ms() + MATCH_PLAY_PROBE_MS, 0);
		break;
	case MATCH_PLAY_TIMER_SCAN: {
		struct store_job *s = calloc(1, sizeof *s);

		if (s != NULL) {
			s->run = scan_run;
			s->arg = mx;
			s->done = scan_done;
			store_submit(mx->app->store, s);
		}
		match_clock_set(mx->clock, kind, 0, store_now_ms() + MATCH_PLAY_SCAN_MS, 0);
		break;
	}
	}
}

static void
arm(void *ctx, int64_t id, int64_t turn, int64_t deadline_at)
{
	struct matches *mx = ctx;

	match_clock_set(mx->clock, MATCH_PLAY_TIMER_DEADLINE, (uint64_t)id, deadline_at, turn);
}

struct matches *
match_play_start(struct app *app, char *err, size_t errcap)
{
	struct matches *mx = calloc(1, sizeof *mx);
	struct live_ids *ids;
	struct store_conn *c;
	enum store_result rc;
	size_t state_size = 0, i;

	if (mx == NULL) {
		snprintf(err, errcap, "out of memory");
		return NULL;
	}
	mx->app = app;
	mx->hub = match_hub_new(app->cfg->match_streams, MATCH_PLAY_STREAM_BYTES);
	mx->clock = match_clock_new(fire, mx);
	for (i = 0; i < MATCH_RULES__COUNT; i++) {
		const struct match_rules *mr = match_rules_table[i];

		if (!rules_fit(mr)) {
			snprintf(err, errcap, "match ruleset %s does not fit the store's columns", mr->name);
			match_play_free(mx);
			return NULL;
		}
		if (mr->state_size > state_size)
			state_size = mr->state_size;
	}
	mx->cache = match_cache_new(state_size);
	mx->live = match_live_new(app, live_finish, mx);
	if (mx->hub == NULL || mx->clock == NULL || mx->cache == NULL || mx->live == NULL) {
		snprintf(err, errcap, "cannot start the match clock");
		match_play_free(mx);
		return NULL;
	}
	if ((ids = calloc(1, sizeof *ids)) == NULL) {
		snprintf(err, errcap, "out of memory");
		match_play_free(mx);
		return NULL;
	}
	c = store_reader(app->store);
	rc = store_matches_playing(c, arm, mx);
	if (rc == STORE_OK)
		rc = store_matches_live(c, live_id, ids);
	store_reader_release(app->store, c);
	for (i = 0; rc == STORE_OK && i < ids->n; i++)
		resume(mx, ids->ids[i]);
	free(ids);
	if (rc != STORE_OK) {
		snprintf(err, errcap, "cannot read the matches in play");
		match_play_free(mx);
		return NULL;
	}
	match_clock_set(mx->clock, MATCH_PLAY_TIMER_HEARTBEAT, 0, store_now_ms() + MATCH_PLAY_HEARTBEAT_MS, 0);
	match_clock_set(mx->clock, MATCH_PLAY_TIMER_SCAN, 0, store_now_ms() + MATCH_PLAY_SCAN_MS, 0);
	match_clock_set(mx->clock, MATCH_PLAY_TIMER_PROBE, 0, store_now_ms() + MATCH_PLAY_PROBE_MS, 0);
	return mx;
}

void
match_play_quiesce(struct matches *mx)
{
	if (mx == NULL)
		return;
	match_clock_stop(mx->clock);
	match_hub_close(mx->hub);
	match_live_quiesce(mx->live);
}

void
match_play_free(struct matches *mx)
{
	if (mx == NULL)
		return;
	match_clock_free(mx->clock);
	match_live_free(mx->live);
	match_hub_free(mx->hub);
	match_cache_free(mx->cache);
	free(mx);
}

struct match_hub *
match_play_hub(struct matches *mx)
{
	return mx->hub;
}

struct match_live *
match_play_live(struct matches *mx)
{
	return mx->live;
}

void
match_play_wait_timer(struct matches *mx, uint64_t ticket, int64_t match_id, int64_t when_ms)
{
	match_clock_set(mx->clock, MATCH_PLAY_TIMER_WAIT, ticket, when_ms, match_id);
}

void
match_play_wait_cancel(struct matches *mx, uint64_t ticket)
{
	match_clock_cancel(mx->clock, MATCH_PLAY_TIMER_WAIT, ticket);
}

void
match_play_stats(struct matches *mx, struct match_play_stats *out)
{
	struct match_hub_stats hs;

	match_hub_stats(mx->hub, &hs);
	out->turns = atomic_load(&mx->turns);
	out->by_deadline = atomic_load(&mx->by_deadline);
	out->timers = match_clock_pending(mx->clock);
	out->waiters = hs.waiters;
	out->streams = hs.streams;
	out->gone = hs.gone;
	out->streams_refused = hs.streams_refused;
	out->streams_dropped = hs.streams_dropped;
}
