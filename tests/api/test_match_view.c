/*
 * test_match_view.c: a served versus match as its answers show it (the
 * shared view, api/game/match_view.c), and versus's boards side by side
 * (`boardText`, api/versus/versus_json.c).
 *
 *   - a known 3-seat state (a piece on one board, a grey garbage row and
 *     queued lines on another, a resigned player) gives exactly the text
 *     written out below, header lines included;
 *   - the turn cap's shared first place shows as "#1 SCORE";
 *   - 8 seats with the longest names and a huge score: 22 lines, board
 *     rows exactly 94 wide, headers at most 95, a name's byte outside
 *     printable ASCII drawn as '?', and the text inside its buffer;
 *   - the view carries the same text as boardText, and null in the lobby.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "jw.h"
#include "match.h"
#include "versus_json.h"
#include "tap.h"

/* Shows a text of several lines, each behind "# " (TAP comments) and
 * between bars, so that trailing blanks show. */
static void
show_lines(const char *text)
{
	char line[512];
	size_t n;

	while (*text != '\0') {
		n = strcspn(text, "\n");
		snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line - 1 ? n : sizeof line - 1), text);
		diag("|%s|", line);
		text += n + (text[n] != '\0');
	}
}

/* Compares two texts of several lines; on a difference shows both. */
static int
is_text(const char *got, const char *want, const char *name)
{
	if (got == NULL || want == NULL) {
		ok(0, "%s (no text: %s)", name, got == NULL ? "got NULL" : "expected NULL");
		return 0;
	}
	if (ok(strcmp(got, want) == 0, "%s", name))
		return 1;
	diag("got:");
	show_lines(got);
	diag("expected:");
	show_lines(want);
	return 0;
}

/* No line sent: the totals' bytes of a match just begun. */
static const uint8_t no_totals[MATCH_TOTALS_SIZE];

static void
record_init(struct match_rules_record *r, const struct versus_match *m, const char *const *names,
    const char *status)
{
	int i;

	memset(r, 0, sizeof *r);
	r->id = 42;
	r->seed = 7;
	r->rules = VERSUS_RULES;
	r->status = status;
	r->end_reason = "";
	r->players = m != NULL ? m->nplayers : 3;
	r->joined = r->players;
	r->turn_seconds = 10;
	r->turn_cap = 1000;
	r->turn = m != NULL ? m->turn : 0;
	r->created_at = 1700000000000;
	r->nseats = r->players;
	for (i = 0; i < r->nseats; i++) {
		r->seats[i].account = names[i];
		r->seats[i].rating_before = r->seats[i].rating_after = NAN;
	}
	r->state = m;
	r->totals = m != NULL ? no_totals : NULL;
}

/* r's boardText as its view writes it; 0 (out "") in the lobby. */
static size_t
board_text(const struct match_rules_record *r, char out[VERSUS_BOARDS_TEXT_MAX])
{
	const char *names[MATCH_PLAYERS_MAX] = { NULL };
	uint8_t places[MATCH_PLAYERS_MAX];
	struct match_standing s;
	int i;

	out[0] = '\0';
	if (r->state == NULL)
		return 0;
	for (i = 0; i < r->nseats; i++)
		names[i] = r->seats[i].account;
	match_versus.standing(r->state, &s);
	match_places(&s, match_end_of(&s, (uint32_t)r->turn_cap), places);
	return versus_boards_text(r->state, places, names, out);
}

/* Seed 7, three seats after one turn, written by hand rather than played:
 * seat 0 has a T on the floor, seat 1 a grey row open at column 3 under an
 * I and a block of 3 lines queued, seat 2 resigned (place 3). */
static void
known_state(struct versus_match *m)
{
	static const char t_board[] =
	    "..........\n..........\n..........\n..........\n..........\n"
	    "..........\n..........\n..........\n..........\n..........\n"
	    "..........\n..........\n..........\n..........\n..........\n"
	    "..........\n..........\n..........\n.T........\nTTT.......";
	struct versus_player *p;
	unsigned c;

	versus_init(m, 7, 3);
	m->turn = 1;
	p = &m->players[0];
	tetromino_board_from_text(&p->board, t_board);
	p->score = 300;
	p = &m->players[1];
	p->board.rows[0] = TETROMINO_FULL_ROW & ~(1u << 3); /* grey: occupied, letter code 0 */
	for (c = 0; c < 4; c++)
		tetromino_board_set(&p->board, 1, c, TETROMINO_I + 1);
	p->score = 1200;
	p->nqueue = 1;
	p->queue[0] = (struct versus_block){ 3, 5 };
	p->pending = 3;
	p = &m->players[2];
	p->alive = false;
	p->end_reason = VERSUS_END_RESIGNED;
	p->place = 3;
	p->out_turn = 1;
	m->nalive = 2;
}

#define EMPTY3 "..........  ..........  ..........\n"

static const char known_text[] =
    "0 alice     1 bob_the_l 2 carol\n"
    "300         1200 +3     #3 resigned\n"
    EMPTY3 EMPTY3 EMPTY3 EMPTY3 EMPTY3 EMPTY3 EMPTY3 EMPTY3 EMPTY3 EMPTY3
    EMPTY3 EMPTY3 EMPTY3 EMPTY3 EMPTY3 EMPTY3 EMPTY3 EMPTY3
    ".T........  IIII......  ..........\n"
    "TTT.......  GGG.GGGGGG  ..........";

