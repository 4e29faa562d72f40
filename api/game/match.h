/*
 * match.h: what every match ruleset's adapter shares, written once over
 * the descriptor's hooks (match_rules.h): the totals (lines sent and
 * received), how a match ends and its places, the item option, a turn
 * resolved, the seats' results, the views and the move's answer, the
 * replay with its final summary, the certificate's claims, the replay's
 * verifier and the walk of the turns page. A ruleset's folder
 * (api/versus/, api/actionblocks/) says only what its engine does: its
 * state's bytes, moves, a turn played, a seat and a turn's events as the
 * answers show them.
 *
 * Why in api/game/: the descriptor (match_rules.h) and the answers every
 * ruleset shares that know no ruleset (match_answers.h) are here already,
 * and api/game/ is built below the adapters (api_common_sources), which
 * call into it; one folder says what is common to the match rulesets.
 *
 * A match replay is
 *     {"schema": 1, "rules", "seed", "players", "turn_cap",
 *      "turns": [[move of player 0, move of player 1, ...], ...], "final"}
 * and "items": {chance, weights} for a match with items, where each turn
 * lists one entry per player in match order: the canonical move (the
 * ruleset's move_text), "missed" for a turn the deadline took, or null
 * for a player already out. "final" is match_final_json(). Verifying
 * plays every turn on the engine from the seed and compares the final
 * summary reached with the one given; the same function serves `arcaded
 * verify` and the verify route. It trusts nothing in a replay but its
 * seed, player count, cap, items and moves.
 *
 * Field names are snake_case, as the match routes' requests. Pure CPU
 * over plain structs. The parts of answers are written with the answer
 * writer (jw.h), each by one function (a failure is the writer's, sticky);
 * the replay, which is data, is a jansson tree: a function that takes
 * json_t arguments says when it steals them.
 */
#ifndef API_MATCH_H
#define API_MATCH_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "match_answers.h" /* match_real_write, the answers that know no ruleset */
#include "match_rules.h"

struct jw;
struct keyring;

/* The largest state's struct and a turn's events' struct of the rulesets
 * (generated: match_limits.h), as bytes the shared code holds for them. */
typedef union {
	max_align_t   align_;
	unsigned char bytes[MATCH_STATE_SIZE_ALL];
} match_state;

typedef union {
	max_align_t   align_;
	unsigned char bytes[MATCH_EVENTS_SIZE_ALL];
} match_events;

/* ---- totals, end, places ---- */

/* Counts sent lines from seat to target (MATCH_PLAYERS_MAX or more: none)
 * into t; lost when the target's queue was full (sent, not received). */
void match_totals_count(struct match_totals *t, unsigned seat, unsigned sent, unsigned target,
    bool lost);

/* The totals as MATCH_TOTALS_SIZE bytes (little-endian, sent then
 * received per seat) and back; decode refuses any other length. */
void match_totals_encode(const struct match_totals *t, uint8_t out[MATCH_TOTALS_SIZE]);
bool match_totals_decode(struct match_totals *t, const uint8_t *in, size_t n);

/* How s stands after its last turn, the server stopping at turn_cap turns
 * (0: no cap). */
enum match_end match_end_of(const struct match_standing *s, uint32_t turn_cap);

/* "last_standing", "all_out", "turn_cap"; NULL for NONE. */
const char *match_end_name(enum match_end end);

/* The places at the end: the engine's, and 1 for every seat still in when
 * the cap stopped the match. 0 for a seat still playing. */
void match_places(const struct match_standing *s, enum match_end end,
    uint8_t places[MATCH_PLAYERS_MAX]);

/* ---- the item option (both rulesets' options) ---- */

#define MATCH_ITEM_CHANCE_DEFAULT 10 /* percent a mino, with items on and no item_chance */
#define MATCH_ITEM_WEIGHT_MAX 100

/* The create request's fields of the items: items, item_chance,
 * item_weights (NULL-terminated). */
extern const char *const match_item_fields[];

/* A new match's item settings (options_read): `items` (true or false),
 * `item_chance` (0..100, 0 = off; MATCH_ITEM_CHANCE_DEFAULT with items on)
 * and `item_weights` (six integers 0..100, one at least above 0; all 1 by
 * default). Giving item_chance or item_weights turns items on unless
 * `items` is false (then they must not be given, or item_chance be 0).
 * Items off are chance 0 and weights all 1, so that the queue pairs every
 * lobby without items. */
bool match_items_read(const json_t *body, struct match_options *o, char *msg, size_t cap);

/* A match's item setting as views and lists show it: false without items,
 * else {chance, weights} (MATCH_OPTION_SHARES shares), as replays carry
 * it. */
void match_item_settings_write(struct jw *w, bool items, unsigned chance, const uint8_t *weights);

/* ---- what the match pipeline asks, for every ruleset ---- */

