-- Stackfall under load, with the options helper (the agent check off): every
-- connection plays real games through the stateToken routes. Each request
-- places a piece and asks for the options of the next one ("place R C;
-- options"); the next placement is the option with the fewest holes, then
-- the lowest stack. A game over or a failed request starts a new game.
-- Ready requests wait in a per-thread queue, one per game in flight.
local queue = {}
local pattern = '"rotation":(%d+),"column":(%d+),"command":"[^"]*","lines":%d+,' ..
                '"holes":(%d+),"max_height":(%d+),"bumpiness":(%d+)'

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
   if status ~= 200 then
      return
   end
   if body:match('"status":"over"') then
      return
   end
   local token = body:match('"stateToken":"([^"]+)"')
   local best, bestkey
   for r, c, holes, height, bump in body:gmatch(pattern) do
      local key = tonumber(holes) * 10000 + tonumber(height) * 100 + tonumber(bump)
      if bestkey == nil or key < bestkey then
         best, bestkey = r .. " " .. c, key
      end
   end
   local command
   if bestkey ~= nil then
      command = "place " .. best .. "; options"
   elseif body:match('"results":%[%]') then
      command = "place 0 0; options"   -- a new game: every piece fits there
   else
      command = "hold; options"        -- no placement for this piece: hold
   end
   queue[#queue + 1] = '{"stateToken":"' .. token .. '","command":"' .. command .. '"}'
end
