"""The end-to-end harness: starts the real arcaded on a free loopback port
with a temporary database and talks HTTP to it, and a small TAP writer.

Every end-to-end test imports this module. The binary comes from the
ARCADED environment variable (meson sets it to the built daemon).

The database is SQLite unless ARCADED_TEST_DATABASE=postgresql (meson
registers every end-to-end test a second time with it): then this process
starts one throwaway PostgreSQL cluster (pgtest.py) on first use, each
Daemon gets a new database in it and a key file in its folder, and
Daemon.sql() and Daemon.dump() read whichever database the daemon uses.
"""
import atexit
import contextlib
import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time


class Tap:
    """Test Anything Protocol output; tap.done() exits non-zero on failure."""

    def __init__(self):
        self.n = 0
        self.failed = 0
        self.lock = threading.Lock()

    def ok(self, cond, name):
        with self.lock:
            self.n += 1
            if not cond:
                self.failed += 1
            # One line per assertion, and no '#' that TAP would read as a
            # directive (a SKIP or TODO hidden in a quoted message).
            name = str(name).replace('\r', '').replace('\n', ' \\n ').replace('#', '\\#')
            print('%sok %d - %s' % ('' if cond else 'not ', self.n, name), flush=True)
        return bool(cond)

    def eq(self, got, want, name):
        if not self.ok(got == want, name):
            self.diag('     got: %r' % (got,))
            self.diag('expected: %r' % (want,))
            return False
        return True

    def diag(self, msg):
        for line in str(msg).splitlines() or ['']:
            print('# ' + line, flush=True)

    def done(self):
        print('1..%d' % self.n, flush=True)
        if self.n == 0:
            print('# no assertions ran')
            sys.exit(1)
        sys.exit(1 if self.failed else 0)


class Response:
    def __init__(self, status, headers, body):
        self.status = status
        self.headers = headers
        self.body = body
        try:
            self.json = json.loads(body) if body else None
        except ValueError:
            self.json = None

    def header(self, name):
        for k, v in self.headers:
            if k.lower() == name.lower():
                return v
        return None

    @property
    def error_code(self):
        if isinstance(self.json, dict) and isinstance(self.json.get('error'), dict):
            return self.json['error'].get('code')
        return None

    def __repr__(self):
        return '<%d %s>' % (self.status, self.body[:300])


class UnixHTTPConnection(http.client.HTTPConnection):
    """HTTP over a unix socket (a daemon started with --listen unix:PATH)."""

    def __init__(self, path, timeout=30):
        super().__init__('localhost', timeout=timeout)
        self.unix_path = path

    def connect(self):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(self.timeout)
        self.sock.connect(self.unix_path)


BACKEND = 'postgresql' if os.environ.get('ARCADED_TEST_DATABASE') == 'postgresql' else 'sqlite'
_cluster = None
_keys = {}  # PostgreSQL URL -> the key file of the daemon that made it
_running = set()  # Daemons started and not stopped yet
_reaper = False


def _stop_running():
    """At exit: a daemon a test left running (it failed before its
    cleanup) dies with the test rather than outliving its folder. Registered
    on the first start, after the PostgreSQL cluster's stop, so it runs
    first."""
    for d in list(_running):
        d.cleanup()


def cluster():
    """This process's PostgreSQL cluster, started on first use."""
    global _cluster
    if _cluster is None:
        import pgtest
        _cluster = pgtest.Cluster()
        atexit.register(_cluster.stop)
    return _cluster


def binary():
    path = os.environ.get('ARCADED')
    if not path:
        sys.exit('ARCADED is not set: run the end-to-end tests through meson test')
    return path


def verify_cli(doc):
    """`arcaded verify` on doc (written to a file): its exit status and what
    it printed (stdout, then stderr)."""
    with tempfile.NamedTemporaryFile('w', suffix='.json', delete=False) as f:
        json.dump(doc, f)
    try:
        p = subprocess.run([binary(), 'verify', f.name], capture_output=True, text=True)
        return p.returncode, p.stdout + p.stderr
    finally:
        os.unlink(f.name)


