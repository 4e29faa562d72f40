-- HATETRIS under load: every connection plays real runs through the
-- stateToken routes, one placement per request ("place R C"). The
-- placement is chosen here from the answer's board_text and current piece:
-- every rotation and column is dropped on the column heights and rated
-- 10 x cells left empty under it + 6 x tallest column + 2 x bumpiness - 40
-- x lines cleared, plus a little noise (cheap: wrk shares the cores with the
-- daemon, and a slow client would inflate every latency it measures) (the supplier is deterministic: without noise every
-- run would be the same run). The supplier still wins within a few dozen
-- pieces, and many runs reach the 2 lines after which it asks about seen
-- boards, so the store's read of a run's boards is part of the load. A run
-- over starts a new one. Ready requests wait in a per-thread queue, one per
-- run in flight.
--   wrk ... -s hatetris.lua URL                   depth 1
--   wrk ... -s hatetris.lua URL -- depth2         depth 2
--   wrk ... -s hatetris.lua URL -- [depth2] options
--       every request also asks for the next piece's options
--       ("place R C; options"), as a bot reading them would
local queue = {}
local init_body = '{}'
local suffix = ''

-- The pieces' rotations as Stackfall draws them (GET /api/games/hatetris/rules):
-- rows from the bottom, bit x set for a cell x columns right of the leftmost.
local shapes = {
   I = { { 0xf }, { 1, 1, 1, 1 }, { 0xf }, { 1, 1, 1, 1 } },
   O = { { 3, 3 }, { 3, 3 }, { 3, 3 }, { 3, 3 } },
   T = { { 7, 2 }, { 1, 3, 1 }, { 2, 7 }, { 2, 3, 2 } },
   S = { { 3, 6 }, { 2, 3, 1 }, { 3, 6 }, { 2, 3, 1 } },
   Z = { { 6, 3 }, { 1, 3, 2 }, { 6, 3 }, { 1, 3, 2 } },
   J = { { 7, 1 }, { 1, 1, 3 }, { 4, 7 }, { 3, 2, 2 } },
   L = { { 7, 4 }, { 3, 1, 1 }, { 1, 7 }, { 2, 2, 3 } },
}

local rng_state = 1

local function noise()
   rng_state = (rng_state * 1103515245 + 12345) % 2147483648
   return (rng_state % 600) / 100
end

function setup(thread)
   thread:set("seed", math.random(1, 1000000))
end

function init(args)
   rng_state = seed or 1
   for _, a in ipairs(args) do
      if a == "depth2" then
         init_body = '{"depth":2}'
      elseif a == "options" then
         suffix = '; options'
      end
   end
end

function request()
   local body = table.remove(queue)
   if body == nil then
      return wrk.format("POST", "/api/games/hatetris/init",
                        { ["Content-Type"] = "application/json" }, init_body)
   end
   return wrk.format("POST", "/api/games/hatetris/action",
                     { ["Content-Type"] = "application/json" }, body)
end

-- Per shape: its width, and per column its lowest and highest cell (rows
-- from 0) and per row its cell count, computed once.
local function describe(rows)
   local d = { w = 0, h = #rows, bottom = {}, top = {}, count = {} }
   for y, r in ipairs(rows) do
      d.count[y - 1] = 0
      for x = 0, 3 do
         if math.floor(r / 2 ^ x) % 2 == 1 then
            d.count[y - 1] = d.count[y - 1] + 1
            if x + 1 > d.w then
               d.w = x + 1
            end
            if d.bottom[x] == nil then
               d.bottom[x] = y - 1
            end
            d.top[x] = y - 1
         end
      end
   end
   return d
end

local described = {}
for piece, rots in pairs(shapes) do
   described[piece] = {}
   for r, rows in ipairs(rots) do
      described[piece][r] = describe(rows)
   end
end

-- Column heights and filled cells per row (rows from 0 at the bottom), from
-- board_text (top row first).
local function read_board(text)
   local heights, counts, lines = {}, {}, {}
   for line in text:gmatch('[^\\]+') do
      lines[#lines + 1] = line:gsub('^n', '')
   end
   for x = 0, 9 do
      heights[x] = 0
   end
   for i, line in ipairs(lines) do
      local y, n = #lines - i, 0
      for x = 0, 9 do
         if line:sub(x + 1, x + 1) ~= '.' then
            n = n + 1
            if heights[x] == 0 then
               heights[x] = y + 1
            end
         end
      end
      counts[y] = n
   end
   return heights, counts
end

-- The key of a placement (lower is better), or nil when it does not fit:
-- lines it clears, cells it leaves empty under itself, the stack's height
-- and bumpiness after it, judged from column heights alone.
local function rate(heights, counts, d, col)
   local y = 0
   for x = 0, d.w - 1 do
      local rest = heights[col + x] - d.bottom[x]
      if rest > y then
         y = rest
      end
   end
   if y + d.h > 20 then
      return nil
   end
   local lines = 0
   for dy = 0, d.h - 1 do
      if (counts[y + dy] or 0) + d.count[dy] == 10 then
         lines = lines + 1
      end
   end
   local holes, maxh, bump, prev = 0, 0, 0, nil
   for x = 0, 9 do
      local h = heights[x]
      if x >= col and x < col + d.w then
         holes = holes + y + d.bottom[x - col] - h
         h = y + d.top[x - col] + 1
      end
      if h > maxh then
         maxh = h
      end
      if prev ~= nil then
         bump = bump + math.abs(h - prev)
      end
      prev = h
   end
   return 10 * holes + 6 * (maxh - lines) + 2 * bump - 40 * lines + noise()
end

local function choose(body)
   local piece = body:match('"current":"(%a)"')
   local heights, counts = read_board(body:match('"board_text":"([^"]+)"'))
   local best, bestkey = "0 0", nil
   for r, d in ipairs(described[piece]) do
      for col = 0, 10 - d.w do
         local key = rate(heights, counts, d, col)
         if key ~= nil and (bestkey == nil or key < bestkey) then
            best, bestkey = (r - 1) .. " " .. col, key
         end
      end
   end
   return "place " .. best .. suffix
end

function response(status, headers, body)
   if status ~= 200 or body:find('"status":"over"', 1, true) then
      return
   end
   local token = body:match('"stateToken":"([^"]+)"')
   queue[#queue + 1] = '{"stateToken":"' .. token .. '","command":"' .. choose(body) .. '"}'
end
