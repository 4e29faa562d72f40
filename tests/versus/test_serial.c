/*
 * test_serial.c: versus_encode and versus_decode.
 *
 *   - the trailer is the CRC-32 of zlib and IEEE 802.3: an independent
 *     bitwise CRC written here from the polynomial, itself checked against
 *     the published check value of "123456789" (0xcbf43926);
 *   - every state of a few hundred matches played by bots (placements,
 *     holds, misses, resignations, garbage) encodes to the length the
 *     layout gives, decodes to the same state in every field that means
 *     something, and encodes again to the same bytes;
 *   - every single-bit flip, every truncation and a trailing byte are
 *     refused;
 *   - states the turns cannot reach, written with a correct CRC, are
 *     refused, each spoiling a reachable state in one place.
 *
 * Usage: test_vs_serial [MATCHES [SEED]].
 */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "versus.h"

/* ---- an independent CRC-32: one bit at a time ---- */

static uint32_t
crc_bitwise(const uint8_t *p, size_t n)
{
	uint32_t crc = 0xffffffffu;
	int b;

	while (n-- > 0) {
		crc ^= *p++;
		for (b = 0; b < 8; b++)
			crc = crc & 1u ? (crc >> 1) ^ 0xedb88320u : crc >> 1;
	}
	return ~crc;
}

/* ---- bots: a little taste, a little noise ---- */

static uint64_t rng_state = 88172645463325252u;

static uint64_t
rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static bool
pick(const struct tetromino_board *b, unsigned piece, unsigned noise, unsigned *rot,
    unsigned *col)
{
	struct tetromino_option o[TETROMINO_OPTIONS_MAX];
	size_t n = tetromino_options(b, piece, o, TETROMINO_OPTIONS_MAX), i, best = 0;
	long v, bestv = 0;

	if (n == 0)
		return false;
	for (i = 0; i < n; i++) {
		v = 6L * o[i].figures.holes + 2L * o[i].figures.max_height + o[i].figures.bumpiness -
		    (o[i].figures.lines >= 2 ? 30L * o[i].figures.lines : 0) +
		    (long)(rng() % (noise + 1));
		if (i == 0 || v < bestv) {
			bestv = v;
			best = i;
		}
	}
	*rot = o[best].rotation;
	*col = o[best].column;
	return true;
}

static struct versus_move
bot(const struct versus_player *p, unsigned noise)
{
	struct versus_move mv = { VERSUS_MOVE_PLACE, false, 0, 0, 0 };
	unsigned r = 0, c = 0;

	if (rng() % 100 < 4) {
		mv.kind = VERSUS_MOVE_MISSED;
		return mv;
	}
	if (rng() % 1000 < 3) {
		mv.kind = VERSUS_MOVE_RESIGN;
		return mv;
	}
	if (rng() % 100 < 15 && pick(&p->board, versus_hold_piece(p), noise, &r, &c))
		mv.hold = true;
	else if (!pick(&p->board, p->current, noise, &r, &c)) {
		mv.hold = true;
		pick(&p->board, versus_hold_piece(p), noise, &r, &c);
	}
	mv.rotation = r;
	mv.column = c;
	return mv;
}

/* ---- comparing states ---- */

static bool
same_player(const struct versus_player *a, const struct versus_player *b)
{
	return memcmp(&a->board, &b->board, sizeof a->board) == 0 && a->score == b->score &&
	    a->lines == b->lines && a->level == b->level && a->placed == b->placed &&
	    a->drawn == b->drawn && a->combo == b->combo && a->out_turn == b->out_turn &&
	    a->bag_number == b->bag_number && memcmp(a->bag, b->bag, sizeof a->bag) == 0 &&
	    a->current == b->current && a->hold == b->hold &&
	    memcmp(a->next, b->next, sizeof a->next) == 0 && a->back_to_back == b->back_to_back &&
	    a->alive == b->alive && a->missed == b->missed && a->place == b->place &&
	    a->end_reason == b->end_reason && a->cursor == b->cursor && a->nqueue == b->nqueue &&
	    a->pending == b->pending &&
	    memcmp(a->queue, b->queue, a->nqueue * sizeof a->queue[0]) == 0;
}

