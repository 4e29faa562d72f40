/*
 * mcp.c: reading a posted JSON-RPC message, judging its transport headers,
 * and the answers that need no route (mcp.h).
 *
 * The checks run in a fixed order, the first failure answering: the body
 * is JSON (-32700), one object and not a batch (-32600), a JSON-RPC 2.0
 * request, notification or response (-32600), params an object (-32602);
 * then the era: a _meta version that is not ours (-32022), a header that
 * does not say what the body says (-32020), a header version that is
 * neither era's (-32022); last, a modern request's required capabilities
 * (-32602). Nothing here keeps state: each message is judged alone.
 */
#include "mcp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "errors.h"
#include "jw.h"
#include "mcp_app.h"
#include "mcp_prompts.h"
#include "mcp_tools.h"

/* What server/discover and initialize tell an agent first: how a game is
 * played through the tools, in one paragraph. */
const char mcp_instructions[] =
    "arcaded plays turn-based puzzle games (list_games names them; get_rules or the resource "
    "arcaded://rules/<game> explains one). Start a run with start_run, then send each action with "
    "act and the run's handle (runId-xxxxxxxx, the same for the whole run): every result's text "
    "carries the figures, the board, the legal actions where the game lists them, and the next "
    "call to make. When a run "
    "is over, finish_run with a rating (1-10) and a review gives its signed certificate. Where a "
    "game's agent check is on, a result carries a puzzle in agentCheck: answer it in the next "
    "call's agentCheck argument. A refusal is a result with isError true that still carries the "
    "run as it stands. The prompts play_<game> (one a game) and play_match hold a game's rules and "
    "this loop in one message. An agent key, when you have one, goes in the Authorization: Bearer header, "
    "never in an argument.";

/* The legacy versions an initialize may ask for, newest first: the
 * Streamable HTTP transport as 2025-03-26 introduced it, up to 2025-11-25. */
static const char *const legacy_versions[] = { MCP_VERSION_LEGACY, "2025-06-18", "2025-03-26" };
#define NLEGACY (sizeof legacy_versions / sizeof legacy_versions[0])

static const char *
legacy_version(const char *v)
{
	size_t i;

	for (i = 0; v != NULL && i < NLEGACY; i++)
		if (strcmp(v, legacy_versions[i]) == 0)
			return legacy_versions[i];
	return NULL;
}

json_t *
mcp_error_new(const json_t *id, int code, const char *message, json_t *data)
{
	char valid[API_ERROR_TEXT_MAX];
	json_t *e = json_pack("{s:i, s:s}", "code", code, "message", api_error_text(valid, sizeof valid,
	    message)), *o;

	if (e != NULL && data != NULL)
		json_object_set(e, "data", data);
	json_decref(data);
	o = json_pack("{s:s, s:o*}", "jsonrpc", "2.0", "error", e);
	if (o != NULL && id != NULL)
		json_object_set_new(o, "id", json_deep_copy(id));
	return o;
}

json_t *
mcp_http_error(int status, json_t *envelope)
{
	const json_t *e = json_object_get(envelope, "error");
	const char *code = json_string_value(json_object_get(e, "code"));
	const char *message = json_string_value(json_object_get(e, "message"));
	json_t *o;
	int rpc = MCP_HTTP_REFUSED;

	if (status >= 500)
		rpc = MCP_INTERNAL_ERROR;
	else if (code != NULL && strcmp(code, "invalid_json") == 0)
		rpc = MCP_PARSE_ERROR;
	if (json_is_object(envelope))
		json_object_set_new(envelope, "status", json_integer(status));
	o = mcp_error_new(NULL, rpc, message != NULL ? message : "the request was refused", envelope);
	return o;
}

int
mcp_error_status(int code, enum mcp_era era)
{
	switch (code) {
	case MCP_PARSE_ERROR:
	case MCP_INVALID_REQUEST:
	case MCP_HEADER_MISMATCH:
	case MCP_UNSUPPORTED_VERSION:
		return 400;
	case MCP_METHOD_NOT_FOUND:
		return era == MCP_ERA_MODERN ? 404 : 200;
	default:
		return 200;
	}
}

