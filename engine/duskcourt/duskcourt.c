/*
 * duskcourt.c: the run, the state machine on top of the court
 * (duskcourt_court.c) and the dealer (duskcourt_deal.c): captures, the
 * clear and stuck resolutions that happen on the capture itself, reset,
 * next and endRun, scoring and the legal list.
 *
 * Invariant kept by every function: a refusal returns before the first
 * write to the state, so a refused action leaves it byte-identical. Work
 * per action is a scan of at most 36 squares, except next, which deals.
 */
#include "duskcourt.h"

#include <string.h>

/* ---- the run ---- */

static void
load_court(struct duskcourt_state *s, const struct duskcourt_court *c)
{
	s->size = c->size;
	s->king_survives = c->king_survives;
	memcpy(s->board, c->cells, sizeof s->board);
	memcpy(s->dealt, c->cells, sizeof s->dealt);
	s->captures = 0;
	s->paid_depth = 0;
	s->reset_used = false;
	s->phase = DUSKCOURT_PLAYING;
}

bool
duskcourt_init(struct duskcourt_state *s, uint64_t seed, struct duskcourt_solver *work,
    char *reason, size_t cap)
{
	struct duskcourt_court court;
	struct duskcourt_state fresh;

	if (seed > DUSKCOURT_SEED_MAX)
		return engine_refuse(reason, cap, "seed %llu is out of range (0..2^53-1)",
		    (unsigned long long)seed);
	memset(&fresh, 0, sizeof fresh);
	fresh.seed = seed;
	fresh.rung = 1;
	fresh.lives = DUSKCOURT_LIVES;
	fresh.last_result = DUSKCOURT_RESULT_NONE;
	if (!duskcourt_deal(&court, seed, 0, 1, work))
		return engine_refuse(reason, cap, "the dealer refused seed %llu",
		    (unsigned long long)seed);
	load_court(&fresh, &court);
	fresh.courts_dealt = 1;
	*s = fresh;
	return true;
}

static bool
refuse_phase(const struct duskcourt_state *s, const char *what, char *reason, size_t cap)
{
	if (s->phase == DUSKCOURT_DONE)
		return engine_refuse(reason, cap, "the run is over: nothing is legal after done");
	if (s->phase == DUSKCOURT_BREAK)
		return engine_refuse(reason, cap,
		    "%s is only legal while playing: the court is at a break (next or endRun)", what);
	return engine_refuse(reason, cap,
	    "%s is only legal at a break: the court is still in play", what);
}

/* Checks one square index of a capture; false with the reason if unusable. */
static bool
check_square(const struct duskcourt_state *s, const char *role, int64_t sq, char *reason, size_t cap)
{
	if (sq < 0 || sq >= DUSKCOURT_CELLS)
		return engine_refuse(reason, cap, "%s %lld is not a square index (0..35)", role,
		    (long long)sq);
	if (sq >= (int64_t)s->size * s->size)
		return engine_refuse(reason, cap, "square %lld is off this %dx%d court (0..%d)",
		    (long long)sq, s->size, s->size, s->size * s->size - 1);
	return true;
}

static uint64_t
capture_pay(uint32_t rung)
{
	return 10 + 2 * ((uint64_t)rung - 1);
}

bool
duskcourt_capture(struct duskcourt_state *s, int64_t from64, int64_t to64, char *reason, size_t cap)
{
	int from, to, fromc, toc, block, left;
	uint64_t r = s->rung, pay = 0;

	if (s->phase != DUSKCOURT_PLAYING)
		return refuse_phase(s, "capture", reason, cap);
	if (!check_square(s, "from", from64, reason, cap) || !check_square(s, "to", to64, reason, cap))
		return false;
	from = (int)from64;
	to = (int)to64;
	fromc = s->board[from];
	toc = s->board[to];
	if (fromc == DUSKCOURT_EMPTY)
		return engine_refuse(reason, cap, "square %d is empty: there is no idol to move", from);
	if (fromc == DUSKCOURT_BOULDER)
		return engine_refuse(reason, cap, "square %d holds a boulder, which never moves", from);
	if (from == to)
		return engine_refuse(reason, cap, "the %s on %d cannot take itself",
		    duskcourt_idol_name(fromc), from);
	if (toc == DUSKCOURT_EMPTY)
		return engine_refuse(reason, cap,
		    "square %d is empty: every move must take an idol", to);
	if (toc == DUSKCOURT_BOULDER)
		return engine_refuse(reason, cap, "square %d holds a boulder, which is never taken", to);
	if (s->king_survives && toc == DUSKCOURT_K)
		return engine_refuse(reason, cap,
		    "the jackal on %d must stand last on this court and can never be taken", to);
	block = duskcourt_reach(s->board, s->size, from, to);
	if (block < 0)
		return engine_refuse(reason, cap, "the %s on %d cannot reach %d",
		    duskcourt_idol_name(fromc), from, to);
	if (block < DUSKCOURT_CELLS)
		return engine_refuse(reason, cap, "the %s on %d cannot reach %d: %s on %d blocks the line",
		    duskcourt_idol_name(fromc), from, to,
		    s->board[block] == DUSKCOURT_BOULDER ? "the boulder" : "the idol", block);

	/* Legal: from here on the state changes. */
	s->board[to] = (uint8_t)fromc;
	s->board[from] = DUSKCOURT_EMPTY;
	s->captures++;
	if (s->captures > s->paid_depth) {
		/* Paid by depth once per court: a replay after a reset pays only
		 * when it goes deeper than any earlier attempt. */
		pay = capture_pay(s->rung);
		s->paid_depth = s->captures;
		s->score += pay;
	}
	left = duskcourt_count_idols(s->board, s->size);
	if (left == 1) {
		struct duskcourt_award a;

		s->streak++;
		a.capture = pay;
		a.clear = 40 * r;
		a.streak = 10 * r * (s->streak < 5 ? s->streak : 5);
		a.clean = s->reset_used ? 0 : 20 * r;
		a.total = a.capture + a.clear + a.streak + a.clean;
		/* The capture's own pay is already in the score. */
		s->score += a.clear + a.streak + a.clean;
		s->last_award = a;
		s->has_award = true;
		s->last_result = DUSKCOURT_RESULT_CLEAR;
		s->phase = DUSKCOURT_BREAK;
	} else if (duskcourt_captures(s->board, s->size, s->king_survives, NULL, 0) == 0) {
		s->lives--;
		s->streak = 0;
		s->last_result = DUSKCOURT_RESULT_STUCK;
		s->phase = s->lives == 0 ? DUSKCOURT_DONE : DUSKCOURT_BREAK;
	}
	return true;
}

