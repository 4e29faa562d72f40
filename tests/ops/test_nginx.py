"""A real nginx running the shipped deploy/nginx.conf in front of arcaded.

The site file runs unchanged apart from paths and ports, by one rule
(substitute() below; the test checks it by undoing it): the upstream's
socket paths become the daemons' (the commented standby line is
uncommented when a second daemon runs); `listen 80;` and `listen 443 ...`
become loopback ports; /var/log/nginx/ and /etc/ssl/arcaded/ become
folders of a scratch folder; and, for the TLS checks, the commented server
block between `#server {` and `#}` inside the TLS markers loses one `#` at
the start of each line.
A small main configuration of the test's own (as /etc/nginx/nginx.conf
is an operator's) includes the site.

nginx comes from Debian (./dev installs it); it runs as the current user,
or as `nobody` when the test runs as root, on 127.0.0.1 only. A missing
nginx or one that does not start is a failure, never a skip. Everything
the test makes lives in one scratch folder, removed at the end.

Through nginx it plays the README's curl sessions, follows request ids and
client addresses from nginx's access log to the daemon's, provokes each
limit nginx enforces and checks what nginx answers (the JSON envelope, or
a close), checks that no query string reaches a log, talks TLS to the
commented server block, follows a versus match's long poll past
proxy_read_timeout and its event stream as events come, and stops the
daemons under it (504, 502).
"""
import http.client
import json
import os
import pwd
import re
import shutil
import signal
import socket
import ssl
import subprocess
import tempfile
import threading
import time

from harness import Daemon, Response, Tap, binary

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
SITE = os.path.join(ROOT, 'deploy', 'nginx.conf')
SOCKET = '/run/arcaded/arcaded.sock'
STANDBY = '/run/arcaded-standby/arcaded.sock'
TLS_BEGIN = '# --- TLS server (begin)'
TLS_END = '# --- TLS server (end)'
HEX32 = re.compile(r'^[0-9a-f]{32}$')


# --- The substitution rule and its inverse -----------------------------------

def _tls_span(lines):
    """Indexes of the commented TLS server block: `#server {` .. `#}`."""
    begin = next(i for i, l in enumerate(lines) if l.startswith(TLS_BEGIN))
    end = next(i for i, l in enumerate(lines) if l.startswith(TLS_END))
    first = next(i for i in range(begin, end) if lines[i] == '#server {')
    last = max(i for i in range(first, end) if lines[i] == '#}')
    return first, last


def substitute(text, sockets, folder, port, tls_port=None):
    out = []
    lines = text.split('\n')
    span = _tls_span(lines) if tls_port is not None else (-1, -2)
    for i, line in enumerate(lines):
        if span[0] <= i <= span[1]:
            line = line[1:]
        line = line.replace('/var/log/nginx/', folder + '/logs/')
        line = line.replace('/etc/ssl/arcaded/', folder + '/ssl/')
        if line.strip() == 'listen 80;':
            line = line.replace('listen 80;', 'listen 127.0.0.1:%d;' % port)
        if tls_port is not None and line.strip().startswith('listen 443 '):
            line = line.replace('listen 443 ', 'listen 127.0.0.1:%d ' % tls_port)
        if line.strip().startswith('server unix:' + SOCKET):
            line = line.replace(SOCKET, sockets[0])
        if line.strip().startswith('#server unix:' + STANDBY) and len(sockets) > 1:
            line = line.replace('#server unix:' + STANDBY, 'server unix:' + sockets[1])
        out.append(line)
    return '\n'.join(out)


def unsubstitute(text, sockets, folder, port, tls_port=None):
    """The inverse of substitute(): equal to the shipped file when the rule
    changed nothing else."""
    out = []
    for line in text.split('\n'):
        line = line.replace('server unix:' + sockets[0], 'server unix:' + SOCKET)
        if len(sockets) > 1:
            line = line.replace('server unix:' + sockets[1], '#server unix:' + STANDBY)
        line = line.replace('listen 127.0.0.1:%d;' % port, 'listen 80;')
        if tls_port is not None:
            line = line.replace('listen 127.0.0.1:%d ' % tls_port, 'listen 443 ')
        line = line.replace(folder + '/logs/', '/var/log/nginx/')
        line = line.replace(folder + '/ssl/', '/etc/ssl/arcaded/')
        out.append(line)
    if tls_port is not None:
        begin = next(i for i, l in enumerate(out) if l.startswith(TLS_BEGIN))
        first = next(i for i in range(begin, len(out)) if out[i] == 'server {')
        last = next(i for i in range(first, len(out)) if out[i] == '}')
        for i in range(first, last + 1):
            out[i] = '#' + out[i]
    return '\n'.join(out)


def server_blocks(text):
    """The directives of each top-level server block, comments and blank
    lines dropped, in order."""
    blocks, cur, depth = [], None, 0
    for raw in text.split('\n'):
        line = raw.split('#', 1)[0].strip()
        if cur is None:
            if line == 'server {':
                cur, depth = [], 1
            continue
        if not line:
            continue
        depth += line.count('{') - line.count('}')
        if depth == 0:
            blocks.append(cur)
            cur = None
            continue
        cur.append(line)
    return blocks


def directive(text, name):
    """The arguments of the first directive called name in the HTTP server."""
    for line in server_blocks(text)[0]:
        if line.startswith(name + ' '):
            return line[len(name) + 1:].rstrip(';').split()
    raise KeyError(name)


def seconds(v):
    return float(v[:-1]) if v.endswith('s') else float(v)


def size(v):
    units = {'k': 1024, 'm': 1024 * 1024}
    return int(v[:-1]) * units[v[-1].lower()] if v[-1].lower() in units else int(v)


# --- Running nginx -------------------------------------------------------------

def nginx_binary():
    return shutil.which('nginx') or next(
        (p for p in ('/usr/sbin/nginx', '/usr/local/sbin/nginx') if os.access(p, os.X_OK)), None)