static bool
same_match(const struct versus_match *a, const struct versus_match *b)
{
	unsigned i;

	if (a->seed != b->seed || a->turn != b->turn || a->nblocks != b->nblocks ||
	    a->nplayers != b->nplayers || a->nalive != b->nalive || a->over != b->over)
		return false;
	for (i = 0; i < VERSUS_PLAYERS_MAX; i++)
		if (!same_player(&a->players[i], &b->players[i]))
			return false;
	return true;
}

static size_t
layout_length(const struct versus_match *m)
{
	size_t n = 17 + 4;
	unsigned i, r;

	for (i = 0; i < m->nplayers; i++) {
		for (r = TETROMINO_ROWS; r > 0 && m->players[i].board.rows[r - 1] == 0; r--)
			;
		n += 33 + 2 * (size_t)m->players[i].nqueue + 5 * (size_t)r;
	}
	return n;
}

/* ---- the round trips ---- */

struct tally {
	long states, bad_roundtrip, bad_length, bad_crc, bad_reencode, garbage_states,
	    out_states, grey_states, hold_states;
};

static void
check_state(const struct versus_match *m, struct tally *t)
{
	uint8_t buf[VERSUS_SERIAL_MAX], again[VERSUS_SERIAL_MAX];
	struct versus_match back;
	size_t n, n2;
	unsigned i, r, c;

	t->states++;
	n = versus_encode(m, buf, sizeof buf);
	if (n != layout_length(m) || n > VERSUS_SERIAL_MAX)
		t->bad_length++;
	if (crc_bitwise(buf, n - 4) != (uint32_t)engine_get_le(buf + n - 4, 4))
		t->bad_crc++;
	memset(&back, 0xa5, sizeof back);
	if (!versus_decode(&back, buf, n) || !same_match(m, &back)) {
		if (t->bad_roundtrip++ == 0)
			diag("first state that does not come back: turn %u", m->turn);
		return;
	}
	n2 = versus_encode(&back, again, sizeof again);
	if (n2 != n || memcmp(buf, again, n) != 0)
		t->bad_reencode++;
	for (i = 0; i < m->nplayers; i++) {
		const struct versus_player *p = &m->players[i];

		t->garbage_states += p->nqueue > 0;
		t->out_states += !p->alive;
		t->hold_states += p->hold != VERSUS_NO_PIECE;
		for (r = 0; r < TETROMINO_ROWS; r++)
			for (c = 0; c < TETROMINO_COLS; c++)
				if ((p->board.rows[r] >> c & 1u) && tetromino_board_get(&p->board, r, c) == 0) {
					t->grey_states++;
					r = TETROMINO_ROWS;
					break;
				}
	}
}

static void
play_matches(int nmatches, struct tally *t)
{
	struct versus_match m;
	struct versus_move mv[VERSUS_PLAYERS_MAX];
	unsigned noise[VERSUS_PLAYERS_MAX];
	int k, i, turn;

	for (k = 0; k < nmatches; k++) {
		unsigned n = 2 + (unsigned)(rng() % 7);

		versus_init(&m, rng() & VERSUS_SEED_MAX, n);
		for (i = 0; i < (int)n; i++)
			noise[i] = rng() % 4 == 0 ? 200 : 1 + (unsigned)(rng() % 12);
		check_state(&m, t);
		for (turn = 0; !m.over && turn < 600; turn++) {
			for (i = 0; i < (int)n; i++)
				mv[i] = m.players[i].alive ? bot(&m.players[i], noise[i]) :
				    (struct versus_move){ VERSUS_MOVE_MISSED, false, 0, 0, 0 };
			if (versus_resolve(&m, mv, NULL, NULL, NULL, 0) != VERSUS_OK) {
				ok(0, "match %d turn %d: the bots' moves are refused", k, turn);
				return;
			}
			check_state(&m, t);
		}
	}
}

/* ---- corruption ---- */

static bool
decodes(const uint8_t *buf, size_t n)
{
	struct versus_match m;

	return versus_decode(&m, buf, n);
}

