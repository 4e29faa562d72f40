/*
 * naive.h: a second, deliberately plain model of the hatetris-classic
 * rules, written from the spec's text for the tests: the well is a grid of
 * cells[20][10], the pieces are the spec's diagrams as strings, a search is
 * a breadth-first walk over an (x, y, o) array, a lock copies rows down one
 * by one, and the run's memory is a list of wells with their values,
 * searched linearly. It shares nothing with the engine but its enum of
 * pieces and suppliers.
 */
#ifndef HCLASSIC_NAIVE_H
#define HCLASSIC_NAIVE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hatetris_classic.h"

#define NV_W 10
#define NV_H 20

/* The spec's diagrams: piece, orientation, four rows of four. */
static const char *const nv_shapes[7][4][4] = {
	{ { "....", "####", "....", "...." }, { "..#.", "..#.", "..#.", "..#." },
	  { "....", "....", "####", "...." }, { ".#..", ".#..", ".#..", ".#.." } },
	{ { "....", ".##.", ".#..", ".#.." }, { "....", "###.", "..#.", "...." },
	  { "..#.", "..#.", ".##.", "...." }, { "....", ".#..", ".###", "...." } },
	{ { "....", ".###", ".#..", "...." }, { "....", ".##.", "..#.", "..#." },
	  { "....", "..#.", "###.", "...." }, { ".#..", ".#..", ".##.", "...." } },
	{ { "....", ".##.", ".##.", "...." }, { "....", ".##.", ".##.", "...." },
	  { "....", ".##.", ".##.", "...." }, { "....", ".##.", ".##.", "...." } },
	{ { "....", "..##", ".##.", "...." }, { "....", ".#..", ".##.", "..#." },
	  { "....", ".##.", "##..", "...." }, { ".#..", ".##.", "..#.", "...." } },
	{ { "....", ".###", "..#.", "...." }, { "....", "..#.", ".##.", "..#." },
	  { "....", ".#..", "###.", "...." }, { ".#..", ".##.", ".#..", "...." } },
	{ { "....", ".##.", "..##", "...." }, { "....", "..#.", ".##.", ".#.." },
	  { "....", "##..", ".##.", "...." }, { "..#.", ".##.", ".#..", "...." } },
};

/* The supply order S Z O I L J T, written out again. */
static const int nv_order[7] = { HCLASSIC_S, HCLASSIC_Z, HCLASSIC_O, HCLASSIC_I, HCLASSIC_L,
	HCLASSIC_J, HCLASSIC_T };

struct nv_well {
	char c[NV_H][NV_W]; /* 1 filled, 0 empty */
};

struct nv_memory {
	struct nv_well *wells;
	uint32_t *values;
	size_t n, cap;
};

struct nv_run {
	struct nv_well well;
	int piece, x, y, o;
	long lines, keys, pieces;
	bool over;
	int supplier;
	struct nv_memory mem;
};

static bool __attribute__((unused))
nv_cell(int p, int o, int r, int c)
{
	return nv_shapes[p][o][r][c] == '#';
}

static bool __attribute__((unused))
nv_free(const struct nv_well *w, int p, int x, int y, int o)
{
	int r, c;

	for (r = 0; r < 4; r++)
		for (c = 0; c < 4; c++) {
			int wr = y + r, wc = x + c;

			if (!nv_cell(p, o, r, c))
				continue;
			if (wr < 0 || wr >= NV_H || wc < 0 || wc >= NV_W)
				return false;
			if (w->c[wr][wc])
				return false;
		}
	return true;
}

static bool __attribute__((unused))
nv_row_full(const struct nv_well *w, int r)
{
	int c;

	for (c = 0; c < NV_W; c++)
		if (!w->c[r][c])
			return false;
	return true;
}

