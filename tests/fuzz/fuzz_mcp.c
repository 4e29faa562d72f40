/*
 * fuzz_mcp.c: the MCP endpoint's reading of outside input (api/mcp/mcp.h,
 * api/mcp/mcp_tools.h) as POST /mcp meets it: a body and the three transport
 * headers. Each input is read with mcp_read; a message that passes is
 * answered with mcp_answer (prompts/get and prompts/list among them), or,
 * for tools/call, planned with
 * mcp_tools_plan (the arguments turned into a route's request), then freed.
 * Nothing may crash, leak or be undefined, and every refusal must come as
 * an answer, never as NULL with nothing said: a protocol error, or a
 * tool's refusal of its arguments made into a result with isError.
 *
 * Input layout: a first byte choosing the headers (a modern request's,
 * none, or mismatched ones), then the body. Built as a libFuzzer target
 * with clang, and everywhere as a test program (FUZZ_MCP_DRIVER) that makes
 * its inputs from a seeded generator: well-formed requests of every method
 * and tool, and damaged copies of them.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "xorshift.h"

#include "mcp.h"
#include "mcp_tools.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct mcp_server_info info = { "arcaded", "fuzz", "instructions" };

/* What the inputs did (the driver shows it): refused, answered, planned. */
static unsigned long nrefused, nanswered, nplanned, nbad;

static void
one(const char *body, size_t len, const struct mcp_headers *h)
{
	struct mcp_message m;
	struct mcp_call c;
	json_t *answer;
	int status = 0, code = 0;
	char msg[MCP_REFUSAL_MAX];

	if ((answer = mcp_read(body, len, h, &m, &status)) != NULL) {
		nrefused++;
		/* An answer that is a JSON-RPC error: 4xx, or 200 for the
		 * -32602 of bad params (docs/mcp.md). */
		code = (int)json_integer_value(json_object_get(json_object_get(answer, "error"), "code"));
		if (code == 0 || !((status >= 400 && status <= 499) ||
		    (status == 200 && code == MCP_INVALID_PARAMS))) {
			nbad++;
			if (getenv("FUZZ_MCP_SHOW"))
				fprintf(stderr, "refused %d: %.*s\n", status, (int)len, body);
		}
		json_decref(answer);
		return;
	}
	if (m.method != NULL && m.id != NULL && strcmp(m.method, "tools/call") == 0) {
		memset(&c, 0, sizeof c);
		if (mcp_tools_plan(m.params, &c, &code, msg, sizeof msg)) {
			nplanned++;
			if (c.post ? c.body == NULL : c.query == NULL)
				nbad++;
		} else if (msg[0] == '\0' || (code != 0 && code != MCP_INVALID_PARAMS)) {
			nbad++;
			if (getenv("FUZZ_MCP_SHOW"))
				fprintf(stderr, "plan refused without a word (%d): %.*s\n", code, (int)len, body);
		} else if (code == 0) {
			/* Arguments the tool refuses: a tool result that says why. */
			json_t *r = mcp_tools_result(&c, 400, json_pack("{s:{s:s, s:s}}", "error", "code",
			    "invalid_arguments", "message", msg));

			if (r == NULL || !json_is_true(json_object_get(r, "isError")))
				nbad++;
			json_decref(r);
		}
		mcp_call_cleanup(&c);
	} else if (m.method != NULL && m.id != NULL) {
		answer = mcp_answer(&m, &info, &status);
		if (answer == NULL)
			nbad++;
		nanswered++;
		json_decref(answer);
	}
	mcp_message_cleanup(&m);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mcp_headers h = { NULL, NULL, NULL };
	char method[64] = "", name[64] = "";
	json_t *v;

	if (size == 0)
		return 0;
	switch (data[0] % 4) {
	case 0: /* none: a legacy client that skipped initialize */
		break;
	case 1: /* a modern client's: the three headers as the body has them */
		h.protocol_version = MCP_VERSION_MODERN;
		if ((v = json_loadb((const char *)data + 1, size - 1, 0, NULL)) != NULL) {
			const char *mt = json_string_value(json_object_get(v, "method"));
			const json_t *params = json_object_get(v, "params");
			const char *nm = json_string_value(json_object_get(params, "name"));

			if (nm == NULL)
				nm = json_string_value(json_object_get(params, "uri"));
			snprintf(method, sizeof method, "%s", mt ? mt : "");
			snprintf(name, sizeof name, "%s", nm ? nm : "");
			json_decref(v);
		}
		h.method = method;
		h.name = name[0] ? name : NULL;
		break;
	case 2: /* a legacy client's, after initialize */
		h.protocol_version = MCP_VERSION_LEGACY;
		break;
	default: /* headers that disagree with any body */
		h.protocol_version = (data[0] & 4) ? "1999-01-01" : MCP_VERSION_MODERN;
		h.method = "tools/call";
		h.name = "=?base64?YWN0?=";
		break;
	}
	one((const char *)data + 1, size - 1, &h);
	return 0;
}

