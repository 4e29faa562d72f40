/*
 * run_result.c: a finished run's certificate claims and final summary
 * (run_result.h). The replay is rebuilt from the stored moves exactly as
 * GET .../runs/{runId} shows it, so that the hash a certificate signs is
 * the hash of the replay anyone can download.
 */
#include "run_result.h"

#include <stdio.h>

#include "certificate.h"
#include "replay.h"

char *
run_result_certificate(const struct keyring *kr, const struct run_result *r, json_t *actions,
    int64_t now)
{
	const struct game *g = r->game;
	json_t *replay, *claims = g->claims(r->state);
	char hash[CERTIFICATE_HASH_TEXT], id[GAME_ID_TEXT_MAX], *cert = NULL;

	replay = replay_new(g, r->seed, actions, g->final(r->state),
	    game_ext(g)->replay_options ? game_ext(g)->replay_options(r->state) : NULL);
	if (replay == NULL || claims == NULL || certificate_json_hash(replay, hash) != 0)
		goto done;
	snprintf(id, sizeof id, "%lld", (long long)r->id);
	json_object_set_new(claims, "run", json_string(id));
	json_object_set_new(claims, "game", json_string(g->name));
	json_object_set_new(claims, "rules", json_string(g->rules));
	json_object_set_new(claims, "seed", json_integer(r->seed));
	json_object_set_new(claims, "account", r->account[0] ? json_string(r->account) : json_null());
	json_object_set_new(claims, "moves", json_integer(r->moves));
	json_object_set_new(claims, "replay", json_string(hash));
	cert = certificate_sign(kr, claims, now);
done:
	json_decref(replay);
	json_decref(claims);
	return cert;
}

json_t *
run_result_final(const struct run_result *r)
{
	json_t *final = r->game->final(r->state), *claims = r->game->claims(r->state);

	if (final != NULL && claims != NULL) {
		json_object_update_missing(final, claims);
		json_object_set_new(final, "seed", json_integer((json_int_t)r->seed));
		json_object_set_new(final, "moves", json_integer((json_int_t)r->moves));
	}
	json_decref(claims);
	return final;
}

bool
run_finish_write(struct jw *w, const struct game *g, const char *run_id, const json_t *final,
    int rating, const char *review, const char *certificate, const void *st, const json_t *check)
{
	if (final == NULL || review == NULL || certificate == NULL)
		return false;
	jw_object(w);
	jw_kstring(w, "game", g->name);
	jw_kstring(w, "runId", run_id);
	jw_key(w, "final");
	jw_json(w, final);
	jw_key(w, "review");
	jw_object(w);
	jw_kint(w, "rating", rating);
	jw_kstring(w, "text", review);
	jw_object_end(w);
	jw_kstring(w, "certificate", certificate);
	jw_kstring(w, "verifyWith", "/api/v1/keys");
	if (st != NULL && !g->answer_write(w, st, NULL))
		w->failed = true;
	if (check != NULL) {
		jw_key(w, "agent_check");
		jw_json(w, check);
	}
	jw_object_end(w);
	return !w->failed;
}