/* Locks p at (x, y, o) into *w; returns lines, sets *over. */
static int __attribute__((unused))
nv_lock(struct nv_well *w, int p, int x, int y, int o, bool *over)
{
	int r, c, lines = 0, highest = NV_H;

	for (r = 0; r < 4; r++)
		for (c = 0; c < 4; c++)
			if (nv_cell(p, o, r, c)) {
				w->c[y + r][x + c] = 1;
				if (y + r < highest)
					highest = y + r;
			}
	if (highest < 4) {
		*over = true;
		return 0;
	}
	*over = false;
	/* Remove full rows from the top down, one at a time. */
	for (r = 0; r < NV_H; r++) {
		if (!nv_row_full(w, r))
			continue;
		for (int k = r; k > 0; k--)
			memcpy(w->c[k], w->c[k - 1], NV_W);
		memset(w->c[0], 0, NV_W);
		lines++;
	}
	return lines;
}

static int __attribute__((unused))
nv_rating(const struct nv_well *w)
{
	int r, c;

	for (r = 0; r < NV_H; r++)
		for (c = 0; c < NV_W; c++)
			if (w->c[r][c])
				return r;
	return NV_H;
}

static uint32_t __attribute__((unused))
nv_mem_get(const struct nv_memory *m, const struct nv_well *w)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		if (memcmp(&m->wells[i], w, sizeof *w) == 0)
			return m->values[i];
	return 0;
}

static void __attribute__((unused))
nv_mem_set(struct nv_memory *m, const struct nv_well *w, uint32_t v)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		if (memcmp(&m->wells[i], w, sizeof *w) == 0) {
			m->values[i] = v;
			return;
		}
	if (m->n == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 64;
		m->wells = realloc(m->wells, m->cap * sizeof *m->wells);
		m->values = realloc(m->values, m->cap * sizeof *m->values);
		if (!m->wells || !m->values)
			abort();
	}
	m->wells[m->n] = *w;
	m->values[m->n] = v;
	m->n++;
}

static void __attribute__((unused))
nv_mem_free(struct nv_memory *m)
{
	free(m->wells);
	free(m->values);
	memset(m, 0, sizeof *m);
}

/* A search's positions: index [o][y][x + 2], x -2..8, y 0..19. */
#define NV_NX 11
#define NV_NY 20
struct nv_search {
	int dist[4][NV_NY][NV_NX]; /* -1 unreached */
};

/* One lock found by nv_landings. */
struct nv_landing {
	int x, y, o, dist; /* dist: keys to reach the position, the lock's D not included */
	int lines;
	bool over;
	struct nv_well after;
};

/* Every lock from (x, y, o), in breadth-first order with keys L R D U; at
 * most cap (the caller gives room for all 880). Returns the count. */
static int __attribute__((unused))
nv_landings(const struct nv_well *w, int p, int x0, int y0, int o0, struct nv_landing *out,
    int cap, struct nv_search *s)
{
	int qx[4 * NV_NY * NV_NX], qy[4 * NV_NY * NV_NX], qo[4 * NV_NY * NV_NX];
	int head = 0, tail = 0, n = 0;

	memset(s->dist, 0xff, sizeof s->dist);
	s->dist[o0][y0][x0 + 2] = 0;
	qx[tail] = x0, qy[tail] = y0, qo[tail] = o0, tail++;
	while (head < tail) {
		int x = qx[head], y = qy[head], o = qo[head], k;

		head++;
		for (k = 0; k < 4; k++) {
			int nx = x - (k == 0) + (k == 1), ny = y + (k == 2), no = k == 3 ? (o + 1) % 4 : o;

			if (nv_free(w, p, nx, ny, no)) {
				if (s->dist[no][ny][nx + 2] < 0) {
					s->dist[no][ny][nx + 2] = s->dist[o][y][x + 2] + 1;
					qx[tail] = nx, qy[tail] = ny, qo[tail] = no, tail++;
				}
			} else if (k == 2 && n < cap) {
				struct nv_landing *l = &out[n++];

				l->x = x, l->y = y, l->o = o;
				l->dist = s->dist[o][y][x + 2];
				l->after = *w;
				l->lines = nv_lock(&l->after, p, x, y, o, &l->over);
			}
		}
	}
	return n;
}

struct nv_choice {
	int piece;
	int rating[7];
	uint32_t loops[7];
};

/* The supplier on well w, reading memory m as the version says (for 2021
 * the value of w itself). Every landing is looked up, whatever the lines. */
