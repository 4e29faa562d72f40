/*
 * stackfall_cmd.h: the text commands of Stackfall.
 *
 * Grammar (docs/rules/stackfall.md): `place R C`, its short form `R C`,
 * `options`, `preview R C`, `hold`, `resign`. Keywords are case-insensitive;
 * spaces and tabs may surround and separate words; R and C are unsigned ASCII
 * decimal numbers (leading zeros allowed, values up to 2^32 - 1 read, larger
 * ones refused without overflow). Commands are separated by '\n' or ';'; a
 * '\r' at either end of a command is ignored, so "\r\n" works as a separator.
 * Empty commands are skipped and not counted.
 *
 * A whole request fails only when it holds no command (EMPTY) or more than
 * STACKFALL_CMD_MAX (TOO_MANY). A command that cannot be read is not a request
 * failure: it comes back in its place as STACKFALL_CMD_INVALID with a reason,
 * because the server runs commands in order and stops at the first failing
 * one, whatever made it fail. Range checks (rotation 0-3, a column for the
 * piece) are the game's, not the parser's.
 *
 * Nothing here allocates: the caller passes an array, normally of
 * STACKFALL_CMD_MAX entries (about 9 KB).
 */
#ifndef STACKFALL_CMD_H
#define STACKFALL_CMD_H

#include <stddef.h>
#include <stdint.h>

#include "engine.h"

#define STACKFALL_CMD_MAX 50

enum stackfall_cmd_kind {
	STACKFALL_CMD_INVALID,
	STACKFALL_CMD_PLACE,
	STACKFALL_CMD_OPTIONS,
	STACKFALL_CMD_PREVIEW,
	STACKFALL_CMD_HOLD,
	STACKFALL_CMD_RESIGN,
};

/* Why a command is invalid. */
enum stackfall_cmd_error {
	STACKFALL_CMD_ERR_NONE,
	STACKFALL_CMD_ERR_UNKNOWN,    /* the first word is no command */
	STACKFALL_CMD_ERR_MISSING,    /* a rotation or column is missing */
	STACKFALL_CMD_ERR_EXTRA,      /* words after a complete command */
	STACKFALL_CMD_ERR_NOT_NUMBER, /* a sign, a letter, a dot... in a number */
	STACKFALL_CMD_ERR_TOO_LARGE,  /* a number above 2^32 - 1 */
};

enum stackfall_cmd_parse {
	STACKFALL_PARSE_OK,
	STACKFALL_PARSE_EMPTY,    /* no command at all: `empty_command` */
	STACKFALL_PARSE_TOO_MANY, /* more than the limit: `too_many_commands` */
};

struct stackfall_cmd {
	uint8_t kind;       /* enum stackfall_cmd_kind */
	uint8_t error;      /* enum stackfall_cmd_error; NONE unless INVALID */
	uint32_t rotation;  /* PLACE and PREVIEW */
	uint32_t column;    /* PLACE and PREVIEW */
	size_t start, len;  /* the command as sent, trimmed: text[start .. start+len) */
	/* INVALID only: why, e.g. "rotation '-1' is not an unsigned decimal
	 * number". Printable ASCII only (quoted words are cut and their
	 * other bytes shown as '?'), so it is always valid UTF-8. */
	char reason[ENGINE_REASON_MAX];
};

/* Splits text[0..len) (borrowed; NUL bytes are ordinary invalid characters)
 * into commands written to cmds[0..*n). The limit is the smaller of cap and
 * STACKFALL_CMD_MAX; past it the request is refused whole (TOO_MANY) after
 * reading at most limit + 1 commands. *n is set in every case (0 for EMPTY). */
enum stackfall_cmd_parse stackfall_cmd_parse(const char *text, size_t len,
    struct stackfall_cmd *cmds, size_t cap, size_t *n);

/* A canonical text of cmds[0..n) for comparing two requests once parsed:
 * commands joined by ';', each as "place R C", "options", "preview R C",
 * "hold" or "resign" in lower case with plain decimals ("1 4", "PLACE 01 4"
 * and "place\t1 4" all give "place 1 4"); an invalid command is "invalid "
 * followed by its trimmed text, which is why text (the one parsed) is needed.
 * Writes at most cap - 1 characters and a NUL when cap > 0; returns the full
 * length, like snprintf. */
size_t stackfall_cmd_canonical(const struct stackfall_cmd *cmds, size_t n, const char *text,
    char *buf, size_t cap);

/* "place", "options", "preview", "hold", "resign" or "invalid". */
const char *stackfall_cmd_name(unsigned kind);

#endif
