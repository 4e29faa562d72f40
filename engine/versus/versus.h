/*
 * versus.h: versus matches, 2 to 8 bots playing Stackfall side by side in
 * simultaneous turns and sending each other garbage (rules "versus-v1";
 * docs/rules/versus.md is the rule text).
 *
 * A match is one plain fixed-size struct, copyable by value. Nothing here
 * allocates, reads a clock or keeps global state: the server collects one
 * move per living player (or records that the deadline passed), then calls
 * versus_resolve() once for the whole turn. Given the seed and every turn's
 * moves, a match replays exactly.
 *
 * Each player plays Stackfall's own rules on its own board (placement, hold,
 * 3-piece preview, scoring, levels, combos, back-to-back, perfect clears, no
 * piece limit), all on the same piece stream (bag.h, one seed per match).
 * A turn resolves in this fixed order (versus_resolve):
 *   1. moves, in match order: resignations and third missed turns take the
 *      player out; otherwise a hold if asked, then the placement (a missed
 *      turn drops the current piece at rotation 0 from its spawn column;
 *      when that drop does not fit, the player is out: top_out), its
 *      clears and its points;
 *   1a. Transformations count down (matches with items; at 0 the preview
 *       and the hold change back);
 *   1b. item uses (matches with items), users in match order;
 *   2. attacks: lines from a clear's size, back-to-back, combo and perfect
 *      clear (versus_attack); each attack first cancels the sender's own
 *      queued garbage, oldest lines first;
 *   3. sending, senders in match order: what is left goes as one block to
 *      the sender's next target (round-robin over the opponents alive when
 *      the turn began, one cursor per sender), with a hole column drawn from
 *      the garbage stream (versus_garbage_hole) as it is sent;
 *   4. rising: a player whose placement this turn cleared nothing takes the
 *      blocks that were queued before this turn's sending, oldest first,
 *      each entering at the bottom and pushing the board up; blocks sent
 *      this turn wait for the receiver's next placement;
 *   5. eliminations: resigned, missed three times, spawn drop without room,
 *      garbage pushed a filled cell above row 20 (overflow), or neither the
 *      current piece nor the piece a hold would give fits anywhere (top_out).
 *      Everyone out in the same turn shares place n + 1, n being the players
 *      still alive after it; the match is over when at most one is alive,
 *      and a last survivor takes place 1.
 *
 * Grey cells. struct tetromino_board keeps a 3-bit letter per cell whose 8
 * codes are all taken (empty and seven pieces), so a grey garbage cell is an
 * occupied bit in rows[] whose letter code in cells[] is 0. tetromino.c's
 * drop, clears, options and figures read only rows[] and move cells[] with
 * them, so they treat grey cells as the filled cells they are;
 * tetromino_board_get() and tetromino_board_text() would show them as empty,
 * which is why versus_board_text() exists. A versus board is therefore not
 * a Stackfall board: never hand it to stackfall_encode().
 *
 * Secrets during a match: the seed (it gives every future piece and hole),
 * each player's preview (its own only; versus_view hides the others') and
 * the hole columns of queued blocks (visible once they rise). The events of
 * a turn carry the holes of the blocks sent in it, for replays and tests:
 * the server must not show them to players before the match ends.
 *
 * Items (ActionBlocks'), on when a match's item_chance is above 0: a
 * per-cell item plane beside each board (items ride with their rows like
 * the letters: clears, rises, clear_line and swaps move it too), 4-bit item
 * codes per mino on the current, held and preview pieces, a FIFO inventory
 * of at most 10, and step 1b between 1 (collecting items from cleared rows)
 * and 2: item uses in match order, each the user's oldest item on the seat
 * `use T` names. The rolls have their own stream, one per player and
 * stream index (versus_item_roll), so the garbage holes stay as they are;
 * add_line draws its hole as a garbage block. Transformation lays an
 * overlay on the target's preview (and on what enters it for as long as its
 * counter runs): each slot's *_shape names the odd shape (versus_odd.h) the
 * piece shows and is placed as, drawn from the player's own odd stream;
 * the tetromino and its items stay underneath, so a slot changes back by
 * clearing its shape. A match without items plays exactly as before.
 */
