/*
 * test_stackcraft_json.c: api/stackcraft/stackcraft_json.c. The state and legal
 * objects against the engine's struct field by field; the action reader;
 * the rules document's numbers against the rule text's (orientation counts,
 * points, board size); replays: export of played games (partial, top_out,
 * capped) imports back to the identical run through a text round trip, and
 * import refuses each bad case with its kind and place: incompatible schema
 * or rules, an invalid move at step k (an unavailable placement, a bad id,
 * a non-string, a move after the end), each field of an inconsistent final,
 * and malformed objects.
 */
#include <stdlib.h>
#include <string.h>

#include "stackcraft_import.h"
#include "stackcraft_json.h"
#include "tap.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static uint64_t
rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* Plays up to limit random moves; appends their ids to ids. */
static void
play(struct stackcraft *g, json_t *ids, long limit)
{
	struct stackcraft_action a[STACKCRAFT_LEGAL_MAX];
	size_t n, pick;
	long k;

	for (k = 0; k < limit && g->status == STACKCRAFT_PLAYING; k++) {
		n = stackcraft_legal(g, a, STACKCRAFT_LEGAL_MAX);
		pick = (size_t)(rng() % n);
		/* the lowest landing most of the time, for longer games */
		if (rng() % 4 != 0) {
			size_t i;

			for (pick = 0, i = 1; i < n; i++)
				if (a[i].y > a[pick].y)
					pick = i;
		}
		stackcraft_step(g, a[pick].rotation, a[pick].x, NULL);
		json_array_append_new(ids, json_string(a[pick].id));
	}
}

static void
test_state(void)
{
	struct stackcraft g;
	struct stackcraft_action a[STACKCRAFT_LEGAL_MAX];
	uint8_t cells[STACKCRAFT_ROWS][STACKCRAFT_COLS];
	json_t *ids = json_array(), *s, *l, *e, *board;
	char cur[2], nxt[2];
	size_t n, i, y, x, k;
	int same;

	stackcraft_init(&g, 77, 0);
	play(&g, ids, 30);
	s = stackcraft_state_json(&g);
	ok(json_object_size(s) == 9, "the state has 9 keys");
	board = json_object_get(s, "board");
	stackcraft_board(&g, cells);
	same = json_array_size(board) == 20;
	for (y = 0; same && y < 20; y++) {
		same = json_array_size(json_array_get(board, y)) == 10;
		for (x = 0; same && x < 10; x++)
			same = json_integer_value(json_array_get(json_array_get(board, y), x)) ==
			    cells[y][x];
	}
	ok(same, "board: 20 rows of 10 colour ids, row y = 0 first");
	cur[0] = tetromino_letter(g.current);
	nxt[0] = tetromino_letter(g.next);
	cur[1] = nxt[1] = '\0';
	is_str(json_string_value(json_object_get(s, "current")), cur, "current is a letter");
	is_str(json_string_value(json_object_get(s, "next")), nxt, "next is a letter");
	ok(json_integer_value(json_object_get(s, "score")) == (json_int_t)g.score &&
	    json_integer_value(json_object_get(s, "lines")) == (json_int_t)g.lines &&
	    json_integer_value(json_object_get(s, "pieces")) == 30, "score, lines, pieces");
	is_str(json_string_value(json_object_get(s, "status")), "playing", "status playing");
	ok(json_is_null(json_object_get(s, "end_reason")) && json_is_null(json_object_get(s, "cap")),
	    "end_reason and cap are null");
	ok(json_object_get(s, "seed") == NULL, "no seed in the observation");
	json_decref(s);

	l = stackcraft_legal_json(&g);
	n = stackcraft_legal(&g, a, STACKCRAFT_LEGAL_MAX);
	same = json_array_size(l) == n && n > 0;
	for (i = 0; same && i < n; i++) {
		e = json_array_get(l, i);
		same = json_object_size(e) == 5 &&
		    strcmp(json_string_value(json_object_get(e, "id")), a[i].id) == 0 &&
		    json_integer_value(json_object_get(e, "rotation")) == a[i].rotation &&
		    json_integer_value(json_object_get(e, "x")) == a[i].x &&
		    json_integer_value(json_object_get(e, "y")) == a[i].y &&
		    json_array_size(json_object_get(e, "cells")) == 4;
		for (k = 0; same && k < 4; k++) {
			json_t *c = json_array_get(json_object_get(e, "cells"), k);

			same = json_array_size(c) == 2 &&
			    json_integer_value(json_array_get(c, 0)) == a[i].cells[k][0] &&
			    json_integer_value(json_array_get(c, 1)) == a[i].cells[k][1];
		}
	}
	ok(same, "legalActions: %zu entries {id, rotation, x, y, cells} in the engine's order", n);
	json_decref(l);

	stackcraft_init(&g, 77, 2);
	play(&g, ids, 5);
	s = stackcraft_state_json(&g);
	l = stackcraft_legal_json(&g);
	ok(json_integer_value(json_object_get(s, "cap")) == 2 &&
	    strcmp(json_string_value(json_object_get(s, "status")), "over") == 0 &&
	    strcmp(json_string_value(json_object_get(s, "end_reason")), "capped") == 0,
	    "a capped run: cap 2, over, capped");
	ok(json_is_array(l) && json_array_size(l) == 0, "no legal actions when over");
	json_decref(s);
	json_decref(l);
	json_decref(ids);
}

