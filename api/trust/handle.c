/*
 * handle.c: run handles (handle.h). The tag is computed, never stored:
 * making one is a BLAKE2b of a few dozen bytes, reading one the same and
 * a constant-time compare.
 */
#include "handle.h"

#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "numtext.h"

static const char ALPHABET[] = "0123456789abcdefghjkmnpqrstvwxyz";

#define TAG_BYTES 5
#define ID_DIGITS_MAX 16 /* 2^53 - 1 has 16 */

const char *
handle_strerror(enum handle_err e)
{
	switch (e) {
	case HANDLE_OK: return "ok";
	case HANDLE_ERR_FORMAT: return "it is not a handle: a run id, '-' and 8 letters and digits";
	case HANDLE_ERR_TAG: return "it is not the handle of a run of this game: a character differs";
	}
	return "not a handle";
}

/* The tag of run of game, written into out (HANDLE_TAG_LEN characters). */
static void
tag(const struct keyring *kr, const char *game, int64_t run, char out[HANDLE_TAG_LEN])
{
	uint8_t h[crypto_generichash_BYTES_MIN];
	char msg[96];
	uint64_t v = 0;
	size_t n = strlen(game);
	int j;

	/* "game:run", without printf: every run result makes one. */
	if (n > sizeof msg - 24)
		n = sizeof msg - 24;
	memcpy(msg, game, n);
	msg[n++] = ':';
	n += numtext_i64(msg + n, run);
	crypto_generichash(h, sizeof h, (const uint8_t *)msg, n, kr->handle, sizeof kr->handle);
	for (j = 0; j < TAG_BYTES; j++)
		v = v << 8 | h[j];
	for (j = 0; j < HANDLE_TAG_LEN; j++)
		out[j] = ALPHABET[(v >> (5 * (HANDLE_TAG_LEN - 1 - j))) & 31];
}

void
handle_make(const struct keyring *kr, const char *game, int64_t run, char out[HANDLE_TEXT_MAX + 1])
{
	size_t n = numtext_i64(out, run);

	out[n++] = '-';
	tag(kr, game, run, out + n);
	out[n + HANDLE_TAG_LEN] = '\0';
}

/* A tag character as written, from what a copy may have made of it; 0
 * when it is none. */
static char
tag_char(char c)
{
	if (c >= 'A' && c <= 'Z')
		c = (char)(c - 'A' + 'a');
	if (c == 'i' || c == 'l')
		return '1';
	if (c == 'o')
		return '0';
	return c != '\0' && c != 'u' && strchr(ALPHABET, c) != NULL ? c : 0;
}

enum handle_err
handle_read(const struct keyring *kr, const char *game, const char *text, size_t len, int64_t *run)
{
	char want[HANDLE_TAG_LEN], got[HANDLE_TAG_LEN];
	size_t digits = 0, i;
	int64_t id = 0;

	while (len > 0 && (text[0] == ' ' || text[0] == '"'))
		text++, len--;
	while (len > 0 && (text[len - 1] == ' ' || text[len - 1] == '"'))
		len--;
	while (digits < len && text[digits] >= '0' && text[digits] <= '9' && digits < ID_DIGITS_MAX)
		id = id * 10 + (text[digits++] - '0');
	if (digits == 0 || id < 1 || id > ((int64_t)1 << 53) - 1 || len != digits + 1 + HANDLE_TAG_LEN ||
	    text[digits] != '-')
		return HANDLE_ERR_FORMAT;
	for (i = 0; i < HANDLE_TAG_LEN; i++)
		if ((got[i] = tag_char(text[digits + 1 + i])) == 0)
			return HANDLE_ERR_FORMAT;
	tag(kr, game, id, want);
	if (sodium_memcmp(want, got, HANDLE_TAG_LEN) != 0)
		return HANDLE_ERR_TAG;
	*run = id;
	return HANDLE_OK;
}
