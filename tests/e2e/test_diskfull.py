"""A full disk (issue 27): a write that fails for it answers 503
storage_full with Retry-After (not 500 internal), /readyz says why, and
once space is freed the daemon takes writes again. The test mounts a small
tmpfs and fills it (as root, as the suite runs; a test that cannot mount
it fails, it does not skip). SQLite: the database lives on it.
PostgreSQL: the daemon's database is moved, once migrated, into a
tablespace on it (every table and index; the catalogs and the WAL stay on
the cluster's own disk), so that a write that must extend a table fails
with SQLSTATE 53100, which server/store/store_sql.c maps to storage_full.
"""
import os
import subprocess
import tempfile
import time

from harness import BACKEND, Daemon, Tap

t = Tap()


def bail_out(why):
    print('Bail out! %s' % why)
    raise SystemExit(1)


mnt = tempfile.mkdtemp(prefix='arcaded-full-')
if os.geteuid() != 0 or subprocess.run(['mount', '-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', mnt],
                                       capture_output=True).returncode != 0:
    os.rmdir(mnt)
    bail_out('cannot mount a tmpfs for the database (the suite runs as root)')
d = None
try:
    if BACKEND == 'postgresql':
        import pgtest
        from harness import cluster
        c = cluster()
        space = os.path.join(mnt, 'space')
        os.mkdir(space, 0o700)
        os.chown(space, c.uid, c.gid)
        d = Daemon()
        c.psql(d.db, "CREATE TABLESPACE tiny LOCATION %s" % pgtest.literal(space))
        c.psql(d.db, 'ALTER TABLE ALL IN TABLESPACE pg_default SET TABLESPACE tiny')
        c.psql(d.db, 'ALTER INDEX ALL IN TABLESPACE pg_default SET TABLESPACE tiny')
        moved = c.psql(d.db, "SELECT count(*) FROM pg_class WHERE relname = 'accounts' AND "
                             "reltablespace = (SELECT oid FROM pg_tablespace WHERE spcname = 'tiny')")
        t.eq(moved, [['1']], 'PostgreSQL: the daemon\'s tables moved to a tablespace on the tmpfs')
    else:
        d = Daemon(folder=mnt)
    t.eq(d.post('/api/v1/accounts', {'name': 'before_full'}).status, 201, 'writes go in')
    filler = os.path.join(mnt, 'filler')
    with open(filler, 'wb') as f:
        try:
            while True:
                f.write(b'\0' * 65536)
                f.flush()
        except OSError:
            pass
    statuses = []
    for i in range(400):
        r = d.post('/api/v1/accounts', {'name': 'full_%d' % i})
        statuses.append(r.status)
        if r.status != 201:
            break
    t.ok(r.status == 503 and r.error_code == 'storage_full' and r.header('Retry-After') == '30',
         'the disk full: 503 storage_full with Retry-After: 30 (%d after %d writes)' % (r.status,
                                                                                     len(statuses) - 1))
    rz = d.get('/readyz')
    t.ok(rz.status == 503 and rz.error_code == 'storage_full' and 'full' in rz.json['error']['message'],
         '/readyz says why: %s %s' % (rz.status, rz.body[:120]))
    t0 = time.monotonic()
    h = d.get('/healthz')
    ms = (time.monotonic() - t0) * 1000
    t.ok(h.status == 200 and ms < 2000, '/healthz answered meanwhile (%.1f ms)' % ms)
    os.unlink(filler)
    r = d.post('/api/v1/accounts', {'name': 'after_full'})
    t.eq(r.status, 201, 'space freed: writes go in again')
    t.eq(d.get('/readyz').status, 200, 'and /readyz is ready')
finally:
    if d is not None:
        d.stop()
        if BACKEND == 'postgresql':
            # The tablespace goes with its database, before the mount.
            c.psql(c.url('postgres'), 'DROP DATABASE %s' % d.db.split('/')[-1].split('?')[0])
            c.psql(c.url('postgres'), 'DROP TABLESPACE tiny')
    subprocess.run(['umount', '-l', mnt])
    os.rmdir(mnt)
t.done()
