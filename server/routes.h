/*
 * routes.h: the route table, one entry per method set and path pattern, in
 * one place (routes.c). A pattern is a path whose segments may be
 * `{name}`: such a segment matches any non-empty segment and is copied
 * into req->params in order.
 */
#ifndef SERVER_ROUTES_H
#define SERVER_ROUTES_H

#include <stdbool.h>
#include <stddef.h>

#include "http.h"

struct game;

typedef void (*route_handler)(struct request *req);
/* A handler of a route whose first parameter is {game}: the router has
 * looked the game up (and answered 404 for a name that is none of ours). */
typedef void (*route_game_handler)(struct request *req, const struct game *g);

/* A route's rate-limit class (enum ratelimit_class), or none. */
#define ROUTE_UNLIMITED (-1)

struct route {
	unsigned      methods;  /* enum http_method bits */
	const char   *pattern;
	route_handler handler;  /* NULL on a game route */
	route_game_handler game; /* a game route: params[0] names the game */
	bool          seed;     /* a game route of the seed's own shape: only for the
	                           games that have those routes (an abandon hook) */
	const char   *name;     /* the label in /metrics */
	bool          json;     /* the body is a JSON object, parsed before the handler */
	int           rate;     /* enum ratelimit_class, or ROUTE_UNLIMITED */
	bool          form;     /* the body is a form, left unparsed (http.h's form_body) */
};

extern const struct route routes[];
extern const size_t nroutes;

/* The route for path and method, with its parameters written into req.
 * NULL when nothing matches; *allowed then holds the methods of the routes
 * whose pattern matched (0: an unknown path, else a 405). */
const struct route *routes_match(const char *path, enum http_method method,
    struct request *req, unsigned *allowed);

/* Whether a request of r over its rate limit is refused once its body is
 * in, with the run its stateToken holds (the token routes' action, state
 * and finish), rather than at the headers. */
bool routes_show_run_when_limited(const struct route *r);

/* "GET, POST" for a set of methods. */
void routes_allow_header(unsigned methods, char *out, size_t cap);

/* The router the HTTP layer calls (http.h): matching on the route table,
 * running the matched handler. */
extern const struct http_router routes_router;

/* The metrics labels: the routes' names, in table order. */
const char *routes_label(size_t i);

#endif
