#!/usr/bin/env python3
"""diff_actionblocks.py: the engine's trace tool against the naive model, as TAP.

Usage: diff_actionblocks.py AB_TRACE [MATCHES [SEED [MIN_KEYS]]]

Plays a few hand-made scripts (EDGE_SCRIPTS: resets of an O, shared
places, the command grammar, missed turns, empty inventories, holds), then
MATCHES random match scripts (2-4 players; items on with chance 10-30 and
random weights in most matches, off in some), reproducible from SEED,
through naive_actionblocks.py and through AB_TRACE (which reads the scripts
on stdin, one JSON a line, and writes one JSON line a turn), and compares
the turn lines as text. With MIN_KEYS, matches go on being generated past
MATCHES until that many key sequences (one seat's keys in one turn) are in
the scripts, and a last test checks that they were all compared. AB_TRACE
"-" runs the model alone (generation, coverage and timing). A refusal's
reason text is free on both sides, so it is blanked before comparing (the
refused seat still counts).

The bots play sensibly with noise: a greedy choice over the placements
reachable by rotation, shifts and a drop (a T also tries tucks and turns at
the bottom, so that spins happen; "spinner" bots leave T-spin slots),
holds, item uses on chosen targets, random extra keys, lock-reset burning
(moves on the ground until the 15th reset locks), missed turns (sometimes
three in a row), resignations, and now and then a deliberately refused
command (the turn is reported refused and played again). Some matches are
"clean" (no items, no noise), a few are sieges (add_line thrown at a side
stacker, so that garbage overflows) or marathons (long enough for the
level cap). On the first difference of a match it prints the script, the
turn, both lines and the fields that differ. At the end it prints the key
sequences compared and coverage counts (spins, T-spins with lines,
back-to-back, perfect clears, items used, eliminations by reason, and the
model's notes on rare paths: kicks by test, 15th-reset locks, ...).

"""
import collections
import json
import os
import random
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import naive_actionblocks as nb  # noqa: E402

ROTATE_KEYS = ["", "X", "XX", "Z"]


# ---- a fast placement planner over the model's shapes ------------------------------
def fits_k(board, kind, x, y, r):
    for dx, down in nb.CELLS[kind][r]:
        cx = x + dx
        cy = y - down
        if cx < 0 or cx >= 10 or cy < 0 or cy >= 40 or board[cy][cx] != ".":
            return False
    return True


def land(board, tops, kind, x, y, r):
    """Box row where the piece at (x, y, r) comes to rest falling straight."""
    cells = nb.CELLS[kind][r]
    if all(y - down >= tops[x + dx] for dx, down in cells):
        return y - min(y - down - tops[x + dx] for dx, down in cells)
    while fits_k(board, kind, x, y - 1, r):
        y -= 1
    return y


def evaluate(board, tops, counts, cells, style):
    per_row = {}
    low = {}
    t2 = list(tops)
    for cx, cy in cells:
        per_row[cy] = per_row.get(cy, 0) + 1
        if cy + 1 > t2[cx]:
            t2[cx] = cy + 1
        if cy < low.get(cx, 99):
            low[cx] = cy
    full = 0
    for cy, k in per_row.items():
        if counts[cy] + k == 10:
            full += 1
    holes = 0
    for cx, cy in low.items():
        if cy > tops[cx]:
            holes += cy - tops[cx]
    maxh = max(t2) - full
    agg = sum(t2) - 10 * full
    bump = 0
    prev = t2[0]
    for h in t2[1:]:
        bump += h - prev if h > prev else prev - h
        prev = h
    score = -style[6] * holes - style[8] * agg - 0.25 * bump
    if maxh > 12:
        score -= 3.0 * (maxh - 12)
        score += 6.0 * full
    else:
        score += style[full]
    if style[5] and t2[9] > min(t2[:9]) + 1:
        score -= 2.0   # the Tetris style keeps column 9 low
    if full and counts[40] + len(cells) == 10 * full:
        score += 100.0  # a perfect clear
    return score, full


