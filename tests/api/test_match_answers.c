/*
 * test_match_answers.c: the versus move path's answers written by the
 * writer (api/json/jw.c) against jansson's dump of their DOM twins, the model
 * they replace:
 *
 *   - a match's whole view (match_view_write) against match_view_json(),
 *     for every seat and a spectator, in the lobby, playing and finished,
 *     rated with ratings, with the last turn's events, a certificate and
 *     names that need escapes or are not UTF-8 (left out, as the DOM
 *     leaves them);
 *   - a move's answer (match_move_answer_write) against
 *     match_move_answer_json() of match_view_mover_json(), with "use" as
 *     match_move_use_json() says it and now and then the whole view
 *     (?view=full), for every seat of the match, as playing and finished,
 *     moved or not, with account names that need escapes;
 *   - a resolved turn's events (match_events_write) and the replay's entry
 *     of its moves (match_turn_write), which the row stores as text;
 *   - the state a turn's resolution reached and the decoding of its bytes
 *     (what the daemon keeps in its match cache after a resolve, in place
 *     of decoding on the next move) show every seat alike and play the
 *     next turn alike: the same events and the same bytes after it.
 *
 * Over random bot matches of 2 to 8 players, with and without items (so
 * odd shapes, blinds and inventories show), the writer's text must be
 * byte for byte json_dumps(JSON_COMPACT) of the DOM, and a sample of it
 * parses back json_equal to the DOM.
 *
 * Usage: test_match_answers [ANSWERS] (default 100000; the ASan build
 * passes fewer, see meson.build). Seeded: the same matches every run.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "tap.h"
#include "xorshift.h"

#include "jw.h"
#include "match.h"
#include "match_result.h"
#include "match_view.h"
#include "versus_odd.h"

static uint64_t rng = 0x6a09e667f3bcc909ull;

static uint32_t
rnd(uint32_t n)
{
	return xorshift_below(&rng, n);
}

struct tally {
	unsigned long compared, bytes_apart, fail_apart, parsed, parse_apart;
	size_t max_len;
};

/* Compares the writer's text with the DOM's dump; the DOM is borrowed. */
static void
compare(const char *what, const json_t *dom, struct jw *w, struct tally *t)
{
	char *want = dom != NULL ? json_dumps(dom, JSON_COMPACT) : NULL, *got;
	size_t len;
	json_t *back;

	got = jw_take(w, &len);
	t->compared++;
	if (want == NULL || got == NULL) {
		if (t->fail_apart++ == 0)
			diag("%s: the DOM %s, the writer %s", what, want ? "answers" : "fails",
			    got ? "answers" : "fails");
	} else {
		if (len > t->max_len)
			t->max_len = len;
		if ((len != strlen(want) || memcmp(want, got, len) != 0) && t->bytes_apart++ == 0) {
			size_t k = 0;

			while (want[k] != '\0' && want[k] == got[k])
				k++;
			diag("%s: apart at byte %zu:\n#  DOM    %.160s\n#  writer %.160s", what, k,
			    want + (k > 60 ? k - 60 : 0), got + (k > 60 ? k - 60 : 0));
		}
		if (rnd(8) == 0) {
			t->parsed++;
			back = json_loadb(got, len, 0, NULL);
			if (back == NULL || !json_equal(back, dom))
				t->parse_apart++;
			json_decref(back);
		}
	}
	free(want);
	free(got);
}

/* The placements of a slot: a tetromino's, or an odd shape's. */
static size_t
options(const struct tetromino_board *b, unsigned piece, unsigned shape,
    struct tetromino_option *o)
{
	if (shape == VERSUS_SHAPE_PIECE)
		return tetromino_options(b, piece, o, TETROMINO_OPTIONS_MAX);
	return versus_odd_options(b, shape - 1, o, VERSUS_ODD_OPTIONS_MAX);
}

/* A bot: a placement that keeps the board low most of the time, a hold
 * now and then, a miss or a resign rarely, and with items a `use T` on a
 * seat the engine takes. */
