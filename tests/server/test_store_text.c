/*
 * test_store_text.c: the two store readers written without stdio in
 * b4b5628, against the calls they replaced:
 *
 * - weights_read (a match's item_weights) against
 *   sscanf("%u,%u,%u,%u,%u,%u") and the check that each is at most 100,
 *   on the texts weights_text writes, with blanks, leading zeros, junk
 *   after the sixth, and broken: fields missing, cut, doubled commas,
 *   signs, other white space, numbers past 100 and past 2^32. Where the
 *   two differ, weights_read must be the one that refuses, and only for
 *   what sscanf took beyond weights_text's texts: a sign, white space
 *   other than a blank or a tab, a number of ten digits or more (sscanf
 *   wraps 4294967296 to 0). Those are counted and shown.
 * - store_q_col_copy against snprintf(out, cap, "%s", text) on an SQLite
 *   column: random texts (any byte but NUL), NULL, every capacity around
 *   the text's length and 0; the bytes past cap untouched.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "store_internal.h"
#include "tap.h"
#include "xorshift.h"

static uint64_t rng = 0xbb67ae8584caa73bu;

static uint32_t
rnd(uint32_t n)
{
	return xorshift_below(&rng, n);
}

/* What the store read before b4b5628. */
static bool
ref_weights(const char *text, uint8_t w[STORE_ITEM_KINDS])
{
	unsigned v[STORE_ITEM_KINDS];
	int k;

	if (text == NULL || sscanf(text, "%u,%u,%u,%u,%u,%u", &v[0], &v[1], &v[2], &v[3], &v[4],
	    &v[5]) != 6)
		return false;
	for (k = 0; k < STORE_ITEM_KINDS; k++) {
		if (v[k] > 100)
			return false;
		w[k] = (uint8_t)v[k];
	}
	return true;
}

/* A number's text for a weights field: mostly 0-100, then past it, with
 * leading zeros, a sign, blanks or other white space before it, or
 * nothing at all. */
static size_t
field(char *o)
{
	static const char *const lead[] = { " ", "\t", "  \t", "\n", "\r", "\v", "\f", "+", "-", "- ",
		"+-", "0", "000", "x" };
	size_t n = 0;

	if (rnd(4) == 0) {
		const char *l = lead[rnd(sizeof lead / sizeof lead[0])];

		memcpy(o, l, strlen(l));
		n = strlen(l);
	}
	switch (rnd(10)) {
	case 0:
		return n;
	case 1:
		n += (size_t)sprintf(o + n, "%u", 101 + rnd(200));
		return n;
	case 2: {
		/* ten digits and more, sometimes just past 2^32 (wrapping small) */
		static const char *const big[] = { "4294967296", "4294967297", "4294967396",
			"4294967397", "8589934592", "18446744073709551616", "99999999999999999999999",
			"0000000000000000000100", "0000000000000000000101" };

		n += (size_t)sprintf(o + n, "%s", big[rnd(sizeof big / sizeof big[0])]);
		return n;
	}
	default:
		n += (size_t)sprintf(o + n, "%u", rnd(101));
		return n;
	}
}

/* A weights text: weights_text's shape, or one of its breakages. */
static void
weights_input(char *o, size_t cap)
{
	size_t n = 0;
	int k, fields = rnd(8) == 0 ? (int)rnd(8) : STORE_ITEM_KINDS;

	if (rnd(3) == 0) {
		/* weights_text's own text */
		snprintf(o, cap, "%u,%u,%u,%u,%u,%u", rnd(101), rnd(101), rnd(101), rnd(101),
		    rnd(101), rnd(rnd(10) == 0 ? 256 : 101));
		return;
	}
	for (k = 0; k < fields; k++) {
		if (k > 0) {
			static const char *const sep[] = { ",", ",", ",", ",", ", ", " ,", ",,", ";", "" };
			const char *s = rnd(6) == 0 ? sep[rnd(sizeof sep / sizeof sep[0])] : ",";

			memcpy(o + n, s, strlen(s));
			n += strlen(s);
		}
		n += field(o + n);
	}
	if (rnd(4) == 0) {
		static const char *const tail[] = { ",", ",7", " ", "x", "\n", ",1,2", ",,", "%" };
		const char *t = tail[rnd(sizeof tail / sizeof tail[0])];

		memcpy(o + n, t, strlen(t));
		n += strlen(t);
	}
	o[n] = '\0';
	if (rnd(10) == 0 && n > 0)
		o[rnd((uint32_t)n)] = '\0';
	(void)cap;
}

/* Whether sscanf may take what weights_read refuses in text: a sign,
 * white space that is not a blank or a tab, ten digits in a row. */
static bool
beyond_weights_text(const char *text, int *why)
{
	size_t run = 0;
	const char *p;

	for (p = text; *p != '\0'; p++) {
		if (*p == '+' || *p == '-') {
			*why = 0;
			return true;
		}
		if (isspace((unsigned char)*p) && *p != ' ' && *p != '\t') {
			*why = 1;
			return true;
		}
		run = isdigit((unsigned char)*p) ? run + 1 : 0;
		if (run >= 10) {
			*why = 2;
			return true;
		}
	}
	return false;
}