#ifndef VERSUS_H
#define VERSUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine.h"
#include "tetromino.h"

#define VERSUS_RULES "versus-v1"
#define VERSUS_PLAYERS_MIN 2
#define VERSUS_PLAYERS_MAX 8
#define VERSUS_NEXT 3
#define VERSUS_NO_PIECE 7         /* an empty hold slot, a hidden preview entry */
#define VERSUS_NOBODY 0xff        /* no target */
#define VERSUS_MISSED_MAX 3       /* missed turns in a row that take a player out */
/* Blocks a garbage queue holds. A block that arrives at a full queue is lost
 * (reported in the sender's events as sent_lost); its hole is still drawn.
 * Reaching it takes many turns of clearing without cancelling while others
 * attack, and 21 queued lines already overflow any board on the next
 * placement that clears nothing. */
#define VERSUS_QUEUE_MAX 32
#define VERSUS_ATTACK_MAX 20      /* 4 lines + back-to-back 1 + combo 5 + perfect 10 */
#define VERSUS_SEED_MAX UINT64_C(9007199254740991) /* 2^53 - 1, as Stackfall */
#define VERSUS_TEXT_SIZE TETROMINO_TEXT_SIZE
#define VERSUS_GREY_LETTER 'G'    /* a garbage cell in versus_board_text() */

/* Items (docs/rules/versus.md, "Items"). A match has them when its
 * item_chance is above 0 (versus_set_items()); a match without them plays,
 * encodes and replays exactly as before items existed. */
#define VERSUS_ITEM_KINDS 6
#define VERSUS_ITEM_CHANCE_DEFAULT 10 /* percent a mino */
#define VERSUS_ITEM_WEIGHT_MAX 100
#define VERSUS_INVENTORY_MAX 10
#define VERSUS_BLIND_TURNS 4      /* each Blackout adds these */
#define VERSUS_TRANSFORM_TURNS 8  /* each Transformation adds these */
#define VERSUS_SHAPE_PIECE 0      /* a *_shape slot: the tetromino itself; else odd + 1 */
#define VERSUS_ITEM_CHARS "acnsbt" /* a cell's item in versus_view.items_text */
#define VERSUS_MINO_ITEMS(bits, k) ((unsigned)(bits) >> (4 * (k)) & 15u)

enum versus_item {
	VERSUS_ITEM_NONE,
	VERSUS_ITEM_ADD_LINE,   /* one grey row (hole from the garbage stream) at the bottom */
	VERSUS_ITEM_CLEAR_LINE, /* the bottom row goes, its items with it */
	VERSUS_ITEM_NUKE,       /* every locked cell goes */
	VERSUS_ITEM_SWAP,       /* user and target exchange their locked cells */
	VERSUS_ITEM_BLIND,      /* the target's locked cells hidden for 4 more turns */
	VERSUS_ITEM_TRANSFORM,  /* the target's preview turns odd for 8 more turns */
};

/* A move as sent. The engine reads rotation and column as sent so that its
 * refusal can name them; versus_check_move() range-checks them. */
enum versus_move_kind {
	VERSUS_MOVE_MISSED, /* no move before the deadline (only the server sets it) */
	VERSUS_MOVE_PLACE,  /* `place R C`, `R C`, or `hold; place R C` */
	VERSUS_MOVE_RESIGN, /* `resign` */
};

struct versus_move {
	uint8_t kind;      /* enum versus_move_kind */
	bool hold;         /* PLACE: hold first, then place the piece hold gave */
	uint32_t rotation; /* PLACE: 0..3 to be legal */
	uint32_t column;   /* PLACE: 0..9 and inside the rotation's range */
	uint32_t use;      /* PLACE: `use T` first: 0 none, 1 the player itself, 2.. the
	                      other seats in match order */
};

