/*
 * mcp_prompts.c: prompts/list and prompts/get (mcp_prompts.h).
 *
 * Every prompt is made from the tables: a game's from its descriptor
 * (title, how_to_play, whether an init may name a seed, its options and
 * their bounds, whether its action route takes commands, whether its
 * agent check is on by default), play_match from the match rulesets'
 * names and seat bounds. An argument is text (the protocol's arguments
 * are strings): a whole number within its bounds, or the match's id or
 * ruleset; an empty string counts as absent, as some clients send one for
 * an argument left blank. The text is written into a fixed buffer, so a
 * prompt is bounded whatever the arguments.
 */
#include "mcp_prompts.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "game.h"
#include "match_rules.h"
#include "mcp_codes.h"
#include "mcp_tools.h"

/* One argument of a prompt. */
enum parg_kind { PARG_NUMBER, PARG_ID, PARG_RULES };

struct parg {
	const char    *name;
	enum parg_kind kind;
	int64_t        lo, hi;       /* PARG_NUMBER */
	char           help[320];
};

/* seed and GAME_OPTIONS_MAX options; matchId, players and rules. */
#define PARGS_MAX (1 + GAME_OPTIONS_MAX)

/* Whether an init of g may name its seed (a seedless game's is 0, a game
 * with seed_of has the one its options give). */
static bool
takes_seed(const struct game *g)
{
	return !g->seedless && game_ext(g)->seed_of == NULL;
}

static bool
takes_commands(const struct game *g)
{
	const char *const *f;

	for (f = g->action_fields; f != NULL && *f != NULL; f++)
		if (strcmp(*f, "command") == 0)
			return true;
	return false;
}

/* The arguments of g's prompt into a[0..PARGS_MAX); their count. */
static size_t
game_args(const struct game *g, struct parg *a)
{
	size_t n = 0, i;

	if (takes_seed(g)) {
		a[n] = (struct parg){ "seed", PARG_NUMBER, 0, ENGINE_ID_MAX, "" };
		snprintf(a[n].help, sizeof a[n].help, "the deal, a whole number from 0 to %" PRId64
		    ": the same seed deals the same game (random when absent)", (int64_t)ENGINE_ID_MAX);
		n++;
	}
	for (i = 0; i < g->noptions && n < PARGS_MAX; i++, n++) {
		const struct game_option *o = &g->options[i];

		a[n] = (struct parg){ o->name, PARG_NUMBER, o->min, o->max, "" };
		snprintf(a[n].help, sizeof a[n].help, "%s; a whole number from %" PRId64 " to %" PRId64,
		    o->help, o->min, o->max);
	}
	return n;
}

/* The seats a match of any ruleset may have. */
static void
seat_bounds(int64_t *lo, int64_t *hi)
{
	size_t i;

	*lo = MATCH_PLAYERS_MAX;
	*hi = 2;
	for (i = 0; i < MATCH_RULES__COUNT; i++) {
		if ((int64_t)match_rules_table[i]->players_min < *lo)
			*lo = match_rules_table[i]->players_min;
		if ((int64_t)match_rules_table[i]->players_max > *hi)
			*hi = match_rules_table[i]->players_max;
	}
}

static size_t
match_args(struct parg *a)
{
	char names[256];
	int64_t lo, hi;

	seat_bounds(&lo, &hi);
	match_rules_names(names, sizeof names);
	a[0] = (struct parg){ "matchId", PARG_ID, 0, 0, "" };
	snprintf(a[0].help, sizeof a[0].help, "the id of a match in its lobby to join (decimal text); "
	    "when absent, a new match is created");
	a[1] = (struct parg){ "players", PARG_NUMBER, lo, hi, "" };
	snprintf(a[1].help, sizeof a[1].help, "the seats of a new match, a whole number from %" PRId64
	    " to %" PRId64 " (%" PRId64 " when absent)", lo, hi, lo);
	a[2] = (struct parg){ "rules", PARG_RULES, 0, 0, "" };
	snprintf(a[2].help, sizeof a[2].help, "the ruleset of a new match, one of %s (%s when absent)",
	    names, match_rules_default()->name);
	return 3;
}

/* play_match's description, into out: "Play a versus match (versus-v1)". */
static const char *
match_description(char *out, size_t cap)
{
	char names[200];

	snprintf(out, cap, "Play a versus match (%s)", match_rules_names(names, sizeof names));
	return out;
}

/* ---- the list ---- */

static json_t *
prompt_entry(const char *name, const char *title, const char *description, const struct parg *a,
    size_t n)
{
	json_t *args = json_array();
	size_t i;

	for (i = 0; i < n; i++)
		json_array_append_new(args, json_pack("{s:s, s:s, s:b}", "name", a[i].name, "description",
		    a[i].help, "required", 0));
	return json_pack("{s:s, s:s, s:s, s:o}", "name", name, "title", title, "description", description,
	    "arguments", args);
}

