/*
 * http.h: the HTTP front end (libmicrohttpd) and the request that every
 * handler receives.
 *
 * libmicrohttpd runs an internal polling thread pool on epoll. A handler is
 * called once the whole body is in and answers with exactly one of
 * request_reply*() -- or suspends the request (request_suspend) while
 * another thread works for it (the store's writer, see defer.h), in which
 * case its thread goes on serving other connections and a continuation
 * answers once that thread resumes it. The routes come in through a
 * struct http_router, so this layer knows no route table and no store.
 */
#ifndef SERVER_HTTP_H
#define SERVER_HTTP_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "body.h"
#include "errors.h"

struct app;
struct request;

enum http_method {
	HTTP_GET = 1 << 0,
	HTTP_POST = 1 << 1,
	HTTP_PUT = 1 << 2,
	HTTP_DELETE = 1 << 3,
	HTTP_PATCH = 1 << 4,
	HTTP_HEAD = 1 << 5,
	HTTP_OPTIONS = 1 << 6,
	HTTP_OTHER = 1 << 7
};

#define REQUEST_MAX_PARAMS 2

typedef void (*request_cont)(struct request *req);

struct request {
	struct app          *app;
	void                *conn;      /* struct MHD_Connection * */
	int                  route;     /* the router's index of the matched route, -1 when none */
	int                  rate_class; /* the route's rate-limit class (ratelimit.h), -1: none */
	enum http_method     method;
	const char          *path;      /* without the query string; borrowed from MHD */
	char                 id[33];    /* X-Request-Id */
	int64_t              start_us;  /* monotonic */

	/* {name} segments of the route pattern, in order, NUL-terminated. */
	char                 params[REQUEST_MAX_PARAMS][80];

	/* The body as received, bounded by --max-body, and, for routes that
	 * take JSON, its parsed object (NULL for an empty body). */
	struct body          body;
	json_t              *json;

	int                  status;    /* of the queued reply, 0 before */
	int                  retry_after_s; /* set with a rate limit's refusal: seconds to wait */
	bool                 replied;

	/* A suspended request: what runs once it is resumed, and the status
	 * the resuming side reported (e.g. whether the store committed). */
	request_cont         cont;
	bool                 suspended;
	int                  resumed_status;

	/* Handler-owned state that lives across a deferral. */
	void                *ctx;
	void               (*ctx_free)(void *ctx);

	/* A route that runs another route's handler inside its own answer
	 * (POST /mcp, server/mcp.c) sets these. wrap, when set, sees every
	 * JSON reply first, once: it takes the body and *status the inner
	 * handler gave and returns the body to send (both stolen), and may
	 * change *status. wrap_ctx is its own, freed with the request by
	 * wrap_ctx_free.
	 * query, when set, is an object of strings that request_query reads
	 * instead of the URL's query string. */
	json_t            *(*wrap)(struct request *req, int *status, json_t *body);
	/* Set beside wrap by a wrapper that takes written text too (MCP's
	 * tool calls): request_reply_json_text hands it the text as written,
	 * not parsed, and sends what it returns (taken both ways, *len its
	 * length; NULL answers 500). Once, as wrap: either is the one call. */
	char              *(*wrap_text)(struct request *req, int *status, char *text, size_t *len);
	void                *wrap_ctx;
	void               (*wrap_ctx_free)(void *ctx);
	json_t              *query;

	/* The Origin whose page may read this answer (CORS), set by the
	 * router before anything is answered: every reply then carries
	 * Access-Control-Allow-Origin with it, Vary and the headers a page
	 * may read. Borrowed from the request's headers; NULL: none. */
	const char          *cors_origin;

	/* Set by the router for a route whose body is a form
	 * (application/x-www-form-urlencoded, the OAuth routes): such a body
	 * is taken, and one of any other type is 415. Its fields are read
	 * (libmicrohttpd's post processor) into json, an object of strings
	 * (the first of a name counts), which stays NULL when the form does
	 * not read: a value not UTF-8, or with a NUL. */
	bool                 form_body;

	/* Run once with release_arg when the request completes, when set:
	 * a held request gives its slot back (holds.h). */
	void               (*release)(void *arg);
	void                *release_arg;
};

/* Queues body (stolen) as the JSON reply; a NULL body (a failed build)
 * answers 500 instead. */
void request_reply_json(struct request *req, int status, json_t *body);

/* Queues text (malloc'd, len bytes, taken) as the JSON reply: what the
 * answer writer (jw.h) wrote. A NULL text answers 500. A request with a
 * wrapper (MCP) has its wrap_text take the text, or without one its wrap
 * see the text parsed, as it would see the object of request_reply_json. */
