/*
 * routes.c: the route table. One line per route: methods, pattern,
 * handler, metrics label, whether the body is JSON. Matching walks the
 * table segment by segment; the table is small and the walk allocates
 * nothing.
 */
#include "routes.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "agent_check.h"
#include "defer.h"
#include "game.h"
#include "handlers.h"
#include "jsonbody.h"
#include "ratelimit.h"
#include "throttle.h"

/* Rate classes, short for the table. */
#define NONE     ROUTE_UNLIMITED
#define ACCOUNTS RATELIMIT_ACCOUNTS
#define PUZZLES  RATELIMIT_PUZZLES
#define RUNS     RATELIMIT_RUNS
#define MOVES    RATELIMIT_MOVES
#define READS    RATELIMIT_READS
#define VERIFY   RATELIMIT_VERIFY

static void route_mcp(struct request *req);

/* A route whose handler takes the request alone; one whose first
 * parameter is {game}, looked up by the router; one of the seed's own
 * shape, for the games that have those routes. */
#define PLAIN(m, pat, h, label, js, rc) { m, pat, h, NULL, false, label, js, rc, false }
#define GAME(m, pat, h, label, js, rc)  { m, pat, NULL, h, false, label, js, rc, false }
#define SEED(m, pat, h, label, js, rc)  { m, pat, NULL, h, true, label, js, rc, false }
#define FORM(m, pat, h, label, rc)      { m, pat, h, NULL, false, label, false, rc, true }

