/*
 * oauth.c: the routes of the daemon's own authorization server for /mcp
 * (docs/mcp.md, "Connectors and OAuth"): the two metadata documents, the
 * registration, the consent page and its form, and the token endpoint.
 *
 * Everything handed out is sealed by api/mcp/oauth.c with the key file's
 * keys, so no table holds clients, codes or tokens. What is remembered is
 * the codes already spent, in this daemon's memory until they expire (60
 * s): a code opens once here. The access tokens themselves are checked on
 * /mcp by auth.c, which looks their agent key up on every request.
 *
 * Workload: a connector registers once and authorizes rarely; the token
 * endpoint sees one refresh an hour a connection. Registration and the
 * consent form are public and bounded by their rate classes (routes.c);
 * creating an account here pays the accounts class as POST
 * /api/v1/accounts does.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

#include "agentkey.h"
#include "app.h"
#include "auth.h"
#include "b64url.h"
#include "defer.h"
#include "handlers.h"
#include "oauth.h"
#include "ratelimit.h"
#include "throttle.h"

#define ORIGIN_MAX 256
#define FIELD_MAX  8192 /* a client_id holds its redirect URIs */

/* ---- the codes spent, until they expire ---- */

#define SPENT_MAX 4096
#define JTI_LEN   22

static struct {
	char    jti[JTI_LEN + 1];
	int64_t exp;
} spent[SPENT_MAX];
static size_t nspent;
static pthread_mutex_t spent_lock = PTHREAD_MUTEX_INITIALIZER;

/* Marks the code jti spent until exp: 1 when it was not, 0 when it was,
 * -1 when the set is full of codes not expired yet. */
static int
spend(const char *jti, int64_t exp, int64_t now)
{
	size_t i, kept = 0;
	int ret = 1;

	pthread_mutex_lock(&spent_lock);
	for (i = 0; i < nspent; i++) {
		if (spent[i].exp < now)
			continue;
		if (strcmp(spent[i].jti, jti) == 0)
			ret = 0;
		spent[kept++] = spent[i];
	}
	nspent = kept;
	if (ret == 1 && nspent == SPENT_MAX)
		ret = -1;
	if (ret == 1) {
		snprintf(spent[nspent].jti, sizeof spent[0].jti, "%s", jti);
		spent[nspent++].exp = exp;
	}
	pthread_mutex_unlock(&spent_lock);
	return ret;
}

/* ---- helpers ---- */

/* The form's field name (http.c has read the body into req->json) into
 * out: false when absent or cap bytes or longer. */
#define FORM_UNREAD "the form does not read: a value is not UTF-8 or holds a NUL"

static bool
form_get(struct request *req, const char *name, char *out, size_t cap)
{
	const json_t *v = req->json != NULL ? json_object_get(req->json, name) : NULL;
	size_t n;

	if (!json_is_string(v) || (n = json_string_length(v)) >= cap)
		return false;
	memcpy(out, json_string_value(v), n + 1);
	return true;
}

static int64_t
now_s(void)
{
	return (int64_t)time(NULL);
}

/* This daemon's origin, or a 400 answered (false). */
static bool
origin_of(struct request *req, char out[ORIGIN_MAX])
{
	if (request_public_origin(req, out, ORIGIN_MAX))
		return true;
	request_reply_error(req, API_ERR_INVALID_REQUEST,
	    "no usable Host header to name this server by (or set --public-url)");
	return false;
}

static void
resource_of(const char *origin, char out[ORIGIN_MAX + 8])
{
	snprintf(out, ORIGIN_MAX + 8, "%s/mcp", origin);
}

/* An OAuth error answer (RFC 6749 section 5.2, RFC 7591 section 3.2.2). */
static void
oauth_error(struct request *req, int status, const char *error, const char *desc)
{
	request_add_header(req, "Access-Control-Allow-Origin", "*");
	request_reply_json(req, status, json_pack("{s:s, s:s}", "error", error, "error_description", desc));
}

