/*
 * test_match_answers.c: every answer of the match routes, as its one
 * writer (api/json/jw.c) writes it, parses with jansson and holds exactly
 * the keys of its contract schema (openapi.yaml), in the order written,
 * each of its type:
 *
 *   - a match's whole view (match_view_write, MatchView) for every seat
 *     and a spectator, in the lobby, playing and finished, rated with
 *     ratings, with the last turn's events, a certificate and names that
 *     need escapes (and one not UTF-8, which no account has: its seat
 *     leaves the account out, the one key it may miss);
 *   - a move's answer (match_move_answer_write, MatchMoveResult: the
 *     mover's state, "use", now and then the whole view with ?view=full),
 *     for every seat of the match and a viewer who is none, as playing
 *     and finished, moved or not;
 *   - a resolved turn's events (versus_events_write, MatchTurn) and the
 *     replay's entry of its moves (match_turn_write), which the row
 *     stores as text;
 *   - at each match's end its replay's answer (match_replay_answer_write,
 *     MatchReplayPage), the verifier's on that replay (match_verified_write,
 *     MatchReplayVerifyResult) and on it tampered (match_verify_refusal_write,
 *     what InvalidMatchReplayError adds to the envelope), and a ratings
 *     page (match_ratings_write, MatchRatings) with ranks running on;
 *   - the state a turn's resolution reached and the decoding of its bytes
 *     (what the daemon keeps in its match cache after a resolve, in place
 *     of decoding on the next move) show every seat alike and play the
 *     next turn alike: the same events and the same bytes after it.
 *
 * The bytes themselves are the golden answers' (tests/golden): recorded
 * from fixed seeds, replayed by e2e-golden.
 *
 * The items fields of a seat (items_text ... transform) are not in the
 * contract's MatchSeat yet; they are checked here as the writer puts them.
 *
 * Over random bot matches of 2 to 8 players, with and without items (so
 * odd shapes, blinds and inventories show).
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
#include "certificate.h"
#include "match.h"
#include "versus_json.h"
#include "versus_odd.h"

static uint64_t rng = 0x6a09e667f3bcc909ull;

static uint32_t
rnd(uint32_t n)
{
	return xorshift_below(&rng, n);
}

/* ---- the contract's shapes ----
 * A value's types are letters: s string, i integer, r real, b boolean,
 * n null, o object, a array. An object lists its keys in the order they
 * are written; a key whose types begin with '?' may be absent, one
 * beginning with '!' is absent only for a name that is not UTF-8. An
 * object of several shapes (oneOf) names them all in objs. */
struct shape {
	const char *key;                 /* in an object's list; NULL ends it */
	const char *types;
	const struct shape *objs[3];     /* o: the shapes it may have */
	const struct shape *items;       /* a: its elements' shape */
};

#define END { NULL, NULL, { NULL }, NULL }

static const struct shape string_only = { NULL, "s", { NULL }, NULL };
static const struct shape string_or_null = { NULL, "sn", { NULL }, NULL };
static const struct shape integer_only = { NULL, "i", { NULL }, NULL };
static const struct shape mino_items = { NULL, "a", { NULL }, &string_or_null };

static const struct shape item_settings_fields[] = {
	{ "chance", "i", { NULL }, NULL },
	{ "weights", "a", { NULL }, &integer_only },
	END,
};

/* MatchSeat, and the items fields after its own. */
static const struct shape seat_fields[] = {
	{ "seat", "i", { NULL }, NULL },
	{ "alive", "b", { NULL }, NULL },
	{ "place", "in", { NULL }, NULL },
	{ "end_reason", "sn", { NULL }, NULL },
	{ "board_text", "s", { NULL }, NULL },
	{ "current", "s", { NULL }, NULL },
	{ "hold", "sn", { NULL }, NULL },
	{ "next", "an", { NULL }, &string_only },
	{ "score", "i", { NULL }, NULL },
	{ "lines", "i", { NULL }, NULL },
	{ "level", "i", { NULL }, NULL },
	{ "combo", "i", { NULL }, NULL },
	{ "back_to_back", "b", { NULL }, NULL },
	{ "pending", "i", { NULL }, NULL },
	{ "missed", "i", { NULL }, NULL },
	{ "lines_sent", "i", { NULL }, NULL },
	{ "lines_received", "i", { NULL }, NULL },
	{ "items_text", "?s", { NULL }, NULL },
	{ "current_items", "?a", { NULL }, &string_or_null },
	{ "hold_items", "?a", { NULL }, &string_or_null },
	{ "next_items", "?an", { NULL }, &mino_items },
	{ "inventory", "?a", { NULL }, &string_only },
	{ "blind", "?i", { NULL }, NULL },
	{ "transform", "?i", { NULL }, NULL },
	{ "account", "!s", { NULL }, NULL },
	{ "moved", "?b", { NULL }, NULL },
	{ "rating_before", "?r", { NULL }, NULL },
	{ "rating_after", "?r", { NULL }, NULL },
	END,
};

