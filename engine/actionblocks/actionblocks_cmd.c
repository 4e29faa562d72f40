/*
 * actionblocks_cmd.c: a turn's move as text (read, checked, written back).
 *
 * Grammar (design notes, "Keys"): `[use T; ][keys ]LETTERS` or `resign`.
 * The words `use`, `keys` and `resign` are read in any case, as versus
 * reads its words; the key letters are upper case only (L R X Z S D C),
 * blanks between them are ignored, and a move holds at most AB_KEYS_MAX of
 * them. `keys` with no letters is a move (a hard drop at once); text with
 * nothing at all is EMPTY. The canonical text is `[use T; ]keys LETTERS`.
 *
 * ab_check_move() plays the keys on a copy of the match, as ab_resolve()
 * will (a seat's keys touch only its own board before the items step), so
 * a move accepted when sent is played exactly as checked. The copy is the
 * match's header and that seat's player, about 1.2 KB on the stack.
 */
#include "actionblocks_cmd.h"

#include <string.h>

#include "actionblocks_rules.h"

#define KEY_LETTERS "LRXZSDC"

/* One of the seven key letters (the engine's archives call no strchr). */
static bool
key_letter(char c)
{
	const char *k;

	for (k = KEY_LETTERS; *k != '\0'; k++)
		if (*k == c)
			return true;
	return false;
}

static bool
blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Whether text[at..) starts with word (any case) followed by a blank, a
 * separator or the end. */
static bool
word_at(const char *text, size_t len, size_t at, const char *word)
{
	size_t n = strlen(word), k;

	if (len - at < n)
		return false;
	for (k = 0; k < n; k++)
		if ((text[at + k] | 0x20) != word[k])
			return false;
	return at + n == len || blank(text[at + n]) || text[at + n] == ';';
}

enum ab_parse
ab_move_parse(const char *text, size_t len, struct ab_move *mv, char *reason, size_t cap)
{
	size_t at = 0;
	uint32_t use = 0;
	bool digits = false, word = false;

	memset(mv, 0, sizeof *mv);
	while (at < len && blank(text[at]))
		at++;
	if (at == len) {
		engine_refuse(reason, cap, "empty move: send keys LETTERS or resign");
		return AB_PARSE_EMPTY;
	}
	if (word_at(text, len, at, "resign")) {
		for (at += 6; at < len && blank(text[at]); at++)
			;
		if (at != len) {
			engine_refuse(reason, cap, "resign stands alone");
			return AB_PARSE_INVALID;
		}
		mv->kind = AB_MOVE_RESIGN;
		return AB_PARSE_OK;
	}
	if (word_at(text, len, at, "use")) {
		for (at += 3; at < len && blank(text[at]); at++)
			;
		for (; at < len && text[at] >= '0' && text[at] <= '9'; at++) {
			digits = true;
			use = use > 1000 ? 1001 : use * 10 + (uint32_t)(text[at] - '0');
		}
		while (at < len && blank(text[at]))
			at++;
		if (!digits || use == 0 || use > 1000) {
			engine_refuse(reason, cap, "use needs a seat: use T, 1 for yourself, 2.. the others");
			return AB_PARSE_INVALID;
		}
		if (at == len || text[at] != ';') {
			engine_refuse(reason, cap, "use T must be followed by ; and keys: use 2; keys D");
			return AB_PARSE_INVALID;
		}
		for (at++; at < len && blank(text[at]); at++)
			;
		if (at == len) {
			engine_refuse(reason, cap, "use T alone is not a move: send use T; keys LETTERS");
			return AB_PARSE_INVALID;
		}
		if (word_at(text, len, at, "resign")) {
			engine_refuse(reason, cap, "use T goes with keys, not with resign");
			return AB_PARSE_INVALID;
		}
	}
	if (word_at(text, len, at, "keys")) {
		at += 4;
		word = true;
	}
	for (; at < len; at++) {
		if (blank(text[at]))
			continue;
		if (!key_letter(text[at])) {
			if (word || mv->nkeys > 0 || use != 0)
				engine_refuse(reason, cap, "key %u: '%c' is not a key (L R X Z S D C)",
				    (unsigned)mv->nkeys, text[at] >= ' ' && text[at] < 127 ? text[at] : '?');
			else
				engine_refuse(reason, cap, "unknown command: send keys LETTERS or resign");
			return AB_PARSE_INVALID;
		}
		if (mv->nkeys == AB_KEYS_MAX) {
			engine_refuse(reason, cap, "too many keys: at most %u", AB_KEYS_MAX);
			return AB_PARSE_INVALID;
		}
		mv->keys[mv->nkeys++] = text[at];
	}
	mv->kind = AB_MOVE_KEYS;
	mv->use = use;
	return AB_PARSE_OK;
}