def tsd_slots(board, tops, counts, cells):
    """T-spin slots the board would have with cells added: a stem hole at
    (c, h) on top of column c, the T's flat row h+1 open over c-1..c+1, and an
    overhang at (c+-1, h+2) on one side, the other side open; counts the
    rows h and h+1 that the T would fill (0 when no slot)."""
    added = set(cells)

    def filled(x, y):
        if x < 0 or x > 9 or y < 0:
            return True
        return (x, y) in added or board[y][x] != "."
    t2 = list(tops)
    for cx, cy in cells:
        if cy + 1 > t2[cx]:
            t2[cx] = cy + 1
    best = 0
    for c in range(1, 9):
        h = t2[c]
        if h > 17 or filled(c, h) or filled(c, h + 1):
            continue
        for o, q in ((c + 1, c - 1), (c - 1, c + 1)):
            if not (filled(q, h) and filled(o, h) and not filled(q, h + 1)
                    and not filled(o, h + 1) and filled(o, h + 2) and not filled(q, h + 2)):
                continue
            row_h = counts[h] + sum(1 for x, y in cells if y == h)
            row_h1 = counts[h + 1] + sum(1 for x, y in cells if y == h + 1)
            lines = (row_h == 9) + (row_h1 == 7)
            best = max(best, 1 + lines)
    return best