def free_port():
    s = socket.socket()
    s.bind(('127.0.0.1', 0))
    port = s.getsockname()[1]
    s.close()
    return port


def run_as():
    """(uid, gid) for nginx and the scratch files it writes: nobody when
    the test runs as root, else ourselves."""
    if os.getuid() != 0:
        return os.getuid(), os.getgid()
    pw = pwd.getpwnam('nobody')
    return pw.pw_uid, pw.pw_gid


MAIN_CONF = """# The test's main configuration; the site is deploy/nginx.conf, substituted.
worker_processes 1;
daemon off;
pid {d}/nginx.pid;
error_log {d}/logs/main.error.log info;
events {{ worker_connections 512; }}
http {{
	default_type application/octet-stream;
	client_body_temp_path {d}/tmp/body;
	proxy_temp_path {d}/tmp/proxy;
	fastcgi_temp_path {d}/tmp/fastcgi;
	uwsgi_temp_path {d}/tmp/uwsgi;
	scgi_temp_path {d}/tmp/scgi;
	include {d}/site.conf;
}}
"""


class Nginx:
    """One nginx in folder d (made here, owned by the user nginx runs as)."""

    def __init__(self, d, site_text):
        self.d = d
        self.uid, self.gid = run_as()
        for sub in ('', 'logs', 'tmp', 'ssl'):
            os.makedirs(os.path.join(d, sub), exist_ok=True)
        with open(os.path.join(d, 'site.conf'), 'w') as f:
            f.write(site_text)
        with open(os.path.join(d, 'nginx.conf'), 'w') as f:
            f.write(MAIN_CONF.format(d=d))
        for dirpath, dirnames, filenames in os.walk(d):
            for n in [dirpath] + [os.path.join(dirpath, x) for x in filenames]:
                os.chown(n, self.uid, self.gid)
        self.proc = None

    def command(self, *extra):
        return [nginx_binary(), '-p', self.d, '-c', os.path.join(self.d, 'nginx.conf'),
                '-e', os.path.join(self.d, 'logs', 'main.error.log')] + list(extra)

    def _popen_kw(self):
        if os.getuid() == 0:
            return {'user': self.uid, 'group': self.gid, 'extra_groups': []}
        return {}

    def check(self):
        p = subprocess.run(self.command('-t', '-q'), capture_output=True, text=True,
                           timeout=30, **self._popen_kw())
        return p.returncode, p.stderr

    def start(self, ports):
        self.proc = subprocess.Popen(self.command(), stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, **self._popen_kw())
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError('nginx exited: %s' % self.proc.stderr.read().decode())
            try:
                for p in ports:
                    socket.create_connection(('127.0.0.1', p), timeout=1).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError('nginx did not listen on %s' % (ports,))

    def stop(self):
        if self.proc is None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc.stderr.close()
        self.proc = None

    def log(self, name):
        try:
            with open(os.path.join(self.d, 'logs', name), 'rb') as f:
                return f.read().decode('utf-8', 'replace')
        except OSError:
            return ''


# --- Talking to it -----------------------------------------------------------------

def request(port, method, path, headers=None, body=None, source='127.0.0.1', timeout=30,
            tls=None):
    """One request on a fresh connection from the given loopback address."""
    if tls is not None:
        conn = http.client.HTTPSConnection('127.0.0.1', port, timeout=timeout,
                                           source_address=(source, 0), context=tls)
    else:
        conn = http.client.HTTPConnection('127.0.0.1', port, timeout=timeout,
                                          source_address=(source, 0))
    try:
        conn.request(method, path, body=body, headers=dict(headers or {}))
        r = conn.getresponse()
        resp = Response(r.status, r.getheaders(), r.read().decode('utf-8', 'replace'))
        if tls is not None:
            resp.tls = conn.sock.version(), conn.sock.cipher()
        return resp
    finally:
        conn.close()


def raw(port, data, wait=5.0, source='127.0.0.1'):
    """Sends raw bytes; returns (bytes received until the server closed or
    wait passed, seconds until then, whether the server closed)."""
    s = socket.create_connection(('127.0.0.1', port), timeout=wait, source_address=(source, 0))
    t0 = time.monotonic()
    chunks, closed = [], False
    try:
        s.sendall(data)
        while True:
            try:
                c = s.recv(65536)
            except socket.timeout:
                break
            except ConnectionResetError:
                closed = True
                break
            if not c:
                closed = True
                break
            chunks.append(c)
    finally:
        s.close()
    return b''.join(chunks), time.monotonic() - t0, closed


def parse_http(data):
    """A Response from raw bytes of one answer, or None."""
    head, sep, body = data.partition(b'\r\n\r\n')
    if not sep:
        return None
    lines = head.decode('latin-1').split('\r\n')
    parts = lines[0].split(' ', 2)
    headers = [tuple(x.strip() for x in l.split(':', 1)) for l in lines[1:] if ':' in l]
    return Response(int(parts[1]), headers, body.decode('utf-8', 'replace'))


ACCESS = re.compile(r'^(\S+) \[[^\]]+\] "(\S*) ([^"]*)" (\d+) \d+ \S+ id=(\S+) upstream=(.*)$')
DAEMON = re.compile(r' access (\S+) (\S+) (\d+) \d+us id=(\S+) from (\S+)')


def nginx_access(text):
    """[(client, method, uri, status, id, upstream)] from nginx's access log."""
    out = []
    for line in text.splitlines():
        m = ACCESS.match(line)
        if m:
            out.append((m.group(1), m.group(2), m.group(3), int(m.group(4)), m.group(5),
                        m.group(6)))
    return out


def daemon_access(text):
    """[(method, path, status, id, client)] from the daemon's log."""
    return [(m.group(1), m.group(2), int(m.group(3)), m.group(4), m.group(5))
            for m in DAEMON.finditer(text)]


