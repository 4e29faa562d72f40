/*
 * ab_test.h: what the actionblocks tests share to build positions: boards
 * from pictures, a piece put where a test wants it, keys played one by one.
 * Tests reach the rule functions through the archive's internal header
 * (actionblocks_rules.h) on purpose: a constructed position is the only
 * way to reach, say, each of the 80 kicks.
 */
#ifndef AB_TEST_H
#define AB_TEST_H

#include <string.h>

#include "actionblocks.h"
#include "actionblocks_rules.h"

/* Rows of a picture, top row first; the last string is row 0. '#' is a
 * grey cell, a letter of IOTSZJL that piece's cell, anything else empty.
 * Rows above the picture are emptied. */
static void __attribute__((unused))
ab_test_board(struct ab_player *p, const char *const *rows, int n)
{
	int y, x;
	const char *s;

	memset(p->cells, 0, sizeof p->cells);
	memset(p->items, 0, sizeof p->items);
	for (y = 0; y < n; y++) {
		s = rows[n - 1 - y];
		for (x = 0; x < AB_COLS && s[x] != '\0'; x++) {
			const char *letters = "IOTSZJL", *l;

			if (s[x] == '#')
				p->cells[y][x] = AB_CELL_GREY;
			for (l = letters; *l; l++)
				if (s[x] == *l)
					p->cells[y][x] = (uint8_t)(l - letters + 1);
		}
	}
}

/* Makes piece (a tetromino, no items) the seat's falling piece at box
 * (x, y) in state rot, fresh: lowest row y, no resets, no rotation flag. */
static void __attribute__((unused))
ab_test_put(struct ab_match *m, unsigned seat, unsigned piece, int x, int y, unsigned rot)
{
	struct ab_player *p = &m->players[seat];

	p->cur.piece = (uint8_t)piece;
	p->cur.shape = AB_SHAPE_PIECE;
	p->cur.items = 0;
	memset(&p->act, 0, sizeof p->act);
	p->act.x = (int8_t)x;
	p->act.y = (int8_t)y;
	p->act.rot = (uint8_t)rot;
	p->act.lowest = (int8_t)y;
	p->has_piece = true;
}

/* Plays keys until one asks for the lock (then locks when lock is given)
 * or they run out; returns the index of the key that locked, or -1. */
static int __attribute__((unused))
ab_test_keys(struct ab_match *m, unsigned seat, const char *keys, struct ab_lock_events *lock)
{
	uint32_t drop = 0;
	int k;

	for (k = 0; keys[k] != '\0'; k++) {
		if (ab_key(m, seat, keys[k], &drop) == AB_KEY_LOCK) {
			if (lock != NULL)
				ab_lock(m, seat, lock);
			return k;
		}
	}
	return -1;
}

/* The letter in a board cell (0 empty). */
static char __attribute__((unused))
ab_test_cell(const struct ab_player *p, int x, int y)
{
	unsigned c = p->cells[y][x];

	return c == AB_CELL_EMPTY ? '.' : c == AB_CELL_GREY ? '#' : "IOTSZJL"[c - 1];
}

#endif
