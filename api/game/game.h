/*
 * game.h: the game descriptor. Every ruleset the daemon serves is one
 * `struct game`: its name and rules version, its state codec, the JSON of
 * its answers, its action reader, its summary for the runs table (which
 * also orders its leaderboard), its final summary and certificate claims,
 * and its replay verifier. The HTTP pipeline, the boards, replays and
 * stateTokens are written once against this struct; the table in
 * game_table.c lists the games.
 *
 * Adding a ruleset: its folders engine/<game>/ and api/<game>/ (the
 * latter defining `const struct game game_<game>`), its tests, its rules
 * page and one line in api/games.txt, from which game_table.c's table is
 * made (docs/architecture.md, "Adding a game").
 *
 * Facts. A state is sealed into every token, so it must stay small; a game
 * whose rules look at a run's whole history (HATETRIS: every board seen)
 * cannot keep that history in it. Such a game names a fact size, records
 * one fact (a fixed-size byte string) per move in its turn, and asks about
 * the facts of the moves before through its environment while it plays.
 * The daemon stores them beside the moves, in the job that stores the
 * moves, and answers the questions from memory; a replay keeps its own.
 *
 * Every function pointer is pure CPU over plain structs: none touches the
 * network, a clock or the store. A state is the engine's own fixed-size
 * struct, held in a `game_state` (big and aligned enough for any game's)
 * and copyable with memcpy.
 */
#ifndef API_GAME_H
#define API_GAME_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "engine.h"
#include "errors.h"
#include "jw.h"

/* The games' ids, GAME_<FOLDER>, in the order of the list (games.txt):
 * an id is sealed into stateTokens. */
enum game_id {
#define GAME(folder, ID) GAME_##ID,
#include "games.def"
#undef GAME
	GAME__COUNT
};

#define GAME_STATE_MAX 512     /* serialised state bytes, at most (tokens and the store hold it) */
#define GAME_STRUCT_MAX 1024   /* an engine state struct, at most */
#define GAME_MOVES_MAX 64      /* moves one request may store */
#define GAME_MOVE_TEXT_MAX 64  /* a move's canonical JSON, NUL included */
#define GAME_CANON_MAX 4096    /* a request's canonical text (what a retry repeats) */
#define GAME_ID_TEXT_MAX 24    /* an id (run, seed) as decimal text, NUL included */
#define GAME_FACT_MAX 32       /* a fact's bytes, at most */

/* An engine state of any game. */
typedef union {
	max_align_t   align_;
	unsigned char bytes[GAME_STRUCT_MAX];
} game_state;

/* Whether fact (game_ext(game)->fact_bytes bytes) is one of the run's facts: see
 * struct game_env. */
typedef bool (*game_fact_fn)(void *ctx, const uint8_t *fact);

struct game;

/* What the daemon gives a game's functions besides the state. */
struct game_env {
	void *work; /* the calling thread's working memory for this game alone,
	               game->work_size bytes, zeroed when first given (NULL if 0) */
	/* The run's facts, for play on a game with facts: fact_known(facts_ctx,
	 * f) answers whether one of the moves that led to the state being
	 * played recorded f. It answers from a set that does not change during
	 * one call of play, and may read the store on its first question (the
	 * daemon's, not the game's: the game stays pure CPU). When it could not
	 * read them it answers false and the daemon discards the call's result.
	 * NULL: the run has no facts (a new run, or a game without). */
	game_fact_fn fact_known;
	void        *facts_ctx;
	/* Block key of g's shared read-only data (see struct game's
	 * shared_build), built at its first request by the daemon, which owns
	 * it and serialises the build; the same pointer for every thread
	 * after. NULL when it could not be built, key is out of range, or the
	 * caller keeps none (then the game refuses what needs it). */
	const void *(*shared)(const struct game *g, unsigned key);
};

