/*
 * fuzz_games.c: a libFuzzer target over what the games read from outside:
 * Stackfall command text (parsed and run as a batch on a fresh game),
 * action objects of both games, replays, stateTokens, and the engines'
 * serialised states; HATETRIS command text and actions (run as a batch on a
 * state read from the input when it is one, else on a fresh run). Built where the compiler links -fsanitize=fuzzer
 * (clang); run by hand, e.g.
 *     build-clang/tests/fuzz/fuzz_games -max_total_time=120
 * The first input byte picks the reader.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <sodium.h>

#include "duskcourt_json.h"
#include "hatetris_json.h"
#include "keys.h"
#include "replay.h"
#include "replay_walk.h"
#include "stackfall_json.h"
#include "token.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct duskcourt_solver solver;
static struct keyring ring;

static void
setup(void)
{
	static int done;
	uint8_t pepper[32] = { 1 }, master[1][32] = { { 2 } };

	if (done)
		return;
	if (sodium_init() < 0)
		abort();
	duskcourt_solver_init(&solver);
	keyring_init(&ring, pepper, (const uint8_t (*)[32])master, 1);
	done = 1;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct tetromino_batch batch;
	struct stackfall_cmd cmds[STACKFALL_CMD_MAX];
	struct stackfall g;
	struct duskcourt_state s;
	struct state_token t;
	char reason[ENGINE_REASON_MAX];
	json_t *v;
	size_t n = 0;

	setup();
	if (size == 0)
		return 0;
	switch (data[0] % 7) {
	case 0: /* Stackfall text commands, run on a fresh game */
		stackfall_init(&g, 42);
		if (stackfall_cmd_parse((const char *)data + 1, size - 1, cmds, STACKFALL_CMD_MAX, &n) ==
		    STACKFALL_PARSE_OK)
			stackfall_batch_run(&g, cmds, n, &batch);
		break;
	case 1: /* a JSON action of either game */
		v = json_loadb((const char *)data + 1, size - 1, 0, NULL);
		if (v != NULL) {
			struct duskcourt_action a;

			stackfall_init(&g, 7);
			stackfall_action_from_json(v, &cmds[0]);
			stackfall_batch_run(&g, cmds, 1, &batch);
			if (duskcourt_init(&s, 7, &solver, reason, sizeof reason) &&
			    duskcourt_action_from_json(v, &a, reason, sizeof reason))
				duskcourt_apply(&s, &a, &solver, reason, sizeof reason);
			json_decref(v);
		}
		break;
	case 2: /* a replay */
		v = json_loadb((const char *)data + 1, size - 1, 0, NULL);
		if (v != NULL) {
			struct game_env env = { .work = &solver };
			struct replay_check chk;

			replay_verify(v, NULL, &env, &chk);
			json_decref(chk.final);
			json_decref(v);
		}
		break;
	case 3: /* a stateToken */
		token_open(&ring, data[0] & 8 ? GAME_STACKFALL : GAME_DUSKCOURT, (const char *)data + 1,
		    size - 1, 1795000000, 604800, &t);
		break;
	case 4: /* a serialised Stackfall state, then a game on it */
		if (stackfall_decode(&g, data + 1, size - 1)) {
			struct tetromino_option opts[STACKFALL_OPTIONS_MAX];
			size_t count;

			stackfall_options(&g, opts, STACKFALL_OPTIONS_MAX, &count, NULL);
			json_decref(stackfall_fields_json(&g));
		}
		break;
	case 6: /* HATETRIS: a state of the first bytes (when it reads), then command text or an action */
		{
			static struct hatetris_batch hb;
			struct hatetris h;
			size_t k = size > 2 ? 1 + data[1] % (size - 1) : size;

			if (!hatetris_decode(&h, data + 1, k - 1))
				hatetris_init(&h, 1 + (data[0] & 8 ? 1 : 0), 0, NULL, NULL);
			if (data[0] & 16) {
				v = json_loadb((const char *)data + k, size - k, 0, NULL);
				if (v != NULL) {
					hatetris_action_from_json(v, &cmds[0]);
					hatetris_batch_run(&h, cmds, 1, NULL, NULL, &hb);
					json_decref(v);
				}
			} else if (stackfall_cmd_parse((const char *)data + k, size - k, cmds, STACKFALL_CMD_MAX,
			    &n) == STACKFALL_PARSE_OK) {
				hatetris_batch_run(&h, cmds, n, NULL, NULL, &hb);
				json_decref(tetromino_results_json(&hb.batch, (const char *)data + k));
			}
			json_decref(hatetris_fields_json(&h));
		}
		break;
	default: /* a serialised Duskcourt state, then its legal actions */
		if (duskcourt_deserialise(&s, data + 1, size - 1, NULL, 0)) {
			json_decref(duskcourt_state_json(&s));
			json_decref(duskcourt_legal_json(&s));
		}
		break;
	}
	return 0;
}