json_t *
mcp_result_new(const struct mcp_message *m, json_t *result)
{
	json_t *o;

	if (result == NULL)
		return NULL;
	if (m->era == MCP_ERA_MODERN)
		json_object_set_new(result, "resultType", json_string("complete"));
	o = json_pack("{s:s, s:O, s:o}", "jsonrpc", "2.0", "id", m->id != NULL ? m->id : json_null(),
	    "result", result);
	return o;
}

bool
mcp_header_value(const char *value, char *out, size_t cap)
{
	static const char pre[] = "=?base64?", post[] = "?=";
	size_t n = strlen(value), bin = 0;
	const char *end = NULL;

	if (cap == 0)
		return false;
	if (n < sizeof pre - 1 + sizeof post - 1 || strncmp(value, pre, sizeof pre - 1) != 0 ||
	    strcmp(value + n - (sizeof post - 1), post) != 0) {
		if (n >= cap)
			return false;
		memcpy(out, value, n + 1);
		return true;
	}
	/* The sentinel form: standard Base64 of the value's UTF-8. */
	if (sodium_base642bin((unsigned char *)out, cap - 1, value + sizeof pre - 1,
	    n - (sizeof pre - 1) - (sizeof post - 1), NULL, &bin, &end,
	    sodium_base64_VARIANT_ORIGINAL) != 0 || end != value + n - (sizeof post - 1))
		return false;
	out[bin] = '\0';
	return strlen(out) == bin;
}

/* The error answer for m's id (which may not be known yet). */
static json_t *
fail(const json_t *id, int code, const char *message, json_t *data, enum mcp_era era, int *status)
{
	*status = mcp_error_status(code, era);
	return mcp_error_new(id, code, message, data);
}

/* A header that names the method or its subject must say what the body
 * says; a modern request must send them. */
static json_t *
check_mirrors(const struct mcp_message *m, const struct mcp_headers *h, int *status)
{
	char value[512], msg[256];
	const char *subject = NULL;
	bool named = false;

	if (h->method == NULL && m->era == MCP_ERA_MODERN)
		return fail(m->id, MCP_HEADER_MISMATCH, "the Mcp-Method header is required", NULL, m->era,
		    status);
	if (h->method != NULL && strcmp(h->method, m->method) != 0) {
		snprintf(msg, sizeof msg, "the Mcp-Method header '%.100s' is not the body's method '%.100s'",
		    h->method, m->method);
		return fail(m->id, MCP_HEADER_MISMATCH, msg, NULL, m->era, status);
	}
	if (strcmp(m->method, "tools/call") == 0 || strcmp(m->method, "prompts/get") == 0) {
		named = true;
		subject = json_string_value(json_object_get(m->params, "name"));
	} else if (strcmp(m->method, "resources/read") == 0) {
		named = true;
		subject = json_string_value(json_object_get(m->params, "uri"));
	}
	if (!named)
		return NULL;
	if (h->name == NULL) {
		if (m->era == MCP_ERA_MODERN)
			return fail(m->id, MCP_HEADER_MISMATCH, "the Mcp-Name header is required for this method",
			    NULL, m->era, status);
		return NULL;
	}
	if (!mcp_header_value(h->name, value, sizeof value))
		return fail(m->id, MCP_HEADER_MISMATCH, "the Mcp-Name header does not decode", NULL, m->era,
		    status);
	if (subject == NULL || strcmp(subject, value) != 0) {
		snprintf(msg, sizeof msg, "the Mcp-Name header '%.100s' is not the body's '%.100s'", value,
		    subject != NULL ? subject : "(none)");
		return fail(m->id, MCP_HEADER_MISMATCH, msg, NULL, m->era, status);
	}
	return NULL;
}

/* The versions a refusal lists: a modern request's _meta may name only a
 * modern one; a header, either era's. */
static json_t *
unsupported(const char *requested, bool modern_only)
{
	json_t *supported = json_pack("[s]", MCP_VERSION_MODERN);
	size_t i;

	for (i = 0; !modern_only && supported != NULL && i < NLEGACY; i++)
		json_array_append_new(supported, json_string(legacy_versions[i]));
	return json_pack("{s:o, s:s?}", "supported", supported, "requested", requested);
}

