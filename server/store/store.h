/*
 * store.h: the store, on SQLite (a file: the embedded default) or on
 * PostgreSQL (a postgresql:// URL, shared by several daemons).
 *
 * One writer connection owned by one writer thread does every write. Work
 * reaches it as jobs; the writer takes every job waiting at that moment,
 * runs them in one transaction (each inside its own savepoint, so one
 * job's failure does not undo another's) and commits once: group commit.
 * Only then does it report each job done. A job that is reported done with
 * STORE_JOB_COMMITTED is durable to the configured synchronous level; any other
 * status means nothing it wrote exists.
 *
 * Reads that need no transaction with a write use a pool of read-only
 * connections (WAL lets them run beside the writer).
 *
 * On PostgreSQL several daemons' writers run at once on one database. A
 * job must therefore lock what it decides on (store_run_head on the writer
 * locks the run's row until the commit) and write with compare-and-set or
 * uniqueness, as every store function here does; a batch that meets a
 * serialization failure, deadlock or lost connection is run again from
 * its first job, so a job must be safe to run again after a
 * rollback (set its outputs, do not accumulate them).
 *
 * Migrations (migrations/NNNN_name.sql for SQLite, migrations/pg/ for
 * PostgreSQL, the same numbers, compiled in) are applied at open, in order,
 * one transaction each, and recorded in schema_migrations.
 */
#ifndef SERVER_STORE_H
#define SERVER_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "agentkey.h"
#include "game.h"
#include "match_limits.h"
#include "store_base.h"
#include "store_target.h"

/* What a call returns (enum store_result), a commit's durability (enum
 * sync_mode) and the store's log are in store_base.h; what a --db value
 * names is in store_target.h. */

struct store;
struct store_conn; /* a connection and its prepared statements */

/* How a job went, as reported to its done callback. */
enum store_job_status {
	STORE_JOB_PENDING = -1,
	STORE_JOB_COMMITTED = 0,     /* the job ran and its writes are committed */
	STORE_JOB_FAILED = 1,        /* the job returned STORE_ERROR: its writes were rolled back */
	STORE_JOB_COMMIT_FAILED = 2, /* the transaction could not commit: nothing was written */
	STORE_JOB_OUTCOME_UNKNOWN = 3 /* PostgreSQL: the connection was lost during COMMIT, or the
	                               * wait for a synchronous standby was cut by statement_timeout:
	                               * the writes may or may not be there (resend to learn) */
};

/* Runs inside the writer's transaction. Returns STORE_ERROR to roll back
 * everything this job wrote, else the job's own verdict lives in arg (a
 * lost compare-and-set is a verdict, not an error). Must not act outside
 * the database (the commit may still fail): results are to be believed
 * only once the job is reported STORE_JOB_COMMITTED. */
typedef enum store_result (*store_fn)(struct store_conn *c, void *arg);

struct store_job {
	store_fn run;
	void   (*done)(struct store_job *job); /* called on the writer thread after the commit */
	void    *arg;
	enum store_job_status status;
	struct store_job *next;                 /* the store's, while queued */
};

/* Opens (creating when missing) the database at path, applies pending
 * migrations and starts the writer. nreaders read-only connections are
 * opened for store_reader(). On failure returns NULL with one line in err
 * (e.g. a database newer than this binary). */
struct store *store_open(const char *path, enum sync_mode sync, unsigned nreaders,
    char *err, size_t errcap);

/* PostgreSQL only: how long a lost connection is opened again before the
 * jobs waiting on it fail (then store_reachable() is false and requests
 * are answered 503), and the writer's statement_timeout, which bounds a
 * COMMIT waiting for a synchronous standby that does not answer. */
struct store_limits {
	unsigned retry_ms;             /* default STORE_RETRY_MS_DEFAULT */
	unsigned statement_timeout_ms; /* 0: none; default STORE_STATEMENT_TIMEOUT_MS_DEFAULT */
};
#define STORE_RETRY_MS_DEFAULT 5000
#define STORE_STATEMENT_TIMEOUT_MS_DEFAULT 10000
/* store_open with limits (NULL: the defaults). */
struct store *store_open_with(const char *path, enum sync_mode sync, unsigned nreaders,
    const struct store_limits *limits, char *err, size_t errcap);

