/*
 * ab_json.h: what a served actionblocks-v1 match shows of its engine
 * (actionblocks.h), the parts the shared match answers (game/match.h) put
 * together for this ruleset: a seat as a view shows it, a turn's events,
 * and what a turn adds to the totals (the garbage lines each seat sent and
 * received). ab_rules.c makes the ruleset's descriptor of them
 * (match_actionblocks).
 *
 * The match is played on the engine's turn clock: one move a living seat a
 * turn, the keys of its current piece up to that piece's lock, in the
 * engine's grammar (`keys LLXD`, `use 2; keys D`, `resign`; "missed" for
 * a turn the deadline took). Its replay is a match replay (match.h) of
 * rules "actionblocks-v1".
 *
 * A seat's board, as the views show it (docs/rules/actionblocks.md,
 * "Serving a match"): "board", the 20 rows of the visible field, top row
 * first (y 19 first), ten characters each ('.' empty, IOTSZJL, G grey);
 * "buffer", the hidden buffer's rows from the highest one holding a locked
 * cell down to y 20, top first ([] when the buffer is empty). The falling
 * piece is not drawn: "piece" gives it. During a Blackout every locked
 * cell reads '.' in every view, as versus's.
 *
 * Pure CPU over plain structs; the parts of answers through jw.h.
 */
#ifndef API_AB_JSON_H
#define API_AB_JSON_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ab_limits.h"
#include "actionblocks.h"
#include "match.h"

struct jw;

/* Adds one resolved turn's events to t: each lock's lines sent, and
 * received by its target unless lost. */
void ab_totals_add(struct match_totals *t, const struct ab_events *ev);

/* What viewer (a seat, or -1) sees of seat, the fields only, inside an
 * object the caller opened: seat, alive, place (match_places; null while
 * 0), end_reason, board, buffer, piece, hold, next (null unless viewer is
 * seat), score, lines, level, combo, back_to_back, pending, missed,
 * lines_sent, lines_received, and with items item_board, inventory,
 * blind, transform. */
void ab_seat_write(struct jw *w, const struct ab_match *m, int viewer, unsigned seat,
    unsigned place, const struct match_totals *t);

/* A resolved turn as everyone may see it (the view's last_turn): {turn,
 * over, players: [{seat, action, (locked) piece, lines, spin,
 * back_to_back, perfect_clear, combo, points, attack, cancelled, sent,
 * target, lost, drop_points; received, risen_lines, eliminated,
 * end_reason, place}]}, and with items "hits" [{target, item}] (the
 * user unnamed). */
void ab_events_write(struct jw *w, const struct ab_events *ev, bool items);

/* A lock's fields in an event object: piece, lines, spin, back_to_back,
 * perfect_clear, combo, points and the attack (match_attack_write). */
void ab_lock_write(struct jw *w, const struct ab_lock_events *l);

#endif