/* The era of a well-formed message, from its _meta and the version header. */
static json_t *
check_era(struct mcp_message *m, const struct mcp_headers *h, int *status)
{
	const json_t *meta = json_object_get(m->params, "_meta");
	const json_t *mv = json_object_get(meta, MCP_META_VERSION);
	const char *hv = h->protocol_version;

	if (meta != NULL && !json_is_object(meta))
		return fail(m->id, MCP_INVALID_PARAMS, "params._meta must be an object", NULL,
		    MCP_ERA_LEGACY, status);
	if (mv != NULL) {
		const char *v = json_string_value(mv);

		m->era = MCP_ERA_MODERN;
		m->version = MCP_VERSION_MODERN;
		if (v == NULL)
			return fail(m->id, MCP_INVALID_PARAMS, "_meta '" MCP_META_VERSION "' must be a string",
			    NULL, m->era, status);
		if (strcmp(v, MCP_VERSION_MODERN) != 0)
			return fail(m->id, MCP_UNSUPPORTED_VERSION, "Unsupported protocol version",
			    unsupported(v, true), m->era, status);
		if (hv == NULL)
			return fail(m->id, MCP_HEADER_MISMATCH, "the MCP-Protocol-Version header is required",
			    NULL, m->era, status);
		if (strcmp(hv, v) != 0)
			return fail(m->id, MCP_HEADER_MISMATCH, "the MCP-Protocol-Version header is not the "
			    "version in _meta", NULL, m->era, status);
		if (!json_is_object(json_object_get(meta, MCP_META_CAPABILITIES)))
			return fail(m->id, MCP_INVALID_PARAMS, "_meta '" MCP_META_CAPABILITIES
			    "' must be an object", NULL, m->era, status);
		return NULL;
	}
	m->era = MCP_ERA_LEGACY;
	m->version = MCP_VERSION_LEGACY;
	if (hv != NULL && strcmp(hv, MCP_VERSION_MODERN) == 0) {
		/* The header says modern and the body says nothing: they differ. */
		m->era = MCP_ERA_MODERN;
		m->version = MCP_VERSION_MODERN;
		return fail(m->id, MCP_HEADER_MISMATCH, "MCP-Protocol-Version says " MCP_VERSION_MODERN
		    " but params._meta names no protocol version", NULL, m->era, status);
	}
	if (hv != NULL) {
		if ((m->version = legacy_version(hv)) == NULL) {
			m->version = MCP_VERSION_LEGACY;
			return fail(m->id, MCP_UNSUPPORTED_VERSION, "Unsupported protocol version",
			    unsupported(hv, false), m->era, status);
		}
	}
	return NULL;
}

/*
 * mcp_load's short road. jansson spends about 240 instructions a byte of
 * a tools/call's envelope (its lexer, a string buffer and a value for each
 * key and string): more than the REST route spends reading its whole body.
 * The envelope and a game's arguments are objects of plain members, so
 * they are read here: objects (nested at most SHORT_DEPTH deep) whose
 * members are plain strings (ASCII from 0x20, no quote, no backslash:
 * a stateToken, most of a game call's bytes, is passed 8 bytes a step),
 * integers (at most 18 digits, no fraction or exponent) or such objects.
 * Any other value (an array, a string with escapes, an object deeper
 * down) is jansson's to read, from where it opens to where it closes
 * (JSON_DISABLE_EOF_CHECK says where that is). Anything else (a literal,
 * a real, a duplicate key, a nesting that could come near jansson's depth
 * limit, a broken body) and the short road gives up: NULL, and json_loadb
 * reads the body, with its own errors. What it gives is json_loadb's value, keys in the same
 * order (tests/api/test_mcp.c compares both over many random and broken
 * bodies).
 */
#define SHORT_DEPTH 8
#define SHORT_NESTED_MAX 2000

static const char *
skip_ws(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	return p;
}

/* The plain string opening at p: its bytes in *s and *n, and the byte
 * after its closing quote; NULL when it is not one. */
static const char *
plain_string(const char *p, const char *end, const char **s, size_t *n)
{
	const char *q;

	if (p >= end || *p != '"')
		return NULL;
	for (q = ++p; end - q >= 8 && jw_plain8(q); q += 8)
		;
	for (; q < end && *q != '"'; q++)
		if ((unsigned char)*q < 0x20 || (unsigned char)*q >= 0x80 || *q == '\\')
			return NULL;
	if (q >= end)
		return NULL;
	*s = p;
	*n = (size_t)(q - p);
	return q + 1;
}

