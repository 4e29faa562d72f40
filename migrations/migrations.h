/* migrations.h: the SQL migrations compiled into the daemon, in order:
 * one history in two dialects, SQLite's and PostgreSQL's. */
#ifndef MIGRATIONS_H
#define MIGRATIONS_H

struct migration {
	int         number; /* 1, 2, ...: the schema version after applying it */
	const char *name;   /* NNNN_name.sql without number and suffix */
	const char *sql;    /* one or more statements, NUL-terminated */
};

extern const struct migration migrations[];    /* SQLite */
extern const struct migration pg_migrations[]; /* PostgreSQL: same numbers and names */
extern const int nmigrations;                  /* the length of each */

#endif
