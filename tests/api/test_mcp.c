/*
 * test_mcp.c: the MCP endpoint's protocol side (api/mcp/mcp.c, api/mcp/mcp_tools.c)
 * without a daemon: reading messages and judging their headers in both
 * eras, the answers that need no route, the tool table and the inner
 * requests it plans, the short action strings, the results built from
 * REST answers (the games' real answers, made by their descriptors), and
 * the prompts (one a game of the table, and play_match).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "game.h"
#include "game_shared.h"
#include "match_rules.h"
#include "mcp.h"
#include "mcp_prompts.h"
#include "mcp_tools.h"
#include "tap.h"
#include "xorshift.h"
#include "json_damage.h"

#define META "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"," \
	"\"io.modelcontextprotocol/clientCapabilities\":{}}"

static const struct mcp_server_info info = { "arcaded", "test", "play well" };

/* Reads text with headers; the error code (0 when read) and status. */
static int
read_code(const char *text, const char *pv, const char *method, const char *name, int *status,
    struct mcp_message *m)
{
	struct mcp_headers h = { pv, method, name };
	json_t *e;
	int code;

	*status = 0;
	e = mcp_read(text, strlen(text), &h, m, status);
	if (e == NULL)
		return 0;
	code = (int)json_integer_value(json_object_get(json_object_get(e, "error"), "code"));
	json_decref(e);
	return code;
}

static void
test_read(void)
{
	struct mcp_message m;
	int status;

	is_int(read_code("{\"jsonrpc\":\"2.0\",", NULL, NULL, NULL, &status, &m), MCP_PARSE_ERROR,
	    "not JSON: -32700");
	is_int(status, 400, "... with 400");
	is_int(read_code("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]", NULL, NULL, NULL, &status, &m),
	    MCP_INVALID_REQUEST, "a batch: -32600");
	is_int(status, 400, "... with 400");
	is_int(read_code("17", NULL, NULL, NULL, &status, &m), MCP_INVALID_REQUEST, "a number: -32600");
	is_int(read_code("{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"ping\"}", NULL, NULL, NULL, &status, &m),
	    MCP_INVALID_REQUEST, "jsonrpc 1.0: -32600");
	is_int(read_code("{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}", NULL, NULL, NULL, &status, &m),
	    MCP_INVALID_REQUEST, "a null id: -32600");
	is_int(read_code("{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}", NULL, NULL, NULL, &status, &m),
	    MCP_INVALID_REQUEST, "a real id: -32600");
	is_int(read_code("{\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"ping\"}", NULL, NULL, NULL, &status, &m),
	    MCP_INVALID_REQUEST, "a boolean id: -32600");
	is_int(read_code("{\"jsonrpc\":\"2.0\",\"id\":1}", NULL, NULL, NULL, &status, &m), MCP_INVALID_REQUEST,
	    "no method: -32600");
	is_int(read_code("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\"}", NULL, NULL, NULL, &status, &m),
	    MCP_INVALID_REQUEST, "an empty method: -32600");
	is_int(read_code("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":[1]}", NULL, NULL, NULL,
	    &status, &m), MCP_INVALID_PARAMS, "params as an array: -32602");
	is_int(read_code("{\"jsonrpc\":\"2.0\",\"id\":1,\"id\":2,\"method\":\"ping\"}", NULL, NULL, NULL, &status,
	    &m), MCP_PARSE_ERROR, "a duplicated key: -32700");

	is_int(read_code("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", NULL, NULL, NULL,
	    &status, &m), 0, "a notification is read");
	ok(m.id == NULL && strcmp(m.method, "notifications/initialized") == 0 && m.era == MCP_ERA_LEGACY,
	    "... without an id, legacy");
	mcp_message_cleanup(&m);
	is_int(read_code("{\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{}}", NULL, NULL, NULL, &status, &m), 0,
	    "a response is read");
	ok(m.method == NULL && m.id != NULL, "... with no method");
	mcp_message_cleanup(&m);

	/* Legacy: headers optional, a known version when sent. */
	is_int(read_code("{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"tools/list\"}", NULL, NULL, NULL,
	    &status, &m), 0, "legacy without headers");
	ok(m.era == MCP_ERA_LEGACY && json_is_string(m.id), "... legacy, the string id kept");
	mcp_message_cleanup(&m);
	is_int(read_code("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}", "2025-06-18", NULL, NULL,
	    &status, &m), 0, "legacy with MCP-Protocol-Version 2025-06-18");
	is_str(m.version, "2025-06-18", "... speaks 2025-06-18");
	mcp_message_cleanup(&m);
	is_int(read_code("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}", "2024-01-01", NULL, NULL,
	    &status, &m), MCP_UNSUPPORTED_VERSION, "an unknown header version: -32022");
	is_int(status, 400, "... with 400");
	is_int(read_code("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}", "2026-07-28", "tools/list",
	    NULL, &status, &m), MCP_HEADER_MISMATCH, "a 2026-07-28 header and no _meta: -32020");
	is_int(read_code("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}", NULL, "tools/call", NULL,
	    &status, &m), MCP_HEADER_MISMATCH, "legacy with a wrong Mcp-Method: -32020");

	/* Modern: _meta, and the three headers agreeing with it. */
	is_int(read_code("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{" META "}}",
	    "2026-07-28", "tools/list", NULL, &status, &m), 0, "modern tools/list");
	ok(m.era == MCP_ERA_MODERN, "... modern");
	mcp_message_cleanup(&m);
	is_int(read_code("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{" META "}}",
	    NULL, "tools/list", NULL, &status, &m), MCP_HEADER_MISMATCH, "modern without MCP-Protocol-Version");
	is_int(read_code("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{" META "}}",
	    "2025-11-25", "tools/list", NULL, &status, &m), MCP_HEADER_MISMATCH, "a header version not _meta's");
	is_int(read_code("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{" META "}}",
	    "2026-07-28", NULL, NULL, &status, &m), MCP_HEADER_MISMATCH, "modern without Mcp-Method");
	is_int(read_code("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{" META "}}",
	    "2026-07-28", "Tools/list", NULL, &status, &m), MCP_HEADER_MISMATCH, "Mcp-Method compares case");
	is_int(read_code("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"act\","
	    META "}}", "2026-07-28", "tools/call", NULL, &status, &m), MCP_HEADER_MISMATCH,
	    "a modern tools/call without Mcp-Name");
	is_int(read_code("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"act\","
	    META "}}", "2026-07-28", "tools/call", "list_games", &status, &m), MCP_HEADER_MISMATCH,
	    "Mcp-Name naming another tool");
	is_int(status, 400, "... with 400");
	is_int(read_code("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"act\","
	    META "}}", "2026-07-28", "tools/call", "=?base64?YWN0?=", &status, &m), 0,
	    "Mcp-Name in the Base64 form (act)");
	mcp_message_cleanup(&m);
	is_int(read_code("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"resources/read\",\"params\":{\"uri\":"
	    "\"arcaded://rules/duskcourt\"," META "}}", "2026-07-28", "resources/read",
	    "arcaded://rules/duskcourt", &status, &m), 0, "resources/read names its uri");
	mcp_message_cleanup(&m);
	is_int(read_code("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{\"_meta\":{"
	    "\"io.modelcontextprotocol/protocolVersion\":\"2030-01-01\","
	    "\"io.modelcontextprotocol/clientCapabilities\":{}}}}", "2030-01-01", "tools/list", NULL, &status, &m),
	    MCP_UNSUPPORTED_VERSION, "an unknown _meta version: -32022");
	is_int(read_code("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{\"_meta\":{"
	    "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"}}}", "2026-07-28", "tools/list", NULL,
	    &status, &m), MCP_INVALID_PARAMS, "no clientCapabilities: -32602");
	is_int(read_code("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{\"_meta\":3}}",
	    NULL, NULL, NULL, &status, &m), MCP_INVALID_PARAMS, "_meta that is no object: -32602");
}

static void
test_unsupported_data(void)
{
	const char *text = "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/list\",\"params\":{\"_meta\":{"
	    "\"io.modelcontextprotocol/protocolVersion\":\"1900-01-01\","
	    "\"io.modelcontextprotocol/clientCapabilities\":{}}}}";
	struct mcp_headers h = { "1900-01-01", "tools/list", NULL };
	struct mcp_message m;
	int status;
	json_t *e = mcp_read(text, strlen(text), &h, &m, &status);
	json_t *data = json_object_get(json_object_get(e, "error"), "data");

	is_str(json_string_value(json_object_get(data, "requested")), "1900-01-01", "-32022 names the request");
	is_int(json_array_size(json_object_get(data, "supported")), 1, "... and lists the modern version only");
	is_int(json_integer_value(json_object_get(e, "id")), 9, "... under the request's id");
	json_decref(e);
}

static json_t *
answer(const char *text, const char *pv, const char *method, int *status)
{
	struct mcp_headers h = { pv, method, NULL };
	struct mcp_message m;
	json_t *e, *a;

	e = mcp_read(text, strlen(text), &h, &m, status);
	if (e != NULL)
		return e;
	a = mcp_answer(&m, &info, status);
	mcp_message_cleanup(&m);
	return a;
}