json_t *
mcp_prompts_list(const json_t *params, bool modern, int *code, char *msg, size_t cap)
{
	const json_t *cursor = json_object_get(params, "cursor");
	struct parg a[PARGS_MAX];
	json_t *list, *o;
	size_t i, n;
	char names[256];

	*code = 0;
	if (cursor != NULL && !json_is_null(cursor)) {
		/* One page, so no cursor was ever handed out. */
		*code = MCP_INVALID_PARAMS;
		if (!json_is_string(cursor))
			snprintf(msg, cap, "prompts/list: params.cursor must be a string");
		else
			snprintf(msg, cap, "prompts/list: invalid cursor '%.60s' (the list is one page and hands "
			    "out no cursor)", json_string_value(cursor));
		return NULL;
	}
	if ((list = json_array()) == NULL)
		return NULL;
	for (i = 0; i < GAME__COUNT; i++) {
		const struct game *g = game_table[i];
		char name[64], title[96], description[128];

		snprintf(name, sizeof name, MCP_PROMPT_PREFIX "%s", g->name);
		snprintf(title, sizeof title, "Play %s", g->title);
		snprintf(description, sizeof description, "Play a game of %s", g->title);
		n = game_args(g, a);
		json_array_append_new(list, prompt_entry(name, title, description, a, n));
	}
	n = match_args(a);
	json_array_append_new(list, prompt_entry(MCP_PROMPT_MATCH, "Play a versus match",
	    match_description(names, sizeof names), a, n));
	o = json_pack("{s:o}", "prompts", list);
	if (o != NULL && modern) {
		json_object_set_new(o, "ttlMs", json_integer(MCP_PROMPTS_TTL_MS));
		json_object_set_new(o, "cacheScope", json_string("public"));
	}
	return o;
}

/* ---- reading the arguments ---- */

/* Whether s is a whole number (an optional '-', 1 to 18 digits) within
 * lo..hi, into *v. */
static bool
whole_number(const char *s, int64_t lo, int64_t hi, int64_t *v)
{
	bool neg = *s == '-';
	int64_t x = 0;
	size_t d;

	s += neg;
	for (d = 0; s[d] >= '0' && s[d] <= '9'; d++) {
		if (d == 18)
			return false;
		x = x * 10 + (s[d] - '0');
	}
	if (d == 0 || s[d] != '\0')
		return false;
	*v = neg ? -x : x;
	return *v >= lo && *v <= hi;
}

static bool
is_id(const char *s)
{
	size_t n = strspn(s, "0123456789");

	return n >= 1 && n <= 19 && s[n] == '\0';
}

/* What an argument was given: its text, or NULL when absent. */
struct given {
	const char *text[PARGS_MAX];
};

/* Reads params.arguments against a[0..n) for the prompt name into g;
 * false with msg. */
static bool
read_args(const char *name, const json_t *args, const struct parg *a, size_t n, struct given *g,
    char *msg, size_t cap)
{
	const char *key;
	const json_t *v;
	size_t i;

	memset(g, 0, sizeof *g);
	if (args == NULL || json_is_null(args))
		return true;
	if (!json_is_object(args)) {
		snprintf(msg, cap, "%s: params.arguments must be an object of strings", name);
		return false;
	}
	json_object_foreach((json_t *)args, key, v) {
		for (i = 0; i < n; i++)
			if (strcmp(a[i].name, key) == 0)
				break;
		if (i == n) {
			char taken[160];
			size_t k, len = 0;

			taken[0] = '\0';
			for (k = 0; k < n && len < sizeof taken; k++)
				len += (size_t)snprintf(taken + len, sizeof taken - len, "%s%s", k ? ", " : "",
				    a[k].name);
			if (n == 0)
				snprintf(msg, cap, "%s: unknown argument '%.60s' (this prompt takes none)", name, key);
			else
				snprintf(msg, cap, "%s: unknown argument '%.60s' (this prompt takes %s)", name, key,
				    taken);
			return false;
		}
		if (!json_is_string(v)) {
			snprintf(msg, cap, "%s: argument '%s' must be a string", name, a[i].name);
			return false;
		}
		if (json_string_length(v) == 0)
			continue; /* left blank: absent */
		g->text[i] = json_string_value(v);
		switch (a[i].kind) {
		case PARG_NUMBER: {
			int64_t x;

			if (!whole_number(g->text[i], a[i].lo, a[i].hi, &x)) {
				snprintf(msg, cap, "%s: argument '%s' must be a whole number from %" PRId64 " to %"
				    PRId64 ", not '%.40s'", name, a[i].name, a[i].lo, a[i].hi, g->text[i]);
				return false;
			}
			break;
		}
		case PARG_ID:
			if (!is_id(g->text[i])) {
				snprintf(msg, cap, "%s: argument '%s' must be an id in decimal text, not '%.40s'", name,
				    a[i].name, g->text[i]);
				return false;
			}
			break;
		case PARG_RULES:
			if (match_rules_by_name(g->text[i]) == NULL) {
				char names[200];

				snprintf(msg, cap, "%s: argument '%s' must be one of %s, not '%.40s'", name, a[i].name,
				    match_rules_names(names, sizeof names), g->text[i]);
				return false;
			}
			break;
		}
	}
	return true;
}

