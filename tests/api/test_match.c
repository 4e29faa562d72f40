/*
 * test_match.c: what the shared match code (api/game/match.c) makes of a
 * versus match, through versus's descriptor (api/versus/versus_rules.c).
 *
 *   - the totals' bytes round-trip, and only their exact length decodes;
 *   - how a match ends and its places: the engine's, and the cap's shared
 *     first place for those still in;
 *   - replays: matches played by bots on the engine, written as replays the
 *     way the server writes them (a turn's entry, null for a player out,
 *     and match_final_json),
 *     verify; each kind of tampering is refused at the right turn (an
 *     illegal move, a move for a player out, a missing entry, a turn after
 *     the end, a changed final, a cap below the turns, a wrong form);
 *   - a turn's public events never carry the hole of a block on its way;
 *   - what the server asks of the engine through the descriptor gives what
 *     the engine gives (moves read and written, a match started, its
 *     bytes), and a turn resolves (match_resolve) with a stored move the
 *     engine refuses missed.
 */
#include <stdlib.h>
#include <string.h>

#include "jw.h"
#include "match.h"
#include "versus_json.h"
#include "versus_odd.h"
#include "tap.h"

static uint64_t rng_state = 0x2545f4914f6cdd1du;

static uint64_t
rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* Text the server writes (jw.h) read back as a value, as it reads a
 * stored turn; NULL when either fails. The writer is left empty. */
static json_t *
read_back(struct jw *w)
{
	char *text = jw_take(w, NULL);
	json_t *v = text != NULL ? json_loads(text, 0, NULL) : NULL;

	free(text);
	return v;
}

/* A turn's replay entry, as the row stores it: each player's canonical
 * move, null for a player out before the turn. */
static json_t *
turn_value(const struct versus_match *before, const struct versus_move *mv)
{
	json_t *entry = json_array();
	char text[32];
	unsigned i;

	for (i = 0; i < before->nplayers; i++) {
		versus_move_text(&mv[i], text, sizeof text);
		json_array_append_new(entry, before->players[i].alive ? json_string(text) : json_null());
	}
	return entry;
}

/* How m stands, and ends with the cap. */
static enum match_end
end_of(const struct versus_match *m, uint32_t cap)
{
	struct match_standing s;

	match_versus.standing(m, &s);
	return match_end_of(&s, cap);
}

/* The final summary of m, as a replay carries it. */
static json_t *
final_of(const struct versus_match *m, uint32_t cap, const struct match_totals *t)
{
	struct match_standing s;

	match_versus.standing(m, &s);
	return match_final_json(&s, match_end_of(&s, cap), t);
}

/* A turn's events, as the row stores them. */
static json_t *
events_value(const struct versus_events *ev, const struct versus_move *mv)
{
	struct jw w;

	jw_init(&w, 256, 1u << 20);
	versus_events_write(&w, ev, mv);
	return read_back(&w);
}

/* The placements of a slot: a tetromino's, or an odd shape's under a
 * Transformation. */
static size_t
options(const struct tetromino_board *b, unsigned piece, unsigned shape,
    struct tetromino_option *o)
{
	if (shape == VERSUS_SHAPE_PIECE)
		return tetromino_options(b, piece, o, TETROMINO_OPTIONS_MAX);
	return versus_odd_options(b, shape - 1, o, VERSUS_ODD_OPTIONS_MAX);
}

/* A bot: the flattest placement, sometimes a hold, a miss or a resign. */
static struct versus_move
bot(const struct versus_player *p)
{
	struct tetromino_option o[VERSUS_ODD_OPTIONS_MAX];
	struct versus_move mv = { VERSUS_MOVE_PLACE, false, 0, 0, 0 };
	unsigned piece, shape;
	size_t n, i, best = 0;

	if (rng() % 100 < 5)
		return (struct versus_move){ VERSUS_MOVE_MISSED, false, 0, 0, 0 };
	if (rng() % 200 == 0)
		return (struct versus_move){ VERSUS_MOVE_RESIGN, false, 0, 0, 0 };
	mv.hold = rng() % 100 < 10;
	piece = mv.hold ? versus_hold_piece(p) : p->current;
	shape = mv.hold ? versus_hold_shape(p) : p->current_shape;
	n = options(&p->board, piece, shape, o);
	if (n == 0) {
		mv.hold = !mv.hold;
		piece = mv.hold ? versus_hold_piece(p) : p->current;
		shape = mv.hold ? versus_hold_shape(p) : p->current_shape;
		n = options(&p->board, piece, shape, o);
	}
	for (i = 1; i < n; i++)
		if (o[i].figures.holes * 4 + o[i].figures.max_height + (long)(rng() % 3) <
		    o[best].figures.holes * 4 + o[best].figures.max_height)
			best = i;
	mv.rotation = o[best].rotation;
	mv.column = o[best].column;
	return mv;
}