static void
test_answers(void)
{
	json_t *a, *r;
	int status;
	size_t i;

	a = answer("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
	    "\"2025-03-26\"}}", NULL, NULL, &status);
	r = json_object_get(a, "result");
	is_str(json_string_value(json_object_get(r, "protocolVersion")), "2025-03-26",
	    "initialize answers the legacy version asked for");
	is_str(json_string_value(json_object_get(r, "instructions")), "play well", "... with the instructions");
	ok(json_object_get(r, "resultType") == NULL, "... and no resultType (legacy)");
	json_decref(a);
	a = answer("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
	    "\"2099-01-01\"}}", NULL, NULL, &status);
	is_str(json_string_value(json_object_get(json_object_get(a, "result"), "protocolVersion")), "2025-11-25",
	    "initialize with an unknown version answers 2025-11-25");
	json_decref(a);

	a = answer("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"server/discover\",\"params\":{" META "}}",
	    "2026-07-28", "server/discover", &status);
	r = json_object_get(a, "result");
	is_str(json_string_value(json_object_get(r, "resultType")), "complete", "discover: resultType complete");
	is_str(json_string_value(json_array_get(json_object_get(r, "supportedVersions"), 0)), "2026-07-28",
	    "discover: 2026-07-28 first");
	is_int(json_array_size(json_object_get(r, "supportedVersions")), 4, "discover: and the three legacy ones");
	ok(json_is_object(json_object_get(json_object_get(r, "capabilities"), "tools")) &&
	    json_is_object(json_object_get(json_object_get(r, "capabilities"), "resources")),
	    "discover: tools and resources capabilities");
	is_str(json_string_value(json_object_get(json_object_get(r, "serverInfo"), "name")), "arcaded",
	    "discover: serverInfo");
	is_str(json_string_value(json_object_get(r, "instructions")), "play well", "discover: instructions");
	json_decref(a);

	a = answer("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"nothing/here\",\"params\":{" META "}}",
	    "2026-07-28", "nothing/here", &status);
	is_int(json_integer_value(json_object_get(json_object_get(a, "error"), "code")), MCP_METHOD_NOT_FOUND,
	    "an unknown method: -32601");
	is_int(status, 404, "... 404 when modern");
	json_decref(a);
	a = answer("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"nothing/here\"}", NULL, NULL, &status);
	is_int(status, 200, "... 200 when legacy");
	json_decref(a);
	a = answer("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}", NULL, NULL, &status);
	ok(json_is_object(json_object_get(a, "result")) && status == 200, "ping (legacy)");
	json_decref(a);

	a = answer("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"resources/list\"}", NULL, NULL, &status);
	r = json_object_get(json_object_get(a, "result"), "resources");
	is_int(json_array_size(r), GAME__COUNT + 1, "resources/list: one a game, and the inline board");
	for (i = 0; i < GAME__COUNT; i++) {
		char uri[64];

		snprintf(uri, sizeof uri, "arcaded://rules/%s", game_table[i]->name);
		is_str(json_string_value(json_object_get(json_array_get(r, i), "uri")), uri, "resource %s", uri);
	}
	is_str(json_string_value(json_object_get(json_array_get(r, GAME__COUNT), "mimeType")),
	    "text/html;profile=mcp-app", "resource ui://arcaded/board: an MCP App's HTML");
	json_decref(a);
	a = answer("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"resources/read\",\"params\":{\"uri\":"
	    "\"ui://arcaded/board\"}}", NULL, NULL, &status);
	r = json_array_get(json_object_get(json_object_get(a, "result"), "contents"), 0);
	ok(json_is_string(json_object_get(r, "text")) &&
	    strncmp(json_string_value(json_object_get(r, "text")), "<!doctype html>", 15) == 0 &&
	    json_string_length(json_object_get(r, "text")) > 1000,
	    "resources/read ui://arcaded/board: the whole document");
	is_str(json_string_value(json_object_get(r, "mimeType")), "text/html;profile=mcp-app", "... its MIME type");
	json_decref(a);
	a = answer("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"resources/read\",\"params\":{\"uri\":"
	    "\"arcaded://rules/hatetris\"}}", NULL, NULL, &status);
	is_str(json_string_value(json_object_get(json_array_get(json_object_get(json_object_get(a, "result"),
	    "contents"), 0), "text")), game_table[GAME_HATETRIS]->how_to_play,
	    "resources/read: the game's howToPlay");
	json_decref(a);
	a = answer("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"resources/read\",\"params\":{\"uri\":"
	    "\"arcaded://rules/chess\"}}", NULL, NULL, &status);
	is_int(json_integer_value(json_object_get(json_object_get(a, "error"), "code")), MCP_INVALID_PARAMS,
	    "resources/read of an unknown game: -32602");
	json_decref(a);
}

static void
test_headers_origins(void)
{
	static const char *const extra[] = { "https://play.example.org" };
	char out[32];

	ok(mcp_header_value("act", out, sizeof out) && strcmp(out, "act") == 0, "a plain header value");
	ok(mcp_header_value("=?base64?SGVsbG8sIOS4lueVjA==?=", out, sizeof out) &&
	    strcmp(out, "Hello, \xe4\xb8\x96\xe7\x95\x8c") == 0, "a Base64 header value, UTF-8 inside");
	ok(!mcp_header_value("=?base64?@@@?=", out, sizeof out), "bad Base64 is refused");
	ok(!mcp_header_value("=?base64?AA==?=", out, sizeof out), "a decoded NUL is refused");
	ok(!mcp_header_value("0123456789012345678901234567890123456789", out, sizeof out),
	    "a value too long is refused");

	ok(mcp_origin_allowed("http://127.0.0.1:8080", "127.0.0.1:8080", NULL, 0), "loopback, same port");
	ok(mcp_origin_allowed("http://localhost:8080", "127.0.0.1:8080", NULL, 0), "localhost, same port");
	ok(mcp_origin_allowed("http://[::1]:8080", "[::1]:8080", NULL, 0), "[::1], same port");
	ok(!mcp_origin_allowed("http://localhost:9999", "127.0.0.1:8080", NULL, 0), "another port is refused");
	ok(!mcp_origin_allowed("http://evil.example:8080", "evil.example:8080", NULL, 0),
	    "a rebinding name is refused though Host agrees");
	ok(!mcp_origin_allowed("http://localhost.evil:8080", "127.0.0.1:8080", NULL, 0), "a lookalike host");
	ok(!mcp_origin_allowed("null", "127.0.0.1:8080", NULL, 0), "Origin null");
	ok(!mcp_origin_allowed("http://localhost:8080", NULL, NULL, 0), "no Host header");
	ok(mcp_origin_allowed("https://play.example.org", "arcade.example.org", extra, 1), "a listed origin");
	ok(!mcp_origin_allowed("https://play.example.org:444", "arcade.example.org", extra, 1),
	    "a listed origin compares exactly");
}

static json_t *
tool_named(json_t *list, const char *name)
{
	size_t i;
	json_t *t;

	json_array_foreach(json_object_get(list, "tools"), i, t)
		if (strcmp(json_string_value(json_object_get(t, "name")), name) == 0)
			return t;
	return NULL;
}

static void
test_tools_list(void)
{
	static const char *const names[] = { "list_games", "get_rules", "start_run", "act", "get_state",
		"finish_run", "get_run", "leaderboard", "create_match", "join_match", "match_move", "wait_match" };
	json_t *list = mcp_tools_list(), *t, *e;
	size_t i, j;

	is_int(json_array_size(json_object_get(list, "tools")), 15, "15 tools");
	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		t = tool_named(list, names[i]);
		ok(t != NULL && json_is_object(json_object_get(t, "inputSchema")) &&
		    json_is_object(json_object_get(t, "outputSchema")) &&
		    json_is_string(json_object_get(t, "description")),
		    "%s: described, with inputSchema and outputSchema", names[i]);
	}
	t = tool_named(list, "act");
	e = json_object_get(json_object_get(json_object_get(json_object_get(t, "inputSchema"), "properties"),
	    "game"), "enum");
	is_int(json_array_size(e), GAME__COUNT, "act: the game enum has every game");
	for (j = 0; j < GAME__COUNT; j++)
		is_str(json_string_value(json_array_get(e, j)), game_table[j]->name, "... %s", game_table[j]->name);
	t = json_object_get(json_object_get(tool_named(list, "start_run"), "inputSchema"), "properties");
	ok(json_is_object(json_object_get(t, "cap")) && json_is_object(json_object_get(t, "depth")),
	    "start_run: the table's options, cap and depth");
	ok(strstr(json_string_value(json_object_get(json_object_get(t, "cap"), "description")), "stackcraft") &&
	    strstr(json_string_value(json_object_get(json_object_get(t, "cap"), "description")), "hatetris"),
	    "... cap names the games that take it");
	t = json_object_get(json_object_get(tool_named(list, "finish_run"), "inputSchema"), "required");
	e = json_pack("[s,s,s]", "game", "rating", "review");
	ok(json_equal(t, e), "finish_run: game, rating and review are required (and a handle or a "
	    "stateToken, which the plan checks), as the route "
	    "requires them");
	json_decref(e);

	/* create_match: no rated (the route refuses a rated created match),
	 * and its rules from the rulesets' table. */
	t = json_object_get(json_object_get(tool_named(list, "create_match"), "inputSchema"), "properties");
	ok(json_object_get(t, "rated") == NULL, "create_match: no rated argument");
	e = json_object_get(json_object_get(t, "rules"), "enum");
	is_int(json_array_size(e), MATCH_RULES__COUNT, "create_match: rules is an enum of the rulesets");
	for (j = 0; j < MATCH_RULES__COUNT; j++) {
		is_str(json_string_value(json_array_get(e, j)), match_rules_table[j]->name, "... %s",
		    match_rules_table[j]->name);
		ok(strstr(json_string_value(json_object_get(tool_named(list, "create_match"), "description")),
		    match_rules_table[j]->name) != NULL, "create_match's description names %s",
		    match_rules_table[j]->name);
	}
	ok(strstr(json_string_value(json_object_get(tool_named(list, "create_match"), "description")),
	    "rated") == NULL || strstr(json_string_value(json_object_get(tool_named(list, "create_match"),
	    "description")), "never rated") != NULL, "create_match's description offers no rating");

	/* No description names a game by hand: act's list of command games
	 * is the table's, and no game's title appears anywhere. */
	for (j = 0; j < GAME__COUNT; j++) {
		const struct game *g = game_table[j];
		const char *const *f;
		bool commands = false;
		json_t *tool;
		size_t k;

		for (f = g->action_fields; f != NULL && *f != NULL; f++)
			commands = commands || strcmp(*f, "command") == 0;
		ok((strstr(json_string_value(json_object_get(tool_named(list, "act"), "description")), g->name)
		    != NULL) == commands, "act's description names %s only among the games that take commands",
		    g->name);
		json_array_foreach(json_object_get(list, "tools"), k, tool) {
			char *dump = json_dumps(tool, 0);

			if (dump != NULL && strstr(dump, g->title) != NULL)
				diag("%s names %s", json_string_value(json_object_get(tool, "name")), g->title);
			ok(dump != NULL && strstr(dump, g->title) == NULL, "%s: no hand-written %s",
			    json_string_value(json_object_get(tool, "name")), g->title);
			free(dump);
		}
	}
	json_decref(list);
}

