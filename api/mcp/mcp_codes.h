/*
 * mcp_codes.h: the JSON-RPC error codes /mcp answers with, the standard
 * ones and the MCP range's; the endpoint (mcp.h) and the prompts
 * (mcp_prompts.c) both name them.
 */
#ifndef API_MCP_CODES_H
#define API_MCP_CODES_H

enum mcp_code {
	MCP_PARSE_ERROR      = -32700,
	MCP_INVALID_REQUEST  = -32600,
	MCP_METHOD_NOT_FOUND = -32601,
	MCP_INVALID_PARAMS   = -32602,
	MCP_INTERNAL_ERROR   = -32603,
	MCP_HEADER_MISMATCH  = -32020,
	MCP_UNSUPPORTED_VERSION = -32022
};

#endif
