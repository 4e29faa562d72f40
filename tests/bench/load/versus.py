#!/usr/bin/env python3
"""Versus matches under load: MATCHES matches of PLAYERS bots at once, every
bot moving as fast as it can.

Each bot has its own keep-alive connection. A turn, for a bot: read its
board and piece from the last answer, send its move (POST .../move); if
that move was the last one of the turn the answer holds the resolved turn,
otherwise it long-polls (GET .../wait?after=T) until the turn resolves.
When a match ends, its bots open a new one (seat 0 creates it, the others
join), so the load stays at MATCHES matches for the whole window. A bot
stands its piece upright (rotation 1, at most 2 columns wide) over the two
lowest neighbouring columns, and resigns when even those are too high.

Why a Python driver and not wrk: a bot's next request depends on its
match's state (a turn resolves only when all four bots have moved, and the
move depends on the board), and wrk's Lua cannot tie four connections
together nor time one kind of request apart from another. The cost is
that the driver itself needs CPU on the same two cores; its CPU time is
reported beside the daemon's so the reader can tell which side was busy.

Prints one table row (markdown) and a detail line. Resolved turns per
second come from the daemon's arcaded_match_turns_total counter over the
measured window; latencies are the client's, per request, in that window.

usage: versus.py URL [--matches N] [--players N] [--duration S] [--warmup S] [--pid PID]
(--pid: the daemon's, to report its CPU time per resolved turn)
"""
import argparse
import asyncio
import json
import os
import random
import re
import resource
import time
import urllib.parse


class Conn:
    """HTTP/1.1 keep-alive on one socket: enough for this daemon's answers
    (Content-Length bodies)."""

    def __init__(self, host, port):
        self.host, self.port = host, port
        self.r = self.w = None

    async def open(self):
        self.r, self.w = await asyncio.open_connection(self.host, self.port)

    async def request(self, method, path, body=None, key=None):
        if self.w is None:
            await self.open()
        data = b'' if body is None else json.dumps(body).encode()
        head = '%s %s HTTP/1.1\r\nHost: bench\r\n' % (method, path)
        if key:
            head += 'Authorization: Bearer %s\r\n' % key
        if body is not None:
            head += 'Content-Type: application/json\r\nContent-Length: %d\r\n' % len(data)
        self.w.write(head.encode() + b'\r\n' + data)
        headers = await self.r.readuntil(b'\r\n\r\n')
        status = int(headers[9:12])
        m = re.search(rb'[Cc]ontent-[Ll]ength: (\d+)', headers)
        payload = await self.r.readexactly(int(m.group(1))) if m else b''
        if b'Connection: close' in headers:
            self.w.close()
            self.r = self.w = None
        return status, payload

    def close(self):
        if self.w is not None:
            self.w.close()


def pick(view, seat):
    """The bot's move from its own seat in a match view."""
    rows = view['seats'][seat]['board_text'].split('\n')
    h = [0] * 10
    for c in range(10):
        for i, row in enumerate(rows):
            if row[c] != '.':
                h[c] = 20 - i
                break
    c = min(range(9), key=lambda c: max(h[c], h[c + 1]))
    if max(h[c], h[c + 1]) > 16:
        return 'resign'
    return use(view, seat) + 'place 1 %d' % c


def use(view, seat):
    """With an item in the inventory, `use T; ` on the next seat still in
    (T: 1 the bot, 2.. the other seats in match order); else nothing."""
    seats = view['seats']
    if not seats[seat].get('inventory'):
        return ''
    n = len(seats)
    for k in range(1, n):
        j = (seat + k) % n
        if seats[j].get('alive'):
            return 'use %d; ' % (j + 2 if j < seat else j + 1)
    return ''


class Stats:
    def __init__(self):
        self.measuring = False
        self.moves, self.waits, self.refused = [], [], 0
        self.matches = 0

    def add(self, kind, seconds):
        if self.measuring:
            (self.moves if kind == 'move' else self.waits).append(seconds)


async def bot(conn, key, mid, seat, view, stats, stop):
    while view['status'] == 'playing' and time.monotonic() < stop:
        turn = view['turn'] + 1
        t0 = time.monotonic()
        status, body = await conn.request('POST', '/api/matches/%s/move' % mid,
                                          {'turn': turn, 'command': pick(view, seat)}, key)
        stats.add('move', time.monotonic() - t0)
        if status == 200:
            answer = json.loads(body)
            if answer['resolved']:
                # The mover's own seat is all pick() reads: play on with it.
                state = answer['state']
                view = {'status': state['status'], 'turn': state['turn'], 'seats': {seat: state['seat']}}
                continue
        elif status != 409:
            stats.refused += 1
        # Not the last move (or the deadline got there first): wait for the turn.
        while view['status'] == 'playing' and view['turn'] < turn:
            t0 = time.monotonic()
            status, body = await conn.request('GET', '/api/matches/%s/wait?after=%d' % (mid, turn - 1),
                                              None, key)
            stats.add('wait', time.monotonic() - t0)
            if status != 200:
                stats.refused += 1
                await asyncio.sleep(0.05)
                continue
            view = json.loads(body)