def readme_blocks():
    """The README's curl sessions, extracted as test_readme.py does."""
    with open(os.path.join(ROOT, 'README.md')) as f:
        readme = f.read()
    return dict(re.findall(r'<!-- readme-test: (\w+) -->\n```sh\n(.*?)```', readme, re.S))


def run_readme(block, url):
    """Runs one session with bash from a scratch folder that links tests/
    and build/, as test_readme.py does; ARCADED_URL is nginx."""
    scratch = tempfile.mkdtemp(prefix='arcaded-readme-')
    try:
        os.symlink(os.path.join(ROOT, 'tests'), os.path.join(scratch, 'tests'))
        os.symlink(os.path.dirname(os.path.dirname(binary())), os.path.join(scratch, 'build'))
        env = dict(os.environ, ARCADED_URL=url)
        p = subprocess.run(['bash', '-euo', 'pipefail', '-c', block], cwd=scratch, env=env,
                           capture_output=True, text=True, timeout=120)
        return p.returncode, p.stdout, p.stderr
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def wait_for(fn, timeout=3.0):
    """fn() once it is truthy, or its last value after timeout: logs are
    written when a request completes, which may be just after the client
    has its answer."""
    deadline = time.monotonic() + timeout
    while True:
        v = fn()
        if v or time.monotonic() >= deadline:
            return v
        time.sleep(0.05)


def proc_state(pid):
    """The state letters of the process's threads (/proc/PID/task/*/stat),
    'T' when every one is stopped, None when the process is gone."""
    try:
        states = set()
        for tid in os.listdir('/proc/%d/task' % pid):
            with open('/proc/%d/task/%s/stat' % (pid, tid)) as f:
                states.add(f.read().rsplit(')', 1)[1].split()[0])
        return ''.join(sorted(states))
    except (OSError, IndexError):
        return None


def unix_daemon(scratch, name, args=()):
    """A daemon on a unix socket in its own folder. The socket is 0660 (the
    daemon's choice): nginx reaches it through the socket's group, as
    www-data does under deploy/arcaded.service."""
    folder = os.path.join(scratch, name)
    os.mkdir(folder)
    os.chmod(folder, 0o711)
    d = Daemon(folder=folder, listen='unix:' + os.path.join(folder, 'arcaded.sock'), args=args)
    os.chown(d.socket_path, -1, run_as()[1])
    return d


def make_cert(folder):
    """A throwaway self-signed certificate for 127.0.0.1, as fullchain.pem
    and privkey.pem (the names the site file uses)."""
    os.makedirs(folder, exist_ok=True)
    p = subprocess.run(['openssl', 'req', '-x509', '-newkey', 'ec', '-pkeyopt',
                        'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
                        '-subj', '/CN=arcaded test', '-addext', 'subjectAltName=IP:127.0.0.1',
                        '-keyout', os.path.join(folder, 'privkey.pem'),
                        '-out', os.path.join(folder, 'fullchain.pem')],
                       capture_output=True, text=True, timeout=60)
    return p.returncode == 0, p.stderr


class Checks:
    """The assertions, with what they share: the TAP writer, the shipped
    site text, the limits read from it, and the answers nginx made itself."""

    def __init__(self, t, text):
        self.t = t
        self.text = text
        self.own = []  # (id, status) of answers nginx made by itself

    def envelope(self, r, status, code, what):
        """An error nginx made: status, the JSON envelope, its headers."""
        t = self.t
        if r is None:
            t.ok(False, what + ': an HTTP answer')
            return False
        ok = t.eq(r.status, status, what + ': status %d' % status)
        err = r.json.get('error') if isinstance(r.json, dict) else None
        ok &= t.ok(isinstance(err, dict) and err.get('code') == code and
                   isinstance(err.get('message'), str) and err['message'] != '',
                   what + ': the JSON error envelope, code %s' % code)
        if not ok:
            t.diag(repr(r) + ' ' + repr(r.headers))
        ctype = r.header('Content-Type') or ''
        rid = r.header('X-Request-Id') or ''
        t.ok(ctype.startswith('application/json') and HEX32.match(rid),
             what + ': Content-Type application/json and nginx\'s X-Request-Id (%s, %s)' % (ctype, rid))
        self.own.append((rid, r.status))
        return ok

    def logged(self, n, which):
        """Each answer nginx n made itself is in its access log."""
        ids = {i for i, _ in self.own}

        def entries():
            found = [e for e in nginx_access(n.log('arcaded.access.log')) if e[4] in ids]
            return found if {e[4] for e in found} == ids else None
        logged = {(e[4], e[3]) for e in wait_for(entries) or
                  [e for e in nginx_access(n.log('arcaded.access.log')) if e[4] in ids]}
        missing = [x for x in self.own if x not in logged]
        self.t.ok(self.own and not missing, '%s: each of the %d answers nginx made itself is in '
                  'its access log under its id and status' % (which, len(self.own)))
        for x in missing:
            self.t.diag('not logged: %s %s' % x)
        self.own = []


def check_config(c, nginx_dir, sockets, port, tls_port):
    t, text = c.t, c.text
    site = substitute(text, sockets, nginx_dir, port, tls_port)
    t.ok(unsubstitute(site, sockets, nginx_dir, port, tls_port) == text,
         'the site runs as shipped but for the substitution rule (undoing it gives the file back)')
    old, new = text.split('\n'), site.split('\n')
    first, last = _tls_span(old)
    tls_block = set(old[first:last + 1])
    changed = [l for l in new if l not in old and '#' + l not in tls_block and
               not l.lstrip().startswith('#')]
    for l in changed:
        t.diag('substituted: ' + l.strip())
    t.diag('and %d lines of the TLS server block uncommented' % (last - first + 1))
    listens = [l.strip() for l in new if l.strip().startswith('listen ')]
    t.ok(listens and all(l.startswith('listen 127.0.0.1:') for l in listens),
         'every server of the test listens on 127.0.0.1 only (%s)' % listens)

    plain, tls = server_blocks(site)
    tls_only = ('listen ', 'ssl_', 'add_header Strict-Transport-Security', 'error_page 497 ')
    kept = [l for l in tls if not l.startswith(tls_only)]
    if not t.eq(kept, [l for l in plain if not l.startswith('listen ')],
                'the TLS server says what the HTTP server says, plus TLS'):
        for l in set(kept) ^ set(plain):
            t.diag('differs: ' + l)
    return site


