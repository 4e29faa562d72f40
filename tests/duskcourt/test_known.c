/*
 * test_known.c: known answers. Each line of the data file is a run: a
 * seed, the actions in order, and what the run must end as: score, rung,
 * lives, phase, how many of the actions were refused, and FNV-1a 64 of the
 * final serialised state. Any change in dealing, scoring, refusals or the
 * format shows up here.
 *
 * Line format (# starts a comment):
 *   SEED ACTIONS score=S rung=R lives=L phase=P refused=N hash=HEX
 * ACTIONS is comma-separated: cF-T (capture from F to T), r (reset),
 * n (next), e (endRun).
 *
 * usage: test_known FILE            check every case
 *        test_known --generate SEED STEPS [strong]   play a seeded policy (strong:
 *            the solver's way only, next at every break), print a line
 * The first three lines of the file were worked out by hand from the scoring
 * rules of docs/rules/duskcourt.md; the rest were generated and then frozen.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "duskcourt.h"
#include "tap.h"

static struct duskcourt_solver sv;

static uint64_t
fnv(const uint8_t *p, size_t n)
{
	uint64_t h = UINT64_C(14695981039346656037);

	while (n-- > 0)
		h = (h ^ *p++) * UINT64_C(1099511628211);
	return h;
}

static const char *
phase_name(int p)
{
	return p == DUSKCOURT_PLAYING ? "playing" : p == DUSKCOURT_BREAK ? "break" : "done";
}

static uint64_t
state_hash(const struct duskcourt_state *s)
{
	uint8_t b[DUSKCOURT_SERIAL_SIZE];

	duskcourt_serialise(s, b);
	return fnv(b, sizeof b);
}

/* Parses one action token; false if it is not one. */
static bool
parse_action(const char *tok, struct duskcourt_action *a)
{
	char *end;

	a->from = a->to = 0;
	if (strcmp(tok, "r") == 0)
		a->type = DUSKCOURT_ACT_RESET;
	else if (strcmp(tok, "n") == 0)
		a->type = DUSKCOURT_ACT_NEXT;
	else if (strcmp(tok, "e") == 0)
		a->type = DUSKCOURT_ACT_END_RUN;
	else if (tok[0] == 'c') {
		a->type = DUSKCOURT_ACT_CAPTURE;
		a->from = strtoll(tok + 1, &end, 10);
		if (*end != '-')
			return false;
		a->to = strtoll(end + 1, &end, 10);
		if (*end != '\0')
			return false;
	} else
		return false;
	return true;
}

static uint64_t rng;

static unsigned
roll(unsigned n)
{
	rng = rng * 6364136223846793005u + 1442695040888963407u;
	return (unsigned)((rng >> 33) % n);
}

/* Plays a seeded policy (mostly the solver's way, some random and some
 * illegal captures, resets, endRun now and then) and prints a data line. */
static int
generate(uint64_t seed, int steps, bool strong)
{
	struct duskcourt_state s;
	struct duskcourt_action legal[DUSKCOURT_LEGAL_MAX], a;
	struct duskcourt_capture path[DUSKCOURT_PATH_MAX];
	int i, refused = 0;
	bool first = true;

	rng = seed ^ 0x5bd1e995u;
	if (!duskcourt_init(&s, seed, &sv, NULL, 0))
		return 1;
	printf("%llu ", (unsigned long long)seed);
	for (i = 0; i < steps && s.phase != DUSKCOURT_DONE; i++) {
		size_t n = duskcourt_legal(&s, legal, DUSKCOURT_LEGAL_MAX), np = 0;
		unsigned pick = roll(20);

		if (strong)
			pick = 5; /* the solver's way, and next at every break */

		a = legal[roll((unsigned)n)];
		if (s.phase == DUSKCOURT_BREAK) {
			a.type = pick == 0 ? DUSKCOURT_ACT_END_RUN : DUSKCOURT_ACT_NEXT;
		} else if (pick == 0) {
			a.type = DUSKCOURT_ACT_CAPTURE; /* anything: often refused */
			a.from = roll(36);
			a.to = roll(36);
		} else if (pick == 1) {
			a.type = DUSKCOURT_ACT_RESET; /* refused unless allowed */
		} else if (pick < 15) {
			struct duskcourt_court c;

			memset(&c, 0, sizeof c);
			c.size = s.size;
			c.king_survives = s.king_survives;
			memcpy(c.cells, s.board, 36);
			if (duskcourt_solve(&sv, &c, 0, path, &np) == DUSKCOURT_CLEARABLE && np > 0) {
				a.type = DUSKCOURT_ACT_CAPTURE;
				a.from = path[0].from;
				a.to = path[0].to;
			}
		}
		if (!duskcourt_apply(&s, &a, &sv, NULL, 0))
			refused++;
		if (!first)
			putchar(',');
		first = false;
		if (a.type == DUSKCOURT_ACT_CAPTURE)
			printf("c%lld-%lld", (long long)a.from, (long long)a.to);
		else
			putchar(a.type == DUSKCOURT_ACT_RESET ? 'r' : a.type == DUSKCOURT_ACT_NEXT ? 'n' : 'e');
	}
	printf(" score=%llu rung=%u lives=%u phase=%s refused=%d hash=%016llx\n",
	    (unsigned long long)s.score, (unsigned)s.rung, (unsigned)s.lives, phase_name(s.phase),
	    refused, (unsigned long long)state_hash(&s));
	return 0;
}

