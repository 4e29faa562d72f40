/*
 * match_result.c: a finished match's replay and certificate claims
 * (match_result.h). The certificate hashes the same replay that GET
 * /api/matches/{id}/replay gives, so anyone holding both can check one
 * against the other.
 */
#include "match_result.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

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

#define USE_WAITS "waits for the turn: the turn's events say it when the inventory is empty then"

void
match_move_answer_write(struct jw *w, int64_t id, uint32_t turn, const char *move, bool resolved,
    const struct match_record *r, int viewer, int64_t now_ms, bool full,
    uint32_t use_target, bool use_empty)
{
	char text[24];

	snprintf(text, sizeof text, "%lld", (long long)id);
	jw_object(w);
	jw_kstring(w, "match_id", text);
	jw_kint(w, "turn", turn);
	jw_kstring(w, "move", move);
	jw_kbool(w, "resolved", resolved);
	jw_key(w, "state");
	match_view_mover_write(w, r, viewer, now_ms);
	if (full) {
		jw_key(w, "match");
		match_view_write(w, r, viewer, now_ms);
	}
	if (use_target != 0) {
		jw_key(w, "use");
		jw_object(w);
		jw_kint(w, "target", use_target);
		jw_key(w, "used");
		if (!resolved) {
			jw_null(w);
			jw_kstring(w, "reason", USE_WAITS);
		} else {
			jw_bool(w, !use_empty);
			if (use_empty) {
				jw_kstring(w, "reason", "empty inventory");
			}
		}
		jw_object_end(w);
	}
	jw_object_end(w);
}

/* An id as a decimal string ("42"). */
static void
id_write(struct jw *w, int64_t id)
{
	char text[24];

	snprintf(text, sizeof text, "%lld", (long long)id);
	jw_string(w, text);
}

void
match_replay_answer_write(struct jw *w, int64_t id, const json_t *replay, const char *certificate)
{
	jw_object(w);
	jw_key(w, "match_id");
	id_write(w, id);
	jw_key(w, "replay");
	jw_json(w, replay);
	jw_key(w, "certificate");
	if (certificate != NULL)
		jw_string(w, certificate);
	else
		jw_null(w);
	jw_kstring(w, "verify_with", "/api/v1/keys");
	jw_object_end(w);
}

void
match_verified_write(struct jw *w, size_t nturns, const json_t *final, const char *hash,
    const json_t *claims)
{
	jw_object(w);
	jw_kbool(w, "valid", true);
	jw_kint(w, "turns", (int64_t)nturns);
	jw_key(w, "final");
	jw_json(w, final);
	jw_kstring(w, "replay_hash", hash);
	if (claims != NULL) {
		jw_key(w, "certificate");
		jw_object(w);
		jw_kbool(w, "valid", true);
		jw_key(w, "claims");
		jw_json(w, claims);
		jw_object_end(w);
	}
	jw_object_end(w);
}

void
match_verify_refusal_write(struct jw *w, size_t turn, const char *reason, const json_t *final)
{
	jw_object(w);
	jw_kint(w, "turn", (int64_t)turn);
	jw_kstring(w, "reason", reason);
	if (final != NULL) {
		jw_key(w, "simulated_final");
		jw_json(w, final);
	}
	jw_object_end(w);
}

void
match_ratings_write(struct jw *w, const struct match_rating_row *rows, int n, int64_t above,
    const char *next)
{
	int64_t rank = above;
	int i;

	jw_object(w);
	jw_kstring(w, "rules", VERSUS_RULES);
	jw_key(w, "ratings");
	jw_array(w);
	for (i = 0; i < n; i++) {
		/* A row jansson would not take (a name not UTF-8, a rating not
		 * finite) is left out, as its tree was; the ranks run on. */
		if (!jw_utf8(rows[i].account, strlen(rows[i].account)) || !isfinite(rows[i].rating) ||
		    !isfinite(rows[i].rd) || !isfinite(rows[i].volatility))
			continue;
		jw_object(w);
		jw_kint(w, "rank", ++rank);
		jw_kstring(w, "account", rows[i].account);
		jw_key(w, "rating");
		match_real_write(w, rows[i].rating);
		jw_key(w, "rd");
		match_real_write(w, rows[i].rd);
		jw_key(w, "volatility");
		match_real_write(w, rows[i].volatility);
		jw_kint(w, "matches", rows[i].matches);
		jw_object_end(w);
	}
	jw_array_end(w);
	if (next == NULL) {
		jw_knull(w, "next");
	} else if (jw_utf8(next, strlen(next))) {
		jw_kstring(w, "next", next);
	}
	jw_object_end(w);
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
