"""A throwaway PostgreSQL cluster for the tests.

Cluster() runs initdb and pg_ctl from Debian's postgresql package in a
fresh temporary folder: the server listens only on a unix socket in that
folder (no TCP port at all), trusts local connections, and runs as the
current user, or as `nobody` when the tests run as root (PostgreSQL refuses
root; the folder is then owned by nobody). Nothing is installed as a
service and nothing outside the folder is touched; stop() removes it.

Cluster(replica_of=primary, name=...) makes a hot standby of another
cluster instead (pg_basebackup -R over the primary's socket, streaming,
application_name = name, its own socket folder): kill() ends a cluster as
a crash does (SIGKILL to the postmaster and every backend), promote() makes
a standby the primary.

If PostgreSQL is missing or does not start, Cluster() raises: the tests
that need it fail rather than skip.
"""
import glob
import os
import pwd
import re
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.parse
import uuid


def bindir():
    """The folder of initdb and pg_ctl: Debian keeps them off the PATH."""
    found = sorted(glob.glob('/usr/lib/postgresql/*/bin/initdb'),
                   key=lambda p: int(re.search(r'/(\d+)/bin/', p).group(1)))
    if found:
        return os.path.dirname(found[-1])
    initdb = shutil.which('initdb')
    if initdb:
        return os.path.dirname(initdb)
    raise RuntimeError('PostgreSQL is not installed (./dev test installs Debian\'s postgresql)')


def _as_user():
    """(uid, gid) the server runs as."""
    if os.getuid() != 0:
        return os.getuid(), os.getgid()
    pw = pwd.getpwnam('nobody')
    return pw.pw_uid, pw.pw_gid