/* Why a player left the match. */
enum versus_end {
	VERSUS_END_NONE,     /* still playing */
	VERSUS_END_TOP_OUT,  /* no room for the current nor the hold piece, or for a
	                        missed turn's spawn drop */
	VERSUS_END_OVERFLOW, /* rising garbage pushed a filled cell above row 20 */
	VERSUS_END_MISSED,   /* the third missed turn in a row */
	VERSUS_END_RESIGNED,
};

/* One queued attack: rows of grey cells sharing one empty column. */
struct versus_block {
	uint8_t lines; /* 1..VERSUS_ATTACK_MAX */
	uint8_t hole;  /* column 0..9 */
};

struct versus_player {
	struct tetromino_board board; /* grey cells: rows[] bit set, cells[] code 0 */
	uint64_t score;               /* Stackfall's points, no cap */
	uint32_t lines;               /* rows cleared */
	uint32_t level;               /* 1 + lines / 10 */
	uint32_t placed;              /* pieces placed, missed-turn drops included */
	uint32_t drawn;               /* stream pieces taken: placed + 1 + (hold slot used) */
	int32_t combo;                /* -1 when the last placement cleared nothing */
	uint32_t out_turn;            /* the turn (1, 2, ...) that took the player out; 0 */
	uint32_t bag_number;          /* cached bag holding stream piece drawn + 2 */
	uint8_t bag[7];
	uint8_t current;              /* enum tetromino_piece */
	uint8_t hold;                 /* enum tetromino_piece or VERSUS_NO_PIECE */
	uint8_t next[VERSUS_NEXT];    /* stream pieces drawn .. drawn + 2 */
	bool back_to_back;            /* the last clear was a Tetris */
	bool alive;
	uint8_t missed;               /* missed turns in a row, 0..2 while alive */
	uint8_t place;                /* 1..nplayers once decided, else 0 */
	uint8_t end_reason;           /* enum versus_end */
	uint8_t cursor;               /* the last player this one sent to; itself at first */
	uint8_t nqueue;               /* blocks queued, 0..VERSUS_QUEUE_MAX */
	uint16_t pending;             /* sum of the queued blocks' lines */
	struct versus_block queue[VERSUS_QUEUE_MAX]; /* oldest first */
	/* Items: enum versus_item per cell, NONE on every empty cell; pieces
	 * carry one 4-bit item code a mino (VERSUS_MINO_ITEMS), minos counted
	 * bottom row first, left to right, in the rotation placed. */
	uint8_t items[TETROMINO_ROWS][TETROMINO_COLS];
	uint16_t current_items, hold_items, next_items[VERSUS_NEXT];
	uint8_t ninventory;           /* 0..VERSUS_INVENTORY_MAX */
	uint8_t inventory[VERSUS_INVENTORY_MAX]; /* oldest first */
	uint8_t blind;                /* turns the locked cells stay hidden */
	/* Transformation: turns left (0 none), and per slot VERSUS_SHAPE_PIECE
	 * or an odd shape + 1 laid over the slot's tetromino. Only a match with
	 * items has them. */
	uint8_t transform;
	uint8_t current_shape, hold_shape, next_shape[VERSUS_NEXT];
};

struct versus_match {
	uint64_t seed;     /* 0..VERSUS_SEED_MAX */
	uint32_t turn;     /* turns resolved so far */
	uint32_t nblocks;  /* blocks sent so far: the garbage stream's next index */
	uint8_t nplayers;  /* 2..8, in match order 0..nplayers-1 */
	uint8_t nalive;
	bool over;         /* at most one player alive */
	uint8_t item_chance; /* percent a mino carries an item, 0..100; 0 no items */
	uint8_t item_weights[VERSUS_ITEM_KINDS]; /* enum versus_item - 1; shares */
	struct versus_player players[VERSUS_PLAYERS_MAX];
};

