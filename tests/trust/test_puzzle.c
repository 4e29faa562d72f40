/*
 * test_puzzle.c: agent-check puzzles and answer parsing.
 *
 * The sample check reads every generated puzzle the way an agent would
 * (drop symbols, ignore case, read a doubled letter once), with its own
 * table of number words, and must find exactly the two operands in order:
 * so the text stays readable and unambiguous. The answer parser is driven
 * by a table of presented values.
 */
#include <sodium.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdlib.h>

#include "puzzle.h"
#include "tap.h"

static const char *const WORDS[] = {
	"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
	"ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
	"eighteen", "nineteen", "twenty", "thirty", "forty", "fifty", "sixty", "seventy",
	"eighty", "ninety", "hundred", "thousand",
};
static const int VALUES[] = {
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
	20, 30, 40, 50, 60, 70, 80, 90, 100, 1000,
};
#define NWORDS ((int)(sizeof WORDS / sizeof WORDS[0]))

static bool
letter(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static char
low(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* Lower case, letters/spaces/','/'?' only, runs of one letter read once. */
static void
reader_view(char *out, size_t cap, const char *s)
{
	size_t o = 0;

	for (; *s != '\0' && o + 1 < cap; s++) {
		char c = low(*s);

		if (!letter(c) && c != ' ' && c != ',' && c != '?')
			continue;
		if (letter(c) && o > 0 && out[o - 1] == c)
			continue;
		out[o++] = c;
	}
	out[o] = '\0';
}

static int
word_value(const char *w, size_t n)
{
	char a[32], b[32];

	if (n >= sizeof a)
		return -1;
	memcpy(a, w, n);
	a[n] = '\0';
	for (int k = 0; k < NWORDS; k++) {
		reader_view(b, sizeof b, WORDS[k]);
		if (strcmp(a, b) == 0)
			return VALUES[k];
	}
	return -1;
}

/* Numbers read from a reader_view text, in order; returns how many. A
 * number is a run of number words, "and" allowed inside it. */
static int
read_numbers(const char *s, long *nums, int max)
{
	int count = 0;
	long cur = 0, total = 0;
	bool in_num = false;

	while (*s != '\0') {
		const char *w = s;
		size_t n;
		int v;

		if (*s == ' ') {
			s++;
			continue;
		}
		if (letter(*s)) {
			while (letter(*s))
				s++;
			n = (size_t)(s - w);
			v = word_value(w, n);
			if (v >= 0) {
				if (v == 100) {
					cur = (cur ? cur : 1) * 100;
				} else if (v == 1000) {
					total += (cur ? cur : 1) * 1000;
					cur = 0;
				} else {
					cur += v;
				}
				in_num = true;
				continue;
			}
			if (in_num && n == 3 && strncmp(w, "and", 3) == 0)
				continue;
		} else {
			s++;
		}
		if (in_num && count < max)
			nums[count++] = total + cur;
		in_num = false;
		total = cur = 0;
	}
	if (in_num && count < max)
		nums[count++] = total + cur;
	return count;
}

static bool
is_number_word(const char *w, size_t n)
{
	for (int k = 0; k < NWORDS; k++)
		if (strlen(WORDS[k]) == n && strncmp(WORDS[k], w, n) == 0)
			return true;
	return false;
}

/*
 * Aligns the scrambled text against the plain one: after dropping symbols
 * and case, each plain character appears once, or twice when it is a
 * letter that is not an 'e' of a number word and has no identical
 * neighbour. Returns false on any other difference.
 */
static bool
aligned(const char *plain, const char *text)
{
	char t[PUZZLE_TEXT_MAX];
	size_t o = 0, j = 0;

	for (const char *s = text; *s != '\0'; s++)
		if (letter(*s) || *s == ' ' || *s == ',' || *s == '?')
			t[o++] = low(*s);
	t[o] = '\0';
	for (size_t k = 0; plain[k] != '\0'; k++) {
		char c = low(plain[k]);

		if (t[j++] != c)
			return false;
		if (letter(c) && t[j] == c && low(plain[k + 1]) != c) {
			size_t ws = k, we = k;

			while (ws > 0 && letter(plain[ws - 1]))
				ws--;
			while (letter(plain[we]))
				we++;
			if (c == 'e' && is_number_word(plain + ws, we - ws))
				return false;
			if (ws < k && low(plain[k - 1]) == c)
				return false;
			j++;
		}
	}
	return t[j] == '\0';
}

/* Symbols only from the allowed sets; '/' and '^' only between letters. */
static bool
symbols_ok(const char *text)
{
	for (size_t k = 0; text[k] != '\0'; k++) {
		char c = text[k];

		if (letter(c) || c == ' ' || c == ',' || c == '?')
			continue;
		if (strchr("]~[|", c) != NULL)
			continue;
		if ((c == '/' || c == '^') && k > 0 && letter(text[k - 1]) && letter(text[k + 1]))
			continue;
		return false;
	}
	return true;
}

/* s with control characters escaped, for a TAP line (static buffer). */
static const char *
esc(const char *s)
{
	static char buf[256];
	size_t o = 0;

	for (; *s != '\0' && o + 5 < sizeof buf; s++) {
		if (*s == '\n' || *s == '\t') {
			buf[o++] = '\\';
			buf[o++] = *s == '\n' ? 'n' : 't';
		} else {
			buf[o++] = *s;
		}
	}
	buf[o] = '\0';
	return buf;
}

static void
seed_of(uint8_t seed[PUZZLE_SEED_BYTES], uint32_t n)
{
	uint8_t in[4] = { (uint8_t)n, (uint8_t)(n >> 8), (uint8_t)(n >> 16), (uint8_t)(n >> 24) };

	crypto_generichash(seed, PUZZLE_SEED_BYTES, in, sizeof in, NULL, 0);
}

/* Whether p's numbers are what puzzle_draw_of promises: x and y (recovered
 * from a, b and the answer) within their ranges. */
static bool
drawn_within(const struct puzzle *p)
{
	const struct puzzle_draw *d = puzzle_draw_of(p->op);
	int64_t x = p->op == PUZZLE_SUB || p->op == PUZZLE_DIV ? p->answer : p->a, y = p->b;

	if (d == NULL || p->a < 0 || p->a > 999999 || p->b < 0 || p->b > 999999)
		return false;
	return x >= d->x_lo && x <= d->x_hi && y >= d->y_lo && y <= d->y_hi;
}

static void
test_number_words(void)
{
	static const struct { uint32_t n; const char *w; } cases[] = {
		{ 0, "zero" }, { 7, "seven" }, { 13, "thirteen" }, { 20, "twenty" },
		{ 23, "twenty three" }, { 99, "ninety nine" }, { 100, "one hundred" },
		{ 105, "one hundred and five" }, { 110, "one hundred and ten" },
		{ 300, "three hundred" }, { 999, "nine hundred and ninety nine" },
		{ 1000, "one thousand" }, { 1005, "one thousand and five" },
		{ 2040, "two thousand and forty" }, { 1100, "one thousand one hundred" },
		{ 12345, "twelve thousand three hundred and forty five" },
		{ 999999, "nine hundred and ninety nine thousand nine hundred and ninety nine" },
	};
	char buf[128];

	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		size_t n = puzzle_number_words(buf, sizeof buf, cases[k].n);

		is_str(buf, cases[k].w, "%u in words", cases[k].n);
		is_int(n, strlen(cases[k].w), "%u: length", cases[k].n);
	}
	is_int(puzzle_number_words(buf, sizeof buf, 1000000), 0, "1000000 is out of range");
	is_int(puzzle_number_words(buf, 5, 23), 0, "too small a buffer gives 0");
	is_str(buf, "", "and an empty string");
}

static void
test_templates(void)
{
	static const char *const bad[] = {
		"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
		"eleven", "twelve", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty",
		"ninety", "hundred", "thousand", "dozen", "twice", "double", "half", "pair", "score",
		"first", "second", "once", "triple",
	};
	int clean = 1, shaped = 1, count = 0;

	for (int op = 0; op < PUZZLE_NOPS; op++) {
		ok(puzzle_nphrasings((enum puzzle_op)op) >= 4, "operation %d has at least 4 phrasings", op);
		for (int ph = 0; ph < puzzle_nphrasings((enum puzzle_op)op); ph++) {
			const char *t = puzzle_template((enum puzzle_op)op, ph), *pa, *pb;
			char lowt[256];
			size_t n = 0;

			count++;
			pa = strstr(t, "{a}");
			pb = strstr(t, "{b}");
			/* Exactly one of each, a before b, no digits, one '?'. */
			if (pa == NULL || pb == NULL || pa > pb || strstr(pa + 1, "{a}") ||
			    strstr(pb + 1, "{b}") || strpbrk(t, "0123456789") || strchr(t, '?') == NULL)
				shaped = 0;
			for (const char *s = t; *s != '\0' && n + 1 < sizeof lowt; s++) {
				if (s[0] == '{' && s[2] == '}') {
					lowt[n++] = ' ';
					s += 2;
					continue;
				}
				lowt[n++] = low(*s);
			}
			lowt[n] = '\0';
			for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
				if (strstr(lowt, bad[b]) != NULL) {
					diag("template %d/%d contains '%s': %s", op, ph, bad[b], t);
					clean = 0;
				}
			}
		}
	}
	ok(shaped, "every template has one {a} before one {b}, a '?' and no digit");
	ok(clean, "no template word contains a number word or a quantity word");
	ok(count >= 16, "%d templates in all", count);
	ok(puzzle_template(PUZZLE_ADD, 99) == NULL && puzzle_template(PUZZLE_ADD, -1) == NULL,
	    "out-of-range phrasing gives NULL");
}