/* Resolves st's coming turn with the moves stored for it: moves[i] for
 * the seats whose bit is set in moved, a missed turn for every other seat
 * (moves is rewritten so: it then holds the moves the turn was played
 * with). Every stored move was checked against this very state
 * (move_check), so the engine cannot refuse one; should it, that seat
 * misses the turn instead (its bit in out->refused, the engine's reason
 * by it) rather than the match stopping for good. The totals
 * (MATCH_TOTALS_SIZE bytes) count the turn, its replay entry is written
 * into moves_text (the seats' canonical moves, null for a seat out before
 * the turn) and its events into events, and out says the rest; turn_cap
 * ends the match after so many turns (0: none). False, st unchanged, when
 * no turn could be played. */
bool match_resolve(const struct match_rules *mr, void *st, void *moves, uint8_t moved,
    uint8_t *totals, uint32_t turn_cap, struct jw *moves_text, struct jw *events,
    struct match_turn_out *out);

/* A turn's entry of a replay: the canonical text of each of the moves
 * (nplayers of them, mr's) in match order, null for the seats not in
 * alive (out before the turn). The row keeps it as this text; a replay
 * reads it back as a value. */
void match_turn_write(const struct match_rules *mr, struct jw *w, uint8_t alive, unsigned nplayers,
    const void *moves);

/* The seats' results of the match st ended (out[0..nplayers)). */
void match_results(const struct match_rules *mr, const void *st, const uint8_t *totals,
    uint32_t turn_cap, struct match_seat_result *out);

/* The match as viewer (a seat, or -1 for a spectator) sees it at now_ms
 * (GET /api/matches/{id}, the long poll, the event stream, a refusal's
 * `match`): {match_id, rules, status, players, joined, turn_seconds,
 * turn_cap, rated, items, queue, unrated_reason, seed (null until
 * finished), seed_chosen, turn, deadline, deadline_in_ms, end, you,
 * seats, boardText (a ruleset's with one; null in the lobby), last_turn,
 * created_at, started_at, finished_at, certificate}, each seat the
 * ruleset's seat_write (only its number in the lobby) plus account, moved
 * while playing and the ratings of a finished rated match. last_turn is
 * the row's text, the daemon's own compact JSON (events_write), written
 * as it is. */
void match_view_write(const struct match_rules *mr, struct jw *w,
    const struct match_rules_record *r, int viewer, int64_t now_ms);

/* The Server-Sent Event of r as a spectator sees it at now_ms: `id: TURN`,
 * `event: match`, the view's compact JSON as its data. malloc'd (caller
 * frees), its length in *len; NULL when out of memory. */
char *match_event_text(const struct match_rules *mr, const struct match_rules_record *r,
    int64_t now_ms, size_t *len);

/* POST /api/matches/{id}/move: {match_id, turn, move, resolved, state}
 * with the move mv taken (its canonical text move) in turn, whether it
 * resolved the turn and the mover's state ({status, turn, deadline_in_ms,
 * end, seat}, seat the viewer's own as the view shows it, null in the
 * lobby; its cost does not grow with the number of players); with full
 * (?view=full) "match", the whole view; and for a ruleset whose moves
 * name a seat (move_use) when mv names one, "use": {target, used: null,
 * reason} while the turn waits for others, else {target, used} with
 * reason "empty inventory" when used is false (use_empty). */
void match_move_answer_write(const struct match_rules *mr, struct jw *w,
    const struct match_rules_record *r, uint32_t turn, const void *mv, const char *move,
    bool resolved, int viewer, int64_t now_ms, bool full, bool use_empty);

/* ---- the parts every ruleset's seat and turn events share ----
 * A ruleset's seat_write and events_write write its own members around
 * these, in the contract's order (MatchSeat, MatchTurn). */

/* The name of item (1..MATCH_OPTION_SHARES: "add_line", "clear_line",
 * "nuke", "swap", "blind", "transform", the item option's kinds in the
 * order of its weights); NULL for any other. */
const char *match_item_name(unsigned item);

/* A seat's first members: seat, alive, place (null while 0) and
 * end_reason (null while the seat is in). */
void match_seat_head_write(struct jw *w, unsigned seat, bool alive, unsigned place,
    const char *end_reason);

/* What a seat counts, after its board: score, lines, level, combo,
 * back_to_back, pending (lines queued), missed (turns missed in a row),
 * and the seat's lines_sent and lines_received of the totals t. */
struct match_seat_counts {
	uint64_t score;
	uint32_t lines, level;
	int32_t  combo;
	bool     back_to_back;
	uint32_t pending, missed;
};

void match_seat_counts_write(struct jw *w, const struct match_seat_counts *c,
    const struct match_totals *t, unsigned seat);

/* A seat's last members in a match with items: inventory (the names of
 * inventory[0..n), oldest first), blind and transform (turns left). */
void match_seat_items_write(struct jw *w, const uint8_t *inventory, unsigned n, uint32_t blind,
    uint32_t transform);

/* A turn's events open: {"turn", "over", "players": [ ... (the seats, each
 * from match_event_seat_open, closed by the caller), and what the ruleset
 * adds after the players (versus, ActionBlocks: its hits) before the
 * object closes. */
void match_events_open(struct jw *w, uint32_t turn, bool over);

/* A seat's object in a turn's events, opened with seat and action: true
 * when it acted, its members to follow (the caller closes it); false, the
 * object closed already, for a seat out before the turn. */