/* What one player did in a resolved turn. */
enum versus_action {
	VERSUS_ACT_NONE,      /* was already out */
	VERSUS_ACT_PLACED,    /* placed as sent (held first when held is set) */
	VERSUS_ACT_DROPPED,   /* missed: the spawn drop was placed */
	VERSUS_ACT_NO_ROOM,   /* missed: the spawn drop did not fit (out: top_out) */
	VERSUS_ACT_TIMED_OUT, /* the third missed turn in a row (out: missed) */
	VERSUS_ACT_RESIGNED,
};

struct versus_player_events {
	uint8_t action;        /* enum versus_action */
	bool held;             /* PLACED after a hold */
	uint8_t piece;         /* PLACED, DROPPED: the piece placed (under its shape) */
	uint8_t shape;         /* PLACED, DROPPED: VERSUS_SHAPE_PIECE or odd shape + 1 */
	uint8_t rotation;      /* PLACED, DROPPED */
	uint8_t column;        /* PLACED, DROPPED */
	uint8_t lines;         /* rows cleared, 0..4 */
	bool back_to_back;     /* a Tetris after a Tetris */
	bool perfect_clear;    /* the board was empty after the clear */
	int32_t combo;         /* the counter after this placement */
	uint64_t points;
	uint8_t attack;        /* lines the clear is worth, 0..VERSUS_ATTACK_MAX */
	uint8_t cancelled;     /* of those, removed from the player's own queue */
	uint8_t sent;          /* attack - cancelled */
	uint8_t target;        /* who they went to, VERSUS_NOBODY when sent is 0 */
	uint8_t sent_hole;     /* the block's hole column (secret: see above) */
	bool sent_lost;        /* the target's queue was full: the block is lost */
	uint8_t received;      /* blocks queued for this player this turn */
	uint8_t nrisen;        /* blocks that rose into this board, oldest first */
	uint16_t risen_lines;  /* their lines together */
	struct versus_block risen[VERSUS_QUEUE_MAX];
	bool eliminated;       /* out in this turn */
	uint8_t end_reason;    /* enum versus_end when eliminated */
	uint8_t place;         /* when eliminated, or the winner's 1 */
	uint8_t collected;     /* items taken from the rows this placement cleared */
	uint8_t discarded;     /* of those, lost to a full inventory */
	uint8_t used;          /* enum versus_item used this turn, NONE when the
	                          inventory was empty or no use was asked */
	uint8_t used_on;       /* the player it hit (secret: who used it is) */
};

/* A hit as everybody may see it: who was hit and by what, never by whom. */
struct versus_hit {
	uint8_t target;
	uint8_t item;
};

struct versus_events {
	uint32_t turn;         /* the turn resolved, 1 for the first */
	uint8_t nplayers;
	uint8_t neliminated;   /* players out in this turn */
	bool over;             /* the match ended with this turn */
	struct versus_player_events players[VERSUS_PLAYERS_MAX];
	bool items;            /* the match has items */
	uint8_t nhits;         /* items used this turn, in the order they acted */
	struct versus_hit hits[VERSUS_PLAYERS_MAX];
};

/* What versus_resolve() answers. */
enum versus_outcome {
	VERSUS_OK,
	VERSUS_REFUSED,    /* an illegal move; nothing changed */
	VERSUS_MATCH_OVER, /* nothing to resolve; nothing changed */
};

