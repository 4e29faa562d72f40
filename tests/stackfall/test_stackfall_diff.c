/*
 * test_stackfall_diff.c: random play on the engine against a deliberately
 * naive model written here: a cells[20][10] board of letters, shapes read
 * from the rule diagrams, a drop that moves the piece down one row at a time
 * from above the board, clears that shift rows one by one, figures counted
 * cell by cell, the scoring and end rules written out again from the spec,
 * and options found by trying every rotation and column and comparing cell
 * sets. Only the piece stream (tested against CPython elsewhere) is shared.
 *
 * Usage: test_stackfall_diff [GAMES [SEED]]. Each game mixes placements
 * chosen from the model's options (by a noisy heuristic, so that games run
 * long and clear lines, tetrises included), random and out-of-range
 * placements, holds, previews, and the odd resign or abandon. After every
 * command the whole observable state, the command's result and (for
 * placements and options) the full options list must agree; a sample of
 * states also goes through encode/decode.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bag.h"
#include "stackfall.h"
#include "tap.h"

/* ---- the model ---- */

static const char *const diagram[7][4][4] = {
	{ { "####" }, { "#", "#", "#", "#" }, { "####" }, { "#", "#", "#", "#" } },
	{ { "##", "##" }, { "##", "##" }, { "##", "##" }, { "##", "##" } },
	{ { ".#.", "###" }, { "#.", "##", "#." }, { "###", ".#." }, { ".#", "##", ".#" } },
	{ { ".##", "##." }, { "#.", "##", ".#" }, { ".##", "##." }, { "#.", "##", ".#" } },
	{ { "##.", ".##" }, { ".#", "##", "#." }, { "##.", ".##" }, { ".#", "##", "#." } },
	{ { "#..", "###" }, { "##", "#.", "#." }, { "###", "..#" }, { ".#", ".#", "##" } },
	{ { "..#", "###" }, { "#.", "#.", "##" }, { "###", "#.." }, { "##", ".#", ".#" } },
};
static const char model_letters[] = "IOTSZJL";

struct shape {
	int n, dx[4], dy[4]; /* dy counts up from the shape's bottom row */
	int width;
};
static struct shape shapes[7][4];

static void
read_shapes(void)
{
	int p, r, h, k, c;

	for (p = 0; p < 7; p++)
		for (r = 0; r < 4; r++) {
			struct shape *s = &shapes[p][r];
			for (h = 0; h < 4 && diagram[p][r][h] != NULL; h++)
				;
			s->n = 0;
			s->width = (int)strlen(diagram[p][r][0]);
			for (k = 0; k < h; k++)
				for (c = 0; diagram[p][r][k][c] != '\0'; c++)
					if (diagram[p][r][k][c] == '#') {
						s->dx[s->n] = c;
						s->dy[s->n] = h - 1 - k;
						s->n++;
					}
		}
}

struct model {
	char cells[20][10]; /* [row][column], row 0 at the bottom; '.' empty */
	uint64_t seed;
	long score, lines, placed, drawn;
	int combo, b2b, current, hold, can_hold, over, next[3];
	const char *reason;
};

static int
free_at(const struct model *m, int row, int col)
{
	if (col < 0 || col >= 10 || row < 0)
		return 0;
	if (row >= 20)
		return 1; /* above the board */
	return m->cells[row][col] == '.';
}

/* Drops from above the board one row at a time. Returns the bottom row of
 * the piece where it stops and whether it ends inside the board. */
static int
drop(const struct model *m, int p, int r, int col, int *y)
{
	const struct shape *s = &shapes[p][r];
	int k, can;

	if (r < 0 || r > 3 || col < 0 || col + s->width > 10)
		return 0;
	*y = 20;
	for (;;) {
		can = 1;
		for (k = 0; k < 4; k++)
			if (!free_at(m, *y - 1 + s->dy[k], col + s->dx[k]))
				can = 0;
		if (!can)
			break;
		(*y)--;
	}
	for (k = 0; k < 4; k++)
		if (*y + s->dy[k] >= 20)
			return 0;
	return 1;
}

