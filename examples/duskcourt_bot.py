#!/usr/bin/env python3
"""A starter bot for Duskcourt on the token routes (/api/games/duskcourt/...).

What it does: starts a run on a seed, and for each court searches the
captures depth first, on its own copy of the court, until it finds an order
that leaves one idol standing; then it plays that order. At each break it
takes the next court, until it has cleared --rungs courts; then it ends the
run, finishes it with a review and prints the final summary. Every answer
carries the newest stateToken, which the next request sends back.

Run it (Python 3, standard library only), with a daemon serving (./dev up):

    python3 examples/duskcourt_bot.py --seed 7 --rungs 4
    python3 examples/duskcourt_bot.py --key arcd_...     # the run on your account

The options every starter takes (--url, --key, --new-account) are in
arcaded_client.py; without a key the run is anonymous. Exit status 0 when the
run ended and was finished; 1 with a message on anything else.
"""
import json

from arcaded_client import command, connect, options

# --- The court, as docs/rules/duskcourt.md describes it ---------------------
# Squares are row * size + col, row 0 at the bottom; None is empty, '#' a
# boulder, a letter an idol.

LINES = {'R': [(1, 0), (-1, 0), (0, 1), (0, -1)],
         'B': [(1, 1), (1, -1), (-1, 1), (-1, -1)]}
LINES['Q'] = LINES['R'] + LINES['B']
STEPS = {'K': [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc],
         'N': [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)],
         'P': [(1, -1), (1, 1)]}


def captures(board, size, protected):
    """Every (from, to) capture on the court."""
    found = []
    for i, idol in enumerate(board):
        if idol is None or idol == '#':
            continue
        row, col = divmod(i, size)
        targets = []
        for dr, dc in LINES.get(idol, []):  # runners stop at the first occupied square
            r, c = row + dr, col + dc
            while 0 <= r < size and 0 <= c < size and board[r * size + c] is None:
                r, c = r + dr, c + dc
            if 0 <= r < size and 0 <= c < size:
                targets.append(r * size + c)
        for dr, dc in STEPS.get(idol, []):  # leapers and steppers
            r, c = row + dr, col + dc
            if 0 <= r < size and 0 <= c < size:
                targets.append(r * size + c)
        for j in targets:
            if board[j] not in (None, '#') and not (protected and board[j] == 'K'):
                found.append((i, j))
    return found


# === The policy: the one function to edit ====================================
def choose(board, size, protected):
    """A list of captures that leaves one idol, or None (depth first)."""
    if sum(1 for x in board if x not in (None, '#')) == 1:
        return []
    for i, j in captures(board, size, protected):
        after = list(board)
        after[j], after[i] = after[i], None
        rest = choose(after, size, protected)
        if rest is not None:
            return [(i, j)] + rest
    return None
# ==============================================================================


def main():
    ap = options('A Duskcourt starter bot: depth-first search.')
    ap.add_argument('--seed', type=int, default=7)
    ap.add_argument('--rungs', type=int, default=3, help='courts to clear before ending the run')
    args = ap.parse_args()
    c = connect(args)
    run = c.post('/api/games/duskcourt/init', {'seed': args.seed})
    print('run %s on seed %d' % (run['runId'], args.seed))
    cleared = 0
    while run['state']['phase'] != 'done':
        st = run['state']
        if st['phase'] == 'break':
            choice = 'next' if cleared < args.rungs else 'endRun'
            run = c.post('/api/games/duskcourt/action',
                         {'stateToken': run['stateToken'], 'action': {'type': choice}})
            continue
        plan = choose(st['board'], st['size'], st['kingSurvives'])
        if plan is None:
            raise RuntimeError('no way through the court at rung %d: %s' % (st['rung'], st['board']))
        for i, j in plan:
            run = c.post('/api/games/duskcourt/action', {'stateToken': run['stateToken'],
                                                         'action': {'type': 'capture', 'from': i, 'to': j}})
        st = run['state']
        if st['lastResult'] != 'clear':
            raise RuntimeError('the plan did not clear rung %d: %s' % (st['rung'], st['lastResult']))
        cleared += 1
        print('rung %d cleared in %d captures: score %d' % (st['rung'], len(plan), st['score']))
    done = c.post('/api/games/duskcourt/finish', {
        'stateToken': run['stateToken'], 'rating': 8,
        'review': 'A starter bot: it searched every court before touching it.'})
    print('finished: %s' % json.dumps(done['final']))
    print('certificate: %s...' % done['certificate'][:40])


if __name__ == '__main__':
    command(main)
