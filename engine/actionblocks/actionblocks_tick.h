/*
 * actionblocks_tick.h: the tick clock (real time, 60 ticks a second):
 * one tick, and a run of ticks from recorded inputs (actionblocks_tick.c).
 */
#ifndef ACTIONBLOCKS_TICK_H
#define ACTIONBLOCKS_TICK_H

#include "actionblocks_match.h"

/* Runs one tick of a tick-clock match: inputs[0..n) in arrival order
 * (inputs of seats out, or of unknown seats, are ignored; keys during the
 * countdown too), then gravity and soft drop, the lock delay, the blind
 * and transform timers, and eliminations (out in the same tick share a
 * place). ev may be NULL. AB_WRONG_CLOCK on a turn-clock match. */
enum ab_outcome ab_tick(struct ab_match *m, const struct ab_input *inputs, size_t n,
    struct ab_tick_events *ev);

/* Runs ticks from m->tick up to (not including) end, each with the inputs
 * of inputs[0..n) recorded for it (n inputs in arrival order, their ticks
 * never decreasing): a replay of a recorded match, or the server's catch-up.
 * Inputs for ticks before m->tick are skipped. Stops early when the match
 * is over. Returns how many inputs were consumed (applied or skipped). */
size_t ab_replay_ticks(struct ab_match *m, const struct ab_input *inputs, size_t n,
    uint32_t end);

#endif
