/*
 * test_b64url.c: the table codec against libsodium's, differentially. On
 * random byte strings (0 to 700 bytes) the encoding equals
 * sodium_bin2base64's and decodes back; on random texts and on canonical
 * encodings with one character changed, cut or extended, the table decoder
 * accepts exactly what the strict libsodium reading accepts (the URL-safe
 * alphabet, no padding, a producible length, zero unused bits) and decodes
 * to the same bytes.
 */
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "b64url.h"
#include "tap.h"

#define MAXN 700
#define VARIANT sodium_base64_VARIANT_URLSAFE_NO_PADDING

/* The reading api/trust/paseto.c used before, on libsodium alone. */
static bool
reference(uint8_t *out, size_t cap, const char *s, size_t n, size_t *got)
{
	size_t k;

	if (n % 4 == 1)
		return false;
	for (k = 0; k < n; k++)
		if (!((s[k] >= 'A' && s[k] <= 'Z') || (s[k] >= 'a' && s[k] <= 'z') ||
		    (s[k] >= '0' && s[k] <= '9') || s[k] == '-' || s[k] == '_'))
			return false;
	if (n / 4 * 3 + (n % 4 ? n % 4 - 1 : 0) > cap)
		return false;
	*got = 0;
	if (n == 0)
		return true;
	return sodium_base642bin(out, cap, s, n, NULL, got, NULL, VARIANT) == 0 &&
	    *got == n / 4 * 3 + (n % 4 ? n % 4 - 1 : 0);
}

/* Both decoders on s; true when they agree (and on the bytes, when both accept). */
static bool
agree(const char *s, size_t n, size_t cap, size_t *accepted)
{
	static uint8_t a[MAXN + 8], b[MAXN + 8];
	size_t ga = 0, gb = 0;
	bool ra = b64url_decode(a, cap, s, n, &ga), rb = reference(b, cap, s, n, &gb);

	if (ra != rb)
		return false;
	if (ra)
		(*accepted)++;
	return !ra || (ga == gb && memcmp(a, b, ga) == 0);
}

int
main(void)
{
	static uint8_t in[MAXN], back[MAXN + 4];
	static char mine[MAXN * 2], theirs[MAXN * 2], text[MAXN * 2];
	static const char chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_+/= .\n\x80";
	size_t i, n, got, len, bad_enc = 0, bad_dec = 0, bad_text = 0, bad_mut = 0, acc_text = 0, acc_mut = 0;
	size_t cases = 100000;

	if (sodium_init() < 0) {
		printf("Bail out! sodium_init\n");
		return 1;
	}
	for (i = 0; i < cases; i++) {
		n = i < 64 ? i : randombytes_uniform(i % 10 == 0 ? MAXN : 64);
		randombytes_buf(in, n);
		len = b64url_encode(mine, in, n);
		sodium_bin2base64(theirs, sizeof theirs, in, n, VARIANT);
		if (len != b64url_encoded_len(n) || strcmp(mine, theirs) != 0)
			bad_enc++;
		if (!b64url_decode(back, sizeof back, mine, len, &got) || got != n || memcmp(back, in, n) != 0)
			bad_dec++;
		/* One character changed, the text cut short, or one added. */
		memcpy(text, mine, len + 1);
		if (len > 0) {
			size_t at = randombytes_uniform((uint32_t)len);

			text[at] = chars[randombytes_uniform(sizeof chars - 1)];
			if (!agree(text, len, sizeof back, &acc_mut))
				bad_mut++;
			if (!agree(mine, len - 1, sizeof back, &acc_mut))
				bad_mut++;
		}
		text[0] = '\0';
		memcpy(text, mine, len);
		text[len] = chars[randombytes_uniform(sizeof chars - 1)];
		if (!agree(text, len + 1, sizeof back, &acc_mut))
			bad_mut++;
		/* Too small a buffer: both refuse. */
		if (n > 0 && !agree(mine, len, n - 1, &acc_mut))
			bad_mut++;
		/* Random text over the alphabet and a few others. */
		n = randombytes_uniform(40);
		for (len = 0; len < n; len++)
			text[len] = chars[randombytes_uniform(i % 2 ? 64 : sizeof chars - 1)];
		if (!agree(text, n, sizeof back, &acc_text))
			bad_text++;
	}
	ok(bad_enc == 0, "%zu random byte strings: the encoding is libsodium's (%zu differ)", cases, bad_enc);
	ok(bad_dec == 0, "and decodes back to the bytes (%zu fail)", bad_dec);
	ok(bad_mut == 0 && acc_mut > 0 && acc_mut < 4 * cases,
	    "changed, cut, extended encodings and short buffers: accepted and refused as libsodium does "
	    "(%zu disagree; %zu accepted)", bad_mut, acc_mut);
	ok(bad_text == 0 && acc_text > 0, "%zu random texts: the same verdicts and bytes (%zu disagree; %zu "
	    "accepted)", cases, bad_text, acc_text);
	ok(agree("", 0, 0, &acc_text) && b64url_decode(back, 0, "", 0, &got) && got == 0,
	    "the empty text is the empty string");
	ok(!b64url_decode(back, sizeof back, "AB", 2, &got) && b64url_decode(back, sizeof back, "AA", 2, &got) &&
	    !b64url_decode(back, sizeof back, "AAB", 3, &got) && !b64url_decode(back, sizeof back, "A", 1, &got),
	    "non-zero unused bits and a one-character tail are refused");
	return tap_done();
}
