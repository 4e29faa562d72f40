/*
 * match_rules.h: the match ruleset descriptor. Every multiplayer ruleset
 * the match routes serve (POST /api/matches ..., "versus-v1") is one
 * `struct match_rules`: its name and bounds, and hooks over its state held
 * as opaque bytes. The match pipeline (server/match_play.c), and a turn
 * resolved, the views, replays, certificates and verification (match.h,
 * beside this header) are written once against this struct; the table
 * (match_rules_table.c) lists the rulesets, made from the lines of
 * api/games.txt marked `match`.
 *
 * Adding a ruleset: its folders engine/<folder>/ and api/<folder>/ (the
 * latter defining `const struct match_rules match_<folder>`), its tests,
 * its rules page and one line `<folder> match` in api/games.txt
 * (docs/architecture.md, "Adding a game").
 *
 * What the server keeps of a match, and in which form:
 *   - its state: the ruleset's own plain struct, state_size bytes, which
 *     the server holds in memory it allocates (aligned as malloc aligns)
 *     and never looks into; in the row, encode's bytes (state_max at most);
 *   - a move: move_size bytes (a plain struct, at most MATCH_MOVE_MAX),
 *     the moves of a turn an array of nplayers of them;
 *   - the moves sent for the coming turn: pending_write's bytes in the row;
 *   - the totals (what a match counts beside its state: the lines each
 *     seat sent and received, struct match_totals): MATCH_TOTALS_SIZE
 *     bytes, as the row keeps them, counted by the ruleset's totals_add.
 * A ruleset's options of a new match (versus: its items) are read from
 * the create request by the ruleset into a struct match_options, whose
 * fields are the row's columns; the server only carries them.
 *
 * Every hook is pure CPU over plain data: none touches the network, a
 * clock or the store. The parts of answers are written with the answer
 * writer (jw.h); a failure is the writer's (sticky).
 */
#ifndef API_MATCH_RULES_H
#define API_MATCH_RULES_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine.h"
#include "match_limits.h" /* generated: the largest sizes of the rulesets (api/meson.build) */

struct jw;
struct keyring;

/* The match rulesets' ids, MATCH_RULES_<FOLDER>, in the order of their
 * lines in the list (games.txt). The first is the default: a match
 * created without `rules`, the quick-match queue and the ratings. */
enum match_rules_id {
#define MATCH(folder, ID) MATCH_RULES_##ID,
#include "games.def"
#undef MATCH
	MATCH_RULES__COUNT
};

#define MATCH_PLAYERS_MAX 8        /* seats of a match, at most (the row's) */
#define MATCH_MOVE_MAX MATCH_MOVE_SIZE_ALL          /* a move's struct, at most */
/* A ruleset's structs within the sizes configure measured (match_limits.h,
 * computed once by meson setup, which a header's edit does not redo): a
 * struct grown since then stops the build here, with the way out, rather
 * than the daemon refusing to start. */
#define MATCH_RULES_SIZES_FIT(state, events) \
	_Static_assert(sizeof(state) <= MATCH_STATE_SIZE_ALL && \
	    sizeof(events) <= MATCH_EVENTS_SIZE_ALL, #state " or " #events " grew since configure: " \
	    "run meson setup --reconfigure on the build folder")

#define MATCH_MOVE_TEXT_MAX MATCH_MOVE_TEXT_MAX_ALL /* a move's canonical text, NUL included */
#define MATCH_OPTION_SHARES 6      /* the shares of a ruleset's option (the row's columns) */
#define MATCH_REPLAY_SCHEMA 1
#define MATCH_TURN_CAP_MAX 100000  /* the largest turn cap a replay may name */
#define MATCH_LOBBIES_MAX 10       /* matches in their lobby that one account may have created */

/* A move of any ruleset as the server holds it (the ruleset's move_size
 * bytes at its start), and the moves of a turn: nplayers of them, one
 * every move_size bytes (so that a ruleset reads them as its own array). */
typedef union {
	max_align_t   align_;
	unsigned char bytes[MATCH_MOVE_MAX];
} match_move;

typedef union {
	max_align_t   align_;
	unsigned char bytes[MATCH_PLAYERS_MAX * MATCH_MOVE_MAX];
} match_moves;

/* A ruleset's options of a match, as the row keeps them: whether they are
 * on, a percent and MATCH_OPTION_SHARES shares. What they mean is the
 * ruleset's (versus: items, their chance a mino and the items' shares).
 * Off: chance 0 and every share 1, so that equal settings compare equal. */
struct match_options {
	bool    on;
	uint8_t chance;                       /* 1..100 when on, else 0 */
	uint8_t shares[MATCH_OPTION_SHARES];
};

