/*
 * stackfall.c: the game on top of tetromino.c and bag.c, and its compact
 * serialisation.
 *
 * Invariants kept by every command and checked again by stackfall_decode():
 *   - the board has no full row, and no empty row below a filled one (a piece
 *     always rests on the floor or on the stack, and clears keep order);
 *   - filled cells = 4 * placed - 10 * lines;
 *   - drawn = placed + 1 + (hold slot used), next[k] = stream piece drawn + k,
 *     and stream piece drawn - 1 is the current or the held piece;
 *   - level = 1 + lines / 10; status is OVER exactly when end_reason is set;
 *     the run is over with piece_limit exactly when 150 pieces are placed;
 *   - can_hold is false when over, and true while playing with an empty slot;
 *   - a playing run is not topped out.
 * A command validates everything before it writes anything, so a refusal
 * leaves the struct byte for byte as it was.
 */
#include "stackfall.h"

#include <string.h>

#include "bag.h"
#include "tetromino_serial.h"

static const char *const end_names[] = {
	NULL, "top_out", "piece_limit", "resigned", "abandoned",
};

const char *
stackfall_status_name(unsigned status)
{
	return status == STACKFALL_OVER ? "over" : "playing";
}

const char *
stackfall_end_name(unsigned end_reason)
{
	return end_reason < sizeof end_names / sizeof end_names[0] ? end_names[end_reason] : NULL;
}

static struct engine_msg
msg_start(struct stackfall_report *rep)
{
	return rep != NULL ? engine_msg_start(rep->message, sizeof rep->message) : engine_msg_start(NULL, 0);
}

static enum stackfall_outcome
report(struct stackfall_report *rep, enum stackfall_outcome outcome, unsigned lines,
    uint32_t points)
{
	if (rep != NULL) {
		rep->outcome = outcome;
		rep->lines = (uint8_t)lines;
		rep->points = points;
	}
	return outcome;
}

static enum stackfall_outcome
refuse_over(const struct stackfall *g, struct stackfall_report *rep)
{
	if (rep != NULL)
		engine_refuse(rep->message, sizeof rep->message, "the game is over (%s)",
		    stackfall_end_name(g->end_reason));
	return report(rep, STACKFALL_GAME_OVER, 0, 0);
}

/* The stream piece at index i; i never decreases between calls on one run,
 * so one cached bag is enough. */
static uint8_t
stream_at(struct stackfall *g, uint32_t i)
{
	if (i / BAG_SIZE != g->bag_number) {
		g->bag_number = i / BAG_SIZE;
		bag_shuffle(g->seed, g->bag_number, g->bag);
	}
	return g->bag[i % BAG_SIZE];
}

static uint8_t
draw(struct stackfall *g)
{
	uint8_t p = g->next[0];

	g->next[0] = g->next[1];
	g->next[1] = g->next[2];
	g->drawn++;
	g->next[2] = stream_at(g, (uint32_t)g->drawn + 2);
	return p;
}

bool
stackfall_init(struct stackfall *g, uint64_t seed)
{
	if (seed > STACKFALL_SEED_MAX)
		return false;
	memset(g, 0, sizeof *g);
	tetromino_board_init(&g->board);
	g->seed = seed;
	g->level = 1;
	g->combo = -1;
	g->hold = STACKFALL_NO_PIECE;
	g->can_hold = true;
	g->status = STACKFALL_PLAYING;
	g->end_reason = STACKFALL_END_NONE;
	g->bag_number = 0;
	bag_shuffle(seed, 0, g->bag);
	g->current = g->bag[0];
	g->drawn = 1;
	g->next[0] = g->bag[1];
	g->next[1] = g->bag[2];
	g->next[2] = g->bag[3];
	return true;
}

static void
end_run(struct stackfall *g, enum stackfall_end why)
{
	g->status = STACKFALL_OVER;
	g->end_reason = (uint8_t)why;
	g->can_hold = false;
}

/* The piece a hold would bring now, or STACKFALL_NO_PIECE when hold is spent. */
static unsigned
hold_alternative(const struct stackfall *g)
{
	if (!g->can_hold)
		return STACKFALL_NO_PIECE;
	return g->hold != STACKFALL_NO_PIECE ? g->hold : g->next[0];
}