void request_reply_json_text(struct request *req, int status, char *text, size_t len);

/* Queues the error envelope of e; message NULL takes the table's text. */
void request_reply_error(struct request *req, enum api_error e, const char *message);

/* Same, for what the client may try again: a Retry-After of retry_after
 * seconds (a decimal string) goes with it. */
void request_reply_later(struct request *req, enum api_error e, const char *retry_after,
    const char *message);

/* Same, with extra fields merged into the top level (stolen, may be NULL). */
void request_reply_error_with(struct request *req, enum api_error e, const char *message,
    json_t *extra);

/* Same, the extra fields written (jw.h) rather than built: extra is the
 * text of one JSON object (malloc'd, len bytes, taken; NULL: none) whose
 * members follow "error" in the envelope, the bytes request_reply_error_with
 * sends for that object's tree. */
void request_reply_error_text(struct request *req, enum api_error e, const char *message,
    char *extra, size_t len);

/* Queues a reply with any content type (text copied). */
void request_reply_text(struct request *req, int status, const char *content_type,
    const char *text, size_t len);

/* Queues a reply whose body is static storage, sent without a copy (the
 * pages embedded at build time). headers: name, value, ..., NULL, static
 * too (NULL: none); a Cache-Control among them replaces the default
 * no-store. content_type NULL sends none (a 304 without a body). */
void request_reply_static(struct request *req, int status, const char *content_type,
    const void *data, size_t len, const char *const *headers);

/* At the headers (an http_router's admit): refuses the request with e,
 * message (static storage, NULL for the table's) and extra (stolen, merged
 * into the envelope). It is answered without reading a body. */
void request_refuse(struct request *req, enum api_error e, const char *message, json_t *extra);

/* The same for a route that can say more once it has read the body (a 429
 * that shows the run its stateToken holds): the body is read and the
 * route runs, and it must answer with request_reply_refusal and do nothing
 * else of the request. A body the route could not read (not declared
 * JSON, over --max-body, not a JSON object) gets the refusal as it is,
 * without the route. */
void request_refuse_after_body(struct request *req, enum api_error e, const char *message,
    json_t *extra);

/* Whether req carries a refusal of request_refuse_after_body not yet
 * answered. */
bool request_refusal_pending(struct request *req);

/* Answers req's pending refusal, more (stolen, may be NULL) merged into
 * its envelope beside what the refusal carries. */
void request_reply_refusal(struct request *req, json_t *more);

/* Adds a header to the reply that comes next (e.g. Allow, Retry-After).
 * At most a few per request; name and value are copied. */
void request_add_header(struct request *req, const char *name, const char *value);

/* Suspends req: its HTTP thread goes on serving other connections until
 * another thread calls request_resume(req, status); then cont(req) runs on
 * an HTTP thread with req->resumed_status = status. The handler must not
 * touch req between the two calls except through the resuming side. */
void request_suspend(struct request *req, request_cont cont);
void request_resume(struct request *req, int status);

/* A streamed answer (Server-Sent Events): status 200 with content_type,
 * then a body that grows while the request lives. libmicrohttpd calls
 * pull(ctx, buf, max) on an HTTP thread whenever it can send: it answers
 * the bytes it wrote (> 0), -1 to end the body, or 0 when nothing is ready,
 * after calling http_stream_pause(conn) (req->conn) so that the connection
 * waits without a thread until http_stream_wake(conn). pull must order its
 * pause against the producer's wake (one lock around both), since waking a
 * connection that is not paused is undefined. done(ctx) runs exactly once:
 * when libmicrohttpd lets go of the stream (after the last pull, or when
 * the connection dies; req may be gone by then), or before this returns
 * false (out of memory: nothing was queued). */
bool request_reply_stream(struct request *req, const char *content_type,
    long (*pull)(void *ctx, char *buf, size_t max), void (*done)(void *ctx), void *ctx);
void http_stream_pause(void *conn);
/* Whether the client of a held connection (a suspended request, a paused
 * stream) has closed or reset it: a look at the socket, no read. */
bool http_conn_gone(void *conn);
void http_stream_wake(void *conn);

/* A zeroed context of size bytes made req's (req->ctx, freed by
 * ctx_free when the request ends); NULL with a 500 answered when memory
 * ran out. */
void *request_ctx_new(struct request *req, size_t size, void (*ctx_free)(void *ctx));

/* A request header (case-insensitive), or NULL. Borrowed. */
const char *request_header(struct request *req, const char *name);

/* A query-string argument (req->query's when set), or NULL. Borrowed. */
const char *request_query(struct request *req, const char *name);