/* False while the database cannot be reached: the last attempt to
 * (re)connect to PostgreSQL failed, the writer gave up on a batch for it,
 * or a statement ran into statement_timeout, and nothing has committed or
 * connected since. Always true on SQLite and for NULL. */
bool store_reachable(struct store *s);

/* Lets queued jobs finish, stops the writer, checkpoints the WAL into the
 * database file and closes every connection. Accepts NULL. */
void store_close(struct store *s);

/* How many waiting jobs one transaction takes at most (default
 * STORE_BATCH_DEFAULT; 1 commits every job on its own). */
#define STORE_BATCH_DEFAULT 256
void store_set_batch_limit(struct store *s, unsigned n);

/* Queues job; job->done is called once, on the writer thread. The job must
 * stay valid until then. */
void store_submit(struct store *s, struct store_job *job);

/* Waits until every job submitted so far has been reported done, or
 * timeout_ms has passed; true when drained. The writer keeps running. */
bool store_drain(struct store *s, int timeout_ms);

/* Queues a job and waits for it; returns its status. */
enum store_job_status store_call(struct store *s, store_fn run, void *arg);

/* A read-only connection for the calling thread, to be given back with
 * store_reader_release() before the thread waits on anything. */
struct store_conn *store_reader(struct store *s);
void store_reader_release(struct store *s, struct store_conn *c);

/* The schema version (number of applied migrations). */
int store_schema_version(const struct store *s);

/* Whether the database's disk is full: a write failed for it (SQLite's
 * SQLITE_FULL, PostgreSQL's SQLSTATE 53100) and no transaction has
 * committed since. NULL: false. */
bool store_disk_full(struct store *s);

/* A job that writes the probe row: committed means the database takes
 * writes now. */
enum store_result store_probe(struct store_conn *c, void *arg);


/* Figures for /metrics. */
struct store_stats {
	bool     postgres;       /* which backend the rest describes */
	uint64_t commits;        /* transactions committed by the writer */
	uint64_t jobs;           /* jobs run */
	uint64_t commit_failures;
	uint64_t max_batch;      /* the most jobs in one transaction */
	uint64_t queue_depth;    /* jobs submitted and not yet reported done, now */
	uint64_t readers, readers_busy; /* the read pool's size and connections lent out now */
	uint64_t reader_waits;   /* times a thread waited for a free reader */
	/* PostgreSQL */
	uint64_t retries;        /* batches run again (serialization failure, deadlock or
	                          * lost connection) */
	uint64_t conn_errors;    /* connections found lost (writer and readers) */
	/* SQLite */
	uint64_t checkpoints;    /* WAL checkpoints that restarted the WAL */
	uint64_t checkpoint_busy; /* checkpoints that found readers in the way (the WAL goes on) */
	uint64_t checkpoint_waits; /* times the writer waited for a checkpoint: the WAL had passed
	                            * 32 MiB, the disk not keeping up with the writes */
	int64_t  checkpoint_at_ms; /* when the last one finished, ms since the epoch; 0: none */
	uint64_t checkpoint_hold_us; /* how long the last one held the writer, microseconds */
	uint64_t wal_frames;     /* pages in the WAL after the last commit */
	uint64_t wal_bytes;      /* size of the -wal file now */
};
void store_stats(struct store *s, struct store_stats *out);

/* arcaded backup: a consistent copy of the SQLite database at db into the
 * new file out (VACUUM INTO, one read transaction: a running daemon goes on
 * writing). 0, or -1 with a line in err. */
int store_backup(const char *db, const char *out, char *err, size_t errcap);

/* arcaded copy: every row of the SQLite database at from (migrated to this
 * binary's version first) into the PostgreSQL database to, which must hold
 * no accounts, runs or reviews; one transaction. Prints progress to
 * stdout. 0, or -1 with a line in err. */
int store_copy(const char *from, const char *to, char *err, size_t errcap);

/* Milliseconds since the Unix epoch: the store's clock for created_at. */
int64_t store_now_ms(void);

