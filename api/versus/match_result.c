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