static int
clear_rows(char cells[20][10])
{
	int row = 0, n = 0, c, full, r;

	while (row < 20) {
		full = 1;
		for (c = 0; c < 10; c++)
			if (cells[row][c] == '.')
				full = 0;
		if (!full) {
			row++;
			continue;
		}
		for (r = row; r < 19; r++)
			memcpy(cells[r], cells[r + 1], 10);
		memset(cells[19], '.', 10);
		n++;
	}
	return n;
}

static int
empty_board(char cells[20][10])
{
	int r, c;

	for (r = 0; r < 20; r++)
		for (c = 0; c < 10; c++)
			if (cells[r][c] != '.')
				return 0;
	return 1;
}

struct figs {
	int lines, holes, max, bump;
};

static void
figures(char cells[20][10], struct figs *f)
{
	int h[10], c, r;

	f->holes = 0;
	f->max = 0;
	f->bump = 0;
	for (c = 0; c < 10; c++) {
		h[c] = 0;
		for (r = 19; r >= 0; r--)
			if (cells[r][c] != '.') {
				h[c] = r + 1;
				break;
			}
		for (r = 0; r < h[c]; r++)
			if (cells[r][c] == '.')
				f->holes++;
		if (h[c] > f->max)
			f->max = h[c];
	}
	for (c = 0; c < 9; c++)
		f->bump += h[c] > h[c + 1] ? h[c] - h[c + 1] : h[c + 1] - h[c];
}

/* Places on a copy of the board: returns lines, fills after. */
static int
place_on(const struct model *m, int p, int r, int col, int y, char after[20][10])
{
	const struct shape *s = &shapes[p][r];
	int k;

	memcpy(after, m->cells, sizeof m->cells);
	for (k = 0; k < 4; k++)
		after[y + s->dy[k]][col + s->dx[k]] = model_letters[p];
	return clear_rows(after);
}

struct mopt {
	int r, c, cells[4];
	struct figs f;
};

static int
options(const struct model *m, int p, struct mopt *out)
{
	char after[20][10];
	int n = 0, r, col, y, k, i, j, dup, cells[4], t;

	for (r = 0; r < 4; r++)
		for (col = 0; col < 10; col++) {
			if (!drop(m, p, r, col, &y))
				continue;
			for (k = 0; k < 4; k++)
				cells[k] = (y + shapes[p][r].dy[k]) * 10 + col + shapes[p][r].dx[k];
			for (i = 0; i < 4; i++) /* sort the cell set */
				for (j = i + 1; j < 4; j++)
					if (cells[j] < cells[i]) {
						t = cells[i];
						cells[i] = cells[j];
						cells[j] = t;
					}
			dup = 0;
			for (i = 0; i < n && !dup; i++)
				dup = memcmp(out[i].cells, cells, sizeof cells) == 0;
			if (dup)
				continue;
			out[n].r = r;
			out[n].c = col;
			memcpy(out[n].cells, cells, sizeof cells);
			out[n].f.lines = place_on(m, p, r, col, y, after);
			figures(after, &out[n].f);
			n++;
		}
	return n;
}

static int
fits_anywhere(const struct model *m, int p)
{
	int r, col, y;

	for (r = 0; r < 4; r++)
		for (col = 0; col < 10; col++)
			if (drop(m, p, r, col, &y))
				return 1;
	return 0;
}

static void
model_init(struct model *m, uint64_t seed)
{
	memset(m->cells, '.', sizeof m->cells);
	m->seed = seed;
	m->score = m->lines = m->placed = 0;
	m->combo = -1;
	m->b2b = 0;
	m->hold = -1;
	m->can_hold = 1;
	m->over = 0;
	m->reason = NULL;
	m->current = bag_piece(seed, 0);
	m->next[0] = bag_piece(seed, 1);
	m->next[1] = bag_piece(seed, 2);
	m->next[2] = bag_piece(seed, 3);
	m->drawn = 1;
}