const struct route routes[] = {
	/* Operators' routes are not limited: a load balancer polls them. */
	PLAIN(HTTP_GET | HTTP_HEAD,   "/healthz",                               handle_healthz,         "healthz",        false, NONE),
	PLAIN(HTTP_GET,               "/readyz",                                handle_readyz,          "readyz",         false, NONE),
	PLAIN(HTTP_GET | HTTP_HEAD,   "/metrics",                               handle_metrics,         "metrics",        false, NONE),

	PLAIN(HTTP_POST,              "/api/v1/accounts",                       handle_accounts_create, "accounts_create", true, ACCOUNTS),
	PLAIN(HTTP_GET | HTTP_HEAD,   "/api/v1/me",                             handle_me,              "me",             false, READS),
	PLAIN(HTTP_POST,              "/api/v1/me/keys",                        handle_me_keys_add,     "me_keys_add",    true,  ACCOUNTS),
	PLAIN(HTTP_DELETE,            "/api/v1/me/keys/{id}",                   handle_me_keys_revoke,  "me_keys_revoke", false, ACCOUNTS),
	PLAIN(HTTP_GET,               "/api/v1/agent-check",                    handle_agent_check,     "agent_check",    false, PUZZLES),
	PLAIN(HTTP_GET | HTTP_HEAD,   "/api/v1/keys",                           handle_keys,            "keys",           false, READS),
	/* An account's public history (its page, docs/web.md). */
	PLAIN(HTTP_GET | HTTP_HEAD,   "/api/v1/accounts/{name}",                handle_account_page,    "account_page",   false, READS),
	PLAIN(HTTP_GET | HTTP_HEAD,   "/api/v1/accounts/{name}/runs",           handle_account_runs,    "account_runs",   false, READS),
	PLAIN(HTTP_GET | HTTP_HEAD,   "/api/v1/accounts/{name}/matches",        handle_account_matches, "account_matches", false, READS),

	GAME(HTTP_GET | HTTP_POST,   "/api/games/{game}/init",                 handle_game_init,       "game_init",      true,  RUNS),
	GAME(HTTP_POST,              "/api/games/{game}/action",               handle_game_action,     "game_action",    true,  MOVES),
	GAME(HTTP_GET | HTTP_POST,   "/api/games/{game}/state",                handle_game_state,      "game_state",     true,  READS),
	GAME(HTTP_POST,              "/api/games/{game}/finish",               handle_game_finish,     "game_finish",    true,  MOVES),
	/* The rules hand out a puzzle when the game's check is on. */
	GAME(HTTP_GET,               "/api/games/{game}/rules",                handle_game_rules,      "game_rules",     false, PUZZLES),

	SEED(HTTP_POST,              "/games/{game}/api/new",                  handle_account_new,     "account_new",    true,  RUNS),
	SEED(HTTP_POST,              "/games/{game}/api/act",                  handle_account_act,     "account_act",    true,  MOVES),
	SEED(HTTP_GET,               "/games/{game}/api/state",                handle_account_state,   "account_state",  false, READS),
	SEED(HTTP_POST,              "/games/{game}/api/finish",               handle_account_finish,  "account_finish", true,  MOVES),
	SEED(HTTP_GET,               "/games/{game}/api/rules",                handle_account_rules,   "account_rules",  false, PUZZLES),

	GAME(HTTP_GET | HTTP_HEAD,   "/api/games/{game}/runs/{runId}",         handle_run_get,         "run_get",        false, READS),
	GAME(HTTP_GET | HTTP_HEAD,   "/api/games/{game}/leaderboard",          handle_leaderboard,     "leaderboard",    false, READS),
	GAME(HTTP_GET | HTTP_HEAD,   "/api/games/{game}/reviews",              handle_reviews,         "reviews",        false, READS),
	GAME(HTTP_POST,              "/api/games/{game}/replays/verify",       handle_replay_verify,   "replay_verify",  true,  VERIFY),
	GAME(HTTP_POST,              "/api/games/{game}/replays/import",       handle_replay_import,   "replay_import",  true,  VERIFY),

	/* What the pages draw (docs/web.md). The steps replay a run on the
	 * verification workers, so they count as verification. */
	PLAIN(HTTP_GET | HTTP_HEAD,   "/api/games",                             handle_games,           "games",          false, READS),
	PLAIN(HTTP_GET | HTTP_HEAD,   "/api/runs/{runId}",                      handle_run_by_id,       "run_by_id",      false, READS),
	GAME(HTTP_GET | HTTP_HEAD,   "/api/games/{game}/runs/{runId}/steps",   handle_run_steps,       "run_steps",      false, VERIFY),
	GAME(HTTP_GET | HTTP_HEAD,   "/api/games/{game}/runs/{runId}/live",    handle_run_live,        "run_live",       false, READS),
	/* The game's outside format, written on the verification workers. */
	GAME(HTTP_GET | HTTP_HEAD,   "/api/games/{game}/runs/{runId}/record",  handle_run_record,      "run_record",     false, VERIFY),

	/* Matches: writes are moves, the rest reads (a long poll and a
	 * stream count once, when they begin). */
	PLAIN(HTTP_POST,              "/api/matches",                           handle_match_create,    "match_create",   true,  MOVES),
	PLAIN(HTTP_GET | HTTP_HEAD,   "/api/matches/ratings",                   handle_match_ratings,   "match_ratings",  false, READS),
	PLAIN(HTTP_GET,               "/api/matches",                           handle_matches_open,    "matches_list",   false, READS),
	PLAIN(HTTP_POST,              "/api/matches/quick",                     handle_match_quick,     "match_quick",    true,  MOVES),
	PLAIN(HTTP_GET | HTTP_HEAD,   "/api/matches/open",                      handle_matches_open,    "matches_open",   false, READS),
	PLAIN(HTTP_POST,              "/api/matches/replays/verify",            handle_match_verify,    "match_verify",   true,  VERIFY),
	PLAIN(HTTP_GET | HTTP_HEAD,   "/api/matches/{id}",                      handle_match_get,       "match_get",      false, READS),
	PLAIN(HTTP_POST,              "/api/matches/{id}/join",                 handle_match_join,      "match_join",     true,  MOVES),
	PLAIN(HTTP_POST,              "/api/matches/{id}/move",                 handle_match_move,      "match_move",     true,  MOVES),
	PLAIN(HTTP_GET,               "/api/matches/{id}/wait",                 handle_match_wait,      "match_wait",     false, READS),
	PLAIN(HTTP_GET,               "/api/matches/{id}/events",               handle_match_events,    "match_events",   false, READS),
	PLAIN(HTTP_POST,              "/api/matches/{id}/keys",                 handle_match_keys,      "match_keys",     true,  MOVES),
	PLAIN(HTTP_GET,               "/api/matches/{id}/stream",               handle_match_stream,    "match_stream",   false, READS),
	PLAIN(HTTP_GET | HTTP_HEAD,   "/api/matches/{id}/replay",               handle_match_replay,    "match_replay",   false, READS),
	PLAIN(HTTP_GET | HTTP_HEAD,   "/api/matches/{id}/turns",                handle_match_turns,     "match_turns",    false, VERIFY),

	/* The MCP endpoint (docs/mcp.md): each tool pays its own route's class
	 * once its body says which, every other method a read. */
	PLAIN(HTTP_POST,              "/mcp",                                   route_mcp,              "mcp",            false, NONE),
	/* Its authorization server (server/oauth.c): the metadata is read by
	 * every client that connects, registration and the consent form are
	 * public and cost a seal or an account; the consent page is HTML. */
	PLAIN(HTTP_GET | HTTP_HEAD,   "/.well-known/oauth-protected-resource",  handle_oauth_resource,  "oauth_resource", false, READS),
	PLAIN(HTTP_GET | HTTP_HEAD,   "/.well-known/oauth-protected-resource/mcp", handle_oauth_resource, "oauth_resource_mcp", false, READS),
	PLAIN(HTTP_GET | HTTP_HEAD,   "/.well-known/oauth-authorization-server", handle_oauth_server,   "oauth_server",   false, READS),
	PLAIN(HTTP_POST,              "/oauth/register",                        handle_oauth_register,  "oauth_register", true,  PUZZLES),
	PLAIN(HTTP_GET,               "/oauth/authorize",                       handle_oauth_authorize, "page_oauth_authorize", false, PUZZLES),
	FORM(HTTP_POST,               "/oauth/authorize",                       handle_oauth_consent,   "page_oauth_consent", PUZZLES),
	FORM(HTTP_POST,               "/oauth/token",                           handle_oauth_token,     "oauth_token",    MOVES),

	/* The pages: HTML, not part of the JSON contract. Served from memory
	 * without the store, like /healthz, so not limited: a page load asks
	 * for a dozen files at once. */
	PLAIN(HTTP_GET | HTTP_HEAD,   "/",                                      handle_page_index,      "page_index",     false, NONE),
	PLAIN(HTTP_GET | HTTP_HEAD,   "/runs/{runId}",                          handle_page_run,        "page_run",       false, NONE),
	PLAIN(HTTP_GET | HTTP_HEAD,   "/matches/{id}",                          handle_page_match,      "page_match",     false, NONE),
	PLAIN(HTTP_GET | HTTP_HEAD,   "/verify",                                handle_page_verify,     "page_verify",    false, NONE),
	PLAIN(HTTP_GET | HTTP_HEAD,   "/accounts/{name}",                       handle_page_account,    "page_account",   false, NONE),
	PLAIN(HTTP_GET | HTTP_HEAD,   "/compare",                               handle_page_compare,    "page_compare",   false, NONE),
	/* The contract, as built: for client generators (not itself a route of it). */
	PLAIN(HTTP_GET | HTTP_HEAD,   "/openapi.yaml",                          handle_openapi,         "page_openapi",   false, NONE),
	PLAIN(HTTP_GET | HTTP_HEAD,   "/static/{file}",                         handle_static,          "static",         false, NONE),
};
const size_t nroutes = sizeof routes / sizeof routes[0];

