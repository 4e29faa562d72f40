"""The daemon's service-manager notifications (server/notify.c), received
the way systemd receives them: a datagram socket named by NOTIFY_SOCKET,
with SO_PASSCRED so that each message carries the sender's pid.

Checked: READY=1 comes first and only once the daemon answers /healthz;
WATCHDOG=1 pings arrive at half of WATCHDOG_USEC when WATCHDOG_PID is the
daemon (or unset) and never when it names another process; STOPPING=1
comes when SIGTERM starts the shutdown, while the daemon still runs, and
the daemon then exits 0; an abstract socket name ('@...') works; a socket
name that is neither a path nor '@' is reported and does not stop serving.
"""
import os
import shutil
import signal
import socket
import struct
import subprocess
import tempfile
import time

from harness import Daemon, Tap, UnixHTTPConnection, binary


def receiver(address):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    s.bind(address)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
    return s


def recv(s, timeout):
    """(message, sender pid), or (None, None) after timeout seconds."""
    s.settimeout(timeout)
    try:
        data, anc, _, _ = s.recvmsg(4096, socket.CMSG_SPACE(12))
    except socket.timeout:
        return None, None
    pid = None
    for level, kind, cdata in anc:
        if level == socket.SOL_SOCKET and kind == socket.SCM_CREDENTIALS:
            pid = struct.unpack('iII', cdata[:12])[0]
    return data.decode('utf-8', 'replace'), pid


def collect(s, seconds):
    """Every message that arrives within the next `seconds`."""
    out, end = [], time.monotonic() + seconds
    while True:
        left = end - time.monotonic()
        if left <= 0:
            return out
        msg, pid = recv(s, left)
        if msg is None:
            return out
        out.append((msg, pid))


def healthz(path):
    """The status of GET /healthz on the daemon's unix socket, or the error."""
    conn = UnixHTTPConnection(path, timeout=5)
    try:
        conn.request('GET', '/healthz')
        return conn.getresponse().status
    except OSError as e:
        return repr(e)
    finally:
        conn.close()


def start(folder, env, pid_is_self):
    """arcaded on a unix socket, through `sh -c exec` so that the shell can
    name the daemon's pid (the shell's, kept by exec) in WATCHDOG_PID, as
    the service manager does."""
    sock = os.path.join(folder, 'arcaded.sock')
    e = {k: v for k, v in os.environ.items() if not k.startswith(('ARCADED_', 'NOTIFY_', 'WATCHDOG_'))}
    e.update(env)
    cmd = 'exec "$0" --listen "unix:$1" --db "$2"'
    if pid_is_self:
        cmd = 'WATCHDOG_PID=$$ ' + cmd
    log = open(os.path.join(folder, 'daemon.log'), 'ab')
    p = subprocess.Popen(['sh', '-c', cmd, binary(), sock, os.path.join(folder, 'arcaded.db')],
                         env=e, stdout=subprocess.DEVNULL, stderr=log)
    log.close()
    return p, sock


def stop(p):
    if p.poll() is None:
        p.send_signal(signal.SIGTERM)
    try:
        return p.wait(15)
    except subprocess.TimeoutExpired:
        p.kill()
        return p.wait()


t = Tap()
scratch = tempfile.mkdtemp(prefix='arcaded-notify-')
procs = []
try:
    # 1. A path socket, a watchdog asked for this very process.
    folder = os.path.join(scratch, 'one')
    os.mkdir(folder)
    rx = receiver(os.path.join(scratch, 'notify.sock'))
    p, sock = start(folder, {'NOTIFY_SOCKET': os.path.join(scratch, 'notify.sock'),
                             'WATCHDOG_USEC': '200000'}, pid_is_self=True)
    procs.append(p)
    msg, pid = recv(rx, 30)
    # At once, before anything else can happen: the daemon must already serve.
    status = healthz(sock)
    t.ok(msg is not None and msg.split('\n')[0] == 'READY=1',
         'the first message is READY=1 (%r)' % (msg,))
    t.eq(status, 200, 'when READY=1 arrives, /healthz already answers')
    t.ok(msg is not None and 'STATUS=serving on unix:' + sock in msg.split('\n'),
         'READY=1 comes with a STATUS line naming the socket')
    t.eq(pid, p.pid, 'it comes from the daemon\'s pid (what NotifyAccess=main checks)')

    msgs = collect(rx, 1.5)
    pings = [m for m, _ in msgs if m == 'WATCHDOG=1']
    t.ok(len(pings) >= 3, 'WATCHDOG_USEC=200000: %d WATCHDOG=1 pings in 1.5 s (one each 0.1 s asked)'
         % len(pings))
    t.ok(len(pings) == len(msgs) and all(q == p.pid for _, q in msgs),
         'nothing else meanwhile, all from the daemon\'s pid (the ping thread shares it)')

    # An idle keep-alive connection makes the drain wait a little, so that
    # the daemon is still running when STOPPING=1 arrives.
    idle = UnixHTTPConnection(sock, timeout=5)
    idle.request('GET', '/healthz')
    idle.getresponse().read()
    p.send_signal(signal.SIGTERM)
    stopping, running = None, False
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        m, q = recv(rx, deadline - time.monotonic())
        if m is None:
            break
        if m.startswith('STOPPING=1'):
            stopping, running = m, p.poll() is None
            break
    idle.close()
    t.ok(stopping is not None, 'SIGTERM: STOPPING=1 arrives (%r)' % (stopping,))
    t.ok(running, 'while the daemon still runs: sent as shutdown begins, not at exit')
    rc = stop(p)
    t.eq(rc, 0, 'then the daemon exits 0')
    late = [m for m, _ in collect(rx, 0.3) if not m.startswith('WATCHDOG=1')]
    t.eq(late, [], 'and says nothing else after STOPPING=1 but watchdog pings')
    rx.close()

    # 2. An abstract socket; WATCHDOG_PID names another process.
    folder = os.path.join(scratch, 'two')
    os.mkdir(folder)
    name = 'arcaded-notify-test-%d-%s' % (os.getpid(), os.urandom(4).hex())
    rx = receiver('\0' + name)
    p, sock = start(folder, {'NOTIFY_SOCKET': '@' + name, 'WATCHDOG_USEC': '100000',
                             'WATCHDOG_PID': str(os.getpid())}, pid_is_self=False)
    procs.append(p)
    msg, pid = recv(rx, 30)
    t.ok(msg is not None and msg.startswith('READY=1') and pid == p.pid,
         'an abstract socket (@name) gets READY=1')
    msgs = collect(rx, 0.6)
    t.eq([m for m, _ in msgs], [], 'WATCHDOG_PID naming another process: no pings')
    rc = stop(p)
    msgs = collect(rx, 0.3)
    t.ok(rc == 0 and any(m.startswith('STOPPING=1') for m, _ in msgs),
         'SIGTERM: STOPPING=1 on the abstract socket, exit 0')
    rx.close()

    # 3. A socket name that is neither a path nor '@name'.
    d = Daemon(env={'NOTIFY_SOCKET': 'not-a-path'})
    try:
        t.eq(d.get('/healthz').status, 200, 'a bad NOTIFY_SOCKET does not stop the daemon serving')
        t.ok('cannot tell the service manager we are ready' in d.read_log(),
             'and is reported in the log')
        rc, _ = d.stop()
        t.eq(rc, 0, 'and it stops cleanly')
    finally:
        d.cleanup()
finally:
    for q in procs:
        if q.poll() is None:
            stop(q)
    shutil.rmtree(scratch, ignore_errors=True)
t.done()