static void
flips_and_cuts(const struct versus_match *m, const char *what)
{
	uint8_t buf[VERSUS_SERIAL_MAX + 1];
	size_t n = versus_encode(m, buf, sizeof buf), i;
	long accepted = 0, cuts = 0;
	int bit;

	ok(decodes(buf, n), "%s: the encoding decodes", what);
	for (i = 0; i < n; i++)
		for (bit = 0; bit < 8; bit++) {
			buf[i] ^= (uint8_t)(1u << bit);
			accepted += decodes(buf, n);
			buf[i] ^= (uint8_t)(1u << bit);
		}
	is_int(accepted, 0, "%s: all %zu single-bit flips are refused", what, n * 8);
	for (i = 0; i < n; i++)
		cuts += decodes(buf, i);
	is_int(cuts, 0, "%s: every truncation is refused", what);
	buf[n] = 0;
	ok(!decodes(buf, n + 1), "%s: a trailing byte is refused", what);
	ok(!decodes(NULL, n), "%s: no buffer is refused", what);
}

/* Encodes a state the engine cannot reach (the encoder writes what it is
 * given, CRC included) and expects the decoder to refuse it. */
static void
refused(const struct versus_match *m, const char *what)
{
	uint8_t buf[VERSUS_SERIAL_MAX + 64];
	size_t n = versus_encode(m, buf, sizeof buf);

	ok(n <= sizeof buf && !decodes(buf, n), "refused: %s", what);
}

/* A reachable state to spoil: seed 7, three players, after some turns of
 * the bots without holds, so that the current piece is the stream's. */
static void
base_state(struct versus_match *m)
{
	struct versus_move mv[3];
	unsigned i, turns;

	for (;;) {
		versus_init(m, 7, 3);
		for (turns = 0; turns < 40 && !m->over; turns++) {
			for (i = 0; i < 3; i++) {
				unsigned r = 0, c = 0;

				mv[i] = (struct versus_move){ VERSUS_MOVE_PLACE, false, 0, 0, 0 };
				if (pick(&m->players[i].board, m->players[i].current, 3, &r, &c)) {
					mv[i].rotation = r;
					mv[i].column = c;
				} else
					mv[i].kind = VERSUS_MOVE_RESIGN;
			}
			versus_resolve(m, mv, NULL, NULL, NULL, 0);
		}
		if (!m->over && m->nalive == 3 && m->players[0].placed > 5)
			return;
	}
}

/* One more turn of base: everyone places as the bot likes, except player
 * `who`, whose move is mv. */
static void
next_turn(struct versus_match *m, unsigned who, struct versus_move mv)
{
	struct versus_move mvs[VERSUS_PLAYERS_MAX];
	unsigned i, r = 0, c = 0;

	for (i = 0; i < m->nplayers; i++) {
		mvs[i] = (struct versus_move){ VERSUS_MOVE_PLACE, false, 0, 0, 0 };
		if (m->players[i].alive && pick(&m->players[i].board, m->players[i].current, 0, &r, &c)) {
			mvs[i].rotation = r;
			mvs[i].column = c;
		}
	}
	mvs[who] = mv;
	ok(versus_resolve(m, mvs, NULL, NULL, NULL, 0) == VERSUS_OK, "a turn for the spoils resolves");
}

/* A row of player p inside its block with at least two empty cells, and
 * its first empty column; false when there is none. */
static bool
roomy_cell(const struct versus_player *p, unsigned *row, unsigned *col)
{
	unsigned r, c, empty;

	for (r = 0; r < TETROMINO_ROWS && p->board.rows[r] != 0; r++) {
		for (c = 0, empty = 0; c < TETROMINO_COLS; c++)
			empty += !(p->board.rows[r] >> c & 1u);
		if (empty < 2)
			continue;
		for (c = 0; p->board.rows[r] >> c & 1u; c++)
			;
		*row = r;
		*col = c;
		return true;
	}
	return false;
}

