/*
 * test_routes_filter.c: routes_match, which tries a path only against
 * the patterns whose literal head and tail it has (f649b68) and takes an
 * exact route once its text equals the path (2b94158), against a plain
 * matcher written here over the same table: the two passes (routes
 * without a {param} first) and a segment by segment comparison of every
 * pattern, no filter. Random and adversarial paths (each pattern filled
 * in, then cut, stretched, doubled slashes, the head of one pattern on
 * the tail of another, parameters of 0 and of 79 to 81 bytes, the patterns'
 * own text, random bytes) with every method: the same route, the same
 * Allow bits and the same parameters.
 */
#include <stdlib.h>
#include <string.h>

#include "http.h"
#include "routes.h"
#include "tap.h"
#include "xorshift.h"

#define PARAM_ROOM (sizeof ((struct request *)0)->params[0])

/* The next segment of s (after a '/'): its length. */
static size_t
seg_len(const char *s)
{
	size_t n = 0;

	while (s[n] != '\0' && s[n] != '/')
		n++;
	return n;
}

/* Whether path is an instance of pattern, its {param} segments copied to
 * params: both begin with '/', have as many segments, the literal ones
 * equal, each parameter non-empty, shorter than a request's room, and no
 * more of them than the request holds. */
static bool
plain_match(const char *pattern, const char *path, char params[REQUEST_MAX_PARAMS][PARAM_ROOM])
{
	const char *p = pattern, *s = path;
	int np = 0;

	if (*p != '/' || *s != '/')
		return false;
	for (;;) {
		size_t pl, sl;

		p++, s++;
		pl = seg_len(p), sl = seg_len(s);
		if (pl > 0 && p[0] == '{' && p[pl - 1] == '}') {
			if (sl == 0 || sl >= PARAM_ROOM || np == REQUEST_MAX_PARAMS)
				return false;
			memcpy(params[np], s, sl);
			params[np++][sl] = '\0';
		} else if (pl != sl || memcmp(p, s, pl) != 0)
			return false;
		p += pl, s += sl;
		if (*p == '\0' || *s == '\0')
			return *p == '\0' && *s == '\0';
	}
}

/* The router without its filter: the routes without a {param} first,
 * then the others (only when none of the first matched the path at all);
 * a matching route with the method wins, else *allowed gathers the
 * methods of those that matched. */
static const struct route *
plain_router(const char *path, enum http_method method, struct request *req, unsigned *allowed)
{
	int pass;
	size_t i;

	*allowed = 0;
	for (pass = 0; pass < 2 && *allowed == 0; pass++)
		for (i = 0; i < nroutes; i++) {
			char params[REQUEST_MAX_PARAMS][PARAM_ROOM];

			memset(params, 0, sizeof params);
			if ((strchr(routes[i].pattern, '{') != NULL) != (pass == 1) ||
			    !plain_match(routes[i].pattern, path, params))
				continue;
			if (routes[i].methods & method) {
				memcpy(req->params, params, sizeof params);
				return &routes[i];
			}
			*allowed |= routes[i].methods;
		}
	return NULL;
}

static uint64_t rng = 0x6a09e667f3bcc909u;

static uint32_t
rnd(uint32_t n)
{
	return xorshift_below(&rng, n);
}

/* A parameter's text: short, empty, at the room's edge, or odd. */
static size_t
param_text(char *out)
{
	static const char *const odd[] = { "{id}", "}", "{", "%2F", ".", "..", "x y", "\xff" };
	size_t n, k;

	switch (rnd(8)) {
	case 0:
		return 0;
	case 1:
		n = PARAM_ROOM - 1 + rnd(3);
		memset(out, 'a' + (char)rnd(26), n);
		return n;
	case 2:
		k = rnd(8);
		n = strlen(odd[k]);
		memcpy(out, odd[k], n);
		return n;
	default:
		n = 1 + rnd(12);
		for (k = 0; k < n; k++)
			out[k] = "abcxyz0123456789-_"[rnd(18)];
		return n;
	}
}

/* A route's pattern with its {params} filled in. */
static size_t
fill(char *out, const char *pat)
{
	size_t n = 0;

	while (*pat != '\0') {
		if (*pat == '{') {
			n += param_text(out + n);
			pat = strchr(pat, '}') + 1;
		} else
			out[n++] = *pat++;
	}
	return n;
}

