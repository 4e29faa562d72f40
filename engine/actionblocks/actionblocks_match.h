/*
 * actionblocks_match.h: the state of an actionblocks-v1 match and the
 * records its functions fill: constants, enums and fixed-size structs only
 * (no functions), so every module of the game can include it without
 * depending on another. actionblocks.h is the public header that gathers
 * the game; this one says what the numbers and fields mean.
 */
#ifndef ACTIONBLOCKS_MATCH_H
#define ACTIONBLOCKS_MATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bag.h"

#define AB_RULES "actionblocks-v1"
#define AB_PLAYERS_MIN 2
#define AB_PLAYERS_MAX 8
#define AB_COLS 10
#define AB_ROWS 40             /* 0..19 visible, 20..39 the hidden buffer */
#define AB_VISIBLE_ROWS 20
#define AB_NEXT 5              /* preview */
#define AB_KEYS_MAX 256        /* keys in one move */
#define AB_SEED_MAX UINT64_C(9007199254740991) /* 2^53 - 1 */
#define AB_LEVEL_MAX 15
#define AB_LINES_PER_LEVEL 10
#define AB_LOCK_RESETS 15      /* moves or rotations on the ground per lowest row */
#define AB_MISSED_MAX 3        /* missed turns in a row that take a seat out */
#define AB_SPAWN_TOP 21        /* the spawn box's top row */
#define AB_NO_PIECE 0xff       /* an empty hold slot; no active piece */
#define AB_NOBODY 0xff
/* The garbage queue has no cap in the rules. This one is far past what
 * can matter: 41 queued lines overflow any board at the next lock that
 * clears nothing, and every block holds at least one line, so a queue of
 * 128 blocks is a player who has cleared on every lock while others sent
 * more than 128 lines. A block sent to a full queue is lost (its hole is
 * still drawn, so the stream stays where the rules put it) and the
 * sender's events say so (sent_lost). */
#define AB_QUEUE_MAX 128
/* Largest attack: spin triple 6 + back-to-back 1 + combo 5 + perfect 10. */
#define AB_ATTACK_MAX 22

/* Cells of a board: 0 empty, 1..7 the tetromino (enum tetromino_piece + 1)
 * whose piece locked there (an odd shape locks with its tetromino's code),
 * AB_CELL_GREY for garbage. */
#define AB_CELL_EMPTY 0
#define AB_CELL_GREY 8
#define AB_GREY_LETTER 'G'

/* Pieces: enum tetromino_piece (0 I, 1 O, 2 T, 3 S, 4 Z, 5 J, 6 L, the
 * order of the unshuffled bag), under a shape: AB_SHAPE_PIECE (the
 * tetromino itself) or an odd shape + 1 (enum versus_odd: 1 Dot, 2 small
 * L, 3 U, 4 Plus, 5 W) laid over it by a Transformation. */
#define AB_SHAPE_PIECE 0
#define AB_ODD_KINDS 5
#define AB_CELLS_MAX 5         /* minos of the largest shape */

/* Items, as versus-v1's (same codes, same letters). */
#define AB_ITEM_KINDS 6
#define AB_ITEM_WEIGHT_MAX 100
#define AB_INVENTORY_MAX 10
#define AB_ITEM_CHARS "acnsbt"
#define AB_MINO_ITEM(bits, k) ((unsigned)(bits) >> (4 * (k)) & 15u)
#define AB_BLIND_TURNS 4
#define AB_TRANSFORM_TURNS 8

enum ab_item {
	AB_ITEM_NONE,
	AB_ITEM_ADD_LINE,   /* one grey row (hole from the garbage stream) at the bottom */
	AB_ITEM_CLEAR_LINE, /* the bottom row goes, its items with it */
	AB_ITEM_NUKE,       /* every locked cell goes */
	AB_ITEM_SWAP,       /* user and target exchange their locked cells */
	AB_ITEM_BLIND,      /* the target's locked cells hidden for a while */
	AB_ITEM_TRANSFORM,  /* the target's preview turns odd for a while */
};