static void
strictness(void)
{
	static const struct versus_move resign = { VERSUS_MOVE_RESIGN, false, 0, 0, 0 };
	struct versus_match base, fresh, two, m;
	uint8_t buf[VERSUS_SERIAL_MAX];
	unsigned row = 0, col = 0;
	size_t n;

	base_state(&base);
	n = versus_encode(&base, buf, sizeof buf);
	ok(decodes(buf, n), "the state to spoil decodes (turn %u)", base.turn);
	buf[0] = 2;
	engine_put_le(buf + n - 4, crc_bitwise(buf, n - 4), 4);
	ok(!decodes(buf, n), "refused: version 2, CRC right");
	versus_init(&fresh, 7, 2);

#define SPOIL(from, what, stmt) do { m = (from); stmt; refused(&m, what); } while (0)
	SPOIL(base, "a seed above 2^53 - 1", m.seed = VERSUS_SEED_MAX + 1);
	SPOIL(base, "one player", m.nplayers = 1);
	SPOIL(base, "nine players", m.nplayers = 9);
	SPOIL(base, "a turn the living have not placed in", m.turn++);
	SPOIL(fresh, "turn 0 with a block sent", m.nblocks = 1);
	SPOIL(base, "a full row", m.players[0].board.rows[0] = TETROMINO_FULL_ROW);
	SPOIL(base, "an empty row under a filled one", (m.players[1].board.rows[0] = 0,
	    m.players[1].board.cells[0] = 0));
	SPOIL(base, "a grey row of eight grey cells", (m.players[0].board.rows[0] = 0xff,
	    m.players[0].board.cells[0] = 0));
	SPOIL(base, "a grey row with a letter in it", (m.players[0].board.rows[0] = 0x1ff,
	    m.players[0].board.cells[0] = 1u << 24));
	ok(roomy_cell(&base.players[0], &row, &col), "player 0 has a row with room");
	SPOIL(base, "a letter on an empty cell", m.players[0].board.cells[row] |= 3u << (3 * col));
	SPOIL(base, "a cell too many (4 a piece, 9 a grey row, -10 a line)",
	    tetromino_board_set(&m.players[0].board, row, col, 3));
	SPOIL(base, "a score that is not a multiple of 50", m.players[0].score += 10);
	SPOIL(fresh, "a score without lines", m.players[0].score = 100);
	SPOIL(fresh, "back-to-back without a Tetris", m.players[0].back_to_back = true);
	SPOIL(base, "more lines than 4 a piece", m.players[0].lines = 4 * m.players[0].placed + 9);
	SPOIL(base, "a combo as long as the pieces placed", m.players[0].combo = (int32_t)m.players[0].placed);
	SPOIL(base, "a combo below -1", m.players[0].combo = -2);
	SPOIL(base, "current piece 7", m.players[0].current = 7);
	SPOIL(base, "hold piece 8", m.players[0].hold = 8);
	SPOIL(base, "a current piece that is not the stream's", m.players[0].current =
	    (uint8_t)((m.players[0].current + 1) % 7));
	SPOIL(base, "a cursor past the players", m.players[0].cursor = 3);
	SPOIL(base, "a queued block of 0 lines", (m.players[0].nqueue = 1, m.players[0].queue[0] =
	    (struct versus_block){ 0, 3 }));
	SPOIL(base, "a queued block of 21 lines", (m.players[0].nqueue = 1, m.players[0].queue[0] =
	    (struct versus_block){ 21, 3 }));
	SPOIL(base, "a hole in column 10", (m.players[0].nqueue = 1, m.players[0].queue[0] =
	    (struct versus_block){ 2, 10 }));
	SPOIL(base, "33 queued blocks", m.players[0].nqueue = 33);
	SPOIL(base, "a living player with a place", m.players[2].place = 3);
	SPOIL(base, "a living player with an end", m.players[2].end_reason = VERSUS_END_TOP_OUT);
	SPOIL(base, "a living player with three misses", m.players[2].missed = 3);
	SPOIL(base, "an end reason past resigned", m.players[2].end_reason = 5);
	/* Twenty grey rows leave no room; lines chosen so that the cells still
	 * add up (180 + 10 lines - 4 placed, a multiple of 9). */
	SPOIL(base, "a living player with no room for either piece", {
		unsigned r;

		for (r = 0; r < TETROMINO_ROWS; r++) {
			m.players[1].board.rows[r] = (uint16_t)(TETROMINO_FULL_ROW & ~(1u << (4 + r % 2)));
			m.players[1].board.cells[r] = 0;
		}
		m.players[1].lines = (4 * m.players[1].placed) % 9;
		m.players[1].level = 1;
		m.players[1].score = 100 * (uint64_t)m.players[1].lines;
		m.players[1].combo = -1;
		m.players[1].back_to_back = false;
	});
	{
		/* The same board with room at the top is accepted, so the refusal
		 * above is the room's. */
		unsigned r;

		m = base;
		for (r = 0; r < TETROMINO_ROWS; r++) {
			m.players[1].board.rows[r] = (uint16_t)(TETROMINO_FULL_ROW & ~(1u << (4 + r % 2)));
			m.players[1].board.cells[r] = 0;
		}
		m.players[1].board.rows[19] = 0;
		m.players[1].lines = (4 * m.players[1].placed + 9 * 2) % 9; /* 171 = 19 rows */
		m.players[1].level = 1;
		m.players[1].score = 100 * (uint64_t)m.players[1].lines;
		m.players[1].combo = -1;
		m.players[1].back_to_back = false;
		n = versus_encode(&m, buf, sizeof buf);
		ok(decodes(buf, n), "nineteen grey rows and an empty top row decode");
	}

	/* Player 1 resigns: out with place 3 of 3. */
	m = base;
	next_turn(&m, 1, resign);
	n = versus_encode(&m, buf, sizeof buf);
	ok(decodes(buf, n) && m.players[1].place == 3, "player 1 resigned, place 3: decodes");
	base = m;
	SPOIL(base, "a resigned player with place 2", m.players[1].place = 2);
	SPOIL(base, "a player out with a queue", (m.players[1].nqueue = 1,
	    m.players[1].queue[0] = (struct versus_block){ 1, 0 }));
	SPOIL(base, "a player out in a turn still to come", m.players[1].out_turn = m.turn + 1);
	SPOIL(base, "a player out in turn 0", m.players[1].out_turn = 0);
	SPOIL(base, "out as missed with one miss", (m.players[1].end_reason = VERSUS_END_MISSED,
	    m.players[1].missed = 1));
	SPOIL(base, "out as resigned with three misses", m.players[1].missed = 3);

	/* Two players: both place in turn 1, player 1 resigns in turn 2. Moving
	 * its leaving to turn 1 leaves a match over with nobody out in its last
	 * turn (its place and pieces still fit turn 1). */
	two = fresh;
	next_turn(&two, 0, (struct versus_move){ VERSUS_MOVE_PLACE, false, 0, 0, 0 });
	next_turn(&two, 1, resign);
	n = versus_encode(&two, buf, sizeof buf);
	ok(two.over && decodes(buf, n), "a match of 2 over at turn 2 decodes");
	SPOIL(two, "a match over with nobody out in its last turn", m.players[1].out_turn = 1);
	SPOIL(two, "a winner without place 1", m.players[0].place = 0);
#undef SPOIL
}

