/*
 * http.c: libmicrohttpd glue.
 *
 * A request's life: the first call of the access handler (headers in)
 * creates its struct request, matches the route and refuses early what can
 * be refused without the body (unknown route, wrong method, a declared
 * length over the limit: the body is then never read); later calls append
 * body chunks; the last call parses JSON where the route wants it and runs
 * the handler. A handler that defers to the store suspends the connection;
 * the writer resumes it after the commit and the next call runs the
 * continuation. Completion logs one access line (with the client's address:
 * the X-Forwarded-For client when the peer is a trusted proxy) and feeds the
 * metrics.
 *
 * Invariants: every request that reaches completion has been answered
 * exactly once; nothing here logs a query string, a header value or a body.
 */
#include "http.h"

#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "app.h"
#include "config.h"
#include "connguard.h"
#include "jw.h"
#include "jsonbody.h"
#include "numtext.h"
#include "log.h"
#include "netgroup.h"
#include "metrics.h"
#include "tarpit.h"

#define MAX_EXTRA_HEADERS 4

struct http_server {
	struct MHD_Daemon   *daemon;
	struct app          *app;
	const struct config *cfg;
	const struct http_router *router;
	struct connguard    *guard;       /* per-address quota and request deadline */
	struct tarpit       *tarpit;      /* rate-limited bodies answered late */
	int                  listen_fd;
	bool                 quiesced;
	atomic_int           in_flight;   /* requests begun and not yet completed */
	atomic_int           open_conns;  /* connections open, idle keep-alive ones included */
	_Atomic uint64_t     shed;        /* overflow connections answered 503 */
	_Atomic uint64_t     untrusted_xff; /* requests with X-Forwarded-For from a peer not trusted */
	_Atomic int64_t      xff_warned_us; /* when the last warning of those was logged */
};

#define STORAGE_FULL_RETRY "30"
/* Seconds a client waits before it tries again while the database is
 * away (a failover takes about that). */
#define DB_UNAVAILABLE_RETRY "1"
#define XFF_WARN_EVERY_US (60 * 1000000LL)
/* Refusals held at once, each --refusal-hold-ms (tarpit.h). */
#define TARPIT_CAP 4096

static bool peer_trusted(struct request *req);

/* X-Forwarded-For from a peer that is no trusted proxy is ignored, which
 * is right for a client that forges it and wrong for a proxy set up
 * without --trusted-proxy (then every client shares the proxy's limits):
 * counted, and said in the log once a minute at most. */
static void
note_untrusted_forwarded(struct request *req)
{
	struct http_server *h = req->app->http;
	int64_t now = http_now_us(), last;
	char peer[INET6_ADDRSTRLEN + 8];

	if (request_header(req, "X-Forwarded-For") == NULL || peer_trusted(req))
		return;
	atomic_fetch_add_explicit(&h->untrusted_xff, 1, memory_order_relaxed);
	last = atomic_load_explicit(&h->xff_warned_us, memory_order_relaxed);
	if ((last != 0 && now - last < XFF_WARN_EVERY_US) ||
	    !atomic_compare_exchange_strong(&h->xff_warned_us, &last, now))
		return;
	request_client_addr(req, peer, sizeof peer);
	log_msg(LOG_WARN, "X-Forwarded-For from %s, which is no --trusted-proxy: ignored, so the peer "
	    "itself is the client for the rate limits (a reverse proxy needs --trusted-proxy; this "
	    "warning repeats at most once a minute, arcaded_forwarded_untrusted_total counts them all)",
	    peer);
}

/* Connections libmicrohttpd takes above --connection-limit, to answer 503
 * (connguard.h) instead of leaving new clients in the backlog.
 * libmicrohttpd splits its own limit evenly between the pool's threads,
 * and which thread accepts is the kernel's choice: each thread is given
 * the whole limit and the headroom, so that the count kept here, over
 * all threads, is what decides. */
static unsigned
headroom(unsigned limit)
{
	return 16 + limit / 16;
}

/* Whether a path is one an overflow connection still answers: the probes
 * and the metrics, so that an operator sees the daemon at its limit. */
static bool
probe_path(const char *path)
{
	return strcmp(path, "/healthz") == 0 || strcmp(path, "/readyz") == 0 ||
	    strcmp(path, "/metrics") == 0;
}

/* What only this file uses rides behind the request, so that struct
 * request stays plain for handlers. */
struct request_full {
	struct request  req;
	const struct http_server *server;
	struct connguard_conn *guard;  /* the connection's, NULL when not watched */
	bool            begun;    /* the headers have been seen */
	bool            nul;      /* the raw path or query holds %00 */
	enum api_error  early;    /* a refusal decided on the headers, or API_ERR__COUNT */
	const char     *early_msg;   /* its message (static storage or hint), NULL for the table's */
	char            hint[192];   /* a 404's message naming the closest route */
	json_t         *early_extra; /* what it carries besides the envelope (owned) */
	bool            late;     /* early waits for the body: the route answers it
	                             (request_refuse_after_body) */
	unsigned        allowed;  /* methods for a 405 */
	bool            json;     /* the route's body is a JSON object */
	int             nheaders;
	char            hname[MAX_EXTRA_HEADERS][32];
	char            hvalue[MAX_EXTRA_HEADERS][128];
	char           *hlong[MAX_EXTRA_HEADERS]; /* a value of 128 bytes or more (a redirect's
	                                             Location), allocated; else NULL */
};

static inline struct request_full *
full(struct request *req)
{
	return (struct request_full *)req;
}

int64_t
http_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static enum http_method
method_of(const char *m)
{
	static const struct { const char *name; enum http_method m; } table[] = {
		{ "GET", HTTP_GET }, { "POST", HTTP_POST }, { "PUT", HTTP_PUT },
		{ "DELETE", HTTP_DELETE }, { "PATCH", HTTP_PATCH }, { "HEAD", HTTP_HEAD },
		{ "OPTIONS", HTTP_OPTIONS },
	};
	size_t i;

	for (i = 0; i < sizeof table / sizeof table[0]; i++)
		if (strcmp(m, table[i].name) == 0)
			return table[i].m;
	return HTTP_OTHER;
}

static const char *
method_name(enum http_method m)
{
	switch (m) {
	case HTTP_GET: return "GET";
	case HTTP_POST: return "POST";
	case HTTP_PUT: return "PUT";
	case HTTP_DELETE: return "DELETE";
	case HTTP_PATCH: return "PATCH";
	case HTTP_HEAD: return "HEAD";
	case HTTP_OPTIONS: return "OPTIONS";
	default: return "OTHER";
	}
}

const char *
request_header(struct request *req, const char *name)
{
	return MHD_lookup_connection_value(req->conn, MHD_HEADER_KIND, name);
}

const char *
request_query(struct request *req, const char *name)
{
	if (req->query != NULL)
		return json_string_value(json_object_get(req->query, name));
	return MHD_lookup_connection_value(req->conn, MHD_GET_ARGUMENT_KIND, name);
}

static const struct sockaddr *
peer_addr(struct request *req)
{
	const union MHD_ConnectionInfo *ci =
	    MHD_get_connection_info(req->conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);

	return ci != NULL ? ci->client_addr : NULL;
}

