/*
 * runs.c: the store job every game request goes through, and the helpers
 * around it. The job reads the head with the writer's own connection, so
 * what it decides and what it writes are one transaction: two requests on
 * the same head can never both advance it.
 */
#include "runs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

#include "certificate.h"
#include "keys.h"
#include "replay.h"

void
runs_fingerprint(uint8_t out[STORE_FP_BYTES], const char *canonical, size_t len)
{
	crypto_generichash(out, STORE_FP_BYTES, (const uint8_t *)canonical, len, NULL, 0);
}

void
runs_id_text(int64_t id, char out[24])
{
	snprintf(out, 24, "%lld", (long long)id);
}

char *
runs_seal(const struct keyring *kr, enum game g, int64_t run, int64_t step, const uint8_t *state,
    size_t nstate)
{
	struct state_token t;

	if (nstate > sizeof t.state)
		return NULL;
	memset(&t, 0, sizeof t);
	t.game = g;
	t.rules = 1;
	t.run = run;
	t.step = step;
	t.issued_at = (int64_t)time(NULL);
	memcpy(t.state, state, nstate);
	t.nstate = nstate;
	return token_seal(kr, &t);
}

char *
runs_certify(const struct run_job *j, struct store_conn *c, const struct store_run_head *head,
    const char *rules, json_t *final, json_t *claims)
{
	json_t *replay = replay_new(rules, head->seed, store_run_actions(c, head->id), final);
	char hash[65], id[24], *cert = NULL;

	if (replay == NULL || claims == NULL || certificate_json_hash(replay, hash) != 0)
		goto done;
	runs_id_text(head->id, id);
	json_object_set_new(claims, "run", json_string(id));
	json_object_set_new(claims, "game", json_string(head->game));
	json_object_set_new(claims, "rules", json_string(rules));
	json_object_set_new(claims, "seed", json_integer(head->seed));
	json_object_set_new(claims, "account", head->account[0] ? json_string(head->account) : json_null());
	json_object_set_new(claims, "moves", json_integer(head->step));
	json_object_set_new(claims, "replay", json_string(hash));
	cert = certificate_sign(j->keys, claims, (int64_t)time(NULL));
done:
	json_decref(replay);
	json_decref(claims);
	return cert;
}

void
runs_job_cleanup(struct run_job *j)
{
	free(j->certificate);
	j->certificate = NULL;
}

static int
finish(struct run_job *j, struct store_conn *c)
{
	struct store_run_finish f;
	int rc;

	if (!j->head.over) {
		j->verdict = RUN_NOT_OVER;
		return 0;
	}
	if (j->head.finished_at != 0) {
		j->verdict = RUN_ALREADY_FINISHED;
		return 0;
	}
	j->certificate = j->certify(j, c, &j->head);
	if (j->certificate == NULL) {
		j->verdict = RUN_ERROR;
		return 0;
	}
	memset(&f, 0, sizeof f);
	f.id = j->head.id;
	f.account_id = j->head.account_id;
	f.game = j->head.game;
	f.rating = j->rating;
	f.review = j->review;
	f.certificate = j->certificate;
	f.now = store_now_ms();
	rc = store_run_finish(c, &f);
	if (rc < 0)
		return -1;
	j->verdict = rc == 0 ? RUN_FINISHED : RUN_ALREADY_FINISHED;
	return 0;
}

int
runs_job(struct store_conn *c, void *arg)
{
	struct run_job *j = arg;
	int64_t id, step;
	int rc;

	j->verdict = RUN_ERROR;
	if (j->check_on) {
		if (agent_check_judge(c, &j->answer, store_now_ms(), &j->check) != 0 ||
		    agent_fresh_store(c, &j->fresh) != 0)
			return -1;
		if (j->check != STORE_CHECK_PASS) {
			j->verdict = RUN_CHECK_FAILED;
			return 0;
		}
	}
	if (j->has_token) {
		if (j->tok_err != TOKEN_OK) {
			j->verdict = RUN_TOKEN_BAD;
			return 0;
		}
		id = j->tok.run;
	} else {
		rc = store_run_latest(c, j->account_id, game_name(j->game), &id);
		if (rc < 0)
			return -1;
		if (rc == 0) {
			j->verdict = RUN_NO_RUN;
			return 0;
		}
	}
	rc = store_run_head(c, id, &j->head);
	if (rc < 0)
		return -1;
	if (rc == 0 || strcmp(j->head.game, game_name(j->game)) != 0) {
		j->verdict = RUN_NOT_FOUND;
		return 0;
	}
	if (!j->has_token) {
		/* The seed routes act on the head itself. */
		j->tok.run = id;
		j->tok.step = j->head.step;
		if (j->kind == RUN_ACTION)
			j->apply(j, &j->head);
	}
	step = j->tok.step;
	if (step != j->head.step) {
		bool retry = j->kind == RUN_ACTION && j->head.last_from_step == step &&
		    j->adv.nmoves > 0 && j->head.step == step + (int64_t)j->adv.nmoves &&
		    sodium_memcmp(j->head.last_request, j->adv.fp, STORE_FP_BYTES) == 0;

		j->verdict = retry ? RUN_RETRY : RUN_STALE;
		return 0;
	}
	switch (j->kind) {
	case RUN_STATE:
		j->verdict = RUN_CURRENT;
		return 0;
	case RUN_FINISH:
		return finish(j, c);
	case RUN_ACTION:
		break;
	}
	if (j->refused) {
		j->verdict = RUN_REFUSED;
		return 0;
	}
	if (j->adv.nmoves == 0) {
		j->verdict = RUN_UNCHANGED;
		return 0;
	}
	j->adv.id = id;
	j->adv.from_step = step;
	j->adv.now = store_now_ms();
	rc = store_run_advance(c, &j->adv);
	if (rc < 0)
		return -1;
	j->verdict = rc == 0 ? RUN_APPLIED : RUN_STALE;
	return 0;
}
