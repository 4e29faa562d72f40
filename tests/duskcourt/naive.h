/*
 * naive.h: a second, deliberately plain model of Duskcourt for the tests,
 * written from the rules text (docs/rules/duskcourt.md) without looking at
 * the engine's code paths: its own ladder table, its own reach (offset lists
 * and direction walks), and an exhaustive depth-first solver whose only aid
 * is a memo of boards already known to be dead (whole boards as keys, no
 * cleverness). The engine is checked against it; it shares nothing with the
 * engine but the cell numbering of duskcourt.h.
 */
#ifndef NAIVE_H
#define NAIVE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "duskcourt.h"

struct naive_row {
	int size, idols, decoys, boulders;
	bool jackal;
};

/* The ladder of docs/rules/duskcourt.md, typed in again. */
static struct naive_row __attribute__((unused))
naive_ladder(unsigned rung)
{
	static const int t[10][5] = {
		{ 4, 3, 0, 0, 0 }, { 4, 4, 0, 0, 0 }, { 4, 5, 0, 0, 0 }, { 5, 5, 0, 0, 0 },
		{ 5, 6, 0, 0, 0 }, { 6, 6, 0, 0, 0 }, { 6, 7, 1, 0, 0 }, { 6, 8, 2, 0, 0 },
		{ 6, 8, 2, 1, 0 }, { 6, 8, 2, 0, 2 },
	};
	struct naive_row row;

	if (rung <= 10) {
		row.size = t[rung - 1][0];
		row.idols = t[rung - 1][1];
		row.decoys = t[rung - 1][2];
		row.jackal = t[rung - 1][3] != 0;
		row.boulders = t[rung - 1][4];
	} else {
		row.size = 6;
		row.idols = 9 + (int)((rung - 11) / 2);
		if (row.idols > 12)
			row.idols = 12;
		row.decoys = 2 + (int)((rung - 11) / 4);
		if (row.decoys > 3)
			row.decoys = 3;
		row.jackal = true;
		row.boulders = 2 + (int)((rung - 11) % 3);
	}
	return row;
}

static bool
naive_idol(int c)
{
	return c >= 2 && c <= 7;
}

/* Does the idol on (fr, fc) take the square (tr, tc)? */
static bool
naive_reaches(const uint8_t *b, int size, int fr, int fc, int tr, int tc)
{
	static const int kn[8][2] = { { 1, 2 }, { 2, 1 }, { -1, 2 }, { -2, 1 },
		{ 1, -2 }, { 2, -1 }, { -1, -2 }, { -2, -1 } };
	static const int lines[8][2] = { { 0, 1 }, { 0, -1 }, { 1, 0 }, { -1, 0 },
		{ 1, 1 }, { 1, -1 }, { -1, 1 }, { -1, -1 } };
	int kind = b[fr * size + fc], i, lo = 0, hi = 8;

	switch (kind) {
	case 2: /* jackal */
		return (fr != tr || fc != tc) && abs(fr - tr) <= 1 && abs(fc - tc) <= 1;
	case 6: /* camel */
		for (i = 0; i < 8; i++)
			if (fr + kn[i][0] == tr && fc + kn[i][1] == tc)
				return true;
		return false;
	case 7: /* beetle: forward is up */
		return tr == fr + 1 && (tc == fc - 1 || tc == fc + 1);
	case 4:
		hi = 4;
		break;
	case 5:
		lo = 4;
		break;
	case 3:
		break;
	default:
		return false;
	}
	for (i = lo; i < hi; i++) {
		int r = fr + lines[i][0], c = fc + lines[i][1];

		while (r >= 0 && r < size && c >= 0 && c < size && b[r * size + c] == 0) {
			r += lines[i][0];
			c += lines[i][1];
		}
		if (r == tr && c == tc && r >= 0 && r < size && c >= 0 && c < size)
			return true;
	}
	return false;
}

static bool __attribute__((unused))
naive_can_take(const uint8_t *b, int size, bool jackal, int from, int to)
{
	if (from < 0 || to < 0 || from >= size * size || to >= size * size)
		return false;
	if (!naive_idol(b[from]) || !naive_idol(b[to]))
		return false;
	if (jackal && b[to] == 2)
		return false;
	return naive_reaches(b, size, from / size, from % size, to / size, to % size);
}

static int
naive_idols(const uint8_t *b, int size)
{
	int i, n = 0;

	for (i = 0; i < size * size; i++)
		n += naive_idol(b[i]);
	return n;
}