/* A peer on the unix socket is the local reverse proxy; otherwise the
 * address must be in a --trusted-proxy range. */
static bool
trusted(const void *ctx, const struct sockaddr *sa)
{
	const struct config *cfg = ctx;

	if (sa == NULL)
		return false;
	if (sa->sa_family == AF_UNIX || cfg->listen_unix)
		return true;
	if (sa->sa_family == AF_INET)
		return config_is_trusted_proxy(cfg, AF_INET,
		    (const uint8_t *)&((const struct sockaddr_in *)(const void *)sa)->sin_addr);
	if (sa->sa_family == AF_INET6)
		return config_is_trusted_proxy(cfg, AF_INET6,
		    (const uint8_t *)&((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr);
	return false;
}

static bool
peer_trusted(struct request *req)
{
	return trusted(req->app->cfg, peer_addr(req));
}

static enum MHD_Result
accept_policy(void *cls, const struct sockaddr *addr, socklen_t addrlen)
{
	struct http_server *h = cls;

	(void)addrlen;
	return connguard_admit(h->guard, addr) ? MHD_YES : MHD_NO;
}

/* The client a trusted proxy forwards: the last X-Forwarded-For entry
 * (the address the proxy saw), parsed into family and raw bytes; false when
 * the peer is no trusted proxy, sends none, or it is no address. */
static bool
forwarded_client(struct request *req, int *family, uint8_t raw[16])
{
	const char *xff, *last;
	char text[INET6_ADDRSTRLEN + 1];
	size_t n;

	if (!peer_trusted(req) || (xff = request_header(req, "X-Forwarded-For")) == NULL)
		return false;
	last = strrchr(xff, ',');
	last = last ? last + 1 : xff;
	while (*last == ' ' || *last == '\t')
		last++;
	n = strcspn(last, " \t");
	if (n == 0 || n >= sizeof text)
		return false;
	memcpy(text, last, n);
	text[n] = '\0';
	if (inet_pton(AF_INET, text, raw) == 1)
		*family = AF_INET;
	else if (inet_pton(AF_INET6, text, raw) == 1)
		*family = AF_INET6;
	else
		return false;
	return true;
}

void
request_client_addr(struct request *req, char *out, size_t cap)
{
	const struct sockaddr *sa = peer_addr(req);
	uint8_t raw[16];
	int family;

	if (cap == 0)
		return;
	out[0] = '\0';
	if (forwarded_client(req, &family, raw)) {
		if (family == AF_INET && cap >= INET_ADDRSTRLEN)
			numtext_ipv4(out, raw);
		else
			inet_ntop(family, raw, out, (socklen_t)cap);
		return;
	}
	if (sa == NULL)
		snprintf(out, cap, "-");
	else if (sa->sa_family == AF_INET && cap >= INET_ADDRSTRLEN)
		/* Every request logs its client: inet_ntop's sprintf is most of
		 * the cost of writing it. */
		numtext_ipv4(out, (const uint8_t *)&((const struct sockaddr_in *)(const void *)sa)->sin_addr);
	else if (sa->sa_family == AF_INET)
		inet_ntop(AF_INET, &((const struct sockaddr_in *)(const void *)sa)->sin_addr, out,
		    (socklen_t)cap);
	else if (sa->sa_family == AF_INET6)
		inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr, out,
		    (socklen_t)cap);
	else
		snprintf(out, cap, "unix");
}

/* A sockaddr or a parsed X-Forwarded-For address as a client key. */
static void
key_from(struct client_key *k, int family, const uint8_t *addr)
{
	static const uint8_t mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

	memset(k, 0, sizeof *k);
	if (family == AF_INET) {
		k->family = 4;
		memcpy(k->bytes, addr, 4);
	} else if (family == AF_INET6 && memcmp(addr, mapped, sizeof mapped) == 0) {
		k->family = 4;
		memcpy(k->bytes, addr + 12, 4);
	} else if (family == AF_INET6) {
		k->family = 6;
		memcpy(k->bytes, addr, 8);
	}
}

void
request_client_key(struct request *req, struct client_key *out)
{
	const struct sockaddr *sa = peer_addr(req);
	uint8_t raw[16];
	int family;

	memset(out, 0, sizeof *out);
	if (forwarded_client(req, &family, raw))
		key_from(out, family, raw);
	else if (sa != NULL && sa->sa_family == AF_INET)
		key_from(out, AF_INET, (const uint8_t *)&((const struct sockaddr_in *)(const void *)sa)->sin_addr);
	else if (sa != NULL && sa->sa_family == AF_INET6)
		key_from(out, AF_INET6,
		    (const uint8_t *)&((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr);
}

bool
request_client_in(struct request *req, const struct cidr *list, int n)
{
	const struct sockaddr *sa = peer_addr(req);
	uint8_t raw[16];
	int family;

	if (forwarded_client(req, &family, raw))
		return config_cidr_has(list, n, family, raw);
	if (sa != NULL && sa->sa_family == AF_INET)
		return config_cidr_has(list, n, AF_INET,
		    (const uint8_t *)&((const struct sockaddr_in *)(const void *)sa)->sin_addr);
	if (sa != NULL && sa->sa_family == AF_INET6)
		return config_cidr_has(list, n, AF_INET6,
		    (const uint8_t *)&((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr);
	return true;
}

void
client_key_text(const struct client_key *k, char out[CLIENT_KEY_TEXT_MAX])
{
	char a[INET6_ADDRSTRLEN];

	if (k->family == 4 && inet_ntop(AF_INET, k->bytes, a, sizeof a) != NULL)
		snprintf(out, CLIENT_KEY_TEXT_MAX, "ip:%s", a);
	else if (k->family == 6 && inet_ntop(AF_INET6, k->bytes, a, sizeof a) != NULL)
		snprintf(out, CLIENT_KEY_TEXT_MAX, "ip:%s/64", a);
	else
		snprintf(out, CLIENT_KEY_TEXT_MAX, "local");
}

void
client_net_text(const struct client_key *k, char out[CLIENT_KEY_TEXT_MAX])
{
	uint8_t b[16] = { 0 };
	char a[INET6_ADDRSTRLEN];

	if (k->family == 4) {
		memcpy(b, k->bytes, 3);
		if (inet_ntop(AF_INET, b, a, sizeof a) != NULL) {
			snprintf(out, CLIENT_KEY_TEXT_MAX, "net:%s/24", a);
			return;
		}
	} else if (k->family == 6) {
		memcpy(b, k->bytes, NET48_BYTES);
		if (inet_ntop(AF_INET6, b, a, sizeof a) != NULL) {
			snprintf(out, CLIENT_KEY_TEXT_MAX, "net:%s/48", a);
			return;
		}
	}
	snprintf(out, CLIENT_KEY_TEXT_MAX, "local");
}

static bool
valid_request_id(const char *s)
{
	size_t n = 0;

	for (; s[n] != '\0'; n++) {
		char c = s[n];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    c == '-' || c == '_' || c == '.'))
			return false;
	}
	return n >= 1 && n <= 32;
}

static void
assign_id(struct request *req)
{
	const char *given = NULL;
	unsigned char raw[8];

	if (peer_trusted(req))
		given = request_header(req, "X-Request-Id");
	if (given != NULL && valid_request_id(given)) {
		snprintf(req->id, sizeof req->id, "%s", given);
		return;
	}
	randombytes_buf(raw, sizeof raw);
	sodium_bin2hex(req->id, sizeof req->id, raw, sizeof raw);
}

void
request_add_header(struct request *req, const char *name, const char *value)
{
	struct request_full *f = (struct request_full *)req;

	if (f->nheaders == MAX_EXTRA_HEADERS)
		return;
	snprintf(f->hname[f->nheaders], sizeof f->hname[0], "%s", name);
	if (strlen(value) >= sizeof f->hvalue[0]) {
		if ((f->hlong[f->nheaders] = strdup(value)) == NULL)
			return;
		f->hvalue[f->nheaders][0] = '\0';
	} else
		snprintf(f->hvalue[f->nheaders], sizeof f->hvalue[0], "%s", value);
	f->nheaders++;
}

static const char *
header_value(const struct request_full *f, int i)
{
	return f->hlong[i] != NULL ? f->hlong[i] : f->hvalue[i];
}

/* The headers that let req->cors_origin's page read an answer: the
 * origin, Vary (the answer depends on it) and what it may read besides
 * the simple headers. */
static void
add_cors(const struct request *req, struct MHD_Response *resp)
{
	if (req->cors_origin == NULL)
		return;
	MHD_add_response_header(resp, "Access-Control-Allow-Origin", req->cors_origin);
	MHD_add_response_header(resp, "Vary", "Origin");
	MHD_add_response_header(resp, "Access-Control-Expose-Headers",
	    "Mcp-Session-Id, MCP-Protocol-Version, WWW-Authenticate, Retry-After, X-Request-Id");
}

/* Queues an answer. text is malloc'd and freed here, or, when fixed is
 * not NULL, static storage sent as it is: then fixed lists the answer's
 * own headers as name, value, ..., NULL (static too), a Cache-Control
 * among them replacing the default no-store. A NULL content_type sends
 * none (a 304). */
static void
queue_with(struct request *req, int status, const char *content_type, char *text, size_t len,
    const char *const *fixed)
{
	struct request_full *f = (struct request_full *)req;
	struct MHD_Response *resp;
	const char *cache = "no-store";
	int i;

	if (req->replied) {
		log_msg(LOG_ERROR, "request %s answered twice (second: %d)", req->id, status);
		if (fixed == NULL)
			free(text);
		return;
	}
	resp = MHD_create_response_from_buffer(len, text,
	    fixed != NULL ? MHD_RESPMEM_PERSISTENT : MHD_RESPMEM_MUST_FREE);
	if (resp == NULL) {
		if (fixed == NULL)
			free(text);
		return;
	}
	if (content_type != NULL)
		MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, content_type);
	MHD_add_response_header(resp, "X-Request-Id", req->id);
	/* No answer is to be read as another type than the one it declares. */
	MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
	for (i = 0; fixed != NULL && fixed[i] != NULL && fixed[i + 1] != NULL; i += 2) {
		if (strcasecmp(fixed[i], MHD_HTTP_HEADER_CACHE_CONTROL) == 0)
			cache = fixed[i + 1];
		else
			MHD_add_response_header(resp, fixed[i], fixed[i + 1]);
	}
	MHD_add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL, cache);
	for (i = 0; i < f->nheaders; i++)
		MHD_add_response_header(resp, f->hname[i], header_value(f, i));
	add_cors(req, resp);
	if (atomic_load(&req->app->shutting_down))
		MHD_add_response_header(resp, MHD_HTTP_HEADER_CONNECTION, "close");
	if (MHD_queue_response(req->conn, (unsigned)status, resp) == MHD_YES) {
		req->replied = true;
		req->status = status;
	} else
		log_msg(LOG_ERROR, "request %s: cannot queue the response", req->id);
	MHD_destroy_response(resp);
}

/* A streamed answer's callbacks, behind libmicrohttpd's content reader. */
struct stream_cb {
	long  (*pull)(void *ctx, char *buf, size_t max);
	void  (*done)(void *ctx);
	void   *ctx;
};

static ssize_t
stream_read(void *cls, uint64_t pos, char *buf, size_t max)
{
	struct stream_cb *s = cls;
	long n = s->pull(s->ctx, buf, max);

	(void)pos;
	return n < 0 ? MHD_CONTENT_READER_END_OF_STREAM : (ssize_t)n;
}

static void
stream_free(void *cls)
{
	struct stream_cb *s = cls;

	s->done(s->ctx);
	free(s);
}

bool
request_reply_stream(struct request *req, const char *content_type,
    long (*pull)(void *ctx, char *buf, size_t max), void (*done)(void *ctx), void *ctx)
{
	struct request_full *f = (struct request_full *)req;
	struct stream_cb *s;
	struct MHD_Response *resp;
	int i;

	if (req->replied || (s = malloc(sizeof *s)) == NULL) {
		done(ctx);
		return false;
	}
	s->pull = pull;
	s->done = done;
	s->ctx = ctx;
	resp = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 4096, stream_read, s, stream_free);
	if (resp == NULL) {
		stream_free(s);
		return false;
	}
	MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, content_type);
	MHD_add_response_header(resp, "X-Request-Id", req->id);
	MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
	MHD_add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
	for (i = 0; i < f->nheaders; i++)
		MHD_add_response_header(resp, f->hname[i], header_value(f, i));
	add_cors(req, resp);
	if (MHD_queue_response(req->conn, MHD_HTTP_OK, resp) != MHD_YES) {
		/* Destroying the response runs stream_free: done() is owed once. */
		MHD_destroy_response(resp);
		return false;
	}
	req->replied = true;
	req->status = MHD_HTTP_OK;
	MHD_destroy_response(resp);
	return true;
}

