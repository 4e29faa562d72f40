/*
 * test_serial.c: the 77-byte serialised run state.
 *
 * States are collected from runs played by a seeded random policy (every
 * phase, results, resets, lost lives). Each must round-trip exactly. Every
 * truncation and extension is rejected; every single-bit flip is rejected
 * (the checksum); and every single-bit flip with the checksum recomputed (by
 * this file's own CRC-32) is accepted exactly when this file's own reading
 * of the format says the result is a valid state, so the structural checks
 * are pinned field by field. Random byte strings must not crash the decoder.
 */
#include <stdio.h>
#include <stdlib.h>

#include "duskcourt.h"
#include "naive.h"
#include "tap.h"

#define LEN DUSKCOURT_SERIAL_SIZE
#define MAX_STATES 600

static struct duskcourt_solver sv;
static struct duskcourt_state states[MAX_STATES];
static int nstates;
static uint64_t rng = 0x9E3779B97F4A7C15u;

static unsigned
roll(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)((rng >> 11) % n);
}

static uint32_t
crc(const uint8_t *p, size_t n)
{
	uint32_t c = 0xFFFFFFFFu;
	size_t i;
	int k;

	for (i = 0; i < n; i++) {
		c ^= p[i];
		for (k = 0; k < 8; k++)
			c = c & 1 ? (c >> 1) ^ 0xEDB88320u : c >> 1;
	}
	return c ^ 0xFFFFFFFFu;
}

static void
seal(uint8_t *b)
{
	uint32_t c = crc(b, LEN - 4);

	b[LEN - 4] = (uint8_t)c;
	b[LEN - 3] = (uint8_t)(c >> 8);
	b[LEN - 2] = (uint8_t)(c >> 16);
	b[LEN - 1] = (uint8_t)(c >> 24);
}

static uint64_t
le(const uint8_t *p, int n)
{
	uint64_t v = 0;

	while (n-- > 0)
		v = v << 8 | p[n];
	return v;
}

/* This file's reading of format version 1: is b a valid state? */
static bool
oracle(const uint8_t *b)
{
	int size = b[1], phase = b[2], result = b[3], flags = b[4], factor = b[5];
	int lives = b[6], captures = b[7], paid = b[8], i, n;
	uint64_t rung = le(b + 9, 4), dealt_count = le(b + 13, 4), streak = le(b + 17, 4);
	uint64_t seed = le(b + 21, 8), score = le(b + 29, 8), clears, pending, ar;
	uint8_t board[36], dealt[36];
	int kb[8] = { 0 }, kd[8] = { 0 }, left, dealt_idols, moves[36 * 8];
	bool award = flags & 4, jackal = flags & 1, reset = flags & 2, can_move;
	struct naive_row row;

	if (b[0] != 1 || le(b + 73, 4) != crc(b, 73))
		return false;
	if ((flags & 0xE0) || (!award && ((flags & 0x18) || factor)) || (award && (factor < 1 || factor > 5)))
		return false;
	if (rung == 0 || seed >= (UINT64_C(1) << 53) || phase > 2 || result > 2 || lives > 3)
		return false;
	row = naive_ladder((unsigned)rung);
	if (size != row.size || jackal != row.jackal)
		return false;
	n = size * size;
	for (i = 0; i < 36; i++) {
		board[i] = (uint8_t)(b[37 + i / 2] >> (i % 2 * 4) & 15);
		dealt[i] = (uint8_t)(b[55 + i / 2] >> (i % 2 * 4) & 15);
		if (board[i] > 7 || dealt[i] > 7)
			return false;
		if (i >= n && (board[i] || dealt[i]))
			return false;
		if ((board[i] == 1) != (dealt[i] == 1))
			return false;
		kb[board[i]]++;
		kd[dealt[i]]++;
	}
	left = naive_idols(board, size);
	dealt_idols = naive_idols(dealt, size);
	if (kd[1] != row.boulders || dealt_idols != row.idols)
		return false;
	for (i = 2; i < 8; i++)
		if (kb[i] > kd[i])
			return false;
	if (jackal && (kb[2] != 1 || kd[2] != 1))
		return false;
	if (captures != dealt_idols - left || (captures == 0 && memcmp(board, dealt, 36) != 0))
		return false;
	if (paid < captures || paid > dealt_idols - 1 || (!reset && paid != captures))
		return false;
	can_move = naive_moves(board, size, jackal, moves) > 0;
	if (phase == 0 && (left < 2 || !can_move || lives == 0))
		return false;
	if (phase != 0) {
		if (result == 0 || (result == 1 && left != 1) || (result == 2 && (left < 2 || can_move)))
			return false;
		if ((phase == 1 && lives == 0) || (lives == 0 && result != 2))
			return false;
	}
	clears = rung - 1 + (phase != 0 && result == 1);
	pending = phase != 0 && result == 2;
	if (dealt_count != rung + (uint64_t)(3 - lives) - pending)
		return false;
	if (result == 0 && (rung != 1 || lives != 3 || streak != 0 || score != 10 * (uint64_t)paid))
		return false;
	if ((result == 2 && streak != 0) || (result == 1 && streak == 0) || streak > clears)
		return false;
	if (award != (clears > 0))
		return false;
	if (award) {
		ar = result == 1 && phase != 0 ? rung : rung - 1;
		if ((uint64_t)factor > clears || (result == 1 && (uint64_t)factor != (streak < 5 ? streak : 5)))
			return false;
		if (score < ((flags & 8) ? 10 + 2 * (ar - 1) : 0) + 40 * ar + 10 * ar * (uint64_t)factor
			+ ((flags & 16) ? 20 * ar : 0))
			return false;
	}
	return true;
}

