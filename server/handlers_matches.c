/*
 * handlers_matches.c: matches over HTTP, of every match ruleset (the
 * descriptor a match's row names, match_rules.h).
 *
 *   POST /api/matches                    a match in the lobby (of `rules`); its creator sits
 *   POST /api/matches/quick              the queue: the lobby with these settings, or a new one
 *   POST /api/matches/{id}/join          a seat; the last one starts the match
 *   POST /api/matches/{id}/move          {turn, command}: one move a turn
 *   POST /api/matches/{id}/keys          {keys}: a real-time match's keys (handlers_live.c)
 *   GET  /api/matches/{id}/stream        a real-time match's frames (handlers_live.c)
 *   GET  /api/matches/{id}               the match as the caller may see it
 *   GET  /api/matches/{id}/wait?after=T  the same, once turn T has resolved
 *   GET  /api/matches/{id}/events        the same as Server-Sent Events
 *   GET  /api/matches/{id}/replay        a finished match's replay and certificate
 *   POST /api/matches/replays/verify     plays a replay again
 *   GET  /api/matches/ratings            Glicko-2 ratings, best first
 *
 * The quick-match queue and the ratings are the default ruleset's (the
 * first of the list): the queue's lobbies and the ratings table carry no
 * ruleset of their own.
 *
 * Writes go through one store job each (matches.h); reads take a reader
 * connection. A long poll and a stream hold no thread while they wait
 * (match_hub.h). Field names are snake_case, as the requests' are.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "app.h"
#include "auth.h"
#include "certificate.h"
#include "defer.h"
#include "handlers.h"
#include "holds.h"
#include "jsonbody.h"
#include "jw.h"
#include "match.h"
#include "match_answers.h"
#include "match_hub.h"
#include "match_live.h"
#include "match_play.h"
#include "match_rules.h"
#include "match_ticks.h"
#include "quota_charge.h"
#include "workers.h"

/* ---- shared pieces ---- */

bool
match_path_id(struct request *req, int64_t *id)
{
	if (jsonbody_parse_int(req->params[0], 1, ENGINE_ID_MAX, id))
		return true;
	request_reply_error(req, API_ERR_MATCH_NOT_FOUND, NULL);
	return false;
}

static bool
known(struct request *req, const char *const *fields)
{
	char msg[JSONBODY_MSG_MAX];

	if (jsonbody_known(req->json, fields, msg, sizeof msg))
		return true;
	request_reply_error(req, API_ERR_INVALID_REQUEST, msg);
	return false;
}

/* The optional Bearer key of a read: 0 when none; false after a 401. */
static bool
viewer_account(struct request *req, int64_t *account_id)
{
	struct account_ref acct = { 0 };
	enum auth_result a = auth_bearer(req, false, &acct);

	*account_id = a == AUTH_OK ? acct.id : 0;
	return a != AUTH_FAILED;
}

/* A match's read: true when it found the match; otherwise false with the
 * 404 (or, when the read failed, the 500) answered. */
static bool
match_found(struct request *req, enum store_result rc)
{
	if (rc == STORE_OK)
		return true;
	request_reply_error(req, rc == STORE_NOT_FOUND ? API_ERR_MATCH_NOT_FOUND : API_ERR_INTERNAL, NULL);
	return false;
}

/* A store read of the match into op; false after answering (404, 500). */
static bool
read_match(struct request *req, struct match_play_op *op, int64_t id)
{
	struct store_conn *c = store_reader(req->app->store);
	enum store_result rc = match_play_read(c, op, id);

	store_reader_release(req->app->store, c);
	return match_found(req, rc);
}

static void
reply_view(struct request *req, int status, const struct match_play_op *op, int viewer)
{
	size_t len = 0;
	char *text = match_play_view_text(op, viewer, &len);

	request_reply_json_text(req, status, text, len);
}

#define REFUSAL_TEXT_FIRST 4096
#define REFUSAL_TEXT_MAX (4u << 20)  /* the whole view: 8 seats of board text */

/* The error of a job's verdict, with what helps the caller go on: the
 * turn open now for a move sent to another, and the match as it stands
 * for a seated player, written after "error". */
