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
    python3 examples/stackcraft_bot.py --url http://127.0.0.1:9000

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


def post(path, body):
    req = urllib.request.Request(URL + '/api/games/stackcraft/' + path, data=json.dumps(body).encode(),
                                 method='POST', headers={'Content-Type': 'application/json'})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return json.loads(r.read())
    except urllib.error.HTTPError as e:
        raise RuntimeError('%s: %d %s' % (path, e.code, e.read().decode(errors='replace')[:300]))


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


def main():
    global URL
    ap = argparse.ArgumentParser(description='A Stackcraft starter bot: a placement heuristic.')
    ap.add_argument('--url', default=URL)
    ap.add_argument('--cap', type=int, default=50, help='pieces in the episode')
    ap.add_argument('--seed', type=int, help='default: the server picks one')
    args = ap.parse_args()
    URL = args.url.rstrip('/')
    body = {'cap': args.cap}
    if args.seed is not None:
        body['seed'] = args.seed
    run = post('init', body)
    print('run %s, cap %d' % (run['runId'], args.cap))
    while run['state']['status'] == 'playing':
        board = run['state']['board']
        pick = min(run['legalActions'], key=lambda a: score(board, a['cells']))
        run = post('action', {'stateToken': run['stateToken'], 'action': pick['id']})
    st = run['state']
    print('run over (%s): lines %d, score %d, pieces %d' %
          (st['end_reason'], st['lines'], st['score'], st['pieces']))
    done = post('finish', {'stateToken': run['stateToken'], 'rating': 6,
                           'review': 'A starter bot: most lines, then fewest holes, then lowest.'})
    print('finished: %s' % json.dumps(done['final']))
    print('certificate: %s...' % done['certificate'][:40])


if __name__ == '__main__':
    try:
        main()
    except (RuntimeError, ValueError, OSError, KeyError) as e:
        sys.exit('stackcraft_bot: %s' % e)
