-- HATETRIS classic under load: every connection plays real runs through
-- the stateToken routes by keys, one piece per request: a random number of
-- turns (U), a random slide (L or R) and 20 D, which lock the piece (the
-- D's after the lock fall on the next piece, or are ignored after the
-- end). Every request thus costs a lock and a supplier call (seven
-- searches), the action's whole price. The supplier wins within a few
-- dozen pieces; a run over starts a new one. Ready requests wait in a
-- per-thread queue, one per run in flight.
--   wrk ... -s hatetris_classic.lua URL
--   wrk ... -s hatetris_classic.lua URL -- options
--       every other request asks for the options instead
local queue = {}
local with_options = false
local rng_state = 1

local function rnd(n)
   rng_state = (rng_state * 1103515245 + 12345) % 2147483648
   return rng_state % n
end

function setup(thread)
   thread:set("seed", math.random(1, 1000000))
end

function init(args)
   rng_state = seed or 1
   for _, a in ipairs(args) do
      if a == "options" then
         with_options = true
      end
   end
end

function request()
   local body = table.remove(queue)
   if body == nil then
      return wrk.format("POST", "/api/games/hatetris-classic/init",
                        { ["Content-Type"] = "application/json" }, "{}")
   end
   return wrk.format("POST", "/api/games/hatetris-classic/action",
                     { ["Content-Type"] = "application/json" }, body)
end

local function keys()
   local side = rnd(2) == 0 and "L" or "R"
   return string.rep("U", rnd(4)) .. string.rep(side, rnd(6)) .. string.rep("D", 20)
end

function response(status, headers, body)
   if status ~= 200 or body:find('"status":"over"', 1, true) then
      return
   end
   local token = body:match('"stateToken":"([^"]+)"')
   local command = "keys " .. keys()
   if with_options and not body:find('"options":', 1, true) then
      command = "options"
   end
   queue[#queue + 1] = '{"stateToken":"' .. token .. '","command":"' .. command .. '"}'
end
