/*
 * hatetris_classic_json.c: `hatetris-classic`'s commands, answers, replays
 * and game descriptor (hatetris_classic_json.h has the moves and facts).
 *
 * Commands: `keys LLDDU...` (or the keys alone) plays up to HCJ_KEYS_MAX
 * keys through as many pieces as they reach; `options` lists every lock
 * the live piece can reach from where it stands, with one shortest key path
 * and the well it leaves, and changes nothing; `place N` plays lock N of
 * that list by its path. One command per request, as text ({"command"}) or
 * as an object ({"action": {"type": ...}}). A request stores one move per
 * lock, so at most GAME_MOVES_MAX locks (the piece left falling counts as
 * one more): more is refused whole.
 *
 * Workload: a key that moves costs a few row tests; a lock costs a
 * supplier call (seven searches) and, in runs that have cleared 2 lines,
 * its memory look-ups: each a probe of the run's facts per count (counts
 * are small), answered from memory by the environment.
 */
#include "hatetris_classic_json.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "hatetris_classic_replay.h"
#include "jsonbody.h"
#include "keyset.h"
#include "quote.h"

_Static_assert(HCJ_FACT_BYTES <= GAME_FACT_MAX, "a classic fact is a game fact");

#define SERIAL_VERSION 1
#define SERIAL_SIZE 59
#define TAG_GIVEN UINT32_C(0x80000000) /* 2021: a piece given on a well */
#define NO_POS 0xffffu

/* ---- the supplier's memory ---- */

/* One request's or one replay's memory over the run's facts. */
struct hcj_memory {
	unsigned       supplier;
	game_fact_fn   known;       /* the run's stored facts (live), or NULL */
	void          *known_ctx;
	struct keyset *own;         /* a replay's facts, read and written; NULL live */
	struct game_turn *t;        /* live: where new facts go */
	uint32_t       move;        /* live: the move the next facts belong to */
	size_t         nlocal;      /* live: this request's values, newest last */
	struct {
		uint8_t  key[HCLASSIC_KEY_BYTES];
		uint32_t v;
	} local[GAME_MOVES_MAX];
};

static void
fact_of(const uint8_t key[HCLASSIC_KEY_BYTES], uint32_t tag, uint8_t fact[HCJ_FACT_BYTES])
{
	memcpy(fact, key, HCLASSIC_KEY_BYTES);
	engine_put_le(fact + HCLASSIC_KEY_BYTES, tag, 4);
}

static bool
fact_has(const struct hcj_memory *m, const uint8_t key[HCLASSIC_KEY_BYTES], uint32_t tag)
{
	uint8_t fact[HCJ_FACT_BYTES];

	fact_of(key, tag, fact);
	if (m->own != NULL)
		return keyset_has(m->own, fact);
	return m->known != NULL && m->known(m->known_ctx, fact);
}

static bool
is_empty_key(const uint8_t key[HCLASSIC_KEY_BYTES])
{
	size_t i;

	for (i = 0; i < HCLASSIC_KEY_BYTES; i++)
		if (key[i] != 0)
			return false;
	return true;
}

/* What the facts say: the start's call on the empty well (count 1, the S
 * given) is never recorded. */
static uint32_t
stored(const struct hcj_memory *m, const uint8_t key[HCLASSIC_KEY_BYTES])
{
	bool empty = is_empty_key(key);
	uint32_t v;
	unsigned p;

	if (m->supplier == HCLASSIC_2021) {
		v = empty ? 1u << HCLASSIC_S : 0;
		for (p = 0; p < HCLASSIC_NPIECES; p++)
			if (fact_has(m, key, TAG_GIVEN | p))
				v |= 1u << p;
		return v;
	}
	v = empty ? 1 : 0;
	while (v < HCLASSIC_COUNT_MAX && fact_has(m, key, v + 1))
		v++;
	return v;
}

static uint32_t
mem_get(void *ctx, const uint8_t key[HCLASSIC_KEY_BYTES])
{
	const struct hcj_memory *m = ctx;
	size_t i;

	for (i = m->nlocal; i-- > 0;)
		if (memcmp(m->local[i].key, key, HCLASSIC_KEY_BYTES) == 0)
			return m->local[i].v;
	return stored(m, key);
}

static bool
emit(struct hcj_memory *m, const uint8_t key[HCLASSIC_KEY_BYTES], uint32_t tag)
{
	struct game_turn *t = m->t;

	if (m->own != NULL) {
		uint8_t fact[HCJ_FACT_BYTES];

		fact_of(key, tag, fact);
		return keyset_add(m->own, fact);
	}
	if (t == NULL || t->nfacts >= GAME_MOVES_MAX)
		return false;
	t->facts[t->nfacts].move = m->move;
	fact_of(key, tag, t->facts[t->nfacts].bytes);
	t->nfacts++;
	return true;
}

static bool
mem_set(void *ctx, const uint8_t key[HCLASSIC_KEY_BYTES], uint32_t v)
{
	struct hcj_memory *m = ctx;
	uint32_t old = mem_get(m, key), n;
	unsigned p;

	if (m->supplier == HCLASSIC_2021) {
		for (p = 0; p < HCLASSIC_NPIECES; p++)
			if ((v & ~old) >> p & 1u && !emit(m, key, TAG_GIVEN | p))
				return false;
	} else {
		/* A call adds one; the loop only guards against a gap. */
		for (n = old + 1; n <= v && n - old <= 8; n++)
			if (!emit(m, key, n))
				return false;
	}
	if (m->own != NULL)
		return true;
	if (m->nlocal >= GAME_MOVES_MAX)
		return false;
	memcpy(m->local[m->nlocal].key, key, HCLASSIC_KEY_BYTES);
	m->local[m->nlocal++].v = v;
	return true;
}

static struct hclassic_memory
memory_of(struct hcj_memory *m)
{
	struct hclassic_memory mem = { mem_get, mem_set, m };

	return mem;
}

/* ---- positions and paths ---- */

/* The index hclassic_search uses for a position (its from[] and key[]). */
static unsigned
pos_index(int x, int y, unsigned o)
{
	return ((o * HCLASSIC_NY) + (unsigned)y) * HCLASSIC_NX + (unsigned)(x - HCLASSIC_XMIN);
}

