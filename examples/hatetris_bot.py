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
    python3 examples/hatetris_bot.py --depth 2 --url http://127.0.0.1:9000

The server's address comes from --url, else the ARCADED_URL environment
variable, else http://127.0.0.1:8080. Exit status 0 when the run ended and
was finished; 1 with a message on anything else.
"""
import argparse
import json
import os
import sys
import urllib.error
import urllib.request

URL = os.environ.get('ARCADED_URL', 'http://127.0.0.1:8080')


def call(path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(URL + '/api/games/hatetris/' + path, data=data,
                                 method='POST' if data else 'GET',
                                 headers={'Content-Type': 'application/json'})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return json.loads(r.read())
    except urllib.error.HTTPError as e:
        raise RuntimeError('%s: %d %s' % (path, e.code, e.read().decode(errors='replace')[:300]))


def best(options):
    return min(options, key=lambda o: (-o['lines'], o['holes'], o['max_height'], o['bumpiness']))


def main():
    global URL
    ap = argparse.ArgumentParser(description='A HATETRIS starter bot: a placement heuristic.')
    ap.add_argument('--url', default=URL)
    ap.add_argument('--depth', type=int, choices=(1, 2), default=1, help="the supplier's look-ahead")
    args = ap.parse_args()
    URL = args.url.rstrip('/')
    run = call('init?depth=%d' % args.depth)
    print('run %s at depth %d: first piece %s' % (run['runId'], run['depth'], run['current']))
    while run['status'] == 'playing':
        token = run['stateToken']
        look = call('action', {'stateToken': token, 'command': 'options'})
        options = look['results'][0]['options']
        run = call('action', {'stateToken': token, 'command': best(options)['command']})
    print('run over (%s): lines %d, pieces %d' % (run['end_reason'], run['lines'], run['pieces']))
    print('\n'.join(run['board_text'].splitlines()[-6:]))
    done = call('finish', {'stateToken': run['stateToken'], 'rating': 3,
                           'review': 'A starter bot against the supplier: it always knew.'})
    print('finished: %s' % json.dumps(done['final']))
    print('certificate: %s...' % done['certificate'][:40])


if __name__ == '__main__':
    try:
        main()
    except (RuntimeError, ValueError, OSError, KeyError) as e:
        sys.exit('hatetris_bot: %s' % e)
