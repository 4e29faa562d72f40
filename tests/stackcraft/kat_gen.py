#!/usr/bin/env python3
"""Writes the Stackcraft known answers (data/stackcraft_kat.txt).

An implementation of the stackcraft-v1 rules of its own, in Python, written
from the rule text and sharing nothing with the C engine: the piece stream
comes from CPython's random.Random itself, the orientations from turning the
spawn shapes' cell coordinates clockwise, the legal moves from putting each
shape at y = 0 and walking it down. It plays each case with a seeded policy
(a noisy hole-and-height heuristic, or uniformly random moves) and writes one
line per game:

    seed|cap|pieces|lines|score|status|end|board_fnv|legal_fnv|id id id ...

cap is 0 for none; end is none, top_out or capped. board_fnv is FNV-1a 64 of
the final board's 200 colour ids, row y = 0 first, x = 0..9 in each row.
legal_fnv is FNV-1a 64 over every legal list the game met (before each move
and after the last one): for each action its 4 id characters, its landing y
and its four cells as x, y bytes; then a 0xff byte closing the list.

Usage: kat_gen.py > data/stackcraft_kat.txt
"""
import random
import sys

W, H = 10, 20
LETTERS = "IOTSZJL"
SPAWN = {  # rotation 0, rows top to bottom
    "I": ["####"], "O": ["##", "##"], "T": [".#.", "###"], "S": [".##", "##."],
    "Z": ["##.", ".##"], "J": ["#..", "###"], "L": ["..#", "###"],
}
POINTS = [0, 100, 300, 500, 800]


def normalise(cells):
    mx = min(x for x, _ in cells)
    my = min(y for _, y in cells)
    return sorted(((x - mx, y - my) for x, y in cells), key=lambda c: (c[1], c[0]))


def orientations(letter):
    rows = SPAWN[letter]
    cur = normalise([(x, y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch == "#"])
    out = [cur]
    for _ in range(3):
        # a quarter turn clockwise on screen, y pointing down: (x, y) -> (-y, x)
        cur = normalise([(-y, x) for x, y in cur])
        if cur not in out:
            out.append(cur)
    return out


ORIENT = [orientations(p) for p in LETTERS]


def bag(seed, b):
    r = random.Random(f"stackcraft-v1:{seed}:{b}")
    pieces = list(range(7))
    for p in range(6, 0, -1):
        j = int(r.random() * (p + 1))
        pieces[p], pieces[j] = pieces[j], pieces[p]
    return pieces


class Stream:
    def __init__(self, seed):
        self.seed, self.cache = seed, {}

    def __getitem__(self, i):
        b = i // 7
        if b not in self.cache:
            self.cache = {b: bag(self.seed, b)}
        return self.cache[b][i % 7]


def legal(board, piece):
    moves = []
    for r, shape in enumerate(ORIENT[piece]):
        width = max(x for x, _ in shape) + 1
        for x in range(W - width + 1):
            def free(y):
                return all(0 <= y + dy < H and board[y + dy][x + dx] == 0 for dx, dy in shape)
            if not free(0):
                continue
            y = 0
            while free(y + 1):
                y += 1
            moves.append((f"r{r}x{x}", r, x, y, [(x + dx, y + dy) for dx, dy in shape]))
    return moves


def clear(board):
    kept = [row for row in board if not all(row)]
    n = H - len(kept)
    return [[0] * W for _ in range(n)] + kept, n


class Game:
    def __init__(self, seed, cap):
        self.seed, self.cap, self.stream = seed, cap, Stream(seed)
        self.board = [[0] * W for _ in range(H)]
        self.pieces = self.lines = self.score = 0
        self.current, self.next = self.stream[0], self.stream[1]
        self.end = None

    def legal(self):
        return [] if self.end else legal(self.board, self.current)

    def step(self, action_id):
        moves = {m[0]: m for m in self.legal()}
        if action_id not in moves:
            raise ValueError(action_id)
        for x, y in moves[action_id][4]:
            self.board[y][x] = self.current + 1
        self.board, n = clear(self.board)
        self.score += POINTS[n]
        self.lines += n
        self.pieces += 1
        self.current, self.next = self.next, self.stream[self.pieces + 1]
        # the rules' end first: a cap never hides a top-out
        if not legal(self.board, self.current):
            self.end = "top_out"
        elif self.cap and self.pieces >= self.cap:
            self.end = "capped"
        return n


def fnv(data, h=0xcbf29ce484222325):
    for byte in data:
        h ^= byte
        h = (h * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def afterboard_value(board, move, rng):
    b = [row[:] for row in board]
    for x, y in move[4]:
        b[y][x] = 1
    b, n = clear(b)
    holes, top, heights = 0, H, []
    for x in range(W):
        col = [y for y in range(H) if b[y][x]]
        heights.append(H - col[0] if col else 0)
        seen = False
        for y in range(H):
            if b[y][x]:
                if not seen:
                    top = min(top, y)
                seen = True
            elif seen:
                holes += 1
    bump = sum(abs(heights[c] - heights[c + 1]) for c in range(W - 2))
    # keep the right column as a well for tetrises unless the stack is high
    well = 25 * heights[W - 1] if n == 0 and H - top < 12 else 0
    small = 30 * n if 0 < n < 4 and H - top < 12 else -20 * n
    return holes * 40 + (H - top) * 3 + bump * 2 + well + small - (200 if n == 4 else 0) + \
        rng.randrange(8)


def play(seed, cap, policy, limit):
    g = Game(seed, cap)
    rng = random.Random(f"stackcraft-kat:{seed}:{cap}:{policy}")
    ids, legal_h = [], 0xcbf29ce484222325
    while True:
        moves = g.legal()
        for m in moves:
            data = m[0].encode() + bytes([m[3]]) + bytes(c for cell in m[4] for c in cell)
            legal_h = fnv(data, legal_h)
        legal_h = fnv(b"\xff", legal_h)
        if not moves or len(ids) >= limit:
            break
        if policy == "random":
            m = rng.choice(moves)
        else:
            m = min(moves, key=lambda mv: afterboard_value(g.board, mv, rng))
        ids.append(m[0])
        g.step(m[0])
    board_h = fnv(bytes(v for row in g.board for v in row))
    status = "over" if g.end else "playing"
    return "|".join(str(v) for v in (seed, cap, g.pieces, g.lines, g.score, status, g.end or "none",
                                     f"{board_h:016x}", f"{legal_h:016x}", " ".join(ids)))


CASES = [  # seed, cap, policy, most moves to send (a partial game when reached)
    (0, 0, "heuristic", 400), (1, 0, "heuristic", 400), (2, 0, "random", 400),
    (3, 0, "random", 400), (7, 0, "heuristic", 400), (42, 0, "heuristic", 400),
    (42, 0, "random", 400), (5, 120, "heuristic", 400), (6, 1, "heuristic", 400),
    (8, 7, "random", 400), (9, 300, "heuristic", 400), (10, 0, "heuristic", 60),
    (11, 50, "random", 400), (12, 0, "random", 400), (13, 0, "heuristic", 400),
    (123456789, 0, "heuristic", 400), (9007199254740991, 0, "heuristic", 400),
    (9007199254740991, 25, "random", 400), (4294967296, 0, "random", 400),
    (1000, 200, "heuristic", 400),
]


def main():
    print("# Stackcraft known answers, written by kat_gen.py (an independent Python model);")
    print("# seed|cap|pieces|lines|score|status|end|board_fnv|legal_fnv|action ids")
    for seed, cap, policy, limit in CASES:
        print(play(seed, cap, policy, limit))
    return 0


if __name__ == "__main__":
    sys.exit(main())