/* How a move sent as a request's "command" reads. */
enum match_parse {
	MATCH_PARSE_OK,
	MATCH_PARSE_EMPTY,    /* no command at all */
	MATCH_PARSE_INVALID,  /* not a move of the ruleset: reason says why */
};

/* Lines each seat sent (after cancelling, blocks lost to a full queue
 * included) and received (blocks queued for it): the totals every ruleset
 * counts beside its state, kept in the row as MATCH_TOTALS_SIZE bytes
 * (match_totals_encode, match.h). */
struct match_totals {
	uint32_t sent[MATCH_PLAYERS_MAX];
	uint32_t received[MATCH_PLAYERS_MAX];
};
#define MATCH_TOTALS_SIZE (8 * MATCH_PLAYERS_MAX)

/* How a match ended (match_end_of, match.h). */
enum match_end {
	MATCH_END_NONE,          /* still playing */
	MATCH_END_LAST_STANDING, /* one player left: place 1 */
	MATCH_END_ALL_OUT,       /* the last players went out together: they share place 1 */
	MATCH_END_TURN_CAP,      /* turn_cap turns resolved: those still in share place 1 */
};

/* What the server and the shared answers (match.h) read off a state: the
 * turns resolved, the players, who is still in (a bit a seat), whether
 * the engine ended the match (at most one seat left), its item setting
 * and each seat's place (the engine's: 0 while undecided), end reason
 * (NULL while in), score and lines. */
struct match_standing_seat {
	uint8_t     place;
	const char *end_reason;
	uint64_t    score;
	uint32_t    lines;
};

struct match_standing {
	uint32_t turn;
	unsigned nplayers;
	uint8_t  alive;
	bool     over;
	uint8_t  item_chance;                         /* percent a mino; 0: no items */
	uint8_t  item_weights[MATCH_OPTION_SHARES];
	struct match_standing_seat seats[MATCH_PLAYERS_MAX];
};

/* What one try at a turn gave (turn_play). */
enum match_play {
	MATCH_PLAYED,   /* the turn was played */
	MATCH_REFUSED,  /* a seat's move was refused: nothing changed */
	MATCH_NO_TURN,  /* no turn is left to play */
};

/* What resolving one turn did, for the server to write and tell. */
struct match_turn_out {
	const char *end;                /* the match's end ("last_standing", ...), NULL: plays on */
	uint8_t     refused;            /* a bit a seat: a stored move the engine refused, which
	                                   missed the turn instead (should never happen: logged) */
	char        reason[MATCH_PLAYERS_MAX][ENGINE_REASON_MAX]; /* why, by seat */
	uint8_t     use_empty;          /* a bit a seat: its move asked something of the turn that
	                                   found nothing (versus: `use T` on an empty inventory) */
};

/* One seat's result at the end, as the match's seats keep it. */
struct match_seat_result {
	int     place;                  /* 1.. (ties share one) */
	int64_t score, lines_sent, lines_received;
};

/* One seat taken, in seat order. */
struct match_rules_seat {
	const char *account;       /* the account's name (borrowed) */
	double      rating_before; /* NaN unless the match is rated and finished */
	double      rating_after;
};

/* A match as its row holds it, for the answers. Every pointer is
 * borrowed for the call. */
struct match_rules_record {
	int64_t     id;
	int64_t     seed;          /* 0..ENGINE_ID_MAX */
	const char *rules;         /* the ruleset's name */
	const char *status;        /* "lobby", "playing" or "finished" */
	const char *end_reason;    /* the end once finished, "" before */
	int         players, joined, turn_seconds, turn_cap;
	bool        seed_chosen, rated, queue;
	bool        ticks;         /* played on the tick clock (real time) */
	struct match_options options;
	const char *unrated_reason; /* "aborted", "pair_cap"; "" or NULL else */
	int64_t     turn;          /* turns resolved */
	int64_t     created_at, started_at, finished_at, deadline_at; /* Unix ms, 0: none */
	const char *last_turn;     /* the last turn's events (resolve's text), or NULL */
	const char *certificate;   /* or NULL */
	int         nseats;        /* 0..MATCH_PLAYERS_MAX */
	struct match_rules_seat seats[MATCH_PLAYERS_MAX];
	/* NULL in the lobby, before there is a state; else the state (the
	 * ruleset's struct) and the totals' bytes after the last turn. */
	const void    *state;
	const uint8_t *totals;
	uint8_t     moved;         /* a bit a seat: its move is in for the coming turn */
};

/* What verifying a match replay found. */
struct match_replay_check {
	size_t turn;         /* 1-based turn at fault; 0 when the fault is the replay's form */
	size_t nturns;       /* turns in the replay */
	char   reason[256];
	json_t *final;       /* the re-simulated final summary (caller decrefs), or NULL */
};