void
http_stream_pause(void *conn)
{
	MHD_suspend_connection(conn);
}

bool
http_conn_gone(void *conn)
{
	const union MHD_ConnectionInfo *ci =
	    MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
	struct pollfd p;

	if (ci == NULL)
		return false;
	p.fd = ci->connect_fd;
	p.events = POLLRDHUP;
	p.revents = 0;
	return poll(&p, 1, 0) == 1 && (p.revents & (POLLRDHUP | POLLHUP | POLLERR)) != 0;
}

void
http_stream_wake(void *conn)
{
	MHD_resume_connection(conn);
}

static void
queue(struct request *req, int status, const char *content_type, char *text, size_t len)
{
	queue_with(req, status, content_type, text, len, NULL);
}

void
request_reply_static(struct request *req, int status, const char *content_type,
    const void *data, size_t len, const char *const *headers)
{
	static const char *const none[] = { NULL };

	queue_with(req, status, content_type, (char *)(uintptr_t)data, len,
	    headers != NULL ? headers : none);
}

void
request_reply_text(struct request *req, int status, const char *content_type,
    const char *text, size_t len)
{
	char *copy = malloc(len + 1);

	if (copy == NULL)
		return;
	memcpy(copy, text, len);
	copy[len] = '\0';
	queue(req, status, content_type, copy, len);
}

