#!/usr/bin/env python3
"""ActionBlocks in real time under load: MATCHES real-time matches
("clock": "ticks") of 2 bots at once, each bot with its stream open and its
keys sent on a kept-alive connection of its own.

A bot reads its frames (GET .../stream); for every new piece of its own it
waits THINK seconds (a bot that thinks, and a match that lasts), then sends
one request of keys: a random number of turns and moves, then D. When a
match is over (its last frame), its bots start a new one, so the load stays
at MATCHES matches for the window.

What it reports comes from the daemon: the tick clock's lateness (how long
after its due time each tick ran: the arcaded_live_tick_lateness_seconds
histogram over the window, p50 and p99 read off its buckets, so they are
bucket edges) and the share of ticks a whole tick late; the daemon's CPU
time (from /proc, with --pid) per match-second, a match-second being one
real-time match live in the tick host for one second (the
arcaded_live_matches gauge, sampled every 0.2 s); and the keys' latency as
the bots saw it. The driver's own CPU is reported beside: on two cores it
competes with the daemon.

Prints one JSON object.

usage: realtime.py URL [--matches N] [--duration S] [--warmup S] [--think S] [--pid PID]
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

import versus

TICK = os.sysconf('SC_CLK_TCK')


class Conn(versus.Conn):
    """versus.py's keep-alive connection, which a bot here also closes."""

    def close(self):
        if self.w is not None:
            self.w.close()
        self.r = self.w = None


async def frames(host, port, path, key):
    """The frames of a stream, as dicts, until it ends."""
    r, w = await asyncio.open_connection(host, port)
    w.write(('GET %s HTTP/1.1\r\nHost: bench\r\nAuthorization: Bearer %s\r\n\r\n' % (path, key)).encode())
    head = await r.readuntil(b'\r\n\r\n')
    if int(head[9:12]) != 200:
        w.close()
        return
    chunked = b'chunked' in head.lower()
    buf = b''
    try:
        while True:
            if chunked:
                size = int((await r.readuntil(b'\r\n')).strip(), 16)
                if size == 0:
                    break
                buf += (await r.readexactly(size + 2))[:-2]
            else:
                more = await r.read(65536)
                if not more:
                    break
                buf += more
            while b'\n\n' in buf:
                event, buf = buf.split(b'\n\n', 1)
                for line in event.split(b'\n'):
                    if line.startswith(b'data: '):
                        yield json.loads(line[6:])
    finally:
        w.close()


class Stats:
    def __init__(self):
        self.measuring = False
        self.keys, self.refused, self.matches = [], 0, 0


async def seat_bot(host, port, key, mid, seat, think, stats):
    conn = Conn(host, port)
    mark = None
    try:
        async for f in frames(host, port, '/api/matches/%s/stream' % mid, key):
            if f['phase'] == 'finished':
                break
            s = f['seats'][seat] if seat < len(f['seats']) else {}
            if f['phase'] != 'playing' or not s.get('alive') or s.get('piece') is None:
                continue
            now = (s['piece']['letter'], s['score'], s['lines'], s['hold'],
                   sum(10 - row.count('.') for row in s['board']))
            if now == mark:
                continue
            mark = now
            await asyncio.sleep(think)
            text = 'X' * random.randrange(4) + random.choice('LR') * random.randrange(5) + 'D'
            t0 = time.monotonic()
            status, _ = await conn.request('POST', '/api/matches/%s/keys' % mid, {'keys': text}, key)
            if stats.measuring:
                stats.keys.append(time.monotonic() - t0)
            if status not in (200, 409):
                stats.refused += 1
    finally:
        conn.close()


async def table(host, port, keys, think, stats, stop):
    """One pair of bots: a match after another until stop."""
    conn = Conn(host, port)
    while time.monotonic() < stop:
        status, body = await conn.request('POST', '/api/matches', {'rules': 'actionblocks-v1',
                                          'clock': 'ticks', 'players': 2}, keys[0])
        if status != 201:
            stats.refused += 1
            await asyncio.sleep(0.5)
            continue
        mid = json.loads(body)['match_id']
        first = asyncio.ensure_future(seat_bot(host, port, keys[0], mid, 0, think, stats))
        await conn.request('POST', '/api/matches/%s/join' % mid, None, keys[1])
        await asyncio.gather(first, seat_bot(host, port, keys[1], mid, 1, think, stats))
        stats.matches += 1
    conn.close()


