"""The daemon's backbone end to end: operations routes, the error envelope
for refusals decided by the front end, limits, configuration, keys,
migrations and a graceful stop under load."""
import http.client
import os
import re
import signal
import socket
import stat
import threading
import time

from harness import BACKEND, Daemon, Tap, raw_exchange, run_binary

t = Tap()
REQ_ID = re.compile(r'^[0-9a-f]{16}$')


def envelope(r, status, code):
    return (r.status == status and isinstance(r.json, dict) and set(r.json) >= {'error'}
            and r.error_code == code and isinstance(r.json['error'].get('message'), str)
            and r.json['error']['message'] != '' and REQ_ID.match(r.header('X-Request-Id') or ''))


d = Daemon()
try:
    # Operations.
    r = d.get('/healthz')
    t.ok(r.status == 200 and r.json.get('status') == 'ok', 'healthz answers 200 ok')
    t.ok(REQ_ID.match(r.header('X-Request-Id') or ''), 'healthz carries an X-Request-Id')
    t.ok((r.header('Content-Type') or '').startswith('application/json'), 'healthz is JSON')
    r = d.get('/readyz')
    t.ok(r.status == 200 and r.json.get('status') == 'ready' and r.json.get('schema') >= 1,
         'readyz answers ready with the schema version')
    r = d.request('HEAD', '/healthz')
    t.eq(r.status, 200, 'HEAD /healthz answers 200')
    ids = {d.get('/healthz').header('X-Request-Id') for _ in range(20)}
    t.eq(len(ids), 20, 'request ids differ between requests')

    # Refusals decided by the front end, each in the envelope with an id.
    r = d.get('/no/such/route')
    t.ok(envelope(r, 404, 'not_found'), '404 for an unknown route, in the envelope')
    # The contract the daemon was built with, for client generators.
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'openapi.yaml'),
              encoding='utf-8') as f:
        contract = f.read()
    r = d.get('/openapi.yaml')
    t.ok(r.status == 200 and r.body == contract,
         'GET /openapi.yaml: the contract, byte for byte (%d, %d bytes)' % (r.status, len(r.body)))
    t.eq(r.header('Content-Type'), 'application/yaml', '... as application/yaml')
    r = d.get('/openapi.yaml', headers={'Accept-Encoding': 'gzip'})
    t.eq(r.header('Content-Encoding'), 'gzip', '... gzipped for a client that takes it')
    # Every game's rules carry a how-to-play text; Stackfall's (its check on
    # by default) also how to read a puzzle.
    for game in ('stackfall', 'duskcourt', 'stackcraft', 'hatetris'):
        r = d.get('/api/games/%s/rules' % game)
        how = (r.json or {}).get('howToPlay', '')
        t.ok(r.status == 200 and len(how) > 200 and ('legalActions' in how or 'place R C' in how or
                                                    "'r1x4'" in how),
             '%s rules: howToPlay, a text a reader takes in at once (%d characters)' % (game, len(how)))
        t.ok('agentCheckHelp' in r.json and isinstance(r.json.get('agentCheck'), bool),
             '%s rules: agentCheckHelp whether the check is on or not (an operator may turn it on), '
             'agentCheck says which' % game)
    r = d.post('/api/games/stackfall/action', {'stateToken': d.get('/api/games/stackfall/init').json['stateToken'],
                                               'command': 'options'})
    t.ok(r.status == 428 and 'agentCheckHelp' in r.json['error']['message'],
         'a 428 points at the rules answer\'s agentCheckHelp: %s' % r.json['error']['message'])
    # The router looks up a route's {game} once, for every game route.
    for path in ('/api/games/chess/init', '/api/games/chess/leaderboard', '/api/games/chess/runs/1/steps'):
        r = d.get(path)
        t.ok(envelope(r, 404, 'not_found') and 'stackfall' in r.json['error']['message'] and
             'hatetris' in r.json['error']['message'],
             'GET %s: 404 naming the games (%s)' % (path, r.json['error']['message']))
    r = d.get('/games/duskcourt/api/rules')
    t.ok(envelope(r, 404, 'not_found') and r.json['error']['message'].endswith('which serve: stackfall'),
         'the seed\'s routes for a game without them: 404 naming the games they serve (%s)' %
         r.json['error']['message'])
    r = d.post('/healthz', {})
    t.ok(envelope(r, 405, 'method_not_allowed'), '405 for a wrong method, in the envelope')
    t.eq(r.header('Allow'), 'GET, HEAD', '405 names the allowed methods in Allow')
    r = d.request('DELETE', '/metrics')
    t.ok(envelope(r, 405, 'method_not_allowed'), '405 for DELETE on /metrics')

    # 400 for bodies that are not JSON, or not an object, before any work.
    r = d.request('POST', '/api/v1/accounts', raw=b'{"name": ', headers={'Content-Type': 'application/json'})
    t.ok(envelope(r, 400, 'invalid_json'), '400 invalid_json for a body that is not JSON')
    r = d.request('POST', '/api/v1/accounts', raw=b'[1, 2]', headers={'Content-Type': 'application/json'})
    t.ok(envelope(r, 400, 'invalid_request'), '400 for a JSON body that is not an object')
    r = d.request('POST', '/api/v1/accounts', raw=b'{"name": "a", "name": "b"}')
    t.ok(envelope(r, 400, 'invalid_json'), '400 for a body with a duplicated key')

    # One keep-alive connection survives a 404 without a body.
    c = d.connection()
    a = d.get('/nope', conn=c)
    b = d.get('/healthz', conn=c)
    c.close()
    t.ok(a.status == 404 and b.status == 200, 'a keep-alive connection goes on after a 404')

    # 413: a declared 1 MiB body is refused without being read. Only the
    # headers are sent; the answer must come anyway.
    head = (b'POST /api/v1/accounts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n'
            b'Content-Length: 1048576\r\n\r\n')
    got = raw_exchange(d.port, head, read_timeout=5.0)
    t.ok(got.startswith(b'HTTP/1.1 413'), '1 MiB declared body refused with 413 before it is sent')
    t.ok(b'"payload_too_large"' in got and b'X-Request-Id: ' in got,
         '413 is in the envelope with a request id')

    # A chunked body that grows past the limit is refused too.
    chunk = b'x' * 70000
    body = b'%x\r\n%s\r\n0\r\n\r\n' % (len(chunk), chunk)
    got = raw_exchange(d.port, b'POST /api/v1/accounts HTTP/1.1\r\nHost: x\r\n'
                       b'Transfer-Encoding: chunked\r\n\r\n', send_after=body)
    t.ok(got.startswith(b'HTTP/1.1 4'), 'a chunked body is answered with a 4xx, not dropped')

    # Metrics in Prometheus text format.
    r = d.get('/metrics')
    t.ok(r.status == 200 and (r.header('Content-Type') or '').startswith('text/plain'),
         'metrics answers text/plain')
    t.ok('arcaded_requests_total{route="healthz",status="200"}' in r.body,
         'metrics count requests by route and status')
    t.ok('arcaded_request_duration_seconds_bucket{route="healthz",le="+Inf"}' in r.body,
         'metrics carry a latency histogram')
    t.ok(re.search(r'^arcaded_requests_in_flight \d+$', r.body, re.M),
         'metrics carry the requests in flight')
    t.ok('route="unmatched",status="404"' in r.body, 'metrics count unmatched routes')

    # The store's figures: its backend, its queue and readers, and on SQLite
    # the write-ahead log (written to by the requests above).
    def metric(body, name):
        m = re.search(r'^%s(?:\{[^}]*\})? (\S+)$' % re.escape(name), body, re.M)
        return float(m.group(1)) if m else None

    t.ok('arcaded_store_backend{backend="%s"} 1' % BACKEND in r.body,
         'metrics name the store\'s backend (%s)' % BACKEND)
    names = ['arcaded_store_queue_depth', 'arcaded_store_readers', 'arcaded_store_readers_busy',
             'arcaded_store_reader_waits_total', 'arcaded_store_retries_total',
             'arcaded_store_connection_errors_total', 'arcaded_store_checkpoints_total',
             'arcaded_store_checkpoint_busy_total', 'arcaded_store_checkpoint_waits_total',
             'arcaded_store_checkpoint_hold_seconds', 'arcaded_store_checkpoint_timestamp_seconds',
             'arcaded_store_wal_bytes']
    got = {n: metric(r.body, n) for n in names}
    missing = [n for n, v in got.items() if v is None or v < 0]
    t.ok(not missing, 'metrics carry the store\'s queue depth, readers, retries, lost connections, checkpoints and '
         'WAL size%s' % (' (missing: %s)' % ', '.join(missing) if missing else ''))
    t.ok(got['arcaded_store_readers'] and got['arcaded_store_readers'] >= 1, 'the read pool has connections (%s)'
         % got['arcaded_store_readers'])
    if BACKEND == 'sqlite':
        t.ok(got['arcaded_store_wal_bytes'] and got['arcaded_store_wal_bytes'] > 0,
             'SQLite: the WAL size shows the writes made (%d bytes)' % (got['arcaded_store_wal_bytes'] or 0))
    else:
        t.ok(got['arcaded_store_wal_bytes'] == 0 and got['arcaded_store_checkpoints_total'] == 0,
             'PostgreSQL: the SQLite-only figures stay 0')

    # The access log: one line per request with method, path, status,
    # microseconds and id; never a query string.
    d.get('/healthz?stateToken=SECRET-SHOULD-NOT-APPEAR')
    time.sleep(0.2)
    log = d.read_log()
    t.ok(re.search(r'access GET /healthz 200 \d+us id=[0-9a-f]{16} from 127\.0\.0\.1', log),
         'access log line has method, path, status, microseconds, id and client')
    d.get('/healthz', headers={'X-Forwarded-For': '203.0.113.7', 'X-Request-Id': 'fromclient'})
    time.sleep(0.2)
    log = d.read_log()
    t.ok('203.0.113.7' not in log and 'id=fromclient' not in log,
         'X-Forwarded-For and X-Request-Id from a peer that is no trusted proxy are ignored')
    t.ok('SECRET-SHOULD-NOT-APPEAR' not in log, 'the access log never holds a query string')

    # Key file: created 0600 beside the database.
    key = os.path.join(d.folder, 'arcaded.key')
    mode = stat.S_IMODE(os.stat(key).st_mode)
    t.eq(mode, 0o600, 'key file is created with mode 0600')
    with open(key) as f:
        key_before = f.read()

    # Restart: no migration applied twice, the key file reused.
    d.restart()
    rows = d.sql('SELECT version, count(*) FROM schema_migrations GROUP BY version')
    t.ok(len(rows) >= 1 and all(n == 1 for _, n in rows), 'each migration is recorded once')
    t.eq(d.read_log().count('applied migration 0001_init'), 1,
         'a restart applies no migration again')
    with open(key) as f:
        t.eq(f.read(), key_before, 'a restart reuses the key file')
    t.eq(d.get('/healthz').status, 200, 'the restarted daemon serves')

    # SIGTERM under load: exit 0 within 5 s, every request answered in full,
    # the database intact.
    stop = threading.Event()
    results = {'answered': 0, 'bad': [], 'refused': 0}
    lock = threading.Lock()

    def client(path, keepalive):
        conn = None
        while not stop.is_set():
            try:
                if conn is None:
                    conn = http.client.HTTPConnection('127.0.0.1', d.port, timeout=10)
                conn.request('GET', path)
                r = conn.getresponse()
                body = r.read()
                with lock:
                    if r.status in (200, 503) and len(body) == int(r.getheader('Content-Length', '-1')):
                        results['answered'] += 1
                    else:
                        results['bad'].append((r.status, body[:100]))
                if not keepalive or r.getheader('Connection', '').lower() == 'close':
                    conn.close()
                    conn = None
            except (ConnectionRefusedError, ConnectionResetError, BrokenPipeError,
                    http.client.RemoteDisconnected, socket.timeout, OSError):
                with lock:
                    results['refused'] += 1
                if conn is not None:
                    conn.close()
                conn = None
                time.sleep(0.01)

    threads = [threading.Thread(target=client, args=(p, k))
               for p in ('/readyz', '/healthz', '/metrics') for k in (True, False)]
    for th in threads:
        th.start()
    time.sleep(1.0)
    before = results['answered']
    rc, took = d.stop(signal.SIGTERM)
    stop.set()
    for th in threads:
        th.join()
    t.ok(before > 50, 'clients were being served before SIGTERM (%d answers)' % before)
    t.eq(rc, 0, 'SIGTERM under load: exit status 0')
    t.ok(took < 5.0, 'SIGTERM under load: stopped in %.2f s (< 5 s)' % took)
    t.eq(results['bad'], [], 'every answer under shutdown was complete (200 or 503)')
    log = d.read_log()
    t.ok('closed before an answer' not in log, 'the log shows no request cut off before its answer')
    t.ok(re.search(r'SIGTERM: shutting down', log) and log.rstrip().endswith('stopped'),
         'the log shows an orderly stop')
    if BACKEND == 'sqlite':
        t.eq(d.sql('PRAGMA integrity_check')[0][0], 'ok',
             'the database passes integrity_check after the stop')
        t.ok(not os.path.exists(d.db + '-wal') or os.path.getsize(d.db + '-wal') == 0,
             'the WAL was checkpointed into the database on stop')
    t.eq(d.sql('SELECT count(*) FROM runs r WHERE step <> '
               '(SELECT count(*) FROM moves m WHERE m.run_id = r.id)'), [(0,)],
         'after the stop every run\'s head counts exactly its stored moves')

    # A database newer than the binary stops start-up with a clear message.
    d.sql("INSERT INTO schema_migrations (version, name, applied_at) "
          "SELECT max(version) + 1, 'from_the_future', 0 FROM schema_migrations")
    rc, out, err = run_binary(['--listen', '127.0.0.1:0', '--db', d.db])
    t.ok(rc != 0 and 'newer' in err and 'schema version' in err,
         'a database newer than the binary stops start-up: %s' % err.strip())
