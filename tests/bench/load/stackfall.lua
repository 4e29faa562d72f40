-- Stackfall under load (the agent check turned off for the run): every
-- connection plays real games through the stateToken routes, one placement
-- per request. The policy reads board_text: it drops the current piece
-- upright (rotation 1, which fits columns 0-8 for every piece) where the
-- two columns under it are lowest, and resigns once even the lowest is
-- too high for an upright piece. A game over or a refused placement starts
-- a new game. Ready requests wait in a per-thread queue, one per
-- game in flight.
local queue = {}

function request()
   local body = table.remove(queue)
   if body == nil then
      return wrk.format("POST", "/api/games/stackfall/init",
                        { ["Content-Type"] = "application/json" }, "{}")
   end
   return wrk.format("POST", "/api/games/stackfall/action",
                     { ["Content-Type"] = "application/json" }, body)
end

function response(status, headers, body)
   if status ~= 200 or body:find('"status":"over"', 1, true) then
      return
   end
   local token = body:match('"stateToken":"([^"]+)"')
   local board = body:match('"board_text":"([^"]+)"')
   -- Column heights: the first row from the top (row 20) with a cell.
   local heights = {}
   for c = 1, 10 do
      heights[c] = 0
   end
   local row = 20
   for line in board:gmatch('([^\\]+)') do
      line = line:gsub('^n', '')
      for c = 1, 10 do
         if heights[c] == 0 and line:sub(c, c) ~= '.' and line:sub(c, c) ~= '' then
            heights[c] = row
         end
      end
      row = row - 1
   end
   local best, bestkey = 0, nil
   for c = 1, 9 do
      local key = math.max(heights[c], heights[c + 1])
      if bestkey == nil or key < bestkey then
         best, bestkey = c - 1, key
      end
   end
   local command = bestkey > 16 and "resign" or ("place 1 " .. best)
   queue[#queue + 1] = '{"stateToken":"' .. token .. '","command":"' .. command .. '"}'
end
