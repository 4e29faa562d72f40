/*
 * ab_limits.h: the sizes an actionblocks-v1 match asks of the server's
 * buffers and the row's columns, as plain constants over the engine's
 * (actionblocks_match.h, actionblocks_serial.h). The descriptor
 * (ab_rules.c) gives them, and meson.build names them for the generated
 * match_limits.h, whose limits are the largest of every ruleset's: this
 * header includes nothing of api/ so that configure can read it.
 */
#ifndef API_AB_LIMITS_H
#define API_AB_LIMITS_H

#include "actionblocks_match.h"
#include "actionblocks_serial.h"

#define AB_TOTALS_SIZE (8 * AB_PLAYERS_MAX)   /* the totals' bytes (match_totals_encode) */
/* The pending moves' bytes: a seat's record is its seat, the move's kind,
 * use, key count (2 bytes) and keys; records of the seats moved only. */
#define AB_PENDING_SEAT_MAX (5 + AB_KEYS_MAX)
#define AB_PENDING_MAX (AB_PENDING_SEAT_MAX * AB_PLAYERS_MAX)
/* "use 8; keys " and 256 keys, and the NUL. */
#define AB_MOVE_TEXT_MAX (16 + AB_KEYS_MAX)

#endif
