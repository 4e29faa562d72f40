"""Strict framing before routing (issue 27; RFC 9112 sections 6.3 and
11.2): what a front end could read as another message boundary than the
daemon's is refused 400 (501 for a transfer coding other than chunked)
in the error envelope, and the connection is closed, so that nothing
pipelined behind it is served. Each case on a raw socket.

What libmicrohttpd never shows the daemon (docs/deploying-notes.md): an
obs-fold line is joined to the header before it, a NUL inside a value is
not seen, and a bare LF ends a line as CRLF does; each is pinned below as
it behaves (one request, answered), and none can carry a message
boundary: framing headers split by a bare LF are still refused.
Whitespace before a header's colon is refused 400 too. The
cases are in framing_cases.py; tests/ops/test_nginx_framing.py sends them
all through the shipped nginx site.
"""
import json
import socket
import time

from framing_cases import BARE_LF, FOLDED, POST, REFUSED, exchange
from harness import Daemon, Tap

t = Tap()


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
    for name, data in FOLDED:
        buf, closed, _ = exchange(d.port, data)
        t.ok(envelope(buf)[0] == 200 and buf.count(b'HTTP/1.1 ') == 1,
             '%s: libmicrohttpd does not show it to the daemon: one request, answered '
             '(docs/deploying-notes.md)' % name)
    # A bare LF ends a line for libmicrohttpd as CRLF does: framing headers
    # split by one are still the headers checked.
    for name, data, want in BARE_LF:
        buf, closed, _ = exchange(d.port, data)
        t.ok(envelope(buf)[0] == want and buf.count(b'HTTP/1.1 ') == 1,
             '%s: %d, one answer (%d)' % (name, want, envelope(buf)[0]))
    # Whitespace between a header's name and its colon (RFC 9112 section
    # 5.1: a server must reject it with 400): on Content-Length, where a
    # front end that strips it and one that drops the line would frame the
    # body differently, and on any other header.
    accounts = d.sql('SELECT count(*) FROM accounts')[0][0]
    for name, data in [
            ('Content-Length : 2 (a space before the colon)',
             POST + b'Content-Length : 2\r\n\r\n{}' + b'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'),
            ('X-A\\t: 1 (a tab before the colon)', b'GET /healthz HTTP/1.1\r\nHost: x\r\nX-A\t: 1\r\n\r\n')]:
        buf, closed, _ = exchange(d.port, data)
        t.ok(envelope(buf) == (400, 'invalid_request') and closed and buf.count(b'HTTP/1.1 ') == 1
             and b'colon' in buf,
             '%s: 400 invalid_request naming it, closed, one answer (%s)' % (name, envelope(buf),))
    t.eq(d.sql('SELECT count(*) FROM accounts')[0][0], accounts, 'and no account was made by them')
    status, ms = healthz_ms(d.port)
    t.ok(status == 200 and ms < 2000, 'a bystander\'s /healthz answered in %.1f ms' % ms)
finally:
    d.cleanup()
t.done()
