/*
 * test_match_rules.c: the table of match rulesets (match_rules.h), walked
 * as the server walks it, so that a ruleset added by its line is held to
 * what the server takes for granted, with no new line here:
 *
 *   - the table is the list's rulesets, the default first; each name is
 *     found by match_rules_by_name and named by match_rules_names, and an
 *     unknown name is not found;
 *   - every size fits what the server and the store hold (the check
 *     match_play_start makes), every hook is set, the options' fields are
 *     listed;
 *   - for each player count the ruleset takes, a match starts from the
 *     options an empty body gives (all off), stands at turn 0 with every
 *     seat in, encodes within state_max, decodes to a state that encodes
 *     to the same bytes, and refuses those bytes cut short or changed;
 *     its totals are the shared MATCH_TOTALS_SIZE bytes;
 *   - its pending moves: none sent write nothing and read back none;
 *   - a turn with every move missed resolves (match_resolve), writes its moves and
 *     events as JSON, and leaves a state that encodes and decodes;
 *   - its view (a spectator's and each seat's) and a lobby's view are
 *     JSON objects naming the ruleset;
 *   - a replay that is no object is refused by its verifier.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "jw.h"
#include "match.h"
#include "match_rules.h"
#include "tap.h"

/* The store's columns (server/store/store.h): the largest of the
 * rulesets', generated from the table (match_limits.h). */
#define STORE_STATE_MAX MATCH_STATE_MAX_ALL
#define STORE_PENDING_MAX MATCH_PENDING_MAX_ALL
#define STORE_TOTALS_MAX MATCH_TOTALS_SIZE_ALL

/* w's text as JSON, or NULL when it is not. */
static json_t *
taken(struct jw *w)
{
	size_t n = 0;
	char *text = jw_take(w, &n);
	json_t *v = text != NULL ? json_loadb(text, n, 0, NULL) : NULL;

	free(text);
	return v;
}

