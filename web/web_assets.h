/* web_assets.h: the pages and static files compiled into the daemon
 * (web/embed.py writes the table from the files of web/). */
#ifndef WEB_ASSETS_H
#define WEB_ASSETS_H

#include <stdbool.h>
#include <stddef.h>

struct web_asset {
	const char          *name;     /* a page's file name ("run.html"), or the
	                                  path it is served at ("/static/app.3f2a1c9e04.css") */
	const char          *type;     /* Content-Type */
	const unsigned char *data;     /* the file, NUL-terminated (not counted in len) */
	size_t               len;
	const unsigned char *gz;       /* gzip of data, or NULL when not smaller */
	size_t               gzlen;
	const char          *etag;     /* strong, quoted: a hash of data */
	const char          *etag_gz;  /* the same for the gzip copy */
	bool                 hashed;   /* the name carries the hash: cache for a year */
};

extern const struct web_asset web_assets[];
extern const size_t web_nassets;

#endif