def check_readme(c, n, d, url):
    t = c.t
    blocks = readme_blocks()
    if not t.ok({'duskcourt', 'replay', 'stackfall'} <= set(blocks), 'the README has its curl sessions'):
        return
    rc, out, err = run_readme(blocks['duskcourt'], url)
    t.eq(rc, 0, 'README through nginx: the Duskcourt session runs without an error')
    t.ok('{"phase":"done","score":90}' in out.splitlines() and
         out.splitlines()[-1].startswith('v4.public.'),
         'it clears rung 1 for 90 points and gets a certificate')
    if rc:
        t.diag(err[-1500:])
    rc, out, err = run_readme(blocks['replay'], url)
    t.eq(rc, 0, 'README through nginx: the replay session runs without an error')
    t.ok('valid: duskcourt replay, 3 actions' in out and '{"valid":true' in out and
         '"certificate":true}' in out, 'the replay verifies locally and on the server')
    if rc:
        t.diag(err[-1500:])
    rc, out, err = run_readme(blocks['stackfall'], url)
    t.eq(rc, 0, 'README through nginx: the Stackfall session runs without an error')
    t.ok('{"status":"over","end_reason":"resigned"' in out and '"final":{' in out,
         'it resigns and finishes')
    if rc:
        t.diag(err[-1500:])

    # Every request nginx passed on reached the daemon under nginx's id,
    # and the daemon named the real client, not its unix-socket peer.
    def ids():
        proxied = {e[4] for e in nginx_access(n.log('arcaded.access.log')) if e[5] != '- - -'}
        daemon = {e[3] for e in daemon_access(d.read_log())}
        return (proxied, daemon) if proxied == daemon else None
    got = wait_for(ids)
    proxied = {e[4] for e in nginx_access(n.log('arcaded.access.log')) if e[5] != '- - -'}
    daemon = daemon_access(d.read_log())
    t.ok(got is not None and len(proxied) > 0,
         'the daemon logged exactly the %d requests nginx passed on, under nginx\'s request ids'
         % len(proxied))
    if got is None:
        t.diag('nginx only: %s' % sorted(proxied - {e[3] for e in daemon})[:5])
        t.diag('daemon only: %s' % sorted({e[3] for e in daemon} - proxied)[:5])
    # (The versus match running beside this comes from addresses of its own.)
    clients = {e[4]: e[0] for e in nginx_access(n.log('arcaded.access.log'))}
    t.ok(daemon and all(e[4] == clients.get(e[3]) and e[4].startswith('127.0.0.') for e in daemon),
         'the daemon names each client as nginx saw it (from X-Forwarded-For), not its unix peer')


def check_ids_and_addresses(c, n, d, port, direct):
    t = c.t
    forged = {'X-Request-Id': 'forged-by-client', 'X-Forwarded-For': '203.0.113.7'}
    r = request(port, 'GET', '/healthz', headers=forged, source='127.0.0.2')
    rid = r.header('X-Request-Id') or ''
    t.ok(r.status == 200 and HEX32.match(rid) and len(r.headers) and
         [v for k, v in r.headers if k.lower() == 'x-request-id'] == [rid],
         'through nginx: one X-Request-Id on the answer, nginx\'s own (%s), not the client\'s' % rid)
    line = wait_for(lambda: [e for e in nginx_access(n.log('arcaded.access.log')) if e[4] == rid])
    dline = wait_for(lambda: [e for e in daemon_access(d.read_log()) if e[3] == rid])
    t.ok(line and line[0][0] == '127.0.0.2' and dline and dline[0][1] == '/healthz',
         'the same id in nginx\'s access log and in the daemon\'s access line')
    t.eq(dline[0][4] if dline else None, '127.0.0.2',
         'the daemon logs the client nginx saw (127.0.0.2), not the forged X-Forwarded-For')

    # The daemon on TCP without --trusted-proxy believes neither header.
    r = direct.get('/healthz', headers=forged)
    rid = r.header('X-Request-Id') or ''
    dline = wait_for(lambda: [e for e in daemon_access(direct.read_log()) if e[3] == rid])
    t.ok(r.status == 200 and rid != forged['X-Request-Id'] and dline,
         'a daemon on TCP without --trusted-proxy ignores a client\'s X-Request-Id')
    t.eq(dline[0][4] if dline else None, '127.0.0.1',
         'and logs the TCP peer, not the forged X-Forwarded-For')