void
request_reply_json(struct request *req, int status, json_t *body)
{
	char *text;

	if (req->wrap != NULL && !req->replied) {
		json_t *(*wrap)(struct request *, int *, json_t *) = req->wrap;

		/* Once: the wrapper's answer is the one sent. */
		req->wrap = NULL;
		req->wrap_text = NULL;
		body = wrap(req, &status, body);
	}
	text = body != NULL ? json_dumps(body, JSON_COMPACT) : NULL;

	json_decref(body);
	if (text == NULL) {
		static const char oom[] =
		    "{\"error\":{\"code\":\"internal\",\"message\":\"out of memory\"}}";

		request_reply_text(req, 500, "application/json; charset=utf-8", oom, sizeof oom - 1);
		return;
	}
	queue(req, status, "application/json; charset=utf-8", text, strlen(text));
}

void
request_reply_json_text(struct request *req, int status, char *text, size_t len)
{
	json_t *body;

	if (text != NULL && req->wrap_text != NULL && !req->replied) {
		char *(*wrap_text)(struct request *, int *, char *, size_t *) = req->wrap_text;

		req->wrap = NULL;
		req->wrap_text = NULL;
		if ((text = wrap_text(req, &status, text, &len)) == NULL) {
			request_reply_json(req, status, NULL);
			return;
		}
	}
	if (text != NULL && (req->wrap == NULL || req->replied)) {
		queue(req, status, "application/json; charset=utf-8", text, len);
		return;
	}
	/* A NULL body answers 500 there. */
	body = text != NULL ? json_loadb(text, len, 0, NULL) : NULL;
	free(text);
	request_reply_json(req, status, body);
}

/* The error an outage makes of e: an internal error while the disk is
 * full, a COMMIT went unanswered or the database is out of reach is that,
 * not a bug: 503 with a time to come back, whatever route met it (the
 * router knows what is out). e as it is otherwise; *message NULL when
 * the outage replaces it. */
static enum api_error
error_in_outage(struct request *req, enum api_error e, const char **message)
{
	const struct http_router *router = full(req)->server->router;
	enum api_error outage;

	if (e == API_ERR_INTERNAL && router->outage != NULL &&
	    (outage = router->outage(req)) != API_ERR_INTERNAL) {
		e = outage;
		*message = NULL;
		request_add_header(req, "Retry-After",
		    e == API_ERR_STORAGE_FULL ? STORAGE_FULL_RETRY : DB_UNAVAILABLE_RETRY);
	}
	return e;
}

/* e's answer from the table alone, its code and default message, when
 * the answer with its own message could not be built (only when memory
 * runs out: api_error_new makes any message valid text). Logged, since
 * the client gets less than it should. */
static void
reply_fixed_error(struct request *req, enum api_error e)
{
	const struct api_error_info *info = api_error_info(e);
	char text[512];
	int n;

	log_msg(LOG_WARN, "request %s: the %s answer could not be built; sent with its default message",
	    req->id, info->code);
	n = snprintf(text, sizeof text, "{\"error\":{\"code\":\"%s\",\"message\":\"%s\"}}",
	    info->code, info->message);
	request_reply_text(req, info->status, "application/json; charset=utf-8", text,
	    n > 0 && (size_t)n < sizeof text ? (size_t)n : 0);
}

void
request_reply_error_with(struct request *req, enum api_error e, const char *message,
    json_t *extra)
{
	json_t *body;

	e = error_in_outage(req, e, &message);
	body = api_error_new(e, message);
	if (body != NULL && extra != NULL)
		json_object_update(body, extra);
	json_decref(extra);
	if (body == NULL) {
		reply_fixed_error(req, e);
		return;
	}
	request_reply_json(req, api_error_status(e), body);
}

#define ERROR_TEXT_FIRST 256
#define ERROR_TEXT_MAX ((size_t)64 << 20)

void
request_reply_error_text(struct request *req, enum api_error e, const char *message,
    char *extra, size_t len)
{
	const struct api_error_info *info;
	struct jw w;
	char *text, valid[API_ERROR_TEXT_MAX];
	size_t n = 0;

	e = error_in_outage(req, e, &message);
	info = api_error_info(e);
	/* api_error_new's {"error": {code, message}}, then the object's
	 * members, as json_object_update appends them. */
	jw_init(&w, ERROR_TEXT_FIRST + len, ERROR_TEXT_MAX);
	jw_object(&w);
	jw_key(&w, "error");
	jw_object(&w);
	jw_kstring(&w, "code", info->code);
	jw_kstring(&w, "message", message != NULL ? api_error_text(valid, sizeof valid, message) :
	    info->message);
	jw_object_end(&w);
	if (extra != NULL && len > 2 && extra[0] == '{' && extra[len - 1] == '}')
		jw_raw(&w, extra + 1, len - 2);
	jw_object_end(&w);
	free(extra);
	text = jw_take(&w, &n);
	request_reply_json_text(req, api_error_status(e), text, n);
}

void *
request_ctx_new(struct request *req, size_t size, void (*ctx_free)(void *ctx))
{
	void *ctx = calloc(1, size);

	if (ctx == NULL) {
		request_reply_error(req, API_ERR_INTERNAL, "out of memory");
		return NULL;
	}
	req->ctx = ctx;
	req->ctx_free = ctx_free;
	return ctx;
}

void
request_reply_error(struct request *req, enum api_error e, const char *message)
{
	request_reply_error_with(req, e, message, NULL);
}

void
request_reply_later(struct request *req, enum api_error e, const char *retry_after,
    const char *message)
{
	request_add_header(req, "Retry-After", retry_after);
	request_reply_error_with(req, e, message, NULL);
}

void
request_suspend(struct request *req, request_cont cont)
{
	req->cont = cont;
	req->suspended = true;
	MHD_suspend_connection(req->conn);
}

void
request_resume(struct request *req, int status)
{
	/* The connection is suspended: no HTTP thread touches req until the
	 * resume below, which also publishes everything written for it. */
	req->resumed_status = status;
	MHD_resume_connection(req->conn);
}

/* Parses the body for a JSON route: an empty body is no object (NULL);
 * anything else must be one JSON object. A failure is answered 400 when
 * answer is set, else left to the caller. */
static bool
parse_json_body(struct request *req, bool answer)
{
	json_error_t jerr;
	size_t i;

	for (i = 0; i < req->body.len; i++)
		if (req->body.data[i] != ' ' && req->body.data[i] != '\t' && req->body.data[i] != '\r' &&
		    req->body.data[i] != '\n')
			break;
	if (i == req->body.len)
		return true;
	req->json = jsonbody_load(req->body.data, req->body.len, &jerr);
	if (req->json == NULL) {
		if (answer)
			request_reply_error_with(req, API_ERR_INVALID_JSON, NULL,
			    json_pack("{s:s, s:i, s:i}", "detail", jerr.text, "line", jerr.line,
			    "column", jerr.column));
		return false;
	}
	if (!json_is_object(req->json)) {
		if (answer)
			request_reply_error(req, API_ERR_INVALID_REQUEST, "the body must be a JSON object");
		return false;
	}
	return true;
}

/* A form body (application/x-www-form-urlencoded) read by libmicrohttpd's
 * post processor into req->json, an object of its fields' values as
 * strings: the first of a name counts, a value that is not UTF-8 or holds
 * a NUL is refused. form_chunk is the processor's iterator: a value may
 * come in chunks (off > 0), the first with off 0. */
