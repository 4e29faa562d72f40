/*
 * store_copy.c: the operator's tools on whole databases. `arcaded backup`
 * copies a live SQLite database into a new file with VACUUM INTO: one read
 * transaction, so the copy is one consistent moment while the daemon goes
 * on writing (WAL readers never block the writer). `arcaded copy` moves a
 * SQLite database into an empty PostgreSQL one.
 *
 * The copy reads the table list and each table's columns from the SQLite
 * file itself (a table added by a later migration is copied with no change
 * here), orders the tables so that every table comes after the tables its
 * foreign keys name, inserts every row in one PostgreSQL transaction, and
 * then moves each identity sequence past the copied ids. Both databases are
 * migrated to this binary's version first, so their tables match.
 */
#include "store_internal.h"
#include "store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define COPY_TABLES 64
#define COPY_COLUMNS 48

int
store_backup(const char *db, const char *out, char *err, size_t errcap)
{
	struct store_conn c;
	struct stat st;
	sqlite3_stmt *v = NULL;
	int rc = -1;

	memset(&c, 0, sizeof c);
	c.backend = STORE_SQLITE;
	if (store_is_postgres(db)) {
		snprintf(err, errcap, "backup copies a SQLite database; for PostgreSQL use pg_dump");
		return -1;
	}
	if (stat(db, &st) != 0) {
		snprintf(err, errcap, "no database at %s", db);
		return -1;
	}
	if (stat(out, &st) == 0) {
		snprintf(err, errcap, "%s already exists: the backup goes to a new file", out);
		return -1;
	}
	/* VACUUM INTO wants a connection that may write (it writes only the
	 * new file); opened without creating, so a wrong path is an error. */
	if (sqlite3_open_v2(db, &c.db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		snprintf(err, errcap, "cannot open %s: %s", db, c.db ? sqlite3_errmsg(c.db) : "out of memory");
		sqlite3_close(c.db);
		return -1;
	}
	sqlite3_busy_timeout(c.db, 5000);
	if (sqlite3_prepare_v2(c.db, "VACUUM INTO ?1", -1, &v, NULL) != SQLITE_OK ||
	    sqlite3_bind_text(v, 1, out, -1, SQLITE_STATIC) != SQLITE_OK ||
	    sqlite3_step(v) != SQLITE_DONE) {
		snprintf(err, errcap, "cannot back up %s into %s: %s", db, out, sqlite3_errmsg(c.db));
		remove(out);
		goto done;
	}
	rc = 0;
done:
	sqlite3_finalize(v);
	store_conn_close(&c);
	return rc;
}

struct table {
	char name[64];
	int  ncols;
	char cols[COPY_COLUMNS][64];
	char refs[8][64];   /* tables its foreign keys name */
	int  nrefs;
	bool done;
	char select_sql[4096], insert_sql[4096]; /* their addresses key the statement caches */
};

/* The tables to copy, with their plain (not generated) columns. */
static int
read_tables(sqlite3 *db, struct table *t, int *n, char *err, size_t errcap)
{
	sqlite3_stmt *st = NULL, *cols = NULL, *fks = NULL;
	int rc = -1;

	*n = 0;
	if (sqlite3_prepare_v2(db, "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE "
	    "'sqlite_%' AND name NOT IN ('schema_migrations', 'store_probe') ORDER BY name", -1, &st,
	    NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "SELECT name FROM pragma_table_xinfo(?1) WHERE hidden = 0 ORDER BY cid",
	    -1, &cols, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "SELECT DISTINCT \"table\" FROM pragma_foreign_key_list(?1)", -1, &fks,
	    NULL) != SQLITE_OK) {
		snprintf(err, errcap, "cannot read the tables: %s", sqlite3_errmsg(db));
		goto done;
	}
	while (sqlite3_step(st) == SQLITE_ROW && *n < COPY_TABLES) {
		struct table *x = &t[(*n)++];
		size_t o, p;
		int i;

		memset(x, 0, sizeof *x);
		snprintf(x->name, sizeof x->name, "%s", (const char *)sqlite3_column_text(st, 0));
		sqlite3_reset(cols);
		sqlite3_bind_text(cols, 1, x->name, -1, SQLITE_TRANSIENT);
		while (sqlite3_step(cols) == SQLITE_ROW && x->ncols < COPY_COLUMNS)
			snprintf(x->cols[x->ncols++], sizeof x->cols[0], "%s",
			    (const char *)sqlite3_column_text(cols, 0));
		sqlite3_reset(fks);
		sqlite3_bind_text(fks, 1, x->name, -1, SQLITE_TRANSIENT);
		while (sqlite3_step(fks) == SQLITE_ROW && x->nrefs < 8)
			snprintf(x->refs[x->nrefs++], sizeof x->refs[0], "%s",
			    (const char *)sqlite3_column_text(fks, 0));
		o = (size_t)snprintf(x->select_sql, sizeof x->select_sql, "SELECT ");
		p = (size_t)snprintf(x->insert_sql, sizeof x->insert_sql, "INSERT INTO %s (", x->name);
		for (i = 0; i < x->ncols; i++) {
			o += (size_t)snprintf(x->select_sql + o, sizeof x->select_sql - o, "%s\"%s\"",
			    i ? ", " : "", x->cols[i]);
			p += (size_t)snprintf(x->insert_sql + p, sizeof x->insert_sql - p, "%s\"%s\"",
			    i ? ", " : "", x->cols[i]);
		}
		snprintf(x->select_sql + o, sizeof x->select_sql - o, " FROM \"%s\"", x->name);
		p += (size_t)snprintf(x->insert_sql + p, sizeof x->insert_sql - p, ") VALUES (");
		for (i = 0; i < x->ncols; i++)
			p += (size_t)snprintf(x->insert_sql + p, sizeof x->insert_sql - p, "%s?%d",
			    i ? ", " : "", i + 1);
		snprintf(x->insert_sql + p, sizeof x->insert_sql - p, ")");
	}
	rc = 0;
done:
	sqlite3_finalize(st);
	sqlite3_finalize(cols);
	sqlite3_finalize(fks);
	return rc;
}

/* The next table whose referenced tables are all copied (itself aside). */
static struct table *
next_table(struct table *t, int n)
{
	int i, j, k;

	for (i = 0; i < n; i++) {
		bool ready = !t[i].done;

		for (j = 0; ready && j < t[i].nrefs; j++)
			for (k = 0; k < n; k++)
				if (k != i && strcmp(t[k].name, t[i].refs[j]) == 0 && !t[k].done)
					ready = false;
		if (ready)
			return &t[i];
	}
	return NULL;
}

static long long
copy_table(struct store_conn *src, struct store_conn *dst, struct table *x)
{
	sqlite3_stmt *st = NULL;
	long long rows = 0;
	int rc, i;

	if (sqlite3_prepare_v2(src->db, x->select_sql, -1, &st, NULL) != SQLITE_OK) {
		store_log_error(src, x->select_sql);
		return -1;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct store_q *q = store_q(dst, x->insert_sql);

		if (q == NULL)
			break;
		for (i = 0; i < x->ncols; i++) {
			switch (sqlite3_column_type(st, i)) {
			case SQLITE_INTEGER:
				store_q_int(q, i + 1, sqlite3_column_int64(st, i));
				break;
			case SQLITE_FLOAT:
				store_q_double(q, i + 1, sqlite3_column_double(st, i));
				break;
			case SQLITE_BLOB:
				store_q_blob(q, i + 1, sqlite3_column_blob(st, i),
				    (size_t)sqlite3_column_bytes(st, i));
				break;
			case SQLITE_NULL:
				store_q_text(q, i + 1, NULL);
				break;
			default:
				store_q_text(q, i + 1, (const char *)sqlite3_column_text(st, i));
				break;
			}
		}
		if (store_q_exec(q) != STORE_OK)
			break;
		rows++;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? rows : -1;
}

/* Moves the identity sequence of table.id (if it has one) past the
 * copied ids, so that the next insert does not reuse one. */
static int
bump_sequence(struct store_conn *dst, const struct table *x, char *err, size_t errcap)
{
	char sql[512];
	PGresult *res;
	int i;

	for (i = 0; i < x->ncols && strcmp(x->cols[i], "id") != 0; i++)
		;
	if (i == x->ncols)
		return 0;
	snprintf(sql, sizeof sql, "SELECT pg_get_serial_sequence('%s', 'id')", x->name);
	res = PQexec(dst->pg, sql);
	if (PQresultStatus(res) != PGRES_TUPLES_OK) {
		snprintf(err, errcap, "%s", PQerrorMessage(dst->pg));
		PQclear(res);
		return -1;
	}
	if (PQntuples(res) != 1 || PQgetisnull(res, 0, 0)) {
		PQclear(res);
		return 0; /* no sequence behind id */
	}
	/* Positive ids only: an unlisted review is stored under its run's id
	 * negated, outside the sequence's range (1..), which only listed
	 * ones draw from. */
	snprintf(sql, sizeof sql, "SELECT setval('%s', max(id)) FROM %s WHERE id > 0 "
	    "HAVING max(id) IS NOT NULL", PQgetvalue(res, 0, 0), x->name);
	PQclear(res);
	return store_conn_exec(dst, sql, err, errcap);
}

int
store_copy(const char *from, const char *to, char *err, size_t errcap)
{
	static const char empty_sql[] =
	    "SELECT (SELECT count(*) FROM accounts) + (SELECT count(*) FROM runs) + "
	    "(SELECT count(*) FROM reviews)";
	struct table *tables = NULL, *x;
	struct store_conn src, dst;
	struct store_q *q;
	struct store *s;
	struct stat sb;
	char why[512], name[512];
	int n = 0, rc = -1;

	memset(&src, 0, sizeof src);
	memset(&dst, 0, sizeof dst);
	if (store_is_postgres(from) || !store_is_postgres(to)) {
		snprintf(err, errcap, "copy goes from a SQLite file (--from PATH) to PostgreSQL "
		    "(--to postgresql://...)");
		return -1;
	}
	if (stat(from, &sb) != 0) {
		snprintf(err, errcap, "no database at %s", from);
		return -1;
	}
	/* Both at this binary's schema version. */
	if ((s = store_open(from, SYNC_FULL, 1, err, errcap)) == NULL)
		return -1;
	store_close(s);
	if ((s = store_open(to, SYNC_FULL, 1, err, errcap)) == NULL)
		return -1;
	store_close(s);
	tables = calloc(COPY_TABLES, sizeof *tables);
	if (tables == NULL) {
		snprintf(err, errcap, "out of memory");
		return -1;
	}
	if (store_conn_open(&src, from, true, SYNC_FULL, err, errcap) != 0 ||
	    store_conn_open(&dst, to, false, SYNC_FULL, err, errcap) != 0)
		goto done;
	store_target_text(to, name, sizeof name);
	q = store_q(&dst, empty_sql);
	if (q == NULL || store_q_step(q) != STORE_Q_ROW) {
		snprintf(err, errcap, "cannot read %s", name);
		goto done;
	}
	if (store_q_col_int(q, 0) != 0) {
		store_q_reset(q);
		snprintf(err, errcap, "%s already holds accounts, runs or reviews: copy only into an empty "
		    "database", name);
		goto done;
	}
	store_q_reset(q);
	if (read_tables(src.db, tables, &n, err, errcap) != 0)
		goto done;
	/* One read transaction on the source: a consistent moment even if a
	 * daemon still writes to it. */
	if (store_conn_exec(&src, "BEGIN", why, sizeof why) != 0 ||
	    store_conn_exec(&dst, "BEGIN", why, sizeof why) != 0) {
		snprintf(err, errcap, "cannot begin: %s", why);
		goto done;
	}
	while ((x = next_table(tables, n)) != NULL) {
		long long rows = copy_table(&src, &dst, x);

		if (rows < 0) {
			snprintf(err, errcap, "copying table %s failed (nothing was copied): %s", x->name,
			    PQerrorMessage(dst.pg));
			err[strcspn(err, "\n")] = '\0';
			store_conn_exec(&dst, "ROLLBACK", NULL, 0);
			goto done;
		}
		if (bump_sequence(&dst, x, why, sizeof why) != 0) {
			snprintf(err, errcap, "table %s: %s", x->name, why);
			store_conn_exec(&dst, "ROLLBACK", NULL, 0);
			goto done;
		}
		x->done = true;
		printf("%s: %lld rows\n", x->name, rows);
		fflush(stdout);
	}
	if (store_conn_exec(&dst, "COMMIT", why, sizeof why) != 0) {
		snprintf(err, errcap, "the copy did not commit (nothing was copied): %s", why);
		goto done;
	}
	store_conn_exec(&src, "COMMIT", NULL, 0);
	rc = 0;
done:
	store_conn_close(&src);
	store_conn_close(&dst);
	free(tables);
	return rc;
}
