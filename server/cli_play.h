/*
 * cli_play.h: `arcaded play GAME --bot CMD ...`, a bot played on the engine
 * offline, one JSON line each way (cli_play.c, docs/play.md).
 */
#ifndef SERVER_CLI_PLAY_H
#define SERVER_CLI_PLAY_H

/* argv[0] is "play". The exit status: 0 when every game ended as the
 * game ends, 1 when one failed, 2 for a usage error. */
int cli_play(int argc, char **argv);

#endif