/*
 * Accounts and agent keys (store_accounts.c). Job functions (store_fn)
 * take the struct named in their comment; reads take a reader connection.
 * Every function returns an enum store_result.
 */
#define STORE_NAME_MAX 32
#define STORE_KEY_ID_MAX 16
#define STORE_KEY_HASH 32
#define STORE_MAX_LIVE_KEYS AGENTKEY_LIVE_MAX

/* store_fn over struct store_account_new: creates the account and its
 * first key unless the name is taken (name_taken, nothing written). */
struct store_account_new {
	const char *name;
	char        key_id[STORE_KEY_ID_MAX + 1];
	uint8_t     hash[STORE_KEY_HASH];
	int64_t     now;
	bool        name_taken;  /* out */
	int64_t     account_id;  /* out */
};
enum store_result store_account_create(struct store_conn *c, void *arg);

/* store_fn over struct store_key_change: adds key_id (refused when the
 * account already has STORE_MAX_LIVE_KEYS live keys) or revokes it. */
struct store_key_change {
	int64_t account_id;
	char    key_id[STORE_KEY_ID_MAX + 1];
	uint8_t hash[STORE_KEY_HASH];
	int64_t now;
	enum { STORE_KEY_DONE, STORE_KEY_LIMIT, STORE_KEY_UNKNOWN, STORE_KEY_LAST } result; /* out */
};
enum store_result store_key_add(struct store_conn *c, void *arg);
enum store_result store_key_revoke(struct store_conn *c, void *arg);

/* The account a key id belongs to, with the key's stored hash: OK or
 * NOT_FOUND. */
struct store_key_row {
	int64_t account_id;
	char    name[STORE_NAME_MAX + 1];
	uint8_t hash[STORE_KEY_HASH];
	bool    revoked;
};
enum store_result store_key_lookup(struct store_conn *c, const char *key_id,
    struct store_key_row *out);

/* An account and its keys (live first, then revoked, newest first). */
struct store_account_view {
	char    name[STORE_NAME_MAX + 1];
	int64_t created_at;
	int     nkeys;
	struct {
		char    id[STORE_KEY_ID_MAX + 1];
		int64_t created_at;
		int64_t revoked_at; /* 0: live */
	} keys[8];
};
/* OK or NOT_FOUND. */
enum store_result store_account_view(struct store_conn *c, int64_t account_id,
    struct store_account_view *out);

/*
 * An account's public history (store_history.c): what its page reads. On
 * a reader; every list at most limit <= STORE_PAGE_MAX rows.
 */
/* The account named name, whatever its case: OK (its id, creation time
 * and name as created, into out of capacity cap) or NOT_FOUND. */
enum store_result store_account_by_name(struct store_conn *c, const char *name, int64_t *id,
    int64_t *created_at, char *out, size_t cap);

struct store_history_run {
	int64_t id, seed, score, moves, created_at, ended_at; /* ended_at 0: not yet */
	int64_t lines, pieces, rung, lives;                   /* -1: none */
	bool    over, seed_chosen;
	char    status[16], end_reason[16];
	int64_t runs;                      /* store_account_best: the ranked runs on the seed */
};
/* The account's runs of game, newest first (created_at, then id; index
 * runs_account), after the cursor when has_before. */
enum store_result store_account_runs(struct store_conn *c, int64_t account_id, const char *game,
    bool has_before, int64_t before_at, int64_t before_id, int limit, struct store_history_run *out,
    int *n);
/* How many runs the account has of game (one row of the summary,
 * account_games). */
enum store_result store_account_run_count(struct store_conn *c, int64_t account_id,
    const char *game, int64_t *count);
/* The account's best ranked run (ended, not abandoned) on each seed of
 * game, best first by the leaderboard's keys: at most limit seeds, read
 * from the summary (account_seeds) in the order of its index. */
enum store_result store_account_best(struct store_conn *c, int64_t account_id, const char *game,
    int limit, struct store_history_run *out, int *n);

/*
 * Agent-check puzzles (store_agent.c). Called from inside jobs.
 */
#define STORE_CHECK_TOKEN_MAX 40

#define STORE_OWNER_MAX 64 /* "a:ID" or "ip:ADDRESS", NUL included */