/* Every take, in index order, as from*64+to. */
static int
naive_moves(const uint8_t *b, int size, bool jackal, int *out)
{
	int sq[36], ns = 0, i, j, n = 0;

	for (i = 0; i < size * size; i++)
		if (naive_idol(b[i]))
			sq[ns++] = i;
	for (i = 0; i < ns; i++)
		for (j = 0; j < ns; j++)
			if (naive_can_take(b, size, jackal, sq[i], sq[j]))
				out[n++] = sq[i] * 64 + sq[j];
	return n;
}

/* ---- the memo of dead boards: whole 36-byte boards, linear probing ---- */

#define NAIVE_MEMO (1u << 20)

struct naive {
	/* board, then size * 2 + jackal (the same cells mean another position
	 * on another size), then 1 in a used slot */
	uint8_t (*keys)[38];
	unsigned used;
	unsigned long long nodes;
};

static void __attribute__((unused))
naive_open(struct naive *nv)
{
	nv->keys = calloc(NAIVE_MEMO, 38);
	nv->used = 0;
	nv->nodes = 0;
}

static void __attribute__((unused))
naive_close(struct naive *nv)
{
	free(nv->keys);
}

static unsigned
naive_hash(const uint8_t *b, int tag)
{
	unsigned h = 2166136261u ^ (unsigned)tag;
	int i;

	for (i = 0; i < 36; i++)
		h = (h ^ b[i]) * 16777619u;
	return h & (NAIVE_MEMO - 1);
}

static bool
naive_known_dead(struct naive *nv, const uint8_t *b, int tag)
{
	unsigned h = naive_hash(b, tag);

	while (nv->keys[h][37]) {
		if (memcmp(nv->keys[h], b, 36) == 0 && nv->keys[h][36] == tag)
			return true;
		h = (h + 1) & (NAIVE_MEMO - 1);
	}
	return false;
}

static void
naive_mark_dead(struct naive *nv, const uint8_t *b, int tag)
{
	unsigned h;

	if (nv->used > NAIVE_MEMO / 2) { /* full enough: forget everything */
		memset(nv->keys, 0, (size_t)NAIVE_MEMO * 38);
		nv->used = 0;
	}
	h = naive_hash(b, tag);
	while (nv->keys[h][37])
		h = (h + 1) & (NAIVE_MEMO - 1);
	memcpy(nv->keys[h], b, 36);
	nv->keys[h][36] = (uint8_t)tag;
	nv->keys[h][37] = 1;
	nv->used++;
}

/* Can the board (36 cells, zero past size*size) be cleared? */
static bool
naive_clearable(struct naive *nv, const uint8_t *board, int size, bool jackal)
{
	uint8_t b[36];
	int moves[36 * 8], n, i;

	if (naive_idols(board, size) == 1)
		return true;
	if (naive_known_dead(nv, board, size * 2 + jackal))
		return false;
	nv->nodes++;
	n = naive_moves(board, size, jackal, moves);
	for (i = 0; i < n; i++) {
		int f = moves[i] / 64, t = moves[i] % 64;

		memcpy(b, board, 36);
		b[t] = b[f];
		b[f] = 0;
		if (naive_clearable(nv, b, size, jackal))
			return true;
	}
	naive_mark_dead(nv, board, size * 2 + jackal);
	return false;
}

/* Decoys of the board: first takes after which it cannot be cleared. */
static int __attribute__((unused))
naive_decoys(struct naive *nv, const uint8_t *board, int size, bool jackal)
{
	uint8_t b[36];
	int moves[36 * 8], n, i, dead = 0;

	n = naive_moves(board, size, jackal, moves);
	for (i = 0; i < n; i++) {
		memcpy(b, board, 36);
		b[moves[i] % 64] = b[moves[i] / 64];
		b[moves[i] / 64] = 0;
		dead += !naive_clearable(nv, b, size, jackal);
	}
	return dead;
}

/* A board from a picture: rows top rank first, '.', '#', K Q R B N P. */
static void __attribute__((unused))
naive_picture(uint8_t *b, int size, const char *rows)
{
	static const char chars[] = ".#KQRBNP";
	int r, c;

	memset(b, 0, 36);
	for (r = 0; r < size; r++)
		for (c = 0; c < size; c++)
			b[r * size + c] = (uint8_t)(strchr(chars, rows[(size - 1 - r) * size + c]) - chars);
}

#endif