/* ---- real time: the optional tick clock ----
 * A ruleset that can also be played in real time (actionblocks-v1) gives
 * a struct match_ticks; one that cannot leaves match_rules.ticks NULL,
 * and a create that asks for the tick clock is refused. On the tick
 * clock the server (server/match_live.c) runs the match at `rate` ticks a
 * second, hands each tick the inputs that arrived since the last one, in
 * arrival order, and records every input with its tick; the match is its
 * seed, options and that list, from which it replays exactly
 * (match_ticks.h). What the standing calls `turn` is the ticks run. */

/* One input as the server holds and records it: the tick it is applied
 * at, the seat that sent it, and the ruleset's own kind and argument. */
struct match_input {
	uint32_t tick;
	uint8_t  seat;
	uint8_t  kind;
	uint8_t  arg;
};

#define MATCH_INPUT_TEXT_MAX 16 /* an input's canonical text, NUL included */

struct match_ticks {
	unsigned rate;          /* ticks a second */
	uint32_t countdown;     /* ticks 0..countdown-1 are the countdown */
	uint32_t tick_cap;      /* ticks at most: then those still in share place 1 */
	size_t   events_size;   /* a tick's events' struct */

	/* st at tick 0 of a match on the tick clock (as match_rules.start). */
	bool (*start)(void *st, uint64_t seed, unsigned nplayers, const struct match_options *o);

	/* The inputs a request's "keys" (text[0..len), borrowed) sends, their
	 * tick and seat left 0: how many (1..cap), or 0 with reason when the
	 * text is empty or holds anything that is no key of the ruleset (or
	 * more than cap keys). Never an input only the server sends. */
	size_t (*keys_read)(const char *text, size_t len, struct match_input *out, size_t cap,
	    char *reason, size_t rcap);

	/* An input's canonical text (as recorded and replayed; like
	 * snprintf), and back: false for a text that is no input. */
	size_t (*input_text)(const struct match_input *in, char *buf, size_t cap);
	bool   (*input_read)(const char *text, struct match_input *in);

	/* The input the server sends for a seat whose stream stayed closed:
	 * kind and arg (tick and seat are the caller's). */
	void (*disconnect)(struct match_input *in);

	/* Runs st's next tick with in[0..n) (in arrival order, every tick the
	 * same as st's): ev (events_size bytes) says what it did; false when
	 * the match is over (nothing ran). */
	bool (*tick)(void *st, const struct match_input *in, size_t n, void *ev);

	/* What a tick's events add to the totals, and whether the tick changed
	 * anything a view shows (so that the streams hear of it). */
	void (*totals_add)(struct match_totals *t, const void *ev);
	bool (*changed)(const void *ev);

	/* The tick's events as a stream frame shows them, the value only
	 * (an object). */
	void (*events_write)(struct jw *w, const void *st, const void *ev);
};

/*
 * What every match ruleset says: its data, and its hooks, each a question
 * about its own engine (a hook a question): the options of a new match,
 * start, the state's bytes, what the state says, a move read, its text,
 * checked, the pending moves' bytes, a turn played, a missed move, what a
 * turn's events add to the totals and how they read, and a seat as the
 * views show it. Everything the answers make of them (a turn resolved,
 * the views, the move's answer, the results, the replay, the certificate,
 * a replay verified, the turns page's walk) is written once for every
 * ruleset over these hooks: match.h.
 */
struct match_rules {
	enum match_rules_id id;
	const char *name;          /* in rows, replays and certificates: "versus-v1" */
	unsigned    players_min, players_max; /* 2..MATCH_PLAYERS_MAX */
	uint64_t    seed_max;      /* a seed, at most */
	size_t      state_size;    /* the state's struct, at most MATCH_STATE_SIZE_ALL */
	/* A state of n seats whole in its first state_head + n * state_seat
	 * bytes (the seats' structs last, those of seats past n never read):
	 * what the server copies of it. state_seat 0: all state_size bytes. */
	size_t      state_head, state_seat;
	size_t      state_max;     /* its encoded bytes, at most (the row's column holds them) */
	size_t      move_size;     /* a move's struct, at most MATCH_MOVE_MAX */
	size_t      pending_max;   /* the pending moves' bytes, at most */
	size_t      totals_size;   /* the totals' bytes, exactly: MATCH_TOTALS_SIZE */
	size_t      events_size;   /* a turn's events' struct, at most MATCH_EVENTS_SIZE_ALL */
	const char *missed;        /* the canonical text of a turn the deadline took ("missed") */
	/* The create request's fields options_read reads, NULL-terminated. */
	const char *const *option_fields;

