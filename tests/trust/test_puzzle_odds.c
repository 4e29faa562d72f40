/*
 * test_puzzle_odds.c: what a blind guesser wins against the agent check.
 *
 * Enumerates the generator's whole parameter space from the table it draws
 * from (puzzle_draw_of: each operation's weight and its two uniform ranges)
 * and computes the probability of every answer exactly, in integers: with
 * W the sum of the weights, N_op the number of (x, y) pairs of an operation
 * and L the least common multiple of the N_op, an answer v has probability
 *   P(v) = sum over op of (w_op / W) * count_op(v) / N_op
 *        = [sum over op of w_op * (L / N_op) * count_op(v)] / (W * L),
 * so every comparison is between 64-bit integers (overflow is checked, and
 * a table too wide for that fails the test rather than rounding). The
 * claim: the most likely answer, over all operations together, has
 * probability below 1/1000, and so does the most likely answer of each
 * operation on its own (a guesser who recognises the story's wording but
 * not its numbers).
 *
 * The same walk checks every (x, y) pair against the text limits: both
 * operands within puzzle_number_words' range, the answer within 1 ..
 * PUZZLE_ANSWER_MAX, and the longest story of the operation with those two
 * numbers in words fits PUZZLE_PLAIN_MAX.
 *
 * For the record: the generator before the ranges were widened (sums of
 * 2..99, differences of a in 20..100 and b below a, products of 3..40 by
 * 2..15, quotients 2..25 by divisors 2..12) gave "24" a probability of
 * about 0.0177, computed the same way with Python's fractions.
 */
#include <sodium.h>
#include <stdbool.h>
#include <stdlib.h>

#include "puzzle.h"
#include "tap.h"

#define WORDS_MAX 999999

static const char *const NAMES[PUZZLE_NOPS] = { "addition", "subtraction", "multiplication", "division" };