bool match_event_seat_open(struct jw *w, unsigned seat, const char *action, bool acted);

/* What a placement or lock sent, in a turn's events: attack, cancelled,
 * sent, target (null unless has_target) and lost. */
void match_attack_write(struct jw *w, unsigned attack, unsigned cancelled, unsigned sent,
    bool has_target, unsigned target, bool lost);

/* A seat's end in a turn's events: eliminated, end_reason (null unless
 * eliminated) and place (null while 0). */
void match_event_end_write(struct jw *w, bool eliminated, const char *end_reason, unsigned place);

/* ---- the replay: data, kept as trees ----
 * A replay and its final are not an answer but what one carries: the
 * certificate hashes the replay's canonical JSON (certificate_json_hash),
 * the verifier reads one sent as a value and compares finals key by key,
 * and the replay and verify answers dump them in place (jw_json). */

/* {turns, end, players: [{place, end_reason, score, lines, lines_sent,
 * lines_received}]}: what a replay claims and verification compares. */
json_t *match_final_json(const struct match_standing *s, enum match_end end,
    const struct match_totals *t);

/* A replay of rules; turns and final are stolen, items (the standing's
 * item setting) added when chance is above 0. NULL on failure. */
json_t *match_replay_new(const char *rules, uint64_t seed, unsigned nplayers, uint32_t turn_cap,
    json_t *turns, json_t *final, unsigned chance, const uint8_t *weights);

/* The replay of the match r (its state set) played through turns (every
 * turn's moves, stolen); NULL on failure. */
json_t *match_replay(const struct match_rules *mr, const struct match_rules_record *r,
    json_t *turns);

/* Signs the result certificate of the finished match r, whose turns
 * (stolen) are every turn's moves, the last one included, at now (Unix
 * seconds): the claims are the match, rules, seed, players (the seats'
 * accounts in seat order), places, scores, turns, end, rated, and the
 * hash of the replay GET /api/matches/{id}/replay gives. The certificate
 * text (caller frees), or NULL on failure. */
/* The certificate of a finished match r (whose standing s and end are
 * computed) for its replay: the claims (match, rules, for a tick match
 * its clock, seed, players, places, scores, turns or ticks, end, rated,
 * the replay's hash) signed with kr's key. NULL when out of memory. */
char *match_certificate_sign(const struct keyring *kr, const struct match_rules_record *r, json_t *replay,
    const struct match_standing *s, enum match_end end, bool ticks, int64_t now);

char *match_certificate(const struct match_rules *mr, const struct keyring *kr,
    const struct match_rules_record *r, json_t *turns, int64_t now);

/* A match replay's items, seed and players, read and checked against
 * mr's bounds into o, *seed and *players: 0, or -1 with the refusal in c.
 * Both clocks' verifiers begin with it. */
struct replay_check;
int match_replay_setup(const struct match_rules *mr, const json_t *replay, struct match_options *o,
    json_int_t *seed, json_int_t *players, struct replay_check *c);

/* A replay's "items" (absent: none) into o: chance 1..100, six weights
 * 0..100; -1 with the refusal in c (replay.h's replay_fail). */
int match_replay_items(const json_t *items, struct match_options *o, struct replay_check *c);

/* Plays a replay (borrowed) of mr's from its seed: 0 when every turn is
 * legal and the final summary reached is the one claimed; -1 with
 * out->turn and out->reason otherwise. out->final is set whenever the
 * turns played, even when the summary differs. */
int match_verify(const struct match_rules *mr, const json_t *replay,
    struct match_replay_check *out);

/* ---- the walk: a match played turn by turn from its seed ----
 * What the verifier walks, and the turns page (GET
 * /api/matches/{id}/turns) for every state on the way. A plain struct,
 * some tens of KB: put it on the heap. */
struct match_walk {
	const struct match_rules *mr;
	struct match_totals totals; /* lines sent and received so far */
	match_moves  moves;         /* the last turn's moves */
	match_events ev;            /* what the last turn did; zero at turn 0 */
	match_state  st;            /* the match after the turns walked */
};

/* w at turn 0 of a match of mr's of nplayers on seed with the options;
 * false when any is out of range. */
bool match_walk_start(struct match_walk *w, const struct match_rules *mr, uint64_t seed,
    unsigned nplayers, const struct match_options *o);

/* Plays the next turn from entry (borrowed: one move a seat, as a
 * replay's turns hold them). 0, or -1 with out->turn and out->reason (the
 * rest of out untouched) when the match is over already, the entry is not
 * a turn of this match or the engine refuses a move. */
int match_walk_turn(struct match_walk *w, const json_t *entry, struct match_replay_check *out);

/* The turns page's entry of the turn walked last: {turn, moves (the
 * turn's, each `use T; ` dropped so that nobody learns who used an item
 * on whom; null for turn 0), view: {status, turn, end, seats: [seat_write
 * as a spectator sees it, account], boardText (a ruleset's with one),
 * last_turn}}; names[seat] the seats' accounts. False when the writer
 * failed. */
bool match_walk_write(struct jw *w, const struct match_walk *k, uint32_t turn_cap,
    const char *const *names, const json_t *moves);

#endif