/* Real time (AB_CLOCK_TICKS). */
#define AB_TICKS_PER_SECOND 60
#define AB_COUNTDOWN_TICKS 180     /* 3 s: no piece, inputs but targets ignored */
#define AB_LOCK_DELAY_TICKS 30     /* 0.5 s grounded */
#define AB_BLIND_TICKS 240         /* 4 s a Blackout */
#define AB_TRANSFORM_TICKS 480     /* 8 s a Transformation */
#define AB_GRAVITY_ONE 65536u      /* one row in the gravity accumulator's fixed point */
#define AB_SOFT_FACTOR 20

enum ab_clock {
	AB_CLOCK_TURNS,
	AB_CLOCK_TICKS,
};

enum ab_end {
	AB_END_NONE,
	AB_END_LOCK_OUT,     /* a piece locked with every cell in the buffer */
	AB_END_BLOCK_OUT,    /* a new piece spawned on a block */
	AB_END_OVERFLOW,     /* garbage (or add_line) pushed a filled cell above row 39 */
	AB_END_MISSED,       /* the third missed turn in a row (turns) */
	AB_END_RESIGNED,
	AB_END_NO_ROOM,      /* an item moved the board under the active piece (ticks) */
	AB_END_DISCONNECTED, /* ticks: the server says the stream stayed closed */
};

enum ab_spin {
	AB_SPIN_NONE,
	AB_SPIN_MINI,
	AB_SPIN_FULL,
};

/* A slot of the piece stream: the current piece, the hold, a preview
 * entry. */
struct ab_slot {
	uint8_t piece;  /* enum tetromino_piece, AB_NO_PIECE for an empty slot */
	uint8_t shape;  /* AB_SHAPE_PIECE or odd shape + 1 */
	uint16_t items; /* the tetromino's items, 4 bits a mino (AB_MINO_ITEM), minos
	                   in its spawn state's order: bottom row first, left to
	                   right; an odd shape carries them as versus_odd_items() maps */
};

/* One queued attack: rows of grey cells sharing one empty column. */
struct ab_block {
	uint8_t lines; /* 1..AB_ATTACK_MAX */
	uint8_t hole;  /* 0..9 */
};

/* The falling piece (meaningful while ab_player.has_piece). */
struct ab_active {
	int8_t x, y;       /* box top-left; y upwards */
	uint8_t rot;       /* 0 spawn, 1 right, 2 180, 3 left */
	int8_t lowest;     /* lowest box y reached since spawn */
	uint8_t resets;    /* lock resets used since the lowest row was reached, 0..15 */
	bool last_rot;     /* the last successful action was a rotation */
	bool last_kick5;   /* ... and it took the fifth test */
	/* Real time only (0 on the turn clock). */
	uint8_t lock_ticks; /* ticks grounded since the lock timer last started, 0..30 */
	bool soft;          /* soft drop held */
	uint32_t gravity;   /* fraction of a row fallen, AB_GRAVITY_ONE a row */
};

struct ab_player {
	uint8_t cells[AB_ROWS][AB_COLS]; /* [y][x], AB_CELL_* codes */
	uint8_t items[AB_ROWS][AB_COLS]; /* enum ab_item; NONE on every empty cell */
	bool has_piece;                  /* an active piece is falling */
	struct ab_slot cur;              /* the active piece, when has_piece */
	struct ab_active act;
	struct ab_slot hold;             /* piece AB_NO_PIECE when empty */
	bool hold_used;                  /* hold taken since the last lock */
	struct ab_slot next[AB_NEXT];    /* stream pieces drawn .. drawn + 4 */
	uint32_t drawn;                  /* stream pieces taken out of the preview */
	uint64_t score;
	uint32_t lines;
	uint8_t level;                   /* 1 + lines / 10, at most 15 */
	int32_t combo;                   /* -1 no streak, 0 first clear, ... */
	bool b2b;                        /* the last line clear was difficult */
	uint16_t nqueue;                 /* 0..AB_QUEUE_MAX */
	uint16_t pending;                /* lines queued */
	struct ab_block queue[AB_QUEUE_MAX]; /* oldest first */
	uint8_t ninventory;
	uint8_t inventory[AB_INVENTORY_MAX]; /* oldest first */
	uint32_t blind;                  /* turns (or ticks) the locked cells stay hidden */
	uint32_t transform;              /* turns (or ticks) the preview stays odd */
	bool alive;
	uint8_t place;                   /* 1..nplayers once decided, else 0 */
	uint8_t end;                     /* enum ab_end */
	uint8_t cursor;                  /* round-robin: the last seat sent to, itself at first */
	uint8_t missed;                  /* missed turns in a row */
	uint8_t target;                  /* ticks: the seat items go to (itself at first) */
	uint32_t out_at;                 /* turn or tick that took the seat out, 0 */
};