static bool
pos_in_range(json_int_t x, json_int_t y, json_int_t o)
{
	return x >= HCLASSIC_XMIN && x < HCLASSIC_XMIN + HCLASSIC_NX && y >= 0 && y < HCLASSIC_NY &&
	    o >= 0 && o <= 3;
}

/* A shortest path from g's live piece to (x, y, o) without locking, into
 * buf (cap > HCLASSIC_PATH_MAX); its length, or -1 when unreachable. */
static long
path_to(const struct hclassic *g, int x, int y, unsigned o, char *buf, size_t cap)
{
	struct hclassic_search s;
	unsigned i, start = pos_index(g->x, g->y, g->o), n = 0;
	size_t k;

	(void)hclassic_options(g, &s, NULL, 0);
	i = pos_index(x, y, o);
	if (i == start)
		return 0;
	if (!s.key[i])
		return -1;
	for (k = i; k != start && k < HCLASSIC_POSITIONS && n < cap; k = s.from[k]) {
		if (!s.key[k])
			return -1;
		buf[n++] = (char)s.key[k];
	}
	if (k != start)
		return -1;
	for (k = 0; k < n / 2; k++) {
		char c = buf[k];

		buf[k] = buf[n - 1 - k];
		buf[n - 1 - k] = c;
	}
	return (long)n;
}

/* ---- playing keys, one move per lock ---- */

static void
move_text(const char *type, size_t nkeys, int x, int y, unsigned o, char *out, size_t cap)
{
	/* Narrow types so the compiler sees it fits GAME_MOVE_TEXT_MAX. */
	_Static_assert(HCJ_KEYS_MAX <= 65535, "a move's keys fit 16 bits");
	snprintf(out, cap, "{\"keys\":%hu,\"o\":%hhu,\"type\":\"%s\",\"x\":%hhd,\"y\":%hhu}",
	    (unsigned short)nkeys, (unsigned char)o, type[0] == 'l' ? "lock" : "move", (signed char)x,
	    (unsigned char)y);
}

/* What a keys (or place) command did, for the answer. */
struct hcj_played {
	size_t   applied, ignored;
	uint32_t locks, lines;
};

/*
 * Plays keys[0..n) on g, listing one move per lock (and one for the keys
 * after the last lock, if any) in t with the facts their supplier calls
 * record. False with t's refusal (g then unspecified: the caller restores
 * it).
 */
static bool
play_keys(struct hclassic *g, const char *keys, size_t n, struct hcj_memory *m,
    struct game_turn *t, struct hcj_played *out)
{
	struct hclassic_memory mem = memory_of(m);
	size_t i, seg = 0;

	memset(out, 0, sizeof *out);
	t->refusal = API_ERR_INVALID_COMMAND;
	if (g->over) {
		t->refused = true;
		t->refusal = API_ERR_GAME_OVER;
		snprintf(t->reason, sizeof t->reason, "the game is over (top_out)");
		return false;
	}
	if (n == 0) {
		t->refused = true;
		snprintf(t->reason, sizeof t->reason, "no keys: send one or more of L, R, D, U");
		return false;
	}
	if (n > HCJ_KEYS_MAX) {
		t->refused = true;
		snprintf(t->reason, sizeof t->reason, "at most %u keys in one action", HCJ_KEYS_MAX);
		return false;
	}
	for (i = 0; i < n; i++)
		if (keys[i] != 'L' && keys[i] != 'R' && keys[i] != 'D' && keys[i] != 'U') {
			t->refused = true;
			snprintf(t->reason, sizeof t->reason, "key %zu is not one of L, R, D, U (upper case)",
			    i + 1);
			return false;
		}
	for (i = 0; i < n; i++) {
		struct hclassic_report rep;
		int x = g->x, y = g->y;
		unsigned o = g->o;
		enum hclassic_outcome rc;

		if (t->nmoves >= GAME_MOVES_MAX) {
			t->refused = true;
			snprintf(t->reason, sizeof t->reason, "at most %d locks in one action (a move each, "
			    "and one for a piece left falling): send the rest in another", GAME_MOVES_MAX);
			return false;
		}
		m->move = (uint32_t)t->nmoves;
		rc = hclassic_keys(g, keys + i, 1, &mem, &rep);
		if (rc != HCLASSIC_OK) {
			t->refused = true;
			t->refusal = API_ERR_INTERNAL;
			snprintf(t->reason, sizeof t->reason, "%s", rep.message);
			return false;
		}
		seg++;
		out->applied++;
		if (rep.locks == 0)
			continue;
		out->locks++;
		out->lines += rep.lines;
		move_text("lock", seg, x, y, o, t->moves[t->nmoves], sizeof t->moves[0]);
		t->nmoves++;
		seg = 0;
		if (g->over) {
			out->ignored = n - i - 1;
			return true;
		}
	}
	if (seg > 0) {
		move_text("move", seg, g->x, g->y, g->o, t->moves[t->nmoves], sizeof t->moves[0]);
		t->nmoves++;
	}
	return true;
}

/* ---- the state's bytes ---- */

static size_t
hcj_encode(const void *st, uint8_t *out, size_t cap)
{
	const struct hclassic *g = st;
	unsigned r;

	if (out == NULL || cap < SERIAL_SIZE)
		return SERIAL_SIZE;
	out[0] = SERIAL_VERSION;
	for (r = 0; r < HCLASSIC_ROWS; r++)
		engine_put_le(out + 1 + 2 * r, g->well[r], 2);
	engine_put_le(out + 41, g->lines, 4);
	engine_put_le(out + 45, g->keys, 4);
	engine_put_le(out + 49, g->pieces, 4);
	out[53] = (uint8_t)g->x;
	out[54] = g->y;
	out[55] = g->o;
	out[56] = g->piece;
	out[57] = g->supplier;
	out[58] = g->over;
	return SERIAL_SIZE;
}

