/*
 * store_target.h: what a --db value names, a SQLite file or a PostgreSQL
 * database, and how it may be logged. Below the rest of the store, which
 * opens connections by it (store.h includes this for its callers).
 */
#ifndef SERVER_STORE_TARGET_H
#define SERVER_STORE_TARGET_H

#include <stdbool.h>
#include <stddef.h>

/* What a --db value names. PostgreSQL: any connection string libpq reads
 * (PQconninfoParse), a URL (postgresql://, postgres://, several hosts
 * allowed: host1:port1,host2:port2) or key=value words ("host=db1
 * dbname=arcaded"); libpq's environment variables and password file
 * apply. SQLite: anything else that is not a URL of another scheme.
 * REFUSED: a URL of another scheme, or a PostgreSQL string libpq does not
 * read; then err (may be NULL) says why in one line. */
enum store_target { STORE_TARGET_REFUSED = -1, STORE_TARGET_SQLITE = 0, STORE_TARGET_PG = 1 };
enum store_target store_target_kind(const char *target, char *err, size_t errcap);

/* True when target names a PostgreSQL database (STORE_TARGET_PG). */
bool store_is_postgres(const char *target);

/* target as it may be logged: a path as given; a PostgreSQL target as a
 * URL with every host, port and option it sets (several hosts as
 * host1:port1,host2:port2; socket folders as ?host=...), never its
 * password. */
void store_target_text(const char *target, char *out, size_t cap);

#endif
