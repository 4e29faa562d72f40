/*
 * solve_main.c: the stand-alone `arcaded-solve` program; everything it does
 * is solve_cli_main (tools/solve_cli.h).
 */
#include "solve_cli.h"

int
main(int argc, char **argv)
{
	return solve_cli_main(argc, argv);
}