/* Matches one pattern; params are written only on success. */
static bool
match(const char *pattern, const char *path, struct request *req)
{
	char params[REQUEST_MAX_PARAMS][sizeof req->params[0]];
	int nparams = 0;
	const char *p = pattern, *s = path;

	while (*p != '\0' && *s != '\0') {
		if (*p != '/' || *s != '/')
			return false;
		p++;
		s++;
		if (*p == '{') {
			size_t slen = strcspn(s, "/");

			if (slen == 0 || slen >= sizeof params[0] || nparams == REQUEST_MAX_PARAMS)
				return false;
			memcpy(params[nparams], s, slen);
			params[nparams++][slen] = '\0';
			s += slen;
			p = strchr(p, '}') + 1;
		} else {
			size_t plen = strcspn(p, "/"), slen = strcspn(s, "/");

			if (plen != slen || memcmp(p, s, plen) != 0)
				return false;
			p += plen;
			s += slen;
		}
	}
	if (*p != '\0' || *s != '\0')
		return false;
	if (req != NULL)
		memcpy(req->params, params, sizeof params);
	return true;
}

/* What a route's pattern is made of, worked out once: whether it has a
 * {param}, the literal text before the first one and after the last. A
 * path that does not start and end with them is not tried further. */
struct shape {
	bool   param;
	size_t len, head, tail;
};

