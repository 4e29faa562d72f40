"""Accounts and agent keys, agent-check puzzles and the public keys, end to
end."""
import re
import threading

from harness import Daemon, Tap, run_binary

t = Tap()
KEY = re.compile(r'^arcd_[0-9a-hjkmnp-tv-z]{16}_[0-9a-hjkmnp-tv-z]{40}$')


def bearer(key):
    return {'Authorization': 'Bearer ' + key}


d = Daemon()
try:
    r = d.post('/api/v1/accounts', {'name': 'alice_bot'})
    t.eq(r.status, 201, 'POST /api/v1/accounts creates an account')
    key = r.json.get('agentKey', '')
    t.ok(KEY.match(key), 'the agent key has the arcd_ prefix, an id and a secret: %s...' % key[:22])
    t.ok(r.json.get('keyId') == key[5:21], 'keyId is the public part of the key')
    t.eq(r.json.get('name'), 'alice_bot', 'the answer names the account')
    issued = [key]

    for body, what in [({}, 'missing name'), ({'name': 'ab'}, 'a name of 2'),
                       ({'name': 'x' * 33}, 'a name of 33'), ({'name': 'bad name'}, 'a space'),
                       ({'name': 'emoji\u2603'}, 'a non-ASCII letter'), ({'name': 7}, 'a number'),
                       ({'name': 'okname', 'extra': 1}, 'an unknown field')]:
        r = d.post('/api/v1/accounts', body)
        t.ok(r.status == 400 and r.error_code == 'invalid_request' and
             ('name' in r.json['error']['message'] or 'extra' in r.json['error']['message']),
             'account refused with a 400 naming the field: %s' % what)
    r = d.post('/api/v1/accounts', {'name': 'ALICE_BOT'})
    t.ok(r.status == 409 and r.error_code == 'name_taken', 'names are unique, ignoring case')
    r = d.post('/api/v1/accounts', {'name': 'a-3'})
    t.eq(r.status, 201, 'a name of 3 with a dash is accepted')
    issued.append(r.json['agentKey'])

    # /api/v1/me
    r = d.get('/api/v1/me', headers=bearer(key))
    t.ok(r.status == 200 and r.json.get('name') == 'alice_bot', 'GET /api/v1/me answers the account')
    t.ok(len(r.json.get('keys', [])) == 1 and r.json['keys'][0]['id'] == key[5:21] and
         r.json['keys'][0]['current'] is True, '/me lists the key by its id')
    r = d.get('/api/v1/me')
    t.ok(r.status == 401 and r.error_code == 'unauthorized', 'no key: 401')
    t.ok(r.header('WWW-Authenticate', ) is not None, '401 carries WWW-Authenticate')
    r = d.get('/api/v1/me', headers={'Authorization': 'Basic abc'})
    t.eq(r.status, 401, 'a non-Bearer Authorization: 401')
    alphabet = '0123456789abcdefghjkmnpqrstvwxyz'
    typo_rejected = 0
    positions = list(range(5, 21)) + list(range(22, len(key)))
    for pos in positions:
        c = key[pos]
        other = alphabet[(alphabet.index(c) + 7) % 32]
        bad = key[:pos] + other + key[pos + 1:]
        r = d.get('/api/v1/me', headers=bearer(bad))
        if r.status == 401 and 'checksum' in r.json['error']['message']:
            typo_rejected += 1
    t.eq(typo_rejected, len(positions), 'a key with any one character changed fails its checksum')
    r = d.get('/api/v1/me', headers=bearer('arcd_' + 'x' * 10))
    t.eq(r.status, 401, 'a malformed key: 401')
    r = d.get('/api/v1/me', headers=bearer('ghp_abcdef'))
    t.eq(r.status, 401, 'a foreign key: 401')

    # A well-formed key that was never issued: valid checksum (the first 40
    # bits of BLAKE2b-128 of the text before it, as api/trust/agentkey.h says),
    # unknown id.
    import hashlib

    def b32(bs):
        bits = ''.join('{:08b}'.format(b) for b in bs)
        return ''.join(alphabet[int(bits[i:i + 5], 2)] for i in range(0, len(bits), 5))
    body = 'arcd_' + b32(bytes(10)) + '_' + b32(bytes(20))
    check = b32(hashlib.blake2b(body.encode(), digest_size=16).digest()[:5])
    r = d.get('/api/v1/me', headers=bearer(body + check))
    t.ok(r.status == 401 and 'unknown' in r.json['error']['message'],
         'a well-formed key that was never issued: 401 unknown')

    # Rotation without downtime: a second key, at most two live, revoke.
    r = d.post('/api/v1/me/keys', {}, headers=bearer(key))
    t.eq(r.status, 201, 'POST /api/v1/me/keys answers an additional key')
    key2 = r.json.get('agentKey', '')
    issued.append(key2)
    t.ok(KEY.match(key2) and key2 != key, 'the additional key is new')
    t.eq(d.get('/api/v1/me', headers=bearer(key2)).status, 200, 'the additional key works')
    t.eq(d.get('/api/v1/me', headers=bearer(key)).status, 200, 'the first key still works')
    r = d.post('/api/v1/me/keys', {}, headers=bearer(key))
    t.ok(r.status == 409 and r.error_code == 'key_limit', 'a third live key is refused (409)')
    r = d.request('DELETE', '/api/v1/me/keys/' + key[5:21], headers=bearer(key2))
    t.ok(r.status == 200 and r.json.get('revoked') == key[5:21], 'DELETE revokes the first key')
    r = d.get('/api/v1/me', headers=bearer(key))
    t.ok(r.status == 401 and 'revoked' in r.json['error']['message'], 'a revoked key gets 401')
    r = d.request('DELETE', '/api/v1/me/keys/' + key2[5:21], headers=bearer(key2))
    t.ok(r.status == 409, 'the only live key cannot be revoked')
    r = d.request('DELETE', '/api/v1/me/keys/0000000000000000', headers=bearer(key2))
    t.eq(r.status, 404, 'revoking an unknown key id: 404')
    r = d.get('/api/v1/me', headers=bearer(key2))
    t.ok(r.status == 200 and len(r.json['keys']) == 2 and r.json['keys'][1]['revokedAt'] is not None,
         '/me lists the revoked key with its revocation time')

    # The database never holds a key in the clear.
    d.stop()
    dump = d.dump()
    leaked = [k for k in issued if k in dump or k[22:] in dump]
    t.eq(leaked, [], 'no issued key (nor its secret part) appears in a dump of the database')
    log = d.read_log()
    t.ok(not any(k in log or k[22:] in log for k in issued), 'no issued key appears in the log')
    d.start()

    # Agent-check puzzles.
    r = d.get('/api/v1/agent-check')
    ac = r.json.get('agent_check', {}) if r.json else {}
    t.ok(r.status == 200 and isinstance(ac.get('puzzle'), str) and len(ac['puzzle']) > 20,
         'GET /api/v1/agent-check answers a puzzle')
    t.ok(isinstance(ac.get('token'), str) and ac['token'].startswith('ac_'), 'the puzzle has a token')
    t.ok(590 <= ac.get('expires_in', 0) <= 600, 'the puzzle expires in 10 minutes')
    t.ok(not re.search(r'\d', ac.get('puzzle', '')), 'the puzzle has no digits')
    t.diag('a puzzle: ' + ac.get('puzzle', ''))
    tokens = set()
    lock = threading.Lock()

    def fetch():
        for _ in range(25):
            tok = d.get('/api/v1/agent-check').json['agent_check']['token']
            with lock:
                tokens.add(tok)
    ths = [threading.Thread(target=fetch) for _ in range(4)]
    [th.start() for th in ths]
    [th.join() for th in ths]
    t.eq(len(tokens), 100, 'no two live puzzles share a token (100 fetched in parallel)')

    # Public signing keys.
    r = d.get('/api/v1/keys')
    keys = r.json.get('keys', []) if r.json else []
    t.ok(r.status == 200 and len(keys) == 1 and keys[0]['kid'].startswith('k4.pid.') and
         keys[0]['paserk'].startswith('k4.public.') and keys[0]['current'] is True,
         'GET /api/v1/keys publishes the signing key with its k4.pid')
    first_kid = keys[0]['kid'] if keys else None

    # keys rotate: a new current key, the old one kept.
    d.stop()
    rc, out, err = run_binary(['keys', 'rotate', '--db', d.db])
    t.ok(rc == 0 and '2 keys' in out, 'arcaded keys rotate adds a key: %s' % out.strip())
    d.start()
    keys = d.get('/api/v1/keys').json['keys']
    t.ok(len(keys) == 2 and keys[0]['current'] and keys[1]['kid'] == first_kid and
         keys[0]['kid'] != first_kid, 'after rotation both keys are published, the new one current')
    t.eq(d.get('/api/v1/me', headers=bearer(key2)).status, 200,
         'agent keys survive a key rotation (the pepper does not rotate)')
finally:
    d.cleanup()

t.done()
