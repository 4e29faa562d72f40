"""Strict framing before routing (issue 27; RFC 9112 sections 6.3 and
11.2): what a front end could read as another message boundary than the
daemon's is refused 400 (501 for a transfer coding other than chunked)
in the error envelope, and the connection is closed, so that nothing
pipelined behind it is served. Each case on a raw socket.

Two cases libmicrohttpd never shows the daemon (docs/deploying-notes.md):
an obs-fold line is joined to the header before it, and a NUL inside a
value is not seen; both are pinned below as they behave (one request,
answered), and neither can carry a message boundary. The shipped nginx
site refuses both before they reach the daemon.
"""
import json
import socket
import time

from harness import Daemon, Tap

t = Tap()


def exchange(port, data, timeout=3.0):
    """Sends data on a fresh socket; (bytes received, closed by the server, seconds)."""
    s = socket.create_connection(('127.0.0.1', port), timeout=timeout)
    t0 = time.monotonic()
    s.sendall(data)
    buf, closed = b'', False
    try:
        while True:
            c = s.recv(65536)
            if not c:
                closed = True
                break
            buf += c
    except socket.timeout:
        pass
    except ConnectionResetError:
        closed = True
    s.close()
    return buf, closed, time.monotonic() - t0


def envelope(buf):
    head, _, body = buf.partition(b'\r\n\r\n')
    status = int(head.split(b' ', 2)[1]) if head.startswith(b'HTTP/1.1 ') else 0
    try:
        code = json.loads(body.split(b'HTTP/1.1 ')[0])['error']['code']
    except (ValueError, KeyError, TypeError):
        code = None
    return status, code


def healthz_ms(port):
    t0 = time.monotonic()
    buf, _, _ = exchange(port, b'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    return envelope(buf)[0], (time.monotonic() - t0) * 1000


POST = b'POST /api/v1/accounts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n'
SMUGGLED = b'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'
REFUSED = [
    ('two different Content-Length', POST + b'Content-Length: 2\r\nContent-Length: 40\r\n\r\n{}' + SMUGGLED,
     400, 'invalid_request'),
    ('the same Content-Length twice', POST + b'Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}' + SMUGGLED,
     400, 'invalid_request'),
    ('Content-Length with Transfer-Encoding: chunked',
     POST + b'Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n' + SMUGGLED, 400,
     'invalid_request'),
    ('Transfer-Encoding: gzip, chunked', POST + b'Transfer-Encoding: gzip, chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n' +
     SMUGGLED, 501, 'not_implemented'),
    ('Transfer-Encoding: gzip', POST + b'Transfer-Encoding: gzip\r\n\r\n' + SMUGGLED, 501, 'not_implemented'),
    ('Transfer-Encoding twice', POST + b'Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n'
     b'0\r\n\r\n' + SMUGGLED, 501, 'not_implemented'),
    ('a bare CR inside a header value', b'GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\rb\r\n\r\n' + SMUGGLED,
     400, None),
]

d = Daemon()
try:
    for name, data, want, code in REFUSED:
        buf, closed, secs = exchange(d.port, data)
        status, got = envelope(buf)
        t.ok(status == want and (code is None or got == code) and closed and buf.count(b'HTTP/1.1 ') == 1
             and secs < 1.0,
             '%s: %d%s, the connection closed at once, nothing pipelined served (%d %s, %d answers, %.2f s)'
             % (name, want, ' ' + code if code else '', status, got, buf.count(b'HTTP/1.1 '), secs))
    t.eq(d.sql('SELECT count(*) FROM accounts')[0][0], 0, 'and none of them created an account')
    # A chunked body alone is fine.
    buf, _, _ = exchange(d.port, POST + b'Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n'
                         b'11\r\n{"name":"chunky"}\r\n0\r\n\r\n')
    t.eq(envelope(buf)[0], 201, 'a chunked body alone is read (201)')
    # What libmicrohttpd folds before the daemon sees it: pinned.
    buf, closed, _ = exchange(d.port, b'GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\r\n b\r\nConnection: close\r\n\r\n')
    t.ok(envelope(buf)[0] == 200 and buf.count(b'HTTP/1.1 ') == 1,
         'obs-fold: libmicrohttpd joins the line to its header: one request, answered (docs/deploying-notes.md)')
    buf, closed, _ = exchange(d.port, b'GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\x00b\r\nConnection: close\r\n\r\n')
    t.ok(envelope(buf)[0] == 200 and buf.count(b'HTTP/1.1 ') == 1,
         'a NUL in a value: not shown to the daemon: one request, answered (docs/deploying-notes.md)')
    status, ms = healthz_ms(d.port)
    t.ok(status == 200 and ms < 100, 'a bystander\'s /healthz answered in %.1f ms' % ms)
finally:
    d.cleanup()
t.done()
