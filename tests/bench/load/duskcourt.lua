-- Duskcourt under load: every connection plays real runs through the
-- stateToken routes. Each answer's token and a legal action picked from
-- its legalActions (a random capture; next at a break) make the next
-- request; a finished or failed run is replaced by a new init. Tokens are
-- self-contained, so whichever connection is free sends the next one: a
-- per-thread queue holds the ready requests, one per run in flight.
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
      return wrk.format("GET", "/api/games/duskcourt/init")
   end
   return wrk.format("POST", "/api/games/duskcourt/action",
                     { ["Content-Type"] = "application/json" }, body)
end

function response(status, headers, body)
   if status ~= 200 then
      return
   end
   local phase = body:match('"phase":"(%a+)"')
   if phase == "done" then
      return
   end
   local token = body:match('"stateToken":"([^"]+)"')
   local action
   if phase == "break" then
      action = '{"type":"next"}'
   else
      local legal = body:match('"legalActions":(%b[])')
      local caps = {}
      for from, to in legal:gmatch('"from":(%d+),"to":(%d+)') do
         caps[#caps + 1] = from .. ',"to":' .. to
      end
      if #caps == 0 then
         return
      end
      action = '{"type":"capture","from":' .. caps[pick(#caps)] .. '}'
   end
   queue[#queue + 1] = '{"stateToken":"' .. token .. '","action":' .. action .. '}'
end
