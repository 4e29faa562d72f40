/*
 * mcp.h: the Model Context Protocol's JSON-RPC side, as POST /mcp speaks it
 * (docs/mcp.md). Pure functions on jansson: reading one posted message and
 * judging it against the transport's headers, the answers that need no
 * route (initialize, server/discover, ping, the lists, resources/read,
 * prompts/get), and the envelopes of results and errors. What a tool runs
 * is in mcp_tools.h, the prompts in mcp_prompts.h;
 * server/mcp.c wires both to the route table.
 *
 * Two eras of the protocol are served on one endpoint, without sessions:
 *   - legacy (2025-11-25 and the two before it): a client opens with
 *     initialize, then sends MCP-Protocol-Version on every request;
 *   - modern (2026-07-28): every request declares its version and the
 *     client's capabilities in params._meta, mirrored in the headers
 *     MCP-Protocol-Version, Mcp-Method and Mcp-Name, which must agree with
 *     the body.
 * A request whose _meta names a version is modern; one without is legacy.
 * No state is kept between requests in either era.
 */
#ifndef API_MCP_H
#define API_MCP_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "mcp_codes.h"

#define MCP_VERSION_MODERN "2026-07-28"
#define MCP_VERSION_LEGACY "2025-11-25"

/* The _meta keys of a modern request. */
#define MCP_META_VERSION      "io.modelcontextprotocol/protocolVersion"
#define MCP_META_CAPABILITIES "io.modelcontextprotocol/clientCapabilities"


enum mcp_era { MCP_ERA_LEGACY, MCP_ERA_MODERN };

/* The transport's headers as sent (NULL: absent). Borrowed. */
struct mcp_headers {
	const char *protocol_version; /* MCP-Protocol-Version */
	const char *method;           /* Mcp-Method */
	const char *name;             /* Mcp-Name, maybe in the =?base64?...?= form */
};

/* One message read from a POST body. */
struct mcp_message {
	json_t       *root;     /* the parsed body (owned) */
	const json_t *id;       /* the request's id (borrowed); NULL: a notification or a response */
	const char   *method;   /* borrowed; NULL: a response (the client answering) */
	const json_t *params;   /* borrowed object, NULL when absent */
	enum mcp_era  era;
	const char   *version;  /* the version the request speaks (static storage) */
};

/* The instructions server/discover and initialize hand an agent. */
extern const char mcp_instructions[];

/* Who answers, for initialize and server/discover. Borrowed strings. */
struct mcp_server_info {
	const char *name;
	const char *version;
	const char *instructions;
};

/* Reads body (len bytes) as one JSON-RPC message and checks it against the
 * headers. On success fills m (mcp_message_cleanup frees it) and returns
 * NULL. Otherwise returns the error answer (a new reference: parse error,
 * invalid request, a batch, header mismatch, unsupported version, bad
 * _meta) with its HTTP status in *status; m holds nothing then. */
json_t *mcp_read(const char *body, size_t len, const struct mcp_headers *h,
    struct mcp_message *m, int *status);
void mcp_message_cleanup(struct mcp_message *m);

/* The body as json_loadb(body, len, JSON_REJECT_DUPLICATES |
 * JSON_DECODE_ANY, err) reads it: the same value, keys in the same order,
 * or NULL with jansson's error. An object of plain members (a JSON-RPC
 * envelope) takes a shorter road, mcp_load_short, which reads its plain
 * strings and integers by hand and hands its deeper values to jansson;
 * NULL from it when the body is not one it takes. */
json_t *mcp_load(const char *body, size_t len, json_error_t *err);
json_t *mcp_load_short(const char *body, size_t len);

/* {"jsonrpc": "2.0", "id": id, "result": result}, result stolen; a modern
 * request's result also says resultType "complete". NULL when out of
 * memory. */
json_t *mcp_result_new(const struct mcp_message *m, json_t *result);

/* The error answer for id (borrowed; NULL leaves the id out: it could not
 * be read), with data (stolen, may be NULL). */
json_t *mcp_error_new(const json_t *id, int code, const char *message, json_t *data);

/* A refusal of the HTTP request itself (405, 413, 415, 429, 503, a
 * NUL in the path...), made by the daemon's shared front before any
 * message is read, as a JSON-RPC error: the envelope (stolen) becomes its
 * data, with the status beside it; the code is -32700 for a body that is
 * not JSON, -32603 for a 5xx, MCP_HTTP_REFUSED otherwise. No id: none was
 * read. NULL when out of memory. */
#define MCP_HTTP_REFUSED (-32000)
json_t *mcp_http_error(int status, json_t *envelope);

/* The HTTP status an error code is sent with in an era: 400 for malformed
 * messages and headers, 404 for an unknown method of a modern request
 * (which tells a modern client it reached a modern server), else 200. */
int mcp_error_status(int code, enum mcp_era era);

/* The answer to every method but tools/call: initialize, ping,
 * server/discover, tools/list, resources/list, resources/read,
 * prompts/list, prompts/get, or the -32601 of an unknown method. *status is its HTTP status. A new
 * reference, NULL when out of memory. */
json_t *mcp_answer(const struct mcp_message *m, const struct mcp_server_info *info, int *status);

/* Decodes a header value that may be in the Base64 sentinel form
 * (=?base64?...?=) into out (cap bytes, NUL-terminated); a plain value is
 * copied. False when it does not decode or fit, or decodes to a NUL. */
bool mcp_header_value(const char *value, char *out, size_t cap);

/* Whether an Origin header value may call the endpoint: a loopback host
 * (127.0.0.1, localhost, [::1]) on the port the request was addressed to
 * (host_header: the Host header, NULL if none), or one of the nallowed
 * origins listed by the operator, compared exactly (scheme, host, port). */
bool mcp_origin_allowed(const char *origin, const char *host_header, const char *const *allowed,
    size_t nallowed);

#endif