class Cluster:
    SUPERUSER = 'arcaded'

    def __init__(self, settings=None, replica_of=None, name='standby1'):
        self.bin = bindir()
        self.uid, self.gid = _as_user()
        self.dir = tempfile.mkdtemp(prefix='arcaded-pg-')
        os.chmod(self.dir, 0o755)  # the socket is reached by every local user
        os.chown(self.dir, self.uid, self.gid)
        self.data = os.path.join(self.dir, 'data')
        self.log = os.path.join(self.dir, 'server.log')
        kw = self._kw()
        if replica_of is not None:
            # A copy of the primary as it runs, with the standby's settings
            # (primary_conninfo, standby.signal) written by -R.
            p = subprocess.run([os.path.join(self.bin, 'pg_basebackup'), '-D', self.data, '-R',
                                '-X', 'stream', '-c', 'fast', '-d',
                                'host=%s user=%s application_name=%s' % (replica_of.dir, self.SUPERUSER,
                                                                          name)],
                               capture_output=True, text=True, timeout=120, cwd=self.dir, **kw)
        else:
            p = subprocess.run([os.path.join(self.bin, 'initdb'), '-D', self.data, '-U', self.SUPERUSER,
                                '--auth=trust', '-E', 'UTF8', '--locale=C', '-N'],
                               capture_output=True, text=True, timeout=120, cwd=self.dir, **kw)
        if p.returncode != 0:
            self._remove()
            raise RuntimeError('%s failed: %s' % ('pg_basebackup' if replica_of else 'initdb',
                                                  p.stderr or p.stdout))
        conf = {
            'listen_addresses': "''",            # no TCP: the unix socket only
            'unix_socket_directories': "'%s'" % self.dir,
            'unix_socket_permissions': '0777',
            'max_connections': '300',
            'shared_buffers': '64MB',
            'fsync': 'off',                      # a throwaway cluster: speed over durability
            'synchronous_commit': 'off',
            'full_page_writes': 'off',
            'log_min_messages': 'warning',
        }
        conf.update(settings or {})
        with open(os.path.join(self.data, 'postgresql.conf'), 'a') as f:
            for k, v in conf.items():
                f.write('%s = %s\n' % (k, v))
        p = subprocess.run([os.path.join(self.bin, 'pg_ctl'), '-D', self.data, '-l', self.log,
                            '-w', '-t', '60', 'start'],
                           capture_output=True, text=True, timeout=90, cwd=self.dir, **kw)
        if p.returncode != 0:
            log = self.read_log()
            self._remove()
            raise RuntimeError('PostgreSQL did not start: %s %s' % (p.stderr or p.stdout, log))

    def pid(self):
        """The postmaster's process id, from postmaster.pid."""
        with open(os.path.join(self.data, 'postmaster.pid')) as f:
            return int(f.readline())

    def kill(self):
        """Ends the cluster as a crash would: SIGKILL to the postmaster
        and to every process it started, no shutdown checkpoint, every
        client connection cut."""
        pm = self.pid()
        children = []
        for entry in os.listdir('/proc'):
            if not entry.isdigit():
                continue
            try:
                with open('/proc/%s/stat' % entry) as f:
                    fields = f.read().rsplit(')', 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pm:
                children.append(int(entry))
        for pid in [pm] + children:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def promote(self):
        """A standby becomes a primary (pg_ctl promote, waiting for it)."""
        p = subprocess.run([os.path.join(self.bin, 'pg_ctl'), '-D', self.data, '-w', '-t', '60',
                            'promote'], capture_output=True, text=True, timeout=90, cwd=self.dir,
                           **self._kw())
        if p.returncode != 0:
            raise RuntimeError('pg_ctl promote: %s' % (p.stderr or p.stdout))

    def _kw(self):
        if os.getuid() == 0:
            return {'user': self.uid, 'group': self.gid, 'extra_groups': []}
        return {}

    def read_log(self):
        try:
            with open(self.log) as f:
                return f.read()
        except OSError:
            return ''

    def url(self, dbname):
        return 'postgresql://%s@/%s?host=%s' % (self.SUPERUSER, dbname,
                                               urllib.parse.quote(self.dir, safe=''))

    def create_db(self, prefix='e2e'):
        """A new empty database; its URL."""
        name = '%s_%s' % (prefix, uuid.uuid4().hex[:12])
        self.psql(self.url('postgres'), 'CREATE DATABASE %s' % name)
        return self.url(name)

    def psql(self, url, sql):
        """Runs sql; the rows as lists of fields (text, '' for NULL)."""
        p = subprocess.run([os.path.join(self.bin, 'psql'), '-X', '-q', '-A', '-t', '-F', '\x1f',
                            '-v', 'ON_ERROR_STOP=1', '-d', url, '-c', sql],
                           capture_output=True, text=True, timeout=60)
        if p.returncode != 0:
            raise RuntimeError('psql: %s' % p.stderr.strip())
        return [line.split('\x1f') for line in p.stdout.splitlines() if line != '']

    def dump(self, url):
        p = subprocess.run([os.path.join(self.bin, 'pg_dump'), '-d', url],
                           capture_output=True, text=True, timeout=120)
        if p.returncode != 0:
            raise RuntimeError('pg_dump: %s' % p.stderr.strip())
        return p.stdout

    def stop(self):
        if self.dir is None:
            return
        subprocess.run([os.path.join(self.bin, 'pg_ctl'), '-D', self.data, '-m', 'immediate',
                        '-w', 'stop'], capture_output=True, timeout=60, cwd=self.dir, **self._kw())
        self._remove()

    def _remove(self):
        shutil.rmtree(self.dir, ignore_errors=True)
        self.dir = None


def literal(v):
    """A value as an SQL literal (tests' own values: ints and short strings)."""
    if v is None:
        return 'NULL'
    if isinstance(v, bool):
        return '1' if v else '0'
    if isinstance(v, int):
        return str(v)
    if isinstance(v, (bytes, bytearray)):
        return "'\\x%s'::bytea" % bytes(v).hex()
    return "'" + str(v).replace("'", "''") + "'"


def inline(sql, params):
    """sql with each ? replaced by the next parameter's literal."""
    parts = sql.split('?')
    if len(parts) - 1 != len(params):
        raise ValueError('%d placeholders, %d parameters' % (len(parts) - 1, len(params)))
    out = parts[0]
    for p, rest in zip(params, parts[1:]):
        out += literal(p) + rest
    return out


def typed(field):
    """A psql field as Python: integers as int, bytea (hex) as bytes."""
    if re.fullmatch(r'-?\d+', field):
        return int(field)
    if re.fullmatch(r'\\x([0-9a-f]{2})*', field):
        return bytes.fromhex(field[2:])
    return field
