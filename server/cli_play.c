/*
 * cli_play.c: `arcaded play`, the daemon's engine without the daemon. A
 * bot is a command that reads one observation a line on its stdin and
 * writes one action a line on its stdout; the runner plays it for as many
 * games as asked, through the same descriptor the HTTP routes use, so an
 * observation is what the action route answers (its stateToken null) and
 * an action is what that route takes. It prints each game's result and
 * their summary, and can keep each game's replay, which `arcaded verify`
 * and the verify route accept (docs/play.md).
 *
 * One bot process a game by default (a starter plays one run and exits);
 * --persistent keeps one for every game, the next game's first observation
 * following the last one's end.
 */
#include "cli_play.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>
#include <sodium.h>

#include "errors.h"
#include "game.h"
#include "jsonbody.h"
#include "jw.h"
#include "play.h"
#include "play_workspace.h"
#include "replay.h"
#include "run_result.h"

extern char **environ;

#define PLAY_GAMES_MAX   100000
#define PLAY_OPTIONS_MAX 8
#define PLAY_JOBS_MAX    64
#define LINE_MAX_BYTES   (64 * 1024)  /* an action line, as --max-body's default */
#define OBSERVATION_MAX  (4u << 20)  /* an observation line, at most */
#define FACTS_MAX        (1u << 22)   /* facts one game may record */

struct play_args {
	const struct game *game;
	const char *bot;
	const char *out;          /* -o: the replay file (its name numbered past one game) */
	json_t     *init;         /* the init body: --option NAME=VALUE, and the seed */
	bool        seeded;       /* --seed given: games play it and the seeds after it */
	int64_t     seed;
	int64_t     games;
	int64_t     timeout_ms;   /* the bot's time for one line */
	int64_t     max_moves;    /* stored moves a game may reach before it is cut */
	int64_t     max_refusals; /* refusals in a row that end a game */
	int64_t     jobs;         /* games played at once (0: one a core) */
	bool        persistent;
	bool        json;
};

/* ---- the bot ---- */

struct bot {
	pid_t  pid;
	int    to, from;          /* its stdin, its stdout */
	char   buf[LINE_MAX_BYTES + 1];
	size_t len;               /* bytes in buf */
	size_t used;              /* of them, the line handed out last */
};

enum bot_read { BOT_LINE, BOT_EOF, BOT_TIMEOUT, BOT_TOO_LONG, BOT_ERROR };

static const char *const bot_read_text[] = {
	[BOT_LINE] = "a line", [BOT_EOF] = "its output closed",
	[BOT_TIMEOUT] = "no line within --timeout-ms", [BOT_TOO_LONG] = "a line over 64 KiB",
	[BOT_ERROR] = "its output could not be read",
};

static bool
bot_start(struct bot *b, const char *cmd)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	int in[2], out[2], rc;
	char *argv[] = { "sh", "-c", (char *)cmd, NULL };

	memset(b, 0, sizeof *b);
	b->pid = -1;
	/* Close-on-exec: another thread's bot must not inherit this one's
	 * pipes (it would hold them open past this bot's end). */
	if (pipe2(in, O_CLOEXEC) != 0)
		return false;
	if (pipe2(out, O_CLOEXEC) != 0) {
		close(in[0]);
		close(in[1]);
		return false;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, in[0], STDIN_FILENO);
	posix_spawn_file_actions_adddup2(&fa, out[1], STDOUT_FILENO);
	/* Its own process group: stopping it stops what the shell started. */
	posix_spawnattr_init(&at);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
	posix_spawnattr_setpgroup(&at, 0);
	rc = posix_spawn(&b->pid, "/bin/sh", &fa, &at, argv, environ);
	posix_spawnattr_destroy(&at);
	posix_spawn_file_actions_destroy(&fa);
	close(in[0]);
	close(out[1]);
	if (rc != 0) {
		close(in[1]);
		close(out[0]);
		b->pid = -1;
		return false;
	}
	b->to = in[1];
	b->from = out[0];
	return true;
}

