/*
 * match_view.c: the view of a served versus match (match_view.h).
 *
 * Every match answer carries one, and the event streams send one after
 * each resolved turn: written straight into the answer's buffer (jw.h),
 * the last turn's events copied as the text the row keeps.
 */
#include "match_view.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iso8601.h"
#include "jw.h"
#include "match.h"

/* Puts text (at most MATCH_VIEW_COLUMN - 1 characters of it) at the start
 * of a column of line; anything but printable ASCII becomes '?', so that
 * one byte is one column. */
static void
put_field(char *line, unsigned column, const char *text)
{
	char *at = line + column * MATCH_VIEW_COLUMN;
	size_t k;

	for (k = 0; text[k] != '\0' && k < MATCH_VIEW_COLUMN - 1; k++)
		at[k] = text[k] >= ' ' && text[k] <= '~' ? text[k] : '?';
}

/* Appends line[0..width) without its trailing blanks, and a new line
 * unless it is the last. */
static size_t
put_line(char *out, size_t n, const char *line, size_t width, bool last)
{
	while (width > 0 && line[width - 1] == ' ')
		width--;
	memcpy(out + n, line, width);
	n += width;
	if (!last)
		out[n++] = '\n';
	return n;
}

size_t
match_view_board_text(const struct match_record *r, char out[MATCH_VIEW_TEXT_MAX])
{
	const struct versus_match *m = r->m;
	char line[MATCH_VIEW_COLUMN * VERSUS_PLAYERS_MAX], field[32];
	char boards[VERSUS_PLAYERS_MAX][VERSUS_TEXT_SIZE];
	uint8_t places[VERSUS_PLAYERS_MAX];
	unsigned n, i, row;
	size_t len = 0, width;

	out[0] = '\0';
	if (m == NULL || m->nplayers < VERSUS_PLAYERS_MIN || m->nplayers > VERSUS_PLAYERS_MAX)
		return 0;
	n = m->nplayers;
	/* A header field may reach into the last column's gap; trimming takes
	 * off what it does not fill. */
	width = (size_t)MATCH_VIEW_COLUMN * n - 1;
	match_places(m, match_end_of(m, (uint32_t)r->turn_cap), places);

	memset(line, ' ', sizeof line);
	for (i = 0; i < n; i++) {
		snprintf(field, sizeof field, "%u %s", i, (int)i < r->nseats && r->seats[i].account ?
		    r->seats[i].account : "");
		put_field(line, i, field);
	}
	len = put_line(out, len, line, width, false);

	memset(line, ' ', sizeof line);
	for (i = 0; i < n; i++) {
		const struct versus_player *p = &m->players[i];
		const char *reason = versus_end_name(p->end_reason);

		if (!p->alive)
			snprintf(field, sizeof field, "#%u %s", places[i], reason ? reason : "out");
		else if (places[i] != 0)
			snprintf(field, sizeof field, "#%u %llu", places[i], (unsigned long long)p->score);
		else if (p->pending > 0)
			snprintf(field, sizeof field, "%llu +%u", (unsigned long long)p->score, p->pending);
		else
			snprintf(field, sizeof field, "%llu", (unsigned long long)p->score);
		put_field(line, i, field);
		versus_board_text(p, boards[i]);
		if (p->blind > 0) {
			/* Blind hides the locked cells in every view of the board
			 * (docs/rules/versus.md, "Items"): here too, as the seat's
			 * own board_text does. */
			char *c;

			for (c = boards[i]; *c != '\0'; c++)
				if (*c != '\n')
					*c = '.';
		}
	}
	len = put_line(out, len, line, width, false);

	/* versus_board_text() rows are TETROMINO_COLS characters and a new line. */
	for (row = 0; row < TETROMINO_ROWS; row++) {
		memset(line, ' ', sizeof line);
		for (i = 0; i < n; i++)
			memcpy(line + i * MATCH_VIEW_COLUMN, boards[i] + row * (TETROMINO_COLS + 1),
			    TETROMINO_COLS);
		len = put_line(out, len, line, width, row + 1 == TETROMINO_ROWS);
	}
	out[len] = '\0';
	return len;
}

/* A key and its string, left out when s is not UTF-8 (as the answers
 * have always left out a field jansson would not take). */
static void
string_field(struct jw *w, const char *key, const char *s)
{
	if (s == NULL || !jw_utf8(s, strlen(s)))
		return;
	jw_kstring(w, key, s);
}

/* "deadline_in_ms" (null unless playing) and "end" (null until it ends),
 * which the whole view and the mover's both carry. */
static void
time_left_and_end_write(struct jw *w, const struct match_record *r, bool playing, int64_t now_ms)
{
	jw_key(w, "deadline_in_ms");
	if (playing)
		jw_int(w, r->deadline_at > now_ms ? r->deadline_at - now_ms : 0);
	else
		jw_null(w);
	if (r->end_reason[0])
		string_field(w, "end", r->end_reason);
	else {
		jw_knull(w, "end");
	}
}

