/*
 * app.h: the daemon's long-lived objects, shared by every handler. Built
 * once in main() before serving starts and torn down after the last
 * request; handlers only read it (the counters inside are atomic).
 */
#ifndef SERVER_APP_H
#define SERVER_APP_H

#include <stdatomic.h>
#include <stdbool.h>

#include "config.h"

struct store;
struct http_server;
struct metrics;
struct keyring;
struct workers;
struct sweeper;
struct matches;

struct app {
	const struct config *cfg;
	struct store        *store;
	struct http_server  *http;
	struct metrics      *metrics;
	struct keyring      *keys;
	struct workers      *verify;  /* replay verification, off the HTTP threads */
	struct sweeper      *sweeper; /* retention */
	struct matches      *matches; /* versus matches: their clock, long polls and streams */
	atomic_bool          shutting_down;
};

#endif