class Bot:
    def __init__(self, rng, items_on, clean=False):
        self.rng = rng
        self.skill = 1.0 if clean else rng.choice([1.0, 1.0, 0.9, 0.7, 0.4])
        self.noise = 0.0 if clean else rng.choice([0.0, 0.05, 0.15, 0.3])
        self.hold_rate = rng.choice([0.0, 0.1, 0.3])
        self.use_rate = rng.choice([0.3, 0.6, 0.9]) if items_on else 0.0
        self.siege = False
        self.miss_rate = rng.choice([0.0, 0.0, 0.01, 0.04])
        self.burn_rate = rng.choice([0.0, 0.02, 0.08])
        self.resign_rate = rng.choice([0.0, 0.0, 0.001, 0.004])
        self.sleep_at = rng.randrange(5, 60) if rng.random() < 0.08 else -1
        tetris = rng.random() < (0.9 if clean else 0.6)
        # bonus by lines cleared when the stack is low; [5] = Tetris style;
        # [6] the cost of a hole (spinners leave overhangs); [7] spin bonus
        self.spinner = rng.random() < 0.4
        # a side stacker fills columns 0-2 and 7-9 only, up into the buffer,
        # so that rising garbage can push its cells out of the top (overflow)
        self.side = rng.random() < 0.08
        self.style = [0.0, -6.0 if tetris else 1.0, -1.0 if tetris else 2.0, 6.0, 30.0, tetris,
                      2.0 if self.spinner else 6.0, 30.0 if self.spinner else 8.0,
                      0.1 if tetris else 0.3]

    def plan(self, m, s, kind, tops, counts, spins):
        """[(score, keys)] over simple placements of a piece of this kind
        coming out at its spawn place."""
        board = s.board
        x0 = nb.spawn_x(kind)
        y0 = 21
        if not fits_k(board, kind, x0, y0, 0):
            return []
        if fits_k(board, kind, x0, y0 - 1, 0):
            y0 -= 1
        out = []
        if kind in ("O", "D", "X"):
            rots = [0]
        elif kind in ("I", "S", "Z"):
            rots = [0, 1]   # 2 and 3 are the same cells shifted
        else:
            rots = [0, 1, 2, 3]
        for r in rots:
            if not fits_k(board, kind, x0, y0, r):
                continue
            for direction in (-1, 1):
                x = x0
                shift = 0
                while True:
                    if shift or direction == -1:
                        yl = land(board, tops, kind, x, y0, r)
                        cells = [(x + dx, yl - down) for dx, down in nb.CELLS[kind][r]]
                        sc, full = evaluate(board, tops, counts, cells, self.style)
                        if self.spinner and kind != "T" and not full:
                            sc += 8.0 * tsd_slots(board, tops, counts, cells)
                        if self.side:
                            sc = 0.0 if all(cx < 3 or cx > 6 for cx, cy in cells) else -100.0
                            if min(cy for cx, cy in cells) >= 20:
                                sc -= 500.0
                            elif not (3 <= cells[0][0] <= 6):
                                sc += max(cy for cx, cy in cells) * 0.5
                        base = ROTATE_KEYS[r] + ("L" if direction < 0 else "R") * shift
                        out.append((sc, base + "D"))
                        if spins:
                            spins.append((x, yl, r, base + "S" * (y0 - yl)))
                    if not fits_k(board, kind, x + direction, y0, r):
                        break
                    x += direction
                    shift += 1
        return out

    def spin_plans(self, m, s, landings, tops, counts):
        """T only: from each landing, a turn (with or without a one-cell tuck
        first) that ends grounded with 3 corners blocked."""
        out = []
        saved = [getattr(s, f) for f in nb.Match.MOVE_FIELDS]
        saved_next = list(s.next)
        try:
            for x, yl, r, keys in landings:
                for tuck in ("", "L", "R", "LL", "RR"):
                    for turns in ("X", "Z", "XX", "ZZ", "XSX", "ZSZ"):
                        s.x, s.y, s.r = x, yl, r
                        bad = False
                        for key in tuck:
                            dx = -1 if key == "L" else 1
                            if not m.fits(s, s.x + dx, s.y, s.r):
                                bad = True
                                break
                            s.x += dx
                        if bad or (tuck and m.fits(s, s.x, s.y - 1, s.r)):
                            continue
                        key = ""
                        for k in turns:
                            if k == "S":
                                while m.fits(s, s.x, s.y - 1, s.r):
                                    s.y -= 1
                                    key += "S"
                            elif m.rotate(s, 1 if k == "X" else 3):
                                key += k
                            else:
                                bad = True
                                break
                        if bad or m.fits(s, s.x, s.y - 1, s.r):
                            continue
                        c = (m.blocked(s, s.x, s.y) + m.blocked(s, s.x + 2, s.y)
                             + m.blocked(s, s.x, s.y - 2) + m.blocked(s, s.x + 2, s.y - 2))
                        if c < 3:
                            continue
                        cells = m.cells(s, s.x, s.y, s.r)
                        if any(cy >= 40 for cx, cy in cells):
                            continue
                        sc, full = evaluate(s.board, tops, counts, cells, self.style)
                        sc += self.style[7] * (0.2 + full)
                        out.append((sc, keys + tuck + key + "D"))
        finally:
            for f, v in zip(nb.Match.MOVE_FIELDS, saved):
                setattr(s, f, v)
            s.next = saved_next
        return out

    def keys_for(self, m, s):
        rng = self.rng
        board = s.board
        tops = [0] * 10
        for x in range(10):
            for y in range(39, -1, -1):
                if board[y][x] != ".":
                    tops[x] = y + 1
                    break
        counts = [sum(1 for c in row if c != ".") for row in board]
        counts.append(sum(counts))      # [40]: every filled cell
        kind = m.kind(s, s.cur)
        landings = [] if kind != "T" else [None]
        plans = self.plan(m, s, kind, tops, counts, landings)
        if kind == "T":
            plans += self.spin_plans(m, s, landings[1:], tops, counts)
        if not s.hold_used and rng.random() < 0.2 + self.hold_rate:
            other = s.hold if s.hold is not None else s.next[0]
            okind = m.kind(s, other if (m.kind(s, other) in nb.ODD_LETTERS
                                        or s.transform == 0) else other)
            alt = [(sc - 0.5, "C" + k) for sc, k in self.plan(m, s, okind, tops, counts, None)]
            if rng.random() < self.hold_rate:
                plans += alt
            elif alt and plans and max(alt)[0] > max(plans)[0] + 3:
                plans += alt
        if not plans:
            return rng.choice(["D", "LD", "RD", "XD", "CD"])
        if rng.random() < self.skill:
            keys = max(plans)[1]
        else:
            keys = rng.choice(plans)[1]
        # noise: extra keys before the end, no final D, lock-reset burning
        if rng.random() < self.noise:
            ks = list(keys[:-1])
            for _ in range(rng.randint(1, 3)):
                ks.insert(rng.randint(0, len(ks)), rng.choice("LRXZSSC"))
            keys = "".join(ks) + "D"
        if rng.random() < self.burn_rate:
            keys = keys[:-1] + "S" * 22 + "".join(rng.choice("LRXZ") for _ in range(rng.randint(10, 40)))
        if rng.random() < 0.15:
            keys = keys[:-1]
        return keys

    def command(self, m, p, turn):
        rng = self.rng
        s = m.seats[p]
        if 0 <= self.sleep_at <= turn < self.sleep_at + 3:
            return "missed"
        if rng.random() < self.miss_rate:
            return "missed"
        tall = max((y for y in range(40) if any(c != "." for c in s.board[y])), default=-1)
        if rng.random() < self.resign_rate or (tall > 17 and rng.random() < 5 * self.resign_rate):
            return "resign"
        keys = self.keys_for(m, s)
        got, i = m.dry_run(s, keys)
        if got == "lock" or rng.random() < 0.5:
            # keys after a lock are refused, and after a hold that blocked
            # out (half of those are sent: both sides must refuse them)
            keys = keys[:i + 1]
        use = ""
        if self.siege:
            # hoard until the victim's sides reach into the buffer
            victim = m.seats[0]
            top = max((y for y in range(40) if victim.board[y] != ["."] * 10), default=0)
            use_now = s.inventory and top >= 21 and victim.alive
        else:
            use_now = rng.random() < self.use_rate and (s.inventory or rng.random() < 0.05)
        if m.chance > 0 and use_now:
            use = "use %d; " % self.target(m, p, tall)
        if rng.random() < 0.3:
            return use + keys if keys else use + "keys D"
        return use + "keys " + keys if keys else use + "keys D"

    def target(self, m, p, tall):
        rng = self.rng
        s = m.seats[p]
        others = [q for q in range(m.n) if q != p]
        living = [q for q in others if m.seats[q].alive]
        item = s.inventory[0] if s.inventory else "a"
        if self.siege and m.seats[0].alive and p != 0:
            q = 0
        elif self.siege and living:
            def height(q):
                b = m.seats[q].board
                return max((y for y in range(40) if b[y] != ["."] * 10), default=0)
            q = max(living, key=height)
        elif item in "cn" and tall > 6 and rng.random() < 0.8:
            q = p
        elif not living or rng.random() < 0.1:
            q = p
        else:
            q = rng.choice(living)
        return 1 if q == p else 2 + others.index(q)


