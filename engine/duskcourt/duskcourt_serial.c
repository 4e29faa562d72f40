/*
 * duskcourt_serial.c: the run state as 77 bytes, and back.
 *
 * Format version 1, all integers little-endian:
 *   0      version (1)
 *   1      size (4..6)
 *   2      phase (0 playing, 1 break, 2 done)
 *   3      lastResult (0 none, 1 clear, 2 stuck)
 *   4      flags: bit 0 kingSurvives, 1 resetUsed, 2 lastAward present,
 *          3 its capture was paid, 4 its clean award was paid; 5..7 zero
 *   5      lastAward's streak factor min(streak, 5) (1..5; 0 without award)
 *   6      lives, 7 captures, 8 paidDepth
 *   9..12  rung, 13..16 courtsDealt, 17..20 streak (u32)
 *   21..28 seed, 29..36 score (u64)
 *   37..54 board, 55..72 dealt: 36 cells of 4 bits, even squares in the low
 *          nibble; squares past size*size hold 0
 *   73..76 CRC-32 (IEEE) of bytes 0..72
 * lastAward is stored as what it was made of (paid or not, the factor, clean
 * or not): its rung follows from the state, since the rung only climbs by a
 * next after a clear, so the amounts are recomputed exactly.
 *
 * The checksum catches accidental damage (every single-bit error, every
 * burst up to 32 bits); the structural checks of duskcourt_state_valid
 * reject anything the engine could never have produced that is cheap to
 * see: fields out of range, boards that disagree with each other or with the
 * ladder, counters that disagree with each other. They do not re-deal the
 * court (tens of milliseconds); a sealed token vouches for that.
 */
#include "duskcourt.h"

#include <string.h>

enum {
	OFF_VERSION = 0, OFF_SIZE = 1, OFF_PHASE = 2, OFF_RESULT = 3, OFF_FLAGS = 4,
	OFF_FACTOR = 5, OFF_LIVES = 6, OFF_CAPTURES = 7, OFF_PAID = 8, OFF_RUNG = 9,
	OFF_DEALT_COUNT = 13, OFF_STREAK = 17, OFF_SEED = 21, OFF_SCORE = 29,
	OFF_BOARD = 37, OFF_DEALT = 55, OFF_CRC = 73
};

#define FLAG_KING 0x01
#define FLAG_RESET 0x02
#define FLAG_AWARD 0x04
#define FLAG_PAID 0x08
#define FLAG_CLEAN 0x10

/* The rung of the court that paid lastAward. */
static uint64_t
award_rung(const struct duskcourt_state *s)
{
	if (s->last_result == DUSKCOURT_RESULT_CLEAR && s->phase != DUSKCOURT_PLAYING)
		return s->rung;
	return (uint64_t)s->rung - 1;
}

static struct duskcourt_award
make_award(uint64_t r, bool paid, int factor, bool clean)
{
	struct duskcourt_award a;

	a.capture = paid ? 10 + 2 * (r - 1) : 0;
	a.clear = 40 * r;
	a.streak = 10 * r * (uint64_t)factor;
	a.clean = clean ? 20 * r : 0;
	a.total = a.capture + a.clear + a.streak + a.clean;
	return a;
}

