/*
 * ab_trace.c: plays actionblocks-v1 match scripts through the engine and
 * prints every turn as one JSON line, for comparison with an independent
 * model (tests/actionblocks/TRACE.md is the format, read with
 * the design notes, "The trace format").
 *
 * stdin: one match script a line, {"seed", "players", "chance", "weights",
 * "turns": [[cmd or "missed" or null, ...], ...]}. stdout: for each turn
 * of each script, {"turn", "refused", "events", "players"} with sorted keys
 * and compact separators (jansson's JSON_SORT_KEYS | JSON_COMPACT is
 * byte-identical to Python's json.dumps(sort_keys=True,
 * separators=(',', ':')) for the ASCII strings and integers printed here).
 * A malformed script is reported on stderr and the exit status is 1.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actionblocks.h"

static json_t *
letter_or_null(char c)
{
	char s[2] = { c, '\0' };

	return c == 0 ? json_null() : json_string(s);
}

static json_t *
seat_state(const struct ab_match *m, unsigned seat)
{
	struct ab_view v;
	json_t *o = json_object(), *board = json_array(), *items = json_array(), *next = json_array(),
	    *queue = json_array();
	unsigned k;

	ab_view(m, seat, &v);
	for (k = 0; k < AB_ROWS; k++) {
		json_array_append_new(board, json_stringn(v.board[k], AB_COLS));
		json_array_append_new(items, json_stringn(v.items[k], AB_COLS));
	}
	for (k = 0; k < AB_NEXT; k++)
		json_array_append_new(next, letter_or_null(v.next[k]));
	for (k = 0; k < v.nqueue; k++)
		json_array_append_new(queue, json_pack("[ii]", (int)v.queue[k].lines,
		    (int)v.queue[k].hole));
	json_object_set_new(o, "board", board);
	json_object_set_new(o, "items", items);
	json_object_set_new(o, "piece", letter_or_null(v.piece));
	json_object_set_new(o, "x", v.piece ? json_integer(v.x) : json_null());
	json_object_set_new(o, "y", v.piece ? json_integer(v.y) : json_null());
	json_object_set_new(o, "r", v.piece ? json_integer(v.r) : json_null());
	json_object_set_new(o, "hold", letter_or_null(v.hold));
	json_object_set_new(o, "next", next);
	json_object_set_new(o, "score", json_integer((json_int_t)v.score));
	json_object_set_new(o, "lines", json_integer(v.lines));
	json_object_set_new(o, "level", json_integer(v.level));
	json_object_set_new(o, "combo", json_integer(v.combo));
	json_object_set_new(o, "b2b", json_boolean(v.b2b));
	json_object_set_new(o, "queue", queue);
	json_object_set_new(o, "inventory", json_string(v.inventory));
	json_object_set_new(o, "alive", json_boolean(v.alive));
	json_object_set_new(o, "place", json_integer(v.place));
	json_object_set_new(o, "end", json_string(v.end));
	json_object_set_new(o, "blind", json_integer(v.blind));
	json_object_set_new(o, "transform", json_integer(v.transform));
	return o;
}

static json_t *
seat_event(const struct ab_seat_events *e, int32_t combo_now)
{
	json_t *o = json_object(), *sent = json_array();
	const struct ab_lock_events *l = &e->lock;

	if (e->locked && l->sent > 0 && l->target != AB_NOBODY)
		json_array_append_new(sent, json_pack("[iii]", (int)l->target, (int)l->sent,
		    (int)l->hole));
	json_object_set_new(o, "lines", json_integer(e->locked ? l->lines : 0));
	json_object_set_new(o, "spin", json_string(ab_spin_name(e->locked ? l->spin : 0)));
	json_object_set_new(o, "points", json_integer(e->locked ? (json_int_t)l->points : 0));
	json_object_set_new(o, "attack", json_integer(e->locked ? l->attack : 0));
	json_object_set_new(o, "cancelled", json_integer(e->locked ? l->cancelled : 0));
	json_object_set_new(o, "sent", sent);
	json_object_set_new(o, "b2b", json_boolean(e->locked && l->b2b));
	json_object_set_new(o, "combo", json_integer(e->locked ? l->combo : combo_now));
	json_object_set_new(o, "perfect", json_boolean(e->locked && l->perfect));
	json_object_set_new(o, "drop_points", json_integer(e->drop_points));
	return o;
}

static void
emit(json_t *line)
{
	char *s = json_dumps(line, JSON_SORT_KEYS | JSON_COMPACT | JSON_ENSURE_ASCII);

	if (s != NULL) {
		fputs(s, stdout);
		fputc('\n', stdout);
		free(s);
	}
	json_decref(line);
}

static json_t *
all_states(const struct ab_match *m)
{
	json_t *a = json_array();
	unsigned i;

	for (i = 0; i < m->nplayers; i++)
		json_array_append_new(a, seat_state(m, i));
	return a;
}

/* Plays one script; false when it is malformed. */
static bool
play(json_t *script, unsigned lineno)
{
	struct ab_match m;
	struct ab_events ev;
	struct ab_move moves[AB_PLAYERS_MAX];
	char reason[ENGINE_REASON_MAX];
	json_t *turns, *turn, *cmd, *w, *line, *events;
	json_int_t seed, players, chance;
	uint8_t weights[AB_ITEM_KINDS] = { 0 };
	size_t t, i;
	unsigned bad;
	bool refused_seat;
	int refused_at;

	if (!json_is_object(script) || !json_is_integer(json_object_get(script, "seed")) ||
	    !json_is_integer(json_object_get(script, "players")) ||
	    !json_is_array(turns = json_object_get(script, "turns"))) {
		fprintf(stderr, "ab_trace: line %u: not a match script\n", lineno);
		return false;
	}
	seed = json_integer_value(json_object_get(script, "seed"));
	players = json_integer_value(json_object_get(script, "players"));
	chance = json_is_integer(json_object_get(script, "chance")) ?
	    json_integer_value(json_object_get(script, "chance")) : 0;
	w = json_object_get(script, "weights");
	if (json_is_array(w)) {
		if (json_array_size(w) != AB_ITEM_KINDS) {
			fprintf(stderr, "ab_trace: line %u: weights needs 6 numbers\n", lineno);
			return false;
		}
		for (i = 0; i < AB_ITEM_KINDS; i++) {
			json_int_t x = json_integer_value(json_array_get(w, i));

			if (!json_is_integer(json_array_get(w, i)) || x < 0 || x > AB_ITEM_WEIGHT_MAX) {
				fprintf(stderr, "ab_trace: line %u: weights are 0..100\n", lineno);
				return false;
			}
			weights[i] = (uint8_t)x;
		}
	}
	if (seed < 0 || players < 0 || chance < 0 ||
	    !ab_init(&m, (uint64_t)seed, (unsigned)players, AB_CLOCK_TURNS, (unsigned)chance,
	    weights)) {
		fprintf(stderr, "ab_trace: line %u: seed, players, chance or weights out of range\n",
		    lineno);
		return false;
	}
	json_array_foreach(turns, t, turn) {
		if (!json_is_array(turn) || json_array_size(turn) != m.nplayers) {
			fprintf(stderr, "ab_trace: line %u: turn %zu needs %u commands\n", lineno, t + 1,
			    (unsigned)m.nplayers);
			return false;
		}
		line = json_object();
		json_object_set_new(line, "turn", json_integer((json_int_t)t + 1));
		refused_at = -1;
		refused_seat = true;
		reason[0] = '\0';
		memset(moves, 0, sizeof moves);
		if (m.over) {
			refused_seat = false;
			snprintf(reason, sizeof reason, "the match is over");
		}
		/* Commands in match order: the first that does not read or does
		 * not pass the check refuses the turn. */
		for (i = 0; i < m.nplayers && refused_at < 0 && !m.over; i++) {
			cmd = json_array_get(turn, i);
			if (!m.players[i].alive) {
				moves[i].kind = AB_MOVE_NONE;
				continue;
			}
			if (json_is_null(cmd)) {
				moves[i].kind = AB_MOVE_NONE;
			} else if (!json_is_string(cmd)) {
				fprintf(stderr, "ab_trace: line %u: a command is a string or null\n", lineno);
				json_decref(line);
				return false;
			} else if (strcmp(json_string_value(cmd), "missed") == 0) {
				moves[i].kind = AB_MOVE_MISSED;
				continue;
			} else if (ab_move_parse(json_string_value(cmd), json_string_length(cmd), &moves[i],
			    reason, sizeof reason) != AB_PARSE_OK) {
				refused_at = (int)i;
				break;
			}
			if (!ab_check_move(&m, (unsigned)i, &moves[i], reason, sizeof reason))
				refused_at = (int)i;
		}
		if (refused_at < 0 && !m.over) {
			int32_t combos[AB_PLAYERS_MAX];
			bool was_alive[AB_PLAYERS_MAX];

			for (i = 0; i < m.nplayers; i++)
				was_alive[i] = m.players[i].alive;
			if (ab_resolve(&m, moves, &ev, &bad, reason, sizeof reason) != AB_OK) {
				/* Unreachable: every move passed ab_check_move above. */
				refused_at = (int)bad;
			} else {
				events = json_array();
				for (i = 0; i < m.nplayers; i++) {
					combos[i] = m.players[i].combo;
					json_array_append_new(events, was_alive[i] ?
					    seat_event(&ev.seats[i], combos[i]) : json_null());
				}
				json_object_set_new(line, "refused", json_null());
				json_object_set_new(line, "events", events);
			}
		}
		if (refused_at >= 0 || json_object_get(line, "events") == NULL) {
			json_object_set_new(line, "refused", json_pack("{s:o,s:s}", "seat",
			    refused_seat && refused_at >= 0 ? json_integer(refused_at) : json_null(),
			    "reason", reason));
			json_object_set_new(line, "events", json_null());
		}
		json_object_set_new(line, "players", all_states(&m));
		emit(line);
	}
	return true;
}

int
main(void)
{
	char *buf = NULL;
	size_t cap = 0;
	ssize_t n;
	unsigned lineno = 0;
	json_error_t err;
	json_t *script;
	int status = 0;

	while ((n = getline(&buf, &cap, stdin)) > 0) {
		lineno++;
		while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
			buf[--n] = '\0';
		if (n == 0)
			continue;
		script = json_loadb(buf, (size_t)n, 0, &err);
		if (script == NULL) {
			fprintf(stderr, "ab_trace: line %u: %s\n", lineno, err.text);
			status = 1;
			continue;
		}
		if (!play(script, lineno))
			status = 1;
		json_decref(script);
	}
	free(buf);
	fflush(stdout);
	return status;
}