static const char *short_object(const char *p, const char *end, int depth, json_t **out);

/* The value at p into *out, and the byte after it; NULL when the short
 * road does not take it. */
static const char *
short_value(const char *p, const char *end, int depth, json_t **out)
{
	const char *s;
	size_t n;

	*out = NULL;
	if (p >= end)
		return NULL;
	if (*p == '"' && (s = plain_string(p, end, &s, &n)) != NULL) {
		*out = json_stringn_nocheck(p + 1, n);
		return *out != NULL ? s : NULL;
	}
	if (*p == '{' && depth < SHORT_DEPTH)
		return short_object(p, end, depth + 1, out);
	if (*p == '"' || *p == '{' || *p == '[') {
		/* jansson reads it, up to its closing quote or bracket. */
		json_error_t jerr;
		size_t used;

		*out = json_loadb(p, (size_t)(end - p), JSON_REJECT_DUPLICATES | JSON_DECODE_ANY |
		    JSON_DISABLE_EOF_CHECK, &jerr);
		if (*out == NULL)
			return NULL;
		used = (size_t)jerr.position;
		if (used < 2 || used > (size_t)(end - p) || used > SHORT_NESTED_MAX ||
		    p[used - 1] != (*p == '"' ? '"' : *p == '{' ? '}' : ']')) {
			json_decref(*out);
			*out = NULL;
			return NULL;
		}
		return p + used;
	}
	if (*p == '-' || (*p >= '0' && *p <= '9')) {
		const char *q = p + (*p == '-');
		json_int_t v = 0;
		size_t digits = 0;

		if (q < end && *q == '0')
			digits = 1, q++;
		else
			for (; q < end && *q >= '0' && *q <= '9' && digits < 18; q++, digits++)
				v = v * 10 + (*q - '0');
		if (digits == 0 || (q < end && ((*q >= '0' && *q <= '9') || *q == '.' || *q == 'e' ||
		    *q == 'E')))
			return NULL;
		*out = json_integer(*p == '-' ? -v : v);
		return *out != NULL ? q : NULL;
	}
	return NULL;
}

/* The object at p (its opening brace) into *out, depth levels down. */
static const char *
short_object(const char *p, const char *end, int depth, json_t **out)
{
	json_t *o, *v;
	const char *k;
	size_t kn;

	*out = NULL;
	if ((o = json_object()) == NULL)
		return NULL;
	p = skip_ws(p + 1, end);
	if (p < end && *p == '}') {
		*out = o;
		return p + 1;
	}
	for (;;) {
		if ((p = plain_string(p, end, &k, &kn)) == NULL || json_object_getn(o, k, kn) != NULL)
			break;
		p = skip_ws(p, end);
		if (p >= end || *p != ':')
			break;
		if ((p = short_value(skip_ws(p + 1, end), end, depth, &v)) == NULL)
			break;
		if (json_object_setn_new_nocheck(o, k, kn, v) != 0)
			break;
		p = skip_ws(p, end);
		if (p < end && *p == '}') {
			*out = o;
			return p + 1;
		}
		if (p >= end || *p != ',')
			break;
		p = skip_ws(p + 1, end);
	}
	json_decref(o);
	return NULL;
}

json_t *
mcp_load_short(const char *body, size_t len)
{
	const char *end = body + len, *p = skip_ws(body, end);
	json_t *root;

	if (p >= end || *p != '{' || (p = short_object(p, end, 1, &root)) == NULL)
		return NULL;
	if (skip_ws(p, end) != end) {
		json_decref(root);
		return NULL;
	}
	return root;
}

json_t *
mcp_load(const char *body, size_t len, json_error_t *err)
{
	json_t *root = mcp_load_short(body, len);

	return root != NULL ? root : json_loadb(body, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, err);
}

