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
hatetris (a placement a request), stackfall-place (a placement a
request) and stackfall-refused (a placement off the board, refused with
the run: 422), healthz, and mcp-duskcourt (the
duskcourt scenario's moves as MCP `act` tool calls on POST /mcp,
start_run for a new run: the MCP path's cost beside the REST one).

stackcraft (a legal placement by its id a request), stackcraft-account
(the same as an account, runs capped at 20 pieces: a run starts and ends
every 21 requests, which is what the account summary's upkeep costs), init (new runs,
Duskcourt and Stackfall in turn) and versus2, versus4, versus8 (a match of
2, 4 or 8 bots on one connection, each request with its bot's key: the
moves of a turn in seat order, the last one resolving it, and the create
and joins of a new match when one ends).

leaderboard and runpage (the reading routes): 20 Stackfall runs ended
first (a few placements and a resignation each, the same in both counts,
so they cancel), then GET a page of its leaderboard (20 entries) a
request, or GET /api/runs/{id} of one of them (its page with the replay)
a request.

--breakdown prints a markdown table instead: beside the total, the
instructions spent inside jansson, libsodium, the store with SQLite (or
libpq) and the engine, each inclusive of what it calls (its malloc too),
from the calls into it in callgrind's call graph; the rest is
libmicrohttpd, routing, the pipeline, the answers' own code and libc
outside them.

usage: callgrind.py ARCADED [--requests N] [--scenario NAME]... [--daemon-arg ARG]... [--breakdown]
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

    auth = {}

    def call(method, path, body=None, refusable=False):
        data = json.dumps(body).encode() if body is not None else None
        c.request(method, path, body=data,
                  headers=dict(auth, **({'Content-Type': 'application/json'} if data else {})))
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
    if scenario in ('stackfall-place', 'stackfall-refused'):
        # One command a request, the run's state in every answer: a
        # placement (rotation and column in turn; one that does not fit
        # is refused, still one request), or a placement off the board,
        # refused (422 with the run as it stands, its results beside it)
        # on the same token again and again.
        r = call('GET', '/api/games/stackfall/init?seed=1')
        for i in range(n):
            if scenario == 'stackfall-refused':
                call('POST', '/api/games/stackfall/action', {'stateToken': r['stateToken'],
                     'command': 'place 0 99'}, refusable=True)
                continue
            if r['status'] == 'over':
                r = call('GET', '/api/games/stackfall/init?seed=1')
                continue
            a = call('POST', '/api/games/stackfall/action', {'stateToken': r['stateToken'],
                     'command': 'place %d %d' % (i % 4, i % 7)}, refusable=True)
            r = a if 'error' not in a else r
        return
    if scenario in ('stackcraft', 'stackcraft-account'):
        # A placement a request, by its id, cycling through the legal ones;
        # stackcraft-account plays as an account, runs capped at 20 pieces,
        # so that its summary is kept at every start and end.
        init = '/api/games/stackcraft/init?seed=1'
        if scenario == 'stackcraft-account':
            c.request('POST', '/api/v1/accounts', body=json.dumps({'name': 'cgsummary'}).encode(),
                      headers={'Content-Type': 'application/json'})
            auth['Authorization'] = 'Bearer ' + json.loads(c.getresponse().read())['agentKey']
            init += '&cap=20'
        r = call('GET', init)
        for i in range(n):
            if r['state']['status'] != 'playing' or not r['legalActions']:
                r = call('GET', init)
                continue
            a = r['legalActions'][(i * 7) % len(r['legalActions'])]['id']
            r = call('POST', '/api/games/stackcraft/action', {'stateToken': r['stateToken'], 'action': a})
        return
    if scenario in ('leaderboard', 'runpage'):
        ids = []
        for k in range(20):
            r = call('GET', '/api/games/stackfall/init?seed=%d' % (k + 1))
            for col in range(0, 8, 2):
                r = call('POST', '/api/games/stackfall/action',
                         {'stateToken': r['stateToken'], 'command': 'place 0 %d' % col}, refusable=True)
            r = call('POST', '/api/games/stackfall/action', {'stateToken': r['stateToken'], 'command': 'resign'})
            ids.append(r['runId'])
        for i in range(n):
            if scenario == 'leaderboard':
                page = call('GET', '/api/games/stackfall/leaderboard?limit=20')
                if i == 0 and len(page['entries']) != 20:
                    sys.exit('callgrind.py: the leaderboard has %d entries' % len(page['entries']))
            else:
                call('GET', '/api/runs/%s' % ids[i % len(ids)])
        return
    if scenario == 'init':
        # New runs, alternating Duskcourt and Stackfall as init.lua does.
        for i in range(n):
            if i % 2:
                call('GET', '/api/games/duskcourt/init')
            else:
                call('POST', '/api/games/stackfall/init', {})
        return
    m = re.match(r'(versus|actionblocks)(\d)$', scenario)
    if m:
        versus(c, int(m.group(2)), n, 'actionblocks-v1' if m.group(1) == 'actionblocks' else None)
        return
    sys.exit('callgrind.py: unknown scenario %s' % scenario)


def versus(c, players, n, rules=None):
    """n requests of versus play by `players` bots on one connection, each
    request with its own bot's key: moves, in seat order (the last one
    resolves the turn), and, when a match ends, the
    create and joins of the next. A bot places its piece upright over its
    two lowest neighbouring columns (tests/bench/load/versus.py's bot); on
    ActionBlocks (rules actionblocks-v1) it shifts the piece as it spawns
    over its lowest column and hard-drops it (`keys RRD`)."""
    def call(method, path, body, key, refusals=()):
        data = json.dumps(body).encode() if body is not None else None
        h = {'Authorization': 'Bearer ' + key}
        if data:
            h['Content-Type'] = 'application/json'
        c.request(method, path, body=data, headers=h)
        r = c.getresponse()
        text = r.read()
        if r.status in refusals:
            return json.loads(text)['error']
        if r.status not in (200, 201):
            sys.exit('callgrind.py: %s %s answered %d: %s' % (method, path, r.status, text[:200]))
        return json.loads(text)

    def pick(view, seat):
        rows = view['seats'][seat]['board_text'].split('\n')
        h = [next((20 - i for i, row in enumerate(rows) if row[col] != '.'), 0) for col in range(10)]
        col = min(range(9), key=lambda x: max(h[x], h[x + 1]))
        return 'resign' if max(h[col], h[col + 1]) > 16 else 'place 1 %d' % col

    def pick_keys(view, seat):
        me = view['seats'][seat]
        rows, piece = me['board'], me.get('piece')
        h = [next((20 - i for i, row in enumerate(rows) if row[col] != '.'), 0) for col in range(10)]
        if piece is None or max(h) > 14:
            return 'resign'
        col = min(range(10), key=lambda x: h[x])
        shift = col - piece['x']
        return 'keys ' + ('R' * shift if shift > 0 else 'L' * -shift) + 'D'

    if rules is not None:
        pick = pick_keys  # noqa: F811 (the ruleset's own bot)
    tag = '%x' % (os.getpid() & 0xffffff)
    keys = [None] * players
    for p in range(players):
        c.request('POST', '/api/v1/accounts', body=json.dumps({'name': 'cg%s_%d' % (tag, p)}).encode(),
                  headers={'Content-Type': 'application/json'})
        keys[p] = json.loads(c.getresponse().read())['agentKey']
    view, seat, done, refusals = None, 0, 0, {}
    while done < n:
        if view is None or view['status'] != 'playing':
            body = {'players': players, 'turn_seconds': 60}
            if rules is not None:
                body['rules'] = rules
            view = call('POST', '/api/matches', body, keys[0])
            mid = view['match_id']
            for p in range(1, players):
                view = call('POST', '/api/matches/%s/join' % mid, {}, keys[p])
            done += players
            seat = 0
            continue
        if not view['seats'][seat].get('alive', True):
            seat = (seat + 1) % players
            if seat == 0:
                view = call('GET', '/api/matches/%s' % mid, None, keys[0])
                done += 1
            continue
        r = call('POST', '/api/matches/%s/move' % mid, {'turn': view['turn'] + 1,
                                                        'command': pick(view, seat)}, keys[seat], (409, 422))
        done += 1
        if 'code' in r:
            # The turn that resolved since its last answer put it out, ended
            # the match or raised its board so the piece no longer fits: the
            # match as it stands (counted: the figure includes them).
            refusals[r['code']] = refusals.get(r['code'], 0) + 1
            view, seat = call('GET', '/api/matches/%s' % mid, None, keys[0]), 0
            done += 1
            continue
        # A move answers the mover's own seat only: each bot plays on from
        # the board its last answer showed (one turn behind for all but the
        # last mover, as if it had not waited for the turn).
        view['seats'][seat] = r['state']['seat']
        seat += 1
        if r['resolved']:
            view['status'], view['turn'], seat = r['state']['status'], r['state']['turn'], 0
    if refusals:
        print('versus%d: moves refused then read again: %s' % (players, refusals), file=sys.stderr)


# The libraries and parts a request's instructions are split into with
# --breakdown: a shared library by its object file, a part of arcaded by
# the functions its static libraries define (nm: a release build has no
# line tables to name the source files). libmicrohttpd is not a part: it
# calls the daemon's handlers, so everything runs inside it.
PARTS = ('jansson', 'libsodium', 'store + SQLite', 'engine')
FUNCTIONS = {'engine': set(), 'store + SQLite': set()}


def load_functions(arcaded):
    """The functions of the engine's and the store's static libraries, from
    the build directory the binary was built in (BUILD/server/arcaded)."""
    build = os.path.dirname(os.path.dirname(os.path.abspath(arcaded)))
    # The static libraries' build folders and name patterns (in the build
    # tree, not the source tree).
    for part, pattern in (('engine', ('engine', 'libengine*.a')),
                          ('store + SQLite', ('server', 'store', 'libstore*.a'))):
        for lib in glob.glob(os.path.join(build, *pattern)):
            out = subprocess.run(['nm', '--defined-only', lib], capture_output=True, text=True).stdout
            FUNCTIONS[part].update(f[2] for f in (x.split() for x in out.splitlines())
                                   if len(f) == 3 and f[1] in 'Tt')
        if not FUNCTIONS[part]:
            sys.exit('callgrind.py: no %s library under %s' % (part, build))


def part_of(ob, fn):
    if 'libjansson' in ob:
        return 'jansson'
    if 'libsodium' in ob:
        return 'libsodium'
    if 'libsqlite3' in ob or 'libpq' in ob:
        return 'store + SQLite'
    base = fn.split("'")[0]  # callgrind marks recursion levels and clones with a suffix
    return next((p for p, names in FUNCTIONS.items() if base in names), None)


def breakdown(files):
    """Instructions per part from callgrind output files: the sum of the
    calls that enter a part from outside it, inclusive (its callees,
    malloc included, count in it), less its own calls into another part
    (which count there: the store's JSON is jansson's) and its calls back
    into the daemon's other code (the jobs the store's writer runs)."""
    names = {'fn': {}, 'ob': {}}

    def name(kind, val):
        m = re.match(r'\((\d+)\)\s*(.*)', val)
        if not m:
            return val
        if m.group(2):
            names[kind][m.group(1)] = m.group(2)
            return m.group(2)
        return names[kind].get(m.group(1), '')

    # Functions are known by (object, name); source files play no part
    # (a release build has none to name), so fl=, fi=, fe= and cfi= lines
    # are passed over.
    where = {}   # (object, function) -> part, from the function's own record
    edges = []   # (caller, callee, inclusive cost)
    for path in files:
        ob = fn = ''
        cob = cfn = None
        call = False
        with open(path) as f:
            for line in f:
                if call and line[:1] in '0123456789+-*':
                    edges.append(((ob, fn), (cob or ob, cfn), int(line.split()[1])))
                    call, cob = False, None
                elif line.startswith('ob='):
                    ob = name('ob', line[3:].strip())
                elif line.startswith('fn='):
                    fn = name('fn', line[3:].strip())
                    where.setdefault((ob, fn), part_of(ob, fn))
                elif line.startswith('cob='):
                    cob = name('ob', line[4:].strip())
                elif line.startswith('cfn='):
                    cfn = name('fn', line[4:].strip())
                elif line.startswith('calls='):
                    call = True
    out = {name: 0 for name in PARTS}
    for caller, callee, cost in edges:
        to, frm = where.get(callee) or part_of(*callee), where.get(caller)
        if to is not None and frm != to:
            out[to] += cost
            # A part calling another: that part's, not this one's.
            if frm is not None:
                out[frm] -= cost
        elif to is None and frm is not None and os.path.basename(callee[0]) == 'arcaded':
            # A part calling back into the daemon's other code (the store's
            # writer running a job): the rest's, not the part's.
            out[frm] -= cost
    return out


def total(arcaded, scenario, n, extra, parts=False, keep=None):
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
        files = glob.glob(out + '*')
        text = ''.join(open(f).read() for f in files)
        m = re.findall(r'^summary:\s+(\d+)', text, re.M) or re.findall(r'^totals:\s+(\d+)', text, re.M)
        count = sum(int(x) for x in m)
        if keep:
            os.makedirs(keep, exist_ok=True)
            for f in files:
                shutil.copy(f, os.path.join(keep, '%s-%d.%s' % (scenario, n, os.path.basename(f))))
        return (count, breakdown(files)) if parts else count
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
    ap.add_argument('--breakdown', action='store_true',
                    help='a markdown table with the instructions of each library or part')
    ap.add_argument('--keep', metavar='DIR',
                    help='copy the callgrind output files into DIR (for callgrind_annotate)')
    args = ap.parse_args()
    if shutil.which('valgrind') is None:
        sys.exit('callgrind.py: valgrind is not installed')
    if args.breakdown:
        load_functions(args.arcaded)
        print('| request | instructions | ' + ' | '.join(PARTS) + ' | the rest |')
        print('|---|' + '---:|' * (len(PARTS) + 2))
    for scenario in args.scenario or ['healthz', 'duskcourt', 'stackfall']:
        a = total(args.arcaded, scenario, args.requests, args.daemon_arg, args.breakdown, args.keep)
        b = total(args.arcaded, scenario, 2 * args.requests, args.daemon_arg, args.breakdown,
                  args.keep)
        if not args.breakdown:
            print('%-10s %8.0f instructions per request (callgrind, %d requests)' %
                  (scenario, (b - a) / args.requests, args.requests), flush=True)
            continue
        per = {k: (b[1][k] - a[1][k]) / args.requests for k in a[1]}
        whole = (b[0] - a[0]) / args.requests
        print('| %s | %s | %s | %s |' % (scenario, '{:,.0f}'.format(whole),
              ' | '.join('{:,.0f}'.format(per[name]) for name in PARTS),
              '{:,.0f}'.format(whole - sum(per.values()))), flush=True)


if __name__ == '__main__':
    main()
