/*
 * ab_scripts.c: writes match scripts for ab_trace (one JSON line each),
 * played by the random and greedy bots of ab_bot.h, so that the engine's
 * traces can be checked (check_trace.py) and handed to an independent
 * model as its inputs.
 *
 * Usage: ab_scripts MATCHES SEED [TURNS]. Matches alternate between no
 * items and items (chance 5..64, random weights); 2 to 8 seats; a script
 * ends when its match does, or after TURNS turns (300 by default). Now and
 * then a turn carries a refused command (a bad letter, or a key after the
 * lock), which the trace must report without playing the turn. On stderr:
 * how much the scripts exercise (clears, spins, attacks, items, ends).
 */
#include <stdlib.h>

#include "ab_bot.h"

static void
put_json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			putchar('\\');
		putchar(*s);
	}
	putchar('"');
}

int
main(int argc, char **argv)
{
	unsigned matches = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 10;
	uint64_t rng = argc > 2 ? strtoull(argv[2], NULL, 10) : 1, seed;
	unsigned turns_max = argc > 3 ? (unsigned)strtoul(argv[3], NULL, 10) : 300;
	unsigned k, i, t, nplayers, chance, w;
	uint8_t weights[AB_ITEM_KINDS];
	bool first;
	struct ab_match m;
	struct ab_events ev;
	struct ab_move moves[AB_PLAYERS_MAX];
	char text[AB_PLAYERS_MAX][300], reason[ENGINE_REASON_MAX];
	unsigned long lines = 0, spins = 0, minis = 0, attacks = 0, b2bs = 0, perfect = 0,
	    used = 0, collected = 0, ends[8] = { 0 }, refused = 0, turns = 0;

	if (rng == 0)
		rng = 1;
	for (k = 0; k < matches; k++) {
		seed = xorshift_next(&rng) & AB_SEED_MAX;
		nplayers = 2 + xorshift_below(&rng, 7);
		chance = k % 2 == 0 ? 0 : 5 + xorshift_below(&rng, 60);
		for (w = 0; w < AB_ITEM_KINDS; w++)
			weights[w] = (uint8_t)xorshift_below(&rng, 4);
		if (weights[0] + weights[1] + weights[2] + weights[3] + weights[4] + weights[5] == 0)
			weights[5] = 1;
		ab_init(&m, seed, nplayers, AB_CLOCK_TURNS, chance, weights);
		printf("{\"seed\":%llu,\"players\":%u,\"chance\":%u,\"weights\":[%u,%u,%u,%u,%u,%u],"
		    "\"turns\":[", (unsigned long long)seed, nplayers, chance, weights[0], weights[1],
		    weights[2], weights[3], weights[4], weights[5]);
		first = true;
		for (t = 0; t < turns_max && !m.over; t++) {
			memset(moves, 0, sizeof moves);
			for (i = 0; i < nplayers; i++) {
				if (!m.players[i].alive)
					continue;
				ab_bot_move(&m, i, &rng, text[i], sizeof text[i]);
				if (strcmp(text[i], "missed") == 0)
					moves[i].kind = AB_MOVE_MISSED;
				else
					ab_move_parse(text[i], strlen(text[i]), &moves[i], reason, sizeof reason);
			}
			/* A refused turn now and then: written, not played. */
			if (xorshift_below(&rng, 40) == 0) {
				unsigned bad = xorshift_below(&rng, nplayers);

				while (!m.players[bad].alive)
					bad = (bad + 1) % nplayers;
				printf("%s[", first ? "" : ",");
				first = false;
				for (i = 0; i < nplayers; i++) {
					printf("%s", i > 0 ? "," : "");
					if (!m.players[i].alive)
						printf("null");
					else if (i == bad)
						put_json_string(xorshift_below(&rng, 2) ? "keys LQD" : "keys DD");
					else
						put_json_string(text[i]);
				}
				printf("]");
				refused++;
			}
			printf("%s[", first ? "" : ",");
			first = false;
			for (i = 0; i < nplayers; i++) {
				printf("%s", i > 0 ? "," : "");
				if (m.players[i].alive)
					put_json_string(text[i]);
				else
					printf("null");
			}
			printf("]");
			ab_resolve(&m, moves, &ev, NULL, NULL, 0);
			turns++;
			for (i = 0; i < nplayers; i++) {
				const struct ab_seat_events *e = &ev.seats[i];

				lines += e->lock.lines;
				spins += e->locked && e->lock.spin == AB_SPIN_FULL;
				minis += e->locked && e->lock.spin == AB_SPIN_MINI;
				attacks += e->lock.attack > 0;
				b2bs += e->lock.b2b;
				perfect += e->lock.perfect;
				used += e->used != AB_ITEM_NONE;
				collected += e->lock.collected;
				if (e->eliminated)
					ends[e->end & 7]++;
			}
		}
		printf("]}\n");
	}
	fprintf(stderr, "ab_scripts: %u matches, %lu turns: %lu lines, %lu full spins, %lu minis, "
	    "%lu attacks, %lu back-to-back, %lu perfect, %lu items collected, %lu used, %lu refused "
	    "turns; ends lock_out %lu block_out %lu overflow %lu missed %lu resigned %lu\n",
	    matches, turns, lines, spins, minis, attacks, b2bs, perfect, collected, used, refused,
	    ends[AB_END_LOCK_OUT], ends[AB_END_BLOCK_OUT], ends[AB_END_OVERFLOW],
	    ends[AB_END_MISSED], ends[AB_END_RESIGNED]);
	return 0;
}
