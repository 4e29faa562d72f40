#!/usr/bin/env python3
"""A starter bot for ActionBlocks in real time (actionblocks-v1, "clock": "ticks").

What it does: with an agent key (a new account unless --key is given) it
creates a real-time match and prints its id, or joins the match given with
--join. It keeps the match's stream open (GET .../stream, Server-Sent
Events: one frame for every tick that changes what it sees), and for every
new piece of its own it tries each rotation and column on a copy of its
board, picks the drop that clears the most lines, then leaves the fewest
holes and the lowest stack, and sends the keys that take the piece there
(X to turn, L and R to move, D to drop) as one request on a kept-alive
connection (POST .../keys); the answer names the tick they were applied
at. A 429 is waited out as Retry-After asks (nothing of it was applied).
It plays until the stream's last frame (phase "finished"), then prints
every seat's place. With --stop-after N it leaves after N pieces, closing
its stream: 2 s later the server takes the seat out (a test's disconnect).

Run two of them, in two shells, with a daemon serving (./dev up):

    python3 examples/actionblocks_realtime.py                  # prints: match 123...
    python3 examples/actionblocks_realtime.py --join 123...

The server's address comes from --url, else the ARCADED_URL environment
variable, else http://127.0.0.1:8080. Exit status 0 when the match ended
(or the bot left as --stop-after asked); 1 with a message on anything else.
"""
import argparse
import http.client
import json
import os
import queue
import random
import sys
import threading
import time
import urllib.parse

# Each piece's box in its spawn state, top row first (docs/rules/actionblocks.md);
# states 1-3 turn the box a quarter clockwise each.
BOXES = {
    'I': ['....', '####', '....', '....'],
    'O': ['##', '##'],
    'T': ['.#.', '###', '...'],
    'S': ['.##', '##.', '...'],
    'Z': ['##.', '.##', '...'],
    'J': ['#..', '###', '...'],
    'L': ['..#', '###', '...'],
}


def turned(box):
    n = len(box)
    return [''.join(box[n - 1 - c][r] for c in range(n)) for r in range(n)]


def cells(letter, rotation):
    """The (row, column) cells of the piece's box in a state, row 0 the top."""
    box = BOXES[letter]
    for _ in range(rotation):
        box = turned(box)
    return [(i, j) for i, line in enumerate(box) for j, ch in enumerate(line) if ch == '#']


class Client:
    """Requests on one kept-alive connection; a 429 waited out."""

    def __init__(self, url, key=None):
        u = urllib.parse.urlsplit(url)
        self.host, self.port = u.hostname, u.port or 80
        self.key = key
        self.conn = None

    def headers(self):
        h = {'Content-Type': 'application/json'}
        if self.key:
            h['Authorization'] = 'Bearer ' + self.key
        return h

    def call(self, method, path, body=None):
        """(status, answer) of one request."""
        data = json.dumps(body).encode() if body is not None else None
        for attempt in range(30):
            if self.conn is None:
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
            try:
                self.conn.request(method, path, body=data, headers=self.headers())
                r = self.conn.getresponse()
                raw = r.read()
            except (OSError, http.client.HTTPException):
                self.conn.close()
                self.conn = None  # the server closed it: a new one
                if attempt > 0:
                    raise
                continue
            if r.status == 429:
                wait = int(r.getheader('Retry-After') or 1)
                print('429: waiting %d s as Retry-After asks' % wait, file=sys.stderr)
                time.sleep(wait)
                continue
            return r.status, json.loads(raw or b'{}')
        raise RuntimeError('%s %s: still 429 after 30 tries' % (method, path))

    def ok(self, method, path, body=None):
        status, reply = self.call(method, path, body)
        if status >= 300:
            raise RuntimeError('%s %s: %d %s' % (method, path, status, reply.get('error')))
        return reply

    def stream(self, path, frames):
        """Reads the stream of path into the queue frames (each frame's
        JSON, then None at its end), on a connection of its own."""
        conn = http.client.HTTPConnection(self.host, self.port, timeout=60)
        h = self.headers()
        h['Accept'] = 'text/event-stream'
        conn.request('GET', path, headers=h)
        r = conn.getresponse()
        if r.status != 200:
            frames.put(RuntimeError('stream: %d %s' % (r.status, r.read()[:200])))
            return conn

        def read():
            try:
                for line in r:
                    if line.startswith(b'data: '):
                        frames.put(json.loads(line[6:]))
            except Exception:  # noqa: BLE001 -- the connection closed under us: the stream ends
                pass
            frames.put(None)
        threading.Thread(target=read, daemon=True).start()
        return conn