/* Stores a puzzle's token, answer, expiry and issuer (STORE_OWNER_MAX). */
enum store_result store_check_insert(struct store_conn *c, const char *token, int64_t answer,
    int64_t expires_at, const char *owner);

enum store_check_verdict {
	STORE_CHECK_PASS,     /* right answer in time */
	STORE_CHECK_WRONG,    /* spent: the answer was wrong */
	STORE_CHECK_EXPIRED,  /* spent: too late */
	STORE_CHECK_UNKNOWN,  /* no such live puzzle: never issued or already spent */
};

/* Spends the puzzle token atomically (the first presentation wins, right
 * or wrong, whoever presents it) and judges answer (have_answer false: not
 * a whole number). The presenter is known by two names, its account's and
 * its address's ("" when it has none); one of them must be the issuer's,
 * else the verdict is UNKNOWN. The verdict goes in *out. */
enum store_result store_check_spend(struct store_conn *c, const char *token,
    const char *const presenter[2], bool have_answer, int64_t answer, int64_t now,
    enum store_check_verdict *out);

/* store_fn over struct store_sweep: deletes puzzles that expired before
 * puzzles_before, and runs that never got a move and matches still in their
 * lobby, created before unplayed_before (all ms), at most limit rows of
 * each; says how many. A finished or played run, and a match that started,
 * are never touched. */
struct store_sweep {
	int64_t puzzles_before, unplayed_before;
	int     limit;
	int64_t puzzles, runs, lobbies; /* out */
};
enum store_result store_sweep(struct store_conn *c, void *arg);

/*
 * Runs and their moves (store_runs.c). The head of a run (step, state)
 * moves only by store_run_advance, a compare-and-set on step. A run's row
 * also carries its game's summary (struct game_summary), written with
 * every head change, which leaderboards read.
 */
#define STORE_STATE_MAX GAME_STATE_MAX
#define STORE_FP_BYTES 16
#define STORE_MOVES_MAX GAME_MOVES_MAX

struct store_run_new {
	const char    *game, *rules;
	int64_t        account_id;   /* 0: anonymous */
	int64_t        seed;
	bool           seed_chosen;  /* the client chose the seed */
	const uint8_t *state;
	size_t         nstate;
	struct game_summary sum;
	int64_t        now;
	int64_t        id;           /* out: the new run's random id */
};
/* Inserts a run (inside a job) under a fresh random id. */
enum store_result store_run_insert(struct store_conn *c, struct store_run_new *r);

struct store_run_head {
	int64_t id, account_id, seed, step, created_at, ended_at, finished_at;
	int64_t last_from_step;     /* -1: no request yet */
	bool    seed_chosen, over;
	char    game[24], status[12], end_reason[16], account[STORE_NAME_MAX + 1];
	int64_t score, lines, pieces, rung, lives; /* -1: NULL */
	uint8_t last_request[STORE_FP_BYTES];
	uint8_t state[STORE_STATE_MAX];
	size_t  nstate;
};
/* The run's row: OK or NOT_FOUND. */
enum store_result store_run_head(struct store_conn *c, int64_t id, struct store_run_head *out);

/* The newest run of an account in a game: OK or NOT_FOUND. */
enum store_result store_run_latest(struct store_conn *c, int64_t account_id, const char *game,
    int64_t *id);

struct store_run_advance {
	int64_t        id, from_step;
	size_t         nmoves;         /* 1..STORE_MOVES_MAX */
	const char    *actions[STORE_MOVES_MAX]; /* canonical JSON of each move */
	const uint8_t *state;
	size_t         nstate;
	struct game_summary sum;
	uint8_t        fp[STORE_FP_BYTES]; /* the request's fingerprint, for retries */
	int64_t        now;
};
/* Appends the moves and moves the head from from_step to from_step +
 * nmoves: OK, or CONFLICT when the head was not at from_step (nothing
 * written). */
enum store_result store_run_advance(struct store_conn *c, const struct store_run_advance *a);

/* The run's actions in order, as a JSON array of objects (caller owns), or
 * NULL on error. */
json_t *store_run_actions(struct store_conn *c, int64_t id);