void
match_view_write(struct jw *w, const struct match_record *r, int viewer, int64_t now_ms)
{
	bool playing = strcmp(r->status, "playing") == 0, over = strcmp(r->status, "finished") == 0;
	enum match_end end = r->m != NULL ? match_end_of(r->m, (uint32_t)r->turn_cap) : MATCH_END_NONE;
	char text[MATCH_VIEW_TEXT_MAX];
	size_t ntext;
	int i;

	jw_object(w);
	snprintf(text, sizeof text, "%lld", (long long)r->id);
	jw_kstring(w, "match_id", text);
	string_field(w, "rules", r->rules);
	string_field(w, "status", r->status);
	jw_kint(w, "players", r->players);
	jw_kint(w, "joined", r->joined);
	jw_kint(w, "turn_seconds", r->turn_seconds);
	jw_kint(w, "turn_cap", r->turn_cap);
	jw_kbool(w, "rated", r->rated);
	jw_key(w, "items");
	match_item_settings_write(w, r->items, r->item_chance, r->item_weights);
	jw_kbool(w, "queue", r->queue);
	if (r->unrated_reason != NULL && r->unrated_reason[0] != '\0')
		string_field(w, "unrated_reason", r->unrated_reason);
	else {
		jw_knull(w, "unrated_reason");
	}
	jw_key(w, "seed");
	if (over)
		jw_int(w, r->seed);
	else
		jw_null(w);
	jw_kbool(w, "seed_chosen", r->seed_chosen);
	jw_kint(w, "turn", r->turn);
	jw_key(w, "deadline");
	if (playing)
		iso8601_ms_write(w, r->deadline_at);
	else
		jw_null(w);
	time_left_and_end_write(w, r, playing, now_ms);
	jw_key(w, "you");
	if (viewer >= 0)
		jw_int(w, viewer);
	else
		jw_null(w);
	jw_key(w, "seats");
	jw_array(w);
	for (i = 0; i < r->nseats && i < VERSUS_PLAYERS_MAX; i++) {
		jw_object(w);
		if (r->m != NULL)
			match_player_write(w, r->m, end, viewer >= 0 ? (unsigned)viewer : VERSUS_NOBODY,
			    (unsigned)i, r->totals);
		else {
			jw_kint(w, "seat", i);
		}
		string_field(w, "account", r->seats[i].account);
		if (playing) {
			jw_kbool(w, "moved", r->moved >> i & 1u);
		}
		if (over && r->rated && !isnan(r->seats[i].rating_after)) {
			jw_key(w, "rating_before");
			match_real_write(w, r->seats[i].rating_before);
			jw_key(w, "rating_after");
			match_real_write(w, r->seats[i].rating_after);
		}
		jw_object_end(w);
	}
	jw_array_end(w);
	ntext = match_view_board_text(r, text);
	jw_key(w, "boardText");
	if (ntext > 0)
		jw_stringn(w, text, ntext);
	else
		jw_null(w);
	jw_key(w, "last_turn");
	/* The row's text is the writer's own compact JSON (match_events_write),
	 * written as it is. */
	if (r->last_turn != NULL && r->last_turn[0] != '\0')
		jw_raw(w, r->last_turn, strlen(r->last_turn));
	else
		jw_null(w);
	jw_key(w, "created_at");
	iso8601_ms_write(w, r->created_at);
	jw_key(w, "started_at");
	iso8601_ms_write(w, r->started_at);
	jw_key(w, "finished_at");
	iso8601_ms_write(w, r->finished_at);
	if (r->certificate != NULL)
		string_field(w, "certificate", r->certificate);
	else {
		jw_knull(w, "certificate");
	}
	jw_object_end(w);
}

void
match_view_mover_write(struct jw *w, const struct match_record *r, int viewer, int64_t now_ms)
{
	bool playing = strcmp(r->status, "playing") == 0;
	enum match_end end = r->m != NULL ? match_end_of(r->m, (uint32_t)r->turn_cap) : MATCH_END_NONE;

	jw_object(w);
	string_field(w, "status", r->status);
	jw_kint(w, "turn", r->turn);
	time_left_and_end_write(w, r, playing, now_ms);
	jw_key(w, "seat");
	if (viewer >= 0 && viewer < r->nseats && viewer < VERSUS_PLAYERS_MAX && r->m != NULL) {
		/* match_player_write's own "seat" is the seat's: the view's
		 * seats say it once. */
		jw_object(w);
		match_player_write(w, r->m, end, (unsigned)viewer, (unsigned)viewer, r->totals);
		string_field(w, "account", r->seats[viewer].account);
		if (playing) {
			jw_kbool(w, "moved", r->moved >> viewer & 1u);
		}
		jw_object_end(w);
	} else
		jw_null(w);
	jw_object_end(w);
}
