/*
 * test_run.c: the run as a state machine: scoring sequences (paid depth
 * across a reset, the streak award and its cap, the clean award forfeited by
 * a reset), lives and stuck courts, breaks, endRun, lastResult/lastAward
 * persistence, the legal list, and every kind of refusal, each of which must
 * leave the state byte-identical (struct and serialised form) with the
 * stream cursor unmoved.
 *
 * Courts are cleared with the engine's solver, checked move by move against
 * the naive model; stuck courts are reached by the naive model's own search
 * for a losing line. Expected scores are computed here from the formulas of
 * docs/rules/duskcourt.md, not read back from the engine.
 */
#include <stdio.h>
#include <stdlib.h>

#include "duskcourt.h"
#include "naive.h"
#include "tap.h"

static struct duskcourt_solver sv;
static char reason[ENGINE_REASON_MAX];

static struct duskcourt_action
act(int type, int64_t from, int64_t to)
{
	struct duskcourt_action a;

	a.type = type;
	a.from = from;
	a.to = to;
	return a;
}

static bool
do_capture(struct duskcourt_state *s, int from, int to)
{
	struct duskcourt_action a = act(DUSKCOURT_ACT_CAPTURE, from, to);

	reason[0] = '\0';
	return duskcourt_apply(s, &a, &sv, reason, sizeof reason);
}

static bool
do_simple(struct duskcourt_state *s, int type)
{
	struct duskcourt_action a = act(type, 0, 0);

	reason[0] = '\0';
	return duskcourt_apply(s, &a, &sv, reason, sizeof reason);
}

/* One way through the board in play, from the engine's solver. */
static size_t
solution(const struct duskcourt_state *s, struct duskcourt_capture *path)
{
	struct duskcourt_court c;
	size_t n = 0;

	memset(&c, 0, sizeof c);
	c.size = s->size;
	c.king_survives = s->king_survives;
	memcpy(c.cells, s->board, sizeof c.cells);
	if (duskcourt_solve(&sv, &c, 0, path, &n) != DUSKCOURT_CLEARABLE)
		return 0;
	return n;
}

/* Clears the court in play; false if anything went wrong. */
static bool
clear_court(struct duskcourt_state *s)
{
	struct duskcourt_capture path[DUSKCOURT_PATH_MAX];
	size_t n = solution(s, path), i;

	if (n == 0)
		return false;
	for (i = 0; i < n; i++) {
		if (!naive_can_take(s->board, s->size, s->king_survives, path[i].from, path[i].to))
			return false;
		if (!do_capture(s, path[i].from, path[i].to))
			return false;
	}
	return s->phase == DUSKCOURT_BREAK && s->last_result == DUSKCOURT_RESULT_CLEAR;
}

/* The naive model's search for captures that end on a stuck board. */
static int
losing_line(const uint8_t *board, int size, bool jackal, int *line, int depth)
{
	uint8_t b[36];
	int moves[36 * 8], n = naive_moves(board, size, jackal, moves), i, got;

	if (n == 0)
		return naive_idols(board, size) >= 2 ? depth : -1;
	if (naive_idols(board, size) == 1)
		return -1;
	for (i = 0; i < n; i++) {
		memcpy(b, board, 36);
		b[moves[i] % 64] = b[moves[i] / 64];
		b[moves[i] / 64] = 0;
		line[depth] = moves[i];
		got = losing_line(b, size, jackal, line, depth + 1);
		if (got >= 0)
			return got;
	}
	return -1;
}

/* Plays into a stuck court; false if this court cannot be lost. */
static bool
lose_court(struct duskcourt_state *s)
{
	int line[36], n = losing_line(s->board, s->size, s->king_survives, line, 0), i;

	if (n <= 0)
		return false;
	for (i = 0; i < n; i++)
		if (!do_capture(s, line[i] / 64, line[i] % 64))
			return false;
	return s->last_result == DUSKCOURT_RESULT_STUCK;
}

/* The action must be refused with `want` in its reason, and leave every
 * byte of the state (and so of its serialised form) as it was. */