static struct versus_move
bot(const struct versus_match *m, unsigned seat)
{
	const struct versus_player *p = &m->players[seat];
	struct tetromino_option o[VERSUS_ODD_OPTIONS_MAX];
	struct versus_move mv = { VERSUS_MOVE_PLACE, false, 0, 0, 0 };
	unsigned piece, shape;
	size_t n, i, best = 0;

	if (rnd(100) < 4)
		return (struct versus_move){ VERSUS_MOVE_MISSED, false, 0, 0, 0 };
	if (rnd(400) == 0)
		return (struct versus_move){ VERSUS_MOVE_RESIGN, false, 0, 0, 0 };
	mv.hold = rnd(100) < 10;
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
		if (o[i].figures.holes * 4 + o[i].figures.max_height + (long)rnd(6) <
		    o[best].figures.holes * 4 + o[best].figures.max_height)
			best = i;
	mv.rotation = o[best].rotation;
	mv.column = o[best].column;
	if (m->item_chance > 0 && rnd(3) == 0) {
		mv.use = 1 + rnd(m->nplayers);
		if (!versus_check_move(m, seat, &mv, NULL, 0))
			mv.use = 0;
	}
	return mv;
}

/* Account names, some with bytes jansson escapes. */
static const char *const names[] = {
	"alice", "bob", "carol \"the\" 3rd", "back\\slash", "tab\there", "\xc3\xa9milie",
	"\xe2\x9c\x93 check", "nl\nname", "ctl\x01\x1f", "dave", "not utf-8 \xff",
};

static struct tally tv; /* whole views */

/* Every viewer's whole view of rec (a seat each, and a spectator). */
static void
views(const struct match_record *rec, int64_t now)
{
	int v;

	for (v = -1; v < rec->nseats; v++) {
		json_t *dom = match_view_json(rec, v, now);
		struct jw w;

		jw_init(&w, rnd(2) ? 64 : 8192, 1u << 22);
		match_view_write(&w, rec, v, now);
		compare("view", dom, &w, &tv);
		json_decref(dom);
	}
}

/* Every seat's move answer for m as it stands (rec's other fields random). */
static void
answers(const struct versus_match *m, const struct match_totals *totals, struct tally *t,
    unsigned long want, const char *last_turn)
{
	struct match_record rec;
	unsigned i, n = m->nplayers;
	bool over = m->over || rnd(50) == 0;
	int64_t now = 1764700000000 + rnd(100000);

	memset(&rec, 0, sizeof rec);
	rec.id = 1 + rnd(2000000000);
	rec.seed = (int64_t)m->seed;
	rec.rules = VERSUS_RULES;
	rec.status = over ? "finished" : "playing";
	rec.end_reason = over ? (m->nalive == 1 ? "last_standing" : "turn_cap") : "";
	rec.players = rec.joined = (int)n;
	rec.turn_seconds = 1 + (int)rnd(60);
	rec.turn_cap = rnd(4) == 0 ? 0 : 1000;
	rec.rated = rnd(2);
	rec.items = m->item_chance > 0;
	rec.item_chance = m->item_chance;
	rec.item_weights = m->item_chance > 0 ? m->item_weights : NULL;
	rec.turn = m->turn;
	rec.created_at = now - 100000;
	rec.started_at = now - 90000;
	rec.finished_at = over ? now : 0;
	rec.deadline_at = over ? 0 : now + (int64_t)rnd(20000) - 5000;
	rec.nseats = (int)n;
	for (i = 0; i < n; i++) {
		rec.seats[i].account = names[rnd(sizeof names / sizeof names[0])];
		rec.seats[i].rating_before = over && rec.rated ? 1500.0 + rnd(300) + rnd(1000) / 997.0 : NAN;
		rec.seats[i].rating_after = over && rec.rated ? 1400.0 + rnd(300) + rnd(1000) / 991.0 : NAN;
	}
	rec.m = m;
	rec.totals = totals;
	rec.moved = (uint8_t)rnd(256);
	rec.last_turn = last_turn;
	rec.queue = rnd(2);
	rec.seed_chosen = rnd(2);
	rec.unrated_reason = rnd(4) == 0 ? (rnd(2) ? "aborted" : "pair_cap") : "";
	rec.certificate = over && rnd(2) ? "v4.public.eyJtYXRjaCI6IjEifQ.c2lnbmF0dXJl" : NULL;
	if (rnd(4) == 0) {
		views(&rec, now);
		if (rnd(4) == 0) {
			/* the same seats in the lobby, before there is a state */
			struct match_record lobby = rec;

			lobby.status = "lobby";
			lobby.end_reason = "";
			lobby.m = NULL;
			lobby.totals = NULL;
			lobby.last_turn = NULL;
			lobby.certificate = NULL;
			lobby.joined = 1 + (int)rnd((uint32_t)n);
			lobby.nseats = lobby.joined;
			views(&lobby, now);
		}
	}
	for (i = 0; i < n + 1 && t->compared < want; i++) {
		/* n + 1: a viewer who is not a seat (the writer's null seat) */
		int viewer = i < n ? (int)i : -1;
		char move[32];
		struct versus_move mv = bot(m, i < n ? i : 0);
		bool resolved = rnd(2), empty = rnd(2);
		uint32_t use = mv.kind == VERSUS_MOVE_PLACE ? mv.use : 0;
		json_t *full = rnd(32) == 0 ? match_view_json(&rec, viewer, now) : NULL;
		json_t *dom, *u;
		struct jw w;

		if (use == 0 && rnd(8) == 0)
			use = 1 + rnd(n); /* the answer's shape for any use, even one not checked */
		versus_move_text(&mv, move, sizeof move);
		dom = match_move_answer_json(rec.id, (uint32_t)rec.turn + 1, move, resolved,
		    match_view_mover_json(&rec, viewer, now), full != NULL ? json_incref(full) : NULL);
		if (dom != NULL && (u = match_move_use_json(use, resolved, empty)) != NULL)
			json_object_set_new_nocheck(dom, "use", u);
		jw_init(&w, rnd(2) ? 32 : 4096, 1u << 22);
		match_move_answer_write(&w, rec.id, (uint32_t)rec.turn + 1, move, resolved, &rec, viewer,
		    now, full != NULL, use, empty);
		compare("move answer", dom, &w, t);
		json_decref(dom);
		json_decref(full);
	}
}

