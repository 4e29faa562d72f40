"""A full disk (issue 27): a write that fails for it answers 503
storage_full with Retry-After (not 500 internal), /readyz says why, and
once space is freed the daemon takes writes again. SQLite: the database
lives on a small tmpfs that the test mounts and fills (as root, as the
suite runs; a test that cannot mount it fails, it does not skip).
PostgreSQL's disk-full SQLSTATE 53100 maps the same way
(server/store/store_sql.c) but its cluster's disk is not the test's to
fill: the test is registered for SQLite only.
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


if BACKEND == 'postgresql':
    bail_out('this test fills a SQLite database\'s disk; it is not registered for PostgreSQL')
mnt = tempfile.mkdtemp(prefix='arcaded-full-')
if os.geteuid() != 0 or subprocess.run(['mount', '-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', mnt],
                                       capture_output=True).returncode != 0:
    os.rmdir(mnt)
    bail_out('cannot mount a tmpfs for the database (the suite runs as root)')
d = None
try:
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
    for i in range(40):
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
    t.ok(h.status == 200 and time.monotonic() - t0 < 0.1, '/healthz answered within 100 ms meanwhile')
    os.unlink(filler)
    r = d.post('/api/v1/accounts', {'name': 'after_full'})
    t.eq(r.status, 201, 'space freed: writes go in again')
    t.eq(d.get('/readyz').status, 200, 'and /readyz is ready')
finally:
    if d is not None:
        d.stop()
    subprocess.run(['umount', '-l', mnt])
    os.rmdir(mnt)
t.done()
