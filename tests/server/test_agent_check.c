/*
 * test_agent_check.c: agent-check tokens. A token made by agent_fresh_make
 * gives back its puzzle from the token alone (agent_fresh_recall) under the
 * same puzzle key, the same text and answer; a token altered in any byte,
 * made under another key file's pepper, past its expiry, of the wrong
 * length or of the older 22-character shape gives nothing back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "agent_check.h"
#include "keys.h"
#include "tap.h"

static void
bail_out(const char *what)
{
	printf("Bail out! %s failed\n", what);
	exit(1);
}

static void
ring(struct keyring *kr, uint8_t fill)
{
	uint8_t pepper[32], master[1][32];

	memset(pepper, fill, sizeof pepper);
	memset(master[0], 0x5a, sizeof master[0]);
	if (keyring_init(kr, pepper, (const uint8_t (*)[32])master, 1) != 0)
		bail_out("keyring_init");
}

int
main(void)
{
	static struct keyring kr, other;
	struct agent_who who = { .account = "a:7", .address = "ip:127.0.0.1" };
	struct agent_fresh f, g, h;
	const int64_t now = 1800000000000;
	char bad[sizeof f.token];
	size_t i, n, changed = 0, refused = 0;
	bool differ = false;

	if (sodium_init() < 0)
		bail_out("sodium_init");
	ring(&kr, 1);
	ring(&other, 2);
	agent_fresh_make(&f, now, &who, &kr);
	ok(strlen(f.token) == 35 && strncmp(f.token, "ac_", 3) == 0,
	    "a token is ac_ and 32 base64url characters (%s)", f.token);
	ok(f.expires_at == now + AGENT_CHECK_TTL_MS && strcmp(f.owner, "a:7") == 0,
	    "it lives 10 minutes and is issued to the account");
	ok(f.puzzle[0] != '\0' && f.answer >= 1, "with a puzzle and a whole answer");

	ok(agent_fresh_recall(&g, f.token, now + 1, &kr), "recalled from the token alone");
	ok(strcmp(g.token, f.token) == 0 && strcmp(g.puzzle, f.puzzle) == 0 && g.answer == f.answer &&
	    g.expires_at == f.expires_at && g.owner[0] == '\0',
	    "the same token, puzzle, answer and expiry (no owner: only the store knows it)");
	ok(!agent_fresh_recall(&g, f.token, f.expires_at, &kr), "not at its expiry");
	ok(!agent_fresh_recall(&g, f.token, now, &other), "not under another key file's pepper");

	/* Every character changed in turn. */
	n = strlen(f.token);
	for (i = 3; i < n; i++) {
		memcpy(bad, f.token, n + 1);
		bad[i] = bad[i] == 'A' ? 'B' : 'A';
		changed++;
		if (!agent_fresh_recall(&g, bad, now, &kr))
			refused++;
	}
	/* 24 bytes are exactly 32 characters: no character holds spare bits,
	 * so each change alters the bytes, and the tag refuses them. */
	ok(refused == changed, "any character altered: refused (%zu of %zu)", refused, changed);
	memcpy(bad, f.token, n + 1);
	bad[n - 1] = '\0';
	ok(!agent_fresh_recall(&g, bad, now, &kr), "one character short: refused");
	ok(!agent_fresh_recall(&g, "ac_tsTiZAVqYWd_QDH8zLm_MA", now, &kr), "the older 22-character shape: refused");
	ok(!agent_fresh_recall(&g, NULL, now, &kr) && !agent_fresh_recall(&g, "", now, &kr) &&
	    !agent_fresh_recall(&g, "xx_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", now, &kr),
	    "no token, an empty one, another prefix: refused");

	/* Two tokens: different puzzles (their seeds are keyed hashes). */
	for (i = 0; i < 8 && !differ; i++) {
		agent_fresh_make(&h, now, &who, &kr);
		differ = strcmp(h.token, f.token) != 0 && strcmp(h.puzzle, f.puzzle) != 0;
	}
	ok(differ, "fresh tokens give fresh puzzles");
	keyring_wipe(&kr);
	keyring_wipe(&other);
	return tap_done();
}