/* MatchLobbySeat */
static const struct shape lobby_seat_fields[] = {
	{ "seat", "i", { NULL }, NULL },
	{ "account", "!s", { NULL }, NULL },
	END,
};

static const struct shape block_fields[] = {
	{ "lines", "i", { NULL }, NULL },
	{ "hole", "i", { NULL }, NULL },
	END,
};
static const struct shape block = { NULL, "o", { block_fields }, NULL };

static const struct shape use_empty_fields[] = {
	{ "used", "b", { NULL }, NULL },
	{ "reason", "s", { NULL }, NULL },
	END,
};

/* MatchSeatTurnOut, MatchSeatTurnLeft, MatchSeatTurnPlaced */
static const struct shape turn_out_fields[] = {
	{ "seat", "i", { NULL }, NULL },
	{ "action", "s", { NULL }, NULL },
	END,
};
static const struct shape turn_left_fields[] = {
	{ "seat", "i", { NULL }, NULL },
	{ "action", "s", { NULL }, NULL },
	{ "received", "i", { NULL }, NULL },
	{ "risen", "a", { NULL }, &block },
	{ "eliminated", "b", { NULL }, NULL },
	{ "end_reason", "s", { NULL }, NULL },
	{ "place", "i", { NULL }, NULL },
	{ "use", "?o", { use_empty_fields }, NULL },
	END,
};
static const struct shape turn_placed_fields[] = {
	{ "seat", "i", { NULL }, NULL },
	{ "action", "s", { NULL }, NULL },
	{ "held", "b", { NULL }, NULL },
	{ "piece", "s", { NULL }, NULL },
	{ "rotation", "i", { NULL }, NULL },
	{ "column", "i", { NULL }, NULL },
	{ "lines", "i", { NULL }, NULL },
	{ "points", "i", { NULL }, NULL },
	{ "combo", "i", { NULL }, NULL },
	{ "back_to_back", "b", { NULL }, NULL },
	{ "perfect_clear", "b", { NULL }, NULL },
	{ "attack", "i", { NULL }, NULL },
	{ "cancelled", "i", { NULL }, NULL },
	{ "sent", "i", { NULL }, NULL },
	{ "target", "in", { NULL }, NULL },
	{ "lost", "b", { NULL }, NULL },
	{ "received", "i", { NULL }, NULL },
	{ "risen", "a", { NULL }, &block },
	{ "eliminated", "b", { NULL }, NULL },
	{ "end_reason", "sn", { NULL }, NULL },
	{ "place", "in", { NULL }, NULL },
	{ "items_collected", "?i", { NULL }, NULL },
	{ "items_discarded", "?i", { NULL }, NULL },
	{ "use", "?o", { use_empty_fields }, NULL },
	END,
};
static const struct shape turn_seat = { NULL, "o",
	{ turn_out_fields, turn_left_fields, turn_placed_fields }, NULL };

static const struct shape hit_fields[] = {
	{ "turn", "i", { NULL }, NULL },
	{ "target", "i", { NULL }, NULL },
	{ "item", "s", { NULL }, NULL },
	END,
};
static const struct shape hit = { NULL, "o", { hit_fields }, NULL };

/* MatchTurn */
static const struct shape turn_fields[] = {
	{ "turn", "i", { NULL }, NULL },
	{ "over", "b", { NULL }, NULL },
	{ "players", "a", { NULL }, &turn_seat },
	{ "hits", "?a", { NULL }, &hit },
	END,
};
static const struct shape match_turn = { NULL, "o", { turn_fields }, NULL };

/* A replay's entry: one move a seat, null for a seat out. */
static const struct shape turn_entry = { NULL, "a", { NULL }, &string_or_null };