static void
refused(struct duskcourt_state *s, struct duskcourt_action a, const char *want, const char *what)
{
	struct duskcourt_state before = *s;
	uint8_t ser0[DUSKCOURT_SERIAL_SIZE], ser1[DUSKCOURT_SERIAL_SIZE];
	bool applied;

	duskcourt_serialise(s, ser0);
	reason[0] = '\0';
	applied = duskcourt_apply(s, &a, &sv, reason, sizeof reason);
	duskcourt_serialise(s, ser1);
	if (!ok(!applied && strstr(reason, want) != NULL, "%s is refused: \"%s\"", what, reason))
		diag("wanted a reason containing \"%s\"", want);
	ok(memcmp(&before, s, sizeof before) == 0 && memcmp(ser0, ser1, sizeof ser0) == 0
	    && s->courts_dealt == before.courts_dealt,
	    "%s leaves the state byte-identical and courtsDealt at %u", what,
	    (unsigned)before.courts_dealt);
}

static uint64_t
pay(uint64_t r)
{
	return 10 + 2 * (r - 1);
}

/* A fresh run of seed 7 and its first court, cleared cleanly. */
static void
first_court(void)
{
	struct duskcourt_state s, junk;
	struct duskcourt_action legal[DUSKCOURT_LEGAL_MAX];
	size_t n;

	memset(&junk, 0x5A, sizeof junk);
	s = junk;
	ok(!duskcourt_init(&s, DUSKCOURT_SEED_MAX + 1, &sv, reason, sizeof reason)
	    && memcmp(&s, &junk, sizeof s) == 0, "init refuses seed 2^53 and writes nothing (%s)",
	    reason);
	ok(duskcourt_init(&s, DUSKCOURT_SEED_MAX, &sv, reason, sizeof reason),
	    "init takes seed 2^53 - 1");
	ok(duskcourt_init(&s, 7, &sv, reason, sizeof reason), "init(7)");
	is_int(s.phase, DUSKCOURT_PLAYING, "a run opens already playing");
	is_int(s.rung, 1, "at rung 1");
	is_int(s.lives, 3, "with 3 lives");
	is_int(s.courts_dealt, 1, "court 0 dealt: the cursor is 1");
	is_int(s.score, 0, "score 0");
	is_int(s.last_result, DUSKCOURT_RESULT_NONE, "lastResult null");
	ok(!s.has_award, "lastAward null");
	is_int(s.seed, 7, "the seed is kept");
	is_int(s.size, 4, "a 4x4 court");
	is_int(naive_idols(s.board, 4), 3, "with 3 idols");
	ok(memcmp(s.board, s.dealt, 36) == 0, "board is the court as dealt");
	ok(duskcourt_state_valid(&s, reason, sizeof reason), "the fresh state is valid (%s)", reason);

	n = duskcourt_legal(&s, legal, DUSKCOURT_LEGAL_MAX);
	{
		int moves[36 * 8], nm = naive_moves(s.board, 4, false, moves), i;
		bool same = (size_t)nm == n;

		for (i = 0; same && i < nm; i++)
			same = legal[i].type == DUSKCOURT_ACT_CAPTURE
			    && legal[i].from * 64 + legal[i].to == moves[i];
		ok(same, "the legal list is every capture in from, to order and no reset (%zu)", n);
	}

	ok(clear_court(&s), "the court clears in two captures");
	is_int(s.captures, 2, "two captures made");
	is_int(s.paid_depth, 2, "both paid");
	is_int(s.streak, 1, "streak 1");
	/* 2 * 10 for the captures, 40 clear, 10 * 1 * 1 streak, 20 clean. */
	is_int(s.score, 90, "score 10 + 10 + 40 + 10 + 20 = 90");
	ok(s.has_award && s.last_award.capture == 10 && s.last_award.clear == 40
	    && s.last_award.streak == 10 && s.last_award.clean == 20 && s.last_award.total == 80,
	    "lastAward {capture 10, clear 40, streak 10, clean 20, total 80}");
	is_int(s.phase, DUSKCOURT_BREAK, "a break follows the clear");
	is_int(s.last_result, DUSKCOURT_RESULT_CLEAR, "lastResult clear");
	n = duskcourt_legal(&s, legal, DUSKCOURT_LEGAL_MAX);
	ok(n == 2 && legal[0].type == DUSKCOURT_ACT_NEXT && legal[1].type == DUSKCOURT_ACT_END_RUN,
	    "at a break the legal list is next, endRun");
	ok(duskcourt_state_valid(&s, reason, sizeof reason), "the break state is valid (%s)", reason);
	refused(&s, act(DUSKCOURT_ACT_CAPTURE, legal[0].from, legal[0].to),
	    "capture is only legal while playing", "a capture at a break");
	refused(&s, act(DUSKCOURT_ACT_RESET, 0, 0), "reset is only legal while playing",
	    "a reset at a break");
}

