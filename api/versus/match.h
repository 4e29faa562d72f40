/*
 * match.h: what a served versus match adds to the engine (versus.h), and
 * its JSON: the turn cap and how a match ends, the places at the end, the
 * lines each player sent and received, a player's view, a turn's events,
 * and the match replay with its verifier.
 *
 * The engine plays until at most one player is left; the server also stops
 * a match after turn_cap turns (a flag): the players still in then share
 * place 1, as players who go out together share a place. A match therefore
 * ends one of three ways (enum match_end).
 *
 * A match replay is
 *     {"schema": 1, "rules": "versus-v1", "seed", "players", "turn_cap",
 *      "turns": [[move of player 0, move of player 1, ...], ...], "final"}
 * where each turn lists one entry per player in match order: the canonical
 * move ("place R C", "hold; place R C", "resign"), "missed" for a turn the
 * deadline took, or null for a player already out. "final" is
 * match_final_json(). Verifying plays every turn on the engine from the seed
 * and compares the final summary reached with the one given; the same
 * function serves `arcaded verify` and the verify route.
 *
 * Field names are snake_case, as the match routes' requests (turn_seconds).
 * Everything here is pure CPU over plain structs. The parts of answers are
 * written with the answer writer (jw.h), each by one function; the replay,
 * which is data, is a jansson tree: a function with _new takes ownership
 * of its json_t arguments.
 */
#ifndef API_MATCH_H
#define API_MATCH_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "match_answers.h" /* match_real_write */
#include "match_rules.h" /* the replay's schema and cap, struct match_replay_check */
#include "versus.h"

struct jw;

#define MATCH_TOTALS_SIZE (8 * VERSUS_PLAYERS_MAX) /* match_totals_encode's bytes */

/* ---- what the server asks of the engine, by what it asks ----
 * The server keeps a match as its state's bytes in the match's row and
 * plays it through these: it calls no engine function of its own. */

/* Reads a move as a request's "command" sends it (text[0..len), borrowed):
 * `place R C`, `R C`, `hold; place R C`, `resign`, a placement after
 * `use T; ` (versus.h's grammar). INVALID with a reason in reason[0..cap)
 * (mv undefined then); EMPTY when there is no command at all. Whether the
 * move is legal now is match_move_check()'s business. */
enum versus_parse match_move_read(const char *text, size_t len, struct versus_move *mv,
    char *reason, size_t cap);

/* The move's canonical text, as a replay's turns and the move's answer
 * hold it: "place R C", "hold; place R C", "resign" or "missed". Writes
 * at most cap - 1 characters and a NUL when cap > 0; returns the full
 * length, like snprintf. */
size_t match_move_text(const struct versus_move *mv, char *buf, size_t cap);

/* Whether seat may send mv in m now (the match on, the seat alive, the
 * move in range and fitting the seat's board). A move this accepts is
 * stored; the turn's resolution then accepts it too. On refusal writes a
 * reason into reason[0..cap). Changes nothing. */
bool match_move_check(const struct versus_match *m, unsigned seat, const struct versus_move *mv,
    char *reason, size_t cap);

/* m at turn 0 of a match of nplayers (2..8) on seed (0..VERSUS_SEED_MAX),
 * with items when items is set (chance percent a mino, weights[] the share
 * of each item, as the match's row holds them). False when any of them is
 * out of range. */
bool match_state_start(struct versus_match *m, uint64_t seed, unsigned nplayers, bool items,
    unsigned chance, const uint8_t weights[VERSUS_ITEM_KINDS]);

/* Turns items on for m at turn 0 (match_state_start() without them, or a
 * walk's match_walk_start()): chance percent a mino, weights[] the share
 * of each item. False, m unchanged, when out of range or m has begun. */
bool match_state_items(struct versus_match *m, unsigned chance,
    const uint8_t weights[VERSUS_ITEM_KINDS]);

/* The state's bytes, as the match's row stores them: written into
 * buf[0..cap) when cap is large enough (VERSUS_SERIAL_MAX always is), and
 * their length; when cap is too small nothing is written and the answer is
 * the length needed. */
size_t match_state_encode(const struct versus_match *m, uint8_t *buf, size_t cap);

