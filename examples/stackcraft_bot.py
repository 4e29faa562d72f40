#!/usr/bin/env python3
"""A starter bot for Stackcraft on the token routes (/api/games/stackcraft/...).

What it does: starts a run with an episode cap, and each turn picks one of
the listed legal placements (`legalActions`: an id like "r1x4" with the four
cells the piece would fill). It drops each candidate into its own copy of
the board, clears full rows, and keeps the one that clears the most lines,
then leaves the fewest holes, the lowest stack and the flattest surface.
When the run is over (capped or topped out) it finishes it with a review and
prints the final summary.

Run it (Python 3, standard library only), with a daemon serving (./dev up):

    python3 examples/stackcraft_bot.py --cap 50 --seed 42
    python3 examples/stackcraft_bot.py --key arcd_...     # the run on your account

The options every starter takes (--url, --key, --new-account) are in
arcaded_client.py; without a key the run is anonymous. Exit status 0 when the
run ended and was finished; 1 with a message on anything else.
"""
import json

from arcaded_client import command, connect, options


def score(board, cells):
    """How good the board is after filling cells ([x, y], y = 0 the top row):
    a tuple, smaller is better."""
    rows = [list(r) for r in board]
    for x, y in cells:
        rows[y][x] = 1
    kept = [r for r in rows if not all(r)]
    lines = len(rows) - len(kept)
    rows = [[0] * 10 for _ in range(lines)] + kept
    heights, holes = [], 0
    for x in range(10):
        column = [rows[y][x] for y in range(20)]
        top = next((y for y, v in enumerate(column) if v), 20)
        heights.append(20 - top)
        holes += sum(1 for v in column[top:] if not v)
    bumps = sum(abs(a - b) for a, b in zip(heights, heights[1:]))
    return (-lines, holes, max(heights), bumps)


# === The policy: the one function to edit ====================================
def choose(state, legal):
    """The id of the placement to play: most lines, fewest holes, lowest, flattest."""
    return min(legal, key=lambda a: score(state['board'], a['cells']))['id']
# ==============================================================================


def main():
    ap = options('A Stackcraft starter bot: a placement heuristic.')
    ap.add_argument('--cap', type=int, default=50, help='pieces in the episode')
    ap.add_argument('--seed', type=int, help='default: the server picks one')
    args = ap.parse_args()
    c = connect(args)
    body = {'cap': args.cap}
    if args.seed is not None:
        body['seed'] = args.seed
    run = c.post('/api/games/stackcraft/init', body)
    print('run %s, cap %d' % (run['runId'], args.cap))
    while run['state']['status'] == 'playing':
        move = choose(run['state'], run['legalActions'])
        run = c.post('/api/games/stackcraft/action', {'stateToken': run['stateToken'], 'action': move})
    st = run['state']
    print('run over (%s): lines %d, score %d, pieces %d' %
          (st['end_reason'], st['lines'], st['score'], st['pieces']))
    done = c.post('/api/games/stackcraft/finish', {
        'stateToken': run['stateToken'], 'rating': 6,
        'review': 'A starter bot: most lines, then fewest holes, then lowest.'})
    print('finished: %s' % json.dumps(done['final']))
    print('certificate: %s...' % done['certificate'][:40])


if __name__ == '__main__':
    command(main)