static void
test_known(void)
{
	static const char *const names[] = { "alice", "bob_the_long_named_bot", "carol" };
	static const char capped[] = "0 alice     1 bob_the_l 2 carol\n"
	    "#1 300      #1 1200     #3 resigned\n";
	struct versus_match m;
	struct match_rules_record r;
	char text[VERSUS_BOARDS_TEXT_MAX];
	size_t n;

	known_state(&m);
	record_init(&r, &m, names, "playing");
	n = board_text(&r, text);
	is_text(text, known_text, "a known 3-seat state: names, scores, queued lines, a player out, "
	    "the boards with a piece and a grey row");
	is_int(n, strlen(known_text), "the length returned is the text's");

	/* The cap stops the match after this turn: those still in share place 1. */
	r.turn_cap = 1;
	board_text(&r, text);
	ok(strncmp(text, capped, strlen(capped)) == 0,
	    "at the turn cap the players still in show \"#1 SCORE\"");
}

static void
test_widths(void)
{
	static const char *const names[] = {
		"abcdefghijabcdefghijabcdefghij12", "b", "c\xc3\xa9z", "ddd", "eee", "fff", "ggg", "hhh",
	};
	struct versus_match m;
	struct match_rules_record r;
	char text[VERSUS_BOARDS_TEXT_MAX];
	const char *s;
	size_t n, lines = 0, rows_ok = 0, widest = 0;
	unsigned i;

	versus_init(&m, 7, 8);
	m.players[7].score = UINT64_MAX;
	m.players[7].pending = 999;
	for (i = 1; i < 7; i++) {
		m.players[i].alive = false;
		m.players[i].end_reason = VERSUS_END_RESIGNED;
		m.players[i].place = 3;
	}
	m.nalive = 2;
	m.turn = 1;
	record_init(&r, &m, names, "playing");
	n = board_text(&r, text);
	ok(n > 0 && n < VERSUS_BOARDS_TEXT_MAX && strlen(text) == n, "8 seats fit the buffer (%zu of %d)",
	    n, VERSUS_BOARDS_TEXT_MAX);
	for (s = text; ; lines++) {
		size_t w = strcspn(s, "\n");

		if (lines >= 2 && w == (size_t)VERSUS_BOARDS_COLUMN * 8 - 2)
			rows_ok++;
		if (w > widest)
			widest = w;
		if (s[w] == '\0') {
			lines++;
			break;
		}
		s += w + 1;
	}
	is_int(lines, VERSUS_BOARDS_LINES, "22 lines: two of headers, twenty of boards");
	is_int(rows_ok, TETROMINO_ROWS, "every board row is 8 * 12 - 2 characters wide");
	ok(widest <= (size_t)VERSUS_BOARDS_COLUMN * 8 - 1, "no line is wider than 8 * 12 - 1 (%zu)", widest);
	ok(strncmp(text, "0 abcdefghi 1 b", 15) == 0, "a long name is cut to fit its column");
	ok(strncmp(text + 24, "2 c??z", 6) == 0, "a name's bytes outside printable ASCII show as '?'");
	ok(strstr(text, "#3 resigned #3 resigned") != NULL, "an 11-character state keeps one blank "
	    "before the next column");
	ok(strstr(text, "18446744073\n") != NULL, "a score too long for its column is cut, the line "
	    "trimmed after it");
}

/* The view as an answer writes it, read back as a value (NULL when the
 * writer fails). */
static json_t *
view_value(const struct match_rules_record *r, int viewer, int64_t now_ms)
{
	struct jw w;
	char *text;
	json_t *v;

	jw_init(&w, 4096, 1u << 22);
	match_view_write(&match_versus, &w, r, viewer, now_ms);
	text = jw_take(&w, NULL);
	v = text != NULL ? json_loads(text, 0, NULL) : NULL;
	free(text);
	return v;
}

static void
test_json(void)
{
	static const char *const names[] = { "alice", "bob_the_long_named_bot", "carol" };
	struct versus_match m;
	struct match_rules_record r;
	json_t *v;

	record_init(&r, NULL, names, "lobby");
	r.nseats = r.joined = 1;
	is_int(board_text(&r, (char[VERSUS_BOARDS_TEXT_MAX]){ 0 }), 0, "no text in the lobby");
	v = view_value(&r, 0, 1700000000000);
	ok(v != NULL && json_is_null(json_object_get(v, "boardText")) &&
	    json_array_size(json_object_get(v, "seats")) == 1, "the lobby's view: boardText null");
	json_decref(v);

	known_state(&m);
	record_init(&r, &m, names, "playing");
	r.moved = 1;
	v = view_value(&r, -1, 1700000000000);
	is_text(json_string_value(json_object_get(v, "boardText")) ? json_string_value(json_object_get(v,
	    "boardText")) : "(none)", known_text, "the view's boardText is that text");
	ok(json_is_true(json_object_get(json_array_get(json_object_get(v, "seats"), 0), "moved")) &&
	    json_is_false(json_object_get(json_array_get(json_object_get(v, "seats"), 1), "moved")),
	    "and its seats carry the moves sent");
	json_decref(v);
}

int
main(void)
{
	test_known();
	test_widths();
	test_json();
	return tap_done();
}