static void
check_weights(unsigned long count)
{
	unsigned long i, apart = 0, agreed_ok = 0, agreed_no = 0, shape = 0, shape_apart = 0;
	unsigned long stricter[3] = { 0, 0, 0 };
	char first[160] = "", bad[256];

	for (i = 0; i < count + 2; i++) {
		char text[256], ea[256];
		uint8_t a[STORE_ITEM_KINDS], b[STORE_ITEM_KINDS];
		bool ra, rb;
		int why;

		if (i == count)
			strcpy(text, "1,1,1,1,1,1"); /* migration 0010's default */
		else if (i == count + 1)
			strcpy(text, "100,0,100,0,100,0");
		else
			weights_input(text, sizeof text);
		memset(a, 0xee, sizeof a);
		memset(b, 0xee, sizeof b);
		ra = weights_read(text, a);
		rb = ref_weights(text, b);
		if (ra == rb && (!ra || memcmp(a, b, sizeof a) == 0)) {
			agreed_ok += ra;
			agreed_no += !ra;
		} else if (!ra && rb && beyond_weights_text(text, &why))
			stricter[why]++;
		else if (apart++ == 0) {
			log_escape(text, ea, sizeof ea);
			snprintf(first, sizeof first, ": \"%.100s\": %s, sscanf %s", ea, ra ? "read" : "refused",
			    rb ? "read" : "refused");
		}
		/* The texts weights_text writes: the two agree on each exactly. */
		{
			unsigned v[6];
			int k;

			for (k = 0; k < 6; k++)
				v[k] = rnd(k == 5 ? 256 : 101);
			snprintf(bad, sizeof bad, "%u,%u,%u,%u,%u,%u", v[0], v[1], v[2], v[3], v[4], v[5]);
			ra = weights_read(bad, a);
			rb = ref_weights(bad, b);
			shape++;
			shape_apart += ra != rb || ra != (v[5] <= 100) || (ra && memcmp(a, b, sizeof a) != 0);
		}
	}
	ok(shape_apart == 0, "weights_read reads each text weights_text writes as sscanf did (%lu, "
	    "%lu apart)", shape, shape_apart);
	ok(apart == 0, "on broken texts too (%lu: %lu read and %lu refused by both, %lu apart)%s",
	    count + 2, agreed_ok, agreed_no, apart, first);
	ok(agreed_ok > count / 10 && agreed_no > count / 10, "both outcomes were tried");
	diag("refused by weights_read, taken by sscanf: %lu with a sign, %lu with other white space, "
	    "%lu with ten digits or more", stricter[0], stricter[1], stricter[2]);
	{
		uint8_t w[STORE_ITEM_KINDS];

		ok(!weights_read(NULL, w) && !ref_weights(NULL, w), "a NULL column is refused");
	}
}

/* A column's text: any byte but NUL, printable, empty, or long. */
static size_t
column_text(char *o, size_t cap)
{
	size_t n = rnd(4) == 0 ? rnd((uint32_t)cap) : rnd(80), k;
	uint32_t kind = rnd(3);

	for (k = 0; k < n; k++)
		o[k] = (char)(kind == 0 ? 1 + rnd(255) : kind == 1 ? 0x20 + rnd(0x5f) : 'a' + rnd(3));
	o[n] = '\0';
	return n;
}

static void
check_col_copy(unsigned long count)
{
	static const char sql[] = "SELECT ?1";
	struct store_conn c;
	char err[256], first[200] = "";
	unsigned long i, copies = 0, apart = 0, nulls = 0;

	if (!ok(store_conn_open(&c, ":memory:", false, SYNC_NORMAL, err, sizeof err) == 0,
	    "an SQLite connection in memory (%s)", err))
		return;
	for (i = 0; i < count; i++) {
		char text[600];
		size_t len = column_text(text, sizeof text - 1), cap, caps[12], k, ncaps = 0;
		bool null = rnd(20) == 0;
		struct store_q *q = store_q(&c, sql);

		if (q == NULL)
			break;
		store_q_text(q, 1, null ? NULL : text);
		if (store_q_step(q) != STORE_Q_ROW)
			break;
		nulls += null;
		/* every capacity around the length, 0, 1, and the struct fields' */
		caps[ncaps++] = 0;
		caps[ncaps++] = 1;
		caps[ncaps++] = len;
		caps[ncaps++] = len + 1;
		caps[ncaps++] = len + 2;
		caps[ncaps++] = len > 0 ? len - 1 : 2;
		caps[ncaps++] = 16;
		caps[ncaps++] = 32;
		caps[ncaps++] = 64;
		caps[ncaps++] = 1 + rnd(600);
		for (k = 0; k < ncaps; k++) {
			char a[700], b[700];

			cap = caps[k];
			memset(a, 0x5a, sizeof a);
			memset(b, 0x5a, sizeof b);
			store_q_col_copy(q, 0, a, cap);
			snprintf(b, cap, "%s", null ? "" : text);
			copies++;
			if (memcmp(a, b, sizeof a) != 0 && apart++ == 0)
				snprintf(first, sizeof first, ": a text of %zu bytes%s into %zu", len,
				    null ? " (NULL)" : "", cap);
		}
		store_q_reset(q);
	}
	ok(i == count, "the column was read back each time (%lu of %lu)", i, count);
	ok(apart == 0, "store_q_col_copy writes what snprintf(\"%%s\") writes, and nothing past "
	    "its capacity (%lu copies, %lu of a NULL column, %lu apart)%s", copies, nulls, apart, first);
	store_conn_close(&c);
}

int
main(int argc, char **argv)
{
	unsigned long count = argc > 1 ? strtoul(argv[1], NULL, 10) : 200000;

	check_weights(count);
	check_col_copy(count / 10);
	return tap_done();
}