/* ---- the text ---- */

struct text {
	char   buf[MCP_PROMPT_TEXT_MAX];
	size_t len;
	bool   cut;
};

__attribute__((format(printf, 2, 3)))
static void
put(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (t->cut)
		return;
	va_start(ap, fmt);
	k = vsnprintf(t->buf + t->len, sizeof t->buf - t->len, fmt, ap);
	va_end(ap);
	if (k < 0 || (size_t)k >= sizeof t->buf - t->len)
		t->cut = true;
	else
		t->len += (size_t)k;
}

/* o's compact text with spaces, as an agent reads it: {"game": "x", ...}. */
static void
put_json(struct text *t, const json_t *o)
{
	char *s = o != NULL ? json_dumps(o, JSON_PRESERVE_ORDER) : NULL;

	if (s == NULL)
		t->cut = true;
	else
		put(t, "%s", s);
	free(s);
}

static void
game_text(struct text *t, const struct game *g, const struct parg *a, size_t n, const struct given *gv)
{
	json_t *start = json_pack("{s:s}", "game", g->name);
	size_t i;

	for (i = 0; i < n && start != NULL; i++) {
		int64_t v;

		if (gv->text[i] != NULL && whole_number(gv->text[i], a[i].lo, a[i].hi, &v))
			json_object_set_new(start, a[i].name, json_integer((json_int_t)v));
	}
	put(t, "Play a run of %s on this arcaded server through its MCP tools, and play it as well as "
	    "you can: think before each move, and aim for the best result the rules allow.\n\n", g->title);
	put(t, "The rules of %s:\n\n%s\n\n", g->title, g->how_to_play);
	put(t, "How to play it here:\n\n1. Start: call start_run with ");
	put_json(t, start);
	put(t, ". Its text block holds the run's figures, the board drawn as text%s and the run's "
	    "handle (runId-xxxxxxxx), in a last line that says what to call next.\n",
	    takes_commands(g) ? "" : ", the legal actions");
	put(t, "2. Move: choose your move by the rules, then call act with {\"game\": \"%s\", "
	    "\"handle\": <the run's handle>, \"action\": <your move>}. ", g->name);
	if (takes_commands(g))
		put(t, "The action is a command as the rules above write it, sent as a string.");
	else
		put(t, "The action is one of the result's legalActions: the object as it is listed, or its "
		    "short form as the result's text block writes it.");
	put(t, " The handle stays the same for the whole run: the server plays on its newest state "
	    "(a stateToken, in structuredContent, works too). Go on move after move; get_state reads "
	    "the run again, get_rules gives the rules as JSON.\n");
	put(t, "3. Refusals: a result with isError true refused the call (an illegal move, a "
	    "misnamed argument, a mistyped handle); its text says why and what to send, and shows the "
	    "run as it stands where there is one, so read it and go on from there. When a result carries agentCheck, answer its puzzle in the next "
	    "call's agentCheck argument: {\"token\": <its token>, \"answer\": <the number>}%s.\n",
	    g->check_default ? " (this game's agent check is on unless the operator turned it off)" : "");
	put(t, "4. Finish: once the run is over by the rules, call finish_run with {\"game\": \"%s\", "
	    "\"handle\": <the run's handle>, \"rating\": <1 to 10>, \"review\": <your review of "
	    "the game, 1 to 2000 characters>}. It answers the final summary and the run's signed "
	    "certificate. finish_run refuses a run that is not over yet: then play on.\n", g->name);
	json_decref(start);
}

