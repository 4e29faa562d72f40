/*
 * mcp.c: POST /mcp, the Model Context Protocol endpoint (docs/mcp.md).
 *
 * The protocol is api/'s (mcp.h, mcp_tools.h); this file wires it to the
 * route table, which routes.c hands it as a struct mcp_routes (handlers.h)
 * so that this file knows no table of its own. A tools/call becomes the
 * inner REST request its tool stands for, run in this same struct
 * request: its path is matched on the route table (which fills the {game}
 * and {id} parameters), its rate class is charged to the client's address
 * as the route's own request would be (and to the account by auth, as on
 * the route), its JSON body or query arguments replace this request's, and
 * the route's handler runs through the router, the pipeline, the store and
 * the deferrals as for any request. The route's answer comes back through
 * req->wrap (http.h), which turns its status and JSON into the tool's
 * result, whenever the handler answers: at once, or after the store job or
 * the long poll resumed it.
 *
 * Every message costs a read before it is parsed (a tool call its route's
 * class as well); every other method is answered from api/ alone. No
 * session is kept: each POST is judged alone, in either era.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app.h"
#include "arcaded_version.h"
#include "auth.h"
#include "config.h"
#include "handle.h"
#include "handlers.h"
#include "jw.h"
#include "mcp.h"
#include "mcp_tools.h"
#include "ratelimit.h"
#include "store.h"
#include "throttle.h"
#include "token.h"

static const struct mcp_server_info info = {
	.name = "arcaded",
	.version = ARCADED_VERSION,
	.instructions = mcp_instructions,
};

/* What a tool call's answer needs once its route has answered: the
 * message's id and era, the tool, its game, and this route's index and
 * rate class. */
struct tool_pending {
	json_t            *id;
	enum mcp_era       era;
	int                tool;
	const struct game *game;
	char               handle[MCP_HANDLE_ARG_MAX + 1]; /* the handle read, "" when none */
	char               refused[MCP_REFUSAL_MAX];       /* the call's refusal (mcp_tools.h) */
	int                route;
	int                rate_class;
};

static void
pending_free(void *p)
{
	struct tool_pending *t = p;

	if (t != NULL)
		json_decref(t->id);
	free(t);
}

json_t *
mcp_front_wrap(struct request *req, int *status, json_t *body)
{
	(void)req;
	/* JSON-RPC already (the endpoint's own answers), or no envelope. */
	if (!json_is_object(body) || json_object_get(body, "jsonrpc") != NULL ||
	    !json_is_object(json_object_get(body, "error")))
		return body;
	return mcp_http_error(*status, body);
}

/* The inner route's answer as the tool's result; the request becomes the
 * POST /mcp it is again (its route, for the metrics and the log). */
static json_t *
tool_answer(struct request *req, int *status, json_t *body)
{
	const struct tool_pending *t = req->wrap_ctx;
	struct mcp_message m;
	struct mcp_call c;
	json_t *result;

	memset(&m, 0, sizeof m);
	memset(&c, 0, sizeof c);
	m.id = t->id;
	m.era = t->era;
	c.tool = t->tool;
	c.game = t->game;
	c.keys = app_keys(req->app);
	memcpy(c.handle, t->handle, sizeof c.handle);
	memcpy(c.refused, t->refused, sizeof c.refused);
	req->route = t->route;
	req->method = HTTP_POST;
	req->rate_class = t->rate_class;
	if (*status >= 500) {
		/* Not the game's refusal: the server failed, and says so as it
		 * would on the route (nothing was stored). */
		const char *why = json_string_value(json_object_get(json_object_get(body, "error"), "message"));

		result = mcp_error_new(m.id, MCP_INTERNAL_ERROR, why != NULL ? why : "internal error", body);
		return result;
	}
	result = mcp_result_new(&m, mcp_tools_result(&c, *status, body));
	*status = 200;
	return result;
}

/* tool_answer of a route's answer that is written text: the result is
 * written around the answer's own bytes (mcp_tools_result_write), with no
 * tree of either; what that way does not take (a 5xx, an answer of
 * another shape) goes tool_answer's way, the text read back. */