static void
check_line(char *line, int lineno)
{
	char *seed_s = strtok(line, " \t\n"), *actions = strtok(NULL, " \t\n"), *tok, *next;
	char *want[6];
	char got[6][40];
	static const char *const keys[6] = { "score=", "rung=", "lives=", "phase=", "refused=", "hash=" };
	struct duskcourt_state s;
	struct duskcourt_action a;
	unsigned long long seed;
	int i, refused = 0, bad_tokens = 0;
	bool same = true;

	for (i = 0; i < 6; i++) {
		want[i] = strtok(NULL, " \t\n");
		if (want[i] == NULL || strncmp(want[i], keys[i], strlen(keys[i])) != 0) {
			ok(0, "line %d is well formed", lineno);
			return;
		}
		want[i] += strlen(keys[i]);
	}
	if (seed_s == NULL || actions == NULL) {
		ok(0, "line %d is well formed", lineno);
		return;
	}
	errno = 0;
	seed = strtoull(seed_s, NULL, 10);
	if (!ok(errno == 0 && duskcourt_init(&s, seed, &sv, NULL, 0), "line %d: init(%llu)", lineno,
	    seed))
		return;
	for (tok = actions; tok != NULL; tok = next) {
		next = strchr(tok, ',');
		if (next != NULL)
			*next++ = '\0';
		if (!parse_action(tok, &a)) {
			bad_tokens++;
			continue;
		}
		if (!duskcourt_apply(&s, &a, &sv, NULL, 0))
			refused++;
	}
	snprintf(got[0], sizeof got[0], "%llu", (unsigned long long)s.score);
	snprintf(got[1], sizeof got[1], "%u", (unsigned)s.rung);
	snprintf(got[2], sizeof got[2], "%u", (unsigned)s.lives);
	snprintf(got[3], sizeof got[3], "%s", phase_name(s.phase));
	snprintf(got[4], sizeof got[4], "%d", refused);
	snprintf(got[5], sizeof got[5], "%016llx", (unsigned long long)state_hash(&s));
	for (i = 0; i < 6; i++)
		if (strcmp(got[i], want[i]) != 0) {
			diag("line %d: %s%s, expected %s", lineno, keys[i], got[i], want[i]);
			same = false;
		}
	ok(bad_tokens == 0 && same, "line %d: seed %llu ends at score %s, rung %s, lives %s, %s, "
	    "%s refused, hash %s", lineno, seed, want[0], want[1], want[2], want[3], want[4], want[5]);
}

int
main(int argc, char **argv)
{
	FILE *f;
	char line[16384];
	int lineno = 0, cases = 0;

	duskcourt_solver_init(&sv);
	if ((argc == 4 || argc == 5) && strcmp(argv[1], "--generate") == 0)
		return generate(strtoull(argv[2], NULL, 10), atoi(argv[3]),
		    argc == 5 && strcmp(argv[4], "strong") == 0);
	if (argc != 2) {
		fprintf(stderr, "usage: test_known FILE | --generate SEED STEPS [strong]\n");
		return 2;
	}
	f = fopen(argv[1], "r");
	if (!ok(f != NULL, "open %s", argv[1]))
		return tap_done();
	while (fgets(line, sizeof line, f) != NULL) {
		lineno++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		check_line(line, lineno);
		cases++;
	}
	fclose(f);
	ok(cases >= 10, "%d cases in the file", cases);
	return tap_done();
}