BAD = ["keys DD", "keys LQD", "hop", "keys " + "L" * 257, "keys XXDL", "use 9; keys D",
       "use 0; keys D", "use 2 keys D", "keys d", "use 2;keys D"]


def bad_command(rng, m, p):
    options = list(BAD)
    if m.chance == 0:
        options.append("use 2; keys D")
        options.append("use 1; keys D")
    options.append("use %d; keys D" % (m.n + 1))
    others = [q for q in range(m.n) if q != p]
    dead = [q for q in others if not m.seats[q].alive]
    if dead and m.chance > 0:
        options += ["use %d; keys D" % (2 + others.index(dead[0]))] * 3
    for _ in range(10):
        cmd = rng.choice(options)
        if m.check(p, cmd) is not None:
            return cmd
    return None


# ---- matches ---------------------------------------------------------------------
class Coverage:
    def __init__(self):
        self.c = collections.Counter()

    def turn(self, m, line, cmds, before_alive):
        c = self.c
        if line["refused"] is not None:
            c["refused turns"] += 1
            return
        c["turns"] += 1
        for p, ev in enumerate(line["events"]):
            if ev is None:
                continue
            cmd = cmds[p]
            if cmd not in ("resign", "missed"):
                c["key sequences"] += 1
                if "C" in cmd.split("keys ")[-1]:
                    c["with hold"] += 1
                if cmd.startswith("use"):
                    c["use commands"] += 1
            elif cmd == "missed":
                c["missed turns"] += 1
            if ev["spin"] != "none":
                c["spins " + ev["spin"]] += 1
                if ev["lines"]:
                    c["T-spins with lines (%s %d)" % (ev["spin"], ev["lines"])] += 1
            if ev["lines"]:
                c["clears of %d" % ev["lines"]] += 1
            if ev["b2b"]:
                c["back-to-back"] += 1
            if ev["combo"] >= 2:
                c["combo >= 2"] += 1
            if ev["perfect"]:
                c["perfect clears"] += 1
            if line["players"][p]["level"] == 15:
                c["locks at level 15"] += 1
            if ev["cancelled"]:
                c["cancels"] += 1
            if ev["sent"]:
                c["blocks sent"] += 1
        for p, pl in enumerate(line["players"]):
            if before_alive[p] and not pl["alive"]:
                c["out: " + pl["end"]] += 1
            if pl["piece"] and pl["piece"] in nb.ODD_LETTERS:
                c["odd pieces in play"] += 1


