/*
 * actionblocks_rules.h: the rule functions both clocks share
 * (actionblocks_rules.c), with the names, streams and score tables that
 * actionblocks.h passes on to its users.
 *
 * The turn clock (actionblocks.c's ab_resolve) and the tick clock
 * (actionblocks_tick.c) differ only in when things happen; what a key does,
 * what a lock scores, how garbage is sent and rises, what an item does and
 * how a piece spawns are these functions, so the two clocks cannot drift.
 */
#ifndef ACTIONBLOCKS_RULES_H
#define ACTIONBLOCKS_RULES_H

#include "actionblocks_kicks.h"
#include "actionblocks_match.h"
#include "actionblocks_piece.h"
#include "tetromino.h"
#include "versus_odd.h"

/* ---- names, streams, points (public: actionblocks.h includes this) ---- */

/* "none", "lock_out", "block_out", "overflow", "missed", "resigned",
 * "no_room", "disconnected"; "none" out of range. */
const char *ab_end_name(unsigned end);
/* "none", "mini", "full". */
const char *ab_spin_name(unsigned spin);
/* The letter of a slot: the tetromino's, or its odd shape's (DCUXW). */
char ab_slot_letter(const struct ab_slot *s);

/* The streams, "actionblocks-v1:{seed}:...": the hole of garbage block k
 * (int(random() * 10)), the items of stream piece index of seat (per mino
 * of the spawn state: random() * 100 < chance, then int(random() * sum of
 * weights) over the cumulative weights), the odd shape a transformed
 * stream piece becomes (int(random() * 5)), and stream piece i (7-bags,
 * bag b shuffled with random.Random("actionblocks-v1:{seed}:{b}")). */
unsigned ab_garbage_hole(uint64_t seed, uint32_t k);
uint16_t ab_item_roll(const struct ab_match *m, unsigned seat, uint32_t index);
unsigned ab_odd_roll(uint64_t seed, unsigned seat, uint32_t index);
unsigned ab_stream_piece(uint64_t seed, uint32_t i);
/* The same piece of m's stream, through m's bag cache (struct ab_match):
 * what the engine calls, a shuffle a bag rather than a piece. */
unsigned ab_match_piece(struct ab_match *m, uint32_t i);

/* Attack and points of a lock, from its facts (exported for tests):
 * lines 0..4, spin, b2b, combo after the lock, perfect, level before. */
unsigned ab_attack(unsigned lines, unsigned spin, bool b2b, int combo, bool perfect);
uint64_t ab_points(unsigned lines, unsigned spin, bool b2b, int combo, unsigned level);

/* The slot of stream piece index entering seat's preview now: odd while a
 * Transformation runs. */
struct ab_slot ab_entering(struct ab_match *m, unsigned seat, uint32_t index);

/* ---- the rules ---- */

/* Whether slot s at (x, y, rot) lies inside the board on empty cells. */
bool ab_fits(const struct ab_player *p, const struct ab_slot *s, int x, int y, unsigned rot);

/* Whether the active piece rests on something (it cannot move down). */
bool ab_grounded(const struct ab_player *p);

enum ab_key_result {
	AB_KEY_NOTHING,   /* the key could not act */
	AB_KEY_DONE,      /* it acted; the piece still falls */
	AB_KEY_LOCK,      /* the piece must lock now (hard drop or spent resets) */
	AB_KEY_BLOCK_OUT, /* a hold spawned its piece onto a block: the seat is out */
};

/* Plays one key ('L','R','X','Z','S','D','C') on seat's active piece:
 * moves, rotations with kicks, soft and hard drop (their points into
 * *drop_points and the score), hold, the lock-reset count and the "last
 * action was a rotation" flags. It never locks: AB_KEY_LOCK says the
 * caller must call ab_lock() now. */
enum ab_key_result ab_key(struct ab_match *m, unsigned seat, char key, uint32_t *drop_points);

/* After a move of the active piece to a lower row or a grounded move: the
 * lowest row and the resets, and whether spent resets lock it now. */
bool ab_reset_lock_due(const struct ab_player *p);

/* Moves the active piece down one row if it can (a gravity or soft-drop
 * step); false when grounded. Clears the rotation flag and restarts the
 * resets (and the lock timer) at a new lowest row. */
bool ab_step_down(struct ab_player *p);

/* Locks seat's active piece: spin check, lock out, clears (items to the
 * inventory), combo, back-to-back, perfect clear, points at the level
 * before, attack (e->attack). Fills e (seat, piece ... lock_out); sending
 * is ab_cancel_and_send's. The seat has no piece afterwards; a lock out
 * marks nothing: e->lock_out tells the caller. */
void ab_lock(struct ab_match *m, unsigned seat, struct ab_lock_events *e);

/* Spawns seat's next piece from its preview (or slot, when from is given:
 * the hold's piece). False on a block out (nothing placed; the piece was
 * taken). */
bool ab_spawn_next(struct ab_match *m, unsigned seat);
bool ab_spawn_slot(struct ab_match *m, unsigned seat, struct ab_slot slot);

/* Cancels e->attack against the seat's own queue, oldest first; fills
 * e->cancelled and e->sent. */
void ab_cancel(struct ab_player *p, struct ab_lock_events *e);

/* Sends e->sent as one block to sender's next target among alive[] (the
 * seats in when the turn or tick began), drawing its hole; fills e's
 * target, hole and sent_lost. Returns the target or AB_NOBODY. */
unsigned ab_send(struct ab_match *m, unsigned sender, const bool *alive,
    struct ab_lock_events *e);

/* Raises the first n blocks of p's queue into its board, oldest first, and
 * drops them from the queue. True when a filled cell went above row 39. */
bool ab_rise(struct ab_player *p, unsigned n, uint16_t *lines);

/* Applies user's oldest item to target; ticks says which clock's durations
 * apply. An add_line that overflows sets out_reason[target] to overflow
 * when it is NONE. Returns the item used, AB_ITEM_NONE for an empty
 * inventory. */
unsigned ab_use_item(struct ab_match *m, unsigned user, unsigned target, uint8_t *out_reason);

/* A Transformation running out: the preview and the hold change back. */
void ab_transform_end(struct ab_player *p);

/* Plays a turn's keys on seat's piece (actionblocks_cmd.c checks moves
 * with it on a copy): up to the lock, a hard drop completing keys that end
 * without one; the lock itself is not made. Returns the index of the key
 * that ended the piece, n when the completing drop did; *block_out when a
 * hold spawned onto a block. */
unsigned ab_play_keys(struct ab_match *m, unsigned seat, const char *keys, unsigned n,
    uint32_t *drop_points, bool *block_out);

/* Takes out, at turn or tick `at`, every seat in alive[] (the seats in
 * when the turn or tick began) whose out_reason[] is not AB_END_NONE: they
 * share place nalive + 1 (nalive counted after them), lose their piece and
 * their queue; a lone survivor takes place 1. Updates nalive and over;
 * returns how many went out. */
unsigned ab_eliminate(struct ab_match *m, const bool *alive, const uint8_t *out_reason,
    uint32_t at);

#endif