static const struct shape view_seat = { NULL, "o", { seat_fields, lobby_seat_fields }, NULL };

/* MatchView */
static const struct shape view_fields[] = {
	{ "match_id", "s", { NULL }, NULL },
	{ "rules", "s", { NULL }, NULL },
	{ "status", "s", { NULL }, NULL },
	{ "players", "i", { NULL }, NULL },
	{ "joined", "i", { NULL }, NULL },
	{ "turn_seconds", "i", { NULL }, NULL },
	{ "turn_cap", "i", { NULL }, NULL },
	{ "rated", "b", { NULL }, NULL },
	{ "items", "bo", { item_settings_fields }, NULL },
	{ "queue", "b", { NULL }, NULL },
	{ "unrated_reason", "sn", { NULL }, NULL },
	{ "seed", "in", { NULL }, NULL },
	{ "seed_chosen", "b", { NULL }, NULL },
	{ "turn", "i", { NULL }, NULL },
	{ "deadline", "sn", { NULL }, NULL },
	{ "deadline_in_ms", "in", { NULL }, NULL },
	{ "end", "sn", { NULL }, NULL },
	{ "you", "in", { NULL }, NULL },
	{ "seats", "a", { NULL }, &view_seat },
	{ "boardText", "sn", { NULL }, NULL },
	{ "last_turn", "on", { turn_fields }, NULL },
	{ "created_at", "s", { NULL }, NULL },
	{ "started_at", "sn", { NULL }, NULL },
	{ "finished_at", "sn", { NULL }, NULL },
	{ "certificate", "sn", { NULL }, NULL },
	END,
};
static const struct shape match_view = { NULL, "o", { view_fields }, NULL };

/* MatchMoverState */
static const struct shape mover_fields[] = {
	{ "status", "s", { NULL }, NULL },
	{ "turn", "i", { NULL }, NULL },
	{ "deadline_in_ms", "in", { NULL }, NULL },
	{ "end", "sn", { NULL }, NULL },
	{ "seat", "on", { seat_fields }, NULL },
	END,
};

static const struct shape use_fields[] = {
	{ "target", "i", { NULL }, NULL },
	{ "used", "bn", { NULL }, NULL },
	{ "reason", "?s", { NULL }, NULL },
	END,
};

/* MatchMoveResult */
static const struct shape move_fields[] = {
	{ "match_id", "s", { NULL }, NULL },
	{ "turn", "i", { NULL }, NULL },
	{ "move", "s", { NULL }, NULL },
	{ "resolved", "b", { NULL }, NULL },
	{ "state", "o", { mover_fields }, NULL },
	{ "match", "?o", { view_fields }, NULL },
	{ "use", "?o", { use_fields }, NULL },
	END,
};
static const struct shape move_answer = { NULL, "o", { move_fields }, NULL };

/* MatchFinalSeat, MatchReplayFinal, MatchReplay, MatchReplayPage */
static const struct shape final_seat_fields[] = {
	{ "place", "in", { NULL }, NULL },
	{ "end_reason", "sn", { NULL }, NULL },
	{ "score", "i", { NULL }, NULL },
	{ "lines", "i", { NULL }, NULL },
	{ "lines_sent", "i", { NULL }, NULL },
	{ "lines_received", "i", { NULL }, NULL },
	END,
};
static const struct shape final_seat = { NULL, "o", { final_seat_fields }, NULL };
static const struct shape final_fields[] = {
	{ "turns", "i", { NULL }, NULL },
	{ "end", "sn", { NULL }, NULL },
	{ "players", "a", { NULL }, &final_seat },
	END,
};
static const struct shape replay_fields[] = {
	{ "schema", "i", { NULL }, NULL },
	{ "rules", "s", { NULL }, NULL },
	{ "seed", "i", { NULL }, NULL },
	{ "players", "i", { NULL }, NULL },
	{ "turn_cap", "i", { NULL }, NULL },
	{ "turns", "a", { NULL }, &turn_entry },
	{ "final", "o", { final_fields }, NULL },
	{ "items", "?o", { item_settings_fields }, NULL },
	END,
};
static const struct shape replay_page_fields[] = {
	{ "match_id", "s", { NULL }, NULL },
	{ "replay", "o", { replay_fields }, NULL },
	{ "certificate", "sn", { NULL }, NULL },
	{ "verify_with", "s", { NULL }, NULL },
	END,
};
static const struct shape replay_page = { NULL, "o", { replay_page_fields }, NULL };