#ifdef FUZZ_MCP_DRIVER
/* xorshift64*: the same inputs for the same seed. */
static uint64_t rng_state = UINT64_C(0x9e3779b97f4a7c15);

static uint32_t
rnd(uint32_t n)
{
	return xorshift_below(&rng_state, n);
}

/* A request as clients write them: any method, any tool, arguments right
 * or wrong, modern (with _meta) or legacy. */
static int
request(char *out, size_t cap, bool *modern)
{
	static const char *const tools[] = {
		"list_games", "get_rules", "start_run", "act", "get_state", "finish_run", "get_run",
		"leaderboard", "create_match", "join_match", "match_move", "wait_match", "no_such_tool",
	};
	static const char *const args[] = {
		"{}", "{\"game\": \"duskcourt\"}", "{\"game\": \"stackcraft\", \"cap\": 10}",
		"{\"game\": \"duskcourt\", \"seed\": 7}", "{\"game\": \"nope\"}",
		"{\"game\": \"hatetris\", \"stateToken\": \"v4.local.x\", \"action\": \"place 1 4\"}",
		"{\"game\": \"duskcourt\", \"stateToken\": \"t\", \"action\": \"4x0\", \"agentCheck\": \"17\"}",
		"{\"game\": \"stackcraft\", \"stateToken\": \"t\", \"action\": {\"type\": \"next\"}}",
		"{\"game\": \"stackfall\", \"runId\": \"123\"}", "{\"game\": \"stackfall\", \"runId\": \"-1\"}",
		"{\"matchId\": \"42\", \"turn\": 3, \"command\": \"place 0 0\"}", "{\"matchId\": 42}",
		"{\"matchId\": \"42\", \"afterTurn\": -5}", "{\"players\": 2, \"turnSeconds\": 5}",
		"{\"game\": \"duskcourt\", \"limit\": 1000000, \"after\": \"x\"}", "[]", "null", "7",
	};
	static const char *const methods[] = {
		"tools/call", "tools/list", "initialize", "ping", "server/discover", "resources/list",
		"resources/read", "notifications/initialized", "nope", "prompts/list", "prompts/get",
	};
	static const char *const prompts[] = {
		"play_duskcourt", "play_stackcraft", "play_hatetris", "play_wells", "play_hatetris-classic",
		"play_stackfall", "play_match", "play_", "play_chess", "duskcourt",
	};
	static const char *const prompt_args[] = {
		"{}", "{\"seed\": \"7\"}", "{\"seed\": \"\"}", "{\"seed\": \"-3\"}", "{\"seed\": 7}",
		"{\"cap\": \"99999999999999999999\"}", "{\"depth\": \"2\", \"cap\": \"1\"}",
		"{\"width\": \"6\", \"height\": \"4\"}", "{\"supplier\": \"3\"}", "{\"matchId\": \"12\"}",
		"{\"players\": \"8\", \"rules\": \"versus-v1\"}", "{\"matchId\": \"1\", \"players\": \"2\"}",
		"{\"colour\": \"red\"}", "[]", "null", "\"x\"",
	};
	const char *meta = "", *method;
	char id[32];

	*modern = rnd(2) == 0;
	method = methods[rnd(sizeof methods / sizeof methods[0])];
	if (*modern)
		meta = "\"_meta\": {\"" MCP_META_VERSION "\": \"2026-07-28\", \"" MCP_META_CAPABILITIES
		    "\": {}}, ";
	switch (rnd(8)) {
	case 0: snprintf(id, sizeof id, "null"); break;
	case 1: snprintf(id, sizeof id, "%u.5", rnd(10)); break;
	case 2: case 3: case 4: snprintf(id, sizeof id, "\"r%u\"", rnd(1000)); break;
	default: snprintf(id, sizeof id, "%u", rnd(100000)); break;
	}
	if (strcmp(method, "tools/call") == 0)
		return snprintf(out, cap, "{\"jsonrpc\": \"2.0\", \"id\": %s, \"method\": \"tools/call\", "
		    "\"params\": {%s\"name\": \"%s\", \"arguments\": %s}}", id, meta,
		    tools[rnd(sizeof tools / sizeof tools[0])], args[rnd(sizeof args / sizeof args[0])]);
	if (strcmp(method, "prompts/get") == 0)
		return snprintf(out, cap, "{\"jsonrpc\": \"2.0\", \"id\": %s, \"method\": \"prompts/get\", "
		    "\"params\": {%s\"name\": \"%s\", \"arguments\": %s}}", id, meta,
		    prompts[rnd(sizeof prompts / sizeof prompts[0])],
		    prompt_args[rnd(sizeof prompt_args / sizeof prompt_args[0])]);
	if (strcmp(method, "prompts/list") == 0 && rnd(2) == 0)
		return snprintf(out, cap, "{\"jsonrpc\": \"2.0\", \"id\": %s, \"method\": \"prompts/list\", "
		    "\"params\": {%s\"cursor\": %s}}", id, meta, rnd(2) ? "\"c\"" : "null");
	if (strcmp(method, "resources/read") == 0)
		return snprintf(out, cap, "{\"jsonrpc\": \"2.0\", \"id\": %s, \"method\": \"resources/read\", "
		    "\"params\": {%s\"uri\": \"arcaded://rules/%s\"}}", id, meta, rnd(2) ? "duskcourt" : "x");
	return snprintf(out, cap, "{\"jsonrpc\": \"2.0\", \"id\": %s, \"method\": \"%s\", \"params\": {%s"
	    "\"protocolVersion\": \"2025-11-25\", \"capabilities\": {}}}", id, method, meta);
}

