/*
 * oauth.c: the authorization server's pure half (oauth.h). Everything it
 * hands out is sealed, so that any daemon sharing the key file opens what
 * another sealed, and nothing is stored; what must be remembered (a code
 * spent) is server/oauth.c's. The workload is small: a connector
 * registers once, authorizes now and then and refreshes its token about
 * once an hour; every /mcp request with an access token opens one here.
 */
#include "oauth.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <sodium.h>

#include "b64url.h"
#include "paseto.h"

static const char *const assertions[] = {
	[OAUTH_CLIENT] = "arcaded:oauth:client",
	[OAUTH_REQUEST] = "arcaded:oauth:request",
	[OAUTH_CODE] = "arcaded:oauth:code",
	[OAUTH_ACCESS] = "arcaded:oauth:access",
	[OAUTH_REFRESH] = "arcaded:oauth:refresh",
};

void
oauth_client_tag(const char *client_id, size_t len, char out[OAUTH_TAG_LEN + 1])
{
	uint8_t h[16];

	crypto_generichash(h, sizeof h, (const uint8_t *)client_id, len, NULL, 0);
	b64url_encode(out, h, sizeof h);
}

char *
oauth_seal(const struct keyring *kr, enum oauth_kind kind, json_t *claims)
{
	const struct keyring_key *k = keyring_current(kr);
	const char *a = assertions[kind];
	char footer[16 + PASERK_K4_ID_LEN], *m, *out = NULL;
	size_t mlen, flen, need;

	m = claims != NULL ? json_dumps(claims, JSON_COMPACT) : NULL;
	json_decref(claims);
	if (m == NULL)
		return NULL;
	mlen = strlen(m);
	flen = (size_t)snprintf(footer, sizeof footer, "{\"kid\":\"%s\"}", k->lid);
	need = paseto_v4_local_token_len(mlen, flen) + 1;
	if ((out = malloc(need)) != NULL &&
	    paseto_v4_local_encrypt(out, need, NULL, k->local, (const uint8_t *)m, mlen,
	    (const uint8_t *)footer, flen, (const uint8_t *)a, strlen(a)) != PASETO_OK) {
		free(out);
		out = NULL;
	}
	sodium_memzero(m, mlen);
	free(m);
	return out;
}

json_t *
oauth_open(const struct keyring *kr, enum oauth_kind kind, const char *text, size_t len,
    int64_t now)
{
	const char *a = assertions[kind], *kid;
	const struct keyring_key *k;
	uint8_t footer[128], *m = NULL;
	size_t flen, mlen;
	json_t *f = NULL, *claims = NULL, *exp;

	if (len == 0 || len > 16384 ||
	    paseto_v4_footer(PASETO_V4_LOCAL, text, len, footer, sizeof footer, &flen) != PASETO_OK ||
	    (f = json_loadb((const char *)footer, flen, JSON_REJECT_DUPLICATES, NULL)) == NULL ||
	    (kid = json_string_value(json_object_get(f, "kid"))) == NULL ||
	    (k = keyring_by_lid(kr, kid, strlen(kid))) == NULL || (m = malloc(len)) == NULL)
		goto done;
	if (paseto_v4_local_decrypt(m, len, &mlen, k->local, text, len, footer, flen,
	    (const uint8_t *)a, strlen(a)) != PASETO_OK)
		goto done;
	claims = json_loadb((const char *)m, mlen, JSON_REJECT_DUPLICATES, NULL);
	sodium_memzero(m, mlen);
	exp = json_object_get(claims, "exp");
	if (!json_is_object(claims) || (exp != NULL && (!json_is_integer(exp) ||
	    json_integer_value(exp) < now))) {
		json_decref(claims);
		claims = NULL;
	}
done:
	free(m);
	json_decref(f);
	return claims;
}

static bool
unreserved(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
	    c == '-' || c == '.' || c == '_' || c == '~';
}

bool
oauth_challenge_valid(const char *challenge)
{
	uint8_t h[crypto_hash_sha256_BYTES];
	size_t got;

	return challenge != NULL && strlen(challenge) == 43 &&
	    b64url_decode(h, sizeof h, challenge, 43, &got) && got == sizeof h;
}

