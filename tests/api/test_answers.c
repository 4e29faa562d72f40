/*
 * test_answers.c: the answer writer (api/json/jw.c) against jansson, and
 * every game's written answers against their contract.
 *
 * First the writer alone: random integers and random byte strings (quotes,
 * backslashes, control characters, NULs, UTF-8 good and bad) written by
 * jw and dumped by jansson must give the same bytes, and jw_utf8 must take
 * exactly the strings json_stringn takes.
 *
 * Then every game on the table: random runs (random seeds and options,
 * actions as players send them, legal ones mostly, junk and refusals
 * too), and at every state reached the answer game_answer_write writes
 * (the one writer of a game's answer: there is no tree to compare with)
 * must parse with jansson into an object with exactly the keys, in their
 * order, and the types openapi.yaml gives the game's answer (the table
 * `shapes` below; its state object's too), with an agent_check beside
 * it now and then. It fails only where the token it is given is not
 * UTF-8. The golden corpus (tests/golden) holds the bytes of fixed runs.
 *
 * Usage: test_answers [STATES] (per game, default 100000; the ASan build
 * passes fewer, see meson.build). The generator is seeded: the same
 * states every run.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "tap.h"
#include "xorshift.h"

#include "game.h"
#include "game_shared.h"
#include "jw.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint32_t
rnd(uint32_t n)
{
	return xorshift_below(&rng, n);
}

/* ---- the writer alone ---- */

/* Bytes a string is made of: escapes, ASCII, plain runs and UTF-8 pieces
 * (whole and broken). */
static size_t
random_bytes(char *out, size_t cap)
{
	static const char *const pieces[] = {
		"\"", "\\", "\n", "\r", "\t", "\b", "\f", "\x01", "\x1f", "\x7f", "/", " ", "a", "Z", "0",
		"\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\xc3", "\xe2\x82", "\x80", "\xff",
		"\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xef\xbf\xbf", "\xf4\x8f\xbf\xbf",
		"\xe0\x9f\xbf", "\xf0\x8f\xbf\xbf", "\xc2\x80", "\0",
		/* Plain runs, which the writer passes eight bytes at a time. */
		"v4.local.AbCdEfGh", "0123456789-_xyz", "ab", "seven77",
	};
	size_t n = 0, k, len = rnd(24);

	for (k = 0; k < len; k++) {
		const char *p = pieces[rnd(sizeof pieces / sizeof pieces[0])];
		size_t m = p[0] == '\0' ? 1 : strlen(p);

		if (n + m > cap)
			break;
		memcpy(out + n, p, m);
		n += m;
	}
	if (rnd(4) == 0 && n < cap)
		out[n++] = (char)rnd(256);
	return n;
}

