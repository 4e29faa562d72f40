/*
 * test_pages.c: the reading routes' answers written by api/pages/ with
 * the answer writer: a real as jansson's dump writes it (page_text_real
 * against json_dumps of json_real, on fixed and random values), and a
 * leaderboard, a page of reviews, an account's page, its runs, an
 * account as its owner sees it and the games list, each parsed back
 * with its keys in order and its values.
 */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "account_json.h"
#include "board_json.h"
#include "history_json.h"
#include "page_text.h"
#include "tap.h"
#include "watch_json.h"
#include "xorshift.h"

/* The keys of object o, in order, joined by ','. */
static void
keys_of(const json_t *o, char *out, size_t cap)
{
	const char *k;
	json_t *v;
	size_t n = 0;

	out[0] = '\0';
	json_object_foreach((json_t *)o, k, v) {
		n += (size_t)snprintf(out + n, cap - n, "%s%s", n ? "," : "", k);
		if (n >= cap)
			return;
	}
}

static json_t *
parse(char *text, size_t len, const char *what)
{
	json_t *o = text != NULL ? json_loadb(text, len, 0, NULL) : NULL;

	ok(o != NULL && strlen(text) == len, "%s: written, parses back", what);
	free(text);
	return o;
}

static unsigned long
reals(void)
{
	static const double fixed[] = { 0.0, -0.0, 1.0, -1.0, 1500.0, 25.0 / 3.0, 0.1, 1e21, 1e22,
		1e-5, 1e-7, 1.5e300, -2.5e-300, 5e-324, 1.7976931348623157e308, 123456789012345678.0,
		350.0, 4.0 / 3.0 };
	uint64_t rng = 0x9e3779b97f4a7c15u;
	unsigned long i, apart = 0;

	for (i = 0; i < 100000 + sizeof fixed / sizeof fixed[0]; i++) {
		double v;
		json_t *r;
		char *want;
		const char *got;
		struct jw w;

		if (i < sizeof fixed / sizeof fixed[0])
			v = fixed[i];
		else if (i % 3 == 0) {
			/* An average of ratings, as averageRating is. */
			uint64_t count = 1 + xorshift_below(&rng, 1000);

			v = (double)(count + xorshift_below(&rng, 4 * count + 1)) / (double)count;
		} else {
			uint64_t bits = xorshift_next(&rng);

			memcpy(&v, &bits, sizeof v);
			if (!isfinite(v))
				continue;
		}
		r = json_real(v);
		want = json_dumps(r, JSON_ENCODE_ANY | JSON_COMPACT);
		jw_init(&w, 16, 64);
		page_text_real(&w, v);
		got = jw_text(&w, NULL);
		if (want == NULL || got == NULL || strcmp(want, got) != 0) {
			if (apart++ < 5)
				diag("%.17g: jansson %s, written %s", v, want ? want : "-", got ? got : "-");
		}
		free(want);
		json_decref(r);
		jw_cleanup(&w);
	}
	return apart;
}

