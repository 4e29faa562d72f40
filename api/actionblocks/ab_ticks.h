/*
 * ab_ticks.h: actionblocks-v1 in real time as the server serves it (the
 * tick clock of the engine, actionblocks_tick.h): the descriptor's
 * optional tick hooks (match_rules.h, struct match_ticks), which
 * ab_rules.c hangs on match_actionblocks. The keys, an input's text and a
 * stream frame's events are documented in ab_ticks.c and on the rules
 * page (docs/rules/actionblocks.md, "Real time").
 */
#ifndef API_AB_TICKS_H
#define API_AB_TICKS_H

#include <stdbool.h>

#include "actionblocks.h"
#include "match.h"

/* What one tick did, as the server holds it (match_ticks.events_size):
 * the engine's events and whether a view of the match changed. */
struct ab_tick_out {
	struct ab_tick_events ev;
	bool changed;
};

extern const struct match_ticks ab_ticks;

#endif
