-- HATETRIS under load: every connection plays real runs through the
-- stateToken routes, one placement per request ("place R C"). The
-- placement is chosen here from the answer's board_text and current piece:
-- every rotation and column is dropped on a copy of the board and rated
-- 10 x holes + 6 x tallest column + 2 x bumpiness - 40 x lines cleared,
-- plus a little noise (the supplier is deterministic: without noise every
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

local function width(rows)
   local w = 0
   for _, r in ipairs(rows) do
      local x = 0
      while r >= 2 ^ x do
         x = x + 1
      end
      if x > w then
         w = x
      end
   end
   return w
end

-- grid[y][x], y = 1 the bottom row, from board_text (top row first).
local function read_board(text)
   local grid, lines = {}, {}
   for line in text:gmatch('[^\\]+') do
      lines[#lines + 1] = line:gsub('^n', '')
   end
   for i, line in ipairs(lines) do
      local row = {}
      for x = 1, 10 do
         row[x] = line:sub(x, x) ~= '.'
      end
      grid[#lines - i + 1] = row
   end
   return grid
end

-- The key of a placement (lower is better), or nil when it does not fit.
local function rate(grid, rows, col)
   local w, h = width(rows), #rows
   -- The lowest y where the piece, dropped from above, rests.
   local y = 1
   for x = 0, w - 1 do
      local top = 0
      for yy = 20, 1, -1 do
         if grid[yy][col + x + 1] then
            top = yy
            break
         end
      end
      local bottom = 0
      while bottom < h and (math.floor(rows[bottom + 1] / 2 ^ x) % 2) == 0 do
         bottom = bottom + 1
      end
      if top + 1 - bottom > y then
         y = top + 1 - bottom
      end
   end
   if y + h - 1 > 20 then
      return nil
   end
   local cells = {}
   for yy = 1, 20 do
      cells[yy] = {}
      for x = 1, 10 do
         cells[yy][x] = grid[yy][x]
      end
   end
   for dy = 0, h - 1 do
      for x = 0, w - 1 do
         if (math.floor(rows[dy + 1] / 2 ^ x) % 2) == 1 then
            cells[y + dy][col + x + 1] = true
         end
      end
   end
   local kept, lines = {}, 0
   for yy = 1, 20 do
      local full = true
      for x = 1, 10 do
         full = full and cells[yy][x]
      end
      if full then
         lines = lines + 1
      else
         kept[#kept + 1] = cells[yy]
      end
   end
   local holes, maxh, bump, prev = 0, 0, 0, nil
   for x = 1, 10 do
      local top = 0
      for yy = #kept, 1, -1 do
         if kept[yy][x] then
            top = yy
            break
         end
      end
      for yy = 1, top - 1 do
         if not kept[yy][x] then
            holes = holes + 1
         end
      end
      if top > maxh then
         maxh = top
      end
      if prev ~= nil then
         bump = bump + math.abs(top - prev)
      end
      prev = top
   end
   return 10 * holes + 6 * maxh + 2 * bump - 40 * lines + noise()
end

local function choose(body)
   local piece = body:match('"current":"(%a)"')
   local grid = read_board(body:match('"board_text":"([^"]+)"'))
   local best, bestkey = "0 0", nil
   for r, rows in ipairs(shapes[piece]) do
      for col = 0, 10 - width(rows) do
         local key = rate(grid, rows, col)
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