static void
test_writer(unsigned rounds)
{
	unsigned k, bad_utf8 = 0, bad_text = 0, bad_int = 0, nvalid = 0;

	for (k = 0; k < rounds; k++) {
		char s[128], buf[1024];
		size_t n = random_bytes(s, sizeof s), len;
		json_t *v = json_stringn(s, n);
		struct jw w;
		const char *got;
		char *want;

		if (jw_utf8(s, n) != (v != NULL))
			bad_utf8++;
		jw_init_fixed(&w, buf, sizeof buf);
		jw_stringn(&w, s, n);
		got = jw_text(&w, &len);
		if (v != NULL) {
			nvalid++;
			want = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
			if (got == NULL || want == NULL || strcmp(got, want) != 0 || len != strlen(want))
				bad_text++;
			free(want);
		} else if (got != NULL)
			bad_text++;
		json_decref(v);
	}
	for (k = 0; k < rounds; k++) {
		int64_t x = (int64_t)xorshift_next(&rng) >> rnd(64);
		json_t *v;
		char buf[32], *want;
		struct jw w;

		if (k == 0)
			x = INT64_MIN;
		else if (k == 1)
			x = INT64_MAX;
		else if (k == 2)
			x = 0;
		v = json_integer((json_int_t)x);
		want = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
		jw_init_fixed(&w, buf, sizeof buf);
		jw_int(&w, x);
		if (want == NULL || jw_text(&w, NULL) == NULL || strcmp(jw_text(&w, NULL), want) != 0)
			bad_int++;
		free(want);
		json_decref(v);
	}
	ok(bad_utf8 == 0, "jw_utf8 takes what json_stringn takes (%u random strings, %u valid, %u apart)",
	    rounds, nvalid, bad_utf8);
	ok(bad_text == 0, "strings: jw's bytes are jansson's (%u apart)", bad_text);
	ok(bad_int == 0, "integers: jw's bytes are jansson's (%u random, the extremes included; %u apart)",
	    rounds, bad_int);

	{
		char small[8];
		struct jw w;
		size_t len;
		char *t;

		jw_init_fixed(&w, small, sizeof small);
		jw_string(&w, "too long for eight bytes");
		ok(jw_text(&w, NULL) == NULL, "a fixed buffer that is too small fails");
		jw_init(&w, 16, 64);
		jw_object(&w);
		jw_key(&w, "a");
		jw_array(&w);
		jw_int(&w, 1);
		jw_null(&w);
		jw_bool(&w, true);
		jw_array_end(&w);
		jw_key(&w, "b");
		jw_object(&w);
		jw_object_end(&w);
		jw_key(&w, "c");
		jw_string(&w, "x\"y");
		jw_object_end(&w);
		t = jw_take(&w, &len);
		ok(t != NULL && strcmp(t, "{\"a\":[1,null,true],\"b\":{},\"c\":\"x\\\"y\"}") == 0 &&
		    len == strlen(t), "commas, nesting and growth: %s", t ? t : "(null)");
		free(t);
		jw_init(&w, 16, 32);
		jw_string(&w, "a string longer than the bound of thirty-two bytes");
		ok(jw_take(&w, NULL) == NULL, "an owned buffer past its bound fails");
		jw_cleanup(&w);
	}
}

/* ---- every game's answers ---- */

/* A word of a command text: mostly the grammar's, now and then junk with
 * the bytes a string must escape, and long UTF-8 that messages cut. */
static void
command_word(char *out, size_t cap, const struct game *g)
{
	static const char *const junk[] = { "\"q\"", "back\\slash", "tab\there", "\x01\x02", "caf\xc3\xa9",
		("\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac"
		"\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac"),
		"\xf0\x9f\x98\x80 place", "place -1 4", "place 9 99", "preview", "hol", "rot\x7f" };
	static const char keys[] = "LRDUDDDD";

	switch (rnd(20)) {
	case 0: case 1: case 2:
		snprintf(out, cap, "options");
		return;
	case 3: case 4:
		snprintf(out, cap, "preview %u %u", rnd(4), rnd(10));
		return;
	case 5:
		snprintf(out, cap, "hold");
		return;
	case 6:
		snprintf(out, cap, "%s", junk[rnd(sizeof junk / sizeof junk[0])]);
		return;
	case 7:
		if (rnd(30) == 0) {
			snprintf(out, cap, "resign");
			return;
		}
		/* fall through */
	case 8: case 9:
		if (g->id == GAME_HATETRIS_CLASSIC) {
			size_t n = (size_t)snprintf(out, cap, "keys "), k, len = 1 + rnd(40);

			for (k = 0; k < len && n + 1 < cap; k++)
				out[n++] = keys[rnd(8)];
			out[n] = '\0';
			return;
		}
		/* fall through */
	default:
		if (rnd(2))
			snprintf(out, cap, "place %u %u", rnd(4), rnd(10));
		else
			snprintf(out, cap, "%u %u", rnd(4), rnd(10));
		return;
	}
}

/* An action body for g, in the style of its players; prev is the answer
 * before (its legal list). */