static int
model_draw(struct model *m)
{
	int p = m->next[0];

	m->next[0] = m->next[1];
	m->next[1] = m->next[2];
	m->drawn++;
	m->next[2] = bag_piece(m->seed, (uint64_t)m->drawn + 2);
	return p;
}

static void
model_end_checks(struct model *m)
{
	int alt;

	if (m->placed >= 150) {
		m->over = 1;
		m->reason = "piece_limit";
	} else if (!fits_anywhere(m, m->current)) {
		alt = !m->can_hold ? -1 : m->hold >= 0 ? m->hold : m->next[0];
		if (alt < 0 || !fits_anywhere(m, alt)) {
			m->over = 1;
			m->reason = "top_out";
		}
	}
	if (m->over)
		m->can_hold = 0;
}

enum { M_OK, M_REFUSED, M_OVER };

static int
model_place(struct model *m, int r, int col, int *lines, long *points)
{
	int y, n, level, b2b_now;
	long pts = 0;
	char after[20][10];

	*lines = 0;
	*points = 0;
	if (m->over)
		return M_OVER;
	if (!drop(m, m->current, r, col, &y))
		return M_REFUSED;
	level = 1 + (int)(m->lines / 10);
	n = place_on(m, m->current, r, col, y, after);
	memcpy(m->cells, after, sizeof after);
	if (n == 0) {
		m->combo = -1;
	} else {
		m->combo++;
		b2b_now = n == 4 && m->b2b;
		switch (n) {
		case 1: pts = 100; break;
		case 2: pts = 300; break;
		case 3: pts = 500; break;
		default: pts = b2b_now ? 1200 : 800; break;
		}
		pts *= level;
		if (m->combo >= 1)
			pts += 50L * m->combo * level;
		if (empty_board(m->cells)) {
			switch (n) {
			case 1: pts += 800L * level; break;
			case 2: pts += 1200L * level; break;
			case 3: pts += 1800L * level; break;
			default: pts += (b2b_now ? 3200L : 2000L) * level; break;
			}
		}
		m->b2b = n == 4;
		m->lines += n;
		m->score += pts;
	}
	m->placed++;
	m->can_hold = 1;
	m->current = model_draw(m);
	model_end_checks(m);
	*lines = n;
	*points = pts;
	return M_OK;
}

static int
model_hold(struct model *m)
{
	int held;

	if (m->over)
		return M_OVER;
	if (!m->can_hold)
		return M_REFUSED;
	held = m->current;
	if (m->hold < 0)
		m->current = model_draw(m);
	else
		m->current = m->hold;
	m->hold = held;
	m->can_hold = 0;
	model_end_checks(m);
	return M_OK;
}

static int
model_finish(struct model *m, const char *why)
{
	if (m->over)
		return M_OVER;
	m->over = 1;
	m->reason = why;
	m->can_hold = 0;
	return M_OK;
}

static void
cells_text(char cells[20][10], char *out)
{
	int r, c;

	for (r = 19; r >= 0; r--) {
		for (c = 0; c < 10; c++)
			*out++ = cells[r][c];
		if (r > 0)
			*out++ = '\n';
	}
	*out = '\0';
}

/* ---- comparison ---- */

static uint64_t rng_state;

static uint64_t
rng(void)
{
	/* xorshift64*: deterministic across platforms, unlike rand(). */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * UINT64_C(2685821657736338717);
}

static char why[512];