json_t *
mcp_read(const char *body, size_t len, const struct mcp_headers *h, struct mcp_message *m,
    int *status)
{
	json_error_t jerr;
	const json_t *v, *id;
	json_t *err;

	memset(m, 0, sizeof *m);
	m->era = MCP_ERA_LEGACY;
	m->version = MCP_VERSION_LEGACY;
	m->root = mcp_load(body, len, &jerr);
	if (m->root == NULL)
		return fail(NULL, MCP_PARSE_ERROR, "Parse error: the body is not JSON",
		    json_pack("{s:s, s:i, s:i}", "detail", jerr.text, "line", jerr.line, "column",
		    jerr.column), MCP_ERA_LEGACY, status);
	if (json_is_array(m->root)) {
		err = fail(NULL, MCP_INVALID_REQUEST, "JSON-RPC batches are not accepted: send one message "
		    "per request", NULL, MCP_ERA_LEGACY, status);
		goto refused;
	}
	if (!json_is_object(m->root)) {
		err = fail(NULL, MCP_INVALID_REQUEST, "the body must be one JSON-RPC message (an object)",
		    NULL, MCP_ERA_LEGACY, status);
		goto refused;
	}
	/* An id the answer may echo: a string or an integer, never null. */
	id = json_object_get(m->root, "id");
	if (id != NULL && !json_is_string(id) && !json_is_integer(id)) {
		err = fail(NULL, MCP_INVALID_REQUEST, "'id' must be a string or an integer", NULL,
		    MCP_ERA_LEGACY, status);
		goto refused;
	}
	m->id = id;
	v = json_object_get(m->root, "jsonrpc");
	if (!json_is_string(v) || strcmp(json_string_value(v), "2.0") != 0) {
		err = fail(id, MCP_INVALID_REQUEST, "'jsonrpc' must be \"2.0\"", NULL, MCP_ERA_LEGACY, status);
		goto refused;
	}
	v = json_object_get(m->root, "method");
	if (v == NULL && id != NULL &&
	    (json_object_get(m->root, "result") != NULL || json_object_get(m->root, "error") != NULL))
		return NULL; /* a response: the server asked nothing, so it is only acknowledged */
	if (!json_is_string(v) || json_string_length(v) == 0) {
		err = fail(id, MCP_INVALID_REQUEST, "'method' must be a non-empty string", NULL,
		    MCP_ERA_LEGACY, status);
		goto refused;
	}
	m->method = json_string_value(v);
	v = json_object_get(m->root, "params");
	if (v != NULL && !json_is_object(v)) {
		err = fail(id, MCP_INVALID_PARAMS, "'params' must be an object", NULL, MCP_ERA_LEGACY, status);
		goto refused;
	}
	m->params = v;
	if ((err = check_era(m, h, status)) != NULL || (err = check_mirrors(m, h, status)) != NULL)
		goto refused;
	return NULL;
refused:
	mcp_message_cleanup(m);
	return err;
}

void
mcp_message_cleanup(struct mcp_message *m)
{
	json_decref(m->root);
	memset(m, 0, sizeof *m);
}

static json_t *
capabilities(void)
{
	/* The MCP Apps extension (SEP-1865) as SEP-1724 declares one: the
	 * inline board's MIME type. */
	return json_pack("{s:{s:b}, s:{s:b, s:b}, s:{s:b}, s:{s:{s:[s]}}}", "tools", "listChanged", 0,
	    "resources", "subscribe", 0, "listChanged", 0, "prompts", "listChanged", 0, "extensions",
	    MCP_APP_EXTENSION, "mimeTypes", MCP_APP_MIME);
}

static json_t *
server_info(const struct mcp_server_info *info)
{
	return json_pack("{s:s, s:s}", "name", info->name, "version", info->version);
}

/* A legacy client's opening: the version it asked for when it is one we
 * speak, else our newest legacy one (the client decides whether to stay). */
static json_t *
initialize(const struct mcp_message *m, const struct mcp_server_info *info)
{
	const char *asked = json_string_value(json_object_get(m->params, "protocolVersion"));
	const char *v = legacy_version(asked);

	return json_pack("{s:s, s:o, s:o, s:s}", "protocolVersion", v != NULL ? v : MCP_VERSION_LEGACY,
	    "capabilities", capabilities(), "serverInfo", server_info(info), "instructions",
	    info->instructions);
}