class Daemon:
    """One arcaded process on 127.0.0.1 with its own folder.

    The folder (database, key file, log) outlives stop() so a test can
    restart the daemon on the same database; cleanup() removes it.
    """

    # Functional tests play faster than any player: unless a test asks for
    # the rate limits (rate_limits=True, with the defaults or its own
    # --rate-limit values), they are off. test_ratelimit.py tests them.
    LIMITS_OFF = ['--rate-limit', 'accounts=off,puzzles=off,runs=off,moves=off,reads=off,verify=off,'
                  'wrong=off']

    # A rate-limited request with a body is answered a second late by
    # default (--refusal-hold-ms, server/tarpit.h); a test of what the
    # limits count wants its refusals at once, and asks for the hold by
    # refusal_hold=True (tests/mcp/test_mcp.py does).
    HOLD_OFF = ['--refusal-hold-ms', '0']

    # Every test's accounts play from one address: with the guards of
    # --fair-ratings (network caps, provisional ratings) no rating would
    # ever rank. They are off unless a test asks (fair_ratings=True:
    # tests/e2e/test_fair_ratings.py).
    FAIR_OFF = ['--fair-ratings', 'off']

    def __init__(self, args=(), env=None, folder=None, listen='127.0.0.1:0', rate_limits=False,
                 refusal_hold=False, fair_ratings=False):
        self.folder = folder or tempfile.mkdtemp(prefix='arcaded-e2e-')
        self.args = ((list(self.LIMITS_OFF) if not rate_limits else []) +
                     ([] if refusal_hold else list(self.HOLD_OFF)) +
                     ([] if fair_ratings else list(self.FAIR_OFF)) + list(args))
        if BACKEND == 'postgresql':
            # A daemon sharing another's database (--db URL in args) shares
            # its key file too, as several daemons behind one proxy do.
            shared = self.args[self.args.index('--db') + 1] if '--db' in self.args else None
            self.db = shared or cluster().create_db()
            if '--key-file' not in self.args:
                key = _keys.get(self.db) or os.path.join(self.folder, 'arcaded.key')
                _keys.setdefault(self.db, key)
                self.args += ['--key-file', key]
        else:
            self.db = os.path.join(self.folder, 'arcaded.db')
        self.listen = listen  # or unix:PATH: then base and port are None
        self.socket_path = None
        self.env = env or {}
        self.proc = None
        self.port = None
        self.log_path = os.path.join(self.folder, 'daemon.log')
        self.start()

    def start(self):
        if self.proc is not None:
            # A second process would take self.proc and leave the first
            # running for good: Daemon() has started one already.
            raise RuntimeError('this Daemon runs already (the constructor starts it; start() follows a stop())')
        env = {k: v for k, v in os.environ.items() if not k.startswith('ARCADED_')}
        env.update(self.env)
        cmd = [binary(), '--listen', self.listen, '--db', self.db] + self.args
        self.log = open(self.log_path, 'ab')
        global _reaper
        if not _reaper:
            atexit.register(_stop_running)
            _reaper = True
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=self.log, env=env)
        _running.add(self)
        line = self._read_line(10.0)
        if 'serving on http://' not in line and 'serving on unix:' not in line:
            self.proc.kill()
            _running.discard(self)
            raise RuntimeError('arcaded did not start: %r; log:\n%s' % (line, self.read_log()))
        url = line.split('serving on ')[1].split()[0]
        if url.startswith('unix:'):
            self.socket_path, self.port, self.base = url[len('unix:'):], None, None
            return
        self.port = int(url.rsplit(':', 1)[1])
        self.base = url

    def _read_line(self, timeout):
        result = []
        t = threading.Thread(target=lambda: result.append(self.proc.stdout.readline()))
        t.daemon = True
        t.start()
        t.join(timeout)
        return result[0].decode('utf-8', 'replace') if result else ''

    def read_log(self):
        try:
            with open(self.log_path, 'rb') as f:
                return f.read().decode('utf-8', 'replace')
        except OSError:
            return ''

    def sql(self, query, params=()):
        """Runs one statement (SQLite's ? placeholders) on the daemon's
        database; the rows as tuples (on PostgreSQL, integers come back as
        int and everything else as text)."""
        if BACKEND == 'postgresql':
            import pgtest
            rows = cluster().psql(self.db, pgtest.inline(query, params))
            return [tuple(pgtest.typed(f) for f in r) for r in rows]
        import sqlite3
        with sqlite3.connect(self.db, timeout=10) as db:
            return [tuple(r) for r in db.execute(query, params).fetchall()]

    @contextlib.contextmanager
    def write_lock(self):
        """Holds the database's write lock (another session's) for the
        body of a with statement: the daemon's reads go on, its writes wait
        out its timeout (5 s) and fail. SQLite: BEGIN IMMEDIATE; PostgreSQL:
        every table locked IN EXCLUSIVE MODE (plain reads still pass)."""
        if BACKEND == 'postgresql':
            import pgtest
            p = subprocess.Popen([os.path.join(pgtest.bindir(), 'psql'), '-X', '-q', '-d', self.db],
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            p.stdin.write('BEGIN;\nLOCK TABLE accounts, agent_keys, runs, moves, reviews, review_stats, '
                          'agent_checks, store_probe IN EXCLUSIVE MODE;\n\\echo locked\n')
            p.stdin.flush()
            if p.stdout.readline().strip() != 'locked':
                p.kill()
                raise RuntimeError('could not lock the PostgreSQL database')
            try:
                yield
            finally:
                p.stdin.write('ROLLBACK;\n\\q\n')
                p.stdin.close()
                p.wait(30)
                p.stdout.close()
            return
        import sqlite3
        db = sqlite3.connect(self.db, timeout=10, isolation_level=None)
        db.execute('BEGIN IMMEDIATE')
        try:
            yield
        finally:
            db.execute('ROLLBACK')
            db.close()

    def dump(self):
        """The whole database as text (SQLite's .dump, or pg_dump)."""
        if BACKEND == 'postgresql':
            return cluster().dump(self.db)
        import sqlite3
        with sqlite3.connect(self.db) as db:
            return '\n'.join(db.iterdump())

    def connection(self, timeout=30):
        if self.socket_path is not None:
            return UnixHTTPConnection(self.socket_path, timeout=timeout)
        return http.client.HTTPConnection('127.0.0.1', self.port, timeout=timeout)

    def request(self, method, path, body=None, headers=None, conn=None, raw=None):
        """One request; body is JSON-encoded unless raw bytes are given."""
        own = conn is None
        conn = conn or self.connection()
        hdrs = dict(headers or {})
        data = raw
        if data is None and body is not None:
            data = json.dumps(body).encode()
        if data is not None:
            # A body is JSON unless the test says otherwise (415 tests do).
            hdrs.setdefault('Content-Type', 'application/json')
        try:
            conn.request(method, path, body=data, headers=hdrs)
            r = conn.getresponse()
            resp = Response(r.status, r.getheaders(), r.read().decode('utf-8', 'replace'))
        finally:
            if own:
                conn.close()
        return resp

    def get(self, path, **kw):
        return self.request('GET', path, **kw)

    def post(self, path, body=None, **kw):
        return self.request('POST', path, body=body, **kw)

    def send_signal(self, sig):
        self.proc.send_signal(sig)

    def stop(self, sig=signal.SIGTERM, timeout=10.0):
        """Stops the daemon; returns (exit status, seconds taken)."""
        if self.proc is None:
            return None, 0.0
        t0 = time.monotonic()
        self.proc.send_signal(sig)
        try:
            rc = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            rc = self.proc.wait()
        elapsed = time.monotonic() - t0
        self.proc.stdout.close()
        self.log.close()
        self.proc = None
        _running.discard(self)
        return rc, elapsed

    def restart(self):
        self.stop()
        self.start()

    def cleanup(self):
        if self.proc is not None:
            self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)


