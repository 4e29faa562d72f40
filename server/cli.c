/*
 * cli.c: subcommands. `keys rotate` adds a key to the key file; `backup`
 * and `copy` copy a database (store_copy.c); the game tools (stream,
 * verify) print what the engine computes, and every game may offer its
 * own through its descriptor (game_ext's subcommands: Duskcourt's deal).
 */
#include "cli.h"
#include "cli_play.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "config.h"
#include "jsonbody.h"
#include "keyfile.h"
#include "match.h"
#include "match_ticks.h"
#include "match_rules.h"
#include "play.h"
#include "replay.h"
#include "replay_walk.h"
#include "solve_cli.h"
#include "store.h"
#include "play_workspace.h"
#include "tetromino_game.h"

#define SEED_MAX ENGINE_ID_MAX
#define STREAM_MAX 1000000

/* arcaded stream SEED COUNT: the seed's first COUNT pieces, one line. */
static int
cli_stream(int argc, char **argv)
{
	int64_t seed, count;
	char *line;

	if (argc != 3) {
		fprintf(stderr, "usage: arcaded stream SEED COUNT\n");
		return 2;
	}
	if (!jsonbody_parse_int(argv[1], 0, SEED_MAX, &seed)) {
		fprintf(stderr, "arcaded stream: SEED must be an integer from 0 to %lld\n", (long long)SEED_MAX);
		return 2;
	}
	if (!jsonbody_parse_int(argv[2], 0, STREAM_MAX, &count)) {
		fprintf(stderr, "arcaded stream: COUNT must be an integer from 0 to %d\n", STREAM_MAX);
		return 2;
	}
	line = malloc((size_t)count + 1);
	if (line == NULL)
		return 1;
	tetromino_stream_letters((uint64_t)seed, line, (size_t)count);
	line[count] = '\0';
	printf("%s\n", line);
	free(line);
	return 0;
}

static int
cli_keys(int argc, char **argv)
{
	struct config cfg;
	struct keyfile kf;
	char err[1024];
	int rc;

	if (argc < 2 || strcmp(argv[1], "rotate") != 0) {
		fprintf(stderr, "usage: arcaded keys rotate [--db PATH] [--key-file PATH]\n");
		return 2;
	}
	if ((rc = config_from_args(&cfg, argc - 2, argv + 2)) >= 0)
		return rc;
	if (keyfile_rotate(cfg.key_path, &kf, err, sizeof err) != 0) {
		fprintf(stderr, "arcaded: %s\n", err);
		return 1;
	}
	printf("key file %s now holds %d keys; the new one is current. Send the daemon SIGHUP "
	    "(systemctl reload arcaded) to seal and sign with it; older tokens and certificates "
	    "stay valid.\n", cfg.key_path, kf.nkeys);
	keyfile_wipe(&kf);
	return 0;
}

/* A match's replay, of the ruleset mr: the verifier of the verify route. */
static int
cli_verify_match(const struct match_rules *mr, const json_t *replay)
{
	struct match_replay_check chk;
	char *final;
	int rc = match_replay_verify(mr, replay, &chk);
	bool ticks = json_object_get(replay, "clock") != NULL; /* real time: inputs, not turns */

	final = chk.final ? json_dumps(chk.final, JSON_COMPACT) : NULL;
	if (rc == 0 && ticks)
		printf("valid: %s real-time match replay, %zu inputs, final %s\n", mr->name, chk.nturns,
		    final ? final : "?");
	else if (rc == 0)
		printf("valid: %s match replay, %zu turns, final %s\n", mr->name, chk.nturns,
		    final ? final : "?");
	else if (chk.turn > 0)
		printf("invalid at %s %zu: %s\n", ticks ? "input" : "turn", chk.turn, chk.reason);
	else
		printf("invalid: %s\n", chk.reason);
	free(final);
	json_decref(chk.final);
	return rc == 0 ? 0 : 1;
}

/* The game whose records a body without "game" is: the one game on the
 * table that imports records, or NULL when not exactly one does. */
static const struct game *
record_game(void)
{
	const struct game *found = NULL;
	size_t i;

	for (i = 0; i < GAME__COUNT; i++) {
		if (game_ext(game_table[i])->replay_import == NULL)
			continue;
		if (found != NULL)
			return NULL;
		found = game_table[i];
	}
	return found;
}

/* A record in a game's outside format: {"game": NAME, "record": ..., ...}
 * as the import route takes it, or the file's text alone, a record of the
 * one game that imports records (record_game), under its defaults. */
