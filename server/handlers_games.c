/*
 * handlers_games.c: the game routes, once for every game on the table.
 *
 *   /api/games/{game}/init|action|state|finish|rules
 *       stateToken routes: the state travels in the token; an optional
 *       Bearer key attributes a new run to its account.
 *   /games/{game}/api/new|act|state|finish|rules
 *       the seed's own routes, for games that have them (an abandon hook):
 *       bound to the Bearer key's account, whose newest run is the current
 *       one; the request plays inside the store job on the stored head.
 *
 * The router has found the game (routes.c). Each handler reads its
 * request's fields, in the order docs/api.md fixes, into a struct play and
 * hands it to the pipeline (play_submit, play.h), which does the rest:
 * the key, the agent check, the token, the game, the store and the answer.
 * Every refusal goes through play_refuse, which knows the route's shape.
 */
#include <stdio.h>
#include <string.h>

#include "app.h"
#include "defer.h"
#include "handlers.h"
#include "jsonbody.h"
#include "play.h"
#include "puzzle.h"

/* The stateToken of a state or finish request on the token routes:
 * ?stateToken= (GET) or the body field (POST). */
static bool
read_token(struct request *req, struct play *p)
{
	char msg[JSONBODY_MSG_MAX];

	if (req->method != HTTP_POST) {
		p->sent_token = request_query(req, "stateToken");
		if (p->sent_token == NULL)
			play_refuse(req, p, API_ERR_INVALID_REQUEST, "missing query 'stateToken'");
		return p->sent_token != NULL;
	}
	if (!jsonbody_string(req->json, "stateToken", &p->sent_token, msg, sizeof msg)) {
		play_refuse(req, p, API_ERR_INVALID_REQUEST, msg);
		return false;
	}
	return true;
}

/* rating (1-10) and review (1-GAMES_REVIEW_MAX characters of UTF-8).
 * False with msg for a 400. */
#define GAMES_REVIEW_MAX 2000

/* Characters that show nothing: white space, and the format characters
 * and fillers that render as nothing (zero-width spaces and joiners,
 * direction marks, word joiners, the Hangul fillers, variation
 * selectors). A review of these alone would be a blank entry. */
static bool
shows_nothing(uint32_t c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == 0xa0 || c == 0x3000 ||
	    (c >= 0x2000 && c <= 0x200f) || c == 0x2028 || c == 0x2029 || c == 0x202f ||
	    (c >= 0x205f && c <= 0x2064) || c == 0xfeff || c == 0x034f || c == 0x061c ||
	    c == 0x115f || c == 0x1160 || c == 0x180e || c == 0x3164 || c == 0xffa0 ||
	    (c >= 0xfe00 && c <= 0xfe0f) || (c >= 0xe0100 && c <= 0xe01ef);
}

/* What a review shown on the public feed must not hold: nothing but
 * characters that show nothing (above), a control character (C0 other
 * than tab and newline, DEL, C1), a bidirectional override or isolate
 * (U+202A-U+202E, U+2066-U+2069), which would reorder the page's text
 * around it, or a tag character (U+E0000-U+E007F), invisible text that
 * a reader cannot see but a program reading the feed would. s is valid
 * UTF-8 of n bytes. NULL when fine, else why. */
static const char *
review_refusal(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + n;
	bool visible = false;

	while (p < end) {
		uint32_t c;
		int k;

		if (p[0] < 0x80) {
			c = p[0];
			k = 1;
		} else if ((p[0] & 0xe0) == 0xc0) {
			c = (uint32_t)(p[0] & 0x1f) << 6 | (p[1] & 0x3f);
			k = 2;
		} else if ((p[0] & 0xf0) == 0xe0) {
			c = (uint32_t)(p[0] & 0x0f) << 12 | (uint32_t)(p[1] & 0x3f) << 6 | (p[2] & 0x3f);
			k = 3;
		} else {
			c = (uint32_t)(p[0] & 0x07) << 18 | (uint32_t)(p[1] & 0x3f) << 12 |
			    (uint32_t)(p[2] & 0x3f) << 6 | (p[3] & 0x3f);
			k = 4;
		}
		p += k;
		if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f || (c >= 0x80 && c < 0xa0))
			return "field 'review' must not hold control characters";
		if ((c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069))
			return "field 'review' must not hold bidirectional overrides or isolates";
		if (c >= 0xe0000 && c <= 0xe007f)
			return "field 'review' must not hold tag characters (invisible text)";
		if (!shows_nothing(c))
			visible = true;
	}
	return visible ? NULL : "field 'review' must hold more than white space and invisible characters";
}
static bool
read_review(struct request *req, int *rating, const char **review, char msg[JSONBODY_MSG_MAX])
{
	const json_t *r = req->json ? json_object_get(req->json, "rating") : NULL;
	size_t nchars = 0;
	int64_t v = 0;
	bool present;

	if (r == NULL) {
		snprintf(msg, JSONBODY_MSG_MAX, "missing field 'rating' (an integer 1-10)");
		return false;
	}
	if (!jsonbody_int(req->json, "rating", 1, 10, &present, &v, msg, JSONBODY_MSG_MAX) ||
	    !jsonbody_string(req->json, "review", review, msg, JSONBODY_MSG_MAX))
		return false;
	if (!jsonbody_utf8(*review, json_string_length(json_object_get(req->json, "review")), &nchars) ||
	    nchars < 1 || nchars > GAMES_REVIEW_MAX) {
		snprintf(msg, JSONBODY_MSG_MAX, "field 'review' must be 1-%d characters of UTF-8 text",
		    GAMES_REVIEW_MAX);
		return false;
	}
	{
		const char *why = review_refusal(*review, json_string_length(json_object_get(req->json,
		    "review")));

		if (why != NULL) {
			snprintf(msg, JSONBODY_MSG_MAX, "%s", why);
			return false;
		}
	}
	*rating = (int)v;
	return true;
}

