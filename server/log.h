/*
 * log.h: lines on stderr, one write(2) each so that threads never
 * interleave. Never pass a secret (agent key, token, puzzle answer) here.
 */
#ifndef SERVER_LOG_H
#define SERVER_LOG_H

#include "config.h"

void log_set_level(enum log_level level);
enum log_level log_get_level(void);

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void log_msg(enum log_level level, const char *fmt, ...);

/* Prints "arcaded: <message>" and exits with status 1. Only before serving
 * starts (configuration, migrations, keys). */
#if defined(__GNUC__)
__attribute__((format(printf, 1, 2), noreturn))
#endif
void fatal(const char *fmt, ...);

#endif