struct store_run_finish {
	int64_t     id, account_id;
	const char *game;
	int         rating;
	const char *review;
	const char *certificate;
	int64_t     now;
	bool        listed;      /* the review shows on the public feed (store_reviews) */
};
/* Stores the review and certificate and marks the run finished: OK, or
 * CONFLICT when it already is (nothing written). A review not listed is
 * stored under the id -run id: the feed reads positive ids only, along
 * its index, so unlisted reviews cost its pages nothing. */
enum store_result store_run_finish(struct store_conn *c, const struct store_run_finish *f);

/* What finish added to a run: its certificate and its review, each NULL
 * when there is none (both malloc'd; free with store_run_extras_free). */
struct store_run_extras {
	char   *certificate;
	char   *review;
	int     rating;
	int64_t reviewed_at;
};
enum store_result store_run_extras(struct store_conn *c, int64_t id, struct store_run_extras *out);
void store_run_extras_free(struct store_run_extras *x);

/*
 * Run facts (store_facts.c): what a game's moves record beyond the state
 * (game.h's facts; HATETRIS: the key of each board left), one row per
 * distinct fact of a run with the first step that recorded it.
 */

/* Inside the job that advanced run's head to step: records fact (n bytes,
 * 1..GAME_FACT_MAX) as recorded at step. A fact the run already has keeps
 * its first step (nothing written). OK or ERROR. */
enum store_result store_fact_insert(struct store_conn *c, int64_t run, int64_t step,
    const uint8_t *fact, size_t n);

/* Every fact of run recorded at a step from 1 to step, in no particular
 * order, each passed to add (n bytes, borrowed for the call). One query,
 * on a reader or the writer. OK; ERROR when the database fails, a stored
 * fact is not n bytes long, or add returns false (out of memory). */
enum store_result store_facts_read(struct store_conn *c, int64_t run, int64_t step, size_t n,
    bool (*add)(void *ctx, const uint8_t *fact), void *ctx);

/*
 * Leaderboards and reviews (store_board.c): read-only, on a reader.
 */
#define STORE_PAGE_MAX 100

/* Where a page starts: after the row with these keys (rank is the last
 * row's position, so the next page numbers on). */
struct store_board_cursor {
	int64_t keys[3], id, rank;
};

struct store_board_entry {
	int64_t id, score, seed, ended_at;
	int64_t keys[3];                  /* the game's sort keys, for the next cursor */
	int64_t lines, pieces, rung, lives; /* -1: NULL */
	bool    seed_chosen;
	char    account[STORE_NAME_MAX + 1]; /* "" for anonymous */
};

/* Finished runs of game, best first (by the game's rank keys, then id):
 * with by_seed, every run on seed;
 * else the runs whose seed the server chose. after NULL starts at the top.
 * Fills out[0..*n), n <= limit <= STORE_PAGE_MAX. */
enum store_result store_leaderboard(struct store_conn *c, const char *game, bool by_seed, int64_t seed,
    const struct store_board_cursor *after, int limit, struct store_board_entry *out, int *n);

struct store_review_row {
	int64_t id, run_id, created_at; /* id: the page cursor */
	int     rating;
	char    account[STORE_NAME_MAX + 1];
	char   *text; /* malloc'd; free with store_reviews_free */
};

/* The moves a run without an account must have had for its review to be
 * listed (a review of a keyed run is listed at once). */
#define STORE_REVIEWS_ANON_MIN_STEPS 10

/* Listed reviews of game, newest first, older than review before_id when
 * has_before; and the count and sum of the ratings of all its reviews,
 * listed or not. */
enum store_result store_reviews(struct store_conn *c, const char *game, bool has_before, int64_t before_id,
    int limit, struct store_review_row *out, int *n, int64_t *count, int64_t *total);
void store_reviews_free(struct store_review_row *rows, int n);



/*
 * Versus matches (store_matches.c). A match's row carries its whole live
 * state as opaque bytes (the engine's state, the moves sent for the coming
 * turn, the lines sent and received); it moves only by
 * store_match_update, a compare-and-set on (turn, status), and by
 * store_match_join, a compare-and-set on the seats taken. Writes take the
 * writer's connection inside a job; reads may take either. Times are ms.
 */
