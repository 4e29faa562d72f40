/*
 * handle.h: run handles, the short names an agent continues a run by.
 *
 * A handle is the run's id and a tag, joined by '-':
 *
 *     2917572057037947-k3f9q2ab
 *
 * at most HANDLE_TEXT_MAX characters. The tag is 40 bits of keyed
 * BLAKE2b over the game's name and the run id, under the keyring's handle
 * key (derived from the pepper, which never rotates), written in lowercase
 * Crockford base32 ("0123456789abcdefghjkmnpqrstvwxyz"). Reading one is
 * lenient where a copy slips (upper case, 'i' and 'l' for '1', 'o' for
 * '0') and strict about the rest. A handle proves what a stateToken
 * proves about a run without an account (whoever holds it plays), and
 * names nothing newer: the daemon reads the run's newest state itself.
 * Nothing is stored: the same run always has the same handle.
 *
 * Guessing one: 2^40 tags a run, against the rate limits of the routes
 * that take it. sodium_init() must have succeeded first.
 */
#ifndef API_HANDLE_H
#define API_HANDLE_H

#include <stddef.h>
#include <stdint.h>

#include "keys.h"

#define HANDLE_TAG_LEN  8
#define HANDLE_TEXT_MAX 32 /* characters, NUL excluded: 16 of id, '-', 8 of tag, and room */

enum handle_err {
	HANDLE_OK = 0,
	HANDLE_ERR_FORMAT, /* not digits, '-' and 8 base32 characters */
	HANDLE_ERR_TAG,    /* well formed, but not a handle of a run of this game: a slip or a guess */
};

/* A sentence for e, fit for an error message (static storage). */
const char *handle_strerror(enum handle_err e);

/* The handle of run (1 .. 2^53-1) of the game named game, NUL-terminated. */
void handle_make(const struct keyring *kr, const char *game, int64_t run,
    char out[HANDLE_TEXT_MAX + 1]);

/* Reads text (len bytes) as a handle of a run of game: HANDLE_OK with the
 * run's id in *run. */
enum handle_err handle_read(const struct keyring *kr, const char *game, const char *text, size_t len,
    int64_t *run);

#endif
