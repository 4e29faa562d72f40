/*
 * pyrandom.c: MT19937 seeded the way CPython 3 seeds random.Random from a
 * str. The reference algorithm is Matsumoto and Nishimura's mt19937ar.c; the
 * seeding path is CPython's random_seed() for seed version 2.
 *
 * Workload: the piece stream seeds one generator per 7-piece bag and draws
 * six doubles from it, so seeding dominates (SHA-512 of ~40 bytes, two
 * mixing loops over 624 words, one twist). The key is never materialised:
 * each key word is assembled from the input bytes or the digest on demand,
 * which keeps the stack small and puts no limit on the input length.
 */
#include "pyrandom.h"

#include <string.h>

#include <sodium.h>

#define M 397
#define MATRIX_A 0x9908b0dfu
#define UPPER_MASK 0x80000000u
#define LOWER_MASK 0x7fffffffu
#define SEED_KEY_WORDS 64 /* a key this long or shorter is assembled on the stack */

/* The seed integer's bytes: the input followed by its SHA-512 digest, read
 * big-endian, with leading zero bytes dropped (CPython's key has no zero
 * words at the top). */
struct seed_bytes {
	const unsigned char *text;
	size_t ntext;
	unsigned char digest[crypto_hash_sha512_BYTES];
	size_t nsig; /* significant bytes of the big-endian integer */
};

/* Byte k of the integer counted from its least significant end. */
static unsigned
seed_byte(const struct seed_bytes *sb, size_t k)
{
	size_t total = sb->ntext + sizeof sb->digest;
	size_t at;

	if (k >= sb->nsig)
		return 0;
	at = total - 1 - k;
	return at < sb->ntext ? sb->text[at] : sb->digest[at - sb->ntext];
}

static uint32_t
seed_word(const struct seed_bytes *sb, size_t j)
{
	return (uint32_t)seed_byte(sb, 4 * j) |
	    (uint32_t)seed_byte(sb, 4 * j + 1) << 8 |
	    (uint32_t)seed_byte(sb, 4 * j + 2) << 16 |
	    (uint32_t)seed_byte(sb, 4 * j + 3) << 24;
}

static void
init_genrand(struct pyrandom *r, uint32_t s)
{
	uint32_t i;

	r->mt[0] = s;
	for (i = 1; i < PYRANDOM_N; i++)
		r->mt[i] = 1812433253u * (r->mt[i - 1] ^ (r->mt[i - 1] >> 30)) + i;
	r->index = PYRANDOM_N;
}

/* init_by_array with the key supplied by a callback, so that both a plain
 * array and the on-demand seed bytes share one copy of the mixing loops. */
static void
init_by_key(struct pyrandom *r, size_t nkey,
    uint32_t (*word)(const void *, size_t), const void *ctx)
{
	size_t i = 1, j = 0, k;

	init_genrand(r, 19650218u);
	for (k = PYRANDOM_N > nkey ? PYRANDOM_N : nkey; k > 0; k--) {
		r->mt[i] = (r->mt[i] ^ ((r->mt[i - 1] ^ (r->mt[i - 1] >> 30)) * 1664525u)) +
		    word(ctx, j) + (uint32_t)j;
		i++;
		j++;
		if (i >= PYRANDOM_N) {
			r->mt[0] = r->mt[PYRANDOM_N - 1];
			i = 1;
		}
		if (j >= nkey)
			j = 0;
	}
	for (k = PYRANDOM_N - 1; k > 0; k--) {
		r->mt[i] = (r->mt[i] ^ ((r->mt[i - 1] ^ (r->mt[i - 1] >> 30)) * 1566083941u)) -
		    (uint32_t)i;
		i++;
		if (i >= PYRANDOM_N) {
			r->mt[0] = r->mt[PYRANDOM_N - 1];
			i = 1;
		}
	}
	r->mt[0] = 0x80000000u; /* guarantees a non-zero initial state */
}

static uint32_t
array_word(const void *ctx, size_t j)
{
	return ((const uint32_t *)ctx)[j];
}

static uint32_t
bytes_word(const void *ctx, size_t j)
{
	return seed_word(ctx, j);
}

void
pyrandom_seed_key(struct pyrandom *r, const uint32_t *key, size_t n)
{
	static const uint32_t zero = 0;

	if (n == 0 || key == NULL) {
		key = &zero;
		n = 1;
	}
	init_by_key(r, n, array_word, key);
}

void
pyrandom_seed_bytes(struct pyrandom *r, const void *bytes, size_t len)
{
	static const unsigned char empty[1];
	struct seed_bytes sb;
	uint32_t key[SEED_KEY_WORDS];
	size_t nkey, j;

	sb.text = bytes != NULL ? bytes : empty;
	sb.ntext = bytes != NULL ? len : 0;
	crypto_hash_sha512(sb.digest, sb.text, sb.ntext);
	sb.nsig = sb.ntext + sizeof sb.digest;
	while (sb.nsig > 0 && seed_byte(&sb, sb.nsig - 1) == 0)
		sb.nsig--;
	/* CPython: keyused = bits == 0 ? 1 : (bits - 1) / 32 + 1. */
	nkey = sb.nsig == 0 ? 1 : (sb.nsig + 3) / 4;
	if (nkey > SEED_KEY_WORDS) {
		init_by_key(r, nkey, bytes_word, &sb);
		return;
	}
	/* A short key (every seed string the games write) is assembled once:
	 * the mixing loop reads each word about 624 / nkey times. */
	for (j = 0; j < nkey; j++)
		key[j] = seed_word(&sb, j);
	init_by_key(r, nkey, array_word, key);
}

void
pyrandom_seed_string(struct pyrandom *r, const char *s)
{
	pyrandom_seed_bytes(r, s, s != NULL ? strlen(s) : 0);
}

static void
twist(struct pyrandom *r)
{
	uint32_t y;
	int kk;

	for (kk = 0; kk < PYRANDOM_N - M; kk++) {
		y = (r->mt[kk] & UPPER_MASK) | (r->mt[kk + 1] & LOWER_MASK);
		r->mt[kk] = r->mt[kk + M] ^ (y >> 1) ^ ((y & 1u) ? MATRIX_A : 0u);
	}
	for (; kk < PYRANDOM_N - 1; kk++) {
		y = (r->mt[kk] & UPPER_MASK) | (r->mt[kk + 1] & LOWER_MASK);
		r->mt[kk] = r->mt[kk + (M - PYRANDOM_N)] ^ (y >> 1) ^ ((y & 1u) ? MATRIX_A : 0u);
	}
	y = (r->mt[PYRANDOM_N - 1] & UPPER_MASK) | (r->mt[0] & LOWER_MASK);
	r->mt[PYRANDOM_N - 1] = r->mt[M - 1] ^ (y >> 1) ^ ((y & 1u) ? MATRIX_A : 0u);
	r->index = 0;
}

uint32_t
pyrandom_uint32(struct pyrandom *r)
{
	uint32_t y;

	if (r->index >= PYRANDOM_N)
		twist(r);
	y = r->mt[r->index++];
	y ^= y >> 11;
	y ^= (y << 7) & 0x9d2c5680u;
	y ^= (y << 15) & 0xefc60000u;
	y ^= y >> 18;
	return y;
}

double
pyrandom_random(struct pyrandom *r)
{
	/* Both scalings are by powers of two, so the result is exact whether or
	 * not the compiler fuses the multiply and add. */
	uint32_t a = pyrandom_uint32(r) >> 5;
	uint32_t b = pyrandom_uint32(r) >> 6;

	return ((double)a * 67108864.0 + (double)b) * (1.0 / 9007199254740992.0);
}