#define STORE_MATCH_SEATS 8
/* The largest of every match ruleset's (api/meson.build writes them from
 * the table into match_limits.h; server/match_play.c checks each
 * descriptor against them at the start). */
#define STORE_MATCH_STATE_MAX MATCH_STATE_MAX_ALL     /* a state's bytes, at most */
#define STORE_MATCH_PENDING_MAX MATCH_PENDING_MAX_ALL /* the pending moves' bytes, at most */
#define STORE_MATCH_TOTALS_MAX MATCH_TOTALS_SIZE_ALL  /* the totals' bytes, at most */
/* STORE_ITEM_KINDS: store_base.h */

struct store_match_new {
	int64_t account_id;             /* the creator, who takes seat 0 */
	int     players, turn_seconds, turn_cap;
	int64_t seed;
	bool    seed_chosen, rated;
	bool    items, queued;          /* the item setting; opened by the quick-match queue */
	uint8_t item_chance;            /* 1..100 with items, 0 without */
	uint8_t item_weights[STORE_ITEM_KINDS]; /* all 1 without items */
	const char *rules;
	bool    ticks;                  /* played on the tick clock (migration 0011) */
	const char *net;                /* the creator's network (migration 0013) */
	int64_t now;
	int     lobbies_max;            /* the creator's matches in their lobby, at most */
	int64_t id;                     /* out: the new match's random id */
	bool    queue_taken;            /* out: CONFLICT because a queue lobby with these
	                                 * settings exists already (index matches_queue) */
};
/* Inserts a match in the lobby under a fresh random id, and its creator's
 * seat: OK; CONFLICT (nothing written) when the creator has lobbies_max
 * matches in their lobby already, or for a queued match when another queue
 * lobby with its settings exists (queue_taken set); or ERROR. */
enum store_result store_match_insert(struct store_conn *c, struct store_match_new *m);

/* The queue lobby with these settings (there is at most one): OK with its
 * id, NOT_FOUND, or ERROR. */
enum store_result store_match_queue_find(struct store_conn *c, int players, int turn_seconds,
    bool items, unsigned item_chance, const uint8_t item_weights[STORE_ITEM_KINDS], int64_t *id);

/* How many matches a and b both played that finished at since_ms or later
 * and moved their ratings, into *n. */
enum store_result store_match_pair_rated(struct store_conn *c, int64_t a, int64_t b,
    int64_t since_ms, int64_t *n);

/* How many matches that finished at since_ms or later and moved ratings
 * had a seat of network a and another of network b (a == b: two seats of
 * that one network), into *n. */
enum store_result store_match_nets_rated(struct store_conn *c, const char *a, const char *b,
    int64_t since_ms, int64_t *n);

/* Ranks the account's rating (out of provisional) when it is not ranked
 * yet and its rated matches reach matches, against opponents accounts
 * of nets networks other than the one its seat had. */
enum store_result store_rating_rank(struct store_conn *c, int64_t account_id, int64_t matches,
    int64_t opponents, int64_t nets);

/* Marks a queue match that moves no rating as unrated, with its reason. */
enum store_result store_match_unrated(struct store_conn *c, int64_t id, const char *reason);

struct store_match_seat {
	int64_t account_id;
	char    name[STORE_NAME_MAX + 1];
	char    net[64];                /* its network as it joined, "" when not known (0013) */
	int     place;                  /* 0 until finished */
	double  rating_before, rating_after; /* NAN unless a rated match has finished */
};