static void
reply_verdict_error(struct request *req, const struct match_play_op *op)
{
	enum api_error e;
	const char *msg = NULL;
	bool turn = false, match;
	struct jw w;
	char *extra = NULL;
	size_t len = 0;

	switch (op->verdict) {
	case MATCH_PLAY_NOT_FOUND: e = API_ERR_MATCH_NOT_FOUND; break;
	case MATCH_PLAY_NOT_A_PLAYER: e = API_ERR_NOT_A_PLAYER; break;
	case MATCH_PLAY_FULL: e = API_ERR_MATCH_FULL; break;
	case MATCH_PLAY_TOO_MANY_LOBBIES: e = API_ERR_TOO_MANY_LOBBIES; break;
	case MATCH_PLAY_ALREADY_JOINED: e = API_ERR_ALREADY_JOINED; break;
	case MATCH_PLAY_NOT_STARTED: e = API_ERR_MATCH_NOT_STARTED; break;
	case MATCH_PLAY_OVER: e = API_ERR_MATCH_OVER; break;
	case MATCH_PLAY_PLAYER_OUT: e = API_ERR_PLAYER_OUT; break;
	case MATCH_PLAY_ALREADY_MOVED: e = API_ERR_ALREADY_MOVED; break;
	case MATCH_PLAY_WRONG_TURN:
		e = API_ERR_WRONG_TURN;
		turn = true;
		msg = op->turn <= op->row.turn ? "that turn is resolved already: the turn open now is "
		    "in 'turn'" : "that turn is not open yet: the turn open now is in 'turn'";
		break;
	case MATCH_PLAY_EMPTY_MOVE: e = API_ERR_EMPTY_COMMAND; msg = op->reason; break;
	case MATCH_PLAY_INVALID_MOVE: e = API_ERR_INVALID_COMMAND; msg = op->reason; break;
	case MATCH_PLAY_ILLEGAL_MOVE: e = API_ERR_ILLEGAL_ACTION; msg = op->reason; break;
	case MATCH_PLAY_WRONG_CLOCK:
		e = API_ERR_WRONG_CLOCK;
		msg = "the match is played in real time: send its keys to POST /api/matches/{id}/keys";
		break;
	default: e = API_ERR_INTERNAL; msg = "the request could not be stored; nothing changed"; break;
	}
	/* Refusals of a seated player show the match as it stands. */
	match = e != API_ERR_INTERNAL && e != API_ERR_MATCH_NOT_FOUND && op->row.id != 0;
	if (turn || match) {
		jw_init(&w, REFUSAL_TEXT_FIRST, REFUSAL_TEXT_MAX);
		jw_object(&w);
		if (turn) {
			jw_kint(&w, "turn", op->row.turn + 1);
		}
		if (match) {
			jw_key(&w, "match");
			match_play_view_write(op, op->seat, &w);
		}
		jw_object_end(&w);
		extra = jw_take(&w, &len);
	}
	request_reply_error_text(req, e, msg, extra, len);
}

/* The fields a table's route takes: fields (NULL-terminated), then the
 * ruleset's options' (match_rules.h), into out (room for cap). */
static const char *const *
table_fields(const char *const *fields, const struct match_rules *mr, const char **out, size_t cap)
{
	size_t n = 0, i;

	for (i = 0; fields[i] != NULL && n + 1 < cap; i++)
		out[n++] = fields[i];
	for (i = 0; mr->option_fields != NULL && mr->option_fields[i] != NULL && n + 1 < cap; i++)
		out[n++] = mr->option_fields[i];
	out[n] = NULL;
	return out;
}

/* The ruleset's options of a new match from the body; false once a 400
 * is queued. */
static bool
read_options(struct request *req, const struct match_rules *mr, struct match_options *o)
{
	char msg[JSONBODY_MSG_MAX];

	if (mr->options_read(req->json, o, msg, sizeof msg))
		return true;
	request_reply_error(req, API_ERR_INVALID_REQUEST, msg);
	return false;
}

/* The ruleset a create names in `rules` (a string, one of the list's),
 * else the default; NULL once a 400 is queued. */
static const struct match_rules *
read_rules(struct request *req)
{
	const json_t *rules = req->json ? json_object_get(req->json, "rules") : NULL;
	const struct match_rules *mr;
	char names[256], msg[JSONBODY_MSG_MAX + 256];

	if (rules == NULL)
		return match_rules_default();
	mr = json_is_string(rules) ? match_rules_by_name(json_string_value(rules)) : NULL;
	if (mr == NULL) {
		snprintf(msg, sizeof msg, "field 'rules' must be one of: %s",
		    match_rules_names(names, sizeof names));
		request_reply_error(req, API_ERR_INVALID_REQUEST, msg);
	}
	return mr;
}

