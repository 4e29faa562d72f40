/*
 * ab_ticks.c: actionblocks-v1's tick clock as the server serves it,
 * `const struct match_ticks ab_ticks` (match_rules.h): the keys a bot
 * sends, an input's text, a tick run on the engine (actionblocks_tick.h)
 * and what a stream frame shows of it.
 *
 * The keys of a real-time request, one input each (blanks ignored):
 *   L R X Z S D C   the keys of the turn clock (S one row down, D hard drop)
 *   v ^             soft drop pressed and released (held: 20 times gravity)
 *   F               use the oldest item on the selected target
 *   1..8            select the target: 1 itself, 2.. the others in match order
 * An input's canonical text is its key ("L", "v", "3"), and "disconnect"
 * for the input the server sends for a seat whose stream stayed closed,
 * which no request can send.
 *
 * Pure CPU over plain structs.
 */
#include "ab_ticks.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "ab_json.h"
#include "jw.h"

_Static_assert(sizeof(struct match_input) == sizeof(struct ab_input) &&
    offsetof(struct match_input, tick) == offsetof(struct ab_input, tick) &&
    offsetof(struct match_input, seat) == offsetof(struct ab_input, seat) &&
    offsetof(struct match_input, kind) == offsetof(struct ab_input, kind) &&
    offsetof(struct match_input, arg) == offsetof(struct ab_input, arg),
    "a server's input is the engine's");

#define AB_TICK_CAP (10u * 60u * AB_TICKS_PER_SECOND) /* ten minutes */

static bool
start(void *st, uint64_t seed, unsigned nplayers, const struct match_options *o)
{
	return ab_init(st, seed, nplayers, AB_CLOCK_TICKS, o->on ? o->chance : 0,
	    o->on ? o->shares : NULL);
}

/* One key into in; false for a character that is none. */
static bool
key_of(char c, struct match_input *in)
{
	memset(in, 0, sizeof *in);
	if (strchr("LRXZSDC", c) != NULL && c != '\0') {
		in->kind = AB_IN_KEY;
		in->arg = (uint8_t)c;
	} else if (c == 'v') {
		in->kind = AB_IN_SOFT_DOWN;
	} else if (c == '^') {
		in->kind = AB_IN_SOFT_UP;
	} else if (c == 'F') {
		in->kind = AB_IN_USE;
	} else if (c >= '1' && c <= '0' + AB_PLAYERS_MAX) {
		in->kind = AB_IN_TARGET;
		in->arg = (uint8_t)(c - '0');
	} else
		return false;
	return true;
}

static size_t
keys_read(const char *text, size_t len, struct match_input *out, size_t cap, char *reason,
    size_t rcap)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++) {
		if (text[i] == ' ' || text[i] == '\t')
			continue;
		if (n == cap) {
			snprintf(reason, rcap, "at most %zu keys a request", cap);
			return 0;
		}
		if (!key_of(text[i], &out[n])) {
			snprintf(reason, rcap, "key %zu ('%c') is none of L R X Z S D C v ^ F 1-8", n,
			    text[i] >= ' ' && text[i] < 127 ? text[i] : '?');
			return 0;
		}
		n++;
	}
	if (n == 0)
		snprintf(reason, rcap, "no key: send one or more of L R X Z S D C v ^ F 1-8");
	return n;
}

static size_t
input_text(const struct match_input *in, char *buf, size_t cap)
{
	switch (in->kind) {
	case AB_IN_KEY: return (size_t)snprintf(buf, cap, "%c", in->arg);
	case AB_IN_SOFT_DOWN: return (size_t)snprintf(buf, cap, "v");
	case AB_IN_SOFT_UP: return (size_t)snprintf(buf, cap, "^");
	case AB_IN_USE: return (size_t)snprintf(buf, cap, "F");
	case AB_IN_TARGET: return (size_t)snprintf(buf, cap, "%u", (unsigned)in->arg);
	case AB_IN_DISCONNECT: return (size_t)snprintf(buf, cap, "disconnect");
	default: return (size_t)snprintf(buf, cap, "?");
	}
}