static struct shape shapes[sizeof routes / sizeof routes[0]];
static pthread_once_t shapes_once = PTHREAD_ONCE_INIT;

static void
shapes_init(void)
{
	size_t i;

	for (i = 0; i < nroutes; i++) {
		const char *p = routes[i].pattern, *open = strchr(p, '{');

		shapes[i].param = open != NULL;
		shapes[i].len = strlen(p);
		shapes[i].head = open != NULL ? (size_t)(open - p) : shapes[i].len;
		shapes[i].tail = open != NULL ? strlen(strrchr(p, '}') + 1) : 0;
	}
}

const struct route *
routes_match(const char *path, enum http_method method, struct request *req, unsigned *allowed)
{
	size_t i, plen = strlen(path);
	int pass;

	pthread_once(&shapes_once, shapes_init);
	/* Routes without a {param} first: a path one of them names exactly
	 * (/api/matches/quick) is that route's alone, and its Allow lists its
	 * methods, not those of a pattern that would also match it
	 * (/api/matches/{id}). */
	*allowed = 0;
	for (pass = 0; pass < 2 && *allowed == 0; pass++)
		for (i = 0; i < nroutes; i++) {
			const struct shape *sh = &shapes[i];
			const char *pat = routes[i].pattern;

			if (sh->param != (pass == 1) || plen < sh->head + sh->tail ||
			    memcmp(path, pat, sh->head) != 0 ||
			    memcmp(path + plen - sh->tail, pat + sh->len - sh->tail, sh->tail) != 0 ||
			    (sh->param ? !match(pat, path, NULL) : plen != sh->head))
				continue;
			if (routes[i].methods & method) {
				match(pat, path, req);
				return &routes[i];
			}
			*allowed |= routes[i].methods;
		}
	return NULL;
}

void
routes_allow_header(unsigned methods, char *out, size_t cap)
{
	static const struct { unsigned bit; const char *name; } names[] = {
		{ HTTP_GET, "GET" }, { HTTP_HEAD, "HEAD" }, { HTTP_POST, "POST" }, { HTTP_PUT, "PUT" },
		{ HTTP_DELETE, "DELETE" }, { HTTP_PATCH, "PATCH" },
	};
	size_t i, n = 0;

	if (cap == 0)
		return;
	out[0] = '\0';
	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		if (!(methods & names[i].bit))
			continue;
		n += (size_t)snprintf(out + n, n < cap ? cap - n : 0, "%s%s", n ? ", " : "", names[i].name);
	}
}

/* ---- the closest route, for a 404 ---- */

#define HINT_SEG 32   /* a segment longer than this is compared by nothing */
#define HINT_MAX 3    /* edits beyond which a route is not offered */