/* ---- POST /api/matches ---- */

static void
create_done(struct request *req)
{
	struct match_play_op *op = req->ctx;

	if (!defer_committed(req) || op->verdict != MATCH_PLAY_CREATED) {
		/* Nothing stored: the quota back, to the count of the day now. */
		quota_refund(req, QUOTA_MATCHES, op->account_id, quota_today(NULL));
		reply_verdict_error(req, op);
		return;
	}
	reply_view(req, 201, op, op->seat);
}

/* A new match's `players` (required, within the ruleset's) and
 * `turn_seconds` (default MATCH_PLAY_TURN_SECONDS_DEFAULT), for POST
 * /api/matches and the queue; false once a 400 is queued. */
static bool
read_table(struct request *req, const struct match_rules *mr, int64_t *players, int64_t *seconds)
{
	char msg[JSONBODY_MSG_MAX];
	bool present = false;

	if (!jsonbody_int(req->json, "players", mr->players_min, mr->players_max, &present,
	    players, msg, sizeof msg) || !present) {
		if (!present)
			snprintf(msg, sizeof msg, "missing field 'players' (an integer from %u to %u)",
			    mr->players_min, mr->players_max);
		request_reply_error(req, API_ERR_INVALID_REQUEST, msg);
		return false;
	}
	*seconds = MATCH_PLAY_TURN_SECONDS_DEFAULT;
	if (!jsonbody_int(req->json, "turn_seconds", 1, MATCH_PLAY_TURN_SECONDS_MAX, &present, seconds,
	    msg, sizeof msg)) {
		request_reply_error(req, API_ERR_INVALID_REQUEST, msg);
		return false;
	}
	return true;
}

/* The key's account charged a match and an op of kind made for a table of
 * the ruleset mr, players, turn seconds and options; NULL with the refusal
 * (401, 429) answered and nothing charged. */
static struct match_play_op *
table_op(struct request *req, enum match_play_op_kind kind, const struct match_rules *mr,
    int64_t players, int64_t seconds, const struct match_options *options)
{
	struct account_ref acct;
	struct match_play_op *op = NULL;
	uint32_t day;

	if (auth_bearer(req, true, &acct) != AUTH_OK || !quota_charge(req, QUOTA_MATCHES, acct.id, &day))
		goto done;
	if ((op = match_play_op_new(req, kind)) == NULL) {
		quota_refund(req, QUOTA_MATCHES, acct.id, day);
		goto done;
	}
	op->account_id = acct.id;
	op->rules = mr;
	op->players = (int)players;
	op->turn_seconds = (int)seconds;
	op->options = *options;
done:
	return op;
}

