/*
 * ab_json.h: what a served actionblocks-v1 match adds to the engine
 * (actionblocks.h), and its JSON: the turn cap and how a match ends, the
 * places, the garbage lines each seat sent and received, a seat's view, a
 * turn's events, the replay with its verifier, and the turns page's walk.
 * ab_rules.c makes the ruleset's descriptor of them (match_actionblocks).
 *
 * The match is played on the engine's turn clock: one move a living seat a
 * turn, the keys of its current piece up to that piece's lock, in the
 * engine's grammar (`keys LLXD`, `use 2; keys D`, `resign`; "missed" for
 * a turn the deadline took). The replay is
 *     {"schema": 1, "rules": "actionblocks-v1", "seed", "players",
 *      "turn_cap", "turns": [[move of seat 0, ...], ...], "final"}
 * and "items": {chance, weights} for a match with items, as versus's.
 *
 * A seat's board, as the views show it (docs/rules/actionblocks.md,
 * "Serving a match"): "board", the 20 rows of the visible field, top row
 * first (y 19 first), ten characters each ('.' empty, IOTSZJL, G grey);
 * "buffer", the hidden buffer's rows from the highest one holding a locked
 * cell down to y 20, top first ([] when the buffer is empty). The falling
 * piece is not drawn: "piece" gives it. During a Blackout every locked
 * cell reads '.' in every view, as versus's.
 *
 * Pure CPU over plain structs; the parts of answers through jw.h, the
 * replay and its final as jansson trees.
 */
#ifndef API_AB_JSON_H
#define API_AB_JSON_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ab_limits.h"
#include "actionblocks.h"
#include "match_rules.h"

struct jw;


/* Lines a seat sent (after cancelling, lost blocks included) and
 * received (blocks queued for it). */
struct ab_totals {
	uint32_t sent[AB_PLAYERS_MAX];
	uint32_t received[AB_PLAYERS_MAX];
};

void ab_totals_add(struct ab_totals *t, const struct ab_events *ev);
void ab_totals_encode(const struct ab_totals *t, uint8_t out[AB_TOTALS_SIZE]);
bool ab_totals_decode(struct ab_totals *t, const uint8_t *in, size_t n);

enum ab_match_end {
	AB_MATCH_NONE,
	AB_MATCH_LAST_STANDING,
	AB_MATCH_ALL_OUT,
	AB_MATCH_TURN_CAP,
};

enum ab_match_end ab_match_end_of(const struct ab_match *m, uint32_t turn_cap);
const char *ab_match_end_name(enum ab_match_end end);  /* NULL for NONE */
/* The engine's places, and 1 for every seat still in when the cap
 * stopped the match. */
void ab_match_places(const struct ab_match *m, enum ab_match_end end,
    uint8_t places[AB_PLAYERS_MAX]);

/* Resolves the coming turn with mv[i] for the seats moved names and
 * MISSED for the others (mv rewritten so); a stored move the engine
 * refuses misses instead (its bit in *refused, the reason by it). True
 * when the turn was played. */
bool ab_match_resolve(struct ab_match *m, struct ab_move *mv, uint8_t moved,
    struct ab_events *ev, uint8_t *refused, char reason[][ENGINE_REASON_MAX]);

/* ---- the parts of the answers (jw.h) ---- */

/* What viewer (a seat, or -1) sees of seat, the fields only, inside an
 * object the caller opened: seat, alive, place, end_reason, board,
 * buffer, piece, hold, next (null unless viewer is seat), score, lines,
 * level, combo, back_to_back, pending, missed, lines_sent,
 * lines_received, and with items item_board, inventory, blind,
 * transform. */
void ab_seat_write(struct jw *w, const struct ab_match *m, enum ab_match_end end, int viewer,
    unsigned seat, const struct ab_totals *t);

/* A resolved turn as everyone may see it (the view's last_turn): {turn,
 * over, players: [{seat, action, (locked) piece, lines, spin,
 * back_to_back, perfect_clear, combo, points, attack, cancelled, sent,
 * target, lost, drop_points; received, risen_lines, eliminated,
 * end_reason, place}]}, and with items "hits" [{target, item}] (the
 * user unnamed). */
void ab_events_write(struct jw *w, const struct ab_events *ev, bool items);

/* A turn's entry of the replay: each seat's canonical move, null for a
 * seat out before the turn. */
void ab_turn_write(struct jw *w, const struct ab_match *before, const struct ab_move *mv);

/* The match's view (match_rules.h's view_write) and a move's answer. */
void ab_view_write(struct jw *w, const struct match_rules_record *r, int viewer, int64_t now_ms);
void ab_move_answer_write(struct jw *w, const struct match_rules_record *r, uint32_t turn,
    const char *move, bool resolved, int viewer, int64_t now_ms, bool full);

/* ---- the replay, data ---- */

json_t *ab_final_json(const struct ab_match *m, enum ab_match_end end, const struct ab_totals *t);
json_t *ab_replay_json(const struct match_rules_record *r, json_t *turns);
char *ab_certificate(const struct keyring *kr, const struct match_rules_record *r, json_t *turns,
    int64_t now);
int ab_replay_verify(const json_t *replay, struct match_replay_check *out);

/* The turns page's walk: a match played from its seed turn by turn. */
struct ab_walk {
	struct ab_match  m;
	struct ab_totals totals;
	struct ab_events ev;
	struct ab_move   mv[AB_PLAYERS_MAX];
};

bool ab_walk_start(void *walk, uint64_t seed, unsigned nplayers, const struct match_options *o);
int ab_walk_turn(void *walk, const json_t *entry, struct match_replay_check *out);
bool ab_walk_write(struct jw *w, const void *walk, uint32_t turn_cap, const char *const *names,
    const json_t *moves);

#endif