	/* The options of a new match from the create (or queue) request's
	 * body (borrowed; NULL when empty); false with msg for a 400. */
	bool (*options_read)(const json_t *body, struct match_options *out, char *msg, size_t cap);

	/* st at turn 0 of a match of nplayers on seed with the options; false
	 * when any is out of range. */
	bool (*start)(void *st, uint64_t seed, unsigned nplayers, const struct match_options *o);

	/* The state's bytes, as the row stores them (nothing written and the
	 * length needed when cap is too small); decode refuses what encode
	 * would not have written, st unchanged. */
	size_t (*encode)(const void *st, uint8_t *out, size_t cap);
	bool   (*decode)(void *st, const uint8_t *in, size_t n);

	void (*standing)(const void *st, struct match_standing *out);

	/* A move from a request's "command" (text[0..len), borrowed) into mv;
	 * INVALID and EMPTY with reason. Whether it is legal now is
	 * move_check's business. */
	enum match_parse (*move_read)(const char *text, size_t len, void *mv, char *reason, size_t cap);

	/* The move's canonical text, as a replay's turns hold it; like
	 * snprintf. */
	size_t (*move_text)(const void *mv, char *buf, size_t cap);

	/* Whether seat may send mv in st now. A move this accepts is stored,
	 * and the turn's resolution accepts it too. Changes nothing. */
	bool (*move_check)(const void *st, unsigned seat, const void *mv, char *reason, size_t cap);

	/* The moves sent for the coming turn as the row keeps them: read from
	 * in[0..n) into moves[0..nplayers) and *moved (a bit a seat; bytes
	 * that are not a ruleset's read as none sent), and written from them
	 * (at most pending_max bytes; 0 when nobody moved). */
	void   (*pending_read)(const uint8_t *in, size_t n, unsigned nplayers, void *moves,
	    uint8_t *moved);
	size_t (*pending_write)(const void *moves, uint8_t moved, unsigned nplayers, uint8_t *out);

	/* mv as the move of a seat that sent none: a missed turn, or nothing
	 * for a seat out of the match (out). */
	void (*move_missed)(void *mv, bool out);

	/* Plays st's coming turn with moves[0..nplayers) (every seat's set):
	 * MATCH_PLAYED with ev (events_size bytes) saying what it did;
	 * MATCH_REFUSED with the seat at fault in *bad and why in reason, st
	 * unchanged; MATCH_NO_TURN when the match is over. */
	enum match_play (*turn_play)(void *st, const void *moves, void *ev, unsigned *bad,
	    char *reason, size_t cap);

	/* Adds a played turn's events to the totals. */
	void (*totals_add)(struct match_totals *t, const void *ev);

	/* A played turn as everyone may see it (the view's last_turn, as the
	 * row keeps it): its events ev with st after the turn and the moves
	 * it was played with. */
	void (*events_write)(struct jw *w, const void *st, const void *ev, const void *moves);

	/* Optional (NULL: none). The seats whose move asked something of the
	 * turn that found nothing (versus: `use T` on an empty inventory), a
	 * bit a seat; and the seat a move's request names (versus: `use T`'s
	 * T, 1 the mover itself; 0 none), which the move's answer reports. */
	uint8_t  (*use_empty)(const void *ev, const void *moves);
	uint32_t (*move_use)(const void *mv);

	/* What viewer (a seat, or -1 for a spectator) sees of seat in st, the
	 * fields only, inside an object the caller opened: "seat" first, then
	 * the ruleset's own, with place (0: null) and the seat's totals. */
	void (*seat_write)(struct jw *w, const void *st, int viewer, unsigned seat, unsigned place,
	    const struct match_totals *t);

	/* Optional (NULL: none). The view's "boardText": every board side by
	 * side for a reader, headed by the seats' names (names[seat], NULL
	 * read as "") and places (match_places), the value only. */
	void (*board_text_write)(struct jw *w, const void *st, const uint8_t *places,
	    const char *const *names);

	/* Optional (NULL: the turn clock only). The tick clock (above). */
	const struct match_ticks *ticks;
};

/* The rulesets, indexed by enum match_rules_id. */
extern const struct match_rules *const match_rules_table[MATCH_RULES__COUNT];

/* The default ruleset: the first of the list. */
const struct match_rules *match_rules_default(void);

/* The ruleset named rules ("versus-v1"), or NULL. */
const struct match_rules *match_rules_by_name(const char *rules);

/* "versus-v1, ...": the rulesets' names, for messages, into out (cut to
 * cap); returns out. */
const char *match_rules_names(char *out, size_t cap);

/* Each seat's moves in turns (every turn's moves, as stored): the entries
 * that are strings other than the ruleset's missed text, into
 * sent[0..n). */
void match_rules_moves_sent(const struct match_rules *mr, const json_t *turns, int n, int *sent);

#endif
