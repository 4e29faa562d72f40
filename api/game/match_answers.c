/*
 * match_answers.c: the match answers every ruleset shares, and the
 * ratings (match_answers.h).
 */
#include "match_answers.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "glicko2.h"
#include "jw.h"

void
match_real_write(struct jw *w, double v)
{
	json_t *x = json_real(v);

	jw_json(w, x); /* NULL (not finite) fails the writer, as it fails a tree */
	json_decref(x);
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
match_ratings_write(struct jw *w, const char *rules, const struct match_rating_row *rows, int n,
    int64_t above, const char *next)
{
	int64_t rank = above;
	int i;

	jw_object(w);
	jw_kstring(w, "rules", rules);
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
