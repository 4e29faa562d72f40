/*
 * test_stackfall_cmd.c: the command parser. Every grammar form with case and
 * blank variations, separators (';', '\n', "\r\n"), empty commands, the 50
 * command limit, every kind of invalid command with its reason, numbers too
 * large for 32 bits, and the canonical form used to compare two requests.
 */
#include <stdlib.h>
#include <string.h>

#include "stackfall_cmd.h"
#include "tap.h"

static struct stackfall_cmd cmds[STACKFALL_CMD_MAX];

/* A test name for text: control characters written as escapes, so that a
 * TAP line stays one line. */
static const char *
esc(const char *text)
{
	static char buf[4][256];
	static int turn;
	char *out = buf[turn++ % 4];
	size_t o = 0;

	for (; *text != '\0' && o + 5 < sizeof buf[0]; text++) {
		unsigned char c = (unsigned char)*text;
		if (c == '\n' || c == '\r' || c == '\t') {
			out[o++] = '\\';
			out[o++] = c == '\n' ? 'n' : c == '\r' ? 'r' : 't';
		} else if (c < 0x20 || c >= 0x7f) {
			o += (size_t)sprintf(out + o, "\\x%02x", c);
		} else {
			out[o++] = (char)c;
		}
	}
	out[o] = '\0';
	return out;
}

static enum stackfall_cmd_parse
parse(const char *text, size_t *n)
{
	return stackfall_cmd_parse(text, strlen(text), cmds, STACKFALL_CMD_MAX, n);
}

/* One command that must parse to kind (r, c). */
static void
one(const char *text, unsigned kind, uint32_t r, uint32_t c, const char *trimmed)
{
	size_t n;
	enum stackfall_cmd_parse res = parse(text, &n);
	int good = res == STACKFALL_PARSE_OK && n == 1 && cmds[0].kind == kind &&
	    cmds[0].error == STACKFALL_CMD_ERR_NONE && cmds[0].rotation == r &&
	    cmds[0].column == c && cmds[0].len == strlen(trimmed) &&
	    memcmp(text + cmds[0].start, trimmed, cmds[0].len) == 0;

	if (!ok(good, "'%s' reads as %s %u %u", esc(text), stackfall_cmd_name(kind), r, c))
		diag("res %d n %zu kind %d error %d r %u c %u reason %s", res, n, cmds[0].kind,
		    cmds[0].error, cmds[0].rotation, cmds[0].column, cmds[0].reason);
}

/* One command that must be invalid for reason `error`, with the given
 * reason text when not NULL. */
static void
bad(const char *text, size_t len, unsigned error, const char *reason, const char *what)
{
	size_t n, i;
	enum stackfall_cmd_parse res =
	    stackfall_cmd_parse(text, len, cmds, STACKFALL_CMD_MAX, &n);
	int printable = 1;

	ok(res == STACKFALL_PARSE_OK && n == 1 && cmds[0].kind == STACKFALL_CMD_INVALID &&
	    cmds[0].error == error, "%s: invalid (error %u)", what, error);
	for (i = 0; cmds[0].reason[i] != '\0'; i++)
		if (cmds[0].reason[i] < 0x20 || cmds[0].reason[i] > 0x7e)
			printable = 0;
	ok(printable && cmds[0].reason[0] != '\0', "%s: reason is printable ASCII", what);
	if (reason != NULL)
		is_str(cmds[0].reason, reason, "%s: reason text", what);
}