static void
match_text(struct text *t, const struct parg *a, const struct given *gv)
{
	json_t *open;
	char names[200];
	int64_t players, lo, hi;

	match_rules_names(names, sizeof names);
	seat_bounds(&lo, &hi);
	put(t, "Play a versus match on this arcaded server through its MCP tools, and play to win: "
	    "think before each move.\n\n");
	put(t, "A match is played in turns by %" PRId64 " to %" PRId64 " players at once, each on its "
	    "own board; its ruleset (%s) decides what a move is and who wins. The match tools act for "
	    "the account of your agent key, which goes in the Authorization: Bearer header of the MCP "
	    "request (never in an argument): without one they are refused.\n\n", lo, hi, names);
	put(t, "How to play it here:\n\n");
	if (gv->text[0] != NULL) {
		open = json_pack("{s:s}", "matchId", gv->text[0]);
		put(t, "1. Sit down: call join_match with ");
		put_json(t, open);
		put(t, ". It takes the next seat of the match in its lobby; the last seat taken starts the "
		    "match.\n");
	} else {
		players = lo;
		if (gv->text[1] != NULL)
			whole_number(gv->text[1], a[1].lo, a[1].hi, &players);
		open = json_pack("{s:I}", "players", (json_int_t)players);
		if (open != NULL && gv->text[2] != NULL)
			json_object_set_new(open, "rules", json_string(gv->text[2]));
		put(t, "1. Sit down: call create_match with ");
		put_json(t, open);
		put(t, ". It opens a match in its lobby with you in seat 0; tell its match_id to the other "
		    "players, who join it with join_match. The last seat taken starts the match.\n");
	}
	json_decref(open);
	put(t, "2. Wait: the answer's \"you\" is your seat. While the match is in its lobby, call "
	    "wait_match with {\"matchId\": <its id>, \"afterTurn\": 0}: it answers once the match has "
	    "started or a turn has resolved, or after 25 seconds as it stands; call it again until the "
	    "status is playing.\n");
	put(t, "3. Move: every turn, read the match (your seat's board and pieces, and the others' "
	    "boards), choose your move by the rules of the ruleset and call "
	    "match_move with {\"matchId\": <its id>, \"turn\": <the match's turn + 1>, \"command\": <your "
	    "move>}: " MCP_MATCH_MOVES ". A turn has a deadline (deadline_in_ms): a move not sent by "
	    "then misses the turn, which the ruleset punishes.\n");
	put(t, "4. Then call wait_match with {\"matchId\": <its id>, \"afterTurn\": <the turn you just "
	    "moved for, minus 1>}: it answers once that turn has resolved, with everyone's boards; move "
	    "for the next turn, and so on. A result with isError true refused the call (a move that is "
	    "not legal, a turn that is not open): read its error and send another move.\n");
	put(t, "5. The match is over when its status is finished: the answer shows each seat's place "
	    "and end, and the match's signed certificate.\n");
}

/* ---- prompts/get ---- */

static json_t *
result(const char *description, const struct text *t)
{
	return json_pack("{s:s, s:[{s:s, s:{s:s, s:s}}]}", "description", description, "messages",
	    "role", "user", "content", "type", "text", "text", t->buf);
}

json_t *
mcp_prompts_get(const json_t *params, int *code, char *msg, size_t cap)
{
	const char *name = json_string_value(json_object_get(params, "name"));
	const json_t *args = json_object_get(params, "arguments");
	const struct game *g = NULL;
	struct parg a[PARGS_MAX];
	struct given gv;
	struct text *t;
	char description[256];
	json_t *r;
	size_t n;
	bool match;

	*code = MCP_INVALID_PARAMS;
	if (name == NULL) {
		snprintf(msg, cap, "prompts/get needs params.name, a string");
		return NULL;
	}
	match = strcmp(name, MCP_PROMPT_MATCH) == 0;
	if (!match && strncmp(name, MCP_PROMPT_PREFIX, sizeof MCP_PROMPT_PREFIX - 1) == 0)
		g = game_by_name(name + sizeof MCP_PROMPT_PREFIX - 1,
		    strlen(name + sizeof MCP_PROMPT_PREFIX - 1));
	if (!match && g == NULL) {
		snprintf(msg, cap, "Unknown prompt: %.80s (prompts/list names them)", name);
		return NULL;
	}
	n = match ? match_args(a) : game_args(g, a);
	if (!read_args(name, args, a, n, &gv, msg, cap))
		return NULL;
	if (match && gv.text[0] != NULL && (gv.text[1] != NULL || gv.text[2] != NULL)) {
		snprintf(msg, cap, "%s: give matchId to join a match, or players and rules to create one, "
		    "not both", name);
		return NULL;
	}
	if ((t = malloc(sizeof *t)) == NULL) {
		*code = 0;
		return NULL;
	}
	t->len = 0;
	t->cut = false;
	t->buf[0] = '\0';
	if (match) {
		match_text(t, a, &gv);
		match_description(description, sizeof description);
	} else {
		game_text(t, g, a, n, &gv);
		snprintf(description, sizeof description, "Play a game of %s", g->title);
	}
	if (t->cut) {
		free(t);
		*code = MCP_INTERNAL_ERROR;
		snprintf(msg, cap, "%s: the prompt does not fit", name);
		return NULL;
	}
	*code = 0;
	r = result(description, t);
	free(t);
	return r;
}
