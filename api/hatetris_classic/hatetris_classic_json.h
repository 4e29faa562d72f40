/*
 * hatetris_classic_json.h: the original HATETRIS key for key
 * (engine/hatetris_classic/hatetris_classic.h) on the game table as `hatetris-classic`, and
 * the import of a record in the original's replay encodings.
 *
 * A run is played by keys; it is stored one move per lock, not per key:
 * {"keys":N,"o":O,"type":"lock","x":X,"y":Y} says the live piece took N keys
 * (blocked ones included) and locked with its box at (X, Y, O). When an
 * action ends with the piece still falling, its last move is
 * {"keys":N,"o":O,"type":"move","x":X,"y":Y}: N keys that left it there. A
 * replay plays a shortest path to each position (only where a piece stands
 * and locks decides the game) and counts N keys.
 *
 * The supplier's memory. count(W), how many supplier calls saw well W, lives
 * in the run's facts, not in the token: the supplier call after a lock that
 * makes count(W) = n records the fact (W's 25-byte key, n as 4 bytes little
 * endian), so the facts of a run never repeat and count(W) is the largest n
 * recorded (the run's start, on the empty well, counts 1 and records
 * nothing). The 2021 supplier records (W, 0x80000000 | piece) for each
 * piece given on W. A request asks the run's facts through its environment
 * and keeps its own new values in memory; a replay keeps its own set.
 */
#ifndef API_HATETRIS_CLASSIC_JSON_H
#define API_HATETRIS_CLASSIC_JSON_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "game.h"
#include "hatetris_classic.h"

extern const struct game game_hatetris_classic;

/* Keys one action may send, at most. */
#define HCJ_KEYS_MAX 16384

/* A fact: a well's key and a count (or a piece given, for 2021). */
#define HCJ_FACT_BYTES (HCLASSIC_KEY_BYTES + 4)

/* The longest record string an import takes, in bytes (the longest
 * published record, 138,454 keys, is about 23 KB of Base2048). */
#define HCJ_RECORD_MAX (1u << 20)

/*
 * Re-simulates a record (a UTF-8 string in any of the four encodings,
 * tried in the original's order) from the start under supplier, with the
 * replay's own memory. A new object {encoding, keys, keys_played,
 * ignored, lines, pieces, status, end_reason, piece_sequence}, or NULL with
 * the reason in why (the string is not a replay, or out of memory: *oom
 * then true).
 */
json_t *hclassic_json_import(const char *record, size_t len, unsigned supplier, bool *oom,
    char *why, size_t cap);

#endif