/* How a run stands, as the runs table records it with every head change. */
struct game_summary {
	const char *status;      /* the game's own word: playing/over, playing/break/done */
	bool        over;        /* the game has ended: it ranks and can be finished */
	const char *end_reason;  /* NULL while playing (and for games without reasons) */
	int64_t     score;
	int64_t     lines, pieces, rung, lives; /* -1 where the game has no such figure */
	int64_t     rank[3];     /* leaderboard keys, most significant first, higher is better */
};

/* One action request (or a batch of commands) played on a state. */
struct game_turn {
	bool           refused;  /* the request changes nothing: answered 422 */
	enum api_error refusal;  /* when refused */
	char           reason[ENGINE_REASON_MAX];
	size_t         nmoves;   /* moves to store; 0 with !refused: nothing changed (options) */
	char           moves[GAME_MOVES_MAX][GAME_MOVE_TEXT_MAX]; /* canonical JSON, in order */
	char           canon[GAME_CANON_MAX]; /* what a retry must repeat, NUL-terminated */
	size_t         nfacts;   /* facts to record with the moves, 0..GAME_MOVES_MAX */
	struct {
		uint32_t move;       /* index into moves of the move that records it */
		uint8_t  bytes[GAME_FACT_MAX]; /* game_ext(game)->fact_bytes of them */
	} facts[GAME_MOVES_MAX];
};

/* A query-string lookup for reading init options (NULL when absent). */
typedef const char *(*game_query_fn)(void *ctx, const char *name);

/*
 * Options of a new run. A game lists its options in its descriptor; one
 * reader (game_read_options) takes each from the init body's field, else
 * from the query string, within its bounds, for every game alike. The
 * seed is read the same way (game_read_seed) and is not in the list.
 */
#define GAME_OPTIONS_MAX 4

enum game_option_flags {
	/* An episode cap: the operator's --cap-max lowers max, and an init
	 * that names none gets --cap-default (within max) instead of dflt. */
	GAME_OPTION_CAP = 1u << 0,
};

struct game_option {
	const char *name;   /* the body field and query parameter */
	int64_t     min, max;
	int64_t     dflt;   /* when the init names none */
	unsigned    flags;  /* enum game_option_flags */
	const char *help;   /* one line: what it sets (docs, rules, --help) */
};

struct game_request {
	const json_t *body;  /* the JSON body, NULL when empty */
	game_query_fn query;
	void         *query_ctx;
	/* The operator's episode caps (--cap-default, --cap-max), in moves, for
	 * an option marked GAME_OPTION_CAP: the cap a run gets when its init
	 * asks for none (0: no cap), and the largest cap an init may ask for
	 * (0 counts as no bound but the option's own). */
	uint64_t      cap_default;
	uint64_t      cap_max;
};

/* The value of an option, as read for one init: opts[i] is the value of
 * game->options[i]. */
struct game_options {
	int64_t v[GAME_OPTIONS_MAX];
};

/* One re-simulation of a replay, from replay_start to replay_end: the
 * environment, and whatever the game keeps for the length of it (a set of
 * boards seen, say; NULL when nothing). */
struct replay_ctx {
	const struct game_env *env;
	void                  *game;
};

/* What verifying a replay found. */
struct replay_check {
	const struct game *game;
	size_t    step;       /* 1-based action at fault; 0 when the fault is not an action's */
	size_t    nactions;
	char      reason[256];
	json_t   *final;      /* the re-simulated final summary (caller decrefs), or NULL */
};

/* A command line tool a game offers: `arcaded NAME ARGS...` runs run with
 * argv[0] NAME and env the calling thread's (its working memory, the
 * shared blocks). It prints what it found and returns the exit status
 * (2: a usage error). */
struct game_subcommand {
	const char *name;
	const char *usage;  /* the arguments after NAME, for its usage line */
	const char *help;   /* one line: what it prints or does, for arcaded --help */
	int       (*run)(int argc, char **argv, const struct game_env *env);
};

/*
 * One figure of a run that a player needs each turn, as an agent's text
 * (the MCP text block, docs/mcp.md) names it: the member key of the
 * answer's state (or of the flat answer), and its words. A figure is
 * written "label value" (null as "none", an array's items one after another,
 * "none" when empty); a boolean is written if_true when true and if_false
 * when false (NULL: left out), or "label yes"/"label no" when both are
 * NULL.
 */
