/*
 * store_internal.h: what the store's own files (store*.c) share: a
 * connection of either backend, and the one query interface that every
 * store function is written against. Nothing outside server/store*.c
 * includes this or writes SQL.
 *
 * A query is written once, in SQLite's dialect with numbered parameters
 * (?1, ?2, ...). On PostgreSQL the same text is prepared after two
 * mechanical rewrites (store_sql.c): ?N becomes $N, and SQLite's
 * `INDEXED BY name` planner hints are dropped. Where the dialects differ
 * beyond that, the caller picks one text per backend (store_is_pg()).
 */
#ifndef SERVER_STORE_INTERNAL_H
#define SERVER_STORE_INTERNAL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libpq-fe.h>
#include <sqlite3.h>

#include "store_base.h"
#include "store_target.h"

#define STORE_STMT_SLOTS 128
#define STORE_PARAMS_MAX 32

enum store_backend { STORE_SQLITE, STORE_PG };

struct store_conn;

/* What the query layer tells the store of its connections (store.c reads
 * it out): one per store, shared by its connections, atomic because the
 * writer, the readers and the checkpointer all tell it. */
struct store_health {
	atomic_bool      disk_full;    /* a write failed for a full disk, and none committed since */
	atomic_bool      unreachable;  /* the last (re)connection failed; none committed since */
	_Atomic uint64_t conn_errors;  /* connections found lost */
};

/* One prepared statement of one connection, with its bindings and, while
 * it is being stepped, its result. */
struct store_q {
	const char        *sql;   /* the key: the address of the caller's SQL text */
	struct store_conn *c;
	sqlite3_stmt      *st;    /* SQLite */
	/* PostgreSQL: the statement's name on its connection, its parameter
	 * count (the highest ?N), the bound values (text, or binary for
	 * blobs), and the result being read (row: the current one). */
	char        name[12];
	int         nparams;
	const char *values[STORE_PARAMS_MAX];
	int         lengths[STORE_PARAMS_MAX];
	int         formats[STORE_PARAMS_MAX];
	char        num[STORE_PARAMS_MAX][24];
	PGresult   *res;
	int         row, nrows;
	int64_t     changes;      /* rows the last execution changed */
};

struct store_conn {
	enum store_backend backend;
	bool     writer;          /* the writer's connection */
	bool     readonly;        /* a reader: refuses writes */
	enum sync_mode sync;
	sqlite3 *db;              /* SQLite */
	PGconn  *pg;              /* PostgreSQL */
	struct store_health *health; /* whose news to tell; NULL for a tool's connection */
	/* PostgreSQL: the SQLSTATE of the last failed statement ("" when it
	 * succeeded), and whether the connection was lost by it. */
	char     sqlstate[6];
	bool     lost;
	bool     warned;          /* a WARNING notice arrived (cleared before COMMIT) */
	unsigned statement_timeout_ms; /* the writer's statement_timeout; 0: none */
	struct store_q cache[STORE_STMT_SLOTS];
};

/* True on PostgreSQL: where a caller needs a text of that dialect. */
static inline bool
store_is_pg(const struct store_conn *c)
{
	return c->backend == STORE_PG;
}

/* The prepared statement for sql (a string constant: its address names it),
 * reset and with its bindings cleared; NULL (and a logged error) if it does
 * not prepare. */
struct store_q *store_q(struct store_conn *c, const char *sql);

/* Bindings, by 1-based parameter number. Text and blobs are not copied:
 * they must stay valid until the statement is stepped. */
void store_q_int(struct store_q *q, int i, int64_t v);
void store_q_nullable(struct store_q *q, int i, int64_t v); /* v < 0: NULL */
void store_q_text(struct store_q *q, int i, const char *s); /* NULL: NULL */
void store_q_blob(struct store_q *q, int i, const void *p, size_t n);
void store_q_double(struct store_q *q, int i, double v);

/* Steps: STORE_Q_ROW with a row to read, STORE_Q_DONE at the end,
 * STORE_Q_FAIL (logged) on an error. */
enum { STORE_Q_FAIL = -1, STORE_Q_DONE = 0, STORE_Q_ROW = 1 };
int store_q_step(struct store_q *q);

/* Ends the statement's execution (so that a write is done and its locks
 * are not held by a half-read result); bindings stay. */
void store_q_reset(struct store_q *q);

