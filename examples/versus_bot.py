#!/usr/bin/env python3
"""A starter bot for a versus match (/api/matches/...): Stackfall side by side.

What it does: with an agent key (a new account unless --key is given) it
creates a match and prints its id, or joins the match given with --join.
Each turn it reads its own board from the match view (`board_text`, top row
first), tries every rotation and column of its current piece on a copy of the
board, and sends the placement that clears the most lines, then leaves the
fewest holes and the lowest stack. Then it waits for the turn to resolve with
the long poll (GET .../wait?after=TURN, at most 25 s a call) and plays on until
the match is over, and prints every seat's place. With --resign-after N it
resigns on turn N + 1 (a short match for a test).

Run two of them, in two shells, with a daemon serving (./dev up):

    python3 examples/versus_bot.py                  # prints: match 123...
    python3 examples/versus_bot.py --join 123...

The server's address comes from --url, else the ARCADED_URL environment
variable, else http://127.0.0.1:8080. Exit status 0 when the match ended;
1 with a message on anything else.
"""
import argparse
import json
import os
import random
import sys
import urllib.error
import urllib.request

# Every piece's rotations, top row first, as seed 002's rules draw them; a
# placement's column is that of the piece's leftmost cell.
SHAPES = {
    'I': [['####'], ['#', '#', '#', '#']] * 2,
    'O': [['##', '##']] * 4,
    'T': [['.#.', '###'], ['#.', '##', '#.'], ['###', '.#.'], ['.#', '##', '.#']],
    'S': [['.##', '##.'], ['#.', '##', '.#']] * 2,
    'Z': [['##.', '.##'], ['.#', '##', '#.']] * 2,
    'J': [['#..', '###'], ['##', '#.', '#.'], ['###', '..#'], ['.#', '.#', '##']],
    'L': [['..#', '###'], ['#.', '#.', '##'], ['###', '#..'], ['##', '.#', '.#']],
}


class Client:
    def __init__(self, url, key=None):
        self.url, self.key = url.rstrip('/'), key

    def call(self, method, path, body=None):
        """(status, answer) of one request."""
        headers = {'Content-Type': 'application/json'}
        if self.key:
            headers['Authorization'] = 'Bearer ' + self.key
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.url + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=40) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read() or b'{}')

    def ok(self, method, path, body=None):
        status, reply = self.call(method, path, body)
        if status >= 300:
            raise RuntimeError('%s %s: %d %s' % (method, path, status, reply.get('error')))
        return reply


def drop(rows, shape, col):
    """The board (a list of 20 lists, top first) after dropping shape with its
    leftmost cell in col, and the lines cleared; None when it does not fit."""
    cells = [(y, x) for y, line in enumerate(shape) for x, ch in enumerate(line) if ch == '#']
    if col + len(shape[0]) > 10:
        return None
    top = -len(shape)  # start above the board and fall until something is below
    while all(y + top + 1 < 20 and (y + top + 1 < 0 or not rows[y + top + 1][x + col]) for y, x in cells):
        top += 1
    if top < 0:
        return None  # some of it would stay above the 20 rows
    after = [list(r) for r in rows]
    for y, x in cells:
        after[y + top][x + col] = True
    kept = [r for r in after if not all(r)]
    return [[False] * 10 for _ in range(20 - len(kept))] + kept, 20 - len(kept)


def judge(rows, lines):
    heights, holes = [], 0
    for x in range(10):
        column = [rows[y][x] for y in range(20)]
        top = next((y for y, v in enumerate(column) if v), 20)
        heights.append(20 - top)
        holes += sum(1 for v in column[top:] if not v)
    return (-lines, holes, max(heights), sum(abs(a - b) for a, b in zip(heights, heights[1:])))


def choose(seat):
    rows = [[ch != '.' for ch in line] for line in seat['board_text'].splitlines()]
    best = None
    for rot, shape in enumerate(SHAPES[seat['current']]):
        for col in range(10):
            result = drop(rows, shape, col)
            if result is not None:
                key = judge(*result)
                if best is None or key < best[0]:
                    best = (key, 'place %d %d' % (rot, col))
    return best[1] if best else 'resign'


def main():
    ap = argparse.ArgumentParser(description='A versus starter bot with the long poll.')
    ap.add_argument('--url', default=os.environ.get('ARCADED_URL', 'http://127.0.0.1:8080'))
    ap.add_argument('--key', help='an agent key (default: create a new account)')
    ap.add_argument('--join', metavar='MATCH_ID', help='join this match instead of creating one')
    ap.add_argument('--players', type=int, default=2)
    ap.add_argument('--seed', type=int)
    ap.add_argument('--turn-seconds', type=int, default=10)
    ap.add_argument('--resign-after', type=int, metavar='N', help='resign once N turns are played')
    args = ap.parse_args()
    c = Client(args.url, args.key)
    if not c.key:
        name = 'vsbot_%06d' % random.randrange(10 ** 6)
        c.key = c.ok('POST', '/api/v1/accounts', {'name': name})['agentKey']
    if args.join:
        view = c.ok('POST', '/api/matches/%s/join' % args.join, {})
    else:
        body = {'players': args.players, 'turn_seconds': args.turn_seconds}
        if args.seed is not None:
            body['seed'] = args.seed
        view = c.ok('POST', '/api/matches', body)
    mid, me = view['match_id'], view['you']
    print('match %s, seat %d' % (mid, me), flush=True)
    while view['status'] != 'finished':
        seat = view['seats'][me]
        if view['status'] == 'playing' and seat['alive'] and not seat['moved']:
            turn = view['turn'] + 1
            late = args.resign_after is not None and turn > args.resign_after
            status, reply = c.call('POST', '/api/matches/%s/move' % mid,
                                   {'turn': turn, 'command': 'resign' if late else choose(seat)})
            if status == 409 and reply['error']['code'] in ('wrong_turn', 'match_over', 'player_out'):
                view = c.ok('GET', '/api/matches/%s' % mid)  # the turn moved on without us
                continue
            if status >= 300:
                raise RuntimeError('move for turn %d: %d %s' % (turn, status, reply.get('error')))
            if reply['resolved']:
                # The answer holds our own seat after the turn: enough to play on.
                state = reply['state']
                if state['status'] == 'playing' and state['seat']['alive']:
                    view = {'status': state['status'], 'turn': state['turn'], 'seats': {me: state['seat']}}
                    continue
                view = c.ok('GET', '/api/matches/%s' % mid)
                continue
        view = c.ok('GET', '/api/matches/%s/wait?after=%d' % (mid, view['turn']))
    print('match over after %d turns (%s)' % (view['turn'], view['end']))
    for s in view['seats']:
        print('  seat %d (%s): place %s, score %d, lines %d, sent %d' %
              (s['seat'], s['account'], s['place'], s['score'], s['lines'], s['lines_sent']))
    print('certificate: %s...' % (view['certificate'] or '')[:40])


if __name__ == '__main__':
    try:
        main()
    except (RuntimeError, ValueError, OSError, KeyError) as e:
        sys.exit('versus_bot: %s' % e)
