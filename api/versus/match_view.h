/*
 * match_view.h: a served versus match as an answer shows it, built from
 * plain C: the fields of the match's stored row and, once it has begun,
 * the engine's state and the totals decoded from that row. The daemon
 * reads the row and the clock; everything formatted here is protocol
 * (GET /api/matches/{id}, the long poll, the event stream, a move's
 * answer, a refusal's `match`).
 *
 * Field names are snake_case, as the match routes' requests (match.h).
 * Pure CPU: nothing here reads a clock or a store.
 */
#ifndef API_MATCH_VIEW_H
#define API_MATCH_VIEW_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "match.h"
#include "versus.h"

/* One seat taken, in seat order. */
struct match_record_seat {
	const char *account;       /* the account's name (borrowed) */
	double      rating_before; /* NaN unless the match is rated and finished */
	double      rating_after;
};

/* A match as its row holds it. Every pointer is borrowed for the call. */
struct match_record {
	int64_t     id;
	int64_t     seed;          /* 0..VERSUS_SEED_MAX */
	const char *rules;         /* VERSUS_RULES */
	const char *status;        /* "lobby", "playing" or "finished" */
	const char *end_reason;    /* match_end_name() once finished, "" before */
	int         players;       /* 2..8 */
	int         joined;        /* seats taken, 1..players */
	int         turn_seconds;
	int         turn_cap;
	bool        seed_chosen, rated;
	bool        items, queue;  /* the item setting; opened by the quick-match queue */
	unsigned    item_chance;   /* with items: 1..100 */
	const uint8_t *item_weights; /* with items: VERSUS_ITEM_KINDS shares, else NULL */
	const char *unrated_reason; /* a finished queue match that moved no rating: "aborted" or
	                             * "pair_cap"; "" or NULL else */
	int64_t     turn;          /* turns resolved */
	int64_t     created_at, started_at, finished_at, deadline_at; /* Unix ms, 0: none */
	const char *last_turn;     /* the last turn's events (match_events_write) as text, or NULL */
	const char *certificate;   /* or NULL */
	int         nseats;        /* 0..VERSUS_PLAYERS_MAX */
	struct match_record_seat seats[VERSUS_PLAYERS_MAX];
	/* NULL in the lobby, before there is a state; else the state and the
	 * totals after the last turn. */
	const struct versus_match *m;
	const struct match_totals *totals;
	uint8_t     moved;         /* a bit a seat: its move is in for the coming turn */
};

/*
 * The boards side by side, for a reader (an LLM as much as a person), as
 * the view's `boardText`: one column a seat in seat order, each
 * MATCH_VIEW_COLUMN characters wide (a board's 10 cells and a gap of 2),
 *   line 1   the seat and its account's name ("0 alice"),
 *   line 2   its state: the score while it plays, followed by " +N" when N
 *            garbage lines wait to rise ("1200 +3"); "#P SCORE" for a
 *            player still in whose place is decided (the winner, or those
 *            the cap stopped); "#P REASON" for a player out ("#3 top_out"),
 *   lines 3-22  the board, top row first, as versus_board_text() draws it
 *            ('.' empty, G garbage, a piece's letter).
 * A header field holds at most MATCH_VIEW_COLUMN - 1 characters (a longer
 * name is cut) and every line loses its trailing blanks: for n seats the
 * board rows are exactly MATCH_VIEW_COLUMN * n - 2 wide, the header lines
 * at most one more. The same for every viewer: nothing secret is in it.
 */
#define MATCH_VIEW_COLUMN 12
#define MATCH_VIEW_TEXT_LINES (2 + TETROMINO_ROWS)
/* Each line and its new line (or the NUL) within one width of 8 columns. */
#define MATCH_VIEW_TEXT_MAX (MATCH_VIEW_TEXT_LINES * MATCH_VIEW_COLUMN * VERSUS_PLAYERS_MAX)

/* Writes r's boardText into out and returns its length; 0 (out "") in
 * the lobby, when r->m is NULL. */
size_t match_view_board_text(const struct match_record *r, char out[MATCH_VIEW_TEXT_MAX]);

/* The match as viewer (a seat, or -1 for a spectator) sees it at now_ms
 * (Unix ms, for deadline_in_ms), written into w (jw.h; a failure is the
 * writer's): {match_id, rules, status, players, joined, turn_seconds,
 * turn_cap, rated, items, queue, unrated_reason, seed (null until
 * finished), seed_chosen, turn, deadline, deadline_in_ms, end, you,
 * seats, boardText (null in the lobby), last_turn, created_at,
 * started_at, finished_at, certificate}, each seat match_player_write()'s
 * fields (only its number in the lobby) plus account, moved while playing
 * and the ratings of a finished rated match. last_turn is the row's text,
 * the daemon's own compact JSON (match_events_write), written as it is;
 * a row whose text is not such JSON is not one the daemon wrote. */
struct jw;
void match_view_write(struct jw *w, const struct match_record *r, int viewer, int64_t now_ms);

/* What the mover viewer needs to play on, without the other seats (a
 * move's answer): {status, turn, deadline_in_ms, end, seat}, seat the
 * viewer's own seat as match_view_write() shows it (null in the lobby).
 * Its cost does not grow with the number of players. */
void match_view_mover_write(struct jw *w, const struct match_record *r, int viewer, int64_t now_ms);

#endif