def check_own_errors(c, n, d, port, direct, secret):
    """Each error nginx makes by itself, with the daemon's answer to the
    same mistake where the daemon has one (the code must agree)."""
    t, text = c.t, c.text
    limit = size(directive(text, 'client_max_body_size')[0])
    nbuf, bufsize = directive(text, 'large_client_header_buffers')
    nbuf, bufsize = int(nbuf), size(bufsize)

    # 413: the declared length is refused before any body is read.
    mine = direct.request('POST', '/api/v1/accounts', raw=b'{' + b' ' * (70000) + b'}',
                          headers={'Content-Type': 'application/json'})
    data, _, _ = raw(port, b'POST /api/v1/accounts?stateToken=%s HTTP/1.1\r\nHost: x\r\n'
                     b'Content-Type: application/json\r\nContent-Length: %d\r\n\r\n'
                     % (secret.encode(), limit + 1), wait=2)
    r = parse_http(data)
    if c.envelope(r, 413, mine.error_code or 'payload_too_large', 'a body over client_max_body_size'):
        t.eq(r.json['error']['message'], mine.json['error']['message'],
             '413: nginx and the daemon say the same')
    chunk = b'x' * (limit + 1)
    data, _, _ = raw(port, b'POST /api/v1/accounts HTTP/1.1\r\nHost: x\r\n'
                     b'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n'
                     b'%x\r\n%s\r\n0\r\n\r\n' % (len(chunk), chunk), wait=2)
    c.envelope(parse_http(data), 413, mine.error_code or 'payload_too_large',
               'a chunked body over client_max_body_size')
    body = b'{"name": "' + b'x' * (limit - 12) + b'"}'
    r = request(port, 'POST', '/api/v1/accounts', body=body,
                headers={'Content-Type': 'application/json'})
    rid = r.header('X-Request-Id')
    t.ok(len(body) == limit and r.status != 413 and
         wait_for(lambda: [e for e in daemon_access(d.read_log()) if e[3] == rid]),
         'a body of exactly %d bytes passes nginx and the daemon answers it (%d %s)'
         % (limit, r.status, r.error_code))

    # 414: a request line longer than one large header buffer.
    data, _, _ = raw(port, b'GET /' + b'a' * bufsize + b' HTTP/1.1\r\nHost: x\r\n\r\n', wait=2)
    c.envelope(parse_http(data), 414, 'uri_too_long', 'a request line over %d bytes' % bufsize)

    # Headers: whatever nginx lets through, the daemon reads (it has 16 KiB
    # for headers); past nginx's buffers, nginx answers 431 in JSON.
    seen = []
    for k in range(1, nbuf + 3):
        hdrs = b''.join(b'X-Pad-%d: %s\r\n' % (i, b'p' * (bufsize - 200)) for i in range(k))
        data, _, _ = raw(port, b'GET /healthz HTTP/1.1\r\nHost: x\r\n' + hdrs +
                         b'Connection: close\r\n\r\n', wait=2)
        r = parse_http(data)
        seen.append((k, r.status if r else None, r.error_code if r else None))
    passed = [k for k, s, _ in seen if s == 200]
    refused = [k for k, s, e in seen if s == 431 and e == 'headers_too_large']
    t.ok(passed and refused and max(passed) < min(refused) and
         len(passed) + len(refused) == len(seen),
         'header blocks of %d-byte lines: the daemon answers up to %d lines, nginx refuses more '
         'with a JSON 431 (%s)' % (bufsize - 200, max(passed or [0]), seen))
    data, _, _ = raw(port, b'GET /healthz HTTP/1.1\r\nHost: x\r\nX-Long: ' + b'p' * bufsize +
                     b'\r\n\r\n', wait=2)
    c.envelope(parse_http(data), 431, 'headers_too_large', 'one header line over %d bytes' % bufsize)

    # 400: the daemon's code for a malformed request, the same from nginx.
    mine = direct.get('/api/games/duskcourt/state')
    data, _, _ = raw(port, b'GET /healthz?stateToken=%s HTTP/1.1\r\n\r\n' % secret.encode(), wait=2)
    c.envelope(parse_http(data), 400, mine.error_code, 'an HTTP/1.1 request without Host')
    data, _, _ = raw(port, b'NOT HTTP AT ALL\r\n\r\n', wait=2)
    c.envelope(parse_http(data), 400, mine.error_code, 'a request line nginx cannot read')

    # 405 and 501: what nginx refuses to pass on.
    mine = direct.request('DELETE', '/healthz')
    data, _, _ = raw(port, b'TRACE /healthz HTTP/1.1\r\nHost: x\r\n\r\n', wait=2)
    c.envelope(parse_http(data), 405, mine.error_code, 'TRACE')
    data, _, _ = raw(port, b'POST /api/v1/accounts HTTP/1.1\r\nHost: x\r\n'
                     b'Transfer-Encoding: gzip\r\n\r\n', wait=2)
    c.envelope(parse_http(data), 501, 'not_implemented', 'a transfer coding nginx does not know')

    # 404: nginx's own, for the internal error location asked for directly;
    # the daemon's code for an unknown route.
    mine = direct.get('/no/such/route')
    r = request(port, 'GET', '/.arcaded-error')
    c.envelope(r, 404, mine.error_code, 'the internal error location asked for directly')

    # 403: /metrics is for this machine only.
    r = request(port, 'GET', '/metrics', source='127.0.0.2')
    c.envelope(r, 403, 'forbidden', '/metrics from another address')
    r = request(port, 'GET', '/metrics')
    t.ok(r.status == 200 and 'arcaded_requests_total' in r.body,
         '/metrics from 127.0.0.1 reaches the daemon')

    # A query string that reaches the daemon, and one answered by nginx.
    r = request(port, 'GET', '/api/games/duskcourt/state?stateToken=' + secret)
    t.eq((r.status, r.error_code), (400, 'invalid_state_token'),
         'a GET with a stateToken in its query reaches the daemon')


def req_limits(text):
    opts = dict(a.split('=', 1) for a in directive(text, 'limit_req') if '=' in a)
    return int(opts['burst']), float(re.search(r'rate=(\d+)r/s', text).group(1))


