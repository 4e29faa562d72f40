/*
 * oauth.h: the daemon as the OAuth 2.1 authorization server of its own MCP
 * endpoint (docs/mcp.md, "Connectors and OAuth"). Pure functions: what is
 * sealed and opened, the metadata documents, PKCE, the redirect URIs a
 * client may register, and the consent pages' HTML (server/http.c reads
 * their form bodies with libmicrohttpd's post processor).
 *
 * Nothing here is stored. A registered client, a pending authorization
 * request, a code, an access token and a refresh token are each v4.local
 * PASETO sealed with the keyring's current key (the key id in the footer,
 * every key still opens), a kind of their own bound as the implicit
 * assertion so that one never opens as another, and a JSON object of
 * claims inside. Claims with "exp" (seconds since the epoch) no longer
 * open after it; the caller passes the time (api/ reads no clock).
 */
#ifndef API_OAUTH_H
#define API_OAUTH_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "keys.h"

enum oauth_kind {
	OAUTH_CLIENT,  /* a registered client: its name and redirect URIs; no expiry */
	OAUTH_REQUEST, /* an authorization request the consent page carries */
	OAUTH_CODE,    /* an authorization code */
	OAUTH_ACCESS,  /* an access token for /mcp */
	OAUTH_REFRESH, /* a refresh token */
};

/* Lifetimes, in seconds. */
#define OAUTH_REQUEST_TTL 900
#define OAUTH_CODE_TTL    60
#define OAUTH_ACCESS_TTL  3600
#define OAUTH_REFRESH_TTL (30 * 86400)

/* The one scope: the MCP endpoint as the account. */
#define OAUTH_SCOPE "mcp"

/* What a registration takes at most. */
#define OAUTH_REDIRECTS_MAX 4
#define OAUTH_URI_MAX       512
#define OAUTH_NAME_MAX      80

/* A client's tag: BLAKE2b-128 of its client_id, base64url. Codes and
 * tokens carry it instead of the id (which holds the redirect URIs). */
#define OAUTH_TAG_LEN 22
void oauth_client_tag(const char *client_id, size_t len, char out[OAUTH_TAG_LEN + 1]);

/* Seals claims (stolen) as kind under the current key: a malloc'd text,
 * NULL when out of memory. */
char *oauth_seal(const struct keyring *kr, enum oauth_kind kind, json_t *claims);

/* Opens text (len bytes) as kind: its claims (the caller's), or NULL when
 * it is not such a token of these keys or its "exp" is before now. */
json_t *oauth_open(const struct keyring *kr, enum oauth_kind kind, const char *text, size_t len,
    int64_t now);

/* Whether verifier (RFC 7636: 43-128 unreserved characters) hashes with
 * SHA-256 to challenge (base64url), compared in constant time. */
bool oauth_pkce_ok(const char *verifier, const char *challenge);

/* Whether challenge has the form of an S256 challenge (43 base64url). */
bool oauth_challenge_valid(const char *challenge);

/* Whether a client may register uri as a redirect URI: an absolute URI
 * without a fragment, https, http to a loopback host (127.0.0.1, [::1],
 * localhost), or a private-use scheme of a native app; never javascript,
 * data, file or vbscript. */
bool oauth_redirect_uri_ok(const char *uri);

/* A registration (RFC 7591) of body: the client's answer (201) with its
 * sealed client_id, or NULL with *error (static) and desc set. */
#define OAUTH_DESC_MAX 200
json_t *oauth_register(const struct keyring *kr, const json_t *body, int64_t now,
    const char **error, char desc[OAUTH_DESC_MAX]);

/* Whether the client's claims list uri among its redirect URIs. */
bool oauth_client_redirects_to(const json_t *client, const char *uri);

/* The metadata documents for an origin base ("https://host", no slash at
 * the end): the protected resource's (RFC 9728), whose resource is
 * base/mcp, and the authorization server's (RFC 8414). */
json_t *oauth_resource_metadata(const char *base);
json_t *oauth_server_metadata(const char *base);

/* uri with the query parameters (name, value pairs, NULL-terminated; a
 * NULL value skips its pair) added, percent-encoded: malloc'd, or NULL. */
char *oauth_redirect_url(const char *uri, const char *const *params);

/* The consent page: the client's name, where it sends the person back,
 * and two forms that post request (the sealed OAUTH_REQUEST) back to
 * /oauth/authorize, one with an agent key, one with a new account's name;
 * note, when set, is said above them (a refused key). */
char *oauth_page_consent(const char *client_name, const char *redirect_uri, const char *request,
    const char *note, size_t *len);

/* The page that shows a new account's key once, and posts it on. */
char *oauth_page_new_key(const char *name, const char *key, const char *request, size_t *len);

/* A page that says why the authorization cannot go on. */
char *oauth_page_error(const char *message, size_t *len);

#endif
