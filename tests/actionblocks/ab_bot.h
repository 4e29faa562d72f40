/*
 * ab_bot.h: random bots for actionblocks tests: each turn a random but
 * legal move per living seat (keys, sometimes an item use, now and then a
 * missed turn or a resignation), written as the text a bot would send.
 * The serial, determinism and trace tests play many such matches; the
 * moves come from a seeded xorshift, so a failure names its seed.
 */
#ifndef AB_BOT_H
#define AB_BOT_H

#include <stdio.h>
#include <string.h>

#include "actionblocks.h"
#include "actionblocks_rules.h"
#include "xorshift.h"

/* How good the board after a lock is for a greedy bot: rows cleared are
 * worth much, height and covered holes cost. */
static long
ab_bot_score(const struct ab_player *p, const struct ab_lock_events *e)
{
	long v = 1000L * e->lines * e->lines;
	int x, y, top;

	if (e->lock_out)
		return -1000000;
	for (x = 0; x < AB_COLS; x++) {
		for (top = AB_ROWS - 1; top >= 0 && p->cells[top][x] == AB_CELL_EMPTY; top--)
			;
		v -= 5L * (top + 1);
		for (y = top - 1; y >= 0; y--)
			if (p->cells[y][x] == AB_CELL_EMPTY)
				v -= 40;
	}
	return v;
}

/* The keys of the best of every rotation and column shift (hard drop at
 * the end), tried on a scratch match holding a copy of the seat alone. */
static void
ab_bot_greedy(const struct ab_match *m, unsigned seat, char *keys)
{
	static struct ab_match scratch;
	struct ab_lock_events e;
	uint32_t drop;
	long best = -2000000000L, v;
	unsigned r, k, n;
	int shift;
	char try[16];

	keys[0] = 'D';
	keys[1] = '\0';
	for (r = 0; r < 4; r++) {
		for (shift = -5; shift <= 5; shift++) {
			n = 0;
			for (k = 0; k < r; k++)
				try[n++] = 'X';
			for (k = 0; k < (unsigned)(shift < 0 ? -shift : shift); k++)
				try[n++] = shift < 0 ? 'L' : 'R';
			try[n++] = 'D';
			try[n] = '\0';
			scratch.seed = m->seed;
			scratch.clock = m->clock;
			scratch.nplayers = 1;
			scratch.item_chance = 0;
			scratch.players[0] = m->players[seat];
			drop = 0;
			for (k = 0; k < n; k++)
				if (ab_key(&scratch, 0, try[k], &drop) == AB_KEY_LOCK)
					break;
			if (k + 1 != n)
				continue; /* locked early (resets) or never: not this one */
			ab_lock(&scratch, 0, &e);
			v = ab_bot_score(&scratch.players[0], &e);
			if (v > best) {
				best = v;
				memcpy(keys, try, n + 1);
			}
		}
	}
}

/* A move for seat into text (cap >= 300): "missed", "resign" or the
 * keys (with "use T; " first now and then), checked legal on m. */
static void __attribute__((unused))
ab_bot_move(const struct ab_match *m, unsigned seat, uint64_t *rng, char *text, size_t cap)
{
	static const char letters[] = "LRXZSLRXZSLRC";
	struct ab_move mv;
	char reason[ENGINE_REASON_MAX];
	char keys[AB_KEYS_MAX + 1];
	unsigned n, k, use = 0, r = xorshift_below(rng, 1000);

	if (r < 15) {
		snprintf(text, cap, "missed");
		return;
	}
	if (r < 18) {
		snprintf(text, cap, "resign");
		return;
	}
	/* Mostly a greedy placement (so rows clear, garbage flies and items
	 * come out of the rows); else short random key runs ending in a hard
	 * drop, now and then long soft drops, so pieces rest and lock resets
	 * get spent. */
	if (r < 850) {
		ab_bot_greedy(m, seat, keys);
		n = (unsigned)strlen(keys);
		goto use;
	}
	n = xorshift_below(rng, 12);
	for (k = 0; k < n; k++)
		keys[k] = letters[xorshift_below(rng, sizeof letters - 1)];
	if (xorshift_below(rng, 6) == 0)
		for (; n < 60; n++)
			keys[n] = xorshift_below(rng, 3) == 0 ? "LRXZ"[xorshift_below(rng, 4)] : 'S';
	if (xorshift_below(rng, 4) != 0)
		keys[n++] = 'D';
	keys[n] = '\0';
use:
	if (m->item_chance > 0 && xorshift_below(rng, 3) == 0)
		use = 1 + xorshift_below(rng, m->nplayers);
	for (;;) {
		if (use != 0)
			snprintf(text, cap, "use %u; keys %s", use, keys);
		else
			snprintf(text, cap, "keys %s", keys);
		if (ab_move_parse(text, strlen(text), &mv, reason, sizeof reason) == AB_PARSE_OK &&
		    ab_check_move(m, seat, &mv, reason, sizeof reason))
			return;
		/* A use naming a seat out goes; keys after the lock go one by one. */
		if (use != 0)
			use = 0;
		else if (n > 0)
			keys[--n] = '\0';
		else
			break;
	}
	snprintf(text, cap, "keys");
}

#endif