static json_t *
action_body(const struct game *g, const json_t *prev)
{
	const json_t *legal = json_object_get(prev, "legalActions");
	size_t nlegal = json_array_size(legal);
	char text[512];

	if (g->action_fields[0] != NULL && strcmp(g->action_fields[0], "command") == 0) {
		size_t n = 0, k, ncmds = rnd(8) == 0 ? rnd(12) : 1 + rnd(2);

		if (rnd(8) == 0) {
			static const char *const types[] = { "place", "preview", "options", "hold", "bogus" };

			return json_pack("{s:{s:s, s:i, s:i}}", "action", "type", types[rnd(5)],
			    "rotation", (int)rnd(5), "column", (int)rnd(11));
		}
		for (k = 0; k < ncmds && n + 80 < sizeof text; k++) {
			if (k > 0)
				n += (size_t)snprintf(text + n, sizeof text - n, "%s", rnd(2) ? "; " : "\n");
			command_word(text + n, sizeof text - n, g);
			n += strlen(text + n);
		}
		/* A NUL inside (\u0000 in the body) travels into the results. */
		if (rnd(20) == 0 && n > 0)
			text[rnd((uint32_t)n)] = '\0';
		return json_pack("{s:s%}", "command", text, n);
	}
	if (nlegal > 0 && rnd(10) < 8) {
		const json_t *a = json_array_get(legal, rnd((uint32_t)nlegal));
		const json_t *id = json_object_get(a, "id");

		return json_pack("{s:O}", "action", id != NULL ? id : a);
	}
	switch (rnd(5)) {
	case 0:
		return json_pack("{s:{s:s, s:i, s:i}}", "action", "type", "capture", "from", (int)rnd(40),
		    "to", (int)rnd(40));
	case 1: {
		static const char *const words[] = { "reset", "next", "endRun", "bogus" };

		return json_pack("{s:{s:s}}", "action", "type", words[rnd(4)]);
	}
	case 2:
		snprintf(text, sizeof text, "r%ux%u", rnd(5), rnd(12));
		return json_pack("{s:s}", "action", text);
	case 3:
		snprintf(text, sizeof text, "r%ux%uy%u", rnd(4), rnd(6), rnd(12));
		return json_pack("{s:s}", "action", text);
	default:
		return json_pack("{s:i}", "action", (int)rnd(100));
	}
}

/* A token's text: base64url mostly, now and then bytes to escape. */
static void
token_text(char *out, size_t cap)
{
	static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
	size_t n = (size_t)snprintf(out, cap, "v4.local."), k, len = 20 + rnd(300);

	for (k = 0; k < len && n + 1 < cap; k++)
		out[n++] = b64[rnd(64)];
	out[n] = '\0';
	if (rnd(50) == 0)
		out[9 + random_bytes(out + 9, 40)] = '\0';
}

struct tally {
	unsigned long states, refused, moved, failed, failed_apart;
	unsigned long unparsed, misshapen, agent_checks;
	unsigned long max_len;
};

/*
 * The shape of each game's answer as openapi.yaml gives it: its keys in
 * order, each with the JSON types it may take (o object, a array, s
 * string, i integer, b boolean, n null), "game", "runId" and "stateToken"
 * first; then the same for its `state` object, for the games with one.
 */
struct shape {
	enum game_id id;
	const char *const *keys;   /* "name:types", NULL-terminated */
	const char *const *state;  /* NULL: no state object */
};

static const char *const tetromino_keys_sf[] = { "game:s", "runId:s", "stateToken:s", "status:s",
	"end_reason:sn", "score:i", "lines:i", "level:i", "pieces:i", "current:s", "next:a",
	"hold:sn", "can_hold:b", "combo:i", "back_to_back:b", "board_text:s", "results:a", NULL };
static const char *const court_keys[] = { "game:s", "runId:s", "stateToken:s", "state:o",
	"legalActions:a", "boardText:s", NULL };
static const char *const court_state[] = { "phase:s", "rung:i", "size:i", "board:a", "dealt:a",
	"boulders:a", "kingSurvives:b", "resetUsed:b", "captures:i", "paidDepth:i", "lives:i",
	"streak:i", "score:i", "lastResult:sn", "lastAward:on", "seed:i", "courtsDealt:i", NULL };
static const char *const craft_state[] = { "board:a", "current:s", "next:s", "score:i", "lines:i",
	"pieces:i", "status:s", "end_reason:sn", "cap:in", NULL };
