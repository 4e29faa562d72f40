/*
 * match_ticks.h: what a real-time match (a ruleset's tick clock,
 * match_rules.h's struct match_ticks) is made of over its hooks, written
 * once for every ruleset that has one: the stream's frame, the record of
 * inputs as a replay, the certificate, and the verifier.
 *
 * A real-time replay is
 *     {"schema": 1, "rules", "clock": "ticks", "seed", "players",
 *      "tick_cap", "inputs": [[tick, seat, "L"], ...], "final"}
 * and "items" as a turn replay's (match.h), where inputs are every input
 * recorded, in the order they were applied (ticks never decreasing), each
 * its tick, its seat and the ruleset's canonical text (input_text), and
 * "final" is {ticks, end, players} (match_ticks_final_json). Verifying
 * starts the match on the tick clock from the seed, runs every tick with
 * its inputs up to the end the final claims, and compares the final
 * summary reached. It trusts nothing but the seed, the players, the cap,
 * the items and the inputs.
 *
 * Pure CPU over plain structs; the frame through the answer writer
 * (jw.h), the replay as a jansson tree (data, as match.h's).
 */
#ifndef API_MATCH_TICKS_H
#define API_MATCH_TICKS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "match.h"
#include "match_rules.h"

struct jw;
struct keyring;

/* A frame of the stream GET /api/matches/{id}/stream as viewer (a seat,
 * or -1) sees r (its state the live one) after tick `tick` ran: {match_id,
 * rules, clock, tick, phase ("lobby", "countdown", "playing", "result",
 * "finished"), end (null while it plays), you (viewer, null for a
 * spectator), seats: [seat_write, account], events (the tick's, the
 * ruleset's events_write; null when ev is NULL)}. */
void match_live_write(const struct match_rules *mr, struct jw *w,
    const struct match_rules_record *r, int viewer, uint32_t tick, const char *phase,
    const void *ev);

/* The same as one Server-Sent Event, `id: TICK`, `event: tick`; malloc'd
 * (caller frees), its length in *len; NULL when out of memory. */
char *match_live_event_text(const struct match_rules *mr, const struct match_rules_record *r,
    int viewer, uint32_t tick, const char *phase, const void *ev, size_t *len);

/* What a real-time replay claims at the end: {ticks, end, players} with
 * players as match_final_json's. */
json_t *match_ticks_final_json(const struct match_standing *s, enum match_end end,
    const struct match_totals *t);

/* inputs[0..n) as a replay lists them: [[tick, seat, text], ...]. NULL
 * when out of memory. */
json_t *match_ticks_inputs_json(const struct match_ticks *mt, const struct match_input *inputs,
    size_t n);

/* The replay of the real-time match r (its state the one at its end)
 * played with inputs[0..n); NULL on failure. */
json_t *match_ticks_replay(const struct match_rules *mr, const struct match_rules_record *r,
    const struct match_input *inputs, size_t n);

/* Signs the result certificate of the finished real-time match r, as
 * match_certificate does for turns, its "clock" "ticks" and "ticks" the
 * ticks run in place of "turns". The certificate text (caller frees), or
 * NULL. */
char *match_ticks_certificate(const struct match_rules *mr, const struct keyring *kr,
    const struct match_rules_record *r, const struct match_input *inputs, size_t n, int64_t now);

/* Verifies a replay (borrowed) of mr's on either clock: a real-time one
 * (its "clock" is "ticks") here, any other by match_verify. out->nturns
 * is then the inputs (real time) or the turns. 0, or -1 with out. */
int match_replay_verify(const struct match_rules *mr, const json_t *replay,
    struct match_replay_check *out);

#endif