/* Closes its stdin and waits for it to exit, then kills what is left of
 * its process group (all of it after grace_ms). Its exit status, or -1
 * when a signal ended it. */
static int
bot_stop(struct bot *b, int64_t grace_ms)
{
	int status = 0;
	int64_t waited = 0;

	if (b->pid < 0)
		return -1;
	if (b->to >= 0)
		close(b->to);
	b->to = -1;
	while (waitpid(b->pid, &status, WNOHANG) == 0) {
		if (waited >= grace_ms) {
			kill(-b->pid, SIGKILL);
			waitpid(b->pid, &status, 0);
			break;
		}
		poll(NULL, 0, 10);
		waited += 10;
	}
	kill(-b->pid, SIGKILL);
	close(b->from);
	b->pid = -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static bool
bot_write(struct bot *b, const char *text, size_t n)
{
	while (n > 0) {
		ssize_t w = write(b->to, text, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		text += w;
		n -= (size_t)w;
	}
	return true;
}

static int64_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The bot's next line (NUL-terminated in place, without its newline). */
static enum bot_read
bot_line(struct bot *b, int64_t timeout_ms, char **line, size_t *n)
{
	int64_t deadline = now_ms() + timeout_ms;

	memmove(b->buf, b->buf + b->used, b->len - b->used);
	b->len -= b->used;
	b->used = 0;
	for (;;) {
		char *nl = memchr(b->buf, '\n', b->len);
		struct pollfd p = { .fd = b->from, .events = POLLIN };
		int64_t left = deadline - now_ms();
		ssize_t r;

		if (nl != NULL) {
			*nl = '\0';
			*line = b->buf;
			*n = (size_t)(nl - b->buf);
			b->used = *n + 1;
			return BOT_LINE;
		}
		if (b->len >= LINE_MAX_BYTES)
			return BOT_TOO_LONG;
		if (left <= 0)
			return BOT_TIMEOUT;
		if (poll(&p, 1, (int)(left > 60000 ? 60000 : left)) < 0 && errno != EINTR)
			return BOT_ERROR;
		if ((p.revents & (POLLIN | POLLHUP | POLLERR)) == 0)
			continue;
		r = read(b->from, b->buf + b->len, LINE_MAX_BYTES - b->len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return BOT_ERROR;
		if (r == 0)
			return BOT_EOF;
		b->len += (size_t)r;
	}
}

/* ---- the facts of a game that records them (HATETRIS: boards seen) ---- */

struct facts {
	size_t   bytes;      /* a fact's size, 0 for a game without */
	size_t   cap, n;     /* slots (a power of two), facts held */
	uint8_t *slots;      /* cap * (1 + bytes): a used flag, then the fact */
	uint8_t  key[crypto_shorthash_KEYBYTES];
};

static size_t
facts_slot(const struct facts *f, const uint8_t *fact)
{
	uint8_t h[crypto_shorthash_BYTES];
	uint64_t v;

	crypto_shorthash(h, fact, f->bytes, f->key);
	memcpy(&v, h, sizeof v);
	return (size_t)v & (f->cap - 1);
}

static bool
facts_known(void *ctx, const uint8_t *fact)
{
	const struct facts *f = ctx;
	size_t i, stride = 1 + f->bytes;

	if (f->n == 0)
		return false;
	for (i = facts_slot(f, fact);; i = (i + 1) & (f->cap - 1)) {
		const uint8_t *s = f->slots + i * stride;

		if (s[0] == 0)
			return false;
		if (memcmp(s + 1, fact, f->bytes) == 0)
			return true;
	}
}

static bool
facts_add(struct facts *f, const uint8_t *fact)
{
	size_t stride = 1 + f->bytes, i;

	if (facts_known(f, fact))
		return true;
	if ((f->n + 1) * 2 > f->cap) {
		struct facts grown = *f;
		size_t k;

		if (f->n >= FACTS_MAX)
			return false;
		grown.cap = f->cap ? f->cap * 2 : 1024;
		grown.n = 0;
		if ((grown.slots = calloc(grown.cap, stride)) == NULL)
			return false;
		for (k = 0; k < f->cap; k++)
			if (f->slots[k * stride] != 0)
				facts_add(&grown, f->slots + k * stride + 1);
		free(f->slots);
		*f = grown;
	}
	for (i = facts_slot(f, fact); f->slots[i * stride] != 0; i = (i + 1) & (f->cap - 1))
		;
	f->slots[i * stride] = 1;
	memcpy(f->slots + i * stride + 1, fact, f->bytes);
	f->n++;
	return true;
}

/* ---- one game ---- */

struct game_result {
	int64_t  seed;
	int64_t  moves;          /* stored moves */
	int64_t  actions;        /* lines the bot sent */
	int64_t  refused;        /* of them, refused */
	struct game_summary sum;
	char     end[200];       /* how it ended: the game's reason, or what went wrong */
	bool     failed;         /* the bot stopped answering, or was cut off */
	bool     replay;         /* its replay was written (replay_path) */
};

struct game_play {
	const struct play_args *a;
	struct game_env env;
	game_state st, after;
	void      *scratch;
	struct facts facts;
	json_t    *actions;      /* the stored moves, as a replay holds them */
	json_t    *body;         /* the last action line: the scratch may point into it */
	json_t    *init;         /* the init body: the runner's options, and the game's seed */
	struct jw  w;
};

static const char *
query_none(void *ctx, const char *name)
{
	(void)ctx;
	(void)name;
	return NULL;
}

/* The init of game k: its seed and options read as an init body is. */
static bool
game_start(struct game_play *gp, int64_t k, struct game_result *r, char *msg, size_t cap)
{
	const struct game *g = gp->a->game;
	struct game_request rq = { .body = gp->init, .query = query_none };
	struct game_options opts;
	enum api_error err;
	bool chosen;

	if (gp->a->seeded && !g->seedless && game_ext(g)->seed_of == NULL)
		json_object_set_new(gp->init, "seed",
		    json_integer((gp->a->seed + k) % (ENGINE_ID_MAX + 1)));
	if (!game_init_fields_known(g, &rq, true, msg, cap) ||
	    !game_read_seed(g, &rq, &r->seed, &chosen, msg, cap) ||
	    !game_read_options(g, &rq, &opts, msg, cap))
		return false;
	if (!g->init(&gp->st, (uint64_t)r->seed, &opts, &gp->env, &err, msg, cap))
		return false;
	gp->facts.n = 0;
	if (gp->facts.slots != NULL)
		memset(gp->facts.slots, 0, gp->facts.cap * (1 + gp->facts.bytes));
	json_array_clear(gp->actions);
	return true;
}

/* One observation line: the action route's answer (its stateToken null),
 * after an error when the line before was refused, with the finish's
 * final summary once the run is over. */
static bool
observe(struct game_play *gp, struct bot *b, int64_t k, const struct game_result *r,
    const void *scratch, enum api_error refusal, const char *reason)
{
	const struct game *g = gp->a->game;
	char run_id[32];
	const char *text;
	size_t n;

	snprintf(run_id, sizeof run_id, "play-%" PRId64, k + 1);
	jw_cleanup(&gp->w);
	jw_init(&gp->w, 4096, OBSERVATION_MAX);
	jw_object(&gp->w);
	if (reason != NULL) {
		char fixed[API_ERROR_TEXT_MAX];

		jw_key(&gp->w, "error");
		jw_object(&gp->w);
		jw_kstring(&gp->w, "code", api_error_info(refusal)->code);
		jw_kstring(&gp->w, "message", api_error_text(fixed, sizeof fixed, reason));
		jw_object_end(&gp->w);
	}
	jw_kstring(&gp->w, "game", g->name);
	jw_kstring(&gp->w, "runId", run_id);
	jw_knull(&gp->w, "stateToken");
	if (!g->answer_write(&gp->w, &gp->st, scratch))
		return false;
	if (r->sum.over) {
		struct run_result rr = { .game = g, .state = &gp->st, .id = k + 1, .seed = r->seed,
			.account = "", .moves = r->moves };
		json_t *final = run_result_final(&rr);

		if (final == NULL)
			return false;
		jw_key(&gp->w, "final");
		jw_json(&gp->w, final);
		json_decref(final);
	}
	jw_object_end(&gp->w);
	text = jw_text(&gp->w, &n);
	if (gp->w.failed || text == NULL)
		return false;
	return bot_write(b, text, n) && bot_write(b, "\n", 1);
}

/* The bot's line read and played: false when the line was refused (msg,
 * *refusal), with the state unchanged. */
static bool
act(struct game_play *gp, struct game_result *r, char *line, size_t n, struct game_turn *t,
    enum api_error *refusal, char *msg, size_t cap)
{
	const struct game *g = gp->a->game;
	const char *fields[16];
	json_error_t jerr;
	json_t *body;
	size_t i, nf = 0;

	fields[nf++] = "stateToken";
	for (i = 0; g->action_fields != NULL && g->action_fields[i] != NULL && nf + 1 < 16; i++)
		fields[nf++] = g->action_fields[i];
	fields[nf] = NULL;
	json_decref(gp->body);
	gp->body = body = jsonbody_load(line, n, &jerr);
	if (body == NULL || !json_is_object(body)) {
		*refusal = body == NULL ? API_ERR_INVALID_JSON : API_ERR_INVALID_REQUEST;
		snprintf(msg, cap, body == NULL ? "the line is not JSON: %s" : "the line is not a JSON object%s",
		    body == NULL ? jerr.text : "");
		return false;
	}
	if (g->scratch_size > 0)
		game_scratch_ready(g, gp->scratch);
	*refusal = API_ERR_INVALID_REQUEST;
	if (!jsonbody_known(body, fields, msg, cap) || !g->read_action(body, gp->scratch, msg, cap))
		return false;
	memcpy(&gp->after, &gp->st, sizeof gp->after);
	game_turn_reset(t);
	g->play(&gp->after, gp->scratch, &gp->env, t);
	if (t->refused) {
		*refusal = t->refusal;
		snprintf(msg, cap, "%s", t->reason);
		return false;
	}
	for (i = 0; i < t->nmoves; i++) {
		json_t *move = json_loads(t->moves[i], JSON_DECODE_ANY, NULL);

		if (move == NULL || json_array_append_new(gp->actions, move) != 0) {
			*refusal = API_ERR_INTERNAL;
			snprintf(msg, cap, "move %zu of the turn does not read back: %.100s", i + 1, t->moves[i]);
			return false;
		}
	}
	for (i = 0; i < t->nfacts; i++)
		if (!facts_add(&gp->facts, t->facts[i].bytes)) {
			*refusal = API_ERR_INTERNAL;
			snprintf(msg, cap, "the game's facts outgrew the runner");
			return false;
		}
	memcpy(&gp->st, &gp->after, sizeof gp->st);
	r->moves += (int64_t)t->nmoves;
	g->summary(&gp->st, &r->sum);
	return true;
}

/* The replay of the game just played, into path. */
static bool
replay_save(struct game_play *gp, const struct game_result *r, const char *path)
{
	const struct game *g = gp->a->game;
	json_t *opts = game_ext(g)->replay_options ? game_ext(g)->replay_options(&gp->st) : NULL;
	json_t *replay = replay_new(g, r->seed, json_deep_copy(gp->actions), g->final(&gp->st), opts);
	int rc;

	if (replay == NULL)
		return false;
	rc = json_dump_file(replay, path, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(replay);
	return rc == 0;
}

/* The replay file of game k: the name given, numbered before its
 * extension when there is more than one game. */
static void
replay_path(const struct play_args *a, int64_t k, char *out, size_t cap)
{
	const char *dot = strrchr(a->out, '.'), *slash = strrchr(a->out, '/');

	if (a->games == 1) {
		snprintf(out, cap, "%s", a->out);
		return;
	}
	if (dot == NULL || (slash != NULL && dot < slash))
		dot = a->out + strlen(a->out);
	snprintf(out, cap, "%.*s-%" PRId64 "%s", (int)(dot - a->out), a->out, k + 1, dot);
}

/* Plays game k with the bot b (started already). */
static void
play_game(struct game_play *gp, struct bot *b, int64_t k, struct game_result *r)
{
	const struct play_args *a = gp->a;
	struct game_turn *t = malloc(sizeof *t);
	int64_t in_a_row = 0;
	char msg[512];

	memset(r, 0, sizeof *r);
	if (t == NULL || !game_start(gp, k, r, msg, sizeof msg)) {
		snprintf(r->end, sizeof r->end, "%.190s", t == NULL ? "out of memory" : msg);
		r->failed = true;
		free(t);
		return;
	}
	a->game->summary(&gp->st, &r->sum);
	if (!observe(gp, b, k, r, NULL, API_ERR__COUNT, NULL)) {
		snprintf(r->end, sizeof r->end, "the bot took no observation (it exited?)");
		r->failed = true;
	}
	while (!r->failed && !r->sum.over) {
		enum api_error refusal;
		enum bot_read got;
		char *line;
		size_t n;
		bool played;

		if (r->moves >= a->max_moves) {
			snprintf(r->end, sizeof r->end, "cut at --max-moves %" PRId64, a->max_moves);
			r->failed = true;
			break;
		}
		if ((got = bot_line(b, a->timeout_ms, &line, &n)) != BOT_LINE) {
			snprintf(r->end, sizeof r->end, "the bot stopped: %s", bot_read_text[got]);
			r->failed = true;
			break;
		}
		r->actions++;
		played = act(gp, r, line, n, t, &refusal, msg, sizeof msg);
		if (!played && refusal == API_ERR_INTERNAL) {
			snprintf(r->end, sizeof r->end, "%.190s", msg);
			r->failed = true;
			break;
		}
		in_a_row = played ? 0 : in_a_row + 1;
		r->refused += played ? 0 : 1;
		if (!observe(gp, b, k, r, played ? gp->scratch : NULL, refusal, played ? NULL : msg)) {
			snprintf(r->end, sizeof r->end, "the bot took no observation (it exited?)");
			r->failed = true;
			break;
		}
		if (in_a_row >= a->max_refusals) {
			snprintf(r->end, sizeof r->end, "%" PRId64 " refusals in a row (--max-refusals)", in_a_row);
			r->failed = true;
		}
	}
	if (!r->failed)
		snprintf(r->end, sizeof r->end, "%s", r->sum.end_reason ? r->sum.end_reason : r->sum.status);
	if (a->out != NULL) {
		char path[4096];

		replay_path(a, k, path, sizeof path);
		r->replay = replay_save(gp, r, path);
		if (!r->replay) {
			fprintf(stderr, "arcaded play: %s: cannot write the replay\n", path);
			r->failed = true;
		}
	}
	free(t);
}

/* ---- the command ---- */

static int
usage(void)
{
	fprintf(stderr, "usage: arcaded play GAME --bot CMD [--games N] [--seed S] [--option NAME=VALUE]...\n"
	    "           [-o REPLAY.json] [--jobs N] [--timeout-ms MS] [--max-moves N] [--max-refusals N]\n"
	    "           [--persistent] [--json]   (docs/play.md)\n");
	return 2;
}

static bool
int_arg(const char *flag, const char *text, int64_t lo, int64_t hi, int64_t *out)
{
	if (jsonbody_parse_int(text, lo, hi, out))
		return true;
	fprintf(stderr, "arcaded play: %s takes an integer from %" PRId64 " to %" PRId64 "\n", flag, lo, hi);
	return false;
}

/* Reads argv into a; false after a message (exit status 2). */
static bool
parse(int argc, char **argv, struct play_args *a)
{
	int i, nopt = 0;

	if (argc < 2 || (a->game = game_by_name(argv[1], strlen(argv[1]))) == NULL) {
		char names[GAME_NAMES_MAX];

		if (argc >= 2)
			fprintf(stderr, "arcaded play: no game %s; the games: %s\n", argv[1],
			    game_names(names, sizeof names));
		return false;
	}
	for (i = 2; i < argc; i++) {
		const char *f = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		bool takes = true;

		if (strcmp(f, "--persistent") == 0 || strcmp(f, "--json") == 0) {
			*(strcmp(f, "--json") == 0 ? &a->json : &a->persistent) = true;
			takes = false;
		} else if (v == NULL) {
			fprintf(stderr, "arcaded play: %s takes a value\n", f);
			return false;
		} else if (strcmp(f, "--bot") == 0) {
			a->bot = v;
		} else if (strcmp(f, "-o") == 0) {
			a->out = v;
		} else if (strcmp(f, "--games") == 0) {
			if (!int_arg(f, v, 1, PLAY_GAMES_MAX, &a->games))
				return false;
		} else if (strcmp(f, "--seed") == 0) {
			if (!int_arg(f, v, 0, ENGINE_ID_MAX, &a->seed))
				return false;
			a->seeded = true;
		} else if (strcmp(f, "--jobs") == 0) {
			if (!int_arg(f, v, 1, PLAY_JOBS_MAX, &a->jobs))
				return false;
		} else if (strcmp(f, "--timeout-ms") == 0) {
			if (!int_arg(f, v, 1, 3600000, &a->timeout_ms))
				return false;
		} else if (strcmp(f, "--max-moves") == 0) {
			if (!int_arg(f, v, 1, INT64_C(1) << 40, &a->max_moves))
				return false;
		} else if (strcmp(f, "--max-refusals") == 0) {
			if (!int_arg(f, v, 1, 1000000, &a->max_refusals))
				return false;
		} else if (strcmp(f, "--option") == 0) {
			const char *eq = strchr(v, '=');
			int64_t n;
			char name[64];

			if (eq == NULL || eq == v || (size_t)(eq - v) >= sizeof name ||
			    !jsonbody_parse_int(eq + 1, 0, INT64_C(1) << 53, &n) || ++nopt > PLAY_OPTIONS_MAX) {
				fprintf(stderr, "arcaded play: --option takes NAME=VALUE, a whole number (at most %d)\n",
				    PLAY_OPTIONS_MAX);
				return false;
			}
			snprintf(name, sizeof name, "%.*s", (int)(eq - v), v);
			if (strcmp(name, "seed") == 0) {
				fprintf(stderr, "arcaded play: the seed is --seed's\n");
				return false;
			}
			json_object_set_new(a->init, name, json_integer(n));
		} else {
			fprintf(stderr, "arcaded play: unknown option %s\n", f);
			return false;
		}
		i += takes;
	}
	if (a->bot == NULL) {
		fprintf(stderr, "arcaded play: --bot CMD names the bot (a command run with sh -c)\n");
		return false;
	}
	if (a->seeded && (a->game->seedless || game_ext(a->game)->seed_of != NULL)) {
		fprintf(stderr, "arcaded play: %s takes no seed\n", a->game->name);
		return false;
	}
	return true;
}

static int
cmp_i64(const void *x, const void *y)
{
	int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;

	return (a > b) - (a < b);
}

static void
print_game(const struct play_args *a, int64_t k, const struct game_result *r)
{
	if (a->json)
		return;
	printf("game %" PRId64 "  seed %" PRId64 "  score %" PRId64, k + 1, r->seed, r->sum.score);
	if (r->sum.lines >= 0)
		printf("  lines %" PRId64, r->sum.lines);
	if (r->sum.pieces >= 0)
		printf("  pieces %" PRId64, r->sum.pieces);
	printf("  moves %" PRId64 "  refused %" PRId64 "  %s%s\n", r->moves, r->refused,
	    r->failed ? "FAILED: " : "", r->end);
	if (r->replay) {
		char path[4096];

		replay_path(a, k, path, sizeof path);
		printf("  replay %s\n", path);
	}
	fflush(stdout);
}

/* The summary: the mean, median, best and worst score, and the failures;
 * a JSON object with every game under --json. */
static void
print_summary(const struct play_args *a, const struct game_result *rs, double seconds)
{
	int64_t *scores = malloc((size_t)a->games * sizeof *scores), k, failed = 0, best = 0, worst = 0;
	double mean = 0, median;

	if (scores == NULL)
		return;
	for (k = 0; k < a->games; k++) {
		scores[k] = rs[k].sum.score;
		mean += (double)scores[k] / (double)a->games;
		failed += rs[k].failed;
		if (rs[k].sum.score > rs[best].sum.score)
			best = k;
		if (rs[k].sum.score < rs[worst].sum.score)
			worst = k;
	}
	qsort(scores, (size_t)a->games, sizeof *scores, cmp_i64);
	median = a->games % 2 ? (double)scores[a->games / 2]
	                      : ((double)scores[a->games / 2 - 1] + (double)scores[a->games / 2]) / 2;
	free(scores);
	if (a->json) {
		json_t *games = json_array(), *o;

		for (k = 0; k < a->games; k++) {
			const struct game_result *r = &rs[k];
			char path[4096];

			if (r->replay)
				replay_path(a, k, path, sizeof path);
			json_array_append_new(games, json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:b, s:s, s:s?}",
			    "seed", (json_int_t)r->seed, "score", (json_int_t)r->sum.score,
			    "lines", (json_int_t)r->sum.lines, "moves", (json_int_t)r->moves,
			    "actions", (json_int_t)r->actions, "refused", (json_int_t)r->refused,
			    "failed", r->failed, "end", r->end, "replay", r->replay ? path : NULL));
		}
		o = json_pack("{s:s, s:I, s:f, s:f, s:{s:I, s:I}, s:{s:I, s:I}, s:I, s:f, s:o}",
		    "game", a->game->name, "games", (json_int_t)a->games, "mean", mean, "median", median,
		    "best", "seed", (json_int_t)rs[best].seed, "score", (json_int_t)rs[best].sum.score,
		    "worst", "seed", (json_int_t)rs[worst].seed, "score", (json_int_t)rs[worst].sum.score,
		    "failed", (json_int_t)failed, "seconds", seconds, "results", games);
		if (o != NULL)
			json_dumpf(o, stdout, JSON_INDENT(1));
		printf("\n");
		json_decref(o);
		return;
	}
	printf("%" PRId64 " games of %s in %.1f s: score mean %.2f, median %.1f, best %" PRId64
	    " (seed %" PRId64 "), worst %" PRId64 " (seed %" PRId64 "); %" PRId64 " failed\n",
	    a->games, a->game->name, seconds, mean, median, rs[best].sum.score, rs[best].seed,
	    rs[worst].sum.score, rs[worst].seed, failed);
}

/* The games shared by the worker threads: each takes the next game, and
 * prints its line when it is done. */
struct runner {
	const struct play_args *a;
	struct game_result     *rs;
	int64_t                 next, failed;
	bool                    stop;     /* a bot could not be started */
	pthread_mutex_t         lock;
};

static void
game_play_free(struct game_play *gp)
{
	jw_cleanup(&gp->w);
	free(gp->facts.slots);
	free(gp->scratch);
	json_decref(gp->actions);
	json_decref(gp->body);
	json_decref(gp->init);
}

static void *
runner_thread(void *arg)
{
	struct runner *rn = arg;
	const struct play_args *a = rn->a;
	struct game_play gp = { .a = a };
	struct bot b = { .pid = -1 };

	gp.facts.bytes = game_ext(a->game)->fact_bytes;
	randombytes_buf(gp.facts.key, sizeof gp.facts.key);
	jw_init(&gp.w, 4096, OBSERVATION_MAX);
	if (!play_env(a->game, &gp.env) || (gp.actions = json_array()) == NULL ||
	    (gp.init = json_deep_copy(a->init)) == NULL ||
	    (a->game->scratch_size > 0 && (gp.scratch = malloc(a->game->scratch_size)) == NULL)) {
		fprintf(stderr, "arcaded play: out of memory\n");
		goto out;
	}
	if (gp.facts.bytes > 0) {
		gp.env.fact_known = facts_known;
		gp.env.facts_ctx = &gp.facts;
	}
	for (;;) {
		struct game_result *r;
		int64_t k;

		pthread_mutex_lock(&rn->lock);
		k = rn->stop ? a->games : rn->next++;
		pthread_mutex_unlock(&rn->lock);
		if (k >= a->games)
			break;
		r = &rn->rs[k];
		if (b.pid < 0 && !bot_start(&b, a->bot)) {
			fprintf(stderr, "arcaded play: cannot start the bot: %s\n", strerror(errno));
			pthread_mutex_lock(&rn->lock);
			rn->stop = true;
			pthread_mutex_unlock(&rn->lock);
			break;
		}
		play_game(&gp, &b, k, r);
		if (!a->persistent || r->failed) {
			int status = bot_stop(&b, r->failed ? 0 : a->timeout_ms);

			if (status != 0 && !r->failed) {
				size_t n = strlen(r->end);

				snprintf(r->end + n, sizeof r->end - n, "; the bot exited with status %d", status);
				r->failed = true;
			}
		}
		pthread_mutex_lock(&rn->lock);
		rn->failed += r->failed;
		print_game(a, k, r);
		pthread_mutex_unlock(&rn->lock);
	}
out:
	if (b.pid >= 0)
		bot_stop(&b, a->timeout_ms);
	game_play_free(&gp);
	return NULL;
}

int
cli_play(int argc, char **argv)
{
	struct play_args a = { .games = 1, .timeout_ms = 10000, .max_moves = 100000,
		.max_refusals = 10, .jobs = 0 };
	struct runner rn = { .a = &a };
	pthread_t threads[PLAY_JOBS_MAX];
	struct game_request rq;
	struct game_options opts;
	int64_t started = 0, i, start = now_ms();
	char msg[512];
	int rc = 1;

	a.init = json_object();
	if (a.init == NULL || !parse(argc, argv, &a)) {
		json_decref(a.init);
		return usage();
	}
	/* The options checked once, before any bot starts. */
	rq = (struct game_request){ .body = a.init, .query = query_none };
	if (!game_init_fields_known(a.game, &rq, true, msg, sizeof msg) ||
	    !game_read_options(a.game, &rq, &opts, msg, sizeof msg)) {
		fprintf(stderr, "arcaded play: %s\n", msg);
		json_decref(a.init);
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	if (a.jobs == 0) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		a.jobs = n < 1 ? 1 : n > PLAY_JOBS_MAX ? PLAY_JOBS_MAX : n;
	}
	if (a.jobs > a.games)
		a.jobs = a.games;
	if (!a.seeded && !a.game->seedless && game_ext(a.game)->seed_of == NULL) {
		a.seed = game_random_seed();
		a.seeded = true;
	}
	if ((rn.rs = calloc((size_t)a.games, sizeof *rn.rs)) == NULL) {
		fprintf(stderr, "arcaded play: out of memory\n");
		json_decref(a.init);
		return 1;
	}
	pthread_mutex_init(&rn.lock, NULL);
	for (i = 0; i < a.jobs; i++) {
		if (pthread_create(&threads[i], NULL, runner_thread, &rn) != 0)
			break;
		started++;
	}
	for (i = 0; i < started; i++)
		pthread_join(threads[i], NULL);
	if (started == 0 || rn.next < a.games || rn.stop) {
		fprintf(stderr, "arcaded play: stopped before every game was played\n");
	} else {
		print_summary(&a, rn.rs, (double)(now_ms() - start) / 1000.0);
		rc = rn.failed == 0 ? 0 : 1;
	}
	pthread_mutex_destroy(&rn.lock);
	free(rn.rs);
	json_decref(a.init);
	return rc;
}