/* Runs a statement that returns no rows (or whose rows do not matter) to
 * completion: OK or ERROR. store_q_changes() then says how many rows it
 * inserted, updated or deleted. NULL q is an ERROR. */
enum store_result store_q_exec(struct store_q *q);
int64_t store_q_changes(const struct store_q *q);

/* Columns of the current row, 0-based. A NULL reads as 0, "" (text: NULL
 * pointer) or -1 (blob). store_q_blob_col copies at most cap bytes and
 * returns the column's length, or -1 for NULL. Booleans read as 0 or 1. */
bool        store_q_isnull(struct store_q *q, int i);
int64_t     store_q_col_int(struct store_q *q, int i);
int64_t     store_q_col_nullable(struct store_q *q, int i); /* NULL: -1 */
const char *store_q_col_text(struct store_q *q, int i);       /* valid until the next step */
long        store_q_col_blob(struct store_q *q, int i, void *out, size_t cap);
double      store_q_col_double(struct store_q *q, int i);              /* NULL: 0 */
/* A text column copied into out (capacity cap, truncated; NULL reads as
 * ""), or strdup'd: NULL for a NULL column, and for a failed allocation,
 * which also sets *failed. */
void        store_q_col_copy(struct store_q *q, int i, char *out, size_t cap);
char       *store_q_col_strdup(struct store_q *q, int i, bool *failed);

/* A match's item_weights column ("w1,...,w6", each at most 100) into w:
 * false, and w not all written, when the text is none of those
 * (store_matches.c). */
bool        weights_read(const char *text, uint8_t w[STORE_ITEM_KINDS]);

/* A fresh row id in [1, ENGINE_ID_MAX] from libsodium: unguessable, and
 * exact as a JSON number. Runs and matches are numbered so. */
int64_t store_random_id(void);

/* Logs the backend's message for the failed call named by what. */
void store_log_error(struct store_conn *c, const char *what);

/* Opens and closes connections (store_sql.c). target is a file path or a
 * postgresql:// URL; readonly connections refuse writes. */
int  store_conn_open(struct store_conn *c, const char *target, bool readonly,
    enum sync_mode sync, char *err, size_t errcap);
void store_conn_close(struct store_conn *c);

/* Forgets a PostgreSQL connection's prepared statements (they died with a
 * lost connection) and reconnects: 0 when connected again. */
int store_conn_reconnect(struct store_conn *c);

/* Commits the connection's transaction. On PostgreSQL with a statement
 * timeout, COMMIT is bounded by it: past it the wait (for a synchronous
 * standby) is cancelled, which commits here and sets c->warned; a server
 * that does not answer even the cancel marks the connection lost. */
enum store_result store_conn_commit(struct store_conn *c);

/* Runs SQL text without parameters (one or more statements): 0, or -1
 * with the message in err. */
int store_conn_exec(struct store_conn *c, const char *sql, char *err, size_t errcap);

/*
 * The summary of each account's runs (store_summary.c, migration 0012),
 * written beside the run in the same transaction by the functions that
 * write runs.
 */
struct game_summary;

/* account_games: n more runs (n < 0: fewer) of the account's game. */
enum store_result store_summary_run_added(struct store_conn *c, int64_t account_id,
    const char *game, int64_t n);
/* account_seeds: run id, with keys rank, ranks on its seed from now on. */
enum store_result store_summary_run_ranked(struct store_conn *c, int64_t account_id,
    const char *game, int64_t seed, int64_t id, const int64_t rank[3]);

/* What the summary needs of a run's head before it moves. */
struct store_summary_run {
	int64_t id, account_id, seed; /* account_id 0: none */
	char    game[24];
	bool    ranked;               /* over and not abandoned */
	int64_t rank[3];
};
/* Reads it (NOT_FOUND: no such run). */
enum store_result store_summary_before(struct store_conn *c, int64_t id,
    struct store_summary_run *out);
/* The summary after the head was moved from was to sum. */
enum store_result store_summary_after(struct store_conn *c, const struct store_summary_run *was,
    const struct game_summary *sum);
/* Steps q, a DELETE of runs RETURNING (account_id, game), to its end, and
 * takes its rows off account_games; *ndeleted: the rows. Resets q. */
enum store_result store_summary_runs_deleted(struct store_conn *c, struct store_q *q,
    int64_t *ndeleted);

#endif
