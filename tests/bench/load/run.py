#!/usr/bin/env python3
"""The load harness: one command, one table.

Starts a release build of arcaded on a fresh database (the agent check off
for Stackfall, so that bots need no puzzle solver), then runs wrk with the
same settings against
  healthz    the ceiling: a route that does no game work
  duskcourt  real runs: init, then action after action with the stateToken
  stackfall  real games: one placement per request, chosen from board_text
  stackfall+options  the same with the options helper: "place R C; options"
  stackcraft real runs: a random legal placement by its id (`r1x4`) per request
  hatetris   real HATETRIS runs, depth 1: "place R C; options", the best option each time
  hatetris depth 2   the same at depth 2
  hatetris-classic   real runs by keys: a piece dropped (and locked) per request
  init       new runs of both games
and prints, per scenario, the throughput and its ratio to the ceiling, p50
and p99 latency, the share of non-2xx answers, and the daemon's CPU time per
request; then the daemon's peak resident memory. With --million it keeps
playing Duskcourt until a million moves are stored and reports the peak
resident memory after that. Then it plays versus matches (versus.py: 100
matches of 4 bots at once by default, every bot moving as fast as it can)
and prints resolved turns per second and the latency of a move. Last, it
plays ActionBlocks in real time (realtime.py: 50 matches of 2 bots at once
by default, each bot with its stream open and a piece a quarter second
after it appears) and prints the tick clock's lateness (p50, p99, from the
daemon's histogram) and the daemon's CPU time per match-second.

After the table, for the HATETRIS scenarios: how many runs reached 2 lines
(after which the supplier asks about seen boards) and how many board keys
were stored.

--db postgresql runs the daemon on a throwaway PostgreSQL cluster started
here (tests/e2e/pgtest.py, with fsync and synchronous commit on, like
SQLite's --synchronous full); --db postgresql://... uses that database. With
--daemons N (PostgreSQL only) N daemons share it behind nginx running the
shipped deploy/nginx.conf (substituted as tests/ops/test_scaleout.py does,
and without its per-address request and connection limits: wrk is one
address). The table then adds the PostgreSQL server's CPU time per request,
and the daemons' CPU is summed.

usage: run.py ARCADED [--duration S] [--connections N] [--threads N] [--million]
              [--db sqlite|postgresql|URL] [--daemons N]
              [--only NAME]...   (healthz, the ceiling, always runs; versus is a NAME too)
              [--matches N] [--players N] [--no-versus] [--items]
              [--realtime-matches N] [--no-realtime]   (realtime is a NAME too)
"""
import argparse
import glob
import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, '..', '..', '..'))
TICK = os.sysconf('SC_CLK_TCK')
sys.path.insert(0, os.path.join(ROOT, 'tests', 'e2e'))
sys.path.insert(0, os.path.join(ROOT, 'tests', 'ops'))