#define RESULT_MAX (16u << 20)
static char *
tool_answer_text(struct request *req, int *status, char *text, size_t *len)
{
	const struct tool_pending *t = req->wrap_ctx;
	struct mcp_call c;
	json_t *body, *result;
	struct jw w;
	char *out;

	memset(&c, 0, sizeof c);
	c.tool = t->tool;
	c.game = t->game;
	c.keys = app_keys(req->app);
	memcpy(c.handle, t->handle, sizeof c.handle);
	memcpy(c.refused, t->refused, sizeof c.refused);
	if (*status < 500) {
		jw_init(&w, 2 * *len + 1024, RESULT_MAX);
		if (mcp_tools_result_write(&w, &c, t->id, t->era == MCP_ERA_MODERN, *status, text, *len)) {
			req->route = t->route;
			req->method = HTTP_POST;
			req->rate_class = t->rate_class;
			*status = 200;
			free(text);
			return jw_take(&w, len);
		}
		jw_cleanup(&w);
	}
	body = json_loadb(text, *len, JSON_ALLOW_NUL, NULL);
	free(text);
	result = tool_answer(req, status, body);
	out = result != NULL ? json_dumps(result, JSON_COMPACT) : NULL;
	json_decref(result);
	*len = out != NULL ? strlen(out) : 0;
	return out;
}

/* A refusal of a tool call before its route runs, answered through the
 * wrap as the route's own refusal would be: a result with isError. */
static void
refuse_tool(struct request *req, int status, const char *code, const char *message)
{
	request_reply_json(req, status, json_pack("{s:{s:s, s:s}}", "error", "code", code, "message",
	    message));
}

/*
 * The handle argument of c read into the body's stateToken: the run's
 * newest state, read from the store (a reader, on this thread) and
 * sealed as the route's own answer would seal it. The route then judges
 * the token as any other: the run's owner, a finish of a run not over.
 * Nothing is kept between calls. False after answering the refusal (a
 * handle that does not check, a run not stored).
 */
static bool
handle_to_token(struct request *req, struct mcp_call *c)
{
	const struct keyring *kr = app_keys(req->app);
	struct store_run_head *head = NULL;
	struct state_token *t = NULL;
	struct store_conn *conn;
	enum store_result found;
	enum handle_err he;
	char msg[512], *sealed = NULL;
	int64_t run;
	bool ret = false;

	he = handle_read(kr, c->game->name, c->handle, strlen(c->handle), &run);
	if (he != HANDLE_OK) {
		snprintf(msg, sizeof msg, "the handle '%.40s' does not name a %s run: %s. Send the handle "
		    "exactly as the run's results write it (runId-xxxxxxxx, in the 'next:' line and in "
		    "structuredContent.handle), or the newest stateToken", c->handle, c->game->name,
		    handle_strerror(he));
		refuse_tool(req, 400, "invalid_handle", msg);
		goto done;
	}
	if ((head = malloc(sizeof *head)) == NULL || (t = calloc(1, sizeof *t)) == NULL) {
		request_reply_error(req, API_ERR_INTERNAL, "out of memory");
		goto done;
	}
	conn = store_reader(req->app->store);
	found = store_run_head(conn, run, head);
	store_reader_release(req->app->store, conn);
	if (found == STORE_OK && strcmp(head->game, c->game->name) != 0)
		found = STORE_NOT_FOUND;
	if (found == STORE_NOT_FOUND) {
		refuse_tool(req, 404, "run_not_found", "no run of this game has that handle's id");
		goto done;
	}
	if (found != STORE_OK || head->nstate > sizeof t->state) {
		request_reply_error(req, API_ERR_INTERNAL, "the run could not be read");
		goto done;
	}
	t->game = c->game->id;
	t->rules = c->game->rules_version;
	t->run = head->id;
	t->step = head->step;
	t->issued_at = (int64_t)time(NULL);
	memcpy(t->state, head->state, head->nstate);
	t->nstate = head->nstate;
	if ((sealed = token_seal(kr, t)) == NULL) {
		request_reply_error(req, API_ERR_INTERNAL, "out of memory");
		goto done;
	}
	json_object_set_new(c->body, "stateToken", json_string(sealed));
	ret = true;
done:
	free(sealed);
	free(t);
	free(head);
	return ret;
}

