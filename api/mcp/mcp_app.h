/*
 * mcp_app.h: the inline board of MCP hosts that render MCP Apps (SEP-1865,
 * docs/mcp.md "An inline board"): one HTML document that draws a play
 * tool's result, built from web/ by web/inline.py when the daemon is built
 * (mcp_app_html.c). The play tools name it in their _meta.ui.resourceUri;
 * resources/read answers it.
 */
#ifndef API_MCP_APP_H
#define API_MCP_APP_H

#include <stddef.h>

#define MCP_APP_URI "ui://arcaded/board"
/* The MIME type SEP-1865 requires of an HTML view, exactly. */
#define MCP_APP_MIME "text/html;profile=mcp-app"
/* The extension's name in capabilities.extensions. */
#define MCP_APP_EXTENSION "io.modelcontextprotocol/ui"

/* The document, NUL-terminated (not counted in the length), static. */
extern const char mcp_app_html[];
extern const size_t mcp_app_html_len;

#endif