/* ---- prompts ---- */

static int
error_code(const json_t *a)
{
	return (int)json_integer_value(json_object_get(json_object_get(a, "error"), "code"));
}

/* prompts/get of name with the arguments' text (NULL: none) in the legacy
 * era: the answer. */
static json_t *
prompt_get(const char *name, const char *args)
{
	char text[1024];
	int status;

	snprintf(text, sizeof text, "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"prompts/get\",\"params\":"
	    "{\"name\":\"%s\"%s%s}}", name, args != NULL ? ",\"arguments\":" : "", args != NULL ? args : "");
	return answer(text, NULL, NULL, &status);
}

static const char *
prompt_text(const json_t *a)
{
	const json_t *msgs = json_object_get(json_object_get(a, "result"), "messages");

	return json_string_value(json_object_get(json_object_get(json_array_get(msgs, 0), "content"),
	    "text"));
}

static const json_t *
prompt_named(const json_t *list, const char *name)
{
	size_t i;
	const json_t *p;

	json_array_foreach(json_object_get(list, "prompts"), i, p)
		if (strcmp(json_string_value(json_object_get(p, "name")), name) == 0)
			return p;
	return NULL;
}

static const json_t *
argument_named(const json_t *prompt, const char *name)
{
	size_t i;
	const json_t *a;

	json_array_foreach(json_object_get(prompt, "arguments"), i, a)
		if (strcmp(json_string_value(json_object_get(a, "name")), name) == 0)
			return a;
	return NULL;
}

/* A name the specification's rules for names take: 1 to 128 of
 * A-Z a-z 0-9 _ - . */
static bool
good_name(const char *s)
{
	size_t n = strlen(s);

	return n >= 1 && n <= 128 && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	    "0123456789_-.") == n;
}

static void
test_prompts_list(void)
{
	json_t *a, *r, *tools = mcp_tools_list();
	const json_t *p, *arg;
	size_t i, j, n;
	int status;

	a = answer("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
	    "\"2025-11-25\"}}", NULL, NULL, &status);
	ok(json_is_object(json_object_get(json_object_get(json_object_get(a, "result"), "capabilities"),
	    "prompts")), "initialize declares the prompts capability");
	json_decref(a);
	a = answer("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"server/discover\",\"params\":{" META "}}",
	    "2026-07-28", "server/discover", &status);
	ok(json_is_object(json_object_get(json_object_get(json_object_get(a, "result"), "capabilities"),
	    "prompts")), "server/discover declares the prompts capability");
	json_decref(a);

	a = answer("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"prompts/list\"}", NULL, NULL, &status);
	r = json_object_get(a, "result");
	is_int(status, 200, "prompts/list (legacy): 200");
	n = json_array_size(json_object_get(r, "prompts"));
	is_int(n, GAME__COUNT + 1, "prompts/list: one prompt a game, and play_match");
	ok(json_object_get(r, "nextCursor") == NULL && json_object_get(r, "ttlMs") == NULL &&
	    json_object_get(r, "resultType") == NULL, "... one page, no caching hints nor resultType (legacy)");
	for (i = 0; i < n; i++) {
		const char *name = json_string_value(json_object_get(json_array_get(json_object_get(r, "prompts"),
		    i), "name"));

		ok(name != NULL && good_name(name), "prompt name '%s' keeps the rules for names", name);
	}
	for (i = 0; i < GAME__COUNT; i++) {
		const struct game *g = game_table[i];
		char name[64], want[96];
		size_t nargs;

		snprintf(name, sizeof name, "play_%s", g->name);
		p = prompt_named(r, name);
		if (!ok(p != NULL, "%s is listed", name))
			continue;
		snprintf(want, sizeof want, "Play a game of %s", g->title);
		is_str(json_string_value(json_object_get(p, "description")), want, "%s: its description", name);
		ok(json_is_string(json_object_get(p, "title")), "%s: a title", name);
		arg = argument_named(p, "seed");
		ok((arg != NULL) == (!g->seedless && game_ext(g)->seed_of == NULL),
		    "%s: a seed argument exactly when an init may name the seed", name);
		nargs = arg != NULL ? 1 : 0;
		for (j = 0; j < g->noptions; j++, nargs++)
			ok(argument_named(p, g->options[j].name) != NULL, "%s: the option %s is an argument", name,
			    g->options[j].name);
		is_int(json_array_size(json_object_get(p, "arguments")), nargs, "%s: no other argument", name);
		json_array_foreach(json_object_get(p, "arguments"), j, arg)
			ok(json_is_false(json_object_get(arg, "required")) &&
			    json_is_string(json_object_get(arg, "description")),
			    "%s: %s is optional and described", name, json_string_value(json_object_get(arg, "name")));
	}
	p = prompt_named(r, "play_match");
	ok(p != NULL && argument_named(p, "matchId") != NULL && argument_named(p, "players") != NULL &&
	    argument_named(p, "rules") != NULL && json_array_size(json_object_get(p, "arguments")) == 3,
	    "play_match: matchId, players and rules");
	for (i = 0; i < MATCH_RULES__COUNT; i++)
		ok(p != NULL && strstr(json_string_value(json_object_get(p, "description")),
		    match_rules_table[i]->name) != NULL, "play_match's description names %s",
		    match_rules_table[i]->name);
	/* Every tool a prompt tells of is one of tools/list. */
	{
		static const char *const named[] = { "start_run", "act", "get_state", "get_rules",
			"finish_run", "create_match", "join_match", "match_move", "wait_match" };

		for (j = 0; j < sizeof named / sizeof named[0]; j++)
			ok(tool_named(tools, named[j]) != NULL, "the prompts' tool %s is listed", named[j]);
	}
	json_decref(a);

	a = answer("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"prompts/list\",\"params\":{" META "}}",
	    "2026-07-28", "prompts/list", &status);
	r = json_object_get(a, "result");
	ok(status == 200 && json_array_size(json_object_get(r, "prompts")) == GAME__COUNT + 1,
	    "prompts/list (modern): the same list");
	ok(json_integer_value(json_object_get(r, "ttlMs")) == MCP_PROMPTS_TTL_MS &&
	    strcmp(json_string_value(json_object_get(r, "cacheScope")), "public") == 0 &&
	    strcmp(json_string_value(json_object_get(r, "resultType")), "complete") == 0,
	    "... with ttlMs, cacheScope public and resultType complete");
	json_decref(a);

	a = answer("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"prompts/list\",\"params\":{\"cursor\":null}}",
	    NULL, NULL, &status);
	ok(json_array_size(json_object_get(json_object_get(a, "result"), "prompts")) == GAME__COUNT + 1,
	    "prompts/list with a null cursor: the list");
	json_decref(a);
	a = answer("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"prompts/list\",\"params\":{\"cursor\":\"x\"}}",
	    NULL, NULL, &status);
	ok(error_code(a) == MCP_INVALID_PARAMS && status == 200, "a cursor never handed out: -32602");
	json_decref(a);
	a = answer("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"prompts/list\",\"params\":{\"cursor\":\"\"}}",
	    NULL, NULL, &status);
	ok(error_code(a) == MCP_INVALID_PARAMS, "an empty cursor is a cursor too: -32602");
	json_decref(a);
	a = answer("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"prompts/list\",\"params\":{\"cursor\":4}}",
	    NULL, NULL, &status);
	ok(error_code(a) == MCP_INVALID_PARAMS, "a cursor that is no string: -32602");
	json_decref(a);
	json_decref(tools);
}