finally:
    d.cleanup()

# Key file problems stop start-up with a message naming the file.
d = Daemon()
try:
    key = os.path.join(d.folder, 'arcaded.key')
    d.stop()
    os.chmod(key, 0o644)
    rc, out, err = run_binary(['--listen', '127.0.0.1:0', '--db', d.db])
    t.ok(rc != 0 and key in err and '0644' in err,
         'a key file others can read is refused: %s' % err.strip())
    os.chmod(key, 0o600)
    with open(key, 'a') as f:
        f.write('key nothex\n')
    rc, out, err = run_binary(['--listen', '127.0.0.1:0', '--db', d.db])
    t.ok(rc != 0 and 'malformed' in err and key in err,
         'a damaged key file is refused: %s' % err.strip())
finally:
    d.cleanup()

# A database path that cannot be opened.
rc, out, err = run_binary(['--listen', '127.0.0.1:0', '--db', '/proc/nope/x.db',
                           '--key-file', '/tmp/arcaded-e2e-unused.key'])
t.ok(rc != 0 and '/proc/nope' in err, 'an unusable database path is refused: %s' % err.strip())
if os.path.exists('/tmp/arcaded-e2e-unused.key'):
    os.unlink('/tmp/arcaded-e2e-unused.key')

# Flags: --help lists every option, each bad value names its flag.
rc, out, err = run_binary(['--help'])
t.eq(rc, 0, '--help exits 0')
for flag in ('--listen', '--db', '--key-file', '--threads', '--max-body', '--trusted-proxy',
             '--agent-check', '--log-level', '--help', '--version'):
    t.ok(flag in out, '--help lists %s' % flag)