def cpu_seconds(pid):
    with open('/proc/%d/stat' % pid) as f:
        fields = f.read().rsplit(')', 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def peak_rss_mb(pid):
    with open('/proc/%d/status' % pid) as f:
        for line in f:
            if line.startswith('VmHWM:'):
                return int(line.split()[1]) / 1024.0
    return 0.0


def to_ms(text):
    m = re.match(r'([\d.]+)(us|ms|s)', text)
    v, unit = float(m.group(1)), m.group(2)
    return v / 1000.0 if unit == 'us' else v * 1000.0 if unit == 's' else v


def wrk(url, script, args, script_args=()):
    cmd = ['wrk', '-t%d' % args.threads, '-c%d' % args.connections, '-d%ds' % args.duration,
           '--latency', '-s', os.path.join(HERE, script), url]
    if script_args:
        cmd += ['--'] + list(script_args)
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    total = int(re.search(r'(\d+) requests in', out).group(1))
    rps = float(re.search(r'Requests/sec:\s+([\d.]+)', out).group(1))
    p50 = to_ms(re.search(r'\s50%\s+(\S+)', out).group(1))
    p99 = to_ms(re.search(r'\s99%\s+(\S+)', out).group(1))
    m = re.search(r'Non-2xx or 3xx responses: (\d+)', out)
    bad = int(m.group(1)) if m else 0
    m = re.search(r'Socket errors: (.*)', out)
    return dict(total=total, rps=rps, p50=p50, p99=p99, bad=bad, socket=m.group(1) if m else '', raw=out)


def moves(db, cluster=None):
    if cluster is not None:
        return int(cluster.psql(db, 'SELECT count(*) FROM moves')[0][0])
    with sqlite3.connect(db, timeout=30) as c:
        return c.execute('SELECT count(*) FROM moves').fetchone()[0]


def cluster_cpu(cluster):
    """CPU seconds of the PostgreSQL server: the postmaster and its children."""
    if cluster is None:
        return 0.0
    with open(os.path.join(cluster.data, 'postmaster.pid')) as f:
        return tree_cpu(int(f.readline()))


def tree_cpu(master):
    """CPU seconds of a process and its children (nginx's workers, say)."""
    total = cpu_seconds(master)
    for stat in glob.glob('/proc/[0-9]*/stat'):
        try:
            with open(stat) as f:
                fields = f.read().rsplit(')', 1)[1].split()
            if int(fields[1]) == master:
                total += (int(fields[11]) + int(fields[12])) / TICK
        except (OSError, IndexError, ValueError):
            pass
    return total


def unlimited_site(folder, sockets, port):
    """The shipped site for N daemons, without its per-address limits."""
    from test_nginx import SITE
    from test_scaleout import site_for
    with open(SITE) as f:
        text = f.read()
    site = site_for(text, sockets, folder, port)
    keep = []
    for line in site.split('\n'):
        if re.match(r'\s*(limit_req|limit_conn)\s', line):
            continue
        keep.append(line)
    return '\n'.join(keep)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('arcaded')
    ap.add_argument('--duration', type=int, default=10)
    ap.add_argument('--connections', type=int, default=64)
    ap.add_argument('--threads', type=int, default=2)
    ap.add_argument('--million', action='store_true')
    ap.add_argument('--daemon-arg', action='append', default=[])
    ap.add_argument('--db', default='sqlite')
    ap.add_argument('--daemons', type=int, default=1)
    ap.add_argument('--only', action='append', default=[])
    ap.add_argument('--matches', type=int, default=100)
    ap.add_argument('--players', type=int, default=4)
    ap.add_argument('--no-versus', action='store_true')
    ap.add_argument('--realtime-matches', type=int, default=50)
    ap.add_argument('--no-realtime', action='store_true')
    ap.add_argument('--items', action='store_true',
                    help='versus twice: without items, then with them (10 %%, bots use what they collect)')
    args = ap.parse_args()
    if shutil.which('wrk') is None:
        sys.exit('run.py: wrk is not installed (apt-get install wrk)')
    if args.daemons > 1 and args.db == 'sqlite':
        sys.exit('run.py: several daemons share a PostgreSQL database: add --db postgresql')

    folder = tempfile.mkdtemp(prefix='arcaded-load-')
    os.chmod(folder, 0o711)
    cluster = nginx = None
    if args.db == 'sqlite':
        db = os.path.join(folder, 'load.db')
    elif args.db == 'postgresql':
        import pgtest
        cluster = pgtest.Cluster(settings={'fsync': 'on', 'synchronous_commit': 'on',
                                           'full_page_writes': 'on', 'shared_buffers': '256MB'})
        db = cluster.create_db('load')
    else:
        db = args.db
    # wrk is one client address: the rate limits stay on (every request pays
    # for its check, which is what the table measures) but far above what
    # it sends, and its connections stay within the per-address quota.
    limits = ['--rate-limit', ','.join('%s=1000000/s' % c for c in
                                       ('accounts', 'puzzles', 'runs', 'moves', 'reads', 'verify')),
              '--connections-per-address', '100000',
              # The versus driver's bots all hold a long poll from one address.
              '--long-polls-per-address', '100000',
              # The real-time driver's bots all hold a stream from one address.
              '--streams-per-address', '100000',
              # The day's quotas likewise: counted on every init and finish, never reached.
              '--runs-per-day', '100000000', '--reviews-per-day', '100000000',
              '--matches-per-day', '100000000']
    procs, logs = [], []
    for i in range(args.daemons):
        listen = ('unix:' + os.path.join(folder, 'd%d.sock' % i)) if args.daemons > 1 else '127.0.0.1:0'
        logs.append(open(os.path.join(folder, 'daemon%d.log' % i), 'wb'))
        extra = ['--key-file', os.path.join(folder, 'shared.key')] if db != os.path.join(folder, 'load.db') else []
        procs.append(subprocess.Popen([args.arcaded, '--listen', listen, '--db', db,
                                       '--agent-check', 'stackfall=off'] + limits + extra + args.daemon_arg,
                                      stdout=subprocess.PIPE, stderr=logs[-1]))
        line = procs[-1].stdout.readline().decode()
        if 'serving on' not in line:
            sys.exit('run.py: the daemon did not start; see %s' % logs[-1].name)
        url = line.split('serving on ')[1].split()[0]
    if args.daemons > 1:
        from test_nginx import Nginx, free_port, run_as
        port = free_port()
        socks = [os.path.join(folder, 'd%d.sock' % i) for i in range(args.daemons)]
        for sk in socks:
            os.chown(sk, -1, run_as()[1])
        nginx = Nginx(os.path.join(folder, 'nginx'), unlimited_site(os.path.join(folder, 'nginx'),
                                                                     socks, port))
        nginx.start([port])
        url = 'http://127.0.0.1:%d' % port
    proc = procs[0]
    rows = []
    # The WAL's largest size while the scenarios run, sampled every 50 ms.
    wal_max = [0]
    sampling = threading.Event()

    def sample():
        while not sampling.wait(0.05):
            try:
                wal_max[0] = max(wal_max[0], os.path.getsize(db + '-wal'))
            except OSError:
                pass
    sampler = threading.Thread(target=sample, daemon=True)
    if cluster is None and args.db == 'sqlite':
        sampler.start()
    try:
        for name, script, sargs in (('healthz', 'healthz.lua', ()), ('duskcourt', 'duskcourt.lua', ()),
                                    ('stackfall', 'stackfall.lua', ()),
                                    ('stackfall+options', 'stackfall.lua', ('options',)),
                                    ('stackcraft', 'stackcraft.lua', ()),
                                    ('hatetris', 'hatetris.lua', ()),
                                    ('hatetris depth 2', 'hatetris.lua', ('depth2',)),
                                    ('hatetris-classic', 'hatetris_classic.lua', ()),
                                    ('init', 'init.lua', ())):
            if args.only and name != 'healthz' and name not in args.only:
                continue
            c0 = sum(cpu_seconds(p.pid) for p in procs)
            p0 = cluster_cpu(cluster)
            n0 = tree_cpu(nginx.proc.pid) if nginx else 0.0
            r = wrk(url, script, args, sargs)
            r['ngx_us'] = ((tree_cpu(nginx.proc.pid) - n0) / max(r['total'], 1) * 1e6) if nginx else 0.0
            r['cpu_us'] = (sum(cpu_seconds(p.pid) for p in procs) - c0) / max(r['total'], 1) * 1e6
            r['pg_us'] = (cluster_cpu(cluster) - p0) / max(r['total'], 1) * 1e6
            r['name'] = name
            rows.append(r)
        ceiling = rows[0]['rps']
        stored = moves(db, cluster)
        print('wrk -t%d -c%d -d%ds --latency, each scenario on the same daemon%s (%s); database %s'
              % (args.threads, args.connections, args.duration,
                 's (%d, behind nginx)' % args.daemons if args.daemons > 1 else '',
                 ' '.join(args.daemon_arg) or
                 'defaults; rate limits on at 1000000/s, 100000 connections per address',
                 args.db if args.db in ('sqlite', 'postgresql') else 'given URL'))
        print()
        pgcol = cluster is not None
        print('| scenario | requests/s | of healthz | p50 ms | p99 ms | non-2xx | daemon CPU µs/request |%s%s'
              % (' PostgreSQL CPU µs/request |' if pgcol else '', ' nginx CPU µs/request |' if nginx else ''))
        print('|---|---|---|---|---|---|---|%s%s' % ('---|' if pgcol else '', '---|' if nginx else ''))
        for r in rows:
            print('| %s | %.0f | %.0f%% | %.2f | %.2f | %d | %.1f |%s%s' % (
                r['name'], r['rps'], 100.0 * r['rps'] / ceiling, r['p50'], r['p99'], r['bad'], r['cpu_us'],
                ' %.1f |' % r['pg_us'] if pgcol else '', ' %.1f |' % r['ngx_us'] if nginx else ''))
            if r['socket']:
                print('|   socket errors: %s | | | | | | |' % r['socket'])
        print()
        print('moves stored: %d; peak resident memory so far: %.1f MB' % (stored, peak_rss_mb(proc.pid)))
        ht_sql = ("SELECT count(*), sum(CASE WHEN lines >= 2 THEN 1 ELSE 0 END), sum(pieces), "
                  "sum(lines) FROM runs WHERE game = 'hatetris'")
        if cluster is not None:
            ht = [int(x) if x else 0 for x in cluster.psql(db, ht_sql)[0]]
            facts = int(cluster.psql(db, 'SELECT count(*) FROM run_facts')[0][0])
        elif args.db == 'sqlite':
            with sqlite3.connect(db, timeout=30) as c:
                ht = c.execute(ht_sql).fetchone()
                facts = c.execute('SELECT count(*) FROM run_facts').fetchone()[0]
        else:
            ht, facts = (0, 0, 0, 0), 0
        if ht[0]:
            print('hatetris: %d runs, %d of them with 2 lines or more, %d lines and %d pieces in all, '
                  '%d board keys stored' % (ht[0], ht[1] or 0, ht[3] or 0, ht[2] or 0, facts))
        if not args.no_versus and (not args.only or 'versus' in args.only):
            rows = []
            for items in ([False, True] if args.items else [False]):
                out = subprocess.run([sys.executable, os.path.join(HERE, 'versus.py'), url,
                                      '--matches', str(args.matches), '--players', str(args.players),
                                      '--duration', str(args.duration), '--pid', str(proc.pid)] +
                                     (['--items'] if items else []),
                                     capture_output=True, text=True, check=True).stdout
                rows.append((items, json.loads(out)))
            print()
            print('versus: %d matches of %d bots at once (versus.py), %ds window after a 2 s warm-up; '
                  'load average %s' % (args.matches, args.players, args.duration,
                                       ', '.join('%.1f' % v['load'] for _, v in rows)))
            print()
            print('| items | resolved turns/s | moves/s | move p50 ms | move p99 ms | long polls/s | poll p50 ms | '
                  'poll p99 ms | turns by deadline | daemon CPU µs/turn | daemon CPU | driver CPU |')
            print('|---|---|---|---|---|---|---|---|---|---|---|---|')
            for items, v in rows:
                print('| %s | %.0f | %.0f | %.1f | %.1f | %.0f | %.1f | %.1f | %d | %.0f | %.0f%% | %.0f%% |' % (
                    'on' if items else 'off', v['turns'], v['moves'], v['move_p50'], v['move_p99'], v['waits'],
                    v['wait_p50'], v['wait_p99'], v['by_deadline'], v['daemon_us_per_turn'],
                    100 * v['daemon_cpu'], 100 * v['client_cpu']))
        if not args.no_realtime and (not args.only or 'realtime' in args.only):
            out = subprocess.run([sys.executable, os.path.join(HERE, 'realtime.py'), url,
                                  '--matches', str(args.realtime_matches), '--duration',
                                  str(max(args.duration, 20)), '--pid', str(proc.pid)],
                                 capture_output=True, text=True, check=True).stdout
            v = json.loads(out)
            print()
            print('realtime: %d ActionBlocks matches of 2 bots at once, in real time (realtime.py), a '
                  '%.0f s window after a 5 s warm-up; %.0f match-seconds in it; load average %.1f'
                  % (v['matches'], v['window'], v['match_seconds'], v['load']))
            print()
            print('| ticks/s | tick late p50 ms | tick late p99 ms | ticks a tick late | keys/s | keys p50 ms | '
                  'keys p99 ms | daemon CPU ms/match-second | daemon CPU | driver CPU |')
            print('|---|---|---|---|---|---|---|---|---|---|')
            print('| %.0f | %.1f | %.1f | %.2f%% | %.0f | %.1f | %.1f | %.2f | %.0f%% | %.0f%% |' % (
                v['ticks_per_s'], v['late_p50_ms'], v['late_p99_ms'], 100 * v['late_share'],
                v['keys'] / v['window'], v['keys_p50_ms'], v['keys_p99_ms'], v['daemon_ms_per_match_second'],
                100 * v['daemon_cpu'], 100 * v['client_cpu']))
        if args.million:
            t0 = time.time()
            while stored < 1000000:
                wrk(url, 'duskcourt.lua', args)
                stored = moves(db, cluster)
            print('after %d stored moves (%.0f s more of Duskcourt): peak resident memory %.1f MB, '
                  'database %.0f MB' % (stored, time.time() - t0, peak_rss_mb(proc.pid),
                                        os.path.getsize(db) / 1e6 if cluster is None else 0))
        if cluster is None and args.db == 'sqlite':
            wal = db + '-wal'
            print('WAL: largest %.1f MB while the scenarios ran, %.1f MB now' % (
                wal_max[0] / 1e6, os.path.getsize(wal) / 1e6 if os.path.exists(wal) else 0))
    finally:
        sampling.set()
        if nginx is not None:
            nginx.stop()
        for p in procs:
            p.send_signal(signal.SIGTERM)
            p.wait(30)
        for lg in logs:
            lg.close()
        if cluster is not None:
            cluster.stop()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == '__main__':
    main()
