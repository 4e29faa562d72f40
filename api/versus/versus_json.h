/*
 * versus_json.h: what a served versus match shows of its engine
 * (versus.h), the parts the shared match answers (game/match.h) put
 * together for this ruleset: a player as a view shows it, a turn's
 * events, the boards side by side (the view's boardText), and what a turn
 * adds to the totals. versus_rules.c makes the descriptor of them
 * (match_versus).
 *
 * Field names are snake_case, as the match routes' requests. Pure CPU over
 * plain structs; each part written with the answer writer (jw.h), a
 * failure the writer's (sticky).
 */
#ifndef API_VERSUS_JSON_H
#define API_VERSUS_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "match.h"
#include "versus.h"

struct jw;

/* The ruleset (versus_rules.c). */
extern const struct match_rules match_versus;

/* Adds one resolved turn's events to t: lines sent by each player, and
 * received by its target unless lost. */
void versus_totals_add(struct match_totals *t, const struct versus_events *ev);

/* Whether player's move asked `use T` and found the inventory empty when
 * the uses acted (so it did nothing). */
bool versus_use_empty(const struct versus_events *ev, const struct versus_move *moves,
    unsigned player);

/* What viewer (a seat, or VERSUS_NOBODY for a spectator) sees of player,
 * the fields only, inside an object the caller opened (which may add its
 * own after them): seat, alive, place, end_reason, board_text, current,
 * hold, next (null unless viewer is player), score, lines, level, combo,
 * back_to_back, pending, missed, lines_sent, lines_received, and in a
 * match with items items_text, current_items, hold_items, next_items,
 * inventory, blind, transform. place (match_places) is null while 0. */
void versus_seat_write(struct jw *w, const struct versus_match *m, unsigned viewer,
    unsigned player, unsigned place, const struct match_totals *t);

/* A resolved turn as everyone may see it: {turn, over, players: [{seat,
 * action, and for a placement held, piece, rotation, column, lines,
 * points, combo, back_to_back, perfect_clear, attack, cancelled, sent,
 * target, lost; received, risen: [{lines, hole}], eliminated, end_reason,
 * place}]}, and with items "hits". The hole of a block sent this turn is
 * not in it: it shows once the block rises. With the turn's moves (moves
 * not NULL), a player whose move asked `use T` while its inventory was
 * empty when the uses acted adds "use": {"used": false, "reason": "empty
 * inventory"} (a use that acted is only in "hits", by target: its user
 * stays unnamed). The row keeps it as this text (the view's last_turn). */
void versus_events_write(struct jw *w, const struct versus_events *ev,
    const struct versus_move *moves);

/*
 * The boards side by side, for a reader (an LLM as much as a person), as
 * the view's `boardText`: one column a seat in seat order, each
 * VERSUS_BOARDS_COLUMN characters wide (a board's 10 cells and a gap of 2),
 *   line 1   the seat and its account's name ("0 alice"),
 *   line 2   its state: the score while it plays, followed by " +N" when N
 *            garbage lines wait to rise ("1200 +3"); "#P SCORE" for a
 *            player still in whose place is decided (the winner, or those
 *            the cap stopped); "#P REASON" for a player out ("#3 top_out"),
 *   lines 3-22  the board, top row first, as versus_board_text() draws it
 *            ('.' empty, G garbage, a piece's letter).
 * A header field holds at most VERSUS_BOARDS_COLUMN - 1 characters (a
 * longer name is cut) and every line loses its trailing blanks: for n
 * seats the board rows are exactly VERSUS_BOARDS_COLUMN * n - 2 wide, the
 * header lines at most one more. The same for every viewer: nothing
 * secret is in it.
 */
#define VERSUS_BOARDS_COLUMN 12
#define VERSUS_BOARDS_LINES (2 + TETROMINO_ROWS)
/* Each line and its new line (or the NUL) within one width of 8 columns. */
#define VERSUS_BOARDS_TEXT_MAX (VERSUS_BOARDS_LINES * VERSUS_BOARDS_COLUMN * VERSUS_PLAYERS_MAX)

/* Writes m's boards text into out and returns its length (0, out "", when
 * m's player count is out of range): places[seat] as match_places() gives
 * them, names[seat] the seats' accounts (NULL, or past the seats taken,
 * read as ""). */
size_t versus_boards_text(const struct versus_match *m, const uint8_t *places,
    const char *const *names, char out[VERSUS_BOARDS_TEXT_MAX]);

#endif