struct form_read {
	json_t *obj;
	char    key[64];
	char   *val;
	size_t  len, cap;
	bool    skip, bad;
};

static void
form_flush(struct form_read *fr)
{
	const char *v = fr->val != NULL ? fr->val : "";
	size_t nchars;

	/* jsonbody_utf8 refuses a NUL too. */
	if (fr->key[0] != '\0' && !fr->skip && !fr->bad &&
	    (!jsonbody_utf8(v, fr->len, &nchars) ||
	    json_object_set_new(fr->obj, fr->key, json_stringn(v, fr->len)) != 0))
		fr->bad = true;
	fr->key[0] = '\0';
	fr->len = 0;
}

static enum MHD_Result
form_chunk(void *cls, enum MHD_ValueKind kind, const char *key, const char *filename,
    const char *content_type, const char *transfer_encoding, const char *data, uint64_t off,
    size_t size)
{
	struct form_read *fr = cls;

	(void)kind;
	(void)filename;
	(void)content_type;
	(void)transfer_encoding;
	if (off == 0 || strcmp(key, fr->key) != 0) {
		form_flush(fr);
		if (strlen(key) >= sizeof fr->key) {
			fr->bad = true;
			return MHD_NO;
		}
		snprintf(fr->key, sizeof fr->key, "%s", key);
		fr->skip = json_object_get(fr->obj, key) != NULL;
	}
	if (fr->skip || size == 0)
		return MHD_YES;
	if (fr->len + size > fr->cap) {
		size_t cap = (fr->len + size) * 2;
		char *v = realloc(fr->val, cap);

		if (v == NULL) {
			fr->bad = true;
			return MHD_NO;
		}
		fr->val = v;
		fr->cap = cap;
	}
	memcpy(fr->val + fr->len, data, size);
	fr->len += size;
	return MHD_YES;
}

/* The form into req->json, which stays NULL when it does not read (or
 * memory ran out): the route answers that in its own terms (OAuth's
 * error object, a page). */
static void
parse_form_body(struct request *req)
{
	struct form_read fr = { .obj = json_object() };
	struct MHD_PostProcessor *pp;

	if (fr.obj == NULL)
		return;
	pp = MHD_create_post_processor(req->conn, 1024, form_chunk, &fr);
	if (pp == NULL || (req->body.len > 0 &&
	    MHD_post_process(pp, req->body.data, req->body.len) != MHD_YES))
		fr.bad = true;
	if (pp != NULL && MHD_destroy_post_processor(pp) != MHD_YES)
		fr.bad = true;
	form_flush(&fr);
	free(fr.val);
	if (fr.bad)
		json_decref(fr.obj);
	else
		req->json = fr.obj;
}

static bool
declared_too_large(struct request *req)
{
	const char *cl = request_header(req, MHD_HTTP_HEADER_CONTENT_LENGTH);
	unsigned long long n = 0;
	const char *p;

	if (cl == NULL)
		return false;
	for (p = cl; *p >= '0' && *p <= '9'; p++) {
		if (n > req->app->cfg->max_body)
			return true;
		n = n * 10 + (unsigned)(*p - '0');
	}
	return n > req->app->cfg->max_body;
}

static bool
takes_body(enum http_method m)
{
	return m == HTTP_POST || m == HTTP_PUT || m == HTTP_PATCH || m == HTTP_DELETE;
}

static void
reply_too_large(struct request *req)
{
	char msg[96];

	snprintf(msg, sizeof msg, "the request body is larger than %zu bytes",
	    req->app->cfg->max_body);
	request_reply_error(req, API_ERR_PAYLOAD_TOO_LARGE, msg);
}

static void
refuse_early(struct request *req)
{
	char allow[64];

	switch (full(req)->early) {
	case API_ERR_METHOD_NOT_ALLOWED:
		full(req)->server->router->allow_header(full(req)->allowed, allow, sizeof allow);
		request_add_header(req, "Allow", allow);
		request_reply_error_with(req, API_ERR_METHOD_NOT_ALLOWED, NULL,
		    json_pack("{s:s}", "allow", allow));
		break;
	case API_ERR_PAYLOAD_TOO_LARGE:
		reply_too_large(req);
		break;
	default:
		request_reply_error_with(req, full(req)->early, full(req)->early_msg, full(req)->early_extra);
		full(req)->early_extra = NULL;
		break;
	}
}

void
request_refuse(struct request *req, enum api_error e, const char *message, json_t *extra)
{
	struct request_full *f = full(req);

	json_decref(f->early_extra);
	f->early = e;
	f->early_msg = message;
	f->early_extra = extra;
	f->late = false;
}

void
request_refuse_after_body(struct request *req, enum api_error e, const char *message, json_t *extra)
{
	request_refuse(req, e, message, extra);
	full(req)->late = true;
}

bool
request_refusal_pending(struct request *req)
{
	return full(req)->late && !req->replied;
}

void
request_reply_refusal(struct request *req, json_t *more)
{
	struct request_full *f = full(req);

	if (more != NULL && f->early_extra != NULL)
		json_object_update(more, f->early_extra);
	if (more != NULL) {
		json_decref(f->early_extra);
		f->early_extra = more;
	}
	f->late = false;
	refuse_early(req);
}

/* Whether the body's declared type is want (a media type without
 * parameters): parameters allowed after it ("application/json;
 * charset=utf-8"), case as the client likes. */
static bool
content_type_is(struct request *req, const char *want)
{
	const char *ct = request_header(req, MHD_HTTP_HEADER_CONTENT_TYPE);
	size_t len = strlen(want), n;

	if (ct == NULL)
		return false;
	ct += strspn(ct, " \t");
	if (strncasecmp(ct, want, len) != 0)
		return false;
	ct += len;
	n = strspn(ct, " \t");
	return ct[n] == '\0' || ct[n] == ';';
}

/* Whether the body's declared type is the route's. */
static bool
body_type_ok(struct request *req)
{
	return content_type_is(req, req->form_body ? "application/x-www-form-urlencoded" :
	    "application/json");
}

/* The first element of a header's comma-separated list, trimmed, into
 * out; false when absent, empty or too long. */
static bool
first_of(const char *v, char *out, size_t cap)
{
	size_t n;

	if (v == NULL)
		return false;
	v += strspn(v, " \t");
	n = strcspn(v, ", \t");
	if (n == 0 || n >= cap)
		return false;
	memcpy(out, v, n);
	out[n] = '\0';
	return true;
}

