/*
 * test_facts.c: run facts, from the store to the game. The store part
 * (store_fact_insert, store_facts_read: a fact keeps its first step, a read
 * stops at a step, a fact of the wrong size is an error), the lazy oracle
 * of server/play_facts.c (nothing read before the first question, one read for
 * thousands of questions, none at step 0 or for a game without facts),
 * and the wiring into HATETRIS's descriptor: a board recorded in a run's
 * history at a step up to the token's makes the supplier avoid the piece
 * that would rebuild it, and the same board recorded at a later step (a
 * move being stored beside a stale request or a retry) does not count.
 *
 * The positions are real: the placements of a known-answer run
 * (tests/hatetris/data/hatetris_kat.txt, the file given as argument)
 * played through the descriptor until the run has 2 lines (the supplier
 * only asks about boards once a run can have 2), its facts stored step by
 * step as the daemon's job stores them.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "play_facts.h"
#include "hatetris_json.h"
#include "log.h"
#include "stackfall_json.h"
#include "store.h"
#include "tap.h"

static struct store *s;
static int64_t run_id;

/* ---- jobs ---- */

static enum store_result
new_run(struct store_conn *c, void *arg)
{
	struct store_run_new *r = arg;

	return store_run_insert(c, r);
}

struct put {
	int64_t       step;
	const uint8_t *fact;
	size_t        n;
};

static enum store_result
put_fact(struct store_conn *c, void *arg)
{
	const struct put *p = arg;

	return store_fact_insert(c, run_id, p->step, p->fact, p->n);
}

static void
put(int64_t step, const uint8_t *fact, size_t n)
{
	struct put p = { step, fact, n };

	if (store_call(s, put_fact, &p) != STORE_JOB_COMMITTED)
		ok(0, "storing a fact at step %lld", (long long)step);
}

/* ---- reading ---- */

#define COLLECT_MAX 512

struct collected {
	uint8_t facts[COLLECT_MAX][HATETRIS_KEY_BYTES];
	int     n;
};

static bool
collect(void *ctx, const uint8_t *fact)
{
	struct collected *c = ctx;

	if (c->n == COLLECT_MAX)
		return false;
	memcpy(c->facts[c->n++], fact, HATETRIS_KEY_BYTES);
	return true;
}

static enum store_result
read_at(int64_t step, size_t n, struct collected *out)
{
	struct store_conn *c = store_reader(s);
	enum store_result rc;

	memset(out, 0, sizeof *out);
	rc = store_facts_read(c, run_id, step, n, collect, out);
	store_reader_release(s, c);
	return rc;
}

static bool
holds(const struct collected *c, const uint8_t *fact)
{
	int i;

	for (i = 0; i < c->n; i++)
		if (memcmp(c->facts[i], fact, HATETRIS_KEY_BYTES) == 0)
			return true;
	return false;
}

/* A plain list as the engine's oracle. */
static bool
listed(void *ctx, const uint8_t key[HATETRIS_KEY_BYTES])
{
	return holds(ctx, key);
}

static void
test_store(void)
{
	uint8_t a[HATETRIS_KEY_BYTES] = { 1 }, b[HATETRIS_KEY_BYTES] = { 2 }, cc[HATETRIS_KEY_BYTES] = { 3 };
	struct collected got;

	put(1, a, sizeof a);
	put(2, b, sizeof b);
	put(3, a, sizeof a); /* a again: keeps step 1 */
	put(3, cc, sizeof cc);
	ok(read_at(0, HATETRIS_KEY_BYTES, &got) == STORE_OK && got.n == 0, "no facts as of step 0");
	ok(read_at(1, HATETRIS_KEY_BYTES, &got) == STORE_OK && got.n == 1 && holds(&got, a),
	    "as of step 1: the fact of step 1");
	ok(read_at(2, HATETRIS_KEY_BYTES, &got) == STORE_OK && got.n == 2 && holds(&got, a) && holds(&got, b),
	    "as of step 2: steps 1 and 2, not the later ones");
	ok(read_at(3, HATETRIS_KEY_BYTES, &got) == STORE_OK && got.n == 3 && holds(&got, cc),
	    "as of step 3: three distinct facts (the repeat is stored once)");
	ok(read_at(3, 24, &got) == STORE_ERROR, "a read expecting another fact size is an error");
}

/* ---- the oracle ---- */