/* A bot match written as the server writes its replay. */
static json_t *
play(uint64_t seed, unsigned nplayers, uint32_t cap)
{
	struct versus_match m, before;
	struct versus_events ev;
	struct versus_move mv[VERSUS_PLAYERS_MAX];
	struct match_totals t;
	json_t *turns = json_array();
	unsigned i;

	versus_init(&m, seed, nplayers);
	memset(&t, 0, sizeof t);
	while (end_of(&m, cap) == MATCH_END_NONE) {
		for (i = 0; i < nplayers; i++)
			mv[i] = m.players[i].alive ? bot(&m.players[i]) :
			    (struct versus_move){ VERSUS_MOVE_MISSED, false, 0, 0, 0 };
		before = m;
		if (versus_resolve(&m, mv, &ev, NULL, NULL, 0) != VERSUS_OK)
			break;
		versus_totals_add(&t, &ev);
		json_array_append_new(turns, turn_value(&before, mv));
	}
	return match_replay_new(VERSUS_RULES, seed, nplayers, cap, turns, final_of(&m, cap, &t), 0, NULL);
}

/* Transformations used and odd shapes placed in play_items() matches. */
static long transforms, odd_placed;

/* A bot match with items (chance 30, equal weights), bots using an item
 * now and then on a seat the engine takes. */
static json_t *
play_items(uint64_t seed, unsigned nplayers, uint32_t cap, long *uses)
{
	static const uint8_t w[VERSUS_ITEM_KINDS] = { 1, 1, 1, 1, 1, 1 };
	struct versus_match m, before;
	struct versus_events ev;
	struct versus_move mv[VERSUS_PLAYERS_MAX];
	struct match_totals t;
	json_t *turns = json_array();
	unsigned i;

	versus_init(&m, seed, nplayers);
	versus_set_items(&m, 30, w);
	memset(&t, 0, sizeof t);
	while (end_of(&m, cap) == MATCH_END_NONE) {
		for (i = 0; i < nplayers; i++) {
			mv[i] = m.players[i].alive ? bot(&m.players[i]) :
			    (struct versus_move){ VERSUS_MOVE_MISSED, false, 0, 0, 0 };
			if (mv[i].kind == VERSUS_MOVE_PLACE && m.players[i].ninventory > 0 &&
			    rng() % 3 == 0) {
				mv[i].use = 1 + (uint32_t)(rng() % nplayers);
				if (!versus_check_move(&m, i, &mv[i], NULL, 0))
					mv[i].use = 0;
			}
		}
		before = m;
		if (versus_resolve(&m, mv, &ev, NULL, NULL, 0) != VERSUS_OK)
			break;
		*uses += ev.nhits;
		for (i = 0; i < ev.nhits; i++)
			transforms += ev.hits[i].item == VERSUS_ITEM_TRANSFORM;
		for (i = 0; i < nplayers; i++)
			odd_placed += (ev.players[i].action == VERSUS_ACT_PLACED ||
			    ev.players[i].action == VERSUS_ACT_DROPPED) && ev.players[i].shape != 0;
		versus_totals_add(&t, &ev);
		json_array_append_new(turns, turn_value(&before, mv));
	}
	return match_replay_new(VERSUS_RULES, seed, nplayers, cap, turns, final_of(&m, cap, &t),
	    m.item_chance, m.item_weights);
}

static int
verify_turn(const json_t *replay, size_t *turn)
{
	struct match_replay_check chk;
	int rc = match_verify(&match_versus, replay, &chk);

	*turn = chk.turn;
	json_decref(chk.final);
	return rc;
}

