-- Stackcraft under load: every connection plays real runs through the
-- stateToken routes. Each answer's token and one of its legal placements,
-- picked at random by its id (`r1x4`: rotation 1 at column 4, the short
-- form the action route takes), make the next request; a run that is
-- over, or an answer that is not 200, is replaced by a new init. As in
-- duskcourt.lua, a per-thread queue holds the ready requests.
local queue = {}
local rng_state = 0

local function pick(n)
   rng_state = (rng_state * 1103515245 + 12345) % 2147483648
   return rng_state % n + 1
end

function setup(thread)
   thread:set("seed", math.random(1, 1000000))
end

function init()
   rng_state = seed or 1
end

function request()
   local body = table.remove(queue)
   if body == nil then
      return wrk.format("GET", "/api/games/stackcraft/init")
   end
   return wrk.format("POST", "/api/games/stackcraft/action",
                     { ["Content-Type"] = "application/json" }, body)
end

function response(status, headers, body)
   if status ~= 200 then
      return
   end
   if body:match('"status":"(%a+)"') ~= "playing" then
      return
   end
   local token = body:match('"stateToken":"([^"]+)"')
   local legal = body:match('"legalActions":(%b[])')
   if token == nil or legal == nil then
      return
   end
   local ids = {}
   for id in legal:gmatch('"id":"(r%dx%-?%d+)"') do
      ids[#ids + 1] = id
   end
   if #ids == 0 then
      return
   end
   queue[#queue + 1] = '{"stateToken":"' .. token .. '","action":"' .. ids[pick(#ids)] .. '"}'
end