bool
request_public_origin(struct request *req, char *out, size_t cap)
{
	char host[256], proto[8] = "http";
	const char *h = request_header(req, "Host");
	bool proxy = peer_trusted(req);
	size_t n;

	if (req->app->cfg->public_url[0] != '\0') {
		n = (size_t)snprintf(out, cap, "%s", req->app->cfg->public_url);
		return n < cap;
	}
	if (proxy && first_of(request_header(req, "X-Forwarded-Proto"), proto, sizeof proto) &&
	    strcmp(proto, "https") != 0 && strcmp(proto, "http") != 0)
		return false;
	if (!(proxy && first_of(request_header(req, "X-Forwarded-Host"), host, sizeof host)) &&
	    !first_of(h, host, sizeof host))
		return false;
	/* A name, an IPv4 or a bracketed IPv6 address, and a port. */
	if (strspn(host, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:[]") !=
	    strlen(host))
		return false;
	n = (size_t)snprintf(out, cap, "%s://%s", proto, host);
	return n < cap;
}

/* Whether the client is about to send a body. */
static bool
has_body(struct request *req)
{
	const char *cl = request_header(req, MHD_HTTP_HEADER_CONTENT_LENGTH);

	if (request_header(req, MHD_HTTP_HEADER_TRANSFER_ENCODING) != NULL)
		return true;
	return cl != NULL && strspn(cl, "0") != strlen(cl);
}

/* What the headers say of the message's framing (RFC 9112 section 6),
 * gathered over every header line, duplicates included. */
struct framing {
	unsigned ncl, nte;
	bool     te_other;   /* a transfer coding other than one "chunked" */
	bool     bad_byte;   /* a CR, LF or NUL inside a name or a value */
	bool     spaced;     /* whitespace in a name, as before its colon */
};

static enum MHD_Result
framing_of(void *cls, enum MHD_ValueKind kind, const char *key, size_t key_size,
    const char *value, size_t value_size)
{
	struct framing *f = cls;
	size_t i;

	(void)kind;
	if (key == NULL)
		return MHD_YES;
	if (strlen(key) != key_size || (value != NULL && strlen(value) != value_size))
		f->bad_byte = true;
	if (strcspn(key, " \t") != strlen(key))
		f->spaced = true;
	for (i = 0; value != NULL && i < value_size; i++)
		if (value[i] == '\r' || value[i] == '\n' || value[i] == '\0')
			f->bad_byte = true;
	if (strcasecmp(key, MHD_HTTP_HEADER_CONTENT_LENGTH) == 0)
		f->ncl++;
	else if (strcasecmp(key, MHD_HTTP_HEADER_TRANSFER_ENCODING) == 0) {
		const char *v = value != NULL ? value : "";
		size_t n;

		f->nte++;
		v += strspn(v, " \t");
		n = strcspn(v, " \t");
		if (n != 7 || strncasecmp(v, "chunked", 7) != 0 || v[n + strspn(v + n, " \t")] != '\0')
			f->te_other = true;
	}
	return MHD_YES;
}

/* Refuses (and closes) a request whose framing a front end could read
 * otherwise than we do: true when refused. What libmicrohttpd folds or
 * rejects before this (obs-fold lines are joined, a bare LF ends a line)
 * is docs/deploying-notes.md's. */
static bool
refuse_framing(struct request *req)
{
	struct framing f = { 0 };
	const char *why = NULL;
	enum api_error e = API_ERR_INVALID_REQUEST;

	MHD_get_connection_values_n(req->conn, MHD_HEADER_KIND, framing_of, &f);
	if (f.bad_byte)
		why = "a header holds a CR, LF or NUL byte";
	else if (f.spaced)
		why = "whitespace between a header's name and its colon (RFC 9112 section 5.1)";
	else if (f.ncl > 1)
		why = "more than one Content-Length";
	else if (f.ncl > 0 && f.nte > 0)
		why = "Content-Length together with Transfer-Encoding";
	else if (f.nte > 1 || f.te_other) {
		e = API_ERR_NOT_IMPLEMENTED;
		why = "a transfer coding other than chunked";
	}
	if (why == NULL)
		return false;
	request_add_header(req, MHD_HTTP_HEADER_CONNECTION, "close");
	request_refuse(req, e, why, NULL);
	refuse_early(req);
	return true;
}

/* First call: headers are in, no body yet. What can be refused without the
 * body is refused now: at once when a body would follow (it is then never
 * read, and libmicrohttpd closes the connection), else on the last call so
 * that the connection stays open for the next request. */
static void
begin(struct request *req)
{
	const struct http_router *router = full(req)->server->router;
	unsigned allowed = 0;
	bool body = takes_body(req->method) && has_body(req);

	if (refuse_framing(req))
		return;
	note_untrusted_forwarded(req);
	if (connguard_overflow(full(req)->guard)) {
		/* One answer, then the connection goes, so the headroom frees. */
		request_add_header(req, MHD_HTTP_HEADER_CONNECTION, "close");
		if (!probe_path(req->path)) {
			atomic_fetch_add_explicit(&req->app->http->shed, 1, memory_order_relaxed);
			request_add_header(req, "Retry-After", "1");
			request_refuse(req, API_ERR_BUSY, "the server holds all the connections it may: "
			    "retry shortly", NULL);
			refuse_early(req);
			return;
		}
	}
	if (atomic_load(&req->app->shutting_down))
		full(req)->early = API_ERR_SHUTTING_DOWN;
	else if (full(req)->nul)
		request_refuse(req, API_ERR_INVALID_REQUEST,
		    "a NUL byte (%00) in the path or the query is never valid", NULL);
	else if ((req->route = router->match(req, &allowed, &full(req)->json)) < 0) {
		full(req)->early = allowed != 0 ? API_ERR_METHOD_NOT_ALLOWED : API_ERR_NOT_FOUND;
		full(req)->allowed = allowed;
		if (allowed == 0 && router->closest != NULL &&
		    router->closest(req->path, full(req)->hint, sizeof full(req)->hint))
			full(req)->early_msg = full(req)->hint;
	} else if (router->admit != NULL && !router->admit(req)) {
		/* Refused (a rate limit). A refusal that waits for the body waits
		 * only for one the route can read: JSON within the limit. */
		if (full(req)->late && ((body && !body_type_ok(req)) ||
		    (takes_body(req->method) && declared_too_large(req))))
			full(req)->late = false;
		if (full(req)->late)
			return;
	} else if (body && !body_type_ok(req))
		full(req)->early = API_ERR_UNSUPPORTED_MEDIA;
	else if (takes_body(req->method) && declared_too_large(req))
		full(req)->early = API_ERR_PAYLOAD_TOO_LARGE;
	else
		return;
	if (full(req)->early == API_ERR_PAYLOAD_TOO_LARGE || body) {
		refuse_early(req);
		/* A client over its rate limit that sends a body: the refusal
		 * closes the connection, and waits a while first (tarpit.h). */
		if (body && full(req)->early == API_ERR_RATE_LIMITED && req->replied &&
		    full(req)->server->tarpit != NULL)
			(void)tarpit_hold(full(req)->server->tarpit, req->conn);
	}
}

/* All of the body is in. */
static void
dispatch(struct request *req)
{
	bool late = full(req)->late;

	if (full(req)->early != API_ERR__COUNT && !late) {
		refuse_early(req);
		return;
	}
	if (req->body.too_large) {
		if (late)
			refuse_early(req);
		else
			reply_too_large(req);
		return;
	}
	/* All in: from here the deadline is the handler's business. */
	connguard_received(full(req)->guard);
	if (late) {
		/* Refused already (a rate limit), the route answering to show the
		 * run: its token is read, nothing else of the body is parsed, so
		 * that a refused client costs no parse of what it sent. */
		if (full(req)->json && takes_body(req->method))
			req->json = jsonbody_token_only(req->body.data, req->body.len);
	} else if (req->form_body && takes_body(req->method))
		parse_form_body(req);
	else if (full(req)->json && takes_body(req->method) && !parse_json_body(req, true))
		return;
	full(req)->server->router->run(req);
}

static struct request *
new_request(struct http_server *h, struct MHD_Connection *conn)
{
	struct request_full *f = calloc(1, sizeof *f);
	const union MHD_ConnectionInfo *ci;

	if (f == NULL)
		return NULL;
	f->req.app = h->app;
	f->req.conn = conn;
	f->req.start_us = http_now_us();
	f->req.route = -1;
	f->req.rate_class = -1;
	f->server = h;
	f->early = API_ERR__COUNT;
	ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	f->guard = ci != NULL ? ci->socket_context : NULL;
	return &f->req;
}

/* The request line is in: the request starts here, with its URI as sent
 * (before libmicrohttpd decodes it, which would cut a path or a query
 * argument short at a %00). */
static void *
on_uri(void *cls, const char *uri, struct MHD_Connection *conn)
{
	struct request *req = new_request(cls, conn);
	const char *p;

	if (req == NULL)
		return NULL;
	for (p = strchr(uri, '%'); p != NULL; p = strchr(p + 1, '%'))
		if (p[1] == '0' && p[2] == '0') {
			full(req)->nul = true;
			break;
		}
	return req;
}

static enum MHD_Result
on_request(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
    const char *version, const char *upload_data, size_t *upload_data_size, void **con_cls)
{
	struct http_server *h = cls;
	struct request *req = *con_cls;

	(void)version;
	if (req == NULL && (req = new_request(h, conn)) == NULL)
		return MHD_NO;
	*con_cls = req;
	if (!full(req)->begun) {
		/* The headers are in. */
		full(req)->begun = true;
		req->path = url;
		req->method = method_of(method);
		assign_id(req);
		atomic_fetch_add(&h->in_flight, 1);
		begin(req);
		return MHD_YES;
	}
	if (*upload_data_size > 0) {
		if (!req->replied)
			body_append(&req->body, upload_data, *upload_data_size, req->app->cfg->max_body);
		*upload_data_size = 0;
		return MHD_YES;
	}
	if (req->replied)
		return MHD_YES;
	if (req->cont != NULL) {
		request_cont cont = req->cont;

		req->cont = NULL;
		req->suspended = false;
		cont(req);
	} else if (!req->suspended)
		dispatch(req);
	if (!req->replied && !req->suspended) {
		log_msg(LOG_ERROR, "route %d left request %s unanswered", req->route, req->id);
		request_reply_error(req, API_ERR_INTERNAL, NULL);
	}
	return MHD_YES;
}

static void
on_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
    enum MHD_RequestTerminationCode toe)
{
	struct http_server *h = cls;
	struct request *req = *con_cls;
	int64_t us;

