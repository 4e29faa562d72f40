/*
 * test_items.c: actionblocks-v1's items on the turn clock: rolls onto a
 * piece's minos and into its cells, collection into the inventory (order,
 * cap), each of the six effects, their counters, and the odd shapes a
 * Transformation brings (shape, items, spawn).
 */
#include "ab_test.h"
#include "tap.h"

static struct ab_move
mv_keys(const char *text)
{
	struct ab_move mv;
	char reason[ENGINE_REASON_MAX];

	ab_move_parse(text, strlen(text), &mv, reason, sizeof reason);
	return mv;
}

/* Weights that pick only item (1..6). */
static void
only(uint8_t w[AB_ITEM_KINDS], unsigned item)
{
	memset(w, 0, AB_ITEM_KINDS);
	w[item - 1] = 1;
}

static void
test_rolls_and_collect(void)
{
	struct ab_match m;
	struct ab_events ev;
	struct ab_move moves[2];
	struct ab_player *p;
	uint8_t w[AB_ITEM_KINDS];
	unsigned x, n;

	/* Chance 100 and one weight: every mino carries nuke (code 3). */
	only(w, AB_ITEM_NUKE);
	ab_init(&m, 9, 2, AB_CLOCK_TURNS, 100, w);
	p = &m.players[0];
	is_int(p->cur.items, 0x3333, "every mino of the first piece carries a nuke");
	for (x = 0; x < 5; x++)
		is_int(p->next[x].items, 0x3333, "preview %u too", x);

	/* Row 0 full but for columns 3-6: the I (rows 20 at spawn, box column
	 * 3) dropped flat fills it; its four item cells go to the inventory,
	 * left to right. */
	for (x = 0; x < AB_COLS; x++)
		if (x < 3 || x > 6)
			p->cells[0][x] = AB_CELL_GREY;
	p->cur.piece = TETROMINO_I;
	ab_spawn_slot(&m, 0, p->cur);
	moves[0] = mv_keys("D");
	moves[1] = mv_keys("D");
	ab_resolve(&m, moves, &ev, NULL, NULL, 0);
	is_int(ev.seats[0].lock.lines, 1, "the I clears row 0");
	is_int(p->ninventory, 4, "four items collected");
	is_int(ev.seats[0].lock.collected, 4, "the event counts them");
	/* Seat 1's piece, dropped on its empty board, left a nuke in each of
	 * its four cells and nowhere else. */
	n = 0;
	for (x = 0; x < AB_ROWS * AB_COLS; x++)
		if (m.players[1].items[x / AB_COLS][x % AB_COLS] == AB_ITEM_NUKE &&
		    m.players[1].cells[x / AB_COLS][x % AB_COLS] != AB_CELL_EMPTY)
			n++;
	is_int(n, 4, "an item stays in every cell of a locked piece");

	/* Inventory cap: 9 held, a clear of 4 item cells keeps 1, discards 3. */
	p->ninventory = 9;
	for (x = 0; x < 9; x++)
		p->inventory[x] = AB_ITEM_BLIND;
	for (x = 0; x < AB_COLS; x++)
		p->cells[0][x] = x < 3 || x > 6 ? AB_CELL_GREY : AB_CELL_EMPTY;
	memset(p->cells[1], 0, sizeof p->cells[1]);
	memset(p->items, 0, sizeof p->items);
	p->cur.piece = TETROMINO_I;
	ab_spawn_slot(&m, 0, p->cur);
	ab_resolve(&m, moves, &ev, NULL, NULL, 0);
	is_int(p->ninventory, 10, "the inventory stops at 10");
	is_int(ev.seats[0].lock.discarded, 3, "3 discarded");
	is_int(p->inventory[9], AB_ITEM_NUKE, "the first collected went in");
}

/* A match of 3 seats with items where seat 0 holds item and seat `target`
 * gets a board; returns after one turn in which seat 0 sends use T. */
static void
one_use(struct ab_match *m, unsigned item, unsigned use, struct ab_events *ev)
{
	static const char *const pic[] = { "LL....#...", "#########." };
	struct ab_move moves[3];
	uint8_t w[AB_ITEM_KINDS] = { 1, 1, 1, 1, 1, 1 };
	char text[32];

	ab_init(m, 21, 3, AB_CLOCK_TURNS, 1, w);
	/* Items only from the inventory in this test: no rolls on the pieces
	 * that matter (chance 1% may still roll; clear them). */
	m->players[0].cur.items = 0;
	m->players[0].inventory[0] = (uint8_t)item;
	m->players[0].ninventory = 1;
	ab_test_board(&m->players[1], pic, 2);
	m->players[1].items[1][0] = AB_ITEM_SWAP; /* on an L cell */
	/* Everyone drops at the far left/right so row 0 is not completed. */
	snprintf(text, sizeof text, "use %u; keys RRRRD", use);
	moves[0] = mv_keys(text);
	moves[1] = mv_keys("LLLLD");
	moves[2] = mv_keys("D");
	ab_resolve(m, moves, ev, NULL, NULL, 0);
}

