/* migrations.h: the SQL migrations compiled into the daemon, in order. */
#ifndef MIGRATIONS_H
#define MIGRATIONS_H

struct migration {
	int         number; /* 1, 2, ...: the schema version after applying it */
	const char *name;   /* NNNN_name.sql without number and suffix */
	const char *sql;    /* one or more statements, NUL-terminated */
};

extern const struct migration migrations[];
extern const int nmigrations;

#endif
