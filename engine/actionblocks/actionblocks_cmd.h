/*
 * actionblocks_cmd.h: a turn's move as text: read, written back, checked
 * against a seat (actionblocks_cmd.c).
 */
#ifndef ACTIONBLOCKS_CMD_H
#define ACTIONBLOCKS_CMD_H

#include "actionblocks_match.h"

/* Reads a move as a bot sends it: `[use T; ][keys ]LETTERS` or `resign`
 * (words in any case, blanks around them and between letters ignored;
 * letters upper case; at most AB_KEYS_MAX). text is borrowed. EMPTY when
 * there is nothing at all; INVALID with a reason otherwise (mv undefined). */
enum ab_parse ab_move_parse(const char *text, size_t len, struct ab_move *mv, char *reason,
    size_t cap);

/* Canonical text: "keys XXLD" ("keys" with no letters), "use 2; keys D",
 * "resign", "missed". snprintf's contract. */
size_t ab_move_text(const struct ab_move *mv, char *buf, size_t cap);

/* Whether seat may send mv now: the match runs on turns and is not over,
 * the seat is alive, mv is KEYS or RESIGN, a use names a living seat of a
 * match with items, and no key is left after the piece's lock (or after a
 * hold that spawned onto a block). Keys are played on a copy, as
 * ab_resolve() will play them: a move accepted here is played as checked.
 * Refusal: reason (may be NULL) says why, naming the key's index (0-based). */
bool ab_check_move(const struct ab_match *m, unsigned seat, const struct ab_move *mv,
    char *reason, size_t cap);

#endif
