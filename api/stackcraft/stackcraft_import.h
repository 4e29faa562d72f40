/*
 * stackcraft_import.h: a Stackcraft replay from outside, re-simulated and
 * its refusal sorted by kind (stackcraft_import.c).
 */
#ifndef API_STACKCRAFT_IMPORT_H
#define API_STACKCRAFT_IMPORT_H

#include <jansson.h>
#include <stddef.h>

#include "stackcraft.h"

enum stackcraft_replay_fault {
	STACKCRAFT_REPLAY_OK,
	STACKCRAFT_REPLAY_BAD_FORM,   /* not a replay object: missing or extra keys (in final too),
	                                 wrong types, a seed or cap out of range */
	STACKCRAFT_REPLAY_BAD_SCHEMA, /* a schema version other than 1 */
	STACKCRAFT_REPLAY_BAD_RULES,  /* a rules version other than stackcraft-v1 */
	STACKCRAFT_REPLAY_BAD_MOVE,   /* action number `step` is not a legal move there */
	STACKCRAFT_REPLAY_BAD_FINAL,  /* the final summary disagrees on `field` */
};

struct stackcraft_replay_check {
	enum stackcraft_replay_fault fault;
	size_t step;        /* 1-based action at fault (BAD_MOVE); else 0 */
	const char *field;  /* "score", "lines", "pieces", "status" or "end_reason" (BAD_FINAL);
	                       else NULL; a static string */
	size_t nactions;    /* actions re-simulated without fault */
	char reason[256];   /* one sentence; "" when the replay verifies */
	struct stackcraft game; /* the run as far as the actions went (from init on seed
	                           and cap; valid once the header has been read) */
};

/* Re-simulates replay (borrowed) from its seed and cap: replay.h's walk,
 * the server's verifier, with its refusal sorted into a fault. Returns 0
 * when it verifies (a partial game included), -1 with out->fault,
 * out->step or out->field and out->reason (replay.h's words) otherwise. */
int stackcraft_replay_import(const json_t *replay, struct stackcraft_replay_check *out);

#endif
