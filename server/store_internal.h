/*
 * store_internal.h: what the store's own files (store*.c) share: a
 * connection with its cache of prepared statements. Nothing outside
 * server/store*.c includes this or writes SQL.
 */
#ifndef SERVER_STORE_INTERNAL_H
#define SERVER_STORE_INTERNAL_H

#include <sqlite3.h>

#include "store.h"

#define STORE_STMT_SLOTS 128

struct store_conn {
	sqlite3 *db;
	/* Statements keyed by the address of their SQL text: every call site
	 * passes a string constant, so the address names the statement. */
	struct {
		const char   *sql;
		sqlite3_stmt *stmt;
	} cache[STORE_STMT_SLOTS];
};

/* The prepared statement for sql (a string constant), reset and with its
 * bindings cleared; NULL (and a logged error) if it does not prepare. */
sqlite3_stmt *store_stmt(struct store_conn *c, const char *sql);

/* Runs a statement that returns no rows to completion: OK or ERROR. */
enum store_result store_exec_stmt(struct store_conn *c, sqlite3_stmt *st);

/* Logs sqlite's message for the failed call named by what. */
void store_log_error(struct store_conn *c, const char *what);

#endif