static void
test_prompts_get(void)
{
	json_t *a;
	const json_t *r, *m;
	const char *text;
	char args[512], want[256], name[64];
	size_t i, j;
	int status;

	for (i = 0; i < GAME__COUNT; i++) {
		const struct game *g = game_table[i];
		bool seed = !g->seedless && game_ext(g)->seed_of == NULL;

		snprintf(name, sizeof name, "play_%s", g->name);
		a = prompt_get(name, NULL);
		r = json_object_get(a, "result");
		m = json_array_get(json_object_get(r, "messages"), 0);
		text = prompt_text(a);
		snprintf(want, sizeof want, "Play a game of %s", g->title);
		is_str(json_string_value(json_object_get(r, "description")), want, "%s: its description", name);
		ok(json_array_size(json_object_get(r, "messages")) == 1 &&
		    strcmp(json_string_value(json_object_get(m, "role")), "user") == 0 &&
		    strcmp(json_string_value(json_object_get(json_object_get(m, "content"), "type")), "text") == 0,
		    "%s: one user message of text", name);
		ok(text != NULL && strstr(text, g->how_to_play) != NULL, "%s: the message holds the rules "
		    "(how_to_play)", name);
		snprintf(want, sizeof want, "start_run with {\"game\": \"%s\"}.", g->name);
		ok(text != NULL && strstr(text, want) != NULL, "%s: start_run first, with the game alone", name);
		snprintf(want, sizeof want, "act with {\"game\": \"%s\", \"handle\"", g->name);
		ok(text != NULL && strstr(text, want) != NULL, "%s: then act with the run's handle", name);
		snprintf(want, sizeof want, "finish_run with {\"game\": \"%s\", \"handle\"", g->name);
		ok(text != NULL && strstr(text, want) != NULL && strstr(text, "\"rating\"") != NULL &&
		    strstr(text, "\"review\"") != NULL, "%s: finish_run with a rating and a review", name);
		ok(text != NULL && strlen(text) < MCP_PROMPT_TEXT_MAX, "%s: bounded (%zu bytes)", name,
		    text != NULL ? strlen(text) : 0);
		json_decref(a);

		/* Every argument at its bounds reaches start_run's arguments. */
		for (j = 0; j <= 1; j++) {
			size_t k, n = 0;

			n += (size_t)snprintf(args + n, sizeof args - n, "{");
			if (seed)
				n += (size_t)snprintf(args + n, sizeof args - n, "\"seed\":\"%s\"", j ? "9007199254740991" :
				    "7");
			for (k = 0; k < g->noptions; k++)
				n += (size_t)snprintf(args + n, sizeof args - n, "%s\"%s\":\"%" PRId64 "\"",
				    seed || k ? "," : "", g->options[k].name, j ? g->options[k].max : g->options[k].min);
			snprintf(args + n, sizeof args - n, "}");
			a = prompt_get(name, args);
			text = prompt_text(a);
			ok(text != NULL, "%s with %s: a prompt", name, args);
			if (seed) {
				snprintf(want, sizeof want, "\"seed\": %s", j ? "9007199254740991" : "7");
				ok(text != NULL && strstr(text, want) != NULL, "... start_run takes %s", want);
			}
			for (k = 0; k < g->noptions; k++) {
				snprintf(want, sizeof want, "\"%s\": %" PRId64, g->options[k].name,
				    j ? g->options[k].max : g->options[k].min);
				ok(text != NULL && strstr(text, want) != NULL, "... start_run takes %s", want);
			}
			json_decref(a);
		}
		/* Out of bounds, not a number, not a string, not an argument. */
		for (j = 0; j < g->noptions; j++) {
			snprintf(args, sizeof args, "{\"%s\":\"%" PRId64 "\"}", g->options[j].name,
			    g->options[j].max + 1);
			a = prompt_get(name, args);
			ok(error_code(a) == MCP_INVALID_PARAMS && strstr(json_string_value(json_object_get(
			    json_object_get(a, "error"), "message")), g->options[j].name) != NULL,
			    "%s %s: -32602 naming the argument", name, args);
			json_decref(a);
			snprintf(args, sizeof args, "{\"%s\":\"%" PRId64 "\"}", g->options[j].name,
			    g->options[j].min - 1);
			a = prompt_get(name, args);
			ok(error_code(a) == MCP_INVALID_PARAMS, "%s %s: -32602", name, args);
			json_decref(a);
		}
		a = prompt_get(name, seed ? "{\"seed\":\"9007199254740992\"}" : "{\"seed\":\"7\"}");
		ok(error_code(a) == MCP_INVALID_PARAMS, "%s: %s -32602", name, seed ? "a seed past 2^53 - 1" :
		    "a seed for a game whose init names none");
		json_decref(a);
		a = prompt_get(name, "{\"colour\":\"red\"}");
		ok(error_code(a) == MCP_INVALID_PARAMS && strstr(json_string_value(json_object_get(
		    json_object_get(a, "error"), "message")), "colour") != NULL, "%s: an unknown argument, "
		    "-32602 naming it", name);
		json_decref(a);
		if (seed) {
			static const char *const bad[] = { "{\"seed\":\"seven\"}", "{\"seed\":\"-1\"}",
				"{\"seed\":\"7 \"}", "{\"seed\":\"0x10\"}", "{\"seed\":\"1234567890123456789012\"}",
				"{\"seed\":7}", "{\"seed\":null}", "{\"seed\":[\"7\"]}" };

			for (j = 0; j < sizeof bad / sizeof bad[0]; j++) {
				a = prompt_get(name, bad[j]);
				ok(error_code(a) == MCP_INVALID_PARAMS, "%s %s: -32602", name, bad[j]);
				json_decref(a);
			}
			a = prompt_get(name, "{\"seed\":\"\"}");
			text = prompt_text(a);
			snprintf(want, sizeof want, "start_run with {\"game\": \"%s\"}.", g->name);
			ok(text != NULL && strstr(text, want) != NULL, "%s: a seed left blank is absent", name);
			json_decref(a);
		}
	}

	a = prompt_get("play_match", NULL);
	text = prompt_text(a);
	ok(text != NULL && strstr(text, "create_match with {\"players\": 2}") != NULL &&
	    strstr(text, "match_move") != NULL && strstr(text, "wait_match") != NULL,
	    "play_match: create_match, match_move, wait_match");
	json_decref(a);
	snprintf(args, sizeof args, "{\"players\":\"%u\",\"rules\":\"%s\"}", match_rules_default()->players_max,
	    match_rules_default()->name);
	a = prompt_get("play_match", args);
	text = prompt_text(a);
	snprintf(want, sizeof want, "create_match with {\"players\": %u, \"rules\": \"%s\"}",
	    match_rules_default()->players_max, match_rules_default()->name);
	ok(text != NULL && strstr(text, want) != NULL, "play_match %s: %s", args, want);
	json_decref(a);
	a = prompt_get("play_match", "{\"matchId\":\"12345\"}");
	text = prompt_text(a);
	ok(text != NULL && strstr(text, "join_match with {\"matchId\": \"12345\"}") != NULL &&
	    strstr(text, "create_match with") == NULL, "play_match with a matchId: join_match");
	json_decref(a);
	{
		static const char *const bad[] = { "{\"matchId\":\"12a\"}", "{\"matchId\":\"12\",\"players\":\"2\"}",
			"{\"players\":\"1\"}", "{\"players\":\"9\"}", "{\"rules\":\"chess-v1\"}", "{\"seed\":\"1\"}",
			"[]", "\"x\"" };

		for (j = 0; j < sizeof bad / sizeof bad[0]; j++) {
			a = prompt_get("play_match", bad[j]);
			ok(error_code(a) == MCP_INVALID_PARAMS, "play_match %s: -32602 (%s)", bad[j],
			    json_string_value(json_object_get(json_object_get(a, "error"), "message")));
			json_decref(a);
		}
	}

	a = prompt_get("play_chess", NULL);
	ok(error_code(a) == MCP_INVALID_PARAMS && strstr(json_string_value(json_object_get(json_object_get(a,
	    "error"), "message")), "play_chess") != NULL, "an unknown prompt: -32602 naming it");
	json_decref(a);
	a = prompt_get("play_", NULL);
	ok(error_code(a) == MCP_INVALID_PARAMS, "play_ alone: -32602");
	json_decref(a);
	snprintf(name, sizeof name, "%s", game_table[0]->name);
	a = prompt_get(name, NULL);
	ok(error_code(a) == MCP_INVALID_PARAMS, "a game's name without play_: -32602");
	json_decref(a);
	a = answer("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"prompts/get\"}", NULL, NULL, &status);
	ok(error_code(a) == MCP_INVALID_PARAMS && status == 200 &&
	    strstr(json_string_value(json_object_get(json_object_get(a, "error"), "message")), "name") != NULL,
	    "prompts/get without params: -32602 asking for the name");
	json_decref(a);
	a = answer("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"prompts/get\",\"params\":{\"name\":7}}", NULL, NULL,
	    &status);
	ok(error_code(a) == MCP_INVALID_PARAMS, "a name that is no string: -32602");
	json_decref(a);

	/* The modern era: Mcp-Name names the prompt, and the result says
	 * resultType complete. */
	snprintf(name, sizeof name, "play_%s", game_table[0]->name);
	{
		char text2[512];
		struct mcp_headers h = { "2026-07-28", "prompts/get", name };
		struct mcp_message msg;
		json_t *e;

		snprintf(text2, sizeof text2, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"prompts/get\",\"params\":"
		    "{\"name\":\"%s\"," META "}}", name);
		e = mcp_read(text2, strlen(text2), &h, &msg, &status);
		ok(e == NULL, "a modern prompts/get with Mcp-Name is read");
		if (e == NULL) {
			a = mcp_answer(&msg, &info, &status);
			ok(prompt_text(a) != NULL && strcmp(json_string_value(json_object_get(json_object_get(a,
			    "result"), "resultType")), "complete") == 0, "... and answered, resultType complete");
			json_decref(a);
			mcp_message_cleanup(&msg);
		}
		json_decref(e);
		h.name = "play_other";
		e = mcp_read(text2, strlen(text2), &h, &msg, &status);
		ok(e != NULL && error_code(e) == MCP_HEADER_MISMATCH && status == 400,
		    "Mcp-Name naming another prompt: 400 -32020");
		json_decref(e);
		h.name = NULL;
		e = mcp_read(text2, strlen(text2), &h, &msg, &status);
		ok(e != NULL && error_code(e) == MCP_HEADER_MISMATCH, "a modern prompts/get without Mcp-Name: "
		    "-32020");
		json_decref(e);
	}
}

/* The last refusal's message. */
static char last_msg[MCP_REFUSAL_MAX];

/* Plans a call from its params' text. */
static bool
plan(const char *params, struct mcp_call *c, int *code)
{
	json_t *p = json_loads(params, 0, NULL);
	bool r = mcp_tools_plan(p, c, code, last_msg, sizeof last_msg);

	if (!r)
		diag("refused: %s", last_msg);
	json_decref(p);
	return r;
}

/* Whether a run tool's call refused for its arguments is planned as the
 * state route's call for the run it names, its refusal naming what. */
static bool
shows_run(const char *params, const char *what)
{
	struct mcp_call c;
	int code;
	bool r = plan(params, &c, &code) && code == 0 && strstr(c.refused, what) != NULL &&
	    strncmp(c.path, "/api/games/", 11) == 0 && strstr(c.path, "/state") != NULL && c.post;

	if (!r)
		diag("refused '%s', path %s", c.refused, c.path);
	mcp_call_cleanup(&c);
	return r;
}

static bool
body_is(const struct mcp_call *c, const char *want)
{
	json_t *w = json_loads(want, 0, NULL);
	json_t *got = c->post ? c->body : c->query;
	bool same = json_equal(got, w);

	if (!same) {
		char *d = json_dumps(got, JSON_SORT_KEYS);

		diag("got %s", d);
		free(d);
	}
	json_decref(w);
	return same;
}