async def table(conns, keys, players, items, stats, stop, started):
    while time.monotonic() < stop:
        status, body = await conns[0].request('POST', '/api/matches',
                                              {'players': players, 'turn_seconds': 10, 'items': items},
                                              keys[0])
        if status != 201:
            stats.refused += 1
            await asyncio.sleep(0.1)
            continue
        view = json.loads(body)
        mid = view['match_id']
        views = [view]
        for c, k in zip(conns[1:], keys[1:]):
            status, body = await c.request('POST', '/api/matches/%s/join' % mid, {}, k)
            views.append(json.loads(body))
        # The last join started the match; the others read it as it stands.
        for i in range(players - 1):
            status, body = await conns[i].request('GET', '/api/matches/%s' % mid, None, keys[i])
            views[i] = json.loads(body)
        stats.matches += 1
        started.set()
        await asyncio.gather(*(bot(conns[i], keys[i], mid, i, views[i], stats, stop)
                               for i in range(players)))


async def counter(conn, name):
    status, body = await conn.request('GET', '/metrics')
    m = re.search(rb'^' + name.encode() + rb' ([0-9.e+]+)$', body, re.M)
    return float(m.group(1)) if m else 0.0


def cpu_seconds(pid):
    if not pid:
        return 0.0
    with open('/proc/%d/stat' % pid) as f:
        fields = f.read().rsplit(')', 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf('SC_CLK_TCK')


def pct(values, p):
    if not values:
        return float('nan')
    v = sorted(values)
    return v[min(len(v) - 1, int(p / 100.0 * len(v)))] * 1000.0


async def run(args):
    u = urllib.parse.urlparse(args.url)
    host, port = u.hostname, u.port
    admin = Conn(host, port)
    stats = Stats()
    tag = '%x' % random.getrandbits(24)
    groups = []
    for g in range(args.matches):
        keys = []
        for p in range(args.players):
            status, body = await admin.request('POST', '/api/v1/accounts', {'name': 'b%s_%d_%d' % (tag, g, p)})
            keys.append(json.loads(body)['agentKey'])
        groups.append(([Conn(host, port) for _ in range(args.players)], keys))
    stop = time.monotonic() + args.warmup + args.duration + 1000
    events = [asyncio.Event() for _ in groups]
    tasks = [asyncio.ensure_future(table(c, k, args.players, args.items, stats, stop, e))
             for (c, k), e in zip(groups, events)]
    await asyncio.gather(*(e.wait() for e in events))
    await asyncio.sleep(args.warmup)
    turns0, deadline0 = (await counter(admin, 'arcaded_match_turns_total'),
                         await counter(admin, 'arcaded_match_turns_by_deadline_total'))
    load0 = os.getloadavg()[0]
    cpu0, t0, d0 = resource.getrusage(resource.RUSAGE_SELF), time.monotonic(), cpu_seconds(args.pid)
    stats.measuring = True
    await asyncio.sleep(args.duration)
    stats.measuring = False
    elapsed = time.monotonic() - t0
    cpu1, d1 = resource.getrusage(resource.RUSAGE_SELF), cpu_seconds(args.pid)
    turns1, deadline1 = (await counter(admin, 'arcaded_match_turns_total'),
                         await counter(admin, 'arcaded_match_turns_by_deadline_total'))
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for conns, _ in groups:
        for c in conns:
            c.close()
    admin.close()
    return dict(turns=(turns1 - turns0) / elapsed, by_deadline=deadline1 - deadline0,
                moves=len(stats.moves) / elapsed, waits=len(stats.waits) / elapsed,
                move_p50=pct(stats.moves, 50), move_p99=pct(stats.moves, 99),
                wait_p50=pct(stats.waits, 50), wait_p99=pct(stats.waits, 99),
                refused=stats.refused, matches=stats.matches, elapsed=elapsed,
                client_cpu=(cpu1.ru_utime - cpu0.ru_utime + cpu1.ru_stime - cpu0.ru_stime) / elapsed,
                daemon_cpu=(d1 - d0) / elapsed,
                daemon_us_per_turn=(d1 - d0) / max(turns1 - turns0, 1) * 1e6,
                load=(load0 + os.getloadavg()[0]) / 2)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('url')
    ap.add_argument('--matches', type=int, default=100)
    ap.add_argument('--players', type=int, default=4)
    ap.add_argument('--duration', type=float, default=10)
    ap.add_argument('--warmup', type=float, default=2)
    ap.add_argument('--pid', type=int, default=0)
    ap.add_argument('--items', action='store_true', help='matches with items; bots use what they collect')
    args = ap.parse_args()
    r = asyncio.run(run(args))
    print(json.dumps(r))


if __name__ == '__main__':
    main()
