/*
 * puzzle.c: agent-check word problems and answer parsing (contract in
 * puzzle.h).
 *
 * Randomness: the 32-byte seed keys a ChaCha20 keystream (libsodium's
 * crypto_stream_chacha20_ietf_xor_ic, block counter as the position), read
 * 32 bits at a time with rejection sampling, so a puzzle depends on the
 * seed alone and any number of draws is available. The draws are, in
 * order: the operation, the phrasing, x, y (DRAWS below), then the
 * scrambler's.
 *
 * Readability rules the scrambler keeps (puzzle.h says why): letters are
 * only re-cased or repeated once, never dropped or changed; an 'e' in a
 * number word is never repeated and no letter is repeated next to the same
 * letter; symbols come from a small set with no digits, no '-', '+', '*',
 * '=' or '.', and the ones that read as operators ('/', '^') only appear
 * between two letters of one word; spaces and the sentence's own ',' and
 * '?' stay as they are. The output is at most 4 characters per input
 * character, which PUZZLE_TEXT_MAX covers for any PUZZLE_PLAIN_MAX input.
 */
#include "puzzle.h"

#include <stdbool.h>
#include <string.h>

#include <sodium.h>

/* ---- deterministic random numbers from the seed ---- */

struct rng {
	const uint8_t *key;
	uint32_t block;  /* next keystream block */
	uint8_t buf[64];
	size_t pos;      /* bytes of buf used */
};

static uint32_t
rng_u32(struct rng *r)
{
	static const uint8_t zero[64];
	static const uint8_t nonce[crypto_stream_chacha20_ietf_NONCEBYTES];
	uint32_t v;

	if (r->pos + 4 > sizeof r->buf) {
		crypto_stream_chacha20_ietf_xor_ic(r->buf, zero, sizeof r->buf, nonce,
		    r->block++, r->key);
		r->pos = 0;
	}
	v = (uint32_t)r->buf[r->pos] | (uint32_t)r->buf[r->pos + 1] << 8 |
	    (uint32_t)r->buf[r->pos + 2] << 16 | (uint32_t)r->buf[r->pos + 3] << 24;
	r->pos += 4;
	return v;
}

/* Uniform in [0, n), n >= 1: rejection keeps it unbiased. */
static uint32_t
rng_below(struct rng *r, uint32_t n)
{
	uint32_t limit = UINT32_MAX - UINT32_MAX % n, v;

	do
		v = rng_u32(r);
	while (v >= limit);
	return v % n;
}

static int
rng_range(struct rng *r, int lo, int hi)
{
	return lo + (int)rng_below(r, (uint32_t)(hi - lo + 1));
}

static bool
rng_chance(struct rng *r, uint32_t num, uint32_t den)
{
	return rng_below(r, den) < num;
}

/* ---- numbers in words ---- */

static const char *const SMALL[20] = {
	"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
	"ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
	"seventeen", "eighteen", "nineteen",
};
static const char *const TENS[10] = {
	"", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
};

/* A bounded string builder: on overflow it stops writing and remembers. */
struct sb {
	char *s;
	size_t cap, len;
	bool full;
};

static void
sb_putc(struct sb *b, char c)
{
	if (b->len + 1 >= b->cap) {
		b->full = true;
		return;
	}
	b->s[b->len++] = c;
	b->s[b->len] = '\0';
}

static void
sb_puts(struct sb *b, const char *s)
{
	while (*s != '\0')
		sb_putc(b, *s++);
}

static void
words_below_1000(struct sb *b, uint32_t n)
{
	if (n >= 100) {
		sb_puts(b, SMALL[n / 100]);
		sb_puts(b, " hundred");
		if (n % 100 == 0)
			return;
		sb_puts(b, " and ");
		n %= 100;
	}
	if (n < 20) {
		sb_puts(b, SMALL[n]);
		return;
	}
	sb_puts(b, TENS[n / 10]);
	if (n % 10 != 0) {
		sb_putc(b, ' ');
		sb_puts(b, SMALL[n % 10]);
	}
}