static void
test_plan(void)
{
	struct mcp_call c;
	int code;

	ok(plan("{\"name\":\"start_run\",\"arguments\":{\"game\":\"stackcraft\",\"seed\":7,\"cap\":10}}", &c, &code) &&
	    c.post && strcmp(c.path, "/api/games/stackcraft/init") == 0 && c.game == game_table[GAME_STACKCRAFT] &&
	    body_is(&c, "{\"seed\":7,\"cap\":10}"), "start_run: POST init with seed and cap");
	mcp_call_cleanup(&c);
	ok(plan("{\"name\":\"act\",\"arguments\":{\"game\":\"duskcourt\",\"stateToken\":\"t\",\"action\":\"4x0\"}}",
	    &c, &code) && strcmp(c.path, "/api/games/duskcourt/action") == 0 &&
	    body_is(&c, "{\"stateToken\":\"t\",\"action\":{\"type\":\"capture\",\"from\":4,\"to\":0}}"),
	    "act duskcourt '4x0': the capture object of the rules' shape");
	mcp_call_cleanup(&c);
	ok(plan("{\"name\":\"act\",\"arguments\":{\"game\":\"duskcourt\",\"stateToken\":\"t\",\"action\":\"next\"}}",
	    &c, &code) && body_is(&c, "{\"stateToken\":\"t\",\"action\":{\"type\":\"next\"}}"),
	    "act duskcourt 'next': a type-only action");
	mcp_call_cleanup(&c);
	ok(plan("{\"name\":\"act\",\"arguments\":{\"game\":\"duskcourt\",\"stateToken\":\"t\",\"action\":\"4x0x1\"}}",
	    &c, &code) && body_is(&c, "{\"stateToken\":\"t\",\"action\":\"4x0x1\"}"),
	    "act duskcourt '4x0x1': no shape has three numbers, the string goes as it is (the route refuses it)");
	mcp_call_cleanup(&c);
	ok(plan("{\"name\":\"act\",\"arguments\":{\"game\":\"stackcraft\",\"stateToken\":\"t\",\"action\":\"r1x4\"}}",
	    &c, &code) && body_is(&c, "{\"stateToken\":\"t\",\"action\":\"r1x4\"}"),
	    "act stackcraft 'r1x4': the id string");
	mcp_call_cleanup(&c);
	ok(plan("{\"name\":\"act\",\"arguments\":{\"game\":\"stackfall\",\"stateToken\":\"t\",\"action\":\"place 1 4\","
	    "\"agentCheck\":{\"token\":\"ac_x\",\"answer\":17}}}", &c, &code) &&
	    body_is(&c, "{\"stateToken\":\"t\",\"command\":\"place 1 4\",\"agent_check\":\"ac_x\",\"agent_answer\":17}"),
	    "act stackfall 'place 1 4': a command, and agentCheck as the body's agent fields");
	mcp_call_cleanup(&c);
	ok(plan("{\"name\":\"act\",\"arguments\":{\"game\":\"hatetris\",\"stateToken\":\"t\",\"action\":\"place 1 4\"}}",
	    &c, &code) && body_is(&c, "{\"stateToken\":\"t\",\"command\":\"place 1 4\"}"), "act hatetris: a command");
	mcp_call_cleanup(&c);
	ok(plan("{\"name\":\"act\",\"arguments\":{\"game\":\"stackfall\",\"stateToken\":\"t\",\"action\":"
	    "{\"type\":\"hold\"}}}", &c, &code) && body_is(&c, "{\"stateToken\":\"t\",\"action\":{\"type\":\"hold\"}}"),
	    "an action object goes as it is");
	mcp_call_cleanup(&c);
	ok(plan("{\"name\":\"leaderboard\",\"arguments\":{\"game\":\"duskcourt\",\"seed\":7,\"limit\":5}}", &c, &code) &&
	    !c.post && strcmp(c.path, "/api/games/duskcourt/leaderboard") == 0 &&
	    body_is(&c, "{\"seed\":\"7\",\"limit\":\"5\"}"), "leaderboard: GET with query text");
	mcp_call_cleanup(&c);
	ok(plan("{\"name\":\"get_run\",\"arguments\":{\"game\":\"duskcourt\",\"runId\":\"123\"}}", &c, &code) &&
	    strcmp(c.path, "/api/games/duskcourt/runs/123") == 0, "get_run: the id in the path");
	mcp_call_cleanup(&c);
	ok(plan("{\"name\":\"wait_match\",\"arguments\":{\"matchId\":\"55\",\"afterTurn\":3}}", &c, &code) &&
	    strcmp(c.path, "/api/matches/55/wait") == 0 && body_is(&c, "{\"after\":\"3\"}") && c.game == NULL,
	    "wait_match: the match's long poll with after");
	mcp_call_cleanup(&c);
	ok(plan("{\"name\":\"create_match\",\"arguments\":{\"players\":2,\"turnSeconds\":5}}", &c,
	    &code) && body_is(&c, "{\"players\":2,\"turn_seconds\":5}"),
	    "create_match: turnSeconds becomes turn_seconds");
	mcp_call_cleanup(&c);
	{
		char params[256];

		snprintf(params, sizeof params, "{\"name\":\"create_match\",\"arguments\":{\"players\":2,"
		    "\"rules\":\"%s\"}}", match_rules_table[MATCH_RULES__COUNT - 1]->name);
		ok(plan(params, &c, &code) && strcmp(json_string_value(json_object_get(c.body, "rules")),
		    match_rules_table[MATCH_RULES__COUNT - 1]->name) == 0,
		    "create_match: rules, a ruleset of the table, goes to the body");
		mcp_call_cleanup(&c);
	}
	ok(!plan("{\"name\":\"create_match\",\"arguments\":{\"players\":2,\"rules\":\"chess-v1\"}}", &c,
	    &code) && code == 0, "create_match: a ruleset off the table is refused (a tool error)");
	ok(!plan("{\"name\":\"create_match\",\"arguments\":{\"players\":2,\"rated\":true}}", &c, &code) &&
	    code == 0, "create_match: rated is no argument (the route never rates a created "
	    "match): refused as unknown");
	ok(!plan("{\"name\":\"create_match\",\"arguments\":{\"players\":2,\"rated\":false}}", &c, &code) &&
	    code == 0, "... even false");
	ok(plan("{\"name\":\"list_games\"}", &c, &code) && strcmp(c.path, "/api/games") == 0,
	    "list_games without arguments");
	mcp_call_cleanup(&c);

	ok(!plan("{\"name\":\"nope\",\"arguments\":{}}", &c, &code) && code == MCP_INVALID_PARAMS, "unknown tool");
	ok(!plan("{\"arguments\":{}}", &c, &code), "no name");
	ok(!plan("{\"name\":\"act\",\"arguments\":{\"game\":\"duskcourt\",\"action\":\"next\"}}", &c, &code),
	    "act without its stateToken");
	ok(shows_run("{\"name\":\"finish_run\",\"arguments\":{\"game\":\"duskcourt\",\"stateToken\":\"t\","
	    "\"rating\":7}}", "review"), "finish_run without its review (the route requires both): the "
	    "run's state read instead, the refusal naming review");
	ok(shows_run("{\"name\":\"finish_run\",\"arguments\":{\"game\":\"duskcourt\",\"stateToken\":\"t\","
	    "\"review\":\"fine\"}}", "rating"), "finish_run without its rating: the same, naming rating");
	ok(shows_run("{\"name\":\"act\",\"arguments\":{\"game\":\"duskcourt\",\"handle\":\"12-abcdefgh\","
	    "\"move\":\"4x0\"}}", "did you mean 'action'"), "act with move for action, by handle: the run "
	    "read by its handle, the refusal naming action");
	ok(!plan("{\"name\":\"act\",\"arguments\":{\"game\":\"duskcourt\",\"move\":\"4x0\"}}", &c, &code) &&
	    code == 0 && strstr(last_msg, "'action'") != NULL, "act naming no run, with move: a tool error "
	    "naming action");
	ok(!plan("{\"name\":\"act\",\"arguments\":{\"game\":\"chess\",\"stateToken\":\"t\",\"action\":\"e4\"}}",
	    &c, &code), "a game off the table");
	ok(!plan("{\"name\":\"start_run\",\"arguments\":{\"game\":\"duskcourt\",\"seed\":\"7\"}}", &c, &code),
	    "a seed in text");
	ok(!plan("{\"name\":\"start_run\",\"arguments\":{\"game\":\"duskcourt\",\"colour\":1}}", &c, &code),
	    "an unknown argument");
	ok(!plan("{\"name\":\"start_run\",\"arguments\":{\"game\":\"duskcourt\",\"cap\":\"ten\"}}", &c, &code),
	    "an option that is no integer");
	ok(!plan("{\"name\":\"get_run\",\"arguments\":{\"game\":\"duskcourt\",\"runId\":\"1/../2\"}}", &c, &code),
	    "a run id with a slash");
	ok(!plan("{\"name\":\"get_run\",\"arguments\":{\"game\":\"duskcourt\",\"runId\":\"12345678901234567890\"}}",
	    &c, &code), "a run id of 20 digits");
	ok(shows_run("{\"name\":\"act\",\"arguments\":{\"game\":\"stackfall\",\"stateToken\":\"t\",\"action\":3}}",
	    "action"), "an action that is a number");
	ok(shows_run("{\"name\":\"act\",\"arguments\":{\"game\":\"stackfall\",\"stateToken\":\"t\",\"action\":\"x\","
	    "\"agentCheck\":{\"token\":\"ac_x\"}}}", "agentCheck"), "agentCheck without an answer");
	ok(shows_run("{\"name\":\"act\",\"arguments\":{\"game\":\"stackfall\",\"stateToken\":\"t\",\"action\":\"x\","
	    "\"agentCheck\":{\"token\":\"ac_x\",\"answer\":1,\"more\":2}}}", "agentCheck"), "agentCheck with more");
	ok(!plan("{\"name\":\"act\",\"arguments\":[1]}", &c, &code), "arguments as an array");
}

