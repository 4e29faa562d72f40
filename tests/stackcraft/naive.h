/*
 * naive.h: a second, deliberately plain Stackcraft written from the rule
 * text for the tests to compare the engine with. Nothing of the engine is
 * used but the piece stream (bag_piece, tested against CPython elsewhere).
 *
 * The board is int board[20][10], board[y][x], y = 0 at the top. The spawn
 * shapes are the rotation-0 pictures; every other orientation comes from
 * turning the previous picture a quarter clockwise as a grid of characters
 * (new row i, column j = old row h - 1 - j, column i), which is tight by
 * construction, and keeping it only when no earlier picture is equal. A
 * placement writes the shape at y = 0 and gives up if a cell there is
 * filled, then walks down a row at a time while the next row is inside and
 * free. Rows are cleared one at a time by shifting everything above down.
 * The episode cap ends a run after the cap-th placement unless the run has
 * just topped out (the project's documented choice).
 *
 * Include once per program; everything is static (inline, so that a
 * program may use only part of it).
 */
#ifndef STACKCRAFT_NAIVE_H
#define STACKCRAFT_NAIVE_H

#include <stdint.h>
#include <string.h>

#include "bag.h"

#define NV_W 10
#define NV_H 20

static const char *const nv_spawn[7][2] = {
	{ "####", NULL },  /* I */
	{ "##", "##" },    /* O */
	{ ".#.", "###" },  /* T */
	{ ".##", "##." },  /* S */
	{ "##.", ".##" },  /* Z */
	{ "#..", "###" },  /* J */
	{ "..#", "###" },  /* L */
};
static const char nv_letters[] = "IOTSZJL";

struct nv_pic {
	int w, h;
	char g[4][5]; /* g[row][col], '#' or '.' */
};

struct nv_piece {
	int n; /* unique orientations */
	struct nv_pic o[4];
};

static struct nv_piece nv_pieces[7];

static inline void
nv_turn(const struct nv_pic *a, struct nv_pic *b)
{
	int i, j;

	memset(b, 0, sizeof *b);
	b->w = a->h;
	b->h = a->w;
	for (i = 0; i < b->h; i++)
		for (j = 0; j < b->w; j++)
			b->g[i][j] = a->g[a->h - 1 - j][i];
}

static inline int
nv_same(const struct nv_pic *a, const struct nv_pic *b)
{
	int i;

	if (a->w != b->w || a->h != b->h)
		return 0;
	for (i = 0; i < a->h; i++)
		if (memcmp(a->g[i], b->g[i], (size_t)a->w) != 0)
			return 0;
	return 1;
}

static inline void
nv_setup(void)
{
	struct nv_pic cur, t;
	int p, k, i, dup;

	for (p = 0; p < 7; p++) {
		memset(&cur, 0, sizeof cur);
		for (cur.h = 0; cur.h < 2 && nv_spawn[p][cur.h] != NULL; cur.h++)
			memcpy(cur.g[cur.h], nv_spawn[p][cur.h], strlen(nv_spawn[p][cur.h]));
		cur.w = (int)strlen(nv_spawn[p][0]);
		nv_pieces[p].n = 0;
		nv_pieces[p].o[nv_pieces[p].n++] = cur;
		for (k = 0; k < 3; k++) {
			nv_turn(&cur, &t);
			cur = t;
			dup = 0;
			for (i = 0; i < nv_pieces[p].n; i++)
				dup |= nv_same(&nv_pieces[p].o[i], &cur);
			if (!dup)
				nv_pieces[p].o[nv_pieces[p].n++] = cur;
		}
	}
}

struct nv_move {
	char id[8];
	int r, x, y;
	int cells[4][2]; /* (x, y), in the picture's reading order */
};

struct nv_game {
	int board[NV_H][NV_W];
	uint64_t seed, cap;
	long pieces, lines, score;
	int current, next;
	int over;          /* 0 playing, 1 over */
	const char *end;   /* NULL, "top_out" or "capped" */
};