struct ab_match {
	uint64_t seed;      /* 0..AB_SEED_MAX */
	uint8_t clock;      /* enum ab_clock */
	uint8_t nplayers;   /* 2..8, match order 0..nplayers-1 */
	uint8_t nalive;
	bool over;          /* at most one seat alive */
	uint32_t turn;      /* turns resolved (turn clock) */
	uint32_t tick;      /* ticks run (tick clock); the countdown is ticks 0..179 */
	uint32_t nblocks;   /* garbage blocks sent (add_line included): next hole index */
	uint8_t item_chance; /* percent a mino, 0 no items */
	uint8_t item_weights[AB_ITEM_KINDS];
	/* Not state: the two bags of the piece stream drawn from last, kept
	 * so that a bag is shuffled once for every seat's seven pieces, not
	 * once a piece (a shuffle seeds a Mersenne Twister). The seats share
	 * the stream and draw it at about the same pace. Never encoded; no 0
	 * holds nothing. */
	struct ab_bag_cache {
		uint64_t seed;
		uint32_t no;                /* bag number + 1 */
		uint8_t pieces[BAG_SIZE];
	} bags[2];
	struct ab_player players[AB_PLAYERS_MAX];
};

/* ---- moves (turn clock) ---- */

enum ab_move_kind {
	AB_MOVE_NONE,   /* the seat is out (ignored) */
	AB_MOVE_MISSED, /* no move before the deadline (only the server sets it) */
	AB_MOVE_KEYS,   /* `keys LRXZSDC...` or the letters alone */
	AB_MOVE_RESIGN, /* `resign` */
};

struct ab_move {
	uint8_t kind;          /* enum ab_move_kind */
	uint16_t nkeys;        /* 0..AB_KEYS_MAX */
	uint32_t use;          /* `use T; ` first: 0 none, 1 the seat itself, 2.. others */
	char keys[AB_KEYS_MAX]; /* 'L','R','X','Z','S','D','C' */
};

enum ab_parse {
	AB_PARSE_OK,
	AB_PARSE_EMPTY,
	AB_PARSE_INVALID,
};

/* ---- events ---- */

enum ab_action {
	AB_ACT_NONE,      /* out before the turn */
	AB_ACT_KEYS,      /* played its keys */
	AB_ACT_DROPPED,   /* missed: a hard drop from spawn */
	AB_ACT_TIMED_OUT, /* the third missed turn in a row */
	AB_ACT_RESIGNED,
};

/* What one lock did. */
struct ab_lock_events {
	uint8_t seat;
	uint8_t piece, shape;  /* the slot that locked */
	uint8_t lines;         /* rows cleared, 0..4 */
	uint8_t spin;          /* enum ab_spin */
	bool b2b;              /* difficult after difficult */
	bool perfect;          /* the board was empty after the clear */
	int32_t combo;         /* the counter after the lock */
	uint64_t points;       /* the lock's points (level applied), drops apart */
	uint8_t attack;        /* lines worth before cancelling */
	uint8_t cancelled;     /* of those, taken off the seat's own queue */
	uint8_t sent;          /* attack - cancelled */
	uint8_t target;        /* AB_NOBODY when nothing was sent */
	uint8_t hole;          /* the block's hole */
	bool sent_lost;        /* the target's queue was full */
	uint8_t collected;     /* items out of the cleared rows */
	uint8_t discarded;     /* of those, lost to a full inventory */
	bool lock_out;
};