static void
test_action(void)
{
	char why[ENGINE_REASON_MAX];
	unsigned r = 9, x = 9;
	json_t *v;

	v = json_string("r1x4");
	ok(stackcraft_action_from_json(v, &r, &x, why) && r == 1 && x == 4, "\"r1x4\" reads");
	json_decref(v);
	v = json_string("r1x44");
	ok(!stackcraft_action_from_json(v, &r, &x, why) && strstr(why, "r1x44") != NULL,
	    "\"r1x44\" is refused: %s", why);
	json_decref(v);
	v = json_stringn("r1\0x4", 5);
	ok(!stackcraft_action_from_json(v, &r, &x, why), "an id with a NUL is refused: %s", why);
	json_decref(v);
	v = json_pack("{s:s}", "id", "r1x4");
	ok(!stackcraft_action_from_json(v, &r, &x, why), "an object is refused: %s", why);
	json_decref(v);
	v = json_integer(14);
	ok(!stackcraft_action_from_json(v, &r, &x, why), "a number is refused");
	json_decref(v);
	ok(!stackcraft_action_from_json(NULL, &r, &x, why), "nothing is refused");
}

static void
test_rules(void)
{
	static const char *const letters[] = { "I", "O", "T", "S", "Z", "J", "L" };
	static const int counts[] = { 2, 1, 4, 2, 2, 4, 4 };
	json_t *r = stackcraft_rules_json(), *p, *pts;
	int i, right = 1;

	ok(r != NULL, "the rules build");
	is_str(json_string_value(json_object_get(r, "rules")), "stackcraft-v1", "rules version");
	is_int(json_integer_value(json_object_get(r, "replay_schema")), 1, "replay schema 1");
	p = json_object_get(r, "pieces");
	for (i = 0; i < 7; i++)
		right &= (int)json_array_size(json_object_get(p, letters[i])) == counts[i] &&
		    json_integer_value(json_object_get(json_object_get(r, "colors"), letters[i])) ==
		    i + 1;
	ok(right, "orientations I2 O1 T4 S2 Z2 J4 L4, colours 1..7");
	pts = json_object_get(r, "points");
	ok(json_array_size(pts) == 5 && json_integer_value(json_array_get(pts, 0)) == 0 &&
	    json_integer_value(json_array_get(pts, 1)) == 100 &&
	    json_integer_value(json_array_get(pts, 2)) == 300 &&
	    json_integer_value(json_array_get(pts, 3)) == 500 &&
	    json_integer_value(json_array_get(pts, 4)) == 800, "points 0 100 300 500 800");
	ok(json_integer_value(json_object_get(json_object_get(r, "board"), "columns")) == 10 &&
	    json_integer_value(json_object_get(json_object_get(r, "board"), "rows")) == 20,
	    "a 10 x 20 board");
	is_str(json_string_value(json_array_get(json_object_get(json_array_get(
	    json_object_get(p, "T"), 0), "shape"), 0)), ".#.", "T's spawn picture starts .#.");
	json_decref(r);
}

