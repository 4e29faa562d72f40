"""Every framing case of tests/e2e/test_framing.py (framing_cases.py)
sent through the shipped nginx site (deploy/nginx.conf, run as
test_nginx.py runs it: a real nginx from Debian, started here; one that
cannot start fails the test).

What it shows (issue 27, RFC 9112 sections 6.3 and 11.2):
- nginx refuses itself every case the daemon refuses, and the two the
  daemon cannot see (obs-fold, a NUL in a value): 400 or 501 in the
  daemon's JSON envelope, the connection closed, nothing pipelined behind
  served, and the daemon never sees the request (no access line);
- a bare LF ending a line, which libmicrohttpd takes as CRLF unseen, is
  normalised: nginx reads the request as a whole and sends its upstream
  a request of its own, every line ended by CRLF. A stand-in upstream on
  the site's socket records the bytes nginx sends it, and a real daemon
  behind the site answers each such request once.
"""
import os
import shutil
import socket
import tempfile
import threading
import time

from framing_cases import BARE_LF, FOLDED, REFUSED, exchange
from harness import Tap
from test_nginx import SITE, Nginx, free_port, nginx_binary, run_as, substitute, unix_daemon

t = Tap()


def answers(buf):
    """[(status, error code or None)] of every answer in buf."""
    out = []
    for part in buf.split(b'HTTP/1.1 ')[1:]:
        head, _, body = part.partition(b'\r\n\r\n')
        code = None
        if b'"code":"' in body:
            code = body.split(b'"code":"', 1)[1].split(b'"', 1)[0].decode()
        out.append((int(head[:3]), code))
    return out


def access_lines(d):
    return [ln for ln in d.read_log().splitlines() if ' access ' in ln]


class Recorder:
    """A stand-in upstream on a unix socket: records each request's bytes
    up to the end of its headers and answers 200 with a small JSON body."""

    def __init__(self, path):
        self.path = path
        self.seen = []
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.bind(path)
        os.chmod(path, 0o666)
        self.sock.listen(16)
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        while True:
            try:
                c, _ = self.sock.accept()
            except OSError:
                return
            c.settimeout(2)
            data = b''
            try:
                while b'\r\n\r\n' not in data and b'\n\n' not in data:
                    chunk = c.recv(65536)
                    if not chunk:
                        break
                    data += chunk
                self.seen.append(data)
                c.sendall(b'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n'
                          b'Connection: close\r\n\r\n{}')
            except OSError:
                pass
            c.close()

    def close(self):
        self.sock.close()


def main():
    if not t.ok(nginx_binary() is not None, 'nginx is installed (./dev test installs it from Debian)'):
        t.done()
    with open(SITE) as f:
        text = f.read()
    scratch = tempfile.mkdtemp(prefix='arcaded-nginx-framing-')
    os.chmod(scratch, 0o711)
    d = n = n2 = rec = None
    try:
        # ---- the real daemon behind the site
        d = unix_daemon(scratch, 'daemon')
        port = free_port()
        n = Nginx(os.path.join(scratch, 'nginx'), substitute(text, [d.socket_path],
                                                             os.path.join(scratch, 'nginx'), port))
        n.start([port])
        for name, data, want, _code in REFUSED:
            before = len(access_lines(d))
            buf, closed, _ = exchange(port, data)
            got = answers(buf)
            t.ok(len(got) == 1 and got[0][0] in (400, 501) and got[0][1] in ('invalid_request', 'not_implemented')
                 and closed, '%s: nginx refuses it itself, %s in the envelope, closed, nothing pipelined '
                 'served (the daemon answers %d)' % (name, got, want))
            time.sleep(0.05)
            t.eq(len(access_lines(d)), before, '%s: the daemon never sees it' % name)
        for name, data in FOLDED:
            before = len(access_lines(d))
            buf, closed, _ = exchange(port, data)
            got = answers(buf)
            t.ok(got == [(400, 'invalid_request')] and closed,
                 '%s (which libmicrohttpd does not show the daemon): nginx refuses it, 400 (%s)' % (name, got))
            time.sleep(0.05)
            t.eq(len(access_lines(d)), before, '%s: the daemon never sees it' % name)
        t.eq(d.sql('SELECT count(*) FROM accounts')[0][0], 0, 'no account created by any of them')
        for name, data, want in BARE_LF:
            before = len(access_lines(d))
            buf, closed, _ = exchange(port, data)
            got = answers(buf)
            time.sleep(0.05)
            seen = len(access_lines(d)) - before
            if want == 200:
                t.ok([s for s, _ in got] == [200] and seen == 1,
                     '%s: answered once through nginx, one request at the daemon (%s, %d)' % (name, got, seen))
            else:
                t.ok(len(got) == 1 and got[0][0] == 400 and seen == 0,
                     '%s: nginx refuses it itself (%s), the daemon never sees it' % (name, got))

        # ---- a stand-in upstream records what nginx sends for the bare-LF requests
        rec_dir = os.path.join(scratch, 'recorder')
        os.mkdir(rec_dir)
        os.chmod(rec_dir, 0o711)
        os.chown(rec_dir, -1, run_as()[1])
        rec = Recorder(os.path.join(rec_dir, 'arcaded.sock'))
        port2 = free_port()
        n2 = Nginx(os.path.join(scratch, 'nginx-2'), substitute(text, [rec.path], os.path.join(scratch, 'nginx-2'),
                                                                port2))
        n2.start([port2])
        for name, data, want in BARE_LF:
            if want != 200:
                continue
            del rec.seen[:]
            buf, _, _ = exchange(port2, data)
            time.sleep(0.05)
            head = rec.seen[0] if rec.seen else b''
            lines = head.split(b'\r\n')
            t.ok(len(rec.seen) == 1 and head.endswith(b'\r\n\r\n') and not any(b'\n' in ln for ln in lines) and
                 head.startswith(b'GET /healthz HTTP/1.') and any(ln.lower().startswith(b'x-a:') for ln in lines)
                 == (b'X-A:' in data),
                 '%s: nginx sends its upstream every line ended by CRLF, no bare LF (%r)' % (name, head[:120]))
    finally:
        for x in (n, n2):
            if x is not None:
                x.stop()
        if rec is not None:
            rec.close()
        if d is not None:
            d.cleanup()
        shutil.rmtree(scratch, ignore_errors=True)
    t.done()


if __name__ == '__main__':
    main()