/* A page of HTML (text taken), with the pages' policy: nothing but this
 * page's forms, which post here and may be sent on to form_to too. */
static void
page(struct request *req, int status, char *text, size_t len, const char *form_to)
{
	char csp[ORIGIN_MAX + 200], to[ORIGIN_MAX] = "";

	if (form_to != NULL) {
		/* The redirect's origin (scheme://host[:port]), or its scheme
		 * alone: a browser holds the form's redirect to the policy. */
		size_t n = strcspn(form_to, ":");

		if (strncmp(form_to + n, "://", 3) == 0) {
			size_t h = n + 3 + strcspn(form_to + n + 3, "/?");

			if (h < sizeof to && strspn(form_to, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789+-.:[]/") >= h)
				snprintf(to, sizeof to, " %.*s", (int)h, form_to);
		}
		if (to[0] == '\0' && n + 1 < sizeof to &&
		    strspn(form_to, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-.") == n)
			snprintf(to, sizeof to, " %.*s:", (int)n, form_to);
	}
	snprintf(csp, sizeof csp, "default-src 'none'; form-action 'self'%s; base-uri 'none'; "
	    "frame-ancestors 'none'", to);
	request_add_header(req, "Content-Security-Policy", csp);
	request_add_header(req, "Referrer-Policy", "no-referrer");
	if (text == NULL) {
		request_reply_error(req, API_ERR_INTERNAL, "out of memory");
		return;
	}
	request_reply_text(req, status, "text/html; charset=utf-8", text, len);
	free(text);
}

static void
page_error(struct request *req, int status, const char *message)
{
	size_t len = 0;
	char *text = oauth_page_error(message, &len);

	page(req, status, text, len, NULL);
}

/* 302 to uri with the params (oauth_redirect_url). */
static void
redirect(struct request *req, const char *uri, const char *const *params)
{
	char *url = oauth_redirect_url(uri, params);

	if (url == NULL) {
		request_reply_error(req, API_ERR_INTERNAL, "out of memory");
		return;
	}
	request_add_header(req, "Location", url);
	request_add_header(req, "Referrer-Policy", "no-referrer");
	request_reply_text(req, 302, "text/plain; charset=utf-8", "", 0);
	free(url);
}

/* An authorization error sent back to the client (RFC 6749 4.1.2.1). */
static void
redirect_error(struct request *req, const char *uri, const char *state, const char *origin,
    const char *error, const char *desc)
{
	const char *params[] = { "error", error, "error_description", desc, "state", state,
		"iss", origin, NULL };

	redirect(req, uri, params);
}

/* ---- metadata ---- */

static void
metadata(struct request *req, json_t *(*doc)(const char *))
{
	char origin[ORIGIN_MAX];

	if (!origin_of(req, origin))
		return;
	request_add_header(req, "Access-Control-Allow-Origin", "*");
	request_reply_json(req, 200, doc(origin));
}

void
handle_oauth_resource(struct request *req)
{
	metadata(req, oauth_resource_metadata);
}

void
handle_oauth_server(struct request *req)
{
	metadata(req, oauth_server_metadata);
}

/* ---- registration (RFC 7591) ---- */

void
handle_oauth_register(struct request *req)
{
	char desc[OAUTH_DESC_MAX];
	const char *error = NULL;
	json_t *empty = req->json == NULL ? json_object() : NULL;
	json_t *answer = oauth_register(app_keys(req->app), req->json != NULL ? req->json : empty,
	    now_s(), &error, desc);

	json_decref(empty);
	if (answer == NULL) {
		oauth_error(req, strcmp(error, "server_error") == 0 ? 500 : 400, error, desc);
		return;
	}
	request_add_header(req, "Access-Control-Allow-Origin", "*");
	request_reply_json(req, 201, answer);
}

/* ---- the consent page ---- */

/* The consent page for the sealed request text and its claims. */
static void
consent(struct request *req, int status, const json_t *r, const char *sealed, const char *note)
{
	size_t len = 0;
	const char *uri = json_string_value(json_object_get(r, "u"));
	char *text = oauth_page_consent(json_string_value(json_object_get(r, "n")), uri, sealed, note,
	    &len);

	page(req, status, text, len, uri);
}

/* GET /oauth/authorize: the request checked (RFC 6749 4.1.1, PKCE S256,
 * RFC 8707's resource), sealed into the page's forms. */
void
handle_oauth_authorize(struct request *req)
{
	const struct keyring *kr = app_keys(req->app);
	const char *client_id = request_query(req, "client_id"), *uri = request_query(req, "redirect_uri");
	const char *state = request_query(req, "state"), *type = request_query(req, "response_type");
	const char *challenge = request_query(req, "code_challenge");
	const char *method = request_query(req, "code_challenge_method");
	const char *resource = request_query(req, "resource");
	char origin[ORIGIN_MAX], mine[ORIGIN_MAX + 8], tag[OAUTH_TAG_LEN + 1], *sealed = NULL;
	json_t *client = NULL, *r = NULL, *uris;

	if (!origin_of(req, origin))
		return;
	resource_of(origin, mine);
	if (client_id == NULL ||
	    (client = oauth_open(kr, OAUTH_CLIENT, client_id, strlen(client_id), now_s())) == NULL) {
		page_error(req, 400, "The client is not registered with this server (an unknown client_id).");
		goto done;
	}
	uris = json_object_get(client, "r");
	if (uri == NULL && json_array_size(uris) == 1)
		uri = json_string_value(json_array_get(uris, 0));
	if (uri == NULL || !oauth_client_redirects_to(client, uri)) {
		page_error(req, 400, "The redirect_uri is not one the client registered.");
		goto done;
	}
	if (state != NULL && strlen(state) > 512) {
		page_error(req, 400, "The state is longer than 512 characters.");
		goto done;
	}
	if (type == NULL || strcmp(type, "code") != 0)
		redirect_error(req, uri, state, origin, "unsupported_response_type",
		    "response_type must be code");
	else if (method == NULL || strcmp(method, "S256") != 0 || !oauth_challenge_valid(challenge))
		redirect_error(req, uri, state, origin, "invalid_request",
		    "PKCE is required: code_challenge_method S256 and a code_challenge");
	else if (resource != NULL && strcmp(resource, mine) != 0)
		redirect_error(req, uri, state, origin, "invalid_target",
		    "the resource must be this server's MCP endpoint");
	else {
		oauth_client_tag(client_id, strlen(client_id), tag);
		r = json_pack("{s:s, s:s, s:s, s:s, s:s, s:I}", "c", tag,
		    "n", json_string_value(json_object_get(client, "n")), "u", uri, "x", challenge,
		    "r", mine, "exp", (json_int_t)(now_s() + OAUTH_REQUEST_TTL));
		if (r != NULL && state != NULL)
			json_object_set_new(r, "s", json_string(state));
		if (r == NULL || (sealed = oauth_seal(kr, OAUTH_REQUEST, json_incref(r))) == NULL) {
			request_reply_error(req, API_ERR_INTERNAL, "out of memory");
			goto done;
		}
		consent(req, 200, r, sealed, NULL);
	}
done:
	free(sealed);
	json_decref(r);
	json_decref(client);
}

/* The code for the account of a checked key, sent back to the client. */
static void
grant(struct request *req, const json_t *r, const struct account_ref *acct, const char *origin)
{
	uint8_t j[16];
	char jti[JTI_LEN + 1], *code;
	const char *uri = json_string_value(json_object_get(r, "u"));

	randombytes_buf(j, sizeof j);
	b64url_encode(jti, j, sizeof j);
	code = oauth_seal(app_keys(req->app), OAUTH_CODE, json_pack("{s:O, s:s, s:O, s:O, s:I, s:s, s:s, s:I}",
	    "c", json_object_get(r, "c"), "u", uri, "x", json_object_get(r, "x"),
	    "r", json_object_get(r, "r"), "a", (json_int_t)acct->id, "k", acct->key_id, "j", jti,
	    "exp", (json_int_t)(now_s() + OAUTH_CODE_TTL)));
	if (code == NULL) {
		request_reply_error(req, API_ERR_INTERNAL, "out of memory");
		return;
	}
	{
		const char *params[] = { "code", code, "state",
			json_string_value(json_object_get(r, "s")), "iss", origin, NULL };

		redirect(req, uri, params);
	}
	free(code);
}

/* An account made from the consent page: the job, the request it goes
 * on with, and the new key, shown once. */
struct consent_ctx {
	struct store_account_new job;
	char                     name[STORE_NAME_MAX + 1];
	char                     key[AGENTKEY_LEN + 1];
	char                    *sealed;
	json_t                  *r;
};

static void
consent_ctx_free(void *p)
{
	struct consent_ctx *x = p;

	free(x->sealed);
	json_decref(x->r);
	sodium_memzero(x, sizeof *x);
	free(x);
}

static void
account_made(struct request *req)
{
	struct consent_ctx *x = req->ctx;
	size_t len = 0;
	char *text;

	if (!defer_committed(req)) {
		page_error(req, 503, "The account could not be stored; try again shortly.");
		return;
	}
	if (x->job.name_taken) {
		consent(req, 409, x->r, x->sealed, "That name is taken: choose another.");
		return;
	}
	text = oauth_page_new_key(x->name, x->key, x->sealed, &len);
	page(req, 201, text, len, NULL);
}

/* POST /oauth/authorize: the consent page's forms. */
void
handle_oauth_consent(struct request *req)
{
	const struct keyring *kr = app_keys(req->app);
	char origin[ORIGIN_MAX], *sealed = NULL, action[16] = "key", key[128], name[STORE_NAME_MAX + 1];
	char why[AUTH_WHY_MAX];
	const char *sent_origin = request_header(req, "Origin"), *uri;
	struct account_ref acct;
	struct consent_ctx *x;
	json_t *r = NULL;
	int status;

	if (!origin_of(req, origin))
		return;
	if (req->json == NULL) {
		page_error(req, 400, "The form could not be read.");
		return;
	}
	/* A form of this server's own page, not one another site posts. */
	if (sent_origin != NULL && strcmp(sent_origin, origin) != 0 && strcmp(sent_origin, "null") != 0) {
		page_error(req, 403, "The form was posted from another site.");
		return;
	}
	if ((sealed = malloc(FIELD_MAX)) == NULL) {
		request_reply_error(req, API_ERR_INTERNAL, "out of memory");
		return;
	}
	if (!form_get(req, "request", sealed, FIELD_MAX) ||
	    (r = oauth_open(kr, OAUTH_REQUEST, sealed, strlen(sealed), now_s())) == NULL) {
		page_error(req, 400, "This authorization request has expired or is not one of this "
		    "server's.");
		goto done;
	}
	uri = json_string_value(json_object_get(r, "u"));
	(void)form_get(req, "action", action, sizeof action);
	if (strcmp(action, "deny") == 0) {
		redirect_error(req, uri, json_string_value(json_object_get(r, "s")), origin,
		    "access_denied", "the person denied the request");
	} else if (strcmp(action, "create") == 0) {
		if (!form_get(req, "name", name, sizeof name) ||
		    !account_name_valid(name)) {
			consent(req, 400, r, sealed, "A name is 3-32 letters, digits, _ or -.");
			goto done;
		}
		/* As POST /api/v1/accounts: the accounts class pays. */
		req->rate_class = RATELIMIT_ACCOUNTS;
		if (!throttle_charge(req) ||
		    (x = request_ctx_new(req, sizeof *x, consent_ctx_free)) == NULL)
			goto done;
		snprintf(x->name, sizeof x->name, "%s", name);
		agentkey_generate(x->key, x->job.key_id);
		agentkey_hash(x->job.hash, x->key, strlen(x->key), kr->pepper);
		x->job.name = x->name;
		x->job.now = store_now_ms();
		x->sealed = sealed;
		x->r = r;
		sealed = NULL;
		r = NULL;
		defer_to_store(req, store_account_create, &x->job, account_made);
	} else if (!form_get(req, "agent_key", key, sizeof key)) {
		consent(req, 400, r, sealed, "Paste an agent key (arcd_...).");
	} else if (auth_key(req, key, strlen(key), &acct, &status, why) != AUTH_OK) {
		if (status == 401)
			consent(req, 400, r, sealed, why);
		else
			page_error(req, 503, "The key could not be checked; try again shortly.");
	} else
		grant(req, r, &acct, origin);
done:
	sodium_memzero(key, sizeof key);
	free(sealed);
	json_decref(r);
}

/* ---- the token endpoint ---- */

/* The access and refresh tokens of claims c (account, key, client,
 * resource), answered. */
static void
tokens(struct request *req, const json_t *c)
{
	const struct keyring *kr = app_keys(req->app);
	int64_t now = now_s();
	char *access, *refresh;

	access = oauth_seal(kr, OAUTH_ACCESS, json_pack("{s:O, s:O, s:O, s:O, s:I}", "a",
	    json_object_get(c, "a"), "k", json_object_get(c, "k"), "c", json_object_get(c, "c"),
	    "r", json_object_get(c, "r"), "exp", (json_int_t)(now + OAUTH_ACCESS_TTL)));
	refresh = oauth_seal(kr, OAUTH_REFRESH, json_pack("{s:O, s:O, s:O, s:O, s:I}", "a",
	    json_object_get(c, "a"), "k", json_object_get(c, "k"), "c", json_object_get(c, "c"),
	    "r", json_object_get(c, "r"), "exp", (json_int_t)(now + OAUTH_REFRESH_TTL)));
	if (access == NULL || refresh == NULL)
		oauth_error(req, 500, "server_error", "out of memory");
	else {
		request_add_header(req, "Access-Control-Allow-Origin", "*");
		request_reply_json(req, 200, json_pack("{s:s, s:s, s:i, s:s, s:s}", "access_token", access,
		    "token_type", "Bearer", "expires_in", OAUTH_ACCESS_TTL, "refresh_token", refresh,
		    "scope", OAUTH_SCOPE));
	}
	free(access);
	free(refresh);
}

/* Whether the agent key of claims c is live and its account's: false
 * after answering invalid_grant (or a 500). */
static bool
key_live(struct request *req, const json_t *c)
{
	const char *k = json_string_value(json_object_get(c, "k"));
	struct store_key_row row;
	struct store_conn *conn;
	enum store_result found;

	if (k == NULL || !agentkey_id_valid(k)) {
		oauth_error(req, 400, "invalid_grant", "the grant names no agent key");
		return false;
	}
	conn = store_reader(req->app->store);
	found = store_key_lookup(conn, k, &row);
	store_reader_release(req->app->store, conn);
	if (found == STORE_ERROR) {
		oauth_error(req, 500, "server_error", "the agent key could not be read");
		return false;
	}
	if (found == STORE_NOT_FOUND || row.revoked ||
	    row.account_id != json_integer_value(json_object_get(c, "a"))) {
		oauth_error(req, 400, "invalid_grant", "the agent key this grant was made with has been revoked");
		return false;
	}
	return true;
}

void
handle_oauth_token(struct request *req)
{
	const struct keyring *kr = app_keys(req->app);
	char grant_type[32], *client_id = NULL, *code = NULL, uri[OAUTH_URI_MAX + 1], verifier[160];
	char origin[ORIGIN_MAX], mine[ORIGIN_MAX + 8], resource[ORIGIN_MAX + 8], tag[OAUTH_TAG_LEN + 1];
	const char *c_tag, *c_res, *jti;
	bool has_resource;
	json_t *client = NULL, *c = NULL;
	enum oauth_kind kind;
	int64_t now = now_s();

	if (!origin_of(req, origin))
		return;
	if (req->json == NULL) {
		oauth_error(req, 400, "invalid_request", FORM_UNREAD);
		return;
	}
	resource_of(origin, mine);
	if ((client_id = malloc(FIELD_MAX)) == NULL || (code = malloc(FIELD_MAX)) == NULL) {
		oauth_error(req, 500, "server_error", "out of memory");
		goto done;
	}
	if (!form_get(req, "grant_type", grant_type, sizeof grant_type)) {
		oauth_error(req, 400, "invalid_request", "grant_type is required");
		goto done;
	}
	if (strcmp(grant_type, "authorization_code") == 0)
		kind = OAUTH_CODE;
	else if (strcmp(grant_type, "refresh_token") == 0)
		kind = OAUTH_REFRESH;
	else {
		oauth_error(req, 400, "unsupported_grant_type",
		    "grant_type must be authorization_code or refresh_token");
		goto done;
	}
	if (!form_get(req, "client_id", client_id, FIELD_MAX)) {
		oauth_error(req, 400, "invalid_request", "client_id is required (the clients are public)");
		goto done;
	}
	if ((client = oauth_open(kr, OAUTH_CLIENT, client_id, strlen(client_id), now)) == NULL) {
		oauth_error(req, 401, "invalid_client", "the client is not registered with this server");
		goto done;
	}
	if (!form_get(req, kind == OAUTH_CODE ? "code" : "refresh_token", code, FIELD_MAX) ||
	    (c = oauth_open(kr, kind, code, strlen(code), now)) == NULL) {
		oauth_error(req, 400, "invalid_grant", kind == OAUTH_CODE ?
		    "the code is not valid or has expired" : "the refresh token is not valid or has expired");
		goto done;
	}
	oauth_client_tag(client_id, strlen(client_id), tag);
	c_tag = json_string_value(json_object_get(c, "c"));
	if (c_tag == NULL || strcmp(c_tag, tag) != 0) {
		oauth_error(req, 400, "invalid_grant", "the grant was made to another client");
		goto done;
	}
	has_resource = form_get(req, "resource", resource, sizeof resource);
	c_res = json_string_value(json_object_get(c, "r"));
	if (c_res == NULL || (has_resource && strcmp(resource, c_res) != 0) || strcmp(c_res, mine) != 0) {
		oauth_error(req, 400, "invalid_target", "the resource must be this server's MCP endpoint, "
		    "the one the grant was made for");
		goto done;
	}
	if (kind == OAUTH_CODE) {
		const char *c_uri = json_string_value(json_object_get(c, "u"));

		if (c_uri == NULL || !form_get(req, "redirect_uri", uri, sizeof uri) ||
		    strcmp(uri, c_uri) != 0) {
			oauth_error(req, 400, "invalid_grant", "the redirect_uri differs from the authorization's");
			goto done;
		}
		if (!form_get(req, "code_verifier", verifier, sizeof verifier) ||
		    !oauth_pkce_ok(verifier, json_string_value(json_object_get(c, "x")))) {
			oauth_error(req, 400, "invalid_grant", "the code_verifier does not match the code_challenge");
			goto done;
		}
	}
	if (!key_live(req, c))
		goto done;
	if (kind == OAUTH_CODE) {
		int s = (jti = json_string_value(json_object_get(c, "j"))) == NULL ||
		    strlen(jti) != JTI_LEN ? 0 : spend(jti, json_integer_value(json_object_get(c, "exp")), now);

		if (s == 0) {
			oauth_error(req, 400, "invalid_grant", "the code has been used");
			goto done;
		}
		if (s < 0) {
			request_add_header(req, "Retry-After", "60");
			oauth_error(req, 503, "temporarily_unavailable", "too many codes at once: try again");
			goto done;
		}
	}
	tokens(req, c);
done:
	json_decref(c);
	json_decref(client);
	free(code);
	free(client_id);
}
