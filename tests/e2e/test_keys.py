"""Keys without restarts: after `arcaded keys rotate` and a SIGHUP the
daemon seals new stateTokens and signs new certificates with the new key,
while tokens and certificates of the old key still open and verify; a key
file that does not load on SIGHUP (malformed, or with another pepper) is
refused with a log line and the keys in use stay; /api/v1/keys shows each
change."""
import base64
import json
import os
import signal
import time

from harness import Daemon, Tap, run_binary

t = Tap()
DC = '/api/games/duskcourt/'


def footer(token):
    """The footer of a PASETO token (public): {"kid", "run"} for a stateToken."""
    part = token.split('.')[3]
    return json.loads(base64.urlsafe_b64decode(part + '=' * (-len(part) % 4)))


def cert_kid(cert):
    part = cert.split('.')[3]
    return json.loads(base64.urlsafe_b64decode(part + '=' * (-len(part) % 4)))['kid']


def finished_run(d, seed):
    """A Duskcourt run played to its first break and ended: (run, token, certificate)."""
    r = d.get(DC + 'init?seed=%d' % seed)
    while r.json['state']['phase'] == 'playing':
        cap = [a for a in r.json['legalActions'] if a['type'] == 'capture'][0]
        r = d.post(DC + 'action', {'stateToken': r.json['stateToken'], 'action': cap})
    r = d.post(DC + 'action', {'stateToken': r.json['stateToken'], 'action': {'type': 'endRun'}})
    f = d.post(DC + 'finish', {'stateToken': r.json['stateToken'], 'rating': 5, 'review': 'Keys.'})
    return r.json['runId'], r.json['stateToken'], f.json['certificate']


def hup_and_wait(d, marker, timeout=5.0):
    """SIGHUP, then wait for a log line containing marker."""
    seen = d.read_log().count(marker)
    d.send_signal(signal.SIGHUP)
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if d.read_log().count(marker) > seen:
            return True
        time.sleep(0.05)
    return False


d = Daemon()
key_path = os.path.join(d.folder, 'arcaded.key')
try:
    before = d.get('/api/v1/keys').json['keys']
    t.eq(len(before), 1, 'one key to start with')
    old_run = d.get(DC + 'init?seed=3')
    old_token = old_run.json['stateToken']
    old_lid = footer(old_token)['kid']
    _, _, old_cert = finished_run(d, 4)

    rc, out, _ = run_binary(['keys', 'rotate', '--key-file', key_path])
    t.ok(rc == 0 and '2 keys' in out and 'SIGHUP' in out, 'keys rotate says to send SIGHUP: %s' % out.strip())
    t.ok(hup_and_wait(d, 'keys reloaded'), 'SIGHUP reloads the key file (logged)')
    after = d.get('/api/v1/keys').json['keys']
    t.ok(len(after) == 2 and after[0]['current'] and after[1]['kid'] == before[0]['kid'] and
         not after[1]['current'], '/api/v1/keys shows the new current key and keeps the old one')

    fresh = d.get(DC + 'init?seed=5').json['stateToken']
    t.ok(footer(fresh)['kid'] != old_lid, 'new stateTokens are sealed with the new key')
    r = d.post(DC + 'state', {'stateToken': old_token})
    t.eq(r.status, 200, 'a stateToken of the old key still opens')
    _, _, new_cert = finished_run(d, 6)
    t.ok(cert_kid(new_cert) == after[0]['kid'] and cert_kid(old_cert) == before[0]['kid'],
         'new certificates are signed with the new key, old ones named the old key')
    run = d.get(DC + 'leaderboard?seed=4').json['entries'][0]['runId']
    doc = d.get(DC + 'runs/' + run).json
    v = d.post(DC + 'replays/verify', {'replay': doc['replay'], 'certificate': old_cert})
    t.ok(v.status == 200 and v.json['certificate']['valid'], 'a certificate of the old key still verifies')

    # A malformed key file: refused, the ring in use stays.
    with open(key_path) as f:
        good = f.read()
    with open(key_path, 'w') as f:
        f.write('arcaded-keys v1\nthis is not a key file\n')
    os.chmod(key_path, 0o600)
    t.ok(hup_and_wait(d, 'was not reloaded'), 'a malformed key file is refused with a log line')
    t.eq(len(d.get('/api/v1/keys').json['keys']), 2, 'and the keys in use stay')
    t.eq(d.post(DC + 'state', {'stateToken': fresh}).status, 200, 'tokens still open after the refusal')

    # A key file with another pepper (another daemon's): refused, since
    # agent keys are stored as hashes keyed by the pepper.
    other = Daemon()
    try:
        with open(os.path.join(other.folder, 'arcaded.key')) as f:
            foreign = f.read()
    finally:
        other.cleanup()
    with open(key_path, 'w') as f:
        f.write(foreign)
    os.chmod(key_path, 0o600)
    t.ok(hup_and_wait(d, 'pepper changed'), 'a key file with another pepper is refused')
    t.eq(len(d.get('/api/v1/keys').json['keys']), 2, 'and the keys in use stay')
    with open(key_path, 'w') as f:
        f.write(good)
    os.chmod(key_path, 0o600)
    rc, stopped = d.stop()
    t.eq(rc, 0, 'the daemon stops cleanly after its reloads')
finally:
    d.cleanup()

t.done()
