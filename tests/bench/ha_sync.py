"""What synchronous replication costs arcaded's writes, side by side.

A primary and a hot standby streaming from it (two throwaway clusters on
unix sockets, tests/e2e/pgtest.py), one daemon on the primary, and bots
playing Stackfall (a piece a request, on the token routes) for a fixed time,
in rounds that alternate: the standby asynchronous
(synchronous_standby_names = '') and synchronous ('standby1', every commit
waits for the standby's flush). Prints moves a second per round and the
medians. The clusters run with fsync off as the tests' clusters do (what
is measured is then the wait for the standby's answer, not a disk), or
with --fsync on both, as a real deployment.

    ARCADED=build/server/arcaded PYTHONPATH=tests/e2e python3 tests/bench/ha_sync.py \
        [--rounds 3] [--seconds 8] [--bots 8] [--fsync]
"""
import argparse
import os
import statistics
import threading
import time

os.environ['ARCADED_TEST_DATABASE'] = 'postgresql'
import pgtest  # noqa: E402
from harness import Daemon  # noqa: E402


def bot(d, seed, until, counts, i):
    col = seed % 7
    while time.monotonic() < until:
        r = d.post('/api/games/stackfall/init', {})
        if r.status != 200:
            time.sleep(0.05)
            continue
        while time.monotonic() < until and r.json['status'] == 'playing':
            col = (col + 3) % 7
            r2 = d.post('/api/games/stackfall/action',
                        {'stateToken': r.json['stateToken'], 'command': 'place 0 %d' % col})
            if r2.status != 200:
                break
            counts[i] += 1
            r = r2


def measure(d, bots, seconds):
    counts = [0] * bots
    until = time.monotonic() + seconds
    ths = [threading.Thread(target=bot, args=(d, 11 + i, until, counts, i)) for i in range(bots)]
    t0 = time.monotonic()
    for th in ths:
        th.start()
    for th in ths:
        th.join()
    return sum(counts) / (time.monotonic() - t0)


def set_sync(primary, names):
    primary.psql(primary.url('postgres'), "ALTER SYSTEM SET synchronous_standby_names = '%s'" % names)
    primary.psql(primary.url('postgres'), 'SELECT pg_reload_conf()')
    want = 'sync' if names else 'async'
    for _ in range(100):
        rows = primary.psql(primary.url('postgres'), 'SELECT sync_state FROM pg_stat_replication')
        if rows == [[want]]:
            return
        time.sleep(0.1)
    raise RuntimeError('the standby is not %s: %r' % (want, rows))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--rounds', type=int, default=3)
    ap.add_argument('--seconds', type=float, default=8.0)
    ap.add_argument('--bots', type=int, default=8)
    ap.add_argument('--fsync', action='store_true')
    a = ap.parse_args()
    disk = {'fsync': 'on' if a.fsync else 'off'}
    primary = pgtest.Cluster(dict(disk, synchronous_commit='on', full_page_writes='on', max_wal_senders='4'))
    standby = d = None
    try:
        primary.psql(primary.url('postgres'), 'CREATE DATABASE bench')
        standby = pgtest.Cluster(dict(disk, synchronous_standby_names="''", hot_standby='on'),
                                 replica_of=primary, name='standby1')
        d = Daemon(args=['--db', primary.url('bench'), '--agent-check', 'stackfall=off'])
        rates = {'async': [], 'sync': []}
        for rnd in range(a.rounds):
            for mode in ('async', 'sync'):
                set_sync(primary, 'standby1' if mode == 'sync' else '')
                rate = measure(d, a.bots, a.seconds)
                rates[mode].append(rate)
                print('round %d %-5s %7.1f moves/s' % (rnd + 1, mode, rate), flush=True)
        ma, ms = statistics.median(rates['async']), statistics.median(rates['sync'])
        print('%d bots, %.0f s a round, fsync %s' % (a.bots, a.seconds, disk['fsync']))
        print('median: async %.1f, sync %.1f moves/s: synchronous replication costs %.0f%%' %
              (ma, ms, 100 * (1 - ms / ma)))
    finally:
        if d is not None:
            d.stop()
            d.cleanup()
        if standby is not None:
            standby.stop()
        primary.stop()


main()