static void
item_replays(void)
{
	long valid = 0, changed = 0, uses = 0, noitems = 0;
	int k;

	for (k = 0; k < 30; k++) {
		unsigned n = 2 + (unsigned)(rng() % 7);
		json_t *r = play_items(rng() & VERSUS_SEED_MAX, n, 300, &uses), *bad;
		json_t *w = json_object_get(json_object_get(r, "items"), "weights");
		size_t turn;

		valid += verify_turn(r, &turn) == 0;
		bad = json_deep_copy(r);
		json_object_del(bad, "items");
		noitems += verify_turn(bad, &turn) != 0;
		json_decref(bad);
		bad = json_deep_copy(r);
		w = json_object_get(json_object_get(bad, "items"), "weights");
		json_array_set_new(w, 0, json_integer(7));
		changed += verify_turn(bad, &turn) != 0;
		json_decref(bad);
		json_decref(r);
	}
	is_int(valid, 30, "30 bot matches with items verify");
	ok(uses > 30, "their bots used items (%ld hits)", uses);
	ok(transforms > 0 && odd_placed > 0,
	    "among them transforms (%ld), and odd shapes were placed (%ld)", transforms, odd_placed);
	ok(noitems >= 25, "without the items object most are refused (%ld of 30)", noitems);
	ok(changed >= 20, "with other weights most are refused (%ld of 30)", changed);
}

static void
replays(void)
{
	long played = 0, valid = 0, illegal = 0, out_move = 0, short_entry = 0, after_end = 0,
	    final_changed = 0, turns = 0, capped = 0;
	int k;

	for (k = 0; k < 60; k++) {
		unsigned n = 2 + (unsigned)(rng() % 7);
		uint32_t cap = k % 5 == 0 ? 20 + (uint32_t)(rng() % 40) : 1000;
		json_t *r = play(rng() & VERSUS_SEED_MAX, n, cap), *bad, *tt;
		size_t nt, at, turn;
		unsigned p;

		played++;
		tt = json_object_get(r, "turns");
		nt = json_array_size(tt);
		turns += (long)nt;
		capped += strcmp(json_string_value(json_object_get(json_object_get(r, "final"), "end")),
		    "turn_cap") == 0;
		valid += verify_turn(r, &turn) == 0;
		if (nt == 0) {
			json_decref(r);
			continue;
		}
		/* An illegal move at a random turn, for a player still in. */
		at = rng() % nt;
		for (p = 0; p < n && json_is_null(json_array_get(json_array_get(tt, at), p)); p++)
			;
		bad = json_deep_copy(r);
		json_array_set_new(json_array_get(json_object_get(bad, "turns"), at), p,
		    json_string("place 7 0"));
		illegal += verify_turn(bad, &turn) != 0 && turn == at + 1;
		json_decref(bad);
		/* An entry one move short. */
		bad = json_deep_copy(r);
		json_array_remove(json_array_get(json_object_get(bad, "turns"), at), 0);
		short_entry += verify_turn(bad, &turn) != 0 && turn == at + 1;
		json_decref(bad);
		/* A move for a player out, at the last turn (someone is out then
		 * unless the cap ended it with all in). */
		bad = json_deep_copy(r);
		for (p = 0; p < n && !json_is_null(json_array_get(json_array_get(tt, nt - 1), p)); p++)
			;
		if (p < n) {
			json_array_set_new(json_array_get(json_object_get(bad, "turns"), nt - 1), p,
			    json_string("missed"));
			out_move += verify_turn(bad, &turn) != 0 && turn == nt;
		} else
			out_move++;
		json_decref(bad);
		/* A turn after the end (or past the cap). */
		bad = json_deep_copy(r);
		json_array_append(json_object_get(bad, "turns"), json_array_get(tt, nt - 1));
		after_end += verify_turn(bad, &turn) != 0;
		json_decref(bad);
		/* A changed score. */
		bad = json_deep_copy(r);
		json_object_set_new(json_array_get(json_object_get(json_object_get(bad, "final"), "players"), 0),
		    "score", json_integer(123456789));
		final_changed += verify_turn(bad, &turn) != 0 && turn == nt;
		json_decref(bad);
		json_decref(r);
	}
	diag("%ld bot matches, %ld turns in all, %ld ended by their cap", played, turns, capped);
	is_int(valid, played, "every bot match's replay verifies");
	is_int(illegal, played, "an illegal move is refused at its turn");
	is_int(short_entry, played, "a turn missing a move is refused at its turn");
	is_int(out_move, played, "a move for a player out is refused at its turn");
	is_int(after_end, played, "a turn after the end is refused");
	is_int(final_changed, played, "a changed final is refused at the last turn");
	ok(capped > 0, "some matches ended by the cap");
}