static void
test_action_text(void)
{
	const char *cases[][2] = {
		{ "{\"type\":\"capture\",\"from\":4,\"to\":0}", "4x0" },
		{ "{\"type\":\"next\"}", "next" },
		{ "{\"id\":\"r1x4\",\"rotation\":1,\"x\":4,\"y\":0,\"cells\":[[1,2]]}", "r1x4" },
		{ "\"place 1 4\"", "place 1 4" },
		{ "{\"type\":\"say\",\"word\":\"hi\"}", "{\"type\":\"say\",\"word\":\"hi\"}" },
	};
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		json_t *a = json_loads(cases[i][0], JSON_DECODE_ANY, NULL);
		char out[128];

		mcp_action_text(a, out, sizeof out);
		is_str(out, cases[i][1], "legal action %s written %s", cases[i][0], cases[i][1]);
		json_decref(a);
	}
}

/* A real game answer, as the pipeline builds it: game, runId, stateToken
 * and the game's part on a fresh run of seed 7, written and read back. */
static json_t *
game_answer(const struct game *g)
{
	game_state st;
	struct game_options opts;
	struct game_env env = { 0 };
	enum api_error err;
	char msg[128];
	json_t *o = NULL;
	struct jw w;
	char *text;
	size_t i, len = 0;
	void *work = g->work_size ? calloc(1, g->work_size) : NULL;

	env.work = work;
	env.shared = test_shared;
	for (i = 0; i < g->noptions; i++)
		opts.v[i] = g->options[i].dflt;
	if (!g->init(&st, 7, &opts, &env, &err, msg, sizeof msg)) {
		diag("%s: init failed: %s", g->name, msg);
		free(work);
		return NULL;
	}
	jw_init(&w, 4096, 1u << 22);
	game_answer_write(&w, g, "42", "v4.local.T", &st, NULL, NULL, NULL);
	if ((text = jw_take(&w, &len)) != NULL)
		o = json_loadb(text, len, 0, NULL);
	free(text);
	free(work);
	return o;
}

static json_t *
result_of(const char *tool, const struct game *g, int status, json_t *body)
{
	char params[128];
	struct mcp_call c;
	int code;
	json_t *r;

	snprintf(params, sizeof params, "{\"name\":\"%s\"}", tool);
	memset(&c, 0, sizeof c);
	/* Only the tool's index and game matter to the result. */
	{
		json_t *p = json_loads(params, 0, NULL);
		char msg[64];

		mcp_tools_plan(p, &c, &code, msg, sizeof msg);
		json_decref(p);
	}
	c.game = g;
	r = mcp_tools_result(&c, status, body);
	mcp_call_cleanup(&c);
	return r;
}

/* Whether every row of board that is not all empty is a line of text
 * (empty rows may be said in one line). */
static bool
board_drawn(const char *board, const char *text)
{
	const char *p = board;
	char line[128];

	while (*p != '\0') {
		size_t w = strcspn(p, "\n");

		if (w < sizeof line - 2 && strspn(p, ".") < w) {
			line[0] = '\n';
			memcpy(line + 1, p, w);
			line[w + 1] = '\n';
			line[w + 2] = '\0';
			if (strstr(text, line) == NULL)
				return false;
		}
		p += w + (p[w] == '\n');
	}
	return true;
}

/* Whether the text names each of g's facts that its state has. */
static bool
facts_named(const struct game *g, const json_t *state, const char *text)
{
	const struct game_fact *f = game_ext(g)->facts;
	char want[256];

	if (f == NULL)
		return false;
	for (; f->key != NULL; f++) {
		const json_t *v = json_object_get(state, f->key);

		if (v == NULL)
			continue;
		if (json_is_boolean(v) && (f->if_true != NULL || f->if_false != NULL)) {
			const char *w = json_is_true(v) ? f->if_true : f->if_false;

			if (w != NULL && strstr(text, w) == NULL)
				return false;
			continue;
		}
		if (json_is_string(v))
			snprintf(want, sizeof want, "%s %s", f->label, json_string_value(v));
		else if (json_is_integer(v))
			snprintf(want, sizeof want, "%s %" JSON_INTEGER_FORMAT, f->label, json_integer_value(v));
		else
			snprintf(want, sizeof want, "%s ", f->label);
		if (strstr(text, want) == NULL)
			return false;
	}
	return true;
}

static void
test_results(void)
{
	json_t *body, *r, *s;
	const char *text;
	size_t i;

	for (i = 0; i < GAME__COUNT; i++) {
		const struct game *g = game_table[i];

		body = game_answer(g);
		if (!ok(body != NULL, "%s: a real first answer", g->name))
			continue;
		r = result_of("start_run", g, 200, body);
		s = json_object_get(r, "structuredContent");
		text = json_string_value(json_object_get(json_array_get(json_object_get(r, "content"), 0), "text"));
		ok(json_is_false(json_object_get(r, "isError")), "%s: not an error", g->name);
		is_str(json_string_value(json_object_get(s, "game")), g->name, "%s: game", g->name);
		is_str(json_string_value(json_object_get(s, "runId")), "42", "%s: runId", g->name);
		is_str(json_string_value(json_object_get(s, "status")), "playing", "%s: status playing", g->name);
		ok(json_is_object(json_object_get(s, "state")), "%s: a state object", g->name);
		ok(json_is_string(json_object_get(s, "boardText")) && text != NULL &&
		    board_drawn(json_string_value(json_object_get(s, "boardText")), text),
		    "%s: boardText, drawn in the text block", g->name);
		ok(text != NULL && facts_named(g, json_object_get(s, "state"), text),
		    "%s: the text names the game's figures (piece, score...)", g->name);
		ok(text != NULL && strstr(text, "stateToken: v4.local.T") != NULL, "%s: the token in the text",
		    g->name);
		ok(json_object_get(s, "error") == NULL, "%s: no error", g->name);
		json_decref(r);
	}

	/* A refusal keeps what the REST body carries. */
	body = game_answer(game_table[GAME_DUSKCOURT]);
	json_object_set_new(body, "error", json_pack("{s:s, s:s}", "code", "stale_state_token", "message", "old"));
	json_object_set_new(body, "agent_check", json_pack("{s:s, s:s, s:i}", "puzzle", "tWo pluS one",
	    "token", "ac_abc", "expires_in", 600));
	r = result_of("act", game_table[GAME_DUSKCOURT], 409, body);
	s = json_object_get(r, "structuredContent");
	text = json_string_value(json_object_get(json_array_get(json_object_get(r, "content"), 0), "text"));
	ok(json_is_true(json_object_get(r, "isError")), "409: isError");
	is_str(json_string_value(json_object_get(json_object_get(s, "error"), "code")), "stale_state_token",
	    "409: the error's code");
	is_int(json_integer_value(json_object_get(json_object_get(s, "error"), "status")), 409, "409: its status");
	ok(json_is_object(json_object_get(s, "state")) && json_is_string(json_object_get(s, "stateToken")),
	    "409: the state and the newest token");
	is_str(json_string_value(json_object_get(json_object_get(s, "agentCheck"), "token")), "ac_abc",
	    "409: agent_check becomes agentCheck");
	ok(text != NULL && strstr(text, "refused: 409 stale_state_token") == text &&
	    strstr(text, "tWo pluS one") != NULL && strstr(text, "legal actions: 0x3 0x4 4x0") != NULL,
	    "409: the text says refused, the puzzle and the legal actions compactly");
	json_decref(r);

	/* A finish. */
	body = json_pack("{s:s, s:s, s:{s:i, s:i, s:i, s:s}, s:{s:i, s:s}, s:s, s:s}", "game", "duskcourt",
	    "runId", "42", "final", "score", 90, "rung", 1, "lives", 3, "phase", "done", "review", "rating", 9,
	    "text", "ok", "certificate", "v4.public.C", "verifyWith", "/api/v1/keys");
	r = result_of("finish_run", game_table[GAME_DUSKCOURT], 200, body);
	s = json_object_get(r, "structuredContent");
	is_str(json_string_value(json_object_get(s, "status")), "finished", "finish: status finished");
	is_str(json_string_value(json_object_get(s, "certificate")), "v4.public.C", "finish: the certificate");
	ok(json_is_object(json_object_get(s, "final")) && json_object_get(s, "state") == NULL,
	    "finish: final, and no state made of the envelope");
	json_decref(r);

	/* A tool whose result is the route's JSON as it is. */
	body = json_pack("{s:{s:s, s:s}}", "error", "code", "run_not_found", "message", "no such run");
	r = result_of("get_run", game_table[GAME_DUSKCOURT], 404, body);
	s = json_object_get(r, "structuredContent");
	ok(json_is_true(json_object_get(r, "isError")) &&
	    json_integer_value(json_object_get(json_object_get(s, "error"), "status")) == 404,
	    "get_run 404: isError, the REST error with its status");
	json_decref(r);
	body = json_pack("[i]", 1);
	r = result_of("list_games", NULL, 200, body);
	ok(json_is_array(json_object_get(json_object_get(r, "structuredContent"), "items")),
	    "an array answer is wrapped in an object");
	json_decref(r);
	ok(result_of("list_games", NULL, 200, NULL) == NULL, "no body, no result");
}

/* One result both ways: mcp_tools_result's tree in mcp_result_new's
 * envelope, dumped, and mcp_tools_result_write on the body's text. Equal
 * bytes, or the written way declines (then the tree's is the answer). */
static bool
both_ways(const char *tool, const struct game *g, int status, const json_t *body, const json_t *id,
    enum mcp_era era, bool *taken)
{
	struct mcp_message m = { 0 };
	char params[128], msg[64], *want, *in, *got = NULL;
	struct mcp_call c;
	json_t *p, *r;
	struct jw w;
	size_t len = 0;
	int code;
	bool same;

	snprintf(params, sizeof params, "{\"name\":\"%s\"}", tool);
	memset(&c, 0, sizeof c);
	p = json_loads(params, 0, NULL);
	mcp_tools_plan(p, &c, &code, msg, sizeof msg);
	json_decref(p);
	c.game = g;
	m.id = id;
	m.era = era;
	r = mcp_result_new(&m, mcp_tools_result(&c, status, json_deep_copy(body)));
	want = r != NULL ? json_dumps(r, JSON_COMPACT) : NULL;
	json_decref(r);
	in = json_dumps(body, JSON_COMPACT);
	jw_init(&w, 64, 1u << 24);
	*taken = in != NULL && mcp_tools_result_write(&w, &c, id, era == MCP_ERA_MODERN, status, in,
	    strlen(in));
	if (*taken)
		got = jw_take(&w, &len);
	else
		jw_cleanup(&w);
	same = !*taken || (want != NULL && got != NULL && strcmp(want, got) == 0 && len == strlen(want));
	if (!same)
		diag("%s %d:\n#  tree    %s\n#  written %s", tool, status, want ? want : "(null)",
		    got ? got : "(null)");
	mcp_call_cleanup(&c);
	free(want);
	free(in);
	free(got);
	return same;
}