/* What a player or a spectator may see of one player (versus_view). */
struct versus_view {
	char board_text[VERSUS_TEXT_SIZE]; /* versus_board_text() */
	uint8_t current;              /* enum tetromino_piece */
	uint8_t hold;                 /* or VERSUS_NO_PIECE */
	uint8_t next[VERSUS_NEXT];    /* VERSUS_NO_PIECE unless next_visible */
	bool next_visible;            /* the viewer is this player */
	uint64_t score;
	uint32_t lines, level;
	int32_t combo;
	bool back_to_back;
	uint16_t pending;             /* queued lines; the holes stay secret */
	uint8_t missed;               /* missed turns in a row */
	bool alive;
	uint8_t place;                /* 0 while undecided */
	uint8_t end_reason;           /* enum versus_end */
	/* Items: all '.' (and board_text empty) while the board is blind. */
	char items_text[VERSUS_TEXT_SIZE]; /* VERSUS_ITEM_CHARS on item cells, '.' else */
	uint8_t blind;                /* turns left */
	uint8_t transform;            /* turns left */
	uint8_t current_shape, hold_shape, next_shape[VERSUS_NEXT]; /* next: as next */
	uint16_t current_items, hold_items, next_items[VERSUS_NEXT]; /* next: as next */
	uint8_t ninventory;
	uint8_t inventory[VERSUS_INVENTORY_MAX];
};

/* Starts a match of nplayers (2..8) on seed (0..VERSUS_SEED_MAX): empty
 * boards, the stream's first piece current and the next three in preview
 * for everyone. Returns false (m unchanged) when either is out of range. */
bool versus_init(struct versus_match *m, uint64_t seed, unsigned nplayers);

/* Turns items on for a match versus_init() has just started (turn 0):
 * chance percent a mino (1..100; 0 leaves items off), weights[] the share
 * of each enum versus_item - 1 (0..VERSUS_ITEM_WEIGHT_MAX, at least one
 * above 0). Rolls the items of every player's current and preview pieces.
 * False, m unchanged, when out of range or the match has begun. */
bool versus_set_items(struct versus_match *m, unsigned chance,
    const uint8_t weights[VERSUS_ITEM_KINDS]);

/* The items of stream piece index (0, 1, ...) for player in m: for each of
 * its 4 minos in order, a first random() of Python's
 * random.Random("versus-v1:{seed}:items:{player}:{index}") below
 * chance / 100 gives it an item, int(random() * sum of weights) picking
 * which (cumulative shares in enum order). 0 when items are off. */
uint16_t versus_item_roll(const struct versus_match *m, unsigned player, uint32_t index);

/* "add_line", "clear_line", "nuke", "swap", "blind", "transform"; NULL for
 * NONE or out of range. */
const char *versus_item_name(unsigned item);

/* The player seat `use T` names for user, or VERSUS_NOBODY when T is 0 or
 * beyond the match's seats. */
unsigned versus_use_target(const struct versus_match *m, unsigned user, unsigned seat);

/* Reads a move as a bot sends it: `place R C`, `R C`, `hold; place R C`
 * (`hold` and the placement may also be separated by a new line) or
 * `resign`, with Stackfall's command syntax (stackfall_cmd.h: case,
 * blanks, numbers). text is borrowed. Anything else is refused with a
 * reason (mv undefined then); EMPTY when there is no command at all. Ranges
 * and room are versus_check_move()'s business. */
enum versus_parse {
	VERSUS_PARSE_OK,
	VERSUS_PARSE_EMPTY,
	VERSUS_PARSE_INVALID,
};
/* A placement may begin with `use T; ` (T an unsigned decimal). */
enum versus_parse versus_move_parse(const char *text, size_t len, struct versus_move *mv,
    char *reason, size_t cap);

/* The canonical text of a move: "place R C", "hold; place R C", "resign"
 * or "missed". Writes at most cap - 1 characters and a NUL when cap > 0;
 * returns the full length, like snprintf. */
size_t versus_move_text(const struct versus_move *mv, char *buf, size_t cap);

/* Whether player (0..nplayers-1) may send mv now: the match is not over, the
 * player is alive, mv is PLACE or RESIGN, and a placement is in range and
 * fits the player's board with the piece it names (the held piece, or the
 * next one when the slot is empty, after a hold). Changes nothing. Because
 * every board changes only when the turn resolves, a move accepted here is
 * accepted by versus_resolve() in the same turn. On refusal writes a reason
 * into reason[0..cap) (reason may be NULL). Whether the player already
 * moved this turn is the server's to know. */
