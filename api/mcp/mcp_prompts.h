/*
 * mcp_prompts.h: the MCP prompts of arcaded, as pure functions on jansson
 * (docs/mcp.md, "Prompts").
 *
 * One prompt a game of the table, play_<game>, whose one user message
 * holds the game's rules (its descriptor's how_to_play) and the loop of
 * tools that plays a run (start_run, act, finish_run); its optional
 * arguments are the game's seed (where an init may name one) and its init
 * options, read off the descriptor. One more, play_match, for a match of
 * the match rulesets' table (create_match or join_match, match_move,
 * wait_match). A game added to the table has its prompt with no line here.
 */
#ifndef API_MCP_PROMPTS_H
#define API_MCP_PROMPTS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* The prompt of a game is this prefix and the game's name. */
#define MCP_PROMPT_PREFIX "play_"
#define MCP_PROMPT_MATCH "play_match"

/* A prompt's text, at most (the rules and the loop fit several times). */
#define MCP_PROMPT_TEXT_MAX 8192

/* How long a client may keep prompts/list (2026-07-28's ttlMs): the list
 * is the table's, fixed while a daemon runs. */
#define MCP_PROMPTS_TTL_MS 3600000

/* prompts/list: {"prompts": [...]}, one page (no nextCursor); with the
 * caching hints ttlMs and cacheScope when modern. params may carry a
 * cursor: since no page hands one out, any cursor but null is refused.
 * NULL with *code (-32602) and msg; out of memory: NULL with code 0. */
json_t *mcp_prompts_list(const json_t *params, bool modern, int *code, char *msg, size_t cap);

/* prompts/get: {"description", "messages": [one user message]} for
 * params {name, arguments?}. NULL with *code and msg: -32602 for a missing
 * or unknown name, arguments that are not an object of strings, an
 * unknown argument or a value out of its range; -32603 when the text does
 * not fit (it always does: the unit test checks every prompt). */
json_t *mcp_prompts_get(const json_t *params, int *code, char *msg, size_t cap);

#endif
