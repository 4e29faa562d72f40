#!/usr/bin/env python3
"""A starter bot for HATETRIS on the token routes (/api/games/hatetris/...).

What it does: starts a run (the supplier always deals the piece that helps
least; there is no seed), and for every piece sends `options`, which lists
each placement with the lines it clears, the holes it leaves, the tallest
column and the bumpiness. It places the piece where the most lines clear,
then the fewest holes, the lowest stack and the flattest surface result, until
the supplier wins (top out). Then it finishes the run with a review and
prints the final summary. `options` changes nothing, so it sends the same
stateToken again for the placement.

Run it (Python 3, standard library only), with a daemon serving (./dev up):

    python3 examples/hatetris_bot.py
    python3 examples/hatetris_bot.py --depth 2 --key arcd_...

The options every starter takes (--url, --key, --new-account) are in
arcaded_client.py; without a key the run is anonymous. Exit status 0 when the
run ended and was finished; 1 with a message on anything else.
"""
import json

from arcaded_client import command, connect, options


# === The policy: the one function to edit ====================================
def choose(listed):
    """The command among the listed placements: most lines, fewest holes, lowest, flattest."""
    best = min(listed, key=lambda o: (-o['lines'], o['holes'], o['max_height'], o['bumpiness']))
    return best['command']
# ==============================================================================


def main():
    ap = options('A HATETRIS starter bot: a placement heuristic.')
    ap.add_argument('--depth', type=int, choices=(1, 2), default=1, help="the supplier's look-ahead")
    args = ap.parse_args()
    c = connect(args)
    run = c.get('/api/games/hatetris/init?depth=%d' % args.depth)
    print('run %s at depth %d: first piece %s' % (run['runId'], run['depth'], run['current']))
    while run['status'] == 'playing':
        token = run['stateToken']
        look = c.post('/api/games/hatetris/action', {'stateToken': token, 'command': 'options'})
        move = choose(look['results'][0]['options'])
        run = c.post('/api/games/hatetris/action', {'stateToken': token, 'command': move})
    print('run over (%s): lines %d, pieces %d' % (run['end_reason'], run['lines'], run['pieces']))
    print('\n'.join(run['board_text'].splitlines()[-6:]))
    done = c.post('/api/games/hatetris/finish', {
        'stateToken': run['stateToken'], 'rating': 3,
        'review': 'A starter bot against the supplier: it always knew.'})
    print('finished: %s' % json.dumps(done['final']))
    print('certificate: %s...' % done['certificate'][:40])


if __name__ == '__main__':
    command(main)