def check_limit_conn(c, n, port, secret):
    t, text = c.t, c.text
    nconn = int(directive(text, 'limit_conn')[1])
    burst, rate = req_limits(text)

    # limit_conn counts requests in progress: POSTs whose header is in and
    # whose body never comes hold their slot until client_body_timeout.
    time.sleep((burst + 1) / rate)  # a full limit_req bucket
    holders = []

    def hold(k):
        while len(holders) < k:
            s = socket.create_connection(('127.0.0.1', port), timeout=5)
            s.sendall(b'POST /api/v1/accounts HTTP/1.1\r\nHost: x\r\n'
                      b'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n')
            holders.append(s)
        time.sleep(0.3)  # nginx reads them

    try:
        hold(nconn - 1)
        r = request(port, 'GET', '/healthz')
        t.eq(r.status, 200, 'limit_conn: with %d requests in progress one more passes' % (nconn - 1))
        hold(nconn)
        # nginx counts a holder once it has read its header: give it time.
        for _ in range(10):
            r = request(port, 'GET', '/healthz?stateToken=' + secret)
            if r.status != 200:
                break
            time.sleep(0.3)
        if c.envelope(r, 429, 'rate_limited', 'limit_conn: request %d in progress' % (nconn + 1)):
            t.ok('connections' in r.json['error']['message'] and r.header('Retry-After') == '1' and
                 isinstance(r.json.get('ratelimit'), dict),
                 'limit_conn: the message names connections; Retry-After and ratelimit are set')
    finally:
        for s in holders:
            s.close()


def check_limit_req(c, n, port, secret):
    t, text = c.t, c.text
    burst, rate = req_limits(text)
    # limit_req: a burst as fast as one connection goes. A token bucket of
    # `burst` + 1 refilled at `rate` per second lets through at most
    # burst + 1 + rate * elapsed requests before the first refusal.
    time.sleep((burst + 1) / rate + 0.5)
    conn = http.client.HTTPConnection('127.0.0.1', port, timeout=10)
    passed, first = 0, None
    t0 = time.monotonic()
    try:
        for _ in range(3 * burst + 10):
            conn.request('GET', '/healthz?stateToken=' + secret)
            r = conn.getresponse()
            body = r.read().decode()
            if r.status == 429:
                first = Response(r.status, r.getheaders(), body)
                break
            passed += 1
    finally:
        conn.close()
    elapsed = time.monotonic() - t0
    t.ok(first is not None and burst + 1 <= passed <= burst + 2 + rate * elapsed,
         'limit_req: %d requests pass in %.2f s before the first refusal (burst %d, %g/s)'
         % (passed, elapsed, burst, rate))
    if c.envelope(first, 429, 'rate_limited', 'limit_req: past the burst'):
        t.ok(first.header('Retry-After') == '1' and first.json.get('ratelimit', {}).get('seconds') == 1,
             'limit_req: Retry-After: 1 and "ratelimit": {"seconds": 1}')


def timeouts(port, text):
    """Starts the slow clients; returns a function that joins them."""
    res = {}
    cases = {
        'header': b'GET /healthz HTTP/1.1\r\nHost: x\r\n',
        'body': b'POST /api/v1/accounts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n'
                b'Content-Length: 100\r\n\r\n{"name": ',
    }
    threads = [threading.Thread(target=lambda k=k, v=v: res.__setitem__(k, raw(port, v, wait=40)))
               for k, v in cases.items()]
    for th in threads:
        th.start()

    def join():
        for th in threads:
            th.join()
        return res
    return join


def check_timeouts(c, n, res):
    t, text = c.t, c.text
    for what, name in (('header', 'client_header_timeout'), ('body', 'client_body_timeout')):
        limit = seconds(directive(text, name)[0])
        data, took, closed = res.get(what, (None, 0, False))
        r = parse_http(data) if data else None
        t.ok(closed and limit - 0.5 <= took <= limit + 5 and
             (not data or (r is not None and r.status == 408 and r.error_code)),
             '%s timeout (%g s): nginx %s after %.1f s' %
             (what, limit, 'closes without an answer' if not data else 'answers %r' % data[:60], took))
    n408 = [e for e in nginx_access(n.log('arcaded.access.log')) if e[3] == 408]
    t.eq(len(n408), 2, 'and logs each as 408')


def matches(port):
    """A versus match through nginx, in threads (it takes 12 s): a long poll,
    an event stream and an MCP wait_match opened in the lobby, and the join that starts the
    match 11.5 s later, past proxy_read_timeout. Returns a function that
    joins them and returns what they saw. Its requests come from addresses
    of their own, so that the per-address limits tested beside it are not
    touched."""
    res = {}
    json_type = {'Content-Type': 'application/json'}

    def post(path, body, key=None, source='127.0.0.71'):
        h = dict(json_type)
        if key:
            h['Authorization'] = 'Bearer ' + key
        return request(port, 'POST', path, headers=h, body=json.dumps(body).encode(), source=source)

    def poll(mid):
        t0 = time.monotonic()
        r = request(port, 'GET', '/api/matches/%s/wait?after=0' % mid, source='127.0.0.72',
                    timeout=60)
        res['poll'] = (r, time.monotonic() - t0)

    def mcp_wait(mid):
        t0 = time.monotonic()
        body = {'jsonrpc': '2.0', 'id': 1, 'method': 'tools/call',
                'params': {'name': 'wait_match', 'arguments': {'matchId': str(mid), 'afterTurn': 0}}}
        r = request(port, 'POST', '/mcp', headers={
            'Content-Type': 'application/json', 'Accept': 'application/json, text/event-stream',
            'MCP-Protocol-Version': '2025-11-25'}, body=json.dumps(body).encode(), source='127.0.0.75',
            timeout=60)
        res['mcp'] = (r, time.monotonic() - t0)

    def stream(mid):
        s = socket.create_connection(('127.0.0.1', port), timeout=30, source_address=('127.0.0.73', 0))
        s.sendall(('GET /api/matches/%s/events HTTP/1.1\r\nHost: x\r\n\r\n' % mid).encode())
        buf, seen = b'', {}
        deadline = time.monotonic() + 30
        try:
            while time.monotonic() < deadline and b'"status":"playing"' not in buf:
                chunk = s.recv(65536)
                if not chunk:
                    break
                buf += chunk
                if b'"status":"lobby"' in buf:
                    seen.setdefault('lobby', time.monotonic())
                if b'"status":"playing"' in buf:
                    seen['playing'] = time.monotonic()
        except OSError:
            pass
        finally:
            s.close()
        res['stream'] = (buf, seen)

    def scenario():
        try:
            keys = [post('/api/v1/accounts', {'name': n}).json['agentKey'] for n in ('nx_a', 'nx_b')]
            mid = post('/api/matches', {'players': 2, 'turn_seconds': 30}, keys[0]).json['match_id']
            threads = [threading.Thread(target=poll, args=(mid,)),
                       threading.Thread(target=stream, args=(mid,)),
                       threading.Thread(target=mcp_wait, args=(mid,))]
            for th in threads:
                th.start()
            time.sleep(11.5)
            res['joined_at'] = time.monotonic()
            res['join'] = post('/api/matches/%s/join' % mid, {}, keys[1], source='127.0.0.74')
            for th in threads:
                th.join()
        except Exception as e:  # reported by check_matches
            res['error'] = repr(e)

    th = threading.Thread(target=scenario)
    th.start()

    def join():
        th.join()
        return res
    return join


