/*
 * fuzz_stackcraft.c: a libFuzzer target over what Stackcraft reads from
 * outside: replays (JSON text, imported by re-simulation), actions (a JSON
 * value, then an id on a game part-way through), raw id text, and state
 * bytes for stackcraft_decode (anything it accepts must encode back to the
 * same bytes). Built where the compiler links -fsanitize=fuzzer (clang);
 * run by hand, e.g.
 *     build-clang/tests/fuzz/fuzz_stackcraft -max_total_time=120
 * The first input byte picks the reader.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "stackcraft_import.h"
#include "stackcraft_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct stackcraft_replay_check chk;
	struct stackcraft g, before;
	struct stackcraft_report rep;
	char reason[ENGINE_REASON_MAX];
	uint8_t again[STACKCRAFT_SERIAL_MAX];
	unsigned r, x;
	json_t *v;
	size_t len;

	if (size == 0)
		return 0;
	switch (data[0] % 4) {
	case 0: /* a replay */
		v = json_loadb((const char *)data + 1, size - 1, JSON_DECODE_ANY, NULL);
		if (v != NULL && stackcraft_replay_import(v, &chk) == 0) {
			/* what verifies exports to a replay that verifies again */
			json_t *ids = json_deep_copy(json_object_get(v, "actions"));
			json_t *out = stackcraft_replay_export(&chk.game, ids);
			struct stackcraft kept = chk.game;

			if (out == NULL || stackcraft_replay_import(out, &chk) != 0 ||
			    memcmp(&kept, &chk.game, sizeof kept) != 0)
				abort();
			json_decref(out);
		}
		json_decref(v);
		break;
	case 1: /* an action value on a game 10 moves in */
		stackcraft_init(&g, 5, 0);
		for (r = 0; r < 10; r++) {
			struct stackcraft_action a[STACKCRAFT_LEGAL_MAX];

			stackcraft_legal(&g, a, STACKCRAFT_LEGAL_MAX);
			stackcraft_step(&g, a[0].rotation, a[0].x, NULL);
		}
		v = json_loadb((const char *)data + 1, size - 1, JSON_DECODE_ANY, NULL);
		if (v != NULL && stackcraft_action_from_json(v, &r, &x, reason)) {
			before = g;
			if (stackcraft_step(&g, r, x, &rep) != STACKCRAFT_OK &&
			    memcmp(&g, &before, sizeof g) != 0)
				abort(); /* a refusal changed the game */
		}
		json_decref(v);
		break;
	case 2: /* raw id text */
		stackcraft_init(&g, 7, 3);
		memcpy(&before, &g, sizeof g);
		if (stackcraft_step_id(&g, (const char *)data + 1, size - 1, &rep) != STACKCRAFT_OK &&
		    memcmp(&g, &before, sizeof g) != 0)
			abort();
		break;
	default: /* state bytes */
		if (stackcraft_decode(&g, data + 1, size - 1)) {
			len = stackcraft_encode(&g, again, sizeof again);
			if (len != size - 1 || memcmp(again, data + 1, len) != 0)
				abort();
		}
		break;
	}
	return 0;
}
