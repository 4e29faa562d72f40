/*
 * fuzz_hclassic.c: a libFuzzer target over what hatetris-classic reads from
 * outside: replay strings and key strings. Built where the compiler links
 * -fsanitize=fuzzer (clang); run by hand, e.g.
 *     build-clang/tests/fuzz/fuzz_hclassic -max_total_time=120
 * The first input byte picks the reader:
 *   0  the input as a replay string of unknown encoding, then each encoding
 *      on its own; what decodes is encoded again in its encoding and must
 *      decode back to the same keys (with at most one padding key added);
 *   1  the input as keys on a fresh run (the second byte picks the supplier),
 *      played in chunks; invalid characters must be refused with the run
 *      unchanged, counters must add up, and every option's path, played on
 *      a copy, must lock as listed;
 *   2  the input as a replay decoded and then played, as a verifier would.
 * Any crash, sanitizer report or abort() is a finding.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hatetris_classic.h"
#include "hatetris_classic_replay.h"
#include "memo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct memo m;
static struct hclassic_search search;
static struct hclassic_lock locks[HCLASSIC_LOCKS_MAX];

static void
roundtrip(unsigned enc, const char *keys, size_t n)
{
	size_t len = 0, n2 = 0;
	char *text, *back;

	if (!hclassic_replay_encode(enc, keys, n, NULL, 0, &len))
		abort();
	text = malloc(len + 1);
	back = malloc(n + 2);
	if (!text || !back)
		abort();
	hclassic_replay_encode(enc, keys, n, text, len + 1, &len);
	if (hclassic_replay_decode_as(enc, text, len, back, n + 2, &n2) != HCLASSIC_REPLAY_OK)
		abort();
	if (n2 < n || n2 > n + 1 || memcmp(back, keys, n) != 0)
		abort();
	free(text);
	free(back);
}

static void
play(const char *keys, size_t n, unsigned supplier)
{
	struct hclassic_memory mem = memo_iface(&m);
	struct hclassic g, before;
	struct hclassic_report rep;
	size_t at = 0;

	memo_clear(&m);
	if (hclassic_start(&g, supplier % HCLASSIC_NSUPPLIERS, &mem, NULL) != HCLASSIC_OK)
		abort();
	while (at < n && !g.over) {
		size_t chunk = 1 + (unsigned char)keys[at] % 37, i;
		bool valid = true;

		if (chunk > n - at)
			chunk = n - at;
		for (i = 0; i < chunk; i++)
			if (!memchr("LRDU", keys[at + i], 4) || keys[at + i] == '\0')
				valid = false;
		before = g;
		if (hclassic_keys(&g, keys + at, chunk, &mem, &rep) != HCLASSIC_OK) {
			if (valid || memcmp(&g, &before, sizeof g) != 0)
				abort();
		} else if (!valid || rep.applied + rep.ignored != chunk ||
		    g.keys != before.keys + rep.applied) {
			abort();
		}
		at += chunk;
	}
	if (!g.over) {
		size_t nl = hclassic_options(&g, &search, locks, HCLASSIC_LOCKS_MAX), i;
		char path[HCLASSIC_PATH_MAX + 1];

		if (nl == 0 || nl > HCLASSIC_LOCKS_MAX)
			abort();
		for (i = 0; i < nl && i < 8; i++) {
			struct hclassic h = g;
			size_t len = hclassic_lock_path(&search, &locks[i], path, sizeof path);

			if (len != locks[i].nkeys)
				abort();
			hclassic_keys(&h, path, len, NULL, &rep);
			if (rep.locks != 1 || rep.applied != len)
				abort();
		}
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool ready;
	const char *s = (const char *)data + 1;
	size_t n = size ? size - 1 : 0, nkeys = 0;
	char *keys;
	unsigned enc;

	if (!ready) {
		memo_init(&m);
		ready = true;
	}
	if (size == 0)
		return 0;
	switch (data[0] % 3) {
	case 0:
		if (hclassic_replay_decode(s, n, NULL, 0, &nkeys, &enc) == HCLASSIC_REPLAY_OK) {
			keys = malloc(nkeys + 1);
			if (!keys)
				abort();
			hclassic_replay_decode(s, n, keys, nkeys, &nkeys, NULL);
			roundtrip(enc, keys, nkeys);
			free(keys);
		}
		for (enc = 0; enc < HCLASSIC_NENCODINGS; enc++)
			hclassic_replay_decode_as(enc, s, n, NULL, 0, &nkeys);
		break;
	case 1:
		if (n > 0)
			play(s + 1, n - 1, (unsigned char)s[0]);
		break;
	default:
		if (hclassic_replay_decode(s, n, NULL, 0, &nkeys, NULL) == HCLASSIC_REPLAY_OK &&
		    nkeys < 100000) {
			keys = malloc(nkeys + 1);
			if (!keys)
				abort();
			hclassic_replay_decode(s, n, keys, nkeys, &nkeys, NULL);
			play(keys, nkeys, HCLASSIC_CURRENT);
			free(keys);
		}
		break;
	}
	return 0;
}