for env in ('ARCADED_LISTEN', 'ARCADED_DB', 'ARCADED_KEY_FILE', 'ARCADED_THREADS',
            'ARCADED_MAX_BODY', 'ARCADED_TRUSTED_PROXY', 'ARCADED_AGENT_CHECK', 'ARCADED_LOG_LEVEL'):
    t.ok(env in out, '--help names %s' % env)
rc, out, err = run_binary(['--version'])
t.ok(rc == 0 and re.match(r'arcaded \d+\.\d+\.\d+', out), '--version prints the version')

bad = [
    (['--listen', 'nohost'], '--listen'),
    (['--listen=1.2.3.4:99999'], '--listen'),
    (['--threads', '0'], '--threads'),
    (['--threads=abc'], '--threads'),
    (['--max-body', '12'], '--max-body'),
    (['--max-body=1x'], '--max-body'),
    (['--trusted-proxy', '10.0.0.0/33'], '--trusted-proxy'),
    (['--trusted-proxy=banana'], '--trusted-proxy'),
    (['--agent-check', 'chess=on'], '--agent-check'),
    (['--agent-check=stackfall=maybe'], '--agent-check'),
    (['--log-level', 'loud'], '--log-level'),
    (['--db'], '--db'),
    (['--frobnicate', '1'], '--frobnicate'),
]
for args, flag in bad:
    rc, out, err = run_binary(args)
    lines = [l for l in err.splitlines() if l.strip()]
    t.ok(rc == 2 and len(lines) == 1 and flag in lines[0],
         'bad %s is refused in one line naming the flag: %s' % (' '.join(args), err.strip()))
