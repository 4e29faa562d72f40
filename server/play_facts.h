/*
 * play_facts.h: a run's facts (api/game/game.h) as a game's play sees them: the
 * environment's fact_known answers whether one of the run's moves 1..step
 * recorded a fact. The facts are read from the store on the first question
 * only, in one query, into an in-memory set (keyset.h) that answers every
 * later question: a HATETRIS decision at depth 2 asks up to a couple of
 * thousand, and many requests ask none.
 *
 * Exactness: step is the step of the state being played (the token's), and
 * the store keeps each fact with the first step that recorded it, so the
 * set read is the run's facts as of that step even when later moves have
 * been stored since. Those later moves mean the request is stale, or a
 * retry of the request that made them; either way it stores nothing, as
 * the head's compare-and-set decides.
 *
 * A struct facts lives for one call of play, on one thread.
 */
#ifndef SERVER_FACTS_H
#define SERVER_FACTS_H

#include <stdbool.h>
#include <stdint.h>

#include "game.h"
#include "keyset.h"
#include "store.h"

struct facts {
	struct store      *store;      /* borrowed: a reader is taken for the read, then given back */
	struct store_conn *conn;       /* when not NULL, read through it instead (inside a job) */
	int64_t            run;
	int64_t            step;       /* the facts of moves 1..step; 0: none */
	size_t             fact_bytes; /* the game's; 0: it has no facts */
	struct keyset     *set;        /* after the read */
	bool               loaded;     /* the read was made (or failed) */
	bool               failed;     /* the read failed: every answer was false, discard the play */
	unsigned           reads;      /* store reads made, 0 or 1 (tests) */
};

/* Facts of g's run at step, read through s's readers, or through conn when
 * it is not NULL. Nothing is read yet. */
void play_facts_init(struct facts *f, const struct game *g, struct store *s, struct store_conn *conn,
    int64_t run, int64_t step);

/* Points env's oracle at f; leaves it NULL when the game has no facts or
 * the run none yet (step 0). */
void play_facts_attach(struct facts *f, struct game_env *env);

/* Whether the read failed: the play that asked must be thrown away. */
bool play_facts_failed(const struct facts *f);

void play_facts_cleanup(struct facts *f);

#endif