static int
same_state(const struct stackfall *g, const struct model *m)
{
	char a[STACKFALL_TEXT_SIZE], b[STACKFALL_TEXT_SIZE], cells[20][10];
	int k, hold = g->hold == STACKFALL_NO_PIECE ? -1 : g->hold;
	const char *reason = stackfall_end_name(g->end_reason);

	stackfall_board_text(g, a);
	memcpy(cells, m->cells, sizeof cells);
	cells_text(cells, b);
	if (strcmp(a, b) != 0)
		return snprintf(why, sizeof why, "boards differ:\n%s\nmodel:\n%s", a, b), 0;
	if (g->score != m->score || g->lines != m->lines || g->placed != m->placed ||
	    g->level != 1 + m->lines / 10 || g->combo != m->combo || g->back_to_back != m->b2b)
		return snprintf(why, sizeof why,
		    "counters differ: score %u/%ld lines %u/%ld placed %u/%ld level %u combo %d/%d b2b %d/%d",
		    g->score, m->score, g->lines, m->lines, g->placed, m->placed, g->level, g->combo,
		    m->combo, g->back_to_back, m->b2b), 0;
	if (g->current != m->current || hold != m->hold || g->can_hold != m->can_hold)
		return snprintf(why, sizeof why, "pieces differ: current %d/%d hold %d/%d can_hold %d/%d",
		    g->current, m->current, hold, m->hold, g->can_hold, m->can_hold), 0;
	for (k = 0; k < 3; k++)
		if (g->next[k] != m->next[k])
			return snprintf(why, sizeof why, "next[%d] differs", k), 0;
	if ((g->status == STACKFALL_OVER) != m->over ||
	    (m->over && (reason == NULL || strcmp(reason, m->reason) != 0)))
		return snprintf(why, sizeof why, "end differs: %s/%s", reason ? reason : "none",
		    m->over ? m->reason : "none"), 0;
	return 1;
}

static int
same_options(const struct stackfall *g, const struct model *m, const struct mopt *mo, int mn)
{
	struct tetromino_option eo[STACKFALL_OPTIONS_MAX + 4];
	size_t n = 0;
	int i;

	if (stackfall_options(g, eo, STACKFALL_OPTIONS_MAX + 4, &n, NULL) !=
	    (m->over ? STACKFALL_GAME_OVER : STACKFALL_OK))
		return snprintf(why, sizeof why, "options outcome differs"), 0;
	if (m->over)
		return 1;
	if ((int)n != mn)
		return snprintf(why, sizeof why, "options count %zu, model %d", n, mn), 0;
	for (i = 0; i < mn; i++)
		if (eo[i].rotation != mo[i].r || eo[i].column != mo[i].c ||
		    eo[i].figures.lines != mo[i].f.lines || eo[i].figures.holes != mo[i].f.holes ||
		    eo[i].figures.max_height != mo[i].f.max ||
		    eo[i].figures.bumpiness != mo[i].f.bump)
			return snprintf(why, sizeof why,
			    "option %d: engine r%u c%u l%u h%u m%u b%u, model r%d c%d l%d h%d m%d b%d", i,
			    eo[i].rotation, eo[i].column, eo[i].figures.lines, eo[i].figures.holes,
			    eo[i].figures.max_height, eo[i].figures.bumpiness, mo[i].r, mo[i].c,
			    mo[i].f.lines, mo[i].f.holes, mo[i].f.max, mo[i].f.bump), 0;
	return 1;
}

struct weights {
	int holes, height, bump, clear_small, tetris, noise, well;
};

/* Picks an option: lower is better. */
static int
choose(const struct mopt *mo, int n, const struct weights *w)
{
	long best = 0, v;
	int i, pick = 0;

	for (i = 0; i < n; i++) {
		v = (long)w->holes * mo[i].f.holes + (long)w->height * mo[i].f.max +
		    (long)w->bump * mo[i].f.bump;
		if (mo[i].f.lines == 4)
			v -= w->tetris;
		else if (mo[i].f.lines > 0)
			v += mo[i].f.max > 10 ? -w->tetris : w->clear_small;
		if (mo[i].c + shapes[0][mo[i].r].width > 9 && mo[i].f.lines == 0)
			v += w->well; /* keep the right column open for tetrises */
		if (w->noise > 0)
			v += (long)(rng() % (uint64_t)w->noise);
		if (i == 0 || v < best) {
			best = v;
			pick = i;
		}
	}
	return pick;
}

struct tally {
	long steps, option_lists, refused, tetrises, b2b, perfect, combos, decoded;
	long ends[5];
};