/* m from bytes match_state_encode() wrote: false, m unchanged, unless they
 * are a state's bytes (version, length, CRC, the engine's invariants).
 * Encoding the m read gives the same bytes again. */
bool match_state_decode(struct versus_match *m, const uint8_t *buf, size_t len);

/* The stored moves the engine refused as a turn resolved (a bit a seat):
 * each of them missed the turn instead; reason[seat] says why. */
struct match_refused {
	uint8_t seats;
	char    reason[VERSUS_PLAYERS_MAX][ENGINE_REASON_MAX];
};

/* Resolves m's coming turn with the moves stored for it: mv[i] for the
 * seats whose bit is set in moved, MISSED for every other seat (mv is
 * rewritten so: it then holds the moves the turn was played with, a
 * replay's entry). Every stored move was checked against this very state
 * (match_move_check), so the engine cannot refuse one; should it, that
 * seat misses the turn (its bit in refused->seats, the engine's reason by
 * it) rather than the match stopping for good. ev receives what the turn
 * did. True when the turn was played (m->turn one more); false, m
 * unchanged, when none could be (the match over already). */
bool match_turn_resolve(struct versus_match *m, struct versus_move *mv, uint8_t moved,
    struct versus_events *ev, struct match_refused *refused);

/* How a match ended. */
enum match_end {
	MATCH_END_NONE,          /* still playing */
	MATCH_END_LAST_STANDING, /* one player left: place 1 */
	MATCH_END_ALL_OUT,       /* the last players went out together: they share place 1 */
	MATCH_END_TURN_CAP,      /* turn_cap turns resolved: those still in share place 1 */
};

/* Lines per player over a match: sent (after cancelling, blocks lost to a
 * full queue included) and received (blocks queued for the player). */
struct match_totals {
	uint32_t sent[VERSUS_PLAYERS_MAX];
	uint32_t received[VERSUS_PLAYERS_MAX];
};

/* Adds one resolved turn's events to t. */
void match_totals_add(struct match_totals *t, const struct versus_events *ev);

/* The totals as MATCH_TOTALS_SIZE bytes (little-endian, sent then received
 * per player) and back; decode refuses any other length. */
void match_totals_encode(const struct match_totals *t, uint8_t out[MATCH_TOTALS_SIZE]);
bool match_totals_decode(struct match_totals *t, const uint8_t *in, size_t n);

/* How m stands after its last turn, the server stopping at turn_cap turns
 * (0: no cap). */
enum match_end match_end_of(const struct versus_match *m, uint32_t turn_cap);

/* "last_standing", "all_out", "turn_cap"; NULL for NONE. */
const char *match_end_name(enum match_end end);

/* The places at the end: the engine's, and 1 for every player still in
 * when the cap stopped the match. 0 for a player still playing. */
void match_places(const struct versus_match *m, enum match_end end,
    uint8_t places[VERSUS_PLAYERS_MAX]);

/* ---- the parts of the answers, each written once (jw.h) ----
 * A failure is the writer's (sticky, see jw.h). */

/* What viewer (a seat, or VERSUS_NOBODY for a spectator) sees of player,
 * the fields only, inside an object the caller opened (which may add its
 * own after them): seat, alive, place, end_reason, board_text, current,
 * hold, next (null unless viewer is player), score, lines, level, combo,
 * back_to_back, pending, missed, lines_sent, lines_received, and in a
 * match with items items_text, current_items, hold_items, next_items,
 * inventory, blind, transform. place is null while undecided; at the end
 * it is match_places()'s. */
void match_player_write(struct jw *w, const struct versus_match *m, enum match_end end,
    unsigned viewer, unsigned player, const struct match_totals *t);

/* A resolved turn as everyone may see it: {turn, over, players: [{seat,
 * action, and for a placement held, piece, rotation, column, lines,
 * points, combo, back_to_back, perfect_clear, attack, cancelled, sent,
 * target, lost; received, risen: [{lines, hole}], eliminated, end_reason,
 * place}]}, and with items "hits". The hole of a block sent this turn is
 * not in it: it shows once the block rises. With the turn's moves (moves
 * not NULL), a player whose move asked `use T` while its inventory was
 * empty when the uses acted adds "use": {"used": false, "reason": "empty
 * inventory"} (a use that acted is only in "hits", by target: its user
 * stays unnamed). The row keeps it as this text (the view's last_turn). */