static void
forms(void)
{
	json_t *r = play(7, 2, 50);
	json_t *bad;
	size_t turn;
	struct match_replay_check chk;

	ok(match_rules_by_name(json_string_value(json_object_get(r, "rules"))) == &match_versus,
	    "a match replay names its ruleset");
	bad = json_deep_copy(r);
	json_object_set_new(bad, "turn_cap", json_integer(1));
	ok(verify_turn(bad, &turn) != 0 && turn == 0, "a cap below the turns is refused");
	json_decref(bad);
	bad = json_deep_copy(r);
	json_object_set_new(bad, "players", json_integer(9));
	ok(verify_turn(bad, &turn) != 0 && turn == 0, "nine players are refused");
	json_decref(bad);
	bad = json_deep_copy(r);
	json_object_set_new(bad, "extra", json_true());
	ok(verify_turn(bad, &turn) != 0 && turn == 0, "an extra key is refused");
	json_decref(bad);
	bad = json_deep_copy(r);
	json_object_set_new(bad, "schema", json_integer(2));
	ok(match_verify(&match_versus, bad, &chk) != 0 && strstr(chk.reason, "schema") != NULL,
	    "schema 2 is refused");
	json_decref(bad);
	bad = json_deep_copy(r);
	json_object_set_new(bad, "rules", json_string("stackfall-v1"));
	ok(match_verify(&match_versus, bad, &chk) != 0 && strstr(chk.reason, "versus-v1") != NULL,
	    "other rules are not versus's");
	json_decref(bad);
	json_decref(r);
}

static void
ends_and_places(void)
{
	struct versus_match m;
	struct versus_move mv[3] = { { VERSUS_MOVE_PLACE, false, 0, 0, 0 },
		{ VERSUS_MOVE_RESIGN, false, 0, 0, 0 }, { VERSUS_MOVE_PLACE, false, 0, 6, 0 } };
	uint8_t places[VERSUS_PLAYERS_MAX];
	struct match_standing s;
	struct match_totals t, back;
	uint8_t bytes[MATCH_TOTALS_SIZE];
	unsigned i;

	versus_init(&m, 7, 3);
	is_int(end_of(&m, 5), MATCH_END_NONE, "a new match is playing");
	versus_resolve(&m, mv, NULL, NULL, NULL, 0);
	match_versus.standing(&m, &s);
	match_places(&s, match_end_of(&s, 5), places);
	ok(places[0] == 0 && places[1] == 3 && places[2] == 0, "player 1 resigned: place 3, the others undecided");
	mv[1].kind = VERSUS_MOVE_MISSED;
	for (i = 0; i < 4; i++)
		versus_resolve(&m, mv, NULL, NULL, NULL, 0);
	ok(m.turn == 5 && !m.over, "five turns, two still in");
	is_int(end_of(&m, 5), MATCH_END_TURN_CAP, "a cap of 5 ends it");
	is_int(end_of(&m, 6), MATCH_END_NONE, "a cap of 6 does not");
	match_versus.standing(&m, &s);
	match_places(&s, MATCH_END_TURN_CAP, places);
	ok(places[0] == 1 && places[1] == 3 && places[2] == 1, "at the cap those still in share place 1");
	is_str(match_end_name(MATCH_END_ALL_OUT), "all_out", "end names");

	for (i = 0; i < VERSUS_PLAYERS_MAX; i++) {
		t.sent[i] = (uint32_t)rng();
		t.received[i] = (uint32_t)rng();
	}
	match_totals_encode(&t, bytes);
	ok(match_totals_decode(&back, bytes, sizeof bytes) && memcmp(&t, &back, sizeof t) == 0,
	    "the totals round-trip");
	ok(!match_totals_decode(&back, bytes, sizeof bytes - 1), "a short totals blob is refused");
}