/* Whether the picture fits with its top-left at (x, y): inside and free. */
static inline int
nv_free(int board[NV_H][NV_W], const struct nv_pic *pic, int x, int y)
{
	int i, j;

	for (i = 0; i < pic->h; i++)
		for (j = 0; j < pic->w; j++) {
			if (pic->g[i][j] != '#')
				continue;
			if (x + j < 0 || x + j >= NV_W || y + i < 0 || y + i >= NV_H)
				return 0;
			if (board[y + i][x + j] != 0)
				return 0;
		}
	return 1;
}

static inline int
nv_legal_on(int board[NV_H][NV_W], int piece, struct nv_move *out)
{
	const struct nv_piece *pc = &nv_pieces[piece];
	int n = 0, r, x, y, i, j, k;

	for (r = 0; r < pc->n; r++)
		for (x = 0; x + pc->o[r].w <= NV_W; x++) {
			if (!nv_free(board, &pc->o[r], x, 0))
				continue; /* unavailable, even with room below */
			y = 0;
			while (nv_free(board, &pc->o[r], x, y + 1))
				y++;
			out[n].id[0] = 'r';
			out[n].id[1] = (char)('0' + r);
			out[n].id[2] = 'x';
			out[n].id[3] = (char)('0' + x);
			out[n].id[4] = '\0';
			out[n].r = r;
			out[n].x = x;
			out[n].y = y;
			k = 0;
			for (i = 0; i < pc->o[r].h; i++)
				for (j = 0; j < pc->o[r].w; j++)
					if (pc->o[r].g[i][j] == '#') {
						out[n].cells[k][0] = x + j;
						out[n].cells[k][1] = y + i;
						k++;
					}
			n++;
		}
	return n;
}

static inline int
nv_legal(struct nv_game *g, struct nv_move *out)
{
	return g->over ? 0 : nv_legal_on(g->board, g->current, out);
}

static inline void
nv_init(struct nv_game *g, uint64_t seed, uint64_t cap)
{
	memset(g, 0, sizeof *g);
	g->seed = seed;
	g->cap = cap;
	g->current = bag_piece(seed, 0);
	g->next = bag_piece(seed, 1);
}

/* Clears full rows one by one; returns how many. */
static inline int
nv_clear(int board[NV_H][NV_W])
{
	int y, x, yy, full, n = 0;

	for (y = NV_H - 1; y >= 0;) {
		full = 1;
		for (x = 0; x < NV_W; x++)
			if (board[y][x] == 0)
				full = 0;
		if (!full) {
			y--;
			continue;
		}
		for (yy = y; yy > 0; yy--)
			memcpy(board[yy], board[yy - 1], sizeof board[yy]);
		memset(board[0], 0, sizeof board[0]);
		n++;
	}
	return n;
}

/* Plays an id. Returns the rows cleared (0..4), or -1 when the id is not one
 * of the current legal moves (the game is then unchanged). */
static inline int
nv_step(struct nv_game *g, const char *id)
{
	static const long pts[5] = { 0, 100, 300, 500, 800 };
	struct nv_move mv[64], chosen;
	struct nv_move probe[64];
	int n, i, k, found = -1, rows;

	n = nv_legal(g, mv);
	for (i = 0; i < n; i++)
		if (strcmp(mv[i].id, id) == 0)
			found = i;
	if (found < 0)
		return -1;
	chosen = mv[found];
	for (k = 0; k < 4; k++)
		g->board[chosen.cells[k][1]][chosen.cells[k][0]] = g->current + 1;
	rows = nv_clear(g->board);
	g->score += pts[rows];
	g->lines += rows;
	g->pieces++;
	g->current = g->next;
	g->next = bag_piece(g->seed, (uint64_t)g->pieces + 1);
	if (nv_legal_on(g->board, g->current, probe) == 0) {
		g->over = 1;
		g->end = "top_out";
	} else if (g->cap != 0 && (uint64_t)g->pieces >= g->cap) {
		g->over = 1;
		g->end = "capped";
	}
	return rows;
}

#endif