/* Keeps about one state in three, so that the sample spans many runs. */
static void
snap(const struct duskcourt_state *s)
{
	if (nstates < MAX_STATES && (s->phase != DUSKCOURT_PLAYING || roll(3) == 0))
		states[nstates++] = *s;
}

/* A run under a random policy: mostly the solver's way, sometimes a random
 * capture (which may lose the court), a reset, or endRun at a break. */
static void
play(uint64_t seed, int steps)
{
	struct duskcourt_state s;
	struct duskcourt_action legal[DUSKCOURT_LEGAL_MAX];
	struct duskcourt_capture path[DUSKCOURT_PATH_MAX];
	int i;

	duskcourt_init(&s, seed, &sv, NULL, 0);
	snap(&s);
	for (i = 0; i < steps && s.phase != DUSKCOURT_DONE; i++) {
		size_t n = duskcourt_legal(&s, legal, DUSKCOURT_LEGAL_MAX), np = 0;
		struct duskcourt_action a = legal[roll((unsigned)n)];

		if (s.phase == DUSKCOURT_PLAYING && roll(3) != 0) {
			struct duskcourt_court c;

			memset(&c, 0, sizeof c);
			c.size = s.size;
			c.king_survives = s.king_survives;
			memcpy(c.cells, s.board, 36);
			if (duskcourt_solve(&sv, &c, 0, path, &np) == DUSKCOURT_CLEARABLE && np > 0) {
				a.type = DUSKCOURT_ACT_CAPTURE;
				a.from = path[0].from;
				a.to = path[0].to;
			}
		}
		if (s.phase == DUSKCOURT_BREAK)
			a.type = roll(8) == 0 ? DUSKCOURT_ACT_END_RUN : DUSKCOURT_ACT_NEXT;
		duskcourt_apply(&s, &a, &sv, NULL, 0);
		snap(&s);
	}
}