void
handle_match_create(struct request *req)
{
	static const char *const fields[] = { "rules", "clock", "players", "turn_seconds", "seed",
		"rated", NULL };
	const json_t *clock = req->json ? json_object_get(req->json, "clock") : NULL;
	const json_t *rated = req->json ? json_object_get(req->json, "rated") : NULL;
	const struct match_rules *mr;
	const char *all[24];
	struct match_options settings;
	struct match_play_op *op;
	char msg[JSONBODY_MSG_MAX];
	int64_t players = 0, seconds = MATCH_PLAY_TURN_SECONDS_DEFAULT, seed = 0;
	bool has_seed = false;

	if ((mr = read_rules(req)) == NULL ||
	    !known(req, table_fields(fields, mr, all, sizeof all / sizeof all[0])))
		return;
	if (!read_table(req, mr, &players, &seconds))
		return;
	if (!jsonbody_int(req->json, "seed", 0, ENGINE_ID_MAX, &has_seed, &seed, msg, sizeof msg)) {
		request_reply_error(req, API_ERR_INVALID_REQUEST, msg);
		return;
	}
	if (rated != NULL && !json_is_boolean(rated)) {
		request_reply_error(req, API_ERR_INVALID_REQUEST, "field 'rated' must be true or false");
		return;
	}
	if (clock != NULL && (!json_is_string(clock) || (strcmp(json_string_value(clock), "turns") != 0 &&
	    strcmp(json_string_value(clock), "ticks") != 0))) {
		request_reply_error(req, API_ERR_INVALID_REQUEST, "field 'clock' must be \"turns\" (the "
		    "default: turn by turn) or \"ticks\" (real time)");
		return;
	}
	if (json_is_string(clock) && strcmp(json_string_value(clock), "ticks") == 0 && mr->ticks == NULL) {
		char msg2[JSONBODY_MSG_MAX + 64];

		snprintf(msg2, sizeof msg2, "%s is played turn by turn only: leave out 'clock', or choose "
		    "a ruleset with a real-time clock", mr->name);
		request_reply_error(req, API_ERR_CLOCK_UNSUPPORTED, msg2);
		return;
	}
	if (!read_options(req, mr, &settings))
		return;
	if (json_is_true(rated)) {
		/* A creator chooses who sits down (and a seed, every piece and
		 * hole to come): rated matches are the queue's, whose players the
		 * server pairs. */
		request_reply_error(req, API_ERR_INVALID_REQUEST,
		    "a created match is never rated: rated matches come from the queue, POST /api/matches/quick");
		return;
	}
	if ((op = table_op(req, MATCH_PLAY_OP_CREATE, mr, players, seconds, &settings)) == NULL)
		return;
	op->rated = false;
	op->ticks = json_is_string(clock) && strcmp(json_string_value(clock), "ticks") == 0;
	op->seed_chosen = has_seed;
	if (!has_seed) {
		uint64_t r;

		randombytes_buf(&r, sizeof r);
		seed = (int64_t)(r & (uint64_t)ENGINE_ID_MAX);
	}
	op->seed = seed;
	match_play_submit(req, op, create_done);
}

/* ---- POST /api/matches/quick ---- */

static void
quick_done(struct request *req)
{
	struct match_play_op *op = req->ctx;
	bool created = defer_committed(req) && op->verdict == MATCH_PLAY_CREATED;

	/* Only a lobby opened counts as a match started: joining one (or
	 * nothing stored) gives the quota back. */
	if (!created)
		quota_refund(req, QUOTA_MATCHES, op->account_id, quota_today(NULL));
	if (!created && (!defer_committed(req) || op->verdict != MATCH_PLAY_JOINED)) {
		reply_verdict_error(req, op);
		return;
	}
	reply_view(req, created ? 201 : 200, op, op->seat);
}

void
handle_match_quick(struct request *req)
{
	static const char *const fields[] = { "players", "turn_seconds", NULL };
	/* The queue is the default ruleset's: its lobbies carry no ruleset of
	 * their own (index matches_queue). */
	const struct match_rules *mr = match_rules_default();
	const char *all[24];
	struct match_options settings;
	struct match_play_op *op;
	int64_t players = 0, seconds = MATCH_PLAY_TURN_SECONDS_DEFAULT;
	uint64_t r;

	if (!known(req, table_fields(fields, mr, all, sizeof all / sizeof all[0])))
		return;
	if (!read_table(req, mr, &players, &seconds))
		return;
	if (!read_options(req, mr, &settings))
		return;
	/* Charged as a created match (it may open one), given back unless it
	 * did. */
	if ((op = table_op(req, MATCH_PLAY_OP_QUICK, mr, players, seconds, &settings)) == NULL)
		return;
	op->rated = true;
	randombytes_buf(&r, sizeof r);
	op->seed = (int64_t)(r & (uint64_t)ENGINE_ID_MAX);
	match_play_submit(req, op, quick_done);
}

/* ---- POST /api/matches/{id}/join ---- */

static void
join_done(struct request *req)
{
	struct match_play_op *op = req->ctx;

	if (!defer_committed(req) || op->verdict != MATCH_PLAY_JOINED) {
		reply_verdict_error(req, op);
		return;
	}
	reply_view(req, 200, op, op->seat);
}

void
handle_match_join(struct request *req)
{
	static const char *const fields[] = { NULL };
	struct account_ref acct;
	struct match_play_op *op;
	int64_t id;

	if (!match_path_id(req, &id) || !known(req, fields) || auth_bearer(req, true, &acct) != AUTH_OK ||
	    (op = match_play_op_new(req, MATCH_PLAY_OP_JOIN)) == NULL)
		return;
	op->account_id = acct.id;
	op->match_id = id;
	match_play_submit(req, op, join_done);
}

