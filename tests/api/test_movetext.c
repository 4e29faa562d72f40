/*
 * test_movetext.c: the texts written without printf whose fast path has
 * a fallback to snprintf, checked twice: the text against snprintf's, and
 * that the fast path ran. For the second this program defines snprintf
 * and __snprintf_chk itself (an executable's definitions win over libc's
 * for the libraries linked into it) and counts the calls made while a
 * text is written: a fast path that silently falls back, as Duskcourt's
 * capture text did until bd64582 (it wanted 80 bytes of a 64-byte move
 * slot), makes the count non-zero.
 *
 * - dc_move_text (the Duskcourt move's canonical JSON): every capture of
 *   squares -1..36 into a move slot (GAME_MOVE_TEXT_MAX) with no printf,
 *   the int64 extremes at every capacity 0-80, every other type; each
 *   equal to snprintf's text, nothing written past the capacity.
 * - iso8601_format at ISO8601_MAX in years 0000-9999: no printf (api-numtext
 *   holds its text to gmtime_r's).
 * - token_seal (its assertion "arcaded:GAME:RUN", run and time stamp
 *   without printf) on random tokens of every game: no printf.
 * The counter is itself checked: the paths that do use snprintf count.
 */
#undef _FORTIFY_SOURCE

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "duskcourt_json.h"
#include "game.h"
#include "iso8601.h"
#include "keys.h"
#include "tap.h"
#include "token.h"
#include "xorshift.h"

static int watching;
static unsigned long printf_calls;

int
snprintf(char *restrict s, size_t n, const char *restrict fmt, ...)
{
	va_list ap;
	int r;

	if (watching)
		printf_calls++;
	va_start(ap, fmt);
	r = vsnprintf(s, n, fmt, ap);
	va_end(ap);
	return r;
}

/* What a fortified build calls for snprintf. */
#if defined(__GNUC__)
__attribute__((format(printf, 5, 6)))
#endif
int __snprintf_chk(char *s, size_t n, int flag, size_t slen, const char *fmt, ...);

int
__snprintf_chk(char *s, size_t n, int flag, size_t slen, const char *fmt, ...)
{
	va_list ap;
	int r;

	(void)flag;
	(void)slen;
	if (watching)
		printf_calls++;
	va_start(ap, fmt);
	r = vsnprintf(s, n, fmt, ap);
	va_end(ap);
	return r;
}

/* The calls to snprintf made by dc_move_text for a, whose text is left
 * in out (cap bytes used of a larger buffer). */
static unsigned long
watched_move_text(const struct duskcourt_action *a, char *out, size_t cap)
{
	unsigned long before = printf_calls;

	watching = 1;
	dc_move_text(a, out, cap);
	watching = 0;
	return printf_calls - before;
}

/* The text as snprintf writes it (dc_move_text before 86b4858). */
static void
reference(const struct duskcourt_action *a, char *out, size_t cap)
{
	static const char *const types[] = { "capture", "reset", "next", "endRun" };

	if (a->type == DUSKCOURT_ACT_CAPTURE)
		snprintf(out, cap, "{\"from\":%lld,\"to\":%lld,\"type\":\"capture\"}", (long long)a->from,
		    (long long)a->to);
	else
		snprintf(out, cap, "{\"type\":\"%s\"}", types[a->type >= 0 && a->type <= 3 ? a->type : 3]);
}

