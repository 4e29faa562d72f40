/*
 * duskcourt_court.c: the court: the ladder, the squares and the reach of
 * the six idols, written as plainly as the rules of docs/rules/duskcourt.md
 * so that it can be read against them: this is the code that decides what
 * is legal in play (the solver has its own, faster move generator; the
 * tests hold the two against each other). It calls nothing of the rest of
 * Duskcourt: the solver, the dealer and the run are built on it.
 */
#include "duskcourt_court.h"

/* ---- the ladder ---- */

bool
duskcourt_ladder(uint32_t rung, struct duskcourt_rung *out)
{
	/* Rungs 1..10 of the ladder table (docs/rules/duskcourt.md): size, idols,
	 * decoys, jackal, boulders. */
	static const struct duskcourt_rung table[10] = {
		{ 4, 3, 0, false, 0 }, { 4, 4, 0, false, 0 }, { 4, 5, 0, false, 0 },
		{ 5, 5, 0, false, 0 }, { 5, 6, 0, false, 0 }, { 6, 6, 0, false, 0 },
		{ 6, 7, 1, false, 0 }, { 6, 8, 2, false, 0 }, { 6, 8, 2, true, 0 },
		{ 6, 8, 2, false, 2 },
	};
	uint32_t d;

	if (rung == 0)
		return false;
	if (rung <= 10) {
		*out = table[rung - 1];
		return true;
	}
	d = rung - 11;
	out->size = 6;
	out->idols = d / 2 >= 3 ? 12 : 9 + (int)(d / 2);
	out->decoys = d / 4 >= 1 ? 3 : 2 + (int)(d / 4);
	out->king_survives = true;
	out->boulders = 2 + (int)(d % 3);
	return true;
}

/* ---- cells ---- */

char
duskcourt_cell_char(int cell)
{
	static const char chars[DUSKCOURT_CELL_KINDS] = { '.', '#', 'K', 'Q', 'R', 'B', 'N', 'P' };

	return cell >= 0 && cell < DUSKCOURT_CELL_KINDS ? chars[cell] : '?';
}

int
duskcourt_cell_from_char(char c)
{
	int i;

	for (i = 0; i < DUSKCOURT_CELL_KINDS; i++)
		if (duskcourt_cell_char(i) == c)
			return i;
	return -1;
}

const char *
duskcourt_idol_name(int cell)
{
	switch (cell) {
	case DUSKCOURT_K: return "jackal";
	case DUSKCOURT_Q: return "scorpion";
	case DUSKCOURT_R: return "cobra";
	case DUSKCOURT_B: return "vulture";
	case DUSKCOURT_N: return "camel";
	case DUSKCOURT_P: return "beetle";
	default: return "square";
	}
}

static bool
is_idol(int cell)
{
	return cell >= DUSKCOURT_K && cell <= DUSKCOURT_P;
}

static int
iabs(int x)
{
	return x < 0 ? -x : x;
}

/* Where the reach of the idol on from fails towards to, the first square in
 * between that blocks its line, or -1 when the geometry itself is wrong
 * (not on the idol's lines, or out of its step). 36 when it reaches. */
static int
reach(const uint8_t *cells, int size, int from, int to)
{
	int fr = from / size, fc = from % size, tr = to / size, tc = to % size;
	int dr = tr - fr, dc = tc - fc, sr, sc, r, c;
	bool straight = dr == 0 || dc == 0, diagonal = iabs(dr) == iabs(dc);

	switch (cells[from]) {
	case DUSKCOURT_K:
		return iabs(dr) <= 1 && iabs(dc) <= 1 ? DUSKCOURT_CELLS : -1;
	case DUSKCOURT_N:
		return (iabs(dr) == 1 && iabs(dc) == 2) || (iabs(dr) == 2 && iabs(dc) == 1)
		    ? DUSKCOURT_CELLS : -1;
	case DUSKCOURT_P:
		/* Forward is toward the top row, so a beetle there has no squares. */
		return dr == 1 && iabs(dc) == 1 ? DUSKCOURT_CELLS : -1;
	case DUSKCOURT_Q:
		if (!straight && !diagonal)
			return -1;
		break;
	case DUSKCOURT_R:
		if (!straight)
			return -1;
		break;
	case DUSKCOURT_B:
		if (!diagonal)
			return -1;
		break;
	default:
		return -1;
	}
	/* A running idol: every square strictly between must be empty; an idol
	 * or a boulder there stops the run before it gets to `to`. */
	sr = dr > 0 ? 1 : dr < 0 ? -1 : 0;
	sc = dc > 0 ? 1 : dc < 0 ? -1 : 0;
	for (r = fr + sr, c = fc + sc; r != tr || c != tc; r += sr, c += sc)
		if (cells[r * size + c] != DUSKCOURT_EMPTY)
			return r * size + c;
	return DUSKCOURT_CELLS;
}

int
duskcourt_reach(const uint8_t *cells, int size, int from, int to)
{
	return reach(cells, size, from, to);
}

bool
duskcourt_can_take(const uint8_t *cells, int size, bool king_survives, int from, int to)
{
	int n = size * size;

	if (size < DUSKCOURT_SIZE_MIN || size > DUSKCOURT_SIZE_MAX)
		return false;
	if (from < 0 || from >= n || to < 0 || to >= n || from == to)
		return false;
	if (!is_idol(cells[from]) || !is_idol(cells[to]))
		return false;
	if (king_survives && cells[to] == DUSKCOURT_K)
		return false;
	return reach(cells, size, from, to) == DUSKCOURT_CELLS;
}

size_t
duskcourt_captures(const uint8_t *cells, int size, bool king_survives,
    struct duskcourt_capture *out, size_t cap)
{
	size_t count = 0;
	int from, to, n = size * size;

	/* duskcourt_can_take for every pair, its checks of the court and of
	 * the pair made once each, not for all n * n (it answers every
	 * action's legalActions). */
	if (size < DUSKCOURT_SIZE_MIN || size > DUSKCOURT_SIZE_MAX)
		return 0;
	for (from = 0; from < n; from++) {
		if (!is_idol(cells[from]))
			continue;
		for (to = 0; to < n; to++) {
			if (to == from || !is_idol(cells[to]) || (king_survives && cells[to] == DUSKCOURT_K) ||
			    reach(cells, size, from, to) != DUSKCOURT_CELLS)
				continue;
			if (count < cap) {
				out[count].from = (uint8_t)from;
				out[count].to = (uint8_t)to;
			}
			count++;
		}
	}
	return count;
}

int
duskcourt_count_idols(const uint8_t *cells, int size)
{
	int i, count = 0;

	for (i = 0; i < size * size; i++)
		count += is_idol(cells[i]);
	return count;
}