static void
test_written_results(void)
{
	static const char *const tools_run[] = { "start_run", "act", "get_state", "finish_run" };
	static const int statuses[] = { 200, 409, 422 };
	json_t *ids[2], *bodies[4];
	unsigned apart = 0, taken = 0, tried = 0;
	size_t i, b, k, t, e;

	ids[0] = json_integer(7);
	ids[1] = json_string("a\"b");
	for (i = 0; i < GAME__COUNT; i++) {
		const struct game *g = game_table[i];
		json_t *base = game_answer(g);

		if (base == NULL)
			continue;
		bodies[0] = json_deep_copy(base);
		bodies[1] = json_deep_copy(base);
		json_object_del(bodies[1], "game");
		json_object_set_new(bodies[1], "error", json_pack("{s:s, s:s}", "code", "illegal_action",
		    "message", "no \"such\"\nmove"));
		json_object_set_new(bodies[1], "agent_check", json_pack("{s:s, s:s, s:i}", "puzzle",
		    "tWo pluS one", "token", "ac_abc", "expires_in", 600));
		bodies[2] = json_pack("{s:s, s:s, s:{s:i, s:s, s:n}, s:{s:i, s:s}, s:s, s:s}", "game", g->name,
		    "runId", "42", "final", "score", 90, "status", "over", "end_reason", "review", "rating", 9,
		    "text", "ok\u00e9", "certificate", "v4.public.C", "verifyWith", "/api/v1/keys");
		bodies[3] = json_deep_copy(bodies[2]);
		json_object_update(bodies[3], base);
		for (b = 0; b < 4; b++)
			for (k = 0; k < 2; k++)
				for (t = 0; t < 4; t++)
					for (e = 0; e < 3; e++) {
						bool took;

						tried++;
						if (!both_ways(tools_run[t], g, statuses[e], bodies[b], ids[k],
						    k ? MCP_ERA_MODERN : MCP_ERA_LEGACY, &took))
							apart++;
						taken += took;
					}
		for (b = 0; b < 4; b++)
			json_decref(bodies[b]);
		json_decref(base);
	}
	ok(apart == 0 && taken == tried, "results written around the answer's text are the tree's, byte "
	    "for byte (%u of %u taken that way, %u apart)", taken, tried, apart);
	json_decref(ids[0]);
	json_decref(ids[1]);
}

/* ---- mcp_load against json_loadb ---- */

#define LOAD_MAX 16384

static uint64_t load_rng = 0x2545f4914f6cdd1du;

static uint32_t
below(uint32_t n)
{
	return xorshift_below(&load_rng, n);
}

static void
put_text(char *b, size_t *n, const char *s)
{
	size_t k = strlen(s);

	if (*n + k < LOAD_MAX) {
		memcpy(b + *n, s, k);
		*n += k;
	}
}

static void
put_ws(char *b, size_t *n, bool spaced)
{
	static const char *const kinds[] = { " ", "\n", "\t", "\r\n  ", "  " };

	if (spaced && below(2) == 0)
		put_text(b, n, kinds[below(5)]);
}

static const char *const load_keys[] = {
	"jsonrpc", "id", "method", "params", "name", "arguments", "game", "stateToken", "action",
	"_meta", "type", "x", "", "k\\u0065y", "\xc3\xa9", "a\\\"b",
};

static const char *const load_strings[] = {
	"2.0", "tools/call", "act", "duskcourt", "capture", "v4.local.AbCd-_09.xyz", "", "\xc3\xa9",
	"tab\\there", "q\\\"uote", "\\u0000", "\x7f", "\x01", "\xff", "\\ud83c\\udfb2", "a/b",
	"v4.local.AbCdEfGhIjKlMnOpQrStUvWxYz-_0123456789.AbCdEfGhIjKlMnOpQrStUvWxYz-_0123456789",
	"abcdefgh\x7fijklmnop", "abcdefghij\xc3\xa9klmnopq", "abcdefghijk\\\"lmnopqrstu",
	"abcdefghijklmnop\x1fqrstuvwx", "abcdefghijklmnopqrstuvwx\\nyz",
};

static const char *const load_numbers[] = {
	"0", "7", "-3", "-0", "01", "1.5", "1e3", "2E-1", "123456789012345678", "1234567890123456789",
	"99999999999999999999", "-", "-a", "9007199254740993", "00",
};

static void load_value(char *b, size_t *n, int depth, bool spaced);

/* An object of random members, keys from the table (sometimes twice). */
static void
load_object(char *b, size_t *n, int depth, bool spaced)
{
	int i, count = (int)below(5);

	put_text(b, n, "{");
	for (i = 0; i < count; i++) {
		put_ws(b, n, spaced);
		if (i > 0) {
			put_text(b, n, ",");
			put_ws(b, n, spaced);
		}
		put_text(b, n, "\"");
		put_text(b, n, load_keys[below(sizeof load_keys / sizeof load_keys[0])]);
		put_text(b, n, "\"");
		put_ws(b, n, spaced);
		put_text(b, n, ":");
		put_ws(b, n, spaced);
		load_value(b, n, depth - 1, spaced);
	}
	put_ws(b, n, spaced);
	put_text(b, n, "}");
}

static void
load_value(char *b, size_t *n, int depth, bool spaced)
{
	int i, count;

	switch (below(depth > 0 ? 10 : 6)) {
	case 0:
	case 1:
		put_text(b, n, "\"");
		put_text(b, n, load_strings[below(sizeof load_strings / sizeof load_strings[0])]);
		put_text(b, n, "\"");
		return;
	case 2:
		put_text(b, n, load_numbers[below(sizeof load_numbers / sizeof load_numbers[0])]);
		return;
	case 3:
		put_text(b, n, below(3) == 0 ? "true" : below(2) ? "false" : "null");
		return;
	case 4:
	case 5:
		put_text(b, n, load_numbers[below(3)]);
		return;
	case 6:
		put_text(b, n, "[");
		for (i = 0, count = (int)below(4); i < count; i++) {
			if (i > 0)
				put_text(b, n, ",");
			put_ws(b, n, spaced);
			load_value(b, n, depth - 1, spaced);
		}
		put_text(b, n, "]");
		return;
	default:
		load_object(b, n, depth, spaced);
		return;
	}
}

/* A JSON-RPC message as clients write one, or near one. */
static size_t
load_body(char *b)
{
	static const char *const shapes[] = {
		"{\"jsonrpc\":\"2.0\",\"id\":", ",\"method\":\"tools/call\",\"params\":{\"name\":\"act\","
		"\"arguments\":{\"game\":\"duskcourt\",\"stateToken\":\"v4.local.AbCd\",\"action\":",
		"{\"jsonrpc\": \"2.0\", \"id\": ", ", \"method\": \"tools/call\", \"params\": {\"name\": "
		"\"act\", \"arguments\": {\"game\": \"duskcourt\", \"stateToken\": \"\", \"action\": ",
		"{\"method\":\"tools/call\",\"params\":{\"arguments\":{\"action\":", NULL,
	};
	bool spaced = below(2) == 0;
	size_t n = 0;
	char id[16];
	int shape = (int)below(5);

	if (shape < 3) {
		put_text(b, &n, shapes[2 * shape]);
		if (shapes[2 * shape + 1] != NULL) {
			snprintf(id, sizeof id, "%u", below(100000));
			put_text(b, &n, id);
			put_text(b, &n, shapes[2 * shape + 1]);
		}
		load_value(b, &n, 4, spaced);
		put_text(b, &n, shape == 2 ? "},\"name\":\"act\"},\"id\":\"x-1\",\"jsonrpc\":\"2.0\"}" :
		    "}}}");
	} else {
		put_ws(b, &n, spaced);
		if (shape == 3)
			load_object(b, &n, 10, spaced);
		else
			load_value(b, &n, 10, spaced);
		put_ws(b, &n, spaced);
	}
	return n;
}

/* One to three changed, added or removed bytes, a cut, or a tail. */
static size_t
load_damage(char *b, size_t n)
{
	static const char bytes[] = "{}[]\",:\\ \n0-.eau\x01\x7f\x80\xc3\xff";

	return json_damage(b, n, LOAD_MAX, bytes, sizeof bytes - 1, below);
}

/* Nesting near jansson's depth limit: {"a": then d brackets. */
static size_t
load_deep(char *b, int d)
{
	size_t n = 0;
	int i;

	put_text(b, &n, "{\"a\":{\"b\":");
	for (i = 0; i < d; i++)
		put_text(b, &n, "[");
	for (i = 0; i < d; i++)
		put_text(b, &n, "]");
	put_text(b, &n, "}}");
	return n;
}

/* mcp_load reads every body as json_loadb does: the same value with its
 * keys in the same order, or the same error at the same place; and the
 * short road is taken by the envelopes it is for. */