static bool
topped_out(const struct stackfall *g)
{
	unsigned alt;

	if (tetromino_can_place(&g->board, g->current))
		return false;
	alt = hold_alternative(g);
	return alt == STACKFALL_NO_PIECE || !tetromino_can_place(&g->board, alt);
}

/* Run each time a new current piece arrives, in the order of the rules. */
static void
end_checks(struct stackfall *g)
{
	if (g->placed >= STACKFALL_PIECE_LIMIT)
		end_run(g, STACKFALL_END_PIECE_LIMIT);
	else if (topped_out(g))
		end_run(g, STACKFALL_END_TOP_OUT);
}

/* Checks a placement of the current piece; on refusal fills rep. */
static bool
placement_ok(const struct stackfall *g, unsigned rotation, unsigned column,
    struct stackfall_report *rep)
{
	return tetromino_placement_ok(&g->board, g->current, rotation, column,
	    rep != NULL ? rep->message : NULL, rep != NULL ? sizeof rep->message : 0);
}

static const uint32_t base_points[5] = { 0, 100, 300, 500, 800 };
static const uint32_t perfect_points[5] = { 0, 800, 1200, 1800, 2000 };

uint64_t
stackfall_clear_points(unsigned lines, uint64_t level, uint64_t combo, bool back_to_back,
    bool perfect)
{
	uint64_t points;

	if (lines == 0 || lines > 4)
		return 0;
	points = (back_to_back ? 1200u : base_points[lines]) * level;
	if (combo >= 1)
		points += 50u * combo * level;
	if (perfect)
		points += (back_to_back ? 3200u : perfect_points[lines]) * level;
	return points;
}

enum stackfall_outcome
stackfall_place(struct stackfall *g, unsigned rotation, unsigned column,
    struct stackfall_report *rep)
{
	struct engine_msg m;
	uint32_t level, points = 0;
	unsigned piece = g->current;
	bool b2b = false, perfect = false;
	int n;

	if (g->status == STACKFALL_OVER)
		return refuse_over(g, rep);
	if (!placement_ok(g, rotation, column, rep))
		return report(rep, STACKFALL_REFUSED, 0, 0);

	level = g->level; /* the level when the lines clear */
	n = tetromino_place(&g->board, piece, rotation, column);
	if (n == 0) {
		g->combo = -1;
	} else {
		g->combo++;
		b2b = n == 4 && g->back_to_back;
		perfect = tetromino_board_is_empty(&g->board);
		points = (uint32_t)stackfall_clear_points((unsigned)n, level, (uint64_t)g->combo,
		    b2b, perfect);
		g->back_to_back = n == 4;
		g->score += points;
		g->lines = (uint16_t)(g->lines + n);
		g->level = (uint16_t)(1 + g->lines / 10);
	}
	g->placed++;
	g->can_hold = true;
	g->current = draw(g);
	end_checks(g);

	m = msg_start(rep);
	tetromino_say_placement(&m, "placed", piece, rotation, column);
	if (n > 0) {
		engine_msg_str(&m, ": ");
		engine_msg_uint(&m, (unsigned)n);
		engine_msg_str(&m, n == 1 ? " line, +" : " lines, +");
		engine_msg_uint(&m, points);
		if (b2b || g->combo >= 1 || perfect) {
			engine_msg_str(&m, " (");
			if (b2b)
				engine_msg_str(&m, g->combo >= 1 || perfect ? "back-to-back, " : "back-to-back");
			if (g->combo >= 1) {
				engine_msg_str(&m, "combo ");
				engine_msg_uint(&m, (unsigned)g->combo);
				if (perfect)
					engine_msg_str(&m, ", ");
			}
			if (perfect)
				engine_msg_str(&m, "perfect clear");
			engine_msg_str(&m, ")");
		}
	}
	if (g->status == STACKFALL_OVER)
		engine_msg_game_over(&m, stackfall_end_name(g->end_reason));
	return report(rep, STACKFALL_OK, (unsigned)n, points);
}