static void
test_forms(void)
{
	one("place 1 4", STACKFALL_CMD_PLACE, 1, 4, "place 1 4");
	one("1 4", STACKFALL_CMD_PLACE, 1, 4, "1 4");
	one("PLACE 3 0", STACKFALL_CMD_PLACE, 3, 0, "PLACE 3 0");
	one("PlAcE\t2\t9", STACKFALL_CMD_PLACE, 2, 9, "PlAcE\t2\t9");
	one("  \t place   0    7 \t ", STACKFALL_CMD_PLACE, 0, 7, "place   0    7");
	one("\t0\t0\t", STACKFALL_CMD_PLACE, 0, 0, "0\t0");
	one("options", STACKFALL_CMD_OPTIONS, 0, 0, "options");
	one(" OPTIONS ", STACKFALL_CMD_OPTIONS, 0, 0, "OPTIONS");
	one("preview 0 3", STACKFALL_CMD_PREVIEW, 0, 3, "preview 0 3");
	one("Preview\t\t1  5", STACKFALL_CMD_PREVIEW, 1, 5, "Preview\t\t1  5");
	one("hold", STACKFALL_CMD_HOLD, 0, 0, "hold");
	one("HOLD", STACKFALL_CMD_HOLD, 0, 0, "HOLD");
	one("resign", STACKFALL_CMD_RESIGN, 0, 0, "resign");
	one("ReSiGn \r", STACKFALL_CMD_RESIGN, 0, 0, "ReSiGn");
	/* Range checks belong to the game: the parser reads any 32-bit value. */
	one("place 7 12", STACKFALL_CMD_PLACE, 7, 12, "place 7 12");
	one("place 00000000000000000000001 02", STACKFALL_CMD_PLACE, 1, 2,
	    "place 00000000000000000000001 02");
	one("place 4294967295 4294967295", STACKFALL_CMD_PLACE, 4294967295u, 4294967295u,
	    "place 4294967295 4294967295");
}

static void
test_invalid(void)
{
	static char huge[10020];

	bad("place", 5, STACKFALL_CMD_ERR_MISSING,
	    "a rotation and a column are missing: the form is place R C", "place alone");
	bad("place 1", 7, STACKFALL_CMD_ERR_MISSING, "the column is missing: the form is place R C",
	    "place without column");
	bad("preview", 7, STACKFALL_CMD_ERR_MISSING,
	    "a rotation and a column are missing: the form is preview R C", "preview alone");
	bad("1", 1, STACKFALL_CMD_ERR_MISSING, "the column is missing: the form is R C",
	    "short form without column");
	bad("place 1 4 5", 11, STACKFALL_CMD_ERR_EXTRA, "unexpected '5': the form is place R C",
	    "place with a third number");
	bad("1 2 3", 5, STACKFALL_CMD_ERR_EXTRA, "unexpected '3': the form is R C",
	    "short form with a third number");
	bad("preview 1 2 now", 15, STACKFALL_CMD_ERR_EXTRA, NULL, "preview with a word after");
	bad("hold now", 8, STACKFALL_CMD_ERR_EXTRA, "unexpected 'now': hold takes nothing after it",
	    "hold with a word");
	bad("options 3", 9, STACKFALL_CMD_ERR_EXTRA, NULL, "options with a number");
	bad("resign please", 13, STACKFALL_CMD_ERR_EXTRA, NULL, "resign with a word");
	bad("place -1 4", 10, STACKFALL_CMD_ERR_NOT_NUMBER,
	    "rotation '-1' is not an unsigned decimal number", "negative rotation");
	bad("place +1 4", 10, STACKFALL_CMD_ERR_NOT_NUMBER, NULL, "plus sign");
	bad("place 1.0 4", 11, STACKFALL_CMD_ERR_NOT_NUMBER, NULL, "decimal point");
	bad("place 0x1 4", 11, STACKFALL_CMD_ERR_NOT_NUMBER, NULL, "hexadecimal");
	bad("place 1 x", 9, STACKFALL_CMD_ERR_NOT_NUMBER,
	    "column 'x' is not an unsigned decimal number", "letter column");
	bad("place one two", 13, STACKFALL_CMD_ERR_NOT_NUMBER, NULL, "numbers in words");
	bad("-1 4", 4, STACKFALL_CMD_ERR_NOT_NUMBER, NULL, "short form with a sign");
	bad("1x 4", 4, STACKFALL_CMD_ERR_NOT_NUMBER, NULL, "short form with a letter");
	bad("1 4x", 4, STACKFALL_CMD_ERR_NOT_NUMBER, NULL, "short form with a trailing letter");
	bad("place 99999999999999999999 1", 28, STACKFALL_CMD_ERR_TOO_LARGE,
	    "rotation 99999999999999999999 is too large", "20 digits");
	bad("place 4294967296 0", 18, STACKFALL_CMD_ERR_TOO_LARGE, NULL, "2^32");
	bad("place 0 18446744073709551616", 28, STACKFALL_CMD_ERR_TOO_LARGE, NULL, "2^64 column");
	bad("42949672950 1", 13, STACKFALL_CMD_ERR_TOO_LARGE, NULL, "short form too large");
	bad("jump", 4, STACKFALL_CMD_ERR_UNKNOWN,
	    "unknown command 'jump': use place R C (or R C), options, preview R C, hold or resign",
	    "unknown word");
	bad("place1 4", 8, STACKFALL_CMD_ERR_UNKNOWN, NULL, "no blank after place");
	bad("holds", 5, STACKFALL_CMD_ERR_UNKNOWN, NULL, "holds");
	bad("pla ce 1 4", 10, STACKFALL_CMD_ERR_UNKNOWN, NULL, "split keyword");
	bad("place\v1 4", 9, STACKFALL_CMD_ERR_UNKNOWN, NULL, "vertical tab is no blank");
	bad("h\0ld", 4, STACKFALL_CMD_ERR_UNKNOWN, "unknown command 'h?ld': use place R C (or R C), "
	    "options, preview R C, hold or resign", "NUL byte");
	bad("pl\xc3\xa7" "ce 1 4", 10, STACKFALL_CMD_ERR_UNKNOWN, NULL, "non-ASCII letter");
	bad("place \xd9\xa1 4", 10, STACKFALL_CMD_ERR_NOT_NUMBER,
	    "rotation '?\?' is not an unsigned decimal number", "Arabic-Indic digit");
	bad("\xef\xbc\x91 4", 5, STACKFALL_CMD_ERR_UNKNOWN, NULL, "fullwidth digit");
	bad("place\r1 4", 9, STACKFALL_CMD_ERR_UNKNOWN, NULL, "a carriage return inside a command");
	bad("abcdefghijklmnopqrstuvwxyz0123456789", 36, STACKFALL_CMD_ERR_UNKNOWN,
	    "unknown command 'abcdefghijklmnopqrstuvwx...': use place R C (or R C), options, "
	    "preview R C, hold or resign", "long word is cut in the reason");

	memcpy(huge, "place ", 6);
	memset(huge + 6, '9', 10000);
	memcpy(huge + 10006, " 1", 3);
	bad(huge, strlen(huge), STACKFALL_CMD_ERR_TOO_LARGE, NULL, "10000 digits");
}

