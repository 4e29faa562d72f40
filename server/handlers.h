/*
 * handlers.h: every route handler, grouped by the file that holds it. The
 * route table (routes.c) is the one place that binds them to paths.
 */
#ifndef SERVER_HANDLERS_H
#define SERVER_HANDLERS_H

#include "http.h"

struct game;

/* A handler whose route names a {game} receives it, looked up by the router
 * (routes.c). */

/* handlers_ops.c: liveness, readiness, metrics */
void handle_healthz(struct request *req);
void handle_readyz(struct request *req);
void handle_metrics(struct request *req);

/* handlers_accounts.c: accounts, agent keys, puzzles, public keys */
void handle_accounts_create(struct request *req);
/* Whether s can be an account's name: 3-32 letters, digits, '_' or '-'. */
bool account_name_valid(const char *s);
void handle_me(struct request *req);
void handle_me_keys_add(struct request *req);
void handle_me_keys_revoke(struct request *req);
void handle_agent_check(struct request *req);
void handle_keys(struct request *req);

/* handlers_games.c: every game on the table, token routes and the seed's
 * own account routes */
void handle_game_init(struct request *req, const struct game *g);
void handle_game_action(struct request *req, const struct game *g);
void handle_game_state(struct request *req, const struct game *g);
void handle_game_finish(struct request *req, const struct game *g);
void handle_game_rules(struct request *req, const struct game *g);
void handle_account_new(struct request *req, const struct game *g);
void handle_account_act(struct request *req, const struct game *g);
void handle_account_state(struct request *req, const struct game *g);
void handle_account_finish(struct request *req, const struct game *g);
void handle_account_rules(struct request *req, const struct game *g);

/* handlers_board.c: runs and replays, leaderboards, reviews */
void handle_run_get(struct request *req, const struct game *g);
void handle_leaderboard(struct request *req, const struct game *g);
/* A list route's ?limit=: 1..STORE_PAGE_MAX (larger values are capped),
 * default 20; false once a 400 is queued (handlers_board.c). */
bool handlers_read_limit(struct request *req, int *limit);
void handle_reviews(struct request *req, const struct game *g);
void handle_replay_verify(struct request *req, const struct game *g);
/* The body of a verification: a bare replay (what names it in the error),
 * or {"replay", "certificate"?} with nothing else. False after a 400. */
bool verify_body(struct request *req, const char *what, const json_t **replay, const json_t **cert);
void handle_run_by_id(struct request *req);

/* handlers_import.c: a record in a game's outside format, re-simulated */
void handle_replay_import(struct request *req, const struct game *g);
void handle_run_record(struct request *req, const struct game *g);

/* handlers_watch.c: what the pages draw: the games, a run's steps, a
 * playing run's head, a match's turns */
void handle_games(struct request *req);
void handle_run_steps(struct request *req, const struct game *g);
/* The run of the path (params[1]) in game g, and its stored moves when
 * actions is not NULL and they are shown (not a playing run of a game
 * that hides its future: *actions stays NULL). 0, or -1 once answered
 * (404, 500). */
struct store_run_head;
int handlers_read_run(struct request *req, const struct game *g, int64_t *id,
    struct store_run_head *head, json_t **actions);
void handle_run_live(struct request *req, const struct game *g);
void handle_match_turns(struct request *req);

/* handlers_web.c: the pages and their static files, embedded at build time */
void handle_page_index(struct request *req);
void handle_page_run(struct request *req);
void handle_page_match(struct request *req);
void handle_page_verify(struct request *req);
void handle_page_account(struct request *req);
void handle_page_compare(struct request *req);
void handle_static(struct request *req);
void handle_openapi(struct request *req);

/* oauth.c: the authorization server of /mcp (docs/mcp.md) */
void handle_oauth_resource(struct request *req);
void handle_oauth_server(struct request *req);
void handle_oauth_register(struct request *req);
void handle_oauth_authorize(struct request *req);
void handle_oauth_consent(struct request *req);
void handle_oauth_token(struct request *req);

/* handlers_matches.c: matches, their long polls and streams,
 * replays and ratings */
/* The {id} of a match route's path: a decimal id, else a 404 answered
 * (false). */
bool match_path_id(struct request *req, int64_t *id);
void handle_match_create(struct request *req);
void handle_match_join(struct request *req);
void handle_match_move(struct request *req);
void handle_match_get(struct request *req);
void handle_match_wait(struct request *req);
void handle_match_events(struct request *req);
/* handlers_live.c: a real-time match's keys and stream */
void handle_match_keys(struct request *req);
void handle_match_stream(struct request *req);
void handle_match_replay(struct request *req);
void handle_match_verify(struct request *req);
void handle_match_ratings(struct request *req);

/* handlers_history.c: the open matches, an account's page, its runs and
 * matches (docs/api.md, "Accounts and open matches") */
void handle_matches_open(struct request *req);
void handle_match_quick(struct request *req);
void handle_account_page(struct request *req);
void handle_account_runs(struct request *req);
void handle_account_matches(struct request *req);

/* What POST /mcp asks of the route table, which hands it over
 * (routes.c): mcp.c runs a tool's route through these and knows no
 * table. A route is its index in the table. */
struct mcp_routes {
	/* The route for path and method, its parameters written into req;
	 * -1 when none. */
	int  (*match)(const char *path, enum http_method method, struct request *req);
	/* Route i's rate-limit class (enum ratelimit_class, -1: none), and
	 * whether over its limit it is refused with the run its stateToken
	 * holds, once its body is in (routes_show_run_when_limited). */
	int  (*rate)(int i);
	bool (*show_run_when_limited)(int i);
	/* Runs the handler of req's route (req->route). */
	void (*run)(struct request *req);
};

/* mcp.c: POST /mcp, the MCP endpoint; its tools run the routes above */
void handle_mcp(struct request *req, const struct mcp_routes *routes);
/* Set on every request to /mcp from its match on (routes.c): the front's
 * own refusals (405, 413, 415, 429, 503) become JSON-RPC errors. */
json_t *mcp_front_wrap(struct request *req, int *status, json_t *body);
/* On the same match: the request's Origin when it may call /mcp (its page
 * may then read the answers: req->cors_origin), else NULL. */
const char *mcp_cors_origin(struct request *req);

#endif