size_t
puzzle_number_words(char *out, size_t cap, uint32_t n)
{
	struct sb b = { out, cap, 0, false };

	if (out == NULL || cap == 0 || n >= 1000000)
		return 0;
	out[0] = '\0';
	if (n >= 1000) {
		words_below_1000(&b, n / 1000);
		sb_puts(&b, " thousand");
		n %= 1000;
		if (n == 0)
			goto done;
		sb_puts(&b, n < 100 ? " and " : " ");
	}
	words_below_1000(&b, n);
done:
	if (b.full) {
		out[0] = '\0';
		return 0;
	}
	return b.len;
}

/* ---- stories ---- */

/* At least four per operation; "{a}" and "{b}" are the operands. No
 * template word contains a number word (tests check this), so the two
 * operands are the only numbers in the text. */
static const char *const ADD[] = {
	"A lobster has {a} claws and finds {b} more, how many claws does it have now?",
	"A crab collects {a} shells in the morning and {b} shells in the evening, how many shells does it have in total?",
	"There are {a} fish in the reef and {b} more fish swim in, how many fish are in the reef now?",
	"A robot walks {a} metres and then {b} metres more, how many metres does it walk in all?",
	"A squid swims past {a} starfish and then past {b} more starfish, how many starfish did it pass?",
};
static const char *const SUB[] = {
	"A lobster has {a} pearls and gives away {b}, how many pearls does it have left?",
	"There are {a} crabs on a rock and {b} crabs crawl away, how many crabs are still on the rock?",
	"A robot carries {a} bolts and drops {b} of them, how many bolts does it still carry?",
	"An octopus owns {a} shiny shells and loses {b} in a storm, how many shells does it have left?",
};
static const char *const MUL[] = {
	"A lobster walks {a} metres every minute, how many metres does it walk in {b} minutes?",
	"There are {a} rows of coral with {b} fish in each row, how many fish are there in all?",
	"A robot fills {a} boxes with {b} bolts in each box, how many bolts does it use?",
	"Each of {a} crabs carries {b} pebbles, how many pebbles do the crabs carry altogether?",
};
static const char *const DIV[] = {
	"A lobster shares {a} pearls equally among {b} friends, how many pearls does each friend get?",
	"{a} crabs stand in {b} equal rows, how many crabs are in each row?",
	"A robot packs {a} bolts into boxes that hold {b} bolts each, how many boxes does it fill?",
	"A shrimp swims {a} metres in {b} minutes at a steady speed, how many metres does it swim each minute?",
};

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const char *const *
templates(enum puzzle_op op, int *n)
{
	switch (op) {
	case PUZZLE_ADD: *n = COUNT(ADD); return ADD;
	case PUZZLE_SUB: *n = COUNT(SUB); return SUB;
	case PUZZLE_MUL: *n = COUNT(MUL); return MUL;
	case PUZZLE_DIV: *n = COUNT(DIV); return DIV;
	}
	*n = 0;
	return NULL;
}

int
puzzle_nphrasings(enum puzzle_op op)
{
	int n;

	templates(op, &n);
	return n;
}

const char *
puzzle_template(enum puzzle_op op, int phrasing)
{
	int n;
	const char *const *t = templates(op, &n);

	if (t == NULL || phrasing < 0 || phrasing >= n)
		return NULL;
	return t[phrasing];
}

/* Expands tmpl into b, marking the characters that spell a number in
 * isnum (indexed like b's text). */
static void
expand(struct sb *b, bool *isnum, const char *tmpl, int a, int bv)
{
	char num[64];

	for (const char *t = tmpl; *t != '\0'; t++) {
		if (t[0] == '{' && (t[1] == 'a' || t[1] == 'b') && t[2] == '}') {
			size_t start = b->len;

			puzzle_number_words(num, sizeof num, (uint32_t)(t[1] == 'a' ? a : bv));
			sb_puts(b, num);
			for (size_t k = start; k < b->len; k++)
				isnum[k] = true;
			t += 2;
		} else {
			sb_putc(b, *t);
		}
	}
	/* A story may open with its first number. */
	if (b->len > 0 && b->s[0] >= 'a' && b->s[0] <= 'z')
		b->s[0] = (char)(b->s[0] - 'a' + 'A');
}