int
main(void)
{
	uint8_t b[LEN + 1], f[LEN + 1];
	struct duskcourt_state t, junk;
	int i, bit, len, round_bad = 0, trunc_bad = 0, raw_bad = 0, resealed_bad = 0, valid_bad = 0;
	int resealed_valid = 0, resealed_invalid = 0, garbage_accepted = 0;
	char why[ENGINE_REASON_MAX];

	duskcourt_solver_init(&sv);
	for (i = 0; nstates < MAX_STATES - 60 && i < 200; i++)
		play((uint64_t)i * 7919, 40 + (int)roll(80));
	ok(nstates > 300, "%d states collected from random runs", nstates);
	{
		int phases[3] = { 0 }, stuck = 0, resets = 0;

		for (i = 0; i < nstates; i++) {
			phases[states[i].phase]++;
			stuck += states[i].last_result == DUSKCOURT_RESULT_STUCK;
			resets += states[i].reset_used;
		}
		ok(phases[0] && phases[1] && phases[2] && stuck && resets,
		    "they cover playing %d, break %d, done %d, stuck %d, reset %d", phases[0], phases[1],
		    phases[2], stuck, resets);
	}
	memset(&junk, 0x77, sizeof junk);
	for (i = 0; i < nstates; i++) {
		const struct duskcourt_state *s = &states[i];

		if (!duskcourt_state_valid(s, why, sizeof why)) {
			if (valid_bad++ == 0)
				diag("state %d is not valid: %s", i, why);
		}
		duskcourt_serialise(s, b);
		t = junk;
		if (!oracle(b) || !duskcourt_deserialise(&t, b, LEN, why, sizeof why)
		    || memcmp(&t, s, sizeof t) != 0) {
			if (round_bad++ == 0)
				diag("state %d does not round-trip: %s", i, why);
		}
		for (len = 0; len <= LEN + 1; len++) {
			memcpy(f, b, LEN);
			f[LEN] = 0;
			t = junk;
			if (len != LEN && (duskcourt_deserialise(&t, f, (size_t)len, NULL, 0)
				|| memcmp(&t, &junk, sizeof t) != 0))
				trunc_bad++;
		}
		for (bit = 0; bit < LEN * 8; bit++) {
			bool got;

			memcpy(f, b, LEN);
			f[bit / 8] ^= (uint8_t)(1u << (bit % 8));
			t = junk;
			if (duskcourt_deserialise(&t, f, LEN, NULL, 0) || memcmp(&t, &junk, sizeof t) != 0)
				raw_bad++;
			if (bit >= (LEN - 4) * 8)
				continue;
			seal(f);
			got = duskcourt_deserialise(&t, f, LEN, why, sizeof why);
			if (got != oracle(f)) {
				if (resealed_bad++ < 3)
					diag("state %d, bit %d (byte %d): decoder says %s, format says %s%s%s", i,
					    bit, bit / 8, got ? "valid" : "invalid", got ? "invalid" : "valid",
					    got ? "" : ": ", got ? "" : why);
			}
			if (got) {
				uint8_t again[LEN];

				resealed_valid++;
				duskcourt_serialise(&t, again);
				if (memcmp(again, f, LEN) != 0 && resealed_bad++ < 3)
					diag("state %d, bit %d: accepted but not canonical", i, bit);
			} else {
				resealed_invalid++;
			}
		}
	}
	is_int(valid_bad, 0, "every state the engine produced passes duskcourt_state_valid");
	is_int(round_bad, 0, "every state round-trips byte for byte (and the format reading agrees)");
	is_int(trunc_bad, 0, "every shorter or longer input is rejected and writes nothing");
	is_int(raw_bad, 0, "every single-bit flip is rejected (%d flips)", nstates * LEN * 8);
	is_int(resealed_bad, 0, "with the checksum recomputed, each flip is accepted exactly when "
	    "the format says the state is valid");
	ok(resealed_valid > 0 && resealed_invalid > resealed_valid,
	    "both outcomes occur (%d valid, %d invalid)", resealed_valid, resealed_invalid);

	/* Garbage: random bytes with a right version and checksum. */
	for (i = 0; i < 200000; i++) {
		int j;

		for (j = 0; j < LEN; j++)
			f[j] = (uint8_t)roll(256);
		f[0] = 1;
		if (i % 2)
			memcpy(f + 37, b + 37, 36); /* plausible boards, random counters */
		seal(f);
		if (duskcourt_deserialise(&t, f, LEN, NULL, 0) != oracle(f))
			garbage_accepted++;
	}
	is_int(garbage_accepted, 0, "200000 random inputs: the decoder agrees with the format reading");
	ok(!duskcourt_deserialise(&t, NULL, 0, why, sizeof why), "an empty input is rejected (%s)", why);

	/* Fields the serialised form derives: the struct check sees them. */
	t = states[nstates - 1];
	for (i = nstates - 1; i >= 0 && !states[i].has_award; i--)
		;
	if (ok(i >= 0, "a state with an award")) {
		t = states[i];
		t.last_award.total++;
		ok(!duskcourt_state_valid(&t, why, sizeof why), "a wrong award total is invalid (%s)", why);
		t = states[i];
		t.last_award.clear += 40;
		ok(!duskcourt_state_valid(&t, why, sizeof why), "a wrong clear award is invalid (%s)", why);
		t = states[i];
		t.zero[1] = 1;
		ok(!duskcourt_state_valid(&t, why, sizeof why), "a set padding byte is invalid (%s)", why);
	}
	return tap_done();
}