def check_matches(c, res):
    t = c.t
    if not t.ok('error' not in res, 'a versus match through nginx is set up (%s)' % res.get('error')):
        return
    r, took = res.get('poll', (None, 0))
    t.ok(res['join'].status == 200 and r is not None and r.status == 200 and
         r.json['status'] == 'playing' and took >= 11,
         'a long poll begun in the lobby outlasts proxy_read_timeout (10 s) and is answered by the '
         'start %.1f s later (%s)' % (took, r.status if r else None))
    r, took = res.get('mcp', (None, 0))
    result = (r.json or {}).get('result') if r is not None and isinstance(r.json, dict) else None
    t.ok(r is not None and r.status == 200 and result is not None and result.get('isError') is False and
         took >= 11,
         'an MCP wait_match begun in the lobby outlasts proxy_read_timeout (10 s) through POST /mcp and '
         'is answered by the start %.1f s later (%s %s)' % (took, r.status if r else None,
                                                          r.body[:120] if r is not None else ''))
    buf, seen = res.get('stream', (b'', {}))
    lag = seen.get('playing', 1e9) - res['joined_at']
    t.ok('lobby' in seen and lag < 2, 'an event stream through nginx shows the lobby at once and '
         'the start %.2f s after the join' % lag)
    t.ok(b'text/event-stream' in buf, 'the stream is text/event-stream through nginx')


def check_tls(c, port, tls_port, cert):
    t = c.t
    ctx = ssl.create_default_context(cafile=cert)
    r = request(tls_port, 'GET', '/healthz', tls=ctx)
    version, cipher = r.tls
    t.ok(r.status == 200 and r.json and r.json.get('status') == 'ok',
         'TLS: a request through the uncommented 443 server reaches the daemon (%s, %s)'
         % (version, cipher[0]))
    t.ok(version in ('TLSv1.2', 'TLSv1.3') and
         (r.header('Strict-Transport-Security') or '').startswith('max-age='),
         'TLS: version %s, with HSTS' % version)
    old = ssl.create_default_context(cafile=cert)
    old.maximum_version = ssl.TLSVersion.TLSv1_2
    old.set_ciphers('AES128-SHA:AES256-SHA:ECDHE-ECDSA-AES128-SHA:AES128-SHA256')
    try:
        request(tls_port, 'GET', '/healthz', tls=old)
        refused = False
    except ssl.SSLError:
        refused = True
    t.ok(refused, 'TLS: a client offering only CBC suites over TLS 1.2 is refused')
    data, _, _ = raw(tls_port, b'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n', wait=2)
    c.envelope(parse_http(data), 400, 'invalid_request', 'TLS: plain HTTP sent to the TLS port')
    tls_ctx = ssl.create_default_context(cafile=cert)
    s = tls_ctx.wrap_socket(socket.create_connection(('127.0.0.1', tls_port), timeout=5),
                            server_hostname='127.0.0.1')
    try:
        s.sendall(b'GET /' + b'a' * 5000 + b' HTTP/1.1\r\nHost: x\r\n\r\n')
        data = b''
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    except (OSError, ssl.SSLError):
        pass
    finally:
        s.close()
    c.envelope(parse_http(data), 414, 'uri_too_long', 'TLS: an error nginx makes itself')