/* ---- POST /api/matches/{id}/move ---- */

static void
move_done(struct request *req)
{
	struct match_play_op *op = req->ctx;
	char text[MATCH_MOVE_TEXT_MAX], *answer;
	size_t len = 0;

	if (!defer_committed(req) || (op->verdict != MATCH_PLAY_MOVED && op->verdict != MATCH_PLAY_RESOLVED)) {
		reply_verdict_error(req, op);
		return;
	}
	op->rules->move_text(&op->mv, text, sizeof text);
	/* The answer is written without a DOM, the whole view too (asked
	 * with ?view=full); its "use" says what the mover's `use T` did: uses
	 * act after the turn's placements (which may collect the item), so a
	 * move that waits for others cannot know yet. */
	answer = match_play_move_answer(op, text, op->verdict == MATCH_PLAY_RESOLVED, op->full_view, &len);
	request_reply_json_text(req, 200, answer, len);
}

void
handle_match_move(struct request *req)
{
	static const char *const fields[] = { "turn", "command", NULL };
	struct account_ref acct;
	struct match_play_op *op;
	const char *command;
	char msg[JSONBODY_MSG_MAX];
	const char *view = request_query(req, "view");
	int64_t id, turn = 0;
	bool present = false;

	if (!match_path_id(req, &id) || !known(req, fields))
		return;
	if (view != NULL && strcmp(view, "full") != 0 && strcmp(view, "mover") != 0) {
		request_reply_error(req, API_ERR_INVALID_REQUEST,
		    "query 'view' must be 'mover' (the default: the mover's own seat) or 'full' (the "
		    "whole match view too)");
		return;
	}
	if (!jsonbody_int(req->json, "turn", 1, INT32_MAX, &present, &turn, msg, sizeof msg) ||
	    !present) {
		request_reply_error(req, API_ERR_INVALID_REQUEST, present ? msg :
		    "missing field 'turn' (the turn the move is for: the match's turn + 1)");
		return;
	}
	if (!jsonbody_string(req->json, "command", &command, msg, sizeof msg)) {
		request_reply_error(req, API_ERR_INVALID_REQUEST, msg);
		return;
	}
	if (auth_bearer(req, true, &acct) != AUTH_OK || (op = match_play_op_new(req, MATCH_PLAY_OP_MOVE)) == NULL)
		return;
	op->account_id = acct.id;
	op->match_id = id;
	op->turn = turn;
	op->full_view = view != NULL && strcmp(view, "full") == 0;
	/* Read in the job, by the match's ruleset, and judged after the
	 * match's own checks. */
	op->command = command;
	op->ncommand = command != NULL ? json_string_length(json_object_get(req->json, "command")) : 0;
	match_play_submit(req, op, move_done);
}

/* ---- GET /api/matches/{id} ---- */

void
handle_match_get(struct request *req)
{
	struct match_play_op *op;
	int64_t id, account_id;

	if (!match_path_id(req, &id) || !viewer_account(req, &account_id) ||
	    (op = match_play_op_new(req, MATCH_PLAY_OP_MOVE)) == NULL || !read_match(req, op, id))
		return;
	/* A real-time match in play: its state is the tick host's, not the
	 * row's (which keeps the start until the end). */
	if (op->row.ticks && op->st != NULL &&
	    match_live_snapshot(match_play_live(req->app->matches), id, op->st, op->st_cap, op->row.totals))
		op->row.ntotals = MATCH_TOTALS_SIZE;
	reply_view(req, 200, op, account_id ? match_play_seat_of(&op->row, account_id) : -1);
}

/* ---- GET /api/matches/{id}/wait?after=T ---- */

struct waiting {
	struct match_play_op op;     /* first: freed as one */
	int64_t after, until, account_id;
	uint64_t ticket;
	bool lobby;               /* the wait began in the lobby: the start answers it */
};

static bool
ready(const struct waiting *w)
{
	const struct store_match_row *r = &w->op.row;

	if (strcmp(r->status, "finished") == 0)
		return true;
	if (strcmp(r->status, "playing") != 0)
		return false;
	return w->lobby || r->turn > w->after;
}

static void wait_cont(struct request *req);