void
duskcourt_serialise(const struct duskcourt_state *s, uint8_t out[DUSKCOURT_SERIAL_SIZE])
{
	int i, flags = 0, factor = 0;

	memset(out, 0, DUSKCOURT_SERIAL_SIZE);
	if (s->king_survives)
		flags |= FLAG_KING;
	if (s->reset_used)
		flags |= FLAG_RESET;
	if (s->has_award) {
		uint64_t r = award_rung(s);

		flags |= FLAG_AWARD;
		if (s->last_award.capture != 0)
			flags |= FLAG_PAID;
		if (s->last_award.clean != 0)
			flags |= FLAG_CLEAN;
		factor = r != 0 ? (int)(s->last_award.streak / (10 * r)) : 0;
	}
	out[OFF_VERSION] = DUSKCOURT_SERIAL_VERSION;
	out[OFF_SIZE] = s->size;
	out[OFF_PHASE] = s->phase;
	out[OFF_RESULT] = s->last_result;
	out[OFF_FLAGS] = (uint8_t)flags;
	out[OFF_FACTOR] = (uint8_t)factor;
	out[OFF_LIVES] = s->lives;
	out[OFF_CAPTURES] = s->captures;
	out[OFF_PAID] = s->paid_depth;
	engine_put_le(out + OFF_RUNG, s->rung, 4);
	engine_put_le(out + OFF_DEALT_COUNT, s->courts_dealt, 4);
	engine_put_le(out + OFF_STREAK, s->streak, 4);
	engine_put_le(out + OFF_SEED, s->seed, 8);
	engine_put_le(out + OFF_SCORE, s->score, 8);
	for (i = 0; i < DUSKCOURT_CELLS; i++) {
		int shift = (i & 1) * 4;

		out[OFF_BOARD + i / 2] |= (uint8_t)((s->board[i] & 15) << shift);
		out[OFF_DEALT + i / 2] |= (uint8_t)((s->dealt[i] & 15) << shift);
	}
	engine_put_le(out + OFF_CRC, engine_crc32(out, OFF_CRC), 4);
}

bool
duskcourt_deserialise(struct duskcourt_state *s, const uint8_t *in, size_t n,
    char *reason, size_t cap)
{
	struct duskcourt_state t;
	int i, flags;

	if (n != DUSKCOURT_SERIAL_SIZE)
		return engine_refuse(reason, cap, "a serialised state is %d bytes, not %zu",
		    DUSKCOURT_SERIAL_SIZE, n);
	if (in[OFF_VERSION] != DUSKCOURT_SERIAL_VERSION)
		return engine_refuse(reason, cap, "unknown serialisation version %d", in[OFF_VERSION]);
	if (engine_get_le(in + OFF_CRC, 4) != engine_crc32(in, OFF_CRC))
		return engine_refuse(reason, cap, "checksum mismatch: the state is damaged");
	flags = in[OFF_FLAGS];
	if (flags & ~(FLAG_KING | FLAG_RESET | FLAG_AWARD | FLAG_PAID | FLAG_CLEAN))
		return engine_refuse(reason, cap, "unknown flag bits 0x%02x", flags);
	if (!(flags & FLAG_AWARD) && ((flags & (FLAG_PAID | FLAG_CLEAN)) || in[OFF_FACTOR] != 0))
		return engine_refuse(reason, cap, "award details without an award");
	memset(&t, 0, sizeof t);
	t.size = in[OFF_SIZE];
	t.phase = in[OFF_PHASE];
	t.last_result = in[OFF_RESULT];
	t.king_survives = (flags & FLAG_KING) != 0;
	t.reset_used = (flags & FLAG_RESET) != 0;
	t.has_award = (flags & FLAG_AWARD) != 0;
	t.lives = in[OFF_LIVES];
	t.captures = in[OFF_CAPTURES];
	t.paid_depth = in[OFF_PAID];
	t.rung = (uint32_t)engine_get_le(in + OFF_RUNG, 4);
	t.courts_dealt = (uint32_t)engine_get_le(in + OFF_DEALT_COUNT, 4);
	t.streak = (uint32_t)engine_get_le(in + OFF_STREAK, 4);
	t.seed = engine_get_le(in + OFF_SEED, 8);
	t.score = engine_get_le(in + OFF_SCORE, 8);
	for (i = 0; i < DUSKCOURT_CELLS; i++) {
		int shift = (i & 1) * 4;

		t.board[i] = (uint8_t)((in[OFF_BOARD + i / 2] >> shift) & 15);
		t.dealt[i] = (uint8_t)((in[OFF_DEALT + i / 2] >> shift) & 15);
	}
	if (t.has_award) {
		int factor = in[OFF_FACTOR];

		if (factor < 1 || factor > 5)
			return engine_refuse(reason, cap, "award streak factor %d is out of 1..5", factor);
		if (t.rung == 0 || t.phase > DUSKCOURT_DONE || t.last_result > DUSKCOURT_RESULT_STUCK)
			return engine_refuse(reason, cap, "rung, phase or lastResult out of range");
		if (award_rung(&t) == 0)
			return engine_refuse(reason, cap, "an award before any court could be cleared");
		t.last_award = make_award(award_rung(&t), (flags & FLAG_PAID) != 0, factor,
		    (flags & FLAG_CLEAN) != 0);
	}
	if (!duskcourt_state_valid(&t, reason, cap))
		return false;
	*s = t;
	return true;
}