def gen_match(rng, cov):
    players = rng.randint(2, 4)
    items_on = rng.random() < 0.85
    chance = rng.randint(10, 30) if items_on else 0
    weights = [rng.choice([0, 1, 5, 20, 50, 100]) for _ in range(6)]
    if rng.random() < 0.4 or not any(weights):
        weights = [rng.randint(1, 100) for _ in range(6)]
    # a siege: clean bots throw add_line at the tallest opponent, so that
    # garbage overflows happen now and then
    siege = items_on and rng.random() < 0.12
    if siege:
        players = 4
        chance = 30
        weights = [100, 0, 0, 0, 0, rng.choice([0, 0, 5])]
    seed = rng.choice([rng.randrange(1000), rng.randrange(2 ** 53)])
    cap = rng.choice([60, 120, 200])
    # a marathon: two clean bots without items for long enough that the
    # level reaches its cap (15, at 140 lines)
    marathon = not siege and rng.random() < 0.04
    if marathon:
        players = 2
        items_on = False
        chance = 0
        cap = 500
    m = nb.Match(seed, players, chance, weights)
    clean = (not items_on and rng.random() < 0.6) or siege or marathon
    bots = [Bot(random.Random(rng.random()), items_on, clean) for _ in range(players)]
    for b in bots:
        b.siege = siege
        if marathon:
            b.miss_rate = b.resign_rate = b.burn_rate = 0.0
            b.sleep_at = -1
            b.side = b.spinner = False
            b.hold_rate = 0.1
            b.style = [0.0, 2.0, 3.0, 6.0, 20.0, False, 6.0, 8.0, 0.5]
    if siege:
        bots[0].side = True      # the besieged side stacker
        bots[0].siege = False
        bots[0].use_rate = 0.0
    script = {"seed": seed, "players": players, "chance": chance, "weights": weights,
              "turns": []}
    lines = []
    while not m.over and len(script["turns"]) < cap:
        t = m.turn
        cmds = [bots[p].command(m, p, t) if m.seats[p].alive else None for p in range(players)]
        alive = [s.alive for s in m.seats]
        if rng.random() < 0.03:
            p = rng.choice([q for q in range(players) if alive[q]])
            bad = bad_command(rng, m, p)
            if bad is not None:
                wrong = list(cmds)
                wrong[p] = bad
                got = m.play_turn(wrong)
                assert got["refused"] is not None, bad
                script["turns"].append(wrong)
                lines.append(nb.dumps(got))
                cov.turn(m, got, wrong, alive)
        got = m.play_turn(cmds)
        assert got["refused"] is None, (cmds, got["refused"])
        script["turns"].append(cmds)
        lines.append(nb.dumps(got))
        cov.turn(m, got, cmds, alive)
    cov.c.update({"model: " + k: v for k, v in m.notes.items()})
    for k in m.used:
        cov.c["items used: " + "add_line clear_line nuke swap blind transform".split()[
            nb.ITEM_CHARS.index(k)]] += 1
    return script, lines


