/*
 * log.c: timestamped lines on stderr. The level is set once at start-up and
 * read by every thread, hence the atomic.
 */
#include "log.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "numtext.h"

static _Atomic int current_level = LOG_INFO;
static atomic_bool json_lines;

static const char *const level_names[] = { "error", "warn", "info", "debug" };

void
log_set_level(enum log_level level)
{
	atomic_store(&current_level, (int)level);
}

void
log_set_json(bool json)
{
	atomic_store(&json_lines, json);
}

enum log_level
log_get_level(void)
{
	return (enum log_level)atomic_load(&current_level);
}

void
log_escape(const char *in, char *out, size_t cap)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = 0;

	if (cap == 0)
		return;
	for (; *in != '\0'; in++) {
		unsigned char c = (unsigned char)*in;
		size_t need = c >= 0x20 && c < 0x7f && c != '\\' ? 1 : 4;

		if (n + need + 4 > cap) {
			if (n + 4 <= cap)
				memcpy(out + n, "...", 3), n += 3;
			break;
		}
		if (need == 1)
			out[n++] = (char)c;
		else {
			out[n++] = '\\';
			out[n++] = 'x';
			out[n++] = hex[c >> 4];
			out[n++] = hex[c & 15];
		}
	}
	out[n] = '\0';
}

/* "2026-11-30T12:00:00.123Z" into out (32 bytes) for ts; returns its
 * length. The seconds are formatted once a second on each thread. */
size_t
log_stamp_at(char out[32], const struct timespec *ts)
{
	static _Thread_local time_t sec = (time_t)-1;
	static _Thread_local char text[24];
	static _Thread_local size_t len;
	struct tm tm;
	long ms;

	/* len 0: nothing kept yet (sec's -1 is a time too: 1969's last second) */
	if (ts->tv_sec != sec || len == 0) {
		gmtime_r(&ts->tv_sec, &tm);
		len = strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &tm);
		sec = ts->tv_sec;
	}
	memcpy(out, text, len);
	ms = ts->tv_nsec / 1000000;
	out[len] = '.';
	numtext_padded(out + len + 1, ms, 3);
	out[len + 4] = 'Z';
	out[len + 5] = '\0';
	return len + 5;
}

/* The time stamp of now. */
static size_t
stamp(char out[32])
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return log_stamp_at(out, &ts);
}

/* A text line being built in LOG_LINE_MAX bytes; what passes its end
 * is cut. */
struct line {
	char  *b;
	size_t n;
};

static void
line_put(struct line *l, const char *s)
{
	size_t k = strlen(s);

	if (k > LOG_LINE_MAX - 2 - l->n)
		k = LOG_LINE_MAX - 2 - l->n;
	memcpy(l->b + l->n, s, k);
	l->n += k;
}

static void
line_int(struct line *l, long long v)
{
	char d[24];

	numtext_i64(d, v);
	line_put(l, d);
}

/* Writes a JSON object (stolen) as one line; nothing when it cannot be
 * built. */
static void
write_json(json_t *o)
{
	char *text = o != NULL ? json_dumps(o, JSON_COMPACT | JSON_ENSURE_ASCII) : NULL;

	json_decref(o);
	if (text == NULL)
		return;
	{
		size_t n = strlen(text);

		text[n] = '\n';
		if (write(STDERR_FILENO, text, n + 1) < 0) {
			/* Nowhere left to report it. */
		}
		text[n] = '\0';
	}
	free(text);
}

void
log_access(const char *method, const char *path, int status, long long us, const char *id,
    const char *client, const char *note)
{
	char t[32], escaped[512];

	if (LOG_INFO > atomic_load(&current_level))
		return;
	if (atomic_load(&json_lines)) {
		json_t *o = json_object();

		stamp(t);
		json_object_set_new(o, "time", json_string(t));
		json_object_set_new(o, "level", json_string("info"));
		json_object_set_new(o, "event", json_string("access"));
		json_object_set_new(o, "method", json_string(method));
		/* Invalid UTF-8 in a path would make jansson refuse it: escape it. */
		log_escape(path, escaped, sizeof escaped);
		json_object_set_new(o, "path", json_string(escaped));
		json_object_set_new(o, "status", status > 0 ? json_integer(status) : json_null());
		json_object_set_new(o, "us", json_integer(us));
		json_object_set_new(o, "id", id ? json_string(id) : json_null());
		json_object_set_new(o, "client", json_string(client));
		if (note != NULL)
			json_object_set_new(o, "note", json_string(note));
		write_json(o);
		return;
	}
	{
		char b[LOG_LINE_MAX];
		struct timespec ts;
		size_t n;

		clock_gettime(CLOCK_REALTIME, &ts);
		n = log_access_line(b, &ts, method, path, status, us, id, client, note);
		if (write(STDERR_FILENO, b, n) < 0) {
			/* Nowhere left to report it. */
		}
	}
}

/* log_msg's line, "access METHOD PATH STATUS USus id=ID from CLIENT
 * [NOTE]", put together without printf: one is written per request. */
size_t
log_access_line(char out[LOG_LINE_MAX], const struct timespec *ts, const char *method,
    const char *path, int status, long long us, const char *id, const char *client,
    const char *note)
{
	char escaped[512];
	struct line l;

	l.b = out;
	l.n = log_stamp_at(l.b, ts);
	line_put(&l, " info access ");
	line_put(&l, method);
	line_put(&l, " ");
	log_escape(path, escaped, sizeof escaped);
	line_put(&l, escaped);
	line_put(&l, " ");
	if (status > 0)
		line_int(&l, status);
	else
		line_put(&l, "-");
	line_put(&l, " ");
	line_int(&l, us);
	line_put(&l, "us id=");
	line_put(&l, id ? id : "-");
	line_put(&l, " from ");
	line_put(&l, client);
	if (note != NULL) {
		line_put(&l, " ");
		line_put(&l, note);
	}
	l.b[l.n++] = '\n';
	return l.n;
}

void
log_msg(enum log_level level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vmsg(level, fmt, ap);
	va_end(ap);
}

void
log_vmsg(enum log_level level, const char *fmt, va_list ap)
{
	char line[2048];
	size_t n;
	int m;

	if ((int)level > atomic_load(&current_level))
		goto done;
	if (atomic_load(&json_lines)) {
		char t[32], msg[2048];
		json_t *o = json_object();

		vsnprintf(msg, sizeof msg, fmt, ap);
		stamp(t);
		json_object_set_new(o, "time", json_string(t));
		json_object_set_new(o, "level", json_string(level_names[level]));
		/* Messages are ours, but may quote a request's bytes: keep the
		 * line valid JSON whatever they hold. */
		{
			char escaped[2048];

			log_escape(msg, escaped, sizeof escaped);
			json_object_set_new(o, "msg", json_string(escaped));
		}
		write_json(o);
		goto done;
	}
	n = stamp(line);
	m = snprintf(line + n, sizeof line - n, " %s ", level_names[level]);
	if (m > 0)
		n += (size_t)m;
	m = vsnprintf(line + n, sizeof line - n, fmt, ap);
	if (m < 0)
		m = 0;
	n += (size_t)m;
	if (n > sizeof line - 2)
		n = sizeof line - 2;
	line[n++] = '\n';
	if (write(STDERR_FILENO, line, n) < 0) {
		/* Nowhere left to report it. */
	}
done:
	return;
}

void
fatal(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	fprintf(stderr, "arcaded: %s\n", msg);
	exit(1);
}