/* Waits (req suspended) unless the match is ready by now; false when the
 * hub is closed (shutting down: nothing suspended). */
static bool
wait_more(struct request *req, struct waiting *w)
{
	struct matches *mx = req->app->matches;
	struct store_match_row *again;
	struct store_conn *c;
	enum store_result rc;

	w->ticket = match_hub_wait(match_play_hub(mx), req, w->op.row.id, wait_cont);
	if (w->ticket == 0)
		return false;
	match_play_wait_timer(mx, w->ticket, w->op.row.id, w->until);
	/* A turn that resolved between the read and the registration has
	 * notified nobody: read the row once more (its turn and status are
	 * enough), and wake ourselves if it moved. The request is suspended,
	 * so the read goes into a row of its own. */
	if ((again = malloc(sizeof *again)) == NULL) {
		match_hub_wake(match_play_hub(mx), w->op.row.id, w->ticket);
		return true;
	}
	c = store_reader(req->app->store);
	rc = store_match_get(c, w->op.row.id, again);
	store_reader_release(req->app->store, c);
	if (rc != STORE_OK || strcmp(again->status, w->op.row.status) != 0 ||
	    again->turn != w->op.row.turn || again->joined != w->op.row.joined)
		match_hub_wake(match_play_hub(mx), w->op.row.id, w->ticket);
	if (rc == STORE_OK)
		store_match_row_free(again);
	free(again);
	return true;
}

/* The match's row alone, without decoding its state: enough to know
 * whether a long poll is answered. False after answering (404, 500). */
static bool
read_row(struct request *req, struct store_match_row *row, int64_t id)
{
	struct store_conn *c = store_reader(req->app->store);
	enum store_result rc;

	store_match_row_free(row);
	rc = store_match_get(c, id, row);
	store_reader_release(req->app->store, c);
	return match_found(req, rc);
}

static void
wait_answer(struct request *req, struct waiting *w)
{
	if (!match_play_unpack(&w->op)) {
		request_reply_error(req, API_ERR_INTERNAL, "the stored match does not read back");
		return;
	}
	reply_view(req, 200, &w->op, w->account_id ? match_play_seat_of(&w->op.row, w->account_id) : -1);
}

static void
wait_cont(struct request *req)
{
	struct waiting *w = req->ctx;

	match_play_wait_cancel(req->app->matches, w->ticket);
	if (!read_row(req, &w->op.row, w->op.row.id))
		return;
	if (ready(w) || store_now_ms() >= w->until || atomic_load(&req->app->shutting_down) ||
	    req->resumed_status == MATCH_HUB_GONE || !wait_more(req, w))
		wait_answer(req, w);
}

static void
waiting_free(void *arg)
{
	struct waiting *w = arg;

	match_play_op_cleanup(&w->op);
	free(w);
}

void
handle_match_wait(struct request *req)
{
	const char *q = request_query(req, "after");
	struct waiting *w;
	int64_t id, account_id, after;

	if (!match_path_id(req, &id))
		return;
	if (q == NULL || !jsonbody_parse_int(q, 0, INT32_MAX, &after)) {
		request_reply_error(req, API_ERR_INVALID_REQUEST,
		    "query 'after' must be a turn number (0 or more): the answer comes once a later turn "
		    "has resolved");
		return;
	}
	if (!viewer_account(req, &account_id) ||
	    !holds_request(req->app->holds, req, HOLDS_WAIT, account_id))
		return;
	if ((w = request_ctx_new(req, sizeof *w, waiting_free)) == NULL)
		return;
	w->op.mx = req->app->matches;
	w->op.seat = -1;
	w->after = after;
	w->account_id = account_id;
	w->until = store_now_ms() + MATCH_PLAY_WAIT_MS;
	if (!read_row(req, &w->op.row, id))
		return;
	w->lobby = strcmp(w->op.row.status, "lobby") == 0;
	if (ready(w) || !wait_more(req, w))
		wait_answer(req, w);
}

/* ---- GET /api/matches/{id}/events ---- */

/* After a stream has been registered: a change committed between the first
 * read and the registration told the match's streams nothing, and the
 * stream of a match that ended then would never end. Look once more, and
 * send what changed to the match's streams (the others get it twice, under
 * the same id, which does no harm). */