/* Edit distance between two short strings (each < HINT_SEG), or
 * HINT_MAX + 1 when it is over HINT_MAX or either is too long. */
static unsigned
edits(const char *a, size_t na, const char *b, size_t nb)
{
	unsigned row[HINT_SEG + 1], prev, cur, best;
	size_t i, j;

	if (na >= HINT_SEG || nb >= HINT_SEG)
		return HINT_MAX + 1;
	for (j = 0; j <= nb; j++)
		row[j] = (unsigned)j;
	for (i = 1; i <= na; i++) {
		prev = row[0];
		row[0] = (unsigned)i;
		best = row[0];
		for (j = 1; j <= nb; j++) {
			cur = row[j];
			row[j] = prev + (a[i - 1] != b[j - 1]);
			if (row[j - 1] + 1 < row[j])
				row[j] = row[j - 1] + 1;
			if (cur + 1 < row[j])
				row[j] = cur + 1;
			prev = cur;
			if (row[j] < best)
				best = row[j];
		}
		if (best > HINT_MAX)
			return HINT_MAX + 1;
	}
	return row[nb];
}

/* The edits that turn path into a path of pattern: segment by segment
 * (a {param} takes any segment), both with as many segments; above
 * HINT_MAX when it is not close. */
static unsigned
distance(const char *pattern, const char *path)
{
	const char *p = pattern, *s = path;
	unsigned total = 0;

	while (*p == '/' && *s == '/') {
		size_t plen, slen;

		p++;
		s++;
		plen = strcspn(p, "/");
		slen = strcspn(s, "/");
		if (*p != '{' && slen > 0 && slen < plen && memcmp(p, s, slen) == 0)
			total++; /* a segment cut short, "act" for "action": one edit */
		else if (*p != '{')
			total += edits(p, plen, s, slen);
		else if (slen == 0)
			total++;
		if (total > HINT_MAX)
			return HINT_MAX + 1;
		p += plen;
		s += slen;
	}
	return *p == '\0' && *s == '\0' ? total : HINT_MAX + 1;
}

/* A 404's hint: the route closest to path, "the closest route is METHODS
 * PATTERN", when one is within HINT_MAX edits; false otherwise. A trailing
 * slash is not counted. The cost is bounded: at most HINT_SEG squared
 * steps a segment, and only for routes of as many segments. */
static bool
router_closest(const char *path, char *out, size_t cap)
{
	char trimmed[256], methods[64];
	size_t n = strlen(path), i, best_i = 0;
	unsigned best = HINT_MAX + 1, d;

	if (n == 0 || n >= sizeof trimmed)
		return false;
	memcpy(trimmed, path, n + 1);
	if (n > 1 && trimmed[n - 1] == '/')
		trimmed[n - 1] = '\0';
	for (i = 0; i < nroutes; i++) {
		d = distance(routes[i].pattern, trimmed);
		if (d < best) {
			best = d;
			best_i = i;
		}
	}
	if (best > HINT_MAX)
		return false;
	routes_allow_header(routes[best_i].methods, methods, sizeof methods);
	snprintf(out, cap, "no such route; the closest is %s %s (see /openapi.yaml)", methods,
	    routes[best_i].pattern);
	return true;
}

static int
router_match(struct request *req, unsigned *allowed, bool *json)
{
	/* HEAD is served (as GET without the body) only where the route lists
	 * it: where a GET changes nothing. */
	const struct route *r = routes_match(req->path, req->method, req, allowed);

	/* The MCP endpoint speaks JSON-RPC, its refusals by the front too
	 * (a 405 has no route: the path says it). A page of an Origin that
	 * may call it reads its answers (CORS), and its browser's preflight,
	 * OPTIONS with an Origin, goes to the endpoint's handler: not a route
	 * of the contract, but how browsers ask (without an Origin it is no
	 * preflight, and the method is 405 as anywhere). */
	if (strcmp(req->path, "/mcp") == 0) {
		req->wrap = mcp_front_wrap;
		req->cors_origin = mcp_cors_origin(req);
		if (r == NULL && req->method == HTTP_OPTIONS && request_header(req, "Origin") != NULL)
			r = routes_match(req->path, HTTP_POST, req, allowed);
	}
	if (r == NULL)
		return -1;
	*json = r->json;
	req->form_body = r->form;
	req->rate_class = r->rate;
	return (int)(r - routes);
}