static int __attribute__((unused))
nv_choose(const struct nv_well *w, int supplier, const struct nv_memory *m,
    struct nv_choice *ch)
{
	static struct nv_landing land[4 * NV_NY * NV_NX];
	struct nv_search s;
	int p, i, k, best = -1;

	for (p = 0; p < 7; p++) {
		int n = nv_landings(w, p, 3, 0, 0, land, 4 * NV_NY * NV_NX, &s);

		ch->rating[p] = 0;
		ch->loops[p] = 0;
		for (i = 0; i < n; i++) {
			int r = nv_rating(&land[i].after);
			uint32_t c = nv_mem_get(m, &land[i].after);

			if (r > ch->rating[p])
				ch->rating[p] = r;
			if (supplier == HCLASSIC_CURRENT && c > ch->loops[p])
				ch->loops[p] = c;
			if (supplier == HCLASSIC_2022 && c > 0)
				ch->loops[p] = 1;
		}
		if (supplier == HCLASSIC_2021)
			ch->loops[p] = (nv_mem_get(m, w) >> p) & 1u;
	}
	for (k = 0; k < 7; k++) {
		p = nv_order[k];
		if (best < 0 || ch->loops[p] < ch->loops[best] ||
		    (ch->loops[p] == ch->loops[best] && ch->rating[p] < ch->rating[best]))
			best = p;
	}
	ch->piece = best;
	return best;
}

static void __attribute__((unused))
nv_supply(struct nv_run *g)
{
	struct nv_choice ch;

	if (g->supplier == HCLASSIC_CURRENT || g->supplier == HCLASSIC_2022)
		nv_mem_set(&g->mem, &g->well, nv_mem_get(&g->mem, &g->well) + 1);
	nv_choose(&g->well, g->supplier, &g->mem, &ch);
	if (g->supplier == HCLASSIC_2021)
		nv_mem_set(&g->mem, &g->well, nv_mem_get(&g->mem, &g->well) | 1u << ch.piece);
	g->piece = ch.piece;
	g->x = 3, g->y = 0, g->o = 0;
	g->pieces++;
}

static void __attribute__((unused))
nv_start(struct nv_run *g, int supplier, const struct nv_well *w, long lines)
{
	memset(g, 0, sizeof *g);
	g->supplier = supplier;
	if (w)
		g->well = *w;
	g->lines = lines;
	nv_supply(g);
}

/* One key; false when it was ignored (the run is over). */
static bool __attribute__((unused))
nv_key(struct nv_run *g, char key)
{
	int nx = g->x, ny = g->y, no = g->o, r, c;
	bool over;

	if (g->over)
		return false;
	g->keys++;
	if (key == 'L')
		nx--;
	else if (key == 'R')
		nx++;
	else if (key == 'D')
		ny++;
	else
		no = (no + 1) % 4;
	if (nv_free(&g->well, g->piece, nx, ny, no)) {
		g->x = nx, g->y = ny, g->o = no;
		return true;
	}
	if (key != 'D')
		return true;
	g->lines += nv_lock(&g->well, g->piece, g->x, g->y, g->o, &over);
	/* Game over: row 3 holds a filled cell. */
	for (r = 3, c = 0; c < NV_W; c++)
		if (g->well.c[r][c])
			g->over = true;
	if (!g->over)
		nv_supply(g);
	return true;
}

/* The naive well as the engine's rows, for comparisons. */
static void __attribute__((unused))
nv_rows(const struct nv_well *w, uint16_t rows[NV_H])
{
	int r, c;

	for (r = 0; r < NV_H; r++) {
		rows[r] = 0;
		for (c = 0; c < NV_W; c++)
			if (w->c[r][c])
				rows[r] |= (uint16_t)(1u << c);
	}
}

static void __attribute__((unused))
nv_from_rows(struct nv_well *w, const uint16_t rows[NV_H])
{
	int r, c;

	for (r = 0; r < NV_H; r++)
		for (c = 0; c < NV_W; c++)
			w->c[r][c] = (char)((rows[r] >> c) & 1u);
}

#endif