	(void)conn;
	if (req == NULL)
		return;
	connguard_answered(full(req)->guard);
	if (!full(req)->begun) {
		/* libmicrohttpd answered the request line itself (a URI or headers
		 * too large, a malformed request) or the client left first. */
		if (log_get_level() >= LOG_INFO) {
			char client[INET6_ADDRSTRLEN + 8];

			request_client_addr(req, client, sizeof client);
			log_access("-", "-", 0, (long long)(http_now_us() - req->start_us), NULL, client,
			    "(refused by libmicrohttpd before the headers were read, or closed by the client)");
		}
		free((struct request_full *)req);
		*con_cls = NULL;
		return;
	}
	us = http_now_us() - req->start_us;
	if (!req->replied)
		req->status = 0; /* the client went away before an answer */
	metrics_observe(h->app->metrics, req->route >= 0 ? (size_t)req->route : h->router->nroutes,
	    req->status, us);
	if (log_get_level() >= LOG_INFO) {
		char client[INET6_ADDRSTRLEN + 8];

		request_client_addr(req, client, sizeof client);
		log_access(method_name(req->method), req->path, req->status, (long long)us, req->id, client,
		    req->replied ? (toe == MHD_REQUEST_TERMINATED_COMPLETED_OK ? NULL :
		    "(the client left during the answer)") : "(closed before an answer)");
	}
	json_decref(req->json);
	if (req->wrap_ctx_free != NULL)
		req->wrap_ctx_free(req->wrap_ctx);
	json_decref(req->query);
	json_decref(full(req)->early_extra);
	for (int i = 0; i < full(req)->nheaders; i++)
		free(full(req)->hlong[i]);
	body_free(&req->body);
	if (req->release != NULL)
		req->release(req->release_arg);
	if (req->ctx_free != NULL)
		req->ctx_free(req->ctx);
	*con_cls = NULL;
	free((struct request_full *)req);
	atomic_fetch_sub(&h->in_flight, 1);
}

static void
on_connection(void *cls, struct MHD_Connection *conn, void **socket_context,
    enum MHD_ConnectionNotificationCode code)
{
	struct http_server *h = cls;

	if (code == MHD_CONNECTION_NOTIFY_STARTED) {
		const union MHD_ConnectionInfo *fd = MHD_get_connection_info(conn,
		    MHD_CONNECTION_INFO_CONNECTION_FD);
		const union MHD_ConnectionInfo *peer = MHD_get_connection_info(conn,
		    MHD_CONNECTION_INFO_CLIENT_ADDRESS);

		bool overflow = atomic_fetch_add(&h->open_conns, 1) >= (int)h->cfg->connection_limit;

		*socket_context = fd != NULL && peer != NULL ?
		    connguard_opened(h->guard, peer->client_addr, fd->connect_fd, overflow) : NULL;
	} else {
		connguard_closed(h->guard, *socket_context);
		*socket_context = NULL;
		atomic_fetch_sub(&h->open_conns, 1);
	}
}

#if defined(__GNUC__)
__attribute__((format(printf, 2, 0)))
#endif
static void
mhd_log(void *cls, const char *fmt, va_list ap)
{
	char msg[512];
	size_t n;

	(void)cls;
	vsnprintf(msg, sizeof msg, fmt, ap);
	n = strlen(msg);
	while (n > 0 && msg[n - 1] == '\n')
		msg[--n] = '\0';
	log_msg(LOG_DEBUG, "microhttpd: %s", msg);
}

/* Binds the listening socket ourselves, so that a failure names its cause
 * (address in use, permission denied) and port 0 can report its port. */
