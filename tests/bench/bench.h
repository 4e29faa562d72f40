/* bench.h: the subcommands of the `bench` program, one per area. Each takes
 * the arguments after its name and returns an exit status. */
#ifndef BENCH_H
#define BENCH_H

int bench_stackfall(int argc, char **argv);
int bench_stackcraft(int argc, char **argv);
int bench_duskcourt(int argc, char **argv);
int bench_board(int argc, char **argv);
int bench_versus(int argc, char **argv);
int bench_hatetris(int argc, char **argv);
int bench_hclassic(int argc, char **argv);
int bench_facts(int argc, char **argv);
int bench_ratelimit(int argc, char **argv);
int bench_solve(int argc, char **argv);

#endif
