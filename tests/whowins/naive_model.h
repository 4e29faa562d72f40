/*
 * naive_model.h: the naive model of a who-wins well, written from the rules
 * alone (docs/rules/whowins.md) and shared by test_whowins_naive.c and
 * tests/wells/test_wells_table.c: the pieces typed again from the rules'
 * pictures, a well of plain cells, and landings found by a recursive flood
 * over (orientation, column, row) with every move checked cell by cell.
 * Static functions: each test includes it once.
 */
#ifndef TESTS_WHOWINS_NAIVE_MODEL_H
#define TESTS_WHOWINS_NAIVE_MODEL_H

#define NW 8
#define NH 8
#define NR (NH + 4)

/* The rules' pictures, box row 0 first, every orientation in rotation order. */
static const char *const pictures[7][4] = {
	{ "....\n.##.\n.##.\n...." },
	{ "....\n####\n....\n....", "..#.\n..#.\n..#.\n..#." },
	{ "....\n###.\n..#.\n....", ".#..\n.#..\n##..\n....", "#...\n###.\n....\n....", ".##.\n.#..\n.#..\n...." },
	{ "....\n.###\n.#..\n....", ".##.\n..#.\n..#.\n....", "...#\n.###\n....\n....", "..#.\n..#.\n..##\n...." },
	{ "....\n..##\n.##.\n....", "..#.\n..##\n...#\n...." },
	{ "....\n.###\n..#.\n....", "..#.\n.##.\n..#.\n....", "..#.\n.###\n....\n....", "..#.\n..##\n..#.\n...." },
	{ "....\n.##.\n..##\n....", "...#\n..##\n..#.\n...." },
};

struct naive {
	int w, h, drop;
	char cell[NR][NW];
	char seen[4][NW + 4][NR];
	int nland;
	int land[512][3];
};

static int
nrot(int p)
{
	int r = 0;

	while (r < 4 && pictures[p][r])
		r++;
	return r;
}

static int
filled(int p, int r, int i, int j)
{
	return pictures[p][r][i * 5 + j] == '#';
}

static int
fits(const struct naive *n, int p, int r, int col, int row)
{
	int i, j;

	for (i = 0; i < 4; i++)
		for (j = 0; j < 4; j++)
			if (filled(p, r, i, j)) {
				int y = row + i, x = col + j;

				if (y < 0 || y >= n->h + 4 || x < 0 || x >= n->w || n->cell[y][x])
					return 0;
			}
	return 1;
}

static int
in_buffer(int p, int r, int row)
{
	int i, j;

	for (i = 0; i < 4; i++)
		for (j = 0; j < 4; j++)
			if (filled(p, r, i, j) && row + i < 4)
				return 1;
	return 0;
}

static void
flood(struct naive *n, int p, int r, int col, int row)
{
	if (!fits(n, p, r, col, row) || n->seen[r][col + 3][row])
		return;
	n->seen[r][col + 3][row] = 1;
	if (!fits(n, p, r, col, row + 1) && !in_buffer(p, r, row)) {
		n->land[n->nland][0] = r;
		n->land[n->nland][1] = col;
		n->land[n->nland][2] = row;
		n->nland++;
	}
	flood(n, p, (r + 1) % nrot(p), col, row);
	flood(n, p, r, col - 1, row);
	flood(n, p, r, col + 1, row);
	flood(n, p, r, col, row + 1);
}

static void
find_landings(struct naive *n, int p)
{
	int r, col, row;

	n->nland = 0;
	if (!n->drop) {
		memset(n->seen, 0, sizeof n->seen);
		flood(n, p, 0, (n->w - 4) / 2, 0);
		return;
	}
	for (r = 0; r < nrot(p); r++)
		for (col = -3; col < n->w; col++) {
			if (!fits(n, p, r, col, 0))
				continue;
			for (row = 0; fits(n, p, r, col, row + 1); row++)
				;
			if (!in_buffer(p, r, row)) {
				n->land[n->nland][0] = r;
				n->land[n->nland][1] = col;
				n->land[n->nland][2] = row;
				n->nland++;
			}
		}
}

static void
put(struct naive *n, int p, int r, int col, int row, char v)
{
	int i, j;

	for (i = 0; i < 4; i++)
		for (j = 0; j < 4; j++)
			if (filled(p, r, i, j))
				n->cell[row + i][col + j] = v;
}

static int
any_full(const struct naive *n)
{
	int y, x;

	for (y = 4; y < n->h + 4; y++) {
		for (x = 0; x < n->w && n->cell[y][x]; x++)
			;
		if (x == n->w)
			return 1;
	}
	return 0;
}

#endif