static bool
input_read(const char *text, struct match_input *in)
{
	if (strcmp(text, "disconnect") == 0) {
		memset(in, 0, sizeof *in);
		in->kind = AB_IN_DISCONNECT;
		return true;
	}
	return text[0] != '\0' && text[1] == '\0' && key_of(text[0], in);
}

static void
disconnect(struct match_input *in)
{
	in->kind = AB_IN_DISCONNECT;
	in->arg = 0;
}

/* What a view shows of a seat, to tell a tick that changed it. The
 * falling piece's lock timer and gravity fraction are not shown. */
struct seen {
	uint8_t has_piece, x, y, rot, piece, hold, alive, nqueue, ninventory, target;
	uint32_t drawn, blind, transform;
	uint64_t score;
};

static void
seen_of(const struct ab_match *m, struct seen *out)
{
	unsigned i;

	memset(out, 0, sizeof *out * AB_PLAYERS_MAX);
	for (i = 0; i < m->nplayers && i < AB_PLAYERS_MAX; i++) {
		const struct ab_player *p = &m->players[i];

		out[i] = (struct seen){ p->has_piece, (uint8_t)p->act.x, (uint8_t)p->act.y, p->act.rot,
			p->cur.piece, p->hold.piece, p->alive, (uint8_t)p->nqueue, p->ninventory, p->target,
			p->drawn, p->blind, p->transform, p->score };
	}
}

static bool
tick(void *st, const struct match_input *in, size_t n, void *ev)
{
	struct ab_tick_out *out = ev;
	struct seen before[AB_PLAYERS_MAX], after[AB_PLAYERS_MAX];
	struct ab_match *m = st;

	seen_of(m, before);
	if (ab_tick(m, (const struct ab_input *)in, n, &out->ev) != AB_OK)
		return false;
	seen_of(m, after);
	out->changed = n > 0 || out->ev.nlocks_all > 0 || out->ev.neliminated > 0 || m->over ||
	    m->tick == AB_COUNTDOWN_TICKS + 1 || memcmp(before, after, sizeof before) != 0;
	return true;
}

static void
totals_add(struct match_totals *t, const void *ev)
{
	const struct ab_tick_out *out = ev;
	unsigned k;

	for (k = 0; k < out->ev.nlocks && k < AB_TICK_LOCKS_MAX; k++) {
		const struct ab_lock_events *l = &out->ev.locks[k];

		match_totals_count(t, l->seat, l->sent, l->target, l->sent_lost);
	}
}

static bool
changed(const void *ev)
{
	return ((const struct ab_tick_out *)ev)->changed;
}

/* {locks: [{seat, piece, lines, spin, back_to_back, perfect_clear, combo,
 * points, attack, cancelled, sent, target, lost}], eliminated: [seat,
 * ...]}. */
static void
events_write(struct jw *w, const void *st, const void *ev)
{
	const struct ab_tick_out *out = ev;
	const struct ab_match *m = st;
	unsigned k;

	jw_object(w);
	jw_key(w, "locks");
	jw_array(w);
	for (k = 0; k < out->ev.nlocks && k < AB_TICK_LOCKS_MAX; k++) {
		const struct ab_lock_events *l = &out->ev.locks[k];

		jw_object(w);
		jw_kint(w, "seat", l->seat);
		ab_lock_write(w, l);
		jw_object_end(w);
	}
	jw_array_end(w);
	jw_key(w, "eliminated");
	jw_array(w);
	for (k = 0; k < m->nplayers && k < AB_PLAYERS_MAX; k++)
		if (out->ev.eliminated[k])
			jw_int(w, k);
	jw_array_end(w);
	jw_object_end(w);
}

const struct match_ticks ab_ticks = {
	.rate = AB_TICKS_PER_SECOND,
	.countdown = AB_COUNTDOWN_TICKS,
	.tick_cap = AB_TICK_CAP,
	.events_size = sizeof(struct ab_tick_out),
	.start = start,
	.keys_read = keys_read,
	.input_text = input_text,
	.input_read = input_read,
	.disconnect = disconnect,
	.tick = tick,
	.totals_add = totals_add,
	.changed = changed,
	.events_write = events_write,
};