bool
oauth_pkce_ok(const char *verifier, const char *challenge)
{
	uint8_t h[crypto_hash_sha256_BYTES];
	char mine[64];
	size_t n = verifier != NULL ? strlen(verifier) : 0, i;

	if (n < 43 || n > 128 || !oauth_challenge_valid(challenge))
		return false;
	for (i = 0; i < n; i++)
		if (!unreserved(verifier[i]))
			return false;
	crypto_hash_sha256(h, (const uint8_t *)verifier, n);
	b64url_encode(mine, h, sizeof h);
	return sodium_memcmp(mine, challenge, 43) == 0;
}

/* Whether the host of an http URI (after "http://") is a loopback name. */
static bool
loopback(const char *host)
{
	static const char *const names[] = { "127.0.0.1", "[::1]", "localhost" };
	size_t i, n;

	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		n = strlen(names[i]);
		if (strncasecmp(host, names[i], n) == 0 && (host[n] == '\0' || host[n] == ':' ||
		    host[n] == '/' || host[n] == '?'))
			return true;
	}
	return false;
}

bool
oauth_redirect_uri_ok(const char *uri)
{
	static const char *const never[] = { "javascript", "data", "file", "vbscript", "about", "blob" };
	size_t n = strlen(uri), s, i;

	if (n == 0 || n > OAUTH_URI_MAX || strchr(uri, '#') != NULL)
		return false;
	for (i = 0; i < n; i++)
		if ((unsigned char)uri[i] <= ' ' || (unsigned char)uri[i] >= 0x7f || uri[i] == '"' ||
		    uri[i] == '<' || uri[i] == '>' || uri[i] == '\\')
			return false;
	/* scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) */
	s = strspn(uri, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-.");
	if (s == 0 || uri[s] != ':' || !((uri[0] | 0x20) >= 'a' && (uri[0] | 0x20) <= 'z'))
		return false;
	for (i = 0; i < sizeof never / sizeof never[0]; i++)
		if (s == strlen(never[i]) && strncasecmp(uri, never[i], s) == 0)
			return false;
	if (s == 5 && strncasecmp(uri, "https", 5) == 0)
		return strncmp(uri + 6, "//", 2) == 0 && uri[8] != '\0' && uri[8] != '/';
	if (s == 4 && strncasecmp(uri, "http", 4) == 0)
		return strncmp(uri + 5, "//", 2) == 0 && loopback(uri + 7);
	return uri[s + 1] != '\0';
}

bool
oauth_client_redirects_to(const json_t *client, const char *uri)
{
	const json_t *r = json_object_get(client, "r"), *v;
	size_t i;

	json_array_foreach(r, i, v)
		if (json_is_string(v) && strcmp(json_string_value(v), uri) == 0)
			return true;
	return false;
}

static json_t *
reg_refuse(const char **error, char desc[OAUTH_DESC_MAX], const char *code, const char *text)
{
	*error = code;
	snprintf(desc, OAUTH_DESC_MAX, "%s", text);
	return NULL;
}

json_t *
oauth_register(const struct keyring *kr, const json_t *body, int64_t now, const char **error,
    char desc[OAUTH_DESC_MAX])
{
	const json_t *uris = json_object_get(body, "redirect_uris"), *v, *name_v;
	const char *method = json_string_value(json_object_get(body, "token_endpoint_auth_method"));
	char name[OAUTH_NAME_MAX + 1];
	json_t *claims, *answer;
	char *id;
	size_t i;

	if (!json_is_array(uris) || json_array_size(uris) == 0 ||
	    json_array_size(uris) > OAUTH_REDIRECTS_MAX)
		return reg_refuse(error, desc, "invalid_redirect_uri",
		    "redirect_uris must list 1 to 4 URIs");
	json_array_foreach(uris, i, v)
		if (!json_is_string(v) || !oauth_redirect_uri_ok(json_string_value(v)))
			return reg_refuse(error, desc, "invalid_redirect_uri", "a redirect URI must be https, "
			    "http to a loopback host, or a native app's scheme, without a fragment, "
			    "at most 512 characters");
	if (method != NULL && strcmp(method, "none") != 0 && strcmp(method, "client_secret_post") != 0 &&
	    strcmp(method, "client_secret_basic") != 0)
		return reg_refuse(error, desc, "invalid_client_metadata",
		    "token_endpoint_auth_method must be none: this server's clients are public");
	name_v = json_object_get(body, "client_name");
	snprintf(name, sizeof name, "%s", json_is_string(name_v) && json_string_length(name_v) > 0 ?
	    json_string_value(name_v) : "an MCP client");
	/* A name cut inside a character loses the character. */
	for (i = strlen(name); i > 0 && (name[i - 1] & 0xc0) == 0x80; i--)
		;
	if (i > 0 && (unsigned char)name[i - 1] >= 0xc0 && strlen(name) == OAUTH_NAME_MAX)
		name[i - 1] = '\0';
	claims = json_pack("{s:s, s:O, s:I}", "n", name, "r", uris, "iat", (json_int_t)now);
	if (claims == NULL || (id = oauth_seal(kr, OAUTH_CLIENT, claims)) == NULL)
		return reg_refuse(error, desc, "server_error", "out of memory");
	answer = json_pack("{s:s, s:I, s:s, s:O, s:[s, s], s:[s], s:s, s:s}", "client_id", id,
	    "client_id_issued_at", (json_int_t)now, "client_name", name, "redirect_uris", uris,
	    "grant_types", "authorization_code", "refresh_token", "response_types", "code",
	    "token_endpoint_auth_method", "none", "scope", OAUTH_SCOPE);
	free(id);
	if (answer == NULL)
		return reg_refuse(error, desc, "server_error", "out of memory");
	return answer;
}

json_t *
oauth_resource_metadata(const char *base)
{
	char resource[OAUTH_URI_MAX + 8];

	snprintf(resource, sizeof resource, "%s/mcp", base);
	return json_pack("{s:s, s:[s], s:[s], s:[s], s:s}", "resource", resource,
	    "authorization_servers", base, "bearer_methods_supported", "header",
	    "scopes_supported", OAUTH_SCOPE, "resource_name", "arcaded");
}

json_t *
oauth_server_metadata(const char *base)
{
	char a[OAUTH_URI_MAX + 32], t[OAUTH_URI_MAX + 32], r[OAUTH_URI_MAX + 32];

	snprintf(a, sizeof a, "%s/oauth/authorize", base);
	snprintf(t, sizeof t, "%s/oauth/token", base);
	snprintf(r, sizeof r, "%s/oauth/register", base);
	return json_pack("{s:s, s:s, s:s, s:s, s:[s], s:[s], s:[s, s], s:[s], s:[s], s:b, s:b}",
	    "issuer", base, "authorization_endpoint", a, "token_endpoint", t,
	    "registration_endpoint", r, "scopes_supported", OAUTH_SCOPE,
	    "response_types_supported", "code",
	    "grant_types_supported", "authorization_code", "refresh_token",
	    "code_challenge_methods_supported", "S256",
	    "token_endpoint_auth_methods_supported", "none",
	    "authorization_response_iss_parameter_supported", 1,
	    "client_id_metadata_document_supported", 0);
}



char *
oauth_redirect_url(const char *uri, const char *const *params)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t need = strlen(uri) + 2, i, o;
	const char *const *p;
	char *out, sep = strchr(uri, '?') != NULL ? '&' : '?';

	for (p = params; p[0] != NULL; p += 2)
		if (p[1] != NULL)
			need += strlen(p[0]) + 2 + 3 * strlen(p[1]);
	if ((out = malloc(need)) == NULL)
		return NULL;
	o = (size_t)snprintf(out, need, "%s", uri);
	for (p = params; p[0] != NULL; p += 2) {
		if (p[1] == NULL)
			continue;
		o += (size_t)snprintf(out + o, need - o, "%c%s=", sep, p[0]);
		sep = '&';
		for (i = 0; p[1][i] != '\0'; i++) {
			unsigned char c = (unsigned char)p[1][i];

			if (unreserved((char)c))
				out[o++] = (char)c;
			else {
				out[o++] = '%';
				out[o++] = hex[c >> 4];
				out[o++] = hex[c & 15];
			}
		}
		out[o] = '\0';
	}
	return out;
}