/* Runs the route's handler; a game route's {game} is looked up here, once
 * for every game route, and refused with a 404 naming the games served. */
static void
router_run(struct request *req)
{
	const struct route *r = &routes[req->route];
	const struct game *g;
	char names[GAME_NAMES_MAX], msg[GAME_NAMES_MAX + 48];

	if (r->game == NULL) {
		r->handler(req);
		return;
	}
	g = game_by_name(req->params[0], strlen(req->params[0]));
	if (g != NULL && (!r->seed || game_ext(g)->abandon != NULL)) {
		r->game(req, g);
		return;
	}
	if (r->seed)
		snprintf(msg, sizeof msg, "no such game on these routes, which serve: %s",
		    game_seed_route_names(names, sizeof names));
	else
		snprintf(msg, sizeof msg, "no such game: %s", game_names(names, sizeof names));
	request_reply_error(req, API_ERR_NOT_FOUND, msg);
}

/* The routes whose 429 shows the run: those that play on or read a run,
 * the token routes and the seed's, where a bot over its limit must not
 * lose its place. Their body is read, and play.c's limited_body reads the
 * run (nothing is written, the engine does not run). */
bool
routes_show_run_when_limited(const struct route *r)
{
	return r->game == handle_game_action || r->game == handle_game_state ||
	    r->game == handle_game_finish || r->game == handle_account_act ||
	    r->game == handle_account_state || r->game == handle_account_finish;
}

/* At the headers: the address's rate limit, then an X-Agent-Answer that
 * is no number at all (400 before any puzzle is spent; a body's
 * agent_answer is checked with the body, jsonbody_known). */
static bool
router_admit(struct request *req)
{
	if (!throttle_admit(req, routes_show_run_when_limited(&routes[req->route])))
		return false;
	/* POST /mcp learns its class from its body; a client already out of
	 * reads (what every message pays first: server/mcp.c) is turned away
	 * before a byte of it is read. */
	if (req->wrap == mcp_front_wrap && req->method == HTTP_POST &&
	    !throttle_admit_over(req, RATELIMIT_READS))
		return false;
	if (!agent_answer_header_ok(request_header(req, "X-Agent-Answer"))) {
		request_refuse(req, API_ERR_INVALID_REQUEST, "X-Agent-Answer: " JSONBODY_ANSWER_NOT_A_NUMBER, NULL);
		return false;
	}
	return true;
}

const struct http_router routes_router = {
	.match = router_match,
	.admit = router_admit,
	.run = router_run,
	.allow_header = routes_allow_header,
	.outage = defer_outage,
	.closest = router_closest,
	.nroutes = sizeof routes / sizeof routes[0],
};

/* The table as POST /mcp sees it (handlers.h). */
static int
mcp_match(const char *path, enum http_method method, struct request *req)
{
	unsigned allowed = 0;
	const struct route *r = routes_match(path, method, req, &allowed);

	return r != NULL ? (int)(r - routes) : -1;
}

static int
mcp_rate(int i)
{
	return routes[i].rate;
}

static bool
mcp_show_run_when_limited(int i)
{
	return routes_show_run_when_limited(&routes[i]);
}

static const struct mcp_routes mcp_routes = {
	.match = mcp_match,
	.rate = mcp_rate,
	.show_run_when_limited = mcp_show_run_when_limited,
	.run = router_run,
};

static void
route_mcp(struct request *req)
{
	handle_mcp(req, &mcp_routes);
}

const char *
routes_label(size_t i)
{
	return i < nroutes ? routes[i].name : "unmatched";
}