size_t
ab_move_text(const struct ab_move *mv, char *buf, size_t cap)
{
	struct engine_msg msg = engine_msg_start(buf, cap);
	size_t k;

	switch (mv->kind) {
	case AB_MOVE_KEYS:
		engine_msg_use(&msg, mv->use);
		engine_msg_str(&msg, "keys");
		if (mv->nkeys > 0)
			engine_msg_char(&msg, ' ');
		for (k = 0; k < mv->nkeys && k < AB_KEYS_MAX; k++)
			engine_msg_char(&msg, mv->keys[k]);
		break;
	case AB_MOVE_RESIGN:
		engine_msg_str(&msg, "resign");
		break;
	case AB_MOVE_MISSED:
		engine_msg_str(&msg, "missed");
		break;
	default:
		engine_msg_str(&msg, "none");
		break;
	}
	return msg.need;
}

bool
ab_check_move(const struct ab_match *m, unsigned seat, const struct ab_move *mv,
    char *reason, size_t cap)
{
	struct ab_match copy;
	unsigned k, end, t;
	uint32_t drop = 0;
	bool block_out;

	if (m->clock != AB_CLOCK_TURNS)
		return engine_refuse(reason, cap, "this match runs in real time, not in turns");
	if (m->over)
		return engine_refuse(reason, cap, "the match is over");
	if (seat >= m->nplayers)
		return engine_refuse(reason, cap, "there is no seat %u in this match", seat);
	if (!m->players[seat].alive)
		return engine_refuse(reason, cap, "seat %u is out of the match (%s)", seat,
		    ab_end_name(m->players[seat].end));
	if (mv->kind == AB_MOVE_RESIGN)
		return mv->use == 0 ? true :
		    engine_refuse(reason, cap, "use T goes with keys, not with resign");
	if (mv->kind == AB_MOVE_MISSED)
		return engine_refuse(reason, cap, "only the server records a missed turn");
	if (mv->kind != AB_MOVE_KEYS)
		return engine_refuse(reason, cap, "seat %u is in the match and needs a move", seat);
	if (mv->nkeys > AB_KEYS_MAX)
		return engine_refuse(reason, cap, "too many keys: at most %u", AB_KEYS_MAX);
	for (k = 0; k < mv->nkeys; k++)
		if (!key_letter(mv->keys[k]))
			return engine_refuse(reason, cap, "key %u: '%c' is not a key (L R X Z S D C)",
			    k, mv->keys[k] >= ' ' && mv->keys[k] < 127 ? mv->keys[k] : '?');
	if (mv->use != 0) {
		if (!engine_check_use(m->nplayers, m->item_chance, seat, mv->use, &t, reason, cap))
			return false;
		if (!m->players[t].alive)
			return engine_refuse(reason, cap, "use %u names seat %u, who is out", mv->use, t);
	}
	/* Keys read the match's header (seed, item settings) and write the
	 * seat's own player only (ab_key): the copy holds those, not the
	 * other seats (a whole match is about 9 KB). */
	memcpy(&copy, m, offsetof(struct ab_match, players));
	copy.players[seat] = m->players[seat];
	end = ab_play_keys(&copy, seat, mv->keys, mv->nkeys, &drop, &block_out);
	if (end + 1 < mv->nkeys)
		return engine_refuse(reason, cap, "key %u (%c) comes after the %s at key %u", end + 1,
		    mv->keys[end + 1], block_out ? "block out" : "lock", end);
	return true;
}