rc, out, err = run_binary([], env={'ARCADED_THREADS': 'many'})
t.ok(rc == 2 and 'ARCADED_THREADS' in err, 'a bad environment value names its variable')

# Behind a trusted proxy: its client address and request id are believed.
d = Daemon(args=['--trusted-proxy', '127.0.0.0/8'])
try:
    r = d.get('/healthz', headers={'X-Forwarded-For': '198.51.100.1, 203.0.113.7',
                                   'X-Request-Id': 'proxy-id-42'})
    t.eq(r.header('X-Request-Id'), 'proxy-id-42', 'a trusted proxy\'s X-Request-Id is kept')
    time.sleep(0.2)
    t.ok('id=proxy-id-42 from 203.0.113.7' in d.read_log(),
         'the access log names the client the trusted proxy saw last')
finally:
    d.cleanup()

# Configuration through the environment and the --flag=value form.
d = Daemon(args=['--max-body=2048'], env={'ARCADED_LOG_LEVEL': 'warn'})
try:
    got = raw_exchange(d.port, b'POST /api/v1/accounts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n'
                       b'Content-Length: 4096\r\n\r\n')
    t.ok(got.startswith(b'HTTP/1.1 413'), '--max-body=2048 takes effect')
    d.get('/healthz')
    time.sleep(0.1)
    t.ok('access ' not in d.read_log(), 'ARCADED_LOG_LEVEL=warn silences the access log')
finally:
    d.cleanup()

# --listen unix:PATH for a reverse proxy.
import tempfile
import subprocess
sockdir = tempfile.mkdtemp(prefix='arcaded-sock-')
path = os.path.join(sockdir, 'arcaded.sock')
p = subprocess.Popen([os.environ['ARCADED'], '--listen', 'unix:' + path,
                      '--db', os.path.join(sockdir, 'a.db')],
                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
try:
    line = p.stdout.readline().decode()
    t.ok('unix:' + path in line, 'the daemon reports its unix socket')
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(5)
    s.connect(path)
    s.sendall(b'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    got = b''
    while True:
        c = s.recv(4096)
        if not c:
            break
        got += c
    s.close()
    t.ok(got.startswith(b'HTTP/1.1 200') and b'"ok"' in got, 'healthz answers over the unix socket')
finally:
    p.send_signal(signal.SIGTERM)
    t.eq(p.wait(10), 0, 'the unix-socket daemon stops with status 0')
    t.ok(not os.path.exists(path), 'the socket file is removed on stop')

t.done()