int
main(int argc, char **argv)
{
	struct tally t;
	struct versus_match m;
	static const uint8_t check[] = "123456789";
	int nmatches = argc > 1 ? atoi(argv[1]) : 150;

	if (argc > 2)
		rng_state = strtoull(argv[2], NULL, 10) | 1;
	is_int(crc_bitwise(check, 9), 0xcbf43926u, "the bitwise CRC-32 gives the check value");

	memset(&t, 0, sizeof t);
	play_matches(nmatches, &t);
	diag("%ld states; player states: %ld with garbage queued, %ld with grey cells, "
	    "%ld with a piece held, %ld out", t.states, t.garbage_states, t.grey_states, t.hold_states,
	    t.out_states);
	ok(t.garbage_states > 0 && t.grey_states > 0 && t.hold_states > 0 && t.out_states > 0,
	    "the matches reach queues, grey rows, holds and players out");
	is_int(t.bad_length, 0, "every encoding has the length of the layout");
	is_int(t.bad_crc, 0, "every trailer is the CRC-32 of the bytes before it");
	is_int(t.bad_roundtrip, 0, "every state decodes to itself (%ld states)", t.states);
	is_int(t.bad_reencode, 0, "and encodes again to the same bytes");

	versus_init(&m, 0, 2);
	flips_and_cuts(&m, "a new match of 2");
	is_int(versus_encode(&m, NULL, 0), 17 + 2 * 33 + 4, "a new match of 2 takes 87 bytes");
	base_state(&m);
	flips_and_cuts(&m, "a match of 3 after some turns");
	{
		uint8_t small[8];

		ok(versus_encode(&m, small, sizeof small) > sizeof small,
		    "a buffer too small gets the length needed");
	}
	strictness();
	return tap_done();
}