int
main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 1000;
	uint8_t buf[2048];
	long i;

	for (i = 0; i < n; i++) {
		bool modern;
		int len = request((char *)buf + 1, sizeof buf - 1, &modern);
		size_t size = (size_t)len + 1, k;

		/* The header byte: right for the body most of the time. */
		buf[0] = (uint8_t)(modern ? 1 : rnd(2) * 2);
		if (rnd(8) == 0)
			buf[0] = (uint8_t)rnd(256);
		/* A damaged copy half of the time: bytes changed, cut short. */
		if (rnd(3) == 0) {
			for (k = rnd(4) + 1; k > 0; k--)
				buf[1 + rnd((uint32_t)len)] = (uint8_t)rnd(256);
			if (rnd(3) == 0)
				size = 1 + rnd((uint32_t)len);
		}
		LLVMFuzzerTestOneInput(buf, size);
	}
	printf("# %ld inputs read: %lu refused with an answer, %lu answered, %lu tool calls planned\n",
	    n, nrefused, nanswered, nplanned);
	printf("%sok 1 - every refusal is a JSON-RPC error answer and every plan or answer complete "
	    "(%lu not)\n", nbad ? "not " : "", nbad);
	printf("%sok 2 - the inputs reached every path (refused, answered, planned)\n",
	    nrefused && nanswered && nplanned ? "" : "not ");
	printf("1..2\n");
	return 0;
}
#endif
