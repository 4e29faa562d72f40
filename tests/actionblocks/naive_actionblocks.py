#!/usr/bin/env python3
"""naive_actionblocks.py: a deliberately plain model of `actionblocks-v1`, turn mode.

Written from the rule texts only (seed 003 "Game Rules (as implemented)",
the spec page actionblocks.md, the design notes ab-design.md, and
docs/rules/versus.md / docs/stream.md for what ActionBlocks shares with
versus), never from the C engine, so that the two can be compared turn by
turn (diff_actionblocks.py). Boards are 40 lists of 10 one-character cells,
row 0 the bottom; pieces come from literal diagrams; moves go one cell at a
time; rows clear one at a time. Speed is not a goal, plainness is.

Usage as a tool: `naive_actionblocks.py < scripts` reads match scripts, one
JSON object per line ({"seed", "players", "chance", "weights", "turns"}),
and prints one JSON line per turn, in the trace format of ab-design.md.

Choices made where the three documents leave something open (each one is
the most literal reading found; the C engine chooses independently):
 C1  Turn numbers: "turn" is the script's turn, 1 for the first, refused
     ones included (aligned with the engine's tool; the documents say "for
     each turn one JSON line"). A refused turn is not played and prints
     "events": null and the players unchanged. When several commands of a
     turn are refused, the first seat in match order is reported. The
     reason text is free.
 C2  A refused command: not a string / null for a living seat, a string
     for a seat already out, a grammar error, a letter outside LRXZSDC
     (upper case), more than 256 keys, keys left after the piece locked
     (by D or by the 15th reset), `use` in a match without items, T outside
     1..players or naming a seat already out. Grammar: Stackfall's (which
     versus follows): keywords `resign`, `use`, `keys` in any case, blanks
     around words, `;` between the use and the keys (empty parts skipped),
     `keys LETTERS` or the letters alone; `keys` with no letters is the
     empty move (a hard drop, as a missed turn: "missed = empty keys");
     `missed` is the script's word.
 C3  A hold whose new piece spawns onto blocks is a block out: the seat is
     out (block_out) at once and nothing locks. Keys after it are refused,
     as keys after a lock are: the piece they were sent for is gone (the
     rules page says so; an earlier reading ignored them).
 C4  The O, the Dot and the Plus rotate successfully (test (0,0) always
     fits since the shape does not change): the state r changes, the
     rotation counts as a successful action (a lock reset when grounded;
     it sets "last action was a rotation").
 C5  A box that is not square (the U, 3 wide x 2 tall) turns about its
     top-left cell: the position (box top-left) stays, the box becomes 2
     wide x 3 tall.
 C6  A key that both uses a reset and reaches a new lowest row: the reset
     is counted first, then the new row starts the count over (0).
 C7  A missed turn's drop is the empty-keys move: a hard drop from where
     the piece is (spawn), scoring +2 a row as drop points.
 C8  Lock out: the piece's cells are written on the board, then the lock
     stops: no rows removed, no points, no attack; combo and b2b stay; the
     event reports the spin check's result, lines 0, points 0.
 C9  A seat that goes out in step 1 (resigned, missed, lock_out, block_out
     at a hold) takes no further part in the turn: no item use, no attack,
     no rising, no spawn. It can still be the
     target of garbage (lost with its queue) and of items (they act on its
     board), being alive when the turn began. A seat an item tops out in
     step 1b (overflow) plays on through steps 1b-4 (its own use, attack,
     rising) and is out at step 6. The first reason found is kept.
 C10 A seat that did not lock this turn (resigned, third miss, block out at
     a hold) has the event lines 0, spin none, points 0, attack 0,
     cancelled 0, sent [], b2b false, perfect false, drop_points earned
     (0 but for a block out after drops), combo its counter unchanged.
 C11 Event "b2b" = the back-to-back bonus applied to this lock; state "b2b"
     = the last line clear was difficult. Event "combo" = the counter after
     the lock. Event "points" = the lock's points (level applied), drops
     apart in "drop_points"; "score" adds both.
 C12 A mini spin clearing 3 lines is a full spin (the spec: "scored and
     attacks as a full spin"), and its event reports "spin": "full".
 C13 The trace shows the true board and items even while blind; "blind"
     and "transform" are the turns left.
 C14 Blind counts down by one at the start of every played turn
     (versus.md), transformation in step 1a, both for every seat, out or
     not (the rules name no exception; aligned with the engine's tool).
 C15 A seat out has no piece: "piece", "x", "y", "r" are null (aligned
     with the engine's tool; the documents are silent); hold and next stay.
     "place" is 0 until decided. A seat out loses its queue (printed []).
 C16 The items of an odd shape are counted in its spawn state (rotation 0,
     bottom row first, left to right) and turn with it, as a tetromino's.
 C17 Items collected beyond the 10th are discarded silently. An item use
     with an empty inventory does nothing. Only seats with keys this turn
     (not resign, not missed) can use.
 C18 The whole queue rises even after a filled cell was pushed out
     (overflow); the cells pushed out are lost.
 C19 Transformation (versus.md): a hit turns the 5 preview pieces odd, not
     the falling piece nor the held one; a piece entering the preview while
     the count is above 0 is odd; at 0 the preview and the held piece
     change back. A piece put in hold keeps its shape while a
     Transformation runs, and is its tetromino again when none runs.
 C20 Points: base (clear, spin or mini table) x 1.5 when back-to-back, plus
     50 x combo when combo > 0, all times the level before the lock's
     lines; back-to-back only for a lock that clears lines. Perfect clear
     adds attack (+10) and no points.
 C21 "x", "y" are the box's top-left cell (y up); after the spawn's move
     down one row a J L S T Z O I piece on an empty board shows y = 20.
"""
import collections
import json
import random
import sys

