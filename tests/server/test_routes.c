/*
 * test_routes.c: the route table and the router the HTTP layer calls:
 * every route matches its own paths and methods, {name} segments reach
 * the request, a path matched with another method is a 405 whose Allow
 * header lists the route's methods (HEAD beside GET), an unknown path is
 * a 404, and HEAD is routed as GET.
 */
#include <stdlib.h>
#include <string.h>

#include "http.h"
#include "routes.h"
#include "tap.h"

static const struct route *
find(const char *path, enum http_method m, struct request *req, unsigned *allowed)
{
	memset(req, 0, sizeof *req);
	return routes_match(path, m, req, allowed);
}

int
main(void)
{
	struct request req;
	unsigned allowed;
	char allow[64];
	const struct route *r;
	size_t i;
	bool json = false;

	ok(nroutes > 20, "the table has its routes (%zu)", nroutes);
	for (i = 0; i < nroutes; i++) {
		char path[128], *p;
		const char *s = routes[i].pattern;
		unsigned bit;

		/* A concrete path for the pattern: each {name} becomes "x". */
		for (p = path; *s != '\0' && p < path + sizeof path - 2; s++) {
			if (*s == '{') {
				*p++ = 'x';
				s = strchr(s, '}');
			} else
				*p++ = *s;
		}
		*p = '\0';
		for (bit = HTTP_GET; bit <= HTTP_HEAD; bit <<= 1) {
			if (!(routes[i].methods & bit))
				continue;
			r = find(path, (enum http_method)bit, &req, &allowed);
			if (!ok(r == &routes[i], "%s matches %s (method bit %u)", path, routes[i].name, bit))
				break;
		}
	}

	r = find("/api/games/stackfall/runs/123", HTTP_GET, &req, &allowed);
	ok(r != NULL && strcmp(r->name, "run_get") == 0 && strcmp(req.params[0], "stackfall") == 0 &&
	    strcmp(req.params[1], "123") == 0, "{game} and {runId} reach the request in order");
	r = find("/api/games/stackfall/runs/", HTTP_GET, &req, &allowed);
	ok(r == NULL && allowed == 0, "an empty {name} segment matches nothing");
	r = find("/api/games/stackfall/runs/1/2", HTTP_GET, &req, &allowed);
	ok(r == NULL && allowed == 0, "extra segments match nothing");
	r = find("/nowhere", HTTP_GET, &req, &allowed);
	ok(r == NULL && allowed == 0, "an unknown path: no route, no methods (404)");
	r = find("/healthz/", HTTP_GET, &req, &allowed);
	ok(r == NULL && allowed == 0, "a trailing slash is another path");

	r = find("/metrics", HTTP_DELETE, &req, &allowed);
	routes_allow_header(allowed, allow, sizeof allow);
	ok(r == NULL && allowed == (HTTP_GET | HTTP_HEAD) && strcmp(allow, "GET, HEAD") == 0,
	    "DELETE /metrics: 405, Allow \"%s\"", allow);
	r = find("/api/games/duskcourt/init", HTTP_PUT, &req, &allowed);
	routes_allow_header(allowed, allow, sizeof allow);
	ok(r == NULL && strcmp(allow, "GET, POST") == 0,
	    "PUT on init: Allow \"%s\" (no HEAD: a GET there makes a run)", allow);
	r = find("/api/games/duskcourt/action", HTTP_GET, &req, &allowed);
	routes_allow_header(allowed, allow, sizeof allow);
	ok(r == NULL && strcmp(allow, "POST") == 0, "GET on action: Allow \"%s\"", allow);
	r = find("/api/v1/me/keys/abc", HTTP_GET, &req, &allowed);
	routes_allow_header(allowed, allow, sizeof allow);
	ok(r == NULL && strcmp(allow, "DELETE") == 0, "GET on a key: Allow \"%s\"", allow);

	/* The router: HEAD where a GET changes nothing; the route's index and
	 * JSON flag come back. */
	memset(&req, 0, sizeof req);
	req.path = "/healthz";
	req.method = HTTP_HEAD;
	i = (size_t)routes_router.match(&req, &allowed, &json);
	ok(i < nroutes && strcmp(routes[i].name, "healthz") == 0 && !json, "HEAD /healthz routes to healthz");
	req.path = "/api/games/duskcourt/init";
	ok(routes_router.match(&req, &allowed, &json) < 0 && allowed == (HTTP_GET | HTTP_POST),
	    "HEAD on init is a 405: it would make a run");
	req.path = "/api/v1/agent-check";
	ok(routes_router.match(&req, &allowed, &json) < 0, "HEAD on agent-check is a 405: it stores a puzzle");
	req.path = "/api/games/stackfall/action";
	req.method = HTTP_POST;
	i = (size_t)routes_router.match(&req, &allowed, &json);
	ok(i < nroutes && json, "a game action's body is parsed as JSON");
	req.path = "/api/games/stackfall/action";
	req.method = HTTP_OTHER;
	ok(routes_router.match(&req, &allowed, &json) < 0 && allowed == HTTP_POST,
	    "an unknown method is a 405 with the route's methods");
	ok(strcmp(routes_label(0), routes[0].name) == 0 && strcmp(routes_label(nroutes), "unmatched") == 0,
	    "metrics labels are the route names, then \"unmatched\"");
	return tap_done();
}
