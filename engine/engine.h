/*
 * engine.h: what every game module of the engine shares.
 *
 * The engine is pure: no I/O, no clock, no allocation, no global state.
 * Refusals are ordinary results that carry a human-readable reason in a
 * caller-supplied buffer of ENGINE_REASON_MAX bytes.
 */
#ifndef ENGINE_H
#define ENGINE_H

#include <stddef.h>
#include <stdint.h>

/* Rules versions named in replays and certificates. */
#define ENGINE_RULES_STACKFALL "stackfall-v1"
#define ENGINE_RULES_DUSKCOURT "duskcourt-v1"

/* The largest seed or id anywhere (2^53 - 1): the largest integer a JSON
 * number, an IEEE double, holds exactly, so every client reads it back. */
#define ENGINE_ID_MAX INT64_C(9007199254740991)

/* Room for any refusal reason, terminating NUL included. */
#define ENGINE_REASON_MAX 160

/* Writes a formatted reason into buf (capacity cap, may be 0 or buf NULL:
 * then nothing is written). Always NUL-terminates when cap > 0 and
 * truncates silently. Returns false, so that a refusal is one line:
 * `return engine_refuse(reason, cap, "...", ...);`. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
_Bool engine_refuse(char *buf, size_t cap, const char *fmt, ...);

/* The n (1..8) low bytes of v, little-endian, into p; and back. For the
 * games' serialisations. */
void engine_put_le(uint8_t *p, uint64_t v, int n);
uint64_t engine_get_le(const uint8_t *p, int n);

/* v in decimal digits into out (room for 20; no NUL); returns how many. For
 * the seed strings the piece and hole streams hash, with no stdio. */
size_t engine_put_decimal(char *out, uint64_t v);

/* The checksum that closes the games' serialisations: CRC-16/CCITT-FALSE
 * (poly 0x1021, init 0xffff), which catches every single-bit flip and every
 * burst of up to 16 bits. */
uint16_t engine_crc16(const uint8_t *p, size_t n);

/* CRC-32 (IEEE 802.3, as zlib's crc32) of p[0..n). */
uint32_t engine_crc32(const uint8_t *p, size_t n);

/* An appender for the short sentences a successful move reports ("placed
 * T r1x4 at y 17: 2 lines, +300"; refusals use engine_refuse). It writes
 * into a caller's buffer, truncates silently and keeps it NUL-terminated;
 * with no buffer (NULL or capacity 0) it writes nothing. */
struct engine_msg {
	char *buf;
	size_t cap, len;
	size_t need; /* what the whole text takes, written or cut (snprintf's count) */
};

struct engine_msg engine_msg_start(char *buf, size_t cap);
void engine_msg_str(struct engine_msg *m, const char *s);
void engine_msg_uint(struct engine_msg *m, uint64_t v);
void engine_msg_char(struct engine_msg *m, char c);

/* "; game over ({end})": how a move's sentence says that it ended the run,
 * end being the game's name of the end reason. */
void engine_msg_game_over(struct engine_msg *m, const char *end);

/* The item games' (versus, actionblocks) `use T`: seat numbers as a seat
 * sees them, 1 itself and 2.. the others in match order. */
#define ENGINE_NOBODY 0xff

/* The seat t names for user among nplayers, ENGINE_NOBODY if none. */
unsigned engine_use_seat(unsigned nplayers, unsigned user, unsigned t);

/* Checks `use t` from user: refuses it (reason as engine_refuse) in a match
 * without items (item_chance 0) or when t names no seat; else sets *seat.
 * Whether that seat is still in is the game's to check. */
_Bool engine_check_use(unsigned nplayers, unsigned item_chance, unsigned user, unsigned t,
    unsigned *seat, char *reason, size_t cap);

/* "use {t}; ", the prefix of a move text that uses an item; nothing for 0. */
void engine_msg_use(struct engine_msg *m, uint64_t t);

#endif
