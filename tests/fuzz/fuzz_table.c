/*
 * fuzz_table.c: one fuzz target for every game on the table (api/game/game.c),
 * so that a game added there is fuzzed without new code. The first input
 * byte picks the game, the second how its state is made: the engine's
 * serialised bytes read from the input (decode), or a fresh run on a seed
 * taken from the input with the game's default options. The rest is a
 * sequence of action bodies, one JSON object a line, each read with the
 * game's reader and played through its descriptor: after every turn the
 * state must encode, decode and encode to the same bytes, and the answer,
 * summary, final summary and claims must build.
 *
 * Built two ways: as a libFuzzer target where clang links -fsanitize=fuzzer
 * (run by hand: build-clang/tests/fuzz/fuzz_table -max_total_time=120), and
 * as a test program (FUZZ_TABLE_DRIVER) that makes its inputs from a seeded
 * generator: for each game, actions written as its players write them and
 * damaged copies of them, in suite api.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "xorshift.h"

#include "game.h"
#include "game_shared.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Each game's working memory, made once (the daemon's is per thread). */
static void *work[GAME__COUNT];
/* What the inputs did: actions read, moves made (the driver shows them). */
static unsigned long nread, nmoved;

static const char *
no_query(void *ctx, const char *name)
{
	(void)ctx;
	(void)name;
	return NULL;
}

/* encode, decode, encode: the same bytes. */
static bool
round_trip(const struct game *g, const void *st)
{
	static uint8_t a[GAME_STATE_MAX], b[GAME_STATE_MAX];
	static game_state back;
	size_t na = g->encode(st, a, sizeof a), nb;

	if (na == 0 || na > sizeof a || !g->decode(&back, a, na))
		return false;
	nb = g->encode(&back, b, sizeof b);
	return nb == na && memcmp(a, b, na) == 0;
}

/* The answer is written and parses, and the summaries build (their
 * content is the games' tests'). */
static bool
answers(const struct game *g, const void *st, const void *scratch)
{
	struct game_summary sum;
	json_t *f = g->final(st), *c = g->claims(st), *back = NULL;
	struct jw w;
	size_t len = 0;
	char *text;
	bool ok;

	jw_init(&w, 4096, 1u << 22);
	game_answer_write(&w, g, "1", "token", st, scratch, NULL, NULL);
	text = jw_take(&w, &len);
	/* What is written parses (NULs in results are \u0000 escapes). */
	if (text != NULL)
		back = json_loadb(text, len, JSON_ALLOW_NUL, NULL);
	ok = back != NULL && f != NULL && c != NULL;
	g->summary(st, &sum);
	ok = ok && sum.status != NULL;
	free(text);
	json_decref(back);
	json_decref(f);
	json_decref(c);
	return ok;
}

/* Plays one input; false when a descriptor broke its promise. */
static bool
one(const uint8_t *data, size_t size)
{
	static game_state st;
	const struct game *g;
	struct game_env env;
	struct game_request rq = { NULL, no_query, NULL, 0, 0 };
	struct game_options opts;
	struct game_turn *t;
	enum api_error err;
	char msg[256];
	void *scratch;
	size_t i, start;
	bool ok = true;

	if (size < 2)
		return true;
	g = game_table[data[0] % GAME__COUNT];
	if (g->work_size > 0 && work[g->id] == NULL && (work[g->id] = calloc(1, g->work_size)) == NULL)
		return true;
	memset(&env, 0, sizeof env);
	env.work = work[g->id];
	env.shared = test_shared;
	for (i = 2; i < size && data[i] != '\n'; i++)
		;
	if ((data[1] & 1) != 0) {
		if (!g->decode(&st, data + 2, i - 2))
			return true;
	} else {
		uint64_t seed = 0;
		size_t k;

		for (k = 2; k < i && k < 10; k++)
			seed = seed << 8 | data[k];
		seed &= ENGINE_ID_MAX;
		memset(&opts, 0, sizeof opts);
		if (!game_read_options(g, &rq, &opts, msg, sizeof msg) ||
		    !g->init(&st, g->seedless ? 0 : seed, &opts, &env, &err, msg, sizeof msg))
			return false; /* a fresh run with the defaults always starts */
	}
	if (!round_trip(g, &st))
		return false;
	scratch = g->scratch_size > 0 ? calloc(1, g->scratch_size) : NULL;
	t = calloc(1, sizeof *t);
	if ((g->scratch_size > 0 && scratch == NULL) || t == NULL) {
		free(scratch);
		free(t);
		return true;
	}
	for (start = i + 1; ok && start < size; start = i + 1) {
		json_t *body;

		for (i = start; i < size && data[i] != '\n'; i++)
			;
		body = json_loadb((const char *)data + start, i - start, JSON_REJECT_DUPLICATES, NULL);
		if (body == NULL || !json_is_object(body)) {
			json_decref(body);
			continue;
		}
		if (g->read_action(body, scratch, msg, sizeof msg)) {
			static game_state before;

			memcpy(&before, &st, sizeof st);
			memset(t, 0, sizeof *t);
			g->play(&st, scratch, &env, t);
			nread++;
			nmoved += t->refused ? 0 : t->nmoves;
			if (t->refused)
				ok = memcmp(&before, &st, sizeof st) == 0; /* a refusal changes nothing */
			ok = ok && t->nmoves <= GAME_MOVES_MAX && round_trip(g, &st) && answers(g, &st, scratch);
		}
		json_decref(body);
	}
	free(scratch);
	free(t);
	return ok;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!one(data, size))
		abort();
	return 0;
}