bool
duskcourt_state_valid(const struct duskcourt_state *s, char *reason, size_t cap)
{
	struct duskcourt_rung row;
	int counts_board[DUSKCOURT_CELL_KINDS] = { 0 }, counts_dealt[DUSKCOURT_CELL_KINDS] = { 0 };
	int i, n, left, dealt_idols;
	uint64_t clears, pending;
	bool resolved_here, moves;

	if (s->seed > DUSKCOURT_SEED_MAX)
		return engine_refuse(reason, cap, "seed out of range");
	if (!duskcourt_ladder(s->rung, &row))
		return engine_refuse(reason, cap, "rung 0");
	if (s->size != row.size)
		return engine_refuse(reason, cap, "size %d is not rung %u's %d", s->size,
		    (unsigned)s->rung, row.size);
	if (s->king_survives != row.king_survives)
		return engine_refuse(reason, cap, "kingSurvives disagrees with the ladder");
	if (s->phase > DUSKCOURT_DONE || s->last_result > DUSKCOURT_RESULT_STUCK
	    || s->lives > DUSKCOURT_LIVES)
		return engine_refuse(reason, cap, "phase, lastResult or lives out of range");
	if (s->zero[0] != 0 || s->zero[1] != 0 || s->zero[2] != 0)
		return engine_refuse(reason, cap, "reserved bytes are not zero");
	n = s->size * s->size;
	for (i = 0; i < DUSKCOURT_CELLS; i++) {
		if (s->board[i] >= DUSKCOURT_CELL_KINDS || s->dealt[i] >= DUSKCOURT_CELL_KINDS)
			return engine_refuse(reason, cap, "square %d holds no known cell", i);
		if (i >= n && (s->board[i] != DUSKCOURT_EMPTY || s->dealt[i] != DUSKCOURT_EMPTY))
			return engine_refuse(reason, cap, "square %d is off the court but not empty", i);
		if ((s->board[i] == DUSKCOURT_BOULDER) != (s->dealt[i] == DUSKCOURT_BOULDER))
			return engine_refuse(reason, cap, "the boulders of board and dealt differ at %d", i);
		counts_board[s->board[i]]++;
		counts_dealt[s->dealt[i]]++;
	}
	if (counts_dealt[DUSKCOURT_BOULDER] != row.boulders)
		return engine_refuse(reason, cap, "%d boulders where the ladder deals %d",
		    counts_dealt[DUSKCOURT_BOULDER], row.boulders);
	dealt_idols = duskcourt_count_idols(s->dealt, s->size);
	left = duskcourt_count_idols(s->board, s->size);
	if (dealt_idols != row.idols)
		return engine_refuse(reason, cap, "%d idols dealt where the ladder deals %d",
		    dealt_idols, row.idols);
	for (i = DUSKCOURT_K; i <= DUSKCOURT_P; i++)
		if (counts_board[i] > counts_dealt[i])
			return engine_refuse(reason, cap, "more %c on the board than were dealt",
			    duskcourt_cell_char(i));
	if (s->king_survives && (counts_dealt[DUSKCOURT_K] != 1 || counts_board[DUSKCOURT_K] != 1))
		return engine_refuse(reason, cap, "a court where the jackal stands last needs exactly one K");
	if (s->captures != dealt_idols - left)
		return engine_refuse(reason, cap, "captures %d but %d idols are gone", s->captures,
		    dealt_idols - left);
	if (s->captures == 0 && memcmp(s->board, s->dealt, sizeof s->board) != 0)
		return engine_refuse(reason, cap, "no captures, yet the board is not as dealt");
	if (s->paid_depth < s->captures || s->paid_depth > dealt_idols - 1
	    || (!s->reset_used && s->paid_depth != s->captures))
		return engine_refuse(reason, cap, "paidDepth %d disagrees with the captures",
		    s->paid_depth);

	/* The phase must match what the board shows. */
	moves = duskcourt_captures(s->board, s->size, s->king_survives, NULL, 0) > 0;
	if (s->phase == DUSKCOURT_PLAYING) {
		if (left < 2 || !moves || s->lives == 0)
			return engine_refuse(reason, cap, "a court in play must hold a capture");
	} else {
		if (s->last_result == DUSKCOURT_RESULT_NONE)
			return engine_refuse(reason, cap, "a break or done without a result");
		if (s->last_result == DUSKCOURT_RESULT_CLEAR && left != 1)
			return engine_refuse(reason, cap, "cleared, yet %d idols stand", left);
		if (s->last_result == DUSKCOURT_RESULT_STUCK && (left < 2 || moves))
			return engine_refuse(reason, cap, "stuck, yet the court is not stuck");
		if ((s->phase == DUSKCOURT_BREAK && s->lives == 0)
		    || (s->lives == 0 && s->last_result != DUSKCOURT_RESULT_STUCK))
			return engine_refuse(reason, cap, "lives disagree with the phase");
	}

	/* Counters: the rung climbs once per clear, a court is dealt per next. */
	resolved_here = s->phase != DUSKCOURT_PLAYING;
	clears = (uint64_t)s->rung - 1 + (resolved_here && s->last_result == DUSKCOURT_RESULT_CLEAR);
	pending = resolved_here && s->last_result == DUSKCOURT_RESULT_STUCK;
	if ((uint64_t)s->courts_dealt != (uint64_t)s->rung + (DUSKCOURT_LIVES - s->lives) - pending)
		return engine_refuse(reason, cap, "courtsDealt %u disagrees with rung and lives",
		    (unsigned)s->courts_dealt);
	if (s->last_result == DUSKCOURT_RESULT_NONE
	    && (s->rung != 1 || s->lives != DUSKCOURT_LIVES || s->streak != 0
		|| s->score != 10 * (uint64_t)s->paid_depth))
		return engine_refuse(reason, cap, "a run that never resolved a court is inconsistent");
	if ((s->last_result == DUSKCOURT_RESULT_STUCK && s->streak != 0)
	    || (s->last_result == DUSKCOURT_RESULT_CLEAR && s->streak == 0) || s->streak > clears)
		return engine_refuse(reason, cap, "streak %u disagrees with the results",
		    (unsigned)s->streak);
	if (s->has_award != (clears > 0))
		return engine_refuse(reason, cap, "lastAward disagrees with the clears");
	if (s->has_award) {
		uint64_t r = award_rung(s), factor = s->last_award.streak / (10 * r);
		struct duskcourt_award want;

		if (factor < 1 || factor > 5 || factor > clears
		    || (s->last_result == DUSKCOURT_RESULT_CLEAR
			&& factor != (s->streak < 5 ? s->streak : 5)))
			return engine_refuse(reason, cap, "lastAward's streak award is inconsistent");
		want = make_award(r, s->last_award.capture != 0, (int)factor, s->last_award.clean != 0);
		if (memcmp(&want, &s->last_award, sizeof want) != 0)
			return engine_refuse(reason, cap, "lastAward's amounts are inconsistent");
		if (s->score < want.total)
			return engine_refuse(reason, cap, "score is below the last award");
	} else {
		static const struct duskcourt_award none;

		if (memcmp(&none, &s->last_award, sizeof none) != 0)
			return engine_refuse(reason, cap, "lastAward amounts without an award");
	}
	return true;
}
