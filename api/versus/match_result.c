/*
 * match_result.c: a finished match's replay and certificate claims
 * (match_result.h). The certificate hashes the same replay that GET
 * /api/matches/{id}/replay gives, so anyone holding both can check one
 * against the other.
 */
#include "match_result.h"

#include <stdio.h>

#include "certificate.h"
#include "glicko2.h"
#include "jw.h"

json_t *
match_result_replay(const struct match_record *r, json_t *turns)
{
	json_t *replay;

	if (r->m == NULL || r->totals == NULL) {
		json_decref(turns);
		return NULL;
	}
	replay = match_replay_new((uint64_t)r->seed, (unsigned)r->players, (uint32_t)r->turn_cap,
	    turns, match_final_json(r->m, match_end_of(r->m, (uint32_t)r->turn_cap), r->totals));
	/* The state's item settings (none for a match without items). */
	if (replay != NULL && match_replay_set_items(replay, r->m) != 0) {
		json_decref(replay);
		return NULL;
	}
	return replay;
}

static json_t *
id_json(int64_t id)
{
	char text[24];

	snprintf(text, sizeof text, "%lld", (long long)id);
	return json_string(text);
}

char *
match_result_certificate(const struct keyring *kr, const struct match_record *r, json_t *turns,
    int64_t now)
{
	uint8_t places[VERSUS_PLAYERS_MAX];
	char hash[CERTIFICATE_HASH_TEXT], *cert = NULL;
	json_t *replay = match_result_replay(r, turns), *claims = NULL;
	json_t *names = json_array(), *pl = json_array(), *scores = json_array();
	enum match_end end;
	int i;

	if (replay == NULL || certificate_json_hash(replay, hash) != 0)
		goto done;
	end = match_end_of(r->m, (uint32_t)r->turn_cap);
	match_places(r->m, end, places);
	for (i = 0; i < r->players && i < VERSUS_PLAYERS_MAX; i++) {
		json_array_append_new(names, json_string(i < r->nseats ? r->seats[i].account : ""));
		json_array_append_new(pl, json_integer(places[i]));
		json_array_append_new(scores, json_integer((json_int_t)r->m->players[i].score));
	}
	claims = json_pack("{s:o, s:s, s:I, s:O, s:O, s:O, s:I, s:s, s:b, s:s}", "match", id_json(r->id),
	    "rules", r->rules, "seed", (json_int_t)r->seed, "players", names, "places", pl,
	    "scores", scores, "turns", (json_int_t)r->m->turn, "end", match_end_name(end),
	    "rated", r->rated, "replay", hash);
	if (claims != NULL)
		cert = certificate_sign(kr, claims, now);
done:
	json_decref(names);
	json_decref(pl);
	json_decref(scores);
	json_decref(claims);
	json_decref(replay);
	return cert;
}

json_t *
match_move_answer_json(int64_t id, uint32_t turn, const char *move, bool resolved, json_t *state,
    json_t *match)
{
	json_t *o = json_pack("{s:o, s:I, s:s, s:b, s:o}", "match_id", json_sprintf("%lld", (long long)id),
	    "turn", (json_int_t)turn, "move", move, "resolved", resolved, "state", state);

	if (o == NULL) {
		json_decref(match);
		return NULL;
	}
	if (match != NULL && json_object_set_new_nocheck(o, "match", match) != 0) {
		json_decref(o);
		return NULL;
	}
	return o;
}

#define USE_WAITS "waits for the turn: the turn's events say it when the inventory is empty then"

json_t *
match_move_use_json(uint32_t use_target, bool resolved, bool empty)
{
	json_t *use;

	if (use_target == 0)
		return NULL;
	use = json_pack("{s:I}", "target", (json_int_t)use_target);
	if (use != NULL && !resolved) {
		json_object_set_new_nocheck(use, "used", json_null());
		json_object_set_new_nocheck(use, "reason", json_string(USE_WAITS));
	} else if (use != NULL) {
		json_object_set_new_nocheck(use, "used", json_boolean(!empty));
		if (empty)
			json_object_set_new_nocheck(use, "reason", json_string("empty inventory"));
	}
	return use;
}

