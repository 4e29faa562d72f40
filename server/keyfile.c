/*
 * keyfile.c: reading, creating and rotating the key file. Secrets come
 * from libsodium's randombytes and are hex-encoded with sodium_bin2hex;
 * buffers that held them are wiped. Writes go to a temporary file that is
 * fsynced and renamed, so a crash leaves either the old or the new file.
 */
#include "keyfile.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#define HEADER "arcaded-keys v1"

void
keyfile_wipe(struct keyfile *kf)
{
	sodium_memzero(kf, sizeof *kf);
}

static bool
parse_hex32(const char *hex, size_t len, uint8_t out[32])
{
	size_t bin_len = 0;
	const char *end = NULL;

	if (len != 64)
		return false;
	return sodium_hex2bin(out, 32, hex, len, NULL, &bin_len, &end) == 0 &&
	    bin_len == 32 && end == hex + len;
}

static int
parse(const char *path, char *text, size_t len, struct keyfile *kf, char *err, size_t errcap)
{
	char *line = text, *end = text + len;
	int lineno = 0;
	bool header = false, pepper = false;

	memset(kf, 0, sizeof *kf);
	while (line < end) {
		char *nl = memchr(line, '\n', (size_t)(end - line));
		size_t n = nl ? (size_t)(nl - line) : (size_t)(end - line);

		lineno++;
		if (n > 0 && line[n - 1] == '\r')
			n--;
		if (n == 0 || line[0] == '#')
			goto next;
		if (!header) {
			if (n != strlen(HEADER) || memcmp(line, HEADER, n) != 0)
				goto bad;
			header = true;
		} else if (n > 7 && memcmp(line, "pepper ", 7) == 0) {
			if (pepper || !parse_hex32(line + 7, n - 7, kf->pepper))
				goto bad;
			pepper = true;
		} else if (n > 4 && memcmp(line, "key ", 4) == 0) {
			if (kf->nkeys == KEYFILE_MAX_KEYS ||
			    !parse_hex32(line + 4, n - 4, kf->keys[kf->nkeys]))
				goto bad;
			kf->nkeys++;
		} else
			goto bad;
next:
		line += (nl ? (size_t)(nl - line) + 1 : (size_t)(end - line));
	}
	if (!header || !pepper || kf->nkeys == 0) {
		snprintf(err, errcap, "key file %s is malformed: it needs the line '%s', one pepper "
		    "and at least one key", path, HEADER);
		keyfile_wipe(kf);
		return -1;
	}
	return 0;
bad:
	snprintf(err, errcap, "key file %s is malformed at line %d (expected '%s', "
	    "'pepper HEX' once or 'key HEX', 64 hex digits each, at most %d keys)",
	    path, lineno, HEADER, KEYFILE_MAX_KEYS);
	keyfile_wipe(kf);
	return -1;
}

int
keyfile_load(const char *path, struct keyfile *kf, char *err, size_t errcap)
{
	char text[8192];
	struct stat st;
	ssize_t n;
	int fd, ret = -1;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0) {
		snprintf(err, errcap, "cannot open key file %s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		snprintf(err, errcap, "key file %s is not a regular file", path);
		goto done;
	}
	if ((st.st_mode & 077) != 0) {
		snprintf(err, errcap, "key file %s has mode %04o: group and others must have no "
		    "access (chmod 600 %s)", path, (unsigned)(st.st_mode & 07777), path);
		goto done;
	}
	if (st.st_size >= (off_t)sizeof text) {
		snprintf(err, errcap, "key file %s is malformed: too large", path);
		goto done;
	}
	n = read(fd, text, sizeof text - 1);
	if (n < 0) {
		snprintf(err, errcap, "cannot read key file %s: %s", path, strerror(errno));
		goto done;
	}
	ret = parse(path, text, (size_t)n, kf, err, errcap);
done:
	sodium_memzero(text, sizeof text);
	close(fd);
	return ret;
}

static void
fsync_dir_of(const char *path)
{
	char copy[4096];
	int fd;

	snprintf(copy, sizeof copy, "%s", path);
	fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

/* Writes kf to path through path.tmp. */
static int
write_file(const char *path, const struct keyfile *kf, bool exclusive, char *err, size_t errcap)
{
	char text[8192], tmp[4096];
	size_t n = 0;
	int fd, i;
	bool ok;

	n += (size_t)snprintf(text + n, sizeof text - n,
	    "# arcaded secret keys: keep private (mode 0600). The last key is current;\n"
	    "# older keys still open older tokens. Rotate with: arcaded keys rotate\n"
	    HEADER "\npepper ");
	sodium_bin2hex(text + n, sizeof text - n, kf->pepper, 32);
	n += 64;
	for (i = 0; i < kf->nkeys; i++) {
		n += (size_t)snprintf(text + n, sizeof text - n, "\nkey ");
		sodium_bin2hex(text + n, sizeof text - n, kf->keys[i], 32);
		n += 64;
	}
	text[n++] = '\n';

	if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp", path) >= sizeof tmp) {
		snprintf(err, errcap, "key file path %s is too long", path);
		return -1;
	}
	unlink(tmp);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0) {
		snprintf(err, errcap, "cannot create key file %s: %s", tmp, strerror(errno));
		sodium_memzero(text, sizeof text);
		return -1;
	}
	ok = fchmod(fd, 0600) == 0 && write(fd, text, n) == (ssize_t)n && fsync(fd) == 0;
	sodium_memzero(text, sizeof text);
	if (close(fd) != 0)
		ok = false;
	if (ok && exclusive) {
		/* First start: never overwrite a key file that appeared meanwhile. */
		ok = link(tmp, path) == 0;
		unlink(tmp);
	} else if (ok)
		ok = rename(tmp, path) == 0;
	if (!ok) {
		snprintf(err, errcap, "cannot write key file %s: %s", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	fsync_dir_of(path);
	return 0;
}

int
keyfile_load_or_create(const char *path, struct keyfile *kf, bool *created, char *err,
    size_t errcap)
{
	struct stat st;

	*created = false;
	if (lstat(path, &st) == 0 || errno != ENOENT)
		return keyfile_load(path, kf, err, errcap);
	{
		/* The quick start's ./data does not exist yet on first start. */
		char dir[4096];

		snprintf(dir, sizeof dir, "%s", path);
		if (mkdir(dirname(dir), 0700) != 0 && errno != EEXIST) {
			snprintf(err, errcap, "cannot create the folder of key file %s: %s", path,
			    strerror(errno));
			return -1;
		}
	}
	memset(kf, 0, sizeof *kf);
	randombytes_buf(kf->pepper, sizeof kf->pepper);
	randombytes_buf(kf->keys[0], sizeof kf->keys[0]);
	kf->nkeys = 1;
	if (write_file(path, kf, true, err, errcap) != 0) {
		keyfile_wipe(kf);
		return -1;
	}
	*created = true;
	return 0;
}

int
keyfile_rotate(const char *path, struct keyfile *kf, char *err, size_t errcap)
{
	if (keyfile_load(path, kf, err, errcap) != 0)
		return -1;
	if (kf->nkeys == KEYFILE_MAX_KEYS) {
		memmove(kf->keys[0], kf->keys[1], (KEYFILE_MAX_KEYS - 1) * sizeof kf->keys[0]);
		kf->nkeys--;
	}
	randombytes_buf(kf->keys[kf->nkeys], sizeof kf->keys[0]);
	kf->nkeys++;
	return write_file(path, kf, false, err, errcap);
}