COLS = 10
ROWS = 40
BUFFER_BOTTOM = 20          # rows 20-39 are the hidden buffer
PREVIEW = 5
MAX_RESETS = 15
MAX_KEYS = 256
MAX_INVENTORY = 10
MAX_LEVEL = 15
ITEM_CHARS = "acnsbt"       # add_line clear_line nuke swap blind transform
KEY_LETTERS = "LRXZSDC"
ODD_LETTERS = "DCUXW"       # dot small_l u plus w, the odd draw 0..4
BLIND_TURNS = 4
TRANSFORM_TURNS = 8
EMPTY = "."
GREY = "G"

# Spawn shapes, top row first, '#' a cell, in their boxes (spec "Board,
# pieces, coordinates"; odd shapes: versus.md "Odd shapes", boxes per
# ab-design.md: Dot 1x1, small L 2x2, U 3 wide x 2 tall, Plus and W 3x3).
SPAWN_SHAPES = {
    "I": ["....",
          "####",
          "....",
          "...."],
    "O": ["##",
          "##"],
    "T": [".#.",
          "###",
          "..."],
    "S": [".##",
          "##.",
          "..."],
    "Z": ["##.",
          ".##",
          "..."],
    "J": ["#..",
          "###",
          "..."],
    "L": ["..#",
          "###",
          "..."],
    "D": ["#"],
    "C": ["#.",
          "##"],
    "U": ["#.#",
          "###"],
    "X": [".#.",
          "###",
          ".#."],
    "W": ["#..",
          "##.",
          ".##"],
}

# The four states written out by hand, to check the turned boxes against.
STATE_DIAGRAMS = {
    "T": [[".#.", "###", "..."],
          [".#.", ".##", ".#."],
          ["...", "###", ".#."],
          [".#.", "##.", ".#."]],
    "I": [["....", "####", "....", "...."],
          ["..#.", "..#.", "..#.", "..#."],
          ["....", "....", "####", "...."],
          [".#..", ".#..", ".#..", ".#.."]],
    "S": [[".##", "##.", "..."],
          [".#.", ".##", "..#"],
          ["...", ".##", "##."],
          ["#..", "##.", ".#."]],
    # versus.md's odd-shape rotations (trimmed boxes there, the same here).
    "C": [["#.", "##"], ["##", "#."], ["##", ".#"], [".#", "##"]],
    "U": [["#.#", "###"], ["##", "#.", "##"], ["###", "#.#"], ["##", ".#", "##"]],
    "W": [["#..", "##.", ".##"], [".##", "##.", "#.."], ["##.", ".##", "..#"],
          ["..#", ".##", "##."]],
}