/* Exports g with ids, dumps to text, loads and imports it. */
static int
round_trip(const struct stackcraft *g, json_t *ids, struct stackcraft_replay_check *chk)
{
	json_t *rep = stackcraft_replay_export(g, json_incref(ids)), *back;
	char *text = json_dumps(rep, JSON_SORT_KEYS);
	int rc;

	back = json_loads(text, 0, NULL);
	rc = stackcraft_replay_import(back, chk);
	free(text);
	json_decref(rep);
	json_decref(back);
	return rc;
}

static struct stackcraft_replay_check chk;

static void
test_replay_round_trip(void)
{
	struct stackcraft g;
	json_t *ids;
	long games, right = 0, ends[3] = { 0, 0, 0 };

	for (games = 0; games < 60; games++) {
		ids = json_array();
		stackcraft_init(&g, games % 2 ? rng() % (STACKCRAFT_SEED_MAX + 1) : (uint64_t)games,
		    games % 3 == 0 ? 1 + rng() % 60 : 0);
		play(&g, ids, games % 5 == 0 ? 20 : 100000);
		ends[g.end_reason]++;
		right += round_trip(&g, ids, &chk) == 0 && chk.fault == STACKCRAFT_REPLAY_OK &&
		    memcmp(&chk.game, &g, sizeof g) == 0 && chk.nactions == json_array_size(ids) &&
		    chk.reason[0] == '\0';
		json_decref(ids);
	}
	is_int(right, 60, "60 exported games import back to the identical run");
	ok(ends[0] > 0 && ends[1] > 0 && ends[2] > 0, "partial, topped-out and capped games among them");
	ids = json_array();
	stackcraft_init(&g, 4, 0);
	ok(round_trip(&g, ids, &chk) == 0, "an empty game (no actions) is a valid replay");
	json_decref(ids);
}

/* A valid replay to break: seed 21, cap none, 12 moves (a partial game). */
static json_t *
sample(struct stackcraft *g)
{
	json_t *ids = json_array();

	stackcraft_init(g, 21, 0);
	play(g, ids, 12);
	return stackcraft_replay_export(g, ids);
}

static void
expect(json_t *r, enum stackcraft_replay_fault fault, size_t step, const char *field,
    const char *what)
{
	int rc = stackcraft_replay_import(r, &chk);

	ok(rc == -1 && chk.fault == fault && chk.step == step &&
	    (field == NULL ? chk.field == NULL : chk.field != NULL && strcmp(chk.field, field) == 0) &&
	    chk.reason[0] != '\0', "%s: refused (%s)", what, chk.reason);
	json_decref(r);
}