struct ab_seat_events {
	uint8_t action;        /* enum ab_action */
	bool locked;           /* lock is meaningful */
	struct ab_lock_events lock;
	uint32_t drop_points;  /* soft and hard drop points of the move */
	uint8_t used;          /* enum ab_item used, NONE if none */
	uint8_t used_on;       /* the seat it hit */
	uint8_t received;      /* blocks queued for this seat this turn */
	uint8_t nrisen;        /* blocks that rose into the board */
	uint16_t risen_lines;
	bool eliminated;
	uint8_t end;           /* enum ab_end when eliminated */
	uint8_t place;         /* when eliminated, or the winner's 1 */
};

struct ab_events {
	uint32_t turn;         /* turn resolved, 1 for the first */
	uint8_t nplayers;
	uint8_t neliminated;
	bool over;
	struct ab_seat_events seats[AB_PLAYERS_MAX];
};

enum ab_outcome {
	AB_OK,
	AB_REFUSED,    /* a move was refused; nothing changed */
	AB_MATCH_OVER, /* nothing to resolve */
	AB_WRONG_CLOCK,
};

/* ---- real time (tick clock) ---- */

enum ab_input_kind {
	AB_IN_KEY,        /* key: 'L','R','X','Z','D','C' (one action each) */
	AB_IN_SOFT_DOWN,  /* soft drop pressed: falls at the soft rate until released */
	AB_IN_SOFT_UP,
	AB_IN_USE,        /* use the oldest item on the selected target */
	AB_IN_TARGET,     /* arg 1 = itself, 2.. the others in match order */
	AB_IN_DISCONNECT, /* the server saw the stream closed for 2 s */
};

struct ab_input {
	uint32_t tick;    /* the tick it is applied at (ab_replay_ticks; ab_tick ignores it) */
	uint8_t seat;
	uint8_t kind;     /* enum ab_input_kind */
	uint8_t arg;      /* AB_IN_KEY: the letter; AB_IN_TARGET: the seat number */
};

/* Locks a tick can report; more locks in one tick (a bot hard-dropping
 * many times in one tick) still happen, and only the count says so. */
#define AB_TICK_LOCKS_MAX 32

struct ab_tick_events {
	uint32_t tick;          /* the tick run */
	uint8_t nlocks;         /* locks recorded in locks[] */
	uint32_t nlocks_all;    /* every lock of the tick */
	struct ab_lock_events locks[AB_TICK_LOCKS_MAX];
	uint32_t drop_points[AB_PLAYERS_MAX];
	uint8_t neliminated;
	bool eliminated[AB_PLAYERS_MAX];
	bool over;
};

/* ---- views ---- */

/* Everything the trace prints about one seat, as text and numbers. */
struct ab_view {
	char board[AB_ROWS][AB_COLS + 1];  /* [y], '.' empty, IOTSZJL, 'G' grey (blind not applied) */
	char items[AB_ROWS][AB_COLS + 1];  /* [y], '.' or AB_ITEM_CHARS */
	char piece;                        /* the active slot's letter (odd: DCUXW), 0 none */
	int x, y, r;
	char hold;                         /* 0 when empty */
	char next[AB_NEXT];
	uint64_t score;
	uint32_t lines, level;
	int32_t combo;
	bool b2b;
	uint16_t nqueue;
	const struct ab_block *queue;      /* borrowed from the match */
	char inventory[AB_INVENTORY_MAX + 1];
	bool alive;
	unsigned place;
	const char *end;                   /* ab_end_name() */
	uint32_t blind, transform;
	unsigned missed;
};

#endif