static bool
hcj_decode(void *st, const uint8_t *in, size_t n)
{
	struct hclassic g;
	unsigned r;

	if (in == NULL || n != SERIAL_SIZE || in[0] != SERIAL_VERSION)
		return false;
	memset(&g, 0, sizeof g);
	for (r = 0; r < HCLASSIC_ROWS; r++)
		g.well[r] = (uint16_t)engine_get_le(in + 1 + 2 * r, 2);
	g.lines = (uint32_t)engine_get_le(in + 41, 4);
	g.keys = (uint32_t)engine_get_le(in + 45, 4);
	g.pieces = (uint32_t)engine_get_le(in + 49, 4);
	g.x = (int8_t)in[53];
	g.y = in[54];
	g.o = in[55];
	g.piece = in[56];
	g.supplier = in[57];
	g.over = in[58];
	if (!hclassic_valid(&g))
		return false;
	memcpy(st, &g, sizeof g);
	return true;
}

/* ---- commands ---- */

enum hcj_kind { HCJ_KEYS, HCJ_OPTIONS, HCJ_PLACE };

struct hcj_scratch {
	bool        valid;        /* read: the command is one of the three */
	char        reason[ENGINE_REASON_MAX];
	enum hcj_kind kind;
	const char *keys;         /* HCJ_KEYS: borrowed from the body */
	size_t      nkeys;
	json_int_t  lock;         /* HCJ_PLACE */
	const char *text;         /* the command as sent, or NULL for an object */
	bool        ran, ok;      /* play ran; and succeeded */
	char        message[ENGINE_REASON_MAX];
	struct hcj_played played;
	struct hcj_memory mem;
};

static bool
all_keys(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] != 'L' && s[i] != 'R' && s[i] != 'D' && s[i] != 'U')
			return false;
	return n > 0;
}

