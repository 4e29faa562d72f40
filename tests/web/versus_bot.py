"""A simple deterministic versus bot for the web tests: it drops the current
piece (or the piece a hold would give) where a naive board says it fits
best, keeping a well for doubles and more so that garbage flies.

The drop is naive_stackfall.py's (shapes from the rules page, a piece rests
on the highest filled cell under it), on the board the server shows, grey
garbage cells included. It only has to be legal, not clever: the server
refuses an illegal move, and the test counts that as a failure.
"""
from naive_stackfall import cells_of

ROWS, COLS = 20, 10


def placements(board_text, piece):
    """Every distinct legal drop of piece on the board, as (rotation, column,
    rows cleared, holes after, height after, cells landed)."""
    rows = board_text.split('\n')
    filled = {(ROWS - 1 - i, c) for i, r in enumerate(rows) for c, ch in enumerate(r) if ch != '.'}
    heights = [max([r + 1 for r, cc in filled if cc == c], default=0) for c in range(COLS)]
    seen = set()
    for rot in range(4):
        shape = cells_of(piece, rot)
        width = max(dx for dx, _ in shape) + 1
        for col in range(COLS - width + 1):
            land = max(heights[col + dx] - min(dy for x, dy in shape if x == dx) for dx in range(width))
            cells = frozenset((land + dy, col + dx) for dx, dy in shape)
            if cells in seen or any(r >= ROWS for r, _ in cells):
                continue
            seen.add(cells)
            g = filled | cells
            full = [r for r in range(ROWS) if all((r, c) in g for c in range(COLS))]
            after = {(r - sum(1 for f in full if f < r), c) for r, c in g if r not in full}
            h = [max([r + 1 for r, cc in after if cc == c], default=0) for c in range(COLS)]
            holes = sum(1 for c in range(COLS) for r in range(h[c]) if (r, c) not in after)
            yield rot, col, len(full), holes, max(h), cells


def choose(seat, me):
    """The move of seat, from its own view of itself (me: a seat of GET
    /api/matches/{id} with its key, so that `next` is shown). Even seats
    keep column 9 as their well, odd seats column 0."""
    well = 9 if seat % 2 == 0 else 0
    best = None
    for held, piece in ((False, me['current']), (True, me['hold'] or me['next'][0])):
        for rot, col, lines, holes, height, cells in placements(me['board_text'], piece):
            in_well = sum(1 for _, c in cells if c == well)
            value = (8 * lines if lines >= 2 else -2 * lines) - 4 * holes - height - (3 * in_well if lines < 2 else 0)
            key = (-value, held, rot, col)
            if best is None or key < best:
                best = key
    if best is None:
        return 'resign'
    _, held, rot, col = best
    return ('hold; ' if held else '') + 'place %d %d' % (rot, col)
