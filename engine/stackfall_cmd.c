/*
 * stackfall_cmd.c: the command parser. One pass over the request splits it at
 * '\n' and ';', trims each piece, and reads its words; the work is linear in
 * the request and stops after the first command past the limit. Numbers are
 * accumulated with an overflow guard, so any run of digits is safe.
 */
#include "stackfall_cmd.h"

#include <stdbool.h>

#define MAX_WORDS 4      /* a command has at most 3; the 4th is only reported */
#define QUOTE_MAX 24     /* longest word quoted in a reason */

struct word {
	const char *p;
	size_t len;
};

static const char *const kind_names[] = {
	"invalid", "place", "options", "preview", "hold", "resign",
};

const char *
stackfall_cmd_name(unsigned kind)
{
	return kind < sizeof kind_names / sizeof kind_names[0] ? kind_names[kind] : "invalid";
}

static bool
is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static bool
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool
word_is(const struct word *w, const char *keyword)
{
	size_t i;
	char c;

	for (i = 0; i < w->len; i++) {
		c = w->p[i];
		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if (keyword[i] == '\0' || c != keyword[i])
			return false;
	}
	return keyword[i] == '\0';
}

/* A word cut to QUOTE_MAX bytes with anything but printable ASCII shown as
 * '?', so that reasons stay short and valid UTF-8. */
static void
quote(const struct word *w, char out[QUOTE_MAX + 4])
{
	size_t i, n = w->len < QUOTE_MAX ? w->len : QUOTE_MAX;
	char c;

	for (i = 0; i < n; i++) {
		c = w->p[i];
		out[i] = c >= 0x20 && c < 0x7f ? c : '?';
	}
	if (n < w->len) {
		out[n++] = '.';
		out[n++] = '.';
		out[n++] = '.';
	}
	out[n] = '\0';
}

static void
invalid(struct stackfall_cmd *cmd, enum stackfall_cmd_error error)
{
	cmd->kind = STACKFALL_CMD_INVALID;
	cmd->error = (uint8_t)error;
	cmd->rotation = 0;
	cmd->column = 0;
}

/* Reads the number argument `what` of a command into *v, or marks the command
 * invalid with a reason. */
static bool
number(struct stackfall_cmd *cmd, const struct word *w, const char *what, uint32_t *v)
{
	char q[QUOTE_MAX + 4];
	uint32_t x = 0, d;
	size_t i;

	for (i = 0; i < w->len; i++) {
		if (!is_digit(w->p[i])) {
			quote(w, q);
			invalid(cmd, STACKFALL_CMD_ERR_NOT_NUMBER);
			return engine_refuse(cmd->reason, sizeof cmd->reason,
			    "%s '%s' is not an unsigned decimal number", what, q);
		}
	}
	for (i = 0; i < w->len; i++) {
		d = (uint32_t)(w->p[i] - '0');
		if (x > (UINT32_MAX - d) / 10) {
			quote(w, q);
			invalid(cmd, STACKFALL_CMD_ERR_TOO_LARGE);
			return engine_refuse(cmd->reason, sizeof cmd->reason,
			    "%s %s is too large", what, q);
		}
		x = x * 10 + d;
	}
	*v = x;
	return true;
}

/* The two numbers of place, preview or the short form, in words[first..]. */
static void
two_numbers(struct stackfall_cmd *cmd, enum stackfall_cmd_kind kind, const struct word *words,
    size_t nwords, size_t first, const char *form)
{
	char q[QUOTE_MAX + 4];
	uint32_t r, c;

	if (nwords < first + 1) {
		invalid(cmd, STACKFALL_CMD_ERR_MISSING);
		engine_refuse(cmd->reason, sizeof cmd->reason,
		    "a rotation and a column are missing: the form is %s", form);
		return;
	}
	if (!number(cmd, &words[first], "rotation", &r))
		return;
	if (nwords < first + 2) {
		invalid(cmd, STACKFALL_CMD_ERR_MISSING);
		engine_refuse(cmd->reason, sizeof cmd->reason,
		    "the column is missing: the form is %s", form);
		return;
	}
	if (!number(cmd, &words[first + 1], "column", &c))
		return;
	if (nwords > first + 2) {
		quote(&words[first + 2], q);
		invalid(cmd, STACKFALL_CMD_ERR_EXTRA);
		engine_refuse(cmd->reason, sizeof cmd->reason,
		    "unexpected '%s': the form is %s", q, form);
		return;
	}
	cmd->kind = (uint8_t)kind;
	cmd->rotation = r;
	cmd->column = c;
}

static void
bare(struct stackfall_cmd *cmd, enum stackfall_cmd_kind kind, const struct word *words,
    size_t nwords)
{
	char q[QUOTE_MAX + 4];

	if (nwords > 1) {
		quote(&words[1], q);
		invalid(cmd, STACKFALL_CMD_ERR_EXTRA);
		engine_refuse(cmd->reason, sizeof cmd->reason,
		    "unexpected '%s': %s takes nothing after it", q, kind_names[kind]);
		return;
	}
	cmd->kind = (uint8_t)kind;
}

