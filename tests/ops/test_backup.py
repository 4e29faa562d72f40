"""arcaded backup: a consistent copy of a running daemon's SQLite database.

Eight clients play Duskcourt runs to their reviews without pause while
`arcaded backup` copies the database twice. The test checks that play went
on during each backup, that each copy passes SQLite's integrity check and
holds a consistent moment (every run's head counts exactly its stored
moves), then restores the second copy into a fresh daemon with the same
key file and verifies there every finished run's replay and certificate
against the server, and that the copy's runs match the original's as far
as they had got.
"""
import os
import random
import shutil
import sqlite3
import tempfile
import threading
import time

from harness import Daemon, Tap, run_binary


def play(d, stop, counts, lock, rng):
    """Runs to their reviews until stop is set."""
    while not stop.is_set():
        r = d.get('/api/games/duskcourt/init?seed=%d' % rng.randint(1, 50))
        if r.status != 200:
            with lock:
                counts['bad'] += 1
            continue
        for _ in range(200):
            legal = r.json.get('legalActions') or []
            caps = [a for a in legal if a['type'] == 'capture']
            kinds = {a['type'] for a in legal}
            if caps:
                action = rng.choice(caps)
            elif 'endRun' in kinds:
                action = {'type': 'endRun'}
            elif legal:
                action = legal[0]
            else:
                break
            r2 = d.post('/api/games/duskcourt/action', {'stateToken': r.json['stateToken'], 'action': action})
            with lock:
                counts['answers'] += 1
                counts['bad'] += r2.status != 200
            if r2.status != 200:
                break
            r = r2
        r2 = d.post('/api/games/duskcourt/finish', {'stateToken': r.json['stateToken'], 'rating': 7,
                                                    'review': 'backed up'})
        with lock:
            counts['answers'] += 1
            counts['finished'] += r2.status == 200


def main():
    t = Tap()
    d = Daemon()
    restored = None
    out = tempfile.mkdtemp(prefix='arcaded-backup-')
    try:
        stop, lock = threading.Event(), threading.Lock()
        counts = {'answers': 0, 'bad': 0, 'finished': 0}
        threads = [threading.Thread(target=play, args=(d, stop, counts, lock, random.Random(i)))
                   for i in range(8)]
        for th in threads:
            th.start()
        copies = []
        try:
            for k in range(2):
                time.sleep(1.5)
                before = counts['answers']
                t0 = time.monotonic()
                path = os.path.join(out, 'backup%d.db' % k)
                rc, so, se = run_binary(['backup', path, '--db', d.db])
                took = time.monotonic() - t0
                during = counts['answers'] - before
                t.ok(rc == 0 and os.path.exists(path),
                     'arcaded backup under load (%.2f s) exits 0: %s' % (took, (so + se).strip()))
                # A backup of a small database takes a few hundredths of a
                # second, in which 8 clients on a busy machine may answer
                # nothing; what matters is that none of them waited for it,
                # so the count runs over the second the backup began.
                time.sleep(max(0.0, 1.0 - (time.monotonic() - t0)))
                around = counts['answers'] - before
                t.ok(around > 0, 'play went on through the backup (%d answers meanwhile, %d within '
                     'the second it began)' % (during, around))
                copies.append(path)
        finally:
            time.sleep(0.5)
            stop.set()
            for th in threads:
                th.join()
        t.ok(counts['bad'] == 0 and counts['finished'] > 5,
             'the clients played %d answers, %d runs finished, none refused' %
             (counts['answers'], counts['finished']))
        rc, so, se = run_binary(['backup', copies[0], '--db', d.db])
        t.ok(rc == 1 and 'already exists' in se, 'a backup never overwrites a file: %s' % se.strip())

        for path in copies:
            with sqlite3.connect(path) as db:
                t.eq(db.execute('PRAGMA integrity_check').fetchone()[0], 'ok',
                     '%s passes integrity_check' % os.path.basename(path))
                t.eq(db.execute('SELECT count(*) FROM runs r WHERE step <> (SELECT count(*) FROM moves m '
                                'WHERE m.run_id = r.id)').fetchone()[0], 0,
                     'and is one consistent moment: every head counts exactly its stored moves')
        d.stop()
        with sqlite3.connect(copies[1]) as db:
            runs = db.execute('SELECT id, step, finished_at IS NOT NULL FROM runs').fetchall()
            moves = db.execute('SELECT run_id, step, action FROM moves').fetchall()
        with sqlite3.connect(d.db) as db:
            later = dict(((r, s), a) for r, s, a in db.execute('SELECT run_id, step, action FROM moves'))
        t.ok(moves and all(later.get((r, s)) == a for r, s, a in moves),
             'every move in the copy is the original\'s move at that step (%d moves)' % len(moves))

        # Restore: the copy as the database of a fresh daemon, same key file.
        folder = tempfile.mkdtemp(prefix='arcaded-restored-')
        shutil.copy(copies[1], os.path.join(folder, 'arcaded.db'))
        shutil.copy(os.path.join(d.folder, 'arcaded.key'), os.path.join(folder, 'arcaded.key'))
        os.chmod(os.path.join(folder, 'arcaded.key'), 0o600)
        restored = Daemon(folder=folder)
        finished = [r for r, _, f in runs if f]
        bad = []
        for run in finished:
            page = restored.get('/api/games/duskcourt/runs/%d' % run)
            if page.status != 200 or not page.json.get('certificate'):
                bad.append((run, page.status))
                continue
            v = restored.post('/api/games/duskcourt/replays/verify',
                              {'replay': page.json['replay'], 'certificate': page.json['certificate']})
            if not (v.status == 200 and v.json['valid'] and v.json['certificate']['valid']):
                bad.append((run, v.body[:120]))
        t.ok(len(finished) > 3 and not bad, 'the restored daemon verifies every finished run of the '
             'copy, replay and certificate (%d runs; failures %r)' % (len(finished), bad[:3]))
        r = restored.get('/api/games/duskcourt/reviews?limit=1')
        t.eq(r.json['count'] if r.status == 200 else None, len(finished),
             'its review count is the copy\'s finished runs')
        t.eq(restored.stop()[0], 0, 'the restored daemon exits 0')
    finally:
        d.cleanup()
        if restored is not None:
            restored.cleanup()
        shutil.rmtree(out, ignore_errors=True)
    t.done()


if __name__ == '__main__':
    main()