struct game_fact {
	const char *key;
	const char *label;
	const char *if_true, *if_false;
};

/*
 * What a game may leave out: every member NULL or 0 means the game has no
 * such thing, and a game with none of them leaves struct game's ext NULL
 * (game_ext() then gives an empty one, so callers ask without a test).
 */
struct game_ext {
	size_t      fact_bytes;      /* 1..GAME_FACT_MAX: the size of the facts its moves
	                                record; 0: it records none. A game with facts has
	                                no account routes (abandon NULL): those play
	                                inside the store job, where no facts are read */
	/* Makes scratch_size bytes of any content ready for read_action, play
	 * and answer_write: it sets what they read before they write it (a big
	 * scratch need not be cleared whole on every request). NULL: the
	 * scratch is zeroed. */
	void      (*scratch_init)(void *scratch);
	/* Read-only data every thread shares (wells: one solved value table
	 * per well size), in nshared blocks by key 0..nshared-1: block key
	 * takes shared_size(key) bytes, zeroed, that shared_build fills once
	 * (pure CPU; false: it could not, and the block is dropped). The game
	 * reads a block through env->shared. 0 and NULL: none. */
	unsigned    nshared;
	size_t    (*shared_size)(unsigned key);
	bool      (*shared_build)(unsigned key, void *mem, size_t bytes);
	/* A game whose seed is its options (wells: the well's size): the seed
	 * of every run with these options, which an init may not name; false
	 * with msg for a 400 when the options do not go together. */
	bool      (*seed_of)(const struct game_options *opts, int64_t *seed, char *msg, size_t cap);

	/* Ends an unfinished run because its account started a new one on the
	 * seed's own routes, as one move in t; NULL for a game without those
	 * routes. */
	bool (*abandon)(void *st, struct game_turn *t);

	/* Options a replay carries besides seed and actions (the cap of a
	 * capped run), merged into the replay object. */
	json_t *(*replay_options)(const void *st);

	/* Frees what replay_start kept in rc->game. */
	void (*replay_end)(struct replay_ctx *rc);

	/* What one stored move did, for the pages that draw a replay step by
	 * step (docs/web.md): before and after are the states around the
	 * move, move the stored move (borrowed). A new object, or NULL when
	 * the move marks nothing (a hold, say). NULL for a game with nothing
	 * to add, whose pages draw the states alone. */
	json_t *(*move_marks)(const void *before, const void *after, const json_t *move);

	/* POST .../replays/import: a record in the game's outside format
	 * (the body, borrowed) re-simulated: a new object with what it found,
	 * or NULL with why (a 422; *oom: a 500). NULL: its import route is a
	 * 404. */
	json_t *(*replay_import)(const json_t *body, bool *oom, char *why, size_t cap);

	/* What replay_import found, in one line for `arcaded verify` (after
	 * "valid: "), written into out (cut to cap). */
	void (*record_text)(const json_t *imported, char *out, size_t cap);

	/* A finished run in the game's outside format (GET .../runs/{id}/record,
	 * on a verification worker: pure, and it may take a while), made from
	 * its end state and stored moves (both borrowed). A new object, or NULL
	 * when the moves do not make it or memory runs out. NULL: its record
	 * route is a 404. */
	json_t *(*run_record)(const void *st, const json_t *actions);

	/* The game's own command line tools (cli.c), ended by one with a NULL
	 * name; NULL: none. */
	const struct game_subcommand *subcommands;

	/* The figures an agent's text names each turn (the piece in hand and
	 * next, score, lines, lives...), in order, ended by one with a NULL
	 * key; NULL: none beyond the board. */
	const struct game_fact *facts;
};

/*
 * What every game says: its data, and twelve hooks (state codec, init,
 * action reader, play, the answer's writer, summary, final, claims, rules,
 * replay start and move). The rest is in ext.
 */