struct store_match_row {
	int64_t id, seed, turn, created_by, created_at;
	int64_t started_at, finished_at, deadline_at;    /* 0: not yet / none */
	int     players, joined, turn_seconds, turn_cap;
	bool    seed_chosen, rated;
	bool    items, queued;                           /* migration 0009 */
	uint8_t item_chance, item_weights[STORE_ITEM_KINDS]; /* migration 0010 */
	char    unrated_reason[16];                      /* "aborted", "pair_cap" or "" (0009) */
	bool    ticks;                                   /* clock 'ticks': real time (0011) */
	char    rules[16], status[12], end_reason[16];  /* end_reason "" while playing */
	uint8_t state[STORE_MATCH_STATE_MAX];
	size_t  nstate;                                  /* 0 in the lobby */
	uint8_t pending[STORE_MATCH_PENDING_MAX];
	size_t  npending;
	uint8_t totals[STORE_MATCH_TOTALS_MAX];
	size_t  ntotals;
	char   *last_turn;    /* JSON text or NULL; malloc'd: store_match_row_free */
	char   *certificate;  /* likewise */
	int     nseats;       /* seats taken, in seat order */
	struct store_match_seat seats[STORE_MATCH_SEATS];
};
/* The match's row and its seats (with the accounts' names): OK or
 * NOT_FOUND. */
enum store_result store_match_get(struct store_conn *c, int64_t id, struct store_match_row *out);
void store_match_row_free(struct store_match_row *r);

/* store_match_get in two: the row alone (nseats 0), then its seats into
 * it (out->id set), for a caller that may know the seats already. */
enum store_result store_match_get_row(struct store_conn *c, int64_t id, struct store_match_row *out);
enum store_result store_match_seats_read(struct store_conn *c, struct store_match_row *out);

/* Takes seat number from_joined for account_id: OK, or CONFLICT when the
 * seats taken are no longer from_joined, the match is not in the lobby or
 * the account already has a seat (nothing written). */
enum store_result store_match_join(struct store_conn *c, int64_t id, int from_joined,
    int64_t account_id, const char *net, int64_t now);

/* The compare-and-set that moves a match. Every field is written: the
 * caller passes the whole new row (NULL or 0 for a column to set to NULL;
 * a finish sets finished_at and end_reason). */
struct store_match_update {
	int64_t        id;
	int64_t        from_turn;      /* the row must still be at this turn ... */
	const char    *from_status;    /* ... and in this status */
	const char    *status;
	int64_t        turn;
	const uint8_t *state;
	size_t         nstate;
	const uint8_t *pending;
	size_t         npending;
	const uint8_t *totals;
	size_t         ntotals;
	const char    *last_turn;
	int64_t        deadline_at;    /* 0: NULL (not playing) */
	const char    *end_reason;     /* NULL while playing */
	int64_t        started_at, finished_at;
	const char    *certificate;
};
/* OK, or CONFLICT when the row was not at (from_turn, from_status):
 * nothing written. */
enum store_result store_match_update(struct store_conn *c, const struct store_match_update *u);

/* The two common moves of a playing match, each the same compare-and-set
 * on (turn, 'playing') as store_match_update, writing only the columns
 * that change, none of them in an index but deadline_at (so that the
 * match's indexes on status do not move on every move):
 *   - store_match_set_pending: a move that waits for the others, the
 *     pending moves of the coming turn (npending 0: NULL);
 *   - store_match_advance: a resolved turn after which the match plays
 *     on: u's turn, state, totals, last_turn and deadline_at, the pending
 *     moves cleared (u's from_turn is the compare; its statuses, start,
 *     end and certificate are not read).
 * OK, or CONFLICT when the row was not at (turn, 'playing'): nothing
 * written. */
enum store_result store_match_set_pending(struct store_conn *c, int64_t id, int64_t turn,
    const uint8_t *pending, size_t npending);
enum store_result store_match_advance(struct store_conn *c, const struct store_match_update *u);

/* Appends the moves of a resolved turn (JSON text, one entry a seat). */
enum store_result store_match_turn_insert(struct store_conn *c, int64_t id, int64_t turn,
    const char *moves, int64_t now);

/* Every turn's moves in order, as a JSON array of the arrays stored (caller
 * owns), or NULL on error. */
json_t *store_match_turns(struct store_conn *c, int64_t id);

/* A finished match's results, one a seat taken. */
struct store_match_result {
	int     seat, place;
	int64_t score, lines_sent, lines_received;
	double  rating_before, rating_after; /* NAN: not rated */
};
enum store_result store_match_results(struct store_conn *c, int64_t id,
    const struct store_match_result *r, int n);

/* Ratings. A rating that is not stored reads back found = false (the
 * caller starts it from the defaults). */