/* Reads one trimmed, non-empty command p[0..len). */
static void
parse_one(const char *p, size_t len, struct stackfall_cmd *cmd)
{
	struct word words[MAX_WORDS];
	char q[QUOTE_MAX + 4];
	size_t i = 0, nwords = 0, start;
	char c0;

	while (i < len && nwords < MAX_WORDS) {
		while (i < len && is_blank(p[i]))
			i++;
		if (i == len)
			break;
		start = i;
		while (i < len && !is_blank(p[i]))
			i++;
		words[nwords].p = p + start;
		words[nwords].len = i - start;
		nwords++;
	}

	cmd->kind = STACKFALL_CMD_INVALID;
	cmd->error = STACKFALL_CMD_ERR_NONE;
	cmd->rotation = 0;
	cmd->column = 0;
	cmd->reason[0] = '\0';
	c0 = words[0].p[0]; /* the command is trimmed and not empty */

	if (word_is(&words[0], "place")) {
		two_numbers(cmd, STACKFALL_CMD_PLACE, words, nwords, 1, "place R C");
	} else if (word_is(&words[0], "preview")) {
		two_numbers(cmd, STACKFALL_CMD_PREVIEW, words, nwords, 1, "preview R C");
	} else if (word_is(&words[0], "options")) {
		bare(cmd, STACKFALL_CMD_OPTIONS, words, nwords);
	} else if (word_is(&words[0], "hold")) {
		bare(cmd, STACKFALL_CMD_HOLD, words, nwords);
	} else if (word_is(&words[0], "resign")) {
		bare(cmd, STACKFALL_CMD_RESIGN, words, nwords);
	} else if (is_digit(c0) || c0 == '+' || c0 == '-') {
		/* A number first: the short form, read as one. */
		two_numbers(cmd, STACKFALL_CMD_PLACE, words, nwords, 0, "R C");
	} else {
		quote(&words[0], q);
		invalid(cmd, STACKFALL_CMD_ERR_UNKNOWN);
		engine_refuse(cmd->reason, sizeof cmd->reason,
		    "unknown command '%s': use place R C (or R C), options, preview R C, hold or resign",
		    q);
	}
}

enum stackfall_cmd_parse
stackfall_cmd_parse(const char *text, size_t len, struct stackfall_cmd *cmds, size_t cap,
    size_t *n)
{
	size_t limit = cap < STACKFALL_CMD_MAX ? cap : STACKFALL_CMD_MAX;
	size_t pos = 0, end, a, b, count = 0;

	*n = 0;
	if (text == NULL)
		len = 0;
	while (pos <= len) {
		end = pos;
		while (end < len && text[end] != '\n' && text[end] != ';')
			end++;
		a = pos;
		b = end;
		while (a < b && (is_blank(text[a]) || text[a] == '\r'))
			a++;
		while (b > a && (is_blank(text[b - 1]) || text[b - 1] == '\r'))
			b--;
		if (a < b) {
			if (count == limit)
				return STACKFALL_PARSE_TOO_MANY;
			cmds[count].start = a;
			cmds[count].len = b - a;
			parse_one(text + a, b - a, &cmds[count]);
			count++;
			*n = count;
		}
		pos = end + 1;
	}
	return count == 0 ? STACKFALL_PARSE_EMPTY : STACKFALL_PARSE_OK;
}

/* Appends to an snprintf-like buffer, counting what does not fit. */
struct out {
	char *buf;
	size_t cap, len;
};

static void
put(struct out *o, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++, o->len++)
		if (o->len + 1 < o->cap)
			o->buf[o->len] = s[i];
}

static void
put_str(struct out *o, const char *s)
{
	size_t n = 0;

	while (s[n] != '\0')
		n++;
	put(o, s, n);
}

static void
put_uint(struct out *o, uint32_t v)
{
	char digits[10];
	size_t i = sizeof digits;

	do {
		digits[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	put(o, digits + i, sizeof digits - i);
}

size_t
stackfall_cmd_canonical(const struct stackfall_cmd *cmds, size_t n, const char *text,
    char *buf, size_t cap)
{
	struct out o = { buf, buf != NULL ? cap : 0, 0 };
	size_t i;

	for (i = 0; i < n; i++) {
		if (i > 0)
			put(&o, ";", 1);
		put_str(&o, stackfall_cmd_name(cmds[i].kind));
		switch (cmds[i].kind) {
		case STACKFALL_CMD_PLACE:
		case STACKFALL_CMD_PREVIEW:
			put(&o, " ", 1);
			put_uint(&o, cmds[i].rotation);
			put(&o, " ", 1);
			put_uint(&o, cmds[i].column);
			break;
		case STACKFALL_CMD_INVALID:
			put(&o, " ", 1);
			put(&o, text + cmds[i].start, cmds[i].len);
			break;
		default:
			break;
		}
	}
	if (o.cap > 0)
		o.buf[o.len < o.cap ? o.len : o.cap - 1] = '\0';
	return o.len;
}
