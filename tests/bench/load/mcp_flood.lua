-- One address flooding /mcp with JSON-RPC notifications of about 62 KB
-- each (mcp_flood.py): no id, so a server that takes one answers 202 with
-- no body; one that refuses it early need not read the 62 KB.
local pad = string.rep("x", 62 * 1024)
wrk.method = "POST"
wrk.path = "/mcp"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
wrk.headers["MCP-Protocol-Version"] = "2025-11-25"
wrk.body = '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"'
  .. pad .. '"}}'