static const char *const hate_keys[] = { "game:s", "runId:s", "stateToken:s", "status:s",
	"end_reason:sn", "lines:i", "pieces:i", "current:s", "depth:i", "cap:in", "board_text:s",
	"results:a", NULL };
static const char *const wells_keys[] = { "game:s", "runId:s", "stateToken:s", "state:o",
	"legalActions:a", NULL };
static const char *const wells_state[] = { "width:i", "height:i", "well:a", "current:s", "pieces:i",
	"line_in:in", "status:s", "end_reason:sn", "board_text:s", NULL };
static const char *const classic_keys[] = { "game:s", "runId:s", "stateToken:s", "status:s",
	"end_reason:sn", "lines:i", "pieces:i", "keys:i", "current:s", "x:in", "y:in", "o:in",
	"supplier:s", "board_text:s", "results:a", NULL };

static const struct shape shapes[] = {
	{ GAME_STACKFALL, tetromino_keys_sf, NULL },
	{ GAME_DUSKCOURT, court_keys, court_state },
	{ GAME_STACKCRAFT, court_keys, craft_state },
	{ GAME_HATETRIS, hate_keys, NULL },
	{ GAME_WELLS, wells_keys, wells_state },
	{ GAME_HATETRIS_CLASSIC, classic_keys, NULL },
};

static char
type_letter(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: return 'o';
	case JSON_ARRAY: return 'a';
	case JSON_STRING: return 's';
	case JSON_INTEGER: return 'i';
	case JSON_TRUE: case JSON_FALSE: return 'b';
	case JSON_NULL: return 'n';
	default: return 'r';
	}
}

/* Whether o has exactly keys (then extra, when not NULL), in that order,
 * each of its types; why says where it does not. */
static bool
shaped(const json_t *o, const char *const *keys, const char *extra, char *why, size_t cap)
{
	const char *key;
	json_t *v;
	size_t k = 0;

	if (!json_is_object(o)) {
		snprintf(why, cap, "not an object");
		return false;
	}
	json_object_foreach((json_t *)o, key, v) {
		const char *want = keys[k], *colon;

		if (want == NULL) {
			/* Past the contract's keys, extra alone, once. */
			if (extra != NULL && strcmp(key, extra) == 0) {
				extra = NULL;
				continue;
			}
			snprintf(why, cap, "key '%s' beyond the contract's", key);
			return false;
		}
		colon = strchr(want, ':');
		if (strlen(key) != (size_t)(colon - want) || strncmp(key, want, (size_t)(colon - want)) != 0) {
			snprintf(why, cap, "key '%s' where '%.*s' stands", key, (int)(colon - want), want);
			return false;
		}
		if (strchr(colon + 1, type_letter(v)) == NULL) {
			snprintf(why, cap, "'%s' of type %c, not one of %s", key, type_letter(v), colon + 1);
			return false;
		}
		k++;
	}
	if (keys[k] != NULL) {
		snprintf(why, cap, "'%s' missing", keys[k]);
		return false;
	}
	return true;
}

/* Whether answer is g's answer as the contract has it; results, where
 * the game has them, are objects with an "ok" flag. */