def metrics(host, port):
    async def get():
        c = Conn(host, port)
        _, body = await c.request('GET', '/metrics')
        c.close()
        return body.decode()
    return get


def parse(text):
    out, buckets = {}, []
    for line in text.splitlines():
        m = re.match(r'(arcaded_live_\w+)(\{le="([^"]+)"\})? ([0-9.e+]+)$', line)
        if not m:
            continue
        if m.group(3):
            buckets.append((float('inf') if m.group(3) == '+Inf' else float(m.group(3)), float(m.group(4))))
        else:
            out[m.group(1)] = float(m.group(4))
    out['buckets'] = buckets
    return out


def quantile(before, after, q):
    """The bucket edge (seconds) at quantile q of the ticks run between."""
    counts = [(le, a - b) for (le, a), (_, b) in zip(after['buckets'], before['buckets'])]
    total = counts[-1][1]
    if total <= 0:
        return 0.0
    for le, n in counts:
        if n >= q * total:
            return le
    return float('inf')


def cpu_seconds(pid):
    with open('/proc/%d/stat' % pid) as f:
        fields = f.read().rsplit(')', 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


async def main_async(args):
    u = urllib.parse.urlsplit(args.url)
    host, port = u.hostname, u.port
    get = metrics(host, port)
    stats = Stats()
    c = Conn(host, port)
    keys = []
    for i in range(2 * args.matches):
        _, body = await c.request('POST', '/api/v1/accounts', {'name': 'rt%d_%d' % (os.getpid() % 10000, i)})
        keys.append(json.loads(body)['agentKey'])
    c.close()
    t_start = time.monotonic()
    stop = t_start + args.warmup + args.duration + 60
    tables = [asyncio.ensure_future(table(host, port, keys[2 * i:2 * i + 2], args.think, stats, stop))
              for i in range(args.matches)]
    await asyncio.sleep(args.warmup)
    before = parse(await get())
    cpu0 = cpu_seconds(args.pid) if args.pid else 0.0
    me0 = resource.getrusage(resource.RUSAGE_SELF)
    stats.measuring = True
    t0 = time.monotonic()
    live = 0.0
    while time.monotonic() - t0 < args.duration:
        await asyncio.sleep(0.2)
        live += 0.2 * parse(await get()).get('arcaded_live_matches', 0)
    wall = time.monotonic() - t0
    stats.measuring = False
    after = parse(await get())
    cpu1 = cpu_seconds(args.pid) if args.pid else 0.0
    me1 = resource.getrusage(resource.RUSAGE_SELF)
    for t in tables:
        t.cancel()
    await asyncio.gather(*tables, return_exceptions=True)
    ticks = after.get('arcaded_live_ticks_total', 0) - before.get('arcaded_live_ticks_total', 0)
    late = after.get('arcaded_live_ticks_late_total', 0) - before.get('arcaded_live_ticks_late_total', 0)
    k = sorted(stats.keys)
    return {
        'matches': args.matches, 'window': wall, 'match_seconds': live,
        'ticks': ticks, 'ticks_per_s': ticks / wall, 'late_share': late / ticks if ticks else 0.0,
        'late_p50_ms': 1000 * quantile(before, after, 0.50),
        'late_p99_ms': 1000 * quantile(before, after, 0.99),
        'keys': len(k), 'keys_p50_ms': 1000 * k[len(k) // 2] if k else 0.0,
        'keys_p99_ms': 1000 * k[int(len(k) * 0.99)] if k else 0.0,
        'inputs': after.get('arcaded_live_inputs_total', 0) - before.get('arcaded_live_inputs_total', 0),
        'daemon_cpu': (cpu1 - cpu0) / wall if args.pid else 0.0,
        'daemon_ms_per_match_second': 1000 * (cpu1 - cpu0) / live if args.pid and live else 0.0,
        'client_cpu': (me1.ru_utime + me1.ru_stime - me0.ru_utime - me0.ru_stime) / wall,
        'refused': stats.refused, 'matches_played': stats.matches, 'load': os.getloadavg()[0],
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('url')
    ap.add_argument('--matches', type=int, default=50)
    ap.add_argument('--duration', type=float, default=20)
    ap.add_argument('--warmup', type=float, default=5)
    ap.add_argument('--think', type=float, default=0.25)
    ap.add_argument('--pid', type=int)
    args = ap.parse_args()
    print(json.dumps(asyncio.run(main_async(args))))


if __name__ == '__main__':
    main()