def check_upstreams(c, scratch):
    """The standby line: a second daemon on the first one's database takes
    over a run when the first stops; a hung daemon is 504, none is 502."""
    t, text = c.t, c.text
    a = unix_daemon(scratch, 'primary')
    b = unix_daemon(scratch, 'standby', args=['--db', a.db])
    port = free_port()
    nd = os.path.join(scratch, 'nginx-2')
    site = substitute(text, [a.socket_path, b.socket_path], nd, port)
    t.ok(unsubstitute(site, [a.socket_path, b.socket_path], nd, port) == text,
         'with the standby line uncommented, nothing else changes either')
    n = Nginx(nd, site)
    rc_a = rc_b = None
    try:
        n.start([port])
        r = request(port, 'GET', '/api/games/duskcourt/init?seed=7')
        rid = r.header('X-Request-Id')
        t.ok(r.status == 200 and wait_for(lambda: [e for e in daemon_access(a.read_log())
                                                   if e[3] == rid]) and
             not daemon_access(b.read_log()),
             'with a standby listed, the primary alone serves (a Duskcourt run begins)')
        token, (frm, to) = r.json['stateToken'], next(
            (x['from'], x['to']) for x in r.json['legalActions'] if x['type'] == 'capture')

        rc_a, _ = a.stop()
        r = request(port, 'POST', '/api/games/duskcourt/action',
                    body=json.dumps({'stateToken': token, 'action': {
                        'type': 'capture', 'from': frm, 'to': to}}).encode(),
                    headers={'Content-Type': 'application/json'})
        rid = r.header('X-Request-Id')
        t.ok(r.status == 200 and wait_for(lambda: [e for e in daemon_access(b.read_log())
                                                   if e[3] == rid]),
             'the primary stopped: the standby, on the same database, takes the run\'s next '
             'move (%d %s)' % (r.status, r.error_code))

        b.send_signal(signal.SIGSTOP)
        try:
            # The stop is delivered when the kernel next schedules each of
            # the daemon's threads; on a loaded machine one of them once
            # answered the request below first (a 201 in 0.0 s). Wait
            # until the whole process shows stopped.
            t.ok(wait_for(lambda: proc_state(b.proc.pid) == 'T'),
                 'the standby is stopped (SIGSTOP): state %s' % proc_state(b.proc.pid))
            limit = seconds(directive(text, 'proxy_read_timeout')[0])
            t0 = time.monotonic()
            r = request(port, 'POST', '/api/v1/accounts', body=b'{"name": "hung"}',
                        headers={'Content-Type': 'application/json'})
            took = time.monotonic() - t0
        finally:
            b.send_signal(signal.SIGCONT)
        c.envelope(r, 504, 'upstream_timeout', 'a daemon that does not answer (SIGSTOP)')
        t.ok(limit - 0.5 <= took <= limit + 5, '504 after proxy_read_timeout (%.1f s)' % took)

        rc_b, _ = b.stop()
        t.eq((rc_a, rc_b), (0, 0), 'both daemons exit 0 (the standby after SIGSTOP and SIGCONT)')
        r = request(port, 'GET', '/healthz')
        if c.envelope(r, 502, 'upstream_unavailable', 'no daemon running'):
            t.eq(r.header('Retry-After'), '5', '502: Retry-After: 5')
        c.logged(n, 'primary and standby')
    finally:
        n.stop()
        b.cleanup()
        a.cleanup()
        shutil.rmtree(nd, ignore_errors=True)


def main():
    t = Tap()
    ngx = nginx_binary()
    tools = {'nginx': ngx, 'openssl': shutil.which('openssl'), 'curl': shutil.which('curl'),
             'jq': shutil.which('jq')}
    if not t.ok(all(tools.values()), 'nginx, openssl, curl and jq are installed (./dev test '
                'installs them from Debian): %s' % tools):
        t.done()
    with open(SITE) as f:
        text = f.read()
    c = Checks(t, text)
    secret = 'SECRET' + os.urandom(6).hex()
    scratch = tempfile.mkdtemp(prefix='arcaded-nginx-')
    os.chmod(scratch, 0o711)  # nginx (nobody) passes through to the sockets
    d = direct = n = None
    try:
        d = unix_daemon(scratch, 'daemon')
        os.mkdir(os.path.join(scratch, 'direct'))
        direct = Daemon(folder=os.path.join(scratch, 'direct'))
        port, tls_port = free_port(), free_port()
        nd = os.path.join(scratch, 'nginx')
        ok, err = make_cert(os.path.join(nd, 'ssl'))
        if not t.ok(ok, 'openssl makes a throwaway self-signed certificate'):
            t.diag(err)
        site = check_config(c, nd, [d.socket_path], port, tls_port)
        n = Nginx(nd, site)
        rc, err = n.check()
        if not t.eq(rc, 0, 'nginx -t accepts the site'):
            t.diag(err)
        try:
            n.start([port, tls_port])
            started = True
        except RuntimeError as e:
            started = False
            t.diag(str(e))
            t.diag(n.log('main.error.log')[-2000:])
        if not t.ok(started, 'nginx starts and listens'):
            return
        with open('/proc/%d/status' % n.proc.pid) as f:
            uid = int(re.search(r'^Uid:\s+(\d+)', f.read(), re.M).group(1))
        t.ok(uid == n.uid and (uid != 0 or os.getuid() != 0),
             'nginx runs as %s, not root' % pwd.getpwuid(uid).pw_name)

        versus = matches(port)
        check_readme(c, n, d, 'http://127.0.0.1:%d' % port)
        check_ids_and_addresses(c, n, d, port, direct)
        check_own_errors(c, n, d, port, direct, secret)
        check_tls(c, port, tls_port, os.path.join(nd, 'ssl', 'fullchain.pem'))
        check_limit_conn(c, n, port, secret)
        # The slow clients wait out their timeouts while the rest goes on;
        # the limit_req check refills the bucket they took from first.
        join = timeouts(port, text)
        check_limit_req(c, n, port, secret)
        check_matches(c, versus())
        c.logged(n, 'one daemon')
        check_upstreams(c, scratch)
        check_timeouts(c, n, join())
        logs = {'nginx access log': n.log('arcaded.access.log'), 'daemon log': d.read_log()}
        for name, body in logs.items():
            t.ok(secret not in body and 'stateToken' not in body,
                 'no query string in the %s' % name)
        errors = n.log('arcaded.error.log')
        t.ok('limiting' not in errors,
             'refusals for speed stay out of nginx\'s error log (limit_*_log_level info)')
        leaked = [l for l in errors.splitlines() if secret in l]
        t.diag('nginx\'s error log names the request line of %d of its lines, query string '
               'included (docs/deploying-notes.md):' % len(leaked))
        for l in leaked[:3]:
            t.diag('  ' + re.sub(r'^\S+ \S+ ', '', l)[:200])
        n.stop()
        rcs = (d.stop()[0], direct.stop()[0])
        t.eq(rcs, (0, 0), 'the daemons exit 0 (under ASan: no leak, no error)')
    finally:
        if n is not None:
            n.stop()
        for x in (d, direct):
            if x is not None:
                x.cleanup()
        shutil.rmtree(scratch, ignore_errors=True)
    t.done()


if __name__ == '__main__':
    main()