static void
test_oracle(void)
{
	uint8_t a[HATETRIS_KEY_BYTES] = { 1 }, b[HATETRIS_KEY_BYTES] = { 2 }, z[HATETRIS_KEY_BYTES] = { 9 };
	struct game_env env;
	struct facts f;
	int i, yes = 0;

	play_facts_init(&f, &game_hatetris, s, NULL, run_id, 1);
	memset(&env, 0, sizeof env);
	play_facts_attach(&f, &env);
	ok(env.fact_known != NULL && f.reads == 0, "attached, nothing read before a question");
	for (i = 0; i < 3000; i++)
		yes += env.fact_known(env.facts_ctx, i % 3 == 0 ? a : i % 3 == 1 ? b : z);
	ok(f.reads == 1 && yes == 1000 && !play_facts_failed(&f),
	    "3000 questions, one store read; only step 1's fact is known as of step 1 (%d yes)", yes);
	play_facts_cleanup(&f);

	play_facts_init(&f, &game_hatetris, s, NULL, run_id, 0);
	play_facts_attach(&f, &env);
	ok(env.fact_known == NULL, "a run at step 0 has no facts: no oracle");
	play_facts_cleanup(&f);
	play_facts_init(&f, &game_stackfall, s, NULL, run_id, 5);
	play_facts_attach(&f, &env);
	ok(env.fact_known == NULL, "a game without facts gets no oracle");
	play_facts_cleanup(&f);
}

/* ---- the wiring into HATETRIS ---- */

/* The commands of the first depth-1 known-answer run with 3 lines or more
 * (tests/hatetris/data/hatetris_kat.txt), split at ';' in place. */
static char kat_line[65536];

static int
kat_commands(const char *file, char **cmds, int cap)
{
	FILE *f = fopen(file, "r");
	int n = 0;

	while (f != NULL && fgets(kat_line, sizeof kat_line, f) != NULL) {
		char *p = kat_line, *field[8];
		int i;

		if (kat_line[0] == '#')
			continue;
		for (i = 0; i < 8 && p != NULL; i++)
			field[i] = strsep(&p, "|");
		if (i < 8 || atoi(field[0]) != 1 || atoi(field[3]) < 3)
			continue;
		field[7][strcspn(field[7], "\n")] = '\0';
		for (p = field[7]; p != NULL && n < cap;)
			cmds[n++] = strsep(&p, ";");
		break;
	}
	if (f != NULL)
		fclose(f);
	return n;
}

/* Plays cmd on g through the descriptor with the run's facts as of step. */
static void
play(game_state *g, const char *cmd, int64_t step, bool *failed, struct game_turn *t)
{
	void *scratch = calloc(1, game_hatetris.scratch_size);
	json_t *body = json_pack("{s:s}", "command", cmd);
	char msg[128];
	struct game_env env;
	struct facts f;

	memset(&env, 0, sizeof env);
	memset(t, 0, sizeof *t);
	play_facts_init(&f, &game_hatetris, s, NULL, run_id, step);
	play_facts_attach(&f, &env);
	if (scratch == NULL || !game_hatetris.read_action(body, scratch, msg, sizeof msg))
		abort();
	game_hatetris.play(g, scratch, &env, t);
	*failed = play_facts_failed(&f);
	play_facts_cleanup(&f);
	json_decref(body);
	free(scratch);
}