static void
stream_catch_up(struct app *app, const struct store_match_row *seen)
{
	struct match_play_op *again = calloc(1, sizeof *again);
	struct store_conn *c;
	enum store_result rc;
	size_t len = 0;
	char *text;

	if (again == NULL)
		return;
	c = store_reader(app->store);
	rc = match_play_read(c, again, seen->id);
	store_reader_release(app->store, c);
	if (rc == STORE_OK && (again->row.turn != seen->turn || again->row.joined != seen->joined ||
	    strcmp(again->row.status, seen->status) != 0) &&
	    (text = match_play_event_text(again, &len)) != NULL) {
		match_hub_notify(match_play_hub(app->matches), seen->id, text, len,
		    strcmp(again->row.status, "finished") == 0);
		free(text);
	}
	match_play_op_cleanup(again);
	free(again);
}

void
handle_match_events(struct request *req)
{
	struct match_play_op *op;
	struct app *app = req->app;
	char *event;
	size_t n = 0;
	int64_t id;
	bool over;

	if (!match_path_id(req, &id) || (op = match_play_op_new(req, MATCH_PLAY_OP_MOVE)) == NULL ||
	    !read_match(req, op, id))
		return;
	/* A stream already over ends at once: it holds nothing. */
	over = strcmp(op->row.status, "finished") == 0;
	if (!over && !holds_request(app->holds, req, HOLDS_STREAM, 0))
		return;
	if ((event = match_play_event_text(op, &n)) == NULL) {
		request_reply_error(req, API_ERR_INTERNAL, "out of memory");
		return;
	}
	switch (match_hub_stream(match_play_hub(app->matches), req, id, event, n, over)) {
	case MATCH_HUB_STREAMING:
		/* The request belongs to the stream now: only op (still the
		 * request's) and app are used below. */
		if (!over)
			stream_catch_up(app, &op->row);
		break;
	case MATCH_HUB_FULL:
		request_reply_later(req, API_ERR_BUSY, "5", "every match event stream is taken: retry later, "
		    "or long-poll .../wait");
		break;
	case MATCH_HUB_CLOSED:
		request_reply_error(req, API_ERR_SHUTTING_DOWN, NULL);
		break;
	case MATCH_HUB_FAILED:
		if (!req->replied)
			request_reply_error(req, API_ERR_INTERNAL, "out of memory");
		break;
	}
	free(event);
}

/* ---- GET /api/matches/{id}/replay ---- */

/* The first buffer of the replay's and the verifier's answers, and the
 * bound: a replay of MATCH_TURN_CAP_MAX turns of 8 seats, and more. */
#define ANSWER_TEXT_FIRST 4096
#define ANSWER_TEXT_MAX ((size_t)256 << 20)

void
handle_match_replay(struct request *req)
{
	struct match_play_op *op;
	struct store_conn *c;
	json_t *replay;
	struct jw w;
	char *text;
	size_t len = 0;
	int64_t id;

	if (!match_path_id(req, &id) || (op = match_play_op_new(req, MATCH_PLAY_OP_MOVE)) == NULL ||
	    !read_match(req, op, id))
		return;
	if (strcmp(op->row.status, "finished") != 0) {
		request_reply_error(req, API_ERR_MATCH_NOT_OVER, "the replay shows the seed and every move: "
		    "it is given once the match is over");
		return;
	}
	c = store_reader(req->app->store);
	replay = match_play_replay_of(c, op);
	store_reader_release(req->app->store, c);
	if (replay == NULL) {
		request_reply_error(req, API_ERR_INTERNAL, "the match's turns do not read back");
		return;
	}
	jw_init(&w, ANSWER_TEXT_FIRST, ANSWER_TEXT_MAX);
	match_replay_answer_write(&w, id, replay, op->row.certificate);
	json_decref(replay);
	text = jw_take(&w, &len);
	request_reply_json_text(req, 200, text, len);
}

/* ---- POST /api/matches/replays/verify ---- */

struct match_verification {
	const json_t         *replay;  /* borrowed from the request's body */
	const char           *cert;    /* likewise, or NULL */
	const struct keyring *keys;
	int                   rc;
	struct match_replay_check chk;
	json_t               *claims;
	const char           *why;     /* why the certificate does not hold */
	char                  hash[CERTIFICATE_HASH_TEXT];
};

