#!/usr/bin/env python3
"""The layers depend one way (docs/architecture.md): the engine calls no
allocator, stdio, clock or rand and nothing of api/ or server/; api/ calls
neither libmicrohttpd nor SQLite. Read off the static libraries' undefined
symbols with nm. Given the server library too, checks that the rate limiter
takes keys and times from its caller (no clock, no HTTP, no SQL) and that
nothing in it but the store (a library of its own) calls SQLite or libpq.
Given server/'s libraries (--server, the store among them: --store) and the
engine's archives (--engine-archive, each one), checks that server/ calls
no engine function at all (api/ is its way to the engine) and that no
library of server/ but the store calls SQLite or libpq. Prints TAP.

usage: check_layers.py NM LIBENGINE.a LIBAPI.a [LIBSERVER.a]
           [--server LIB]... [--store LIB]... [--engine-archive LIB]...
"""
import argparse
import os
import subprocess
import sys

ap = argparse.ArgumentParser()
ap.add_argument('nm')
ap.add_argument('engine')
ap.add_argument('api')
ap.add_argument('server', nargs='?')
ap.add_argument('--server', dest='servers', action='append', default=[],
                help="a library of server/ other than the store's")
ap.add_argument('--store', dest='stores', action='append', default=[],
                help="the store's library (server/store/), the one allowed SQL")
ap.add_argument('--engine-archive', dest='engine_archives', action='append', default=[],
                help="one of the engine's archives (engine/meson.build's engine_archives)")
args = ap.parse_args()
nm, engine, api, server = args.nm, args.engine, args.api, args.server
n = failed = 0


def ok(cond, name):
    global n, failed
    n += 1
    failed += 0 if cond else 1
    print('%sok %d - %s' % ('' if cond else 'not ', n, name), flush=True)


def undefined(lib):
    out = subprocess.run([nm, '-u', lib], capture_output=True, text=True, check=True).stdout
    return {line.split()[-1] for line in out.splitlines() if line.strip() and ':' not in line}


def undefined_by_object(lib):
    """{symbol: {object, ...}} of what lib's objects leave undefined."""
    out = subprocess.run([nm, '-A', '-u', lib], capture_output=True, text=True,
                         check=True).stdout
    found = {}
    for line in out.splitlines():
        if line.strip():
            obj = os.path.basename(line.split()[0].rstrip(':').split(':')[-1])
            found.setdefault(line.split()[-1], set()).add(obj)
    return found


def defined(lib):
    """The symbols lib's objects define (text, data, bss, read-only: not U)."""
    out = subprocess.run([nm, '--defined-only', '-g', lib], capture_output=True, text=True,
                         check=True).stdout
    return {line.split()[-1] for line in out.splitlines()
            if line.strip() and ':' not in line and len(line.split()) == 3}


def named(found, syms, most=12):
    """' (sym in obj, ...)' for the failure's line, at most `most` of them."""
    syms = sorted(syms)
    text = ', '.join('%s in %s' % (s, '/'.join(sorted(found[s]))) for s in syms[:most])
    more = ' and %d more' % (len(syms) - most) if len(syms) > most else ''
    return ' (%s%s)' % (text, more) if syms else ''


eng = undefined(engine)
ok(len(eng) > 0, 'the engine library has undefined symbols to check (%d)' % len(eng))
banned = ['malloc', 'calloc', 'realloc', 'free', 'printf', 'fprintf', 'puts', 'fopen', 'fwrite',
          'write', 'read', 'time', 'clock_gettime', 'gettimeofday', 'rand', 'random', 'srand',
          'pthread_create', 'pthread_mutex_lock']
for sym in banned:
    ok(sym not in eng, 'the engine does not call %s' % sym)
ok(not any(s.startswith(('json_', 'sqlite3_', 'MHD_', 'token_', 'store_')) for s in eng),
   'the engine calls nothing of jansson, SQLite, libmicrohttpd, api/ or server/')
allowed_sodium = {'crypto_hash_sha512'}
ok({s for s in eng if s.startswith(('crypto_', 'sodium_', 'randombytes'))} <= allowed_sodium,
   'of libsodium the engine uses SHA-512 only (the piece stream\'s seed)')

a = undefined(api)
ok(not any(s.startswith('MHD_') for s in a), 'api/ does not call libmicrohttpd')
ok(not any(s.startswith(('sqlite3_', 'PQ')) for s in a), 'api/ does not call SQLite or libpq')
ok(not any(s.startswith(('store_', 'http_', 'request_')) for s in a), 'api/ calls nothing of server/')

if server:
    out = subprocess.run([nm, '-A', '-u', server], capture_output=True, text=True,
                         check=True).stdout
    # The store is a library of its own (server/store/): the rest of the
    # daemon reaches SQL only through it.
    sv = {line.split()[-1] for line in out.splitlines() if line.strip()}
    ok(len(sv) > 0, 'the server library has undefined symbols to check (%d)' % len(sv))
    ok(not any(s.startswith(('sqlite3_', 'PQ')) for s in sv),
       'server/ outside server/store/ calls neither SQLite nor libpq%s' %
       ''.join(' (%s)' % s for s in sorted(sv) if s.startswith(('sqlite3_', 'PQ')))[:200])
    rl = {line.split()[-1] for line in out.splitlines()
          if line.split(':')[-2].endswith('ratelimit.c.o')}
    ok(len(rl) > 0, 'the rate limiter has undefined symbols to check (%d)' % len(rl))
    ok(not rl & {'time', 'clock_gettime', 'gettimeofday'},
       'the rate limiter reads no clock (the caller passes the time)')
    ok(not any(s.startswith(('MHD_', 'sqlite3_', 'json_', 'request_', 'store_', 'http_'))
               for s in rl),
       'the rate limiter calls nothing of libmicrohttpd, SQLite, jansson or the request code')

if args.servers or args.stores:
    eng_defined = set()
    for lib in args.engine_archives:
        eng_defined |= defined(lib)
    ok(len(eng_defined) > 0, 'the engine archives define symbols to check against (%d, %d archives)'
       % (len(eng_defined), len(args.engine_archives)))
    outside = {}  # server/'s libraries but the store: symbol -> objects
    for lib in args.servers:
        for s, objs in undefined_by_object(lib).items():
            outside.setdefault(s, set()).update(objs)
    everywhere = {s: set(objs) for s, objs in outside.items()}
    for lib in args.stores:
        for s, objs in undefined_by_object(lib).items():
            everywhere.setdefault(s, set()).update(objs)
    ok(len(everywhere) > 0, "server/'s libraries have undefined symbols to check (%d, %d libraries)"
       % (len(everywhere), len(args.servers) + len(args.stores)))
    calls = set(everywhere) & eng_defined
    ok(not calls, "server/'s libraries leave undefined no symbol an engine archive defines%s"
       % named(everywhere, calls))
    sql = {s for s in outside if s.startswith(('sqlite3_', 'PQ'))}
    ok(not sql, "no sqlite3_* or PQ* symbol in server/'s libraries outside the store's%s"
       % named(outside, sql))
    ok(any(s.startswith(('sqlite3_', 'PQ')) for s in everywhere) or not args.stores,
       'the store library calls SQL (the check above reads the right libraries)')

print('1..%d' % n)
sys.exit(1 if failed else 0)