static void
test_lists(void)
{
	static char many[4096];
	size_t n, i, len;
	enum stackfall_cmd_parse res;
	int good;
	const char *text;

	text = "place 1 4;hold\noptions ; preview 0 3\r\nresign";
	res = parse(text, &n);
	ok(res == STACKFALL_PARSE_OK && n == 5 && cmds[0].kind == STACKFALL_CMD_PLACE &&
	    cmds[1].kind == STACKFALL_CMD_HOLD && cmds[2].kind == STACKFALL_CMD_OPTIONS &&
	    cmds[3].kind == STACKFALL_CMD_PREVIEW && cmds[4].kind == STACKFALL_CMD_RESIGN,
	    "five commands over ';', '\\n' and \"\\r\\n\"");
	ok(cmds[2].len == 7 && memcmp(text + cmds[2].start, "options", 7) == 0 &&
	    cmds[3].len == 11 && memcmp(text + cmds[3].start, "preview 0 3", 11) == 0,
	    "spans are trimmed of blanks and the carriage return");

	res = parse(";;\n hold ;\t;\r\n\r\n;1 2;;", &n);
	ok(res == STACKFALL_PARSE_OK && n == 2 && cmds[0].kind == STACKFALL_CMD_HOLD &&
	    cmds[1].kind == STACKFALL_CMD_PLACE, "empty commands are skipped");

	text = "place 1 4; bogus ;hold";
	res = parse(text, &n);
	ok(res == STACKFALL_PARSE_OK && n == 3 && cmds[0].kind == STACKFALL_CMD_PLACE &&
	    cmds[1].kind == STACKFALL_CMD_INVALID && cmds[2].kind == STACKFALL_CMD_HOLD,
	    "an invalid command stays in its place; the others still parse");
	ok(cmds[1].len == 5 && memcmp(&text[cmds[1].start], "bogus", 5) == 0,
	    "the invalid command's span");

	const char *empties[] = { "", " ", "\t\t", ";", ";;;;", "\n", "\r\n", " ;\r\n\t;\n " };
	for (i = 0; i < sizeof empties / sizeof empties[0]; i++) {
		res = parse(empties[i], &n);
		ok(res == STACKFALL_PARSE_EMPTY && n == 0, "empty request %zu", i);
	}
	res = stackfall_cmd_parse(NULL, 0, cmds, STACKFALL_CMD_MAX, &n);
	ok(res == STACKFALL_PARSE_EMPTY && n == 0, "NULL text is empty");

	/* 50 commands (with empty ones between) pass; 51 do not. */
	len = 0;
	for (i = 0; i < 50; i++)
		len += (size_t)snprintf(many + len, sizeof many - len, "%s;;", i % 2 ? "hold" : "1 4");
	res = parse(many, &n);
	good = res == STACKFALL_PARSE_OK && n == 50;
	for (i = 0; good && i < 50; i++)
		good = cmds[i].kind == (i % 2 ? STACKFALL_CMD_HOLD : STACKFALL_CMD_PLACE);
	ok(good, "50 commands are accepted");
	snprintf(many + len, sizeof many - len, "options");
	res = parse(many, &n);
	ok(res == STACKFALL_PARSE_TOO_MANY, "51 commands are refused whole");
	snprintf(many + len, sizeof many - len, " ; \n");
	res = parse(many, &n);
	ok(res == STACKFALL_PARSE_OK && n == 50, "50 commands and trailing empty ones pass");
	len = 0;
	for (i = 0; i < 51; i++)
		len += (size_t)snprintf(many + len, sizeof many - len, "bogus%zu\n", i);
	res = parse(many, &n);
	ok(res == STACKFALL_PARSE_TOO_MANY, "51 invalid commands are too many as well");
	res = stackfall_cmd_parse("hold;hold;hold;hold", 19, cmds, 3, &n);
	ok(res == STACKFALL_PARSE_TOO_MANY, "the caller's smaller capacity is the limit");
}

