"""A result certificate answered by the daemon, checked by an independent
PASETO v4 implementation (the npm package paseto-ts) with the public key
the daemon publishes: the format is the real standard. Skips when node or
tests/trust/js/node_modules is missing (npm ci --prefix tests/trust/js)."""
import json
import os
import shutil
import subprocess

from harness import Daemon, Tap

t = Tap()
js = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'trust', 'js')
if shutil.which('node') is None or not os.path.exists(os.path.join(js, 'node_modules', 'paseto-ts')):
    print('1..0 # SKIP node or paseto-ts is not installed (npm ci --prefix tests/trust/js)')
    raise SystemExit(0)


def paseto_ts(key, token):
    p = subprocess.run(['node', os.path.join(js, 'verify_certificate.mjs'), key, token],
                       capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


d = Daemon()
try:
    r = d.get('/api/games/duskcourt/init?seed=7')
    for a in ({'type': 'capture', 'from': 4, 'to': 0}, {'type': 'capture', 'from': 0, 'to': 3},
              {'type': 'endRun'}):
        r = d.post('/api/games/duskcourt/action', {'stateToken': r.json['stateToken'], 'action': a})
    fin = d.post('/api/games/duskcourt/finish', {'stateToken': r.json['stateToken'], 'rating': 8,
                                                 'review': 'checked elsewhere'})
    cert = fin.json['certificate']
    keys = d.get('/api/v1/keys').json['keys']
    rc, out, err = paseto_ts(keys[0]['paserk'], cert)
    t.eq(rc, 0, 'paseto-ts verifies the daemon\'s certificate with the published k4.public key (%s)' % err.strip())
    got = json.loads(out) if rc == 0 else {}
    claims = got.get('payload', {})
    t.ok(claims.get('run') == fin.json['runId'] and claims.get('game') == 'duskcourt' and
         claims.get('seed') == 7 and claims.get('score') == 90 and claims.get('iss') == 'arcaded',
         'and reads the same claims: run, game, seed, score, issuer')
    replay = d.get('/api/games/duskcourt/runs/' + fin.json['runId']).json['replay']
    v = d.post('/api/games/duskcourt/replays/verify', {'replay': replay, 'certificate': cert})
    t.ok(v.status == 200 and v.json['replayHash'] == claims.get('replay'),
         'its replay claim is the hash of the run\'s replay')
    footer = got.get('footer') or {}
    if isinstance(footer, str):
        footer = json.loads(footer)
    t.ok(footer.get('kid') == keys[0]['kid'],
         'its footer names the key by its k4.pid')
    bad = cert[:30] + ('A' if cert[30] != 'A' else 'B') + cert[31:]
    rc, out, err = paseto_ts(keys[0]['paserk'], bad)
    t.ok(rc != 0, 'a changed certificate does not verify with paseto-ts')
finally:
    d.cleanup()
t.done()