static void
test_deterministic(void)
{
	uint8_t seed[PUZZLE_SEED_BYTES];
	struct puzzle *p1 = malloc(sizeof *p1), *p2 = malloc(sizeof *p2);
	int same = 1;

	for (uint32_t n = 0; n < 200; n++) {
		seed_of(seed, n);
		puzzle_make(p1, seed);
		puzzle_make(p2, seed);
		same &= strcmp(p1->text, p2->text) == 0 && strcmp(p1->plain, p2->plain) == 0 &&
		    p1->answer == p2->answer;
	}
	ok(same, "200 seeds: the same seed gives the same puzzle");
	seed_of(seed, 1);
	puzzle_make(p1, seed);
	seed[31] ^= 1;
	puzzle_make(p2, seed);
	ok(strcmp(p1->text, p2->text) != 0, "a one-bit change of the seed gives another puzzle");
	/* A pinned puzzle: a change to the generator must be deliberate. */
	memset(seed, 0, sizeof seed);
	puzzle_make(p1, seed);
	diag("seed 0: %s", p1->text);
	diag("plain:  %s = %lld", p1->plain, (long long)p1->answer);
	/* Pinned from the generator when its ranges were widened; 486 * 37
	 * = 17982 by hand. */
	is_str(p1->plain, "A lobster walks four hundred and eighty six metres every minute, how many "
	    "metres does it walk in thirty seven minutes?", "seed of zeros: pinned plain text");
	is_str(p1->text, "A lOBSTeR wwaLkKs| fouR huNDDRE^d aNN[D EiiGGHty ssIx METTr|ess EVveRy~ "
	    "M[IInUTeE, How mAnnY MeTReS DOeS ~it ~WAlkK~ [Inn THiRTy [sEveN MiNUTES?",
	    "seed of zeros: pinned scrambled text");
	is_int(p1->answer, 17982, "seed of zeros: answer");
	free(p1);
	free(p2);
}

