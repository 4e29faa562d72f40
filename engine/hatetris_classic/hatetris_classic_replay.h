/*
 * hatetris_classic_replay.h: the replay strings of the original HATETRIS
 * (docs/rules/hatetris-classic.md, "Replays").
 *
 * A replay is a run's keys, blocked ones included, written in one of four
 * encodings: raw (the letters L R D U), hex (two keys per digit, L=0 R=1
 * D=2 U=3), or run-length nybbles (a key and a run of 1-4, two per byte)
 * packed into Base65536 or Base2048 text. Strings are UTF-8. Decoding a
 * string of unknown encoding trims Unicode white space at both ends, then
 * tries raw, hex, Base65536 and Base2048 in that order, as the original
 * does. Padding (hex's trailing D, the run-length form's trailing L) is
 * decoded as a real key: playing it after the run's end does nothing.
 *
 * Pure: no allocation, the caller passes the buffers; every input, even
 * invalid UTF-8, gets an answer. Linear in the string's length.
 */
#ifndef HATETRIS_CLASSIC_REPLAY_H
#define HATETRIS_CLASSIC_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum hclassic_encoding {
	HCLASSIC_RAW,
	HCLASSIC_HEX,
	HCLASSIC_BASE65536,
	HCLASSIC_BASE2048,
	HCLASSIC_NENCODINGS,
};

enum hclassic_replay_status {
	HCLASSIC_REPLAY_OK,
	HCLASSIC_REPLAY_BAD_UTF8,  /* the bytes are not UTF-8 */
	HCLASSIC_REPLAY_INVALID,   /* not a replay in the encoding(s) tried */
};

/* Most keys one character can carry: a Base65536 character holds two bytes,
 * four nybbles of up to 4 keys each. */
#define HCLASSIC_REPLAY_KEYS_PER_CHAR 16

/*
 * Decodes the UTF-8 string s[0..len) of unknown encoding. Writes the first
 * cap keys ('L' 'R' 'D' 'U', no NUL) into keys (may be NULL when cap is 0),
 * stores the number of keys the string holds in *nkeys (may exceed cap) and
 * the encoding recognised in *encoding (either may be NULL). An empty or
 * all-blank string is a valid Base65536 replay of no keys. On an error the
 * keys buffer holds nothing meaningful and *nkeys is 0.
 */
enum hclassic_replay_status hclassic_replay_decode(const char *s, size_t len, char *keys,
    size_t cap, size_t *nkeys, unsigned *encoding);

/* The same for one given encoding, on the string as it is (hex alone skips
 * spaces and '#'; nothing else is trimmed). */
enum hclassic_replay_status hclassic_replay_decode_as(unsigned encoding, const char *s,
    size_t len, char *keys, size_t cap, size_t *nkeys);

/*
 * Encodes keys[0..nkeys) (each 'L' 'R' 'D' 'U') in encoding as the original
 * writes it: hex pads an odd count with a D and puts a space after every
 * group of four digits; Base65536 and Base2048 pad an odd number of
 * nybbles with a lone L. Stores the UTF-8 length (NUL not counted) in *len;
 * the string is written whole, with its NUL, only when *len < cap (else out
 * holds a truncated prefix, NUL-terminated when cap > 0). Returns false,
 * with *len 0, for another character in keys or an unknown encoding.
 */
bool hclassic_replay_encode(unsigned encoding, const char *keys, size_t nkeys, char *out,
    size_t cap, size_t *len);

/* "raw", "hex", "Base65536", "Base2048"; NULL out of range. */
const char *hclassic_encoding_name(unsigned encoding);

/* The z-th (0..2047) character of Base2048's main set; 0 out of range. For
 * the tests, which check the table against the spec's digest. */
uint32_t hclassic_base2048_char(unsigned z);

#endif
