#!/usr/bin/env python3
"""Instructions per request, counted by callgrind: the hot path's cost in a
figure that does not move with the machine's load.

Runs the daemon under `valgrind --tool=callgrind` with one HTTP thread,
plays N sequential requests of a scenario on one keep-alive connection,
stops it, and reads the program's total instruction count; does the same
with 2N requests, and prints (total(2N) - total(N)) / N, which cancels
start-up and shutdown. Scenarios: duskcourt (init, then action after
action: the first legal capture, next at a break, a new run when done),
stackfall (`options; place 0 0` per request, a new game at the end),
hatetris (a placement a request), healthz, and mcp-duskcourt (the
duskcourt scenario's moves as MCP `act` tool calls on POST /mcp,
start_run for a new run: the MCP path's cost beside the REST one).

usage: callgrind.py ARCADED [--requests N] [--scenario NAME]... [--daemon-arg ARG]...
"""
import argparse
import glob
import http.client
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time


def play(port, scenario, n):
    c = http.client.HTTPConnection('127.0.0.1', port, timeout=120)

    def call(method, path, body=None, refusable=False):
        data = json.dumps(body).encode() if body is not None else None
        c.request(method, path, body=data, headers={'Content-Type': 'application/json'} if data else {})
        r = c.getresponse()
        text = r.read()
        if r.status != 200 and not (refusable and r.status == 422):
            sys.exit('callgrind.py: %s %s answered %d: %s' % (method, path, r.status, text[:200]))
        return json.loads(text) if text else None

    if scenario == 'healthz':
        for _ in range(n):
            call('GET', '/healthz')
        return
    if scenario == 'duskcourt':
        r = call('GET', '/api/games/duskcourt/init?seed=1')
        for _ in range(n):
            st = r['state']
            if st['phase'] == 'done':
                r = call('GET', '/api/games/duskcourt/init?seed=1')
                continue
            a = {'type': 'next'} if st['phase'] == 'break' else \
                next(x for x in r['legalActions'] if x['type'] == 'capture')
            r = call('POST', '/api/games/duskcourt/action', {'stateToken': r['stateToken'], 'action': a})
        return
    if scenario == 'mcp-duskcourt':
        def tool(name, args):
            body = {'jsonrpc': '2.0', 'id': 1, 'method': 'tools/call',
                    'params': {'name': name, 'arguments': args}}
            return call('POST', '/mcp', body)['result']['structuredContent']
        r = tool('start_run', {'game': 'duskcourt', 'seed': 1})
        for _ in range(n):
            st = r['state']
            if st['phase'] == 'done':
                r = tool('start_run', {'game': 'duskcourt', 'seed': 1})
                continue
            a = {'type': 'next'} if st['phase'] == 'break' else \
                next(x for x in r['legalActions'] if x['type'] == 'capture')
            r = tool('act', {'game': 'duskcourt', 'stateToken': r['stateToken'], 'action': a})
        return
    if scenario in ('stackfall', 'hatetris'):
        # Stackfall: the options helper and a placement, one request (the
        # engine may refuse the placement once column 0 is full: still
        # one request). HATETRIS: a placement a request, rotation 0 in
        # columns 0 to 6 in turn; one that does not fit is refused (422,
        # still one request, its body the run as it stands). A new run at
        # the end of each.
        init = '/api/games/stackfall/init?seed=1' if scenario == 'stackfall' else '/api/games/hatetris/init'
        r = call('GET', init)
        for i in range(n):
            if r['status'] == 'over':
                r = call('GET', init)
                continue
            cmd = 'options; place 0 0' if scenario == 'stackfall' else 'place 0 %d' % (i % 7)
            r = call('POST', '/api/games/%s/action' % scenario, {'stateToken': r['stateToken'], 'command': cmd},
                     refusable=True)
        return
    sys.exit('callgrind.py: unknown scenario %s' % scenario)


def total(arcaded, scenario, n, extra):
    folder = tempfile.mkdtemp(prefix='arcaded-cg-')
    out = os.path.join(folder, 'cg.out')
    cmd = ['valgrind', '--tool=callgrind', '--callgrind-out-file=' + out, arcaded,
           '--listen', '127.0.0.1:0', '--db', os.path.join(folder, 'cg.db'), '--threads', '1',
           '--agent-check', 'stackfall=off'] + extra
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        line = p.stdout.readline().decode()
        port = int(line.split('serving on ')[1].split()[0].rsplit(':', 1)[1])
        play(port, scenario, n)
        p.send_signal(signal.SIGTERM)
        p.wait(300)
        text = ''.join(open(f).read() for f in glob.glob(out + '*'))
        m = re.findall(r'^summary:\s+(\d+)', text, re.M) or re.findall(r'^totals:\s+(\d+)', text, re.M)
        return sum(int(x) for x in m)
    finally:
        if p.poll() is None:
            p.kill()
        shutil.rmtree(folder, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('arcaded')
    ap.add_argument('--requests', type=int, default=1000)
    ap.add_argument('--scenario', action='append')
    ap.add_argument('--daemon-arg', action='append', default=[])
    args = ap.parse_args()
    if shutil.which('valgrind') is None:
        sys.exit('callgrind.py: valgrind is not installed')
    for scenario in args.scenario or ['healthz', 'duskcourt', 'stackfall']:
        a = total(args.arcaded, scenario, args.requests, args.daemon_arg)
        b = total(args.arcaded, scenario, 2 * args.requests, args.daemon_arg)
        print('%-10s %8.0f instructions per request (callgrind, %d requests)' %
              (scenario, (b - a) / args.requests, args.requests), flush=True)


if __name__ == '__main__':
    main()
