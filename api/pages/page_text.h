/*
 * page_text.h: what the reading routes' answers (board_json.c,
 * history_json.c, watch_json.c, account_json.c) write alike with the
 * answer writer (jw.h): the writer they start, an account's name or null,
 * a time or null, a game's figures, an id as text and a real number as
 * jansson writes it. Each answer is one function writing its text; these
 * keep the few forms they share in one place, byte for byte what the
 * jansson trees they replace dumped.
 */
#ifndef API_PAGE_TEXT_H
#define API_PAGE_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "jw.h"

/* The first buffer of a page's writer, and its bound: a run's page holds
 * every stored move, which json_dumps never bounded either. */
#define PAGE_TEXT_FIRST 2048
#define PAGE_TEXT_MAX   ((size_t)256 << 20)

/* The figures a runs row keeps beside the score; -1 for none (NULL). The
 * run pages, the boards and an account's runs show them alike. */
struct board_figures {
	int64_t lines, pieces, rung, lives;
};

/* A writer for one answer. */
void page_text_start(struct jw *w);

/* The answer written (malloc'd, NUL-terminated, its length in *len), or
 * NULL when the writer failed; the writer is left empty. */
char *page_text_take(struct jw *w, size_t *len);

/* s, or null when NULL or "" (an anonymous run's account, no end yet). */
void page_text_string_or_null(struct jw *w, const char *s);

/* An id as a decimal string ("42"). */
void page_text_id(struct jw *w, int64_t id);

/* v as json_dumps writes a real: "%.17g", ".0" added when that reads as
 * an integer, the exponent without '+' or leading zeros. A NaN or an
 * infinity, which json_real refuses, fails the writer. */
void page_text_real(struct jw *w, double v);

/* The figures g shows beside the score (its board_fields), each a key
 * and its value, null for -1. */
void page_text_figures(struct jw *w, const struct game *g, const struct board_figures *f);

#endif