def source_files(root):
    """The files of the source tree at root, relative to it: git's list in a
    checkout (untracked files it does not ignore included, so that uncommitted
    work is in it), else a walk that leaves out build folders and installed
    packages."""
    p = subprocess.run(['git', '-C', root, 'ls-files', '-z', '--cached', '--others', '--exclude-standard'],
                       capture_output=True)
    if p.returncode == 0 and p.stdout:
        return [f for f in p.stdout.decode().split('\0') if f]
    out = []
    for d, dirs, names in os.walk(root):
        dirs[:] = [x for x in dirs if not x.startswith(('build', '.')) and x != 'node_modules']
        out += [os.path.relpath(os.path.join(d, n), root) for n in names]
    return out


def copy_source_tree(root, dst):
    """Copies the source tree at root (source_files) into the folder dst, modes
    kept (./dev stays executable) and no build folder: a fresh checkout's
    files. A file git lists that the work tree has deleted is left out.
    Returns the number of files copied."""
    n = 0
    for rel in source_files(root):
        src = os.path.join(root, rel)
        if not os.path.isfile(src):
            continue
        out = os.path.join(dst, rel)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        shutil.copy2(src, out)
        n += 1
    return n


def run_binary(args, env=None, timeout=30):
    """Runs arcaded with args to completion: (status, stdout, stderr)."""
    e = {k: v for k, v in os.environ.items() if not k.startswith('ARCADED_')}
    e.update(env or {})
    args = list(args)
    db = args[args.index('--db') + 1] if '--db' in args[:-1] else None
    if db in _keys and '--key-file' not in args:
        args += ['--key-file', _keys[db]]
    p = subprocess.run([binary()] + args, capture_output=True, env=e, timeout=timeout)
    return p.returncode, p.stdout.decode('utf-8', 'replace'), p.stderr.decode('utf-8', 'replace')


def raw_exchange(port, data, read_timeout=5.0, send_after=None):
    """Sends raw bytes on a fresh socket and reads until the server closes
    or read_timeout passes; returns the bytes received."""
    s = socket.create_connection(('127.0.0.1', port), timeout=read_timeout)
    try:
        s.sendall(data)
        if send_after is not None:
            try:
                s.sendall(send_after)
            except OSError:
                pass
        chunks = []
        while True:
            try:
                c = s.recv(65536)
            except socket.timeout:
                break
            except OSError:
                break
            if not c:
                break
            chunks.append(c)
        return b''.join(chunks)
    finally:
        s.close()


def puzzle_answer(d, token):
    """The stored answer of an agent-check puzzle, read from the daemon's
    database (tests only: the blind solver in puzzle_solver.py shows the
    puzzles can be read; this keeps the game tests independent of it)."""
    rows = d.sql('SELECT answer FROM agent_checks WHERE token = ?', (token,))
    return rows[0][0] if rows else None


def checked(d, r, headers=None):
    """Headers that answer the agent check carried by response r."""
    h = dict(headers or {})
    ac = r.json.get('agent_check') if isinstance(r.json, dict) else None
    if ac:
        h['X-Agent-Check'] = ac['token']
        # A puzzle already spent has no stored answer: send a number all
        # the same (a word would be 400, not the 428 such a test expects).
        ans = puzzle_answer(d, ac['token'])
        h['X-Agent-Answer'] = str(ans if ans is not None else 0)
    return h
