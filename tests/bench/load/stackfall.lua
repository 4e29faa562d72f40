-- Stackfall under load (the agent check turned off for the run): every
-- connection plays real games through the stateToken routes. A game over
-- or a refused command starts a new game. Ready requests wait in a
-- per-thread queue, one per game in flight. Two policies:
--   (default)  one placement per request, read off board_text: the piece
--              goes upright (rotation 1 fits columns 0-8 for every piece)
--              where the two columns under it are lowest; resign once even
--              the lowest is too high;
--   options    (wrk ... -s stackfall.lua URL -- options) every request also
--              asks for the next piece's options ("place R C; options") and
--              the next placement is the one with the fewest holes, then the
--              lowest stack.
local queue = {}
local with_options = false
local option = '"rotation":(%d+),"column":(%d+),"command":"[^"]*","lines":%d+,' ..
               '"holes":(%d+),"max_height":(%d+),"bumpiness":(%d+)'

function init(args)
   with_options = args[1] == "options"
end

function request()
   local body = table.remove(queue)
   if body == nil then
      return wrk.format("POST", "/api/games/stackfall/init",
                        { ["Content-Type"] = "application/json" }, "{}")
   end
   return wrk.format("POST", "/api/games/stackfall/action",
                     { ["Content-Type"] = "application/json" }, body)
end

-- The command chosen from the options in the answer.
local function from_options(body)
   local best, bestkey
   for r, c, holes, height, bump in body:gmatch(option) do
      local key = tonumber(holes) * 10000 + tonumber(height) * 100 + tonumber(bump)
      if bestkey == nil or key < bestkey then
         best, bestkey = r .. " " .. c, key
      end
   end
   if bestkey ~= nil then
      return "place " .. best .. "; options"
   elseif body:find('"results":[]', 1, true) then
      return "place 0 0; options"   -- a new game: every piece fits there
   end
   return "hold; options"           -- no placement for this piece: hold
end

-- The command chosen from the column heights of board_text.
local function from_board(body)
   local board = body:match('"board_text":"([^"]+)"')
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
   return bestkey > 16 and "resign" or ("place 1 " .. best)
end

function response(status, headers, body)
   if status ~= 200 or body:find('"status":"over"', 1, true) then
      return
   end
   local token = body:match('"stateToken":"([^"]+)"')
   local command = with_options and from_options(body) or from_board(body)
   queue[#queue + 1] = '{"stateToken":"' .. token .. '","command":"' .. command .. '"}'
end