bool
duskcourt_reset(struct duskcourt_state *s, char *reason, size_t cap)
{
	if (s->phase != DUSKCOURT_PLAYING)
		return refuse_phase(s, "reset", reason, cap);
	if (s->reset_used)
		return engine_refuse(reason, cap, "reset is only allowed once per court");
	if (s->captures == 0)
		return engine_refuse(reason, cap,
		    "reset needs at least one capture on this court: the court is as dealt");
	memcpy(s->board, s->dealt, sizeof s->board);
	s->captures = 0;
	s->reset_used = true;
	return true;
}

bool
duskcourt_next(struct duskcourt_state *s, struct duskcourt_solver *work, char *reason, size_t cap)
{
	struct duskcourt_court court;
	uint32_t rung;

	if (s->phase != DUSKCOURT_BREAK)
		return refuse_phase(s, "next", reason, cap);
	rung = s->last_result == DUSKCOURT_RESULT_CLEAR ? s->rung + 1 : s->rung;
	/* Four billion courts: unreachable in play, but never wrap the cursor. */
	if (rung == 0 || s->courts_dealt == UINT32_MAX)
		return engine_refuse(reason, cap, "the run's court counter is exhausted: endRun");
	if (!duskcourt_deal(&court, s->seed, s->courts_dealt, rung, work))
		return engine_refuse(reason, cap, "the dealer refused this state");
	s->rung = rung;
	s->courts_dealt++;
	load_court(s, &court);
	return true;
}

bool
duskcourt_end_run(struct duskcourt_state *s, char *reason, size_t cap)
{
	if (s->phase != DUSKCOURT_BREAK)
		return refuse_phase(s, "endRun", reason, cap);
	s->phase = DUSKCOURT_DONE;
	return true;
}

bool
duskcourt_apply(struct duskcourt_state *s, const struct duskcourt_action *a,
    struct duskcourt_solver *work, char *reason, size_t cap)
{
	switch (a->type) {
	case DUSKCOURT_ACT_CAPTURE:
		return duskcourt_capture(s, a->from, a->to, reason, cap);
	case DUSKCOURT_ACT_RESET:
		return duskcourt_reset(s, reason, cap);
	case DUSKCOURT_ACT_NEXT:
		return duskcourt_next(s, work, reason, cap);
	case DUSKCOURT_ACT_END_RUN:
		return duskcourt_end_run(s, reason, cap);
	default:
		return engine_refuse(reason, cap, "unknown action type %lld", (long long)a->type);
	}
}

static void
put(struct duskcourt_action *out, size_t cap, size_t i, int type, int from, int to)
{
	if (i < cap) {
		out[i].type = type;
		out[i].from = from;
		out[i].to = to;
	}
}

size_t
duskcourt_legal(const struct duskcourt_state *s, struct duskcourt_action *out, size_t cap)
{
	struct duskcourt_capture caps[DUSKCOURT_CELLS * 8];
	size_t n = 0, i, ncaps;

	switch (s->phase) {
	case DUSKCOURT_PLAYING:
		ncaps = duskcourt_captures(s->board, s->size, s->king_survives, caps,
		    sizeof caps / sizeof caps[0]);
		for (i = 0; i < ncaps; i++, n++)
			put(out, cap, n, DUSKCOURT_ACT_CAPTURE, caps[i].from, caps[i].to);
		if (s->captures > 0 && !s->reset_used)
			put(out, cap, n++, DUSKCOURT_ACT_RESET, 0, 0);
		return n;
	case DUSKCOURT_BREAK:
		put(out, cap, n++, DUSKCOURT_ACT_NEXT, 0, 0);
		put(out, cap, n++, DUSKCOURT_ACT_END_RUN, 0, 0);
		return n;
	default:
		return 0;
	}
}
