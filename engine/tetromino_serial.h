/*
 * tetromino_serial.h: a tetromino board in the games' state bytes, and the
 * frame that Stackfall, HATETRIS and Stackcraft put around it.
 *
 * The board is stored as its rows from the floor up to the highest
 * non-empty one, each as its 4-byte little-endian cells word (3 bits a
 * cell as in struct tetromino_board, bits 30-31 zero). The frame of a
 * state of head header bytes is:
 *   0          the version
 *   1..head-2  the game's own fields
 *   head-1     n, the number of non-empty board rows (0..20)
 *   head..     the n rows
 *   last 2     CRC-16/CCITT-FALSE (engine_crc16) of all bytes before it
 * so a state takes head + 4n + 2 bytes. Each game's header says its fields.
 */
#ifndef TETROMINO_SERIAL_H
#define TETROMINO_SERIAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tetromino.h"

/* Bytes of the closing checksum. */
#define TETROMINO_STATE_CRC 2

/* The rows as the frame stores them: tetromino_board_used_rows of them,
 * from the floor up. get_rows rebuilds the whole board from nrows words
 * and refuses (false, b unspecified) a word with bits past the tenth cell,
 * an empty row or a full one. */
unsigned tetromino_board_used_rows(const struct tetromino_board *b);
void tetromino_board_put_rows(const struct tetromino_board *b, unsigned nrows, uint8_t *out);
bool tetromino_board_get_rows(struct tetromino_board *b, const uint8_t *in, unsigned nrows);

/* The length of a state of head header bytes (head >= 2) around b. */
size_t tetromino_state_size(const struct tetromino_board *b, size_t head);

/* Closes a state whose first head - 1 bytes (version and fields) the game
 * has written into buf, which has tetromino_state_size(b, head) bytes: the
 * row count, the rows and the checksum. */
void tetromino_state_seal(const struct tetromino_board *b, uint8_t *buf, size_t head);

/* Opens a state of len bytes: true, and b rebuilt from its rows, when buf
 * is not NULL, starts with version, has exactly the length its row count
 * gives, an intact checksum and rows that tetromino_board_get_rows takes.
 * Otherwise false, b unspecified. The game then reads and checks its
 * fields, buf[1 .. head-2]. */
bool tetromino_state_open(struct tetromino_board *b, const uint8_t *buf, size_t len,
    size_t head, uint8_t version);

#endif