# SRS wall kicks, (dx, dy) with y up, tests 1-5. Source: the Tetris
# Guideline's SRS tables (Tetris Wiki, "Super Rotation System"), as typed in
# the spec page actionblocks.md.
KICKS_JLSTZ = {
    (0, 1): [(0, 0), (-1, 0), (-1, +1), (0, -2), (-1, -2)],
    (1, 0): [(0, 0), (+1, 0), (+1, -1), (0, +2), (+1, +2)],
    (1, 2): [(0, 0), (+1, 0), (+1, -1), (0, +2), (+1, +2)],
    (2, 1): [(0, 0), (-1, 0), (-1, +1), (0, -2), (-1, -2)],
    (2, 3): [(0, 0), (+1, 0), (+1, +1), (0, -2), (+1, -2)],
    (3, 2): [(0, 0), (-1, 0), (-1, -1), (0, +2), (-1, +2)],
    (3, 0): [(0, 0), (-1, 0), (-1, -1), (0, +2), (-1, +2)],
    (0, 3): [(0, 0), (+1, 0), (+1, +1), (0, -2), (+1, -2)],
}
KICKS_I = {
    (0, 1): [(0, 0), (-2, 0), (+1, 0), (-2, -1), (+1, +2)],
    (1, 0): [(0, 0), (+2, 0), (-1, 0), (+2, +1), (-1, -2)],
    (1, 2): [(0, 0), (-1, 0), (+2, 0), (-1, +2), (+2, -1)],
    (2, 1): [(0, 0), (+1, 0), (-2, 0), (+1, -2), (-2, +1)],
    (2, 3): [(0, 0), (+2, 0), (-1, 0), (+2, +1), (-1, -2)],
    (3, 2): [(0, 0), (-2, 0), (+1, 0), (-2, -1), (+1, +2)],
    (3, 0): [(0, 0), (+1, 0), (-2, 0), (+1, -2), (-2, +1)],
    (0, 3): [(0, 0), (-1, 0), (+2, 0), (-1, +2), (+2, -1)],
}
KICKS_NONE = [(0, 0)]

# Seed 003's tables.
CLEAR_POINTS = [0, 100, 300, 500, 800]
SPIN_POINTS = [400, 800, 1200, 1600]
MINI_POINTS = [100, 200, 400]
CLEAR_ATTACK = [0, 0, 1, 2, 4]
SPIN_ATTACK = [0, 2, 4, 6]
MINI_ATTACK = [0, 0, 1]
COMBO_ATTACK = [0, 0, 1, 1, 1, 2, 2, 3, 3, 4, 4, 4, 5]
PERFECT_ATTACK = 10


def turn_box(box):
    """The box turned a quarter clockwise: new[r][c] = old[H-1-c][r]."""
    h = len(box)
    w = len(box[0])
    return ["".join(box[h - 1 - c][r] for c in range(h)) for r in range(w)]


def build_shapes():
    """CELLS[kind][state] = [(dx, down), ...] in mino order (the spawn
    state's cells bottom row first, left to right; each mino keeps its index
    as the box turns, so items turn with the piece)."""
    cells = {}
    for kind, spawn in SPAWN_SHAPES.items():
        box = spawn
        h = len(box)
        minos = [(r, c) for r in range(h - 1, -1, -1) for c in range(len(box[0]))
                 if box[r][c] == "#"]
        states = []
        for state in range(4):
            got = sorted((r, c) for r in range(len(box)) for c in range(len(box[0]))
                         if box[r][c] == "#")
            assert sorted(minos) == got, (kind, state)
            if kind in STATE_DIAGRAMS:
                assert box == STATE_DIAGRAMS[kind][state], (kind, state, box)
            states.append([(c, r) for r, c in minos])
            h = len(box)
            minos = [(c, h - 1 - r) for r, c in minos]
            box = turn_box(box)
        assert box == spawn
        cells[kind] = states
    return cells


CELLS = build_shapes()


def kicks_for(kind, a, b):
    if kind in ("O", "D"):
        return KICKS_NONE
    if kind == "I":
        return KICKS_I[(a, b)]
    return KICKS_JLSTZ[(a, b)]


def spawn_x(kind):
    """Box left column: 3 for boxes 3 or 4 wide, 4 for 1 or 2 wide."""
    return 3 if len(SPAWN_SHAPES[kind][0]) >= 3 else 4


def empty_row():
    return [EMPTY] * COLS