static json_t *
discover(const struct mcp_server_info *info)
{
	json_t *versions = json_pack("[s]", MCP_VERSION_MODERN);
	size_t i;

	for (i = 0; versions != NULL && i < NLEGACY; i++)
		json_array_append_new(versions, json_string(legacy_versions[i]));
	return json_pack("{s:o, s:o, s:o, s:s}", "supportedVersions", versions, "capabilities",
	    capabilities(), "serverInfo", server_info(info), "instructions", info->instructions);
}

json_t *
mcp_answer(const struct mcp_message *m, const struct mcp_server_info *info, int *status)
{
	const char *method = m->method;
	json_t *result = NULL;
	char msg[256];
	int code = 0;

	*status = 200;
	if (strcmp(method, "initialize") == 0 && m->era == MCP_ERA_LEGACY)
		result = initialize(m, info);
	else if (strcmp(method, "ping") == 0 && m->era == MCP_ERA_LEGACY)
		result = json_object();
	else if (strcmp(method, "server/discover") == 0)
		result = discover(info);
	else if (strcmp(method, "tools/list") == 0)
		result = mcp_tools_list();
	else if (strcmp(method, "resources/list") == 0)
		result = mcp_resources_list();
	else if (strcmp(method, "resources/templates/list") == 0)
		result = mcp_resource_templates_list();
	else if (strcmp(method, "resources/read") == 0)
		result = mcp_resources_read(m->params, &code, msg, sizeof msg);
	else if (strcmp(method, "prompts/list") == 0)
		result = mcp_prompts_list(m->params, m->era == MCP_ERA_MODERN, &code, msg, sizeof msg);
	else if (strcmp(method, "prompts/get") == 0)
		result = mcp_prompts_get(m->params, &code, msg, sizeof msg);
	else {
		snprintf(msg, sizeof msg, "Method not found: %.100s", method);
		code = MCP_METHOD_NOT_FOUND;
	}
	if (code != 0) {
		*status = mcp_error_status(code, m->era);
		return mcp_error_new(m->id, code, msg, NULL);
	}
	return mcp_result_new(m, result);
}

/* The host of an origin or a Host header, and its port (0: none given). */
static bool
split_host(const char *s, size_t n, char *host, size_t cap, unsigned *port)
{
	const char *colon;
	size_t hn;

	*port = 0;
	if (n > 0 && s[0] == '[') {
		const char *close = memchr(s, ']', n);

		if (close == NULL)
			return false;
		hn = (size_t)(close - s) + 1;
		colon = hn < n && s[hn] == ':' ? s + hn : NULL;
		if (colon == NULL && hn != n)
			return false;
	} else {
		colon = memchr(s, ':', n);
		hn = colon != NULL ? (size_t)(colon - s) : n;
	}
	if (hn == 0 || hn >= cap)
		return false;
	memcpy(host, s, hn);
	host[hn] = '\0';
	if (colon != NULL) {
		const char *p;

		if (colon + 1 == s + n)
			return false;
		for (p = colon + 1; p < s + n; p++) {
			if (*p < '0' || *p > '9' || *port > 6553)
				return false;
			*port = *port * 10 + (unsigned)(*p - '0');
		}
		if (*port == 0 || *port > 65535)
			return false;
	}
	return true;
}

bool
mcp_origin_allowed(const char *origin, const char *host_header, const char *const *allowed,
    size_t nallowed)
{
	static const char *const loopback[] = { "127.0.0.1", "localhost", "[::1]" };
	char host[256], want[256];
	unsigned port, want_port;
	const char *rest;
	size_t i;

	for (i = 0; i < nallowed; i++)
		if (strcmp(origin, allowed[i]) == 0)
			return true;
	if (strncmp(origin, "http://", 7) == 0)
		rest = origin + 7;
	else if (strncmp(origin, "https://", 8) == 0)
		rest = origin + 8;
	else
		return false;
	if (!split_host(rest, strlen(rest), host, sizeof host, &port))
		return false;
	for (i = 0; i < sizeof loopback / sizeof loopback[0]; i++)
		if (strcmp(host, loopback[i]) == 0)
			break;
	if (i == sizeof loopback / sizeof loopback[0] || host_header == NULL)
		return false;
	/* The page must come from the port the request went to: another
	 * local service on another port is another origin. */
	if (!split_host(host_header, strlen(host_header), want, sizeof want, &want_port))
		return false;
	return port == want_port;
}