bool versus_check_move(const struct versus_match *m, unsigned player,
    const struct versus_move *mv, char *reason, size_t cap);

/* Resolves one turn. moves[0..nplayers) holds one move per player in match
 * order (entries of players already out are ignored; MISSED for a living
 * player whose deadline passed). Every living player's move is checked
 * first: on the first one versus_check_move() refuses, nothing changes,
 * *bad_player (may be NULL) names it, reason says why and the answer is
 * VERSUS_REFUSED. Otherwise the turn runs in the order of the file header,
 * ev (may be NULL) receives everything that happened, and the answer is
 * VERSUS_OK. */
enum versus_outcome versus_resolve(struct versus_match *m, const struct versus_move *moves,
    struct versus_events *ev, unsigned *bad_player, char *reason, size_t cap);

/* Lines a placement that cleared lines (0..4) sends before cancelling:
 * 0/0/1/2/4 for 0..4 lines, +1 for a back-to-back Tetris, the combo bonus
 * for the counter after the placement (0, 0, 1, 1, 1, 2, 2, 3, 3, 4, 4, 4,
 * 5 for 0..12, 5 above) and +10 for a perfect clear; 0 when lines is 0. */
unsigned versus_attack(unsigned lines, int combo, bool back_to_back, bool perfect);

/* The hole column (0..9) of the block number k (0, 1, ... over the whole
 * match, in sending order) of a match on seed: int(random() * 10) for the
 * first random() of Python's random.Random("versus-v1:{seed}:garbage:{k}"),
 * seed and k in decimal. One SHA-512 and one generator seeding per call. */
unsigned versus_garbage_hole(uint64_t seed, uint32_t k);

/* The match's other seeded streams (garbage holes, item rolls, odd
 * shapes) are seeded by versus_stream_seed (versus_stream.h). */

/* The piece a hold would bring now: the held piece, or the next one when the
 * slot is empty. */
unsigned versus_hold_piece(const struct versus_player *p);

/* The shape slot that goes with versus_hold_piece(): VERSUS_SHAPE_PIECE or
 * an odd shape + 1. */
unsigned versus_hold_shape(const struct versus_player *p);

/* Placements of a slot, a tetromino piece under shape (VERSUS_SHAPE_PIECE:
 * the piece's own rotations; else odd shape + 1, versus_odd.h): the last
 * legal column of rotation (0..3), whether rotation and column drop inside
 * the 20 rows of b, and whether any placement does. */
unsigned versus_slot_max_column(unsigned piece, unsigned shape, unsigned rotation);
bool versus_slot_fits(const struct tetromino_board *b, unsigned piece, unsigned shape,
    unsigned rotation, unsigned column);
bool versus_slot_can_place(const struct tetromino_board *b, unsigned piece, unsigned shape);

/* The one-letter name of a slot: the tetromino's letter, or the odd
 * shape's (VERSUS_ODD_LETTERS). */
char versus_slot_letter(unsigned piece, unsigned shape);

/* The board as 20 lines of 10 characters, top row first, '.' empty,
 * VERSUS_GREY_LETTER for garbage, the piece letter otherwise. */
void versus_board_text(const struct versus_player *p, char out[VERSUS_TEXT_SIZE]);

/* What viewer sees of player: everything in struct versus_view, the preview
 * only when viewer == player. A spectator passes viewer = VERSUS_NOBODY and
 * sees what an opponent sees. player must be < nplayers. */
void versus_view(const struct versus_match *m, unsigned viewer, unsigned player,
    struct versus_view *out);

