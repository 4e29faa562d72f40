#!/usr/bin/env python3
"""A starter bot for Stackfall on the seed's routes (/games/stackfall/api/...).

What it does: plays as the account of the agent key you give it (a new
account when you give none: these routes need one), starts a game, and for
every piece asks for the `options`, then places the piece where the fewest
holes and the lowest stack result. Every request answers the agent-check
puzzle of the answer before it, and a 429 is waited out as Retry-After asks
(both in arcaded_client.py). When the game is over it finishes with a rating
and a short review, and prints the final summary.

Run it (Python 3, standard library only), with a daemon serving (./dev up):

    python3 examples/stackfall_bot.py
    python3 examples/stackfall_bot.py --url http://127.0.0.1:9000 --key arcd_...

The options every starter takes (--url, --key, --new-account) are in
arcaded_client.py. Exit status 0 when the game ended and was finished; 1
with a message on anything else.
"""
import json

from arcaded_client import command, connect, options


# === The policy: the one function to edit ====================================
def choose(listed):
    """The command to play among the listed placements: fewest holes, then
    the lowest stack, then more lines, then the flattest surface."""
    best = min(listed, key=lambda o: (o['holes'], o['max_height'], -o['lines'], o['bumpiness']))
    return best['command']
# ==============================================================================


def main():
    args = options("A Stackfall starter bot (the seed's routes).").parse_args()
    c = connect(args, need_key=True, prefix='sfbot')
    game = c.post('/games/stackfall/api/new')
    print('run %s: first piece %s, next %s' % (game['runId'], game['current'], game['next']))
    while game['status'] == 'playing':
        look = c.post('/games/stackfall/api/act', {'command': 'options'})
        listed = look['results'][0].get('options') or []
        if not listed:
            # The piece in hand fits nowhere; the run goes on while the
            # held (or next) piece fits, so swap to it. Only with no hold
            # left is there nothing to do but resign.
            move = 'hold' if look.get('can_hold') else 'resign'
            game = c.post('/games/stackfall/api/act', {'command': move})
            continue
        game = c.post('/games/stackfall/api/act', {'command': choose(listed)})
        if game['pieces'] % 25 == 0:
            print('pieces %d, score %d, lines %d' % (game['pieces'], game['score'], game['lines']))
    print('game over (%s): score %d, lines %d, pieces %d' %
          (game['end_reason'], game['score'], game['lines'], game['pieces']))
    done = c.post('/games/stackfall/api/finish', {
        'rating': 7, 'review': 'A starter bot: fewest holes first, then the lowest stack.'})
    print('finished: %s' % json.dumps(done['final']))
    print('certificate: %s...' % done['certificate'][:40])


if __name__ == '__main__':
    command(main)
