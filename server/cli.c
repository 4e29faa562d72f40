/*
 * cli.c: subcommands. `keys rotate` adds a key to the key file; the game
 * tools (stream, deal, verify) print what the engine computes.
 */
#include "cli.h"

#include <stdio.h>
#include <string.h>

#include "config.h"
#include "keyfile.h"

static int
cli_keys(int argc, char **argv)
{
	struct config cfg;
	struct keyfile kf;
	char err[1024];

	if (argc < 2 || strcmp(argv[1], "rotate") != 0) {
		fprintf(stderr, "usage: arcaded keys rotate [--db PATH] [--key-file PATH]\n");
		return 2;
	}
	switch (config_parse(&cfg, argc - 2, argv + 2, err, sizeof err)) {
	case CONFIG_EXIT:
		return 0;
	case CONFIG_ERROR:
		fprintf(stderr, "arcaded: %s\n", err);
		return 2;
	case CONFIG_OK:
		break;
	}
	if (keyfile_rotate(cfg.key_path, &kf, err, sizeof err) != 0) {
		fprintf(stderr, "arcaded: %s\n", err);
		return 1;
	}
	printf("key file %s now holds %d keys; the new one is current. Restart the daemon "
	    "to seal with it.\n", cfg.key_path, kf.nkeys);
	keyfile_wipe(&kf);
	return 0;
}

int
cli_run(int argc, char **argv)
{
	if (strcmp(argv[0], "keys") == 0)
		return cli_keys(argc, argv);
	return CLI_NOT_A_COMMAND;
}