struct game {
	enum game_id   id;
	const char *name;            /* in paths and tokens: "stackfall" */
	const char *rules;           /* in replays and certificates: "stackfall-v1" */
	int         rules_version;   /* sealed into its tokens (1..1000): a token of another
	                                version of the game's rules does not open */
	const char *title;           /* for people: "Stackfall" */
	const char *how_to_play;     /* the rules in one text a reader (an LLM) takes in at
	                                once: the rules route's howToPlay */
	const char *how_to_end;      /* how a run ends, for a finish sent too early: "send
	                                {\"type\": \"resign\"}, or play until ..." */
	bool        check_default;   /* the agent check is on unless the operator says otherwise */
	bool        hides_future;    /* a playing run's seed would reveal what is to come: its
	                                replay is withheld until it is over */
	bool        seedless;        /* the game has no seed: init refuses one; its runs and
	                                replays carry seed 0 */
	size_t      work_size;       /* per-thread working memory for env->work (0: none) */
	size_t      scratch_size;    /* per-request working memory for read_action/play/answer */
	const struct game_option *options; /* what an init may set besides the seed */
	size_t      noptions;        /* 0..GAME_OPTIONS_MAX */
	const char *const *action_fields; /* body fields of an action besides "stateToken" */
	const char *const *board_fields;  /* of "lines", "pieces", "rung", "lives": shown on
	                                     leaderboards and run pages, in this order */
	/* Replays. replay_keys: the keys a replay carries besides schema,
	 * rules, seed, actions and final (NULL-terminated; NULL: none);
	 * final_keys: the exact keys of final(). replay_read (replay.h) has
	 * checked them, and the seed's range, before replay_start runs. */
	const char *const *replay_keys;
	const char *const *final_keys;

	/* The state's bytes, as sealed into tokens and stored. encode returns
	 * the length (nothing written when it exceeds cap); decode refuses
	 * anything that encode would not have written. */
	size_t (*encode)(const void *st, uint8_t *out, size_t cap);
	bool   (*decode)(void *st, const uint8_t *in, size_t n);

	/* A new run on seed with the options read (game_read_options); false
	 * with *err and msg for a 500. */
	bool (*init)(void *st, uint64_t seed, const struct game_options *opts,
	    const struct game_env *env, enum api_error *err, char *msg, size_t cap);

	/* Reads an action request's game fields (the body's other fields are
	 * checked already) into scratch; false with msg for a 400. */
	bool (*read_action)(const json_t *body, void *scratch, char *msg, size_t cap);

	/* Plays the action read into scratch on st. On a refusal st is left as
	 * it was; otherwise st is the state after and t lists the moves, and
	 * the facts they record (a game with facts: see env). */
	void (*play)(void *st, void *scratch, const struct game_env *env, struct game_turn *t);

	/* The game's part of an answer written into w, inside the answer's
	 * object after stateToken: flat fields or a `state` object, as the
	 * game's API is. scratch is the request's (results of commands) or
	 * NULL. False when it could not be written. The one writer of it:
	 * every answer that shows a run (200s, refusals and stale tokens with
	 * the run, finishes on the seed's routes, MCP results) has it. */
	bool (*answer_write)(struct jw *w, const void *st, const void *scratch);

	void (*summary)(const void *st, struct game_summary *out);

	/* A replay's final summary, which verification compares exactly. */
	json_t *(*final)(const void *st);

	/* What a result certificate asserts about the game, and what a finish
	 * answer adds to the final summary. */
	json_t *(*claims)(const void *st);

	/* GET .../rules. */
	json_t *(*rules_json)(void);

	/* The state a replay starts from: its seed and options (from the
	 * replay object). False with the reason. A game with facts keeps the
	 * replay's own in rc->game: the daemon's are not asked. */
	bool (*replay_start)(void *st, int64_t seed, const json_t *replay, struct replay_ctx *rc,
	    char *reason, size_t cap);

	/* Plays one stored move (an element of actions) on st. False with the
	 * reason, st then unspecified. */
	bool (*replay_move)(void *st, const json_t *move, struct replay_ctx *rc, char *reason,
	    size_t cap);