struct run {
	unsigned long matches, turns, items_matches, odd, hits, uses_empty;
	unsigned long twins, twins_apart; /* resolved states against their decoding */
};

/* Every seat's view of m and of d as text (the mover's fields). */
static char *
seats_text(const struct versus_match *m, const struct match_totals *t)
{
	struct jw w;
	unsigned v;

	jw_init(&w, 1024, 1u << 22);
	jw_array(&w);
	for (v = 0; v < m->nplayers; v++) {
		jw_object(&w);
		match_player_write(&w, m, match_end_of(m, 0), v, v, t);
		jw_object_end(&w);
	}
	jw_array_end(&w);
	return jw_take(&w, NULL);
}

/* The next turn played from m and from d, its twin, with the same moves:
 * the same events and the same bytes after it; and before it, the same
 * views. */
static bool
twins_alike(const struct versus_match *m, const struct versus_match *d, const struct match_totals *t,
    const struct versus_move *mv)
{
	struct versus_match a = *m, b = *d;
	struct versus_events ea, eb;
	uint8_t ba[VERSUS_SERIAL_MAX], bb[VERSUS_SERIAL_MAX];
	char *va = seats_text(m, t), *vb = seats_text(d, t);
	bool same = va != NULL && vb != NULL && strcmp(va, vb) == 0;
	size_t na, nb;
	struct jw w;

	free(va);
	free(vb);
	if (versus_resolve(&a, mv, &ea, NULL, NULL, 0) != versus_resolve(&b, mv, &eb, NULL, NULL, 0))
		return false;
	na = versus_encode(&a, ba, sizeof ba);
	nb = versus_encode(&b, bb, sizeof bb);
	same = same && na == nb && memcmp(ba, bb, na) == 0;
	jw_init(&w, 1024, 1u << 20);
	match_events_write(&w, &ea, mv);
	va = jw_take(&w, NULL);
	jw_init(&w, 1024, 1u << 20);
	match_events_write(&w, &eb, mv);
	vb = jw_take(&w, NULL);
	same = same && va != NULL && vb != NULL && strcmp(va, vb) == 0;
	free(va);
	free(vb);
	return same;
}