int
main(void)
{
	const struct game *sf = game_by_name("stackfall", 9);
	struct board_entry entries[2] = {
		{ .id = 42, .score = 900, .seed = 7, .ended_at = 1764417600000, .keys = { 900, 4, -30 },
		  .figures = { 4, 30, -1, -1 }, .account = "" },
		{ .id = 41, .score = 800, .seed = 7, .ended_at = 0, .keys = { 800, 3, -20 },
		  .figures = { 3, 20, -1, -1 }, .account = "bot_1" },
	};
	struct board_review reviews[1] = {
		{ .id = 9, .run_id = 42, .created_at = 1764417600000, .rating = 5, .account = "bot_1",
		  .text = "tab\there \"quoted\" \xc3\xa9" },
	};
	struct history_run runs[1] = {
		{ .game = sf, .id = 5, .seed = 3, .score = 10, .status = "playing", .over = false,
		  .end_reason = "", .figures = { 1, 2, -1, -1 }, .moves = 2, .created_at = 1000 },
	};
	struct history_best best[1] = { { .id = 6, .seed = 3, .score = 10, .ended_at = 2000,
		.figures = { 1, 2, -1, -1 }, .runs = 2 } };
	struct history_game games[1] = { { .game = sf, .runs = 3, .best = best, .nbest = 1 } };
	struct history_rating rating = { true, 1500.0, 350.0, 0 };
	struct account_key_row keys[2] = { { "k1", 1000, 0, true }, { "k2", 2000, 3000, false } };
	char k[512], *text;
	size_t len;
	json_t *o, *e;

	is_int(reals(), 0, "page_text_real writes every finite real as json_dumps does");

	if (!ok(sf != NULL, "stackfall is on the table"))
		return tap_done();
	text = board_leaderboard_text(sf, true, 7, entries, 2, 10, true, &len);
	if ((o = parse(text, len, "leaderboard")) != NULL) {
		keys_of(o, k, sizeof k);
		is_str(k, "game,seed,entries,next", "leaderboard: its keys in order");
		is_str(json_string_value(json_object_get(o, "next")), "800.3.-20.41.12",
		    "leaderboard: the cursor of the last entry");
		e = json_array_get(json_object_get(o, "entries"), 0);
		keys_of(e, k, sizeof k);
		is_str(k, "rank,runId,account,score,lines,pieces,seed,endedAt", "an entry's keys in order");
		is_int(json_integer_value(json_object_get(e, "rank")), 11, "ranked after the cursor");
		is_str(json_string_value(json_object_get(e, "runId")), "42", "the run id as text");
		ok(json_is_null(json_object_get(e, "account")), "anonymous: account null");
		is_str(json_string_value(json_object_get(e, "endedAt")), "2025-11-29T12:00:00+00:00",
		    "endedAt in ISO 8601");
		ok(json_is_null(json_object_get(json_array_get(json_object_get(o, "entries"), 1),
		    "endedAt")), "no end: endedAt null");
		json_decref(o);
	}
	text = board_leaderboard_text(sf, false, 0, entries, 2, 0, false, &len);
	if ((o = parse(text, len, "leaderboard, not full")) != NULL) {
		ok(json_is_null(json_object_get(o, "seed")) && json_is_null(json_object_get(o, "next")),
		    "leaderboard: seed and next null");
		json_decref(o);
	}

	text = board_reviews_text(sf, 3, 25, reviews, 1, true, &len);
	ok(text != NULL && strstr(text, "\"averageRating\":8.3333333333333339,") != NULL,
	    "reviews: the average written with 17 digits, as jansson writes it");
	if ((o = parse(text, len, "reviews")) != NULL) {
		keys_of(o, k, sizeof k);
		is_str(k, "game,count,averageRating,reviews,next", "reviews: its keys in order");
		is_str(json_string_value(json_object_get(o, "next")), "9", "reviews: next, the review id");
		e = json_array_get(json_object_get(o, "reviews"), 0);
		is_str(json_string_value(json_object_get(e, "text")), reviews[0].text,
		    "a review's text, escaped and read back");
		json_decref(o);
	}
	text = board_reviews_text(sf, 0, 0, NULL, 0, false, &len);
	if ((o = parse(text, len, "no reviews")) != NULL) {
		ok(json_is_null(json_object_get(o, "averageRating")), "no reviews: averageRating null");
		json_decref(o);
	}

	text = history_runs_text("bot_1", sf, runs, 1, true, &len);
	if ((o = parse(text, len, "an account's runs")) != NULL) {
		e = json_array_get(json_object_get(o, "runs"), 0);
		keys_of(e, k, sizeof k);
		is_str(k, "runId,seed,seedChosenByClient,status,over,endReason,score,moves,createdAt,"
		    "endedAt,lines,pieces", "a run's keys in order");
		ok(json_is_null(json_object_get(e, "seed")), "a playing Stackfall run: no seed");
		is_str(json_string_value(json_object_get(o, "next")), "1000.5", "runs: next");
		json_decref(o);
	}
	text = history_account_text("bot_1", 1000, games, 1, &rating, &len);
	ok(text != NULL && strstr(text, "\"rating\":{\"rating\":1500.0,\"rd\":350.0,\"matches\":0}"),
	    "an account's rating written as jansson writes reals");
	if ((o = parse(text, len, "an account's page")) != NULL) {
		e = json_array_get(json_object_get(o, "games"), 0);
		keys_of(json_array_get(json_object_get(e, "bestPerSeed"), 0), k, sizeof k);
		is_str(k, "seed,runId,score,endedAt,runs,lines,pieces", "a best run's keys in order");
		json_decref(o);
	}

	text = account_view_text("bot_1", 1000, keys, 2, &len);
	if ((o = parse(text, len, "an account as its owner sees it")) != NULL) {
		e = json_array_get(json_object_get(o, "keys"), 0);
		keys_of(e, k, sizeof k);
		is_str(k, "id,createdAt,revokedAt,current", "a key's fields in order");
		ok(json_is_null(json_object_get(e, "revokedAt")), "a live key: revokedAt null");
		is_str(json_string_value(json_object_get(json_array_get(json_object_get(o, "keys"), 1),
		    "revokedAt")), "1970-01-01T00:00:03+00:00", "a revoked key: its time");
		json_decref(o);
	}

	text = watch_games_text(&len);
	if ((o = parse(text, len, "the games")) != NULL) {
		is_int(json_array_size(json_object_get(o, "games")), GAME__COUNT, "every game listed");
		json_decref(o);
	}
	return tap_done();
}