static void
reset_and_depth(void)
{
	struct duskcourt_state s, before;
	struct duskcourt_capture path[DUSKCOURT_PATH_MAX];
	struct duskcourt_action legal[DUSKCOURT_LEGAL_MAX];
	size_t n, i, nl;
	uint64_t score;

	duskcourt_init(&s, 7, &sv, NULL, 0);
	clear_court(&s);
	before = s;
	ok(do_simple(&s, DUSKCOURT_ACT_NEXT), "next after the clear");
	is_int(s.rung, 2, "one rung higher");
	is_int(s.courts_dealt, 2, "courtsDealt 2");
	ok(s.phase == DUSKCOURT_PLAYING && s.captures == 0 && s.paid_depth == 0 && !s.reset_used,
	    "a fresh court: playing, no captures, nothing paid, reset unused");
	ok(s.last_result == DUSKCOURT_RESULT_CLEAR && s.has_award
	    && memcmp(&s.last_award, &before.last_award, sizeof s.last_award) == 0,
	    "next leaves lastResult and lastAward as they were");
	is_int(naive_idols(s.board, s.size), 4, "rung 2 deals 4 idols");

	refused(&s, act(DUSKCOURT_ACT_RESET, 0, 0), "at least one capture", "reset before a capture");
	score = s.score;
	n = solution(&s, path);
	ok(n == 3, "a way through in three captures");
	ok(do_capture(&s, path[0].from, path[0].to) && do_capture(&s, path[1].from, path[1].to),
	    "two captures");
	is_int(s.score, score + 2 * pay(2), "each paid 10 + 2 * (2 - 1) = 12");
	is_int(s.paid_depth, 2, "paidDepth 2");
	nl = duskcourt_legal(&s, legal, DUSKCOURT_LEGAL_MAX);
	ok(nl >= 1 && legal[nl - 1].type == DUSKCOURT_ACT_RESET, "reset is offered last in the list");
	for (i = 0; i + 1 < nl; i++)
		if (legal[i].type != DUSKCOURT_ACT_CAPTURE)
			break;
	is_int(i, nl - 1, "everything before it is a capture");
	ok(do_simple(&s, DUSKCOURT_ACT_RESET), "reset");
	ok(memcmp(s.board, s.dealt, 36) == 0 && s.captures == 0 && s.reset_used,
	    "the court is as dealt again, captures 0, resetUsed");
	is_int(s.paid_depth, 2, "paidDepth survives the reset");
	is_int(s.score, score + 24, "reset costs and pays nothing");
	nl = duskcourt_legal(&s, legal, DUSKCOURT_LEGAL_MAX);
	ok(nl > 0 && legal[nl - 1].type == DUSKCOURT_ACT_CAPTURE, "no reset in the list once spent");
	ok(do_capture(&s, path[0].from, path[0].to), "replay capture 1");
	is_int(s.score, score + 24, "capture 1 again pays nothing");
	refused(&s, act(DUSKCOURT_ACT_RESET, 0, 0), "only allowed once per court", "a second reset");
	ok(do_capture(&s, path[1].from, path[1].to), "replay capture 2");
	is_int(s.score, score + 24, "capture 2 again pays nothing");
	ok(do_capture(&s, path[2].from, path[2].to), "capture 3, deeper than before, clears");
	/* 12 for the new depth, 40*2 clear, 10*2*2 streak, no clean award. */
	is_int(s.score, score + 24 + 12 + 80 + 40, "depth 3 pays 12; clear 80, streak 40, clean 0");
	ok(s.last_award.capture == 12 && s.last_award.clear == 80 && s.last_award.streak == 40
	    && s.last_award.clean == 0 && s.last_award.total == 132,
	    "lastAward {12, 80, 40, 0, total 132}: the reset forfeited the clean award");
	is_int(s.streak, 2, "the reset did not break the streak");
	ok(duskcourt_state_valid(&s, reason, sizeof reason), "valid after all that (%s)", reason);
}