static void
events(void)
{
	struct versus_match m;
	struct versus_events ev;
	struct versus_move mv[3];
	long sent = 0, shown = 0, turns = 0;
	int k, turn, i;

	for (k = 0; k < 40 && sent < 30; k++) {
		versus_init(&m, rng() & VERSUS_SEED_MAX, 3);
		for (turn = 0; turn < 400 && !m.over; turn++, turns++) {
			json_t *e;

			for (i = 0; i < 3; i++)
				mv[i] = m.players[i].alive ? bot(&m.players[i]) :
				    (struct versus_move){ VERSUS_MOVE_MISSED, false, 0, 0, 0 };
			if (versus_resolve(&m, mv, &ev, NULL, NULL, 0) != VERSUS_OK)
				break;
			e = events_value(&ev, mv);
			for (i = 0; i < 3; i++) {
				json_t *p = json_deep_copy(json_array_get(json_object_get(e, "players"), (size_t)i));
				char *text;

				sent += ev.players[i].sent > 0;
				/* A hole shows only inside "risen": blocks that rose. */
				json_object_del(p, "risen");
				text = json_dumps(p, JSON_COMPACT);
				shown += text == NULL || strstr(text, "hole") != NULL;
				free(text);
				json_decref(p);
			}
			json_decref(e);
		}
	}
	diag("%ld blocks sent over %ld turns", sent, turns);
	ok(sent > 0, "blocks were sent");
	is_int(shown, 0, "no turn shows a hole outside the blocks that rose in it");
}

/* The engine's bytes of m. */
static size_t
bytes(const struct versus_match *m, uint8_t *out)
{
	return versus_encode(m, out, VERSUS_SERIAL_MAX);
}

