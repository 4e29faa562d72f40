/*
 * puzzle.h: agent-check puzzles and the parsing of their answers.
 *
 * A puzzle is a one-sentence arithmetic story (addition, subtraction,
 * multiplication or exact division) with its two numbers written in
 * English words, then scrambled: random letter case, some doubled letters,
 * stray symbols inside and around words. A careful reader recovers it by
 * dropping the symbols and reading doubled letters once; a fixed pattern
 * does not. The scrambling never drops or replaces a letter, never doubles
 * an 'e' inside a number word (so "ten" cannot turn into "teen"), never
 * joins or splits words and never writes a digit, so each number word reads
 * as itself and nothing else. The story contains no other number word, and
 * the answer is always a whole number >= 1.
 *
 * The numbers are wide on purpose (operands up to a few thousand, products
 * and dividends up to about a hundred thousand): a guesser who cannot read
 * the story should almost never hit the answer. Over the whole generator
 * (every operation, overlaps included) no answer has a probability of
 * 0.001 or more; tests/trust/test_puzzle_odds.c computes the exact
 * distribution from puzzle_draw_of and checks it. A careful reader still
 * has only a sum in words to do: two numbers, one operation.
 *
 * puzzle_make is a pure function of 32 caller-supplied bytes: the server
 * passes randombytes_buf output, tests pass fixed bytes and get the same
 * puzzle every time. It does not allocate; as everywhere in api/,
 * sodium_init() must have succeeded first.
 */
#ifndef API_PUZZLE_H
#define API_PUZZLE_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

/* How to read a puzzle, for the rules answers (agentCheckHelp). */
#define PUZZLE_HELP "The agent check: a puzzle is one sentence of arithmetic, an addition, a " \
	"subtraction, a multiplication or an exact division of two numbers written in English words " \
	"(\"twenty\", \"eleven\"), scrambled with random letter case, doubled letters " \
	"and stray symbols: read past the noise. The answer is a whole number of at least 1. Send it " \
	"with the puzzle's token as the headers X-Agent-Check: <token> and X-Agent-Answer: <number>, " \
	"or in the body as agent_check and agent_answer. Each puzzle works once and lives 10 minutes; " \
	"every answer hands out the next one in agent_check. An answer that is no number is 400 and " \
	"spends nothing; a wrong one spends the puzzle. Whether a game asks for it is its rules' " \
	"agentCheck (the operator's choice, --agent-check GAME=on|off); the grammar of the puzzles is " \
	"in docs/api.md, section \"The agent check\"."

#define PUZZLE_SEED_BYTES 32
#define PUZZLE_PLAIN_MAX  256  /* room for the unscrambled text, NUL included */
#define PUZZLE_TEXT_MAX   1024 /* room for the scrambled text, NUL included */
#define PUZZLE_ANSWER_MAX 1000000000 /* larger magnitudes are PUZZLE_ANSWER_RANGE */

enum puzzle_op {
	PUZZLE_ADD,
	PUZZLE_SUB,
	PUZZLE_MUL,
	PUZZLE_DIV,
};
#define PUZZLE_NOPS 4

/*
 * How puzzle_make draws its numbers, exported so that a test can enumerate
 * the whole parameter space. The operation is drawn with probability
 * weight / (sum of the weights of all operations); then x and y are drawn
 * independently and uniformly from [x_lo, x_hi] and [y_lo, y_hi], and
 *   PUZZLE_ADD: a = x,     b = y, answer = x + y
 *   PUZZLE_SUB: a = x + y, b = y, answer = x      (the answer is uniform)
 *   PUZZLE_MUL: a = x,     b = y, answer = x * y
 *   PUZZLE_DIV: a = x * y, b = y, answer = x      (exact by construction)
 * The phrasing is drawn uniformly and does not change the numbers. Every
 * a and b is within 0 .. 999999 (puzzle_number_words' range).
 */
struct puzzle_draw {
	uint32_t weight;  /* relative probability of the operation, >= 1 */
	int x_lo, x_hi;   /* x range, inclusive, x_lo >= 2 */
	int y_lo, y_hi;   /* y range, inclusive, y_lo >= 2 */
};

/* The draw of op (static storage), or NULL when op is out of range. */
const struct puzzle_draw *puzzle_draw_of(enum puzzle_op op);

struct puzzle {
	char text[PUZZLE_TEXT_MAX];   /* the scrambled question shown to agents */
	char plain[PUZZLE_PLAIN_MAX]; /* the same before scrambling (tests, docs; not for clients) */
	int64_t answer;               /* whole, >= 1 */
	enum puzzle_op op;
	int phrasing;                 /* 0 .. puzzle_nphrasings(op) - 1 */
	int a, b;                     /* operands: a op b = answer (a is the dividend) */
};

/* Fills *p from the seed. Same seed, same puzzle. */
void puzzle_make(struct puzzle *p, const uint8_t seed[PUZZLE_SEED_BYTES]);

/* Number of story templates of op (>= 4). */
int puzzle_nphrasings(enum puzzle_op op);

/* The template of op / phrasing with "{a}" and "{b}" placeholders, or NULL
 * when out of range (static storage; for tests and docs). */
const char *puzzle_template(enum puzzle_op op, int phrasing);

/*
 * n (0 .. 999999) in English words, British style, spaces not hyphens:
 * 23 "twenty three", 105 "one hundred and five", 2040 "two thousand and
 * forty". Writes a NUL-terminated string into out (capacity cap) and
 * returns its length, or 0 when n is out of range or it does not fit.
 */
size_t puzzle_number_words(char *out, size_t cap, uint32_t n);

/* What a presented answer is. Only PUZZLE_ANSWER_WHOLE sets *value; every
 * other result is a wrong answer (the server spends the puzzle either way). */
enum puzzle_answer {
	PUZZLE_ANSWER_WHOLE = 0, /* a whole number, in *value (may be negative) */
	PUZZLE_ANSWER_FRACTION,  /* a number, but not whole: 17.5 */
	PUZZLE_ANSWER_RANGE,     /* a number of magnitude over PUZZLE_ANSWER_MAX */
	PUZZLE_ANSWER_NAN,       /* not a number: garbage, empty, null, bool, object */
};

/*
 * From a header value or a JSON string's contents (len bytes, nothing past
 * len read): optional spaces/tabs around, optional sign, decimal digits,
 * optionally '.' and more digits ("17", " 17 ", "17.00", "-3", "17.").
 * Exponents, hex, "inf", "nan", commas or an embedded NUL are
 * PUZZLE_ANSWER_NAN.
 */
enum puzzle_answer puzzle_answer_text(const char *s, size_t len, int64_t *value);

/* From a JSON value (borrowed; NULL is PUZZLE_ANSWER_NAN): an integer, a
 * real that is exactly whole (17.0), or a string as above. */
enum puzzle_answer puzzle_answer_json(const json_t *v, int64_t *value);

#endif
