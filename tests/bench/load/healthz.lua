-- The ceiling: the daemon's cheapest route, under the same wrk settings as
-- the games. No game work, no store.
wrk.method = "GET"
wrk.path = "/healthz"
