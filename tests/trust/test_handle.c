/*
 * test_handle.c: run handles: their shape, the same run's handle made
 * twice, a handle read back (and read back through a copy's slips: upper
 * case, 'o' and 'l'), every single-character change of a handle refused,
 * and a handle bound to its game and to the pepper.
 */
#include <sodium.h>
#include <stdbool.h>
#include <string.h>

#include "handle.h"
#include "keys.h"
#include "tap.h"

static const char ALPHABET[] = "0123456789abcdefghjkmnpqrstvwxyz";

static void
ring(struct keyring *kr, uint8_t fill)
{
	uint8_t pepper[32], master[1][32];

	memset(pepper, fill, sizeof pepper);
	memset(master[0], 7, sizeof master[0]);
	keyring_init(kr, pepper, (const uint8_t (*)[32])master, 1);
}

int
main(void)
{
	struct keyring kr, other;
	char h[HANDLE_TEXT_MAX + 1], h2[HANDLE_TEXT_MAX + 1], copy[HANDLE_TEXT_MAX + 1];
	int64_t run = 0, big = ((int64_t)1 << 53) - 1;
	size_t i, k, n, changed = 0, caught = 0;

	if (sodium_init() < 0)
		return 1;
	ring(&kr, 0x42);
	ring(&other, 0x43);
	handle_make(&kr, "stackfall", 2917572057037947, h);
	ok(strncmp(h, "2917572057037947-", 17) == 0 && strlen(h) == 25 &&
	    strspn(h + 17, ALPHABET) == HANDLE_TAG_LEN, "a handle is the run id, '-' and 8 base32: %s", h);
	handle_make(&kr, "stackfall", 2917572057037947, h2);
	is_str(h2, h, "the same run has the same handle");
	handle_make(&kr, "stackfall", big, h2);
	ok(strlen(h2) <= HANDLE_TEXT_MAX, "the largest run id's handle fits (%zu)", strlen(h2));
	ok(handle_read(&kr, "stackfall", h, strlen(h), &run) == HANDLE_OK && run == 2917572057037947,
	    "read back: the run's id");
	ok(handle_read(&kr, "duskcourt", h, strlen(h), &run) == HANDLE_ERR_TAG,
	    "another game's: refused");
	ok(handle_read(&other, "stackfall", h, strlen(h), &run) == HANDLE_ERR_TAG,
	    "under another pepper: refused");
	/* A copy's slips: upper case, and look-alikes of 0 and 1. */
	snprintf(copy, sizeof copy, "%s", h);
	for (i = 17; copy[i] != '\0'; i++) {
		if (copy[i] >= 'a' && copy[i] <= 'z')
			copy[i] = (char)(copy[i] - 'a' + 'A');
		else if (copy[i] == '0')
			copy[i] = 'O';
		else if (copy[i] == '1')
			copy[i] = 'l';
	}
	run = 0;
	ok(handle_read(&kr, "stackfall", copy, strlen(copy), &run) == HANDLE_OK && run == 2917572057037947,
	    "read back through upper case and look-alikes: %s", copy);
	snprintf(copy, sizeof copy, "\"%s\" ", h);
	ok(handle_read(&kr, "stackfall", copy, strlen(copy), &run) == HANDLE_OK,
	    "read back with the quotes and a space a copy kept");
	/* Every one-character change is refused. */
	n = strlen(h);
	for (i = 0; i < n; i++)
		for (k = 0; k < sizeof ALPHABET - 1; k++) {
			snprintf(copy, sizeof copy, "%s", h);
			if (copy[i] == ALPHABET[k] || (i < 16 && (ALPHABET[k] < '0' || ALPHABET[k] > '9')))
				continue;
			if (i == 16)
				continue;
			copy[i] = ALPHABET[k];
			changed++;
			if (handle_read(&kr, "stackfall", copy, n, &run) != HANDLE_OK)
				caught++;
		}
	ok(changed > 300 && caught == changed, "every one-character change refused (%zu of %zu)", caught,
	    changed);
	ok(handle_read(&kr, "stackfall", "", 0, &run) == HANDLE_ERR_FORMAT &&
	    handle_read(&kr, "stackfall", "2917572057037947", 16, &run) == HANDLE_ERR_FORMAT &&
	    handle_read(&kr, "stackfall", "0-00000000", 10, &run) == HANDLE_ERR_FORMAT &&
	    handle_read(&kr, "stackfall", "12-abcdefgu", 11, &run) == HANDLE_ERR_FORMAT &&
	    handle_read(&kr, "stackfall", "99999999999999999-abcdefgh", 26, &run) == HANDLE_ERR_FORMAT,
	    "no id, no tag, id 0, a 'u', an id past 2^53: not a handle");
	return tap_done();
}