/* MatchReplayVerifyResult (no certificate: none is signed here), and what
 * InvalidMatchReplayError has beside "error". */
static const struct shape verified_fields[] = {
	{ "valid", "b", { NULL }, NULL },
	{ "turns", "i", { NULL }, NULL },
	{ "final", "o", { final_fields }, NULL },
	{ "replay_hash", "s", { NULL }, NULL },
	END,
};
static const struct shape verified = { NULL, "o", { verified_fields }, NULL };
static const struct shape refusal_fields[] = {
	{ "turn", "i", { NULL }, NULL },
	{ "reason", "s", { NULL }, NULL },
	{ "simulated_final", "?o", { final_fields }, NULL },
	END,
};
static const struct shape refusal = { NULL, "o", { refusal_fields }, NULL };

/* MatchRatings */
static const struct shape rating_fields[] = {
	{ "rank", "i", { NULL }, NULL },
	{ "account", "s", { NULL }, NULL },
	{ "rating", "r", { NULL }, NULL },
	{ "rd", "r", { NULL }, NULL },
	{ "volatility", "r", { NULL }, NULL },
	{ "matches", "i", { NULL }, NULL },
	END,
};
static const struct shape rating_row = { NULL, "o", { rating_fields }, NULL };
static const struct shape ratings_fields[] = {
	{ "rules", "s", { NULL }, NULL },
	{ "ratings", "a", { NULL }, &rating_row },
	{ "next", "!sn", { NULL }, NULL },
	END,
};
static const struct shape ratings = { NULL, "o", { ratings_fields }, NULL };

/* Whether every name of the answer's record is UTF-8 (see '!'). */
static bool names_utf8 = true;

static char type_of(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: return 'o';
	case JSON_ARRAY: return 'a';
	case JSON_STRING: return 's';
	case JSON_INTEGER: return 'i';
	case JSON_REAL: return 'r';
	case JSON_TRUE: case JSON_FALSE: return 'b';
	default: return 'n';
	}
}

static bool conforms(const json_t *v, const char *types, const struct shape *const *objs,
    const struct shape *items, char *why, size_t cap, const char *path);

/* Whether object o has exactly fields' keys in their order, each of its
 * types; why says the first fault. */
static bool
fields_hold(const json_t *o, const struct shape *fields, char *why, size_t cap, const char *path)
{
	const struct shape *f = fields;
	const char *key;
	json_t *v;
	char sub[256];

	json_object_foreach((json_t *)o, key, v) {
		while (f->key != NULL && strcmp(f->key, key) != 0 &&
		    (f->types[0] == '?' || (f->types[0] == '!' && !names_utf8)))
			f++;
		if (f->key == NULL || strcmp(f->key, key) != 0) {
			snprintf(why, cap, "%s: key \"%s\" where the schema has %s%s%s", path, key,
			    f->key ? "\"" : "no more", f->key ? f->key : "", f->key ? "\"" : "");
			return false;
		}
		snprintf(sub, sizeof sub, "%s.%s", path, key);
		if (!conforms(v, f->types, f->objs, f->items, why, cap, sub))
			return false;
		f++;
	}
	for (; f->key != NULL; f++)
		if (f->types[0] != '?' && (f->types[0] != '!' || names_utf8)) {
			snprintf(why, cap, "%s: no \"%s\"", path, f->key);
			return false;
		}
	return true;
}

static bool
conforms(const json_t *v, const char *types, const struct shape *const *objs,
    const struct shape *items, char *why, size_t cap, const char *path)
{
	char t = type_of(v), sub[256];
	size_t i, k;

	if (types[0] == '?' || types[0] == '!')
		types++;
	if (strchr(types, t) == NULL) {
		snprintf(why, cap, "%s: a value of type %c where the schema has %s", path, t, types);
		return false;
	}
	if (t == 'o') {
		for (k = 0; k < 3 && objs[k] != NULL; k++)
			if (fields_hold(v, objs[k], why, cap, path))
				return true;
		return false;
	}
	if (t == 'a' && items != NULL)
		for (i = 0; i < json_array_size(v); i++) {
			snprintf(sub, sizeof sub, "%s[%zu]", path, i);
			if (!conforms(json_array_get(v, i), items->types, items->objs, items->items, why, cap,
			    sub))
				return false;
		}
	return true;
}