static void
match_verification_free(void *arg)
{
	struct match_verification *v = arg;

	json_decref(v->chk.final);
	json_decref(v->claims);
	free(v);
}

static void
match_verify_task(void *arg)
{
	struct match_verification *v = arg;
	const char *claimed;
	/* The verifier of the ruleset the replay names; a replay that names
	 * none of ours gets the default's, whose refusal says what a replay
	 * must be. */
	const struct match_rules *mr = match_rules_by_name(json_string_value(json_object_get(v->replay,
	    "rules")));

	v->rc = match_replay_verify(mr != NULL ? mr : match_rules_default(), v->replay, &v->chk);
	if (v->rc != 0)
		return;
	certificate_json_hash(v->replay, v->hash);
	if (v->cert == NULL)
		return;
	v->claims = certificate_verify(v->keys, v->cert, strlen(v->cert));
	claimed = json_string_value(json_object_get(v->claims, "replay"));
	if (v->claims == NULL)
		v->why = "the certificate does not verify with this server's keys";
	else if (claimed == NULL || strcmp(claimed, v->hash) != 0)
		v->why = "the certificate names another replay";
}

static void
match_verify_done(struct request *req)
{
	struct match_verification *v = req->ctx;
	const char *why = v->rc != 0 ? v->chk.reason : v->why;
	struct jw w;
	char *text;
	size_t len = 0;

	jw_init(&w, ANSWER_TEXT_FIRST, ANSWER_TEXT_MAX);
	if (why != NULL)
		match_verify_refusal_write(&w, v->rc != 0 ? v->chk.turn : 0, why,
		    v->rc != 0 ? v->chk.final : NULL);
	else
		match_verified_write(&w, v->chk.nturns, v->chk.final, v->hash, v->claims);
	text = jw_take(&w, &len);
	if (why != NULL)
		request_reply_error_text(req, API_ERR_INVALID_REPLAY, why, text, len);
	else
		request_reply_json_text(req, 200, text, len);
}

void
handle_match_verify(struct request *req)
{
	const json_t *replay, *cert;
	struct match_verification *v;

	if (!verify_body(req, "a match replay", &replay, &cert))
		return;
	if ((v = request_ctx_new(req, sizeof *v, match_verification_free)) == NULL)
		return;
	v->replay = replay;
	v->cert = cert != NULL ? json_string_value(cert) : NULL;
	v->keys = app_keys(req->app);
	workers_submit_or_busy(req->app->verify, req, match_verify_task, v, match_verify_done,
	    "replay verifier");
}

/* ---- GET /api/matches/ratings ---- */

#define RATINGS_TEXT_FIRST 4096
#define RATINGS_TEXT_MAX ((size_t)4 << 20)  /* a page of STORE_PAGE_MAX rows, and more */

void
handle_match_ratings(struct request *req)
{
	struct store_rating rows[STORE_PAGE_MAX];
	struct match_rating_row out[STORE_PAGE_MAX];
	const char *after = request_query(req, "after");
	struct store_conn *c;
	enum store_result rc;
	struct jw w;
	char *text;
	size_t len = 0;
	int64_t above = 0;
	int limit, n = 0, i;

	if (!handlers_read_limit(req, &limit))
		return;
	c = store_reader(req->app->store);
	rc = store_ratings_list(c, after, &above, limit, rows, &n);
	store_reader_release(req->app->store, c);
	if (rc == STORE_NOT_FOUND) {
		request_reply_error(req, API_ERR_INVALID_REQUEST,
		    "query 'after' must be the 'next' cursor of a previous page (an account with a rating)");
		return;
	}
	if (rc != STORE_OK) {
		request_reply_error(req, API_ERR_INTERNAL, NULL);
		return;
	}
	for (i = 0; i < n; i++)
		out[i] = (struct match_rating_row){ rows[i].name, rows[i].rating, rows[i].rd,
		    rows[i].volatility, rows[i].matches };
	/* The page's ranks follow the ratings before it; next is the last
	 * account of a full page. */
	jw_init(&w, RATINGS_TEXT_FIRST, RATINGS_TEXT_MAX);
	match_ratings_write(&w, match_rules_default()->name, out, n, above, n == limit && n > 0 ? rows[n - 1].name : NULL);
	text = jw_take(&w, &len);
	request_reply_json_text(req, 200, text, len);
}