enum stackfall_outcome
stackfall_hold(struct stackfall *g, struct stackfall_report *rep)
{
	struct engine_msg m;
	uint8_t held = g->current;

	if (g->status == STACKFALL_OVER)
		return refuse_over(g, rep);
	if (!g->can_hold) {
		if (rep != NULL)
			engine_refuse(rep->message, sizeof rep->message,
			    "hold already used for this piece");
		return report(rep, STACKFALL_REFUSED, 0, 0);
	}
	if (g->hold == STACKFALL_NO_PIECE) {
		g->current = draw(g);
	} else {
		g->current = g->hold;
	}
	g->hold = held;
	g->can_hold = false;
	end_checks(g);

	m = msg_start(rep);
	engine_msg_str(&m, "held ");
	engine_msg_char(&m, tetromino_letter(held));
	engine_msg_str(&m, "; current piece is ");
	engine_msg_char(&m, tetromino_letter(g->current));
	if (g->status == STACKFALL_OVER)
		engine_msg_game_over(&m, stackfall_end_name(g->end_reason));
	return report(rep, STACKFALL_OK, 0, 0);
}

static enum stackfall_outcome
finish(struct stackfall *g, enum stackfall_end why, const char *verb,
    struct stackfall_report *rep)
{
	struct engine_msg m;

	if (g->status == STACKFALL_OVER)
		return refuse_over(g, rep);
	end_run(g, why);
	m = msg_start(rep);
	engine_msg_str(&m, verb);
	engine_msg_str(&m, ": score ");
	engine_msg_uint(&m, g->score);
	engine_msg_str(&m, ", ");
	engine_msg_uint(&m, g->lines);
	engine_msg_str(&m, g->lines == 1 ? " line, " : " lines, ");
	engine_msg_uint(&m, g->placed);
	engine_msg_str(&m, g->placed == 1 ? " piece" : " pieces");
	return report(rep, STACKFALL_OK, 0, 0);
}

enum stackfall_outcome
stackfall_resign(struct stackfall *g, struct stackfall_report *rep)
{
	return finish(g, STACKFALL_END_RESIGNED, "resigned", rep);
}

enum stackfall_outcome
stackfall_abandon(struct stackfall *g, struct stackfall_report *rep)
{
	return finish(g, STACKFALL_END_ABANDONED, "abandoned", rep);
}

enum stackfall_outcome
stackfall_options(const struct stackfall *g, struct tetromino_option *out, size_t cap,
    size_t *count, struct stackfall_report *rep)
{
	struct engine_msg m;
	size_t n;

	if (g->status == STACKFALL_OVER)
		return refuse_over(g, rep);
	m = msg_start(rep);
	n = tetromino_say_options(&g->board, g->current, out, cap, &m);
	if (count != NULL)
		*count = n;
	return report(rep, STACKFALL_OK, 0, 0);
}

enum stackfall_outcome
stackfall_preview(const struct stackfall *g, unsigned rotation, unsigned column,
    struct tetromino_preview *pv, struct stackfall_report *rep)
{
	struct engine_msg m;
	unsigned n;

	if (g->status == STACKFALL_OVER)
		return refuse_over(g, rep);
	if (!placement_ok(g, rotation, column, rep))
		return report(rep, STACKFALL_REFUSED, 0, 0);
	m = msg_start(rep);
	n = tetromino_preview(&g->board, g->current, rotation, column, pv, &m);
	return report(rep, STACKFALL_OK, n, 0);
}

void
stackfall_board_text(const struct stackfall *g, char out[STACKFALL_TEXT_SIZE])
{
	tetromino_board_text(&g->board, out);
}

/* ---- serialisation ---- */

#define HEADER_SIZE 19

size_t
stackfall_encode(const struct stackfall *g, uint8_t *buf, size_t cap)
{
	size_t len = tetromino_state_size(&g->board, HEADER_SIZE);

	if (buf == NULL || cap < len)
		return len;
	buf[0] = STACKFALL_SERIAL_VERSION;
	engine_put_le(buf + 1, g->seed, 7);
	buf[8] = (uint8_t)g->placed;
	engine_put_le(buf + 9, g->lines, 2);
	engine_put_le(buf + 11, g->score, 4);
	buf[15] = (uint8_t)(g->current | g->hold << 4);
	buf[16] = (uint8_t)(g->end_reason | (g->can_hold ? 8 : 0) | (g->back_to_back ? 16 : 0));
	buf[17] = (uint8_t)(g->combo + 1);
	tetromino_state_seal(&g->board, buf, HEADER_SIZE);
	return len;
}