/* ---- scrambling ---- */

static const char EDGE_SYMBOLS[] = "]~[|";
static const char INNER_SYMBOLS[] = "^]~/[|";

static bool
is_letter(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static char
lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

static char
random_case(struct rng *r, char c)
{
	c = lower(c);
	return rng_chance(r, 1, 2) ? (char)(c - 'a' + 'A') : c;
}

static char
pick(struct rng *r, const char *set)
{
	return set[rng_below(r, (uint32_t)strlen(set))];
}

static bool
may_double(const char *plain, size_t k, const bool *isnum)
{
	char c = lower(plain[k]);

	if (isnum[k] && c == 'e')
		return false;
	if (k > 0 && lower(plain[k - 1]) == c)
		return false;
	return lower(plain[k + 1]) != c;
}

static void
scramble(struct sb *out, const char *plain, const bool *isnum, struct rng *r)
{
	for (size_t k = 0; plain[k] != '\0'; k++) {
		char c = plain[k];
		bool start, end;

		if (!is_letter(c)) {
			sb_putc(out, c);
			continue;
		}
		start = k == 0 || !is_letter(plain[k - 1]);
		end = !is_letter(plain[k + 1]);
		if (start && rng_chance(r, 1, 7))
			sb_putc(out, pick(r, EDGE_SYMBOLS));
		sb_putc(out, random_case(r, c));
		if (may_double(plain, k, isnum) && rng_chance(r, 1, 9))
			sb_putc(out, random_case(r, c));
		if (!end && rng_chance(r, 1, 10))
			sb_putc(out, pick(r, INNER_SYMBOLS));
		if (end && rng_chance(r, 1, 8))
			sb_putc(out, pick(r, EDGE_SYMBOLS));
	}
}

/*
 * The numbers (puzzle.h: struct puzzle_draw). Wide ranges, so that no
 * answer is likely: sums of two numbers up to 1999 peak at 1/1998, the
 * uniform answers of subtraction and division are 1/1998 each, and a
 * product of x <= 999 and y <= 49 has at most 22 of its 48902 pairs; over
 * all four operations the most likely answer has probability about
 * 0.00047 (tests/trust/test_puzzle_odds.c computes it exactly). Subtraction
 * and division draw the answer and the second operand and build the first
 * from them, which keeps their answers uniform; drawing the first operand
 * and a smaller second one would pile probability on small differences.
 */
static const struct puzzle_draw DRAWS[PUZZLE_NOPS] = {
	[PUZZLE_ADD] = { 1, 2, 1999, 2, 1999 },
	[PUZZLE_SUB] = { 1, 2, 1999, 2, 999 },
	[PUZZLE_MUL] = { 1, 2, 999, 2, 49 },
	[PUZZLE_DIV] = { 1, 2, 1999, 2, 49 },
};

const struct puzzle_draw *
puzzle_draw_of(enum puzzle_op op)
{
	if ((int)op < 0 || (int)op >= PUZZLE_NOPS)
		return NULL;
	return &DRAWS[op];
}

static enum puzzle_op
draw_op(struct rng *r)
{
	uint32_t total = 0, v;
	int op;

	for (op = 0; op < PUZZLE_NOPS; op++)
		total += DRAWS[op].weight;
	v = rng_below(r, total);
	for (op = 0; op < PUZZLE_NOPS - 1 && v >= DRAWS[op].weight; op++)
		v -= DRAWS[op].weight;
	return (enum puzzle_op)op;
}

void
puzzle_make(struct puzzle *p, const uint8_t seed[PUZZLE_SEED_BYTES])
{
	struct rng r = { seed, 0, { 0 }, 64 };
	bool isnum[PUZZLE_PLAIN_MAX] = { false };
	struct sb plain = { p->plain, sizeof p->plain, 0, false };
	struct sb text = { p->text, sizeof p->text, 0, false };
	const struct puzzle_draw *d;
	int x, y, n;

	p->op = draw_op(&r);
	templates(p->op, &n);
	p->phrasing = (int)rng_below(&r, (uint32_t)n);
	d = &DRAWS[p->op];
	x = rng_range(&r, d->x_lo, d->x_hi);
	y = rng_range(&r, d->y_lo, d->y_hi);
	p->b = y;
	switch (p->op) {
	case PUZZLE_ADD:
		p->a = x;
		p->answer = (int64_t)x + y;
		break;
	case PUZZLE_SUB:
		p->a = x + y;
		p->answer = x;
		break;
	case PUZZLE_MUL:
		p->a = x;
		p->answer = (int64_t)x * y;
		break;
	case PUZZLE_DIV:
	default:
		p->a = x * y;
		p->answer = x;
		break;
	}
	p->plain[0] = '\0';
	p->text[0] = '\0';
	expand(&plain, isnum, puzzle_template(p->op, p->phrasing), p->a, p->b);
	scramble(&text, p->plain, isnum, &r);
	sodium_memzero(&r, sizeof r);
}

/* ---- answers ---- */

static bool
is_blank(char c)
{
	return c == ' ' || c == '\t';
}

enum puzzle_answer
puzzle_answer_text(const char *s, size_t len, int64_t *value)
{
	size_t k = 0, end = len, digits = 0;
	bool neg = false, frac = false, big = false;
	int64_t v = 0;

	if (s == NULL)
		return PUZZLE_ANSWER_NAN;
	while (k < end && is_blank(s[k]))
		k++;
	while (end > k && is_blank(s[end - 1]))
		end--;
	if (k < end && (s[k] == '+' || s[k] == '-'))
		neg = s[k++] == '-';
	for (; k < end && s[k] >= '0' && s[k] <= '9'; k++, digits++) {
		/* Stop accumulating once past the limit; keep checking syntax. */
		if (!big)
			v = v * 10 + (s[k] - '0');
		if (v > PUZZLE_ANSWER_MAX)
			big = true;
	}
	if (digits == 0)
		return PUZZLE_ANSWER_NAN;
	if (k < end && s[k] == '.') {
		for (k++; k < end && s[k] >= '0' && s[k] <= '9'; k++)
			if (s[k] != '0')
				frac = true;
	}
	if (k != end)
		return PUZZLE_ANSWER_NAN;
	if (big)
		return PUZZLE_ANSWER_RANGE;
	if (frac)
		return PUZZLE_ANSWER_FRACTION;
	if (value != NULL)
		*value = neg ? -v : v;
	return PUZZLE_ANSWER_WHOLE;
}

enum puzzle_answer
puzzle_answer_json(const json_t *v, int64_t *value)
{
	if (v == NULL)
		return PUZZLE_ANSWER_NAN;
	if (json_is_integer(v)) {
		json_int_t n = json_integer_value(v);

		if (n > PUZZLE_ANSWER_MAX || n < -PUZZLE_ANSWER_MAX)
			return PUZZLE_ANSWER_RANGE;
		if (value != NULL)
			*value = (int64_t)n;
		return PUZZLE_ANSWER_WHOLE;
	}
	if (json_is_real(v)) {
		double d = json_real_value(v);

		/* The negated form also catches NaN. */
		if (!(d >= -PUZZLE_ANSWER_MAX && d <= PUZZLE_ANSWER_MAX))
			return PUZZLE_ANSWER_RANGE;
		if ((double)(int64_t)d != d)
			return PUZZLE_ANSWER_FRACTION;
		if (value != NULL)
			*value = (int64_t)d;
		return PUZZLE_ANSWER_WHOLE;
	}
	if (json_is_string(v))
		return puzzle_answer_text(json_string_value(v), json_string_length(v), value);
	return PUZZLE_ANSWER_NAN;
}