static int
cli_verify_record(const char *file, const json_t *body, const char *text)
{
	const struct game *g = record_game();
	const struct game_ext *x;
	json_t *own = NULL, *o;
	char why[256], line[512];
	bool oom;
	int rc = 1;

	if (body != NULL && json_is_string(json_object_get(body, "game"))) {
		const json_t *name = json_object_get(body, "game");

		g = game_by_name(json_string_value(name), json_string_length(name));
	}
	if (g == NULL || (x = game_ext(g))->replay_import == NULL) {
		fprintf(stderr, "arcaded verify: %s: no game with records to import\n", file);
		return 1;
	}
	if (body == NULL)
		body = own = json_pack("{s:s}", "record", text);
	else
		body = own = json_deep_copy(body);
	if (body != NULL)
		json_object_del((json_t *)body, "game");
	o = body != NULL ? x->replay_import(body, &oom, why, sizeof why) : NULL;
	if (o != NULL) {
		if (x->record_text != NULL)
			x->record_text(o, line, sizeof line);
		else
			snprintf(line, sizeof line, "%s record", g->name);
		printf("valid: %s\n", line);
		rc = 0;
	} else
		printf("invalid: %s\n", body == NULL ? "out of memory" : why);
	json_decref(o);
	json_decref(own);
	return rc;
}

/* Reads a whole file ("-": stdin) into a NUL-terminated string. */
static char *
read_all(const char *file, size_t *len)
{
	FILE *f = strcmp(file, "-") == 0 ? stdin : fopen(file, "rb");
	size_t cap = 4096, n = 0, k;
	char *buf = f != NULL ? malloc(cap) : NULL;

	while (buf != NULL && (k = fread(buf + n, 1, cap - 1 - n, f)) > 0) {
		n += k;
		if (n + 1 >= cap) {
			char *p = realloc(buf, cap * 2);

			if (p == NULL) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = p;
			cap *= 2;
		}
	}
	if (buf != NULL)
		buf[n] = '\0';
	if (f != NULL && f != stdin)
		fclose(f);
	*len = n;
	return buf;
}

/* arcaded verify FILE: re-simulates a replay (or a run's JSON holding one,
 * as GET /api/games/{game}/runs/{runId} answers it, or a match's, as GET
 * /api/matches/{id}/replay does), or a record (cli_verify_record). "-"
 * reads stdin. */
static int
cli_verify(int argc, char **argv)
{
	struct replay_check chk;
	struct game_env env = { .work = NULL, .shared = play_shared };
	const struct match_rules *mr;
	const struct game *g;
	json_error_t jerr;
	const json_t *replay;
	json_t *doc;
	char *final, *text;
	size_t len;
	int rc;

	if (argc != 2) {
		fprintf(stderr, "usage: arcaded verify FILE   (a replay, a run as the API answers it, or a game's own record; - for stdin)\n");
		return 2;
	}
	if ((text = read_all(argv[1], &len)) == NULL) {
		fprintf(stderr, "arcaded verify: %s: cannot read it\n", argv[1]);
		return 1;
	}
	/* Not a JSON object: a record string (hatetris-classic's encodings). */
	doc = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	if (doc == NULL || !json_is_object(doc) || json_object_get(doc, "record") != NULL) {
		rc = cli_verify_record(argv[1], json_is_object(doc) ? doc : NULL, text);
		json_decref(doc);
		free(text);
		return rc;
	}
	free(text);
	replay = json_object_get(doc, "replay") ? json_object_get(doc, "replay") : doc;
	if (json_is_null(replay)) {
		fprintf(stderr, "arcaded verify: %s holds no replay (a playing run whose seed tells its future withholds it)\n", argv[1]);
		json_decref(doc);
		return 1;
	}
	if ((mr = match_rules_by_name(json_string_value(json_object_get(replay, "rules")))) != NULL) {
		rc = cli_verify_match(mr, replay);
		json_decref(doc);
		return rc;
	}
	/* The game's working memory first: the verifier finds the game again. */
	g = game_by_rules(json_string_value(json_object_get(replay, "rules")));
	if (g != NULL && !play_env(g, &env)) {
		fprintf(stderr, "arcaded verify: out of memory\n");
		json_decref(doc);
		return 1;
	}
	rc = replay_verify(replay, NULL, &env, &chk);
	final = chk.final ? json_dumps(chk.final, JSON_COMPACT) : NULL;
	if (rc == 0)
		printf("valid: %s replay, %zu actions, final %s\n", chk.game->name, chk.nactions,
		    final ? final : "?");
	else if (chk.step > 0)
		printf("invalid at step %zu: %s\n", chk.step, chk.reason);
	else
		printf("invalid: %s\n", chk.reason);
	free(final);
	json_decref(chk.final);
	json_decref(doc);
	return rc == 0 ? 0 : 1;
}