void
match_move_answer_write(struct jw *w, int64_t id, uint32_t turn, const char *move, bool resolved,
    const struct match_record *r, int viewer, int64_t now_ms, bool full,
    uint32_t use_target, bool use_empty)
{
	char text[24];

	snprintf(text, sizeof text, "%lld", (long long)id);
	jw_object(w);
	jw_key(w, "match_id");
	jw_string(w, text);
	jw_key(w, "turn");
	jw_int(w, turn);
	jw_key(w, "move");
	jw_string(w, move);
	jw_key(w, "resolved");
	jw_bool(w, resolved);
	jw_key(w, "state");
	match_view_mover_write(w, r, viewer, now_ms);
	if (full) {
		jw_key(w, "match");
		match_view_write(w, r, viewer, now_ms);
	}
	if (use_target != 0) {
		jw_key(w, "use");
		jw_object(w);
		jw_key(w, "target");
		jw_int(w, use_target);
		jw_key(w, "used");
		if (!resolved) {
			jw_null(w);
			jw_key(w, "reason");
			jw_string(w, USE_WAITS);
		} else {
			jw_bool(w, !use_empty);
			if (use_empty) {
				jw_key(w, "reason");
				jw_string(w, "empty inventory");
			}
		}
		jw_object_end(w);
	}
	jw_object_end(w);
}

json_t *
match_replay_answer_json(int64_t id, json_t *replay, const char *certificate)
{
	return json_pack("{s:o, s:o, s:o, s:s}", "match_id", json_sprintf("%lld", (long long)id),
	    "replay", replay, "certificate", certificate != NULL ? json_string(certificate) : json_null(),
	    "verify_with", "/api/v1/keys");
}

json_t *
match_verified_json(size_t nturns, json_t *final, const char *hash, json_t *claims)
{
	json_t *o = json_pack("{s:b, s:I, s:O, s:s}", "valid", 1, "turns", (json_int_t)nturns,
	    "final", final, "replay_hash", hash);

	if (o != NULL && claims != NULL)
		json_object_set_new(o, "certificate", json_pack("{s:b, s:O}", "valid", 1, "claims", claims));
	return o;
}

json_t *
match_verify_refusal_json(size_t turn, const char *reason, json_t *final)
{
	json_t *o = json_pack("{s:I, s:s}", "turn", (json_int_t)turn, "reason", reason);

	if (o != NULL && final != NULL)
		json_object_set(o, "simulated_final", final);
	return o;
}

json_t *
match_ratings_json(const struct match_rating_row *rows, int n)
{
	json_t *list = json_array();
	int i;

	for (i = 0; i < n; i++)
		json_array_append_new(list, json_pack("{s:i, s:s, s:f, s:f, s:f, s:I}", "rank", i + 1,
		    "account", rows[i].account, "rating", rows[i].rating, "rd", rows[i].rd,
		    "volatility", rows[i].volatility, "matches", (json_int_t)rows[i].matches));
	return json_pack("{s:s, s:o}", "rules", VERSUS_RULES, "ratings", list);
}

struct match_rating
match_rating_new(void)
{
	return (struct match_rating){ GLICKO2_RATING_DEFAULT, GLICKO2_RD_DEFAULT, GLICKO2_VOLATILITY_DEFAULT };
}

bool
match_ratings_after(const struct match_rating *before, const uint8_t *places, size_t n,
    struct match_rating *after)
{
	struct glicko2_rating b[GLICKO2_MATCH_MAX] = { { 0 } }, a[GLICKO2_MATCH_MAX];
	size_t i;

	if (n > GLICKO2_MATCH_MAX)
		return false;
	for (i = 0; i < n; i++)
		b[i] = (struct glicko2_rating){ before[i].rating, before[i].rd, before[i].volatility };
	if (!glicko2_match(b, places, n, GLICKO2_TAU_DEFAULT, a))
		return false;
	for (i = 0; i < n; i++)
		after[i] = (struct match_rating){ a[i].rating, a[i].rd, a[i].volatility };
	return true;
}
