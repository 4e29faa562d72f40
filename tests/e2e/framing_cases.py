"""The framing cases of test_framing.py (straight at the daemon) and
tests/ops/test_nginx_framing.py (through the shipped nginx site): raw
requests, each followed by a pipelined GET /healthz that must never be
served as a request of its own.
"""
import socket
import time


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

# What libmicrohttpd folds or hides before the daemon sees it.
FOLDED = [
    ('obs-fold (a header line starting with a space)',
     b'GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\r\n b\r\nConnection: close\r\n\r\n'),
    ('a NUL inside a header value', b'GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\x00b\r\nConnection: close\r\n\r\n'),
]
# Bare LF line ends: (name, request, the daemon's status).
BARE_LF = [
    ('every line ended by a bare LF', b'GET /healthz HTTP/1.1\nHost: x\nConnection: close\n\n', 200),
    ('a bare LF between two header lines', b'GET /healthz HTTP/1.1\r\nHost: x\nX-A: a\r\nConnection: close\r\n\r\n',
     200),
    ('two Content-Length split by a bare LF',
     POST + b'Content-Length: 2\nContent-Length: 40\r\n\r\n{}' + SMUGGLED, 400),
    ('Transfer-Encoding hidden behind a bare LF, with Content-Length',
     POST + b'X-A: a\nTransfer-Encoding: chunked\r\nContent-Length: 2\r\n\r\n{}' + SMUGGLED, 400),
]