static void
one_ruleset(const struct match_rules *mr)
{
	static uint8_t bytes[STORE_STATE_MAX], again[STORE_STATE_MAX], pend[STORE_PENDING_MAX];
	uint8_t totals[STORE_TOTALS_MAX];
	struct match_options o;
	struct match_standing s;
	struct match_turn_out out;
	struct match_rules_record r;
	match_moves mv;
	void *st = malloc(mr->state_size), *st2 = malloc(mr->state_size);
	char msg[256];
	unsigned n;
	uint8_t moved = 0xff;
	int viewer;

	ok(mr->name != NULL && mr->name[0] != '\0' && match_rules_by_name(mr->name) == mr,
	    "%s: found by its name", mr->name);
	ok(mr->state_max <= STORE_STATE_MAX && mr->pending_max <= STORE_PENDING_MAX &&
	    mr->totals_size <= STORE_TOTALS_MAX && mr->move_size > 0 && mr->move_size <= MATCH_MOVE_MAX &&
	    mr->players_min >= 2 && mr->players_min <= mr->players_max &&
	    mr->players_max <= MATCH_PLAYERS_MAX && mr->state_size > 0 &&
	    mr->state_size <= sizeof(match_state) && mr->events_size > 0 &&
	    mr->events_size <= sizeof(match_events) && mr->totals_size == MATCH_TOTALS_SIZE &&
	    mr->seed_max > 0,
	    "%s: its sizes fit the store's columns, the server's buffers and the shared code's",
	    mr->name);
	ok(mr->options_read && mr->start && mr->encode && mr->decode && mr->standing && mr->move_read &&
	    mr->move_text && mr->move_check && mr->pending_read && mr->pending_write &&
	    mr->move_missed && mr->turn_play && mr->totals_add && mr->events_write && mr->seat_write &&
	    mr->missed != NULL && mr->option_fields != NULL, "%s: every hook is set", mr->name);
	ok(mr->options_read(NULL, &o, msg, sizeof msg) && !o.on,
	    "%s: an empty body gives its options, all off", mr->name);
	ok(mr->pending_write(&mv, 0, mr->players_max, pend) == 0, "%s: no move sent writes nothing",
	    mr->name);
	mr->pending_read(pend, 0, mr->players_max, &mv, &moved);
	is_int(moved, 0, "%s: and nothing reads back as none sent", mr->name);

	for (n = mr->players_min; n <= mr->players_max; n++) {
		size_t len, len2;
		json_t *v, *t, *e;
		struct jw w, ev;
		bool fine = true;

		if (!ok(st != NULL && st2 != NULL && mr->start(st, 42 + n, n, &o),
		    "%s, %u players: starts", mr->name, n))
			continue;
		memset(totals, 0, sizeof totals);
		mr->standing(st, &s);
		ok(s.turn == 0 && s.nplayers == n && s.alive == (uint8_t)((1u << n) - 1),
		    "%s, %u players: at turn 0, every seat in", mr->name, n);
		len = mr->encode(st, bytes, sizeof bytes);
		ok(len > 0 && len <= mr->state_max, "%s, %u players: encodes in %zu bytes", mr->name, n, len);
		ok(mr->decode(st2, bytes, len) && mr->encode(st2, again, sizeof again) == len &&
		    memcmp(again, bytes, len) == 0, "%s, %u players: decodes to the same bytes", mr->name, n);
		ok(!mr->decode(st2, bytes, len - 1), "%s, %u players: one byte short is refused", mr->name, n);
		bytes[len / 2] ^= 0x5a;
		ok(!mr->decode(st2, bytes, len), "%s, %u players: a changed byte is refused", mr->name, n);
		bytes[len / 2] ^= 0x5a;

		memset(&r, 0, sizeof r);
		r.id = 7;
		r.seed = 42 + n;
		r.rules = mr->name;
		r.status = "playing";
		r.end_reason = "";
		r.players = r.joined = r.nseats = (int)n;
		r.turn_seconds = 10;
		r.turn_cap = 1000;
		r.options = o;
		r.state = st;
		r.totals = totals;
		for (viewer = -1; viewer < (int)n; viewer++) {
			jw_init(&w, 256, 1u << 22);
			match_view_write(mr, &w, &r, viewer, 0);
			v = taken(&w);
			fine = fine && json_is_object(v) &&
			    json_is_string(json_object_get(v, "rules")) &&
			    strcmp(json_string_value(json_object_get(v, "rules")), mr->name) == 0;
			json_decref(v);
		}
		ok(fine, "%s, %u players: every seat's view and a spectator's are JSON naming it", mr->name, n);

		jw_init(&w, 256, 1u << 22);
		jw_init(&ev, 256, 1u << 22);
		ok(match_resolve(mr, st, &mv, 0, totals, 1000, &w, &ev, &out), "%s, %u players: every move missed, "
		    "a turn resolves", mr->name, n);
		t = taken(&w);
		e = taken(&ev);
		ok(json_is_array(t) && json_array_size(t) == n && json_is_object(e),
		    "%s, %u players: its moves (one a seat) and events are JSON", mr->name, n);
		json_decref(t);
		json_decref(e);
		mr->standing(st, &s);
		len2 = mr->encode(st, bytes, sizeof bytes);
		ok(s.turn == 1 && len2 > 0 && len2 <= mr->state_max && mr->decode(st2, bytes, len2),
		    "%s, %u players: at turn 1, the state encodes and decodes", mr->name, n);
	}

	memset(&r, 0, sizeof r);
	r.id = 8;
	r.rules = mr->name;
	r.status = "lobby";
	r.end_reason = "";
	r.players = (int)mr->players_max;
	r.joined = r.nseats = 1;
	r.options = o;
	{
		struct jw w;
		json_t *v;

		jw_init(&w, 256, 1u << 22);
		match_view_write(mr, &w, &r, 0, 0);
		v = taken(&w);
		ok(json_is_object(v), "%s: a lobby's view is JSON", mr->name);
		json_decref(v);
	}
	{
		struct match_replay_check chk;
		json_t *no = json_integer(1);

		memset(&chk, 0, sizeof chk);
		ok(match_verify(mr, no, &chk) != 0 && chk.reason[0] != '\0', "%s: a replay that is no object is "
		    "refused (%s)", mr->name, chk.reason);
		json_decref(chk.final);
		json_decref(no);
	}
	free(st);
	free(st2);
}

int
main(void)
{
	char names[256];
	size_t i;

	ok(MATCH_RULES__COUNT >= 1 && match_rules_default() == match_rules_table[0],
	    "%d rulesets; the default is the first", MATCH_RULES__COUNT);
	match_rules_names(names, sizeof names);
	ok(strstr(names, match_rules_default()->name) == names, "the names, default first: %s", names);
	ok(match_rules_by_name("no-such-rules-v1") == NULL && match_rules_by_name(NULL) == NULL,
	    "an unknown name (or none) finds no ruleset");
	for (i = 0; i < MATCH_RULES__COUNT; i++) {
		ok(match_rules_table[i]->id == (enum match_rules_id)i, "%s: its id is its place",
		    match_rules_table[i]->name);
		one_ruleset(match_rules_table[i]);
	}
	return tap_done();
}