static void
test_sample(void)
{
	enum { N = 20000 };
	uint8_t seed[PUZZLE_SEED_BYTES];
	struct puzzle *p = malloc(sizeof *p);
	int seen[PUZZLE_NOPS][16] = { { 0 } };
	int arith = 0, positive = 0, nodigit = 0, fits = 0, readable = 0, symbols = 0;
	int two_numbers = 0, operands_ok = 0, letters_kept = 0, scrambled = 0;
	int64_t max_answer = 0;
	size_t max_text = 0, max_plain = 0;
	int all_phrasings = 1;

	for (uint32_t n = 0; n < N; n++) {
		char rv[PUZZLE_TEXT_MAX], pv[PUZZLE_PLAIN_MAX];
		long nums[8];
		int64_t want;
		int k;

		seed_of(seed, 1000 + n);
		puzzle_make(p, seed);
		if (p->op < 0 || p->op >= PUZZLE_NOPS || p->phrasing < 0 || p->phrasing >= 16)
			continue;
		seen[p->op][p->phrasing]++;
		switch (p->op) {
		case PUZZLE_ADD: want = p->a + p->b; break;
		case PUZZLE_SUB: want = p->a - p->b; break;
		case PUZZLE_MUL: want = (int64_t)p->a * p->b; break;
		default: want = p->b != 0 && p->a % p->b == 0 ? p->a / p->b : -1; break;
		}
		arith += want == p->answer;
		positive += p->answer >= 1;
		operands_ok += drawn_within(p);
		nodigit += strpbrk(p->text, "0123456789") == NULL && strpbrk(p->plain, "0123456789") == NULL;
		fits += strlen(p->text) < PUZZLE_TEXT_MAX - 1 && strlen(p->plain) < PUZZLE_PLAIN_MAX - 1;
		max_text = strlen(p->text) > max_text ? strlen(p->text) : max_text;
		max_plain = strlen(p->plain) > max_plain ? strlen(p->plain) : max_plain;
		max_answer = p->answer > max_answer ? p->answer : max_answer;
		reader_view(rv, sizeof rv, p->text);
		reader_view(pv, sizeof pv, p->plain);
		readable += strcmp(rv, pv) == 0;
		letters_kept += aligned(p->plain, p->text);
		symbols += symbols_ok(p->text);
		scrambled += strcmp(p->text, p->plain) != 0;
		k = read_numbers(rv, nums, 8);
		two_numbers += k == 2 && nums[0] == p->a && nums[1] == p->b;
		if (n < 3)
			diag("example %u: %s  [%s = %lld]", n, p->text, p->plain, (long long)p->answer);
	}
	is_int(arith, N, "%d puzzles: answer = a op b (division exact)", N);
	is_int(positive, N, "answers are whole and >= 1");
	is_int(operands_ok, N, "operands drawn as puzzle_draw_of says");
	ok(max_answer <= 999999, "answers below a million (max %lld)", (long long)max_answer);
	is_int(nodigit, N, "no digit in any text");
	is_int(fits, N, "texts fit their buffers (longest %zu scrambled, %zu plain)", max_text, max_plain);
	is_int(readable, N, "dropping symbols, case and doubled letters gives back the plain text");
	is_int(letters_kept, N, "no letter dropped or changed, no 'e' of a number word doubled");
	is_int(symbols, N, "only allowed symbols, '/' and '^' only inside words");
	is_int(two_numbers, N, "a reader finds exactly the two operands, in order");
	is_int(scrambled, N, "every text is scrambled");
	for (int op = 0; op < PUZZLE_NOPS; op++)
		for (int ph = 0; ph < puzzle_nphrasings((enum puzzle_op)op); ph++)
			if (seen[op][ph] == 0)
				all_phrasings = 0;
	ok(all_phrasings, "every operation and phrasing occurs in the sample");
	free(p);
}