static const char *
skip_blank(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* "keys LLDD", "LLDD", "options", "place 3". */
static void
read_text(const char *s, struct hcj_scratch *x)
{
	size_t n;
	char *end;

	s = skip_blank(s);
	n = strlen(s);
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r'))
		n--;
	x->valid = true;
	if (all_keys(s, n)) {
		x->kind = HCJ_KEYS;
		x->keys = s;
		x->nkeys = n;
	} else if (n >= 4 && strncmp(s, "keys", 4) == 0 && (n == 4 || s[4] == ' ' || s[4] == '\t')) {
		const char *k = skip_blank(s + 4);

		x->kind = HCJ_KEYS;
		x->keys = k;
		x->nkeys = n - (size_t)(k - s);
	} else if (n == 7 && strncmp(s, "options", 7) == 0) {
		x->kind = HCJ_OPTIONS;
	} else if (n > 6 && strncmp(s, "place ", 6) == 0) {
		const char *d = skip_blank(s + 6);
		long long v = strtoll(d, &end, 10);

		if (d[0] < '0' || d[0] > '9' || (size_t)(end - s) != n || v > HCLASSIC_LOCKS_MAX) {
			x->valid = false;
			snprintf(x->reason, sizeof x->reason, "place takes a lock id from options (0-%d)",
			    HCLASSIC_LOCKS_MAX - 1);
			return;
		}
		x->kind = HCJ_PLACE;
		x->lock = v;
	} else {
		x->valid = false;
		snprintf(x->reason, sizeof x->reason, "unknown command: try 'keys LLDD', 'options' or "
		    "'place 0'");
	}
}

static void
read_object(const json_t *a, struct hcj_scratch *x)
{
	const char *type = json_string_value(json_object_get(a, "type"));
	const char *key;
	const json_t *v;

	x->valid = false;
	if (!json_is_object(a) || type == NULL) {
		snprintf(x->reason, sizeof x->reason, "an action is an object with a 'type': keys, "
		    "options or place");
		return;
	}
	json_object_foreach((json_t *)a, key, v) {
		if (strcmp(key, "type") == 0 || (strcmp(type, "keys") == 0 && strcmp(key, "keys") == 0) ||
		    (strcmp(type, "place") == 0 && strcmp(key, "lock") == 0))
			continue;
		char q[QUOTE_SHORT], qt[QUOTE_CAP(20)];

		snprintf(x->reason, sizeof x->reason, "unknown field '%s' in a %s action",
		    text_quote(q, sizeof q, key, 40), text_quote(qt, sizeof qt, type, 20));
		return;
	}
	if (strcmp(type, "keys") == 0) {
		v = json_object_get(a, "keys");
		if (!json_is_string(v)) {
			snprintf(x->reason, sizeof x->reason, "a keys action has 'keys', a string of L R D U");
			return;
		}
		x->kind = HCJ_KEYS;
		x->keys = json_string_value(v);
		x->nkeys = json_string_length(v);
	} else if (strcmp(type, "options") == 0) {
		x->kind = HCJ_OPTIONS;
	} else if (strcmp(type, "place") == 0) {
		v = json_object_get(a, "lock");
		if (!json_is_integer(v) || json_integer_value(v) < 0 ||
		    json_integer_value(v) >= HCLASSIC_LOCKS_MAX) {
			snprintf(x->reason, sizeof x->reason, "a place action has 'lock', an id from options");
			return;
		}
		x->kind = HCJ_PLACE;
		x->lock = json_integer_value(v);
	} else {
		char qt[QUOTE_CAP(20)];

		snprintf(x->reason, sizeof x->reason, "unknown action type '%s': keys, options or place",
		    text_quote(qt, sizeof qt, type, 20));
		return;
	}
	x->valid = true;
}

static bool
hcj_read_action(const json_t *body, void *scratch, char *msg, size_t cap)
{
	struct hcj_scratch *x = scratch;
	const json_t *c = json_object_get(body, "command"), *a = json_object_get(body, "action");

	memset(x, 0, offsetof(struct hcj_scratch, mem));
	if ((c == NULL) == (a == NULL)) {
		snprintf(msg, cap, "send exactly one of 'command' (text) and 'action' (an object)");
		return false;
	}
	if (c != NULL) {
		if (!json_is_string(c)) {
			snprintf(msg, cap, "'command' must be a string");
			return false;
		}
		x->text = json_string_value(c);
		read_text(x->text, x);
	} else
		read_object(a, x);
	return true;
}

static void
hcj_play(void *st, void *scratch, const struct game_env *env, struct game_turn *t)
{
	struct hcj_scratch *x = scratch;
	struct hclassic *g = st, before = *g;
	char path[HCLASSIC_PATH_MAX + 1];
	const char *keys = x->keys;
	size_t nkeys = x->nkeys;

	x->ran = true;
	x->ok = false;
	memset(&x->mem, 0, sizeof x->mem);
	x->mem.supplier = g->supplier;
	x->mem.known = env != NULL ? env->fact_known : NULL;
	x->mem.known_ctx = env != NULL ? env->facts_ctx : NULL;
	x->mem.t = t;
	t->refusal = API_ERR_INVALID_COMMAND;
	if (!x->valid) {
		t->refused = true;
		snprintf(t->reason, sizeof t->reason, "%s", x->reason);
		goto done;
	}
	if (x->kind == HCJ_OPTIONS) {
		if (g->over) {
			t->refused = true;
			t->refusal = API_ERR_GAME_OVER;
			snprintf(t->reason, sizeof t->reason, "the game is over (top_out)");
			goto done;
		}
		x->ok = true;
		snprintf(t->canon, sizeof t->canon, "options");
		goto done;
	}
	if (x->kind == HCJ_PLACE) {
		struct hclassic_search s;
		struct hclassic_lock *locks = malloc(HCLASSIC_LOCKS_MAX * sizeof *locks);
		size_t n;

		if (locks == NULL) {
			t->refused = true;
			t->refusal = API_ERR_INTERNAL;
			snprintf(t->reason, sizeof t->reason, "out of memory");
			goto done;
		}
		if (g->over) {
			free(locks);
			t->refused = true;
			t->refusal = API_ERR_GAME_OVER;
			snprintf(t->reason, sizeof t->reason, "the game is over (top_out)");
			goto done;
		}
		n = hclassic_options(g, &s, locks, HCLASSIC_LOCKS_MAX);
		if (x->lock < 0 || (size_t)x->lock >= n) {
			free(locks);
			t->refused = true;
			snprintf(t->reason, sizeof t->reason, "no lock %lld: options lists 0 to %zu",
			    (long long)x->lock, n - 1);
			goto done;
		}
		nkeys = hclassic_lock_path(&s, &locks[x->lock], path, sizeof path);
		keys = path;
		free(locks);
	}
	if (!play_keys(g, keys, nkeys, &x->mem, t, &x->played)) {
		*g = before;
		t->nmoves = t->nfacts = 0;
		goto done;
	}
	x->ok = true;
	if (x->kind == HCJ_PLACE)
		snprintf(t->canon, sizeof t->canon, "place %lld", (long long)x->lock);
	else {
		uint8_t h[16];
		char hex[33];

		crypto_generichash(h, sizeof h, (const uint8_t *)keys, nkeys, NULL, 0);
		sodium_bin2hex(hex, sizeof hex, h, sizeof h);
		snprintf(t->canon, sizeof t->canon, "keys %zu %s", nkeys, hex);
	}
done:
	snprintf(x->message, sizeof x->message, "%s", t->refused ? t->reason : "");
}

/* The engine's text without its last new line (text_json), written. */
static void
text_write(struct jw *w, const char *text)
{
	size_t n = strlen(text);

	jw_stringn(w, text, n > 0 && text[n - 1] == '\n' ? n - 1 : n);
}

/* The lock list of options_json, written. */
static void
options_write(struct jw *w, const struct hclassic *g)
{
	static const size_t cap = HCLASSIC_LOCKS_MAX;
	struct hclassic_search s;
	struct hclassic_lock *locks = malloc(cap * sizeof *locks);
	char path[HCLASSIC_PATH_MAX + 1], text[HCLASSIC_TEXT_SIZE];
	struct hclassic tmp;
	size_t n, i;

	jw_array(w);
	n = locks != NULL ? hclassic_options(g, &s, locks, cap) : 0;
	for (i = 0; i < n && i < cap; i++) {
		const struct hclassic_lock *l = &locks[i];

		if (hclassic_lock_path(&s, l, path, sizeof path) != l->nkeys)
			path[0] = '\0';
		/* The well alone, no live piece drawn (well_text_json). */
		memset(&tmp, 0, sizeof tmp);
		memcpy(tmp.well, l->well, sizeof tmp.well);
		tmp.over = 1;
		tmp.pieces = 1;
		hclassic_text(&tmp, text);
		jw_object(w);
		jw_kint(w, "lock", (int64_t)i);
		jw_kint(w, "x", l->x);
		jw_kint(w, "y", l->y);
		jw_kint(w, "o", l->o);
		jw_kstring(w, "keys", path);
		jw_kint(w, "lines", l->lines);
		jw_kbool(w, "over", l->over != 0);
		jw_kint(w, "top", l->top);
		jw_key(w, "board_text");
		text_write(w, text);
		jw_object_end(w);
	}
	jw_array_end(w);
	free(locks);
}

/* The fields of fields_json, then the results: the command's, when it
 * ran. A result whose text is not UTF-8 (a message cut inside a
 * character) is left out: the answers have always left it out, as jansson
 * did when it built them. */
static bool
hcj_answer_write(struct jw *w, const void *st, const void *scratch)
{
	static const char *const kinds[] = { "keys", "options", "place" };
	const struct hcj_scratch *x = scratch;
	const struct hclassic *g = st;
	char text[HCLASSIC_TEXT_SIZE];

	hclassic_text(g, text);
	jw_kstring(w, "status", g->over ? "over" : "playing");
	jw_kstring_or_null(w, "end_reason", g->over ? "top_out" : NULL);
	jw_kint(w, "lines", g->lines);
	jw_kint(w, "pieces", g->pieces);
	jw_kint(w, "keys", g->keys);
	jw_kstring(w, "current", hclassic_piece_name(g->piece));
	jw_kint_if(w, "x", !g->over, g->x);
	jw_kint_if(w, "y", !g->over, g->y);
	jw_kint_if(w, "o", !g->over, g->o);
	jw_kstring(w, "supplier", hclassic_supplier_name(g->supplier));
	jw_key(w, "board_text");
	text_write(w, text);
	jw_key(w, "results");
	jw_array(w);
	if (x != NULL && x->ran && jw_utf8(x->message, strlen(x->message)) &&
	    (x->text == NULL || jw_utf8(x->text, strlen(x->text)))) {
		jw_object(w);
		jw_key(w, "command");
		if (x->text != NULL)
			jw_string(w, x->text);
		else if (!x->valid)
			jw_null(w);
		else
			jw_string(w, kinds[x->kind]);
		jw_kbool(w, "ok", x->ok);
		jw_kstring(w, "message", x->message);
		if (x->ok && x->kind == HCJ_OPTIONS) {
			jw_key(w, "options");
			options_write(w, g);
		} else if (x->ok) {
			jw_key(w, "played");
			jw_object(w);
			jw_kint(w, "applied", (int64_t)x->played.applied);
			jw_kint(w, "ignored", (int64_t)x->played.ignored);
			jw_kint(w, "locks", x->played.locks);
			jw_kint(w, "lines", x->played.lines);
			jw_object_end(w);
		}
		jw_object_end(w);
	}
	jw_array_end(w);
	return !w->failed;
}

/* ---- the descriptor's other steps ---- */

static bool
hcj_init(void *st, uint64_t seed, const struct game_options *opts, const struct game_env *env,
    enum api_error *err, char *msg, size_t cap)
{
	char why[ENGINE_REASON_MAX];

	(void)seed;
	(void)env;
	/* The empty well's call records nothing (its count 1 is implicit). */
	if (hclassic_start(st, (unsigned)opts->v[0], NULL, why) != HCLASSIC_OK) {
		*err = API_ERR_INTERNAL;
		snprintf(msg, cap, "the game could not start: %s", why);
		return false;
	}
	return true;
}

static void
hcj_summary(const void *st, struct game_summary *out)
{
	const struct hclassic *g = st;

	out->status = g->over ? "over" : "playing";
	out->over = g->over != 0;
	out->end_reason = g->over ? "top_out" : NULL;
	out->score = g->lines;
	out->lines = g->lines;
	out->pieces = g->pieces;
	out->rung = out->lives = -1;
	/* Lines, then fewer pieces, then fewer keys. */
	out->rank[0] = g->lines;
	out->rank[1] = -(int64_t)g->pieces;
	out->rank[2] = -(int64_t)g->keys;
}

static json_t *
hcj_final(const void *st)
{
	const struct hclassic *g = st;

	return json_pack("{s:I, s:I, s:I, s:s, s:o}", "lines", (json_int_t)g->lines,
	    "pieces", (json_int_t)g->pieces, "keys", (json_int_t)g->keys,
	    "status", g->over ? "over" : "playing",
	    "end_reason", g->over ? json_string("top_out") : json_null());
}

static json_t *
hcj_claims(const void *st)
{
	const struct hclassic *g = st;

	return json_pack("{s:I, s:I, s:I, s:I, s:s, s:s}", "score", (json_int_t)g->lines,
	    "lines", (json_int_t)g->lines, "pieces", (json_int_t)g->pieces,
	    "keys", (json_int_t)g->keys, "end_reason", g->over ? "top_out" : "",
	    "supplier", hclassic_supplier_name(g->supplier));
}

static json_t *
hcj_replay_options(const void *st)
{
	const struct hclassic *g = st;

	return json_pack("{s:i}", "supplier", (int)g->supplier);
}

static bool
hcj_replay_start(void *st, int64_t seed, const json_t *replay, struct replay_ctx *rc, char *reason,
    size_t cap)
{
	const json_t *sup = json_object_get(replay, "supplier");
	struct hcj_memory *m;
	char why[ENGINE_REASON_MAX];

	if (seed != 0)
		return engine_refuse(reason, cap, "hatetris-classic has no seed: a replay's seed is 0");
	if (!json_is_integer(sup) || json_integer_value(sup) < 0 ||
	    json_integer_value(sup) >= HCLASSIC_NSUPPLIERS)
		return engine_refuse(reason, cap, "supplier must be an integer from 0 to %d",
		    HCLASSIC_NSUPPLIERS - 1);
	if ((m = calloc(1, sizeof *m)) == NULL || (m->own = keyset_new(HCJ_FACT_BYTES)) == NULL) {
		free(m);
		return engine_refuse(reason, cap, "out of memory");
	}
	m->supplier = (unsigned)json_integer_value(sup);
	rc->game = m;
	if (hclassic_start(st, m->supplier, NULL, why) != HCLASSIC_OK)
		return engine_refuse(reason, cap, "the run cannot start: %s", why);
	return true;
}

/* Plays one stored move: a shortest path to its position, then (a lock)
 * the locking D; its keys are counted as the move says. */
static bool
replay_one(struct hclassic *g, const json_t *move, struct hcj_memory *m, char *path, size_t pcap,
    size_t *npath, char *reason, size_t cap)
{
	const char *type = json_string_value(json_object_get(move, "type"));
	const json_t *jx = json_object_get(move, "x"), *jy = json_object_get(move, "y"),
	    *jo = json_object_get(move, "o"), *jk = json_object_get(move, "keys");
	struct hclassic_memory mem = memory_of(m);
	struct hclassic_report rep;
	bool lock;
	long n;
	json_int_t k;

	if (!json_is_object(move) || json_object_size(move) != 5 || type == NULL ||
	    !json_is_integer(jx) || !json_is_integer(jy) || !json_is_integer(jo) ||
	    !json_is_integer(jk) || (strcmp(type, "lock") != 0 && strcmp(type, "move") != 0))
		return engine_refuse(reason, cap, "a move is {keys, o, type: lock|move, x, y}");
	lock = strcmp(type, "lock") == 0;
	k = json_integer_value(jk);
	if (g->over)
		return engine_refuse(reason, cap, "a move after the end");
	if (!pos_in_range(json_integer_value(jx), json_integer_value(jy), json_integer_value(jo)))
		return engine_refuse(reason, cap, "a position out of the well");
	n = path_to(g, (int)json_integer_value(jx), (int)json_integer_value(jy),
	    (unsigned)json_integer_value(jo), path, pcap - 1);
	if (n < 0)
		return engine_refuse(reason, cap, "the piece cannot reach (%lld, %lld, %lld)",
		    (long long)json_integer_value(jx), (long long)json_integer_value(jy),
		    (long long)json_integer_value(jo));
	if (lock) {
		if (hclassic_free(g->well, g->piece, (int)json_integer_value(jx),
		    (int)json_integer_value(jy) + 1, (unsigned)json_integer_value(jo)))
			return engine_refuse(reason, cap, "the piece does not lock there");
		path[n++] = 'D';
	}
	if (k < n || k > HCJ_KEYS_MAX || (n == 0 && k == 0))
		return engine_refuse(reason, cap, "a move of %lld keys where its path takes %ld",
		    (long long)k, n);
	if (hclassic_keys(g, path, (size_t)n, &mem, &rep) != HCLASSIC_OK)
		return engine_refuse(reason, cap, "%s", rep.message);
	if (rep.locks != (lock ? 1u : 0u))
		return engine_refuse(reason, cap, "the move does not lock as it says");
	if ((uint64_t)g->keys + (uint64_t)(k - n) > HCLASSIC_COUNT_MAX)
		return engine_refuse(reason, cap, "the run is too long");
	g->keys += (uint32_t)(k - n);
	*npath = (size_t)n;
	return true;
}

static bool
hcj_replay_move(void *st, const json_t *move, struct replay_ctx *rc, char *reason, size_t cap)
{
	char path[HCLASSIC_PATH_MAX + 2];
	size_t n;

	return replay_one(st, move, rc->game, path, sizeof path, &n, reason, cap);
}

static void
hcj_replay_end(struct replay_ctx *rc)
{
	struct hcj_memory *m = rc->game;

	if (m != NULL)
		keyset_free(m->own);
	free(m);
	rc->game = NULL;
}

/* ---- export: a finished run's keys in the original's encodings ---- */

/* Appends path[0..n) to *buf (grown by doubling); false when out of memory. */
static bool
append_keys(char **buf, size_t *len, size_t *cap, const char *path, size_t n)
{
	if (*len + n > *cap) {
		size_t c = *cap ? *cap : 4096;
		char *p;

		while (c < *len + n)
			c *= 2;
		if ((p = realloc(*buf, c)) == NULL)
			return false;
		*buf = p;
		*cap = c;
	}
	memcpy(*buf + *len, path, n);
	*len += n;
	return true;
}

/*
 * The run's keys as its stored locks give them: each lock's position
 * reached by a shortest path from the piece's spawn (the engine's search,
 * keys tried L R D U), then the locking D. The bot's own keys are not
 * stored; a path that ends in the same lock leaves the same well, so the
 * same pieces follow. A "move" (a piece left falling between requests)
 * is skipped: the next lock is reached from the spawn all the same. Keys
 * into *out (the caller frees), their count in *n; false when a move does
 * not replay or memory runs out. Cost per lock: one search to find the path
 * and the supplier call the lock makes.
 */
static bool
run_keys(const struct hclassic *end, const json_t *actions, char **out, size_t *n)
{
	struct hcj_memory *m = calloc(1, sizeof *m);
	struct hclassic_memory mem;
	struct hclassic g;
	char path[HCLASSIC_PATH_MAX + 2], why[ENGINE_REASON_MAX];
	char *buf = NULL;
	size_t len = 0, cap = 0, i;
	bool ok = false;

	*out = NULL;
	*n = 0;
	if (m == NULL || (m->own = keyset_new(HCJ_FACT_BYTES)) == NULL)
		goto done;
	m->supplier = end->supplier;
	mem = memory_of(m);
	if (!json_is_array(actions) || hclassic_start(&g, end->supplier, NULL, why) != HCLASSIC_OK)
		goto done;
	for (i = 0; i < json_array_size(actions); i++) {
		const json_t *mv = json_array_get(actions, i);
		const char *type = json_string_value(json_object_get(mv, "type"));
		const json_t *jx = json_object_get(mv, "x"), *jy = json_object_get(mv, "y"),
		    *jo = json_object_get(mv, "o");
		struct hclassic_report rep;
		long k;

		if (type != NULL && strcmp(type, "move") == 0)
			continue;
		if (type == NULL || strcmp(type, "lock") != 0 || g.over || !json_is_integer(jx) ||
		    !json_is_integer(jy) || !json_is_integer(jo) || !pos_in_range(json_integer_value(jx),
		    json_integer_value(jy), json_integer_value(jo)))
			goto done;
		k = path_to(&g, (int)json_integer_value(jx), (int)json_integer_value(jy),
		    (unsigned)json_integer_value(jo), path, sizeof path - 1);
		if (k < 0)
			goto done;
		path[k++] = 'D';
		if (hclassic_keys(&g, path, (size_t)k, &mem, &rep) != HCLASSIC_OK || rep.locks != 1 ||
		    rep.applied != (size_t)k || !append_keys(&buf, &len, &cap, path, (size_t)k))
			goto done;
	}
	/* The export must be the run: the same lines, pieces and end. */
	ok = g.lines == end->lines && g.pieces == end->pieces && g.over == end->over;
done:
	if (m != NULL)
		keyset_free(m->own);
	free(m);
	if (ok) {
		*out = buf;
		*n = len;
	} else
		free(buf);
	return ok;
}

/* keys[0..n) in one encoding as a JSON string; NULL when out of memory. */
static json_t *
encoded_json(unsigned enc, const char *keys, size_t n)
{
	size_t len = 0;
	char *s;
	json_t *j;

	if (!hclassic_replay_encode(enc, keys, n, NULL, 0, &len) || (s = malloc(len + 1)) == NULL)
		return NULL;
	if (!hclassic_replay_encode(enc, keys, n, s, len + 1, &len)) {
		free(s);
		return NULL;
	}
	j = json_stringn(s, len);
	free(s);
	return j;
}

static json_t *
hcj_run_record(const void *st, const json_t *actions)
{
	static const char *const names[HCLASSIC_NENCODINGS] = { "raw", "hex", "base65536",
		"base2048" };
	char *keys;
	size_t n;
	unsigned e;
	json_t *o;

	if (!run_keys(st, actions, &keys, &n))
		return NULL;
	o = json_pack("{s:I}", "keys", (json_int_t)n);
	for (e = 0; o != NULL && e < HCLASSIC_NENCODINGS; e++) {
		json_t *j = encoded_json(e, keys, n);

		if (j == NULL) {
			json_decref(o);
			o = NULL;
		} else
			json_object_set_new_nocheck(o, names[e], j);
	}
	free(keys);
	return o;
}

json_t *
hclassic_json_import(const char *record, size_t len, unsigned supplier, bool *oom, char *why,
    size_t cap)
{
	struct hcj_memory m;
	struct hclassic g;
	struct hclassic_memory mem;
	struct hclassic_report rep;
	char reason[ENGINE_REASON_MAX], *keys = NULL, *seq = NULL;
	size_t nkeys = 0, i, nseq = 0, seqcap = 64, played = 0;
	unsigned enc = 0;
	json_t *o = NULL;

	*oom = false;
	memset(&m, 0, sizeof m);
	m.supplier = supplier;
	mem = memory_of(&m);
	if (supplier >= HCLASSIC_NSUPPLIERS) {
		snprintf(why, cap, "supplier must be an integer from 0 to %d", HCLASSIC_NSUPPLIERS - 1);
		return NULL;
	}
	if (len > HCJ_RECORD_MAX) {
		snprintf(why, cap, "a record of at most %u bytes", HCJ_RECORD_MAX);
		return NULL;
	}
	switch (hclassic_replay_decode(record, len, NULL, 0, &nkeys, &enc)) {
	case HCLASSIC_REPLAY_OK:
		break;
	case HCLASSIC_REPLAY_BAD_UTF8:
		snprintf(why, cap, "the record is not UTF-8");
		return NULL;
	default:
		snprintf(why, cap, "not a HATETRIS replay in raw, hex, Base65536 or Base2048");
		return NULL;
	}
	if ((keys = malloc(nkeys + 1)) == NULL || (seq = malloc(seqcap)) == NULL ||
	    (m.own = keyset_new(HCJ_FACT_BYTES)) == NULL)
		goto oom;
	if (hclassic_replay_decode(record, len, keys, nkeys, &nkeys, &enc) != HCLASSIC_REPLAY_OK) {
		snprintf(why, cap, "the record could not be decoded");
		goto out;
	}
	if (hclassic_start(&g, supplier, NULL, reason) != HCLASSIC_OK)
		goto oom;
	seq[nseq++] = hclassic_piece_name(g.piece)[0];
	/* Key by key up to each lock, to note each piece supplied. */
	for (i = 0; i < nkeys && !g.over;) {
		size_t j = i;
		uint32_t before = g.pieces;

		while (j < nkeys && keys[j] != 'D')
			j++;
		if (j < nkeys)
			j++;
		if (hclassic_keys(&g, keys + i, j - i, &mem, &rep) != HCLASSIC_OK) {
			if (rep.outcome == HCLASSIC_MEMORY)
				goto oom;
			snprintf(why, cap, "key %zu: %s", i + rep.applied + 1, rep.message);
			goto out;
		}
		played += rep.applied;
		if (g.pieces != before) {
			if (nseq + 1 >= seqcap) {
				char *p = realloc(seq, seqcap * 2);

				if (p == NULL)
					goto oom;
				seq = p;
				seqcap *= 2;
			}
			seq[nseq++] = hclassic_piece_name(g.piece)[0];
		}
		i = j;
	}
	o = json_pack("{s:s, s:I, s:I, s:I, s:I, s:I, s:s, s:o, s:s%}",
	    "encoding", hclassic_encoding_name(enc), "keys", (json_int_t)nkeys,
	    "keys_played", (json_int_t)played, "ignored", (json_int_t)(nkeys - played),
	    "lines", (json_int_t)g.lines, "pieces", (json_int_t)g.pieces,
	    "status", g.over ? "over" : "playing",
	    "end_reason", g.over ? json_string("top_out") : json_null(),
	    "piece_sequence", seq, nseq);
	if (o == NULL)
		goto oom;
	goto out;
oom:
	*oom = true;
	snprintf(why, cap, "out of memory");
out:
	keyset_free(m.own);
	free(keys);
	free(seq);
	return o;
}

static json_t *
hcj_rules(void)
{
	json_t *order = json_array(), *sup = json_object();
	unsigned i;

	for (i = 0; i < HCLASSIC_NPIECES; i++)
		json_array_append_new(order, json_string(hclassic_piece_name(hclassic_order[i])));
	for (i = 0; i < HCLASSIC_NSUPPLIERS; i++)
		json_object_set_new(sup, hclassic_supplier_name(i), json_integer(i));
	return json_pack("{s:s, s:s, s:{s:i, s:i, s:i}, s:s, s:{s:o, s:s, s:s, s:o}, s:[s, s, s], "
	    "s:[{s:s, s:s}, {s:s}, {s:s, s:s}], s:i, s:i, s:s, s:s, s:s, s:[s, s, s, s]}",
	    "game", game_hatetris_classic.name, "rules", HCLASSIC_RULES,
	    "well", "columns", HCLASSIC_COLS, "rows", HCLASSIC_ROWS, "bar_rows", HCLASSIC_BAR,
	    "keys", "L left, R right, D down (locks when blocked), U turn clockwise; a blocked key is "
	    "still a key",
	    "supplier", "order", order,
	    "rating", "a piece is rated by its best landing: the empty rows above the well it leaves",
	    "choice", "the piece whose landings lead least back to wells the run has had (current: "
	    "the largest count of a landing well, smallest first), then the lowest rated, then S Z O I "
	    "L J T",
	    "versions", sup,
	    "commands", "keys <L R D U ...> (or the keys alone)", "options", "place <lock id>",
	    "actions", "type", "keys", "keys", "string of L R D U",
	    "type", "options",
	    "type", "place", "lock", "integer: an id from options",
	    "max_keys", HCJ_KEYS_MAX, "max_locks", GAME_MOVES_MAX,
	    "init", "?supplier=0|1|2|3 (current, 2022, 2021, mild; default 0), or the same in a JSON "
	    "body; there is no seed",
	    "end", "top_out: a lock with a cell in the bar (rows 0-3); it removes nothing",
	    "score", "lines removed; leaderboards rank by lines, then fewer pieces, then fewer keys",
	    "replay_encodings", "raw", "hex", "Base65536", "Base2048");
}

/* {"record": "...", "supplier": 0-3 (default 0)}. */
static json_t *
hcj_import(const json_t *body, bool *oom, char *why, size_t cap)
{
	static const char *const fields[] = { "record", "supplier", NULL };
	const json_t *rec = json_object_get(body, "record"), *sup = json_object_get(body, "supplier");
	json_int_t supplier = HCLASSIC_CURRENT;
	json_t *o;

	*oom = false;
	if (!jsonbody_known(body, fields, why, cap))
		return NULL;
	if (!json_is_string(rec)) {
		snprintf(why, cap, "field 'record' must be a string: a replay in raw, hex, Base65536 or "
		    "Base2048");
		return NULL;
	}
	if (sup != NULL) {
		if (!json_is_integer(sup) || json_integer_value(sup) < 0 ||
		    json_integer_value(sup) >= HCLASSIC_NSUPPLIERS) {
			snprintf(why, cap, "field 'supplier' must be an integer from 0 to %d",
			    HCLASSIC_NSUPPLIERS - 1);
			return NULL;
		}
		supplier = json_integer_value(sup);
	}
	o = hclassic_json_import(json_string_value(rec), json_string_length(rec), (unsigned)supplier,
	    oom, why, cap);
	if (o == NULL)
		return NULL;
	json_object_set_new_nocheck(o, "game", json_string(game_hatetris_classic.name));
	json_object_set_new_nocheck(o, "rules", json_string(HCLASSIC_RULES));
	json_object_set_new_nocheck(o, "supplier", json_string(hclassic_supplier_name((unsigned)supplier)));
	return o;
}

static const struct game_option hcj_options[] = {
	{ "supplier", 0, HCLASSIC_NSUPPLIERS - 1, HCLASSIC_CURRENT, 0,
	  "the supplier version: 0 current (seen-well counts), 1 2022, 2 2021, 3 mild" },
};
static const char *const hcj_action_fields[] = { "command", "action", NULL };
static const char *const hcj_replay_keys[] = { "supplier", NULL };
static const char *const hcj_final_keys[] = { "lines", "pieces", "keys", "status", "end_reason",
	NULL };
static const char *const hcj_board_fields[] = { "lines", "pieces", NULL };

/* An imported record in one line: its encoding and supplier, its keys,
 * lines and pieces, how it stands. */
static void
hcj_record_text(const json_t *o, char *out, size_t cap)
{
	snprintf(out, cap, "%s record (%s, %s supplier), %lld keys (%lld played), %lld lines, %lld "
	    "pieces, %s", game_hatetris_classic.name, json_string_value(json_object_get(o, "encoding")),
	    json_string_value(json_object_get(o, "supplier")),
	    (long long)json_integer_value(json_object_get(o, "keys")),
	    (long long)json_integer_value(json_object_get(o, "keys_played")),
	    (long long)json_integer_value(json_object_get(o, "lines")),
	    (long long)json_integer_value(json_object_get(o, "pieces")),
	    json_string_value(json_object_get(o, "status")));
}

/* What an agent's text names each turn (game.h): the piece drawn as @
 * on the board, by its name. */
static const struct game_fact hcj_facts[] = {
	{ "current", "piece", NULL, NULL },
	{ "lines", "lines", NULL, NULL },
	{ "pieces", "pieces", NULL, NULL },
	{ "keys", "keys", NULL, NULL },
	{ "supplier", "supplier", NULL, NULL },
	{ NULL, NULL, NULL, NULL },
};

static const struct game_ext hcj_ext = {
	.facts = hcj_facts,
	.fact_bytes = HCJ_FACT_BYTES,
	.replay_options = hcj_replay_options,
	.replay_end = hcj_replay_end,
	.replay_import = hcj_import,
	.record_text = hcj_record_text,
	.run_record = hcj_run_record,
};

const struct game game_hatetris_classic = {
	.id = GAME_HATETRIS_CLASSIC,
	.name = "hatetris-classic",
	.title = "HATETRIS classic",
	.how_to_end = "it ends when the stack tops out; it cannot be ended early",
	.how_to_play = "HATETRIS classic: the original browser HATETRIS, key for key. A 10 x 20 well, "
	    "rows 0-3 the bar where pieces spawn. Keys: L and R move the piece a column, U turns it "
	    "clockwise, D moves it down a row or, when it cannot go down, locks it. There is no "
	    "gravity: a piece locks only on a blocked D. Full rows clear (one line each) unless the "
	    "lock has a cell in the bar, which ends the run. After every lock the supplier hands out "
	    "the piece that helps you least and avoids wells you have had. Commands: 'keys LLDDU...' "
	    "(any keys, through several pieces), 'options' (every lock the piece can reach, with a "
	    "shortest path and the well it leaves), 'place N' (play lock N of options). No seed; "
	    "'supplier' 0-3 at init picks the version (0 current). When the run is over, finish it."
	    " How each game names rows, columns and cells, with a drawing: docs/coordinates.md in "
	    "the arcaded source.",
	.rules = HCLASSIC_RULES,
	.rules_version = 1,
	.check_default = false,
	.hides_future = false,
	.seedless = true,
	.scratch_size = sizeof(struct hcj_scratch),
	.options = hcj_options,
	.noptions = sizeof hcj_options / sizeof hcj_options[0],
	.action_fields = hcj_action_fields,
	.board_fields = hcj_board_fields,
	.encode = hcj_encode,
	.decode = hcj_decode,
	.init = hcj_init,
	.read_action = hcj_read_action,
	.play = hcj_play,
	.answer_write = hcj_answer_write,
	.summary = hcj_summary,
	.final = hcj_final,
	.claims = hcj_claims,
	.replay_keys = hcj_replay_keys,
	.final_keys = hcj_final_keys,
	.replay_start = hcj_replay_start,
	.replay_move = hcj_replay_move,
	.rules_json = hcj_rules,
	.ext = &hcj_ext,
};