struct tally {
	unsigned long checked, unwritten, unparsed, apart;
	size_t max_len;
};

/* Takes the writer's text: it must parse and hold shape s. */
static void
check(const char *what, const struct shape *s, struct jw *w, struct tally *t)
{
	char why[512];
	size_t len = 0;
	char *got = jw_take(w, &len);
	json_t *v;
	json_error_t err;

	t->checked++;
	if (got == NULL) {
		if (t->unwritten++ == 0)
			diag("%s: the writer failed", what);
		return;
	}
	if (len > t->max_len)
		t->max_len = len;
	if ((v = json_loadb(got, len, 0, &err)) == NULL) {
		if (t->unparsed++ == 0)
			diag("%s: does not parse (%s): %.200s", what, err.text, got);
	} else if (!conforms(v, s->types, s->objs, s->items, why, sizeof why, what) &&
	    t->apart++ == 0)
		diag("%s\n#  %.300s", why, got);
	json_decref(v);
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

/* How m ends with the cap. */
static enum match_end
end_of(const struct versus_match *m, uint32_t cap)
{
	struct match_standing s;

	match_versus.standing(m, &s);
	return match_end_of(&s, cap);
}

/* Every viewer's whole view of rec (a seat each, and a spectator). */
static void
views(const struct match_rules_record *rec, int64_t now)
{
	int v;

	for (v = -1; v < rec->nseats; v++) {
		struct jw w;

		jw_init(&w, rnd(2) ? 64 : 8192, 1u << 22);
		match_view_write(&match_versus, &w, rec, v, now);
		check("view", &match_view, &w, &tv);
	}
}

/* Every seat's move answer for m as it stands (rec's other fields random). */
static void
answers(const struct versus_match *m, const struct match_totals *totals, struct tally *t,
    unsigned long want, const char *last_turn)
{
	struct match_rules_record rec;
	uint8_t totals_bytes[MATCH_TOTALS_SIZE];
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
	rec.options.on = m->item_chance > 0;
	rec.options.chance = m->item_chance;
	memcpy(rec.options.shares, m->item_weights, sizeof rec.options.shares);
	rec.turn = m->turn;
	rec.created_at = now - 100000;
	rec.started_at = now - 90000;
	rec.finished_at = over ? now : 0;
	rec.deadline_at = over ? 0 : now + (int64_t)rnd(20000) - 5000;
	rec.nseats = (int)n;
	names_utf8 = true;
	for (i = 0; i < n; i++) {
		rec.seats[i].account = names[rnd(sizeof names / sizeof names[0])];
		names_utf8 = names_utf8 && jw_utf8(rec.seats[i].account, strlen(rec.seats[i].account));
		rec.seats[i].rating_before = over && rec.rated ? 1500.0 + rnd(300) + rnd(1000) / 997.0 : NAN;
		rec.seats[i].rating_after = over && rec.rated ? 1400.0 + rnd(300) + rnd(1000) / 991.0 : NAN;
	}
	match_totals_encode(totals, totals_bytes);
	rec.state = m;
	rec.totals = totals_bytes;
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
			struct match_rules_record lobby = rec;

			lobby.status = "lobby";
			lobby.end_reason = "";
			lobby.state = NULL;
			lobby.totals = NULL;
			lobby.last_turn = NULL;
			lobby.certificate = NULL;
			lobby.joined = 1 + (int)rnd((uint32_t)n);
			lobby.nseats = lobby.joined;
			views(&lobby, now);
		}
	}
	for (i = 0; i < n + 1 && t->checked < want; i++) {
		/* n + 1: a viewer who is not a seat (the writer's null seat) */
		int viewer = i < n ? (int)i : -1;
		char move[32];
		struct versus_move mv = bot(m, i < n ? i : 0), used;
		bool resolved = rnd(2), empty = rnd(2), full = rnd(32) == 0;
		uint32_t use = mv.kind == VERSUS_MOVE_PLACE ? mv.use : 0;
		struct jw w;

		if (use == 0 && rnd(8) == 0)
			use = 1 + rnd(n); /* the answer's shape for any use, even one not checked */
		versus_move_text(&mv, move, sizeof move);
		used = mv;
		if (use != 0) {
			used.kind = VERSUS_MOVE_PLACE;
			used.use = use;
		}
		jw_init(&w, rnd(2) ? 32 : 4096, 1u << 22);
		match_move_answer_write(&match_versus, &w, &rec, (uint32_t)rec.turn + 1, &used, move,
		    resolved, viewer, now, full, empty);
		check("move answer", &move_answer, &w, t);
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
	uint8_t places[MATCH_PLAYERS_MAX];
	struct match_standing s;
	struct jw w;
	unsigned v;

	match_versus.standing(m, &s);
	match_places(&s, match_end_of(&s, 0), places);
	jw_init(&w, 1024, 1u << 22);
	jw_array(&w);
	for (v = 0; v < m->nplayers; v++) {
		jw_object(&w);
		versus_seat_write(&w, m, v, v, places[v], t);
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
	versus_events_write(&w, &ea, mv);
	va = jw_take(&w, NULL);
	jw_init(&w, 1024, 1u << 20);
	versus_events_write(&w, &eb, mv);
	vb = jw_take(&w, NULL);
	same = same && va != NULL && vb != NULL && strcmp(va, vb) == 0;
	free(va);
	free(vb);
	return same;
}

static struct tally tr, tf, tx, tk; /* replay pages, verified, refused, ratings */

/* A ratings page of the seats' names (rated as they were), ranked on from
 * a random rank: its rows ranked one after the other from there. */
static void
ratings_page(const struct match_rules_record *rec)
{
	struct match_rating_row rows[VERSUS_PLAYERS_MAX];
	int64_t above = rnd(3) == 0 ? 0 : (int64_t)rnd(100000);
	struct jw w;
	const char *text, *next;
	json_t *v, *list;
	size_t k;
	int i, n = rec->nseats;

	for (i = 0; i < n; i++)
		rows[i] = (struct match_rating_row){ rec->seats[i].account, 1200.0 + rnd(900) + rnd(997) / 991.0,
		    30.0 + rnd(300) / 7.0, 0.06 + rnd(100) / 100000.0, (int64_t)rnd(5000) };
	next = rnd(2) ? rows[n - 1].account : NULL;
	jw_init(&w, 64, 1u << 20);
	match_ratings_write(&w, VERSUS_RULES, rows, n, above, next);
	text = jw_text(&w, NULL);
	v = text != NULL ? json_loads(text, 0, NULL) : NULL;
	list = json_object_get(v, "ratings");
	for (k = 0; k < json_array_size(list); k++)
		if (json_integer_value(json_object_get(json_array_get(list, k), "rank")) !=
		    above + (json_int_t)k + 1 && tk.apart++ == 0)
			diag("ratings: row %zu ranked %lld after %lld", k, (long long)json_integer_value(
			    json_object_get(json_array_get(list, k), "rank")), (long long)above);
	json_decref(v);
	/* A row whose name is not UTF-8 is left out, and so is a next that
	 * names it. */
	names_utf8 = next == NULL || jw_utf8(next, strlen(next));
	check("ratings", &ratings, &w, &tk);
}

/* A match's replay page, and the verifier's answers on its replay and on
 * the replay tampered (turns is every turn's entry, taken). */
static void
replay_answers(const struct versus_match *m, const struct match_totals *totals, uint32_t cap,
    json_t *turns)
{
	struct match_rules_record rec;
	struct match_replay_check chk;
	uint8_t totals_bytes[MATCH_TOTALS_SIZE];
	char hash[CERTIFICATE_HASH_TEXT];
	json_t *replay, *final;
	struct jw w;
	unsigned i;

	memset(&rec, 0, sizeof rec);
	rec.id = 1 + rnd(2000000000);
	rec.seed = (int64_t)m->seed;
	rec.players = (int)m->nplayers;
	rec.turn_cap = (int)cap;
	match_totals_encode(totals, totals_bytes);
	rec.state = m;
	rec.totals = totals_bytes;
	rec.nseats = (int)m->nplayers;
	for (i = 0; i < m->nplayers; i++)
		rec.seats[i].account = names[rnd(sizeof names / sizeof names[0])];
	if ((replay = match_replay(&match_versus, &rec, turns)) == NULL) {
		tr.unwritten++;
		return;
	}
	names_utf8 = true;
	jw_init(&w, 256, 1u << 26);
	match_replay_answer_write(&w, rec.id, replay,
	    rnd(2) ? "v4.public.eyJtYXRjaCI6IjEifQ.c2lnbmF0dXJl" : NULL);
	check("replay page", &replay_page, &w, &tr);

	memset(&chk, 0, sizeof chk);
	jw_init(&w, 256, 1u << 26);
	if (match_verify(&match_versus, replay, &chk) == 0 && certificate_json_hash(replay, hash) == 0) {
		match_verified_write(&w, chk.nturns, chk.final, hash, NULL);
		check("verified", &verified, &w, &tf);
	} else {
		match_verify_refusal_write(&w, chk.turn, chk.reason, chk.final);
		check("refused", &refusal, &w, &tx);
	}
	json_decref(chk.final);

	/* A final that claims one turn more: refused, with the final reached. */
	final = json_object_get(replay, "final");
	json_object_set_new(final, "turns", json_integer(m->turn + 1));
	memset(&chk, 0, sizeof chk);
	jw_init(&w, 256, 1u << 26);
	if (match_verify(&match_versus, replay, &chk) != 0)
		match_verify_refusal_write(&w, chk.turn, chk.reason, chk.final);
	else
		match_verified_write(&w, chk.nturns, chk.final, "tampered", NULL);
	check("refused", &refusal, &w, &tx);
	json_decref(chk.final);
	if (rnd(2))
		ratings_page(&rec);
	json_decref(replay);
}

/* One bot match: every turn's answers, events and moves checked; at its
 * end its replay's answers. */
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
	json_t *turns = json_array();

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
	while (end_of(&m, cap) == MATCH_END_NONE && ta->checked < want) {
		struct match_standing s;
		struct jw w;
		const char *text;

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
			run->uses_empty += versus_use_empty(&ev, mv, i);
		}
		versus_totals_add(&totals, &ev);

		/* The turn's events: the row's last_turn, as the daemon stores it. */
		jw_init(&w, 64, 1u << 20);
		versus_events_write(&w, &ev, mv);
		free(last);
		last = (text = jw_text(&w, NULL)) != NULL ? strdup(text) : NULL;
		check("events", &match_turn, &w, te);

		/* The replay's entry, read back as the replay reads the stored one. */
		jw_init(&w, 16, 1u << 20);
		match_versus.standing(&before, &s);
		match_turn_write(&match_versus, &w, s.alive, s.nplayers, mv);
		if ((text = jw_text(&w, NULL)) != NULL)
			json_array_append_new(turns, json_loads(text, 0, NULL));
		check("turn", &turn_entry, &w, tt);

		answers(&m, &totals, ta, want, last);
	}
	free(last);
	replay_answers(&m, &totals, cap, turns);
}