static uint64_t
gcd(uint64_t a, uint64_t b)
{
	while (b != 0) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* *out = a * b; false on overflow. */
static bool
mul(uint64_t a, uint64_t b, uint64_t *out)
{
	if (a != 0 && b > UINT64_MAX / a)
		return false;
	*out = a * b;
	return true;
}

static int64_t
answer_of(enum puzzle_op op, int64_t x, int64_t y, int64_t *a)
{
	switch (op) {
	case PUZZLE_ADD: *a = x; return x + y;
	case PUZZLE_SUB: *a = x + y; return x;
	case PUZZLE_MUL: *a = x; return x * y;
	case PUZZLE_DIV: *a = x * y; return x;
	}
	*a = -1;
	return -1;
}

/* Length of the longest template of op once "{a}" and "{b}" are gone. */
static size_t
longest_template(enum puzzle_op op)
{
	size_t most = 0;

	for (int ph = 0; ph < puzzle_nphrasings(op); ph++) {
		size_t n = strlen(puzzle_template(op, ph)) - 6;

		most = n > most ? n : most;
	}
	return most;
}

int
main(void)
{
	const struct puzzle_draw *d[PUZZLE_NOPS];
	uint64_t pairs[PUZZLE_NOPS], share[PUZZLE_NOPS], lcm = 1, wsum = 0, denom = 0, total = 0;
	uint64_t *num = NULL, best = 0, lhs, room, g;
	uint8_t *wlen = NULL;
	int64_t max_answer = 0, best_v = -1;
	int sane = 1, exact = 1, fits = 1, nbest = 0;
	size_t longest_plain = 0;

	if (sodium_init() < 0) {
		printf("Bail out! sodium_init failed\n");
		return 1;
	}
	for (int op = 0; op < PUZZLE_NOPS; op++) {
		int64_t hi, a_hi;

		d[op] = puzzle_draw_of((enum puzzle_op)op);
		if (d[op] == NULL || d[op]->weight < 1 || d[op]->x_lo < 2 || d[op]->y_lo < 2 ||
		    d[op]->x_lo > d[op]->x_hi || d[op]->y_lo > d[op]->y_hi || d[op]->x_hi > WORDS_MAX ||
		    d[op]->y_hi > WORDS_MAX) {
			sane = 0;
			continue;
		}
		pairs[op] = (uint64_t)(d[op]->x_hi - d[op]->x_lo + 1) * (uint64_t)(d[op]->y_hi - d[op]->y_lo + 1);
		wsum += d[op]->weight;
		if (!mul(lcm / gcd(lcm, pairs[op]), pairs[op], &lcm))
			exact = 0;
		/* Every answer grows with x and y: the largest is at the top corner. */
		hi = answer_of((enum puzzle_op)op, d[op]->x_hi, d[op]->y_hi, &a_hi);
		max_answer = hi > max_answer ? hi : max_answer;
	}
	if (!ok(sane, "every operation has a draw: weight >= 1, ranges from 2 within 0..999999") ||
	    !ok(exact && mul(wsum, lcm, &denom) && mul(denom, 1000, &room) &&
	            max_answer <= PUZZLE_ANSWER_MAX,
	        "the common denominator W * L = %llu * %llu fits 64 bits with room for * 1000",
	        (unsigned long long)wsum, (unsigned long long)lcm))
		goto done;
	num = calloc((size_t)max_answer + 1, sizeof *num);
	wlen = calloc(WORDS_MAX + 1, 1);
	if (num == NULL || wlen == NULL) {
		printf("Bail out! out of memory\n");
		goto done;
	}
	for (uint32_t n = 0; n <= WORDS_MAX; n++) {
		char buf[128];

		wlen[n] = (uint8_t)puzzle_number_words(buf, sizeof buf, n);
	}

	for (int op = 0; op < PUZZLE_NOPS; op++) {
		size_t tmpl = longest_template((enum puzzle_op)op);
		uint64_t *count = calloc((size_t)max_answer + 1, sizeof *count), most = 0;
		int64_t most_v = -1;

		if (count == NULL) {
			printf("Bail out! out of memory\n");
			goto done;
		}
		/* Each pair of op weighs w_op * (L / N_op) over W * L; the
		 * sums stay below W * L, which fits. */
		share[op] = d[op]->weight * (lcm / pairs[op]);
		for (int64_t x = d[op]->x_lo; x <= d[op]->x_hi; x++) {
			for (int64_t y = d[op]->y_lo; y <= d[op]->y_hi; y++) {
				int64_t a, v = answer_of((enum puzzle_op)op, x, y, &a);
				size_t len;

				if (v < 1 || v > max_answer || a < 0 || a > WORDS_MAX) {
					fits = 0;
					continue;
				}
				len = tmpl + wlen[a] + wlen[y];
				longest_plain = len > longest_plain ? len : longest_plain;
				if (wlen[a] == 0 || wlen[y] == 0 || len + 1 > PUZZLE_PLAIN_MAX)
					fits = 0;
				count[v]++;
				num[v] += share[op];
				total += share[op];
			}
		}
		for (int64_t v = 1; v <= max_answer; v++) {
			if (count[v] > most) {
				most = count[v];
				most_v = v;
			}
		}
		g = gcd(most, pairs[op]);
		ok(mul(most, 1000, &lhs) && lhs < pairs[op],
		    "%s alone: most likely answer %lld has probability %llu/%llu = %.6f < 0.001",
		    NAMES[op], (long long)most_v, (unsigned long long)(most / g), (unsigned long long)(pairs[op] / g),
		    (double)most / (double)pairs[op]);
		free(count);
	}
	ok(fits, "every pair: operands 0..999999 in words, answer 1..%d, story fits %d bytes "
	    "(longest %zu)", PUZZLE_ANSWER_MAX, PUZZLE_PLAIN_MAX, longest_plain);
	is_int(total, denom, "the probabilities of all answers add up to 1 (W * L = %llu)",
	    (unsigned long long)denom);

	for (int64_t v = 1; v <= max_answer; v++) {
		if (num[v] > best) {
			best = num[v];
			best_v = v;
			nbest = 1;
		} else if (num[v] == best && best > 0) {
			nbest++;
		}
	}
	g = gcd(best, denom);
	diag("most likely answer over the whole generator: %lld (%d answer%s at that probability)",
	    (long long)best_v, nbest, nbest == 1 ? "" : "s");
	diag("its probability: %llu/%llu = %.8f", (unsigned long long)(best / g),
	    (unsigned long long)(denom / g), (double)best / (double)denom);
	ok(mul(best, 1000, &lhs) && lhs < denom,
	    "most likely answer %lld: probability %.6f < 0.001 (exact: %llu * 1000 < %llu)",
	    (long long)best_v, (double)best / (double)denom, (unsigned long long)best,
	    (unsigned long long)denom);
done:
	free(num);
	free(wlen);
	return tap_done();
}