static void
canon(const char *text, const char *want)
{
	char buf[512];
	size_t n, len;

	parse(text, &n);
	len = stackfall_cmd_canonical(cmds, n, text, buf, sizeof buf);
	ok(strcmp(buf, want) == 0 && len == strlen(want), "canonical of '%s' is '%s'", esc(text),
	    want);
	if (strcmp(buf, want) != 0)
		diag("got '%s'", buf);
}

static void
test_canonical(void)
{
	char a[128], b[128], small[8];
	size_t n, len;

	canon("1 4", "place 1 4");
	canon("PLACE 1 4", "place 1 4");
	canon("  place\t01   4 ", "place 1 4");
	canon("Hold;;OPTIONS\npreview 0 3\r\nresign", "hold;options;preview 0 3;resign");
	canon("1 4; Bogus Thing ;hold", "place 1 4;invalid Bogus Thing;hold");

	parse("1 4;hold", &n);
	stackfall_cmd_canonical(cmds, n, "1 4;hold", a, sizeof a);
	parse("PLACE 1 4\nHOLD", &n);
	stackfall_cmd_canonical(cmds, n, "PLACE 1 4\nHOLD", b, sizeof b);
	ok(strcmp(a, b) == 0, "'1 4;hold' equals 'PLACE 1 4\\nHOLD' once parsed");
	parse("1 5;hold", &n);
	stackfall_cmd_canonical(cmds, n, "1 5;hold", b, sizeof b);
	ok(strcmp(a, b) != 0, "'1 5;hold' differs");

	parse("preview 3 4;hold", &n);
	len = stackfall_cmd_canonical(cmds, n, "preview 3 4;hold", small, sizeof small);
	ok(len == 16 && strcmp(small, "preview") == 0, "a short buffer is cut and NUL-terminated");
	ok(stackfall_cmd_canonical(cmds, n, "preview 3 4;hold", NULL, 0) == 16,
	    "NULL buffer measures");
}

int
main(void)
{
	test_forms();
	test_invalid();
	test_lists();
	test_canonical();
	return tap_done();
}