static void
report(const char *what, const struct tally *t, unsigned long least)
{
	ok(t->unwritten == 0, "%s: the writer wrote every one (%lu failed)", what, t->unwritten);
	ok(t->unparsed == 0 && t->apart == 0 && t->checked >= least, "%s: %lu texts parse and hold "
	    "their schema's keys, in order, and types (longest %zu bytes; %lu unparsed, %lu apart)",
	    what, t->checked, t->max_len, t->unparsed, t->apart);
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
	while (ta.checked < want)
		one_match(&ta, &te, &tt, &run, want);
	diag("%lu matches (%lu with items), %lu turns, %lu odd shapes placed, %lu items used, "
	    "%lu uses on an empty inventory", run.matches, run.items_matches, run.turns, run.odd,
	    run.hits, run.uses_empty);
	report("whole views", &tv, 1);
	report("move answers", &ta, want);
	report("turn events", &te, 1);
	report("turn moves", &tt, 1);
	report("replay pages", &tr, run.matches);
	report("verified replays", &tf, 1);
	report("refused replays", &tx, run.matches);
	report("ratings pages", &tk, 1);
	ok(run.twins > 0 && run.twins_apart == 0, "%lu resolved states and their decodings show every "
	    "seat alike and play the next turn alike (%lu apart)", run.twins, run.twins_apart);
	/* The matches reached what the answers must cover. */
	ok(run.items_matches > 0 && run.odd > 0 && run.hits > 0 && run.uses_empty > 0,
	    "the matches had items, odd shapes, uses and uses on an empty inventory");
	return tap_done();
}