/* Plays one game; returns 1 when engine and model agreed throughout. */
static int
play(uint64_t seed, struct tally *t)
{
	struct stackfall g, before;
	struct model m;
	struct stackfall_report rep;
	struct tetromino_preview pv;
	struct mopt mo[64];
	struct weights w;
	struct figs f;
	char after[20][10], text[STACKFALL_TEXT_SIZE];
	uint8_t bytes[STACKFALL_SERIAL_MAX];
	int mn, mres, lines, y, r, c, step, pick, mode;
	long points;
	enum stackfall_outcome eres;
	size_t len;
	struct stackfall back;

	stackfall_init(&g, seed);
	model_init(&m, seed);
	mode = (int)(rng() % 4);
	w.holes = 6 + (int)(rng() % 10);
	w.height = 1 + (int)(rng() % 3);
	w.bump = 1 + (int)(rng() % 2);
	w.clear_small = mode == 3 ? 20 : 0;
	w.tetris = 30 + (int)(rng() % 40);
	w.noise = mode == 0 ? 1000 : 1 + (int)(rng() % 12);
	w.well = mode >= 2 ? 15 : 0;
	if (!same_state(&g, &m))
		return 0;
	for (step = 0; step < 600; step++) {
		unsigned roll = (unsigned)(rng() % 1000);

		memcpy(&before, &g, sizeof g);
		mn = m.over ? 0 : options(&m, m.current, mo);
		if (roll < 3) {
			if (roll == 0) {
				eres = stackfall_abandon(&g, &rep);
				mres = model_finish(&m, "abandoned");
			} else {
				eres = stackfall_resign(&g, &rep);
				mres = model_finish(&m, "resigned");
			}
			lines = 0;
			points = 0;
		} else if (roll < 80) {
			eres = stackfall_hold(&g, &rep);
			mres = model_hold(&m);
			lines = 0;
			points = 0;
		} else if (roll < 130 || mn == 0) {
			r = (int)(rng() % 5);
			c = (int)(rng() % 11);
			eres = stackfall_place(&g, (unsigned)r, (unsigned)c, &rep);
			mres = model_place(&m, r, c, &lines, &points);
		} else if (roll < 145) {
			r = (int)(rng() % 5);
			c = (int)(rng() % 11);
			eres = stackfall_preview(&g, (unsigned)r, (unsigned)c, &pv, &rep);
			mres = m.over ? M_OVER : drop(&m, m.current, r, c, &y) ? M_OK : M_REFUSED;
			lines = 0;
			points = 0;
			if (mres == M_OK && eres == STACKFALL_OK) {
				f.lines = place_on(&m, m.current, r, c, y, after);
				figures(after, &f);
				cells_text(after, text);
				lines = f.lines;
				if (strcmp(text, pv.board_text) != 0 || f.lines != pv.figures.lines ||
				    f.holes != pv.figures.holes || f.max != pv.figures.max_height ||
				    f.bump != pv.figures.bumpiness) {
					snprintf(why, sizeof why, "preview %d %d differs", r, c);
					return 0;
				}
				if (memcmp(&g, &before, sizeof g) != 0) {
					snprintf(why, sizeof why, "preview changed the state");
					return 0;
				}
			}
		} else {
			if (!same_options(&g, &m, mo, mn))
				return 0;
			t->option_lists++;
			pick = choose(mo, mn, &w);
			eres = stackfall_place(&g, (unsigned)mo[pick].r, (unsigned)mo[pick].c, &rep);
			mres = model_place(&m, mo[pick].r, mo[pick].c, &lines, &points);
		}
		t->steps++;
		if ((int)eres != mres) {
			snprintf(why, sizeof why, "step %d: outcome %d, model %d (%s)", step, eres, mres,
			    rep.message);
			return 0;
		}
		if (eres != STACKFALL_OK) {
			t->refused++;
			if (memcmp(&g, &before, sizeof g) != 0) {
				snprintf(why, sizeof why, "step %d: a refusal changed the state", step);
				return 0;
			}
		} else if (rep.lines != lines || rep.points != points) {
			snprintf(why, sizeof why, "step %d: lines %u/%d points %u/%ld", step, rep.lines,
			    lines, rep.points, points);
			return 0;
		}
		if (eres == STACKFALL_OK && lines == 4) {
			t->tetrises++;
			t->b2b += points >= 1200 * (long)before.level && before.back_to_back;
		}
		if (eres == STACKFALL_OK && lines > 0 && tetromino_board_is_empty(&g.board))
			t->perfect++;
		if (eres == STACKFALL_OK && lines > 0 && g.combo >= 1)
			t->combos++;
		if (!same_state(&g, &m)) {
			char tmp[512];
			memcpy(tmp, why, sizeof tmp);
			snprintf(why, sizeof why, "step %d: %.400s", step, tmp);
			return 0;
		}
		if (rng() % 16 == 0 || g.status == STACKFALL_OVER) {
			len = stackfall_encode(&g, bytes, sizeof bytes);
			if (!stackfall_decode(&back, bytes, len) || memcmp(&back.board, &g.board,
			    sizeof g.board) != 0 || back.score != g.score || back.next[2] != g.next[2] ||
			    back.bag_number != g.bag_number || back.drawn != g.drawn) {
				snprintf(why, sizeof why, "step %d: a real state does not decode back", step);
				return 0;
			}
			t->decoded++;
		}
		if (g.status == STACKFALL_OVER) {
			t->ends[g.end_reason]++;
			/* every command is refused now */
			memcpy(&before, &g, sizeof g);
			if (stackfall_place(&g, 0, 0, NULL) != STACKFALL_GAME_OVER ||
			    stackfall_hold(&g, NULL) != STACKFALL_GAME_OVER ||
			    memcmp(&g, &before, sizeof g) != 0) {
				snprintf(why, sizeof why, "commands after the end were not refused");
				return 0;
			}
			return 1;
		}
	}
	snprintf(why, sizeof why, "game did not end in 600 steps");
	return 0;
}