static void
server_calls(void)
{
	static const uint8_t weights[VERSUS_ITEM_KINDS] = { 1, 2, 0, 3, 1, 1 };
	static struct versus_match a, b, before;
	static uint8_t x[VERSUS_SERIAL_MAX], y[VERSUS_SERIAL_MAX];
	const struct match_rules *mr = &match_versus;
	struct match_options off = { .on = false }, on = { .on = true, .chance = 30 }, over;
	struct versus_move mv[VERSUS_PLAYERS_MAX], mw[VERSUS_PLAYERS_MAX];
	struct versus_events ew;
	struct match_turn_out out;
	uint8_t totals[MATCH_TOTALS_SIZE] = { 0 };
	struct jw wm, we;
	json_t *je, *jf, *jm;
	char reason[ENGINE_REASON_MAX], want[ENGINE_REASON_MAX], text[32];
	size_t nx, ny;
	unsigned bad = 9;

	memcpy(on.shares, weights, sizeof on.shares);
	over = on;
	over.chance = 101;
	/* Moves read and written as the engine reads and writes them. */
	is_int(mr->move_read("hold; place 1 4", 15, &mv[0], reason, sizeof reason), MATCH_PARSE_OK,
	    "move_read reads a move");
	is_int(mr->move_text(&mv[0], text, sizeof text), 15, "move_text: its length");
	is_str(text, "hold; place 1 4", "move_text: the canonical text");
	is_int(mr->move_read("", 0, &mv[0], reason, sizeof reason), MATCH_PARSE_EMPTY,
	    "no command is EMPTY");
	ok(mr->move_read("jump", 4, &mv[0], reason, sizeof reason) == MATCH_PARSE_INVALID &&
	    reason[0] != '\0', "a command that is no move is INVALID, with a reason");

	/* A match started, without items and with. */
	ok(mr->start(&a, 42, 3, &off) && versus_init(&b, 42, 3), "start starts a match without items");
	nx = bytes(&a, x);
	ny = bytes(&b, y);
	ok(nx == ny && memcmp(x, y, nx) == 0, "... as versus_init does, byte for byte");
	ok(mr->start(&a, 42, 3, &on) && versus_init(&b, 42, 3) && versus_set_items(&b, 30, weights),
	    "start starts a match with items");
	nx = bytes(&a, x);
	ny = bytes(&b, y);
	ok(nx == ny && memcmp(x, y, nx) == 0, "... as versus_init and versus_set_items do");
	ok(!mr->start(&a, 42, 9, &off), "nine players are refused");
	ok(!mr->start(&a, 42, 3, &over), "an item chance above 100 is refused");

	/* Its bytes, and back. */
	mr->start(&a, 42, 3, &on);
	nx = mr->encode(&a, x, sizeof x);
	ny = bytes(&a, y);
	ok(nx == ny && memcmp(x, y, nx) == 0, "encode writes the engine's bytes");
	is_int(mr->encode(&a, x, 3), nx, "too small a buffer: the length it needs");
	nx = mr->encode(&a, x, sizeof x);
	ok(mr->decode(&b, x, nx), "decode reads them");
	ny = bytes(&b, y);
	ok(nx == ny && memcmp(x, y, nx) == 0, "... and they encode again to the same bytes");
	x[nx / 2] ^= 1;
	ok(!mr->decode(&b, x, nx), "a flipped bit is refused");

	/* A turn: seat 0 moved, seat 1's stored move the engine refuses, seat
	 * 2 sent nothing. */
	mr->start(&a, 42, 3, &off);
	before = a;
	memset(mv, 0, sizeof mv);
	do
		mv[0] = bot(&a.players[0]);
	while (mv[0].kind != VERSUS_MOVE_PLACE || !versus_check_move(&a, 0, &mv[0], NULL, 0));
	mv[1] = (struct versus_move){ VERSUS_MOVE_PLACE, false, 9, 0, 0 };
	mv[2] = (struct versus_move){ VERSUS_MOVE_PLACE, false, 0, 0, 0 };
	ok(!versus_check_move(&a, 1, &mv[1], want, sizeof want), "seat 1's move is refused by the engine");
	jw_init(&wm, 64, 1u << 20);
	jw_init(&we, 256, 1u << 20);
	ok(match_resolve(mr, &a, mv, 0x3, totals, 0, &wm, &we, &out), "the turn is played");
	is_int(a.turn, 1, "... one turn");
	is_int(out.refused, 0x2, "seat 1's stored move is the one refused");
	is_str(out.reason[1], want, "... with the engine's reason");
	ok(mv[0].kind == VERSUS_MOVE_PLACE && mv[1].kind == VERSUS_MOVE_MISSED &&
	    mv[2].kind == VERSUS_MOVE_MISSED, "seats 1 and 2 missed the turn, seat 0 played");
	jm = read_back(&wm);
	jf = turn_value(&before, mv);
	ok(jm != NULL && json_equal(jm, jf), "the turn's entry is its moves' text");
	json_decref(jm);
	json_decref(jf);
	b = before;
	memcpy(mw, mv, sizeof mw);
	ok(versus_resolve(&b, mw, &ew, &bad, reason, sizeof reason) == VERSUS_OK,
	    "the engine plays the same moves");
	nx = bytes(&a, x);
	ny = bytes(&b, y);
	je = read_back(&we);
	jf = events_value(&ew, mw);
	ok(nx == ny && memcmp(x, y, nx) == 0 && je != NULL && json_equal(je, jf),
	    "... to the same state and the same events");
	json_decref(je);
	json_decref(jf);

	/* A turn of a match over: nothing played, nothing changed. */
	mr->start(&a, 5, 2, &off);
	memset(mv, 0, sizeof mv);
	mv[0].kind = VERSUS_MOVE_RESIGN;
	jw_init(&wm, 64, 1u << 20);
	jw_init(&we, 256, 1u << 20);
	ok(match_resolve(mr, &a, mv, 0x1, totals, 0, &wm, &we, &out) && a.over && out.refused == 0 &&
	    out.end != NULL && strcmp(out.end, "last_standing") == 0,
	    "a resignation ends a match of two");
	nx = bytes(&a, x);
	ok(!match_resolve(mr, &a, mv, 0x3, totals, 0, &wm, &we, &out) && a.turn == 1,
	    "a match over plays no turn");
	ny = bytes(&a, y);
	ok(nx == ny && memcmp(x, y, nx) == 0, "... and stays as it was");
	jw_cleanup(&wm);
	jw_cleanup(&we);
}

/* test_match FILE also writes a bot match with items as a replay to FILE,
 * for `arcaded verify FILE`. */
int
main(int argc, char **argv)
{
	if (argc > 1) {
		long uses = 0;
		json_t *r = play_items(42, 4, 300, &uses);

		ok(json_dump_file(r, argv[1], JSON_COMPACT) == 0, "a replay with items written to %s",
		    argv[1]);
		json_decref(r);
	}
	ends_and_places();
	forms();
	replays();
	item_replays();
	events();
	server_calls();
	return tap_done();
}