static void
check_move_text(void)
{
	struct duskcourt_action a;
	unsigned long texts = 0, apart = 0, calls = 0, other_calls = 0;
	char first[200] = "";
	int64_t from, to;
	size_t cap;

	/* Every capture of squares -1..36 into a move slot. */
	a.type = DUSKCOURT_ACT_CAPTURE;
	for (from = -1; from <= DUSKCOURT_CELLS; from++)
		for (to = -1; to <= DUSKCOURT_CELLS; to++) {
			char got[GAME_MOVE_TEXT_MAX + 16], want[GAME_MOVE_TEXT_MAX + 16];

			a.from = from;
			a.to = to;
			memset(got, 0x5a, sizeof got);
			memset(want, 0x5a, sizeof want);
			calls += watched_move_text(&a, got, GAME_MOVE_TEXT_MAX);
			reference(&a, want, GAME_MOVE_TEXT_MAX);
			texts++;
			if (memcmp(got, want, sizeof got) != 0 && apart++ == 0)
				snprintf(first, sizeof first, ": %s, not %s", got, want);
		}
	ok(apart == 0, "dc_move_text writes snprintf's text for every capture of squares -1..%d "
	    "(%lu, %lu apart)%s", DUSKCOURT_CELLS, texts, apart, first);
	ok(calls == 0, "without calling snprintf: the fast path ran for each (%lu calls)", calls);

	/* The extremes at every capacity, cut as snprintf cuts. */
	texts = apart = calls = 0;
	for (cap = 0; cap <= 80; cap++) {
		static const int64_t v[] = { INT64_MIN, INT64_MAX, -1, 0, 35, 1000000007 };
		size_t i, j;

		for (i = 0; i < sizeof v / sizeof v[0]; i++)
			for (j = 0; j < sizeof v / sizeof v[0]; j++) {
				char got[96], want[96];

				a.type = DUSKCOURT_ACT_CAPTURE;
				a.from = v[i];
				a.to = v[j];
				memset(got, 0x5a, sizeof got);
				memset(want, 0x5a, sizeof want);
				calls += watched_move_text(&a, got, cap);
				reference(&a, want, cap);
				texts++;
				if (memcmp(got, want, sizeof got) != 0 && apart++ == 0)
					snprintf(first, sizeof first, ": %lld to %lld into %zu", (long long)v[i],
					    (long long)v[j], cap);
			}
	}
	ok(apart == 0 && calls == 0, "and for the int64 extremes at every capacity 0-80, cut as "
	    "snprintf cuts, without it (%lu texts, %lu apart, %lu calls)%s", texts, apart, calls,
	    apart ? first : "");

	/* The other types still go through snprintf: the counter sees them. */
	texts = apart = 0;
	for (from = -2; from <= 5; from++) {
		char got[GAME_MOVE_TEXT_MAX], want[GAME_MOVE_TEXT_MAX];

		a.type = from == 5 ? INT64_MAX : from;
		if (a.type == DUSKCOURT_ACT_CAPTURE)
			continue;
		a.from = a.to = 0;
		other_calls += watched_move_text(&a, got, sizeof got);
		reference(&a, want, sizeof want);
		texts++;
		apart += strcmp(got, want) != 0;
	}
	ok(apart == 0 && other_calls == texts, "the other types' texts are snprintf's, and the counter "
	    "saw each call (%lu texts, %lu apart, %lu calls)", texts, apart, other_calls);
}

static void
check_iso8601(void)
{
	unsigned long calls, fallback;
	uint64_t rng = 0x3c6ef372fe94f82bu;
	char out[ISO8601_MAX];
	int i;

	watching = 1;
	calls = printf_calls;
	for (i = 0; i < 100000; i++)
		iso8601_format(out, sizeof out, (int64_t)(xorshift_next(&rng) % 315537897600ULL) -
		    62167219200LL);
	iso8601_format(out, sizeof out, -62167219200LL);
	iso8601_format(out, sizeof out, 253402300799LL);
	calls = printf_calls - calls;
	fallback = printf_calls;
	iso8601_format(out, sizeof out, 253402300800LL); /* 10000-01-01 */
	iso8601_format(out, sizeof out, -62167219201LL); /* -0001-12-31 */
	fallback = printf_calls - fallback;
	watching = 0;
	ok(calls == 0, "iso8601_format at ISO8601_MAX writes years 0000-9999 without snprintf "
	    "(100002 times, %lu calls)", calls);
	ok(fallback == 2, "and the years outside with it, which the counter sees (%lu of 2)", fallback);
}

static void
check_token(void)
{
	struct keyring kr;
	uint8_t pepper[32], master[1][32];
	uint64_t rng = 0xa54ff53a5f1d36f1u;
	unsigned long calls = 0, sealed = 0;
	int i;

	memset(pepper, 7, sizeof pepper);
	memset(master[0], 3, sizeof master[0]);
	keyring_init(&kr, pepper, (const uint8_t (*)[32])master, 1);
	for (i = 0; i < 2000; i++) {
		struct state_token t;
		unsigned long before;
		char *tok;
		size_t k;

		memset(&t, 0, sizeof t);
		t.game = (enum game_id)(i % GAME__COUNT);
		t.rules = game_get(t.game)->rules_version;
		t.run = i % 3 == 0 ? ENGINE_ID_MAX : 1 + (int64_t)(xorshift_next(&rng) % ENGINE_ID_MAX);
		t.step = (int64_t)xorshift_below(&rng, 1000);
		t.issued_at = 1795000000 + (int64_t)xorshift_below(&rng, 100000000);
		t.nstate = 1 + xorshift_below(&rng, 64);
		for (k = 0; k < t.nstate; k++)
			t.state[k] = (uint8_t)xorshift_next(&rng);
		before = printf_calls;
		watching = 1;
		tok = token_seal(&kr, &t);
		watching = 0;
		calls += printf_calls - before;
		sealed += tok != NULL;
		free(tok);
	}
	ok(sealed == 2000 && calls == 0, "token_seal writes its assertion, run and time stamp "
	    "without snprintf, for every game (%lu of 2000 sealed, %lu calls)", sealed, calls);
}

int
main(void)
{
	check_move_text();
	check_iso8601();
	check_token();
	return tap_done();
}
