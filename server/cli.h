/*
 * cli.h: arcaded's subcommands other than serving: tools that print to
 * stdout and exit.
 */
#ifndef SERVER_CLI_H
#define SERVER_CLI_H

#define CLI_NOT_A_COMMAND (-1)

/* argv[0] is the subcommand. Returns its exit status, or CLI_NOT_A_COMMAND
 * when argv[0] names none (the caller then serves). */
int cli_run(int argc, char **argv);

#endif