/*
 * The match's bytes (versus_serial.c), for a store that keeps a match's
 * state in its row and must not replay every earlier turn to read it.
 * Little-endian, version VERSUS_SERIAL_VERSION:
 *   header  version 1, seed 7, turn 4, nblocks 4, nplayers 1       17 bytes
 *   player  score 8, lines 4, placed 4, combo 4 (two's complement),
 *           out_turn 4, current 1, hold 1, flags 1 (bit 0 alive,
 *           bit 1 back_to_back), missed 1, place 1, end_reason 1,
 *           cursor 1, nqueue 1, then nqueue blocks of (lines 1,
 *           hole 1), then nrows 1 and nrows rows of 5 bytes (bits
 *           0-29 the row's letter codes as in struct tetromino_board,
 *           bits 30-39 its occupancy, so a grey cell is an occupied
 *           bit with letter code 0)                        33 + 2q + 5r
 *   trailer CRC-32 (IEEE 802.3, as zlib's crc32) of all the bytes
 *           before it                                                4
 * A match with items (item_chance > 0) is written as version
 * VERSUS_SERIAL_VERSION_ITEMS: the header adds item_chance 1 and
 * item_weights 6; each player, after its rows, adds blind 1, ninventory 1,
 * the inventory (1 byte an item), current_items 2, hold_items 2, and for
 * each of its nrows rows 5 bytes of item codes (4 bits a column, column 0
 * lowest). A match without items keeps version 1, byte for byte.
 * A match with items in which some player has a Transformation running or
 * an odd shape on a slot is written as VERSUS_SERIAL_VERSION_TRANSFORM:
 * version 2's bytes, each player adding after its item rows transform 1
 * and the shapes of current, hold and next[0..2], 1 byte each (0 the
 * tetromino, 1..5 odd shape + 1). Other item matches keep version 2.
 * A player's board is written up to its highest non-empty row (nrows
 * 0..20). What follows from the rest is not written: level, drawn,
 * pending, nalive, over, the preview and the bag cache.
 */
#define VERSUS_SERIAL_VERSION 1
#define VERSUS_SERIAL_VERSION_ITEMS 2
#define VERSUS_SERIAL_VERSION_TRANSFORM 3
#define VERSUS_SERIAL_TRANSFORM_PLAYER 6 /* transform 1, five shape bytes */
/* 2580 bytes: STORE_MATCH_STATE_MAX (3072) still holds it. */
#define VERSUS_SERIAL_MAX (17 + 7 + VERSUS_PLAYERS_MAX * (33 + 2 * VERSUS_QUEUE_MAX + \
    5 * TETROMINO_ROWS + 6 + VERSUS_INVENTORY_MAX + 5 * TETROMINO_ROWS + \
    VERSUS_SERIAL_TRANSFORM_PLAYER) + 4)

/* Writes m into buf when cap is large enough and returns the length
 * (VERSUS_SERIAL_MAX at most); when cap is too small writes nothing and
 * returns the length it would need. m must be a state that versus_init()
 * and versus_resolve() can reach. */
size_t versus_encode(const struct versus_match *m, uint8_t *buf, size_t cap);

/* Reads bytes written by versus_encode(): false, m unchanged, unless the
 * version, the length and the CRC are right and the state keeps every
 * invariant of versus.c's header that bytes can show (among them: no full
 * row, filled rows a block from the floor, a grey row exactly nine grey
 * cells, level from lines, score a multiple of 50, a living player placed
 * once a turn and able to move, a player out with an empty queue and the
 * place its turn of leaving gives it, nalive and over from the alive
 * flags). On success *m is the state that was encoded in every field that
 * means something (queue entries past nqueue, which the engine leaves as
 * they were, come back zero), so encoding it again gives the same bytes. */
bool versus_decode(struct versus_match *m, const uint8_t *buf, size_t len);

/* "top_out", "overflow", "missed", "resigned"; NULL for NONE. */
const char *versus_end_name(unsigned end_reason);

/* "none", "placed", "dropped", "no_room", "timed_out", "resigned". */
const char *versus_action_name(unsigned action);

#endif