static void
test_wiring(const char *kat)
{
	struct store_run_new rn;
	game_state g, a, b;
	struct game_turn t;
	struct hatetris *h = (struct hatetris *)&g;
	uint8_t planted[HATETRIS_KEY_BYTES];
	struct tetromino_option o[HATETRIS_OPTIONS_MAX];
	size_t n = 0;
	char first[32], *cmds[512];
	int ncmds = kat_commands(kat, cmds, 512), k = 0;
	bool failed = false;
	int64_t step = 0;
	unsigned q;
	uint8_t bytes[GAME_STATE_MAX];

	/* A fresh run, as init stores it. */
	if (!hatetris_init(h, 1, HATETRIS_NO_CAP, NULL, NULL))
		abort();
	memset(&rn, 0, sizeof rn);
	rn.game = game_hatetris.name;
	rn.rules = game_hatetris.rules;
	rn.state = bytes;
	rn.nstate = game_hatetris.encode(&g, bytes, sizeof bytes);
	game_hatetris.summary(&g, &rn.sum);
	if (store_call(s, new_run, &rn) != STORE_JOB_COMMITTED)
		abort();
	run_id = rn.id;

	/* Play until the run has 2 lines, storing each move's fact. */
	while (h->status == HATETRIS_PLAYING && h->lines < 2 && k < ncmds) {
		play(&g, cmds[k++], step, &failed, &t);
		if (failed)
			break;
		if (t.refused || t.nfacts == 0)
			continue;
		step++;
		put(step, t.facts[0].bytes, HATETRIS_KEY_BYTES);
	}
	if (!ok(h->status == HATETRIS_PLAYING && h->lines >= 2,
	    "a run reaches 2 lines and plays on (%u lines after %lld moves)", (unsigned)h->lines,
	    (long long)step))
		return;

	/* The next placement gives piece q; one of q's boards after it is then
	 * planted. */
	{
		struct tetromino_option lo[HATETRIS_OPTIONS_MAX];
		size_t nlo = 0;

		hatetris_options(h, lo, HATETRIS_OPTIONS_MAX, &nlo, NULL);
		if (nlo == 0)
			abort();
		snprintf(first, sizeof first, "place %u %u", lo[0].rotation, lo[0].column);
	}
	a = g;
	play(&a, first, step, &failed, &t);
	q = ((struct hatetris *)&a)->current;
	ok(!t.refused && !failed && t.nfacts == 1, "the next placement: piece %c", tetromino_letter(q));
	{
		struct hatetris *ha = (struct hatetris *)&a;

		hatetris_options(ha, o, HATETRIS_OPTIONS_MAX, &n, NULL);
		if (n == 0)
			abort();
		/* q's first option, placed on a copy: the board it leaves. */
		b = a;
		hatetris_place((struct hatetris *)&b, o[0].rotation, o[0].column, NULL, NULL, NULL);
		hatetris_board_key(&((struct hatetris *)&b)->board, planted);
	}

	/* Planted at a later step than the token's: not part of its history. */
	put(step + 1, planted, sizeof planted);
	b = g;
	play(&b, first, step, &failed, &t);
	ok(!failed && ((struct hatetris *)&b)->current == q,
	    "a board recorded after the token's step does not count: %c again",
	    tetromino_letter(((struct hatetris *)&b)->current));
	/* As of that later step it does. */
	b = g;
	play(&b, first, step + 1, &failed, &t);
	ok(!failed && ((struct hatetris *)&b)->current != q,
	    "a board in the run's history is avoided: %c instead of %c",
	    tetromino_letter(((struct hatetris *)&b)->current), tetromino_letter(q));
	/* The engine with that history handed to it directly agrees. */
	{
		struct collected got;
		struct hatetris e = *h;
		unsigned r, c;

		if (read_at(step + 1, HATETRIS_KEY_BYTES, &got) != STORE_OK ||
		    sscanf(first, "place %u %u", &r, &c) != 2)
			abort();
		hatetris_place(&e, r, c, listed, &got, NULL);
		ok(got.n > 0 && e.current == ((struct hatetris *)&b)->current,
		    "the engine given the %d stored boards directly supplies the same piece", got.n);
	}

	/* A stored fact of the wrong size: the oracle fails, the play is void. */
	{
		uint8_t odd[7] = { 7 };

		put(1, odd, sizeof odd);
		b = g;
		play(&b, first, step, &failed, &t);
		ok(failed, "a history that cannot be read marks the play as failed");
	}
}

int
main(int argc, char **argv)
{
	char dir[] = "/tmp/arcaded-facts-XXXXXX", path[1024], err[256];

	if (sodium_init() < 0 || mkdtemp(dir) == NULL)
		return 1;
	log_set_level(LOG_ERROR + 0);
	/* ARCADED_TEST_DB: a PostgreSQL URL (tests/server/with_pg.py). */
	if (getenv("ARCADED_TEST_DB") != NULL)
		snprintf(path, sizeof path, "%s", getenv("ARCADED_TEST_DB"));
	else
		snprintf(path, sizeof path, "%s/facts.db", dir);
	s = store_open(path, SYNC_NORMAL, 1, err, sizeof err);
	if (!ok(s != NULL, "the store opens with run_facts (%s)", s ? "migrated" : err))
		return tap_done();
	{
		struct store_run_new rn;
		uint8_t st[1] = { 0 };

		memset(&rn, 0, sizeof rn);
		rn.game = "hatetris";
		rn.rules = "hatetris-v1";
		rn.state = st;
		rn.nstate = 1;
		rn.sum.status = "playing";
		if (store_call(s, new_run, &rn) != STORE_JOB_COMMITTED)
			return 1;
		run_id = rn.id;
	}
	{
		size_t i;
		bool fine = true;

		for (i = 0; i < GAME__COUNT; i++)
			fine = fine && game_ext(game_table[i])->fact_bytes <= GAME_FACT_MAX &&
			    (game_ext(game_table[i])->fact_bytes == 0 || game_ext(game_table[i])->abandon == NULL);
		ok(fine, "every game's facts fit GAME_FACT_MAX, and no game with facts has account routes");
	}
	test_store();
	test_oracle();
	if (argc > 1)
		test_wiring(argv[1]);
	store_close(s);
	{
		char p[160];

		snprintf(p, sizeof p, "%s/facts.db-wal", dir);
		unlink(p);
		snprintf(p, sizeof p, "%s/facts.db-shm", dir);
		unlink(p);
		unlink(path);
		rmdir(dir);
	}
	return tap_done();
}
