/*
 * test_answers.c: the answer writer (api/json/jw.c) against jansson, the model
 * it replaces on the hot path.
 *
 * First the writer alone: random integers and random byte strings (quotes,
 * backslashes, control characters, NULs, UTF-8 good and bad) written by
 * jw and dumped by jansson must give the same bytes, and jw_utf8 must take
 * exactly the strings json_stringn takes.
 *
 * Then every game on the table: random runs (random seeds and options,
 * actions as players send them, legal ones mostly, junk and refusals
 * too), and at every state reached the answer written by
 * game_answer_write must be byte for byte json_dumps(JSON_COMPACT) of the
 * DOM answer (run_answer_json, with an agent_check beside it now and
 * then), and parse back to a value json_equal to it. A game without its
 * own writer is held to the same through the writer's fallback.
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
#include "run_result.h"

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
	unsigned long states, refused, moved, failed_both, parsed;
	unsigned long bytes_apart, parse_apart, fail_apart;
	unsigned long dropped;  /* results with a field jansson left out (not UTF-8) */
	unsigned long max_len;
};

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

/* One state's answer both ways. */
static void
compare(const struct game *g, const void *st, const void *scratch, struct tally *t, json_t **dom_out)
{
	char id[GAME_ID_TEXT_MAX], token[400];
	json_t *dom, *check = NULL, *back;
	char *want, *got;
	struct jw w;
	size_t len;

	snprintf(id, sizeof id, "%u", 1 + rnd(1000000000));
	token_text(token, sizeof token);
	if (rnd(4) == 0)
		check = json_pack("{s:s, s:i, s:s}", "token", token, "difficulty", (int)rnd(20), "expires",
		    "2026-12-02T20:00:00Z");
	dom = run_answer_json(g, id, token, st, scratch);
	if (dom != NULL && check != NULL)
		json_object_set_nocheck(dom, "agent_check", check);
	want = dom != NULL ? json_dumps(dom, JSON_COMPACT) : NULL;
	jw_init(&w, rnd(2) ? 64 : 4096, 1u << 22);
	game_answer_write(&w, g, id, token, st, scratch, "agent_check", check);
	got = jw_take(&w, &len);
	t->states++;
	{
		const json_t *results = json_object_get(dom, "results"), *r;
		size_t k;

		json_array_foreach(results, k, r)
			if (json_object_get(r, "message") == NULL || json_object_get(r, "command") == NULL)
				t->dropped++;
	}
	if (want == NULL && got == NULL)
		t->failed_both++;
	else if (want == NULL || got == NULL) {
		if (t->fail_apart++ == 0)
			diag("%s: the DOM %s, the writer %s", g->name, want ? "answers" : "fails",
			    got ? "answers" : "fails");
	} else {
		if (len > t->max_len)
			t->max_len = len;
		if (len != strlen(want) || memcmp(want, got, len) != 0) {
			if (t->bytes_apart++ == 0) {
				size_t k = 0;

				while (want[k] != '\0' && want[k] == got[k])
					k++;
				diag("%s: apart at byte %zu:\n#  DOM    %.120s\n#  writer %.120s", g->name, k,
				    want + (k > 40 ? k - 40 : 0), got + (k > 40 ? k - 40 : 0));
			}
		}
		/* Equal bytes parse equal; the parse is checked on a sample. */
		if (rnd(16) == 0) {
			t->parsed++;
			back = json_loadb(got, len, JSON_ALLOW_NUL, NULL);
			if (back == NULL || !json_equal(back, dom))
				t->parse_apart++;
			json_decref(back);
		}
	}
	free(want);
	free(got);
	json_decref(check);
	if (dom_out != NULL) {
		json_decref(*dom_out);
		*dom_out = dom;
	} else
		json_decref(dom);
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
	ok(t.fail_apart == 0, "%s: the writer fails exactly where the DOM fails (%lu apart, %lu both)",
	    g->name, t.fail_apart, t.failed_both);
	if (t.dropped > 0)
		diag("%s: %lu results with a field left out as jansson leaves it (cut UTF-8)", g->name,
		    t.dropped);
	ok(t.bytes_apart == 0 && t.states >= nstates, "%s: %lu answers byte for byte json_dumps' "
	    "(%u runs, %lu moves, %lu refusals, longest %lu bytes; %lu apart)", g->name, t.states, runs,
	    t.moved, t.refused, t.max_len, t.bytes_apart);
	ok(t.parse_apart == 0 && t.parsed > 0, "%s: %lu sampled answers parse json_equal to the DOM (%lu apart)",
	    g->name, t.parsed, t.parse_apart);
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
