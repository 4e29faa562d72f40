/*
 * play_facts.c: the lazy oracle of play_facts.h. The first question reads
 * every fact of the run up to the step in one query (store_facts_read) into
 * a keyset; the others are hash look-ups. A failed read answers false and
 * marks the struct, so the caller can answer 500 instead of an answer
 * computed on a partial history.
 */
#include "play_facts.h"

#include <string.h>

#include "log.h"

void
play_facts_init(struct facts *f, const struct game *g, struct store *s, struct store_conn *conn,
    int64_t run, int64_t step)
{
	memset(f, 0, sizeof *f);
	f->store = s;
	f->conn = conn;
	f->run = run;
	f->step = step;
	f->fact_bytes = game_ext(g)->fact_bytes;
}

static bool
add(void *ctx, const uint8_t *fact)
{
	return keyset_add(ctx, fact);
}

static void
load(struct facts *f)
{
	struct store_conn *c;

	f->loaded = true;
	f->reads++;
	if ((f->set = keyset_new(f->fact_bytes)) == NULL) {
		log_msg(LOG_ERROR, "facts: out of memory");
		f->failed = true;
		return;
	}
	c = f->conn != NULL ? f->conn : store_reader(f->store);
	if (store_facts_read(c, f->run, f->step, f->fact_bytes, add, f->set) != STORE_OK)
		f->failed = true;
	if (f->conn == NULL)
		store_reader_release(f->store, c);
}

static bool
known(void *ctx, const uint8_t *fact)
{
	struct facts *f = ctx;

	if (!f->loaded)
		load(f);
	return !f->failed && keyset_has(f->set, fact);
}

void
play_facts_attach(struct facts *f, struct game_env *env)
{
	if (f->fact_bytes == 0 || f->step <= 0) {
		env->fact_known = NULL;
		env->facts_ctx = NULL;
		return;
	}
	env->fact_known = known;
	env->facts_ctx = f;
}

bool
play_facts_failed(const struct facts *f)
{
	return f->failed;
}

void
play_facts_cleanup(struct facts *f)
{
	keyset_free(f->set);
	f->set = NULL;
}