# ---- hand-made scripts for paths random play seldom takes ---------------------------
S19 = "S" * 19
EDGE_SCRIPTS = [
    # seed 0 starts with an O: on the floor, 15 turns in place are 15 resets
    # (choice C4: an O turn succeeds), so a key after them is refused.
    {"seed": 0, "players": 2, "chance": 0, "weights": [1] * 6,
     "turns": [["keys " + S19 + "X" * 15 + "L", "keys D"], ["keys " + S19 + "X" * 15, "keys D"],
               ["keys " + S19 + "Z" * 14 + "LD", "keys D"]]},
    # everyone resigns at once: all share place 1
    {"seed": 3, "players": 3, "chance": 0, "weights": [1] * 6,
     "turns": [["resign", "resign", "resign"]]},
    # two out together of four: places 3 and 3, then 2 and 1
    {"seed": 4, "players": 4, "chance": 10, "weights": [1] * 6,
     "turns": [["resign", "keys D", "resign", "keys D"], [None, "keys D", None, "resign"]]},
    # Stackfall's grammar: keywords in any case, blanks and tabs, leading zeros
    {"seed": 5, "players": 3, "chance": 10, "weights": [1] * 6,
     "turns": [["KEYS D", "keys D", "D"], ["  keys  LLD  ", "Use 1; keys D", "use 2 ; keys RD"],
               ["use 02; keys D", "keys\tD", "keys D"], ["keys", "keys ", "use 1; keys"],
               ["resign ", "RESIGN", "keys D"]]},
    # three missed turns in a row; a sent move resets the count
    {"seed": 6, "players": 3, "chance": 0, "weights": [1] * 6,
     "turns": [["missed", "missed", "keys D"], ["missed", "missed", "keys D"],
               ["keys D", "missed", "keys D"], ["missed", None, "keys D"],
               ["missed", None, "keys D"], ["keys LD", None, "keys D"]]},
    # uses with an empty inventory; a use naming a seat out is refused
    {"seed": 7, "players": 3, "chance": 10, "weights": [1] * 6,
     "turns": [["use 1; keys D", "use 2; keys D", "resign"], ["use 3; keys D", "keys D", None],
               ["use 2; keys D", "use 1; keys D", None]]},
    # holds: a second hold for the same piece does nothing
    {"seed": 12, "players": 2, "chance": 0, "weights": [1] * 6,
     "turns": [["keys CCD", "keys CD"], ["keys CD", "keys CCCD"], ["keys XCZCD", "C"],
               ["keys " + "S" * 30 + "D", "keys S"]]},
]


# ---- comparing ---------------------------------------------------------------------
def blank_reason(line):
    try:
        obj = json.loads(line)
    except ValueError:
        return line
    if isinstance(obj, dict) and isinstance(obj.get("refused"), dict):
        obj["refused"]["reason"] = ""
        return nb.dumps(obj)
    return line


def differences(a, b, path=""):
    if type(a) is not type(b):
        return [(path, a, b)]
    if isinstance(a, dict):
        out = []
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                out.append((path + "." + k, a.get(k, "<absent>"), b.get(k, "<absent>")))
            else:
                out += differences(a[k], b[k], path + "." + k)
        return out
    if isinstance(a, list):
        if len(a) != len(b) or (a and all(isinstance(v, str) for v in a)):
            if a != b:
                if all(isinstance(v, str) for v in a + b) and len(a) == len(b):
                    return [(path + "[%d]" % i, x, y) for i, (x, y) in enumerate(zip(a, b)) if x != y]
                return [(path, a, b)]
            return []
        out = []
        for i, (x, y) in enumerate(zip(a, b)):
            out += differences(x, y, path + "[%d]" % i)
        return out
    return [] if a == b else [(path, a, b)]


def run_engine(tool, scripts):
    text = "".join(json.dumps(s) + "\n" for s in scripts)
    got = subprocess.run([tool], input=text, capture_output=True, text=True)
    return got.returncode, got.stdout.split("\n")[:-1] if got.stdout else [], got.stderr


