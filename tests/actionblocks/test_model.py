#!/usr/bin/env python3
"""test_model.py: hand-worked cases for naive_actionblocks.py, as TAP.

Every expected number below is worked out in the comments from the rule
texts (seed 003, actionblocks.md, ab-design.md), not read back from the
model. Boards are built directly: rows are written top row first, the last
string being row 0 (y grows up), 'G' a filled cell. Pieces are put in play
by letter (a stream piece of that letter), so the tests do not depend on
the bag. Needs nothing but python3.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import naive_actionblocks as nb  # noqa: E402

N = 0
FAILED = 0


def ok(cond, text, detail=None):
    global N, FAILED
    N += 1
    if cond:
        print("ok %d - %s" % (N, text))
    else:
        FAILED += 1
        print("not ok %d - %s" % (N, text))
        if detail is not None:
            for line in str(detail).split("\n"):
                print("# " + line)


def eq(got, want, text):
    ok(got == want, text, "got  %r\nwant %r" % (got, want))


def match(players=2, chance=0, weights=None, seed=1):
    return nb.Match(seed, players, chance, weights)


def rows(s, lines):
    """Writes lines (top first) onto rows len(lines)-1 .. 0, clears the rest."""
    s.board = [nb.empty_row() for _ in range(nb.ROWS)]
    s.items = [nb.empty_row() for _ in range(nb.ROWS)]
    for k, text in enumerate(reversed(lines)):
        s.board[k] = list(text)


def put(m, s, letter, x=None, y=None, r=0):
    """Puts a stream piece of this letter in play: at its spawn place, or at
    (x, y, r) when given. Returns False on a block out."""
    i = next(i for i in range(7) if m.stream_letter(i) == letter)
    if x is None:
        return m.spawn(s, (i, False))
    s.cur = (i, False)
    s.x, s.y, s.r = x, y, r
    s.lowest = y
    s.resets = 0
    s.last_rot = False
    s.last_kick = -1
    return True


def bottom(s, n):
    return ["".join(s.board[y]) for y in range(n - 1, -1, -1)]


# ---------------------------------------------------------------------------
def test_shapes():
    # The turned boxes were asserted at import against the literal diagrams;
    # spot-check the spawn places of the spec: T cols 3-5 rows 20-21, I cols
    # 3-6 row 20, O cols 4-5 (before the move down one row).
    m = match()
    s = m.seats[0]
    for letter, want in (("T", [(4, 21), (3, 20), (4, 20), (5, 20)]),
                         ("I", [(3, 20), (4, 20), (5, 20), (6, 20)]),
                         ("O", [(4, 21), (5, 21), (4, 20), (5, 20)])):
        put(m, s, letter, x=nb.spawn_x(letter), y=21)
        eq(sorted(m.cells(s, s.x, s.y, 0)), sorted(want), "spawn cells of %s" % letter)
    # On an empty board the spawn moves down one row at once: box top 20.
    put(m, s, "T")
    eq((s.x, s.y, s.r), (3, 20, 0), "T spawns at box (3, 21) and moves down to 20")
    put(m, s, "O")
    eq((s.x, s.y), (4, 20), "O spawns in columns 4-5")


def test_tspin_triple():
    # Board (rows 4..0):            The T comes down column 2-4 (L once from
    #   GG........  row 4            x=3, S x16 from box y=20 to 4, where its
    #   G.........  row 3            cell (2,3)... rests over row 2), slides L
    #   G.GGGGGGGG  row 2            under the overhang (1,4) to box (1,4),
    #   G..GGGGGGG  row 1            then X (0->1): test 1 (1,4) hits (2,2),
    #   G.GGGGGGGG  row 0            test 2 (0,4) hits (1,4), test 3 (0,5) hits
    # (1,4), test 4 (1,2) hits (2,2), test 5 (-1,-2) -> box (0,2) state 1:
    # cells (1,2) (1,1) (2,1) (1,0), filling rows 0-2: a triple. Last action a
    # rotation by test 5, corners (0,2) (2,2) (0,0) (2,0) all blocked: full.
    # Points 1600 x level: lines 20 before -> level 3 -> 4800; attack 6;
    # drop points 16 (16 soft drop rows, the D moves none).
    for b2b in (False, True):
        m = match()
        s = m.seats[0]
        rows(s, ["GG........", "G.........", "G.GGGGGGGG", "G..GGGGGGG", "G.GGGGGGGG"])
        s.lines = 20
        s.b2b = b2b
        put(m, s, "T")
        keys = "L" + "S" * 16 + "LXD"
        got = m.play_turn(["keys " + keys, "keys D"])
        ev = got["events"][0]
        tag = " (back-to-back)" if b2b else ""
        eq((ev["spin"], ev["lines"]), ("full", 3), "T-spin triple by keys" + tag)
        # back-to-back: 1600 x 1.5 = 2400 x 3 = 7200, attack 6 + 1
        eq(ev["points"], 7200 if b2b else 4800, "T-spin triple points 1600 x level" + tag)
        eq(ev["attack"], 7 if b2b else 6, "T-spin triple attack" + tag)
        eq(ev["b2b"], b2b, "event b2b flag" + tag)
        eq(ev["drop_points"], 16, "16 soft drop rows" + tag)
        eq(s.score, (7200 if b2b else 4800) + 16, "score = points + drops" + tag)
        eq(ev["sent"][0][:2], [1, 7 if b2b else 6], "sent to seat 1" + tag)
        eq(bottom(s, 2), ["GG........", "G........."], "rows 3-4 fell to rows 0-1" + tag)
        eq(s.level(), 3, "level 1 + 23/10")


def test_mini_spin():
    # Board:  G..G......  row 1     T: Z (test 1 in the air) -> state 3, LL to
    #         ...GGGGGGG  row 0     box x=1, S x18 to box (1,2): cells (2,2)
    # (1,1) (2,1) (2,0), grounded (its (2,0) is on the floor). X (3->0):
    # test 1 (1,2) state 0 hits (3,1); test 2 (-1,0) (0,2) hits (0,1); test 3
    # (-1,-1) -> (0,1): cells (1,1) (0,0) (1,0) (2,0). Corners: TL (0,1) G, TR
    # (2,1) empty, BL and BR below the floor: 3 blocked, the pointing side
    # (up: TL, TR) not both, test 3 not 5: mini. Row 0 full: mini single,
    # 200 x 1, attack 0; b2b becomes set (a difficult clear).
    m = match()
    s = m.seats[0]
    rows(s, ["G..G......", "...GGGGGGG"])
    put(m, s, "T")
    got = m.play_turn(["keys ZLL" + "S" * 18 + "XD", "keys D"])
    ev = got["events"][0]
    eq((ev["spin"], ev["lines"], ev["points"], ev["attack"]), ("mini", 1, 200, 0),
       "mini spin single: 200, attack 0")
    eq(s.b2b, True, "a mini spin that clears lines is difficult")
    eq(bottom(s, 1), ["GT.G......"], "row 1 fell onto row 0")
    # The same without lines: take row 0's left cells away from the full
    # row (col 9 empty): mini spin with 0 lines, 100 points.
    m = match()
    s = m.seats[0]
    rows(s, ["G..G......", "...GGGGGG."])
    put(m, s, "T")
    got = m.play_turn(["keys ZLL" + "S" * 18 + "XD", "keys D"])
    ev = got["events"][0]
    eq((ev["spin"], ev["lines"], ev["points"], ev["attack"]), ("mini", 0, 100, 0),
       "mini spin, no lines: 100, attack 0")
    # The same T rotated and then moved: no spin.
    m = match()
    s = m.seats[0]
    rows(s, ["G..G......", "...GGGGGG."])
    put(m, s, "T")
    got = m.play_turn(["keys ZLLS", "keys D"])
    eq(got["events"][0]["spin"], "none", "a soft drop after the rotation: no spin")


def kick_case(m, s, letter, x, y, a, turn, k, cells_free_of=()):
    """Blocks tests 1..k-1 of the rotation a -> a+turn of letter at (x, y)
    with one cell each (a cell of that test's place that is neither in test
    k's place nor in the piece now), then rotates."""
    b = (a + turn) % 4
    kicks = nb.KICKS_I if letter == "I" else nb.KICKS_JLSTZ
    rows(s, [])
    put(m, s, letter, x, y, a)
    now = set(m.cells(s, x, y, a))
    dx, dy = kicks[(a, b)][k - 1]
    goal = set(m.cells(s, x + dx, y + dy, b))
    for j in range(k - 1):
        ex, ey = kicks[(a, b)][j]
        for c in m.cells(s, x + ex, y + ey, b):
            if c not in goal and c not in now:
                s.board[c[1]][c[0]] = "G"
                break
        else:
            return None
    return m.rotate(s, turn)


def test_kicks():
    # Each row: piece, box at (x, y) in state a, the turn (+1 X, -1 Z), the
    # test k, the box expected after (from the spec tables, by hand).
    cases = [
        # J L S T Z table
        ("T", 4, 10, 0, 1, 2, (3, 10, 1)),   # 0->1 test 2 (-1, 0)
        ("J", 4, 10, 1, 1, 3, (5, 9, 2)),    # 1->2 test 3 (+1,-1)
        ("S", 4, 10, 2, 1, 4, (4, 8, 3)),    # 2->3 test 4 ( 0,-2)
        ("Z", 4, 10, 3, 1, 5, (3, 12, 0)),   # 3->0 test 5 (-1,+2)
        ("L", 4, 10, 0, -1, 5, (5, 8, 3)),   # 0->3 test 5 (+1,-2)
        # I table
        ("I", 3, 10, 0, 1, 2, (1, 10, 1)),   # 0->1 test 2 (-2, 0)
        ("I", 3, 10, 1, 1, 3, (5, 10, 2)),   # 1->2 test 3 (+2, 0)
        ("I", 3, 10, 2, 1, 4, (5, 11, 3)),   # 2->3 test 4 (+2,+1)
        ("I", 3, 10, 3, 1, 5, (1, 11, 0)),   # 3->0 test 5 (-2,+1)
        ("I", 3, 10, 0, -1, 5, (5, 9, 3)),   # 0->3 test 5 (+2,-1)
    ]
    for letter, x, y, a, turn, k, want in cases:
        m = match()
        s = m.seats[0]
        done = kick_case(m, s, letter, x, y, a, turn, k)
        eq((done, (s.x, s.y, s.r), s.last_kick + 1), (True, want, k),
           "%s %d->%d uses test %d" % (letter, a, (a + turn) % 4, k))
    # Every test blocked: the rotation does nothing.
    m = match()
    s = m.seats[0]
    rows(s, ["G.GGGGGGGG"] * 20)
    put(m, s, "I", -1, 10, 1)     # I upright in column 1, rows 7-10, in a shaft
    eq(m.rotate(s, 1), False, "I in a one-wide shaft cannot turn")
    eq((s.x, s.y, s.r), (-1, 10, 1), "and stays where it was")
    # O: the single test (0,0); it always fits (choice C4).
    put(m, s, "O", 4, 30, 0)
    eq((m.rotate(s, 1), s.r, s.x, s.y), (True, 1, 4, 30), "O turns in place")


def test_lock_out():
    # Columns 1-9 filled in rows 0-19 (column 0 empty: no row clears). The T
    # spawns at box (3,21) (cells rows 20-21 free) and cannot move down (row
    # 19 filled). D locks it in rows 20-21: lock out.
    m = match()
    s = m.seats[0]
    rows(s, [".GGGGGGGGG"] * 20)
    eq(put(m, s, "T"), True, "the T spawns over a full stack")
    eq(s.y, 21, "and stays at box row 21")
    got = m.play_turn(["keys D", "keys D"])
    p0, p1 = got["players"]
    eq((p0["alive"], p0["end"], p0["place"]), (False, "lock_out", 2), "lock out: place 2")
    eq((p1["alive"], p1["place"]), (True, 1), "the last one left wins")
    eq(p0["board"][21][3:6], ".T.", "the locked piece stays on the board (C8)")
    eq(m.over, True, "the match is over")


def test_block_out():
    # Row 20 filled in columns 3-6: the current T is put low (box (0,2)); D
    # locks it; the next piece spawns in rows 20-21 over column 3-6 cells:
    # block out at step 5.
    m = match()
    s = m.seats[0]
    rows(s, [])
    for x in range(3, 7):
        s.board[20][x] = "G"
    put(m, s, "T", 0, 2, 0)
    got = m.play_turn(["keys D", "keys D"])
    eq((got["players"][0]["end"], got["players"][0]["place"]), ("block_out", 2),
       "block out at the spawn")
    eq(got["events"][0]["lines"], 0, "the lock itself was ordinary")
    # A hold that spawns onto blocks (C3).
    m = match()
    s = m.seats[0]
    rows(s, [])
    for x in range(3, 7):
        s.board[20][x] = "G"
    put(m, s, "T", 0, 2, 0)
    eq(m.check(0, "keys CLLD"), "key 1 after the block out",
       "keys after a blocked-out hold are refused, as keys after a lock")
    got = m.play_turn(["keys C", "keys D"])
    eq(got["players"][0]["end"], "block_out", "block out at a hold")
    eq(got["players"][0]["board"][0], "..........", "nothing locked")


def test_overflow():
    # Seat 0 has a cell at (0,38) and 2 queued lines; its lock clears nothing,
    # so the 2 lines rise: the cell goes to 39, then out of the top: overflow.
    m = match()
    s = m.seats[0]
    s.board[38][0] = "G"
    s.queue = [[2, 5]]
    put(m, s, "O")
    got = m.play_turn(["keys D", "keys D"])
    p0 = got["players"][0]
    eq((p0["end"], p0["place"], p0["queue"]), ("overflow", 2, []), "garbage overflow")
    eq(p0["board"][0], "GGGGG.GGGG", "hole in column 5")
    eq(p0["board"][2][4:6], "OO", "the O rose by two")
    # Without the cell at 38, the same rising is harmless.
    m = match()
    s = m.seats[0]
    s.queue = [[2, 5], [1, 0]]
    put(m, s, "O")
    got = m.play_turn(["keys D", "keys D"])
    p0 = got["players"][0]
    eq(p0["alive"], True, "no overflow")
    eq(p0["board"][0:3], [".GGGGGGGGG", "GGGGG.GGGG", "GGGGG.GGGG"],
       "the oldest block ends highest")


def test_drop_points():
    # T at box (3,20): S S S -> 17, D -> box 1 (cells rows 1 and 0): 16 rows.
    # 3 x 1 + 16 x 2 = 35, not multiplied by the level (lines 50 -> level 6).
    m = match()
    s = m.seats[0]
    s.lines = 50
    put(m, s, "T")
    got = m.play_turn(["keys SSSD", "keys D"])
    eq(got["events"][0]["drop_points"], 35, "3 soft + 16 hard rows = 35")
    eq(got["events"][0]["points"], 0, "no clear, no points")
    eq(got["players"][0]["score"], 35, "score 35")
    # Keys ending without D: completed by a hard drop (+2 a row).
    m = match()
    s = m.seats[0]
    put(m, s, "T")
    got = m.play_turn(["keys L", "keys D"])
    eq(got["events"][0]["drop_points"], 38, "completed by a hard drop of 19 rows")
    # A soft drop on the ground scores nothing.
    m = match()
    s = m.seats[0]
    put(m, s, "T", 3, 1, 0)
    got = m.play_turn(["keys SSS", "keys D"])
    eq(got["events"][0]["drop_points"], 0, "S on the ground moves nothing")


def test_lock_resets():
    # T soft dropped to the floor (19 rows: box 20 -> 1), then L R L R ...:
    # each move starts grounded and uses a reset; the 15th locks at once.
    m = match()
    s = m.seats[0]
    put(m, s, "T")
    keys = "S" * 19 + "LR" * 7 + "L"
    eq(m.dry_run(s, keys), ("lock", len(keys) - 1), "the 15th reset locks at that key")
    eq(m.check(0, "keys " + keys), None, "nothing after it: accepted")
    eq(m.check(0, "keys " + keys + "R") is not None, True, "a key after it: refused")
    eq(m.dry_run(s, "S" * 19 + "LR" * 7), ("lock", 33), "14 resets: completed by D")
    got = m.play_turn(["keys " + keys, "keys D"])
    eq(bottom(s, 2), ["...T......", "..TTT....."], "locked where the 15th move left it")
    eq(got["events"][0]["drop_points"], 19, "19 soft drop rows")
    # Lowest row restart. A ledge in row 5, columns 2-6. The T falls to box
    # (3,7) (S x13), resting on the ledge. LR x5: 10 resets. R R R (x 4, 5, 6:
    # still on the ledge, resets 11-13), R to x 7 (cells 7-9, nothing under:
    # reset 14, no longer grounded). S x6 to box 1: row 6 is below 7, count
    # starts over at 0. Then 14 moves on the floor do not lock; the 15th does.
    m = match()
    s = m.seats[0]
    rows(s, ["..GGGGG...", "..........", "..........", "..........", "..........",
             ".........."])
    put(m, s, "T")
    keys = "S" * 13 + "LR" * 5 + "RRRR" + "S" * 6 + "LR" * 7
    eq(m.dry_run(s, keys + "L"), ("lock", len(keys)), "restart: the 15th move after landing locks")
    eq(m.dry_run(s, keys), ("lock", len(keys)), "14 after landing: completed by D")
    # Without the restart the count would be 14 on landing and the first
    # floor move would lock; the restart happened:
    keys2 = "S" * 13 + "LR" * 5 + "RRRR" + "S" * 6 + "L"
    eq(m.dry_run(s, keys2), ("lock", len(keys2)), "one move after landing does not lock")


def test_hold():
    m = match()
    s = m.seats[0]
    put(m, s, "T")
    first_next = m.kind(s, s.next[0])
    got = m.play_turn(["keys CCD", "keys D"])
    p0 = got["players"][0]
    eq(p0["hold"], "T", "the T went to hold")
    eq(p0["board"][0].count(first_next) >= 1 or p0["board"][1].count(first_next) >= 1, True,
       "the next piece came out and locked (the second C did nothing)")
    eq(m.dry_run(s, "C"), ("lock", 1), "hold is available again after the lock")
    cur = m.kind(s, s.cur)
    got = m.play_turn(["keys CD", "keys D"])
    eq((got["players"][0]["hold"], m.kind(s, s.cur) != "", True), (cur, True, True),
       "the swap put the current piece in hold")


def test_combo_b2b_perfect():
    # Rows 0-11 full but column 9. Each turn an I: X (state 1, column x+2),
    # R x4 (column 9), D: a Tetris. Lines before: 9 (level 1), 13 (level 2),
    # 17 (level 2).
    # 1: 800 x 1 = 800; attack 4; combo 0; b2b not applied.
    # 2: back-to-back: 800 x 1.5 = 1200, + 50 x combo 1 = 1250, x level 2 =
    #    2500; attack 4 + 1 (b2b) + combo[1] 0 = 5.
    # 3: 1200 + 100 = 1300 x 2 = 2600; board empty: perfect clear; attack
    #    4 + 1 + combo[2] 1 + 10 = 16.
    # Sends round robin from seat 0 of 3: seat 1, seat 2, seat 1.
    m = match(players=3)
    s = m.seats[0]
    rows(s, ["GGGGGGGGG."] * 12)
    s.lines = 9
    want = [(800, 4, 0, False, False, 1), (2500, 5, 1, True, False, 2),
            (2600, 16, 2, True, True, 1)]
    for k, (pts, att, combo, b2b, perfect, to) in enumerate(want):
        put(m, s, "I")
        got = m.play_turn(["keys XRRRRD", "keys D", "keys D"])
        ev = got["events"][0]
        eq((ev["lines"], ev["points"], ev["attack"], ev["combo"], ev["b2b"], ev["perfect"]),
           (4, pts, att, combo, b2b, perfect), "Tetris %d: points, attack, combo, b2b" % (k + 1))
        eq([b[:2] for b in ev["sent"]], [[to, att]], "Tetris %d sent to seat %d" % (k + 1, to))
    # Each I falls from box row 20 (state 1: cells rows 20-17) to box 3: 17 rows.
    eq(s.score, 800 + 2500 + 2600 + 3 * 2 * 17, "score with the drops (17 rows each)")
    # A lock that clears nothing: combo -1, the b2b flag stays.
    put(m, s, "O")
    got = m.play_turn(["keys D", "keys D", "keys D"])
    eq((got["events"][0]["combo"], got["players"][0]["b2b"]), (-1, True),
       "no clear: combo -1, b2b kept")
    # Combo bonus arithmetic: a single at combo 5 (level 1): 100 + 250 = 350;
    # attack 0 + combo[5] 2 = 2.
    m = match()
    s = m.seats[0]
    rows(s, ["GGGGGGGGG."])
    s.combo = 4
    put(m, s, "I", 7, 20, 1)
    got = m.play_turn(["keys D", "keys D"])
    ev = got["events"][0]
    eq((ev["combo"], ev["points"], ev["attack"]), (5, 350, 2), "single at combo 5: 350, attack 2")
    # Combo beyond the table: combo 20 -> +5 lines, 100 + 1000 points.
    m = match()
    s = m.seats[0]
    rows(s, ["GGGGGGGGG."])
    s.combo = 19
    put(m, s, "I", 7, 20, 1)
    got = m.play_turn(["keys D", "keys D"])
    ev = got["events"][0]
    eq((ev["combo"], ev["points"], ev["attack"]), (20, 1100, 5), "combo 20: capped at 5 lines")


def test_cancel_and_targets():
    # Seat 0 has [[2, 3], [3, 7]] queued and makes a Tetris (attack 4; a cell
    # above keeps it from being perfect): 2 cancel the first block, 2 of the
    # second, [[1, 7]] stays, nothing is sent. Its lock cleared lines, so
    # nothing rises.
    m = match(players=3)
    s = m.seats[0]
    rows(s, ["G........."] + ["GGGGGGGGG."] * 4)
    s.queue = [[2, 3], [3, 7]]
    put(m, s, "I")
    got = m.play_turn(["keys XRRRRD", "keys D", "keys D"])
    ev = got["events"][0]
    eq((ev["attack"], ev["cancelled"], ev["sent"]), (4, 4, []), "Tetris: 4, all cancel")
    eq(got["players"][0]["queue"], [[1, 7]], "a block cut down keeps its hole")
    # A perfect Tetris (14) against the same queue: 5 cancel, 9 sent.
    m = match(players=3)
    s = m.seats[0]
    rows(s, ["GGGGGGGGG."] * 4)
    s.queue = [[2, 3], [3, 7]]
    put(m, s, "I")
    got = m.play_turn(["keys XRRRRD", "keys D", "keys D"])
    ev = got["events"][0]
    eq((ev["attack"], ev["cancelled"], [b[:2] for b in ev["sent"]]), (14, 5, [[1, 9]]),
       "perfect Tetris: 14, 5 cancel, 9 sent to seat 1")
    eq(got["players"][0]["queue"], [], "queue emptied")
    # Round robin skips a seat out before the turn: seat 1 resigns, then seat
    # 0's next sends (its cursor is on 1) go to 2, 2.
    m = match(players=3)
    got = m.play_turn(["keys D", "resign", "keys D"])
    eq((got["players"][1]["end"], got["players"][1]["place"]), ("resigned", 3), "seat 1 resigned")
    s = m.seats[0]
    s.cursor = 1
    for k in range(2):
        rows(s, ["GGGGGGGG.."] * 3 + ["GGGGGGGGG."] * 4)
        put(m, s, "I")
        got = m.play_turn(["keys XRRRRD", None, "keys D"])
        eq(got["events"][0]["sent"][0][0], 2, "send %d goes to seat 2" % (k + 1))
        eq(got["events"][1], None, "no event for the seat out")
    # Blocks sent in a turn wait for the receiver's next lock.
    m = match()
    s = m.seats[0]
    rows(s, ["GGGGGGGG.."] * 2 + ["GGGGGGGGG."] * 4)
    put(m, s, "I")
    got = m.play_turn(["keys XRRRRD", "keys D"])
    eq((len(got["players"][1]["queue"]), "G" in got["players"][1]["board"][0]), (1, False),
       "the block waits in seat 1's queue")
    got = m.play_turn(["keys D", "keys D"])
    eq((got["players"][1]["queue"], "G" in got["players"][1]["board"][0]), ([], True),
       "and rises at seat 1's next lock")


def test_items():
    # Items on: a clear_line at the bottom of an opponent; uses take the
    # oldest item; an empty inventory does nothing.
    m = match(chance=10)
    s0, s1 = m.seats
    rows(s1, ["GGGG......", "GGGGG....."])
    s0.inventory = ["c", "b"]
    put(m, s1, "O", 8, 20, 0)     # lands in columns 8-9, rows 0-1
    got = m.play_turn(["use 2; keys D", "keys D"])
    p1 = got["players"][1]
    eq(p1["board"][0:2], ["GGGG....OO", ".........."], "clear_line took seat 1's bottom row")
    eq(got["players"][0]["inventory"], "b", "the oldest item went")
    got = m.play_turn(["use 1; keys D", "keys D"])
    eq(got["players"][0]["blind"], 4, "blind on oneself: 4 turns")
    got = m.play_turn(["keys D", "keys D"])
    eq(got["players"][0]["blind"], 3, "counts down at the start of the turn")
    # swap and nuke
    m = match(chance=10)
    s0, s1 = m.seats
    rows(s0, ["G........."])
    rows(s1, ["........GG"])
    s0.inventory = ["s"]
    s1.inventory = ["n"]
    put(m, s0, "O", 0, 20, 0)
    put(m, s1, "O", 0, 20, 0)
    got = m.play_turn(["use 2; keys D", "use 1; keys D"])
    # Step 1: O's lock at columns 0-1 (rows 1-2 on seat 0 over its G, rows 0-1
    # on seat 1). Step 1b: seat 0 swaps (seat 0 gets seat 1's board), then
    # seat 1 nukes its own board (the old board of seat 0).
    eq(got["players"][0]["board"][0], "OO......GG", "swap brought seat 1's cells")
    eq(got["players"][1]["board"][0], "..........", "nuke emptied seat 1")
    # add_line: the next garbage block number's hole.
    m = match(chance=10, seed=7)
    s0 = m.seats[0]
    s0.inventory = ["a"]
    hole = int(nb.random.Random("actionblocks-v1:7:garbage:0").random() * 10)
    got = m.play_turn(["use 2; keys D", "keys D"])
    want = ["G"] * 10
    want[hole] = "."
    eq(got["players"][1]["board"][0], "".join(want), "add_line with hole of block 0")
    # transform: 8 turns, the whole preview becomes odd shapes.
    m = match(chance=10)
    s0 = m.seats[0]
    s0.inventory = ["t"]
    got = m.play_turn(["use 2; keys D", "keys D"])
    p1 = got["players"][1]
    eq(p1["transform"], 8, "transform: 8 turns")
    eq(all(c in nb.ODD_LETTERS for c in p1["next"]) and p1["piece"] in nb.ODD_LETTERS, True,
       "the preview (and so the piece just spawned) is odd")
    for k in range(8):
        got = m.play_turn(["keys D", "keys D"])
    p1 = got["players"][1]
    eq((p1["transform"], all(c in "IOTSZJL" for c in p1["next"])), (0, True),
       "after 8 turns the preview changed back")
    # refusals
    m = match(chance=0)
    eq(m.check(0, "use 2; keys D") is not None, True, "use refused without items")
    m = match(players=3, chance=10)
    eq(m.check(0, "use 4; keys D") is not None, True, "use 4 refused with 3 seats")
    eq(m.check(0, "keys DD") is not None, True, "a key after D is refused")
    eq(m.check(0, "keys Q") is not None, True, "an unknown key is refused")
    eq(m.check(0, "L" * 257) is not None, True, "257 keys are refused")
    eq(m.check(0, "LLXD"), None, "the letters alone are a move")
    eq(m.check(0, "keys"), None, "keys with no letters: the empty move")
    eq(m.check(0, "") is not None, True, "an empty command is refused")


def test_missed():
    m = match()
    got = m.play_turn(["missed", "keys D"])
    eq(got["events"][0]["drop_points"], 38, "a missed turn is a hard drop from spawn")
    m.play_turn(["missed", "keys D"])
    got = m.play_turn(["missed", "keys D"])
    eq((got["players"][0]["end"], got["players"][0]["place"]), ("missed", 2),
       "the third missed turn in a row takes the player out")
    m = match()
    m.play_turn(["missed", "keys D"])
    m.play_turn(["missed", "keys D"])
    m.play_turn(["keys D", "keys D"])
    got = m.play_turn(["missed", "keys D"])
    eq(got["players"][0]["alive"], True, "a sent move resets the count")
    got = m.play_turn(["keys DD", "keys D"])
    eq((got["refused"]["seat"], got["events"], m.turn, got["turn"]), (0, None, 4, 5),
       "a refused turn is not played (its line is the 5th)")


def main():
    for test in (test_shapes, test_tspin_triple, test_mini_spin, test_kicks, test_lock_out,
                 test_block_out, test_overflow, test_drop_points, test_lock_resets, test_hold,
                 test_combo_b2b_perfect, test_cancel_and_targets, test_items, test_missed):
        try:
            test()
        except Exception as e:  # a crash is one failed test, the rest still run
            import traceback
            ok(False, "%s crashed: %r" % (test.__name__, e), traceback.format_exc())
    print("1..%d" % N)
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main())
