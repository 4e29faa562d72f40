/*
 * solve_cli.h: `arcaded-solve`, who wins a small well against a supplier
 * that picks every piece (engine/whowins.h, docs/rules/whowins.md).
 *
 * The command's whole logic is solve_cli_main, so that the daemon's own
 * command line can offer it as a subcommand (`arcaded solve ...`) by
 * handing over its arguments; tools/solve_main.c is the stand-alone
 * program. It may print, read clocks, open files and allocate the search's
 * table; the engine does none of that.
 */
#ifndef SOLVE_CLI_H
#define SOLVE_CLI_H

/* Exit statuses. */
#define SOLVE_CLI_OK 0      /* solved, or the strategy holds */
#define SOLVE_CLI_FAIL 1    /* an error, or a refused strategy */
#define SOLVE_CLI_USAGE 2   /* bad arguments */
#define SOLVE_CLI_UNKNOWN 3 /* the search stopped: memory or budget */

/*
 * Runs the command. argv[0] is the command's name (used in messages only);
 * the arguments follow:
 *   W H [--drop-only] [--memory SIZE] [--budget N] [--strategy FILE] [--quiet]
 *   --check FILE
 * Prints to stdout (results) and stderr (progress, errors); returns one of
 * the statuses above. Reentrant: it keeps no state between calls.
 */
int solve_cli_main(int argc, char **argv);

#endif
