#!/usr/bin/env python3
"""A starter bot for Wells on the token routes (/api/games/wells/...).

What it does: starts a run on a small well (4 x 5 unless --width and
--height say otherwise), and for every piece follows `legalActions`, the
landings of the current piece the server lists (an id like "r0x0y7" with
the four cells it fills, as [row, column], and whether it completes a row).
It takes a landing that completes a row when there is one; else the one
that fills the fullest row most, then keeps the well lowest. The supplier
has solved the well and answers with the piece that keeps the row furthest
away (`line_in` says how many landings that is under best play), so the run
ends with a row (`line`) or with the well full (`top_out`). Then it finishes
the run with a review and prints the final summary.

Run it (Python 3, standard library only), with a daemon serving (./dev up):

    python3 examples/wells_bot.py
    python3 examples/wells_bot.py --width 6 --height 4 --key arcd_...

The options every starter takes (--url, --key, --new-account) are in
arcaded_client.py; without a key the run is anonymous. Exit status 0 when the
run ended and was finished; 1 with a message on anything else. The rules:
docs/rules/wells.md.
"""
import json

from arcaded_client import command, connect, options


# === The policy: the one function to edit ====================================
def choose(state, legal):
    """The id of the landing to play. `state['well']` is the well, top row
    (of the 4-row buffer) first, '.' empty; each landing's cells are
    [row, column] in the same rows."""
    def judge(landing):
        filled = {(r, c) for r, line in enumerate(state['well']) for c, ch in enumerate(line) if ch != '.'}
        filled |= {(r, c) for r, c in landing['cells']}
        fullest = max(sum(1 for c in range(state['width']) if (r, c) in filled) for r, _ in landing['cells'])
        top = min(r for r, _ in landing['cells'])
        return (not landing['line'], -fullest, -top)  # smaller is better: a row, fuller, lower
    return min(legal, key=judge)['id']
# ==============================================================================


def main():
    ap = options('A Wells starter bot: it follows legalActions.')
    ap.add_argument('--width', type=int, default=4, help='4 or 6')
    ap.add_argument('--height', type=int, default=5, help='4 to 6 (4 x 4, 4 x 5, 4 x 6 or 6 x 4)')
    args = ap.parse_args()
    c = connect(args)
    run = c.post('/api/games/wells/init', {'width': args.width, 'height': args.height})
    st = run['state']
    print('run %s on the %d x %d well: first piece %s, a row in %s landings under best play' %
          (run['runId'], st['width'], st['height'], st['current'], st['line_in'] or 'no number of'))
    while run['state']['status'] == 'playing':
        move = choose(run['state'], run['legalActions'])
        run = c.post('/api/games/wells/action', {'stateToken': run['stateToken'], 'action': move})
        st = run['state']
        print('landed %s; next %s, line_in %s' % (move, st['current'], st['line_in']))
    print('run over (%s) after %d pieces' % (st['end_reason'], st['pieces']))
    print('\n'.join(st['well']))
    done = c.post('/api/games/wells/finish', {
        'stateToken': run['stateToken'], 'rating': 5,
        'review': 'A starter bot: the fullest row first, against a supplier that had solved the well.'})
    print('finished: %s' % json.dumps(done['final']))
    print('certificate: %s...' % done['certificate'][:40])


if __name__ == '__main__':
    command(main)