def main():
    args = sys.argv[1:]
    if not args:
        print("usage: diff_actionblocks.py AB_TRACE [MATCHES [SEED [MIN_KEYS]]]", file=sys.stderr)
        return 2
    tool = args[0]
    matches = int(args[1]) if len(args) > 1 else 300
    seed = int(args[2]) if len(args) > 2 else 1
    min_keys = int(args[3]) if len(args) > 3 else 0
    if tool != "-" and not os.access(tool, os.X_OK):
        print("1..0 # SKIP no trace tool at %s" % tool)
        return 0
    started = time.time()
    rng = random.Random(seed)
    cov = Coverage()
    scripts = []
    model = []
    for script in EDGE_SCRIPTS:
        m = nb.Match(script["seed"], script["players"], script["chance"], script["weights"])
        lines = []
        for cmds in script["turns"]:
            alive = [s.alive for s in m.seats]
            got = m.play_turn(cmds)
            lines.append(nb.dumps(got))
            cov.turn(m, got, cmds, alive)
        scripts.append(script)
        model.append(lines)
    while len(scripts) < matches + len(EDGE_SCRIPTS) or cov.c["key sequences"] < min_keys:
        script, lines = gen_match(rng, cov)
        scripts.append(script)
        model.append(lines)
    generated = time.time()
    n = 0
    failed = 0
    compared = collections.Counter()
    reasons = 0
    if tool != "-":
        rc, out, err = run_engine(tool, scripts)
        if rc != 0 or len(out) != sum(len(x) for x in model):
            batch = None
        else:
            batch = out
        pos = 0
        for k, (script, lines) in enumerate(zip(scripts, model)):
            if batch is not None:
                theirs = batch[pos:pos + len(lines)]
                pos += len(lines)
            else:
                rc, theirs, err = run_engine(tool, [script])
            bad = None
            for t, mine in enumerate(lines):
                if t >= len(theirs):
                    bad = (t, mine, "<no line>")
                    break
                if mine == theirs[t]:
                    continue
                if blank_reason(mine) == blank_reason(theirs[t]):
                    reasons += 1
                    continue
                bad = (t, mine, theirs[t])
                break
            if bad is None and len(theirs) > len(lines):
                bad = (len(lines), "<no line>", theirs[len(lines)])
            n += 1
            if bad is None:
                print("ok %d - match %d: seed %d, %d players, chance %d, %d turns"
                      % (n, k, script["seed"], script["players"], script["chance"], len(lines)))
                for t, line in enumerate(lines):
                    obj = json.loads(line)
                    if obj["refused"] is None:
                        compared["key sequences"] += sum(
                            1 for p, c in enumerate(script["turns"][t])
                            if obj["events"][p] is not None and c not in ("resign", "missed"))
                continue
            failed += 1
            t, mine, theirs = bad
            print("not ok %d - match %d differs at script turn %d (line %d)" % (n, k, t, t + 1))
            print("# script: " + json.dumps(script, separators=(",", ":")))
            print("# turn commands: " + json.dumps(script["turns"][t]))
            print("# model:  " + mine)
            print("# engine: " + theirs)
            try:
                for path, a, b in differences(json.loads(mine), json.loads(theirs))[:30]:
                    print("#   %s: model %s, engine %s" % (path, json.dumps(a), json.dumps(b)))
            except ValueError:
                print("#   (the engine line is not JSON)")
    ended = time.time()
    c = cov.c
    print("# matches %d, turns %d (refused %d), key sequences generated %d, compared %d"
          % (len(scripts), c["turns"], c["refused turns"], c["key sequences"], compared["key sequences"]))
    if reasons:
        print("# %d refused turns agreed but for the reason text" % reasons)
    for key in sorted(c):
        print("#   %-36s %d" % (key, c[key]))
    print("# time: generation and model %.1f s, engine and compare %.1f s"
          % (generated - started, ended - generated))
    if min_keys:
        n += 1
        have = compared["key sequences"] if tool != "-" else c["key sequences"]
        print("%s %d - at least %d key sequences compared (%d)"
              % ("ok" if have >= min_keys else "not ok", n, min_keys, have))
        if have < min_keys:
            failed += 1
    if tool == "-":
        n += 1
        print("ok %d - model alone: %d matches generated and played" % (n, len(scripts)))
    print("1..%d" % n)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