static void
test_load(void)
{
	static char b[LOAD_MAX], orig[LOAD_MAX];
	static const char *const fixed[] = {
		"{}", " {} ", "{\"a\":1}", "{\"a\":1,}", "{\"a\":1 \"b\":2}", "{\"a\":1,\"a\":2}",
		"{\"a\":{\"b\":1,\"b\":2}}", "{\"a\":-}", "{\"a\":01}", "{\"a\":1}x", "{\"a\":\"b}",
		"{\"a\":[1,2]", "{\"a\":{\"b\":[]}}", "{\"a\":\"\\u0000\"}", "[]", "7", "\"s\"", "",
		"{\"a\":1}\n", "{\"\":1}", "{\"a\":\"\x7f\"}", "{\"a\":1234567890123456789}",
		"{\"a\":-123456789012345678}",
		"{\"a\":{\"b\":{\"c\":{\"d\":{\"e\":{\"f\":{\"g\":{\"h\":{\"i\":{\"j\":1}}}}}}}}}}",
	};
	const unsigned long count = 100000, nfixed = sizeof fixed / sizeof fixed[0];
	const int deep[] = { 2000, 2044, 2045, 2046, 2047, 2048, 2049 };
	const unsigned long ndeep = sizeof deep / sizeof deep[0];
	unsigned long i, agree = 0, apart = 0, valid = 0, refused = 0, taken = 0;

	for (i = 0; i < count + nfixed + ndeep; i++) {
		json_error_t ea, ec;
		json_t *a, *c, *s;
		char *ta = NULL, *tc = NULL;
		size_t n;
		bool same;

		if (i < nfixed) {
			n = strlen(fixed[i]);
			memcpy(b, fixed[i], n);
		} else if (i < nfixed + ndeep) {
			n = load_deep(b, deep[i - nfixed]);
		} else {
			n = load_body(b);
			if (below(3) == 0)
				n = load_damage(b, n);
		}
		memcpy(orig, b, n);
		a = json_loadb(b, n, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &ea);
		c = mcp_load(b, n, &ec);
		s = mcp_load_short(b, n);
		if (a != NULL) {
			valid++;
			ta = json_dumps(a, JSON_COMPACT | JSON_ENCODE_ANY);
		} else {
			refused++;
		}
		taken += s != NULL;
		if (c != NULL)
			tc = json_dumps(c, JSON_COMPACT | JSON_ENCODE_ANY);
		same = (a == NULL) == (c == NULL) && memcmp(orig, b, n) == 0;
		if (same && a != NULL)
			same = json_equal(a, c) && strcmp(ta, tc) == 0;
		if (same && a == NULL)
			same = strcmp(ea.text, ec.text) == 0 && ea.line == ec.line &&
			    ea.column == ec.column && ea.position == ec.position;
		if (same && s != NULL) {
			char *ts = json_dumps(s, JSON_COMPACT | JSON_ENCODE_ANY);

			same = a != NULL && ts != NULL && strcmp(ta, ts) == 0;
			free(ts);
		}
		if (same) {
			agree++;
		} else if (apart++ < 5) {
			diag("apart on body %lu: %.*s", i, (int)(n < 300 ? n : 300), orig);
			diag("  json_loadb: %s / mcp_load: %s", ta ? ta : ea.text, tc ? tc : ec.text);
		}
		free(ta);
		free(tc);
		json_decref(a);
		json_decref(c);
		json_decref(s);
	}
	ok(apart == 0 && agree == count + nfixed + ndeep,
	    "mcp_load reads %lu bodies as json_loadb does (%lu apart; %lu read, %lu refused)", agree,
	    apart, valid, refused);
	ok(taken > count / 5 && refused > count / 5 && valid > count / 5,
	    "the short road reads %lu of the %lu bodies read", taken, valid);
}

/* Game calls with their stateTokens, plain or not (escapes, two tokens,
 * a token with other bytes, a broken body): the message mcp_read reads
 * must be the one json_loadb reads, keys in order, or its error. */
static void
test_token_cut(void)
{
	static const char *const bodies[] = {
		"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"act\",\"arguments\":"
		"{\"game\":\"duskcourt\",\"stateToken\":\"v4.local.AbCdEfGhIjKlMnOpQrStUvWxYz-_0123456789\","
		"\"action\":{\"type\":\"capture\",\"from\":3,\"to\":7}}}}",
		"{\"jsonrpc\": \"2.0\", \"id\": 3, \"method\": \"tools/call\", \"params\": {\"name\": \"act\", "
		"\"arguments\": {\"stateToken\" :\n \"v4.local.AbCdEfGhIjKlMnOpQrStUvWxYz-_0123456789\", "
		"\"game\": \"duskcourt\", \"action\": \"next\"}}}",
		"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"act\",\"arguments\":"
		"{\"game\":\"du\\u0073kcourt\",\"stateToken\":\"v4.local.AbCdEfGhIjKlMnOpQrStUvWxYz-_0123456789\"}}}",
		"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"act\",\"arguments\":"
		"{\"stateToken\":\"v4.local.AbCdEfGhIjKlMnOpQrStUvWxYz-_0123456789\",\"x\":{\"stateToken\":"
		"\"v4.local.AbCdEfGhIjKlMnOpQrStUvWxYz-_0123456789\"}}}}",
		"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"act\",\"arguments\":"
		"{\"stateToken\":\"v4.local.AbCdEfGhIjKlMnOpQrStUvWxYz \xc3\xa9 0123456789\"}}}",
		"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"stateToken\":"
		"\"v4.local.AbCdEfGhIjKlMnOpQrStUvWxYz-_0123456789\",\"name\":\"act\",\"arguments\":{}}}",
		"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"act\",\"arguments\":"
		"{\"stateToken\":\"v4.local.AbCdEfGhIjKlMnOpQrStUvWxYz-_0123456789\",}}}",
		"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"act\",\"arguments\":"
		"{\"stateToken\":\"v4.local.AbCdEfGhIjKlMnOpQrStUvWxYz-_0123456789\",\"game\":1,\"game\":2}}}",
	};
	struct mcp_headers h = { 0 };
	unsigned apart = 0;
	size_t i;

	for (i = 0; i < sizeof bodies / sizeof bodies[0]; i++) {
		struct mcp_message m;
		json_error_t jerr;
		json_t *want = json_loadb(bodies[i], strlen(bodies[i]), JSON_REJECT_DUPLICATES | JSON_DECODE_ANY,
		    &jerr), *answer;
		char *a, *b;
		int status;

		answer = mcp_read(bodies[i], strlen(bodies[i]), &h, &m, &status);
		a = want != NULL ? json_dumps(want, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
		b = m.root != NULL ? json_dumps(m.root, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
		if ((a == NULL) != (b == NULL) || (a != NULL && strcmp(a, b) != 0) ||
		    (want == NULL && answer == NULL)) {
			apart++;
			diag("body %zu: read %s, jansson %s", i, b ? b : "(null)", a ? a : "(null)");
		}
		free(a);
		free(b);
		json_decref(want);
		json_decref(answer);
		mcp_message_cleanup(&m);
	}
	ok(apart == 0, "a game call with its token is read as jansson reads it (%zu bodies, %u apart)",
	    sizeof bodies / sizeof bodies[0], apart);
}

static void
test_envelopes(void)
{
	struct mcp_message m = { 0 };
	json_t *id = json_integer(7), *r;

	m.id = id;
	m.era = MCP_ERA_MODERN;
	r = mcp_result_new(&m, json_object());
	ok(json_integer_value(json_object_get(r, "id")) == 7 &&
	    strcmp(json_string_value(json_object_get(json_object_get(r, "result"), "resultType")), "complete") == 0,
	    "a modern result says resultType complete");
	json_decref(r);
	m.era = MCP_ERA_LEGACY;
	r = mcp_result_new(&m, json_object());
	ok(json_object_get(json_object_get(r, "result"), "resultType") == NULL, "a legacy result does not");
	json_decref(r);
	ok(mcp_result_new(&m, NULL) == NULL, "no result, no envelope");
	r = mcp_error_new(NULL, MCP_PARSE_ERROR, "x", NULL);
	ok(json_object_get(r, "id") == NULL && strcmp(json_string_value(json_object_get(r, "jsonrpc")), "2.0") == 0,
	    "an error whose id is unknown leaves it out");
	json_decref(r);
	json_decref(id);
	is_int(mcp_error_status(MCP_HEADER_MISMATCH, MCP_ERA_MODERN), 400, "-32020: 400");
	is_int(mcp_error_status(MCP_UNSUPPORTED_VERSION, MCP_ERA_LEGACY), 400, "-32022: 400");
	is_int(mcp_error_status(MCP_INVALID_PARAMS, MCP_ERA_MODERN), 200, "-32602: 200");
}

/* The front's refusals as JSON-RPC errors: the code by status and REST
 * code, the envelope in data with the status. */
static void
test_http_errors(void)
{
	static const struct {
		int status;
		enum api_error e;
		int code;
	} cases[] = {
		{ 429, API_ERR_RATE_LIMITED, MCP_HTTP_REFUSED },
		{ 405, API_ERR_METHOD_NOT_ALLOWED, MCP_HTTP_REFUSED },
		{ 413, API_ERR_PAYLOAD_TOO_LARGE, MCP_HTTP_REFUSED },
		{ 415, API_ERR_UNSUPPORTED_MEDIA, MCP_HTTP_REFUSED },
		{ 400, API_ERR_INVALID_JSON, MCP_PARSE_ERROR },
		{ 503, API_ERR_SHUTTING_DOWN, MCP_INTERNAL_ERROR },
		{ 500, API_ERR_INTERNAL, MCP_INTERNAL_ERROR },
	};
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		json_t *env = api_error_new(cases[i].e, "why");
		json_t *r = mcp_http_error(cases[i].status, env);
		json_t *err = json_object_get(r, "error"), *data = json_object_get(err, "data");

		ok(r != NULL && json_object_get(r, "id") == NULL &&
		    json_integer_value(json_object_get(err, "code")) == cases[i].code &&
		    strcmp(json_string_value(json_object_get(err, "message")), "why") == 0 &&
		    json_integer_value(json_object_get(data, "status")) == cases[i].status &&
		    strcmp(json_string_value(json_object_get(json_object_get(data, "error"), "code")),
		    api_error_info(cases[i].e)->code) == 0,
		    "HTTP %d %s: JSON-RPC %d with the envelope in data", cases[i].status,
		    api_error_info(cases[i].e)->code, cases[i].code);
		json_decref(r);
	}
}

int
main(void)
{
	test_read();
	test_unsupported_data();
	test_answers();
	test_headers_origins();
	test_tools_list();
	test_prompts_list();
	test_prompts_get();
	test_plan();
	test_action_text();
	test_results();
	test_written_results();
	test_token_cut();
	test_load();
	test_envelopes();
	test_http_errors();
	return tap_done();
}