/* A path to route: mostly an instance of a pattern, often broken. */
static void
make_path(char *out, size_t cap)
{
	char a[1024], b[1024];
	size_t n, m, k;

	n = fill(a, routes[rnd((uint32_t)nroutes)].pattern);
	switch (rnd(12)) {
	case 0: { /* a pattern's own text */
		const char *pat = routes[rnd((uint32_t)nroutes)].pattern;

		n = strlen(pat);
		memcpy(a, pat, n);
		break;
	}
	case 1: /* cut short */
		n = n > 0 ? rnd((uint32_t)n) : 0;
		break;
	case 2: /* a byte more at the end */
		a[n++] = "/xs{}"[rnd(5)];
		break;
	case 3: /* a byte more inside */
		k = rnd((uint32_t)n + 1);
		memmove(a + k + 1, a + k, n - k);
		a[k] = "/xa-"[rnd(4)];
		n++;
		break;
	case 4: /* a slash doubled */
		for (k = rnd((uint32_t)n + 1); k < n && a[k] != '/'; k++)
			;
		if (k < n) {
			memmove(a + k + 1, a + k, n - k);
			n++;
		}
		break;
	case 5: /* a byte changed */
		if (n > 0)
			a[rnd((uint32_t)n)] = "/xAa{"[rnd(5)];
		break;
	case 6: /* the head of one path on the tail of another */
		m = fill(b, routes[rnd((uint32_t)nroutes)].pattern);
		n = rnd((uint32_t)n + 1);
		k = rnd((uint32_t)m + 1);
		memcpy(a + n, b + k, m - k);
		n += m - k;
		break;
	case 7: /* random bytes from the patterns' alphabet */
		n = rnd(40);
		for (k = 0; k < n; k++)
			a[k] = "/apimatchesgmruns{}x"[rnd(20)];
		break;
	default:
		break;
	}
	if (n >= cap)
		n = cap - 1;
	memcpy(out, a, n);
	out[n] = '\0';
}

int
main(int argc, char **argv)
{
	unsigned long paths = argc > 1 ? strtoul(argv[1], NULL, 10) : 200000, i, apart = 0, found = 0,
	    refused = 0;
	char first[512] = "";

	ok(nroutes > 20, "the table has its routes (%zu)", nroutes);
	for (i = 0; i < paths; i++) {
		static const enum http_method methods[] = { HTTP_GET, HTTP_POST, HTTP_PUT, HTTP_DELETE,
			HTTP_PATCH, HTTP_HEAD, HTTP_OPTIONS, HTTP_OTHER };
		enum http_method m = methods[rnd(8)];
		struct request a, b;
		unsigned aa = 12345, ab = 54321;
		const struct route *ra, *rb;
		char path[1024];
		const char *pat;
		size_t k;
		bool same;

		make_path(path, sizeof path);
		memset(&a, 0, sizeof a);
		memset(&b, 0, sizeof b);
		ra = routes_match(path, m, &a, &aa);
		rb = plain_router(path, m, &b, &ab);
		found += rb != NULL;
		refused += rb == NULL && ab != 0;
		/* The route's parameters, as strings: past their NUL, and past
		 * the route's count, req->params holds what routes_match's
		 * scratch array held (it copies the whole array). */
		same = ra == rb && aa == ab;
		for (pat = rb != NULL ? rb->pattern : "", k = 0; (pat = strchr(pat, '{')) != NULL; pat++)
			same = same && strcmp(a.params[k], b.params[k]) == 0, k++;
		if (!same) {
			if (apart++ == 0)
				snprintf(first, sizeof first, ": %.200s (method %d): %s [%.80s], allowed %u, not %s [%.80s], "
				    "allowed %u", path, (int)m, ra ? ra->name : "none", a.params[0], aa,
				    rb ? rb->name : "none", b.params[0], ab);
		}
	}
	ok(apart == 0, "routes_match answers what the unfiltered router answers (%lu paths, %lu "
	    "routed, %lu a 405, %lu apart)%s", paths, found, refused, apart, first);
	ok(found > paths / 20 && refused > paths / 20 && paths - found - refused > paths / 10,
	    "the paths reach routes, 405s and 404s alike");
	return tap_done();
}
