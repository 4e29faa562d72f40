/*
 * tetromino_json.c: the marks of a placement, computed with the engine's
 * own drop (tetromino_landing), never a second copy of the rules: the page
 * that draws them only shows what the engine says.
 */
#include "tetromino_json.h"

static json_t *
cell(unsigned row, unsigned col)
{
	return json_pack("[i,i]", (int)row, (int)col);
}

json_t *
tetromino_json_marks_cells(const struct tetromino_board *before, unsigned piece, unsigned rotation,
    unsigned column, const struct tetromino_cell at[4])
{
	uint16_t rows[TETROMINO_ROWS];
	unsigned below[TETROMINO_ROWS]; /* cleared rows under each row */
	json_t *landed, *cleared, *kept;
	char letter[2] = { 0, 0 };
	unsigned r, k, n = 0;

	if (piece >= TETROMINO_NPIECES)
		return NULL;
	for (r = 0; r < TETROMINO_ROWS; r++)
		rows[r] = before->rows[r];
	for (k = 0; k < 4; k++) {
		unsigned row = at[k].row, col = at[k].col;

		if (row >= TETROMINO_ROWS || col >= TETROMINO_COLS || (rows[row] >> col) & 1u)
			return NULL;
		rows[row] |= (uint16_t)(1u << col);
	}
	landed = json_array();
	cleared = json_array();
	kept = json_array();
	for (r = 0; r < TETROMINO_ROWS; r++) {
		below[r] = n;
		if (rows[r] == TETROMINO_FULL_ROW) {
			json_array_append_new(cleared, json_integer(r + 1));
			n++;
		}
	}
	for (k = 0; k < 4; k++) {
		unsigned row = at[k].row, col = at[k].col;

		json_array_append_new(landed, cell(row + 1, col));
		if (rows[row] != TETROMINO_FULL_ROW)
			json_array_append_new(kept, cell(row - below[row] + 1, col));
	}
	letter[0] = tetromino_letter(piece);
	return json_pack("{s:s, s:i, s:i, s:o, s:o, s:o}", "piece", letter, "rotation", (int)rotation,
	    "column", (int)column, "landed", landed, "cleared", cleared, "kept", kept);
}

json_t *
tetromino_json_marks(const struct tetromino_board *before, unsigned piece, unsigned rotation,
    unsigned column)
{
	const struct tetromino_shape *s = tetromino_shape(piece, rotation);
	struct tetromino_cell at[4];
	unsigned r, x, k = 0;
	int land;

	if (s == NULL || column > tetromino_max_column(piece, rotation))
		return NULL;
	land = tetromino_landing(before, piece, rotation, column);
	if (land < 0 || land + s->height > TETROMINO_ROWS)
		return NULL;
	/* By row from the bottom, then column: the order the pages list. */
	for (r = 0; r < s->height; r++) {
		for (x = 0; x < s->width; x++) {
			if (!((s->rows[r] >> x) & 1) || k == 4)
				continue;
			at[k].row = (uint8_t)((unsigned)land + r);
			at[k].col = (uint8_t)(column + x);
			k++;
		}
	}
	if (k != 4)
		return NULL;
	return tetromino_json_marks_cells(before, piece, rotation, column, at);
}
