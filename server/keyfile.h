/*
 * keyfile.h: the secret key file.
 *
 * Text, mode 0600, created on first start beside the database:
 *
 *     arcaded-keys v1
 *     pepper <64 hex digits>
 *     key <64 hex digits>        oldest first; the last line is current
 *
 * The pepper keys the hashes of agent keys and never changes; each `key`
 * is a master secret from which the token and signing keys are derived.
 * Rotation appends a key; older ones stay to open older tokens.
 */
#ifndef SERVER_KEYFILE_H
#define SERVER_KEYFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define KEYFILE_MAX_KEYS 16

struct keyfile {
	uint8_t pepper[32];
	uint8_t keys[KEYFILE_MAX_KEYS][32];
	int     nkeys;  /* 1..KEYFILE_MAX_KEYS; keys[nkeys - 1] is current */
};

/* Loads path, or creates it with fresh secrets when it does not exist
 * (*created tells which). Refuses a file that group or others may read or
 * write, that is not a regular file, or that does not parse. */
int keyfile_load_or_create(const char *path, struct keyfile *kf, bool *created,
    char *err, size_t errcap);

/* Loads an existing file (same checks). */
int keyfile_load(const char *path, struct keyfile *kf, char *err, size_t errcap);

/* Appends a fresh key and replaces the file atomically (write, fsync,
 * rename). The oldest key is dropped when the file is full. */
int keyfile_rotate(const char *path, struct keyfile *kf, char *err, size_t errcap);

/* Wipes the secrets from memory. */
void keyfile_wipe(struct keyfile *kf);

#endif
