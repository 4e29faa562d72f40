/*
 * actionblocks_serial.h: a match as bytes and back (actionblocks_serial.c
 * describes the layout).
 */
#ifndef ACTIONBLOCKS_SERIAL_H
#define ACTIONBLOCKS_SERIAL_H

#include "actionblocks_match.h"

/* The match's bytes (actionblocks_serial.c describes the layout):
 * little-endian, versioned, closed by a CRC-32; a player's board written up
 * to its highest non-empty row, what follows from the rest left out. */
#define AB_SERIAL_VERSION 1
#define AB_SERIAL_MAX (29 + 4 + AB_PLAYERS_MAX * (65 + AB_INVENTORY_MAX + \
    2 * AB_QUEUE_MAX + AB_ROWS * 10)) /* 5881 bytes */

/* Writes m into buf when cap suffices; returns the length needed either way
 * (writes nothing when cap is short). */
size_t ab_encode(const struct ab_match *m, uint8_t *buf, size_t cap);

/* Reads ab_encode()'s bytes: false (m unchanged) unless version, length
 * and CRC are right and the state keeps the engine's invariants (no full
 * row, items only on filled cells, level from lines, ranges, a living
 * seat's piece in bounds and not overlapping, places and counts from the
 * alive flags). Encoding the result gives the same bytes. */
bool ab_decode(struct ab_match *m, const uint8_t *buf, size_t len);

#endif