/* The client's address as text (the X-Forwarded-For client when the peer is
 * a trusted proxy, and only an address that parses). */
void request_client_addr(struct request *req, char *out, size_t cap);

/* The client as limits count it: the same address, IPv4 by its 4 bytes
 * (IPv4-mapped IPv6 included), IPv6 by its /64 (the rest zeroed), so that
 * hopping inside one /64 does not make a new client. family 0: a local
 * peer with no address (the unix socket without X-Forwarded-For). */
struct client_key {
	uint8_t family;    /* 0, 4 or 6 */
	uint8_t bytes[16];
};
void request_client_key(struct request *req, struct client_key *out);

/* Whether the client (the X-Forwarded-For client when the peer is a
 * trusted proxy, else the peer) lies in one of the n ranges of list; a
 * local peer with no address (the unix socket) always does. */
struct cidr;
bool request_client_in(struct request *req, const struct cidr *list, int n);

/* The origin the client addressed, "scheme://host[:port]" without a slash
 * at the end, into out: --public-url when set; else a trusted proxy's
 * X-Forwarded-Proto and X-Forwarded-Host (the first of each), else http
 * and the Host header. False when none is usable (no Host, or one with a
 * character a host name never has). */
bool request_public_origin(struct request *req, char *out, size_t cap);

/* "ip:1.2.3.4", "ip:2001:db8:1:2::/64" or "local". */
#define CLIENT_KEY_TEXT_MAX 64
void client_key_text(const struct client_key *k, char out[CLIENT_KEY_TEXT_MAX]);
/* The client's network, as fair ratings count one (match_play.h): its
 * IPv4 /24, its IPv6 /48, or "local"; e.g. "net:192.0.2.0/24". */
void client_net_text(const struct client_key *k, char out[CLIENT_KEY_TEXT_MAX]);

struct http_server;
struct config;

/* What the HTTP layer asks of the routes: at the headers, match() names
 * the route (an index below nroutes, kept in req->route for metrics) and
 * whether its body is a JSON object to parse; -1 refuses the request with
 * 404, or 405 when *allowed (method bits of the routes whose path matched)
 * is not 0. Once the body is in, run() calls the route's handler. */
struct http_router {
	int  (*match)(struct request *req, unsigned *allowed, bool *json);
	/* After a match, before anything of the body: whether the request may
	 * go on; false after request_refuse() or request_refuse_after_body()
	 * (a rate limit). May be NULL. */
	bool (*admit)(struct request *req);
	void (*run)(struct request *req);
	void (*allow_header)(unsigned methods, char *out, size_t cap);
	/* What an internal error of req (API_ERR_INTERNAL) is just now:
	 * API_ERR_INTERNAL when it is one, or an outage that is answered
	 * 503 with Retry-After instead: API_ERR_STORAGE_FULL,
	 * API_ERR_OUTCOME_UNKNOWN or API_ERR_DATABASE_UNAVAILABLE. May be
	 * NULL (no outage is ever told). */
	enum api_error (*outage)(struct request *req);
	/* A 404's hint: writes the message naming the route closest to path
	 * into out and returns true, or false when none is close. May be
	 * NULL. */
	bool (*closest)(const char *path, char *out, size_t cap);
	size_t nroutes;
};

/* Starts listening; NULL with a message in err on failure. On success the
 * bound address is written to bound (e.g. "http://127.0.0.1:8080"). */
struct http_server *http_start(const struct config *cfg, struct app *app,
    const struct http_router *router, char *bound, size_t boundcap, char *err, size_t errcap);

/* Stops accepting connections; requests that arrive on open connections
 * are answered 503. */
void http_quiesce(struct http_server *h);

/* Waits until no request is in flight or timeout_ms has passed; returns the
 * number still in flight. */
int http_wait_idle(struct http_server *h, int timeout_ms);

/* Closes every connection and frees the server. Accepts NULL. */
void http_stop(struct http_server *h);

/* Requests in flight now (for /metrics). */
int http_in_flight(struct http_server *h);

/* Connections: open now, refused for their address's quota, cut for a
 * request that missed its deadline, answered 503 over --connection-limit
 * (for /metrics). */
void http_connection_stats(struct http_server *h, uint64_t *open, uint64_t *refused,
    uint64_t *timed_out, uint64_t *shed);

/* Rate-limit refusals held before they were answered (tarpit.h; for
 * /metrics). */
uint64_t http_refusals_held(struct http_server *h);

/* Requests that carried X-Forwarded-For from a peer that is no trusted
 * proxy (ignored; for /metrics). */
uint64_t http_untrusted_forwarded(struct http_server *h);

/* Microseconds on the monotonic clock. */
int64_t http_now_us(void);

#endif