void match_events_write(struct jw *w, const struct versus_events *ev,
    const struct versus_move *moves);

/* One turn's entry of a replay: the canonical text of each move in match
 * order, "missed" for MISSED, null for players out before the turn
 * (before: the match as the turn began). The row keeps it as this text;
 * a replay reads it back as a value. */
void match_turn_write(struct jw *w, const struct versus_match *before,
    const struct versus_move *moves);

/* A match's item setting as views and lists show it: false without items,
 * else {chance, weights} (weights VERSUS_ITEM_KINDS shares), as replays
 * carry it. */
void match_item_settings_write(struct jw *w, bool items, unsigned chance,
    const uint8_t *weights);

/* A real as json_real() dumps it: match_real_write (match_answers.h). */

/* Whether player's move asked `use T` and found the inventory empty when
 * the uses acted (so it did nothing). */
bool match_use_empty(const struct versus_events *ev, const struct versus_move *moves,
    unsigned player);

/* ---- the replay: data, kept as trees ----
 * A replay and its final are not an answer but what one carries: the
 * certificate hashes the replay's canonical JSON (certificate_json_hash),
 * the verifier reads one sent as a value and compares finals key by key,
 * and the replay and verify answers dump them in place (jw_json). */

/* {turns, end, players: [{place, end_reason, score, lines, lines_sent,
 * lines_received}]}: what a replay claims and verification compares. */
json_t *match_final_json(const struct versus_match *m, enum match_end end,
    const struct match_totals *t);

/* A replay; turns and final are stolen. NULL on failure. */
json_t *match_replay_new(uint64_t seed, unsigned nplayers, uint32_t turn_cap, json_t *turns,
    json_t *final);

/* Adds "items" {chance, weights} to replay for a match with items; nothing
 * for one without, whose replay stays as it was. 0, or -1 out of memory.
 * match_replay_verify() re-simulates the rolls from them and the seed. */
int match_replay_set_items(json_t *replay, const struct versus_match *m);

/* What verifying a match replay found: struct match_replay_check
 * (match_rules.h). */

/* A match played turn by turn from its seed, as a replay's "turns" give
 * them: what the verifier walks, for a caller that wants every state on
 * the way (the pages' turns route). A plain struct, some tens of KB: put it
 * on the heap. */
struct match_walk {
	struct versus_match  m;      /* after m.turn turns */
	struct match_totals  totals; /* lines sent and received so far */
	struct versus_events ev;     /* what the last turn did; zero at turn 0 */
	struct versus_move   mv[VERSUS_PLAYERS_MAX]; /* the last turn's moves */
};

/* Turns on the items of a match whose row has items on, for m at turn 0:
 * VERSUS_ITEM_CHANCE_DEFAULT percent a mino, the six items equally likely
 * (docs/rules/versus.md, "Items"). The server starts such a match and
 * re-walks its turns with it; false when m has begun. */
bool match_items_default(struct versus_match *m);

/* w at turn 0 of a match of nplayers (2..8) on seed (0..VERSUS_SEED_MAX);
 * false when either is out of range. */
bool match_walk_start(struct match_walk *w, uint64_t seed, unsigned nplayers);

/* Plays turn w->m.turn + 1 from entry (borrowed: one move a seat, as a
 * replay's turns hold them). 0, or -1 with out->turn and out->reason (the
 * rest of out untouched, w unchanged) when the match is over already, the
 * entry is not a turn of this match or the engine refuses a move. */
int match_walk_turn(struct match_walk *w, const json_t *entry, struct match_replay_check *out);

/* Whether replay (borrowed) holds a match replay: its "rules" is
 * VERSUS_RULES. Lets a caller holding any replay pick the verifier. */
bool match_replay_is(const json_t *replay);

/* Plays replay from its seed: 0 when every turn is legal and the final
 * summary reached is the one claimed; -1 with out->turn and out->reason
 * otherwise. out->final is set whenever the turns played, even when the
 * summary differs. */
int match_replay_verify(const json_t *replay, struct match_replay_check *out);

#endif