#ifdef FUZZ_TABLE_DRIVER
/* xorshift64*: the driver's inputs, the same for the same seed. */
static uint64_t rng_state;

static uint32_t
rnd(uint32_t n)
{
	return xorshift_below(&rng_state, n);
}

/* An action body as players write them, for any of the games. */
static int
action(char *out, size_t cap)
{
	static const char *const words[] = { "options", "hold", "resign", "next", "endRun", "reset" };

	switch (rnd(10)) {
	case 0:
		return snprintf(out, cap, "{\"command\": \"place %u %u\"}", rnd(5), rnd(11));
	case 8: { /* hatetris-classic's keys, mostly D so pieces lock */
		static const char keys[] = "LRDUDDDD";
		int n = snprintf(out, cap, "{\"command\": \"keys ");
		unsigned k, len = 1 + rnd(60);

		for (k = 0; k < len && (size_t)n + 4 < cap; k++)
			out[n++] = keys[rnd(8)];
		return n + snprintf(out + n, cap - (size_t)n, "\"}");
	}
	case 9:
		return snprintf(out, cap, "{\"action\": {\"type\": \"place\", \"lock\": %u}}", rnd(40));
	case 1:
		return snprintf(out, cap, "{\"command\": \"%s; %u %u\"}", words[rnd(3)], rnd(4), rnd(10));
	case 2:
		return snprintf(out, cap, "{\"action\": {\"type\": \"capture\", \"from\": %u, \"to\": %u}}",
		    rnd(16), rnd(16));
	case 3:
		return snprintf(out, cap, "{\"action\": {\"type\": \"%s\"}}", words[rnd(6)]);
	case 4: /* a Stackcraft id, or a wells landing id */
		if (rnd(2))
			return snprintf(out, cap, "{\"action\": \"r%ux%uy%u\"}", rnd(4), rnd(6), 4 + rnd(7));
		return snprintf(out, cap, "{\"action\": \"r%ux%u\"}", rnd(4), rnd(11));
	case 5:
		return snprintf(out, cap, "{\"action\": {\"type\": \"place\", \"rotation\": %u, \"column\": %u}}",
		    rnd(4), rnd(10));
	case 6:
		return snprintf(out, cap, "{\"action\": %u}", rnd(200));
	default:
		return snprintf(out, cap, "{\"command\": \"%u %u; options; %u %u\"}", rnd(4), rnd(10), rnd(4),
		    rnd(10));
	}
}

int
main(int argc, char **argv)
{
	unsigned inputs = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 200;
	static uint8_t buf[1 << 14];
	unsigned k, bad = 0, n = 0, failed = 0;
	int gi;

	for (gi = 0; gi < GAME__COUNT; gi++) {
		const struct game *g = game_table[gi];

		rng_state = UINT64_C(0x9e3779b97f4a7c15) + (uint64_t)gi;
		bad = 0;
		nread = nmoved = 0;
		for (k = 0; k < inputs; k++) {
			size_t len = 0;
			unsigned a, nact = 1 + rnd(40);

			buf[len++] = (uint8_t)gi;
			buf[len++] = 0; /* a fresh run */
			for (a = 0; a < 8; a++)
				buf[len++] = (uint8_t)rnd(256);
			buf[len++] = '\n';
			for (a = 0; a < nact && len + 200 < sizeof buf; a++) {
				int w = action((char *)buf + len, 190);

				if (w > 0 && rnd(10) == 0) /* damaged: a byte changed */
					buf[len + rnd((uint32_t)w)] = (uint8_t)rnd(256);
				len += w > 0 ? (size_t)w : 0;
				buf[len++] = '\n';
			}
			if (!one(buf, len))
				bad++;
		}
		printf("%sok %u - %s: %u inputs of fresh runs, %lu actions read and played, %lu moves made; "
		    "every state round-trips and answers, refusals change nothing (%u broken)\n",
		    bad || nmoved == 0 ? "not " : "", ++n, g->name, inputs, nread, nmoved, bad);
		failed += bad != 0 || nmoved == 0;
	}
	printf("1..%u\n", n);
	return failed != 0;
}
#endif
