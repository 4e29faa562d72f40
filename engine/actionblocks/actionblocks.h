/*
 * actionblocks.h: ActionBlocks matches (rules "actionblocks-v1"), 2 to 8
 * bots each playing a guideline falling-block game on a 10 x 40 board (SRS
 * rotation, lock resets, T-spins, back-to-back, combos), sending garbage to
 * each other and using versus-v1's six items. The rule book is seed 003
 * ("Game Rules (as implemented)"), with the actionblocks-v1 spec's binding
 * choices where the seed is silent and the design notes that fix the turn
 * order and the key grammar; versus-v1 (docs/rules/versus.md) is the model
 * for items, targeting and the seeded streams.
 *
 * A match is one plain fixed-size struct, copyable by value; nothing here
 * allocates, reads a clock or keeps global state. It runs on one of two
 * clocks, chosen at ab_init() and never changed:
 *   - turns (AB_CLOCK_TURNS): every living seat sends one move a turn, the
 *     keys for its current piece up to that piece's lock, and ab_resolve()
 *     plays the whole turn at once, in the order of actionblocks.c's header;
 *   - ticks (AB_CLOCK_TICKS): 60 ticks a second; the server hands
 *     ab_tick() the inputs that arrived since the last tick, in arrival
 *     order, and the engine runs gravity, soft drop and the lock delay.
 * Both clocks move pieces, lock, score, send garbage and use items through
 * the same rule functions (actionblocks_rules.h), so a key means the same
 * on either.
 *
 * Coordinates: x 0..9 left to right, y 0..39 upwards (row 0 is the bottom,
 * rows 20..39 the hidden buffer). A piece's position is the top-left cell
 * of its box; states 1, 2, 3 are the box turned a quarter clockwise each.
 *
 * Secrets during a match, as in versus: the seed, a player's preview (to
 * others), queued holes and who targets whom. The engine keeps them all;
 * what a server shows is its business (ab_view gives everything).
 */
#ifndef ACTIONBLOCKS_H
#define ACTIONBLOCKS_H

/* The game's modules, lowest first: the state (actionblocks_match.h), the
 * pieces and kicks, the shared rules (actionblocks_rules.h: names,
 * streams, keys, locks, garbage, items), then the move text, the tick
 * clock, the bytes; this header adds the turn clock and the views. */
#include "actionblocks_match.h"
#include "actionblocks_rules.h"
#include "actionblocks_cmd.h"
#include "actionblocks_gravity.h"
#include "actionblocks_serial.h"
#include "actionblocks_tick.h"

/* Starts a match: seed 0..AB_SEED_MAX, nplayers 2..8, clock, item chance
 * 0..100 (0 no items) and the six weights (0..100 each, at least one above
 * 0 when chance is; weights may be NULL when chance is 0). Every seat gets
 * stream piece 0 as its current piece and pieces 1..5 in its preview, items
 * rolled. On the turn clock the first pieces spawn now; on the tick clock
 * at the end of the countdown. False (m unchanged) when out of range. */
bool ab_init(struct ab_match *m, uint64_t seed, unsigned nplayers, unsigned clock,
    unsigned item_chance, const uint8_t *weights);

/* Resolves one turn: moves[0..nplayers) one per seat in match order
 * (entries of seats already out are ignored, MISSED for a living seat
 * without a move). Every living seat's move is checked first; on the first
 * refusal nothing changes, *bad_seat (may be NULL) names it and reason says
 * why. ev (may be NULL) receives what happened. */
enum ab_outcome ab_resolve(struct ab_match *m, const struct ab_move *moves, struct ab_events *ev,
    unsigned *bad_seat, char *reason, size_t cap);

/* Fills out for seat (< nplayers). */
void ab_view(const struct ab_match *m, unsigned seat, struct ab_view *out);

#endif
