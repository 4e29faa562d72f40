/*
 * handlers_web.c: the pages anyone can open in a browser (docs/web.md),
 * served from the table web/embed.py compiled into the daemon: /, a run's
 * page, a match's page, the verifier and the files they load from /static/.
 *
 * A page is a fixed file that fetches everything it shows from the JSON
 * routes, so these handlers never read the store and never see a token:
 * they pick an entry, its gzip copy when the client takes gzip, and answer
 * 304 when the client already holds it. Static files carry their content's
 * hash in their names and are cached for a year; pages are revalidated
 * (no-cache with a strong ETag), so a new build shows at once. Every page
 * is sent with a Content-Security-Policy that allows scripts, styles and
 * requests from this origin only (no inline script or style anywhere).
 *
 * Workload: one table walk (a dozen entries) and no copy per request.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "handlers.h"
#include "web_assets.h"

/* Scripts, styles, images and requests from this origin; nothing inline,
 * no plugin, no frame around the pages, no form posting elsewhere. */
#define WEB_CSP "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; " \
	"connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

static const struct web_asset *
find(const char *name)
{
	size_t i;

	for (i = 0; i < web_nassets; i++)
		if (strcmp(web_assets[i].name, name) == 0)
			return &web_assets[i];
	return NULL;
}

/* Whether an Accept-Encoding value takes gzip: a "gzip" or "*" element
 * whose q is not zero, and no "gzip;q=0" before a "*". */
static bool
takes_gzip(const char *ae)
{
	bool star = false, gz = false, gz_refused = false;
	const char *p = ae;

	while (p != NULL && *p != '\0') {
		size_t n, tok;
		const char *q;
		bool zero = false;

		p += strspn(p, " \t,");
		n = strcspn(p, ",");
		tok = strcspn(p, " \t;,");
		/* q=0, q=0.0, q=0.000: refused. */
		q = memchr(p, ';', n);
		if (q != NULL) {
			const char *v = q + 1;

			v += strspn(v, " \t");
			if ((v[0] == 'q' || v[0] == 'Q') && v[1] == '=') {
				v += 2;
				zero = v[0] == '0' && strspn(v + 1, ".0") == strcspn(v + 1, " \t,;");
			}
		}
		if (tok == 4 && strncasecmp(p, "gzip", 4) == 0) {
			gz = !zero;
			gz_refused = zero;
		} else if (tok == 1 && p[0] == '*')
			star = !zero;
		p += n;
	}
	return gz || (star && !gz_refused);
}

/* Whether If-None-Match names etag (weak comparison: W/ is ignored). */
static bool
holds(const char *inm, const char *etag)
{
	size_t elen = strlen(etag);
	const char *p = inm;

	while (p != NULL && *p != '\0') {
		size_t n;

		p += strspn(p, " \t,");
		if (strncmp(p, "W/", 2) == 0)
			p += 2;
		n = strcspn(p, " \t,");
		if ((n == 1 && p[0] == '*') || (n == elen && strncmp(p, etag, n) == 0))
			return true;
		p += n;
	}
	return false;
}

static void
serve(struct request *req, const char *name)
{
	static const char *const page_gz[] = {
		"Cache-Control", "no-cache", "Content-Security-Policy", WEB_CSP,
		"Referrer-Policy", "same-origin", "Vary", "Accept-Encoding",
		"Content-Encoding", "gzip", NULL };
	static const char *const page_plain[] = {
		"Cache-Control", "no-cache", "Content-Security-Policy", WEB_CSP,
		"Referrer-Policy", "same-origin", "Vary", "Accept-Encoding", NULL };
	static const char *const file_gz[] = {
		"Cache-Control", "public, max-age=31536000, immutable", "Vary", "Accept-Encoding",
		"Content-Encoding", "gzip", NULL };
	static const char *const file_plain[] = {
		"Cache-Control", "public, max-age=31536000, immutable", "Vary", "Accept-Encoding", NULL };
	const struct web_asset *a = find(name);
	const char *ae, *inm, *etag;
	bool gz;

	if (a == NULL) {
		request_reply_error(req, API_ERR_NOT_FOUND, NULL);
		return;
	}
	ae = request_header(req, "Accept-Encoding");
	gz = a->gz != NULL && ae != NULL && takes_gzip(ae);
	etag = gz ? a->etag_gz : a->etag;
	request_add_header(req, "ETag", etag);
	inm = request_header(req, "If-None-Match");
	if (inm != NULL && holds(inm, etag)) {
		request_reply_static(req, 304, NULL, "", 0, a->hashed ? file_plain : page_plain);
		return;
	}
	if (gz)
		request_reply_static(req, 200, a->type, a->gz, a->gzlen, a->hashed ? file_gz : page_gz);
	else
		request_reply_static(req, 200, a->type, a->data, a->len, a->hashed ? file_plain : page_plain);
}

/* The contract the daemon was built with (openapi.yaml, embedded as it
 * was at build time), for bot authors' client generators. */
void
handle_openapi(struct request *req)
{
	serve(req, "openapi.yaml");
}

void
handle_page_index(struct request *req)
{
	serve(req, "index.html");
}

void
handle_page_run(struct request *req)
{
	serve(req, "run.html");
}

void
handle_page_match(struct request *req)
{
	serve(req, "match.html");
}

void
handle_page_account(struct request *req)
{
	serve(req, "account.html");
}

void
handle_page_compare(struct request *req)
{
	serve(req, "compare.html");
}

void
handle_page_verify(struct request *req)
{
	serve(req, "verify.html");
}

void
handle_static(struct request *req)
{
	char path[sizeof req->params[0] + 8];

	snprintf(path, sizeof path, "/static/%s", req->params[0]);
	serve(req, path);
}