static void
test_answers(void)
{
	static const struct { const char *s; enum puzzle_answer r; int64_t v; } text[] = {
		{ "17", PUZZLE_ANSWER_WHOLE, 17 },
		{ " 17 ", PUZZLE_ANSWER_WHOLE, 17 },
		{ "\t17\t", PUZZLE_ANSWER_WHOLE, 17 },
		{ "17.00", PUZZLE_ANSWER_WHOLE, 17 },
		{ "17.", PUZZLE_ANSWER_WHOLE, 17 },
		{ "017", PUZZLE_ANSWER_WHOLE, 17 },
		{ "+17", PUZZLE_ANSWER_WHOLE, 17 },
		{ "-3", PUZZLE_ANSWER_WHOLE, -3 },
		{ "0", PUZZLE_ANSWER_WHOLE, 0 },
		{ "1000000000", PUZZLE_ANSWER_WHOLE, 1000000000 },
		{ "17.5", PUZZLE_ANSWER_FRACTION, 0 },
		{ "17.000001", PUZZLE_ANSWER_FRACTION, 0 },
		{ "1000000001", PUZZLE_ANSWER_RANGE, 0 },
		{ "99999999999999999999999999999999", PUZZLE_ANSWER_RANGE, 0 },
		{ "-99999999999999999999", PUZZLE_ANSWER_RANGE, 0 },
		{ "abc", PUZZLE_ANSWER_NAN, 0 },
		{ "", PUZZLE_ANSWER_NAN, 0 },
		{ "   ", PUZZLE_ANSWER_NAN, 0 },
		{ "1e400", PUZZLE_ANSWER_NAN, 0 },
		{ "1e1", PUZZLE_ANSWER_NAN, 0 },
		{ "0x11", PUZZLE_ANSWER_NAN, 0 },
		{ "inf", PUZZLE_ANSWER_NAN, 0 },
		{ "nan", PUZZLE_ANSWER_NAN, 0 },
		{ "17 apples", PUZZLE_ANSWER_NAN, 0 },
		{ "1 7", PUZZLE_ANSWER_NAN, 0 },
		{ "1,000", PUZZLE_ANSWER_NAN, 0 },
		{ ".5", PUZZLE_ANSWER_NAN, 0 },
		{ "-", PUZZLE_ANSWER_NAN, 0 },
		{ "--17", PUZZLE_ANSWER_NAN, 0 },
		{ "17\n", PUZZLE_ANSWER_NAN, 0 },
		{ "seventeen", PUZZLE_ANSWER_NAN, 0 },
	};
	int64_t v;

	for (size_t k = 0; k < sizeof text / sizeof text[0]; k++) {
		enum puzzle_answer r;

		v = -12345;
		r = puzzle_answer_text(text[k].s, strlen(text[k].s), &v);
		if (text[k].r == PUZZLE_ANSWER_WHOLE)
			ok(r == PUZZLE_ANSWER_WHOLE && v == text[k].v, "text \"%s\" is %lld", esc(text[k].s),
			    (long long)text[k].v);
		else
			ok(r == text[k].r && v == -12345, "text \"%s\" is refused (%d), value untouched",
			    esc(text[k].s), (int)text[k].r);
	}
	is_int(puzzle_answer_text("17\0" "5", 4, &v), PUZZLE_ANSWER_NAN, "embedded NUL");
	is_int(puzzle_answer_text("175", 2, &v), PUZZLE_ANSWER_WHOLE, "only len bytes are read");
	is_int(v, 17, "... giving 17");
	is_int(puzzle_answer_text(NULL, 0, &v), PUZZLE_ANSWER_NAN, "NULL text");

	/* JSON values as jansson parses them from a body. */
	{
		static const struct { const char *json; enum puzzle_answer r; int64_t v; } js[] = {
			{ "17", PUZZLE_ANSWER_WHOLE, 17 },
			{ "17.0", PUZZLE_ANSWER_WHOLE, 17 },
			{ "1.7e1", PUZZLE_ANSWER_WHOLE, 17 },
			{ "-0.0", PUZZLE_ANSWER_WHOLE, 0 },
			{ "\"17\"", PUZZLE_ANSWER_WHOLE, 17 },
			{ "\"17.00\"", PUZZLE_ANSWER_WHOLE, 17 },
			{ "\" 17 \"", PUZZLE_ANSWER_WHOLE, 17 },
			{ "17.5", PUZZLE_ANSWER_FRACTION, 0 },
			{ "\"17.5\"", PUZZLE_ANSWER_FRACTION, 0 },
			{ "1e300", PUZZLE_ANSWER_RANGE, 0 },
			{ "12345678901234567", PUZZLE_ANSWER_RANGE, 0 },
			{ "-12345678901234567", PUZZLE_ANSWER_RANGE, 0 },
			{ "\"1e400\"", PUZZLE_ANSWER_NAN, 0 },
			{ "\"abc\"", PUZZLE_ANSWER_NAN, 0 },
			{ "\"\"", PUZZLE_ANSWER_NAN, 0 },
			{ "null", PUZZLE_ANSWER_NAN, 0 },
			{ "true", PUZZLE_ANSWER_NAN, 0 },
			{ "[17]", PUZZLE_ANSWER_NAN, 0 },
			{ "{\"a\":17}", PUZZLE_ANSWER_NAN, 0 },
			{ "\"17\\u0000\"", PUZZLE_ANSWER_NAN, 0 },
		};

		for (size_t k = 0; k < sizeof js / sizeof js[0]; k++) {
			json_error_t err;
			json_t *j = json_loads(js[k].json, JSON_DECODE_ANY | JSON_ALLOW_NUL, &err);
			enum puzzle_answer r;

			if (!ok(j != NULL, "JSON %s parses", js[k].json))
				continue;
			v = -12345;
			r = puzzle_answer_json(j, &v);
			if (js[k].r == PUZZLE_ANSWER_WHOLE)
				ok(r == PUZZLE_ANSWER_WHOLE && v == js[k].v, "JSON %s is %lld", js[k].json,
				    (long long)js[k].v);
			else
				is_int(r, js[k].r, "JSON %s is refused", js[k].json);
			json_decref(j);
		}
		is_int(puzzle_answer_json(NULL, &v), PUZZLE_ANSWER_NAN, "missing JSON value");
		{
			json_error_t err;

			ok(json_loads("1e400", JSON_DECODE_ANY, &err) == NULL,
			    "JSON number 1e400 never reaches the parser: jansson refuses the body");
		}
	}
}

int
main(void)
{
	if (sodium_init() < 0) {
		printf("Bail out! sodium_init failed\n");
		return 1;
	}
	test_number_words();
	test_templates();
	test_deterministic();
	test_sample();
	test_answers();
	return tap_done();
}
