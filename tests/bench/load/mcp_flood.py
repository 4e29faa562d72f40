#!/usr/bin/env python3
"""One address floods /mcp; what it costs the daemon and a bystander.

Starts a release build of arcaded with its default limits on a fresh
SQLite database, then:
  1. idle: a bystander reads /healthz one request after another for S
     seconds on one keep-alive connection and keeps each latency;
  2. flood: wrk sends JSON-RPC notifications of about 62 KB to /mcp from
     the same address (mcp_flood.lua) on C connections for S seconds,
     while the bystander reads /healthz as in 1 on its own connection.
Prints the daemon's CPU over the flood (cores: CPU seconds per second of
wall time), what the flood's requests were answered (wrk's count and a
sample of statuses), and the bystander's p50 and p99 idle and under the
flood, with their ratio.

usage: mcp_flood.py ARCADED [--seconds S] [--connections C] [--threads T]
"""
import argparse
import http.client
import os
import re
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from run import cpu_seconds, to_ms  # noqa: E402


def bystander(port, seconds, out):
    c = http.client.HTTPConnection('127.0.0.1', port, timeout=10)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        t = time.monotonic()
        c.request('GET', '/healthz')
        r = c.getresponse()
        r.read()
        out.append((time.monotonic() - t) * 1000.0)
        if r.status != 200:
            sys.exit('mcp_flood.py: /healthz answered %d' % r.status)


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * p / 100.0))]


def sample_statuses(port, body, n=40):
    got = {}
    c = http.client.HTTPConnection('127.0.0.1', port, timeout=10)
    for _ in range(n):
        c.request('POST', '/mcp', body=body, headers={
            'Content-Type': 'application/json', 'Accept': 'application/json, text/event-stream',
            'MCP-Protocol-Version': '2025-11-25'})
        r = c.getresponse()
        r.read()
        got[r.status] = got.get(r.status, 0) + 1
        if r.getheader('Connection', '').lower() == 'close':
            c.close()
            c = http.client.HTTPConnection('127.0.0.1', port, timeout=10)
    return got


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('arcaded')
    ap.add_argument('--seconds', type=int, default=10)
    ap.add_argument('--connections', type=int, default=32)
    ap.add_argument('--threads', type=int, default=1)
    args = ap.parse_args()
    folder = tempfile.mkdtemp(prefix='arcaded-flood-')
    p = subprocess.Popen([args.arcaded, '--listen', '127.0.0.1:0', '--db',
                          os.path.join(folder, 'flood.db')],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        line = p.stdout.readline().decode()
        port = int(line.split('serving on ')[1].split()[0].rsplit(':', 1)[1])
        idle = []
        bystander(port, args.seconds, idle)
        body = ('{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info",'
                '"data":"' + 'x' * (62 * 1024) + '"}}').encode()
        before = sample_statuses(port, body)
        busy = []
        t = threading.Thread(target=bystander, args=(port, args.seconds, busy))
        cpu0, wall0 = cpu_seconds(p.pid), time.monotonic()
        t.start()
        out = subprocess.run(['wrk', '-t%d' % args.threads, '-c%d' % args.connections,
                              '-d%ds' % args.seconds, '--latency', '-s',
                              os.path.join(HERE, 'mcp_flood.lua'),
                              'http://127.0.0.1:%d' % port], capture_output=True, text=True,
                             check=True).stdout
        t.join()
        cpu = (cpu_seconds(p.pid) - cpu0) / (time.monotonic() - wall0)
        after = sample_statuses(port, body)
        total = int(re.search(r'(\d+) requests in', out).group(1))
        m = re.search(r'Non-2xx or 3xx responses: (\d+)', out)
        bad = int(m.group(1)) if m else 0
        m = re.search(r'Socket errors: (.*)', out)
        print('flood: %d connections, %d s, %d requests (%d not 2xx)%s; p99 %s'
              % (args.connections, args.seconds, total, bad,
                 ', socket errors: ' + m.group(1) if m else '',
                 re.search(r'\s99%\s+(\S+)', out).group(1)))
        print('a notification answered, before the flood: %s; after it: %s' % (before, after))
        print('daemon CPU during the flood: %.3f of a core' % cpu)
        print('bystander /healthz: idle p50 %.3f ms p99 %.3f ms (%d requests); flood p50 %.3f ms '
              'p99 %.3f ms (%d requests); p99 ratio %.2f'
              % (pct(idle, 50), pct(idle, 99), len(idle), pct(busy, 50), pct(busy, 99), len(busy),
                 pct(busy, 99) / pct(idle, 99)))
    finally:
        p.terminate()
        p.wait(30)


if __name__ == '__main__':
    main()
