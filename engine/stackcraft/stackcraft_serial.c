/*
 * stackcraft_serial.c: a run's compact bytes (layout in stackcraft.h) and
 * the strict decoder that accepts exactly the states play can reach, as far
 * as the bytes can tell.
 *
 * What decode proves about a state: its board keeps the play invariants (no
 * full row, filled rows a contiguous block from the floor, 3-bit colours
 * 1..7), its cells add up (4 per piece placed, 10 per row cleared, and no
 * colour with more cells than the stream gave that piece), its score is a
 * sum of 100/300/500/800 awards for exactly its lines, and its end agrees
 * with the rules and the cap. The piece in hand and the preview are not
 * stored: they are the stream's pieces at `pieces` and `pieces + 1`.
 * Workload: once per request that opens a state token; a decode costs one
 * or two bag shuffles and one legal-placement check.
 */
#include <string.h>

#include "bag.h"
#include "stackcraft.h"
#include "tetromino_serial.h"

#define HEADER_SIZE 39
#define MAX53 UINT64_C(9007199254740991)

size_t
stackcraft_encode(const struct stackcraft *g, uint8_t *buf, size_t cap)
{
	size_t len = tetromino_state_size(&g->board, HEADER_SIZE);

	if (buf == NULL || cap < len)
		return len;
	buf[0] = STACKCRAFT_SERIAL_VERSION;
	engine_put_le(buf + 1, g->seed, 7);
	engine_put_le(buf + 8, g->cap, 7);
	engine_put_le(buf + 15, g->pieces, 7);
	engine_put_le(buf + 22, g->lines, 7);
	engine_put_le(buf + 29, g->score, 8);
	buf[37] = g->end_reason;
	tetromino_state_seal(&g->board, buf, HEADER_SIZE);
	return len;
}

/* Whether some sequence of clears of 1, 2, 3 and 4 rows (100, 300, 500 and
 * 800 points) makes exactly `lines` rows and `score` points. Beyond 100
 * points a row, a double adds 100 for 2 rows, a triple 200 for 3, a tetris
 * 400 for 4: the extra e = score / 100 - lines is reachable when the rows
 * it needs at least, tetrises first (the best extra per row), fit. */
static bool
score_possible(uint64_t score, uint64_t lines)
{
	static const uint64_t rest_rows[4] = { 0, 2, 3, 5 }; /* extra 0, 1, 2, 3 */
	uint64_t e;

	if (score % 100 != 0 || score / 100 < lines)
		return false;
	e = score / 100 - lines;
	return e / 4 * 4 + rest_rows[e % 4] <= lines;
}

bool
stackcraft_decode(struct stackcraft *out, const uint8_t *buf, size_t len)
{
	struct stackcraft g;
	unsigned nrows, r, c, v, colour_cells[TETROMINO_NPIECES + 1] = { 0 };
	uint64_t cells = 0, from_stream;
	uint8_t bag[BAG_SIZE];
	bool legal;

	/* The frame (version, length, CRC) and the board: n non-empty,
	 * non-full rows from the floor up. */
	memset(&g, 0, sizeof g);
	if (!tetromino_state_open(&g.board, buf, len, HEADER_SIZE, STACKCRAFT_SERIAL_VERSION))
		return false;
	nrows = buf[HEADER_SIZE - 1];

	g.seed = engine_get_le(buf + 1, 7);
	g.cap = engine_get_le(buf + 8, 7);
	g.pieces = engine_get_le(buf + 15, 7);
	g.lines = engine_get_le(buf + 22, 7);
	g.score = engine_get_le(buf + 29, 8);
	g.end_reason = buf[37];
	if (g.seed > STACKCRAFT_SEED_MAX || g.cap > STACKCRAFT_CAP_MAX || g.pieces > MAX53 ||
	    g.lines > MAX53 || g.end_reason > STACKCRAFT_END_CAPPED)
		return false;

	/* The cells of each colour. */
	for (r = 0; r < nrows; r++) {
		for (c = 0; c < STACKCRAFT_COLS; c++) {
			v = g.board.cells[r] >> (3 * c) & 7u;
			colour_cells[v]++;
			cells += v != 0;
		}
	}

	/* Counters: 4 cells a piece, 10 a row; a colour has at most 4 cells
	 * for each of its pieces in the stream so far; the score fits the
	 * lines. */
	if (g.pieces * 4 != cells + g.lines * 10)
		return false;
	bag_shuffle(g.seed, g.pieces / BAG_SIZE, bag);
	for (v = 0; v < TETROMINO_NPIECES; v++) {
		from_stream = g.pieces / BAG_SIZE;
		for (c = 0; c < g.pieces % BAG_SIZE; c++)
			from_stream += bag[c] == v;
		if (colour_cells[v + 1] > 4 * from_stream)
			return false;
	}
	if (!score_possible(g.score, g.lines))
		return false;

	/* The stream position. */
	g.current = bag[g.pieces % BAG_SIZE];
	g.bag_number = (g.pieces + 1) / BAG_SIZE;
	if (g.bag_number == g.pieces / BAG_SIZE)
		memcpy(g.bag, bag, sizeof bag);
	else
		bag_shuffle(g.seed, g.bag_number, g.bag);
	g.next = g.bag[(g.pieces + 1) % BAG_SIZE];

	/* The end: top_out exactly when the piece in hand has nowhere to go;
	 * otherwise capped exactly when the cap is reached. */
	legal = stackcraft_has_legal(&g.board, g.current);
	if (g.cap != 0 && g.pieces > g.cap)
		return false;
	switch (g.end_reason) {
	case STACKCRAFT_END_NONE:
		if (!legal || (g.cap != 0 && g.pieces == g.cap))
			return false;
		break;
	case STACKCRAFT_END_TOP_OUT:
		if (legal)
			return false;
		break;
	default:
		if (!legal || g.cap == 0 || g.pieces != g.cap)
			return false;
		break;
	}
	g.status = g.end_reason == STACKCRAFT_END_NONE ? STACKCRAFT_PLAYING : STACKCRAFT_OVER;

	*out = g;
	return true;
}