/* Clears courts one after another and checks each award against the
 * formulas, past the streak cap. Leaves the run at the break after rung
 * `upto`. */
static bool
climb(struct duskcourt_state *s, uint32_t upto, bool verbose)
{
	while (s->rung < upto || s->phase == DUSKCOURT_PLAYING) {
		uint64_t r, before, want_streak;
		int idols;

		if (s->phase == DUSKCOURT_BREAK && !do_simple(s, DUSKCOURT_ACT_NEXT))
			return false;
		r = s->rung;
		before = s->score;
		idols = naive_idols(s->dealt, s->size);
		if (!clear_court(s))
			return false;
		want_streak = 10 * r * (s->streak < 5 ? s->streak : 5);
		if (s->score != before + (uint64_t)(idols - 1) * pay(r) + 40 * r + want_streak + 20 * r)
			return false;
		if (verbose)
			ok(s->last_award.streak == want_streak,
			    "rung %u, streak %u: streak award 10 * %u * %u = %llu", (unsigned)r,
			    (unsigned)s->streak, (unsigned)r, s->streak < 5 ? (unsigned)s->streak : 5u,
			    (unsigned long long)want_streak);
	}
	return true;
}

static void
streak_lives_and_done(void)
{
	struct duskcourt_state s, before;
	uint32_t dealt;
	int lost = 0;

	duskcourt_init(&s, 7, &sv, NULL, 0);
	ok(climb(&s, 7, true), "rungs 1..7 cleared in a row, every score as the formulas say");
	is_int(s.streak, 7, "streak 7");
	is_int(s.last_award.streak, 10 * 7 * 5, "the streak award is capped at 5: 10 * 7 * 5");

	/* Lose a court. */
	ok(do_simple(&s, DUSKCOURT_ACT_NEXT), "next to rung 8");
	before = s;
	ok(lose_court(&s), "a losing line on rung 8 (naive search) ends stuck");
	is_int(s.lives, 2, "a life lost");
	is_int(s.streak, 0, "the streak returns to zero");
	is_int(s.phase, DUSKCOURT_BREAK, "break after a stuck court with lives left");
	ok(memcmp(&s.last_award, &before.last_award, sizeof s.last_award) == 0 && s.has_award,
	    "lastAward still holds the last clear's awards");
	is_int(s.score, before.score + (uint64_t)s.captures * pay(8),
	    "the stuck court paid its captures and nothing else");
	refused(&s, act(DUSKCOURT_ACT_RESET, 0, 0), "only legal while playing",
	    "reset on a stuck court");
	dealt = s.courts_dealt;
	ok(do_simple(&s, DUSKCOURT_ACT_NEXT), "next after the stuck court");
	is_int(s.rung, 8, "same rung");
	is_int(s.courts_dealt, dealt + 1, "a fresh court from the next k");
	ok(memcmp(s.dealt, before.dealt, 36) != 0, "not the same court again");
	is_int(s.last_result, DUSKCOURT_RESULT_STUCK, "lastResult stays stuck through next");
	ok(clear_court(&s), "the fresh rung 8 court clears");
	is_int(s.streak, 1, "the streak starts again at 1");
	is_int(s.last_award.streak, 10 * 8 * 1, "so the streak award is 10 * 8 * 1");

	/* Lose the remaining two lives. */
	while (s.phase != DUSKCOURT_DONE && lost < 10) {
		if (s.phase == DUSKCOURT_BREAK)
			do_simple(&s, DUSKCOURT_ACT_NEXT);
		if (!lose_court(&s))
			clear_court(&s); /* a court with no losing line: climb past it */
		lost++;
	}
	is_int(s.phase, DUSKCOURT_DONE, "done after the last life");
	is_int(s.lives, 0, "no lives left");
	is_int(s.last_result, DUSKCOURT_RESULT_STUCK, "the run ended on a stuck court");
	is_int(duskcourt_legal(&s, NULL, 0), 0, "nothing is legal when done");
	ok(duskcourt_state_valid(&s, reason, sizeof reason), "the finished state is valid (%s)", reason);
	refused(&s, act(DUSKCOURT_ACT_NEXT, 0, 0), "run is over", "next after done");
	refused(&s, act(DUSKCOURT_ACT_END_RUN, 0, 0), "run is over", "endRun after done");
	refused(&s, act(DUSKCOURT_ACT_RESET, 0, 0), "run is over", "reset after done");
	refused(&s, act(DUSKCOURT_ACT_CAPTURE, 0, 1), "run is over", "a capture after done");
}

