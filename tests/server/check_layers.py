#!/usr/bin/env python3
"""The layers depend one way (docs/architecture.md): the engine calls no
allocator, stdio, clock or rand and nothing of api/ or server/; api/ calls
neither libmicrohttpd nor SQLite. Read off the static libraries' undefined
symbols with nm. Given the server library too, checks that the rate limiter
takes keys and times from its caller (no clock, no HTTP, no SQL) and that
nothing in it but the store (a library of its own) calls SQLite or libpq.
Prints TAP.

usage: check_layers.py NM LIBENGINE.a LIBAPI.a [LIBSERVER.a]
"""
import subprocess
import sys

nm, engine, api = sys.argv[1:4]
server = sys.argv[4] if len(sys.argv) > 4 else None
n = failed = 0


def ok(cond, name):
    global n, failed
    n += 1
    failed += 0 if cond else 1
    print('%sok %d - %s' % ('' if cond else 'not ', n, name), flush=True)


def undefined(lib):
    out = subprocess.run([nm, '-u', lib], capture_output=True, text=True, check=True).stdout
    return {line.split()[-1] for line in out.splitlines() if line.strip() and ':' not in line}


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

print('1..%d' % n)
sys.exit(1 if failed else 0)