class Seat:
    def __init__(self, p):
        self.p = p
        self.board = [empty_row() for _ in range(ROWS)]
        self.items = [empty_row() for _ in range(ROWS)]
        self.cur = None          # (stream index, odd) of the falling piece
        self.x = self.y = self.r = 0
        self.hold = None
        self.hold_used = False
        self.next = []           # [(stream index, odd)] x 5
        self.drawn = 0           # stream pieces taken into the preview so far
        self.lowest = 0
        self.resets = 0
        self.last_rot = False
        self.last_kick = -1
        self.score = 0
        self.lines = 0
        self.combo = -1
        self.b2b = False
        self.queue = []          # [[lines, hole]] oldest first
        self.inventory = []
        self.alive = True
        self.place = 0
        self.end = "none"
        self.blind = 0
        self.transform = 0
        self.missed = 0
        self.cursor = p
        # per turn
        self.out_now = None      # reason marked this turn
        self.out_step1 = False
        self.locked = False
        self.cleared = 0
        self.use = None
        self.event = None
        self.drop = 0

    def level(self):
        return min(MAX_LEVEL, 1 + self.lines // 10)


class Match:
    def __init__(self, seed, players, chance=0, weights=None):
        self.seed = seed
        self.n = players
        self.chance = chance
        self.weights = list(weights) if weights else [1] * 6
        self.bags = {}
        self.rolls = {}
        self.odds = {}
        self.blocks = 0
        self.used = []           # item chars that acted, for coverage counts
        self.notes = collections.Counter()   # rare paths taken, for coverage
        self.recording = False   # notes are taken while a turn resolves only
        self.turn = 0            # turns played
        self.lines_seen = 0      # script turns, refused ones included
        self.over = False
        self.seats = [Seat(p) for p in range(players)]
        for s in self.seats:
            first = self.enter(s)
            for _ in range(PREVIEW):
                s.next.append(self.enter(s))
            ok = self.spawn(s, first)
            assert ok

    def note(self, what):
        if self.recording:
            self.notes[what] += 1

    # ---- random streams -------------------------------------------------
    def stream_letter(self, i):
        b = i // 7
        if b not in self.bags:
            gen = random.Random("actionblocks-v1:%d:%d" % (self.seed, b))
            bag = list("IOTSZJL")
            for p in range(6, 0, -1):
                j = int(gen.random() * (p + 1))
                bag[p], bag[j] = bag[j], bag[p]
            self.bags[b] = bag
        return self.bags[b][i % 7]

    def roll(self, p, i):
        """The four minos' item chars ('.' none), spawn-state mino order."""
        key = (p, i)
        if key not in self.rolls:
            out = []
            if self.chance > 0:
                gen = random.Random("actionblocks-v1:%d:items:%d:%d" % (self.seed, p, i))
                total = sum(self.weights)
                for _ in range(4):
                    if gen.random() < self.chance / 100:
                        w = int(gen.random() * total)
                        run = 0
                        pick = None
                        for k in range(6):
                            run += self.weights[k]
                            if run > w:
                                pick = k
                                break
                        out.append(ITEM_CHARS[pick])
                    else:
                        out.append(EMPTY)
            else:
                out = [EMPTY] * 4
            self.rolls[key] = out
        return self.rolls[key]

    def odd_letter(self, p, i):
        key = (p, i)
        if key not in self.odds:
            gen = random.Random("actionblocks-v1:%d:odd:%d:%d" % (self.seed, p, i))
            self.odds[key] = ODD_LETTERS[int(gen.random() * 5)]
        return self.odds[key]

    def garbage_hole(self):
        k = self.blocks
        self.blocks += 1
        return int(random.Random("actionblocks-v1:%d:garbage:%d" % (self.seed, k)).random() * 10)

    # ---- pieces -----------------------------------------------------------
    def kind(self, s, piece):
        i, odd = piece
        return self.odd_letter(s.p, i) if odd else self.stream_letter(i)

    def piece_items(self, s, piece):
        i, odd = piece
        items = self.roll(s.p, i)
        if not odd:
            return items
        n = len(CELLS[self.odd_letter(s.p, i)][0])
        carried = [c for c in items if c != EMPTY][:n]
        return carried + [EMPTY] * (n - len(carried))

    def enter(self, s):
        """The next stream piece enters s's preview (odd while transformed)."""
        piece = (s.drawn, s.transform > 0)
        s.drawn += 1
        return piece

    def take_next(self, s):
        piece = s.next.pop(0)
        s.next.append(self.enter(s))
        return piece

    def cells(self, s, x, y, r):
        return [(x + dx, y - down) for dx, down in CELLS[self.kind(s, s.cur)][r]]

    def fits(self, s, x, y, r):
        board = s.board
        for dx, down in CELLS[self.kind(s, s.cur)][r]:
            cx = x + dx
            cy = y - down
            if cx < 0 or cx >= COLS or cy < 0 or cy >= ROWS:
                return False
            if board[cy][cx] != EMPTY:
                return False
        return True

    def grounded(self, s):
        return not self.fits(s, s.x, s.y - 1, s.r)

    def spawn(self, s, piece):
        """Puts piece in play at its spawn place; False on a block out."""
        s.cur = piece
        kind = self.kind(s, piece)
        s.x = spawn_x(kind)
        s.y = 21
        s.r = 0
        if not self.fits(s, s.x, s.y, s.r):
            return False
        if self.fits(s, s.x, s.y - 1, s.r):
            s.y -= 1
        s.lowest = s.y
        s.resets = 0
        s.last_rot = False
        s.last_kick = -1
        return True

    def rotate(self, s, turn):
        kind = self.kind(s, s.cur)
        a = s.r
        b = (a + turn) % 4
        for test, (dx, dy) in enumerate(kicks_for(kind, a, b)):
            if self.fits(s, s.x + dx, s.y + dy, b):
                s.x += dx
                s.y += dy
                s.r = b
                s.last_rot = True
                s.last_kick = test
                if test:
                    self.note("kick test %d (%s)" % (test + 1, "I" if kind == "I" else
                                                      "O/Dot" if kind in "OD" else "JLSTZ+odd"))
                return True
        return False

    def do_hold(self, s):
        out = s.cur
        if s.transform == 0:
            out = (out[0], False)
        if s.hold is None:
            new = self.take_next(s)
        else:
            new = s.hold
        s.hold = out
        s.hold_used = True
        return self.spawn(s, new)

    def hard_drop(self, s):
        rows = 0
        while self.fits(s, s.x, s.y - 1, s.r):
            s.y -= 1
            rows += 1
        s.drop += 2 * rows
        if rows:
            s.last_rot = False
        if s.y < s.lowest:
            s.lowest = s.y
            s.resets = 0

    def run_keys(self, s, keys):
        """Plays keys on s's piece. Returns ("lock", i) for a lock at key i
        (i == len(keys): the completing hard drop) or ("block_out", i) for a
        hold at key i that spawned onto blocks. Writes nothing on the board."""
        for i, key in enumerate(keys):
            was_grounded = self.grounded(s)
            moved = False
            if key == "L" or key == "R":
                dx = -1 if key == "L" else 1
                if self.fits(s, s.x + dx, s.y, s.r):
                    s.x += dx
                    s.last_rot = False
                    moved = True
            elif key == "X" or key == "Z":
                moved = self.rotate(s, 1 if key == "X" else 3)
            elif key == "S":
                if self.fits(s, s.x, s.y - 1, s.r):
                    s.y -= 1
                    s.drop += 1
                    s.last_rot = False
            elif key == "D":
                self.hard_drop(s)
                return ("lock", i)
            elif key == "C":
                if not s.hold_used:
                    if not self.do_hold(s):
                        self.note("block out at a hold")
                        return ("block_out", i)
                    continue
            if moved and was_grounded:
                s.resets += 1
            if s.y < s.lowest:
                s.lowest = s.y
                s.resets = 0
            if s.resets >= MAX_RESETS and self.grounded(s):
                self.note("locked by the 15th reset")
                return ("lock", i)
        self.hard_drop(s)
        return ("lock", len(keys))

    MOVE_FIELDS = ("cur", "x", "y", "r", "hold", "hold_used", "drawn", "lowest",
                   "resets", "last_rot", "last_kick", "drop")

    def dry_run(self, s, keys):
        saved = [getattr(s, f) for f in self.MOVE_FIELDS]
        saved_next = list(s.next)
        try:
            return self.run_keys(s, keys)
        finally:
            for f, v in zip(self.MOVE_FIELDS, saved):
                setattr(s, f, v)
            s.next = saved_next

    # ---- the lock -----------------------------------------------------------
    def blocked(self, s, x, y):
        if x < 0 or x >= COLS or y < 0 or y >= ROWS:
            return True
        return s.board[y][x] != EMPTY

    def lock(self, s):
        ev = s.event
        kind = self.kind(s, s.cur)
        # 1. spin check
        spin = "none"
        if kind == "T" and s.last_rot:
            tl = self.blocked(s, s.x, s.y)
            tr = self.blocked(s, s.x + 2, s.y)
            bl = self.blocked(s, s.x, s.y - 2)
            br = self.blocked(s, s.x + 2, s.y - 2)
            if tl + tr + bl + br >= 3:
                front = {0: (tl, tr), 1: (tr, br), 2: (bl, br), 3: (tl, bl)}[s.r]
                spin = "full" if (front[0] and front[1]) or s.last_kick == 4 else "mini"
        ev["spin"] = spin
        letter = self.stream_letter(s.cur[0])
        items = self.piece_items(s, s.cur)
        cells = self.cells(s, s.x, s.y, s.r)
        for m, (cx, cy) in enumerate(cells):
            s.board[cy][cx] = letter
            s.items[cy][cx] = items[m]
        s.locked = True
        s.hold_used = False
        # 2. lock out
        if kind in ODD_LETTERS:
            self.note("odd shapes locked")
        if all(cy >= BUFFER_BOTTOM for cx, cy in cells):
            s.out_now = "lock_out"
            s.out_step1 = True
            return
        # 3. rows, one at a time from the bottom
        level = s.level()
        cleared = 0
        y = 0
        while y < ROWS:
            if all(c != EMPTY for c in s.board[y]):
                for c in s.items[y]:
                    if c != EMPTY:
                        if len(s.inventory) < MAX_INVENTORY:
                            s.inventory.append(c)
                            self.note("items collected")
                        else:
                            self.note("items discarded (inventory full)")
                del s.board[y]
                del s.items[y]
                s.board.append(empty_row())
                s.items.append(empty_row())
                cleared += 1
            else:
                y += 1
        s.cleared = cleared
        # 4. combo, 5. back-to-back, 6. perfect clear
        if cleared:
            s.combo += 1
        else:
            s.combo = -1
        full = spin == "full" or (spin == "mini" and cleared == 3)
        if spin == "mini" and cleared == 3:
            self.note("mini spin triple")
            ev["spin"] = "full"

        if spin == "full" and s.last_kick == 4:
            self.note("full spin by test 5")
        difficult = cleared == 4 or (spin != "none" and cleared > 0)
        b2b = cleared > 0 and difficult and s.b2b
        if cleared:
            s.b2b = difficult
        perfect = cleared > 0 and all(c == EMPTY for row in s.board for c in row)
        if full:
            base = SPIN_POINTS[cleared]
        elif spin == "mini":
            base = MINI_POINTS[cleared]
        else:
            base = CLEAR_POINTS[cleared]
        if b2b:
            base = base * 3 // 2
        points = base
        if s.combo > 0:
            points += 50 * s.combo
        points *= level
        attack = 0
        if cleared:
            if full:
                attack = SPIN_ATTACK[cleared]
            elif spin == "mini":
                attack = MINI_ATTACK[cleared]
            else:
                attack = CLEAR_ATTACK[cleared]
            if b2b:
                attack += 1
            attack += COMBO_ATTACK[min(s.combo, len(COMBO_ATTACK) - 1)]
            if perfect:
                attack += PERFECT_ATTACK
        s.lines += cleared
        s.score += points
        ev.update(lines=cleared, points=points, attack=attack, b2b=b2b,
                  perfect=perfect, combo=s.combo)

    # ---- commands -----------------------------------------------------------
    def parse(self, cmd):
        """(what, keys, use) or raises ValueError with the reason. Stackfall's
        syntax (docs/rules/stackfall.md "Grammar", which versus follows): keywords in any
        case, blanks (spaces, tabs) before, between and after words, parts
        separated by ';' (empty parts skipped); the key letters upper case."""
        if not isinstance(cmd, str):
            raise ValueError("no command")
        parts = [part.strip(" \t") for part in cmd.split(";")]
        parts = [part for part in parts if part]
        if not parts:
            raise ValueError("empty command")
        words = parts[0].split()
        if len(parts) == 1 and len(words) == 1 and words[0].lower() == "resign":
            return ("resign", None, None)
        if len(parts) == 1 and cmd == "missed":
            return ("missed", "", None)
        use = None
        if words and words[0].lower() == "use":
            if len(words) != 2 or not words[1].isascii() or not words[1].isdigit():
                raise ValueError("bad use")
            use = int(words[1])
            parts = parts[1:]
        if len(parts) != 1:
            raise ValueError("not a move")
        words = parts[0].split()
        if len(words) == 2 and words[0].lower() == "keys":
            keys = words[1]
        elif len(words) == 1 and words[0].lower() == "keys":
            keys = ""    # no keys: completed by a hard drop, as a missed turn's
        elif len(words) == 1:
            keys = words[0]
        else:
            raise ValueError("not a move")
        if any(c not in KEY_LETTERS for c in keys):
            raise ValueError("not a move")
        if len(keys) > MAX_KEYS:
            raise ValueError("more than 256 keys")
        return ("keys", keys, use)

    def use_target(self, p, t):
        if t == 1:
            return p
        others = [q for q in range(self.n) if q != p]
        if t < 2 or t - 2 >= len(others):
            return None
        return others[t - 2]

    def check(self, p, cmd):
        """None if seat p may send cmd now, else the reason."""
        s = self.seats[p]
        if not s.alive:
            return None if cmd is None else "seat out"
        try:
            what, keys, use = self.parse(cmd)
        except ValueError as e:
            return str(e)
        if use is not None:
            if self.chance == 0:
                return "no items in this match"
            q = self.use_target(p, use)
            if q is None:
                return "no seat %d" % use
            if not self.seats[q].alive:
                return "target out"
        if what == "keys":
            got, i = self.dry_run(s, keys)
            if got == "lock" and i < len(keys) - 1:
                return "key %d after the lock" % (i + 1)
            if got == "block_out" and i < len(keys) - 1:
                return "key %d after the block out" % (i + 1)
        return None

    # ---- items -------------------------------------------------------------------
    def rise_row(self, s, hole):
        """A grey row enters at the bottom; True when a filled cell went out."""
        row = [GREY] * COLS
        row[hole] = EMPTY
        s.board.insert(0, row)
        s.items.insert(0, empty_row())
        top = s.board.pop()
        s.items.pop()
        return any(c != EMPTY for c in top)

    def mark(self, s, reason):
        if s.out_now is None:
            s.out_now = reason

    def apply_item(self, item, u, t):
        if item == "a":
            if self.rise_row(t, self.garbage_hole()):
                self.note("overflow by add_line")
                self.mark(t, "overflow")
        elif item == "c":
            del t.board[0]
            del t.items[0]
            t.board.append(empty_row())
            t.items.append(empty_row())
        elif item == "n":
            t.board = [empty_row() for _ in range(ROWS)]
            t.items = [empty_row() for _ in range(ROWS)]
        elif item == "s":
            if t is not u:
                u.board, t.board = t.board, u.board
                u.items, t.items = t.items, u.items
        elif item == "b":
            t.blind += BLIND_TURNS
        elif item == "t":
            t.transform += TRANSFORM_TURNS
            t.next = [(i, True) for i, odd in t.next]

    # ---- the turn -------------------------------------------------------------------
    def new_event(self, s):
        return {"lines": 0, "spin": "none", "points": 0, "attack": 0, "cancelled": 0,
                "sent": [], "b2b": False, "combo": s.combo, "perfect": False,
                "drop_points": 0}

    def play_turn(self, cmds):
        self.lines_seen += 1
        t = self.lines_seen
        for p in range(self.n):
            reason = self.check(p, cmds[p] if p < len(cmds) else None)
            if reason is not None:
                return {"turn": t, "refused": {"seat": p, "reason": reason},
                        "events": None, "players": self.view()}
        self.turn += 1
        self.recording = True
        seats = self.seats
        alive0 = [s.alive for s in seats]
        for s in seats:
            s.out_now = None
            s.out_step1 = False
            s.locked = False
            s.cleared = 0
            s.use = None
            s.drop = 0
            s.event = self.new_event(s) if s.alive else None
            if s.blind > 0:
                s.blind -= 1
        # 1. moves, locks, clears
        for p, s in enumerate(seats):
            if not alive0[p]:
                continue
            what, keys, use = self.parse(cmds[p])
            if what == "resign":
                s.out_now = "resigned"
                s.out_step1 = True
                continue
            if what == "missed":
                s.missed += 1
                if s.missed >= 3:
                    s.out_now = "missed"
                    s.out_step1 = True
                    continue
            else:
                s.missed = 0
                if use is not None:
                    s.use = self.use_target(p, use)
            got, i = self.run_keys(s, keys)
            if got == "block_out":
                s.out_now = "block_out"
                s.out_step1 = True
            else:
                self.lock(s)
            s.score += s.drop
            s.event["drop_points"] = s.drop
        active = [alive0[p] and not seats[p].out_step1 for p in range(self.n)]
        # 1a. transformations count down (every seat's, as blind's)
        for p, s in enumerate(seats):
            if s.transform > 0:
                s.transform -= 1
                if s.transform == 0:
                    s.next = [(i, False) for i, odd in s.next]
                    if s.hold is not None:
                        if s.hold[1]:
                            self.note("odd hold changed back")
                        s.hold = (s.hold[0], False)
        # 1b. item uses
        for p, s in enumerate(seats):
            if active[p] and s.use is not None and not s.inventory:
                self.note("use with an empty inventory")
            if alive0[p] and s.out_step1 and s.use is not None:
                self.note("use by a seat out in step 1 (dropped)")
            if active[p] and s.use is not None and s.inventory:
                item = s.inventory.pop(0)
                self.used.append(item)
                self.apply_item(item, s, seats[s.use])
        # 2. attacks cancel the sender's own queue
        rest = [0] * self.n
        for p, s in enumerate(seats):
            if not active[p] or not s.locked:
                continue
            a = s.event["attack"]
            cancelled = 0
            while a > 0 and s.queue:
                take = min(a, s.queue[0][0])
                s.queue[0][0] -= take
                a -= take
                cancelled += take
                if s.queue[0][0] == 0:
                    s.queue.pop(0)
            s.event["cancelled"] = cancelled
            rest[p] = a
        before = [len(s.queue) for s in seats]
        # 3. sending, round robin over the seats alive when the turn began
        for p, s in enumerate(seats):
            if rest[p] <= 0:
                continue
            q = s.cursor
            while True:
                q = (q + 1) % self.n
                if q != p and alive0[q]:
                    break
            s.cursor = q
            hole = self.garbage_hole()
            seats[q].queue.append([rest[p], hole])
            s.event["sent"] = [[q, rest[p], hole]]
        # 4. rising
        for p, s in enumerate(seats):
            if not active[p] or not s.locked or s.cleared:
                continue
            rising = s.queue[:before[p]]
            s.queue = s.queue[before[p]:]
            for lines, hole in rising:
                for _ in range(lines):
                    if self.rise_row(s, hole):
                        self.mark(s, "overflow")
        # 5. spawn
        for p, s in enumerate(seats):
            if active[p] and s.out_now is None:
                s.hold_used = False
                if not self.spawn(s, self.take_next(s)):
                    self.mark(s, "block_out")
        # 6. eliminations
        outs = [s for p, s in enumerate(seats) if alive0[p] and s.out_now is not None]
        for s in outs:
            s.alive = False
            s.end = s.out_now
            s.queue = []
        left = [s for s in seats if s.alive]
        for s in outs:
            s.place = len(left) + 1
        if len(left) <= 1:
            self.over = True
            for s in left:
                s.place = 1
        self.recording = False
        return {"turn": t, "refused": None,
                "events": [s.event if alive0[p] else None for p, s in enumerate(seats)],
                "players": self.view()}

    def view(self):
        out = []
        for s in self.seats:
            out.append({
                "board": ["".join(row) for row in s.board],
                "items": ["".join(row) for row in s.items],
                "piece": self.kind(s, s.cur) if s.alive else None,
                "x": s.x if s.alive else None,
                "y": s.y if s.alive else None,
                "r": s.r if s.alive else None,
                "hold": None if s.hold is None else self.kind(s, s.hold),
                "next": [self.kind(s, q) for q in s.next],
                "score": s.score, "lines": s.lines, "level": s.level(),
                "combo": s.combo, "b2b": s.b2b,
                "queue": [list(b) for b in s.queue],
                "inventory": "".join(s.inventory),
                "alive": s.alive, "place": s.place, "end": s.end,
                "blind": s.blind, "transform": s.transform,
            })
        return out


def dumps(obj):
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


def run_script(script):
    """The trace lines of one match script."""
    m = Match(script["seed"], script["players"], script.get("chance", 0),
              script.get("weights"))
    lines = []
    for cmds in script["turns"]:
        if m.over:
            break
        lines.append(dumps(m.play_turn(cmds)))
    return lines


def main():
    out = sys.stdout
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        for t in run_script(json.loads(line)):
            out.write(t + "\n")


if __name__ == "__main__":
    main()