/* One bot match: every turn's answers, events and moves compared. */
static void
one_match(struct tally *ta, struct tally *te, struct tally *tt, struct run *run, unsigned long want)
{
	static const uint8_t weights[VERSUS_ITEM_KINDS] = { 1, 1, 1, 1, 1, 1 };
	struct versus_match m, before;
	struct versus_events ev;
	struct versus_move mv[VERSUS_PLAYERS_MAX];
	struct match_totals totals;
	unsigned n = 2 + rnd(VERSUS_PLAYERS_MAX - 1), i;
	uint32_t cap = 50 + rnd(300);
	char *last = NULL;

	versus_init(&m, xorshift_next(&rng) & VERSUS_SEED_MAX, n);
	if (rnd(2)) {
		uint8_t w[VERSUS_ITEM_KINDS];

		for (i = 0; i < VERSUS_ITEM_KINDS; i++)
			w[i] = rnd(3) == 0 ? 0 : (uint8_t)(1 + rnd(VERSUS_ITEM_WEIGHT_MAX));
		w[rnd(VERSUS_ITEM_KINDS)] = 1 + (uint8_t)rnd(10);
		if (!versus_set_items(&m, 10 + rnd(60), rnd(3) == 0 ? weights : w))
			versus_set_items(&m, 30, weights);
		run->items_matches++;
	}
	memset(&totals, 0, sizeof totals);
	run->matches++;
	answers(&m, &totals, ta, want, NULL);
	while (match_end_of(&m, cap) == MATCH_END_NONE && ta->compared < want) {
		struct jw w;
		json_t *dom;

		for (i = 0; i < n; i++)
			mv[i] = m.players[i].alive ? bot(&m, i) :
			    (struct versus_move){ VERSUS_MOVE_MISSED, false, 0, 0, 0 };
		if (m.turn > 0) {
			/* The twin: the decoding of the bytes this state encodes to. */
			struct versus_match d;
			uint8_t bytes[VERSUS_SERIAL_MAX];
			size_t nb = versus_encode(&m, bytes, sizeof bytes);

			run->twins++;
			if (nb == 0 || !versus_decode(&d, bytes, nb) || !twins_alike(&m, &d, &totals, mv))
				run->twins_apart++;
		}
		before = m;
		if (versus_resolve(&m, mv, &ev, NULL, NULL, 0) != VERSUS_OK)
			break;
		run->turns++;
		run->hits += ev.nhits;
		for (i = 0; i < n; i++) {
			run->odd += (ev.players[i].action == VERSUS_ACT_PLACED ||
			    ev.players[i].action == VERSUS_ACT_DROPPED) && ev.players[i].shape != 0;
			run->uses_empty += match_use_empty(&ev, mv, i);
		}
		match_totals_add(&totals, &ev);

		dom = match_events_json(&ev, mv);
		jw_init(&w, 64, 1u << 20);
		match_events_write(&w, &ev, mv);
		free(last);
		last = dom != NULL ? json_dumps(dom, JSON_COMPACT) : NULL; /* the row's last_turn */
		compare("events", dom, &w, te);
		json_decref(dom);

		dom = match_turn_json(&before, mv);
		jw_init(&w, 16, 1u << 20);
		match_turn_write(&w, &before, mv);
		compare("turn", dom, &w, tt);
		json_decref(dom);

		answers(&m, &totals, ta, want, last);
	}
	free(last);
}

static void
report(const char *what, const struct tally *t)
{
	ok(t->fail_apart == 0, "%s: the writer fails exactly where the DOM fails (%lu apart)", what,
	    t->fail_apart);
	ok(t->bytes_apart == 0 && t->compared > 0, "%s: %lu texts byte for byte json_dumps' "
	    "(longest %zu bytes; %lu apart)", what, t->compared, t->max_len, t->bytes_apart);
	ok(t->parse_apart == 0 && t->parsed > 0, "%s: %lu sampled texts parse json_equal to the DOM "
	    "(%lu apart)", what, t->parsed, t->parse_apart);
}

int
main(int argc, char **argv)
{
	unsigned long want = argc > 1 ? strtoul(argv[1], NULL, 10) : 100000;
	struct tally ta, te, tt;
	struct run run;

	memset(&ta, 0, sizeof ta);
	memset(&te, 0, sizeof te);
	memset(&tt, 0, sizeof tt);
	memset(&run, 0, sizeof run);
	while (ta.compared < want)
		one_match(&ta, &te, &tt, &run, want);
	diag("%lu matches (%lu with items), %lu turns, %lu odd shapes placed, %lu items used, "
	    "%lu uses on an empty inventory", run.matches, run.items_matches, run.turns, run.odd,
	    run.hits, run.uses_empty);
	report("whole views", &tv);
	report("move answers", &ta);
	report("turn events", &te);
	report("turn moves", &tt);
	ok(run.twins > 0 && run.twins_apart == 0, "%lu resolved states and their decodings show every "
	    "seat alike and play the next turn alike (%lu apart)", run.twins, run.twins_apart);
	/* The matches reached what the answers must cover. */
	ok(run.items_matches > 0 && run.odd > 0 && run.hits > 0 && run.uses_empty > 0,
	    "the matches had items, odd shapes, uses and uses on an empty inventory");
	return tap_done();
}
