/*
 * store_base.h: the words that every part of the store (server/store/)
 * shares with the others and with its callers: what a store call returns,
 * how durable a commit is, and the log the store writes to.
 *
 * The store includes nothing of the rest of server/: the program that
 * uses it hands it a log (store_set_log), as the daemon does with its own
 * (log.c). Until then, or with NULL, each line goes to stderr as
 * "store LEVEL message", debug lines left out.
 */
#ifndef SERVER_STORE_BASE_H
#define SERVER_STORE_BASE_H

#include <stdarg.h>

/* What every store call returns. A call that returns STORE_ERROR has
 * logged why; inside a job, returning it rolls the job back. */
enum store_result {
	STORE_ERROR = -1,     /* the database failed */
	STORE_OK = 0,         /* found, or done */
	STORE_NOT_FOUND = 1,  /* no such row: nothing done */
	STORE_CONFLICT = 2,   /* a compare-and-set or uniqueness check lost: nothing written */
};

/* Durability of a commit: FULL survives power loss, NORMAL (in WAL mode)
 * survives an application crash but may lose the last commits on power
 * loss. */
enum sync_mode { SYNC_FULL, SYNC_NORMAL };

/* The kinds of item a match's weights name: item_weights (migration 0010),
 * VERSUS_ITEM_KINDS. */
#define STORE_ITEM_KINDS 6

/* How much a log line matters, the most first. */
enum store_log_level { STORE_LOG_ERROR, STORE_LOG_WARN, STORE_LOG_INFO, STORE_LOG_DEBUG };

/* A log: msg(ctx, level, fmt, ap) writes one line (without its newline)
 * as vprintf would, or leaves it out for its level; it is called from any
 * thread that runs store code. */
struct store_log {
	void (*msg)(void *ctx, enum store_log_level level, const char *fmt, va_list ap);
	void  *ctx;
};

/* Sets the log every store writes to (copied; NULL: stderr again). Once,
 * before any store is opened or any other store call. */
void store_set_log(const struct store_log *log);

/* Writes one line to the store's log. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void store_log_msg(enum store_log_level level, const char *fmt, ...);

#endif