static void
end_run(void)
{
	struct duskcourt_state s, before;

	duskcourt_init(&s, 99, &sv, NULL, 0);
	refused(&s, act(DUSKCOURT_ACT_END_RUN, 0, 0), "only legal at a break", "endRun while playing");
	refused(&s, act(DUSKCOURT_ACT_NEXT, 0, 0), "only legal at a break", "next while playing");
	ok(climb(&s, 2, false), "two courts cleared");
	before = s;
	ok(do_simple(&s, DUSKCOURT_ACT_END_RUN), "endRun at the break");
	is_int(s.phase, DUSKCOURT_DONE, "done");
	ok(s.score == before.score && s.lives == before.lives && s.rung == before.rung
	    && s.courts_dealt == before.courts_dealt,
	    "endRun keeps score, lives and rung and deals nothing");
	ok(duskcourt_state_valid(&s, reason, sizeof reason), "valid (%s)", reason);

	/* endRun after a stuck court. */
	duskcourt_init(&s, 5, &sv, NULL, 0);
	while (!lose_court(&s)) {
		if (!clear_court(&s) || !do_simple(&s, DUSKCOURT_ACT_NEXT))
			break;
	}
	is_int(s.last_result, DUSKCOURT_RESULT_STUCK, "a court lost");
	ok(do_simple(&s, DUSKCOURT_ACT_END_RUN), "endRun is offered after a stuck court too");
	ok(s.phase == DUSKCOURT_DONE && s.lives == 2, "done with 2 lives kept");
	ok(duskcourt_state_valid(&s, reason, sizeof reason), "valid (%s)", reason);
}

/* Finds a pair on the board in play that the naive model says is no take
 * although both squares hold idols (and the target is no protected K). */
static bool
unreachable_pair(const struct duskcourt_state *s, int *from, int *to)
{
	int f, t, n = s->size * s->size;

	for (f = 0; f < n; f++)
		for (t = 0; t < n; t++)
			if (f != t && naive_idol(s->board[f]) && naive_idol(s->board[t])
			    && s->board[t] != DUSKCOURT_K
			    && !naive_reaches(s->board, s->size, f / s->size, f % s->size,
				t / s->size, t % s->size)) {
				*from = f;
				*to = t;
				return true;
			}
	return false;
}