bool
stackfall_decode(struct stackfall *out, const uint8_t *buf, size_t len)
{
	struct stackfall g;
	unsigned v, pieces, hold_used, i;
	uint32_t cells;
	uint8_t older[BAG_SIZE], window[4];

	/* The frame (version, length, CRC) and the board: n non-empty,
	 * non-full rows with no stray bits. */
	memset(&g, 0, sizeof g);
	if (!tetromino_state_open(&g.board, buf, len, HEADER_SIZE, STACKFALL_SERIAL_VERSION))
		return false;
	cells = tetromino_board_count(&g.board);

	g.seed = engine_get_le(buf + 1, 7);
	g.placed = buf[8];
	g.lines = (uint16_t)engine_get_le(buf + 9, 2);
	g.score = (uint32_t)engine_get_le(buf + 11, 4);
	g.current = buf[15] & 15;
	g.hold = buf[15] >> 4;
	g.end_reason = buf[16] & 7;
	g.can_hold = (buf[16] & 8) != 0;
	g.back_to_back = (buf[16] & 16) != 0;
	g.combo = (int16_t)(buf[17] - 1);

	/* Ranges of single fields. */
	if (g.seed > STACKFALL_SEED_MAX || g.placed > STACKFALL_PIECE_LIMIT ||
	    g.current >= TETROMINO_NPIECES ||
	    (g.hold >= TETROMINO_NPIECES && g.hold != STACKFALL_NO_PIECE) ||
	    g.end_reason > STACKFALL_END_ABANDONED || (buf[16] & 0xe0) != 0)
		return false;

	/* Counters against each other: every placed piece brought 4 cells and
	 * every line took 10; every clear scores at least 100 a line and all
	 * scores are multiples of 50; a combo of k needs k + 1 clears. */
	if ((uint32_t)g.placed * 4 != cells + (uint32_t)g.lines * 10)
		return false;
	if (g.score % 50 != 0 || g.score < (uint32_t)g.lines * 100 || (g.lines == 0 && g.score != 0))
		return false;
	if (g.combo >= 0 && (g.combo >= (int)g.placed || g.combo >= (int)g.lines))
		return false;
	if (g.back_to_back && g.lines < 4)
		return false;
	g.level = (uint16_t)(1 + g.lines / 10);

	/* The end state. */
	g.status = g.end_reason != STACKFALL_END_NONE ? STACKFALL_OVER : STACKFALL_PLAYING;
	if ((g.placed == STACKFALL_PIECE_LIMIT) != (g.end_reason == STACKFALL_END_PIECE_LIMIT))
		return false;
	if (g.status == STACKFALL_OVER && g.can_hold)
		return false;
	if (g.status == STACKFALL_PLAYING && g.hold == STACKFALL_NO_PIECE && !g.can_hold)
		return false;

	/* The stream: the newest piece drawn is in hand, current or held. The
	 * four pieces drawn - 1 .. drawn + 2 span at most two bags. */
	hold_used = g.hold != STACKFALL_NO_PIECE;
	pieces = g.placed + 1 + hold_used;
	g.drawn = (uint16_t)pieces;
	g.bag_number = (pieces + 2) / BAG_SIZE;
	bag_shuffle(g.seed, g.bag_number, g.bag);
	if ((pieces - 1) / BAG_SIZE != g.bag_number)
		bag_shuffle(g.seed, (pieces - 1) / BAG_SIZE, older);
	for (i = 0; i < 4; i++) {
		v = pieces - 1 + i;
		window[i] = v / BAG_SIZE == g.bag_number ? g.bag[v % BAG_SIZE] : older[v % BAG_SIZE];
	}
	if (window[0] != g.current && window[0] != g.hold)
		return false;
	memcpy(g.next, window + 1, STACKFALL_NEXT);

	/* Top-out: a playing run still has a move (the hold alternative needs
	 * next, hence after the stream); a topped-out one had none. */
	if (g.status == STACKFALL_PLAYING && topped_out(&g))
		return false;
	if (g.end_reason == STACKFALL_END_TOP_OUT && tetromino_can_place(&g.board, g.current))
		return false;

	*out = g;
	return true;
}