def filled(seat):
    """The set of filled (x, y) cells of a seat's board and buffer, y up."""
    full = set()
    for k, row in enumerate(seat['board']):
        full.update((x, 19 - k) for x, ch in enumerate(row) if ch != '.')
    for k, row in enumerate(seat['buffer']):
        full.update((x, 19 + len(seat['buffer']) - k) for x, ch in enumerate(row) if ch != '.')
    return full


def fits(full, shape, x, y):
    return all(0 <= x + j < 10 and 0 <= y - i < 40 and (x + j, y - i) not in full for i, j in shape)


def judge(full, lines):
    heights = [max([y + 1 for (cx, y) in full if cx == x] or [0]) for x in range(10)]
    holes = sum(1 for x in range(10) for y in range(heights[x]) if (x, y) not in full)
    return (-lines, holes, max(heights), sum(abs(a - b) for a, b in zip(heights, heights[1:])))


def choose(seat):
    """The keys that take the falling piece to the best drop: turns, moves, D."""
    piece = seat['piece']
    full = filled(seat)
    best = None
    for rot in range(4):
        shape = cells(piece['letter'], (piece['rotation'] + rot) % 4)
        for x in range(-3, 10):
            y = piece['y']
            if not fits(full, shape, x, y):
                continue
            while fits(full, shape, x, y - 1):
                y -= 1
            after = full | {(x + j, y - i) for i, j in shape}
            rows = [r for r in range(40) if all((c, r) in after for c in range(10))]
            kept = {(c, r - sum(1 for q in rows if q < r)) for (c, r) in after if r not in rows}
            key = judge(kept, len(rows))
            if best is None or key < best[0]:
                dx = x - piece['x']
                best = (key, 'X' * rot + ('R' * dx if dx > 0 else 'L' * -dx) + 'D')
    return best[1] if best else 'D'


def main():
    ap = argparse.ArgumentParser(description='An ActionBlocks real-time starter bot.')
    ap.add_argument('--url', default=os.environ.get('ARCADED_URL', 'http://127.0.0.1:8080'))
    ap.add_argument('--key', help='an agent key (default: create a new account)')
    ap.add_argument('--join', metavar='MATCH_ID', help='join this match instead of creating one')
    ap.add_argument('--players', type=int, default=2)
    ap.add_argument('--seed', type=int)
    ap.add_argument('--stop-after', type=int, metavar='N', help='leave after N pieces')
    args = ap.parse_args()
    c = Client(args.url, args.key)
    if not c.key:
        name = 'abrt_%06d' % random.randrange(10 ** 6)
        c.key = c.ok('POST', '/api/v1/accounts', {'name': name})['agentKey']
    if args.join:
        view = c.ok('POST', '/api/matches/%s/join' % args.join, {})
    else:
        body = {'rules': 'actionblocks-v1', 'clock': 'ticks', 'players': args.players}
        if args.seed is not None:
            body['seed'] = args.seed
        view = c.ok('POST', '/api/matches', body)
    mid, me = view['match_id'], view['you']
    print('match %s, seat %d' % (mid, me), flush=True)
    frames = queue.Queue()
    sconn = c.stream('/api/matches/%s/stream' % mid, frames)
    pieces, sent_for, last = 0, None, None
    while True:
        f = frames.get()
        if isinstance(f, Exception):
            raise f
        if f is None:
            break
        last = f
        if f['phase'] == 'finished':
            break
        seat = f['seats'][me] if me < len(f['seats']) else {}
        if f['phase'] != 'playing' or not seat.get('alive') or seat.get('piece') is None:
            continue
        # A new piece: one whose stream position (pieces taken and the
        # score) differs from the one we last sent keys for.
        mark = (seat['piece']['letter'], seat['lines'], seat['score'], seat['hold'], len(filled(seat)))
        if mark == sent_for:
            continue
        if args.stop_after is not None and pieces >= args.stop_after:
            print('leaving after %d pieces' % pieces, flush=True)
            sconn.close()
            return
        status, reply = c.call('POST', '/api/matches/%s/keys' % mid, {'keys': choose(seat)})
        if status == 409:
            continue  # out, or the match is over: the stream says the rest
        if status >= 300:
            raise RuntimeError('keys: %d %s' % (status, reply.get('error')))
        sent_for = mark
        pieces += 1
    sconn.close()
    if last is None or last['phase'] != 'finished':
        raise RuntimeError('the stream ended before the match')
    print('match over after %d ticks (%s)' % (last['tick'], last['end']))
    for s in last['seats']:
        print('  seat %d (%s): place %s, score %d, lines %d, sent %d' %
              (s['seat'], s['account'], s['place'], s['score'], s['lines'], s['lines_sent']))


if __name__ == '__main__':
    try:
        main()
    except (RuntimeError, ValueError, OSError, KeyError) as e:
        sys.exit('actionblocks_realtime: %s' % e)
