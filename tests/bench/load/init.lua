-- New runs: every request opens a run, alternating Duskcourt and Stackfall
-- (both answer HTTP 200 and store the run).
local n = 0

function request()
   n = n + 1
   if n % 2 == 0 then
      return wrk.format("GET", "/api/games/duskcourt/init")
   end
   return wrk.format("POST", "/api/games/stackfall/init",
                     { ["Content-Type"] = "application/json" }, "{}")
end