struct store_rating {
	int64_t account_id;
	char    name[STORE_NAME_MAX + 1]; /* store_ratings_list only */
	double  rating, rd, volatility;
	int64_t matches;
	bool    found;
};
/* Fills out[i] for accounts[i], i < n. */
enum store_result store_ratings_get(struct store_conn *c, const int64_t *accounts, int n,
    struct store_rating *out);
/* Writes (inserts or replaces) the n ratings; a new one is ranked when
 * ranked is set (else provisional until store_rating_rank). */
enum store_result store_ratings_put(struct store_conn *c, const struct store_rating *r, int n,
    bool ranked, int64_t now);
/* The best ranked ratings first (then account id), at most limit <= STORE_PAGE_MAX;
 * after the account named after when not NULL (NOT_FOUND when it has no
 * rating), *above then counting the ratings ranked before the page. */
enum store_result store_ratings_list(struct store_conn *c, const char *after, int64_t *above,
    int limit, struct store_rating *out,
    int *n);

/* A match as lists show it (the home page's open matches, an account's
 * matches): its row's small columns and its seats' names. */
struct store_match_brief {
	int64_t id, turn, created_at, started_at, finished_at; /* 0: not yet */
	int     players, joined, turn_seconds, turn_cap;
	bool    rated, items, queued;
	uint8_t item_chance, item_weights[STORE_ITEM_KINDS];
	char    status[12], end_reason[16];
	int     nseats;
	char    names[STORE_MATCH_SEATS][STORE_NAME_MAX + 1];
	/* store_account_matches only: the account's seat and its results. */
	int     seat, place;                  /* place 0 until finished */
	int64_t score;                        /* -1 until finished */
	double  rating_before, rating_after;  /* NAN unless a rated match has finished */
};
/* The matches in status ("lobby", "playing" or "finished"), newest first
 * (created_at, then id), after the cursor (before_at, before_id) when
 * has_before, at most limit <= STORE_PAGE_MAX (index matches_open, migration
 * 0008; matches_finished, 0009). */
enum store_result store_matches_open(struct store_conn *c, const char *status, bool has_before,
    int64_t before_at, int64_t before_id, int limit, struct store_match_brief *out, int *n);

/* The matches account_id has a seat in, newest first (created_at, then
 * id), after the cursor when has_before, at most limit <= STORE_PAGE_MAX,
 * with the account's seat and results. */
enum store_result store_account_matches(struct store_conn *c, int64_t account_id, bool has_before,
    int64_t before_at, int64_t before_id, int limit, struct store_match_brief *out, int *n);

/* Calls each(ctx, id, turn, deadline_at) for every playing match on the
 * turn clock: the deadlines to arm when the daemon starts. */
enum store_result store_matches_playing(struct store_conn *c,
    void (*each)(void *ctx, int64_t id, int64_t turn, int64_t deadline_at), void *ctx);

/* The same for every playing match on the tick clock (deadline_at 0):
 * those store_matches_playing leaves out. */
enum store_result store_matches_live(struct store_conn *c,
    void (*each)(void *ctx, int64_t id, int64_t turn, int64_t deadline_at), void *ctx);

/* One recorded input of a real-time match (match_inputs, migration 0011):
 * its tick, seat and the ruleset's text of it. */
#define STORE_INPUT_TEXT_MAX 16
struct store_match_input {
	int64_t tick;
	int     seat;
	char    text[STORE_INPUT_TEXT_MAX];
};

/* Appends in[0..n) as the inputs from_seq, from_seq + 1, ... of match id. */
enum store_result store_match_inputs_insert(struct store_conn *c, int64_t id, int64_t from_seq,
    const struct store_match_input *in, size_t n);

/* Every input of match id in order, into *out (malloc'd, caller frees;
 * NULL when none) and *n. */
enum store_result store_match_inputs(struct store_conn *c, int64_t id, struct store_match_input **out,
    size_t *n);

/* The same for the playing matches whose deadline is before before_ms, the
 * oldest first, at most limit of them. */
enum store_result store_matches_overdue(struct store_conn *c, int64_t before_ms, int limit,
    void (*each)(void *ctx, int64_t id, int64_t turn, int64_t deadline_at), void *ctx);

#endif