/* ---- init and new ---- */

static void
init(struct request *req, const struct game *g, bool by_account)
{
	struct play *p = play_new(req, g, PLAY_INIT, by_account);
	struct game_request rq;
	char msg[JSONBODY_MSG_MAX];

	if (p == NULL)
		return;
	play_game_request(req, &rq);
	if (!game_init_fields_known(g, &rq, !by_account, msg, sizeof msg) ||
	    !game_read_seed(g, &rq, &p->run.seed, &p->run.seed_chosen, msg, sizeof msg)) {
		play_refuse(req, p, API_ERR_INVALID_REQUEST, msg);
		return;
	}
	play_submit(req, p);
}

void
handle_game_init(struct request *req, const struct game *g)
{
	init(req, g, false);
}

void
handle_account_new(struct request *req, const struct game *g)
{
	init(req, g, true);
}

/* ---- action and act ---- */

static void
act(struct request *req, const struct game *g, bool by_account)
{
	static const char *const token_field[] = { "stateToken", NULL };
	struct play *p = play_new(req, g, PLAY_ACTION, by_account);
	char msg[JSONBODY_MSG_MAX];

	if (p == NULL || !play_fields(req, p, token_field, g->action_fields))
		return;
	if (!by_account && !jsonbody_string(req->json, "stateToken", &p->sent_token, msg, sizeof msg)) {
		play_refuse(req, p, API_ERR_INVALID_REQUEST, msg);
		return;
	}
	if (!g->read_action(req->json, p->scratch, msg, sizeof msg)) {
		play_refuse(req, p, API_ERR_INVALID_REQUEST, msg);
		return;
	}
	play_submit(req, p);
}

void
handle_game_action(struct request *req, const struct game *g)
{
	act(req, g, false);
}

void
handle_account_act(struct request *req, const struct game *g)
{
	act(req, g, true);
}

/* ---- state ---- */

static void
state(struct request *req, const struct game *g, bool by_account)
{
	static const char *const token_field[] = { "stateToken", NULL };
	struct play *p = play_new(req, g, PLAY_STATE, by_account);

	if (p == NULL || !play_fields(req, p, token_field, NULL) ||
	    (!by_account && !read_token(req, p)))
		return;
	play_submit(req, p);
}

void
handle_game_state(struct request *req, const struct game *g)
{
	state(req, g, false);
}

void
handle_account_state(struct request *req, const struct game *g)
{
	state(req, g, true);
}

/* ---- finish ---- */

static void
finish(struct request *req, const struct game *g, bool by_account)
{
	static const char *const fields[] = { "stateToken", "rating", "review", NULL };
	struct play *p = play_new(req, g, PLAY_FINISH, by_account);
	char msg[JSONBODY_MSG_MAX];

	if (p == NULL || !play_fields(req, p, fields, NULL) || (!by_account && !read_token(req, p)))
		return;
	if (!read_review(req, &p->rating, &p->review, msg)) {
		play_refuse(req, p, API_ERR_INVALID_REQUEST, msg);
		return;
	}
	play_submit(req, p);
}

void
handle_game_finish(struct request *req, const struct game *g)
{
	finish(req, g, false);
}

void
handle_account_finish(struct request *req, const struct game *g)
{
	finish(req, g, true);
}

/* ---- rules ---- */

static json_t *
rules_body(struct request *req, const struct game *g)
{
	json_t *o = g->rules_json();

	if (o == NULL)
		return NULL;
	json_object_set_new(o, "agentCheck", json_boolean(req->app->cfg->agent_check[g->id]));
	json_object_set_new(o, "howToPlay", json_string(g->how_to_play));
	/* Every game's: an operator may turn the check on for any of them. */
	json_object_set_new(o, "agentCheckHelp", json_string(PUZZLE_HELP));
	return o;
}

static void
rules_done(struct request *req)
{
	/* The router found the game once; its name is still the path's. */
	const struct game *g = game_by_name(req->params[0], strlen(req->params[0]));
	json_t *o;

	if (!defer_committed(req)) {
		request_reply_error(req, API_ERR_INTERNAL, NULL);
		return;
	}
	o = rules_body(req, g);
	if (o != NULL)
		json_object_set_new(o, "agent_check", agent_fresh_json(req->ctx, store_now_ms()));
	request_reply_json(req, 200, o);
}

/* The rules as JSON; when the game's agent check is on, with a first
 * puzzle (stored before it goes out). */
static void
rules(struct request *req, const struct game *g)
{
	if (!req->app->cfg->agent_check[g->id])
		request_reply_json(req, 200, rules_body(req, g));
	else
		play_fresh_puzzle(req, 0, rules_done);
}

void
handle_game_rules(struct request *req, const struct game *g)
{
	rules(req, g);
}

void
handle_account_rules(struct request *req, const struct game *g)
{
	rules(req, g);
}
