#!/usr/bin/env python3
"""Checks ab_trace's output on bot-played scripts, as TAP.

Usage: check_trace.py AB_SCRIPTS AB_TRACE [MATCHES SEED]

ab_scripts writes match scripts (random and greedy bots, with and without
items, with a refused turn now and then); ab_trace plays them. This checks
what a comparison with an independent model relies on, with Python's own
json module as the reference for the text:
  - every line is exactly json.dumps(obj, sort_keys=True, separators=(',', ':'));
  - every line has the keys TRACE.md lists, with the types it lists;
  - turns count 1, 2, ... within a script, one line per script turn;
  - a refused turn has events null and leaves every player as the line before;
  - boards are 40 rows of 10, no row full, items only on locked piece cells;
  - a seat out has no piece, an empty queue and a place; a seat in has a piece
    and place 0 (or 1 once it is the last one); places are shared by turn;
  - events are null exactly for seats out before the turn, and a seat's score
    grows by its event's points and drop_points.
"""
import json
import subprocess
import sys

STATE_KEYS = {"board", "items", "piece", "x", "y", "r", "hold", "next", "score", "lines",
              "level", "combo", "b2b", "queue", "inventory", "alive", "place", "end",
              "blind", "transform"}
EVENT_KEYS = {"lines", "spin", "points", "attack", "cancelled", "sent", "b2b", "combo",
              "perfect", "drop_points"}
ENDS = {"none", "lock_out", "block_out", "overflow", "missed", "resigned"}


def check_line(obj, prev_players, nplayers, turn):
    errs = []
    if set(obj) != {"turn", "refused", "events", "players"}:
        errs.append(f"keys {sorted(obj)}")
        return errs
    if obj["turn"] != turn:
        errs.append(f"turn {obj['turn']} where {turn} was due")
    players = obj["players"]
    if len(players) != nplayers:
        errs.append("one state a seat")
        return errs
    if obj["refused"] is not None:
        if obj["events"] is not None or set(obj["refused"]) != {"seat", "reason"}:
            errs.append("a refused turn has events null and {seat, reason}")
        if prev_players is not None and players != prev_players:
            errs.append("a refused turn changed the players")
        return errs
    for i, (p, e) in enumerate(zip(players, obj["events"])):
        if set(p) != STATE_KEYS:
            errs.append(f"seat {i} state keys {sorted(p)}")
            continue
        was_in = prev_players is None or prev_players[i]["alive"]
        if (e is None) == was_in:
            errs.append(f"seat {i}: event null exactly for seats out before the turn")
        if e is not None:
            if set(e) != EVENT_KEYS or e["spin"] not in ("none", "mini", "full"):
                errs.append(f"seat {i} event keys {sorted(e)}")
            before = prev_players[i]["score"] if prev_players else 0
            if p["score"] != before + e["points"] + e["drop_points"]:
                errs.append(f"seat {i}: score {before} + {e['points']} + {e['drop_points']} "
                            f"!= {p['score']}")
        if len(p["board"]) != 40 or any(len(r) != 10 for r in p["board"] + p["items"]):
            errs.append(f"seat {i}: board shape")
        for y, row in enumerate(p["board"]):
            if "." not in row:
                errs.append(f"seat {i}: row {y} full")
            for x, c in enumerate(p["items"][y]):
                if c != "." and (c not in "acnsbt" or row[x] in ".G"):
                    errs.append(f"seat {i}: item {c} at ({x},{y}) on {row[x]!r}")
        if p["end"] not in ENDS or len(p["next"]) != 5:
            errs.append(f"seat {i}: end or next")
        if p["alive"]:
            if p["piece"] is None or p["end"] != "none":
                errs.append(f"seat {i}: in without a piece")
        else:
            if p["piece"] is not None or p["queue"] or p["place"] < 1 or p["end"] == "none":
                errs.append(f"seat {i}: out with a piece, a queue or no place")
    alive = sum(p["alive"] for p in players)
    for i, p in enumerate(players):
        if p["alive"] and p["place"] != (1 if alive == 1 else 0):
            errs.append(f"seat {i}: place {p['place']} while in")
        if prev_players and prev_players[i]["alive"] and not p["alive"] and p["place"] != alive + 1:
            errs.append(f"seat {i}: out this turn with place {p['place']}, want {alive + 1}")
    return errs


def main():
    scripts_tool, trace_tool = sys.argv[1], sys.argv[2]
    matches = sys.argv[3] if len(sys.argv) > 3 else "40"
    seed = sys.argv[4] if len(sys.argv) > 4 else "5"
    scripts = subprocess.run([scripts_tool, matches, seed], capture_output=True, text=True,
                             check=True)
    trace = subprocess.run([trace_tool], input=scripts.stdout, capture_output=True, text=True)
    tests = [(trace.returncode == 0, "ab_trace reads every script", trace.stderr.strip())]
    out = trace.stdout.split("\n")
    if out and out[-1] == "":
        out.pop()
    at = 0
    canonical = True
    detail = ""
    for n, text in enumerate(scripts.stdout.split("\n")):
        if not text:
            continue
        script = json.loads(text)
        lines = out[at:at + len(script["turns"])]
        at += len(script["turns"])
        errs = []
        if len(lines) != len(script["turns"]):
            errs.append(f"{len(lines)} lines for {len(script['turns'])} turns")
        prev = None
        for t, line in enumerate(lines, 1):
            obj = json.loads(line)
            if json.dumps(obj, sort_keys=True, separators=(",", ":")) != line and canonical:
                canonical = False
                detail = f"script {n + 1} turn {t}: not json.dumps's text"
            errs += [f"turn {t}: {e}" for e in check_line(obj, prev, script["players"], t)]
            prev = obj["players"]
        tests.append((not errs, f"script {n + 1} ({script['players']} seats, chance "
                      f"{script['chance']}, {len(script['turns'])} turns)", "; ".join(errs[:3])))
    tests.append((canonical, "every line is json.dumps(sort_keys=True, separators=(',',':'))",
                  detail))
    tests.append((at == len(out), "no line beyond the scripts' turns", ""))
    print(f"1..{len(tests)}")
    failed = 0
    for n, (good, name, why) in enumerate(tests, 1):
        print(f"{'ok' if good else 'not ok'} {n} - {name}")
        if not good:
            failed += 1
            print(f"# {why}")
    print(f"# {scripts.stderr.strip()}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
