/*
 * app.h: the daemon's long-lived objects, shared by every handler. Built
 * once in main() before serving starts and torn down after the last
 * request; handlers only read it (the counters inside are atomic). The
 * keyring alone changes while serving (SIGHUP reloads the key file): it is
 * an atomic pointer, read once per use with app_keys(), and a replaced
 * ring stays valid until the daemon exits.
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
struct throttle;
struct holds;
struct quota;

struct app {
	const struct config *cfg;
	struct store        *store;
	struct http_server  *http;
	struct metrics      *metrics;
	_Atomic(const struct keyring *) keys;
	struct workers      *verify;  /* replay verification, off the HTTP threads */
	struct sweeper      *sweeper; /* retention */
	struct matches      *matches; /* matches: their clock, long polls and streams */
	struct throttle     *throttle; /* rate limits, per address and per account */
	struct holds        *holds;   /* long polls and streams held, per client and account */
	struct quota        *quota;   /* what a client may store a day (quota_charge.h) */
	atomic_bool          shutting_down;
};

/* The keyring now: its newest key seals and signs, every key opens. */
static inline const struct keyring *
app_keys(struct app *a)
{
	return atomic_load_explicit(&a->keys, memory_order_acquire);
}

#endif
