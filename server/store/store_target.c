/*
 * store_target.c: --db values (store_target.h): which backend a value
 * names, read as libpq reads it, and its text for the log without the
 * password.
 */
#include "store_target.h"

#include <stdio.h>
#include <string.h>

#include <libpq-fe.h>

/* Whether text opens as libpq's key=value form: a keyword (letters and
 * underscores) then '=' before any '/', as in "host=db1 dbname=arcaded".
 * A file name with a '=' in a folder's name stays a path. */
static bool
looks_keyvalue(const char *text)
{
	size_t i = 0;

	while (text[i] == ' ' || text[i] == '\t')
		i++;
	if (!((text[i] >= 'a' && text[i] <= 'z') || text[i] == '_'))
		return false;
	while ((text[i] >= 'a' && text[i] <= 'z') || text[i] == '_')
		i++;
	while (text[i] == ' ' || text[i] == '\t')
		i++;
	return text[i] == '=';
}

enum store_target
store_target_kind(const char *target, char *err, size_t errcap)
{
	bool url = strncmp(target, "postgresql://", 13) == 0 || strncmp(target, "postgres://", 11) == 0;
	PQconninfoOption *opts;
	char *why = NULL;

	if (err != NULL && errcap > 0)
		err[0] = '\0';
	if (!url && !looks_keyvalue(target)) {
		/* Another scheme (mysql://, sqlite://, a misspelt postgresq://)
		 * is no file the operator meant: refused, not created. */
		if (strstr(target, "://") != NULL) {
			if (err != NULL)
				snprintf(err, errcap, "neither a file path nor a PostgreSQL connection string "
				    "(postgresql://... or key=value ..., as libpq reads them)");
			return STORE_TARGET_REFUSED;
		}
		return STORE_TARGET_SQLITE;
	}
	opts = PQconninfoParse(target, &why);
	if (opts == NULL) {
		if (err != NULL) {
			size_t n;

			snprintf(err, errcap, "not a PostgreSQL connection string libpq reads: %s",
			    why != NULL ? why : "out of memory");
			n = strlen(err);
			while (n > 0 && (err[n - 1] == '\n' || err[n - 1] == ' '))
				err[--n] = '\0';
		}
		PQfreemem(why);
		return STORE_TARGET_REFUSED;
	}
	PQconninfoFree(opts);
	return STORE_TARGET_PG;
}

bool
store_is_postgres(const char *target)
{
	return store_target_kind(target, NULL, 0) == STORE_TARGET_PG;
}

/* Appends text to out (capacity cap), truncating. */
static void
append(char *out, size_t cap, const char *text)
{
	size_t n = strlen(out);

	if (n + 1 < cap)
		snprintf(out + n, cap - n, "%s", text);
}

void
store_target_text(const char *target, char *out, size_t cap)
{
	PQconninfoOption *opts, *o;
	const char *user = "", *host = "", *port = "", *db = "";
	bool sockets, first = true;

	if (!store_is_postgres(target)) {
		snprintf(out, cap, "%s", target);
		return;
	}
	opts = PQconninfoParse(target, NULL);
	if (opts == NULL) {
		snprintf(out, cap, "postgresql://(unreadable connection string)");
		return;
	}
	for (o = opts; o->keyword != NULL; o++) {
		const char *v = o->val != NULL ? o->val : "";

		if (strcmp(o->keyword, "user") == 0)
			user = v;
		else if (strcmp(o->keyword, "host") == 0)
			host = v;
		else if (strcmp(o->keyword, "port") == 0)
			port = v;
		else if (strcmp(o->keyword, "dbname") == 0)
			db = v;
	}
	/* Hosts with their ports in the authority (h1:p1,h2:p2), unless one
	 * is a socket folder: then both lists go in the query, as libpq
	 * takes them. */
	sockets = strchr(host, '/') != NULL;
	snprintf(out, cap, "postgresql://%s%s", user, user[0] ? "@" : "");
	if (!sockets) {
		/* libpq pairs the lists by position; one port serves every host. */
		const char *h = host, *p = port;
		bool one_port = strchr(port, ',') == NULL;

		do {
			size_t hn = strcspn(h, ","), pn = strcspn(p, ",");
			char part[300];

			snprintf(part, sizeof part, "%s%.*s%s%.*s", h == host ? "" : ",", (int)hn, h,
			    pn > 0 ? ":" : "", (int)pn, p);
			append(out, cap, part);
			h += hn;
			if (!one_port)
				p += pn + (p[pn] == ',');
		} while (*h++ == ',');
	}
	append(out, cap, "/");
	append(out, cap, db);
	/* Every other option given, in libpq's order; never a password. */
	for (o = opts; o->keyword != NULL; o++) {
		bool hp = strcmp(o->keyword, "host") == 0 || strcmp(o->keyword, "port") == 0;

		if (o->val == NULL || o->val[0] == '\0' || strcmp(o->keyword, "user") == 0 ||
		    strcmp(o->keyword, "dbname") == 0 || (hp && !sockets) ||
		    strcmp(o->keyword, "password") == 0 || strcmp(o->keyword, "sslpassword") == 0)
			continue;
		append(out, cap, first ? "?" : "&");
		append(out, cap, o->keyword);
		append(out, cap, "=");
		append(out, cap, o->val);
		first = false;
	}
	PQconninfoFree(opts);
}