	/* The optional hooks; NULL: none of them. */
	const struct game_ext *ext;
};

/* g's optional hooks: its ext, or one with none when it has no ext. */
extern const struct game_ext game_ext_none;
static inline const struct game_ext *
game_ext(const struct game *g)
{
	return g->ext != NULL ? g->ext : &game_ext_none;
}

/* A turn made ready for play: its header only, since the game writes each
 * move, fact and the canonical text it reports (10 KB not cleared on every
 * request). A game that refuses names its error; one that forgot would be
 * a 500. */
static inline void
game_turn_reset(struct game_turn *t)
{
	t->refused = false;
	t->refusal = API_ERR_INTERNAL;
	t->reason[0] = '\0';
	t->nmoves = t->nfacts = 0;
	t->canon[0] = '\0';
}

/* g's scratch (g->scratch_size bytes) made ready for read_action, play and
 * answer_write: what its scratch_init names, else all of it zeroed. */
static inline void
game_scratch_ready(const struct game *g, void *scratch)
{
	if (game_ext(g)->scratch_init != NULL)
		game_ext(g)->scratch_init(scratch);
	else
		memset(scratch, 0, g->scratch_size);
}

/* The run's part of every answer that shows a run, written into an open
 * object: "runId", "stateToken", then the game's part (answer_write). A
 * 200 has "game" before it, a refusal with the run its "error". False
 * when it could not be written. */
bool game_answer_fields(struct jw *w, const struct game *g, const char *run_id, const char *token,
    const void *st, const void *scratch);

/* A game route's answer written into w: {"game", game_answer_fields,
 * then extra_key with extra (borrowed) when both are not NULL}. False
 * when it could not be written. */
bool game_answer_write(struct jw *w, const struct game *g, const char *run_id, const char *token,
    const void *st, const void *scratch, const char *extra_key, const json_t *extra);

/* The games, indexed by enum game_id. */
extern const struct game *const game_table[GAME__COUNT];

/* The game named by the first len bytes of s, or NULL. */
const struct game *game_by_name(const char *s, size_t len);

/* The game whose rules version is rules, or NULL. */
const struct game *game_by_rules(const char *rules);

/* The game of id, or NULL when out of range. */
const struct game *game_get(enum game_id id);

/* "stackfall, duskcourt": the names, for messages, written into out
 * (truncated to cap); returns out. game_seed_route_names: those of the
 * games with the seed's own routes; game_names_with_option: those whose
 * init takes the option called name. */
#define GAME_NAMES_MAX 128
const char *game_names(char *out, size_t cap);
const char *game_seed_route_names(char *out, size_t cap);
const char *game_names_with_option(const char *name, char *out, size_t cap);

/* An integer init parameter: the body's field name, else the query's, in
 * lo..hi. *present says whether either named it (*v is then its value;
 * otherwise untouched). False with msg for a 400. */
bool game_read_int(const struct game_request *rq, const char *name, int64_t lo, int64_t hi,
    bool *present, int64_t *v, char *msg, size_t cap);

/* The seed of an init of g: 0..ENGINE_ID_MAX, from the body or the query;
 * when absent, a random one (*chosen false); a seedless game's is 0, a game
 * with seed_of has the one its options give (*chosen false), and for both
 * naming one is refused. False with msg for a 400. */
bool game_read_seed(const struct game *g, const struct game_request *rq, int64_t *seed,
    bool *chosen, char *msg, size_t cap);

/* A random seed, 0..ENGINE_ID_MAX. */
int64_t game_random_seed(void);

/* Every option of g, in its list's order. False with msg for a 400. */
bool game_read_options(const struct game *g, const struct game_request *rq,
    struct game_options *out, char *msg, size_t cap);

/* Whether rq's body holds nothing but the fields an init of g takes (seed,
 * g's options, and the common ones), and no seed for a seedless game;
 * false with msg. Not strict (the seed's routes): other fields are
 * ignored, the common ones still checked. */
bool game_init_fields_known(const struct game *g, const struct game_request *rq, bool strict,
    char *msg, size_t cap);

#endif
