/*
 * fuzz_versus.c: a libFuzzer target over what a versus match reads from
 * outside or from its row: match replays (JSON text, as POST
 * /api/matches/replays/verify and `arcaded verify` take them), move text
 * (as POST .../move takes it, then judged on a match part-way through),
 * and state bytes for versus_decode (anything it accepts must encode back
 * to the same bytes, and a turn of missed moves must resolve on it). Built
 * where the compiler links -fsanitize=fuzzer (clang); run by hand, e.g.
 *     build-clang/tests/fuzz/fuzz_versus -max_total_time=120
 * The first input byte picks the reader.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "match.h"
#include "versus_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct versus_match m;
	struct match_replay_check chk;
	struct versus_move mv[VERSUS_PLAYERS_MAX];
	char reason[ENGINE_REASON_MAX];
	uint8_t again[VERSUS_SERIAL_MAX];
	unsigned i;
	json_t *v;
	size_t len;

	if (size == 0)
		return 0;
	switch (data[0] % 3) {
	case 0: /* a match replay */
		v = json_loadb((const char *)data + 1, size - 1, JSON_DECODE_ANY, NULL);
		if (v != NULL) {
			match_verify(&match_versus, v, &chk);
			json_decref(chk.final);
		}
		json_decref(v);
		break;
	case 1: /* a move, on a match of three 5 turns in */
		versus_init(&m, 7, 3);
		for (i = 0; i < VERSUS_PLAYERS_MAX; i++)
			mv[i] = (struct versus_move){ VERSUS_MOVE_MISSED, false, 0, 0, 0 };
		for (i = 0; i < 2; i++)
			versus_resolve(&m, mv, NULL, NULL, NULL, 0);
		if (versus_move_parse((const char *)data + 1, size - 1, &mv[0], reason, sizeof reason) ==
		    VERSUS_PARSE_OK && versus_check_move(&m, 0, &mv[0], reason, sizeof reason) &&
		    versus_resolve(&m, mv, NULL, NULL, reason, sizeof reason) != VERSUS_OK)
			abort(); /* a move the check takes, the turn takes */
		break;
	default: /* state bytes */
		if (!versus_decode(&m, data + 1, size - 1))
			break;
		len = versus_encode(&m, again, sizeof again);
		if (len != size - 1 || memcmp(again, data + 1, len) != 0)
			abort();
		if (!m.over) {
			for (i = 0; i < VERSUS_PLAYERS_MAX; i++)
				mv[i] = (struct versus_move){ VERSUS_MOVE_MISSED, false, 0, 0, 0 };
			if (versus_resolve(&m, mv, NULL, NULL, reason, sizeof reason) != VERSUS_OK)
				abort();
		}
		break;
	}
	return 0;
}
