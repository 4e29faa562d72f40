/*
 * game.c: what the descriptor gives every game alike: the init's seed and
 * options read within their bounds, and a game route's answer written
 * around the game's part. The table and its lookups are game_table.c's.
 */
#include "game.h"

#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "jsonbody.h"

/* What game_ext() gives for a game without an ext: nothing optional. It
 * lives here, not beside the table: the table names every game, and a
 * game's adapter reaches game_ext() through this file. */
const struct game_ext game_ext_none;

bool
game_read_int(const struct game_request *rq, const char *name, int64_t lo, int64_t hi,
    bool *present, int64_t *v, char *msg, size_t cap)
{
	const char *q;

	*present = false;
	if (rq->body != NULL && !jsonbody_int(rq->body, name, lo, hi, present, v, msg, cap))
		return false;
	if (*present || rq->query == NULL || (q = rq->query(rq->query_ctx, name)) == NULL)
		return true;
	if (!jsonbody_parse_int(q, lo, hi, v)) {
		snprintf(msg, cap, "query '%s' must be an integer from %lld to %lld", name, (long long)lo,
		    (long long)hi);
		return false;
	}
	*present = true;
	return true;
}

int64_t
game_random_seed(void)
{
	uint64_t r;

	randombytes_buf(&r, sizeof r);
	return (int64_t)(r & (uint64_t)ENGINE_ID_MAX);
}

static bool
seed_named(const struct game_request *rq)
{
	return (rq->body != NULL && json_object_get(rq->body, "seed") != NULL) ||
	    (rq->query != NULL && rq->query(rq->query_ctx, "seed") != NULL);
}

bool
game_read_seed(const struct game *g, const struct game_request *rq, int64_t *seed,
    bool *chosen, char *msg, size_t cap)
{
	*seed = 0;
	*chosen = false;
	if (g->seedless || game_ext(g)->seed_of != NULL) {
		struct game_options opts;

		if (seed_named(rq)) {
			snprintf(msg, cap, g->seedless ? "%s has no seed: leave 'seed' out" :
			    "%s takes no seed (a run's seed comes from its options): leave 'seed' out", g->name);
			return false;
		}
		if (g->seedless)
			return true;
		return game_read_options(g, rq, &opts, msg, cap) && game_ext(g)->seed_of(&opts, seed, msg, cap);
	}
	if (!game_read_int(rq, "seed", 0, ENGINE_ID_MAX, chosen, seed, msg, cap))
		return false;
	if (!*chosen)
		*seed = game_random_seed();
	return true;
}

bool
game_read_options(const struct game *g, const struct game_request *rq,
    struct game_options *out, char *msg, size_t cap)
{
	size_t i;

	for (i = 0; i < g->noptions && i < GAME_OPTIONS_MAX; i++) {
		const struct game_option *o = &g->options[i];
		int64_t hi = o->max, v = o->dflt;
		bool present;

		if ((o->flags & GAME_OPTION_CAP) != 0) {
			if (rq->cap_max != 0 && rq->cap_max < (uint64_t)hi)
				hi = (int64_t)rq->cap_max;
			v = rq->cap_default < (uint64_t)o->max ? (int64_t)rq->cap_default : o->max;
		}
		if (!game_read_int(rq, o->name, o->min, hi, &present, &v, msg, cap))
			return false;
		out->v[i] = v;
	}
	return true;
}

bool
game_init_fields_known(const struct game *g, const struct game_request *rq, bool strict,
    char *msg, size_t cap)
{
	const char *allowed[GAME_OPTIONS_MAX + 2];
	size_t i, n = 0;

	if ((g->seedless || game_ext(g)->seed_of != NULL) && seed_named(rq)) {
		snprintf(msg, cap, g->seedless ? "%s has no seed: leave 'seed' out" :
		    "%s takes no seed (a run's seed comes from its options): leave 'seed' out", g->name);
		return false;
	}
	if (!strict)
		return jsonbody_common_ok(rq->body, msg, cap);
	if (!g->seedless && game_ext(g)->seed_of == NULL)
		allowed[n++] = "seed";
	for (i = 0; i < g->noptions && i < GAME_OPTIONS_MAX; i++)
		allowed[n++] = g->options[i].name;
	allowed[n] = NULL;
	return jsonbody_known(rq->body, allowed, msg, cap);
}

bool
game_answer_fields(struct jw *w, const struct game *g, const char *run_id, const char *token,
    const void *st, const void *scratch)
{
	jw_kstring(w, "runId", run_id);
	jw_kstring(w, "stateToken", token);
	if (!g->answer_write(w, st, scratch))
		w->failed = true;
	return !w->failed;
}

bool
game_answer_write(struct jw *w, const struct game *g, const char *run_id, const char *token,
    const void *st, const void *scratch, const char *extra_key, const json_t *extra)
{
	jw_object(w);
	jw_kstring(w, "game", g->name);
	game_answer_fields(w, g, run_id, token, st, scratch);
	if (extra_key != NULL && extra != NULL) {
		jw_key(w, extra_key);
		jw_json(w, extra);
	}
	jw_object_end(w);
	return !w->failed;
}