static void
refusals(void)
{
	struct duskcourt_state s;
	char want[80];
	int f = 0, t = 0, k, n, i;
	bool found;

	duskcourt_init(&s, 7, &sv, NULL, 0);
	n = s.size * s.size;
	for (i = 0; i < n && s.board[i] != DUSKCOURT_EMPTY; i++)
		;
	snprintf(want, sizeof want, "square %d is empty", i);
	for (f = 0; f < n && !naive_idol(s.board[f]); f++)
		;
	refused(&s, act(DUSKCOURT_ACT_CAPTURE, i, f), want, "a capture from an empty square");
	refused(&s, act(DUSKCOURT_ACT_CAPTURE, f, i), "is empty: every move must take an idol",
	    "a capture onto an empty square");
	refused(&s, act(DUSKCOURT_ACT_CAPTURE, f, f), "cannot take itself", "an idol taking itself");
	refused(&s, act(DUSKCOURT_ACT_CAPTURE, -1, f), "from -1 is not a square index",
	    "from -1");
	refused(&s, act(DUSKCOURT_ACT_CAPTURE, f, 36), "to 36 is not a square index", "to 36");
	refused(&s, act(DUSKCOURT_ACT_CAPTURE, (int64_t)1 << 40, f), "not a square index",
	    "from 2^40");
	refused(&s, act(DUSKCOURT_ACT_CAPTURE, f, 20), "square 20 is off this 4x4 court",
	    "to 20 on a 4x4 court");
	refused(&s, act(DUSKCOURT_ACT_CAPTURE, 16, f), "square 16 is off this 4x4 court",
	    "from 16 on a 4x4 court");
	refused(&s, act(7, 0, 0), "unknown action type 7", "an unknown action type");
	refused(&s, act(-1, 0, 0), "unknown action type -1", "a negative action type");
	refused(&s, act(DUSKCOURT_ACT_NEXT, 0, 0), "next is only legal at a break", "next in play");

	found = unreachable_pair(&s, &f, &t);
	snprintf(want, sizeof want, "the %s on %d cannot reach %d", duskcourt_idol_name(s.board[f]),
	    f, t);
	if (ok(found, "an idol on this court that cannot reach another"))
		refused(&s, act(DUSKCOURT_ACT_CAPTURE, f, t), want, "a take out of reach");

	/* A blocked line: three idols in a row with a runner at one end. */
	{
		struct duskcourt_state c = s;

		naive_picture(c.board, 4, "...." "...." "...." "R.PN");
		refused(&c, act(DUSKCOURT_ACT_CAPTURE, 0, 3), "the idol on 2 blocks the line",
		    "a cobra past an idol");
	}

	/* Rung 9 has the jackal court; rung 10 has boulders. */
	ok(climb(&s, 8, false) && do_simple(&s, DUSKCOURT_ACT_NEXT), "climbed to rung 9");
	ok(s.king_survives && s.rung == 9, "rung 9: the jackal must stand last");
	for (k = 0; k < 36 && s.board[k] != DUSKCOURT_K; k++)
		;
	for (f = 0; f < 36; f++)
		if (f != k && duskcourt_can_take(s.board, s.size, false, f, k))
			break;
	if (f < 36) {
		snprintf(want, sizeof want, "the jackal on %d must stand last", k);
		refused(&s, act(DUSKCOURT_ACT_CAPTURE, f, k), want, "a capture onto the jackal");
	} else {
		/* Nothing reaches the K on the dealt court: put a cobra beside it. */
		struct duskcourt_state c = s;
		int beside = k % 6 > 0 ? k - 1 : k + 1;

		c.board[beside] = DUSKCOURT_R;
		snprintf(want, sizeof want, "the jackal on %d must stand last", k);
		refused(&c, act(DUSKCOURT_ACT_CAPTURE, beside, k), want, "a capture onto the jackal");
	}
	ok(clear_court(&s) && naive_idols(s.board, 6) == 1, "the court clears");
	for (i = 0; i < 36 && s.board[i] != DUSKCOURT_K; i++)
		;
	ok(i < 36 && i != k, "the one idol standing is the jackal, which made the last take");
	ok(do_simple(&s, DUSKCOURT_ACT_NEXT) && s.rung == 10, "on to rung 10");
	for (i = 0; i < 36 && s.board[i] != DUSKCOURT_BOULDER; i++)
		;
	for (f = 0; f < 36 && !naive_idol(s.board[f]); f++)
		;
	snprintf(want, sizeof want, "square %d holds a boulder, which never moves", i);
	refused(&s, act(DUSKCOURT_ACT_CAPTURE, i, f), want, "moving a boulder");
	snprintf(want, sizeof want, "square %d holds a boulder, which is never taken", i);
	refused(&s, act(DUSKCOURT_ACT_CAPTURE, f, i), want, "taking a boulder");
	/* Behind a boulder: a cobra with a boulder between it and an idol. */
	{
		struct duskcourt_state c = s;

		memset(c.board, 0, 36);
		c.board[0] = DUSKCOURT_R;
		c.board[1] = DUSKCOURT_BOULDER;
		c.board[2] = DUSKCOURT_P;
		c.board[7] = DUSKCOURT_BOULDER;
		c.board[8] = DUSKCOURT_BOULDER;
		c.board[13] = DUSKCOURT_N;
		refused(&c, act(DUSKCOURT_ACT_CAPTURE, 0, 2), "the boulder on 1 blocks the line",
		    "a cobra through a boulder");
		ok(duskcourt_capture(&c, 13, 2, reason, sizeof reason),
		    "while the camel on 13 jumps over the boulders on 7 and 8 onto 2");
	}
}

int
main(void)
{
	duskcourt_solver_init(&sv);
	first_court();
	reset_and_depth();
	streak_lives_and_done();
	end_run();
	refusals();
	return tap_done();
}