/* ---- pages ---- */

/* A growing text. */
struct page {
	char  *s;
	size_t n, cap;
	bool   failed;
};

static void
put(struct page *p, const char *s, size_t n)
{
	if (p->failed)
		return;
	if (p->n + n + 1 > p->cap) {
		size_t cap = (p->n + n + 1) * 2;
		char *t = realloc(p->s, cap);

		if (t == NULL) {
			p->failed = true;
			return;
		}
		p->s = t;
		p->cap = cap;
	}
	memcpy(p->s + p->n, s, n);
	p->n += n;
	p->s[p->n] = '\0';
}

static void
lit(struct page *p, const char *s)
{
	put(p, s, strlen(s));
}

/* Text of the client's, escaped for HTML text and attribute values. */
static void
esc(struct page *p, const char *s)
{
	for (; *s != '\0'; s++)
		switch (*s) {
		case '&': lit(p, "&amp;"); break;
		case '<': lit(p, "&lt;"); break;
		case '>': lit(p, "&gt;"); break;
		case '"': lit(p, "&quot;"); break;
		case '\'': lit(p, "&#39;"); break;
		default:
			if ((unsigned char)*s >= ' ' || *s == '\n')
				put(p, s, 1);
		}
}

static void
head(struct page *p, const char *title)
{
	lit(p, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
	    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>");
	esc(p, title);
	lit(p, " - arcaded</title></head><body><main>\n<h1>");
	esc(p, title);
	lit(p, "</h1>\n");
}

static char *
finish(struct page *p, size_t *len)
{
	lit(p, "</main></body></html>\n");
	if (p->failed) {
		free(p->s);
		return NULL;
	}
	*len = p->n;
	return p->s;
}

char *
oauth_page_consent(const char *client_name, const char *redirect_uri, const char *request,
    const char *note, size_t *len)
{
	struct page p = { 0 };
	char where[OAUTH_URI_MAX + 1];
	size_t n;

	/* The scheme and host the person goes back to: what to check. */
	snprintf(where, sizeof where, "%s", redirect_uri);
	n = strcspn(where, ":");
	if (strncmp(where + n, "://", 3) == 0)
		where[n + 3 + strcspn(where + n + 3, "/?")] = '\0';
	head(&p, "Connect an MCP client");
	lit(&p, "<p><strong>");
	esc(&p, client_name);
	lit(&p, "</strong> asks to use this server's MCP tools as your account: to play runs and "
	    "matches in its name and read its history. You go back to <code>");
	esc(&p, where);
	lit(&p, "</code> afterwards. Revoking the agent key you use here ends its access.</p>\n");
	if (note != NULL) {
		lit(&p, "<p role=\"alert\"><strong>");
		esc(&p, note);
		lit(&p, "</strong></p>\n");
	}
	lit(&p, "<h2>With an agent key</h2>\n<form method=\"post\" action=\"/oauth/authorize\">"
	    "<input type=\"hidden\" name=\"request\" value=\"");
	esc(&p, request);
	lit(&p, "\"><p><label>Agent key <input name=\"agent_key\" autocomplete=\"off\" size=\"66\" "
	    "required pattern=\"arcd_.*\"></label></p><p><button name=\"action\" value=\"key\">"
	    "Allow</button></p></form>\n"
	    "<h2>With a new account</h2>\n<form method=\"post\" action=\"/oauth/authorize\">"
	    "<input type=\"hidden\" name=\"request\" value=\"");
	esc(&p, request);
	lit(&p, "\"><p><label>Name <input name=\"name\" size=\"32\" minlength=\"3\" maxlength=\"32\" "
	    "pattern=\"[A-Za-z0-9_\\-]+\" required></label> (3-32 letters, digits, _ or -)</p>"
	    "<p><button name=\"action\" value=\"create\">Create the account</button></p></form>\n"
	    "<form method=\"post\" action=\"/oauth/authorize\"><input type=\"hidden\" name=\"request\" "
	    "value=\"");
	esc(&p, request);
	lit(&p, "\"><p><button name=\"action\" value=\"deny\">Deny</button></p></form>\n");
	return finish(&p, len);
}

char *
oauth_page_new_key(const char *name, const char *key, const char *request, size_t *len)
{
	struct page p = { 0 };

	head(&p, "Your new account");
	lit(&p, "<p>The account <strong>");
	esc(&p, name);
	lit(&p, "</strong> is made. Its agent key is shown only this once: keep it to play on the "
	    "REST routes or to connect another client.</p>\n<p><code>");
	esc(&p, key);
	lit(&p, "</code></p>\n<form method=\"post\" action=\"/oauth/authorize\">"
	    "<input type=\"hidden\" name=\"request\" value=\"");
	esc(&p, request);
	lit(&p, "\"><input type=\"hidden\" name=\"agent_key\" value=\"");
	esc(&p, key);
	lit(&p, "\"><p><button name=\"action\" value=\"key\">Continue</button></p></form>\n");
	return finish(&p, len);
}

char *
oauth_page_error(const char *message, size_t *len)
{
	struct page p = { 0 };

	head(&p, "This authorization cannot go on");
	lit(&p, "<p>");
	esc(&p, message);
	lit(&p, "</p>\n<p>Start again from the MCP client.</p>\n");
	return finish(&p, len);
}
