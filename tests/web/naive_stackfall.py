"""A naive Stackfall board, written from docs/rules/stackfall.md alone, for
the web tests to check the steps the pages draw against something that is
not the engine.

It keeps a 20 x 10 grid of letters (row 0 at the bottom), takes pieces from
CPython's own random.Random through tests/stackfall/stream_cpython.py's
bag() (the stream as docs/stream.md defines it), and plays the stored moves:
place (drop from above onto the highest filled cell of the piece's columns,
then remove full rows), hold (once per piece) and resign. Shapes come from
the diagrams of the rules page, copied here as text. It knows nothing of
scoring: the tests compare boards, pieces and the marks of each placement.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'stackfall'))
from stream_cpython import bag  # noqa: E402

ROWS, COLS = 20, 10

# The rules page's table: rotation 0 to 3, top row first, rows split by '/'.
DIAGRAMS = {
    'I': ['####', '#/#/#/#', '####', '#/#/#/#'],
    'O': ['##/##', '##/##', '##/##', '##/##'],
    'T': ['.#./###', '#./##/#.', '###/.#.', '.#/##/.#'],
    'S': ['.##/##.', '#./##/.#', '.##/##.', '#./##/.#'],
    'Z': ['##./.##', '.#/##/#.', '##./.##', '.#/##/#.'],
    'J': ['#../###', '##/#./#.', '###/..#', '.#/.#/##'],
    'L': ['..#/###', '#./#./##', '###/#..', '##/.#/.#'],
}


def cells_of(piece, rotation):
    """The shape's cells as (dx, dy): dx from its leftmost column, dy from
    its bottom row."""
    rows = DIAGRAMS[piece][rotation].split('/')
    h = len(rows)
    return [(x, h - 1 - y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch == '#']


class Stackfall:
    def __init__(self, seed):
        self.seed = seed
        self.grid = [['.'] * COLS for _ in range(ROWS)]
        self.drawn = 0
        self.current = self.draw()
        self.hold = None
        self.can_hold = True
        self.over = False

    def piece(self, i):
        return bag(self.seed, i // 7)[i % 7]

    def draw(self):
        p = self.piece(self.drawn)
        self.drawn += 1
        return p

    def next(self):
        return [self.piece(self.drawn + i) for i in range(3)]

    def height(self, col):
        for r in range(ROWS - 1, -1, -1):
            if self.grid[r][col] != '.':
                return r + 1
        return 0

    def place(self, rotation, column):
        """Drops the current piece; returns the marks as the steps route
        words them: landed cells and cleared rows on the board before the
        clears, kept cells on the board after (rows 1-20 from the bottom)."""
        piece = self.current
        shape = cells_of(piece, rotation)
        width = max(dx for dx, _ in shape) + 1
        assert 0 <= column <= COLS - width, 'column out of range'
        landing = max(self.height(column + dx) - min(dy for x, dy in shape if x == dx)
                      for dx in range(width))
        landed = [(landing + dy, column + dx) for dx, dy in shape]
        assert all(r < ROWS for r, _ in landed), 'the piece pokes out of the top'
        for r, c in landed:
            self.grid[r][c] = piece
        full = [r for r in range(ROWS) if all(ch != '.' for ch in self.grid[r])]
        kept = []
        for r, c in landed:
            if r not in full:
                kept.append((r - sum(1 for f in full if f < r), c))
        self.grid = [row for r, row in enumerate(self.grid) if r not in full]
        self.grid += [['.'] * COLS for _ in full]
        self.current = self.draw()
        self.can_hold = True
        return {
            'piece': piece,
            'landed': sorted((r + 1, c) for r, c in landed),
            'cleared': [r + 1 for r in full],
            'kept': sorted((r + 1, c) for r, c in kept),
        }

    def do_hold(self):
        assert self.can_hold, 'hold twice'
        if self.hold is None:
            self.hold = self.current
            self.current = self.draw()
        else:
            self.hold, self.current = self.current, self.hold
        self.can_hold = False

    def board_text(self):
        return '\n'.join(''.join(self.grid[r]) for r in range(ROWS - 1, -1, -1))

    def play(self, move):
        """Plays a stored move; the marks of a placement, else None."""
        t = move['type']
        if t == 'place':
            return self.place(move['rotation'], move['column'])
        if t == 'hold':
            self.do_hold()
        elif t in ('resign', 'abandon'):
            self.over = True
        else:
            raise ValueError('not a stored Stackfall move: %r' % (move,))
        return None
