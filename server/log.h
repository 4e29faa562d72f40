/*
 * log.h: lines on stderr, one write(2) each so that threads never
 * interleave. Never pass a secret (agent key, token, puzzle answer) here.
 */
#ifndef SERVER_LOG_H
#define SERVER_LOG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <time.h>

enum log_level { LOG_ERROR, LOG_WARN, LOG_INFO, LOG_DEBUG };

void log_set_level(enum log_level level);
enum log_level log_get_level(void);

/* Text lines ("TIME LEVEL message") or one JSON object per line
 * ({"time", "level", "msg"}, and for access lines their fields), for
 * journald or a log collector. Set once at start. */
void log_set_json(bool json);

/* One access line: the request's method, path (taken from the request:
 * escaped in text, a JSON string in JSON), status (0: none), duration,
 * id, client and a note (NULL or a few words on how it ended). */
void log_access(const char *method, const char *path, int status, long long us, const char *id,
    const char *client, const char *note);

/* The room of an access line (log_access_line). */
#define LOG_LINE_MAX 2048

/* log_access's text line for a request at ts, written into out and
 * ended by '\n' (no NUL); returns its length. Exposed for the test
 * 'server log', which holds it to the snprintf/strftime line it replaced. */
size_t log_access_line(char out[LOG_LINE_MAX], const struct timespec *ts, const char *method,
    const char *path, int status, long long us, const char *id, const char *client,
    const char *note);

/* "2026-11-30T12:00:00.123Z" and a NUL for ts into out (32 bytes);
 * returns its length. The seconds' text is kept a second on each thread. */
size_t log_stamp_at(char out[32], const struct timespec *ts);

/* Copies in into out (capacity cap, NUL always written) with every byte
 * outside printable ASCII, and the backslash, written as \xHH: a value
 * taken from a request can then neither end a log line nor forge one, and
 * the escaping reads back unambiguously. Truncates at a character's
 * boundary, ending with "..." when it had to cut. */
void log_escape(const char *in, char *out, size_t cap);

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void log_msg(enum log_level level, const char *fmt, ...);

/* log_msg with its arguments in ap. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 0)))
#endif
void log_vmsg(enum log_level level, const char *fmt, va_list ap);

/* Prints "arcaded: <message>" and exits with status 1. Only before serving
 * starts (configuration, migrations, keys). */
#if defined(__GNUC__)
__attribute__((format(printf, 1, 2), noreturn))
#endif
void fatal(const char *fmt, ...);

#endif