static void
call_tool(struct request *req, const struct mcp_routes *routes, const struct mcp_message *m,
    struct mcp_call *c)
{
	enum http_method method = c->post ? HTTP_POST : HTTP_GET;
	int self = req->route, route;
	struct tool_pending *t;
	char *me = strstr(c->path, "{me}");

	if ((t = calloc(1, sizeof *t)) == NULL) {
		request_reply_json(req, 500, NULL);
		return;
	}
	t->id = json_incref((json_t *)m->id);
	t->era = m->era;
	t->tool = c->tool;
	t->game = c->game;
	memcpy(t->refused, c->refused, sizeof t->refused);
	t->route = self;
	t->rate_class = req->rate_class;
	req->wrap_ctx = t;
	req->wrap_ctx_free = pending_free;
	req->wrap = tool_answer;
	req->wrap_text = tool_answer_text;
	if (me != NULL) {
		/* The caller's own account (my_runs): its name, from the Bearer
		 * key, where the route takes one; a refusal is the tool's. */
		struct account_ref acct;
		char path[MCP_PATH_MAX];

		req->rate_class = RATELIMIT_READS;
		if (auth_bearer(req, true, &acct) != AUTH_OK)
			return;
		snprintf(path, sizeof path, "%.*s%s%s", (int)(me - c->path), c->path, acct.name, me + 4);
		snprintf(c->path, sizeof c->path, "%s", path);
	}
	route = routes->match(c->path, method, req);
	if (route < 0) {
		request_reply_json(req, 500, mcp_error_new(m->id, MCP_INTERNAL_ERROR,
		    "the tool's route is not on the route table", NULL));
		return;
	}
	/* As if the route itself had been asked: its class pays, and a route
	 * that shows the run when over its limit answers the 429 itself (the
	 * refusal stays pending until its token is open: play.c). */
	req->rate_class = routes->rate(route);
	if (routes->show_run_when_limited(route))
		(void)throttle_admit(req, true);
	else if (!throttle_charge(req))
		return;
	/* A handle is read once the route's class has paid: a guess costs
	 * what a request costs. A stateToken sent beside it wins. */
	if (c->handle[0] != '\0' && c->game != NULL && json_object_get(c->body, "stateToken") == NULL) {
		if (!handle_to_token(req, c))
			return;
		memcpy(t->handle, c->handle, sizeof t->handle);
	}
	json_decref(req->json);
	req->json = c->body;
	req->query = c->query;
	c->body = c->query = NULL;
	req->method = method;
	req->route = route;
	routes->run(req);
}

/* Whether origin may call /mcp: a loopback page of the port addressed, or
 * one the operator lists (--mcp-origin). */
static bool
origin_allowed(struct request *req, const char *origin)
{
	const struct config *cfg = req->app->cfg;
	const char *allowed[CONFIG_MAX_ORIGINS];
	int i;

	for (i = 0; i < cfg->nmcp_origins; i++)
		allowed[i] = cfg->mcp_origins[i];
	return mcp_origin_allowed(origin, request_header(req, "Host"), allowed, (size_t)cfg->nmcp_origins);
}

const char *
mcp_cors_origin(struct request *req)
{
	const char *origin = request_header(req, "Origin");

	return origin != NULL && origin_allowed(req, origin) ? origin : NULL;
}

/* OPTIONS /mcp, a browser's preflight: answered before any key or rate
 * limit is looked at, 204 for an Origin that may call, with the method and
 * the request headers the protocol uses; 403 (no CORS headers, so the page
 * learns nothing) for any other. */
