/*
 * tetromino_serial.c: the board's rows in the games' state bytes and the
 * frame around them (version, row count, CRC-16), written once for the
 * three games that store a tetromino board this way. The layout is in
 * tetromino_serial.h; stored states depend on it byte for byte.
 */
#include "tetromino_serial.h"

#include <string.h>

#include "engine.h"

unsigned
tetromino_board_used_rows(const struct tetromino_board *b)
{
	unsigned n = TETROMINO_ROWS;

	while (n > 0 && b->rows[n - 1] == 0)
		n--;
	return n;
}

void
tetromino_board_put_rows(const struct tetromino_board *b, unsigned nrows, uint8_t *out)
{
	unsigned r;

	for (r = 0; r < nrows; r++)
		engine_put_le(out + 4 * r, b->cells[r], 4);
}

bool
tetromino_board_get_rows(struct tetromino_board *b, const uint8_t *in, unsigned nrows)
{
	unsigned r, c;

	if (nrows > TETROMINO_ROWS)
		return false;
	memset(b, 0, sizeof *b);
	for (r = 0; r < nrows; r++) {
		b->cells[r] = (uint32_t)engine_get_le(in + 4 * r, 4);
		if (b->cells[r] >> (3 * TETROMINO_COLS) != 0)
			return false;
		for (c = 0; c < TETROMINO_COLS; c++)
			if (b->cells[r] >> (3 * c) & 7u)
				b->rows[r] = (uint16_t)(b->rows[r] | 1u << c);
		if (b->rows[r] == 0 || b->rows[r] == TETROMINO_FULL_ROW)
			return false;
	}
	return true;
}

size_t
tetromino_state_size(const struct tetromino_board *b, size_t head)
{
	return head + 4 * (size_t)tetromino_board_used_rows(b) + TETROMINO_STATE_CRC;
}

void
tetromino_state_seal(const struct tetromino_board *b, uint8_t *buf, size_t head)
{
	unsigned nrows = tetromino_board_used_rows(b);
	size_t body = head + 4 * (size_t)nrows;

	buf[head - 1] = (uint8_t)nrows;
	tetromino_board_put_rows(b, nrows, buf + head);
	engine_put_le(buf + body, engine_crc16(buf, body), TETROMINO_STATE_CRC);
}

bool
tetromino_state_open(struct tetromino_board *b, const uint8_t *buf, size_t len, size_t head,
    uint8_t version)
{
	unsigned nrows;

	if (buf == NULL || len < head + TETROMINO_STATE_CRC || buf[0] != version)
		return false;
	nrows = buf[head - 1];
	if (nrows > TETROMINO_ROWS || len != head + 4 * (size_t)nrows + TETROMINO_STATE_CRC)
		return false;
	if (engine_get_le(buf + len - TETROMINO_STATE_CRC, TETROMINO_STATE_CRC) !=
	    engine_crc16(buf, len - TETROMINO_STATE_CRC))
		return false;
	return tetromino_board_get_rows(b, buf + head, nrows);
}