static bool
answer_shaped(const struct game *g, const json_t *answer, bool with_check, char *why, size_t cap)
{
	const struct shape *sh = NULL;
	const json_t *results, *r;
	size_t i;

	for (i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
		if (shapes[i].id == g->id)
			sh = &shapes[i];
	if (sh == NULL) {
		snprintf(why, cap, "no shape for the game in this test");
		return false;
	}
	if (!shaped(answer, sh->keys, with_check ? "agent_check" : NULL, why, cap))
		return false;
	if (with_check && json_object_get(answer, "agent_check") == NULL) {
		snprintf(why, cap, "agent_check missing");
		return false;
	}
	if (strcmp(json_string_value(json_object_get(answer, "game")), g->name) != 0) {
		snprintf(why, cap, "game is not '%s'", g->name);
		return false;
	}
	if (sh->state != NULL && !shaped(json_object_get(answer, "state"), sh->state, NULL, why, cap))
		return false;
	results = json_object_get(answer, "results");
	json_array_foreach(results, i, r) {
		if (!json_is_boolean(json_object_get(r, "ok"))) {
			snprintf(why, cap, "a result without its ok flag");
			return false;
		}
	}
	return true;
}

/* play_new (server/play.c) does not clear a game's scratch when the game
 * has a scratch_init: each request is played a second time on a scratch
 * filled with garbage and then readied by scratch_init (or zeroed, as the
 * server does without one), and must come out the same, its turn, its
 * state and its answer byte for byte. */
struct dirty {
	void            *scratch;
	game_state       st;
	struct game_turn turn;
};

struct turn_check {
	struct dirty *dirty;
	unsigned long played, apart;
};

static char *
written(const struct game *g, const void *st, const void *scratch, size_t *len)
{
	struct jw w;

	jw_init(&w, 4096, 1u << 22);
	game_answer_write(&w, g, "1", "token", st, scratch, "agent_check", NULL);
	return jw_take(&w, len);
}

static void
dirty_play(const struct game *g, const game_state *before, const json_t *body,
    const struct game_env *env, struct turn_check *tc)
{
	struct dirty *d = tc->dirty;
	size_t n = g->scratch_size > 0 ? g->scratch_size : 1, i;
	char msg[256];

	if (d->scratch == NULL && (d->scratch = malloc(n)) == NULL) {
		tc->apart++;
		return;
	}
	for (i = 0; i < n; i++)
		((uint8_t *)d->scratch)[i] = (uint8_t)(0xa5 ^ rnd(256));
	if (game_ext(g)->scratch_init != NULL)
		game_ext(g)->scratch_init(d->scratch);
	else
		memset(d->scratch, 0, n);
	/* Readied and not yet read into, it answers as no scratch at all. */
	{
		size_t la = 0, lb = 0;
		char *wa = written(g, before, d->scratch, &la), *wb = written(g, before, NULL, &lb);

		if (wa == NULL || wb == NULL || la != lb || memcmp(wa, wb, la) != 0)
			tc->apart++;
		free(wa);
		free(wb);
	}
	memcpy(&d->st, before, sizeof d->st);
	/* Garbage in the turn too: the server clears only its header. */
	memset(&d->turn, 0x5a, sizeof d->turn);
	d->turn.refused = false;
	d->turn.refusal = API_ERR_INTERNAL;
	d->turn.reason[0] = '\0';
	d->turn.nmoves = d->turn.nfacts = 0;
	d->turn.canon[0] = '\0';
	if (!g->read_action(body, d->scratch, msg, sizeof msg)) {
		tc->apart++;
		return;
	}
	g->play(&d->st, d->scratch, env, &d->turn);
}

static void
dirty_compare(const struct game *g, const game_state *before, const game_state *st,
    const void *scratch, const struct game_turn *turn, struct turn_check *tc)
{
	const struct dirty *d = tc->dirty;
	uint8_t a[GAME_STATE_MAX], b[GAME_STATE_MAX];
	size_t na, nb, la = 0, lb = 0, i;
	char *wa, *wb;
	bool same;

	tc->played++;
	na = turn->refused ? 0 : g->encode(st, a, sizeof a);
	nb = d->turn.refused ? 0 : g->encode(&d->st, b, sizeof b);
	same = turn->refused == d->turn.refused && turn->nmoves == d->turn.nmoves &&
	    turn->nfacts == d->turn.nfacts && na == nb && memcmp(a, b, na) == 0 &&
	    strcmp(turn->canon, d->turn.canon) == 0;
	if (same && turn->refused)
		same = turn->refusal == d->turn.refusal && strcmp(turn->reason, d->turn.reason) == 0;
	for (i = 0; same && i < turn->nmoves; i++)
		same = strcmp(turn->moves[i], d->turn.moves[i]) == 0;
	for (i = 0; same && i < turn->nfacts; i++)
		same = turn->facts[i].move == d->turn.facts[i].move &&
		    memcmp(turn->facts[i].bytes, d->turn.facts[i].bytes, game_ext(g)->fact_bytes) == 0;
	/* A refusal is answered on the state before, its results beside it. */
	wa = written(g, turn->refused ? (const void *)before : (const void *)st, scratch, &la);
	wb = written(g, turn->refused ? (const void *)before : (const void *)&d->st, d->scratch, &lb);
	same = same && wa != NULL && wb != NULL && la == lb && memcmp(wa, wb, la) == 0;
	if (!same && tc->apart++ == 0)
		diag("%s: a request on a garbage scratch differs: %s / %s", g->name, wa ? wa : "(null)",
		    wb ? wb : "(null)");
	free(wa);
	free(wb);
}

/* One state's answer, written, read back and held to its shape. */
static void
compare(const struct game *g, const void *st, const void *scratch, struct tally *t, json_t **parsed_out)
{
	char id[GAME_ID_TEXT_MAX], token[400], why[160];
	json_t *check = NULL, *back = NULL;
	json_error_t err;
	struct jw w;
	size_t len;
	char *got;

	snprintf(id, sizeof id, "%u", 1 + rnd(1000000000));
	token_text(token, sizeof token);
	if (rnd(4) == 0)
		check = json_pack("{s:s, s:i, s:s}", "token", token, "difficulty", (int)rnd(20), "expires",
		    "2026-12-02T20:00:00Z");
	jw_init(&w, rnd(2) ? 64 : 4096, 1u << 22);
	game_answer_write(&w, g, id, token, st, scratch, "agent_check", check);
	got = jw_take(&w, &len);
	t->states++;
	/* A token that is not UTF-8 (no real one) is what makes it fail. */
	if ((got == NULL) != !jw_utf8(token, strlen(token))) {
		if (t->failed_apart++ == 0)
			diag("%s: the writer %s on a token that is%s UTF-8", g->name, got ? "answers" : "fails",
			    got ? " not" : "");
	}
	if (got == NULL) {
		t->failed++;
		json_decref(check);
		return;
	}
	if (len > t->max_len)
		t->max_len = len;
	/* Strings may hold a NUL (a command's text), sent as \u0000. */
	back = json_loadb(got, len, JSON_ALLOW_NUL | JSON_REJECT_DUPLICATES, &err);
	if (back == NULL) {
		if (t->unparsed++ == 0)
			diag("%s: an answer does not parse (%s): %.200s", g->name, err.text, got);
	} else if (!answer_shaped(g, back, check != NULL, why, sizeof why)) {
		if (t->misshapen++ == 0)
			diag("%s: an answer is not its contract's shape: %s: %.300s", g->name, why, got);
	}
	t->agent_checks += check != NULL;
	free(got);
	json_decref(check);
	if (parsed_out != NULL && back != NULL) {
		json_decref(*parsed_out);
		*parsed_out = back;
	} else
		json_decref(back);
}

/* A new run of g on a random seed and random options; false when even the
 * defaults do not start. */
static bool
new_run(const struct game *g, game_state *st, const struct game_env *env)
{
	struct game_options opts;
	enum api_error err;
	char msg[256];
	int64_t seed = (int64_t)(xorshift_next(&rng) & ENGINE_ID_MAX);
	size_t i;

	for (i = 0; i < g->noptions; i++) {
		const struct game_option *o = &g->options[i];
		int64_t span = o->max - o->min + 1;

		opts.v[i] = o->dflt;
		if (rnd(2))
			opts.v[i] = o->min + (int64_t)rnd((uint32_t)(span < 300 ? span : 300));
	}
	if (game_ext(g)->seed_of != NULL && !game_ext(g)->seed_of(&opts, &seed, msg, sizeof msg)) {
		for (i = 0; i < g->noptions; i++)
			opts.v[i] = g->options[i].dflt;
		if (!game_ext(g)->seed_of(&opts, &seed, msg, sizeof msg))
			return false;
	}
	if (g->seedless)
		seed = 0;
	if (g->init(st, (uint64_t)seed, &opts, env, &err, msg, sizeof msg))
		return true;
	for (i = 0; i < g->noptions; i++)
		opts.v[i] = g->options[i].dflt;
	return g->init(st, (uint64_t)seed, &opts, env, &err, msg, sizeof msg);
}

static void
test_game(const struct game *g, unsigned long nstates)
{
	static game_state st, before;
	struct game_env env;
	struct game_turn *turn = calloc(1, sizeof *turn);
	void *work = g->work_size > 0 ? calloc(1, g->work_size) : NULL;
	void *scratch = calloc(1, g->scratch_size > 0 ? g->scratch_size : 1);
	struct turn_check tc;
	struct tally t;
	json_t *prev = NULL;
	unsigned moves = 0, runs = 0;
	char msg[256];

	memset(&t, 0, sizeof t);
	memset(&tc, 0, sizeof tc);
	memset(&env, 0, sizeof env);
	env.work = work;
	env.shared = test_shared;
	if (turn == NULL || scratch == NULL || (g->work_size > 0 && work == NULL)) {
		ok(0, "%s: memory for the test", g->name);
		goto done;
	}
	if (!new_run(g, &st, &env)) {
		ok(0, "%s: a run starts", g->name);
		goto done;
	}
	runs++;
	compare(g, &st, NULL, &t, &prev);
	while (t.states < nstates) {
		struct game_summary sum;
		json_t *body;

		g->summary(&st, &sum);
		if ((sum.over && rnd(4) != 0) || moves > 400 || rnd(300) == 0) {
			if (!new_run(g, &st, &env))
				break;
			runs++;
			moves = 0;
			compare(g, &st, NULL, &t, &prev);
			continue;
		}
		body = action_body(g, prev);
		memset(scratch, 0, g->scratch_size > 0 ? g->scratch_size : 1);
		if (body == NULL || !g->read_action(body, scratch, msg, sizeof msg)) {
			json_decref(body);
			compare(g, &st, NULL, &t, NULL);
			continue;
		}
		memcpy(&before, &st, sizeof st);
		if (tc.dirty != NULL || (tc.dirty = calloc(1, sizeof *tc.dirty)) != NULL)
			dirty_play(g, &before, body, &env, &tc);
		memset(turn, 0, sizeof *turn);
		g->play(&st, scratch, &env, turn);
		if (tc.dirty != NULL)
			dirty_compare(g, &before, &st, scratch, turn, &tc);
		if (turn->refused)
			t.refused++;
		t.moved += turn->nmoves;
		moves += (unsigned)turn->nmoves;
		/* The pipeline answers a refusal with the state before, the
		 * results beside it. */
		compare(g, turn->refused ? (const void *)&before : (const void *)&st, scratch, &t, &prev);
		/* A state read back from the store answers without results. */
		if (rnd(8) == 0)
			compare(g, &st, NULL, &t, NULL);
		json_decref(body);
	}
	ok(t.failed_apart == 0, "%s: the writer fails only on a token that is not UTF-8 (%lu apart, "
	    "%lu such)", g->name, t.failed_apart, t.failed);
	ok(t.unparsed == 0 && t.states >= nstates, "%s: %lu written answers parse (%u runs, %lu moves, "
	    "%lu refusals, longest %lu bytes; %lu do not)", g->name, t.states, runs, t.moved, t.refused,
	    t.max_len, t.unparsed);
	ok(t.misshapen == 0, "%s: every one has its contract's keys, in order, and their types (%lu with "
	    "an agent_check; %lu apart)", g->name, t.agent_checks, t.misshapen);
	ok(tc.dirty != NULL && tc.apart == 0 && tc.played > 0, "%s: %s, %lu requests on a scratch of "
	    "garbage play and answer as on a zeroed one (%lu apart)", g->name,
	    game_ext(g)->scratch_init != NULL ? "its scratch_init" : "a zeroed scratch", tc.played, tc.apart);
done:
	if (tc.dirty != NULL)
		free(tc.dirty->scratch);
	free(tc.dirty);
	json_decref(prev);
	free(turn);
	free(work);
	free(scratch);
}

int
main(int argc, char **argv)
{
	unsigned long nstates = argc > 1 ? strtoul(argv[1], NULL, 10) : 100000;
	size_t i;

	test_writer(nstates < 100000 ? (unsigned)nstates : 100000);
	for (i = 0; i < GAME__COUNT; i++)
		test_game(game_table[i], nstates);
	return tap_done();
}