/* The value of flag --NAME in argv (as --NAME VALUE or --NAME=VALUE), or
 * NULL; *bad is set for a flag that is not one of names. */
static const char *
flag_value(int argc, char **argv, const char *name, const char *const *names, bool *bad)
{
	const char *found = NULL;
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *eq;
		size_t n;
		int k;
		bool known = false;

		if (strncmp(a, "--", 2) != 0) {
			*bad = true;
			continue;
		}
		eq = strchr(a, '=');
		n = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
		for (k = 0; names[k] != NULL; k++)
			if (strlen(names[k]) == n && strncmp(a + 2, names[k], n) == 0)
				known = true;
		if (!known || (eq == NULL && i + 1 >= argc)) {
			*bad = true;
			continue;
		}
		if (strlen(name) == n && strncmp(a + 2, name, n) == 0)
			found = eq ? eq + 1 : argv[i + 1];
		if (eq == NULL)
			i++;
	}
	return found;
}

/* arcaded backup PATH [--db DB]: a consistent copy of a (running) SQLite
 * database into the new file PATH. */
static int
cli_backup(int argc, char **argv)
{
	static const char *const names[] = { "db", NULL };
	const char *db, *env = getenv("ARCADED_DB");
	char err[1024];
	bool bad = false;

	db = argc >= 2 ? flag_value(argc - 1, argv + 1, "db", names, &bad) : NULL;
	if (argc < 2 || argv[1][0] == '-' || bad) {
		fprintf(stderr, "usage: arcaded backup PATH [--db DB]   (a new file; DB defaults to "
		    "$ARCADED_DB, then data/arcaded.db)\n");
		return 2;
	}
	if (db == NULL)
		db = env != NULL && env[0] != '\0' ? env : "data/arcaded.db";
	if (store_backup(db, argv[1], err, sizeof err) != 0) {
		fprintf(stderr, "arcaded backup: %s\n", err);
		return 1;
	}
	printf("backed up %s into %s\n", db, argv[1]);
	return 0;
}

/* arcaded copy --from PATH --to URL: a SQLite database into an empty
 * PostgreSQL one. */
static int
cli_copy(int argc, char **argv)
{
	static const char *const names[] = { "from", "to", NULL };
	const char *from, *to;
	char err[1024], name[512];
	bool bad = false;

	from = flag_value(argc, argv, "from", names, &bad);
	to = flag_value(argc, argv, "to", names, &bad);
	if (bad || from == NULL || to == NULL) {
		fprintf(stderr, "usage: arcaded copy --from PATH --to postgresql://...   (PATH: a SQLite "
		    "database; the PostgreSQL database must be empty)\n");
		return 2;
	}
	store_target_text(to, name, sizeof name);
	if (store_copy(from, to, err, sizeof err) != 0) {
		fprintf(stderr, "arcaded copy: %s\n", err);
		return 1;
	}
	printf("copied %s into %s\n", from, name);
	return 0;
}

/* A game's own tool (its descriptor's subcommands): argv[0] names it. It
 * runs with this thread's working memory and shared blocks for its game. */
static int
cli_game_command(int argc, char **argv)
{
	size_t i;

	for (i = 0; i < GAME__COUNT; i++) {
		const struct game *g = game_table[i];
		const struct game_subcommand *c = game_ext(g)->subcommands;
		struct game_env env = { .work = NULL, .shared = play_shared };

		for (; c != NULL && c->name != NULL; c++) {
			if (strcmp(argv[0], c->name) != 0)
				continue;
			if (!play_env(g, &env)) {
				fprintf(stderr, "arcaded %s: out of memory\n", c->name);
				return 1;
			}
			return c->run(argc, argv, &env);
		}
	}
	return CLI_NOT_A_COMMAND;
}

int
cli_run(int argc, char **argv)
{
	if (strcmp(argv[0], "backup") == 0)
		return cli_backup(argc, argv);
	if (strcmp(argv[0], "copy") == 0)
		return cli_copy(argc, argv);
	if (strcmp(argv[0], "keys") == 0)
		return cli_keys(argc, argv);
	if (strcmp(argv[0], "stream") == 0)
		return cli_stream(argc, argv);
	if (strcmp(argv[0], "verify") == 0)
		return cli_verify(argc, argv);
	if (strcmp(argv[0], "play") == 0)
		return cli_play(argc, argv);
	if (strcmp(argv[0], "solve") == 0)
		return solve_cli_main(argc, argv); /* argv[0] "solve", the arguments after it */
	return cli_game_command(argc, argv);
}