static void
test_effects(void)
{
	struct ab_match m;
	struct ab_events ev;
	struct ab_player *t;
	struct ab_move moves[3];
	unsigned k, hole;

	/* add_line on seat 1 (use 2): block 0 of the garbage stream (nothing
	 * else was sent), one grey row under everything. */
	one_use(&m, AB_ITEM_ADD_LINE, 2, &ev);
	t = &m.players[1];
	hole = ab_garbage_hole(21, 0);
	is_int(ev.seats[0].used, AB_ITEM_ADD_LINE, "add_line used");
	is_int(ev.seats[0].used_on, 1, "on seat 1");
	ok(t->cells[0][hole] == AB_CELL_EMPTY && t->cells[0][(hole + 1) % 10] == AB_CELL_GREY,
	    "a grey row with the stream's hole at the bottom");
	ok(t->items[2][0] == AB_ITEM_SWAP, "the board and its items rose one row");
	is_int(m.nblocks, 1, "add_line used a block number");
	is_int(m.players[0].ninventory, 0, "the item is spent");

	/* clear_line on seat 1: row 0 goes, the L row (and its item) drops to
	 * row 0 with the item. */
	one_use(&m, AB_ITEM_CLEAR_LINE, 2, &ev);
	t = &m.players[1];
	ok(t->items[0][0] == AB_ITEM_SWAP && t->cells[0][0] == 7, "clear_line: the rest drops by one");

	/* nuke: every locked cell, items included (seat 1's own lock of this
	 * turn too: items act after every lock). */
	one_use(&m, AB_ITEM_NUKE, 2, &ev);
	t = &m.players[1];
	for (k = 0; k < AB_ROWS * AB_COLS; k++)
		if (t->cells[k / AB_COLS][k % AB_COLS] != AB_CELL_EMPTY)
			break;
	is_int(k, AB_ROWS * AB_COLS, "nuke empties the board");
	ok(t->has_piece, "and the seat plays on (its next piece spawned)");

	/* swap with seat 1: seat 0 gets seat 1's board (with its item). */
	one_use(&m, AB_ITEM_SWAP, 2, &ev);
	ok(m.players[0].items[1][0] == AB_ITEM_SWAP && m.players[0].cells[0][0] == AB_CELL_GREY,
	    "swap: the user has the target's board");
	ok(m.players[1].cells[0][0] != AB_CELL_GREY, "and the target the user's");
	/* swap on oneself does nothing. */
	one_use(&m, AB_ITEM_SWAP, 1, &ev);
	ok(m.players[0].items[1][0] != AB_ITEM_SWAP && m.players[1].items[1][0] == AB_ITEM_SWAP,
	    "swap on oneself: nothing moves");

	/* blind: 4 turns, counted down at the start of each turn. */
	one_use(&m, AB_ITEM_BLIND, 3, &ev);
	is_int(m.players[2].blind, 4, "blind on seat 2: 4 turns");
	memset(moves, 0, sizeof moves);
	moves[0] = mv_keys("D");
	moves[1] = mv_keys("D");
	moves[2] = mv_keys("D");
	ab_resolve(&m, moves, &ev, NULL, NULL, 0);
	is_int(m.players[2].blind, 3, "one turn later: 3");

	/* transform on seat 2: preview odd at once, each shape the odd stream's
	 * draw for its stream index; the next spawn is odd; 8 turns. */
	one_use(&m, AB_ITEM_TRANSFORM, 3, &ev);
	t = &m.players[2];
	is_int(t->transform, 8, "transform: 8 turns");
	ok(t->has_piece && t->cur.shape == ab_odd_roll(21, 2, t->drawn - 1) + 1,
	    "the piece spawned after the hit is odd (stream piece drawn - 1)");
	for (k = 0; k < AB_NEXT; k++)
		ok(t->next[k].shape == ab_odd_roll(21, 2, t->drawn + k) + 1,
		    "preview %u odd, from its stream index", k);
	for (k = 0; k < 8; k++) {
		moves[0] = mv_keys(k % 2 ? "LLLLD" : "RRRRD");
		moves[1] = mv_keys(k % 2 ? "RRRRD" : "LLLLD");
		moves[2] = mv_keys(k % 2 ? "LLLD" : "RRRD");
		ab_resolve(&m, moves, &ev, NULL, NULL, 0);
	}
	ok(t->alive && t->transform == 0, "after 8 turns the transformation is over");
	ok(t->next[0].shape == 0 && t->next[4].shape == 0 && t->hold.shape == 0,
	    "preview and hold are tetrominoes again");
}

static void
test_odd_items(void)
{
	/* A Dot keeps only the first of the piece's items (versus_odd_items). */
	is_int(versus_odd_items(0x6502, VERSUS_ODD_DOT), 0x2,
	    "Dot: minos 0..3 carry 2, 0, 5, 6; the Dot keeps the first, 2");
	is_int(versus_odd_items(0x6502, VERSUS_ODD_PLUS), 0x652, "Plus: 2, 5, 6 on minos 0-2");
}

int
main(void)
{
	test_rolls_and_collect();
	test_effects();
	test_odd_items();
	return tap_done();
}