static void
preflight(struct request *req)
{
	static const char *const headers[] = {
		"Access-Control-Allow-Methods", "POST",
		"Access-Control-Allow-Headers", "Authorization, Content-Type, Accept, Mcp-Session-Id, "
		    "MCP-Protocol-Version, Mcp-Method, Mcp-Name, Last-Event-ID, X-Agent-Check, X-Agent-Answer",
		"Access-Control-Max-Age", "600",
		NULL,
	};

	if (req->cors_origin == NULL) {
		request_reply_json(req, 403, mcp_error_new(NULL, MCP_INVALID_REQUEST,
		    "Forbidden: pages of this Origin may not call the MCP endpoint", NULL));
		return;
	}
	request_reply_static(req, 204, NULL, "", 0, headers);
}

void
handle_mcp(struct request *req, const struct mcp_routes *routes)
{
	const char *origin = request_header(req, "Origin");
	struct mcp_headers h = {
		.protocol_version = request_header(req, "MCP-Protocol-Version"),
		.method = request_header(req, "Mcp-Method"),
		.name = request_header(req, "Mcp-Name"),
	};
	struct mcp_message m;
	struct mcp_call c;
	json_t *answer;
	char msg[MCP_REFUSAL_MAX];
	int status, code;

	if (req->method == HTTP_OPTIONS) {
		preflight(req);
		return;
	}
	/* Pages of other sites must not drive a local daemon (DNS rebinding). */
	if (origin != NULL && req->cors_origin == NULL) {
		request_reply_json(req, 403, mcp_error_new(NULL, MCP_INVALID_REQUEST,
		    "Forbidden: pages of this Origin may not call the MCP endpoint", NULL));
		return;
	}
	/* Every message pays a read before it is parsed, notifications and
	 * responses included: parsing is work the client makes, whatever the
	 * message turns out to be. A tool call pays its route's class too. */
	req->rate_class = RATELIMIT_READS;
	if (!throttle_charge(req))
		return;
	/* An OAuth access token that does not hold (expired, forged, for
	 * another resource, its agent key revoked) is the transport's 401,
	 * whatever the message: its WWW-Authenticate sends the client to
	 * authorize again. A bad agent key stays the tools' refusal. */
	if (auth_access_token_sent(req)) {
		struct account_ref acct;
		char why[AUTH_WHY_MAX];

		if (auth_peek(req, &acct, &status, why) == AUTH_FAILED) {
			if (status == 401)
				auth_refuse_token(req, why);
			else
				request_reply_error(req, API_ERR_INTERNAL, NULL);
			return;
		}
	}
	if ((answer = mcp_read(req->body.data, req->body.len, &h, &m, &status)) != NULL) {
		request_reply_json(req, status, answer);
		return;
	}
	if (m.method == NULL || m.id == NULL) {
		/* A notification (notifications/initialized) or a response:
		 * accepted, nothing to answer. */
		mcp_message_cleanup(&m);
		request_reply_static(req, 202, NULL, "", 0, NULL);
		return;
	}
	if (strcmp(m.method, "tools/call") != 0) {
		answer = mcp_answer(&m, &info, &status);
		request_reply_json(req, status, answer);
		mcp_message_cleanup(&m);
		return;
	}
	if (!mcp_tools_plan(m.params, &c, &code, msg, sizeof msg) && code != 0)
		request_reply_json(req, mcp_error_status(code, m.era), mcp_error_new(m.id, code, msg, NULL));
	else if (code == 0 && c.refused[0] == '\0') {
		/* Arguments the tool refuses, naming no run to show: a tool
		 * error the model reads (SEP-1303, 2025-11-25), costing a read. */
		req->rate_class = RATELIMIT_READS;
		if (throttle_charge(req)) {
			c.keys = app_keys(req->app);
			request_reply_json(req, 200, mcp_result_new(&m, mcp_tools_result(&c, 400,
			    json_pack("{s:{s:s, s:s}}", "error", "code", "invalid_arguments", "message", msg))));
		}
	} else
		call_tool(req, routes, &m, &c);
	mcp_call_cleanup(&c);
	mcp_message_cleanup(&m);
}