int
main(int argc, char **argv)
{
	long games = argc > 1 ? atol(argv[1]) : 10000, i, batch_ok = 1, first;
	uint64_t base = argc > 2 ? strtoull(argv[2], NULL, 10) : 20240611;
	struct tally t;

	read_shapes();
	memset(&t, 0, sizeof t);
	rng_state = base * 2654435761u + 1;
	first = 0;
	for (i = 0; i < games; i++) {
		/* seeds spread over the whole range, small ones too */
		uint64_t seed = i % 3 == 0 ? (uint64_t)i : rng() % (STACKFALL_SEED_MAX + 1);
		if (!play(seed, &t)) {
			if (batch_ok)
				diag("game %ld (seed %llu): %s", i, (unsigned long long)seed, why);
			batch_ok = 0;
		}
		if ((i + 1) % 500 == 0 || i + 1 == games) {
			ok(batch_ok, "games %ld-%ld: engine and naive model agree", first, i);
			batch_ok = 1;
			first = i + 1;
		}
	}
	diag("%ld steps, %ld options lists compared, %ld refusals, %ld states decoded", t.steps,
	    t.option_lists, t.refused, t.decoded);
	diag("%ld tetrises (%ld back-to-back), %ld perfect clears, %ld combo clears", t.tetrises,
	    t.b2b, t.perfect, t.combos);
	diag("ends: top_out %ld, piece_limit %ld, resigned %ld, abandoned %ld", t.ends[1], t.ends[2],
	    t.ends[3], t.ends[4]);
	if (games >= 1000) {
		ok(t.tetrises > 0 && t.b2b > 0 && t.combos > 0, "play reached tetrises, b2b and combos");
		ok(t.ends[1] > 0 && t.ends[2] > 0 && t.ends[3] > 0 && t.ends[4] > 0,
		    "play reached every kind of end");
	}
	return tap_done();
}
