/*
 * page_text.c: the forms the reading routes' answers share (page_text.h).
 */
#include "page_text.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "iso8601.h"
#include "numtext.h"

void
page_text_start(struct jw *w)
{
	jw_init(w, PAGE_TEXT_FIRST, PAGE_TEXT_MAX);
}

char *
page_text_take(struct jw *w, size_t *len)
{
	return jw_take(w, len);
}

void
page_text_string_or_null(struct jw *w, const char *s)
{
	if (s != NULL && s[0])
		jw_string(w, s);
	else
		jw_null(w);
}

void
page_text_id(struct jw *w, int64_t id)
{
	char text[24];

	jw_stringn(w, text, numtext_i64(text, id));
}

void
page_text_real(struct jw *w, double v)
{
	char text[40], *e, *from, *to;
	int n;

	if (!isfinite(v)) {
		w->failed = true;
		return;
	}
	/* jansson's jsonp_dtostr: 17 digits, then what tells a real from an
	 * integer when the text is read back. The daemon runs in the C
	 * locale, so the point is a point. */
	n = snprintf(text, sizeof text - 2, "%.17g", v);
	if (n < 0 || (size_t)n >= sizeof text - 2) {
		w->failed = true;
		return;
	}
	if (strchr(text, '.') == NULL && strchr(text, 'e') == NULL) {
		memcpy(text + n, ".0", 3);
		n += 2;
	}
	if ((e = strchr(text, 'e')) != NULL) {
		from = to = e + 1;
		if (*to == '-')
			to++, from++;
		else if (*from == '+')
			from++;
		while (*from == '0' && from[1] != '\0')
			from++;
		memmove(to, from, strlen(from) + 1);
		n = (int)strlen(text);
	}
	jw_raw(w, text, (size_t)n);
}

void
page_text_figures(struct jw *w, const struct game *g, const struct board_figures *f)
{
	size_t i;

	for (i = 0; g->board_fields != NULL && g->board_fields[i] != NULL; i++) {
		const char *name = g->board_fields[i];
		int64_t v = strcmp(name, "lines") == 0 ? f->lines : strcmp(name, "pieces") == 0 ?
		    f->pieces : strcmp(name, "rung") == 0 ? f->rung : f->lives;

		jw_kint_if(w, name, v >= 0, v);
	}
}
