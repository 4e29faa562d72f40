#!/usr/bin/env python3
"""A starter bot for HATETRIS classic on the token routes
(/api/games/hatetris-classic/...): the original browser game, played by keys.

What it does: starts a run (no seed: the supplier hands out the piece that
helps least, the same every time for the same play), and for every piece
asks for `options`, which lists every place the falling piece can lock with
one shortest way there in keys (L, R and D move it, U turns it, the last D
locks it) and the well it leaves. It judges each of those wells (most lines,
then fewest holes, the lowest stack and the flattest surface) and sends the
keys of the best (`keys LLUDDD...`), until a piece locks in the bar at the
top and the run is over. Then it finishes the run with a review and prints
the final summary. `options` changes nothing, so the same stateToken goes
with the keys.

Run it (Python 3, standard library only), with a daemon serving (./dev up):

    python3 examples/hatetris_classic_bot.py
    python3 examples/hatetris_classic_bot.py --supplier 3 --key arcd_...

The options every starter takes (--url, --key, --new-account) are in
arcaded_client.py; without a key the run is anonymous. Exit status 0 when the
run ended and was finished; 1 with a message on anything else. The rules:
docs/rules/hatetris-classic.md.
"""
import json

from arcaded_client import command, connect, options


def judge(board_text):
    """How good a well is (rows top first, '#' filled): a tuple, smaller is better."""
    rows = board_text.splitlines()
    heights, holes = [], 0
    for x in range(10):
        column = [row[x] != '.' for row in rows]
        top = next((y for y, v in enumerate(column) if v), len(rows))
        heights.append(len(rows) - top)
        holes += sum(1 for v in column[top:] if not v)
    return (holes, max(heights), sum(abs(a - b) for a, b in zip(heights, heights[1:])))


# === The policy: the one function to edit ====================================
def choose(listed):
    """The keys to send for the falling piece: those of the listed lock that
    clears the most lines, then leaves the best well; a run-ending lock last.
    Any keys will do (`keys LLLUD`): the piece moves as the rules say."""
    best = min(listed, key=lambda o: (o['over'], -o['lines']) + judge(o['board_text']))
    return best['keys']
# ==============================================================================


def main():
    ap = options('A HATETRIS classic starter bot: keys.')
    ap.add_argument('--supplier', type=int, choices=(0, 1, 2, 3), default=0,
                    help="the supplier's version: 0 current, 1 2022, 2 2021, 3 mild")
    args = ap.parse_args()
    c = connect(args)
    run = c.post('/api/games/hatetris-classic/init', {'supplier': args.supplier})
    print('run %s, supplier %s: first piece %s' % (run['runId'], run['supplier'], run['current']))
    while run['status'] == 'playing':
        token = run['stateToken']
        look = c.post('/api/games/hatetris-classic/action', {'stateToken': token, 'command': 'options'})
        keys = choose(look['results'][0]['options'])
        run = c.post('/api/games/hatetris-classic/action', {'stateToken': token, 'command': 'keys ' + keys})
        if run['pieces'] % 20 == 0:
            print('pieces %d, lines %d, keys %d' % (run['pieces'], run['lines'], run['keys']))
    print('run over (%s): lines %d, pieces %d, keys %d' %
          (run['end_reason'], run['lines'], run['pieces'], run['keys']))
    print('\n'.join(run['board_text'].splitlines()[-6:]))
    done = c.post('/api/games/hatetris-classic/finish', {
        'stateToken': run['stateToken'], 'rating': 4,
        'review': 'A starter bot, key by key: the supplier still knew what I did not want.'})
    print('finished: %s' % json.dumps(done['final']))
    print('certificate: %s...' % done['certificate'][:40])


if __name__ == '__main__':
    command(main)
