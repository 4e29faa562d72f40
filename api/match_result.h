/*
 * match_result.h: what a finished versus match is said to be: its replay
 * (match.h's form, rebuilt from the stored turns) and the claims its
 * result certificate signs: the match, rules, seed, players (the seats'
 * accounts in seat order), places, scores, turns, end, rated, and the hash
 * of the replay. The daemon gives the facts it stored; everything
 * formatted here is protocol.
 */
#ifndef API_MATCH_RESULT_H
#define API_MATCH_RESULT_H

#include <jansson.h>
#include <stdint.h>

#include "keys.h"
#include "match_view.h"

/* The replay of r (whose m and totals must be set) played through turns
 * (every turn's moves, a JSON array, stolen). NULL on failure. */
json_t *match_result_replay(const struct match_record *r, json_t *turns);

/* Signs the result certificate of the finished match r, whose turns
 * (stolen) are every turn's moves, the last one included, at now (Unix
 * seconds). The certificate text (caller frees), or NULL on failure. */
char *match_result_certificate(const struct keyring *kr, const struct match_record *r,
    json_t *turns, int64_t now);

#endif
