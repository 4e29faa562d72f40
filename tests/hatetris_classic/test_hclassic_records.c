/*
 * test_hclassic_records.c: the published HATETRIS records replay to their
 * published line counts (tests/hatetris_classic/data/records.json, from the
 * original's test suite; see NOTICE there).
 *
 * For each case: the string decodes in the encoding the file names, to the
 * number of keys given; the keys replay, under the supplier version given on
 * the command line (default current), to the published lines, and to the
 * derived keys played, pieces, end and piece sequence. The same keys played
 * in one call and one key per call give the same run. Re-encoding the keys
 * in the case's encoding gives back the published string (the run-length
 * forms' padding L may be the last decoded key, so with or without it).
 * The naive model (naive.h) replays the same keys to the same run.
 *
 * Usage: test_hclassic_records RECORDS.JSON [SUPPLIER...]
 */
#include <jansson.h>
#include <stdlib.h>

#include "hatetris_classic.h"
#include "hatetris_classic_replay.h"
#include "memo.h"
#include "naive.h"
#include "tap.h"

static size_t
rtrim(const char *s, size_t n)
{
	while (n > 0 && s[n - 1] == ' ')
		n--;
	return n;
}

static void
check_case(json_t *c, unsigned supplier, struct memo *m, bool full)
{
	const char *name = json_string_value(json_object_get(c, "name"));
	const char *enc = json_string_value(json_object_get(c, "encoding"));
	const char *replay = json_string_value(json_object_get(c, "replay"));
	const char *want_seq = json_string_value(json_object_get(c, "piece_sequence"));
	long long want_lines = json_integer_value(json_object_get(c, "lines"));
	long long want_keys = json_integer_value(json_object_get(c, "keys"));
	long long want_played = json_integer_value(json_object_get(c, "keys_played"));
	long long want_pieces = json_integer_value(json_object_get(c, "pieces"));
	int want_over = json_is_true(json_object_get(c, "game_over"));
	struct hclassic_memory mem = memo_iface(m);
	struct hclassic g, h;
	struct hclassic_report rep;
	char label[160], *keys, *seq, *text;
	size_t nkeys = 0, n2, i, nseq = 0, tlen, want_len;
	unsigned got_enc = 99;
	enum hclassic_replay_status st;

	if (!ok(name && enc && replay && want_seq, "case has its fields")) {
		return;
	}
	snprintf(label, sizeof label, "%s (%s, %s)", name, enc, hclassic_supplier_name(supplier));
	st = hclassic_replay_decode(replay, strlen(replay), NULL, 0, &nkeys, &got_enc);
	is_int(st, HCLASSIC_REPLAY_OK, "%s: decodes", label);
	is_str(hclassic_encoding_name(got_enc), enc, "%s: recognised encoding", label);
	is_int((long long)nkeys, want_keys, "%s: key count", label);
	keys = malloc(nkeys + 1);
	seq = malloc(nkeys + 2);
	if (!keys || !seq)
		abort();
	hclassic_replay_decode(replay, strlen(replay), keys, nkeys, &n2, NULL);

	/* One key per call, noting each piece as it is supplied. */
	memo_clear(m);
	is_int(hclassic_start(&g, supplier, &mem, NULL), HCLASSIC_OK, "%s: starts", label);
	seq[nseq++] = hclassic_piece_name(g.piece)[0];
	for (i = 0; i < nkeys && !g.over; i++) {
		uint32_t before = g.pieces;

		if (hclassic_keys(&g, keys + i, 1, &mem, &rep) != HCLASSIC_OK)
			break;
		if (g.pieces != before)
			seq[nseq++] = hclassic_piece_name(g.piece)[0];
	}
	seq[nseq] = '\0';
	is_int(g.lines, want_lines, "%s: published line count", label);
	is_int(g.keys, want_played, "%s: keys played", label);
	is_int(g.pieces, want_pieces, "%s: pieces", label);
	is_int(g.over, want_over, "%s: game over", label);
	is_str(seq, want_seq, "%s: piece sequence", label);

	if (full) {
		/* All keys in one call. */
		memo_clear(m);
		hclassic_start(&h, supplier, &mem, NULL);
		hclassic_keys(&h, keys, nkeys, &mem, &rep);
		ok(memcmp(&g, &h, sizeof g) == 0, "%s: one call plays the same run", label);
		is_int((long long)rep.applied, want_played, "%s: one call applied", label);
		is_int((long long)rep.ignored, want_keys - want_played, "%s: one call ignored",
		    label);

		/* Encoding the keys again gives the published string. */
		want_len = rtrim(replay, strlen(replay));
		hclassic_replay_encode(got_enc, keys, nkeys, NULL, 0, &tlen);
		text = malloc(tlen + 1);
		if (!text)
			abort();
		hclassic_replay_encode(got_enc, keys, nkeys, text, tlen + 1, &tlen);
		if (!(rtrim(text, tlen) == want_len && memcmp(text, replay, want_len) == 0) &&
		    nkeys > 0 && keys[nkeys - 1] == 'L') {
			hclassic_replay_encode(got_enc, keys, nkeys - 1, text, tlen + 1, &tlen);
		}
		ok(rtrim(text, tlen) == want_len && memcmp(text, replay, want_len) == 0,
		    "%s: re-encodes to the published string", label);
		free(text);

		/* The naive model, key by key, to the same well, lines and end. */
		{
			struct nv_run n;
			uint16_t rows[NV_H];
			char nseqs[512];
			size_t nn = 0;

			nv_start(&n, (int)supplier, NULL, 0);
			nseqs[nn++] = hclassic_piece_name((unsigned)n.piece)[0];
			for (i = 0; i < nkeys && !n.over; i++) {
				long before = n.pieces;

				nv_key(&n, keys[i]);
				if (n.pieces != before && nn + 1 < sizeof nseqs)
					nseqs[nn++] = hclassic_piece_name((unsigned)n.piece)[0];
			}
			nseqs[nn] = '\0';
			nv_rows(&n.well, rows);
			ok(memcmp(rows, g.well, sizeof rows) == 0 && n.lines == (long)g.lines &&
			    n.keys == (long)g.keys && n.over == (bool)g.over,
			    "%s: the naive model ends in the same well, lines, keys and end", label);
			is_str(nseqs, seq, "%s: the naive model's piece sequence", label);
			nv_mem_free(&n.mem);
		}
	}
	free(keys);
	free(seq);
}

int
main(int argc, char **argv)
{
	json_error_t err;
	json_t *root, *cases, *c;
	struct memo m;
	size_t i;
	int a;

	if (argc < 2) {
		fprintf(stderr, "usage: %s RECORDS.JSON [SUPPLIER...]\n", argv[0]);
		return 2;
	}
	root = json_load_file(argv[1], 0, &err);
	if (!ok(root != NULL, "read %s", argv[1])) {
		diag("%s", err.text);
		return tap_done();
	}
	cases = json_object_get(root, "cases");
	ok(json_array_size(cases) == 18, "18 cases (six records, three encodings each)");
	memo_init(&m);
	for (a = argc > 2 ? 2 : 1; a < argc || a == 1; a++) {
		int sup = argc > 2 ? hclassic_supplier_parse(argv[a]) : HCLASSIC_CURRENT;

		if (!ok(sup >= 0, "supplier %s", argc > 2 ? argv[a] : "current"))
			continue;
		json_array_foreach(cases, i, c)
			check_case(c, (unsigned)sup, &m, a <= 2);
		if (a == 1)
			break;
	}
	memo_cleanup(&m);
	json_decref(root);
	return tap_done();
}