static void
test_replay_refusals(void)
{
	struct stackcraft g, over;
	struct stackcraft_action a[STACKCRAFT_LEGAL_MAX];
	json_t *r, *ids, *acts;
	size_t n, i;
	char id[8];

	r = sample(&g);
	ok(stackcraft_replay_import(r, &chk) == 0 && memcmp(&chk.game, &g, sizeof g) == 0,
	    "the sample verifies (a partial game)");
	json_decref(r);

	r = sample(&g);
	json_object_set_new(r, "schema", json_integer(2));
	expect(r, STACKCRAFT_REPLAY_BAD_SCHEMA, 0, NULL, "schema 2");
	r = sample(&g);
	json_object_set_new(r, "rules", json_string("stackcraft-v2"));
	expect(r, STACKCRAFT_REPLAY_BAD_RULES, 0, NULL, "rules stackcraft-v2");
	r = sample(&g);
	json_object_set_new(r, "rules", json_string("stackfall-v1"));
	expect(r, STACKCRAFT_REPLAY_BAD_RULES, 0, NULL, "rules stackfall-v1");

	/* action 5 replaced by r0x9: every spawn shape is at least 2 wide */
	r = sample(&g);
	json_array_set_new(json_object_get(r, "actions"), 4, json_string("r0x9"));
	expect(r, STACKCRAFT_REPLAY_BAD_MOVE, 5, NULL, "an x out of range at step 5");
	/* action 3 replaced by a rotation the piece does not have */
	r = sample(&g);
	stackcraft_init(&g, 21, 0);
	acts = json_object_get(r, "actions");
	for (i = 0; i < 2; i++)
		stackcraft_step_id(&g, json_string_value(json_array_get(acts, i)), 4, NULL);
	n = stackcraft_legal(&g, a, STACKCRAFT_LEGAL_MAX);
	stackcraft_action_id(stackcraft_orientations(g.current), 0, id);
	json_array_set_new(acts, 2, json_string(id));
	expect(r, STACKCRAFT_REPLAY_BAD_MOVE, 3, NULL, "a rotation out of range at step 3");
	ok(n > 0, "(there were %zu legal moves at step 3)", n);

	/* the last move of a topped-out game replaced by an in-range placement
	 * that is unavailable there (the stack is high by then) */
	{
		const struct stackcraft_shape *sh;
		size_t last, k;
		unsigned rot, x, found = 0;

		ids = json_array();
		stackcraft_init(&over, 31, 0);
		while (over.status == STACKCRAFT_PLAYING) {
			n = stackcraft_legal(&over, a, STACKCRAFT_LEGAL_MAX);
			k = (size_t)(rng() % n);
			stackcraft_step(&over, a[k].rotation, a[k].x, NULL);
			json_array_append_new(ids, json_string(a[k].id));
		}
		last = json_array_size(ids) - 1;
		stackcraft_init(&g, 31, 0);
		for (i = 0; i < last; i++)
			stackcraft_step_id(&g, json_string_value(json_array_get(ids, i)), 4, NULL);
		n = stackcraft_legal(&g, a, STACKCRAFT_LEGAL_MAX);
		for (rot = 0; rot < stackcraft_orientations(g.current) && !found; rot++) {
			sh = stackcraft_shape(g.current, rot);
			for (x = 0; x + sh->width <= STACKCRAFT_COLS && !found; x++) {
				stackcraft_action_id(rot, x, id);
				found = 1;
				for (k = 0; k < n; k++)
					if (strcmp(a[k].id, id) == 0)
						found = 0;
			}
		}
		ok(found, "an unavailable placement exists before the last move");
		json_array_set_new(ids, last, json_string(id));
		r = stackcraft_replay_export(&over, ids);
		expect(r, STACKCRAFT_REPLAY_BAD_MOVE, last + 1, NULL,
		    "an unavailable placement as the last move");
	}
	r = sample(&g);
	json_array_set_new(json_object_get(r, "actions"), 7, json_string("r1x"));
	expect(r, STACKCRAFT_REPLAY_BAD_MOVE, 8, NULL, "a bad id at step 8");
	r = sample(&g);
	json_array_set_new(json_object_get(r, "actions"), 0, json_integer(3));
	expect(r, STACKCRAFT_REPLAY_BAD_MOVE, 1, NULL, "a number at step 1");

	/* a move after the end */
	ids = json_array();
	stackcraft_init(&over, 8, 3);
	play(&over, ids, 100);
	json_array_append_new(ids, json_string("r0x0"));
	r = stackcraft_replay_export(&over, ids);
	expect(r, STACKCRAFT_REPLAY_BAD_MOVE, 4, NULL, "a move after the cap ended the game");

	/* each field of the final summary */
	r = sample(&g);
	json_object_set_new(json_object_get(r, "final"), "score", json_integer((json_int_t)g.score + 100));
	expect(r, STACKCRAFT_REPLAY_BAD_FINAL, 0, "score", "final.score off by 100");
	r = sample(&g);
	json_object_set_new(json_object_get(r, "final"), "lines", json_integer((json_int_t)g.lines + 1));
	expect(r, STACKCRAFT_REPLAY_BAD_FINAL, 0, "lines", "final.lines off by one");
	r = sample(&g);
	json_object_set_new(json_object_get(r, "final"), "pieces", json_integer(11));
	expect(r, STACKCRAFT_REPLAY_BAD_FINAL, 0, "pieces", "final.pieces 11 for 12 moves");
	r = sample(&g);
	json_object_set_new(json_object_get(r, "final"), "status", json_string("over"));
	expect(r, STACKCRAFT_REPLAY_BAD_FINAL, 0, "status", "final.status over for a partial game");
	r = sample(&g);
	json_object_set_new(json_object_get(r, "final"), "end_reason", json_string("top_out"));
	expect(r, STACKCRAFT_REPLAY_BAD_FINAL, 0, "end_reason", "final.end_reason top_out");
	r = sample(&g);
	json_object_del(json_object_get(r, "final"), "lines");
	expect(r, STACKCRAFT_REPLAY_BAD_FORM, 0, NULL, "final without lines (a missing key is form)");
	r = sample(&g);
	json_object_set_new(json_object_get(r, "final"), "level", json_integer(1));
	expect(r, STACKCRAFT_REPLAY_BAD_FORM, 0, NULL, "final with an extra field");
	ids = json_array();
	stackcraft_init(&over, 8, 3);
	play(&over, ids, 100);
	r = stackcraft_replay_export(&over, ids);
	json_object_set_new(r, "cap", json_null());
	expect(r, STACKCRAFT_REPLAY_BAD_FINAL, 0, "status", "a capped game replayed without its cap");

	/* malformed */
	r = sample(&g);
	json_object_set_new(r, "hold", json_null());
	expect(r, STACKCRAFT_REPLAY_BAD_FORM, 0, NULL, "an extra key");
	r = sample(&g);
	json_object_del(r, "cap");
	expect(r, STACKCRAFT_REPLAY_BAD_FORM, 0, NULL, "no cap key");
	r = sample(&g);
	json_object_set_new(r, "cap", json_integer(0));
	expect(r, STACKCRAFT_REPLAY_BAD_FORM, 0, NULL, "cap 0 (none is null)");
	r = sample(&g);
	json_object_set_new(r, "seed", json_integer(-1));
	expect(r, STACKCRAFT_REPLAY_BAD_FORM, 0, NULL, "seed -1");
	r = sample(&g);
	json_object_set_new(r, "seed", json_integer((json_int_t)STACKCRAFT_SEED_MAX + 1));
	expect(r, STACKCRAFT_REPLAY_BAD_FORM, 0, NULL, "seed 2^53");
	r = sample(&g);
	json_object_set_new(r, "actions", json_string("r0x0"));
	expect(r, STACKCRAFT_REPLAY_BAD_FORM, 0, NULL, "actions not an array");
	r = sample(&g);
	json_object_set_new(r, "schema", json_string("1"));
	expect(r, STACKCRAFT_REPLAY_BAD_FORM, 0, NULL, "schema as a string");
	expect(json_array(), STACKCRAFT_REPLAY_BAD_FORM, 0, NULL, "an array");
	ok(stackcraft_replay_export(&g, NULL) == NULL, "export without actions is NULL");
}

int
main(void)
{
	test_state();
	test_action();
	test_rules();
	test_replay_round_trip();
	test_replay_refusals();
	return tap_done();
}