static int
open_listener(const struct config *cfg, char *bound, size_t boundcap, char *err, size_t errcap)
{
	int fd = -1, one = 1;

	if (cfg->listen_unix) {
		struct sockaddr_un sun;
		struct stat st;

		memset(&sun, 0, sizeof sun);
		sun.sun_family = AF_UNIX;
		snprintf(sun.sun_path, sizeof sun.sun_path, "%s", cfg->listen_path);
		/* A socket left by a previous run would make bind fail. */
		if (lstat(cfg->listen_path, &st) == 0 && S_ISSOCK(st.st_mode))
			unlink(cfg->listen_path);
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
		if (fd < 0 || bind(fd, (struct sockaddr *)&sun, sizeof sun) != 0 ||
		    chmod(cfg->listen_path, 0660) != 0 || listen(fd, 1024) != 0) {
			snprintf(err, errcap, "cannot listen on unix:%s: %s", cfg->listen_path,
			    strerror(errno));
			goto fail;
		}
		snprintf(bound, boundcap, "unix:%s", cfg->listen_path);
		return fd;
	} else {
		struct addrinfo hints, *ai = NULL;
		struct sockaddr_storage ss;
		socklen_t sl = sizeof ss;
		char port[8], host[INET6_ADDRSTRLEN];
		int rc;

		memset(&hints, 0, sizeof hints);
		hints.ai_family = AF_UNSPEC;
		hints.ai_socktype = SOCK_STREAM;
		hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
		snprintf(port, sizeof port, "%u", cfg->listen_port);
		rc = getaddrinfo(cfg->listen_host, port, &hints, &ai);
		if (rc != 0 || ai == NULL) {
			snprintf(err, errcap, "cannot listen on %s:%u: %s", cfg->listen_host,
			    cfg->listen_port, gai_strerror(rc));
			return -1;
		}
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
		if (fd >= 0)
			setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
		if (fd < 0 || bind(fd, ai->ai_addr, ai->ai_addrlen) != 0 || listen(fd, 1024) != 0) {
			snprintf(err, errcap, "cannot listen on %s:%u: %s", cfg->listen_host,
			    cfg->listen_port, strerror(errno));
			freeaddrinfo(ai);
			goto fail;
		}
		freeaddrinfo(ai);
		getsockname(fd, (struct sockaddr *)&ss, &sl);
		if (ss.ss_family == AF_INET6) {
			struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;

			inet_ntop(AF_INET6, &s6->sin6_addr, host, sizeof host);
			snprintf(bound, boundcap, "http://[%s]:%u", host, ntohs(s6->sin6_port));
		} else {
			struct sockaddr_in *s4 = (struct sockaddr_in *)&ss;

			inet_ntop(AF_INET, &s4->sin_addr, host, sizeof host);
			snprintf(bound, boundcap, "http://%s:%u", host, ntohs(s4->sin_port));
		}
		return fd;
	}
fail:
	if (fd >= 0)
		close(fd);
	return -1;
}

struct http_server *
http_start(const struct config *cfg, struct app *app, const struct http_router *router,
    char *bound, size_t boundcap, char *err, size_t errcap)
{
	struct http_server *h = calloc(1, sizeof *h);
	unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL |
	    MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ERROR_LOG;

	if (h == NULL) {
		snprintf(err, errcap, "out of memory");
		return NULL;
	}
	h->app = app;
	h->cfg = cfg;
	h->router = router;
	h->guard = connguard_new(cfg->per_address, cfg->request_timeout, trusted, cfg);
	if (h->guard == NULL) {
		snprintf(err, errcap, "cannot start the connection watchdog");
		free(h);
		return NULL;
	}
	if (cfg->refusal_hold_ms > 0 &&
	    (h->tarpit = tarpit_new(TARPIT_CAP, cfg->refusal_hold_ms)) == NULL) {
		snprintf(err, errcap, "cannot start the refusals' tarpit");
		connguard_free(h->guard);
		free(h);
		return NULL;
	}
	h->listen_fd = open_listener(cfg, bound, boundcap, err, errcap);
	if (h->listen_fd < 0) {
		tarpit_free(h->tarpit);
		connguard_free(h->guard);
		free(h);
		return NULL;
	}
	h->daemon = MHD_start_daemon(flags, 0, accept_policy, h, on_request, h,
	    MHD_OPTION_LISTEN_SOCKET, (MHD_socket)h->listen_fd,
	    MHD_OPTION_THREAD_POOL_SIZE, (unsigned int)cfg->threads,
	    MHD_OPTION_CONNECTION_LIMIT, (unsigned int)((cfg->connection_limit +
	        headroom(cfg->connection_limit)) * cfg->threads),
	    MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)cfg->connection_timeout,
	    /* Headers and read buffers only (bodies are copied out as they
	     * arrive); libmicrohttpd clears the whole pool between requests,
	     * so a larger pool costs on every request. */
	    MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(16 * 1024),
	    MHD_OPTION_NOTIFY_COMPLETED, on_completed, h,
	    MHD_OPTION_NOTIFY_CONNECTION, on_connection, h,
	    MHD_OPTION_URI_LOG_CALLBACK, on_uri, h,
	    MHD_OPTION_EXTERNAL_LOGGER, mhd_log, h,
	    MHD_OPTION_END);
	if (h->daemon == NULL) {
		snprintf(err, errcap, "cannot start the HTTP server (libmicrohttpd refused the options)");
		close(h->listen_fd);
		tarpit_free(h->tarpit);
		connguard_free(h->guard);
		free(h);
		return NULL;
	}
	return h;
}

void
http_quiesce(struct http_server *h)
{
	if (h == NULL || h->quiesced)
		return;
	MHD_quiesce_daemon(h->daemon);
	/* Refuse new connections now rather than leaving them in the backlog
	 * until the socket closes; the descriptor stays open until
	 * MHD_stop_daemon, as libmicrohttpd requires. */
	shutdown(h->listen_fd, SHUT_RDWR);
	h->quiesced = true;
}

/* After http_quiesce every answer carries "Connection: close", so each
 * open connection takes at most one more request. Stopping is safe once no
 * request is in flight and either every connection has closed or none has
 * brought a request for a while (idle keep-alive connections, which a
 * client may reuse at any moment: HTTP lets it retry on a close). */
int
http_wait_idle(struct http_server *h, int timeout_ms)
{
	int64_t now = http_now_us(), until = now + (int64_t)timeout_ms * 1000, quiet_since = now;
	int n;

	for (;;) {
		struct timespec ts = { 0, 2 * 1000 * 1000 };

		n = atomic_load(&h->in_flight);
		now = http_now_us();
		if (n > 0)
			quiet_since = now;
		else if (atomic_load(&h->open_conns) == 0 || now - quiet_since >= 100 * 1000)
			break;
		if (now >= until)
			break;
		nanosleep(&ts, NULL);
	}
	return n;
}

void
http_stop(struct http_server *h)
{
	if (h == NULL)
		return;
	/* Held refusals go first: libmicrohttpd stops no suspended connection. */
	tarpit_free(h->tarpit);
	MHD_stop_daemon(h->daemon);
	connguard_free(h->guard);
	close(h->listen_fd);
	if (h->cfg->listen_unix)
		unlink(h->cfg->listen_path);
	free(h);
}

void
http_connection_stats(struct http_server *h, uint64_t *open, uint64_t *refused, uint64_t *timed_out,
    uint64_t *shed)
{
	struct connguard_stats st;

	connguard_stats(h->guard, &st);
	*open = (uint64_t)atomic_load(&h->open_conns);
	*refused = st.refused;
	*timed_out = st.timed_out;
	*shed = atomic_load_explicit(&h->shed, memory_order_relaxed);
}

uint64_t
http_refusals_held(struct http_server *h)
{
	return tarpit_held(h->tarpit);
}

uint64_t
http_untrusted_forwarded(struct http_server *h)
{
	return atomic_load_explicit(&h->untrusted_xff, memory_order_relaxed);
}

int
http_in_flight(struct http_server *h)
{
	return atomic_load(&h->in_flight);
}
